"""P11: the review of a finished game over HTTP is ``mushka review``'s, served once it is over."""

from __future__ import annotations

from pathlib import Path

from serverkit import Player, create, running
from starlette.testclient import TestClient

from mushka.bots.review import action_words, review
from mushka.records import Record
from mushka.server.bodies import ReviewReply


def finished_game(client: TestClient, **options: object) -> str:
    """A short partie of classic Мушка between random bots, played to its end; its table id."""
    made = create(client, variant="classic", players=3, seats=["bot:random"] * 3, start=True,
                  options={"initial_record": 3, "remiz": 0, **options})
    table_id: str = made["table"]["id"]
    watcher = Player(client, table_id)
    if watcher.state["table"]["status"] != "over":
        watcher.until(lambda m: m["type"] == "table" and m["table"]["status"] == "over")
    watcher.close()
    return table_id


def test_p11_the_review_is_the_terminal_review_in_both_languages(tmp_path: Path) -> None:
    with running(tmp_path, bot_pool="thread") as client:
        table_id = finished_game(client)
        record = Record.loads(client.get(f"/api/records/{table_id}").text)
        expected = review(record, 1, workers=1)
        replies = {lang: ReviewReply.model_validate(
            client.get(f"/api/records/{table_id}/review?seat=1&lang={lang}").json()) for lang in ("en", "ru")}
        got = replies["en"]
        assert got.seat == 1 and got.players == 3 and got.seats == list(record.seats)
        assert [(d.deal, d.index, d.choice, d.best) for d in got.decisions] == [
            (d.deal, d.index, str(d.choice), str(d.best)) for d in expected.decisions]
        assert [d.loss for d in got.decisions] == [round(d.loss, 4) for d in expected.decisions]
        assert [d.error for d in got.decisions] == [round(d.error, 4) for d in expected.decisions]
        top = [[d.deal, d.index] for d in expected.costliest()]
        assert got.costliest == top and sum(d.costly for d in got.decisions) == len(top)
        assert got.differ == sum(1 for d in expected.decisions if not d.agrees)
        assert got.decisions, "a partie has decisions of every seat"
        # The same decisions in Russian, the actions in Russian words.
        ru = replies["ru"]
        assert [(d.deal, d.index, d.loss) for d in ru.decisions] == [(d.deal, d.index, d.loss) for d in got.decisions]
        for mine, theirs in zip(expected.decisions, ru.decisions, strict=True):
            assert theirs.choice_words == action_words(mine.choice, "ru")
            assert theirs.best_words == action_words(mine.best, "ru")
        # Asked again: kept, the same answer.
        again = client.get(f"/api/records/{table_id}/review?seat=1&lang=en").json()
        assert ReviewReply.model_validate(again) == got


def test_p11_refusals_name_the_problem_and_the_rule(tmp_path: Path) -> None:
    with running(tmp_path, bot_pool="thread") as client:
        # A game being played (a person who has not moved yet): refused, its record would show cards.
        made = create(client, variant="classic", seats=["me", "bot:random", "bot:random"], start=True,
                      options={"flush": "none", "privileged_four": "none"})  # no special hand ends it at once
        playing = client.get(f"/api/records/{made['table']['id']}/review?seat=0")
        assert playing.status_code == 409
        assert playing.json()["error"]["code"] == "not_over" and playing.json()["error"]["rule"] == "P11"
        assert client.get("/api/records/nosuchtable/review").status_code == 404
        table_id = finished_game(client)
        far = client.get(f"/api/records/{table_id}/review?seat=5&lang=ru")
        assert far.status_code == 400 and far.json()["error"]["code"] == "review_seat"
        assert far.json()["error"]["rule"] == "C1" and "места 5" in far.json()["error"]["message"]
        bad = client.get(f"/api/records/{table_id}/review?seat=first")
        assert bad.status_code == 400 and bad.json()["error"]["rule"] == "P2"
        assert "'first'" in bad.json()["error"]["message"]
