"""Names (issue 24): a person names themselves when they take a seat or watch, may change
it, and everyone at the table, a restarted server and the record all say it. A name is
plain text: what is not one is refused in a line and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.engine.records import GameRecord
from tavernkeep.server.app import create_app

SEATS = ["human", "bot:random", "human"]
SHORT = {"round_limit": 2}


def seat_names(message: dict[str, Any]) -> list[str | None]:
    return [entry.get("name") for entry in message["seats"]]


def test_a_name_given_with_the_join_reaches_everyone_and_outlives_a_restart(
    db_url: str, tk: Any
) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid, tokens = data["id"], tk.tokens(data)
        with (
            tk.join(client, tid, 2, tokens[2]) as other,
            tk.join(client, tid) as watcher,
            tk.connect(client, tid, 0) as zero,
        ):
            zero.send({"type": "join", "seat": 0, "token": tokens[0], "name": "  Alice  "})
            welcome = zero.expect("welcome")
            assert seat_names(welcome["table"]) == ["Alice", None, None]
            for sock in (other, watcher):
                told = sock.until(lambda m: m["type"] == "seats")
                assert seat_names(told) == ["Alice", None, None]
        summary = client.get(f"/api/tables/{tid}").json()
        assert seat_names(summary) == ["Alice", None, None]
        # The lobby's list says who is at the table, for whoever looks for one to join.
        (listed,) = client.get("/api/tables").json()
        assert seat_names(listed) == ["Alice", None, None]
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        assert seat_names(client.get(f"/api/tables/{tid}").json()) == ["Alice", None, None]
        (listed,) = client.get("/api/tables").json()
        assert seat_names(listed) == ["Alice", None, None], "from storage, after a restart"
        with tk.join(client, tid) as watcher:
            assert seat_names(watcher.state or {}) == ["Alice", None, None]


def test_a_person_renames_their_own_seat_and_nobody_elses(db_url: str, tk: Any) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid, tokens = data["id"], tk.tokens(data)
        with (
            tk.join(client, tid, 0, tokens[0]) as zero,
            tk.join(client, tid, 2, tokens[2]) as two,
            tk.join(client, tid) as watcher,
        ):
            two.settle()
            zero.send({"type": "name", "name": "Bartholomew the Bold"})
            told = two.until(lambda m: m["type"] == "seats")
            assert seat_names(told) == ["Bartholomew the Bold", None, None]
            # A spectator's name is theirs alone: no seat changes, nobody is told.
            two.settle()
            before = len(two.messages)
            watcher.send({"type": "name", "name": "Carol"})
            watcher.settle()
            two.settle()
            assert [m["type"] for m in two.messages[before:]] == ["pong"]
        assert seat_names(client.get(f"/api/tables/{tid}").json()) == [
            "Bartholomew the Bold",
            None,
            None,
        ]


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "1 to 24 characters"),
        ("   ", "1 to 24 characters"),
        ("x" * 25, "1 to 24 characters"),
        ("Mallory\u202ereversed", "U+202E"),
        ("Eve\x07", "U+0007"),
        ("Zero\u200bwidth", "U+200B"),
        (["Alice"], "a name is text"),
        (7, "a name is text"),
    ],
)
def test_a_name_that_is_not_plain_text_is_refused_and_changes_nothing(
    sqlite_url: str, tk: Any, name: Any, why: str
) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as zero:
            zero.send({"type": "name", "name": "Alice"})
            zero.settle()
            zero.send({"type": "name", "name": name})
            refused = zero.until(lambda m: m["type"] == "error")
            assert why in refused["message"]
            zero.ping()  # still at the table
        with tk.connect(client, tid, 2) as two:
            two.send({"type": "join", "seat": 2, "token": tokens[2], "name": name})
            code, seen = two.until_closed()
            assert code == 1008 and why in seen[-1]["message"]
        assert seat_names(client.get(f"/api/tables/{tid}").json()) == ["Alice", None, None]


def test_a_name_is_kept_as_the_text_it_is(sqlite_url: str, tk: Any) -> None:
    """Markup in a name is its text: the server neither strips nor escapes it (the pages
    set names as text, tests/browser), so what a person typed is what others read."""
    payload = "<img src=x onerror=1>"
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as zero:
            zero.send({"type": "name", "name": payload})
            zero.settle()
        assert seat_names(client.get(f"/api/tables/{tid}").json())[0] == payload


def test_the_record_of_a_finished_game_says_who_sat_where(db_url: str, tk: Any) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid, 2, tokens[2]) as two:
            zero.send({"type": "name", "name": "Alice"})
            tk.play_to_end({0: zero, 2: two})
        record = GameRecord.model_validate(json.loads(client.get(f"/api/tables/{tid}/record").text))
    assert record.names == ["Alice", None, None]
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        again = client.get(f"/api/tables/{tid}/record").json()
    assert again["names"] == ["Alice", None, None]
