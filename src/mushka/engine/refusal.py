"""How a refused action reads to the player who tried it.

The engine's own error message is written for a developer: it names the
action by its code (``"KH"``) and the seat by its number.  A player at the
browser table or in the terminal reads the same refusal in words: his action
as he would say it, cards in display form (``play K♥``, ``сыграть К♥``), the
rule's reason, and whose turn it is by name.  The rule id stays with the
error (``error.rule``) for the front end to show beside the sentence.
"""

from __future__ import annotations

from mushka.engine.actions import Action, Kind
from mushka.engine.wording import Names, seat_name
from mushka.errors import MushkaError, OutOfTurnError
from mushka.i18n import LocalText, add_text_file, tr

_ACTION_KEYS = {Kind.PLAY: "play", Kind.PASS: "pass", Kind.DRAW: "draw", Kind.TAKE: "take", Kind.DISCARD: "discard"}


def action_words(action: Action, lang: str) -> str:
    """An action as a player says it, cards in display form (``play A♠``, ``сыграть Т♠``)."""
    cards = " ".join(c.display(lang) for c in action.cards)
    key = _ACTION_KEYS.get(action.kind, "stand_cards" if action.cards else "stand")
    return tr(f"action.{key}", lang, cards=cards)


def refusal_words(error: MushkaError, lang: str, names: Names = None) -> str:
    """The refusal of ``error`` in ``lang`` for the player who tried the action, without its
    rule id: never a card code or a seat number where a word or a name can stand."""
    params = error.params
    action = params.get("action")
    to_act = params.get("to_act")
    if isinstance(error, OutOfTurnError) and isinstance(to_act, int):
        return tr("refusal.out_of_turn", lang, name=seat_name(to_act, lang, names))
    reason = params.get("reason")
    if error.code == "illegal" and isinstance(action, Action) and isinstance(reason, LocalText):
        return tr("refusal.illegal", lang, action=action_words(action, lang), reason=reason.render(lang))
    text = error.message(lang)
    return text.removeprefix(f"{error.rule}: ") if error.rule else text


add_text_file("mushka.engine", "refusal.toml")
