"""Leavers (issue 24, item 4): a person whose pages have all left is waited for through
the table's grace, then a bot plays their seat until they come back; the log says so, and
the seats, the result and the record say which decisions the bot made. Nobody waits for a
leaver longer than the grace."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.engine.records import GameRecord
from tavernkeep.server.app import create_app
from tavernkeep.server.rooms import Limits
from tavernkeep.server.search import SearchLimits

SEATS = ["human", "bot:random", "human"]
SHORT = {"round_limit": 3}
QUICK = {"grace_seconds": 1.0, "stand_in": "bot:random"}


def notices(sock: Any) -> list[str]:
    return [
        m["line"]["text"]
        for m in sock.messages
        if m["type"] == "chat" and m["line"]["kind"] == "notice"
    ]


def test_a_leaver_is_played_for_after_the_grace_and_takes_the_seat_back(
    db_url: str, tk: Any
) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT, settings=QUICK)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid) as watcher:
            with tk.join(client, tid, 2, tokens[2]) as two:
                two.send({"type": "name", "name": "Bea"})
                two.settle()

            # Bea's page is gone. Seat 0 plays on; once the decision reaches Bea's seat,
            # the table waits through the grace and then the stand-in decides for her.
            def turn_or_notice(m: dict[str, Any]) -> bool:
                return m["type"] == "chat" or (m["type"] == "state" and bool(m["legal"]))

            assert zero.state is not None
            stood = zero.state if zero.state["legal"] else zero.until(turn_or_notice)
            while stood["type"] != "chat":
                zero.act(stood["legal"][0]["action"], stood["version"])
                stood = zero.until(turn_or_notice)
            told = "Bea left: bot:random plays their seat until they come back"
            assert stood["line"]["text"] == told
            seats = zero.until(lambda m: m["type"] == "seats")["seats"]
            assert seats[2]["stand_in"] == "bot:random"
            # The stand-in decides: the game moves past a decision of Bea's seat.
            zero.until_state(lambda s: s["actor"] != 2)
            with tk.join(client, tid, 2, tokens[2]) as two:
                assert two.welcome is not None
                watcher.until(lambda m: m["type"] == "chat" and "is back" in m["line"]["text"])
                assert notices(watcher) == [told, "Bea is back and plays their seat"]
                final = tk.play_to_end({0: zero, 2: two})
        summary = client.get(f"/api/tables/{tid}").json()
        stood_in = summary["seats"][2]["stood_in"]
        assert stood_in > 0 and "stood_in" not in summary["seats"][0]
        assert "stand_in" not in summary["seats"][2], "nobody stands in for Bea now"
        record = GameRecord.model_validate_json(client.get(f"/api/tables/{tid}/record").text)
        assert record.stood_in is not None and len(record.stood_in) == stood_in
        assert final["seats"][2]["stood_in"] == stood_in
    # Kept with the table: a restarted server says the same.
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        assert client.get(f"/api/tables/{tid}").json()["seats"][2]["stood_in"] == stood_in


def test_the_stand_in_does_not_make_the_table_wait_again(db_url: str, tk: Any) -> None:
    """The table waited the grace already: the stand-in's first decision is made at once,
    not after the pause bots take so that people can follow them (an hour here)."""
    with TestClient(create_app(db_url, bot_delay=3600.0)) as client:
        data = tk.create(client, seats=["human"] * 3, settings=QUICK)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid) as watcher:
            with (
                tk.join(client, tid, 1, tokens[1]),
                tk.join(client, tid, 2, tokens[2]),
                tk.join(client, tid, 0, tokens[0]) as zero,
            ):
                assert zero.state is not None and zero.state["actor"] == 0
            # Seat 0's person left while the decision was theirs; seats 1 and 2 too, but
            # none of theirs is asked, so the stand-in plays seat 0's turn alone.
            watcher.until(lambda m: m["type"] == "chat" and "Player 1 left" in m["line"]["text"])
            moved = watcher.until_state(lambda s: s["version"] >= 1, timeout=10.0)
            assert moved["version"] >= 1


def test_nobody_stands_in_for_a_seat_never_claimed_or_a_table_that_waits(
    sqlite_url: str, tk: Any
) -> None:
    app = create_app(sqlite_url, bot_delay=0.0)
    with TestClient(app) as client:
        # The second person never opened their invite: the table waits for them.
        data = tk.create(client, seats=SEATS, options=SHORT, settings=QUICK)
        tid, invites = data["id"], tk.invites(data)
        token = tk.claim(client, tid, 0, invites[0])
        waiting = tk.create(client, seats=SEATS, options=SHORT, settings={"grace_seconds": None})
        waiting_tokens = tk.tokens(waiting)
        with tk.join(client, waiting["id"], 2, waiting_tokens[2]):
            pass
        for table, seat_token in ((tid, token), (waiting["id"], waiting_tokens[0])):
            with tk.join(client, table, 0, seat_token) as zero:
                st = zero.until_state(lambda s: s["actor"] in (0, 2))
                while st["actor"] == 0:
                    zero.act(st["legal"][0]["action"], st["version"])
                    st = zero.until_state(lambda s, v=st["version"]: s["version"] > v)
                    st = zero.until_state(lambda s: s["actor"] in (0, 2))
                # The decision is seat 2's, its person away, and nothing keeps time on it.
                room = app.state.tavern.rooms[table]
                assert room.actor == 2 and room.watch_task is None
                assert room.stand_ins == {}


@pytest.mark.parametrize(
    ("settings", "why"),
    [
        ({"stand_in": "human"}, "stand_in must be a bot"),
        ({"stand_in": "bot:mcts:600000ms"}, "2,000"),
        ({"stand_in": "bot:nonsense"}, "bot:nonsense"),
        ({"grace_seconds": 0.5}, "grace_seconds"),
    ],
)
def test_a_stand_in_that_is_not_one_is_refused(
    sqlite_url: str, tk: Any, settings: dict[str, Any], why: str
) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        refused = tk.create(client, 400, seats=SEATS, settings=settings)
        assert why in refused["error"] and "\n" not in refused["error"]
        assert client.get("/api/tables").json() == []


def test_the_default_stand_in_keeps_within_the_servers_search_caps(
    sqlite_url: str, tk: Any
) -> None:
    limits = Limits(search=SearchLimits(millis=200))
    with TestClient(create_app(sqlite_url, bot_delay=0.0, limits=limits)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        stored = client.get(f"/api/tables/{data['id']}").json()["settings"]
        assert stored["stand_in"] == "bot:mcts:200ms"
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        assert client.get(f"/api/tables/{data['id']}").json()["settings"]["stand_in"] == (
            "bot:mcts:300ms"
        )
