"""Test bots: a deterministic player, so that tournaments have two different
players, and one whose factory refuses bad values; and a Ray cluster on
loopback for the cluster tests."""

from __future__ import annotations

import fcntl
import hashlib
import os
import secrets
import shutil
import tempfile
from pathlib import Path

import pytest

from mushka.bots import BOTS, register_bot


class FirstBot:
    """Always takes the first legal action (a weak, predictable player)."""

    name = "first"

    def choose(self, view, rng):
        return view.deal.legal[0]


@pytest.fixture
def first_bot():
    register_bot("first", FirstBot)
    yield "first"
    BOTS.pop("first", None)


def picky(level=1):
    """A bot factory that refuses some values (as a real bot checks its budget)."""
    if level < 1:
        raise ValueError("level must be at least 1")
    return FirstBot()


@pytest.fixture
def picky_bot():
    register_bot("picky", picky, params=("level",))
    yield "picky"
    BOTS.pop("picky", None)


# --- a Ray cluster on loopback for the cluster tests -------------------------------------


def _env(changes):
    saved = {k: os.environ.get(k) for k in changes}
    os.environ.update(changes)
    return saved


def _restore(saved):
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


RAY_LOCK = Path(tempfile.gettempdir()) / (
    "mushka-ray-" + hashlib.sha256(str(Path(__file__).resolve().parents[2]).encode()).hexdigest()[:12] + ".lock")
"""Held while a Ray cluster of this checkout's tests runs: two xdist workers (or two sessions
of the same checkout) never start a Ray each at once, whatever ``--dist`` was given."""


@pytest.fixture(scope="module")
def ray_lock():
    """This checkout's Ray lock, held for the module (waits for another holder to finish)."""
    with RAY_LOCK.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield RAY_LOCK
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="module")
def ray_cluster(ray_lock):
    """A Ray "cluster" of this process and 2 CPUs, on the loopback address only, for one module
    (stopped before the next module starts: ``test_cluster_job.py`` starts a head of its own).

    Ray turns 127.0.0.1 into the machine's outside address unless it is told
    it is not to form a cluster with other machines
    (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``, which despite its name holds on
    Linux too); with it, every port Ray opens is on 127.0.0.1.  The cluster's
    auth token is passed in the environment, so that no token file is written
    under the home directory, and Ray's session files go to a temporary
    directory; all of it is removed afterwards, with any token file Ray wrote
    all the same.
    """
    temp = Path(tempfile.mkdtemp(prefix="mushka-ray-"))
    token_file = Path.home() / ".ray" / "auth_token"
    had_token, had_dir = token_file.exists(), token_file.parent.exists()
    saved = _env({"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "token",
                  "RAY_AUTH_TOKEN": secrets.token_hex(16), "RAY_USAGE_STATS_ENABLED": "0"})
    import ray
    from ray._raylet import Config

    Config.initialize("")  # Ray reads its settings once per process; this one has just changed them
    try:
        context = ray.init(num_cpus=2, _node_ip_address="127.0.0.1", include_dashboard=False, _temp_dir=str(temp),
                           logging_level="WARNING", log_to_driver=False)
        yield {"address": context.address_info["address"], "temp": temp, "ray": ray, "lock": ray_lock}
    finally:
        ray.shutdown()
        _restore(saved)
        shutil.rmtree(temp, ignore_errors=True)
        if not had_token:
            token_file.unlink(missing_ok=True)
        if not had_dir and token_file.parent.exists() and not any(token_file.parent.iterdir()):
            token_file.parent.rmdir()
