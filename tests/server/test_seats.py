"""Who may act for a seat: an invite claims it once, for one browser; the creator's device
plays only the seats marked as played there; every seat sees which those are."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.server.app import create_app
from tavernkeep.server.rooms import IDLE_KEPT, Limits

SHORT = {"round_limit": 2}


@pytest.fixture
def client(sqlite_url: str) -> Any:
    with TestClient(create_app(sqlite_url, bot_delay=0.0, pass_delay=0.05)) as client:
        yield client


def claim(client: Any, table_id: str, seat: Any, invite: Any) -> Any:
    return client.post(f"/api/tables/{table_id}/claim", json={"seat": seat, "invite": invite})


def one_line(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and "\n" not in body["error"]
    return str(body["error"])


def test_an_invite_claims_its_seat_once_and_acts_for_nobody(
    client: Any, tk: Any, helpers: Any
) -> None:
    data = tk.create(client, seats=["human", "human", "bot:random"], options=SHORT)
    tid, invites = data["id"], tk.invites(data)
    # The invite itself is no credential: it must be traded first.
    with tk.connect(client, tid) as sock:
        sock.send({"type": "join", "seat": 1, "token": invites[1]})
        code, seen = sock.until_closed()
    assert code == 1008 and "claim" in seen[0]["message"]

    first = claim(client, tid, 1, invites[1])
    assert first.status_code == 200
    credential = first.json()["token"]
    assert credential != invites[1]
    # A second browser opening the same link is told why it only watches.
    second = one_line(claim(client, tid, 1, invites[1]), 409)
    assert second == "Player 2's seat was claimed by another browser: you are watching"
    # A made-up invite is refused without saying anything of the seat's.
    assert "not valid" in one_line(claim(client, tid, 0, "A" * 22), 400)
    # The seat answers to its credential alone; the spent invite still does not act.
    with tk.join(client, tid, 1, credential) as one:
        assert one.welcome["seat"] == 1
    with tk.connect(client, tid) as sock:
        sock.send({"type": "join", "seat": 1, "token": invites[1]})
        code, seen = sock.until_closed()
    assert code == 1008
    # Storage keeps hashes only.
    stored = helpers.stored_table(client.app.state.tavern.storage.url, tid)
    assert stored.keys[1].credential_hash == hashlib.sha256(credential.encode()).hexdigest()


def test_the_creator_cannot_act_for_a_seat_a_friend_claimed(client: Any, tk: Any) -> None:
    # The creator opens their own seat's invite; the friend opens theirs. The creator's
    # browser holds nothing for the friend's seat: it cannot see that hand, nor decide.
    data = tk.create(
        client,
        game="here-to-slay",
        seats=["human", "human"],
        options={"leaders": "choose"},
    )
    tid, invites = data["id"], tk.invites(data)
    mine = claim(client, tid, 0, invites[0]).json()["token"]
    theirs = claim(client, tid, 1, invites[1]).json()["token"]
    with tk.join(client, tid, 0, mine) as zero, tk.join(client, tid, 1, theirs) as one:
        st = zero.until_state(lambda s: s["actor"] is not None)
        deciding = one if st["actor"] == 1 else zero
        other = zero if deciding is one else one
        deciding.until_state(lambda s: bool(s["legal"]))
        # Acting for the other seat with your own credential is refused.
        other.settle()
        other.act(deciding.state["legal"][0]["action"], st["version"])
        assert "not your decision" in other.expect("error")["message"]
    # Claiming the friend's seat again with the (spent) invite gives nothing.
    assert claim(client, tid, 1, invites[1]).status_code == 409


def test_seats_on_the_creators_device_come_with_their_credentials(client: Any, tk: Any) -> None:
    data = tk.create(
        client,
        game="side-quest",
        seats=["human", "human", "human"],
        device=[0, 2],
        options={"heroes": "random"},
    )
    seats = data["seats"]
    assert [s.get("device", False) for s in seats] == [True, False, True]
    assert "invite" not in seats[0] and "invite" not in seats[2]
    assert "token" not in seats[1] and "invite" in seats[1]
    tid = data["id"]
    with tk.join(client, tid, 0, seats[0]["token"]) as zero, tk.join(client, tid) as watcher:
        # Every seat, and every spectator, sees which seats one device plays.
        for summary in (zero.welcome["table"], watcher.welcome["table"]):
            assert [s["device"] for s in summary["seats"]] == [True, False, True]
        listed = client.get("/api/tables").json()[0]
        assert [s["device"] for s in listed["seats"]] == [True, False, True]
    # A device seat has no invite to claim.
    assert claim(client, tid, 0, seats[0]["token"]).status_code == 400


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"seats": ["human", "human", "bot:random"], "device": [0]}, "pass and play"),
        ({"seats": ["human", "bot:random", "bot:random"], "device": [1]}, "not a person"),
        ({"seats": ["human", "bot:random", "bot:random"], "device": [7]}, "not a person"),
        ({"seats": ["human", "bot:random", "bot:random"], "device": "0"}, "device"),
    ],
    ids=["part of a competitive table", "a bot's seat", "no such seat", "not a list"],
)
def test_device_seats_that_would_hide_a_hand_holder_are_refused(
    client: Any, body: dict[str, Any], words: str
) -> None:
    response = client.post("/api/tables", json={"game": "hack-and-slash", **body})
    assert words in one_line(response, 400)
    assert client.get("/api/tables").json() == []


def test_a_competitive_table_may_be_pass_and_play_as_a_whole(client: Any, tk: Any) -> None:
    data = tk.create(client, seats=["human", "bot:random", "human"], device=[0, 2], options=SHORT)
    assert [s.get("device", False) for s in data["seats"]] == [True, False, True]
    assert tk.invites(data) == {}


@pytest.mark.parametrize(
    "body",
    [
        {"seat": "1", "invite": "x"},
        {"seat": 1},
        {"seat": 1, "invite": "x" * 101},
        {"seat": 9, "invite": "x"},
        {"seat": -1, "invite": "x"},
        {"seat": True, "invite": "x"},
        {"seat": 1, "invite": 5},
    ],
)
def test_malformed_claims_are_one_line(client: Any, tk: Any, body: dict[str, Any]) -> None:
    data = tk.create(client, seats=["human", "human", "bot:random"], options=SHORT)
    response = client.post(f"/api/tables/{data['id']}/claim", json=body)
    one_line(response, 400)
    # Nothing was claimed on the way.
    assert claim(client, data["id"], 1, tk.invites(data)[1]).status_code == 200


def test_claiming_at_an_unknown_table_is_404(client: Any) -> None:
    one_line(claim(client, "no-such-table", 0, "x"), 404)


def test_a_claim_survives_a_restart_and_the_invite_stays_spent(db_url: str, tk: Any) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=["human", "human", "bot:random"], options=SHORT)
        tid, invites = data["id"], tk.invites(data)
        credential = claim(client, tid, 1, invites[1]).json()["token"]
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        assert claim(client, tid, 1, invites[1]).status_code == 409
        with tk.join(client, tid, 1, credential) as one:
            assert one.welcome["table"]["seats"][1]["claimed"] is True
        # The unclaimed seat's invite still works after the restart.
        assert claim(client, tid, 0, invites[0]).status_code == 200


def test_joining_and_leaving_sends_the_others_a_seat_message_not_a_state(
    client: Any, tk: Any
) -> None:
    data = tk.create(client, seats=["human", "human", "bot:random"], options=SHORT)
    tid, tokens = data["id"], tk.tokens(data)
    with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid) as watcher:
        zero.settle()
        watcher.settle()
        states_before = sum(m["type"] == "state" for m in zero.messages)
        with tk.join(client, tid, 1, tokens[1]):
            came = zero.until(lambda m: m["type"] == "seats")
            assert came["seats"][1]["connected"] is True
            watcher.until(lambda m: m["type"] == "seats")
        went = zero.until(lambda m: m["type"] == "seats")
        assert went["seats"][1]["connected"] is False
        # A spectator coming and going tells nobody anything.
        with tk.join(client, tid):
            pass
        zero.settle()
        assert sum(m["type"] == "state" for m in zero.messages) == states_before
        assert [m["type"] for m in zero.messages].count("seats") == 2
        seat_message = next(raw for raw in zero.raw if '"type": "seats"' in raw)
        assert len(seat_message) < 400


def test_only_a_few_tables_nobody_is_at_stay_in_memory(sqlite_url: str, tk: Any) -> None:
    limits = Limits(tables_per_minute=1000, table_burst=1000)
    with TestClient(create_app(sqlite_url, bot_delay=0.0, limits=limits)) as client:
        tavern = client.app.state.tavern
        first = tk.create(client, seats=["human", "human", "bot:random"], options=SHORT)
        tokens = tk.tokens(first)
        with tk.join(client, first["id"], 0, tokens[0]):
            assert first["id"] in tavern.rooms
        for _ in range(IDLE_KEPT + 5):
            tk.create(client, seats=["human", "human", "bot:random"], options=SHORT)
        # The table left first has left memory; its seat, its summary and its place in
        # the lobby are in storage, and it comes back when someone joins.
        assert len(tavern.rooms) <= IDLE_KEPT
        assert first["id"] not in tavern.rooms
        summary = client.get(f"/api/tables/{first['id']}").json()
        assert summary["seats"][0]["claimed"] is True
        assert first["id"] not in tavern.rooms, "a summary replayed the table"
        with tk.join(client, first["id"], 0, tokens[0]) as zero:
            assert zero.state["version"] == 0
