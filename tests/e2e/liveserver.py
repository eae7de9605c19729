"""The live server of the browser tests: ``mushka serve`` in a thread of the test process.

A module of its own (not the folder's conftest) so that a test module or a fixture can build a
server with other settings by importing it by a name no other folder's conftest shares.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

BOT_DELAY = 0.05
"""Seconds a bot waits before its move: short, but long enough for a page to see each move."""


class LiveServer:
    """``mushka serve`` in a thread of the test process."""

    def __init__(self, db_path: Path, **overrides: Any) -> None:
        import uvicorn

        from mushka.server import ServerConfig, create_app
        from mushka.server.protocol import MAX_MESSAGE_BYTES

        settings: dict[str, Any] = {
            "database_url": f"sqlite:///{db_path}", "bot_delay": BOT_DELAY, "grace": 60.0,
            "default_bot": "random", "http_rate": 100.0, "http_burst": 500, "rate": 200.0, "burst": 500,
            "tune_gc": False,  # the server shares the test process; its collector is left alone
            "turn_choices": (0, 3, 15, 30, 60, 120),  # 3 s: a turn timer a test can see run out
            "takeback_seconds": 0.0,  # P21's wait for a take-back only where a test asks for it
            # Every page of the suite comes from 127.0.0.1: the chat budget per address (P16) would
            # be shared by tests that follow each other; a connection's own budget still holds.
            "chat_address_rate": 1e4, "chat_address_burst": 10_000,
        }
        config = ServerConfig(**{**settings, **overrides})
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.app = create_app(config)
        self.server = uvicorn.Server(uvicorn.Config(
            self.app, log_level="warning", ws="websockets-sansio",
            ws_max_size=MAX_MESSAGE_BYTES * 16, lifespan="on", ws_per_message_deflate=False,
        ))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
        self.sock.close()

    def store(self) -> Any:
        """The running server's storage (for putting finished games in place)."""
        from mushka.server.app import lobby_of

        return lobby_of(self.app).store

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One JSON call to the server's HTTP API."""
        import httpx

        reply = httpx.request(method, self.url + path.lstrip("/"), json=body, timeout=10)
        assert reply.status_code < 300, reply.text
        return reply.json()
