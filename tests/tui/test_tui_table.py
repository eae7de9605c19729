"""The table behind terminal play: the human's log, bots from the registry, records."""

from __future__ import annotations

import random

import pytest

from mushka.bots import BOTS, BotKind, RandomBot
from mushka.engine import Action
from mushka.engine import events as ev
from mushka.errors import IllegalActionError, MushkaError
from mushka.i18n import keys, tr
from mushka.match import DealStarted
from mushka.records import Record, replay
from mushka.rules import make_rules
from mushka.tui import SetupError, TerminalTable, bots_for, default_bot, split_bot_specs


def play_out(table: TerminalTable, seed: int = 0, limit: int = 5000) -> None:
    """Play the human's seat with a random choice too, through the checked path."""
    rng = random.Random(seed)
    for _ in range(limit):
        if table.is_over:
            return
        seat = table.to_act
        if seat == table.human:
            table.act(rng.choice(table.view().deal.legal))
        else:
            table.act(table.choose(seat), seat)
    raise AssertionError("the game did not end")


def random_table(variant: str, players: int | None = None, human: int = 0, seed: int = 1) -> TerminalTable:
    rules = make_rules(variant, players)
    bots = [None if s == human else RandomBot() for s in range(rules.players)]
    return TerminalTable(rules, bots, human=human, seed=seed)


@pytest.mark.parametrize(("variant", "players", "human", "seed"),
                         [("classic", 4, 0, 1), ("mistigri", 5, 3, 2), ("kopilka", 4, 1, 3), ("classic", 3, 2, 9)])
def test_log_is_every_event_as_the_human_saw_it(variant: str, players: int, human: int, seed: int) -> None:
    table = random_table(variant, players, human, seed)
    play_out(table, seed)
    game = table.game
    game_ids = {id(e) for e in game.game_events()}
    for number, deal in enumerate(game.finished, 1):
        logged = [x.event for x in table.log if x.deal == number and id(x.event) not in game_ids]
        assert logged == deal.events(human)
    assert [x.event for x in table.log if id(x.event) in game_ids] == game.game_events()
    starts = [x for x in table.log if isinstance(x.event, DealStarted)]
    assert [x.event.number for x in starts] == [x.deal for x in starts] == list(range(1, len(game.finished) + 1))
    assert table.log[-1].event.name == "GameEnded"


@pytest.mark.parametrize(("variant", "seed"), [("mistigri", 5), ("kopilka", 6)])
def test_log_shows_no_hidden_card_of_another_seat(variant: str, seed: int) -> None:
    table = random_table(variant, None, 0, seed)
    play_out(table, seed)
    hidden = 0
    for entry in table.log:
        e = entry.event
        if isinstance(e, ev.Dealt):
            assert all(h is None for s, h in enumerate(e.hands) if s != 0)
            assert e.hands[0] is not None
        elif isinstance(e, ev.Declared) and e.seat != 0 and not e.open:
            assert e.discards is None and e.drawn is None
            hidden += e.stand
        elif isinstance(e, ev.TookTurnup) and e.seat != 0 and not e.open:
            assert e.discard is None
        elif isinstance(e, ev.CardTaken) and e.taker != 0:
            assert e.card is None
            hidden += 1
        elif isinstance(e, ev.GroupSettled) and e.owner != 0:
            assert e.taken is None and e.drawn is None
        elif isinstance(e, (ev.Discarded, ev.Drew)) and e.seat != 0 and not getattr(e, "played", False):
            assert e.card is None
            hidden += 1
    assert hidden > 0  # the check met hidden cards at all


def test_illegal_action_changes_nothing() -> None:
    table = random_table("classic", 4, 0, 1)
    while not table.human_to_act:
        table.act(table.choose(table.to_act), table.to_act)
    before = (len(table.log), table.view().deal.hand, table.game.deal.actions)
    with pytest.raises(IllegalActionError) as caught:
        table.act(Action.draw())
    assert caught.value.rule == "C7"
    with pytest.raises(MushkaError):
        table.act("stand QQ")
    assert (len(table.log), table.view().deal.hand, table.game.deal.actions) == before


def test_record_replays_finished_and_unfinished_games(tmp_path) -> None:
    table = random_table("kopilka", None, 0, 4)
    rng = random.Random(4)
    for _ in range(25):
        seat = table.to_act
        table.act(rng.choice(table.view().deal.legal) if seat == 0 else table.choose(seat), seat)
    partial = tmp_path / "partial.json"
    table.save(partial)
    record = Record.loads(partial.read_text(encoding="utf-8"))
    assert record.meta["seed"] == 4 and record.meta["human_seat"] == 0
    again = replay(record)
    assert [d.actions for d in again.deals] == [d.actions for d in table.game.deals]  # type: ignore[union-attr]
    play_out(table, 4)
    done = tmp_path / "done.json"
    table.save(done)
    assert replay(Record.loads(done.read_text(encoding="utf-8"))).result == table.game.result  # type: ignore[union-attr]


def test_same_seed_same_game() -> None:
    one, two = random_table("classic", 4, 0, 77), random_table("classic", 4, 0, 77)
    play_out(one, 3)
    play_out(two, 3)
    assert one.record().to_json() == two.record().to_json()


