"""Events: what happened, as frozen values with an audience.

:meth:`mushka.engine.Deal.apply` returns the events an action produced.  An
event may hold hidden cards (a hand dealt, cards drawn in an exchange, the
card a taker got in kopilka); :meth:`Event.seen_by` returns the version a
given seat (or a spectator, ``None``) is allowed to see, with every card he
may not know replaced by ``None`` (§4 of RULES).  Views, the server and the
terminal all show events only through :meth:`Event.seen_by`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from mushka._pickle import FrozenValue
from mushka.cards import Card, Suit, format_cards
from mushka.engine.types import DealResult
from mushka.engine.wording import SEAT_FIELDS, Names, count_cards, per_seat, seat_name, seat_params, sentence
from mushka.i18n import add_texts, has, tr
from mushka.rules.choices import FlushMode

Cards = tuple[Card, ...]


def _fmt(value: object, lang: str, names: Names = None) -> object:
    """Render one event field for a sentence in ``lang`` (seats by ``names`` where known)."""
    if value is None:
        return "?"
    if isinstance(value, Card):
        return value.display(lang)
    if isinstance(value, Suit):
        return value.name_in(lang)
    if isinstance(value, tuple):
        if not value:
            return "—"
        if all(isinstance(v, Card) for v in value):
            return format_cards(value, symbols=True, lang=lang)
        if all(isinstance(v, tuple) and len(v) == 2 for v in value):
            # A trick's cards in play order, each with who played it.
            return ", ".join(f"{_fmt(c, lang)} ({seat_name(s, lang, names)})" for s, c in value)
        return per_seat(value, lang, names)
    summary = getattr(value, "summary", None)
    if callable(summary):
        return summary(lang)
    return value


@dataclass(frozen=True, slots=True)
class Event(FrozenValue):
    """Base class of all events.

    A subclass lists in ``_private`` the fields that only its owner (the seat
    named by ``_owner``) may see; :meth:`seen_by` blanks them for everybody
    else.  Its sentence is the catalogue entry ``event.<Name>`` (or the one
    ``_key`` picks) filled with the rendered fields.
    """

    # The hidden fields and their owner are methods, not class attributes: a compiled
    # (mypyc) dataclass would take class attributes for fields with defaults.
    def _private(self) -> tuple[str, ...]:
        return ()

    def _owner(self) -> str:
        return "seat"

    def seen_by(self, viewer: object) -> Event:
        """The event as ``viewer`` (a seat, or ``None`` for a spectator) may see it; anything
        but a whole number sees what a spectator sees (a bool is no seat: ``True`` is not 1)."""
        private = self._private()
        if not private or self._visible_to(viewer if type(viewer) is int else None):
            return self
        return replace(self, **dict.fromkeys(private))

    def _visible_to(self, viewer: int | None) -> bool:
        return viewer is not None and viewer == getattr(self, self._owner())

    def describe(self, lang: str = "en", names: Names = None) -> str:
        """One line for a human, in ``lang``; a redacted event reads without its hidden cards.

        Seats read as the players' ``names`` where given, else as "seat 2".
        """
        params: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in SEAT_FIELDS and type(value) is int:
                params.update(seat_params(f.name, value, lang, names))
            else:
                params[f.name] = _fmt(value, lang, names)
        count = getattr(self, "count", None)
        if isinstance(count, int):
            params["count_cards"] = count_cards(count, lang)
        key = self._key()
        if any(getattr(self, f) is None for f in self._private()) and has(key + ".hidden"):
            key += ".hidden"
        return sentence(tr(key, lang, **params), lang)

    def _key(self) -> str:
        return "event." + type(self).__name__

    @property
    def name(self) -> str:
        """The event's type name (used on the wire)."""
        return type(self).__name__


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """N4/C5/K5: five cards to each seat; ``hands[s]`` is ``None`` where hidden."""

    dealer: int
    hands: tuple[Cards | None, ...]
    talon: int

    def seen_by(self, viewer: object) -> Event:
        """Each seat sees its own hand only; a spectator (or anything but a whole number)
        sees none."""
        me = viewer if type(viewer) is int else -1
        return replace(self, hands=tuple(h if s == me else None for s, h in enumerate(self.hands)))

    def describe(self, lang: str = "en", names: Names = None) -> str:
        """One line for a human, in ``lang``; hands shown only where known."""
        known = [f"{seat_name(s, lang, names)}: {_fmt(h, lang)}" for s, h in enumerate(self.hands)
                 if h is not None]
        dealer = seat_params("dealer", self.dealer, lang, names)
        if not known:
            return sentence(tr("event.Dealt", lang, talon=self.talon, **dealer), lang)
        return sentence(tr("event.Dealt.own", lang, talon=self.talon, hands="; ".join(known), **dealer), lang)


