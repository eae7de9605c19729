"""The kopilka study runs end to end on a few sessions."""

from __future__ import annotations

import json

from mushka.sim.study import Config, default_configs, main, markdown, measure, plot_study


def test_measure_and_report(tmp_path):
    row, games = measure(Config("random ×4", ("random",) * 4), 40, seed=3)
    assert row["sessions"] == 40 and row["balanced"]
    rate = sum(1 for g in games for m in g.money if m >= 0) / 160
    assert row["player_recoup_share"] == round(rate, 4)
    # K24: balances sum to zero, so the unluckiest recoups only when everybody breaks even.
    assert row["unluckiest"]["recoup_rate"]["value"] == row["all_recoup"]["value"]
    assert 0 < row["pot_share_of_received"] < 1
    table = markdown([row])
    assert table.count("\n") == 2 and "random ×4" in table
    png = plot_study([row], games, tmp_path / "img" / "study.png")
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_house_rule_configuration_and_cli(tmp_path, capsys):
    labels = [c.label for c in default_configs()]
    assert labels[0] == "random ×4" and "random ×4, renege=forbid" in labels
    _row, games = measure(Config("forbid", ("random",) * 4, {"renege": "forbid"}), 10, seed=1)
    assert all(sum(g.reneges) == 0 for g in games)  # K12 with renege=forbid
    assert main(["--sessions", "6", "--only", "random ×4", "--only", "random ×4, renege=forbid", "--jobs", "1",
                 "--plot", str(tmp_path / "p.png"), "--save", str(tmp_path / "rows.json")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| table |") and out.count("| random ×4") == 2
    assert (tmp_path / "p.png").exists()
    assert [r["label"] for r in json.loads((tmp_path / "rows.json").read_text(encoding="utf-8"))] == [
        "random ×4", "random ×4, renege=forbid"]
