"""Taking a decision back (issue 24, item 7), under Board Game Arena's rule: a person may
take back their own latest decisions while the decision is still theirs, if no die was
rolled and no hidden card was shown to them. Everyone reads who took back what; the
record keeps only the actions that stand, so a replay is exact."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.engine.records import GameRecord, replay
from tavernkeep.games import get_game
from tavernkeep.server import app as server_app
from tavernkeep.server.app import create_app

RAGE = ["human"]


def test_a_step_that_showed_nothing_is_taken_back_and_the_record_forgets_it(
    db_url: str, tk: Any, helpers: Any
) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, game="rage", seats=RAGE, seed=11, device=[0])
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as me, tk.join(client, tid) as watcher:
            before = me.state
            assert before is not None and "take_back" not in before
            offered = [entry["action"] for entry in before["legal"]]
            assert "step:0" in offered
            label = next(e["label"] for e in before["legal"] if e["action"] == "step:0")
            me.act("step:0", before["version"])
            moved = me.until_state(lambda s: s["version"] == 1)
            assert moved["take_back"] == label, "offered to the one who decided"
            assert "take_back" not in watcher.until_state(lambda s: s["version"] == 1)
            me.send({"type": "take_back"})
            for sock in (me, watcher):
                assert sock.until(lambda m: m["type"] == "undone")["version"] == 0
                welcome = sock.expect("welcome")
                assert welcome["chat"][-1]["text"] == f"Player 1 took back: {label}"
                back = sock.expect("state")
                assert back["version"] == 0
            assert me.state is not None
            assert me.state["view"] == before["view"] and me.state["legal"] == before["legal"]
            assert helpers.stored_actions(db_url, tid) == []
            # Nothing more to take back; the game plays on from where it was.
            me.send({"type": "take_back"})
            refused = me.until(lambda m: m["type"] == "error")["message"]
            assert refused.startswith("nothing to take back")
            me.act("step:1", 0)
            me.until_state(lambda s: s["version"] == 1)
        assert helpers.stored_actions(db_url, tid) == ["step:1"]
    # The table as stored replays: it holds only what stands.
    with TestClient(create_app(db_url, bot_delay=0.0)) as client, tk.join(client, tid) as w:
        assert w.state is not None and w.state["version"] == 1


def test_a_decision_that_rolled_dice_stands(sqlite_url: str, tk: Any) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        seats = ["human", "bot:random", "bot:random"]
        data = tk.create(client, seats=seats, seed=4, options={"round_limit": 2})
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as me, tk.join(client, tid) as watcher:
            assert me.state is not None
            quest = next(e["action"] for e in me.state["legal"] if e["action"].startswith("quest"))
            me.act(quest, me.state["version"])
            after = me.until_state(lambda s: s["version"] >= 1)
            assert "take_back" not in after
            me.send({"type": "take_back"})
            assert me.until(lambda m: m["type"] == "error")["message"].startswith(
                "nothing to take back"
            )
            watcher.send({"type": "take_back"})
            told = watcher.until(lambda m: m["type"] == "error")["message"]
            assert told == "a spectator has no decision to take back"
            assert not [m for m in watcher.messages if m["type"] == "undone"]


def test_a_taken_back_game_replays_to_its_record(
    sqlite_url: str, tk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Steps taken back and taken again: the finished record replays to its result."""
    monkeypatch.setattr(server_app, "RATE_LIMIT", 10_000)  # a test plays faster than a person
    game = get_game("rage")
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        data = tk.create(client, game="rage", seats=RAGE, seed=11, device=[0])
        tid, tokens = data["id"], tk.tokens(data)
        taken = 0
        choose = random.Random(5)
        with tk.join(client, tid, 0, tokens[0]) as me:
            for _ in range(2000):
                st = me.state
                assert st is not None
                if st["result"] is not None:
                    break
                if st.get("take_back") and taken < 5:
                    me.send({"type": "take_back"})
                    me.until(lambda m: m["type"] == "undone")
                    me.expect("welcome")
                    me.expect("state")
                    taken += 1
                    continue
                if not st["legal"]:
                    me.until_state(lambda s, v=st["version"]: s["version"] > v)
                    continue
                steps = [e for e in st["legal"] if e["action"].startswith("step")]
                picked = steps[0] if steps and taken < 5 else choose.choice(st["legal"])
                me.act(picked["action"], st["version"])
                me.until_state(lambda s, v=st["version"]: s["version"] != v)
            assert taken == 5
        record = GameRecord.model_validate_json(client.get(f"/api/tables/{tid}/record").text)
    final = replay(game, record)
    assert game.result(final) is not None
    assert game.result(final).to_json() == record.result


def test_a_fault_in_the_judgement_never_refuses_a_choice(
    sqlite_url: str, tk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The take-back judgement runs around every person's decision: if it fails, the
    decision stands and is played (issue 38: a Here to Slay table refused every card)."""
    rage = get_game("rage")

    def broken(state: Any, action: Any, after: Any) -> bool:
        raise IndexError("a deal the seat could tell apart")

    monkeypatch.setattr(rage, "reveals", broken)
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        data = tk.create(client, game="rage", seats=RAGE, seed=11, device=[0])
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as me:
            me.act("step:0", 0)
            moved = me.until_state(lambda s: s["version"] == 1)
            assert "take_back" not in moved
