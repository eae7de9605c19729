"""§4/N4: every fault of a record gets the error code and the rule that docs/records.md
lists for it, the rule id in the error's ``rule`` wherever the message names one, and the
reader's limits on size (N4 records are the truth, not a way to exhaust the reader)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rulekit import rules
from typer.testing import CliRunner

from mushka import new_deal, new_game
from mushka.cli.main import app
from mushka.errors import RecordError
from mushka.records import MAX_RECORD_BYTES, MAX_SEAT_NAME, Record, record_of_deal, record_of_game, replay

DOC = Path(__file__).resolve().parents[2] / "docs" / "records.md"
RULE_ID = re.compile(r"\b(?:C|MI|K|N)\d+\b")


def deal_record(variant: str = "classic", players: int = 3) -> dict:
    deal = new_deal(rules(variant, players), 0, rng=1)
    while not deal.is_over:
        # Everybody stands: the deal ends with its five tricks (C13), not by passing (C9).
        deal.apply("stand" if deal.is_legal("stand") else deal.legal_actions()[0])
    return record_of_deal(deal, seats=["Аня", "Борис", "Вера", "Глеб"][:players]).to_json()


def game_record(variant: str = "classic", players: int = 3) -> dict:
    game = new_game(rules(variant, players), first_dealer=0, rng=3)
    while len(game.finished) < 2:
        game.apply(game.legal_actions()[0])
    return record_of_game(game).to_json()


def error_of(data: dict) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(Record.loads(json.dumps(data)))
    return info.value


def doc_rows() -> dict[str, tuple[str, str]]:
    """The table "Which fault gives which code and rule": fault -> (code, rule column)."""
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("Which fault gives which code and rule"):]
    rows = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        fault, code, rule = (cell.strip() for cell in line.strip("|").split("|"))
        if fault not in ("fault", "---"):
            rows[fault] = (code.strip("`"), rule)
    return rows


def _set(path: tuple[object, ...], value: object) -> Callable[[dict], None]:
    def edit(data: dict) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]  # type: ignore[index]
        target[path[-1]] = value  # type: ignore[index]
    return edit


def _deck(edit: Callable[[list[str]], None]) -> Callable[[dict], None]:
    def change(data: dict) -> None:
        cards = data["deals"][0]["deck"].split()
        edit(cards)
        data["deals"][0]["deck"] = " ".join(cards)
    return change


def _append(action: str, deal: int = 0) -> Callable[[dict], None]:
    return lambda data: data["deals"][deal]["actions"].append(action)


def _next_dealer_wrong(data: dict) -> None:
    data["deals"][1]["dealer"] = (data["deals"][1]["dealer"] + 1) % data["players"]


def _two_deals(data: dict) -> None:
    data["deals"].append(copy.deepcopy(data["deals"][0]))


# (how the row of the docs' table begins, record builder, edit, code, rule)
CASES = [
    ("a missing or mistyped field", deal_record, _set(("players",), "3"), "record_syntax", None),
    ("an unknown variant or option name", deal_record, _set(("options", "bogus"), "1"), "record_syntax", None),
    ("a number of players or an option value the rules refuse", game_record, _set(("players",), 2),
     "record_syntax", "C1"),
    ("a number of players or an option value the rules refuse", deal_record, _set(("options", "remiz"), "-3"),
     "record_syntax", "C18"),
    ("a card code in `deck` or `picks` that cannot be read", deal_record,
     _deck(lambda cards: cards.__setitem__(0, "ZZ")), "record_syntax", "N2"),
    ("a bad `state`, or a `state` in a game record", lambda: deal_record("kopilka", 4),
     _set(("deals", 0, "state"), {"pot": 1, "balances": [0, 0, 0, 0]}), "record_syntax", "K24"),
    ("a bad `state`, or a `state` in a game record", lambda: game_record("kopilka", 4),
     _set(("deals", 0, "state"), {"pot": 4, "balances": [-1, -1, -1, -1]}), "record_syntax", "K24"),
    ("the wrong dealer for a deal of a game", game_record, _next_dealer_wrong, "record_syntax", "C4"),
    ("`first_dealer` is not a seat of the table", game_record, _set(("first_dealer",), 7), "record_deal", "C4"),
    ("`first_dealer` is not a seat of the table", deal_record, _set(("first_dealer",), 9), "record_deal", "C4"),
    ("`first_dealer` is not a seat of the table", lambda: game_record("kopilka", 4), _set(("first_dealer",), 4),
     "record_deal", "K4"),
    ("a deck that is not this table's deck (a card missing, doubled or foreign), a dealer that is not a seat",
     deal_record, _deck(lambda cards: cards.__setitem__(0, cards[1])), "record_deal", "N4"),
    ("a deck that is not this table's deck (a card missing, doubled or foreign), a dealer that is not a seat",
     deal_record, _set(("deals", 0, "dealer"), 9), "record_deal", "N4"),
    ("picks other than the ones the deal drew", deal_record, _set(("deals", 0, "picks"), "AS"), "record_deal", "N4"),
    ("an action that cannot be read", deal_record, _append("frob"), "record_action", "N2"),
    ("an action the rules do not allow at that point", deal_record, _set(("deals", 0, "actions", 0), "AS"),
     "record_action", "C7"),
    ("an action after the deal is over", deal_record, _append("pass"), "record_action", "C13"),
    ("an action after the deal is over", game_record, _append("pass"), "record_action", "C9"),
    ("an action after the deal is over", lambda: deal_record("kopilka", 4), _append("pass"), "record_action",
     "K18"),
    ("a deal record with more than one deal", deal_record, _two_deals, "record_syntax", None),
    ("a stored `result` that differs from the replay", deal_record,
     _set(("result",), {"deals": [{"tricks": [5, 0, 0]}]}), "record_mismatch", None),
]


@pytest.mark.parametrize(("row", "build", "edit", "code", "rule"), CASES,
                         ids=[f"{c[3]}-{c[4]}-{i}" for i, c in enumerate(CASES)])
def test_s4_each_fault_has_the_code_and_rule_the_record_docs_list(row, build, edit, code, rule):
    data = build()
    replay(Record.from_json(copy.deepcopy(data)))  # the record replays before the edit
    edit(data)
    err = error_of(data)
    assert (err.code, err.rule) == (code, rule), err
    documented = [cells for fault, cells in doc_rows().items() if fault.startswith(row)]
    assert len(documented) == 1, row
    documented = documented[0]
    assert documented[0] == code
    if rule is None:
        assert documented[1] == "—"
    else:
        # The docs name the rule itself, or say which kind of rule ("the option's rule").
        assert rule in documented[1] or "rule" in documented[1]
    # A message that names a rule carries it as the error's rule, in both languages.
    for lang in ("en", "ru"):
        named = set(RULE_ID.findall(err.message(lang)))
        assert named <= {err.rule}, (named, err)
        if err.rule:
            assert err.rule in named


def test_s4_an_action_after_a_deal_ended_by_everybody_passing_names_c9():
    deal = new_deal(rules("classic", 3), 0, rng=1)
    while not deal.is_over:
        deal.apply("pass" if deal.is_legal("pass") else deal.legal_actions()[0])
    assert deal.result is not None and deal.result.all_passed
    data = record_of_deal(deal).to_json()
    data["deals"][0]["actions"].append("stand")
    err = error_of(data)
    assert err.code == "record_action" and err.rule == "C9" and "action 4 (stand)" in str(err)


def test_s4_a_record_longer_than_the_limit_is_refused_before_it_is_parsed():
    data = deal_record()
    data["meta"] = {"pad": "x" * MAX_RECORD_BYTES}
    with pytest.raises(RecordError) as info:
        Record.loads(json.dumps(data))
    assert info.value.code == "record_syntax" and str(MAX_RECORD_BYTES) in str(info.value)
    assert str(MAX_RECORD_BYTES) in info.value.message("ru")
    # Just under the limit, the same record reads.
    data["meta"] = {"pad": "x" * 1000}
    assert Record.loads(json.dumps(data)).meta["pad"] == "x" * 1000


def test_s4_a_seat_name_longer_than_the_limit_is_refused_naming_the_seat():
    data = deal_record()
    data["seats"][1] = "б" * (MAX_SEAT_NAME + 1)
    with pytest.raises(RecordError) as info:
        Record.from_json(data)
    assert "seat 1" in str(info.value) and str(MAX_SEAT_NAME) in str(info.value)
    assert "места 1" in info.value.message("ru")
    data["seats"][1] = "б" * MAX_SEAT_NAME
    assert Record.from_json(data).seats[1] == "б" * MAX_SEAT_NAME


def test_s4_more_seat_names_than_players_are_refused():
    data = deal_record()
    data["seats"].append("Глеб")
    with pytest.raises(RecordError) as info:
        Record.from_json(data)
    assert "4" in str(info.value) and "3" in str(info.value) and "seats" in str(info.value)


def test_s4_replay_of_an_endless_input_stops_at_the_limit(tmp_path: Path):
    # A file one byte over the limit stands for /dev/zero: the command reads no further.
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (MAX_RECORD_BYTES + 1) + b"{}")
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 2, result.output
    out = json.loads(result.stdout)
    assert out["valid"] is False and out["code"] == "record_syntax"
    assert str(MAX_RECORD_BYTES) in out["message"]


def test_s4_replay_of_dev_zero_is_refused_as_too_long():
    # An endless input: the command must stop reading at the limit (POSIX systems have it).
    result = CliRunner().invoke(app, ["replay", "/dev/zero", "--json"])
    assert result.exit_code == 2
    assert json.loads(result.stdout)["code"] == "record_syntax"


def test_s4_review_of_dev_zero_is_refused_as_too_long():
    # review reads its record as replay does: never past the limit, so an endless input ends.
    result = CliRunner().invoke(app, ["review", "/dev/zero", "--json"])
    assert result.exit_code == 2
    out = json.loads(result.stdout)
    assert out["code"] == "record_syntax" and str(MAX_RECORD_BYTES) in out["message"]


LONG = "x" * 1_000_000


@pytest.mark.parametrize(("edit", "code", "rule", "named"), [
    (_set(("variant",), LONG), "record_syntax", None, "'variant'"),
    (_set(("options", "rank_order"), LONG), "record_syntax", None, "'options.rank_order'"),
    (_set(("options", LONG), "1"), "record_syntax", None, "'options.xxxx"),
    (_set(("deals", 0, "deck"), LONG), "record_syntax", None, "deal 1: 'deck'"),
    (_set(("deals", 0, "picks"), LONG), "record_syntax", None, "deal 1: 'picks'"),
    (_append(LONG), "record_action", "N2", "N2: an action of 1000000 characters"),
])
def test_s4_a_field_of_a_megabyte_is_refused_in_a_sentence(edit, code, rule, named):
    # A record may not make its reader print what it holds: the error names the field, its
    # length and the limit, and quotes at most a few dozen characters of it.
    data = deal_record()
    edit(data)
    with pytest.raises(RecordError) as info:
        replay(Record.loads(json.dumps(data)))
    err = info.value
    assert (err.code, err.rule) == (code, rule)
    for lang in ("en", "ru"):
        assert len(err.message(lang)) < 300 and "1000000" in err.message(lang)
    assert named in str(err)
    documented = {cells for fault, cells in doc_rows().items() if "256 characters" in fault}
    assert (code, f"`{rule}`" if rule else "—") in documented
