"""The messages of the record format (:mod:`mushka.records.format`) in English and Russian.

Every problem a record reader or its replay reports (``RecordError`` and the errors
it wraps, docs/records.md) has its words here, one key a problem.
"""

from __future__ import annotations

from mushka.i18n import add_texts

add_texts({
    "error.record_field_too_long": (
        "'{field}' is {length} characters long; at most {limit} are allowed",
        "поле '{field}' длиной {length} символов; допускается не больше {limit}",
    ),
    "record.in_deal": ("deal {deal}: {problem}", "сдача {deal}: {problem}"),
    "rec.not_json": (
        "not JSON: {detail}",
        "это не JSON: {detail}",
    ),
    "rec.not_text": (
        "a record is read from JSON text or its bytes in UTF-8, not {kind}",
        "запись партии читается из текста JSON или его байтов в UTF-8, а не из {kind}",
    ),
    "rec.not_utf8": (
        "not text in UTF-8 (byte {position})",
        "это не текст в UTF-8 (байт {position})",
    ),
    "rec.too_deep": (
        "arrays and objects are nested too deeply for a record",
        "массивы и объекты вложены слишком глубоко для записи партии",
    ),
    "rec.max_deals": (
        "'meta.max_deals' must be a whole number of deals from 1 (it is {value})",
        "поле 'meta.max_deals' должно быть целым числом сдач от 1 (сейчас {value})",
    ),
    "rec.max_deals_kopilka": (
        "'meta.max_deals' limits a partie of classic or mistigri; a kopilka session has no such limit",
        "поле 'meta.max_deals' ограничивает партию классики или мистигри; у копилки такого предела нет",
    ),
    "rec.state_in_game": (
        "deal {deal}: K24: 'state' belongs to a record of one deal; in a game record the money "
        "goes on from deal to deal",
        "сдача {deal}: K24: поле 'state' бывает только в записи одной сдачи; в записи игры деньги "
        "переходят из сдачи в сдачу",
    ),
    "rec.object": (
        "a record is a JSON object",
        "запись партии — это объект JSON",
    ),
    "rec.format": (
        "'format' must be '{format}'",
        "поле 'format' должно быть '{format}'",
    ),
    "rec.version_type": (
        "'version' must be a whole number",
        "поле 'version' должно быть целым числом",
    ),
    "rec.version": (
        "version {version} is not supported (this reader knows 1-{known})",
        "версия {version} не поддерживается (известны 1-{known})",
    ),
    "rec.options": (
        "'options' must map names to text values",
        "поле 'options' должно сопоставлять именам текстовые значения",
    ),
    "rec.level": (
        "'level' must be 'game' or 'deal'",
        "поле 'level' должно быть 'game' или 'deal'",
    ),
    "rec.first_dealer": (
        "'first_dealer' must be a seat number",
        "поле 'first_dealer' должно быть номером места",
    ),
    "rec.seats": (
        "'seats' must be a list of names",
        "поле 'seats' должно быть списком имён",
    ),
    "rec.action_too_long": (
        "N2: an action of {length} characters is no action (at most {limit})",
        "N2: ход длиной {length} символов — не ход (не больше {limit})",
    ),
    "rec.too_large": (
        "the record is longer than {limit} bytes",
        "запись партии длиннее {limit} байт",
    ),
    "rec.seats_count": (
        "'seats' names {seats} players at a table of {players}",
        "в поле 'seats' {seats} имён, а за столом {players} игроков",
    ),
    "rec.seat_name": (
        "the name of seat {seat} has {length} characters; at most {limit} are allowed",
        "имя места {seat} длиной {length} символов; допускается не больше {limit}",
    ),
    "rec.deals": (
        "'deals' must be a non-empty list",
        "поле 'deals' должно быть непустым списком",
    ),
    "rec.result": (
        "'result' must be an object",
        "поле 'result' должно быть объектом",
    ),
    "rec.meta": (
        "'meta' must be an object",
        "поле 'meta' должно быть объектом",
    ),
    "rec.field": (
        "'{field}' is missing or not a {kind}",
        "поле '{field}' отсутствует или не типа {kind}",
    ),
    "rec.deal_object": (
        "deal {deal} is not an object",
        "сдача {deal} — не объект",
    ),
    "rec.deal_dealer": (
        "deal {deal}: 'dealer' must be a seat number",
        "сдача {deal}: поле 'dealer' должно быть номером места",
    ),
    "rec.deal_actions": (
        "deal {deal}: 'actions' must be a list of text",
        "сдача {deal}: поле 'actions' должно быть списком строк",
    ),
    "rec.state_keys": (
        "deal {deal}: K24: 'state' holds only 'pot' and 'balances'",
        "сдача {deal}: K24: в 'state' бывают только 'pot' и 'balances'",
    ),
    "rec.state_values": (
        "deal {deal}: K24: 'state' needs a whole-number 'pot' and 'balances'",
        "сдача {deal}: K24: в 'state' нужны целые 'pot' и 'balances'",
    ),
    "rec.state_sum": (
        "deal {deal}: K24: the balances and the pot must sum to zero",
        "сдача {deal}: K24: сумма денег игроков и кассы должна быть равна нулю",
    ),
    "rec.cards": (
        "cards must be text such as 'AS KH 7D'",
        "карты записываются текстом, например 'AS KH 7D'",
    ),
    "rec.one_deal": (
        "a deal record holds exactly one deal",
        "запись сдачи содержит ровно одну сдачу",
    ),
    "rec.state_seats": (
        "deal 1: K24: 'state' is the money of a kopilka deal, one balance per seat",
        "сдача 1: K24: 'state' — деньги сдачи копилки, по одному счёту на место",
    ),
    "rec.after_end": (
        "deal {deal} is listed but the game had already ended",
        "сдача {deal} записана, но игра уже окончилась",
    ),
    "rec.dealer": (
        "deal {deal}: C4: dealer {listed} listed, but seat {actual} deals",
        "сдача {deal}: C4: записан сдающий {listed}, но сдаёт игрок {actual}",
    ),
    "rec.unfinished": (
        "deal {deal} ends before the deal is over",
        "записи сдачи {deal} кончаются раньше, чем сама сдача",
    ),
    "rec.picks": (
        "N4: the record lists the picks '{listed}' but the deal drew '{drawn}'",
        "N4: в записи исходы выбора '{listed}', а в сдаче вытянуто '{drawn}'",
    ),
    "rec.deal_results": (
        "per-deal results differ",
        "итоги сдач не совпадают",
    ),
    "rec.game_result": (
        "the game result differs",
        "итог игры не совпадает",
    ),
})
