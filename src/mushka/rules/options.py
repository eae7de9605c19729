"""The named house-rule options of RULES, with their parsers and defaults.

Each option is described once, here, as data: which variants it applies to,
its default in each, the rule ids it changes, a help text in English and
Russian, and how its value is read from and written to text.  The command line
(``-o name=value``), Python keyword arguments, records and the server all go
through :func:`parse_value` and :func:`format_value`, so an option reads and
prints the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from mushka.cards import RANK_LETTERS, Rank, Suit
from mushka.errors import OptionsError
from mushka.i18n import LocalText, add_texts
from mushka.rules.choices import AllPass, FlushMode, LonePlayer, PrivilegedFour, Redistribution, Renege

CLASSIC: Final = "classic"
MISTIGRI: Final = "mistigri"
KOPILKA: Final = "kopilka"
VARIANT_NAMES: Final = (CLASSIC, MISTIGRI, KOPILKA)
TRUMP_VARIANTS: Final = (CLASSIC, MISTIGRI)

OptionValue = bool | int | str | tuple[int, ...] | tuple[tuple[int, int], ...] | None


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One named option: its variants, defaults, rules, help and text form."""

    name: str
    rules: tuple[str, ...]
    variants: tuple[str, ...]
    defaults: Mapping[str, OptionValue]
    help_en: str
    help_ru: str
    parse: Callable[[str], OptionValue]
    format: Callable[[OptionValue], str]
    check: Callable[[OptionValue], LocalText | None]
    values: tuple[str, ...] = ()
    stored_when_changed: bool = False
    """Written into a record's options only when it differs from the default: an option
    added after records were first kept, so that every earlier record (and its hash) reads
    and writes byte for byte as before."""

    def default(self, variant: str) -> OptionValue:
        """The default value in ``variant``."""
        return self.defaults[variant]

    def help(self, lang: str = "en") -> str:
        """The help text in ``lang``."""
        return self.help_ru if lang == "ru" else self.help_en


# --- value parsers -------------------------------------------------------------

_TRUE: Final = frozenset({"true", "yes", "on", "1", "да", "вкл"})
_FALSE: Final = frozenset({"false", "no", "off", "0", "нет", "выкл"})


def _bad(key: str, **params: object) -> ValueError:
    """A parse failure carrying a localisable :class:`LocalText`."""
    return ValueError(LocalText(key, **params))


def _parse_bool(text: str) -> OptionValue:
    key = text.strip().lower()
    if key in _TRUE:
        return True
    if key in _FALSE:
        return False
    raise _bad("opt.bool")


def _format_bool(value: OptionValue) -> str:
    return "true" if value else "false"


def _check_bool(value: OptionValue) -> LocalText | None:
    return None if isinstance(value, bool) else LocalText("opt.bool")


def _parse_int(text: str) -> OptionValue:
    try:
        return int(text.strip())
    except ValueError:
        raise _bad("opt.int") from None


def _format_plain(value: OptionValue) -> str:
    return str(value)


def _int_check(low: int, high: int) -> Callable[[OptionValue], LocalText | None]:
    def check(value: OptionValue) -> LocalText | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return LocalText("opt.int")
        if not low <= value <= high:
            return LocalText("opt.range", low=low, high=high)
        return None

    return check


def _choice(kind: type[StrEnum]) -> tuple[
    Callable[[str], OptionValue], Callable[[OptionValue], LocalText | None], tuple[str, ...]
]:
    """The parser, the check and the words of an option whose values are ``kind``'s members.

    The parser gives the member, never the bare word, so that the engine may compare
    the rules' field by identity."""
    values = tuple(member.value for member in kind)

    def parse(text: str) -> OptionValue:
        key = text.strip().lower()
        if key not in values:
            raise _bad("opt.choice", values=", ".join(values))
        return kind(key)

    def check(value: OptionValue) -> LocalText | None:
        if value not in values:
            return LocalText("opt.choice", values=", ".join(values))
        return None

    return parse, check, values


