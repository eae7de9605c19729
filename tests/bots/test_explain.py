"""The suggested move and its reason (mushka.bots.explain): true of the position, in both languages."""

from __future__ import annotations

import random

import pytest

from mushka.bots import make_bot
from mushka.bots.explain import explain, suggest
from mushka.engine import Kind, Phase
from mushka.match import Game, new_game
from mushka.rules import Rules

WINNING = {"win_privileged", "win_trump", "win_cheap", "win_high"}
LOSING = {"duck", "duck_low", "trump_low", "discard"}


@pytest.mark.parametrize("variant", ["classic", "mistigri", "kopilka"])
def test_every_reason_is_the_bots_move_and_true_of_the_trick(variant: str) -> None:
    """C15/K13: a move said to win the trick wins it when the seat plays last; one said not to, does not."""
    rng = random.Random(7)
    opponents = make_bot("random")
    checked = {"win": 0, "lose": 0}
    for seed in range(6):
        game: Game = new_game(Rules.make(variant), rng=random.Random(seed))
        for _ in range(400):
            if game.is_over:
                break
            seat = game.to_act
            view = game.view(seat)
            if seat % 2:
                game.apply(opponents.choose(view, rng), seat)
                continue
            action, reason = suggest(view)
            assert action in view.deal.legal
            assert reason == explain(view.deal, action)
            for lang in ("en", "ru"):
                text = reason.text(lang)
                assert text and "{" not in text
                for card in reason.cards:
                    assert card.display(lang) in text
            deal = game.deal
            last = (view.deal.phase == Phase.PLAY and action.kind is Kind.PLAY
                    and len(deal.current_trick) == len(view.deal.playing) - 1 and variant != "kopilka")
            before = len(deal.tricks)
            game.apply(action, seat)
            if last and len(deal.tricks) == before + 1:
                won = deal.tricks[-1].winner == seat
                if reason.key in WINNING:
                    assert won, (reason.key, action)
                    checked["win"] += 1
                elif reason.key in LOSING:
                    assert not won, (reason.key, action)
                    checked["lose"] += 1
    if variant != "kopilka":
        assert checked["win"] and checked["lose"], checked


def test_declarations_name_their_rule() -> None:
    """C7: a declaration's reason cites the declaring rule."""
    game = new_game(Rules.make("classic"), rng=random.Random(3))
    view = game.view(game.to_act)
    assert view.deal.phase == Phase.DECLARE
    action, reason = suggest(view)
    assert reason.rule in ("C7", "C8") or reason.key == "only"
    assert reason.key in ("pass", "stand", "stand_exchange", "take", "only")
    if action.kind is Kind.PASS:
        assert reason.key in ("pass", "only")
