"""The front end's files without a browser: every text in both languages, every import present."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from mushka.i18n import TextKeyTwice, add_texts, read_text_file
from mushka.server.pagetexts import page_texts, texts_module
from mushka.server.protocol import CHAT_PHRASES

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
    """The texts the server sends the page (js/texts.js), read as the page reads them."""
    return {key: list(pair) for key, pair in page_texts().items()}


def test_the_page_is_sent_the_catalogue_it_imports():
    """js/texts.js is made by the server from the catalogue (no file of the page): its TEXTS are
    the page's own texts and those of the catalogue the page shows, each in both languages."""
    source = texts_module().decode("utf-8")
    start = source.index("{", source.index("export const TEXTS"))
    sent = json.loads(source[start:source.index(";\n", start)])
    assert sent == catalogue()
    assert sent["brand"] == ["Mushka", "Мушка"] and sent["hint_play"][0].startswith("Marked cards")
    assert sent["rule.plain.C14"][0].startswith("Follow suit") and "option.title.deck" in sent
    for name in ("BOT_NAMES", "BOT_LEVELS", "CARD_WORDS"):
        assert f"export const {name} = " in source
    assert not (WEB / "js" / "texts.js").exists(), "texts.js is the server's: a file of it would be a copy"


def test_no_text_key_is_defined_twice():
    """A key written twice loses its first texts without a word in a JavaScript object; the page's
    catalogue file refuses it when it is read, and the catalogue a key it holds already."""
    sample = 'a = ["A", "А"]\nb = ["B", "Б"]\na = ["C", "В"]\n'
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(sample)
    with pytest.raises(TextKeyTwice):
        add_texts({"page.brand": ("Mushka", "Мушка")})
    assert read_text_file("mushka.server", "pagetexts.toml")["hint_play"] == tuple(catalogue()["hint_play"])


def used_keys() -> set[str]:
    keys: set[str] = set()
    for path in JS:
        source = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r"""\bt\(\s*["']([a-z0-9_.]+)["']""", source))
        keys |= set(re.findall(r'"(sc_[a-z_]+)"', source))
        for a, b in re.findall(r"""t\(\w+(?:\.\w+)* === "\w+" \? "([a-z0-9_]+)" : "([a-z0-9_]+)""", source):
            keys |= {a, b}
        for a, b in re.findall(r"""t\(\w+ \? "([a-z0-9_]+)" : "([a-z0-9_]+)""", source):
            keys |= {a, b}
    html = (WEB / "index.html").read_text(encoding="utf-8")
    keys |= set(re.findall(r'data-i18n(?:-label|-title|-placeholder)?="([a-z0-9_]+)"', html))
    for prefix, names in DYNAMIC.items():
        keys |= {f"{prefix}_{n}" for n in names}
    # The levels' words and the chat's phrases are the server's, by their catalogue keys.
    keys |= {f"server.level.{level}" for level in ("random", "beginner", "casual", "club", "strong", "expert", "bot")}
    keys |= {f"chat.phrase.{phrase}" for phrase in CHAT_PHRASES}
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
            if (path.parent / ref).resolve() == (WEB / "js" / "texts.js"):
                continue  # made by the server (mushka.server.pagetexts), tested above
            assert (path.parent / ref).resolve().is_file(), f"{path.name} imports {ref}"


def test_no_third_party_code_or_network_at_run_time():
    for path in [*JS, WEB / "index.html", WEB / "style.css"]:
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"""https?://(?!www\.w3\.org)""", source), f"{path.name} loads from the network"


def test_every_option_has_a_title_in_words():
    """Issue 10, bug 14: the page names every option in words, in both languages."""
    from mushka.rules.options import OPTIONS

    texts = catalogue()
    named = {k.removeprefix("option.title."): v for k, v in texts.items() if k.startswith("option.title.")}
    missing = sorted(o.name for o in OPTIONS if o.name not in named)
    assert not missing, f"options without a title on the page: {missing}"
    for name, (en, ru) in named.items():
        assert "_" not in en and re.search(r"[А-Яа-яЁё]", ru), name
    words = {k.removeprefix("option.value.") for k in texts if k.startswith("option.value.")}
    closed = {v for o in OPTIONS for v in o.values if not v.isdigit()}
    assert not sorted(closed - words), f"option values without words: {sorted(closed - words)}"


def test_plain_rule_help_names_real_rules_in_both_languages():
    """rules/words.toml: each plain sentence is for a rule of the specification, in English and Russian."""
    entries = [(k.removeprefix("rule.plain."), en, ru) for k, (en, ru) in catalogue().items()
               if k.startswith("rule.plain.")]
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
    for key in ("offline", "went_out", "not_declared", "chat.phrase.oops"):
        assert not past.findall(texts[key][1]), (key, texts[key][1])
