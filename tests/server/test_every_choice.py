"""People choosing at random over the server, in every game at every table size (issue 38):
every choice a seat is offered is accepted, over thousands of decisions a game. A check
the server runs around a person's action (the take-back judgement, the clock, the commit)
must never turn an offered choice into a refusal: `Sock.until` fails on any error."""

from __future__ import annotations

import random
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.engine.rng import random_seed
from tavernkeep.games import game_names, get_game
from tavernkeep.server import app as server_app
from tavernkeep.server.app import create_app
from tavernkeep.server.rooms import Limits

DECISIONS = 2000
"""Decisions each game plays, over its table sizes in turn, each game to its end."""


def table_options(name: str, players: int) -> dict[str, Any]:
    return {"two_player": True} if (name, players) == ("hack-and-slash", 2) else {}


@pytest.mark.parametrize("name", game_names())
def test_every_offered_choice_is_accepted(
    sqlite_url: str, tk: Any, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setattr(server_app, "RATE_LIMIT", 10_000)  # a test plays faster than a person
    game = get_game(name)
    sizes = list(range(game.min_players, game.max_players + 1))
    if name == "hack-and-slash":
        sizes.insert(0, 2)  # the two-player variant
    seed = random_seed()
    choose = random.Random(seed)
    played: dict[int, int] = {}
    # A test opens tables faster than a person would.
    limits = Limits(tables_per_minute=1000.0, table_burst=1000)
    app = create_app(sqlite_url, bot_delay=0.0, pass_delay=0.001, limits=limits)
    with TestClient(app) as client:
        while sum(played.values()) < DECISIONS or len(played) < len(sizes):
            players = sizes[len(played) % len(sizes)] if len(played) < len(sizes) else (
                choose.choice(sizes)
            )
            data = tk.create(
                client, game=name, seats=["human"] * players, options=table_options(name, players)
            )
            tid, tokens = data["id"], tk.tokens(data)
            with ExitStack() as stack:
                socks = {
                    s: stack.enter_context(tk.join(client, tid, s, t)) for s, t in tokens.items()
                }
                final = tk.play_to_end(
                    socks,
                    lambda seat, state: str(choose.choice(state["legal"])["action"]),
                    max_actions=20_000,
                )
            assert final["result"] is not None, f"{name} at {players}, choices seeded {seed}"
            played[players] = played.get(players, 0) + final["version"]
    assert sum(played.values()) >= DECISIONS
