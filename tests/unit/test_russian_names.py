"""Russian sentences about a player never guess the player's gender (issue B8).

A Russian past-tense verb agrees with its subject: «Варя объявила», «Митя объявил».
Names are free text, so a sentence with a player's name in it uses the present tense
(«берёт», «выигрывает»), which has no gender, or a noun («группа объявлена: Варя»,
«победа: Варя»).  This test reads every Russian text of the shared catalogue that
takes a player's name and refuses a past-tense form in it, except where the verb's
subject is a noun of the sentence itself («игрок {seat} попытался», «никто не дал»).
The page's own texts are checked the same way in tests/e2e/test_web_texts.py.
"""

from __future__ import annotations

import re

import mushka.cli.main
import mushka.server.app
import mushka.tui.app
from mushka import i18n

assert mushka.cli.main and mushka.server.app and mushka.tui.app  # their texts join the catalogue on import

NAME = re.compile(r"\{(seat|name|owner|taker|winner|dealer|who|out|leader|next_leader|one|two|host|player|to_act)\}")
"""The placeholders that stand for a player (a name, or "игрок 2")."""

PAST = re.compile(r"(?<![а-яё])[а-яё]+(?:ил|ал|ял|ел|ёл|ёс|ул|ыл|ла|лся|лась)(?![а-яё])", re.IGNORECASE)
"""Words ending like a Russian singular past tense (the plural has no gender), and a few nouns that do too."""

ALLOWED = {
    "правила", "стола", "узел", "узла",  # nouns
    "попытался",  # «игрок {seat} попытался»: the subject is «игрок»
    "дал",  # «никто не дал»
    "заблокировал",  # «один из вас заблокировал»
}


NOUN_SUBJECT = re.compile(r"\b(?:эксперт|мастер|бот|никто|сервер)(?:\s+не)?\s+[а-яё]+", re.IGNORECASE)
"""A verb right after a noun subject of the sentence agrees with the noun («эксперт сыграл бы»)."""


def gendered(text: str) -> list[str]:
    """The past-tense forms in a Russian text that names a player (none if it names nobody)."""
    if not NAME.search(text):
        return []
    return [w for w in PAST.findall(NOUN_SUBJECT.sub("", text)) if w.lower() not in ALLOWED]


def test_no_russian_sentence_guesses_a_players_gender():
    every = i18n.keys()
    assert len(every) > 300
    found = {key: gendered(i18n.tr(key, "ru")) for key in every}
    found = {k: v for k, v in found.items() if v}
    assert not found, f"past tense beside a player's name: {found}"


def test_the_check_catches_a_gendered_verb():
    assert gendered("{taker} берёт карту; группу объявил {owner}.") == ["объявил"]
    assert gendered("{name} первым снёс карты.") == ["снёс"]
    assert gendered("Выиграла {winner}.") == ["Выиграла"]
    assert gendered("Все спасовали.") == []  # nobody named
    assert gendered("Здесь {name}: {move}; эксперт сыграл бы {best}.") == []  # the expert is the subject


def test_the_declared_group_reads_the_same_for_any_name():
    from mushka.engine.events import CardTaken

    for names in (["Митя", "Варя"], ["Варя", "Митя"], ["Sasha", "игрок 1"]):
        text = CardTaken(taker=0, owner=1, card=None).describe("ru", names)
        assert text == f"{names[0]} берёт карту; группа объявлена: {names[1]}.", text
