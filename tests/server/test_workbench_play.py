"""The workbench's "Play it" and history (issue 45, items 4 and 5).

Play it: a table opened with a designer's saved pack, only through the workbench's door
(the designer key, or this machine alone): a stranger who could not read the pack opens no
table with it, and the lobby's own API takes built-in packs alone. The table keeps the
pack (a restart, another server process and the pack's deletion from the workbench leave
it playing the same cards), names it and its differences on every page alike, and its
record holds the pack, so that it replays (`tavernkeep replay --check`, the replay page)
and is refused in one line where the pack it holds is not the one its digest names.

History: every comparison kept with its packs' digests and its headline finding, listed
newest first, any two set side by side, all of it read again after a restart.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.pool import NullPool

from tavernkeep.games import get_game
from tavernkeep.server.app import create_app
from tavernkeep.server.designer import LOCAL_ONLY, NEEDS_KEY
from tavernkeep.server.storage import normalise_url
from tavernkeep.server.storage.schema import SCHEMA
from tavernkeep.server.workbench_compare import headline

HERE = "http://127.0.0.1:8000"
ELSEWHERE = "http://tables.example"
KEY = "a designer key of some length"
GAME = "/api/workbench/games/hack-and-slash"
CHANGE = "quest[Rats in the Cellar].reward: 1 → 5"
BOTS = ["bot:random", "bot:random", "bot:random"]


def client(url: str, address: str = "127.0.0.1", base: str = HERE, **app: Any) -> TestClient:
    return TestClient(
        create_app(url, bot_delay=0.0, pass_delay=0.05, **app),
        base_url=base,
        client=(address, 50000),
        headers={"Origin": base},
    )


@pytest.fixture
def bench(sqlite_url: str) -> Iterator[TestClient]:
    with client(sqlite_url) as c:
        yield c


def save(c: TestClient, name: str = "hoard", reward: int = 5) -> dict[str, Any]:
    """A pack saved in the workbench: the standard one with Rats in the Cellar's reward."""
    data = c.get(f"{GAME}/packs/standard").json()["data"]
    data["quest"][0]["reward"] = reward
    saved = c.put(f"{GAME}/packs/{name}", json={"data": data})
    assert saved.status_code == 200, saved.text
    return dict(saved.json())


def open_table(c: TestClient, status: int = 201, **body: Any) -> dict[str, Any]:
    body = {"game": "hack-and-slash", "pack": "hoard", "seats": BOTS, **body}
    opened = c.post("/api/workbench/tables", json=body)
    assert opened.status_code == status, opened.text
    return dict(opened.json())


