"""Russian and English texts of the rules core.

Every user-facing sentence the core produces (errors, event descriptions,
phase names) is looked up here by key, so an interface can render it in the
player's language.  Applications keep their own catalogues for their own
texts and may :func:`register` more keys.
"""

from __future__ import annotations

from typing import Final

LANGS: Final = ("en", "ru")
"""The supported languages."""

_CATALOGUE: dict[str, tuple[str, str]] = {
    # --- parsing -----------------------------------------------------------
    "error.bad_card": (
        "N2: {text!r} is not a card code (rank 2-9, T/10, J, Q, K, A then suit S, C, D, H)",
        "N2: {text!r} — не код карты (достоинство 2-9, T/10, J, Q, K, A, затем масть S, C, D, H)",
    ),
    "error.bad_suit": ("N1: {text!r} is not a suit", "N1: {text!r} — не масть"),
    "error.bad_rank": ("N1: {text!r} is not a rank", "N1: {text!r} — не достоинство"),
    "error.bad_action": (
        "{text!r} is not an action (pass, stand [cards], take CARD, CARD, draw, discard CARD)",
        "{text!r} — не ход (pass, stand [карты], take КАРТА, КАРТА, draw, discard КАРТА)",
    ),
    "error.bad_action_type": (
        "{value} is not an action: give an action or its text form (pass, stand [cards], CARD …), not {kind}",
        "{value} — не ход: нужен ход или его запись (pass, stand [карты], КАРТА …), а не {kind}",
    ),
    "error.duplicate_cards": (
        "{text!r} names the same card twice", "в {text!r} одна карта названа дважды",
    ),
    "error.bad_deck": (
        "the stacked deck must list each of the {size} cards exactly once; {problem}",
        "подобранная колода должна перечислять каждую из {size} карт ровно один раз; {problem}",
    ),
    # --- options -------------------------------------------------------------
    "error.unknown_variant": (
        "unknown variant {name!r}; known: {known}", "неизвестный вариант {name!r}; известны: {known}",
    ),
    "error.unknown_option": (
        "unknown option {name!r}; options of {variant}: {known}",
        "неизвестная настройка {name!r}; настройки варианта {variant}: {known}",
    ),
    "error.option_not_for_variant": (
        "option {name!r} does not apply to {variant} (it belongs to {variants})",
        "настройка {name!r} не относится к варианту {variant} (она для: {variants})",
    ),
    "error.bad_option_value": (
        "option {name}={value!r}: {problem}", "настройка {name}={value!r}: {problem}",
    ),
    "error.reserved_option": (
        "{name!r} is not an option: the {name} is given once, apart from the options",
        "{name!r} — не настройка: {name} задаётся один раз, отдельно от настроек",
    ),
    "error.bad_money": (
        "the balances {balances} and the pot {pot} must sum to zero",
        "сумма денег игроков {balances} и кассы {pot} должна быть равна нулю",
    ),
    "error.bad_option_syntax": (
        "{text!r} is not of the form name=value", "{text!r} не имеет вид имя=значение",
    ),
    "error.bad_players": (
        "{variant} is played by {allowed} players, not {players}",
        "число игроков в игре «{variant}»: {allowed}, а не {players}",
    ),
    "error.deck_too_small": (
        "a {deck}-card deck cannot deal 5 cards to {players} players and turn a trump card",
        "колодой в {deck} карт нельзя сдать по 5 карт {players} игрокам и открыть козырь",
    ),
    "error.rank_order_missing": (
        "rank_order {order!r} lacks ranks of the {deck}-card deck: {missing}",
        "в rank_order {order!r} нет достоинств колоды в {deck} карт: {missing}",
    ),
    # --- actions -------------------------------------------------------------
    "error.illegal": (
        "“{action}” by seat {seat} is not allowed in {phase}: {reason}",
        "ход «{action}» игрока {seat} недопустим ({phase}): {reason}",
    ),
    "error.out_of_turn": (
        "seat {seat} tried “{action}” but it is seat {to_act}'s turn ({phase})",
        "игрок {seat} попытался сделать ход «{action}», но ходит игрок {to_act} ({phase})",
    ),
    "error.deal_over": (
        "“{action}”: the deal is over, no action is possible",
        "«{action}»: сдача окончена, ходов больше нет",
    ),
    "error.game_over": (
        "“{action}”: the game is over, no action is possible",
        "«{action}»: игра окончена, ходов больше нет",
    ),
    "error.bad_seat": (
        "seat {seat} does not exist at a table of {players}",
        "места {seat} нет за столом на {players} игроков",
    ),
    "error.chance_exhausted": (
        "the forced chance outcomes ran out ({what})",
        "заданные исходы случая закончились ({what})",
    ),
    "error.chance_invalid": (
        "forced outcome {outcome} is impossible here (choices: {choices})",
        "заданный исход {outcome} здесь невозможен (варианты: {choices})",
    ),
    # --- records -------------------------------------------------------------
    "error.record_syntax": ("record: {problem}", "запись партии: {problem}"),
    "error.record_action": (
        "record, deal {deal}, action {index} ({action}): {problem}",
        "запись партии, сдача {deal}, ход {index} ({action}): {problem}",
    ),
    "error.record_deal": (
        "record, deal {deal}: {problem}",
        "запись партии, сдача {deal}: {problem}",
    ),
    "error.record_mismatch": (
        "record: the stored result disagrees with the replay: {problem}",
        "запись партии: сохранённый итог расходится с переигровкой: {problem}",
    ),
    # --- reasons (rule texts used in illegal-action errors) -------------------
    "why.not_your_card": (
        "the card {card} is not in the hand", "карты {card} нет на руке",
    ),
    "why.wrong_phase": (
        "a {kind} action is not possible during {phase}",
        "ход вида {kind} невозможен в фазе «{phase}»",
    ),
    "why.privileged_no_pass": (
        "a player who holds {card} may not pass",
        "игрок, к которому пришёл {card}, не имеет права на пас",
    ),
    "why.took_turnup_must_play": (
        "the dealer who took the turned-up card must play",
        "сдающий, взявший открытую карту, обязан играть",
    ),
    "why.dealer_must_play": (
        "exactly one player has stood, so the dealer may not pass (lone_player=dealer_must_play)",
        "играет ровно один игрок, поэтому сдающий не может пасовать (lone_player=dealer_must_play)",
    ),
    "why.exchange_too_many": (
        "at most {limit} cards may be exchanged now ({talon} left in the talon, max_exchange={max})",
        "сейчас можно прикупить не больше {limit} карт (в прикупе {talon}, max_exchange={max})",
    ),
    "why.no_discard_privileged": (
        "{card} may not be discarded (can_discard_privileged=false)",
        "{card} нельзя сбрасывать (can_discard_privileged=false)",
    ),
    "why.take_not_allowed": (
        "only the dealer, at his turn, may take the turned-up card, and only once",
        "взять открытую карту может только сдающий в свою очередь и только один раз",
    ),
    "why.take_option_off": (
        "taking the turned-up card is switched off (dealer_takes_turnup=false)",
        "взятие открытой карты отключено (dealer_takes_turnup=false)",
    ),
    "why.must_follow": (
        "{suit} were led and the hand holds {suit}: follow suit",
        "зашли с {suit}, а эта масть на руке есть: надо ходить в масть",
    ),
    "why.must_trump": (
        "no {suit} in hand, so a trump must be played",
        "масти {suit} на руке нет, поэтому надо бить козырем",
    ),
    "why.must_overtrump": (
        "the trick holds a trump and a higher trump is in hand (must_overtrump)",
        "во взятке козырь, а на руке есть старший козырь (must_overtrump)",
    ),
    "why.must_head": (
        "a card that wins the trick must be played (must_head_trick)",
        "надо класть карту, которая берёт взятку (must_head_trick)",
    ),
    "why.other_suit": (
        "{suit} were led: only {suit} or {priv} may be put on the trick",
        "зашли с {suit}: на взятку можно класть только эту масть или {priv}",
    ),
    "why.banned_suit": (
        "the winner of a trick in {suit} must lead another suit",
        "взявший взятку в масти {suit} должен ходить с другой масти",
    ),
    "why.draw_holding_suit": (
        "a player who holds {suit} may not draw from the talon",
        "у кого есть масть {suit}, тот не может обращаться к прикупке",
    ),
    "why.talon_empty": ("the talon is empty", "прикуп пуст"),
    "why.renege_forbidden": (
        "passing while holding {suit} is not allowed (renege=forbid)",
        "пасовать, имея масть {suit}, нельзя (renege=forbid)",
    ),
    "why.leader_cannot_pass": (
        "the leader must lead a card", "ходящий первым должен выйти картой",
    ),
    "why.discard_one": (
        "a taker discards exactly one card of his hand",
        "взявший карту сбрасывает ровно одну карту со своей руки",
    ),
    # --- phases ----------------------------------------------------------------
    "phase.declare": ("the declarations", "объявления"),
    "phase.play": ("trick play", "розыгрыш взяток"),
    "phase.redistribute": ("the redistribution", "раздача одномастных карт"),
    "phase.over": ("the end of the deal", "конец сдачи"),
}


