"""``mushka serve`` refuses bad settings before it starts, in one clear line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mushka.cli.main import app
from mushka.server import ServerConfig

runner = CliRunner()


def test_serve_is_a_command_with_its_options() -> None:
    result = runner.invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--database-url", "--grace", "--bot-delay", "--bot-workers", "--bot-pool",
                   "--turn-timers", "--chat-rate"):
        assert option in result.output


def test_an_unknown_bot_is_refused_before_starting() -> None:
    result = runner.invoke(app, ["serve", "--bot", "grandmaster", "--lang", "en"])
    assert result.exit_code == 2
    assert "grandmaster" in result.output and "random" in result.output


def test_an_unusable_database_is_refused_before_starting() -> None:
    result = runner.invoke(app, ["serve", "--database-url", "not a url", "--lang", "ru"])
    assert result.exit_code == 2
    assert "базу данных not a url нельзя использовать" in result.output.replace("\n", " ")


def test_an_unknown_pool_of_bots_is_refused_before_starting() -> None:
    for lang, said in (("en", "use process or thread"), ("ru", "пишите process или thread")):
        result = runner.invoke(app, ["serve", "--bot-pool", "fibers", "--lang", lang])
        assert result.exit_code == 2
        assert "--bot-pool" in result.output and said in result.output.replace("\n", " ")


def test_p15_bad_turn_timers_are_refused_before_starting() -> None:
    for given in ("15,soon", "-5", "7200", ""):
        for lang, said in (("en", "give seconds per move from 0 to 3600"), ("ru", "укажите секунды на ход")):
            result = runner.invoke(app, ["serve", "--turn-timers", given, "--lang", lang])
            assert result.exit_code == 2, given
            words = " ".join(result.output.replace("│", " ").split())  # the message as one line, out of its box
            assert "--turn-timers" in words and said in words


def test_p15_p16_turn_timers_and_chat_rate_reach_the_server(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    """The flags become the server's settings, which its meta tells the page."""
    import uvicorn

    import mushka.server

    made: list[ServerConfig] = []
    real = mushka.server.create_app

    def capture(config: ServerConfig, **kwargs: Any) -> Any:
        made.append(config)
        return real(config, **kwargs)

    monkeypatch.setattr(mushka.server, "create_app", capture)
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    result = runner.invoke(app, ["serve", "--port", "8799", "--database-url", f"sqlite:///{tmp_path / 'm.db'}",
                                 "--turn-timers", "60, 0,30,30", "--chat-rate", "0.2"])
    assert result.exit_code == 0, result.output
    (config,) = made
    assert config.turn_choices == (0, 30, 60)
    assert config.chat_rate == 0.2 and config.chat_address_rate == 0.4
    assert ServerConfig().turn_choices == (0, 15, 30, 60, 120) and ServerConfig().chat_rate == 0.5
