"""The tutor at a table (issue 25, item 3): a person asks for advice on their own decision
and their page alone is told each choice's chance to win, worked out by the search from
their seat's view. A table may refuse it (by default one with clocks does)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tavernkeep.server.app import create_app

SEATS = ["human", "bot:random", "human"]
SHORT = {"round_limit": 2}


def test_a_person_is_advised_on_their_own_decision_and_nobody_else_is_told(
    sqlite_url: str, tk: Any
) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT, seed=8)
        tid, tokens = data["id"], tk.tokens(data)
        with (
            tk.join(client, tid, 0, tokens[0]) as me,
            tk.join(client, tid, 2, tokens[2]) as other,
            tk.join(client, tid) as watcher,
        ):
            assert me.state is not None and me.state["actor"] == 0
            legal = {entry["action"] for entry in me.state["legal"]}
            me.send({"type": "advice"})
            told = me.until(lambda m: m["type"] == "advice", timeout=30)
            assert told["version"] == me.state["version"]
            options = told["options"]
            assert {o["action"] for o in options} == legal
            assert all(0.0 <= o["win"] <= 1.0 for o in options)
            assert [o["win"] for o in options] == sorted((o["win"] for o in options), reverse=True)
            quests = [o for o in options if o["action"].startswith("quest")]
            assert quests and all("% to complete it" in o["reason"] for o in quests)
            # Asked again for the same decision: the same answer, not a second search.
            me.send({"type": "advice"})
            assert me.until(lambda m: m["type"] == "advice", timeout=5) == told
            # Not theirs to ask: another seat's decision, or a spectator.
            other.send({"type": "advice"})
            refused = other.until(lambda m: m["type"] == "error")["message"]
            assert refused == "advice is for your own decision, while it is yours"
            watcher.send({"type": "advice"})
            refused = watcher.until(lambda m: m["type"] == "error")["message"]
            assert refused == "a spectator has no decision to be advised on"
            for sock in (other, watcher):
                sock.settle()
                assert not [m for m in sock.messages if m["type"] == "advice"]


def test_a_table_with_clocks_gives_no_advice_unless_its_creator_allowed_it(
    sqlite_url: str, tk: Any
) -> None:
    clock = {"kind": "real_time", "seconds": 600, "increment": 0}
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        for settings, allowed in (
            ({"clock": clock}, False),
            ({"clock": clock, "advice": True}, True),
            ({"advice": False}, False),
        ):
            data = tk.create(client, seats=SEATS, options=SHORT, seed=8, settings=settings)
            tid, tokens = data["id"], tk.tokens(data)
            summary = client.get(f"/api/tables/{tid}").json()
            assert summary["settings"]["advice"] == settings.get("advice")
            with tk.join(client, tid, 0, tokens[0]) as me:
                me.send({"type": "advice"})
                answer = me.until(lambda m: m["type"] in ("advice", "error"), timeout=30)
                if allowed:
                    assert answer["type"] == "advice"
                else:
                    assert answer == {
                        "type": "error",
                        "message": "this table does not allow advice",
                    }


def test_a_served_app_starts_its_search_workers_before_anyone_asks(sqlite_url: str) -> None:
    """`tavernkeep serve` warms the search pool, so that a person's first advice does not
    wait for a worker to start; a test's app starts none until a search is asked for."""
    import multiprocessing
    import time

    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        assert not client.app.state.tavern.searches.started  # type: ignore[attr-defined]
    before = set(multiprocessing.active_children())
    with TestClient(create_app(sqlite_url, bot_delay=0.0, warm_search=True)) as client:
        searches = client.app.state.tavern.searches  # type: ignore[attr-defined]
        assert searches.started
        deadline = time.monotonic() + 30
        while len(set(multiprocessing.active_children()) - before) < searches.workers:
            assert time.monotonic() < deadline, "no search worker started"
            time.sleep(0.05)
