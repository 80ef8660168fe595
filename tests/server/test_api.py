"""The HTTP API: games, creating and listing tables, and the record download."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.cli import main as cli_main
from tavernkeep.engine.records import parse_record, replay
from tavernkeep.games import get_game
from tavernkeep.server.app import create_app
from tavernkeep.server.rooms import IDLE_KEPT, Limits

HUMAN_AND_BOTS = ["human", "bot:heuristic", "bot:random"]
SHORT = {"round_limit": 2}


@pytest.fixture
def client(sqlite_url: str) -> Any:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        yield client


def one_line_error(response: Any, status: int = 400) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}, body
    message = body["error"]
    assert isinstance(message, str) and message.strip()
    assert "\n" not in message
    return str(message)


# -- /api/games -------------------------------------------------------------------------


def test_a_games_rules_come_as_text_runs_for_a_page_to_draw(client: Any) -> None:
    listed = {g["name"]: g for g in client.get("/api/games").json()}
    assert listed["hack-and-slash"]["rules"] is True
    rules = client.get("/api/games/hack-and-slash/rules").json()
    assert rules["game"] == "hack-and-slash" and rules["title"] == "How to play Hack & Slash"
    dice = next(s for s in rules["sections"] if s["id"] == "dice")
    runs = [span for block in dice["blocks"] for span in block.get("spans", [])]
    assert runs and all(isinstance(span["text"], str) for span in runs)
    missing = client.get("/api/games/no-such-game/rules")
    assert missing.status_code == 404 and missing.json() == {"error": "no rules for that game"}


def test_games_lists_hack_and_slash_with_its_bots_and_options(client: Any) -> None:
    games = client.get("/api/games").json()
    hs = next(g for g in games if g["name"] == "hack-and-slash")
    assert hs["title"] == "Hack & Slash"
    assert (hs["min_players"], hs["max_players"]) == (3, 6)
    assert hs["kind"] == "competitive"
    assert hs["players_note"] == "2 with the Two players variant"
    assert hs["players_variant"] == "two_player"
    assert hs["bots"] == ["bot:random", "bot:heuristic", "bot:mcts:300ms"]
    assert hs["renderer"] is True
    options = {o["name"]: o for o in hs["options"]}
    assert "players" not in options
    assert set(options) == {"two_player", "adventurers", "box", "empty_tavern", "round_limit"}
    assert options["two_player"]["type"] == "bool"
    assert options["two_player"]["default"] is False
    assert options["round_limit"]["type"] == "int"
    assert options["round_limit"]["default"] == 100
    assert options["empty_tavern"]["type"] == "choice"
    assert options["empty_tavern"]["choices"] == ["stand-in", "no-gain"]
    assert all(isinstance(o["description"], str) for o in hs["options"])
    assert options["two_player"]["title"] == "Two players"


def test_every_option_reads_in_a_players_words(client: Any) -> None:
    """The setup form is read by players (issue 39, item 6): a title and a sentence for
    each option, never an option's code name, a file, a flag or a rulebook's line number;
    a scenario is chosen from the pack's list."""
    for game in client.get("/api/games").json():
        for option in game["options"]:
            words = f"{option['title']} {option['description']}"
            assert "_" not in words and "`" not in words, words
            assert "RULES" not in words and "--" not in words and "(false" not in words, words
            assert option["description"].endswith("."), words
    side_quest = next(g for g in client.get("/api/games").json() if g["name"] == "side-quest")
    scenario = next(o for o in side_quest["options"] if o["name"] == "scenario")
    assert scenario["type"] == "choice" and "The Ashen Throne" in scenario["choices"]


def test_a_game_without_a_heuristic_offers_the_random_and_search_bots_only(
    client: Any, hidden_game: Any, tk: Any
) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    secret = games[hidden_game.NAME]
    assert secret["bots"] == ["bot:random", "bot:mcts:300ms"]
    assert [o["name"] for o in secret["options"]] == ["rounds"]
    assert secret["renderer"] is False
    assert secret["stylesheet"] is False
    response = client.post(
        "/api/tables", json={"game": hidden_game.NAME, "seats": ["human", "bot:heuristic"]}
    )
    assert "heuristic" in one_line_error(response)


# -- a game's own browser files ------------------------------------------------------


