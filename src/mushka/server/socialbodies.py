"""The JSON bodies of the social endpoints: friends, invitations, notices, mutes and blocks,
reports and profiles (see ``docs/friends.md`` and ``docs/protocol.md``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mushka.server.protocol import MAX_CHAT, MAX_NAME, Lang, Message


class NameBody(Message):
    """``POST /api/friends``, ``POST /api/friends/remove``: the other account's name."""

    name: str = Field(min_length=1, max_length=MAX_NAME)
    lang: Lang | None = None


class CodeBody(Message):
    """``POST /api/friends/link``: the code of somebody's friend link (``/?friend=CODE``)."""

    code: str = Field(min_length=1, max_length=32)
    lang: Lang | None = None


class InviteBody(Message):
    """``POST /api/invitations``: invite a friend to a table."""

    name: str = Field(min_length=1, max_length=MAX_NAME)
    table: str = Field(min_length=1, max_length=32)
    lang: Lang | None = None


class HideBody(Message):
    """``POST /api/hides``: mute or block an account, or neither (``none``)."""

    name: str = Field(min_length=1, max_length=MAX_NAME)
    kind: Literal["mute", "block", "none"]
    lang: Lang | None = None


class ReportBody(Message):
    """``POST /api/reports``: a chat line of a table, as the page received it."""

    table: str = Field(min_length=1, max_length=32)
    at: str = Field(min_length=1, max_length=40)
    seat: int | None = Field(default=None, ge=0, le=15)
    name: str = Field(min_length=1, max_length=MAX_NAME)
    text: str = Field(min_length=1, max_length=4 * MAX_CHAT)
    lang: Lang | None = None


class FriendOut(Message):
    """One friendship as its owner's page lists it."""

    name: str
    status: Literal["accepted", "incoming", "outgoing"]
    """Friends, a request to me, or my request."""
    online: bool = False
    """Seen within the last 30 seconds (friends only)."""
    table: str | None = None
    """The table the friend is at, if any (friends only)."""


class FriendsReply(Message):
    """``GET /api/friends``."""

    friends: list[FriendOut]


class AskReply(Message):
    """``POST /api/friends`` and ``POST /api/friends/link``."""

    name: str
    status: Literal["asked", "accepted", "friends"]
    """The request was made, or it accepted the other's (friends now), or they were friends."""


class LinkReply(Message):
    """``GET /api/friends/link``: my friend link."""

    code: str
    url: str
    """The link's path: ``/?friend=CODE``."""


class NoticeOut(Message):
    """One notice, already in the reader's language."""

    id: int
    kind: Literal["invite", "friend_request", "friend_accepted"]
    name: str
    """Who it is from."""
    table: str | None = None
    """The table of an invitation."""
    text: str
    """What to show."""
    at: int
    """When it was made (milliseconds since 1970, UTC)."""


class NoticesReply(Message):
    """``GET /api/notices``."""

    notices: list[NoticeOut]


class HideOut(Message):
    """One account I muted or blocked."""

    name: str
    kind: Literal["mute", "block"]


class HidesReply(Message):
    """``GET /api/hides``."""

    hides: list[HideOut]


class Done(Message):
    """A change that was made (or had been made already: ``changed`` false)."""

    changed: bool


class RatingPoint(Message):
    """The rating after one rated game."""

    table: str
    rating: int


class VariantProfile(Message):
    """One variant of a profile."""

    variant: str
    games: int
    """Rated games of the variant."""
    rating: int
    provisional: bool
    history: list[RatingPoint]
    """The rating after each rated game, oldest first (at most the last 200)."""


class GameOut(Message):
    """One recent finished game of a profile."""

    table: str
    variant: str
    finished: str | None
    """ISO 8601, UTC."""
    names: list[str]
    won: bool
    replay: str
    """The replay page's path."""
    review: str | None = None
    """The review page of the owner's seat (the replay with its review), where the server makes reviews."""


class VersusOut(Message):
    """The rated games a profile's owner played with one of his friends."""

    name: str
    games: int
    ahead: int
    """Games the owner finished ahead of the friend."""
    behind: int


class ProfileReply(Message):
    """``GET /api/profiles/{name}``."""

    name: str
    account: bool
    """The name is a claimed account's (not only a guest's nickname)."""
    games: int
    wins: int
    variants: list[VariantProfile]
    recent: list[GameOut]
    friends: list[VersusOut]
    """Results against each of the owner's friends (accounts only)."""
    friend: Literal["accepted", "incoming", "outgoing", "none", "self"] | None = None
    """The reader's friendship with the owner (null for a guest reader)."""
    hidden: Literal["mute", "block", "none"] | None = None
    """Whether the reader muted or blocked the owner (null for a guest reader)."""
