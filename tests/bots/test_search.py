"""The search bot: reproducible with an iteration budget, within its time budget, scored like the engine."""

from __future__ import annotations

import random

import pytest
from botkit import positions, rules_of, table_id

from mushka import new_game
from mushka.bots import make_bot, play_game
from mushka.bots.base import deal_game_view
from mushka.bots.playout import Playout, Root
from mushka.bots.search import Factors, Phases, SearchBot, SearchConfig
from mushka.bots.value import Outlook
from mushka.engine import Phase, new_deal
from mushka.errors import MushkaError


def game_actions(variant: str, seed: int, spec: str) -> list[str]:
    rules = rules_of((variant, 4))
    game = new_game(rules, rng=seed, max_deals=3) if rules.has_trumps else new_game(rules, rng=seed)
    bots = [make_bot(spec), make_bot("heuristic"), make_bot(spec), make_bot("heuristic")]
    play_game(game, bots, random.Random(seed))
    return [str(a) for d in game.deals for a in d.actions]


@pytest.mark.parametrize("variant", ["classic", "mistigri", "kopilka"])
def test_search_with_an_iteration_budget_is_reproducible(variant):
    spec = "search:iterations=40,seconds=0"
    first = game_actions(variant, 9, spec)
    assert first == game_actions(variant, 9, spec)
    assert first != game_actions(variant, 10, spec)


@pytest.mark.parametrize("variant", ["classic", "kopilka"])
def test_search_keeps_to_a_time_budget(variant):
    rules = rules_of((variant, 4))
    bot = SearchBot(SearchConfig(iterations=0, seconds=0.05))
    rng = random.Random(4)
    for deal in positions(rules, deals=3, seed=91, every=0.5):
        bot.choose(deal_game_view(deal, deal.to_act), rng)
    assert bot.times
    # Generous slack: a loaded machine may overrun the budget, never by a second.
    assert max(bot.times) < 1.0
    assert all(w >= 1 for w in bot.worlds)


@pytest.mark.parametrize("variant", ["classic", "mistigri"])
def test_search_believing_the_others_play_like_the_heuristic_stays_legal(variant):
    rules = rules_of((variant, 4))
    bot = make_bot("search:iterations=30,seconds=0,believe=2")
    rng = random.Random(12)
    checked = 0
    for deal in positions(rules, deals=6, seed=17, every=0.4):
        assert deal.is_legal(bot.choose(deal_game_view(deal, deal.to_act), rng))
        checked += 1
    assert checked > 10


def test_make_bot_reads_budgets_and_refuses_bad_specs():
    bot = make_bot("search:iterations=250,seconds=0.2")
    assert isinstance(bot, SearchBot) and bot.config.iterations == 250 and bot.seconds == 0.2
    with pytest.raises(MushkaError, match="nonsense"):
        make_bot("nonsense")
    with pytest.raises(MushkaError, match="depth"):
        make_bot("search:depth=3")
    with pytest.raises(MushkaError, match="iterations"):
        make_bot("search:iterations=0,seconds=0")
    with pytest.raises(MushkaError, match="iterations"):
        make_bot("search:iterations=lots")
    with pytest.raises(MushkaError, match="epsilon"):
        make_bot("search:epsilon=2")


@pytest.mark.parametrize("table", [("classic", 4), ("mistigri", 4), ("mistigri", 3), ("classic", 6), ("kopilka", 4)],
                         ids=table_id)
def test_playout_scores_agree_with_the_engine(table):
    """The playouts read the score from public state; the engine's result is the reference."""
    rules = rules_of(table)
    rng = random.Random(8)
    compared = 0
    for k in range(150):
        deal = new_deal(rules, k % rules.players, rng=rng)
        if deal.is_over:
            continue  # C22: a мушка shown at once
        view = deal.view(deal.to_act)
        root = Root.of(view)
        seat = deal.to_act
        records = tuple(rng.randrange(1, 40) for _ in range(rules.players))
        outlook = Outlook(seat, rules.players, rules.has_trumps, records, rules.stake, last_game=k % 2 == 0,
                          dealer=deal.dealer)
        playout = Playout(rules, records, epsilon=0.3)
        legal = deal.legal_actions()
        score = playout.run(deal, legal[rng.randrange(len(legal))], rng, root, seat)
        result = deal.result
        assert result is not None
        if score is None:
            continue
        if rules.has_trumps:
            assert score.delta == result.record_delta
        else:
            assert score.money == result.money[seat] and score.pot == result.pot
            assert score.out == (-1 if result.out is None else result.out)
        assert outlook.utility_of(score) == pytest.approx(outlook.utility(result))
        compared += 1
    assert compared > 100