def test_every_game_serves_its_renderer_and_stylesheet_from_its_own_folder(client: Any) -> None:
    games = client.get("/api/games").json()
    for game in games:
        assert (game["renderer"], game["stylesheet"]) == (True, True), game["name"]
        web = get_game(game["name"]).web_dir()
        assert web is not None
        for file, media in (("renderer.js", "text/javascript"), ("style.css", "text/css")):
            response = client.get(f"/games/{game['name']}/{file}")
            assert response.status_code == 200, (game["name"], file)
            assert response.headers["content-type"].startswith(media)
            assert response.content == (web / file).read_bytes()


def test_a_game_folder_serves_nothing_else(
    client: Any, hidden_game: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Secret Draw's browser files, in a folder of this test's, beside files of other kinds
    # and files outside it.
    web = tmp_path / "web"
    (web / "parts").mkdir(parents=True)
    (web / "renderer.js").write_text("export function render() {}\n")
    (web / "parts" / "cards.js").write_text("export const cards = 1;\n")
    (web / "notes.md").write_text("not for the browser\n")
    (tmp_path / "outside.js").write_text("export const secret = 1;\n")
    (web / "link.js").symlink_to(tmp_path / "outside.js")
    monkeypatch.setattr(type(get_game(hidden_game.NAME)), "web_dir", lambda self: web)

    secret = next(g for g in client.get("/api/games").json() if g["name"] == hidden_game.NAME)
    assert (secret["renderer"], secret["stylesheet"]) == (True, False)
    assert client.get(f"/games/{hidden_game.NAME}/renderer.js").status_code == 200
    assert client.get(f"/games/{hidden_game.NAME}/parts/cards.js").status_code == 200
    for path in (
        f"/games/{hidden_game.NAME}/style.css",  # it has none
        f"/games/{hidden_game.NAME}/notes.md",  # not a kind the browser is served
        f"/games/{hidden_game.NAME}/..%2Foutside.js",  # out of the folder
        f"/games/{hidden_game.NAME}/%2E%2E/outside.js",
        f"/games/{hidden_game.NAME}/link.js",  # a link out of it
        f"/games/{hidden_game.NAME}/%2Fetc%2Fpasswd",
        "/games/no-such-game/renderer.js",
        "/games/..%2Fhack-and-slash/renderer.js",
    ):
        assert "no such file" in one_line_error(client.get(path), 404), path


# -- creating tables ------------------------------------------------------------------


def test_create_gives_invites_only_for_human_seats(client: Any, tk: Any) -> None:
    response = client.post(
        "/api/tables",
        json={
            "game": "hack-and-slash",
            "seats": ["human", "bot:heuristic", "human", "bot:random"],
            "options": SHORT,
            "pack": "standard",
        },
    )
    assert response.status_code == 201, response.text
    data = response.json()
    table_id = data["id"]
    assert data["game"] == "hack-and-slash"
    assert data["spectate"] == f"/table/{table_id}"
    assert data["deal"] == "secret"
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2, 3]
    assert [s["agent"] for s in data["seats"]] == ["human", "bot:heuristic", "human", "bot:random"]
    assert "invite" not in data["seats"][1]
    assert "invite" not in data["seats"][3]
    invites = tk.invites(data)
    assert set(invites) == {0, 2}
    for seat, invite in invites.items():
        # The invite is in the fragment, which browsers never send to the server.
        link = data["seats"][seat]["invite"]
        assert link.startswith(f"/table/{table_id}#")
        assert "?" not in link
        # token_urlsafe(16): 22 characters of base64url, 128 random bits.
        assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", invite)
    assert invites[0] != invites[2]
    # Every table gets fresh invites and its own id.
    again = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
    assert again["id"] != table_id
    assert set(tk.invites(again).values()).isdisjoint(invites.values())


def test_the_seed_reaches_nobody_until_the_record_of_the_finished_game(
    client: Any, tk: Any
) -> None:
    data = tk.create(client, seats=HUMAN_AND_BOTS, options=SHORT)
    assert "seed" not in data
    tid = data["id"]
    with tk.join(client, tid, 0, tk.tokens(data)[0]) as zero, tk.join(client, tid) as watcher:
        summary = client.get(f"/api/tables/{tid}").json()
        assert "seed" not in summary and summary["deal"] == "secret"
        one_line_error(client.get(f"/api/tables/{tid}/record"), 409)
        tk.play_to_end({0: zero}, watchers=(watcher,))
        frames = zero.raw + watcher.raw
    record = client.get(f"/api/tables/{tid}/record").json()
    seed = record["seed"]
    assert isinstance(seed, int) and 0 <= seed < 2**63
    # Nothing sent before the end named it: not a frame, not a summary.
    assert all(str(seed) not in frame for frame in frames)


