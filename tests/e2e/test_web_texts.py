"""The front end's files without a browser: every text in both languages, every import present."""

from __future__ import annotations

import json
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "mushka" / "web"
ROOT = Path(__file__).resolve().parents[2]
JS = sorted((WEB / "js").glob("*.js"))

DYNAMIC = {
    "conn": ["connecting", "open", "reconnecting", "resyncing", "offline", "closed"],
    "phase": ["declare", "redistribute", "play", "over"],
    "todo": ["declare", "redistribute", "play", "over"],
    "status": ["waiting", "playing", "over"],
    "tab": ["score", "last", "log", "rules"],
    "variant": ["classic", "mistigri", "kopilka"],
    "variant_blurb": ["classic", "mistigri", "kopilka"],
    "speed": ["off", "fast", "normal", "slow"],
}


def catalogue() -> dict[str, list[str]]:
    """texts.js read as JSON (its object literal has unquoted keys and trailing commas)."""
    data: dict[str, list[str]] = json.loads(catalogue_json((WEB / "js" / "texts.js").read_text(encoding="utf-8")))
    return data


def catalogue_json(text: str) -> str:
    """The TEXTS object literal of a texts.js source as JSON text."""
    start = text.index("{", text.index("export const TEXTS"))
    body = text[start: text.rindex("}") + 1]
    body = "\n".join(line for line in body.splitlines() if not line.strip().startswith("//"))
    body = re.sub(r"(?m)^(\s*)([a-z0-9_]+):", r'\1"\2":', body)
    return re.sub(r",(\s*[\]}])", r"\1", body)


def repeated_keys(text: str) -> list[str]:
    """The keys a texts.js source defines more than once (the object keeps only the last)."""
    repeated: list[str] = []

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        seen: set[str] = set()
        for key, _ in items:
            if key in seen:
                repeated.append(key)
            seen.add(key)
        return dict(items)

    json.loads(catalogue_json(text), object_pairs_hook=pairs)
    return repeated


def test_no_text_key_is_defined_twice():
    """A key written twice in texts.js loses its first texts without a word: refused here."""
    assert repeated_keys((WEB / "js" / "texts.js").read_text(encoding="utf-8")) == []
    sample = 'export const TEXTS = {\n  a: ["A", "А"],\n  b: ["B", "Б"],\n  a: ["C", "В"],\n};\n'
    assert repeated_keys(sample) == ["a"]


def used_keys() -> set[str]:
    keys: set[str] = set()
    for path in JS:
        source = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r"""\bt\(\s*["']([a-z0-9_]+)["']""", source))
        keys |= set(re.findall(r'"(sc_[a-z_]+)"', source))
        for a, b in re.findall(r"""t\(\w+(?:\.\w+)* === "\w+" \? "([a-z0-9_]+)" : "([a-z0-9_]+)""", source):
            keys |= {a, b}
        for a, b in re.findall(r"""t\(\w+ \? "([a-z0-9_]+)" : "([a-z0-9_]+)""", source):
            keys |= {a, b}
    html = (WEB / "index.html").read_text(encoding="utf-8")
    keys |= set(re.findall(r'data-i18n(?:-label|-title|-placeholder)?="([a-z0-9_]+)"', html))
    for prefix, names in DYNAMIC.items():
        keys |= {f"{prefix}_{n}" for n in names}
    return keys


def test_every_text_exists_in_english_and_russian():
    texts = catalogue()
    keys = used_keys()
    assert len(keys) > 150
    missing = sorted(keys - set(texts))
    assert not missing, f"texts without a translation entry: {missing}"
    for key, pair in texts.items():
        assert len(pair) == 2 and all(isinstance(s, str) and s.strip() for s in pair), key
        en, ru = pair
        assert set(re.findall(r"\{(\w+)\}", en)) == set(re.findall(r"\{(\w+)\}", ru)), key
        if re.search(r"[A-Za-z]{3}", en) and key not in ("mushka_short",):
            assert re.search(r"[А-Яа-яЁё]", ru), f"{key}: the Russian text is not Russian: {ru!r}"


