"""A search bot at a web table: it thinks off the event loop and still plays the game a
restarted server would replay."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tavernkeep.server.app import create_app

SEATS = ["bot:mcts:30", "bot:random", "bot:mcts:20:heuristic"]


def play_table(db: Path) -> dict[str, Any]:
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0)) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
        assert "bot:mcts:300ms" in games["hack-and-slash"]["bots"]
        response = client.post(
            "/api/tables",
            json={
                "game": "hack-and-slash",
                "seats": SEATS,
                "seed": 12,
                "options": {"round_limit": 2},
            },
        )
        assert response.status_code == 201, response.text
        table = response.json()["id"]
        deadline = time.monotonic() + 60
        while True:
            # The lobby answers while the bots search: the event loop is not blocked.
            summary: dict[str, Any] = client.get(f"/api/tables/{table}").json()
            if summary["status"] == "finished":
                record: dict[str, Any] = client.get(f"/api/tables/{table}/record").json()
                return record
            assert time.monotonic() < deadline, "the search bots never finished the game"
            time.sleep(0.05)


def test_search_bots_finish_a_web_table_and_replay_alike(tmp_path: Path) -> None:
    first = play_table(tmp_path / "one.db")
    second = play_table(tmp_path / "two.db")
    assert first["seats"] == SEATS
    assert first["result"] is not None
    assert len(first["actions"]) > 6
    assert first["actions"] == second["actions"]