def test_a_seed_chosen_by_the_creator_is_shown_to_every_seat(client: Any, tk: Any) -> None:
    data = tk.create(client, seats=["human", "human", "bot:random"], options=SHORT, seed=42)
    assert "seed" not in data and data["deal"] == "chosen"
    tid, tokens = data["id"], tk.tokens(data)
    assert client.get(f"/api/tables/{tid}").json()["deal"] == "chosen"
    for seat in (1, None):
        with tk.join(client, tid, seat, tokens.get(seat) if seat is not None else None) as sock:
            assert sock.welcome["table"]["deal"] == "chosen"


def test_create_without_seed_draws_one_and_records_it(client: Any, tk: Any, helpers: Any) -> None:
    data = tk.create(client, seats=["bot:random"] * 3, options=SHORT)
    assert tk.tokens(data) == {}
    helpers.wait_for(
        lambda: client.get(f"/api/tables/{data['id']}").json()["status"] == "finished",
        what="the bots-only table to finish",
    )
    seed = client.get(f"/api/tables/{data['id']}/record").json()["seed"]
    assert isinstance(seed, int) and 0 <= seed < 2**63


@pytest.mark.parametrize("seed", [0, 2**63 - 1])
def test_seed_limits_are_accepted_on_every_storage(
    db_url: str, tk: Any, helpers: Any, seed: int
) -> None:
    # 2**63 - 1 is the largest BIGINT: PostgreSQL must store it as well as SQLite.
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=["human", "bot:random", "bot:random"], seed=seed)
        assert data["deal"] == "chosen"
    assert helpers.stored_table(db_url, data["id"]).record.seed == seed
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        assert client.get(f"/api/tables/{data['id']}").json()["actions"] == 0
        with tk.join(client, data["id"]) as watcher:
            assert watcher.state["version"] == 0


GOOD = {"game": "hack-and-slash", "seats": HUMAN_AND_BOTS, "options": {}, "seed": 1}

BAD_CREATIONS = {
    "unknown game": {**GOOD, "game": "chess"},
    "unknown bot": {**GOOD, "seats": ["human", "bot:genius", "bot:random"]},
    "bot with parameters": {**GOOD, "seats": ["human", "bot:random:9", "bot:random"]},
    "unknown seat kind": {**GOOD, "seats": ["human", "robot", "bot:random"]},
    "no seats": {**GOOD, "seats": []},
    "too few seats": {**GOOD, "seats": ["human", "bot:random"]},
    "too many seats": {**GOOD, "seats": ["human"] + ["bot:random"] * 6},
    "far too many seats": {**GOOD, "seats": ["bot:random"] * 50},
    "unknown option": {**GOOD, "options": {"colour": "red"}},
    "int option given text": {**GOOD, "options": {"round_limit": "lots"}},
    "int option given a float": {**GOOD, "options": {"adventurers": 2.5}},
    "bool option given text": {**GOOD, "options": {"two_player": "maybe"}},
    # JSON true is not 1, "5" is not 5 and "yes" is not true: the lobby sends typed values.
    "int option given a bool": {**GOOD, "options": {"adventurers": True}},
    "int option given a numeric string": {**GOOD, "options": {"round_limit": "5"}},
    "bool option given 'yes'": {**GOOD, "options": {"two_player": "yes"}},
    "bool option given 1": {**GOOD, "options": {"two_player": 1}},
    "choice option given another word": {**GOOD, "options": {"empty_tavern": "nobody"}},
    "choice option given a number": {**GOOD, "options": {"empty_tavern": 3}},
    "option out of range": {**GOOD, "options": {"adventurers": 0}},
    "option given a list": {**GOOD, "options": {"round_limit": [1]}},
    "players in options": {**GOOD, "options": {"players": 3}},
    "players in options, 2-player variant": {**GOOD, "options": {"players": 2, "two_player": True}},
    "pack path up": {**GOOD, "pack": "../x.toml"},
    "pack absolute path": {**GOOD, "pack": "/etc/passwd"},
    "pack path with backslash": {**GOOD, "pack": "..\\x"},
    "pack file name": {**GOOD, "pack": "standard.toml"},
    "unknown pack": {**GOOD, "pack": "expansion-9"},
    "seed below 0": {**GOOD, "seed": -1},
    "seed 2**63": {**GOOD, "seed": 2**63},
    "seed 2**64": {**GOOD, "seed": 2**64},
    "seed a float": {**GOOD, "seed": 1.5},
    "seed text": {**GOOD, "seed": "abc"},
    "unknown field": {**GOOD, "colour": "red"},
    "game missing": {k: v for k, v in GOOD.items() if k != "game"},
    "seats not a list": {**GOOD, "seats": "human"},
    "options not an object": {**GOOD, "options": ["round_limit"]},
}


