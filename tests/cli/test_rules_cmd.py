"""``mushka rules``: rule ids per variant in both languages, -o, --json and bad input."""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

from mushka.cli.main import app
from mushka.cli.rules_cmd import REPORT_FIELDS, print_report, rules_report
from mushka.rules import make_rules, options_for
from mushka.rules.texts import SECTIONS, render_rules, rule_ids

runner = CliRunner()
VARIANTS = ("classic", "mistigri", "kopilka")
RULE_LINE = re.compile(r"^  ([A-Z]+\d+)(\*?) \[([A-Z, ]+)\] (.*)$")


def grouped(variant: str) -> list[str]:
    """The rule ids as the command shows them: by section, in rule order within one."""
    order = [s.id for s in SECTIONS]
    rendered = render_rules(make_rules(variant))
    return [r.id for r in sorted(rendered, key=lambda r: order.index(r.section))]


def rules(*args: str, env: dict[str, str] | None = None):
    return runner.invoke(app, ["rules", *args], env=env)


def ok(*args: str):
    result = rules(*args)
    assert result.exit_code == 0, result.output
    return result


def rule_lines(output: str) -> dict[str, re.Match[str]]:
    found = {}
    for line in output.splitlines():
        m = RULE_LINE.match(line)
        if m:
            found[m.group(1)] = m
    return found


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_prints_exactly_the_rule_ids_of_the_variant(variant, lang):
    out = ok(variant, "--lang", lang).stdout
    lines = rule_lines(out)
    assert list(lines) == grouped(variant)
    assert set(lines) == set(rule_ids(variant))
    titles = {s.id: s.title(lang) for s in SECTIONS}
    assert titles["notation"] in out and titles["guarantees"] in out
    other = "en" if lang == "ru" else "ru"
    assert SECTIONS[0].title(other) not in out
    for o in options_for(variant):
        assert re.search(rf"^  {o.name} = ", out, re.M), o.name


def test_russian_output_speaks_russian():
    out = ok("мистигри", "--lang", "ru").stdout
    lines = rule_lines(out)
    assert "не имеет права на пас" in lines["MI8"].group(4)
    assert "ремиз в 10 очков" in lines["MI6"].group(4)
    assert "по умолчанию" in out and "Настройки" in out
    assert "Rank" not in out


def test_language_from_the_environment():
    result = rules("kopilka", env={"MUSHKA_LANG": "ru"})
    assert result.exit_code == 0
    assert "Мушка-копилка" in result.stdout and "касса" in result.stdout


def test_piped_output_keeps_every_rule_on_one_line():
    out = ok("kopilka", "--lang", "en").stdout
    lines = rule_lines(out)
    for rule in render_rules(make_rules("kopilka"), "en"):
        assert lines[rule.id].group(4) == rule.text
        assert lines[rule.id].group(3) == ", ".join(rule.tags)


def test_mistigri_points_c_rules_to_the_mi_rules_that_change_them():
    lines = rule_lines(ok("mistigri").stdout)
    assert lines["C3"].group(4).endswith("(see MI2)")
    assert "king of clubs" in lines["C11"].group(4)
    assert "MI14" in lines["C22"].group(4)
    assert "(see" not in rule_lines(ok("classic").stdout)["C3"].group(4)


def test_option_changes_the_rule_text_and_is_marked():
    plain = rule_lines(ok("classic").stdout)
    out = ok("classic", "-o", "remiz=7").stdout
    changed = rule_lines(out)
    assert "5 points" in plain["C18"].group(4) and plain["C18"].group(2) == ""
    assert "7 points" in changed["C18"].group(4) and changed["C18"].group(2) == "*"
    assert [i for i, m in changed.items() if m.group(2)] == ["C18"]
    assert "Changed by -o: remiz=7" in out and "(marked *): C18." in out
    assert re.search(r"^  remiz = 7 \* \(default 5; rules C18\)", out, re.M)


def test_option_in_russian_and_several_options():
    out = ok("kopilka", "-l", "ru", "-o", "suit_values=H4,D3,C2,S1", "-o", "renege=forbid").stdout
    lines = rule_lines(out)
    assert "бубны — 3" in lines["K20"].group(4) and lines["K20"].group(2) == "*"
    assert "бубны — 6" in lines["K21"].group(4)
    assert "renege=forbid" in lines["K12"].group(4)
    assert {i for i, m in lines.items() if m.group(2)} == {"K12", "K20", "K21"}
    assert "Изменено через -o" in out


