"""The table chat (P16): quick phrases and short free text, players and spectators apart.

A line is plain text from end to end: the server cleans it (control
characters out, spaces collapsed, Unicode NFC, at most
:data:`~mushka.server.protocol.MAX_CHAT` characters) but never turns it into
markup, and the page shows it with ``textContent``.  A quick phrase travels as
its id and every receiver reads it in his own language.

Who hears whom: a player's line goes to everybody at the table; a
spectator's line goes to the spectators, and to a player only if he asked
for them (``listen``), so that the table's talk is the players' own.  Each
connection and each address has a budget of lines (the connection checks it,
:meth:`mushka.server.connection.Connection.on_chat`).  A signed-in receiver gets no
line from an account he muted or blocked, at any table (:meth:`TableChat.hears`, see
:mod:`mushka.server.abuse`); a guest's page hides the names it muted itself.

The last :data:`KEPT` lines stay in memory for whoever arrives, and in storage
beside the table (not in the game's record: chat is talk), so that a restart or
another process taking the table over still shows them.
"""

from __future__ import annotations

import json
import unicodedata
import weakref
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final, Literal, Protocol

from mushka.i18n import add_text_file, tr
from mushka.server.protocol import CHAT_PHRASES, MAX_CHAT, ChatLine, Lang
from mushka.server.texts import ProtocolError

KEPT: Final = 50
"""Lines of a table's chat kept for the connections that arrive later."""

Channel = Literal["players", "spectators"]


class Listener(Protocol):
    """What the chat needs of a connection."""

    seat: int | None
    lang: Lang

    def send(self, text: str) -> None:
        """Queue one message."""
        ...


