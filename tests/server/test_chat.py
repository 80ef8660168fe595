"""A table's chat (issue 24, item 8): its people talk, everyone at the table reads, the
lines are kept with the table, and what a stranger can make it hold is bounded."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.server import chat, rooms
from tavernkeep.server.app import create_app

SEATS = ["human", "bot:random", "human"]
SHORT = {"round_limit": 2}


def said(message: dict[str, Any]) -> tuple[int | None, str | None, str]:
    line = message["line"]
    return line["seat"], line["name"], line["text"]


def test_a_line_reaches_everyone_at_the_table_and_outlives_a_restart(db_url: str, tk: Any) -> None:
    payload = "<img src=x onerror=alert(1)> gg"
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid, tokens = data["id"], tk.tokens(data)
        with (
            tk.join(client, tid, 0, tokens[0]) as zero,
            tk.join(client, tid, 2, tokens[2]) as two,
            tk.join(client, tid) as watcher,
        ):
            zero.send({"type": "name", "name": "Alice"})
            zero.send({"type": "chat", "text": "  good   luck  "})
            zero.until(lambda m: m["type"] == "chat")
            two.send({"type": "chat", "text": payload})
            assert said(zero.until(lambda m: m["type"] == "chat")) == (2, None, payload)
            for sock in (two, watcher):
                lines = [said(sock.until(lambda m: m["type"] == "chat")) for _ in range(2)]
                assert lines == [(0, "Alice", "good luck"), (2, None, payload)]
    with TestClient(create_app(db_url, bot_delay=0.0)) as client, tk.join(client, tid) as later:
        assert later.welcome is not None
        kept = [(line["seat"], line["name"], line["text"]) for line in later.welcome["chat"]]
        assert kept == [(0, "Alice", "good luck"), (2, None, payload)]


def test_spectators_read_but_write_only_where_the_creator_allowed(sqlite_url: str, tk: Any) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        closed = tk.create(client, seats=SEATS, options=SHORT)
        settings = client.get(f"/api/tables/{closed['id']}").json()["settings"]
        assert settings["spectator_chat"] is False
        with tk.join(client, closed["id"]) as watcher:
            watcher.send({"type": "chat", "text": "hello"})
            refused = watcher.until(lambda m: m["type"] == "error")
            assert refused["message"] == "only the people seated chat at this table"
        opened = tk.create(client, seats=SEATS, options=SHORT, settings={"spectator_chat": True})
        tid, tokens = opened["id"], tk.tokens(opened)
        with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid) as watcher:
            watcher.send({"type": "chat", "text": "hello"})
            assert watcher.until(lambda m: m["type"] == "error")["message"] == "give a name to chat"
            watcher.send({"type": "name", "name": "Carol"})
            watcher.send({"type": "chat", "text": "hello"})
            assert said(zero.until(lambda m: m["type"] == "chat")) == (None, "Carol", "hello")


@pytest.mark.parametrize(
    "settings", [{"spectator_chat": "yes"}, {"spectators": True}, {"spectator_chat": 1}]
)
def test_settings_that_are_not_ones_are_refused(
    sqlite_url: str, tk: Any, settings: dict[str, Any]
) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        refused = tk.create(client, 400, seats=SEATS, settings=settings)
        assert "settings" in refused["error"] and "\n" not in refused["error"]
        assert client.get("/api/tables").json() == []


def test_a_person_who_talks_too_fast_or_too_long_is_told_and_nothing_is_kept(
    sqlite_url: str, tk: Any
) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as zero:
            zero.send({"type": "chat", "text": "x" * (chat.LINE_LIMIT + 1)})
            too_long = zero.until(lambda m: m["type"] == "error")["message"]
            assert too_long == f"a chat line is 1 to {chat.LINE_LIMIT} characters"
            for n in range(chat.RATE + 1):
                zero.send({"type": "chat", "text": f"line {n}"})
            fast = zero.until(lambda m: m["type"] == "error")["message"]
            assert fast == f"too many chat lines: at most {chat.RATE} every 10 seconds"
            zero.ping()
        with tk.join(client, tid) as later:
            assert later.welcome is not None
            assert [line["text"] for line in later.welcome["chat"]] == [
                f"line {n}" for n in range(chat.RATE)
            ]


def test_a_full_chat_takes_no_more(
    sqlite_url: str, tk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rooms, "TABLE_LINES", 3)
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as zero:
            for n in range(2):
                zero.send({"type": "chat", "text": f"0.{n}"})
            zero.settle()
        with tk.join(client, tid, 2, tokens[2]) as two:
            two.send({"type": "chat", "text": "2.0"})
            two.until(lambda m: m["type"] == "chat")
            two.send({"type": "chat", "text": "2.1"})
            full = two.until(lambda m: m["type"] == "error")["message"]
            assert full == "this table's chat is full (3 lines)"
        with tk.join(client, tid) as later:
            assert later.welcome is not None
            assert [line["text"] for line in later.welcome["chat"]] == ["0.0", "0.1", "2.0"]
