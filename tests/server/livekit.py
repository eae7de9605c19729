"""A live server on a free loopback port (uvicorn in a thread, with the settings of
``mushka serve``), and raw sockets to it, for the tests of hostile clients."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from serverkit import config

from mushka.server import create_app
from mushka.server.serving import uvicorn_options


class Live:
    """``mushka serve`` on 127.0.0.1 in a thread of the test process."""

    def __init__(self, tmp_path: Path, **overrides: Any) -> None:
        self.config = config(tmp_path, **overrides)
        self.app = create_app(self.config)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port: int = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        options = uvicorn_options(self.config)
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", **options))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
        self.sock.close()

    def connect(self, timeout: float = 5.0) -> socket.socket:
        """A raw TCP connection to the server."""
        s = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        return s

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=10.0)


@contextlib.contextmanager
def live(tmp_path: Path, **overrides: Any) -> Iterator[Live]:
    server = Live(tmp_path, **overrides)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def read_until_closed(s: socket.socket, timeout: float) -> bytes:
    """Everything the server sends until it closes the connection; raises TimeoutError if it
    is still open after ``timeout`` seconds."""
    s.settimeout(timeout)
    out = bytearray()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:
            return bytes(out)
        except TimeoutError:
            break
        if not chunk:
            return bytes(out)
        out += chunk
    raise TimeoutError(f"the connection stayed open; received {bytes(out[:200])!r}")