@dataclass(frozen=True, slots=True)
class Said:
    """One line as it was said (its text made per receiver's language when sent)."""

    channel: Channel
    seat: int | None
    name: tuple[str, str]
    """The speaker's name in English and in Russian."""
    phrase: str | None
    text: str | None
    at: str
    account: str | None = None
    """The speaker's account, if he was signed in (never sent to the receivers: their
    connections hide the lines of the accounts they muted, and a report names it)."""

    def to_json(self) -> str:
        """The line as stored (JSON text)."""
        data = {"channel": self.channel, "seat": self.seat, "name": list(self.name),
                "phrase": self.phrase, "text": self.text, "at": self.at}
        if self.account is not None:
            data["account"] = self.account
        return json.dumps(data, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Said:
        """A stored line read back (``ValueError`` when it is not one)."""
        data = json.loads(text)
        channel = data.get("channel")
        name = data.get("name")
        if channel not in ("players", "spectators") or not isinstance(name, list) or len(name) != 2:
            raise ValueError("not a stored chat line")
        seat = data.get("seat")
        account = data.get("account")
        return cls(channel="players" if channel == "players" else "spectators",
                   seat=seat if isinstance(seat, int) else None, name=(str(name[0]), str(name[1])),
                   phrase=data.get("phrase"), text=data.get("text"), at=str(data.get("at", "")),
                   account=account if isinstance(account, str) else None)

    def line(self, lang: Lang, *, past: bool = False) -> ChatLine:
        """The ``chat`` message of this line for a receiver reading ``lang``."""
        text = self.text if self.phrase is None else tr(f"chat.phrase.{self.phrase}", lang)
        return ChatLine(channel=self.channel, seat=self.seat, name=self.name[1 if lang == "ru" else 0],
                        phrase=self.phrase, text=text or "", at=self.at, past=past)


def spectator_chat_name(name: str | None) -> str | None:
    """P16: the name a spectator gave for the chat, cleaned; None (he is then ``Spectator 2``)
    for none, or for a bot's name or level: nobody in the chat passes for a bot."""
    from mushka.server.seating import RESERVED_NAMES
    from mushka.server.wire import clean_name

    cleaned = clean_name(name)
    if cleaned is None or cleaned.casefold() in RESERVED_NAMES:
        return None
    return cleaned


def clean_text(text: str) -> str:
    """P16: free text as it is shown: NFC, control and format characters out, spaces collapsed;
    a :class:`ProtocolError` if nothing is left or it is too long."""
    normal = unicodedata.normalize("NFC", text)
    printable = "".join(ch if ch.isprintable() else " " for ch in normal)
    cleaned = " ".join(printable.split())
    if not cleaned:
        raise ProtocolError("chat_empty", rule="P16")
    if len(cleaned) > MAX_CHAT:
        raise ProtocolError("chat_too_long", rule="P16", length=len(cleaned), limit=MAX_CHAT)
    return cleaned


class TableChat:
    """One table's chat: the recent lines, who listens to the spectators, spectators' numbers."""

    def __init__(self) -> None:
        """An empty chat."""
        self.lines: deque[Said] = deque(maxlen=KEPT)
        self._listening: weakref.WeakSet[Listener] = weakref.WeakSet()
        self._numbers: weakref.WeakKeyDictionary[Listener, int] = weakref.WeakKeyDictionary()
        self._next = 1
        self.number = 0
        """The number of the last line said (stored lines are numbered per table)."""

    def restore(self, stored: Iterable[tuple[int, str]]) -> None:
        """The lines kept in storage (number, JSON text), oldest first; damaged ones are skipped."""
        for number, text in stored:
            try:
                self.lines.append(Said.from_json(text))
            except (ValueError, TypeError, AttributeError):
                continue
            self.number = max(self.number, number)

    def listen(self, client: Listener, spectators: bool) -> None:
        """Whether ``client`` (a player) hears the spectators' lines from now on; when he starts
        to, he gets the recent ones too (B7: what they said before he ticked the box)."""
        if spectators:
            new = client not in self._listening
            self._listening.add(client)
            if new:
                for said in self.lines:
                    if said.channel == "spectators" and self.hears(client, said):
                        client.send(said.line(client.lang, past=True).model_dump_json())
        else:
            self._listening.discard(client)

    def hears(self, client: Listener, said: Said) -> bool:
        """Whether ``client`` receives ``said`` (never a line of an account it muted or blocked)."""
        if said.account is not None and said.account in getattr(client, "hidden", ()):
            return False
        if said.channel == "players" or client.seat is None:
            return True
        return client in self._listening

    def spectator_name(self, client: Listener) -> tuple[str, str]:
        """A spectator's name in both languages: the one he gave (``Boris (spectator)``), else
        ``Spectator 2``, numbered as they speak first."""
        given = getattr(client, "chat_name", None)
        if isinstance(given, str) and given:
            return tr("chat.spectator_named", "en", name=given), tr("chat.spectator_named", "ru", name=given)
        number = self._numbers.get(client)
        if number is None:
            number = self._numbers[client] = self._next
            self._next += 1
        return tr("chat.spectator", "en", n=number), tr("chat.spectator", "ru", n=number)

    def say(self, client: Listener, names: tuple[str, str], *, text: str | None, phrase: str | None,
            clients: Iterable[Listener]) -> Said:
        """P16: check one line, keep it and send it to everybody who hears it."""
        if (text is None) == (phrase is None):
            raise ProtocolError("chat_one", rule="P16")
        if phrase is not None and phrase not in CHAT_PHRASES:
            raise ProtocolError("chat_phrase", rule="P16", phrase=phrase[:32], known=", ".join(CHAT_PHRASES))
        cleaned = None if text is None else clean_text(text)
        spectator = client.seat is None
        account = getattr(client, "account", None)
        said = Said(channel="spectators" if spectator else "players", seat=client.seat,
                    name=self.spectator_name(client) if spectator else names,
                    phrase=phrase, text=cleaned, at=datetime.now(UTC).isoformat(timespec="seconds"),
                    account=getattr(account, "id", None))
        self.lines.append(said)
        self.number += 1
        made: dict[Lang, str] = {}
        for other in list(clients):
            if self.hears(other, said):
                if other.lang not in made:
                    made[other.lang] = said.line(other.lang).model_dump_json()
                other.send(made[other.lang])
        return said

    def replay_to(self, client: Listener) -> None:
        """Send a connection that just arrived the recent lines it may hear."""
        for said in self.lines:
            if self.hears(client, said):
                client.send(said.line(client.lang, past=True).model_dump_json())


add_text_file("mushka.server", "chat.toml")
