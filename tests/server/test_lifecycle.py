"""A table's life (issue 24, item 6): its host may close it; one left with nobody at it
and no move is archived out of the open list; a finished one opens its rematch, the same
people in the same seats. A table over without a result still gives its record."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tavernkeep.engine.records import GameRecord
from tavernkeep.server.app import create_app
from tavernkeep.server.rooms import Limits

SEATS = ["human", "bot:random", "human"]
SHORT = {"round_limit": 2}


def post(client: Any, path: str, body: dict[str, Any], status: int = 200) -> Any:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    return response.json()


def test_the_host_closes_a_table_and_nobody_plays_on(db_url: str, tk: Any) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid, tokens, host = data["id"], tk.tokens(data), data["host"]
        with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid) as watcher:
            assert zero.state is not None and zero.state["legal"]
            refused = post(client, f"/api/tables/{tid}/close", {"host": tokens[0]}, 400)
            assert refused == {"error": "that is not this table's host key"}
            assert post(client, f"/api/tables/{tid}/close", {"host": host}) == {
                "id": tid,
                "status": "closed",
            }
            for sock in (zero, watcher):
                notice = sock.until(lambda m: m["type"] == "chat")["line"]
                assert (notice["kind"], notice["text"]) == (
                    "notice",
                    "The table's host closed the table",
                )
                over = sock.until_state(lambda s: s["status"] == "closed")
                assert over["actor"] is None and over["legal"] == [] and over["result"] is None
            zero.act(zero.state["legal"][0]["action"] if zero.state["legal"] else "brag")
            told = zero.until(lambda m: m["type"] == "error")
            assert told["message"] == "the table's host closed the table"
        again = post(client, f"/api/tables/{tid}/close", {"host": host}, 400)
        assert again == {"error": "the game is over already"}
        assert client.get("/api/tables").json() == []
        assert client.get(f"/api/tables/{tid}").json()["status"] == "closed"
        # Over, its deal will never be played on: the record, seed and all, may be read.
        record = GameRecord.model_validate_json(client.get(f"/api/tables/{tid}/record").text)
        assert record.result is None
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        assert client.get(f"/api/tables/{tid}").json()["status"] == "closed"
        with tk.join(client, tid, 0, tokens[0]) as zero:
            assert zero.state is not None and zero.state["status"] == "closed"
            assert zero.state["legal"] == []


def test_a_table_left_alone_is_archived_and_one_with_someone_at_it_is_not(
    sqlite_url: str, tk: Any, helpers: Any
) -> None:
    limits = Limits(archive_after=0.4)
    with TestClient(create_app(sqlite_url, bot_delay=0.0, limits=limits)) as client:
        left = tk.create(client, seats=SEATS, options=SHORT)
        kept = tk.create(client, seats=SEATS, options=SHORT)
        token = tk.tokens(kept)[0]
        with tk.join(client, kept["id"], 0, token) as zero:
            helpers.wait_for(
                lambda: client.get(f"/api/tables/{left['id']}").json()["status"] == "archived",
                what="the table nobody is at archived",
            )
            # Several rounds of the archiver have passed the table someone sits at.
            assert [t["id"] for t in client.get("/api/tables").json()] == [kept["id"]]
            zero.ping()
            assert zero.state is not None and zero.state["status"] == "playing"
        assert client.get(f"/api/tables/{left['id']}/record").status_code == 200


def test_a_finished_table_opens_its_rematch_for_the_same_people(db_url: str, tk: Any) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid, 2, tokens[2]) as two:
            zero.send({"type": "name", "name": "Alice"})
            early = post(client, f"/api/tables/{tid}/rematch", {"seat": 0, "token": tokens[0]}, 400)
            assert early == {"error": "a rematch follows a finished game"}
            tk.play_to_end({0: zero, 2: two})
            wrong = post(client, f"/api/tables/{tid}/rematch", {"seat": 0, "token": tokens[2]}, 400)
            assert wrong == {"error": "that seat token is not valid for this table"}
            opened = post(client, f"/api/tables/{tid}/rematch", {"seat": 0, "token": tokens[0]})
            new = opened["id"]
            assert new != tid and opened["table"] == f"/table/{new}"
            for sock in (zero, two):
                assert sock.until(lambda m: m["type"] == "rematch")["table"] == new
        # Asked again, by the other seat or the host, it is the same table.
        again = post(client, f"/api/tables/{tid}/rematch", {"seat": 2, "token": tokens[2]})
        assert again["id"] == new
        assert post(client, f"/api/tables/{tid}/rematch", {"host": data["host"]})["id"] == new
        summary = client.get(f"/api/tables/{new}").json()
        assert [s["agent"] for s in summary["seats"]] == SEATS
        assert [s.get("name") for s in summary["seats"]] == ["Alice", None, None]
        assert summary["options"] == client.get(f"/api/tables/{tid}").json()["options"]
        assert summary["deal"] == "secret" and summary["actions"] == 0
        # Each person's page takes its seat at the rematch with the credential it holds.
        with tk.join(client, new, 0, tokens[0]) as zero, tk.join(client, new, 2, tokens[2]) as two:
            final = tk.play_to_end({0: zero, 2: two})
        first = GameRecord.model_validate_json(client.get(f"/api/tables/{tid}/record").text)
        second = GameRecord.model_validate_json(client.get(f"/api/tables/{new}/record").text)
        assert second.seed != first.seed and second.config == first.config
        assert final["result"] is not None


def test_a_rematch_waits_for_its_people_then_begins(db_url: str, tk: Any) -> None:
    """Issue 39, item 7: a rematch is not played by stand-ins because someone had not
    followed yet. It waits, showing nothing of its deal, until every person has a page at
    it; the host may begin it without someone, who then has the table's grace. A page
    back at the finished table is told of the rematch in its welcome."""
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid, 2, tokens[2]) as two:
            tk.play_to_end({0: zero, 2: two})
        new = post(client, f"/api/tables/{tid}/rematch", {"seat": 0, "token": tokens[0]})["id"]
        with tk.join(client, tid, 2, tokens[2]) as back:
            assert back.welcome is not None and back.welcome["rematch"] == new
        assert client.get(f"/api/tables/{new}").json()["status"] == "waiting"
        with tk.join(client, new, 0, tokens[0]) as zero:
            assert zero.state is not None and zero.state["status"] == "waiting"
            assert zero.state["view"] is None and zero.state["actor"] is None
            assert zero.welcome is not None and zero.welcome["log"] == []
            assert client.get(f"/api/tables/{new}").json()["status"] == "waiting"
            with tk.join(client, new, 2, tokens[2]) as two:
                # The table begins as if taken back to its start: a welcome, with the
                # notice in its chat, and the state.
                began = two.until(lambda m: m["type"] == "welcome")["chat"][-1]["text"]
                assert began == "Everyone is here: the game begins"
                state = two.until_state(lambda s: s["status"] == "playing")
                assert state["view"] is not None
                tk.play_to_end({0: zero, 2: two})
        # The host begins the next one with one person still to come.
        third = post(client, f"/api/tables/{new}/rematch", {"host": data["host"]})["id"]
        with tk.join(client, third, 0, tokens[0]) as zero:
            assert client.get(f"/api/tables/{third}").json()["status"] == "waiting"
            refused = post(client, f"/api/tables/{third}/start", {"host": tokens[0]}, 400)
            assert refused == {"error": "that is not this table's host key"}
            post(client, f"/api/tables/{third}/start", {"host": data["host"]})
            began = zero.until(lambda m: m["type"] == "welcome")["chat"][-1]["text"]
            assert began == "The host begins the game"
            assert zero.until_state(lambda s: s["status"] == "playing")["view"] is not None