def _or_word(word: str, low: int, high: int) -> tuple[
    Callable[[str], OptionValue], Callable[[OptionValue], str], Callable[[OptionValue], LocalText | None]
]:
    """An integer option whose default follows another option (``None`` = ``word``)."""
    inner = _int_check(low, high)

    def parse(text: str) -> OptionValue:
        if text.strip().lower() == word:
            return None
        return _parse_int(text)

    def fmt(value: OptionValue) -> str:
        return word if value is None else str(value)

    def check(value: OptionValue) -> LocalText | None:
        return None if value is None else inner(value)

    return parse, fmt, check


_DECK_SIZES: Final = (32, 36, 52)


def _parse_deck_by_players(text: str) -> OptionValue:
    pairs: dict[int, int] = {}
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        if ":" not in part:
            raise _bad("opt.deck_pairs")
        left, right = part.split(":", 1)
        try:
            pairs[int(left)] = int(right)
        except ValueError:
            raise _bad("opt.deck_pairs") from None
    return tuple(sorted(pairs.items()))


def _format_deck_by_players(value: OptionValue) -> str:
    assert isinstance(value, tuple)
    return ",".join(f"{p}:{d}" for p, d in value)  # type: ignore[misc]


def _check_deck_by_players(value: OptionValue) -> LocalText | None:
    if not isinstance(value, tuple):
        return LocalText("opt.deck_pairs")
    seen = set()
    for item in value:
        if not (isinstance(item, tuple) and len(item) == 2):
            return LocalText("opt.deck_pairs")
        players, deck = item
        if players not in range(3, 8):
            return LocalText("opt.deck_players", players=players)
        if deck not in _DECK_SIZES:
            return LocalText("opt.deck_size", deck=deck)
        seen.add(players)
    if seen != set(range(3, 8)):
        return LocalText("opt.deck_all")
    return None


def _parse_deck(text: str) -> OptionValue:
    key = text.strip().lower()
    if key in ("auto", "by_players"):
        return None
    return _parse_int(key)


def _format_deck(value: OptionValue) -> str:
    return "auto" if value is None else str(value)


def _check_deck(value: OptionValue) -> LocalText | None:
    if value is None or value in _DECK_SIZES:
        return None
    return LocalText("opt.deck")


RANK_ORDER_ALIASES: Final = {
    "ace_high": "AKQJT98765432",
    "mistigri": "KQJAT98765432",
}


def _parse_rank_order(text: str) -> OptionValue:
    key = text.strip()
    if key.lower() in RANK_ORDER_ALIASES:
        return RANK_ORDER_ALIASES[key.lower()]
    letters = key.upper().replace("10", "T").replace(",", "").replace(" ", "")
    return letters


def _check_rank_order(value: OptionValue) -> LocalText | None:
    if not isinstance(value, str) or not value:
        return LocalText("opt.rank_order")
    if any(ch not in RANK_LETTERS for ch in value):
        return LocalText("opt.rank_letters")
    if len(set(value)) != len(value):
        return LocalText("opt.rank_twice")
    return None


def _parse_suit_values(text: str) -> OptionValue:
    # None marks a suit not given yet (a negative value is a bad value, not a missing one).
    values: list[int | None] = [None, None, None, None]
    cleaned = text.replace(",", " ").replace(";", " ").split()
    for raw in cleaned:
        token = raw.strip()
        if len(token) < 2:
            raise _bad("opt.suit_pairs")
        try:
            suit = Suit.parse(token[0])
            amount = int(token[1:].lstrip("=:"))
        except (ValueError, OptionsError):
            raise _bad("opt.suit_pairs") from None
        values[suit] = amount
    if None in values:
        raise _bad("opt.suit_all")
    return tuple(v for v in values if v is not None)


def _format_suit_values(value: OptionValue) -> str:
    assert isinstance(value, tuple)
    order = (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)
    return ",".join(f"{s.letter}{value[s]}" for s in order)


def _check_suit_values(value: OptionValue) -> LocalText | None:
    if (
        not isinstance(value, tuple)
        or len(value) != 4
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1000 for v in value)
    ):
        return LocalText("opt.suit_values")
    return None


