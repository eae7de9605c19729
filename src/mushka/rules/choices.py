"""The closed sets of values an option may take, one :class:`~enum.StrEnum` each.

A member is its text: ``str(member)``, an f-string, :func:`json.dumps` and
``member == "text"`` all give or take the word that ``-o name=value``, records,
the server and the OpenSpiel parameters use, so a record or a saved table reads
and writes byte for byte as when the values were plain strings.  The parsers of
:mod:`mushka.rules.options` turn every given word into its member, so the engine
compares a :class:`~mushka.rules.model.Rules` field by identity
(``rules.renege is Renege.FORBID``).  The order of the members is the order the
option's help and its error messages list them in.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

VariantName = Literal["classic", "mistigri", "kopilka"]
"""The canonical name of a variant (:data:`mushka.rules.variants.VARIANTS`' keys): plain
text, since records, the server and every table key hold the name as it is."""


class AllPass(StrEnum):
    """C9, option ``all_pass``: who deals after a deal where everybody passed."""

    REDEAL = "redeal"
    """The deal passes on: the next dealer deals (the default)."""
    SAME_DEALER = "same_dealer"
    """The same dealer deals again."""


class LonePlayer(StrEnum):
    """C10, option ``lone_player``: what happens when exactly one player stands."""

    TAKES_ALL_TRICKS = "takes_all_tricks"
    """He takes all five tricks without play (the default)."""
    DEALER_MUST_PLAY = "dealer_must_play"
    """When one player before the dealer has stood, the dealer may not pass and the two
    play the deal out, as in Loo."""


class FlushMode(StrEnum):
    """C22, MI9, MI13, MI14: what a special hand does once shown.

    The values of option ``flush`` (five cards of one suit), and of
    :attr:`Rules.four_mode <mushka.rules.model.Rules.four_mode>`, what four of a suit
    and the privileged card do once :attr:`PrivilegedFour.AS_FLUSH` is resolved.
    """

    WINS_MUSHKA = "wins_mushka"
    """The hand wins the мушка at once: the deal stops and C21 applies."""
    SIDE_PAYMENT = "side_payment"
    """Every other player pays the holder ``flush_payment``; the deal goes on."""
    NONE = "none"
    """Nothing special: the hand is played like any other."""


class PrivilegedFour(StrEnum):
    """C22, MI13, option ``privileged_four``: what four cards of a suit and the
    privileged card as the fifth do; the three effects of :class:`FlushMode`, or the
    same as a flush."""

    AS_FLUSH = "as_flush"
    """Whatever option ``flush`` makes of five cards of one suit."""
    WINS_MUSHKA = "wins_mushka"
    """The hand wins the мушка at once (the default, MI13)."""
    SIDE_PAYMENT = "side_payment"
    """Every other player pays the holder ``flush_payment``; the deal goes on."""
    NONE = "none"
    """Nothing special."""


class Renege(StrEnum):
    """K12, option ``renege``: passing while holding the led suit."""

    PENALTY = "penalty"
    """Allowed, but it costs a ремиз into the pot at once (the default)."""
    FORBID = "forbid"
    """Not allowed: a player holding the led suit must follow."""


class Redistribution(StrEnum):
    """K7, K8, option ``redistribution``: how three or more cards of a suit are shared
    out after the deal."""

    MODERN = "modern"
    """K7: each other player in turn takes one card of the group at random (the default)."""
    OLD = "old"
    """K8: the owner's right-hand neighbour draws two at random for the next two seats."""
