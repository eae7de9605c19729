"""A throwaway PostgreSQL server for the tests: ``initdb`` and ``pg_ctl`` in a temporary directory.

:func:`throwaway` makes a cluster (found on ``PATH``, through ``pg_config --bindir``, in
Debian's ``/usr/lib/postgresql/*/bin`` or in ``MUSHKA_PG_BIN``), starts it listening on a
free loopback port only (no Unix socket, no flushes: it lives for one test run) and
removes it afterwards, whatever happened.  The test setup installs PostgreSQL
(``scripts/ensure-services.sh``), so a missing one fails the tests that need it, with
the way to install it.  PostgreSQL refuses to run as root: run by root, the cluster's
programs run as the ``postgres`` user, or ``nobody``.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

TIME_ZONE = "Asia/Vladivostok"
"""The cluster's own time zone: anything but UTC, so that times read back in it must be turned into UTC."""

MISSING = ("PostgreSQL's initdb and pg_ctl were not found (PATH, pg_config --bindir, /usr/lib/postgresql/*/bin, "
           "MUSHKA_PG_BIN): install Debian's postgresql package (bash scripts/ensure-services.sh, as make test does)")


def pg_bin() -> Path | None:
    """The directory of ``initdb`` and ``pg_ctl``, or ``None``."""
    given = os.environ.get("MUSHKA_PG_BIN")
    candidates: list[Path] = [Path(given)] if given else []
    found = shutil.which("initdb")
    if found:
        candidates.append(Path(found).resolve().parent)
    config = shutil.which("pg_config")
    if config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run([config, "--bindir"], capture_output=True, text=True, timeout=10, check=True)
            candidates.append(Path(out.stdout.strip()))
    # Debian keeps the server's programs out of PATH, one directory per major version (newest first).
    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (another program may take it before we do)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Cluster:
    """A running throwaway PostgreSQL server."""

    bin: Path
    data: Path
    log: Path
    port: int
    as_user: dict[str, Any]
    """``subprocess`` arguments that run a program as the cluster's owner."""
    names: Iterator[int]
    max_connections: int = 40

    def run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env.update(LC_ALL="C", TZ="UTC")
        return subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env,
                              cwd=self.data.parent, **self.as_user)

    def pg_ctl(self, *args: str, timeout: float = 90) -> subprocess.CompletedProcess[str]:
        return self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), *args, timeout=timeout)

    def options(self) -> str:
        # Loopback TCP only (no Unix socket), and no flushes: the cluster lives for one test run.
        return (f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories='' "
                f"-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c timezone={TIME_ZONE} "
                f"-c max_connections={self.max_connections}")

    def start(self) -> bool:
        return self.pg_ctl("-l", str(self.log), "-o", self.options(), "-w", "-t", "60", "start").returncode == 0

    def stop(self) -> None:
        if self.pg_ctl("-m", "immediate", "-w", "-t", "30", "stop").returncode != 0:
            # pg_ctl could not stop it: end the server it started, by the id in its pid file.
            with contextlib.suppress(OSError, ValueError, IndexError):
                pid = int((self.data / "postmaster.pid").read_text().split()[0])
                os.kill(pid, 9)

    def restart(self) -> None:
        # With its log file named again: else the new server would write to pg_ctl's output, which
        # would then never close.
        result = self.pg_ctl("-l", str(self.log), "-m", "fast", "-w", "-t", "60", "restart")
        assert result.returncode == 0, result.stdout + result.stderr + self.log_text()

    def log_text(self) -> str:
        with contextlib.suppress(OSError):
            return self.log.read_text(errors="replace")[-3000:]
        return ""

    def url(self, database: str) -> str:
        return f"postgresql://mushka@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = f"mushka_{next(self.names)}"
        with psycopg.connect(host="127.0.0.1", port=self.port, user="mushka", dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


def owner() -> dict[str, Any]:
    """How to run the cluster's programs: as ourselves, or, as root, as an unprivileged user."""
    if os.geteuid() != 0:
        return {}
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            user = pwd.getpwnam(name)
            return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    pytest.skip("running as root, and there is no unprivileged user (postgres or nobody) to run PostgreSQL as")


@contextlib.contextmanager
def throwaway(max_connections: int = 40) -> Iterator[Cluster]:
    """A PostgreSQL server of its own, torn down at the end even after a failure.

    Fails (never skips) when PostgreSQL is not installed; skips only when run by root
    with no unprivileged user to run it as."""
    pytest.importorskip("psycopg", reason="the PostgreSQL driver is not installed (pip install 'mushka[postgres]')")
    folder = pg_bin()
    if folder is None:
        pytest.fail(MISSING)
    as_user = owner()
    root = Path(tempfile.mkdtemp(prefix="mushka-pg-"))
    try:
        if as_user:
            os.chown(root, as_user["user"], as_user["group"])
        made = Cluster(folder, root / "data", root / "server.log", 0, as_user, itertools.count(1),
                       max_connections=max_connections)
        init = made.run(str(folder / "initdb"), "-D", str(made.data), "-U", "mushka", "--auth=trust",
                        "--encoding=UTF8", "--locale=C", "--no-sync", timeout=120)
        assert init.returncode == 0, f"initdb failed:\n{init.stdout}\n{init.stderr}"
        for _ in range(3):  # another program may take the free port first
            made.port = free_port()
            if made.start():
                break
        else:
            pytest.fail(f"the PostgreSQL server did not start:\n{made.log_text()}")
        try:
            yield made
        finally:
            made.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)
