"""Passing on a kind of decision until one's turn (issue 39, item 3): a person with a
Modifier they will not play stops clicking "Pass" round after round. The server passes for
them after the same pause as for a seat with nothing to play, asks them again from their
turn on, and tells nobody else that they chose to."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.server import app as server_app
from tavernkeep.server.app import create_app

SEATS = ["human", "bot:random", "bot:random"]


def until_asked(me: Any, kind: str, choose: random.Random, limit: int = 3000) -> dict[str, Any]:
    """Play seat 0 at random until it is asked a decision of `kind` with a choice."""
    for _ in range(limit):
        st = me.until_state(lambda s: s["legal"] or s["result"] is not None, timeout=30)
        assert st["result"] is None, "the game ended first"
        if st["decision"] == kind and len(st["legal"]) > 1:
            return st
        me.act(choose.choice(st["legal"])["action"], st["version"])
        me.until_state(lambda s, v=st["version"]: s["version"] > v, timeout=30)
    raise AssertionError(f"never asked a '{kind}' decision with a choice")


@pytest.mark.parametrize("seed", [3, 8])
def test_a_person_passes_on_modifiers_until_their_turn(
    sqlite_url: str, tk: Any, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    monkeypatch.setattr(server_app, "RATE_LIMIT", 10_000)
    choose = random.Random(seed)
    with TestClient(create_app(sqlite_url, bot_delay=0.0, pass_delay=0.01)) as client:
        data = tk.create(client, game="here-to-slay", seats=SEATS, seed=seed)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as me, tk.join(client, tid) as watcher:
            assert me.welcome is not None
            assert me.welcome["table"]["reactions"] == {
                "modifier": "Modifiers",
                "challenge": "Challenges",
            }
            asked = until_asked(me, "modifier", choose)
            version = asked["version"]
            watcher.settle()
            seen_by_watcher = len(watcher.messages)
            me.send({"type": "pass_on", "kind": "modifier"})
            told = me.until_state(lambda s: s["passing_on"] == "modifier")
            assert told["passing"] and not told["legal"], "passed for, not asked"
            passed = me.until_state(lambda s: s["version"] > version)
            assert passed["version"] == version + 1
            watcher.until_state(lambda s: s["version"] > version)
            toggled = watcher.messages[seen_by_watcher:]
            assert [m["type"] for m in toggled if m["type"] not in ("events", "state")] == [], (
                "the others are told nothing when a person chooses to pass on"
            )
            # Until their turn, no Modifier window asks them; their turn clears it.
            while True:
                st = me.until_state(
                    lambda s: s["legal"] or s["result"] is not None or not s["passing_on"],
                    timeout=30,
                )
                if st["result"] is not None:
                    break
                assert st["decision"] != "modifier" or not st["legal"]
                if not st["passing_on"]:
                    assert st["decision"] not in ("modifier", "challenge"), st["decision"]
                    break
                me.act(choose.choice(st["legal"])["action"], st["version"])
                me.until_state(lambda s, v=st["version"]: s["version"] > v, timeout=30)
            # Nobody else was told: no frame to the watcher names it, nor came for it.
            watcher.settle()
            assert all("passing_on" not in raw for raw in watcher.raw)
            assert "pass_on" not in str(client.get(f"/api/tables/{tid}").json())
            # A kind the game has not, or a spectator, is one line and changes nothing.
            me.send({"type": "pass_on", "kind": "turn"})
            error = me.until(lambda m: m["type"] == "error")["message"]
            assert error == "no such kind of decision to pass on (kinds: modifier, challenge)"
            watcher.send({"type": "pass_on", "kind": "modifier"})
            assert watcher.until(lambda m: m["type"] == "error")["message"] == (
                "a spectator has no decisions to pass on"
            )