def test_players_change_the_deck_in_the_texts():
    lines = rule_lines(ok("classic", "--players", "3").stdout)
    assert "With 3 players this table plays with 32 cards." in lines["C2"].group(4)
    lines = rule_lines(ok("mistigri", "-p", "6", "-l", "ru").stdout)
    assert "колода в 52 карты" in lines["MI1"].group(4)


@pytest.mark.parametrize("variant", VARIANTS)
def test_json_has_the_documented_fields(variant):
    data = json.loads(ok(variant, "--json").stdout)
    assert tuple(data) == REPORT_FIELDS
    assert data["variant"] == variant and data["lang"] == "en" and data["players"] == 4
    assert [r["id"] for r in data["rules"]] == list(rule_ids(variant))
    assert [i for s in data["sections"] for i in s["rules"]] == grouped(variant)
    for r in data["rules"]:
        assert set(r) == {"id", "section", "tags", "text", "options", "modified_by", "changed"}
    assert [o["name"] for o in data["options"]] == [o.name for o in options_for(variant)]
    for o in data["options"]:
        assert set(o) == {"name", "value", "default", "changed", "rules", "help", "choices"}
        assert o["value"] == o["default"] and not o["changed"]
    assert data["changed_options"] == {} and data["changed_rules"] == []


def test_json_with_options_and_russian():
    data = json.loads(ok("mistigri", "--json", "-l", "ru", "-o", "privileged_remiz=12").stdout)
    assert data["title"] == "Мушка-мистигри" and data["privileged"] == "KC"
    assert data["changed_options"] == {"privileged_remiz": "12"}
    assert data["changed_rules"] == ["C18", "MI6"]
    option = next(o for o in data["options"] if o["name"] == "privileged_remiz")
    assert option == {**option, "value": "12", "default": "10", "changed": True, "rules": ["C18", "MI6"]}
    mi6 = next(r for r in data["rules"] if r["id"] == "MI6")
    assert "ремиз в 12 очков" in mi6["text"] and mi6["changed"]


@pytest.mark.parametrize(
    ("args", "en", "ru"),
    [
        (["foo"], "unknown variant 'foo'", "неизвестный вариант 'foo'"),
        (["classic", "-o", "nope=1"], "unknown option 'nope'", "неизвестная настройка 'nope'"),
        (["classic", "-o", "remiz=x"], "option remiz='x'", "настройка remiz='x'"),
        (["classic", "-o", "remiz"], "'remiz' is not of the form name=value", "'remiz' не имеет вид имя=значение"),
        (["kopilka", "-o", "flush=none"], "option 'flush' does not apply to kopilka",
         "настройка 'flush' не относится к варианту kopilka"),
        (["classic", "-p", "9"], "C1: Classic Mushka is played by 3-7 players, not 9", "C1: "),
        (["kopilka", "-p", "3"], "K1: Mushka-kopilka is played by 4 players, not 3", "K1: "),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args, en, ru):
    for lang, expected, prefix in (("en", en, "error:"), ("ru", ru, "ошибка:")):
        result = rules(*args, "--lang", lang)
        assert result.exit_code == 2
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1
        assert lines[0].startswith(prefix) and expected in lines[0]


def test_bad_input_with_json_is_a_json_error():
    result = rules("classic", "-o", "remiz=-3", "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["error"] == "OptionsError" and data["code"] == "bad_option_value"
    assert "remiz" in data["message"]


def test_bad_language_is_refused():
    result = rules("classic", "--lang", "de")
    assert result.exit_code == 2


def test_terminal_layout_wraps_within_the_width():
    buffer = io.StringIO()
    out = Console(file=buffer, force_terminal=True, width=72, color_system=None)
    print_report(rules_report(make_rules("mistigri", 5, remiz=7), "ru"), out)
    text = buffer.getvalue()
    assert all(len(line.rstrip()) <= 72 for line in text.splitlines())
    starts = re.findall(r"^([A-Z]+\d+)\*? ", text, re.M)
    assert starts == grouped("mistigri")
    assert "C18*" in text and "remiz" in text


def test_piped_layout_never_wraps_even_on_a_narrow_console():
    buffer = io.StringIO()
    out = Console(file=buffer, width=40)  # not a terminal
    report = rules_report(make_rules("classic", 4, remiz=7, stake=3), "ru")
    print_report(report, out)
    lines = buffer.getvalue().splitlines()
    assert lines[1].startswith("Изменено через -o:") and lines[1].endswith("C18, C21.")
    texts = {m.group(1): m.group(4) for line in lines if (m := RULE_LINE.match(line))}
    assert texts == {r["id"]: r["text"] for r in report["rules"]}
    assert sum(1 for line in lines if re.match(r"^  [a-z_]+ = ", line)) == len(report["options"])