def test_bots_see_only_their_view(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []

    class Spy(RandomBot):
        def choose(self, view, rng):  # type: ignore[no-untyped-def]
            assert view.deal.hand == table.game.deal.hand(view.seat)
            seen.append(view.seat)
            return super().choose(view, rng)

    table = TerminalTable(make_rules("classic", 3), [None, Spy(), Spy()], human=0, seed=3)
    for _ in range(30):
        if table.is_over:
            break
        seat = table.to_act
        if seat == 0:
            table.act(table.view().deal.legal[0])
        else:
            before = len(seen)
            table.act(table.choose(seat), seat)
            assert seen[before:] == [seat]


# --- setting up ------------------------------------------------------------------------


def test_split_bot_specs_keeps_bot_arguments_together() -> None:
    assert split_bot_specs("random, heuristic") == ["random", "heuristic"]
    assert split_bot_specs("search:iterations=200,c=2,random") == ["search:iterations=200,c=2", "random"]
    assert split_bot_specs("") == []


def test_bots_for_one_name_or_one_per_seat() -> None:
    bots = bots_for(["random"], 4, 2)
    assert bots[2] is None and all(isinstance(b, RandomBot) for s, b in enumerate(bots) if s != 2)
    assert len(bots_for(["random", "random", "random"], 4, 0)) == 4


@pytest.mark.parametrize(("specs", "players", "human", "key"), [
    (["random", "random"], 4, 0, "tui.err_bot_count"),
    (["random"], 4, 4, "tui.err_seat"),
    (["random"], 3, -1, "tui.err_seat"),
    (["no-such-bot"], 4, 0, "tui.err_unknown_bot"),
    (["random:depth=3"], 4, 0, "tui.err_bot_spec"),
])
def test_bad_setup_is_named_in_both_languages(specs: list[str], players: int, human: int, key: str) -> None:
    with pytest.raises(SetupError) as caught:
        bots_for(specs, players, human)
    assert caught.value.key == key
    en, ru = caught.value.message("en"), caught.value.message("ru")
    assert en != ru and en.startswith(("--bots", "--seat")) and ru.startswith(("--bots", "--seat"))


def test_default_bot_is_the_strongest_fair_level_as_in_the_browser() -> None:
    # The terminal and the browser table seat the same opponent when nobody chose (issue 12).
    from mushka.bots import LEVELS, strongest_bot

    assert default_bot() == next(lv.id for lv in LEVELS if lv.spec == strongest_bot())
    assert bots_for([], 3, 0)[1].name == default_bot()  # type: ignore[union-attr]


def test_default_bot_falls_back_when_levels_are_not_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    from mushka.bots import level_ids

    for lid in level_ids():
        monkeypatch.delitem(BOTS, lid)
    monkeypatch.setitem(BOTS, "heuristic", BotKind(RandomBot))
    assert default_bot() == "heuristic"
    monkeypatch.delitem(BOTS, "heuristic")
    assert default_bot() == "random"


def test_table_refuses_bad_seating() -> None:
    rules = make_rules("classic", 3)
    with pytest.raises(ValueError, match="seat"):
        TerminalTable(rules, [RandomBot(), None, RandomBot()], human=0)
    with pytest.raises(ValueError, match="bot"):
        TerminalTable(rules, [None, None, RandomBot()], human=0)


def test_every_text_in_both_languages() -> None:
    import string

    ours = [k for k in keys() if k.startswith("tui.")]
    assert len(ours) > 50
    for key in ours:
        en, ru = tr(key, "en"), tr(key, "ru")
        assert en and ru, key
        fields_en = {f[1] for f in string.Formatter().parse(en) if f[1]}
        fields_ru = {f[1] for f in string.Formatter().parse(ru) if f[1]}
        assert fields_en == fields_ru, key


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_title_line_names_the_opponents_level(lang: str) -> None:
    # The terminal names the opponents by level, as the lobby does, never by algorithm (issue 12).
    from mushka.bots import level
    from mushka.tui import render

    rules = make_rules("classic", 4)
    seats = bots_for(["expert"], 4, 0)
    table = TerminalTable(rules, seats, human=0, seed=3)
    title = render.title_line(table.view(), lang, table.names, 0).plain
    assert title.endswith(tr("tui.opponents", lang, who=level("expert").title(lang)))
    assert "search" not in title and "expert" not in title
    mixed = TerminalTable(rules, bots_for(["club", "expert", "beginner"], 4, 0), human=0, seed=3)
    said = render.title_line(mixed.view(), lang, mixed.names, 0).plain
    personas = render.PERSONAS[lang]
    for seat, lid in ((1, "club"), (2, "expert"), (3, "beginner")):
        assert f"{personas[seat]} {level(lid).title(lang)}" in said
    # A spec that is not a level reads as given: the player chose it by that name.
    specs = ["human", "search:iterations=50", "random", "random"]
    who = ", ".join(f"{personas[seat]} {specs[seat]}" for seat in (1, 2, 3))
    assert render.title_line(table.view(), lang, specs, 0).plain.endswith(tr("tui.opponents", lang, who=who))
