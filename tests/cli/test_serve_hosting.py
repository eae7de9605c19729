"""Hosting a game for friends (issue 10): a taken port said plainly, the database in the
user's data directory, invitation links on the address the host gives."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mushka.cli.main import app
from mushka.cli.serve_cmd import default_database_url

runner = CliRunner()


def test_a_taken_port_is_said_with_what_to_do(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        for lang, words in (("en", "another port"), ("ru", "другой порт")):
            result = runner.invoke(app, ["serve", "--port", str(port), "--lang", lang,
                                         "--database-url", f"sqlite:///{tmp_path / 'm.db'}"])
            assert result.exit_code == 2, result.output
            said = " ".join(result.output.split())
            assert words in said and f"--port {port + 1}" in said and f"PORT={port + 1}" in said


def test_the_database_lives_in_the_users_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    url = default_database_url()
    assert url == f"sqlite:///{tmp_path / 'data' / 'mushka' / 'mushka.db'}"
    assert (tmp_path / "data" / "mushka").is_dir()


def test_a_bad_public_url_is_refused() -> None:
    result = runner.invoke(app, ["serve", "--public-url", "192.168.1.20:8000", "--lang", "en"])
    assert result.exit_code == 2 and "http://" in result.output


@pytest.mark.filterwarnings("ignore:Using `httpx`")
def test_meta_gives_the_public_url(tmp_path: Path) -> None:
    # Starlette's test client warns that it will move from httpx to httpx2; nothing to act on here.
    from starlette.testclient import TestClient

    from mushka.server import ServerConfig, create_app

    config = ServerConfig(database_url=f"sqlite:///{tmp_path / 'm.db'}", public_url="http://192.168.1.20:8000/",
                          tune_gc=False)
    with TestClient(create_app(config)) as client:
        meta = client.get("/api/meta").json()
    assert meta["public_url"] == "http://192.168.1.20:8000/"