_parse_priv_remiz, _format_priv_remiz, _check_priv_remiz = _or_word("remiz", 0, 1000)
_parse_game_pay, _format_game_pay, _check_game_pay = _or_word("ante", 0, 100000)

SESSION_GAMES: Final = (4, 2)
"""The lengths a kopilka session may have: the rules' four games (K4) or a short session of two."""


def _check_session_games(value: OptionValue) -> LocalText | None:
    if isinstance(value, bool) or value not in SESSION_GAMES:
        return LocalText("opt.session_games")
    return None


def _all(value: OptionValue) -> dict[str, OptionValue]:
    return {v: value for v in VARIANT_NAMES}


def _trump(classic: OptionValue, mistigri: OptionValue | None = None) -> dict[str, OptionValue]:
    return {CLASSIC: classic, MISTIGRI: classic if mistigri is None else mistigri}


def _spec_bool(name: str, rules: tuple[str, ...], defaults: dict[str, OptionValue],
               help_en: str, help_ru: str) -> OptionSpec:
    return OptionSpec(name, rules, tuple(defaults), defaults, help_en, help_ru,
                      _parse_bool, _format_bool, _check_bool, ("true", "false"))


def _spec_int(name: str, rules: tuple[str, ...], defaults: dict[str, OptionValue],
              low: int, high: int, help_en: str, help_ru: str) -> OptionSpec:
    return OptionSpec(name, rules, tuple(defaults), defaults, help_en, help_ru,
                      _parse_int, _format_plain, _int_check(low, high))


def _spec_choice(name: str, rules: tuple[str, ...], defaults: dict[str, OptionValue],
                 kind: type[StrEnum], help_en: str, help_ru: str) -> OptionSpec:
    parse, check, values = _choice(kind)
    return OptionSpec(name, rules, tuple(defaults), defaults, help_en, help_ru,
                      parse, _format_plain, check, values)


OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(
        "deck_by_players", ("C2", "MI1"), TRUMP_VARIANTS,
        _trump(((3, 32), (4, 36), (5, 52), (6, 52), (7, 52))),
        "cards in the deck for each number of players",
        "число карт в колоде в зависимости от числа игроков",
        _parse_deck_by_players, _format_deck_by_players, _check_deck_by_players,
    ),
    OptionSpec(
        "deck", ("C2", "N3"), TRUMP_VARIANTS, _trump(None),
        "deck size regardless of the players (auto = deck_by_players)",
        "размер колоды независимо от числа игроков (auto — по deck_by_players)",
        _parse_deck, _format_deck, _check_deck, ("auto", "32", "36", "52"),
    ),
    OptionSpec(
        "rank_order", ("C3", "MI2", "K2"), VARIANT_NAMES,
        {CLASSIC: "AKQJT98765432", MISTIGRI: "KQJAT98765432", KOPILKA: "AKQJT98765432"},
        "rank of the cards in every suit, high to low (ace_high, mistigri or letters)",
        "старшинство карт в каждой масти, от старшей (ace_high, mistigri или буквы)",
        _parse_rank_order, _format_plain, _check_rank_order, ("ace_high", "mistigri"),
    ),
    _spec_bool("dealer_takes_turnup", ("C6",), _trump(True),
               "the dealer may take the turned-up trump card, discarding one",
               "сдающий может взять открытую козырную карту, сбросив одну свою"),
    _spec_int("max_exchange", ("C8",), _trump(5), 0, 5,
              "most cards one player may exchange from the talon",
              "наибольшее число карт, которое игрок может прикупить"),
    _spec_choice("all_pass", ("C9",), _trump(AllPass.REDEAL), AllPass,
                 "when everybody passes: the next dealer deals (redeal) or the same one again",
                 "если все спасовали: сдаёт следующий (redeal) или тот же сдающий (same_dealer)"),
    _spec_choice("lone_player", ("C10",), _trump(LonePlayer.TAKES_ALL_TRICKS), LonePlayer,
                 "a lone standing player takes all five tricks, or the dealer must play with him",
                 "единственный играющий берёт все пять взяток, или сдающий обязан играть с ним"),
    _spec_bool("privileged_beats_trumps", ("C12", "MI4"), _trump(False),
               "the privileged card beats trumps too",
               "преимущественная карта бьёт и козырей"),
    _spec_bool("privileged_free_play", ("C12", "C14"), _trump(True),
               "the privileged card may be played to any trick",
               "преимущественную карту можно класть на любую взятку"),
    _spec_bool("must_follow", ("C14",), _trump(True),
               "a player must follow suit if he can", "игрок обязан ходить в масть, если может"),
    _spec_bool("must_trump_if_void", ("C14",), _trump(True),
               "a player void in the led suit must play a trump if he has one",
               "не имея масти, игрок обязан бить козырем, если он есть"),
    _spec_bool("must_head_trick", ("C14",), _trump(False),
               "a player must play a card that wins the trick if he has one (Loo style)",
               "игрок обязан брать взятку, если может (как в лу)"),
    _spec_bool("must_overtrump", ("C14",), _trump(False),
               "a player void in the led suit must overtrump a trump already played",
               "не имея масти, игрок обязан перебить уже сыгранный козырь старшим"),
    _spec_int("initial_record", ("C16",), _trump(30), 1, 1000,
              "the record every player starts from", "запись, с которой начинает каждый игрок"),
    _spec_int("trick_value", ("C17",), _trump(1), 0, 100,
              "points written off per trick", "очков списывается за взятку"),
    _spec_int("remiz", ("C18", "MI6", "K12", "K22"), {CLASSIC: 5, MISTIGRI: 5, KOPILKA: 5}, 0, 1000,
              "the ремиз of a standing player with no trick (kopilka: paid into the pot)",
              "ремиз играющего без взяток (в копилке — взнос в кассу)"),
    _spec_int("stake", ("C21",), _trump(1), 0, 1000,
              "money per point of a record paid to the winner of the partie",
              "сколько денег стоит очко записи при расчёте с победителем"),
    _spec_choice("flush", ("C22", "MI9", "MI14"), _trump(FlushMode.SIDE_PAYMENT), FlushMode,
                 "what five cards of one suit do: win the mushka, earn a side payment, or nothing",
                 "что дают пять карт одной масти: выигрыш мушки, отдельную плату или ничего"),
    _spec_choice("privileged_four", ("C22", "MI13"), _trump(PrivilegedFour.WINS_MUSHKA), PrivilegedFour,
                 "what four of a suit plus the privileged card do (as_flush = same as flush)",
                 "что дают четыре карты одной масти и преимущественная карта (as_flush — как flush)"),
    _spec_int("flush_payment", ("MI9", "C22"), _trump(5), 0, 1000,
              "the side payment every other player pays for a flush",
              "отдельная плата с каждого партнёра за одномастные карты"),
    _spec_bool("can_discard_privileged", ("C6", "MI5"), _trump(True, False),
               "the privileged card may be discarded in an exchange",
               "преимущественную карту можно сбросить при прикупке"),
    OptionSpec(
        "privileged_remiz", ("MI6",), TRUMP_VARIANTS, _trump(None, 10),
        "remiz of a trickless player who held the privileged card (remiz = same as remiz)",
        "ремиз игрока без взяток, имевшего преимущественную карту (remiz — обычный ремиз)",
        _parse_priv_remiz, _format_priv_remiz, _check_priv_remiz, ("remiz",),
    ),
    _spec_int("privileged_bonus", ("MI7",), _trump(0, 5), 0, 1000,
              "extra points written off by a player who held the privileged card and took a trick",
              "лишние очки, которые списывает взявший взятку игрок, имевший преимущественную карту"),
    _spec_bool("privileged_must_play", ("MI8",), _trump(False, True),
               "a player who holds the privileged card may not pass",
               "игрок, к которому пришла преимущественная карта, не имеет права на пас"),
    _spec_int("ante", ("K3",), {KOPILKA: 10}, 0, 100000,
              "what every player pays into the pot before the session",
              "взнос каждого игрока в кассу перед началом игры"),
    OptionSpec(
        "game_payment", ("K22",), (KOPILKA,), {KOPILKA: None},
        "what each player but the one who went out pays after a game (ante = same as ante)",
        "сколько платит после игры каждый, кроме снёсшего карты первым (ante — как взнос)",
        _parse_game_pay, _format_game_pay, _check_game_pay, ("ante",),
    ),
    OptionSpec(
        "suit_values", ("K20", "K21"), (KOPILKA,), {KOPILKA: (1, 3, 2, 4)},
        "what a trick of each suit is worth", "сколько стоит взятка каждой масти",
        _parse_suit_values, _format_suit_values, _check_suit_values,
    ),
    _spec_choice("renege", ("K12",), {KOPILKA: Renege.PENALTY}, Renege,
                 "passing while holding the led suit costs a remiz (penalty) or is not allowed",
                 "пас при наличии масти стоит ремиз (penalty) или запрещён (forbid)"),
    _spec_choice("redistribution", ("K7", "K8"), {KOPILKA: Redistribution.MODERN}, Redistribution,
                 "how three or more cards of a suit are shared out after the deal",
                 "как раздаются три и более карты одной масти после сдачи"),
    OptionSpec(
        "session_games", ("K4", "K23"), (KOPILKA,), {KOPILKA: 4},
        "games in a session: 4 (each player deals once) or a short session of 2 (the first two "
        "dealers in turn); the pot goes to whoever went out first in the last game",
        "сколько игр в сессии: 4 (каждый сдаёт по разу) или короткая сессия из 2 (сдают первые "
        "два по кругу); кассу берёт снёсший карты первым в последней игре",
        _parse_int, _format_plain, _check_session_games, ("4", "2"), stored_when_changed=True,
    ),
)
"""Every named option, in the order they are documented."""

