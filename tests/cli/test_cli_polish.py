"""The command line as a user meets it (issue 10, bug 13): a version, help without type
noise, a short demo, cards in display form, plural-proof wording, a tournament that
says what to give."""

import re

from typer.testing import CliRunner

from mushka import __version__
from mushka.cli.main import app

runner = CliRunner()
RAW_CARD = re.compile(r"(?<![\w♠♣♦♥])[2-9TJQKA][SCDH]\b")


def test_version_and_help_without_type_noise():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"mushka {__version__}"
    for args in (["--help"], ["demo", "--help"], ["replay", "--help"], ["serve", "--help"]):
        shown = runner.invoke(app, args, terminal_width=100).output
        assert "<bool>" not in shown, args


def test_demo_is_short_and_shows_cards_in_display_form(tmp_path):
    path = tmp_path / "demo.json"
    result = runner.invoke(app, ["demo", "--seed", "1", "--save", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) < 80, len(lines)
    assert "more deals not shown" in result.output
    assert not RAW_CARD.search(result.output), RAW_CARD.findall(result.output)[:5]
    assert "(s)" not in result.output
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0
    assert not RAW_CARD.search(replayed.output), RAW_CARD.findall(replayed.output)[:5]
    assert "(s)" not in replayed.output
    every = runner.invoke(app, ["demo", "--seed", "1", "--deals", "0"])
    assert every.exit_code == 0 and "more deals not shown" not in every.output
    assert len(every.output.splitlines()) > len(lines)


def test_tournament_without_bots_says_what_to_give():
    for lang, word in (("en", "--bots"), ("ru", "--bots")):
        result = runner.invoke(app, ["tournament", "--games", "2", "--lang", lang])
        assert result.exit_code == 2
        assert word in result.output and not re.search(r":\s*$", result.output.strip()), result.output
