"""The page's score explanations (web/js/explain.js) run in Chromium on deal results made for the purpose:
a five of a suit under its variant's own rule with its amounts (B2), kopilka's game payment apart from
penalty passes, and no amount said twice (B10)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

EXPLAIN = """async ([lang, results]) => {
  const i18n = await import('./js/i18n.js');
  i18n.setLang(lang);
  const ex = await import('./js/explain.js');
  const out = {};
  for (const [name, [variant, result, opts]] of Object.entries(results)) {
    out[name] = result.tricks.map((_, s) => {
      const e = ex.explainSeat(result, s, variant, opts || {});
      return { change: e.change, parts: e.parts.map((p) => ({ amount: p.amount, rule: p.rule, side: !!p.side,
        text: ex.partText(p) })) };
    });
  }
  const game = { result: { money: [15, -5, -5, -5], side: [15, -5, -5, -5], settlement: [0, 0, 0, 0] }, history: [] };
  out.items = ex.moneyItems(game, 'classic', 0).map((it) => it.rule);
  out.itemsMistigri = ex.moneyItems(game, 'mistigri', 0).map((it) => it.rule);
  return out;
}"""

FLUSH = {
    "tricks": [1, 2, 2, 0], "standing": [True, True, True, False], "record_delta": [-1, -2, -2, 0],
    "remiz": [0, 0, 0, 0], "bonus": [0, 0, 0, 0], "side": [15, -5, -5, -5], "flush_seat": 0,
    "mushka": None, "all_passed": False, "lone": None, "privileged_holder": None,
}
# Seat 1: no trick (remiz 5), the game payment (10) and two penalty passes (10); seat 3 went out first.
KOPILKA = {
    "tricks": [2, 0, 1, 3], "money": [-6, -25, -6, 8], "remiz": [0, 5, 0, 0], "out": 3, "deadlock": False,
    "trick_log": [{"winner": 0, "value": 2}, {"winner": 0, "value": 2}, {"winner": 2, "value": 4},
                  {"winner": 3, "value": 3}, {"winner": 3, "value": 1}, {"winner": 3, "value": 4}],
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_b2_b10_explanations(open_page, live_server, page_errors, lang):
    page = open_page(live_server.url + f"?lang={lang}")
    page.wait_for_selector("[data-testid=lobby], main")
    out = page.evaluate(EXPLAIN, [lang, {
        "classic": ["classic", FLUSH, None], "mistigri": ["mistigri", FLUSH, None],
        "kopilka": ["kopilka", KOPILKA, {"gamePayment": 10}],
    }])
    for variant, rule, other in (("classic", "C22", "MI9"), ("mistigri", "MI9", "C22")):
        seats = out[variant]
        side = [next(p for p in seat["parts"] if p["side"]) for seat in seats]
        assert [p["amount"] for p in side] == [15, -5, -5, -5]
        assert all(p["rule"] == rule for p in side)
        assert not any(p["rule"] == other for seat in seats for p in seat["parts"])
        assert ("5 from each" if lang == "en" else "по 5 с каждого") in side[0]["text"]
        assert seats[3]["change"] == 0  # the side account is not the record
        # B10: the amount is said once: "−2 written off for 2 tricks (C17)", not "−2 2 tricks…"
        tricks = seats[1]["parts"][0]["text"]
        assert tricks.startswith("−2 ") and "−2 2" not in tricks and "(C17)" in tricks
    assert out["items"] == ["C22", "C21"] and out["itemsMistigri"] == ["MI9", "C21"]
    k = out["kopilka"]
    assert [p["amount"] for p in k[1]["parts"]] == [-5, -10, -10]
    assert [p["rule"] for p in k[1]["parts"]] == ["K22", "K22", "K12"]
    assert sum(p["amount"] for p in k[1]["parts"]) == -25
    assert [p["amount"] for p in k[3]["parts"] if p["amount"]] == [8]  # went out: no game payment
    for seat, result_money in enumerate(KOPILKA["money"]):
        assert sum(p["amount"] for p in k[seat]["parts"]) == result_money
    assert not page_errors
