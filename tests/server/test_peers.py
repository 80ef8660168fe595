"""Two server processes on one PostgreSQL database, as two apps in this test's process.

Each app is a whole server (its own Tavern, storage connections, listening connection and
heartbeat) over the same schema, so a table may be open at both at once: what one process
does at it, the pages at the other see, as if it had happened there (peers.py). The real
processes, the kill -9 and the race for one action are in test_process.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.server.app import create_app

SHORT = {"round_limit": 2}


@contextmanager
def two_processes(url: str, **kwargs: Any) -> Iterator[tuple[Any, Any]]:
    with (
        TestClient(create_app(url, bot_delay=0.05, pass_delay=0.05, **kwargs)) as a,
        TestClient(create_app(url, bot_delay=0.05, pass_delay=0.05, **kwargs)) as b,
    ):
        yield a, b


@pytest.fixture
def pair(postgres_url: str) -> Iterator[tuple[Any, Any]]:
    with two_processes(postgres_url) as both:
        yield both


def test_what_is_said_and_named_at_one_process_is_seen_at_the_other_once(
    pair: tuple[Any, Any], tk: Any
) -> None:
    a, b = pair
    data = tk.create(a, seats=["human", "human", "bot:random"], options=SHORT, seed=3)
    tid, tokens = data["id"], tk.tokens(data)
    with (
        tk.join(a, tid, 0, tokens[0]) as zero,
        tk.join(b, tid, 1, tokens[1]) as one,
        tk.join(b, tid) as watcher,
    ):
        # Each person's page shows the other at the table, though at another process.
        seen = zero.until(
            lambda m: m["type"] == "seats" and all(s["connected"] for s in m["seats"])
        )
        assert seen["seats"][1]["connected"]
        zero.send({"type": "chat", "text": "good luck"})
        one.send({"type": "chat", "text": "you too"})
        for sock in (zero, one, watcher):
            lines = []
            while len(lines) < 2:
                msg = sock.until(lambda m: m["type"] == "chat")
                lines.append(msg["line"])
            sock.settle()
            said = [m["line"]["text"] for m in sock.messages if m["type"] == "chat"]
            assert sorted(said) == ["good luck", "you too"], "each line once"
            # One order for everyone: the chat's own numbering.
            assert [line["index"] for line in lines] == [0, 1]
        one.send({"type": "name", "name": "Bea"})
        named = zero.until(lambda m: m["type"] == "seats" and m["seats"][1].get("name") == "Bea")
        assert named["seats"][1]["name"] == "Bea"


def test_a_person_at_another_process_is_no_leaver_and_one_who_left_is_stood_in_for(
    postgres_url: str, tk: Any
) -> None:
    settings = {"grace_seconds": 1.0, "stand_in": "bot:random"}
    with two_processes(postgres_url) as (a, b):
        # A bot decides first: the process that opens the table runs its bots and clocks.
        data = tk.create(
            a,
            seats=["bot:random", "human", "bot:random"],
            options=SHORT,
            seed=8,
            settings=settings,
        )
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(a, tid) as watcher:
            with tk.join(b, tid, 1, tokens[1]) as page:
                page.until_state(lambda s: s["actor"] == 1)
                # Well past the grace: the person at the other process is at the table.
                page.quiet(2.0)
                watcher.settle()
                last = [m for m in watcher.messages if m["type"] in ("state", "seats")][-1]
                assert last["seats"][1]["connected"] and "stand_in" not in last["seats"][1]
            # Gone from every process: the keeper stands in after the grace.
            left = watcher.until(
                lambda m: m["type"] == "seats" and m["seats"][1].get("stand_in") is not None,
                timeout=10,
            )
            assert left["seats"][1]["away"] == "left"
            watcher.until_state(lambda s: s["version"] >= 1 and s["actor"] != 1)
            # Back, at the first process this time: the seat is theirs again.
            with tk.join(a, tid, 1, tokens[1]) as back:
                back.until_state(lambda s: s["actor"] == 1 and bool(s["legal"]), timeout=10)
                assert "stand_in" not in back.state["seats"][1]  # type: ignore[index]


def test_a_seat_handed_out_again_at_one_process_closes_its_page_at_the_other(
    pair: tuple[Any, Any], tk: Any
) -> None:
    a, b = pair
    data = tk.create(a, seats=["human", "human", "bot:random"], options=SHORT, seed=4)
    tid, tokens = data["id"], tk.tokens(data)
    with tk.join(b, tid, 1, tokens[1]) as one:
        response = a.post(f"/api/tables/{tid}/reissue", json={"seat": 1, "host": data["host"]})
        assert response.status_code == 200, response.text
        code, seen = one.until_closed()
        assert code == 1008
        assert any(
            m["type"] == "error" and "handed this seat to a new invite" in m["message"]
            for m in seen
        )


def test_a_table_closed_at_one_process_is_over_at_the_other(pair: tuple[Any, Any], tk: Any) -> None:
    a, b = pair
    data = tk.create(a, seats=["human", "human", "bot:random"], options=SHORT, seed=5)
    tid, tokens = data["id"], tk.tokens(data)
    with tk.join(b, tid, 0, tokens[0]) as zero:
        response = a.post(f"/api/tables/{tid}/close", json={"host": data["host"]})
        assert response.status_code == 200, response.text
        closed = zero.until_state(lambda s: s["status"] == "closed")
        assert closed["actor"] is None and closed["legal"] == []
        zero.act("quest:0", closed["version"])
        assert "closed" in zero.until(lambda m: m["type"] == "error")["message"]


def test_a_decision_taken_back_at_one_process_is_taken_back_at_the_other(
    pair: tuple[Any, Any], tk: Any, helpers: Any, postgres_url: str
) -> None:
    a, b = pair
    data = tk.create(a, game="rage", seats=["human"], seed=11, device=[0])
    tid, tokens = data["id"], tk.tokens(data)
    with tk.join(a, tid, 0, tokens[0]) as here, tk.join(b, tid, 0, tokens[0]) as there:
        before = here.state
        assert before is not None
        label = next(e["label"] for e in before["legal"] if e["action"] == "step:0")
        here.act("step:0", before["version"])
        # The person's page at the other process is offered the take-back too.
        assert there.until_state(lambda s: s["version"] == 1)["take_back"] == label
        there.send({"type": "take_back"})
        for sock in (there, here):
            assert sock.until(lambda m: m["type"] == "undone")["version"] == 0
            assert sock.expect("welcome")["chat"][-1]["text"] == f"Player 1 took back: {label}"
            assert sock.expect("state")["view"] == before["view"]
        assert helpers.stored_actions(postgres_url, tid) == []
        here.act("step:1", 0)
        there.until_state(lambda s: s["version"] == 1)
    assert helpers.stored_actions(postgres_url, tid) == ["step:1"]


def test_a_table_whose_move_the_database_lost_goes_on_from_storage(
    postgres_url: str, tk: Any, helpers: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database gone in the middle of a bot's move (a restart, say): the table's copy
    in memory is let go, its pages reconnect, and its keeper loads it again from storage
    at a heartbeat, so its bots go on rather than wait for someone to come by."""
    from sqlalchemy.exc import OperationalError

    with TestClient(create_app(postgres_url, bot_delay=0.05)) as client:
        storage = client.app.state.tavern.storage
        appended = storage.append_actions
        failures = []

        def once_lost(batch: Any) -> Any:
            if not failures and batch[0].index >= 3:
                failures.append(batch[0].index)
                raise OperationalError("INSERT", {}, Exception("the database restarted"))
            return appended(batch)

        monkeypatch.setattr(storage, "append_actions", once_lost)
        data = tk.create(client, seats=["bot:random"] * 3, options=SHORT, seed=9)
        tid = data["id"]
        with tk.join(client, tid) as watcher:
            code, _ = watcher.until_closed()
            assert code == 1008, "its page was let go, to reconnect"
        assert failures == [3]
        # Nobody comes back to it: the keeper's heartbeat finds it and its bots go on.
        helpers.wait_for(
            lambda: len(helpers.stored_actions(postgres_url, tid)) > 3,
            timeout=20,
            what="the bots to go on",
        )
        with tk.join(client, tid) as again:
            end = again.drain_to_end(timeout=30)
        assert end["version"] > 3