def finished(c: TestClient, table_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        summary = c.get(f"/api/tables/{table_id}").json()
        if summary["status"] == "finished":
            return dict(summary)
        time.sleep(0.05)
    raise AssertionError("the bots' table never finished")


# -- play it -------------------------------------------------------------------------------


def test_a_table_with_a_saved_pack_plays_it_and_every_page_names_it(
    db_url: str, tk: Any, helpers: Any
) -> None:
    with client(db_url) as c:
        kept = save(c)
        table = open_table(c, digest=kept["digest"], seats=["human", "human", "bot:random"])
        tid = table["id"]
        assert set(tk.invites(table)) == {0, 1} and table["host"], "invites as at any table"
        tokens = tk.tokens(table, c)
        shown = {
            "name": "hoard",
            "base": "standard",
            "digest": kept["digest"],
            "changes": [CHANGE],
            "more": 0,
        }
        with (
            tk.join(c, tid, 0, tokens[0]) as zero,
            tk.join(c, tid, 1, tokens[1]) as one,
            tk.join(c, tid) as watcher,
        ):
            # The same on every page: the rules' data, not anybody's cards.
            for sock in (zero, one, watcher):
                assert sock.welcome["table"]["pack"] == shown
        assert c.get(f"/api/tables/{tid}").json()["pack"] == shown
        # The game itself is played with the designer's cards.
        room = c.app.state.tavern.rooms[tid]  # type: ignore[attr-defined]
        assert room.match.pack.content.quest[0].reward == 5
        assert tid in [t["id"] for t in c.get("/api/tables").json()]
        # The table keeps the pack: the workbench's copy may go.
        assert c.delete(f"{GAME}/packs/hoard").status_code == 200

    record = helpers.stored_table(db_url, tid).record
    assert (record.pack, record.pack_base) == ("hoard", "standard")
    assert record.pack_digest == kept["digest"]
    assert record.pack_data["quest"][0]["reward"] == 5
    # A restart: read from storage, then replayed, as the pack it kept.
    with client(db_url) as again:
        assert again.get(f"/api/tables/{tid}").json()["pack"] == shown
        assert tid in [t["id"] for t in again.get("/api/tables").json()]
        with tk.join(again, tid, 0, tokens[0]) as zero:
            assert zero.welcome["table"]["pack"] == shown
            assert zero.state["status"] == "playing" and zero.state["view"] is not None
        room = again.app.state.tavern.rooms[tid]  # type: ignore[attr-defined]
        assert room.match.pack.content.quest[0].reward == 5
        assert again.get(f"{GAME}/packs/hoard").status_code == 404


def test_another_server_process_plays_the_tables_pack(postgres_url: str, tk: Any) -> None:
    with client(postgres_url) as a, client(postgres_url) as b:
        save(a)
        table = open_table(a, seats=["human", "human", "bot:random"])
        tokens = tk.tokens(table, a)
        with tk.join(b, table["id"], 1, tokens[1]) as one:
            assert one.welcome["table"]["pack"]["changes"] == [CHANGE]
        room = b.app.state.tavern.rooms[table["id"]]  # type: ignore[attr-defined]
        assert room.match.pack.content.quest[0].reward == 5


def test_a_stranger_opens_no_table_with_a_pack_they_could_not_read(sqlite_url: str) -> None:
    with client(sqlite_url, address="203.0.113.9", base=ELSEWHERE, designer_key=KEY) as c:
        assert c.post("/api/workbench/key", json={"key": KEY}).status_code == 200
        kept = save(c)
        from_elsewhere = c.post(
            "/api/workbench/tables",
            json={"game": "hack-and-slash", "pack": "hoard", "seats": BOTS},
            headers={"Origin": "http://evil.example"},
        )
        assert from_elsewhere.status_code == 403
        c.cookies.clear()  # a stranger: the same address, without the key
        refused = open_table(c, 401, digest=kept["digest"])
        assert refused == {"error": NEEDS_KEY}
        # The lobby's API takes built-in packs alone: the name reads nothing saved.
        lobby = c.post(
            "/api/tables", json={"game": "hack-and-slash", "seats": BOTS, "pack": "hoard"}
        )
        assert lobby.status_code == 400, lobby.text
        assert lobby.json()["error"] == "no built-in pack named 'hoard' (built-in packs: standard)"
        assert c.get("/api/tables").json() == [], "no table was opened"
        # The designer, with the key, may.
        assert c.post("/api/workbench/key", json={"key": KEY}).status_code == 200
        assert open_table(c)["id"]
    with client(sqlite_url, address="203.0.113.9", base=ELSEWHERE) as stranger:
        refused = open_table(stranger, 403)
        assert refused == {"error": LOCAL_ONLY}


def test_a_pack_saved_again_since_or_none_so_called_opens_no_table(bench: TestClient) -> None:
    first = save(bench, reward=5)
    second = save(bench, reward=6)
    assert first["digest"] != second["digest"]
    stale = open_table(bench, 409, digest=first["digest"])
    assert "saved again since this page read it" in stale["error"]
    assert "\n" not in stale["error"]
    assert open_table(bench, 404, pack="nothing")["error"] == (
        "no saved pack 'nothing' of hack-and-slash"
    )
    assert "seat" in open_table(bench, 400, seats=["bot:nobody", *BOTS[1:]])["error"]
    assert bench.get("/api/tables").json() == []
    table = open_table(bench, digest=second["digest"])
    assert bench.get(f"/api/tables/{table['id']}").json()["pack"]["changes"] == [
        "quest[Rats in the Cellar].reward: 1 → 6"
    ]


def test_the_records_pack_replays_the_game_and_a_changed_one_is_one_line(
    bench: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tavernkeep.cli import main

    kept = save(bench)
    table = open_table(bench)
    ended = finished(bench, table["id"])
    text = bench.get(f"/api/tables/{table['id']}/record").text
    record = json.loads(text)
    assert (record["pack"], record["pack_base"]) == ("hoard", "standard")
    assert record["pack_digest"] == kept["digest"]
    assert record["pack_data"]["quest"][0]["reward"] == 5
    assert len(record["actions"]) == ended["actions"] > 0

    path = tmp_path / "game.json"
    path.write_text(text)
    capsys.readouterr()
    assert main(["replay", str(path), "--check"]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"OK: {len(record['actions'])} actions replay to the recorded result")

    # The replay page: its last step is the recorded end.
    last = bench.post(
        "/api/replay", json={"record": text, "seat": 0, "step": len(record["actions"])}
    )
    assert last.status_code == 200, last.text
    assert last.json()["result"] == record["result"]

    # The host's rematch plays the same pack, held by the table as it was.
    rematch = bench.post(f"/api/tables/{table['id']}/rematch", json={"host": table["host"]})
    assert rematch.status_code == 200, rematch.text
    again = bench.get(f"/api/tables/{rematch.json()['id']}").json()
    assert again["pack"]["changes"] == [CHANGE]

    # A record whose pack is not its digest's is refused, in one line.
    record["pack_data"]["quest"][0]["reward"] = 6
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--check"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not the pack it was played with" in err, err
    page = bench.post("/api/replay", json={"record": json.dumps(record), "seat": 0, "step": 0})
    assert page.status_code == 400 and "is not the pack it was played with" in page.text
    # Without the pack it holds, the record has no cards to replay with.
    del record["pack_data"]
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--check"]) == 2
    assert "no built-in pack named 'hoard'" in capsys.readouterr().err


# -- schema 9 --------------------------------------------------------------------------------


def test_a_schema_8_database_gains_the_tables_packs_and_the_runs_digests(
    db_url: str, tk: Any, helpers: Any
) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as c:
        table = tk.create(c, seats=["human", "bot:random", "bot:random"])
    engine = sa.create_engine(normalise_url(db_url), poolclass=NullPool)
    with engine.begin() as conn:
        for column in ("pack_data", "pack_base"):
            conn.execute(sa.text(f"ALTER TABLE tables DROP COLUMN {column}"))
        for column in ("digest", "base_digest", "headline"):
            conn.execute(sa.text(f"ALTER TABLE workbench_runs DROP COLUMN {column}"))
        conn.execute(
            sa.text(
                "INSERT INTO workbench_runs (id, game, base, changed, plan, state, done, "
                "total, result, error, server, created_at, updated_at) VALUES ('old', "
                "'hack-and-slash', 'standard', 'mine', '{\"games\": 5}', 'done', 10, 10, "
                "NULL, NULL, NULL, 1.0, 1.0)"
            )
        )
        conn.execute(sa.text("UPDATE meta SET value = '8' WHERE key = 'schema'"))
    with client(db_url) as c:
        assert c.get(f"/api/tables/{table['id']}").json()["pack"] is None
        listed = c.get("/api/workbench/runs?game=hack-and-slash").json()
        assert [(r["id"], r["digest"], r["headline"]) for r in listed] == [("old", None, None)]
    with engine.connect() as conn:
        version = conn.execute(sa.text("SELECT value FROM meta WHERE key = 'schema'")).scalar()
        found = sa.inspect(conn)
        assert {"pack_data", "pack_base"} <= {c["name"] for c in found.get_columns("tables")}
        runs = {c["name"] for c in found.get_columns("workbench_runs")}
        assert {"digest", "base_digest", "headline"} <= runs
    engine.dispose()
    assert version == str(SCHEMA) == "9"
    assert helpers.stored_table(db_url, table["id"]).record.pack_data is None


# -- history ---------------------------------------------------------------------------------


def run(c: TestClient, reward: int, games: int = 40) -> dict[str, Any]:
    data = c.get(f"{GAME}/packs/standard").json()["data"]
    data["quest"][0]["reward"] = reward
    body = {
        "game": "hack-and-slash",
        "name": f"rats {reward}",
        "data": data,
        "seats": ["bot:heuristic", "bot:heuristic", "bot:random"],
        "games": games,
        "seed": 11,
    }
    started = c.post("/api/workbench/runs", json=body)
    assert started.status_code == 202, started.text
    run_id = started.json()["id"]
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        seen = dict(c.get(f"/api/workbench/runs/{run_id}").json())
        if seen["state"] == "done":
            digest = c.post(f"{GAME}/check", json={"data": data}).json()["check"]["digest"]
            return {**seen, "pack_digest": digest}
        assert seen["state"] in ("queued", "running"), seen
        time.sleep(0.1)
    raise AssertionError("the comparison never ended")


def test_every_comparison_is_kept_and_any_two_are_set_side_by_side(sqlite_url: str) -> None:
    standard = get_game("hack-and-slash").load_pack().digest
    with client(sqlite_url) as c:
        first, second = run(c, 5), run(c, 30)
        listed = c.get("/api/workbench/runs?game=hack-and-slash").json()
        assert [r["id"] for r in listed] == [second["id"], first["id"]], "newest first"
        for row, done in zip(listed, (second, first), strict=True):
            assert row["changed"] == done["changed"] and row["games"] == 40
            assert row["digest"] == done["pack_digest"] and row["base_digest"] == standard
            assert row["headline"] == done["result"]["headline"]
            assert "result" not in row, "the list is read without the results"
        assert first["digest"] != second["digest"]

        beside = c.get(f"/api/workbench/runs/{first['id']}/beside/{second['id']}").json()
        assert [r["id"] for r in beside["runs"]] == [first["id"], second["id"]]
        assert all(r["result"]["findings"] for r in beside["runs"])
        rows = {row["what"]: row["cells"] for row in beside["rows"]}
        for n, (done, cell) in enumerate(((first, 0), (second, 1))):
            said = {f["what"]: f["text"] for f in done["result"]["figures"]}
            assert {what: cells[cell] for what, cells in rows.items() if cells[cell]} == said, n
        assert rows["Seat 3 (bot:random)"][0] and rows["Seat 3 (bot:random)"][1]
        assert "Rats in the Cellar (quest completed)" in rows
        assert all(
            re.fullmatch(r"\d+ of 40 \(\d+%\)", cell) for cell in rows["Games that went otherwise"]
        )
        assert c.get(f"/api/workbench/runs/{first['id']}/beside/nothing").status_code == 404

    # A restart reads the same history from the database.
    with client(sqlite_url) as again:
        assert again.get("/api/workbench/runs?game=hack-and-slash").json() == listed
        pair = f"/api/workbench/runs/{first['id']}/beside/{second['id']}"
        assert again.get(pair).json() == beside
    with client(sqlite_url, address="203.0.113.9", base=ELSEWHERE) as stranger:
        refused = stranger.get(pair)
        assert refused.status_code == 403 and "rats" not in refused.text


def effect(mean: float, low: float, high: float, games: int = 100) -> dict[str, Any]:
    return {"mean": mean, "ci95": [low, high], "games": games}


def test_the_headline_is_the_largest_difference_in_win_rate_its_interval_is_sure_of() -> None:
    result: dict[str, Any] = {
        "games": 100,
        "games_changed": 40,
        "seats": [
            {
                "seat": 0,
                "agent": "bot:heuristic",
                "base": 0.30,
                "changed": 0.33,
                "difference": effect(0.03, 0.01, 0.05),
            },
            # Larger, but its interval holds zero: no finding to head with.
            {
                "seat": 1,
                "agent": "bot:random",
                "base": 0.30,
                "changed": 0.25,
                "difference": effect(-0.05, -0.11, 0.01),
            },
        ],
        # A difference in turns, not in win rate: never the headline.
        "turns": {"base": 10.0, "changed": 12.0, "difference": effect(2.0, 1.5, 2.5)},
        "touched": [
            {
                "name": "Rats in the Cellar",
                "kind": "quest completed",
                "uses_base": 0.5,
                "uses_changed": 0.7,
                "uses": effect(0.2, 0.1, 0.3),
                "users_win": effect(0.08, 0.02, 0.14),
            },
        ],
        "moved": [],
    }
    hawk = {
        "label": "The Wild Hawk",
        "fact": "leader",
        "base": {"seats": 300, "rate": 0.35},
        "changed": {"seats": 300, "rate": 0.319},
        "difference": effect(-0.031, -0.040, -0.022),
    }
    assert headline(result, [hawk]) == (
        "Rats in the Cellar (quest completed): 0.50 → 0.70 uses a game, +0.20 [+0.10, +0.30]; "
        "its users' wins +8.0 points [+2.0, +14.0]"
    )
    result["touched"][0]["users_win"] = effect(0.08, -0.02, 0.18)
    assert headline(result, [hawk]) == "The Wild Hawk: 35.0% → 31.9%, -3.1 points [-4.0, -2.2]"
    assert headline(result, []) == "Seat 1 (bot:heuristic): 30.0% → 33.0%, +3.0 points [+1.0, +5.0]"
    result["seats"][0]["difference"] = effect(0.03, -0.01, 0.07)
    assert headline(result, []) == (
        "40 of the 100 games went otherwise (40%). No win rate moved beyond its 95% interval."
    )
