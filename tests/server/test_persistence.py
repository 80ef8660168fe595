"""Tables live in storage: a new app on the same database carries on exactly.

Each test runs on SQLite and, when TAVERNKEEP_TEST_POSTGRES_URL is set, on PostgreSQL.
A real SIGKILL of a `tavernkeep serve` process is in test_process.py.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from tavernkeep.engine.records import replay
from tavernkeep.games import get_game
from tavernkeep.server.app import create_app
from tavernkeep.server.storage import Append, Storage, normalise_url

SHORT = {"round_limit": 2}


def test_a_new_app_resumes_a_table_at_the_same_version_and_view(
    db_url: str, tk: Any, helpers: Any
) -> None:
    first = TestClient(create_app(db_url, bot_delay=0.0))
    with first as client:
        data = tk.create(
            client,
            seats=["human", "bot:heuristic", "human"],
            options={"round_limit": 3},
            seed=2024,
        )
        tid, tokens = data["id"], tk.tokens(data)
        with (
            tk.join(client, tid, 0, tokens[0]) as zero,
            tk.join(client, tid, 2, tokens[2]) as two,
            tk.join(client, tid) as watcher,
        ):
            last = tk.play_to_end({0: zero, 2: two}, stop_after=4)
            assert last["result"] is None and last["version"] >= 4
            watcher.until_state(lambda s: s["version"] == last["version"])
            for sock in (zero, two, watcher):
                sock.settle()
            before = {
                sock.seat: (sock.state, sock.welcome["log"] + sock.events)
                for sock in (zero, two, watcher)
            }
            summary = client.get(f"/api/tables/{tid}").json()
            committed = helpers.stored_actions(db_url, tid)
            assert len(committed) == last["version"]

            # A second server on the same database, while the first has done no shutdown
            # work at all: what it knows is only what was committed.
            with TestClient(create_app(db_url, bot_delay=0.0)) as restarted:
                after = restarted.get(f"/api/tables/{tid}").json()
                assert after["actions"] == summary["actions"] == last["version"]
                assert after["status"] == "playing"
                assert [t["id"] for t in restarted.get("/api/tables").json()] == [tid]
                for seat, token in ((0, tokens[0]), (2, tokens[2]), (None, None)):
                    state, log = before[seat]
                    with tk.join(restarted, tid, seat, token) as sock:
                        assert sock.welcome["log"] == log
                        assert sock.state["version"] == state["version"]
                        assert sock.state["view"] == state["view"]
                        assert sock.state["actor"] == state["actor"]
                        assert sock.state["legal"] == state["legal"]
                        assert sock.state["result"] is None

    # And play on to the end on a third, after a clean shutdown of both.
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid, 2, tokens[2]) as two:
            assert zero.state["version"] == last["version"]
            final = tk.play_to_end({0: zero, 2: two})
        record_text = client.get(f"/api/tables/{tid}/record").text
    stored = tk_stored(db_url, tid)
    assert stored.status == "finished"
    assert stored.record.actions[: len(committed)] == committed
    game = get_game("hack-and-slash")
    assert game.result(replay(game, stored.record)).to_json() == final["result"]
    assert '"result"' in record_text


def tk_stored(url: str, table_id: str) -> Any:
    storage = Storage(url)
    try:
        stored = storage.load(table_id)
        assert stored is not None
        return stored
    finally:
        storage.close()


def test_bots_only_tables_play_to_the_end_after_a_restart(
    db_url: str, tk: Any, helpers: Any
) -> None:
    # Slow bots, so the first server stops mid-game.
    with TestClient(create_app(db_url, bot_delay=0.03)) as client:
        ids = [
            tk.create(
                client,
                seats=["bot:random", "bot:heuristic", "bot:random"],
                options={"round_limit": 3},
                seed=seed,
            )["id"]
            for seed in (1, 2)
        ]
        helpers.wait_for(
            lambda: all(len(helpers.stored_actions(db_url, t)) >= 3 for t in ids),
            what="some bot actions",
        )
    played = {t: helpers.stored_actions(db_url, t) for t in ids}
    assert all(tk_stored(db_url, t).status == "playing" for t in ids), "finished too soon"

    # The restarted server replays nothing until asked; a spectator's page (or the lobby's
    # link) asking for a table brings it back, and its bots play on to the end.
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        assert client.app.state.tavern.rooms == {}
        assert {t["id"] for t in client.get("/api/tables").json()} == set(ids)
        assert client.app.state.tavern.rooms == {}, "listing the tables replayed them"
        for t in ids:
            with tk.join(client, t) as watcher:
                assert watcher.state["result"] is None
        for t in ids:
            helpers.wait_for(
                lambda t=t: tk_stored(db_url, t).status == "finished",
                what=f"table {t} to finish after the restart",
            )
    game = get_game("hack-and-slash")
    for t in ids:
        stored = tk_stored(db_url, t)
        assert stored.record.actions[: len(played[t])] == played[t]
        assert len(stored.record.actions) > len(played[t])
        result = game.result(replay(game, stored.record))
        assert result is not None
        assert result.to_json() == stored.record.result
        # The stored result (the tables row) agrees with the replay.
        assert stored.status == "finished"


def test_a_restarted_bots_only_table_plays_the_same_game_as_an_uninterrupted_one(
    tmp_path: Any, tk: Any, helpers: Any
) -> None:
    seats = ["bot:random", "bot:heuristic", "bot:random"]
    options = {"round_limit": 4}
    straight = f"sqlite:///{tmp_path / 'straight.db'}"
    with TestClient(create_app(straight, bot_delay=0.0)) as client:
        table = tk.create(client, seats=seats, options=options, seed=77)["id"]
        helpers.wait_for(lambda: tk_stored(straight, table).status == "finished")
    uninterrupted = tk_stored(straight, table).record.actions

    broken = f"sqlite:///{tmp_path / 'broken.db'}"
    with TestClient(create_app(broken, bot_delay=0.03)) as client:
        table = tk.create(client, seats=seats, options=options, seed=77)["id"]
        helpers.wait_for(lambda: len(helpers.stored_actions(broken, table)) >= 3)
    assert tk_stored(broken, table).status == "playing", "finished before the restart"
    with TestClient(create_app(broken, bot_delay=0.0)) as client:
        with tk.join(client, table) as watcher:
            assert watcher.state["result"] is None
        helpers.wait_for(lambda: tk_stored(broken, table).status == "finished")
    # The bots' choices depend on the table's history only, never on the server's memory.
    assert tk_stored(broken, table).record.actions == uninterrupted


def test_an_action_is_in_storage_before_anyone_hears_of_it(
    db_url: str, tk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A slow commit widens the window in which a server that told first would be caught.
    slow = Storage.append_actions

    def append_actions(self: Storage, batch: Sequence[Append]) -> list[Any]:
        time.sleep(0.02)
        return slow(self, batch)

    monkeypatch.setattr(Storage, "append_actions", append_actions)
    reader = Storage(db_url)
    try:
        with TestClient(create_app(db_url, bot_delay=0.0)) as client:
            data = tk.create(client, seats=["human", "bot:random", "human"], options=SHORT, seed=77)
            tid, tokens = data["id"], tk.tokens(data)
            checked = 0

            def committed() -> int:
                stored = reader.load(tid)
                assert stored is not None
                return len(stored.record.actions)

            class Checking:
                """Wraps a socket: on every events/state message for version v, storage
                must already hold v actions."""

                def __init__(self, sock: Any) -> None:
                    self.sock = sock
                    original = sock.recv

                    def recv(timeout: float = 10.0) -> dict[str, Any]:
                        nonlocal checked
                        msg = original(timeout)
                        if msg["type"] in ("events", "state"):
                            assert committed() >= msg["version"], msg["type"]
                            checked += 1
                        return msg

                    sock.recv = recv

            with (
                tk.join(client, tid, 0, tokens[0]) as zero,
                tk.join(client, tid, 2, tokens[2]) as two,
                tk.join(client, tid) as watcher,
            ):
                for sock in (zero, two, watcher):
                    Checking(sock)
                final = tk.play_to_end({0: zero, 2: two}, watchers=(watcher,))
            assert checked > 3 * final["version"]
            assert committed() == final["version"]
    finally:
        reader.close()


def test_a_finished_table_stays_finished_after_a_restart(db_url: str, tk: Any) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
        tid, token = data["id"], tk.tokens(data)[0]
        with tk.join(client, tid, 0, token) as zero:
            final = tk.play_to_end({0: zero})
        record = client.get(f"/api/tables/{tid}/record").text
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        assert client.get("/api/tables").json() == []
        summary = client.get(f"/api/tables/{tid}").json()
        assert summary["status"] == "finished"
        assert summary["actions"] == final["version"]
        assert client.get(f"/api/tables/{tid}/record").text == record
        with tk.join(client, tid, 0, token) as zero:
            assert zero.state["result"] == final["result"]
            assert zero.state["view"] == final["view"]


def test_the_last_action_and_the_end_are_committed_together(
    db_url: str, tk: Any, helpers: Any
) -> None:
    """No moment exists in which storage holds a game's last action and an open table:
    a server killed there would list a finished game as open."""
    seen: list[tuple[int, str]] = []
    slow = Storage.append_actions

    def append_actions(self: Storage, batch: Sequence[Append]) -> list[Any]:
        met = slow(self, batch)
        for entry in batch:
            stored = self.load(entry.table_id)
            assert stored is not None
            seen.append((len(stored.record.actions), stored.status))
        return met

    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
        tid, token = data["id"], tk.tokens(data)[0]
        try:
            Storage.append_actions = append_actions  # type: ignore[method-assign]
            with tk.join(client, tid, 0, token) as zero:
                final = tk.play_to_end({0: zero})
        finally:
            Storage.append_actions = slow  # type: ignore[method-assign]
    assert seen[-1] == (final["version"], "finished")
    assert all(status == "playing" for _, status in seen[:-1])


def test_a_table_over_in_its_actions_but_open_in_storage_is_finished_when_asked_for(
    db_url: str, tk: Any
) -> None:
    """A database written by an older server, killed after committing the last action
    but before marking the table finished: the table is marked when next asked for."""
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
        tid, token = data["id"], tk.tokens(data)[0]
        with tk.join(client, tid, 0, token) as zero:
            final = tk.play_to_end({0: zero})
    engine = sa.create_engine(normalise_url(db_url), poolclass=sa.pool.NullPool)
    with engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE tables SET status = 'playing', result = NULL WHERE id = :id"),
            {"id": tid},
        )
    engine.dispose()
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        with tk.join(client, tid) as watcher:
            assert watcher.state["result"] == final["result"]
        assert client.get(f"/api/tables/{tid}").json()["status"] == "finished"
        assert client.get("/api/tables").json() == []
        stored = tk_stored(db_url, tid)
        assert stored.status == "finished"
        assert stored.record.result == final["result"]


def test_one_unreplayable_table_is_not_listed_and_answers_in_one_line(
    db_url: str, tk: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        good = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
        good_token = tk.tokens(good)[0]
        bad = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
    # As if the standard pack had been edited since `bad` was created.
    engine = sa.create_engine(normalise_url(db_url), poolclass=sa.pool.NullPool)
    with engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE tables SET pack_digest = 'edited0000000000' WHERE id = :id"),
            {"id": bad["id"]},
        )
    engine.dispose()
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        assert [t["id"] for t in client.get("/api/tables").json()] == [good["id"]]
        assert client.get(f"/api/tables/{good['id']}").json()["status"] == "playing"
        with tk.join(client, good["id"], 0, good_token) as zero:
            assert zero.state["legal"]
        # The broken table answers with one line, over HTTP and the websocket.
        response = client.get(f"/api/tables/{bad['id']}")
        assert 400 <= response.status_code < 500
        assert "pack" in response.json()["error"]
        assert "\n" not in response.json()["error"]
        with tk.connect(client, bad["id"]) as sock:
            code, seen = sock.until_closed()
        assert code == 1008 and [m["type"] for m in seen] == ["error"]
        assert bad["id"] in caplog.text, "the table set aside is reported"
    # It is left as it was in storage.
    stored = tk_stored(db_url, bad["id"])
    assert stored.status == "playing"
    assert stored.record.pack_digest == "edited0000000000"


def test_a_table_summary_is_the_same_after_a_restart(db_url: str, tk: Any) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
        before = client.get(f"/api/tables/{data['id']}").json()
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        after = client.get(f"/api/tables/{data['id']}").json()
    assert after == before