@dataclass(frozen=True, slots=True)
class TurnedUp(Event):
    """C5: the card after the hands is turned up; its suit is trump."""

    card: Card


@dataclass(frozen=True, slots=True)
class Shown(Event):
    """C22/MI9/MI13: a seat shows a special hand; ``effect`` is what it does."""

    seat: int
    cards: Cards
    kind: str  # "flush" (five of a suit) or "privileged_four"
    effect: FlushMode  # WINS_MUSHKA or SIDE_PAYMENT

    def _key(self) -> str:
        return f"event.Shown.{self.kind}.{self.effect}"


@dataclass(frozen=True, slots=True)
class TookTurnup(Event):
    """C6: the dealer took the turned-up card; ``discard`` is hidden from others."""

    seat: int
    card: Card
    discard: Card | None
    open: bool = False

    def _private(self) -> tuple[str, ...]:
        return ("discard",)

    def _visible_to(self, viewer: int | None) -> bool:
        return self.open or viewer == self.seat


@dataclass(frozen=True, slots=True)
class Declared(Event):
    """C7: a seat passes or stands, exchanging ``count`` cards.

    ``discards`` and ``drawn`` are known to the seat only (and to all if his
    hand is open after showing a flush, MI9).
    """

    seat: int
    stand: bool
    count: int
    discards: Cards | None = None
    drawn: Cards | None = None
    open: bool = False

    def _private(self) -> tuple[str, ...]:
        return ("discards", "drawn")

    def _visible_to(self, viewer: int | None) -> bool:
        return self.open or viewer == self.seat

    def _key(self) -> str:
        if not self.stand:
            return "event.Declared.pass"
        if not self.count:
            return "event.Declared.stand"
        return "event.Declared.exchange"


@dataclass(frozen=True, slots=True)
class FlushPaid(Event):
    """MI9-MI12: the best flush of the deal is paid by every other seat."""

    seat: int
    each: int
    total: int


@dataclass(frozen=True, slots=True)
class MushkaWon(Event):
    """C22/MI13: a special hand wins the мушка; the deal stops, the partie ends."""

    seat: int


@dataclass(frozen=True, slots=True)
class AllPassed(Event):
    """C9: everybody passed; nobody scores."""


@dataclass(frozen=True, slots=True)
class LoneTakesAll(Event):
    """C10: a lone standing player takes all five tricks without play."""

    seat: int
    tricks: int


@dataclass(frozen=True, slots=True)
class PlayStarted(Event):
    """C13/K10: trick play begins; ``leader`` leads, ``players`` take part."""

    leader: int
    players: tuple[int, ...]

    def describe(self, lang: str = "en", names: Names = None) -> str:
        """One line for a human, in ``lang``."""
        players = ", ".join(seat_name(s, lang, names) for s in self.players)
        return sentence(tr(self._key(), lang, players=players, **seat_params("leader", self.leader, lang, names)),
                        lang)


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A card put on the trick (public)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickTaken(Event):
    """C15/K13: a trick is complete; ``cards`` lists (seat, card) in play order.

    ``suit`` is the led suit (K17), ``privileged`` whether the privileged card
    took it, ``value`` its worth in kopilka money (K21; 0 elsewhere).
    """

    seat: int
    number: int
    cards: tuple[tuple[int, Card], ...]
    suit: Suit
    privileged: bool
    value: int = 0

    def _key(self) -> str:
        return "event.TrickTaken.value" if self.value else "event.TrickTaken"


