"""OpenSpiel playthrough golden files per variant, and the research examples run as CI runs them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import generate_playthrough

import mushka.research.openspiel  # noqa: F401

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
GAMES = {"classic": "mushka_classic(players=3)", "mistigri": "mushka_mistigri(players=3)",
         "kopilka": "mushka_kopilka()"}


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_openspiel_playthrough_matches_its_golden_file(variant):
    # Regenerate with: the same call, written to tests/research/playthroughs/mushka_<variant>.txt
    golden = (HERE / "playthroughs" / f"mushka_{variant}.txt").read_text()
    assert generate_playthrough.playthrough(GAMES[variant], None, seed=1) == golden


@pytest.mark.parametrize(("script", "args", "expect"), [
    ("pettingzoo_random.py", ["--deals", "5"], "money per seat"),
    ("openspiel_ismcts.py", ["--deals", "1", "--simulations", "10", "--opponent", "search:iterations=10"],
     "IS-MCTS (seat 0)"),
    ("gym_policy_gradient.py", ["--episodes", "200", "--eval", "50"], "learned policy"),
])
def test_example_runs(script, args, expect):
    out = subprocess.run([sys.executable, str(ROOT / "examples" / script), *args], capture_output=True, text=True,
                         timeout=600, check=True)
    assert expect in out.stdout
