"""A table's social side: its turn timer (P15) and its chat (P16), and the bot that
plays for a timed-out seat until the player is back.

:class:`TableSocial` belongs to one :class:`~mushka.server.table.ServerTable` and
works on it through :class:`SocialHost`, the few things of a table it needs (the
table module stays about the game, its seats and its storage).  Every change
it makes to a seat is made under the table's lock, as every other change of
the table is (STYLE 13).
"""

from __future__ import annotations

import logging
from typing import Protocol

from mushka.i18n import tr
from mushka.server.chat import Listener, TableChat
from mushka.server.seating import Seat
from mushka.server.table.host import TableBasics, TableProgress, TableRunning
from mushka.server.table.storage import TableStorage
from mushka.server.texts import ProtocolError
from mushka.server.timer import TurnTimer, banks_of_text, banks_text

log = logging.getLogger("mushka.server")


class SocialHost(TableBasics, TableProgress, TableRunning, Protocol):
    """What the social side needs of its table besides its basics, progress and running: its
    ``storage`` (which refuses changes while it fails, P14), telling everybody who sits where,
    and keeping a chat line."""

    storage: TableStorage

    def presence(self) -> None:
        """Tell everybody who sits where."""
        ...

    def keep_chat(self, number: int, text: str) -> None:
        """Store chat line ``number`` (its JSON text), so that another process taking the table
        over has it."""
        ...


class TableSocial:
    """One table's turn timer and chat (see the module docstring)."""

    def __init__(self, host: SocialHost, turn_seconds: int, bank_seconds: int = 0) -> None:
        """The social side of ``host`` (P15: ``turn_seconds`` a move, then a bank of ``bank_seconds``
        per seat for the game)."""
        self.host = host
        self.timer = TurnTimer(turn_seconds, self.time_up, bank=bank_seconds, seats=len(host.seats))
        """P15: the deadline of the person to act (see :mod:`mushka.server.timer`)."""
        self.chat = TableChat()
        """P16: the table's chat (see :mod:`mushka.server.chat`)."""

    # --- chat, P16 -----------------------------------------------------------------------

    def say(self, client: Listener, *, text: str | None, phrase: str | None) -> None:
        """P16: one line of chat from ``client`` to everybody at the table who hears it."""
        names = ("", "")
        if client.seat is not None:
            s = self.host.seats[client.seat]
            names = (s.shown_name("en") or tr("server.player_name", "en", seat=s.index + 1),
                     s.shown_name("ru") or tr("server.player_name", "ru", seat=s.index + 1))
        said = self.chat.say(client, names, text=text, phrase=phrase, clients=self.host.clients)
        self.host.keep_chat(self.chat.number, said.to_json())

    # --- the turn timer, P15 ----------------------------------------------------------------

    def banks_text(self) -> str | None:
        """Every seat's time bank left now, as stored (None: the table has no bank)."""
        return banks_text(self.timer.banks_now()) if self.timer.bank else None

    def restore_banks(self, text: str | None) -> None:
        """Take the banks left a table taken over from storage had (see :func:`banks_of_text`)."""
        if self.timer.bank:
            self.timer.banks = banks_of_text(text, len(self.host.seats), self.timer.bank)

    def retime(self, spent: float = 0.0) -> None:
        """Time the move of the person to act now, if the table has a timer (``spent`` seconds of
        it gone already: a table taken over from storage); tell everybody."""
        host = self.host
        game = host.game
        seat: int | None = None
        if host.status == "playing" and game is not None and not game.is_over and not host.closed:
            s = host.seats[game.to_act]
            if s.kind == "human" and not s.substitute:
                seat = s.index
        if self.timer.arm(seat, host.version, spent) and host.clients:
            text = self.timer.clock(host.announced).model_dump_json()
            for client in list(host.clients):
                client.send(text)

    async def time_up(self, index: int, version: int) -> None:
        """P15: the time of ``index`` at ``version`` is up: a bot plays for him until he is back."""
        host = self.host
        async with host.lock:
            game = host.game
            if (host.closed or host.version != version or host.status != "playing" or game is None
                    or game.to_act != index):
                return  # he moved in time, or the table moved on
            seat = host.seats[index]
            if seat.kind != "human" or seat.substitute:
                return
            seat.substitute, seat.timed_out = True, True
            log.info("table %s: seat %d ran out of time; a bot plays for it", host.id, index)
            self.host.presence()
            self.retime()
            self.host.wake.set()

    async def back(self, client: Listener) -> None:
        """P15: the player takes his seat back from the bot playing for him."""
        self.host.storage.check_storage()
        async with self.host.lock:
            if client.seat is None:
                raise ProtocolError("spectator", rule="P5")
            seat = self.host.seats[client.seat]
            if not seat.substitute:
                raise ProtocolError("not_substituted", rule="P15")
            seat.substitute = seat.timed_out = False
            self.host.presence()
            self.retime()
            self.host.wake.set()

    def taken_back(self, seat: Seat) -> bool:
        """The player acts or comes back himself: the bot stops playing for him (lock held).
        True if a bot was playing for him."""
        if not seat.substitute:
            return False
        seat.substitute = seat.timed_out = False
        return True
