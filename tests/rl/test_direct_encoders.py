"""Direct encoders are the view-built encoding, element for element.

A game's encoding may read the state for a seat straight (`encode_state`) rather than
build the seat's `view` and encode that. The view is the one place secrecy is decided, so a
direct encoder is only trusted because, on at least 10,000 (position, seat) pairs of random
games for each game, covering every seat of every player count (and every Side Quest
scenario), it gives exactly the vector the view gives: same length, same dtype, same
numbers. Finished games are compared too: an environment observes the last position.
"""

from __future__ import annotations

from math import ceil
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed (pip install tavernkeep[rl])")

import numpy as np

from tavernkeep.engine.rng import Rng
from tavernkeep.rl.table import Table

PAIRS = 10_000
"""(position, seat) pairs compared for each game, spread over its settings."""

SETTINGS: dict[str, list[dict[str, Any]]] = {
    "hack-and-slash": [
        {"players": 2, "two_player": True},
        *({"players": n} for n in (3, 4, 5, 6)),
    ],
    "here-to-slay": [{"players": n} for n in (2, 3, 4, 5, 6)],
    "crits-and-tricks": [{"players": n} for n in (2, 3, 4)],
    "side-quest": [
        {"players": n, "scenario": s}
        for n in (1, 2, 3, 4)
        for s in ("The Cellar Below the Inn", "Webs Under Thornhold", "The Ashen Throne")
    ],
    "rage": [{}],
}


def differ(direct: np.ndarray, viewed: np.ndarray) -> str:
    if direct.shape != viewed.shape or direct.dtype != viewed.dtype:
        return f"shape/dtype {direct.shape} {direct.dtype} against {viewed.shape} {viewed.dtype}"
    where = np.flatnonzero(direct != viewed)
    return ", ".join(f"[{i}] {direct[i]} against {viewed[i]}" for i in where[:8])


@pytest.mark.parametrize("game", list(SETTINGS))
def test_the_direct_encoding_is_the_view_built_one(game: str) -> None:
    settings = SETTINGS[game]
    per_setting = ceil(PAIRS / len(settings))
    compared = 0
    for number, options in enumerate(settings):
        table = Table(game, **options)
        assert table.observe_by == "direct", f"{game} has no direct encoder"
        encode, view = table.encoding.encode, table.game.view
        rng = Rng(number + 1)
        seats: set[int] = set()
        seed, done = 1000 * number, 0
        table.reset(seed)
        while done < per_setting:
            for seat in range(table.players):
                direct = table.encoded(seat)
                viewed = encode(view(table.state, seat), seat)
                assert np.array_equal(direct, viewed) and direct.dtype == viewed.dtype, (
                    f"{game} {options} seed {seed}, seat {seat}: {differ(direct, viewed)}"
                )
                seats.add(seat)
                done += 1
            if table.actor() is None:
                table.reset(seed := seed + 1)
                continue
            legal = table.legal()
            table.apply(legal[rng.below(len(legal))])
        assert seats == set(range(table.players))
        compared += done
    assert compared >= PAIRS


def test_the_view_built_encoding_stays_on_request() -> None:
    table = Table("hack-and-slash", observe="view")
    assert table.observe_by == "view"
    table.reset(3)
    viewed = table.encoding.encode(table.game.view(table.state, 0), 0)
    assert np.array_equal(table.encoded(0), viewed)
