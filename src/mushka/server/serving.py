"""How uvicorn runs the app: its settings, and HTTP connections that cannot be held open.

uvicorn closes a connection idle *between* requests (``timeout_keep_alive``)
but gives a client all the time it likes to send a request's headers and
body, and any number of connections from one address: a few hundred sockets
that send a byte now and then (slowloris) hold the server's file
descriptors for ever.  :func:`guarded_http` is uvicorn's own HTTP protocol
(h11) with two limits added: a request must arrive whole (headers and body)
within ``request_timeout`` seconds of its first byte, or of the connection's
opening, and one address may hold at most ``per_address`` HTTP connections
at once (the WebSockets an upgrade turns them into are counted by the app,
``ServerConfig.ws_per_address``).  :func:`uvicorn_options` gathers every
setting ``mushka serve``, the benchmarks and the live tests run with.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from mushka.server.config import ServerConfig
from mushka.server.guards import AddressCounter
from mushka.server.protocol import MAX_MESSAGE_BYTES

log = logging.getLogger("mushka.server")

_WAITING = (h11.IDLE, h11.SEND_BODY)
"""The client's states of h11 in which the server waits for the client's request."""

TOO_MANY = (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"content-length: 43\r\nconnection: close\r\n\r\n"
            b"too many connections from this address (P12)")


def guarded_http(request_timeout: float, per_address: int,
                 trusted: tuple[str, ...] = ()) -> type[H11Protocol]:
    """uvicorn's h11 protocol with a deadline for each request and a cap per address (not for
    the ``trusted`` proxies: every client behind one shares its address)."""
    counter = AddressCounter(per_address)
    proxies = frozenset(trusted)

    class GuardedH11Protocol(H11Protocol):
        """One HTTP connection, closed when a request takes too long to arrive."""

        addresses = counter
        _deadline: asyncio.TimerHandle | None = None
        _address: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else "?"
            if address in proxies:
                self._arm()
                return
            if not counter.take(address):
                log.warning("refusing an HTTP connection: %s holds %d already", address, counter.cap)
                transport.write(TOO_MANY)
                transport.close()
                return
            self._address = address
            self._arm()

        def _arm(self) -> None:
            if self._deadline is None:
                self._deadline = self.loop.call_later(request_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _release(self) -> None:
            self._disarm()
            if self._address is not None:
                counter.give_back(self._address)
                self._address = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.conn.their_state in _WAITING and not self.transport.is_closing():
                log.info("closing an HTTP connection of %s: no whole request within %.0f s",
                         self._address, request_timeout)
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self.conn.their_state is h11.IDLE:
                self._arm()  # a new request begins (after a response, keep-alive had no deadline)
            super().data_received(data)
            if self.conn.their_state not in _WAITING:
                self._disarm()  # the whole request is in (or the connection is switching)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._disarm()  # between requests uvicorn's keep-alive timeout applies

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._release()  # from here on the connection is a WebSocket, counted by the app
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._release()
            super().connection_lost(exc)

    return GuardedH11Protocol


def uvicorn_options(config: ServerConfig, *, ws_deflate: bool = False) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.Config`` the server runs with (after the app)."""
    trusted = config.trusted_proxies
    return {
        "http": guarded_http(config.request_timeout, config.http_per_address, trusted),
        # The client's address comes from X-Forwarded-For only when a trusted proxy sent it
        # (uvicorn would otherwise believe any local program's header).
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": ",".join(trusted) if trusted else "",
        "ws": "websockets-sansio",
        # Frames larger than a few messages are cut off by uvicorn itself; the server
        # answers anything between with a clear P1 error.
        "ws_max_size": MAX_MESSAGE_BYTES * 16,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "ws_per_message_deflate": ws_deflate,
        "timeout_keep_alive": config.keep_alive,
        "lifespan": "on",
    }
