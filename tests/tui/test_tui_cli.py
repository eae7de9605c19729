"""``mushka play``: options reach the table; bad input is named and nothing starts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mushka.bots import RandomBot
from mushka.cli.main import app
from mushka.cli.play_cmd import default_save_path
from mushka.tui import PlayApp

runner = CliRunner()


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[PlayApp]:
    """Instead of taking over the terminal, record the application that would run
    and play its game to the end with the bots' moves for every seat."""
    apps: list[PlayApp] = []

    def run(self: PlayApp) -> Path | None:
        apps.append(self)
        table = self.table
        human_bot = RandomBot()
        view_rng = random.Random(0)
        while not table.is_over:
            seat = table.to_act
            action = human_bot.choose(table.game.view(seat), view_rng) if seat == table.human \
                else table.choose(seat)
            table.act(action, seat)
        assert self.save_path is not None
        return table.save(self.save_path)

    monkeypatch.setattr(PlayApp, "run", run)
    return apps


def test_options_reach_the_game(started: list[PlayApp], tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "--variant", "мистигри", "--players", "5", "--seat", "3",
                                 "--bots", "random", "-o", "remiz=7", "--seed", "42", "--delay", "0",
                                 "--save", str(save), "--lang", "en"])
    assert result.exit_code == 0, result.output
    (played,) = started
    table = played.table
    assert table.rules.variant == "mistigri" and table.rules.players == 5 and table.rules.remiz == 7
    assert table.human == 3 and table.seed == 42 and played.delay == 0 and played.lang == "en"
    assert table.names == ["random", "random", "random", "human", "random"]
    assert str(save) in result.output.replace("\n", "")
    assert "wins" in result.output or "Nobody" in result.output
    replay = runner.invoke(app, ["replay", str(save)])
    assert replay.exit_code == 0, replay.output


def test_russian_output_and_default_file_name(started: list[PlayApp], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["play", "-v", "kopilka", "--bots", "random", "--seed", "1"],
                           env={"LANG": "ru_RU.UTF-8", "MUSHKA_LANG": ""})
    assert result.exit_code == 0, result.output
    (played,) = started
    assert played.lang == "ru"
    assert played.save_path is not None and played.save_path.parent == tmp_path
    assert played.save_path.name.startswith("mushka-kopilka-") and played.save_path.exists()
    assert "Запись партии сохранена" in result.output


def test_default_save_path_has_a_timestamp() -> None:
    import datetime

    path = default_save_path("classic", datetime.datetime(2024, 1, 31, 18, 45, 2))
    assert path.name == "mushka-classic-20240131-184502.json"


@pytest.mark.parametrize(("args", "words"), [
    (["--bots", "no-such-bot"], ["--bots", "no-such-bot"]),
    (["--bots", "random,random"], ["--bots", "2"]),
    (["--seat", "4"], ["--seat 4"]),
    (["-o", "remiz=lots"], ["remiz", "lots"]),
    (["-v", "kopilka", "-p", "5"], ["K1", "5"]),
    (["--delay", "-1"], ["--delay"]),
    (["--name", "  "], ["--name", "empty"]),
    (["--name", "x" * 33], ["--name", "32"]),
    (["--name", "Ann\x07"], ["--name", "control"]),
    (["--name", "expert"], ["--name", "expert", "bot"]),
    (["--name", "глаша"], ["--name", "глаша", "bot"]),
])
def test_bad_input_is_named_and_nothing_starts(started: list[PlayApp], args: list[str], words: list[str]) -> None:
    result = runner.invoke(app, ["play", "--lang", "en", *args])
    assert result.exit_code == 2
    for word in words:
        assert word in result.output
    assert started == []


def test_bad_input_in_russian(started: list[PlayApp]) -> None:
    result = runner.invoke(app, ["play", "--lang", "ru", "--bots", "no-such-bot"])
    assert result.exit_code == 2
    assert "неизвестный бот" in result.output
    assert started == []


def test_the_name_given_is_the_human_s_in_the_log_and_the_record(started: list[PlayApp], tmp_path: Path) -> None:
    from mushka.records import Record
    from mushka.tui import render

    save = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "--bots", "random", "--seat", "1", "--seed", "3", "--delay", "0",
                                 "--name", "  Анна   Павловна ", "--save", str(save), "--lang", "ru"])
    assert result.exit_code == 0, result.output
    (played,) = started
    table = played.table
    assert table.names[1] == "Анна Павловна" and table.names.count("random") == 3
    said = render.log_names(table.names, table.human, "ru")
    assert said[1] == "Анна Павловна" and None not in said
    sentences = [x.event.describe("ru", said) for x in table.log if getattr(x.event, "seat", None) == 1]
    assert sentences and any("Анна Павловна" in text for text in sentences)
    assert Record.loads(save.read_text(encoding="utf-8")).seats[1] == "Анна Павловна"