def test_a_table_someone_sits_at_another_process_is_not_archived(
    postgres_url: str, tk: Any, helpers: Any
) -> None:
    from tavernkeep.server.rooms import Limits

    seats = ["human", "bot:random", "bot:random"]
    with two_processes(postgres_url, limits=Limits(archive_after=0.4)) as (a, b):
        left = tk.create(b, seats=seats, options=SHORT)
        kept = tk.create(b, seats=seats, options=SHORT)
        with tk.join(b, kept["id"], 0, tk.tokens(kept)[0]) as zero:
            # The process where nobody sits archives too: the left table, not this one.
            helpers.wait_for(
                lambda: a.get(f"/api/tables/{left['id']}").json()["status"] == "archived",
                what="the table nobody is at archived",
            )
            for _ in range(3):
                zero.ping()
                assert a.get(f"/api/tables/{kept['id']}").json()["status"] == "playing"
            assert zero.state is not None and zero.state["status"] == "playing"


def test_processes_starting_at_once_on_a_new_database_create_it_once(postgres_url: str) -> None:
    """`serve --workers 3` on an empty database: every process prepares the schema at
    the same moment, and none of them fails for another's half-made tables."""
    from concurrent.futures import ThreadPoolExecutor

    from tavernkeep.server.storage import SCHEMA, Storage

    def start(_: int) -> int:
        storage = Storage(postgres_url)
        try:
            return storage.count_open()
        finally:
            storage.close()

    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(start, range(4))) == [0, 0, 0, 0]
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    from tavernkeep.server.storage import normalise_url

    engine = create_engine(normalise_url(postgres_url), poolclass=NullPool)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT value FROM meta")).scalars().all() == [str(SCHEMA)]
    engine.dispose()


def test_who_is_here_is_said_again_after_the_database_missed_it(
    pair: tuple[Any, Any], tk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy.exc import OperationalError

    a, b = pair
    storage = b.app.state.tavern.storage
    settle = storage.settle
    failed: list[int] = []

    def once_lost(present: Any, released: Any) -> None:
        if not failed:
            failed.append(1)
            raise OperationalError("INSERT", {}, Exception("the database restarted"))
        settle(present, released)

    monkeypatch.setattr(storage, "settle", once_lost)
    data = tk.create(a, seats=["human", "human", "bot:random"], options=SHORT, seed=6)
    tid, tokens = data["id"], tk.tokens(data)
    with tk.join(a, tid, 0, tokens[0]) as zero, tk.join(b, tid, 1, tokens[1]):
        seen = zero.until(lambda m: m["type"] == "seats" and m["seats"][1]["connected"])
        assert seen["seats"][1]["connected"]
    assert failed == [1]
