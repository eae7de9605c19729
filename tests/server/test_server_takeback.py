"""P21: taking back one's last card, while nobody has acted after it; the record never keeps it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from serverkit import Msg, Player, create, running
from starlette.testclient import TestClient

from mushka.server.app import lobby_of
from mushka.server.table import ServerTable

CALM = {"flush": "none", "privileged_four": "none"}
"""No special hand (C22) ends the game at its first deal: the game reaches a card of the seat."""


def to_my_card(me: Player) -> Msg:
    """Play on (standing in every deal, so as to play tricks) until this seat is to play a card."""
    while True:
        view = me.wait_turn()
        assert not me.over(), "the game ended before a card of this seat"
        deal = view["deal"]
        if deal["phase"] == "play":
            return view
        legal = deal["legal"]
        me.act("stand" if "stand" in legal else legal[0])
        me.until(lambda m: m["type"] == "update" and m["seat"] == me.seat)


def play_a_card(me: Player) -> str:
    """Play a legal card whose take-back matters (not one that ends the deal); return it."""
    view = to_my_card(me)
    while len(view["deal"]["hand"]) == 1:
        # The deal's last card ends it (its result is shown): no take-back there; play it, go on.
        me.act(view["deal"]["legal"][0])
        me.until(lambda m: m["type"] == "update" and m["seat"] == me.seat)
        view = to_my_card(me)
    card: str = view["deal"]["legal"][-1]
    me.act(card)
    me.until(lambda m: m["type"] == "update" and m["seat"] == me.seat)
    return card


def stored_actions(client: TestClient, table_id: str) -> list[str]:
    """The actions of the table's current deal as a process taking it over would replay them."""
    lobby = lobby_of(client.app)  # type: ignore[arg-type]
    snap = lobby.store.load(table_id)
    assert snap is not None
    table = ServerTable.restore(lobby.services, snap)
    assert table.game is not None
    return [str(a) for a in table.game.deal.actions]


def error_of(player: Player) -> Msg:
    return player.until(lambda m: m["type"] == "error")


def test_p21_at_a_bot_table_the_last_card_is_taken_back_and_leaves_no_trace(tmp_path: Path) -> None:
    # The bots' window is long enough that no bot answers the card before the take-back.
    with running(tmp_path, takeback_seconds=30.0) as client:
        made = create(client, variant="classic", players=3, seats=["me", "bot:random", "bot:random"],
                      start=True, name="Masha", options=CALM)
        table_id = made["table"]["id"]
        me = Player(client, table_id, made["tokens"][0]["token"], lang="ru")
        card = play_a_card(me)
        played_ply, played_version = me.ply, me.version
        with_card = stored_actions(client, table_id)
        assert with_card[-1] == card  # the journal has the card now
        me.send({"type": "take_back", "id": 7})
        told = me.until(lambda m: m["type"] == "taken_back")
        assert told["seat"] == 0 and told["action"] == card and told["version"] == played_version + 1
        assert told["text"].startswith("Masha забирает назад карту ")
        state = me.until(lambda m: m["type"] == "state")
        assert state["id"] == 7 and state["ply"] == played_ply - 1 and state["version"] == played_version + 1
        assert card.removeprefix("play ") in state["view"]["deal"]["hand"]
        assert state["view"]["deal"]["to_act"] == 0 and card in state["view"]["deal"]["legal"]
        # Stored so: a process taking the table over replays the deal without the card.
        assert stored_actions(client, table_id) == with_card[:-1]
        # Asked again, nothing is left to take back; the game goes on from the same position.
        me.send({"type": "take_back"})
        again = error_of(me)
        assert again["code"] == "takeback_none" and again["rule"] == "P21" and "забрать" in again["message"]
        me.act(card)
        update = me.until(lambda m: m["type"] == "update" and m["seat"] == 0)
        assert update["version"] == played_version + 2 and me.ply == played_ply
        assert stored_actions(client, table_id)[-1] == card
        me.close()


def test_p21_once_the_next_player_acted_the_card_stays(tmp_path: Path) -> None:
    with running(tmp_path, takeback_seconds=0.0) as client:
        made = create(client, variant="classic", players=3, seats=["me", "bot:random", "bot:random"],
                      start=True, name="Masha", options=CALM)
        me = Player(client, made["table"]["id"], made["tokens"][0]["token"])
        while True:
            play_a_card(me)
            if me.my_turn():
                continue  # this seat took the trick and leads again: no bot acts after this card
            nxt = me.until(lambda m: m["type"] == "update")
            assert nxt["seat"] != 0
            break
        me.send({"type": "take_back"})
        refused = error_of(me)
        assert refused["code"] == "takeback_none" and refused["rule"] == "P21"
        me.close()


def test_p21_with_friends_only_where_the_table_allows_it_and_everybody_is_told(tmp_path: Path) -> None:
    # The bot after a card that may be taken back waits for the window (else it may answer first).
    with running(tmp_path, takeback_seconds=30.0) as client:
        for allow in (False, True):
            made = create(client, variant="classic", players=3, seats=["me", "open", "bot:random"],
                          name="Masha", takeback=allow, options=CALM)
            table_id = made["table"]["id"]
            assert made["table"]["takeback"] is allow
            joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Petya"}).json()
            masha = Player(client, table_id, made["tokens"][0]["token"])
            petya = Player(client, table_id, joined["token"]["token"])
            assert petya.state["table"]["takeback"] is allow  # everybody at the table sees the setting
            masha.send({"type": "start"})
            players = {0: masha, joined["token"]["seat"]: petya}
            mover = _first_card_player(players)
            card = play_a_card(mover)
            played = mover.ply
            mover.send({"type": "take_back"})
            if not allow:
                refused = error_of(mover)
                assert refused["code"] == "takeback_off" and refused["rule"] == "P21"
                assert "creator" in refused["message"]
            else:
                other = petya if mover is masha else masha
                told = other.until(lambda m: m["type"] == "taken_back")
                name = "Masha" if mover is masha else "Petya"
                assert told["text"].startswith(f"{name} took back the card ") and told["action"] == card
                state = other.until(lambda m: m["type"] == "state")
                assert state["ply"] == played - 1
                assert state["view"]["deal"]["to_act"] == mover.seat
            masha.close()
            petya.close()


def _first_card_player(players: dict[int, Player]) -> Player:
    """The person who plays the first card of the game: every person stands; the others wait."""
    while True:
        for player in players.values():
            view: Any = player.view
            deal = view["deal"] if view else None
            if deal is not None and deal["to_act"] == player.seat and deal["legal"]:
                if deal["phase"] == "play":
                    return player
                player.act("stand" if "stand" in deal["legal"] else deal["legal"][0])
        for player in players.values():
            player.until(lambda m: m["type"] == "update")


def test_p21_the_tables_setting_is_stored_with_it(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        lobby = lobby_of(client.app)  # type: ignore[arg-type]
        for allow in (True, False):
            made = create(client, variant="classic", players=3, seats=["me", "open", "bot:random"], takeback=allow)
            snap = lobby.store.load(made["table"]["id"])
            assert snap is not None and snap.takeback is allow
            # A process that takes the table over (or the server restarted) keeps it, and shows it.
            again = ServerTable.restore(lobby.services, snap)
            assert again.takeback is allow and again.info().takeback is allow