@pytest.mark.parametrize("body", BAD_CREATIONS.values(), ids=BAD_CREATIONS.keys())
def test_bad_creations_are_refused_with_one_line(client: Any, body: dict[str, Any]) -> None:
    response = client.post("/api/tables", json=body)
    one_line_error(response)
    assert client.get("/api/tables").json() == []


@pytest.mark.parametrize(
    "raw",
    [
        b"{not json",
        b'{"game": "hack-and-slash", "seats": ["human"',
        b"[1, 2]",
        b"null",
        b"",
        b'"text"',
        b"\xff\xfe",
    ],
    ids=["garbage", "truncated", "array", "null", "empty", "string", "not utf-8"],
)
def test_malformed_json_bodies_are_refused_with_one_line(client: Any, raw: bytes) -> None:
    response = client.post("/api/tables", content=raw, headers={"content-type": "application/json"})
    one_line_error(response)
    assert client.get("/api/tables").json() == []


def test_refusals_name_the_problem(client: Any) -> None:
    def error_of(**changes: Any) -> str:
        return one_line_error(client.post("/api/tables", json={**GOOD, **changes}))

    assert "chess" in error_of(game="chess")
    assert "bot:genius" in error_of(seats=["human", "bot:genius", "bot:random"])
    assert "colour" in error_of(options={"colour": "red"})
    assert "round_limit" in error_of(options={"round_limit": "lots"})
    assert "seats" in error_of(options={"players": 3})
    assert "pack" in error_of(pack="/etc/passwd")
    assert "seed" in error_of(seed=-1)
    # The error is about the player count, not a confusing option.
    assert "3-6" in error_of(seats=["human", "bot:random"])


@pytest.mark.parametrize("seed", [True, "12"], ids=["bool", "text"])
def test_a_seed_of_the_wrong_json_type_is_refused(client: Any, seed: Any) -> None:
    one_line_error(client.post("/api/tables", json={**GOOD, "seed": seed}))


# -- listing tables -------------------------------------------------------------------


def test_open_tables_are_listed_newest_first(client: Any, tk: Any, helpers: Any) -> None:
    first = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
    second = tk.create(client, seats=["bot:random", "human", "bot:heuristic"], options=SHORT)
    finished = tk.create(client, seats=["bot:random"] * 3, options=SHORT)
    helpers.wait_for(
        lambda: client.get(f"/api/tables/{finished['id']}").json()["status"] == "finished",
        what="the bots-only table to finish",
    )
    listed = client.get("/api/tables").json()
    assert [t["id"] for t in listed] == [second["id"], first["id"]]
    top = listed[0]
    assert set(top) == {
        "id",
        "game",
        "title",
        "status",
        "seats",
        "open_seats",
        "rated",
        "actions",
        "created_at",
    }
    assert top["open_seats"] == 0 and top["rated"] is False
    assert top["game"] == "hack-and-slash"
    assert top["title"] == "Hack & Slash"
    assert top["status"] == "playing"
    assert top["seats"] == [
        {"seat": 0, "agent": "bot:random", "connected": True},
        {"seat": 1, "agent": "human", "connected": False, "device": False},
        {"seat": 2, "agent": "bot:heuristic", "connected": True},
    ]
    # Seat 0 is a bot and already played up to seat 1's decision.
    assert top["actions"] >= 1
    assert listed[0]["created_at"] >= listed[1]["created_at"]
    # The summary never carries an invite, a credential or a hash of one.
    invites = [*tk.invites(first).values(), *tk.invites(second).values()]
    credentials = [*tk.tokens(first).values(), *tk.tokens(second).values()]
    text = json.dumps(client.get("/api/tables").json())
    for secret in invites + credentials:
        assert secret not in text
        assert hashlib.sha256(secret.encode()).hexdigest() not in text


