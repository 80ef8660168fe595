"""Clocks (issue 24, item 5): chosen at setup, real-time (a bank and an increment) or
turn-based (time for each decision). Every seat sees every clock; a person out of time is
played for by the table's stand-in until they say they are back; clocks are in storage,
so a restarted server's go on where they were."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.engine.actions import Action
from tavernkeep.server.app import create_app

SEATS = ["human", "bot:random", "human"]
ONE_PERSON = ["human", "bot:random", "bot:random"]
SHORT = {"round_limit": 3}


def clock_of(message: dict[str, Any], seat: int) -> dict[str, Any]:
    clock: dict[str, Any] = message["seats"][seat]["clock"]
    return clock


def test_a_person_out_of_time_is_played_for_until_they_are_back(sqlite_url: str, tk: Any) -> None:
    settings = {
        "clock": {"kind": "real_time", "seconds": 1.5},
        "stand_in": "bot:random",
        "grace_seconds": None,
    }
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT, settings=settings)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid) as watcher:
            assert zero.state is not None and zero.state["actor"] == 0
            assert clock_of(zero.state, 0)["running"] is True
            assert 0 < clock_of(zero.state, 0)["left"] <= 1.5
            # Player 1 thinks too long.
            told = watcher.until(lambda m: m["type"] == "chat")["line"]
            assert told["text"] == (
                "Player 1 ran out of time: bot:random plays their seat until they are back"
            )
            seats = watcher.until(lambda m: m["type"] == "seats")["seats"]
            assert seats[0]["away"] == "out of time" and seats[0]["clock"]["left"] == 0
            # The stand-in decides for them, and the table plays on.
            zero.until_state(lambda s: s["version"] > 0)
            zero.send({"type": "back"})
            back = watcher.until(lambda m: m["type"] == "chat")["line"]["text"]
            assert back == "Player 1 is back and plays their seat"
            again = watcher.until(lambda m: m["type"] == "seats")["seats"][0]
            assert "away" not in again and again["clock"]["left"] == pytest.approx(60, abs=1)


def test_a_real_time_clock_runs_for_the_seat_deciding_and_gains_its_increment(
    db_url: str, tk: Any
) -> None:
    settings = {"clock": {"kind": "real_time", "seconds": 600, "increment": 20}}
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT, settings=settings, seed=3)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as zero:
            assert zero.state is not None
            first = zero.state
            assert clock_of(first, 2) == {"left": 600, "running": False}
            after, decided = first, 0
            while after["actor"] == 0:
                zero.act(after["legal"][0]["action"], after["version"])
                after = zero.until_state(lambda s, v=after["version"]: s["version"] > v)
                decided += 1
            mine = clock_of(after, 0)
            # Thought a little each time, gained 20 each time.
            assert 600 + 20 * decided - 5 < mine["left"] <= 600 + 20 * decided
            assert mine["running"] is False
    # Stored: a restarted server's clock for the seat is where it was.
    with TestClient(create_app(db_url, bot_delay=0.0)) as again:
        summary = again.get(f"/api/tables/{tid}").json()
        assert clock_of(summary, 0) == {"left": pytest.approx(mine["left"]), "running": None}
        with tk.join(again, tid, 2, tokens[2]) as two:
            assert two.state is not None
            assert clock_of(two.state, 0)["left"] == pytest.approx(mine["left"])


def test_a_restart_mid_decision_goes_on_with_the_clock_where_it_was(db_url: str, tk: Any) -> None:
    settings = {"clock": {"kind": "turn_based", "seconds": 3600}}
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=ONE_PERSON, options=SHORT, settings=settings)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as zero:
            assert zero.state is not None and zero.state["actor"] == 0
            before = clock_of(zero.state, 0)
            assert before["running"] and 3590 < before["left"] <= 3600
    with (
        TestClient(create_app(db_url, bot_delay=0.0)) as client,
        tk.join(client, tid, 0, tokens[0]) as zero,
    ):
        assert zero.state is not None
        resumed = clock_of(zero.state, 0)
        # Not a fresh hour: the decision's time went on from when it was asked.
        assert resumed["running"] and resumed["left"] <= before["left"]
        zero.act(zero.state["legal"][0]["action"], zero.state["version"])
        nxt = zero.until_state(lambda s: s["actor"] == 0 and s["version"] > 0)
        # Turn-based: each decision has its own hour.
        assert clock_of(nxt, 0)["left"] > resumed["left"] - 1


@pytest.mark.parametrize(
    "clock",
    [
        {"kind": "blitz", "seconds": 60},
        {"kind": "real_time", "seconds": 0},
        {"kind": "real_time", "seconds": 60, "increment": -1},
        {"kind": "turn_based"},
    ],
)
def test_a_clock_that_is_not_one_is_refused(
    sqlite_url: str, tk: Any, clock: dict[str, Any]
) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        refused = tk.create(client, 400, seats=SEATS, settings={"clock": clock})
        assert "clock" in refused["error"] and "\n" not in refused["error"]


def test_a_person_back_while_a_bot_moves_keeps_the_minute_given_back(
    sqlite_url: str, tk: Any
) -> None:
    """A CI run clicked "I'm back" while the other seat's bot was committing its move: the
    move landed between the stand-in leaving and the clock being given back, found the
    person deciding on an empty clock, and ran them out of time again at once."""
    settings = {
        "clock": {"kind": "real_time", "seconds": 1.0},
        "stand_in": "bot:random",
        "grace_seconds": None,
    }
    with TestClient(create_app(sqlite_url, bot_delay=0.3)) as client:
        tavern = client.app.state.tavern  # type: ignore[attr-defined]
        options = {**SHORT, "two_player": True}
        data = tk.create(client, seats=["human", "bot:random"], options=options, settings=settings)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as zero:
            zero.until(lambda m: m["type"] == "seats" and m["seats"][0].get("away"))
            room = tavern.rooms[tid]
            game = room.game
            # The storage thread is held, so that a move of the bot's is committing when
            # the person says they are back: one that hands the decision back to them.
            deadline = time.monotonic() + 10.0
            while True:
                zero.until_state(lambda s: s["actor"] == 1)
                gate = threading.Event()
                tavern.writer.submit(gate.wait, 10.0)
                while not tavern.commits._waiting and time.monotonic() < deadline:
                    time.sleep(0.01)
                assert tavern.commits._waiting, "the bot's move never reached storage"
                trial = game.clone(room.match.state)
                game.apply(trial, Action.parse(tavern.commits._waiting[0][0].action), False)
                if game.actor(trial) == 0:
                    break
                gate.set()
            # And the return's own write is slow, so that the move lands within it.
            set_away = tavern.storage.set_away

            def slowly(*args: Any) -> None:
                time.sleep(0.3)
                set_away(*args)

            tavern.storage.set_away = slowly
            zero.send({"type": "back"})
            while 0 in room.stand_ins and time.monotonic() < deadline:
                time.sleep(0.01)
            gate.set()
            # The bot's move and the person's return are both told, in either order.
            told = {"state": False, "back": False}
            while not all(told.values()):
                message = zero.recv()
                assert "ran out of time" not in str(message.get("line")), message
                if message["type"] == "state" and message["actor"] == 0:
                    told["state"] = True
                if message["type"] == "chat" and "is back" in message["line"]["text"]:
                    told["back"] = True
            # Before the fix a stand-in came back at once: said, and shown on the seat.
            later = time.monotonic() + 0.5
            while (wait := later - time.monotonic()) > 0:
                try:
                    message = zero.recv(wait)
                except TimeoutError:
                    break
                assert "ran out of time" not in str(message.get("line")), message
                for shown in message.get("seats", []):
                    assert "away" not in shown, message
            seat = client.get(f"/api/tables/{tid}").json()["seats"][0]
            assert "away" not in seat
            assert 50 < seat["clock"]["left"] <= 60
