"""The designer's workbench (issue 45, items 1, 2 and 6): a game's packs as forms checked
field by field, saved, downloaded as the TOML the command line reads and uploaded; a
comparison played in a worker process of lower priority, its state kept in the database
(progress, result, cancel); and the door: the designer key, or this machine alone, with
every change checked for its origin. A stranger without the key reads no pack and
starts no comparison.
"""

from __future__ import annotations

import os
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from tavernkeep.games import get_game
from tavernkeep.server.app import create_app
from tavernkeep.server.designer import LOCAL_ONLY, NEEDS_KEY
from tavernkeep.server.storage import Storage
from tavernkeep.server.storage.schema import SCHEMA, meta, workbench_runs
from tavernkeep.server.workbench_compare import NICE
from tavernkeep.server.workbench_runs import STOPPED

HERE = "http://127.0.0.1:8000"
KEY = "a designer key of some length"
GAME = "/api/workbench/games/hack-and-slash"
SEATS = ["bot:heuristic", "bot:heuristic", "bot:random"]


def client(url: str, address: str = "127.0.0.1", base: str = HERE, **app: Any) -> TestClient:
    return TestClient(
        create_app(url, **app), base_url=base, client=(address, 50000), headers={"Origin": base}
    )


@pytest.fixture
def bench(sqlite_url: str) -> Iterator[TestClient]:
    with client(sqlite_url) as c:
        yield c


def standard(c: TestClient) -> dict[str, Any]:
    found = c.get(f"{GAME}/packs/standard")
    assert found.status_code == 200, found.text
    return dict(found.json()["data"])


def changed(c: TestClient, reward: Any = 5) -> dict[str, Any]:
    data = standard(c)
    data["quest"][0]["reward"] = reward  # Rats in the Cellar, 1 in the standard pack
    return data


