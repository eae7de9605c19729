"""The example job submitted with `ray job submit` to a head of its own (the job server needs
a head started by `ray start`, not the in-process Ray of ``ray_cluster``).

Slow, in the ``ray`` xdist group, and in a module of its own: the module-scoped
``ray_cluster`` of ``test_cluster.py`` is stopped before this head starts, and the Ray
lock of the checkout is held meanwhile, so two Ray clusters never run at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from mushka.sim.study import Config, measure

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("ray")]

ROOT = Path(__file__).resolve().parents[2]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_ray_job_submit_runs_the_example_job_from_a_checkout(tmp_path, ray_lock):
    # A head of its own with the job server, on loopback, in a process group of its own
    # (`ray start --block`), so that the whole of it is stopped by its id afterwards.
    ray_bin = str(Path(sys.executable).with_name("ray"))
    temp = Path(tempfile.mkdtemp(prefix="mushka-rayjob-"))
    dashboard = _free_port()
    env = dict(os.environ, RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0", RAY_AUTH_MODE="token",
               RAY_AUTH_TOKEN=secrets.token_hex(16), RAY_USAGE_STATS_ENABLED="0")
    env.pop("RAY_ADDRESS", None)
    head = subprocess.Popen([ray_bin, "start", "--head", "--block", "--node-ip-address=127.0.0.1", "--port=0",
                             "--num-cpus=2", "--object-store-memory=100000000", "--include-dashboard=true",
                             "--dashboard-host=127.0.0.1", f"--dashboard-port={dashboard}",
                             # The agents' ports default to fixed numbers (52365 …), which a Ray
                             # started by another test at the same time already holds; then this
                             # head's job agent never comes up ("No available agent").
                             f"--dashboard-agent-listen-port={_free_port()}",
                             f"--dashboard-agent-grpc-port={_free_port()}",
                             f"--metrics-export-port={_free_port()}",
                             f"--runtime-env-agent-port={_free_port()}",
                             f"--temp-dir={temp}", "--disable-usage-stats"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        runtime_env = {"env_vars": {"PYTHONPATH": "src"}, "excludes": [".venv", ".git", "*_cache"]}
        job = [ray_bin, "job", "submit", "--address", f"http://127.0.0.1:{dashboard}", "--working-dir", str(ROOT),
               "--runtime-env-json", json.dumps(runtime_env), "--",
               sys.executable, "examples/cluster_job.py", "--sessions", "12", "--only", "heuristic ×4", "--json"]
        # The job server answers some seconds after the head has started (longer on a busy machine).
        deadline = time.monotonic() + 240
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{dashboard}/api/version", timeout=5):
                    break
            except urllib.error.HTTPError:
                break  # it answers (asking for the cluster's token, which `ray job submit` has)
            except OSError:
                pass
            assert head.poll() is None, "the head node stopped"
            assert time.monotonic() < deadline, "the job server did not answer"
            time.sleep(1)
        deadline = time.monotonic() + 300
        while True:
            done = subprocess.run(job, env=env, capture_output=True, text=True, timeout=600, check=False)
            # The head's job agent comes up after its job server; until then a job is turned away.
            if "No available agent" not in done.stdout + done.stderr or time.monotonic() > deadline:
                break
            time.sleep(2)
        assert done.returncode == 0, done.stdout + done.stderr
        line = next(s for s in done.stdout.splitlines() if s.startswith("[{"))
        rows = json.loads(line)
        assert rows[0]["where"]["engine"] == "ray" and rows[0]["where"]["cpus"] == 2
        here, _ = measure(Config("heuristic ×4", ("heuristic",) * 4), 12, seed=1)
        assert rows[0]["unluckiest"] == here["unluckiest"] and rows[0]["paid_in"] == here["paid_in"]
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()
        time.sleep(1)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)  # anything of the group still up
        shutil.rmtree(temp, ignore_errors=True)