@dataclass(frozen=True, slots=True)
class GroupDeclared(Event):
    """K6/K7: a seat lays ``count`` cards of one suit face down for the others."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class CardTaken(Event):
    """K7/K8: ``taker`` got a card of ``owner``'s group at random.

    Only the taker sees the card (§4); the owner learns which cards left his
    group from :class:`GroupSettled`, not who took which.
    """

    taker: int
    owner: int
    card: Card | None

    def _private(self) -> tuple[str, ...]:
        return ("card",)

    def _owner(self) -> str:
        return "taker"


@dataclass(frozen=True, slots=True)
class GroupSettled(Event):
    """K7 steps 3-4: untaken cards go back; the owner draws replacements.

    ``taken`` and ``drawn`` are known to the owner only.
    """

    owner: int
    taken: Cards | None
    returned: int
    drawn: Cards | None
    drawn_count: int

    def _private(self) -> tuple[str, ...]:
        return ("taken", "drawn")

    def _owner(self) -> str:
        return "owner"


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """K7 step 5: a taker discards a card face down (only he sees which)."""

    seat: int
    card: Card | None

    def _private(self) -> tuple[str, ...]:
        return ("card",)


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """K11: a seat drew from the talon; the card is public only if it is played."""

    seat: int
    card: Card | None
    played: bool

    def _private(self) -> tuple[str, ...]:
        return ("card",)

    def _visible_to(self, viewer: int | None) -> bool:
        return self.played or viewer == self.seat

    def _key(self) -> str:
        return "event.Drew.played" if self.played else "event.Drew.kept"


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """K11/K12: a seat passes on a trick; ``penalty`` if he held the led suit."""

    seat: int
    penalty: int = 0

    def _key(self) -> str:
        return "event.Passed.penalty" if self.penalty else "event.Passed"


@dataclass(frozen=True, slots=True)
class TakenBack(Event):
    """K15: nobody put a card on the lead; the leader takes it back."""

    seat: int
    card: Card
    next_leader: int


@dataclass(frozen=True, slots=True)
class WentOut(Event):
    """K18: ``seat`` has no cards left and ends the game."""

    seat: int


@dataclass(frozen=True, slots=True)
class Deadlock(Event):
    """K19: four leads in a row were taken back; the game ends with nobody out."""


@dataclass(frozen=True, slots=True)
class Paid(Event):
    """Money moved: ``amount`` from ``seat`` into the pot (negative: out of it).

    ``reason`` is one of ``ante``, ``renege``, ``remiz``, ``trick``, ``game``, ``pot``.
    """

    seat: int
    amount: int
    reason: str

    def describe(self, lang: str = "en", names: Names = None) -> str:
        """One line for a human, in ``lang``."""
        key = "event.Paid.in" if self.amount >= 0 else "event.Paid.out"
        return sentence(tr(key, lang, amount=abs(self.amount), reason=tr("reason." + self.reason, lang),
                           **seat_params("seat", self.seat, lang, names)), lang)


@dataclass(frozen=True, slots=True)
class DealEnded(Event):
    """The deal is over; ``result`` is its settlement (public)."""

    result: DealResult

    def describe(self, lang: str = "en", names: Names = None) -> str:
        """One line for a human, in ``lang``: the settlement with the players' names."""
        return tr("event.DealEnded", lang, result=self.result.summary(lang, names))


