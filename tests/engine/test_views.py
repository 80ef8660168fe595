"""Every game's views: a caller may change a view it was given without changing the next.

Views build the unchanging parts of a position (card faces, the map) once and copy them
out; a renderer or a server that annotates a view it holds must not write into those
shared parts, or the next view (another seat's, or the next step's) would show it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
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


def positions(name: str, count: int, moves: int, last_seed: int) -> Iterator[tuple[Any, int, int]]:
    """`count` positions of random games of `name` at its default table, dealt from seeds
    1, 2, ... up to `last_seed`, each yielded as (state, its game's seed, its number)
    before a random action (from a stream seeded `moves`) moves it on."""
    game = get_game(name)
    config = game.make_config({})
    pack = game.load_pack(None)
    rng = Rng(moves)
    found = 0
    for seed in range(1, last_seed):
        state = game.setup(config, seed, pack)
        while game.actor(state) is not None and found < count:
            yield state, seed, found
            found += 1
            legal = game.legal_actions(state)
            game.apply(state, legal[rng.below(len(legal))], record=False)
        if found >= count:
            break
    assert found == count


def seats_of(name: str) -> int:
    return int(getattr(get_game(name).make_config({}), "players", 1))


@pytest.mark.parametrize("name", game_names())
def test_changing_a_view_never_changes_the_next(name: str) -> None:
    game = get_game(name)
    for state, _, _ in positions(name, 300, moves=3, last_seed=30):
        for seat in (None, *range(seats_of(name))):
            first = game.view(state, seat)
            before = json.dumps(first, sort_keys=True)
            scribble(first)
            assert json.dumps(game.view(state, seat), sort_keys=True) == before


@pytest.mark.parametrize("name", game_names())
def test_what_a_bot_reads_is_what_its_seat_knows(name: str) -> None:
    """`Game.observe`, what a bot reads in place of the view, tells a seat nothing its view
    does not: it is the same on every twin `determinize` deals of what the seat cannot
    see (other hands, decks, the dice to come)."""
    game = get_game(name)
    players = seats_of(name)
    for state, seed, number in positions(name, 200, moves=5, last_seed=40):
        seat = number % players
        seen = game.observe(state, seat)
        for k in range(3):
            twin = game.determinize(state, seat, Rng(1000 * seed + k))
            assert game.observe(twin, seat) == seen, f"seat {seat}, position {number}"