OPTION_BY_NAME: Final[dict[str, OptionSpec]] = {o.name: o for o in OPTIONS}


def spec(name: str, variant: str) -> OptionSpec:
    """The option ``name`` if it applies to ``variant``; otherwise an :class:`OptionsError`."""
    found = OPTION_BY_NAME.get(name)
    if found is None:
        raise OptionsError(
            "unknown_option", name=name, variant=variant,
            known=", ".join(o.name for o in OPTIONS if variant in o.variants),
        )
    if variant not in found.variants:
        raise OptionsError(
            "option_not_for_variant", name=name, variant=variant, variants=", ".join(found.variants)
        )
    return found


def parse_value(name: str, variant: str, value: object) -> OptionValue:
    """Read an option value given as text or as a Python value, and check it.

    Raises :class:`OptionsError` naming the option and the problem.
    """
    option = spec(name, variant)
    if isinstance(value, str):
        try:
            parsed = option.parse(value)
        except ValueError as exc:
            why: LocalText | str = exc.args[0] if exc.args and isinstance(exc.args[0], LocalText) else str(exc)
            raise OptionsError("bad_option_value", rule=option.rules[0], name=name, value=value,
                               problem=why) from None
    else:
        parsed = _normalise(option, value)
    problem = option.check(parsed)
    if problem is not None:
        raise OptionsError("bad_option_value", rule=option.rules[0], name=name, value=value,
                           problem=problem)
    return parsed


def _normalise(option: OptionSpec, value: object) -> OptionValue:
    """Accept convenient Python forms (a dict for deck_by_players or suit_values)."""
    try:
        return _convert(option, value)
    except (ValueError, TypeError):
        # A dict with keys or values that are not numbers or suits: the same
        # clear refusal as any other bad value, never a bare ValueError.
        raise OptionsError("bad_option_value", name=option.name, value=value,
                           problem=LocalText("opt.unsupported")) from None


def _convert(option: OptionSpec, value: object) -> OptionValue:
    if option.name == "deck_by_players" and isinstance(value, Mapping):
        return tuple(sorted((_whole(k), _whole(v)) for k, v in value.items()))
    if option.name == "suit_values" and isinstance(value, Mapping):
        out = [-1, -1, -1, -1]
        for k, v in value.items():
            suit = k if isinstance(k, Suit) else Suit.parse(str(k))
            out[suit] = _whole(v)
        return tuple(out)
    if isinstance(value, list):
        return tuple(value)
    if value is None or isinstance(value, (bool, int, str, tuple)):
        return value
    raise OptionsError("bad_option_value", name=option.name, value=value,
                       problem=LocalText("opt.type", type=type(value).__name__))