def render_param(value: object, lang: str) -> object:
    """Parameters that know their own translation render in ``lang``."""
    render = getattr(value, "render", None)
    if callable(render):
        return render(lang)
    display = getattr(value, "display", None)
    if callable(display):
        return display(lang)
    name_in = getattr(value, "name_in", None)
    if callable(name_in):
        return name_in(lang)
    return value


class LocalText:
    """A catalogue text with its parameters, rendered when shown.

    Errors carry these instead of finished sentences so that one error can
    be shown in English and in Russian (:meth:`MushkaError.message`).
    """

    __slots__ = ("key", "params")

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params

    def render(self, lang: str = "en") -> str:
        """The text in ``lang`` (parameters that know their language render in it)."""
        return tr(self.key, lang, **{k: render_param(v, lang) for k, v in self.params.items()})

    def __format__(self, spec: str) -> str:
        return self.render("en")

    def __str__(self) -> str:
        return self.render("en")

    def __repr__(self) -> str:
        return f"LocalText({self.key!r})"


def add_texts(entries: dict[str, tuple[str, str]]) -> None:
    """Add or replace catalogue entries ``key -> (english, russian)``."""
    _CATALOGUE.update(entries)


def has(key: str) -> bool:
    """Whether ``key`` is in the catalogue."""
    return key in _CATALOGUE


def keys() -> list[str]:
    """All catalogue keys (for tests that check both languages are present)."""
    return sorted(_CATALOGUE)


def tr(key: str, lang: str = "en", /, **params: object) -> str:
    """The text for ``key`` in ``lang`` with ``params`` filled in.

    An unknown key returns the key itself so that a missing translation is
    visible instead of fatal.
    """
    pair = _CATALOGUE.get(key)
    if pair is None:
        return key
    template = pair[1] if lang == "ru" else pair[0]
    if not params:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template