def test_c22_the_exchange_chasing_four_of_a_suit_and_the_ace_of_spades_is_a_candidate():
    from botkit import stacked

    from mushka.bots.search import candidates
    from mushka.cards import parse_cards
    from mushka.engine.actions import stand_mask

    rules = rules_of(("classic", 4))
    # Three diamonds and the A♠: throwing the two clubs chases four diamonds and the A♠ (C22).
    deal = stacked(rules, {1: "AS 9D 8D 7D 7C"}, dealer=0, turnup="6H")
    view = deal_game_view(deal, 1)
    chase = stand_mask(sum(1 << c.index for c in parse_cards("7C")))
    preferred = view.deal.legal[0]
    assert chase in candidates(view, preferred, chase=True)
    flush = stand_mask(sum(1 << c.index for c in parse_cards("AS 7C")))
    assert flush in candidates(view, preferred, chase=True)
    assert chase in view.deal.legal


def test_kopilka_has_no_declaration_so_the_chasing_search_plays_as_the_search():
    # Kopilka has no stand/pass/exchange (C6-C10 are trump variants' rules): chase and declare
    # cannot change a kopilka choice, so the strength tables count the two bots as one there.
    # In mistigri they do change the play.
    plain = "search:iterations=40,seconds=0"
    chasing = "search:iterations=40,seconds=0,chase=1,declare=4"
    assert game_actions("kopilka", 6, chasing) == game_actions("kopilka", 6, plain)
    assert game_actions("mistigri", 6, chasing) != game_actions("mistigri", 6, plain)


def test_a_declaration_gets_more_playouts_with_declare():
    rules = rules_of(("classic", 4))
    plain = SearchBot(SearchConfig(iterations=60, seconds=0))
    more = SearchBot(SearchConfig(iterations=60, seconds=0, declare=4))
    for deal in positions(rules, deals=30, seed=3, every=1.0):
        view = deal_game_view(deal, deal.to_act)
        if view.deal.phase.name == "DECLARE" and len(view.deal.legal) > 1:
            plain.choose(view, random.Random(2))
            more.choose(view, random.Random(2))
            break
    assert plain.worlds and more.worlds
    assert more.worlds[-1] > 3 * plain.worlds[-1]


@pytest.mark.parametrize("variant", ["classic", "mistigri"])
@pytest.mark.parametrize("seatwise", [0, 1])
def test_search_believing_with_the_self_play_factors_is_reproducible_and_legal(variant, seatwise):
    spec = "search:iterations=40,seconds=0,believe=1,belief=1" + (f",seatwise={seatwise}" if seatwise else "")
    first = game_actions(variant, 6, spec)
    assert first == game_actions(variant, 6, spec)
    if seatwise:  # worlds drawn seat by seat are other worlds: the game goes otherwise
        assert first != game_actions(variant, 6, "search:iterations=40,seconds=0,believe=1,belief=1")
    bot = make_bot(spec)
    assert bot.config.belief is Factors.SELF_PLAY and bot.config.seatwise == bool(seatwise)
    rng = random.Random(5)
    for deal in positions(rules_of((variant, 4)), deals=3, seed=9, every=0.4):
        assert deal.is_legal(bot.choose(deal_game_view(deal, deal.to_act), rng))
    assert bot.times


@pytest.mark.parametrize("name", ["chase", "declare", "belief", "phases", "believe_phases", "seatwise", "believe"])
def test_search_options_out_of_range_are_refused(name):
    with pytest.raises(MushkaError):
        make_bot(f"search:{name}=99")


@pytest.mark.parametrize("name", ["weigh", "race", "learn", "style"])
def test_the_experiments_not_adopted_are_no_longer_knobs(name):
    """Their runs stay in the run log (docs/bots.md); a spec that names them is refused by name."""
    with pytest.raises(MushkaError, match=name):
        make_bot(f"search:{name}=1")


def test_belief_ranges_over_the_factor_sets_exactly():
    """Every factor set can be chosen and one past the last is refused, so a new set is reachable."""
    from mushka.bots.belief import BELIEF, SELF_PLAY

    last = max(Factors)
    assert make_bot(f"search:belief={int(last)}").config.belief is last
    assert [f.model for f in Factors] == [BELIEF, SELF_PLAY]
    with pytest.raises(MushkaError, match="belief"):
        make_bot(f"search:belief={int(last) + 1}")