def _whole(value: object) -> int:
    """A whole number given as an int or its text (not a float, not a bool)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TypeError(value)
    return int(value)


def format_value(name: str, value: OptionValue) -> str:
    """The canonical text of an option value (what ``-o`` and records use)."""
    return OPTION_BY_NAME[name].format(value)


def parse_assignment(text: str) -> tuple[str, str]:
    """Split ``name=value`` (as given to ``-o``) into its two parts."""
    if "=" not in text:
        raise OptionsError("bad_option_syntax", text=text)
    name, value = text.split("=", 1)
    name = name.strip().replace("-", "_")
    if not name:
        raise OptionsError("bad_option_syntax", text=text)
    return name, value.strip()


def options_for(variant: str) -> tuple[OptionSpec, ...]:
    """The options that apply to ``variant``, in documentation order."""
    return tuple(o for o in OPTIONS if variant in o.variants)


def rank_letters_missing(order: str, lowest: Rank) -> str:
    """Ranks of a deck starting at ``lowest`` that ``order`` does not list."""
    return "".join(RANK_LETTERS[r] for r in range(lowest, 13) if RANK_LETTERS[r] not in order)


add_texts({
    "opt.bool": (
        "expected true or false",
        "ожидается true или false",
    ),
    "opt.int": (
        "expected a whole number",
        "ожидается целое число",
    ),
    "opt.deck_pairs": (
        "expected players:cards pairs such as 3:32,4:36",
        "ожидаются пары игроки:карты, например 3:32,4:36",
    ),
    "opt.deck_all": (
        "give a deck for each of 3, 4, 5, 6 and 7 players",
        "укажите колоду для 3, 4, 5, 6 и 7 игроков",
    ),
    "opt.deck": (
        "expected auto, 32, 36 or 52 (N3)",
        "ожидается auto, 32, 36 или 52 (N3)",
    ),
    "opt.rank_order": (
        "expected ranks from high to low, e.g. AKQJT98765432, or ace_high / mistigri",
        "ожидаются достоинства от старшего к младшему, например AKQJT98765432, или ace_high / mistigri",
    ),
    "opt.rank_letters": (
        "expected rank letters 2-9, T, J, Q, K, A from high to low",
        "ожидаются буквы достоинств 2-9, T, J, Q, K, A от старшего к младшему",
    ),
    "opt.rank_twice": (
        "a rank is listed twice",
        "достоинство названо дважды",
    ),
    "opt.suit_pairs": (
        "expected suit and value pairs such as H4 C3 D2 S1",
        "ожидаются пары масть и цена, например H4 C3 D2 S1",
    ),
    "opt.suit_all": (
        "give a value for each of the four suits, e.g. H4,C3,D2,S1",
        "укажите цену каждой из четырёх мастей, например H4,C3,D2,S1",
    ),
    "opt.suit_values": (
        "expected four values from 0 to 1000, one per suit",
        "ожидаются четыре цены от 0 до 1000, по одной на масть",
    ),
    "opt.unsupported": (
        "unsupported value",
        "недопустимое значение",
    ),
    "opt.range": (
        "expected a number from {low} to {high}",
        "ожидается число от {low} до {high}",
    ),
    "opt.choice": (
        "expected one of {values}",
        "ожидается одно из: {values}",
    ),
    "opt.deck_players": (
        "{players} players: classic and mistigri take 3 to 7",
        "{players} игроков: в обычную мушку и мистигри играют от 3 до 7",
    ),
    "opt.deck_size": (
        "{deck} cards: decks have 32, 36 or 52 cards (N3)",
        "{deck} карт: в колоде бывает 32, 36 или 52 карты (N3)",
    ),
    "opt.session_games": (
        "a kopilka session is 4 games (K4) or a short one of 2",
        "сессия копилки — 4 игры (K4) или короткая из 2",
    ),
    "opt.type": (
        "unsupported type {type}",
        "недопустимый тип {type}",
    ),
})
