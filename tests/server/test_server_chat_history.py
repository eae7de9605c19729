"""B7: a player who starts to hear the spectators gets what they said before; a spectator speaks
under the name he gave."""

from __future__ import annotations

from pathlib import Path

from serverkit import Msg, Player, create, running
from starlette.testclient import TestClient

from mushka.server import PROTOCOL_VERSION


def spectator(client: TestClient, table_id: str, name: str | None, lang: str = "en") -> Player:
    watcher = Player(client, table_id, hello=False)
    hello: Msg = {"type": "hello", "protocol": PROTOCOL_VERSION, "lang": lang}
    if name is not None:
        hello["name"] = name
    watcher.send(hello)
    watcher.welcome = watcher.recv()
    watcher.state = watcher.until(lambda m: m["type"] == "state")
    return watcher


def test_b7_ticking_hear_the_spectators_brings_what_they_said_before(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        made = create(client, variant="classic", players=3, seats=["me", "bot:random", "bot:random"], name="Anna")
        table_id = made["table"]["id"]
        anna = Player(client, table_id, made["tokens"][0]["token"], lang="ru")
        boris = spectator(client, table_id, "Boris")
        boris.send({"type": "chat", "text": "nice hand"})
        assert boris.until(lambda m: m["type"] == "chat")["name"] == "Boris (spectator)"
        nameless = spectator(client, table_id, None)
        nameless.send({"type": "chat", "phrase": "good_luck"})
        said = nameless.until(lambda m: m["type"] == "chat" and not m["past"])
        assert said["name"] == "Spectator 1"
        # Anna does not hear the spectators yet: her next chat line is her own.
        anna.send({"type": "chat", "phrase": "hello"})
        first = anna.until(lambda m: m["type"] == "chat")
        assert first["channel"] == "players" and first["name"] == "Anna"
        # She ticks the box: both lines said before come, marked past, in her language, in order.
        anna.send({"type": "listen", "spectators": True})
        got = [anna.until(lambda m: m["type"] == "chat") for _ in range(2)]
        assert [(m["channel"], m["name"], m["past"]) for m in got] == [
            ("spectators", "Boris (зритель)", True), ("spectators", "Зритель 1", True)]
        assert got[0]["text"] == "nice hand" and got[1]["text"] == "Удачи!"
        # Ticking it again sends nothing twice; a new line comes live.
        anna.send({"type": "listen", "spectators": True})
        boris.send({"type": "chat", "phrase": "bye"})
        live = anna.until(lambda m: m["type"] == "chat")
        assert live["past"] is False and live["name"] == "Boris (зритель)"


def test_b7_a_spectator_cannot_speak_under_a_bots_name(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        made = create(client, variant="classic", players=3, seats=["me", "bot:random", "bot:random"], name="Anna")
        table_id = made["table"]["id"]
        for given in ("Mitya", "  ", "клубный игрок"):
            fake = spectator(client, table_id, given)
            fake.send({"type": "chat", "phrase": "hello"})
            assert fake.until(lambda m: m["type"] == "chat" and not m["past"])["name"].startswith("Spectator ")
            fake.close()
