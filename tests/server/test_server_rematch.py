"""A rematch: the same table again once its game is over (issue 10)."""

from __future__ import annotations

import random

from serverkit import Player, create
from starlette.testclient import TestClient


def test_rematch_keeps_the_rules_the_seats_and_the_tokens(client: TestClient) -> None:
    made = create(client, variant="kopilka", seats=["me", "bot:random", "bot:random", "bot:random"],
                  name="Anna", start=True, listed=False, options={"remiz": "4"})
    table_id, token = made["table"]["id"], made["tokens"][0]["token"]
    me = Player(client, table_id, token)
    me.send({"type": "rematch", "id": 3})
    refused = me.until(lambda m: m["type"] == "error")
    assert refused["code"] == "not_over_yet" and refused["rule"] == "P8"
    rng = random.Random(1)
    while True:
        view = me.wait_turn()
        if me.over():
            break
        ply = me.ply
        me.act(rng.choice(view["deal"]["legal"]))
        me.until(lambda m, ply=ply: m["type"] == "update" and m["ply"] > ply)
    me.send({"type": "rematch", "id": 4})
    moved = me.until(lambda m: m["type"] == "table" and m["table"].get("next"))
    again = moved["table"]["next"]
    assert again != table_id
    me.send({"type": "rematch", "id": 5})  # asked twice: made once
    watcher = Player(client, table_id)
    assert watcher.state["table"]["next"] == again
    new = Player(client, again, token)  # the same token holds the same seat at the new table
    assert new.welcome["seat"] == 0
    info = new.state["table"]
    assert info["status"] == "playing" and info["options"] == {"remiz": "4"}
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
    assert info["seats"][0]["name"] == "Anna" and info["next"] is None
