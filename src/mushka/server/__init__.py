"""``mushka serve``: play in the browser, against bots or with friends.

The server alone holds every game; clients send actions over a WebSocket
and receive their own seat's view and events (see ``docs/protocol.md`` and
``docs/server.md``).  The rules engine knows nothing of the server, and the
server owns no rules: it asks the engine.

* :mod:`~mushka.server.protocol`: the typed, versioned messages;
* :mod:`~mushka.server.bodies`: the HTTP API's bodies;
* :mod:`~mushka.server.table`: one table, run as an actor (one lock), and its parts (storage,
  seats, connections, the social side, take-backs);
* :mod:`~mushka.server.seating`: its seats, its connections and the seat tokens;
* :mod:`~mushka.server.seatviews`: the views sent, and what changed in them;
* :mod:`~mushka.server.wire`: events and sentences in their wire form;
* :mod:`~mushka.server.lobby`: making, finding and listing tables;
* :mod:`~mushka.server.finished`: the finished games' records, replays and list;
* :mod:`~mushka.server.quickmatch`: strangers seated together;
* :mod:`~mushka.server.connection`: one WebSocket, checked and dispatched;
* :mod:`~mushka.server.writer`: one task storing every change (group commit);
* :mod:`~mushka.server.store`: what is stored, behind a small repository interface;
* :mod:`~mushka.server.sqlstore`: storage in SQL (SQLAlchemy, Alembic migrations);
  what a commit writes (:mod:`~mushka.server.sqlwrite`) and how tables are read back
  (:mod:`~mushka.server.sqlread`);
* :mod:`~mushka.server.replays`: every position of a finished game;
* :mod:`~mushka.server.thinkers`: the worker processes bots think in (and replays are built in);
* :mod:`~mushka.server.app`: the Starlette application.
"""

from mushka.server.app import create_app
from mushka.server.config import ServerConfig
from mushka.server.protocol import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION", "ServerConfig", "create_app"]
