"""``mushka backup`` and ``mushka restore`` as an operator uses them (docs/deploy.md, "Backup
and restore"): a copy made while a server plays is a whole database whose every game
replays, a restore refuses while a server uses the database, and a PostgreSQL dump goes
back into an empty database with ``pg_restore``."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

import pytest
from clusterkit import create_table, engine_of, http_client, replays, rig, serve_options, stored_tables
from pgkit import throwaway
from typer.testing import CliRunner

from mushka.cli.main import app

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("cluster")]

runner = CliRunner()
CALM = {"initial_record": 300, "flush": "none", "privileged_four": "none"}


async def bots_tables(base: str, count: int) -> list[str]:
    """``count`` tables of random bots that play on by themselves."""
    async with http_client(base) as http:
        made = [await create_table(http, variant="classic", players=3, seats=["bot:random"] * 3, start=True,
                                   options=CALM) for _ in range(count)]
    return [str(m["table"]["id"]) for m in made]  # type: ignore[index]


def test_a_sqlite_copy_made_while_a_server_plays_is_whole_and_restores_only_when_nobody_serves(
        tmp_path: Path) -> None:
    live = tmp_path / "live.db"
    url = f"sqlite:///{live}"
    copy = tmp_path / "copy.db"
    options = serve_options(bot_delay=0.0, bot_tables=20)
    with rig(tmp_path / "logs", url, count=1, proxy=False, options=options) as made:
        ids = asyncio.run(bots_tables(made.url, 6))
        # The bots play on while the copy is made: the server keeps committing meanwhile.
        result = runner.invoke(app, ["backup", str(copy), "--database-url", url, "--lang", "en"])
        assert result.exit_code == 0, result.output
        assert "copied" in result.output
        # A second copy to the same file is refused, naming the file.
        again = runner.invoke(app, ["backup", str(copy), "--database-url", url, "--lang", "en"])
        assert again.exit_code == 2 and "exists already" in again.output
        # While the server runs, a restore onto its file is refused and names it.
        refused = runner.invoke(app, ["restore", str(copy), "--database-url", url, "--lang", "en"])
        assert refused.exit_code == 2, refused.output
        assert "s1" in refused.output
        assert made.nodes[0].running()
    copied = engine_of(f"sqlite:///{copy}")
    try:
        rows = stored_tables(copied)
    finally:
        copied.dispose()
    assert set(ids) <= set(rows)
    assert replays(f"sqlite:///{copy}", ids) == {}
    # With the server stopped, the copy goes back in place of the database.
    restored = runner.invoke(app, ["restore", str(copy), "--database-url", url, "--lang", "ru"])
    assert restored.exit_code == 0, restored.output
    assert "восстановлена" in restored.output
    back = engine_of(url)
    try:
        assert {t: r["version"] for t, r in stored_tables(back).items()} == {
            t: r["version"] for t, r in rows.items()}
    finally:
        back.dispose()
    assert replays(url, ids) == {}


def test_a_restore_refuses_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 200)
    result = runner.invoke(app, ["restore", str(junk), "--database-url", f"sqlite:///{tmp_path / 'x.db'}",
                                 "--lang", "en"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and result.output.strip().count("\n") <= 2, result.output
    assert not (tmp_path / "x.db").exists() or (tmp_path / "x.db").stat().st_size == 0


def test_a_postgresql_dump_restores_into_an_empty_database(tmp_path: Path) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.fail("pg_dump and pg_restore are missing: install Debian's postgresql package "
                    "(bash scripts/ensure-services.sh, as make test does)")
    with throwaway() as pg:
        url = pg.new_database()
        with rig(tmp_path / "logs", url, count=1, proxy=False,
                 options=serve_options(bot_delay=0.0, bot_tables=20)) as made:
            ids = asyncio.run(bots_tables(made.url, 4))
            dump = tmp_path / "games.dump"
            result = runner.invoke(app, ["backup", str(dump), "--database-url", url, "--lang", "en"])
            assert result.exit_code == 0, result.output
        source = engine_of(url)
        try:
            kept = stored_tables(source)
        finally:
            source.dispose()
        target = pg.new_database()
        done = subprocess.run(["pg_restore", "--no-owner", "-d", target, str(dump)], capture_output=True,
                              text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        restored = engine_of(target)
        try:
            rows = stored_tables(restored)
        finally:
            restored.dispose()
        assert set(ids) <= set(rows)
        # The dump was taken while the bots played: each table as it was then, at most as far
        # as the server got before it stopped.
        assert all(rows[t]["version"] <= kept[t]["version"] for t in ids)
        assert replays(target, ids) == {}
