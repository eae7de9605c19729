"""A table of the server: one game, its seats and its connections, run as an actor.

:class:`ServerTable` (:mod:`~mushka.server.table.actor`) holds the table's
state and its one lock, plays the game and sends what changed.  Its parts
each do one thing for it:

* :mod:`~mushka.server.table.storage`: the saves a table hands the writer, and P14's stall;
* :mod:`~mushka.server.table.seats`: a waiting table's seats, its start and its rematch (P8);
* :mod:`~mushka.server.table.connections`: a connection seated by its token, its leaving,
  the grace time (P4, P15);
* :mod:`~mushka.server.table.social`: the turn timer and the chat (P15, P16);
* :mod:`~mushka.server.table.takeback`: taking back one's last card (P21).
"""

from mushka.server.table.actor import ServerTable, Services

__all__ = ["ServerTable", "Services"]
