"""``mushka migrate``, ``mushka backup`` and ``mushka restore``: the server's database, looked after.

``migrate`` brings a database's schema up to date once (the servers also do it at their
start, under a lock; a deployment may prefer one step before them).  ``backup`` copies
a SQLite database while servers play on it (SQLite's online backup: a consistent
copy, nobody waits), or runs PostgreSQL's own ``pg_dump``.  ``restore`` puts a SQLite
backup back, refusing while a server uses the database (docs/deploy.md).
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from mushka.cli.common import LangOpt, console, pick_lang, refuse
from mushka.i18n import add_text_file, tr

DatabaseOpt = Annotated[str | None, typer.Option(
    "--database-url", help="The server's database (default: mushka.db in the user's data directory).")]


def _url(given: str | None) -> str:
    from mushka.cli.serve_cmd import default_database_url

    return given or default_database_url()


def _fail(lang: str, key: str, **params: object) -> NoReturn:
    refuse(tr("cli.error", lang), tr(key, lang, **params))


def _sqlite_file(url: str) -> Path | None:
    """The file of a ``sqlite:///FILE`` URL (None for any other database, or memory)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database)


def register(app: typer.Typer) -> None:
    """Add ``migrate``, ``backup`` and ``restore`` to the app."""

    @app.command()
    def migrate(database_url: DatabaseOpt = None, lang: LangOpt = None) -> None:
        """Bring the database's schema up to date (once, under a lock), then exit."""
        from mushka.errors import MushkaError
        from mushka.server.sqlstore import SqlStore, shown_url

        lang_ = pick_lang(lang)
        url = _url(database_url)
        try:
            SqlStore(url).close()
        except MushkaError as exc:
            _fail(lang_, "serve.bad_database", url=shown_url(url), problem=exc.message(lang_))
        console.print(tr("db.migrated", lang_, url=shown_url(url)))

    @app.command()
    def backup(
        target: Annotated[Path, typer.Argument(help="The file to write the copy to (must not exist).")],
        database_url: DatabaseOpt = None,
        lang: LangOpt = None,
    ) -> None:
        """Copy the database while servers go on playing (SQLite online backup, or pg_dump)."""
        from mushka.server.sqlstore import shown_url

        lang_ = pick_lang(lang)
        url = _url(database_url)
        if target.exists():
            _fail(lang_, "db.target_exists", path=target)
        source = _sqlite_file(url)
        if source is None:
            dump = shutil.which("pg_dump")
            if not url.startswith(("postgresql", "postgres")) or dump is None:
                _fail(lang_, "db.no_backup_tool", url=shown_url(url))
            plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
            done = subprocess.run([dump, "--format=custom", f"--file={target}", plain],
                                  capture_output=True, text=True, check=False)
            if done.returncode != 0:
                _fail(lang_, "db.backup_failed", problem=done.stderr.strip()[:300])
        else:
            if not source.is_file():
                _fail(lang_, "db.no_file", path=source)
            try:
                with sqlite3.connect(source, timeout=5) as live, sqlite3.connect(target) as copy:
                    # Page by page, letting the servers write between the steps.
                    live.backup(copy, pages=1024, sleep=0.005)
            except sqlite3.Error as exc:
                target.unlink(missing_ok=True)
                _fail(lang_, "db.backup_failed", problem=exc)
        console.print(tr("db.backed_up", lang_, url=shown_url(url), path=target))

    @app.command()
    def restore(
        source: Annotated[Path, typer.Argument(help="A copy made by `mushka backup` (SQLite).")],
        database_url: DatabaseOpt = None,
        lang: LangOpt = None,
    ) -> None:
        """Put a SQLite backup back in place of the database (no server may be using it)."""
        from mushka.errors import MushkaError
        from mushka.server.sqlstore import SqlStore, shown_url

        lang_ = pick_lang(lang)
        url = _url(database_url)
        target = _sqlite_file(url)
        if target is None:
            _fail(lang_, "db.restore_sqlite_only", url=shown_url(url))
        if not source.is_file():
            _fail(lang_, "db.no_file", path=source)
        try:
            SqlStore(f"sqlite:///{source}", migrate=False).close()  # a database, and whole
            if target.exists():
                store = SqlStore(url)
                try:
                    store.check_node("", ttl=5.0, join=False)
                finally:
                    store.close()
        except MushkaError as exc:
            _fail(lang_, "serve.bad_database", url=shown_url(url), problem=exc.message(lang_))
        with sqlite3.connect(source) as copy, sqlite3.connect(target) as live:
            copy.backup(live)
        console.print(tr("db.restored", lang_, url=shown_url(url), path=source))


add_text_file("mushka.cli", "db_cmd.toml")
