"""The demo, replay and bench commands, run as a user runs them."""

import json

from typer.testing import CliRunner

from mushka import _build
from mushka.cli.main import app

runner = CliRunner()


def test_bench_json_has_one_line_per_configuration_with_the_documented_fields():
    result = runner.invoke(app, ["bench", "--json", "--seconds", "0.05", "--variant", "classic"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [(r["variant"], r["players"]) for r in rows] == [("classic", n) for n in (3, 4, 5, 7)]
    for row in rows:
        assert {"variant", "players", "deals_per_s", "actions_per_s", "playout_deals_per_s"} <= set(row)
        assert row["deals_per_s"] > 0 and row["actions_per_s"] > row["deals_per_s"]
        assert row["build"] == _build.BUILD  # which build of the core ran (docs/build.md)


def test_demo_saves_a_record_that_replay_accepts(tmp_path):
    path = tmp_path / "demo.json"
    result = runner.invoke(app, ["demo", "-v", "kopilka", "--seed", "4", "--summary", "--save", str(path)])
    assert result.exit_code == 0, result.output
    assert "Deal 4" in result.output
    replayed = runner.invoke(app, ["replay", str(path), "--json"])
    assert replayed.exit_code == 0, replayed.output
    report = json.loads(replayed.output)
    assert report["valid"] is True and report["variant"] == "kopilka"
    assert len(report["deals"]) == 4
    assert sum(report["result"]["money"]) == 0
    for deal in report["deals"]:
        assert {"number", "dealer", "tricks", "special", "pot", "balances"} <= set(deal)


def test_demo_in_russian_and_replay_text(tmp_path):
    path = tmp_path / "demo.json"
    result = runner.invoke(app, ["demo", "-v", "мистигри", "-p", "3", "--seed", "2", "--lang", "ru",
                                 "--save", str(path)])
    assert result.exit_code == 0, result.output
    assert "Сдача 1" in result.output
    text = runner.invoke(app, ["replay", str(path), "--lang", "ru"])
    assert text.exit_code == 0
    assert "запись верна" in text.output and "записи:" in text.output


def test_replay_names_the_deal_the_action_and_the_rule_of_a_broken_record(tmp_path):
    path = tmp_path / "demo.json"
    assert runner.invoke(app, ["demo", "--seed", "5", "--summary", "--save", str(path)]).exit_code == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    actions = record["deals"][0]["actions"]
    first_play = next(i for i, a in enumerate(actions) if len(a) == 2)
    # Replace a played card by one that cannot be in that hand: the deck's turned card.
    turned = record["deals"][0]["deck"].split()[5 * record["players"]]
    actions[first_play] = turned
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 2
    error = json.loads(result.output)
    assert error["valid"] is False and error["code"] == "record_action"
    assert error["rule"] == "C13"
    assert f"action {first_play + 1} ({turned})" in error["message"]
    plain = runner.invoke(app, ["replay", str(path)])
    assert plain.exit_code == 2 and "deal 1" in plain.output


def test_replay_of_a_file_that_is_not_json_is_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "not JSON" in result.output


def test_replay_tells_apart_seats_that_share_a_name(tmp_path):
    """Three ``random`` bots at a table saved by ``mushka play``: the replay's sentences
    name each by its seat too."""
    from mushka.bots import RandomBot
    from mushka.cli.replay_cmd import distinct_names
    from mushka.rules import make_rules
    from mushka.tui import TerminalTable

    assert distinct_names(["Аня", "club", "club", "random"]) == ["Аня", "club #1", "club #2", "random"]
    table = TerminalTable(make_rules("classic", 4), [None, RandomBot(), RandomBot(), RandomBot()], seed=3, player="Аня")
    path = table.save(tmp_path / "g.json")
    text = runner.invoke(app, ["replay", str(path), "--events", "--lang", "en"])
    assert text.exit_code == 0, text.output
    assert "Seats: 0: Аня, 1: random, 2: random, 3: random" in text.output
    assert "random #1" in text.output and "random #3" in text.output and "Аня" in text.output
