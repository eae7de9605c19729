"""Who a signed-in player is, as every part of the server names him: :class:`Account`.

The accounts' rules (:mod:`mushka.server.accounts`) and their storage
(:mod:`mushka.server.sqlaccounts`) both speak of it, and so do the connections, the
presence and the profiles; it lives here, on its own, so that the rules may use the
storage without the storage reaching back for it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Account:
    """A signed-in player: his account's id (random, stable, never shown) and the name he
    claimed, as tables show it."""

    id: str
    name: str