def wait_for(c: TestClient, run_id: str, states: set[str], seconds: float = 90.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    seen: dict[str, Any] = {}
    while time.monotonic() < deadline:
        seen = c.get(f"/api/workbench/runs/{run_id}").json()
        if seen["state"] in states:
            return seen
        time.sleep(0.1)
    raise AssertionError(f"the comparison stayed {seen.get('state')}: {seen}")


def run_body(data: dict[str, Any], games: int = 3, seats: list[str] = SEATS) -> dict[str, Any]:
    return {"game": "hack-and-slash", "name": "mine", "data": data, "seats": seats,
            "games": games, "seed": 7}


def start(c: TestClient, games: int) -> dict[str, Any]:
    started = c.post("/api/workbench/runs", json=run_body(changed(c), games))
    assert started.status_code == 202, started.text
    return dict(started.json())


# -- packs as forms ------------------------------------------------------------------------


def test_a_pack_is_its_models_schema_and_each_mistake_is_placed_at_its_field(
    bench: TestClient,
) -> None:
    game = bench.get(GAME).json()
    quest = game["schema"]["$defs"]["QuestCard"]["properties"]
    assert quest["reward"]["maximum"] == 50 and quest["goal"]["type"] == "integer"
    assert game["packs"] == ["standard"] and game["saved"] == []

    pack = bench.get(f"{GAME}/packs/standard").json()
    assert pack["check"]["valid"] and pack["changes"] == []

    data = changed(bench, 99)
    data["quest"][1]["goal"] = "high"
    data["quest"][3]["name"] = data["quest"][4]["name"]
    checked = bench.post(f"{GAME}/check", json={"data": data}).json()
    verdict = checked["check"]
    assert not verdict["valid"]
    assert verdict["error"].startswith("this pack: quest #1 'Rats in the Cellar': field 'reward'")
    assert {(tuple(e["path"]), e["message"]) for e in verdict["errors"]} == {
        (("quest", 0, "reward"), "Input should be less than or equal to 50"),
        (("quest", 1, "goal"), "Input should be a valid integer"),
    }
    # Once the fields are right, the pack's own check (two cards of one name) is placed at
    # the name it names.
    data = changed(bench, 3)
    data["quest"][3]["name"] = data["quest"][4]["name"]
    verdict = bench.post(f"{GAME}/check", json={"data": data}).json()["check"]
    assert verdict["errors"] == [
        {"path": ["quest", 4, "name"], "message": "another card has that name"}
    ]

    checked = bench.post(f"{GAME}/check", json={"data": changed(bench, 3)}).json()
    assert checked["check"]["valid"]
    assert [c["text"] for c in checked["changes"]] == ["quest[Rats in the Cellar].reward: 1 → 3"]


def test_a_pack_is_saved_downloaded_and_uploaded_as_the_toml_the_command_line_reads(
    bench: TestClient, tmp_path: Path
) -> None:
    saved = bench.put(f"{GAME}/packs/my rats", json={"data": changed(bench, 5)})
    assert saved.status_code == 200, saved.text
    assert [p["name"] for p in bench.get(GAME).json()["saved"]] == ["my rats"]

    download = bench.get(f"{GAME}/packs/my rats/toml")
    assert download.status_code == 200
    assert 'filename="hack-and-slash-my-rats.toml"' in download.headers["content-disposition"]
    file = tmp_path / "mine.toml"
    file.write_text(download.text)
    loaded = get_game("hack-and-slash").load_pack(str(file))  # as `--pack FILE` reads it
    assert loaded.content.quest[0].reward == 5

    text = download.text.replace("reward = 5", "reward = 7", 1)
    uploaded = bench.post(f"{GAME}/upload", json={"name": "uploaded", "toml": text})
    assert uploaded.status_code == 200, uploaded.text
    pack = bench.get(f"{GAME}/packs/uploaded").json()
    assert pack["base"] == "standard" and pack["data"]["quest"][0]["reward"] == 7
    assert [c["text"] for c in pack["changes"]] == ["quest[Rats in the Cellar].reward: 1 → 7"]

    assert bench.delete(f"{GAME}/packs/uploaded").status_code == 200
    assert [p["name"] for p in bench.get(GAME).json()["saved"]] == ["my rats"]


def test_bad_input_is_one_line_and_changes_nothing(bench: TestClient) -> None:
    bench.put(f"{GAME}/packs/kept", json={"data": changed(bench, 5)})

    def refused(response: Any, status: int, said: str) -> None:
        assert response.status_code == status, response.text
        message = response.json()["error"]
        assert said in message and "\n" not in message, message

    refused(
        bench.post(f"{GAME}/upload", json={"name": "broken", "toml": "[[quest]\nname = 'x'"}),
        400,
        "broken: not valid TOML",
    )
    wrong_type = changed(bench, "five")
    response = bench.put(f"{GAME}/packs/kept", json={"data": wrong_type})
    refused(response, 400, "field 'reward': Input should be a valid integer")
    assert response.json()["errors"] == [
        {"path": ["quest", 0, "reward"], "message": "Input should be a valid integer"}
    ]
    refused(bench.get("/api/workbench/games/chess"), 400, "unknown game 'chess'")
    refused(bench.put(f"{GAME}/packs/standard", json={"data": changed(bench)}), 400, "own pack")
    refused(bench.put(f"{GAME}/packs/%2Abang", json={"data": changed(bench)}), 400, "a pack's name")
    elsewhere = {"data": changed(bench), "base": "nope"}
    refused(bench.put(f"{GAME}/packs/x", json=elsewhere), 400, "no built-in pack 'nope'")
    refused(bench.get(f"{GAME}/packs/nothing"), 404, "no pack 'nothing'")
    runs = "/api/workbench/runs"
    refused(bench.post(runs, json=run_body(wrong_type)), 400, "Input should be a valid integer")
    people = run_body(changed(bench), seats=["human", *SEATS])
    refused(bench.post(runs, json=people), 400, "seat 'human'")

    # Nothing was kept or started by any of them.
    assert [p["name"] for p in bench.get(GAME).json()["saved"]] == ["kept"]
    assert bench.get(f"{GAME}/packs/kept").json()["data"]["quest"][0]["reward"] == 5
    assert bench.get("/api/workbench/runs?game=hack-and-slash").json() == []


# -- who may use it --------------------------------------------------------------------------


def test_without_a_key_the_workbench_is_this_machines_alone(sqlite_url: str) -> None:
    with client(sqlite_url) as mine:
        mine.put(f"{GAME}/packs/mine", json={"data": changed(mine)})
        assert mine.get("/workbench").status_code == 200
        assert mine.get(f"{GAME}/packs/mine").status_code == 200
        # A page of another site whose name points here (DNS rebinding) names its host;
        # a proxy on this machine says whom it forwards for.
        for headers in ({"Host": "evil.example"}, {"X-Forwarded-For": "203.0.113.9"}):
            refused = mine.get(f"{GAME}/packs/mine", headers=headers)
            assert refused.status_code == 403 and refused.json()["error"] == LOCAL_ONLY
    with client(sqlite_url, address="203.0.113.9", base="http://tables.example") as stranger:
        page = stranger.get("/workbench")
        assert page.status_code == 403 and page.text.strip() == LOCAL_ONLY
        runs = "/api/workbench/runs?game=hack-and-slash"
        for path in (GAME, f"{GAME}/packs/mine", f"{GAME}/packs/mine/toml", runs):
            refused = stranger.get(path)
            assert refused.status_code == 403 and refused.json() == {"error": LOCAL_ONLY}
        started = stranger.post("/api/workbench/runs", json=run_body({}))
        assert started.status_code == 403
        assert stranger.get("/api/workbench/access").json() == {
            "needs_key": False, "open": False, "error": LOCAL_ONLY
        }


def test_with_a_key_a_stranger_reads_no_pack_and_starts_no_comparison(sqlite_url: str) -> None:
    base = "http://tables.example"
    with client(sqlite_url, address="203.0.113.9", base=base, designer_key=KEY) as c:
        assert c.get("/api/workbench/access").json()["needs_key"] is True
        assert c.get("/workbench").status_code == 200  # the page, which asks for the key
        refused = c.get(GAME)
        assert refused.status_code == 401 and refused.json()["error"] == NEEDS_KEY

        assert c.post("/api/workbench/key", json={"key": "a guess"}).status_code == 403
        given = c.post("/api/workbench/key", json={"key": KEY})
        assert given.status_code == 200
        cookie = given.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and KEY not in cookie
        c.put(f"{GAME}/packs/secret", json={"data": changed(c)})
        run = start(c, 3)
        wait_for(c, run["id"], {"done"})
        assert c.get(f"{GAME}/packs/secret").status_code == 200

        data = changed(c)
        c.cookies.clear()  # a stranger: the same address, without the key
        for path in (GAME, f"{GAME}/packs/secret", f"{GAME}/packs/secret/toml",
                     "/api/workbench/runs?game=hack-and-slash", f"/api/workbench/runs/{run['id']}"):
            refused = c.get(path)
            assert refused.status_code == 401, path
            assert "secret" not in refused.text and "reward" not in refused.text
        assert c.post("/api/workbench/runs", json=run_body(data)).status_code == 401
        assert c.put(f"{GAME}/packs/secret", json={"data": standard_data()}).status_code == 401
        assert c.delete(f"{GAME}/packs/secret").status_code == 401
        assert c.post(f"/api/workbench/runs/{run['id']}/cancel").status_code == 401
    # Nothing the stranger sent was kept: one run, and the pack as the designer saved it.
    storage = Storage(sqlite_url)
    try:
        assert len(storage.workbench.runs("hack-and-slash")) == 1
        kept = storage.workbench.pack("hack-and-slash", "secret")
        assert kept is not None and tomllib.loads(kept.toml)["quest"][0]["reward"] == 5
    finally:
        storage.close()


def standard_data() -> dict[str, Any]:
    return tomllib.loads((get_game("hack-and-slash").content_dir / "standard.toml").read_text())


def test_a_change_from_another_sites_page_is_refused(sqlite_url: str) -> None:
    with client(sqlite_url, designer_key=KEY) as c:
        c.post("/api/workbench/key", json={"key": KEY})
        for origin in ({"Origin": "http://evil.example"}, {"Origin": ""}):
            refused = c.put(f"{GAME}/packs/x", json={"data": changed(c)}, headers=origin)
            assert refused.status_code == 403, refused.text
            started = c.post("/api/workbench/runs", headers=origin, json=run_body(changed(c)))
            assert started.status_code == 403
        assert c.get(GAME).json()["saved"] == []
        assert c.get("/api/workbench/runs?game=hack-and-slash").json() == []


# -- what a change does ----------------------------------------------------------------------


def test_a_comparison_is_played_at_a_lower_priority_and_kept_as_it_goes(
    bench: TestClient,
) -> None:
    run = start(bench, 600)
    assert run["state"] == "queued" and run["total"] == 1200
    runs = bench.app.state.workbench_runs  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60
    while run["id"] not in runs.playing and time.monotonic() < deadline:
        time.sleep(0.01)
    worker = runs.playing[run["id"]]
    lower = os.getpriority(os.PRIO_PROCESS, 0) + NICE
    # It lowers its priority first thing once started (a spawned process imports first).
    while os.getpriority(os.PRIO_PROCESS, worker.pid) < lower:
        assert time.monotonic() < deadline, "the comparison plays at the tables' priority"
        time.sleep(0.01)

    partial = wait_for(bench, run["id"], {"running"})
    seen = []
    while partial["state"] == "running":
        if partial["result"] is not None:
            seen.append(partial["result"]["games"])
        time.sleep(0.05)
        partial = bench.get(f"/api/workbench/runs/{run['id']}").json()
    assert partial["state"] == "done", partial
    assert seen and min(seen) < 600, "the result so far was kept before the end"

    # A reload reads the same from storage: the latest comparison, and its whole result.
    listed = bench.get("/api/workbench/runs?game=hack-and-slash").json()
    assert [(r["id"], r["state"], r["done"]) for r in listed] == [(run["id"], "done", 1200)]
    result = bench.get(f"/api/workbench/runs/{run['id']}").json()["result"]
    assert result["games"] == 600 and result["base"] == "standard" and result["changed"] == "mine"
    assert [c["text"] for c in result["changes"]] == ["quest[Rats in the Cellar].reward: 1 → 5"]
    findings = result["findings"]
    share = result["games_changed"] / 600
    assert findings[0].endswith(f"of the 600 games went otherwise ({share:.0%}).")
    assert findings[1].startswith("Seat 1 (bot:heuristic): ") and "points [" in findings[1]
    assert any(f.startswith("Turns a game: ") for f in findings)
    assert any(f.startswith("Rats in the Cellar (quest completed): ") for f in findings)
    charts = result["charts"]
    arms = ("base", "changed")
    assert {(m["seat"], m["arm"]) for m in charts["seats"]} == {
        (f"Seat {n} ({spec})", arm) for n, spec in enumerate(SEATS, 1) for arm in arms
    }
    assert all(m["low"] <= m["rate"] <= m["high"] for m in charts["seats"])
    assert sum(m["share"] for m in charts["lengths"] if m["arm"] == "base") == pytest.approx(1)


def playing_in(group: int) -> list[int]:
    """The live processes of a process group (Linux's /proc; zombies left out)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == group:
            found.append(int(stat.parent.name))
    return found


def test_a_comparison_is_cancelled_and_its_worker_stopped(bench: TestClient) -> None:
    # Here to Slay with the search: a block of games lasts minutes, so a process left
    # playing would play on long after the cancel.
    data = bench.get("/api/workbench/games/here-to-slay/packs/standard").json()["data"]
    seats = ["bot:mcts:100", "bot:heuristic", "bot:random"]
    slow = {**run_body(data, 50_000, seats), "game": "here-to-slay"}
    run = bench.post("/api/workbench/runs", json=slow).json()
    wait_for(bench, run["id"], {"running"})
    worker = bench.app.state.workbench_runs.playing[run["id"]]  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60
    while len(playing_in(worker.pid)) < 2:  # the worker and the processes it plays on
        assert time.monotonic() < deadline, "the comparison never started playing"
        time.sleep(0.05)

    cancelled = bench.post(f"/api/workbench/runs/{run['id']}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["state"] == "cancelled"
    assert worker.exitcode is not None, "the worker was stopped"
    deadline = time.monotonic() + 10
    while playing_in(worker.pid):
        assert time.monotonic() < deadline, "processes of the cancelled comparison play on"
        time.sleep(0.1)
    again = bench.post(f"/api/workbench/runs/{run['id']}/cancel")
    assert again.status_code == 409 and "ended already (cancelled)" in again.json()["error"]
    after = bench.get(f"/api/workbench/runs/{run['id']}").json()
    assert after["state"] == "cancelled" and after["done"] < after["total"]
    listed = bench.get("/api/workbench/runs?game=here-to-slay").json()
    assert [(r["id"], r["state"]) for r in listed] == [(run["id"], "cancelled")]


def test_a_server_that_stops_stops_its_comparison_and_says_so(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        run = start(c, 50_000)
        wait_for(c, run["id"], {"running"})
        worker = c.app.state.workbench_runs.playing[run["id"]]  # type: ignore[attr-defined]
    assert worker.exitcode is not None, "the worker did not outlive the server"
    storage = Storage(sqlite_url)
    try:
        stopped = storage.workbench.run(run["id"])
        assert stopped is not None and (stopped.state, stopped.error) == ("failed", STOPPED)
    finally:
        storage.close()


def test_a_comparison_left_running_by_a_stopped_server_says_so(sqlite_url: str) -> None:
    storage = Storage(sqlite_url)
    try:
        with storage.engine.begin() as conn:
            conn.execute(
                sa.insert(workbench_runs).values(
                    id="left", game="hack-and-slash", base="standard", changed="mine",
                    plan="{}", state="running", done=10, total=100, server="gone",
                    created_at=1.0, updated_at=1.0,
                )
            )
    finally:
        storage.close()
    with client(sqlite_url) as c:
        run = c.get("/api/workbench/runs/left").json()
        assert (run["state"], run["error"]) == ("failed", STOPPED)


def test_a_schema_7_database_gains_the_workbench(sqlite_url: str) -> None:
    Storage(sqlite_url).close()
    engine = sa.create_engine(sqlite_url)
    with engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE workbench_runs"))
        conn.execute(sa.text("DROP TABLE workbench_packs"))
        conn.execute(sa.update(meta).where(meta.c.key == "schema").values(value="7"))
    engine.dispose()
    storage = Storage(sqlite_url)
    try:
        assert storage.workbench.runs("hack-and-slash") == []
        with storage.engine.connect() as conn:
            version = conn.execute(sa.select(meta.c.value).where(meta.c.key == "schema")).scalar()
        assert int(str(version)) == SCHEMA == 9
    finally:
        storage.close()


def test_a_guessable_designer_key_is_one_line_before_anything_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tavernkeep.cli import main

    database = tmp_path / "never.db"
    code = main(["serve", "--designer-key", "secret", "--database-url", f"sqlite:///{database}"])
    err = capsys.readouterr().err
    assert code == 2
    said = "--designer-key: a key of at least 12 characters, not a guessable one"
    assert err == f"tavernkeep: error: {said}\n"
    assert not database.exists()


def test_the_workbench_and_the_terminal_say_the_same_of_a_change(tmp_path: Path) -> None:
    # The page's comparison plays both arms' blocks side by side and reads the first games
    # as they arrive; its last word must be `tavernkeep compare`'s on the same seed.
    import itertools
    import json
    import random
    import re

    from tavernkeep.lab.compare import run_compare
    from tavernkeep.lab.sweep import default_seats
    from tavernkeep.server.workbench_compare import play

    game = get_game("hack-and-slash")
    base = (game.content_dir / "standard.toml").read_text(encoding="utf-8")
    at = base.index("name = \"The Dragon's Hoard\"")
    reward = re.compile(r"^reward = .*$", re.M).search(base, at)
    assert reward is not None
    mine = base[: reward.start()] + "reward = 9" + base[reward.end() :]
    (tmp_path / "mine.toml").write_text(mine, encoding="utf-8")
    seats, seed, games = list(default_seats(game)), random.getrandbits(63), 300
    plan = {
        "game": game.name,
        "base": {"name": "standard", "toml": base},
        "changed": {"name": str(tmp_path / "mine.toml"), "toml": mine},
        "seats": seats,
        "options": {},
        "seed": seed,
        "games": games,
        "workers": 1,
    }
    sent: list[tuple[Any, ...]] = []
    play(plan, sent.append)
    steps = [m for m in sent if m[0] != "progress"]
    assert [m[0] for m in steps][-1] == "done" and len(steps) > 2, "figures as the games come"
    assert all(a[1] < b[1] for a, b in itertools.pairwise(steps))
    said = run_compare(
        game.name, "standard", str(tmp_path / "mine.toml"), seats, games, 1, seed, {}, True
    )
    page = steps[-1][2]
    for key in ("games", "games_changed", "seats", "turns", "touched", "moved"):
        assert json.dumps(page[key], sort_keys=True) == json.dumps(
            json.loads(json.dumps(said[key])), sort_keys=True
        ), key
