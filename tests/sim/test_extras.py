"""The main job and terminal play need none of the optional extras; the commands
that do need one say which, in both languages, before they play anything."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# Makes the extras' modules unimportable in a child interpreter, as on an install without them.
BLOCK = textwrap.dedent("""
    import sys

    class Missing:
        blocked = ("numpy", "scipy", "matplotlib", "ray")

        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in self.blocked:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Missing())
""")


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCK + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120, check=False)


def test_the_server_and_terminal_play_run_without_the_extras():
    done = run("""
        import tempfile
        from typer.testing import CliRunner
        from mushka.cli.main import app
        from mushka.server.app import create_app
        from mushka.server.config import ServerConfig
        import mushka.tui
        from mushka.sim.play import SimTable, run_jobs, simulation_jobs
        from mushka.rules import make_rules

        create_app(ServerConfig(database_url="sqlite://"))
        result = CliRunner().invoke(app, ["play", "--help"])
        assert result.exit_code == 0, result.output
        # Games are played (here and on a cluster's workers) without the statistics modules.
        games = run_jobs(SimTable.of(make_rules("kopilka")), simulation_jobs(("random",) * 4, 3, seed=1))
        assert len(games) == 3
        loaded = sorted(m for m in sys.modules if m.partition(".")[0] in Missing.blocked)
        print("loaded:", loaded)
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "loaded: []"


@pytest.mark.parametrize(("args", "blocked", "what", "missing"), [
    (["simulate", "-n", "2"], ("numpy", "scipy", "matplotlib"), "mushka simulate", "numpy, scipy"),
    (["simulate", "-n", "2", "--plots", "plots"], ("matplotlib",), "mushka simulate --plots", "matplotlib"),
    (["tournament", "-b", "random,heuristic", "-n", "2"], ("scipy",), "mushka tournament", "scipy"),
])
def test_a_command_that_needs_the_sim_extra_names_it(args, blocked, what, missing, tmp_path):
    for lang, words in (("en", "needs the optional 'sim' part of mushka"),
                        ("ru", "нужна необязательная часть mushka «sim»")):
        done = run(f"""
            import os
            os.chdir({str(tmp_path)!r})
            sys.argv = ["mushka", *{args!r}, "--lang", {lang!r}]
            sys.meta_path[0].blocked = {blocked!r}
            from mushka.cli.main import main
            main()
        """)
        assert done.returncode == 2, done.stderr
        assert words in done.stderr and what in done.stderr
        assert f"({missing}): pip install 'mushka[sim]'" in done.stderr
        assert "Traceback" not in done.stderr
    assert not (tmp_path / "plots").exists()  # refused before anything was made


def test_cluster_without_the_cluster_extra_names_it():
    done = run("""
        sys.argv = ["mushka", "simulate", "-n", "2", "--cluster", "auto", "--lang", "en"]
        sys.meta_path[0].blocked = ("ray",)
        from mushka.cli.main import main
        main()
    """)
    assert done.returncode == 2, done.stderr
    assert "--cluster needs the optional 'cluster' part of mushka (ray): pip install 'mushka[cluster]'" in done.stderr