def test_every_dynamic_key_is_used_somewhere():
    sources = "".join(p.read_text(encoding="utf-8") for p in JS)
    for prefix in DYNAMIC:
        assert f"t(`{prefix}_${{" in sources, prefix


def test_modules_import_only_files_that_exist():
    html = (WEB / "index.html").read_text(encoding="utf-8")
    refs = re.findall(r'(?:src|href)="(?!data:|#)([^"]+)"', html)
    assert "style.css" in refs and "js/app.js" in refs
    for ref in refs:
        if ref != "./":
            assert (WEB / ref).is_file(), ref
    for path in JS:
        for ref in re.findall(r"""(?:from|import\()\s*["'](\.[^"']+)["']""", path.read_text(encoding="utf-8")):
            assert (path.parent / ref).resolve().is_file(), f"{path.name} imports {ref}"


def test_no_third_party_code_or_network_at_run_time():
    for path in [*JS, WEB / "index.html", WEB / "style.css"]:
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"""https?://(?!www\.w3\.org)""", source), f"{path.name} loads from the network"


def test_every_option_has_a_title_in_words():
    """Issue 10, bug 14: the page names every option in words, in both languages."""
    from mushka.rules.options import OPTIONS

    source = (WEB / "js" / "optionwords.js").read_text(encoding="utf-8")
    titles = source[source.index("const TITLES"):source.index("const VALUES")]
    named = {m[0]: m[1:] for m in re.findall(r'^\s+(\w+): \["([^"]+)", "([^"]+)"\]', titles, re.M)}
    missing = sorted(o.name for o in OPTIONS if o.name not in named)
    assert not missing, f"options without a title on the page: {missing}"
    for name, (en, ru) in named.items():
        assert "_" not in en and re.search(r"[А-Яа-яЁё]", ru), name
    values = source[source.index("const VALUES"):]
    words = set(re.findall(r'^\s+"?(\w+)"?: \[', values, re.M))
    closed = {v for o in OPTIONS for v in o.values if not v.isdigit()}
    assert not sorted(closed - words), f"option values without words: {sorted(closed - words)}"


def test_plain_rule_help_names_real_rules_in_both_languages():
    """web/js/rulehelp.js: each sentence is for a rule of the specification, in English and Russian."""
    source = (WEB / "js" / "rulehelp.js").read_text(encoding="utf-8")
    entries = re.findall(r'^\s*([A-Z]+\d+): \["([^"]+)", "([^"]+)"\],$', source, re.M)
    assert len(entries) > 40
    spec = (ROOT / "docs" / "rules" / "RULES.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"\*\*((?:C|MI|K)\d+)\*\*", spec))
    for rule, en, ru in entries:
        assert rule in ids, rule
        assert not re.search(r"[А-Яа-яЁё]", en.replace("мушка", "").replace("ремиз", "")), rule
        assert re.search(r"[А-Яа-яЁё]", ru), rule


def test_no_russian_text_guesses_a_players_gender():
    """Issue B8: beside a player's name the page's Russian uses the present tense or a noun, never a
    past tense that must agree with the player's gender (tests/unit/test_russian_names.py)."""
    names = re.compile(r"\{(name|who|one|two|dealer|winner|seat)\}")
    past = re.compile(r"(?<![а-яё])[а-яё]+(?:ил|ал|ял|ел|ёл|ёс|ул|ыл|ла|лся|лась)(?![а-яё])", re.IGNORECASE)
    # A verb whose subject is a noun of the sentence agrees with that noun («эксперт сыграл бы»).
    noun_subject = re.compile(r"\b(?:эксперт|мастер|бот|игрок|никто|кто|сервер)(?:\s+не)?\s+[а-яё]+", re.IGNORECASE)
    found = {key: past.findall(noun_subject.sub("", ru)) for key, (_, ru) in catalogue().items() if names.search(ru)}
    found = {k: v for k, v in found.items() if v}
    assert not found, f"past tense beside a player's name: {found}"
    # The page's words for a seat's state stand beside a name too.
    texts = catalogue()
    for key in ("offline", "went_out", "not_declared", "chat_phrase_oops"):
        assert not past.findall(texts[key][1]), (key, texts[key][1])
