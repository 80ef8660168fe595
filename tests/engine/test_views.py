"""Every game's views: a caller may change a view it was given without changing the next.

Views build the unchanging parts of a position (card faces, the map) once and copy them
out; a renderer or a server that annotates a view it holds must not write into those
shared parts, or the next view (another seat's, or the next step's) would show it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tavernkeep.engine.rng import Rng
from tavernkeep.games import game_names, get_game


def scribble(value: Any) -> None:
    """Overwrite every dict reachable in a view, as a careless caller might."""
    if isinstance(value, dict):
        for key in list(value):
            inner = value[key]
            scribble(inner)
            value[key] = "scribbled"
    elif isinstance(value, list):
        for inner in value:
            scribble(inner)


@pytest.mark.parametrize("name", game_names())
def test_changing_a_view_never_changes_the_next(name: str) -> None:
    game = get_game(name)
    config = game.make_config({})
    pack = game.load_pack(None)
    players = getattr(config, "players", 1)
    rng = Rng(3)
    positions = 0
    for seed in range(1, 30):
        state = game.setup(config, seed, pack)
        while game.actor(state) is not None and positions < 300:
            for seat in (None, *range(players)):
                first = game.view(state, seat)
                before = json.dumps(first, sort_keys=True)
                scribble(first)
                assert json.dumps(game.view(state, seat), sort_keys=True) == before
            positions += 1
            legal = game.legal_actions(state)
            game.apply(state, legal[rng.below(len(legal))], record=False)
        if positions >= 300:
            break
    assert positions == 300


@pytest.mark.parametrize("name", game_names())
def test_what_a_bot_reads_is_what_its_seat_knows(name: str) -> None:
    """`Game.observe`, what a bot reads in place of the view, tells a seat nothing its view
    does not: it is the same on every twin `determinize` deals of what the seat cannot
    see (other hands, decks, the dice to come)."""
    game = get_game(name)
    config = game.make_config({})
    pack = game.load_pack(None)
    players = getattr(config, "players", 1)
    rng = Rng(5)
    positions = 0
    for seed in range(1, 40):
        state = game.setup(config, seed, pack)
        while game.actor(state) is not None and positions < 200:
            seat = positions % players
            seen = game.observe(state, seat)
            for k in range(3):
                twin = game.determinize(state, seat, Rng(1000 * seed + k))
                assert game.observe(twin, seat) == seen, f"seat {seat}, position {positions}"
            positions += 1
            legal = game.legal_actions(state)
            game.apply(state, legal[rng.below(len(legal))], record=False)
        if positions >= 200:
            break
    assert positions == 200
