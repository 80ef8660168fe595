"""What a stranger can make the server spend is bounded: tables a minute and open at once,
request bodies, JSON nesting, search budgets and the sockets of one address."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tavernkeep.agents import make_bot
from tavernkeep.agents.ismcts import ISMCTSBot
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng
from tavernkeep.games import get_game
from tavernkeep.server.app import create_app
from tavernkeep.server.guards import MAX_BODY, MAX_DEPTH, RateLimiter, json_depth
from tavernkeep.server.rooms import IDLE_KEPT, Limits
from tavernkeep.server.search import SearchLimits

SHORT = {"round_limit": 2}
BOTS = ["bot:random", "bot:random", "bot:random"]


def one_line(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and "\n" not in body["error"]
    return str(body["error"])


def test_new_tables_from_one_address_are_rate_limited(sqlite_url: str) -> None:
    limits = Limits(tables_per_minute=6, table_burst=3)
    app = create_app(sqlite_url, bot_delay=10.0, limits=limits)
    body = {"game": "hack-and-slash", "seats": ["human", *BOTS[:2]], "options": SHORT}
    with TestClient(app, client=("203.0.113.7", 5000)) as stranger:
        for _ in range(3):
            assert stranger.post("/api/tables", json=body).status_code == 201
        refused = one_line(stranger.post("/api/tables", json=body), 429)
        assert "too many new tables" in refused and "try again in" in refused
        assert len(stranger.get("/api/tables").json()) == 3


def test_the_bucket_is_an_addresss_own_refills_and_forgets_old_addresses() -> None:
    limiter = RateLimiter(per_minute=60, burst=2, clients=3)
    assert limiter.allow("a", now=0.0) and limiter.allow("a", now=0.0)
    assert not limiter.allow("a", now=0.5)
    # Another address is not held back by the first one's spree.
    assert limiter.allow("b", now=0.5)
    assert limiter.allow("a", now=1.6)
    for address in "bcde":
        limiter.allow(address, now=2.0)
    assert len(limiter.buckets) == 3


def test_the_number_of_open_tables_is_bounded(sqlite_url: str, tk: Any) -> None:
    limits = Limits(open_tables=2, tables_per_minute=100, table_burst=100)
    with TestClient(create_app(sqlite_url, bot_delay=0.0, limits=limits)) as client:
        people = {"seats": ["human", "human", "bot:random"], "options": SHORT}
        first = tk.create(client, **people)
        tk.create(client, **people)
        assert "try again" in one_line(
            client.post("/api/tables", json={"game": "hack-and-slash", **people}), 503
        )
        # One of them finishing makes room.
        tokens = tk.tokens(first)
        with (
            tk.join(client, first["id"], 0, tokens[0]) as zero,
            tk.join(client, first["id"], 1, tokens[1]) as one,
        ):
            tk.play_to_end({0: zero, 1: one})
        tk.create(client, **people)


def test_many_tables_are_listed_and_restarted_without_being_replayed(
    sqlite_url: str, tk: Any
) -> None:
    limits = Limits(tables_per_minute=10_000, table_burst=10_000)
    with TestClient(create_app(sqlite_url, bot_delay=0.0, limits=limits)) as client:
        for _ in range(120):
            tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
        assert len(client.app.state.tavern.rooms) <= IDLE_KEPT
    with TestClient(create_app(sqlite_url, bot_delay=0.0, limits=limits)) as client:
        listed = client.get("/api/tables").json()
        assert len(listed) == 100
        # Listing and starting replayed nothing: the tables stay in storage until asked.
        assert client.app.state.tavern.rooms == {}


# -- request bodies and JSON --------------------------------------------------------------


def test_a_body_over_the_limit_is_refused_in_one_line(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url)) as client:
        response = client.post(
            "/api/tables",
            content=b'{"game": "' + b"x" * (MAX_BODY + 10) + b'"}',
            headers={"content-type": "application/json"},
        )
        assert "at most" in one_line(response, 413)
        assert client.get("/api/tables").json() == []


def test_a_chunked_body_over_the_limit_is_cut_off(sqlite_url: str) -> None:
    def chunks() -> Any:
        for _ in range(100):
            yield b"x" * 4096

    with TestClient(create_app(sqlite_url)) as client:
        response = client.post(
            "/api/tables", content=chunks(), headers={"content-type": "application/json"}
        )
        one_line(response, 413)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 5000])
def test_deeply_nested_json_over_http_is_one_line(sqlite_url: str, depth: int) -> None:
    with TestClient(create_app(sqlite_url)) as client:
        body = '{"game": "hack-and-slash", "seats": ' + "[" * depth + "]" * depth + "}"
        response = client.post(
            "/api/tables", content=body, headers={"content-type": "application/json"}
        )
        assert "nested" in one_line(response, 400)
        claim = client.post(
            "/api/tables/x/claim",
            content="[" * depth + "]" * depth,
            headers={"content-type": "application/json"},
        )
        assert "nested" in one_line(claim, 400)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 2020])
def test_deeply_nested_json_on_the_websocket_is_one_line_and_the_socket_stays(
    sqlite_url: str, tk: Any, depth: int
) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
        with tk.join(client, data["id"], 0, tk.tokens(data)[0]) as zero:
            zero.send('{"type": "ping", "x": ' + "[" * depth + "]" * depth + "}")
            assert "nested" in zero.expect("error")["message"]
            zero.ping()
        # And as the very first message: refused with the same line, then closed.
        with tk.connect(client, data["id"]) as sock:
            sock.send("[" * depth + "]" * depth)
            code, seen = sock.until_closed()
        assert code == 1008 and "nested" in seen[0]["message"]


def test_json_depth_counts_brackets_outside_strings() -> None:
    assert json_depth('{"a": [1, {"b": "[[[[["}]}') == 3
    assert json_depth('"[[["') == 0
    assert json_depth(r'{"a": "\"[["}') == 1
    assert json_depth("[" * 50 + "]" * 50) == 50


# -- search budgets -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "words"),
    [("bot:mcts:600000ms", "2,000 ms"), ("bot:mcts:10000000", "5,000 iterations")],
)
def test_search_budgets_beyond_the_servers_limits_are_refused(
    sqlite_url: str, spec: str, words: str
) -> None:
    with TestClient(create_app(sqlite_url)) as client:
        response = client.post(
            "/api/tables", json={"game": "hack-and-slash", "seats": ["human", spec, spec]}
        )
        assert words in one_line(response, 400)


def test_the_limits_are_the_servers_to_set_and_the_lobbys_offer_is_within_them(
    sqlite_url: str,
) -> None:
    tight = Limits(search=SearchLimits(millis=100, iterations=50))
    with TestClient(create_app(sqlite_url, limits=tight)) as client:
        offer = next(g for g in client.get("/api/games").json() if g["name"] == "rage")
        lobby_bot = next(b for b in offer["bots"] if b.startswith("bot:mcts"))
        refused = client.post("/api/tables", json={"game": "rage", "seats": [lobby_bot]})
        assert "100 ms" in one_line(refused, 400)
    with TestClient(create_app(sqlite_url)) as client:
        offer = next(g for g in client.get("/api/games").json() if g["name"] == "rage")
        lobby_bot = next(b for b in offer["bots"] if b.startswith("bot:mcts"))
        created = client.post("/api/tables", json={"game": "rage", "seats": [lobby_bot]})
        assert created.status_code == 201


def test_an_iteration_budget_stops_at_the_time_cap() -> None:
    game = get_game("hack-and-slash")
    state = game.setup(game.make_config({"players": 3}), 7)
    bot = make_bot("bot:mcts:10000000:pure", game)
    assert isinstance(bot, ISMCTSBot)
    bot.cap_millis = 50
    started = time.perf_counter()
    bot.choose(InfoSet(game, state, game.actor(state) or 0, Rng(1)))
    assert bot.last_iterations < 10_000_000
    # Loose: the cap ended the search, not the ten million iterations.
    assert time.perf_counter() - started < 30


def test_a_search_table_plays_to_the_end_through_the_pool(sqlite_url: str, tk: Any) -> None:
    limits = Limits(search_workers=1)
    with TestClient(create_app(sqlite_url, bot_delay=0.0, limits=limits)) as client:
        data = tk.create(
            client,
            seats=["human", "bot:mcts:20:pure", "bot:random"],
            options={"round_limit": 1},
            seed=3,
        )
        tid = data["id"]
        with tk.join(client, tid, 0, tk.tokens(data)[0]) as zero, tk.join(client, tid) as watcher:
            final = tk.play_to_end({0: zero}, watchers=(watcher,))
        record = client.get(f"/api/tables/{tid}/record").json()
    assert final["result"] is not None
    assert "bot:mcts:20:pure" in record["seats"]


# -- sockets of one address -------------------------------------------------------------------


def test_one_address_may_hold_only_so_many_sockets(sqlite_url: str, tk: Any) -> None:
    limits = Limits(sockets_per_client=3)
    with TestClient(create_app(sqlite_url, bot_delay=0.0, limits=limits)) as client:
        data = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
        tid = data["id"]
        with tk.join(client, tid), tk.join(client, tid), tk.join(client, tid):
            # Refused at the handshake, before a byte of it is read.
            with pytest.raises(WebSocketDisconnect) as refused, tk.connect(client, tid):
                pass
            assert refused.value.code == 1013
        # Once they have gone, the address may connect again.
        with tk.join(client, tid) as again:
            assert again.welcome["seat"] is None


def test_a_level_is_seated_by_name_and_a_search_level_keeps_to_the_servers_limits(
    sqlite_url: str,
) -> None:
    # Issue 42: `bot:hard` is a search (Crits & Tricks' levels.toml); the server checks
    # the search it plays as, so a level is no way round the limits.
    from tavernkeep.agents.levels import game_levels

    hard = game_levels(get_game("crits-and-tricks")).get("hard")  # type: ignore[union-attr]
    assert hard is not None and hard.bot.startswith("bot:mcts:")
    iterations = int(hard.bot.split(":")[2])
    seats = ["human", "bot:hard", "bot:easy"]
    tight = Limits(search=SearchLimits(iterations=iterations - 1))
    with TestClient(create_app(sqlite_url, limits=tight)) as client:
        refused = client.post("/api/tables", json={"game": "crits-and-tricks", "seats": seats})
        assert f"at most {iterations - 1:,} iterations" in one_line(refused, 400)
    with TestClient(create_app(sqlite_url)) as client:
        created = client.post("/api/tables", json={"game": "crits-and-tricks", "seats": seats})
        assert created.status_code == 201, created.text
        table = client.get(f"/api/tables/{created.json()['id']}").json()
        assert [s["agent"] for s in table["seats"]][1:] == ["bot:hard", "bot:easy"]
        refused = client.post("/api/tables", json={"game": "rage", "seats": ["bot:expert"]})
        assert "Rage offers the levels easy, normal" in one_line(refused, 400)
