"""Replays in the browser (issue 25, item 4), as the server serves them: a step of a
record as a seat saw it, the log up to it, what the step was, and at the end the result
the record holds. What is not a record, or not a step of it, is a one-line 400."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.agents import make_bot
from tavernkeep.engine.match import Match
from tavernkeep.games import get_game
from tavernkeep.server import replays
from tavernkeep.server.app import create_app


def finished(name: str, players: int, seed: int) -> dict[str, Any]:
    game = get_game(name)
    match = Match.start(game, [make_bot("bot:random", game)] * players, seed=seed)
    while game.actor(match.state) is not None:
        match.step()
    return dict(json.loads(match.record.to_json()))


@pytest.fixture
def client(sqlite_url: str) -> Any:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        yield client


@pytest.mark.parametrize(
    ("name", "players"),
    [
        ("hack-and-slash", 3),
        ("here-to-slay", 3),
        ("crits-and-tricks", 3),
        ("side-quest", 2),
        ("rage", 1),
    ],
)
def test_a_record_steps_to_its_result_and_back(client: Any, name: str, players: int) -> None:
    record = finished(name, players, seed=6)
    total = len(record["actions"])
    first = client.post("/api/replay", json={"record": record, "seat": 0, "step": 0}).json()
    assert first["steps"] == total and first["step"] == 0 and first["log"] == []
    assert first["result"] is None and first["label"] is None and first["turns"][0] == 0
    last = client.post("/api/replay", json={"record": record, "seat": 0, "step": total}).json()
    assert last["result"] == record["result"], "the recorded result, at the end"
    assert last["actor"] is None and last["headline"]
    middle = client.post("/api/replay", json={"record": record, "seat": 0, "step": total // 2})
    frame = middle.json()
    assert frame["label"] and frame["by"] in range(players)
    assert len(first["log"]) <= len(frame["log"]) <= len(last["log"])
    # Back again: the same step is the same frame.
    again = client.post("/api/replay", json={"record": record, "seat": 0, "step": total // 2})
    assert again.json() == frame


def test_every_hand_may_be_seen_once_the_game_is_over(client: Any) -> None:
    record = finished("here-to-slay", 3, seed=6)
    step = len(record["actions"]) // 2
    views = [
        client.post("/api/replay", json={"record": record, "seat": seat, "step": step}).json()
        for seat in (0, 1, None)
    ]
    assert views[0]["view"] != views[1]["view"], "each seat's own hand"
    assert views[2]["seat"] is None


def test_a_record_sent_as_its_text_keeps_a_seed_no_javascript_number_holds(
    client: Any,
) -> None:
    """The page sends the record's text as written (issue 39): a 19-digit seed read into a
    JavaScript number comes back as another seed, and the record as another game."""
    seed = 7_404_522_418_911_337_001
    record = finished("hack-and-slash", 3, seed=seed)
    text = json.dumps(record)
    total = len(record["actions"])
    last = client.post("/api/replay", json={"record": text, "seat": 0, "step": total})
    assert last.status_code == 200, last.text
    assert last.json()["result"] == record["result"]
    rounded = text.replace(str(seed), str(int(float(seed))))  # what JSON.parse would make
    assert rounded != text
    refused = client.post("/api/replay", json={"record": rounded, "seat": 0, "step": total})
    assert refused.status_code == 400
    assert "does not replay" in refused.json()["error"]
    broken = client.post("/api/replay", json={"record": "{not json", "step": 0})
    assert broken.status_code == 400 and "\n" not in broken.json()["error"]


def test_what_is_not_a_record_or_not_a_step_is_one_line(client: Any) -> None:
    record = finished("hack-and-slash", 3, seed=6)
    total = len(record["actions"])
    cases: list[tuple[dict[str, Any], str]] = [
        ({"record": {**record, "game": "chess"}, "step": 0}, "a game this server does not have"),
        ({"record": record, "step": total + 1}, f"step must be from 0 to {total}"),
        ({"record": record, "seat": 7, "step": 0}, "seat must be a seat of the game (0 to 2)"),
        (
            {"record": {**record, "actions": ["quest:9"] + record["actions"]}, "step": 1},
            "does not replay",
        ),
        ({"record": {**record, "pack": "/etc/passwd"}, "step": 0}, "may not choose a file"),
        ({"record": {"game": "hack-and-slash"}, "step": 0}, "record"),
    ]
    for body, said in cases:
        answer = client.post("/api/replay", json=body)
        assert answer.status_code == 400, (body.get("step"), answer.text)
        message = answer.json()["error"]
        assert said in message and "\n" not in message, message
    too_long = {**record, "actions": ["quest:1"] * (replays.MAX_ACTIONS + 1)}
    answer = client.post("/api/replay", json={"record": too_long, "step": 0})
    assert answer.status_code in (400, 413)


def test_a_stranger_is_held_to_a_rate_of_steps(client: Any) -> None:
    record = finished("rage", 1, seed=6)
    served = 0
    for _ in range(20 * replays.FRAMES_BURST):
        answer = client.post("/api/replay", json={"record": record, "step": 0})
        if answer.status_code == 429:
            assert answer.json()["error"].startswith("too many replay steps")
            break
        assert answer.status_code == 200
        served += 1
    else:
        raise AssertionError("no bound on one address's replay steps")
    assert served >= replays.FRAMES_BURST, "a person stepping quickly is served"