def test_one_table_summary_and_unknown_tables(client: Any, tk: Any) -> None:
    data = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
    summary = client.get(f"/api/tables/{data['id']}").json()
    assert summary["id"] == data["id"]
    assert summary["status"] == "playing"
    assert summary["actions"] == 0
    for path in ["/api/tables/nope", "/api/tables/nope/record", "/api/tables/" + "x" * 300]:
        one_line_error(client.get(path), 404)


def test_connected_follows_the_sockets(client: Any, tk: Any) -> None:
    data = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
    token = tk.tokens(data)[0]

    def connected() -> bool:
        return bool(client.get(f"/api/tables/{data['id']}").json()["seats"][0]["connected"])

    assert not connected()
    with tk.join(client, data["id"], 0, token) as sock:
        assert connected()
        assert sock.state["seats"][0]["connected"] is True
        with tk.join(client, data["id"]):
            pass
        # A spectator coming and going does not connect a seat.
        assert connected()
    assert not connected()


# -- the record -----------------------------------------------------------------------


def test_record_is_refused_until_the_end_then_replays(
    client: Any, tk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tk.create(client, seats=HUMAN_AND_BOTS, options=SHORT, seed=1234)
    table_id, token = data["id"], tk.tokens(data)[0]
    one_line_error(client.get(f"/api/tables/{table_id}/record"), 409)
    with tk.join(client, table_id, 0, token) as sock:
        one_line_error(client.get(f"/api/tables/{table_id}/record"), 409)
        final = tk.play_to_end({0: sock})
    response = client.get(f"/api/tables/{table_id}/record")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    assert "attachment" in response.headers["content-disposition"]
    assert f"{table_id}.json" in response.headers["content-disposition"]
    record = parse_record(response.text)
    assert record.game == "hack-and-slash"
    assert record.seed == 1234
    assert record.seats == HUMAN_AND_BOTS
    assert record.config["round_limit"] == 2
    assert record.config["players"] == 3
    assert len(record.actions) == final["version"]
    assert record.result == final["result"]
    game = get_game("hack-and-slash")
    replayed = game.result(replay(game, record))
    assert replayed is not None and replayed.to_json() == final["result"]
    # The finished table leaves the lobby's list but keeps its summary.
    assert client.get("/api/tables").json() == []
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"
    # And the command line agrees.
    path = tmp_path / "game.json"
    path.write_text(response.text, encoding="utf-8")
    capsys.readouterr()
    assert cli_main(["replay", str(path), "--check"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK")
    assert f"{final['version']} actions" in out


def test_a_finished_table_nobody_watches_leaves_memory_but_not_storage(
    sqlite_url: str, tk: Any, helpers: Any
) -> None:
    limits = Limits(tables_per_minute=1000, table_burst=1000)
    with TestClient(create_app(sqlite_url, bot_delay=0.0, limits=limits)) as client:
        check_finished_tables_leave_memory(client, tk, helpers)


def check_finished_tables_leave_memory(client: Any, tk: Any, helpers: Any) -> None:
    finished = tk.create(client, seats=["bot:random"] * 3, options=SHORT)
    tavern = client.app.state.tavern
    # The tables leave memory oldest-idle first, so this one goes idle before the
    # others are made: else one of them may finish first and leave in its place.
    helpers.wait_for(
        lambda: (room := tavern.rooms.get(finished["id"])) is not None
        and room.bot_task is not None
        and room.bot_task.done(),
        timeout=60,
        what="the first table's bots to finish",
    )
    others = [
        tk.create(client, seats=["bot:random"] * 3, options=SHORT)["id"]
        for _ in range(IDLE_KEPT)
    ]
    helpers.wait_for(
        lambda: all(
            client.get(f"/api/tables/{t}").json()["status"] == "finished" for t in others
        ),
        timeout=60,
        what="the bots-only tables to finish",
    )
    helpers.wait_for(
        lambda: finished["id"] not in tavern.rooms,
        what="the first finished table to leave memory",
    )
    assert len(tavern.rooms) <= IDLE_KEPT
    # Asking for it brings it back from storage, finished, with its record.
    summary = client.get(f"/api/tables/{finished['id']}").json()
    assert summary["status"] == "finished"
    record = client.get(f"/api/tables/{finished['id']}/record")
    assert record.status_code == 200
    assert record.json()["result"] is not None
