"""Open seats (issue 24, item 3): a table may leave person seats open; the lobby lists it
as looking for players, and whoever joins takes the next open seat. The game begins when
every open seat is taken, or when the host begins it (the rest played by bots)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tavernkeep.server.app import create_app
from tavernkeep.server.rooms import Limits

SEATS = ["human", "human", "human", "bot:random"]
SHORT = {"round_limit": 2}
OPEN = [1, 2]


def join(client: Any, table_id: str, status: int = 200) -> Any:
    response = client.post(f"/api/tables/{table_id}/join")
    assert response.status_code == status, response.text
    return response.json()


def test_the_table_waits_until_its_open_seats_are_taken(db_url: str, tk: Any) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT, open=OPEN)
        tid = data["id"]
        assert [("invite" in e) for e in data["seats"]] == [True, False, False, False]
        token = tk.tokens(data)[0]
        listed = client.get("/api/tables").json()
        assert [(t["id"], t["status"], t["open_seats"]) for t in listed] == [(tid, "waiting", 2)]
        with tk.join(client, tid, 0, token) as host:
            assert host.state is not None
            assert host.state["status"] == "waiting" and host.state["actor"] is None
            host.act("brag")
            told = host.until(lambda m: m["type"] == "error")["message"]
            assert told == "the game has not begun: the table waits for players"
            first = join(client, tid)
            assert first["seat"] == 1 and first["table"] == f"/table/{tid}#seat=1"
            assert host.until(lambda m: m["type"] == "seats")["seats"][1]["claimed"] is True
            second = join(client, tid)
            assert second["seat"] == 2
            # The table as it begins: every page is sent it again, its log saying so.
            host.until(lambda m: m["type"] == "undone")
            began = host.expect("welcome")["chat"][-1]["text"]
            assert began == "Every seat is taken: the game begins"
            assert host.expect("state")["status"] == "playing"
            # The seats were taken by the credentials handed out: they act at the table.
            with (
                tk.join(client, tid, 1, first["token"]) as one,
                tk.join(client, tid, 2, second["token"]) as two,
            ):
                final = tk.play_to_end({0: host, 1: one, 2: two})
            assert final["result"] is not None
        assert join(client, tid, 409)["error"].startswith("no open seat at this table")


def test_the_host_begins_with_bots_in_the_seats_nobody_took(sqlite_url: str, tk: Any) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        settings = {"stand_in": "bot:random"}
        data = tk.create(client, seats=SEATS, options=SHORT, open=OPEN, settings=settings)
        tid, token, host = data["id"], tk.tokens(data)[0], data["host"]
        # Waiting, nobody decides; but its deal is dealt, and its record (the seed) is
        # no more to be read than a game's under way.
        assert client.get(f"/api/tables/{tid}/record").status_code == 409
        join(client, tid)
        refused = client.post(f"/api/tables/{tid}/start", json={"host": token})
        assert refused.status_code == 400
        with tk.join(client, tid, 0, token) as me:
            started = client.post(f"/api/tables/{tid}/start", json={"host": host})
            assert started.json() == {"id": tid, "status": "playing"}
            assert me.until(lambda m: m["type"] == "undone")["version"] == 0
            me.expect("welcome")
            state = me.expect("state")
            assert [s["agent"] for s in state["seats"]] == [
                "human",
                "human",
                "bot:random",
                "bot:random",
            ]
            notice = me.welcome["chat"][-1]["text"] if me.welcome else ""
            assert notice == "The host begins the game; bot:random takes Player 3"
        again = client.post(f"/api/tables/{tid}/start", json={"host": host})
        assert again.json() == {"error": "the table is not waiting for players"}
        assert join(client, tid, 409)["error"].startswith("no open seat")


def test_open_seats_must_be_peoples_and_joining_is_bounded(sqlite_url: str, tk: Any) -> None:
    # Six new tables or taken seats at once from one address, then about one a minute.
    limits = Limits(tables_per_minute=1, table_burst=6)
    with TestClient(create_app(sqlite_url, bot_delay=0.0, limits=limits)) as client:
        for bad in ([3], [0, 7]):
            refused = tk.create(client, 400, seats=SEATS, open=bad)
            assert refused["error"].startswith("open: ")
        data = tk.create(client, seats=["human"] * 3, options=SHORT, open=[0, 1, 2])
        assert join(client, "nosuchtable", 404) == {"error": "no such table"}
        join(client, data["id"])
        join(client, data["id"])
        assert join(client, data["id"], 429)["error"].startswith("too many seats taken")


def test_a_waiting_table_is_closed_by_its_host_and_gives_no_record_before(
    db_url: str, tk: Any
) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT, open=OPEN)
        tid = data["id"]
        assert client.get(f"/api/tables/{tid}/record").status_code == 409
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        assert client.get(f"/api/tables/{tid}/record").status_code == 409, "from storage too"
        closed = client.post(f"/api/tables/{tid}/close", json={"host": data["host"]})
        assert closed.json() == {"id": tid, "status": "closed"}
        assert client.get("/api/tables").json() == []
        assert join(client, tid, 409)["error"].startswith("no open seat")