# "{seat}" reads "seat 2" / "игрок 2" or the player's name, always where Russian needs the
# nominative (a name does not decline): see engine/wording.py.  Nor does a sentence guess
# the player's gender from a name: a Russian verb beside a name is in the present tense
# ("берёт", "выигрывает"), which has none, or the sentence is built round a noun
# ("группа объявлена: Варя"), never a past tense that must agree ("объявил/объявила").
add_texts({
    "event.Dealt": ("{dealer} deals; {talon} cards in the talon.",
                    "{dealer} сдаёт; в прикупе {talon} карт."),
    "event.Dealt.own": ("{dealer} deals; {talon} cards in the talon. Hands: {hands}",
                        "{dealer} сдаёт; в прикупе {talon} карт. Карты: {hands}"),
    "event.TurnedUp": ("The turned-up card is {card}.", "Открыта карта {card}."),
    "event.Shown.flush.wins_mushka": ("{seat} shows five of a suit {cards} and wins the mushka.",
                                      "{seat} открывает пять карт одной масти {cards} и выигрывает мушку."),
    "event.Shown.flush.side_payment": ("{seat} shows five of a suit {cards}.",
                                       "{seat} открывает пять карт одной масти {cards}."),
    "event.Shown.privileged_four.wins_mushka": (
        "{seat} shows four of a suit and the privileged card {cards} and wins the mushka.",
        "{seat} открывает четыре карты одной масти и преимущественную карту {cards} и выигрывает мушку."),
    "event.Shown.privileged_four.side_payment": (
        "{seat} shows four of a suit and the privileged card {cards}.",
        "{seat} открывает четыре карты одной масти и преимущественную карту {cards}."),
    "event.TookTurnup": ("{seat} (dealer) takes {card} and discards {discard}.",
                         "{seat} (сдающий) берёт {card} и сбрасывает {discard}."),
    "event.Declared.pass": ("{seat} passes.", "{seat}: пас."),
    "event.Declared.stand": ("{seat} stands pat.", "{seat} играет без прикупа."),
    "event.Declared.exchange.hidden": ("{seat} stands and exchanges {count_cards}.",
                                       "{seat} играет и прикупает {count_cards}."),
    "event.TookTurnup.hidden": ("{seat} (dealer) takes {card} and discards a card.",
                                "{seat} (сдающий) берёт {card} и сбрасывает карту."),
    "event.CardTaken.hidden": ("{taker} takes a card from {owner}'s group.",
                               "{taker} берёт карту; группа объявлена: {owner}."),
    "event.GroupSettled.hidden": ("{owner} gets {returned} back and draws {drawn_count}.",
                                  "{owner}: возвращено {returned}, прикуплено {drawn_count}."),
    "event.Discarded.hidden": ("{seat} discards a card.", "{seat} сбрасывает карту."),
    "event.Drew.kept.hidden": ("{seat} draws a card, keeps it and passes.",
                               "{seat} прикупает карту, оставляет её и пасует."),
    "event.Declared.exchange": ("{seat} stands and exchanges {count_cards}: {discards} for {drawn}.",
                                "{seat} играет и прикупает {count_cards}: {discards} на {drawn}."),
    "event.FlushPaid": ("{seat} is paid {each} by every other player ({total} in all).",
                        "{seat} получает по {each} с каждого партнёра (всего {total})."),
    "event.MushkaWon": ("{seat} wins the mushka and takes the records; the deal stops.",
                        "{seat} выигрывает мушку и берёт записи; сдача остановлена."),
    "event.AllPassed": ("Everybody passed.", "Все спасовали."),
    "event.LoneTakesAll": ("{seat} stands alone and takes all {tricks} tricks.",
                           "{seat} играет в одиночку и берёт все {tricks} взяток."),
    "event.PlayStarted": ("Trick play: {leader} leads; playing: {players}.",
                          "Розыгрыш: первым ходит {leader}; играют: {players}."),
    "event.Played": ("{seat} plays {card}.", "{seat} кладёт {card}."),
    "event.TrickTaken": ("Trick {number} to {seat}: {cards}.",
                         "Взятку {number} берёт {seat}: {cards}."),
    "event.TrickTaken.value": ("Trick {number} in {suit} to {seat}, worth {value}: {cards}.",
                               "Взятку {number}, {suit}, берёт {seat}, она стоит {value}: {cards}."),
    "event.GroupDeclared": ("{seat} declares {count_cards} of one suit and lays them face down.",
                            "{seat} объявляет {count_cards} одной масти и кладёт их крапом вверх."),
    "event.CardTaken": ("{taker} takes a card ({card}) from {owner}'s group.",
                        "{taker} берёт карту ({card}); группа объявлена: {owner}."),
    "event.GroupSettled": (
        "{owner} gets {returned} back and draws {drawn_count} ({drawn}); taken: {taken}.",
        "{owner}: возвращено {returned}, прикуплено {drawn_count} ({drawn}); взяты: {taken}.",
    ),
    "event.Discarded": ("{seat} discards a card ({card}).", "{seat} сбрасывает карту ({card})."),
    "event.Drew.played": ("{seat} draws {card} and plays it.",
                          "{seat} прикупает {card} и кладёт её."),
    "event.Drew.kept": ("{seat} draws a card ({card}), keeps it and passes.",
                        "{seat} прикупает карту ({card}), оставляет её и пасует."),
    "event.Passed": ("{seat} passes.", "{seat}: пас."),
    "event.Passed.penalty": ("{seat} passes holding the suit and pays a remiz of {penalty}.",
                             "{seat} пасует, имея масть, и платит ремиз {penalty}."),
    "event.TakenBack": ("Nobody covered {card}: {seat} takes it back; {next_leader} leads.",
                        "На {card} никто не дал карты: {seat} берёт её обратно; ходит {next_leader}."),
    "event.WentOut": ("{seat} has no cards left.", "{seat}: карт на руке больше нет."),
    "event.Deadlock": ("Four leads in a row were taken back: the game ends with nobody out.",
                       "Четыре хода подряд взяты обратно: игра окончена, никто не вышел."),
    "event.Paid.in": ("{seat} pays {amount} into the pot ({reason}).",
                      "{seat} вносит в кассу {amount} ({reason})."),
    "event.Paid.out": ("{seat} receives {amount} from the pot ({reason}).",
                       "{seat} получает из кассы {amount} ({reason})."),
    "event.DealEnded": ("Deal over: {result}", "Сдача окончена: {result}"),
    "reason.ante": ("ante", "взнос"),
    "reason.renege": ("remiz for passing with the suit", "ремиз за пас при масти"),
    "reason.remiz": ("remiz, no trick", "ремиз, нет взяток"),
    "reason.trick": ("trick", "взятка"),
    "reason.game": ("payment after the game", "плата после игры"),
    "reason.pot": ("the pot", "кассовый остаток"),
})
