"""``mushka serve`` refuses bad settings before it starts, in one clear line."""

from __future__ import annotations

from typer.testing import CliRunner

from mushka.cli.main import app

runner = CliRunner()


def test_serve_is_a_command_with_its_options() -> None:
    result = runner.invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--database-url", "--grace", "--bot-delay", "--bot-workers", "--bot-pool"):
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