@pytest.mark.parametrize("variant", ["classic", "mistigri", "kopilka"])
def test_world_values_give_every_candidate_the_numbers_of_fresh_generators(variant):
    """Common random numbers: winding the generators back per candidate is the same as
    seeding a fresh one for each (the chance to come from ``seed``, the playout's from ``seed + 1``)."""
    from mushka.bots.heuristic import HeuristicBot
    from mushka.bots.sampler import WorldSampler
    from mushka.bots.search import candidates
    from mushka.bots.value import world_values

    rules = rules_of((variant, 4))
    rng = random.Random(8)
    compared = 0
    for deal in positions(rules, deals=6, seed=29, every=0.3):
        view = deal_game_view(deal, deal.to_act)
        if len(view.deal.legal) == 1:
            continue
        cands = candidates(view, HeuristicBot().choose(view, rng))
        outlook = Outlook.of(view)
        playout = Playout(rules, outlook.records)
        root = Root.of(view.deal)
        world = WorldSampler(view.deal).sample(rng)
        assert world is not None
        seed = rng.getrandbits(32)
        active = list(range(len(cands)))
        got = world_values(world, cands, active, seed, random.Random(), playout, root, outlook)
        for i, a in enumerate(cands):
            x = world.copy(random.Random(seed))
            score = playout.run(x, a, random.Random(seed + 1), root, outlook.seat)
            want = outlook.utility(x.result) if score is None else outlook.utility_of(score)
            assert got[i] == want, (i, str(a))
            compared += 1
    assert compared > 20


def test_kopilka_worlds_proven_by_the_money_are_those_proven_by_every_event():
    """K12: the sampler's quick proof of a kopilka world (checked replay, then the seat's hand,
    the pot and the balances) keeps exactly the proposals the event-by-event comparison keeps."""
    from mushka.bots.sampler import WorldSampler

    rules = rules_of(("kopilka", 4))
    rng = random.Random(2)
    proposals = 0
    for deal in positions(rules, deals=8, seed=23, every=0.3):
        view = deal.view(deal.to_act)
        quick, strict = WorldSampler(view), WorldSampler(view, strict=True)
        for _ in range(6):
            proposal = quick.propose(rng)
            if proposal is None:
                continue
            assert (quick._verify(*proposal) is None) == (strict._verify(*proposal) is None)
            proposals += 1
    assert proposals > 50


@pytest.mark.parametrize("variant", ["classic", "mistigri", "kopilka"])
@pytest.mark.parametrize("phases", [1, 2])
def test_a_bot_told_to_think_in_one_phase_plays_the_rules_of_thumb_exactly_in_the_other(variant, phases):
    """``phases``: outside the phase it searches, the search bot and the oracle choose what the
    rules of thumb choose, and the unattached oracle refuses only where it would look at the cards."""
    from mushka.bots.heuristic import HeuristicBot
    from mushka.bots.oracle import OracleBot, OracleConfig, OracleNotAttachedError
    from mushka.bots.search import thinks

    rules = rules_of((variant, 4))
    bot = make_bot(f"search:iterations=20,seconds=0,phases={phases}")
    unattached = OracleBot(OracleConfig(iterations=8, phases=Phases(phases)))
    heuristic = HeuristicBot()
    plain = searched = refused = 0
    for deal in positions(rules, deals=6, seed=31, every=0.4):
        view = deal_game_view(deal, deal.to_act)
        if len(view.deal.legal) == 1:
            continue
        if thinks(deal.phase, Phases(phases)):
            searched += 1
            assert deal.is_legal(bot.choose(view, random.Random(3)))
            with pytest.raises(OracleNotAttachedError):
                unattached.choose(view, random.Random(3))
            refused += 1
            continue
        plain += 1
        want = heuristic.choose(view, random.Random(3))
        assert bot.choose(view, random.Random(3)) == want
        assert unattached.choose(view, random.Random(3)) == want
    assert plain > 3 and searched > 3 and refused == searched


@pytest.mark.parametrize("variant", ["classic", "mistigri"])
def test_believe_applies_only_in_the_phases_named_by_believe_phases(variant):
    """``believe_phases=1``: worlds are weighed by the declarations while declaring and drawn
    uniformly in the tricks, so a trick is chosen as by the bot that never believes."""
    rules = rules_of((variant, 4))
    spec = "search:iterations=30,seconds=0,believe=1,belief=1"
    split = make_bot(spec + ",believe_phases=1")
    believing = make_bot(spec)
    uniform = make_bot("search:iterations=30,seconds=0,belief=1")
    tricks = declarations = differ = 0
    for deal in positions(rules, deals=8, seed=37, every=0.5):
        view = deal_game_view(deal, deal.to_act)
        if len(view.deal.legal) == 1:
            continue
        got = split.choose(view, random.Random(11))
        if deal.phase == Phase.PLAY:
            tricks += 1
            assert got == uniform.choose(view, random.Random(11))
            differ += got != believing.choose(view, random.Random(11))
        else:
            declarations += 1
            assert got == believing.choose(view, random.Random(11))
    assert tricks > 5 and declarations > 3
    assert differ  # believing in the tricks too would have chosen otherwise somewhere
