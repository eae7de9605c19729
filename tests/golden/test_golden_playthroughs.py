"""Golden playthroughs: seeded deals and games, step by step, as every seat saw them.

The data in ``data/`` is written by ``scripts/regen_golden.py``; a difference here
means the engine now behaves differently.  If that is intended, run the script and
review the diff of the data files.
"""

from __future__ import annotations

import pytest
from goldkit import DATA, load, regen

from mushka import make_rules, new_deal
from mushka.engine import Action

REGEN = regen()
DEAL_FILES = [f"playthrough-{d[0]}.json" for d in REGEN.DEALS]
GAME_FILES = [f"playthrough-{g[0]}.json" for g in REGEN.GAMES]


def test_every_golden_file_is_listed():
    on_disk = {p.name for p in DATA.glob("*.json")}
    assert on_disk == {*DEAL_FILES, *GAME_FILES, "perft.json"}


@pytest.mark.parametrize("entry", REGEN.DEALS, ids=lambda e: e[0])
def test_deal_playthrough_matches_the_golden_data(entry):
    stem, *args = entry
    now = REGEN.dump(REGEN.deal_file(stem, *args))
    assert now == (DATA / f"playthrough-{stem}.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("entry", REGEN.GAMES, ids=lambda e: e[0])
def test_game_playthrough_matches_the_golden_data(entry):
    stem, *args = entry
    now = REGEN.dump(REGEN.game_file(stem, *args))
    assert now == (DATA / f"playthrough-{stem}.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", DEAL_FILES)
def test_golden_deals_replay_from_their_deck(name):
    """The checked-in transcript alone rebuilds the deal: deck, picks, actions."""
    data = load(name)
    rules = make_rules(data["variant"], data["players"], **data["options"])
    deal = new_deal(rules, data["dealer"], deck=data["deck"], picks=data["picks"])
    for step in data["steps"]:
        assert deal.to_act == step["seat"]
        view = deal.view(step["seat"])
        assert [c.code for c in view.hand] == step["hand"]
        assert [str(a) for a in view.legal] == step["legal"]
        assert step["action"] in step["legal"]
        deal.apply(Action.parse(step["action"]), step["seat"])
    assert deal.is_over and deal.result.to_json() == data["result"]


@pytest.mark.parametrize("name", DEAL_FILES + GAME_FILES)
def test_golden_events_never_show_a_seat_another_seats_hand(name):
    data = load(name)
    for step in [{"events": data["start"]}, *data["steps"]]:
        for viewer, events in step["events"].items():
            for e in events:
                if e["event"] == "Dealt":
                    shown = [s for s, h in enumerate(e["hands"]) if h is not None]
                    assert shown == ([] if viewer == "spectator" else [int(viewer)])
