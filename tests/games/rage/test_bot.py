"""The planning bot (`bot:heuristic`): what a player watching it would expect of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games.rage import GAME, RageState
from tavernkeep.games.rage.content import load
from tavernkeep.games.rage.heuristic import PlannerBot, watchers
from tavernkeep.games.rage.turn import dawn


def finish(st: RageState, seed: int = 0) -> str:
    bot = PlannerBot()
    info = InfoSet(GAME, st, 0, Rng(seed))
    while GAME.actor(st) is not None:
        GAME.apply(st, bot.choose(info), record=False)
    return st.ending


def test_with_dawn_near_and_too_little_food_it_goes_home_rather_than_be_caught() -> None:
    st = GAME.setup(GAME.make_config({}), 3)
    m = st.map
    # Twenty cubes in the bag, the rest still about the village, and four moves of night
    # left on the far side of the west quarter, eight hexes from the gap.
    taken = 0
    for cell, cubes in enumerate(st.food):
        gone = min(cubes, 20 - taken)
        st.food[cell] -= gone
        taken += gone
    st.bag = st.eaten = 20
    st.pos, st.facing = m.index[(-7, 3)], 0
    st.turn = dawn(st) - 4
    assert finish(st) == "survived"
    assert st.bag >= 20


def test_given_a_long_night_it_goes_for_every_cube_and_the_knighthood() -> None:
    # On the Fallen Village's own night it stops at 25 (RULES.md, Balance); with a night
    # long enough to walk over every cube left, it goes for them all.
    endings = [
        Match.start(GAME, [PlannerBot()], seed, {"turn_limit": 150}, record_events=False)
        .run()
        .ending
        for seed in range(10)
    ]
    assert "knighted" in endings


@pytest.mark.parametrize("patrol_then_look", [False, True])
def test_it_fears_a_skeleton_that_has_it_in_sight_though_its_next_step_turns_away(
    tmp_path: Path, patrol_then_look: bool
) -> None:
    """The bot weighs the skeletons' next phase by the rules' own reading (RULES 12): Bones,
    on (2,0) facing west, sees the player on (0,0) and rushes at once, though its next
    hex of patrol, (3,0), would turn its back on them. Only under the `patrol_then_look`
    variant does it walk away unseeing."""
    path = tmp_path / "village.toml"
    path.write_text(
        "\n".join(
            [
                'name = "Test"',
                "radius = 4",
                "start = [4, 0]",
                "gate = [-4, 0]",
                "food = [[0, -4, 25]]",
                "walls = []",
                "rubble = []",
                "[[skeleton]]",
                'name = "Bones"',
                "patrol = [[2, 0], [3, 0]]",
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    config = GAME.make_config({"patrol_then_look": patrol_then_look})
    st = GAME.setup(config, 0, load(path))
    m = st.map
    st.sk_cell[0], st.sk_facing[0], st.sk_at[0] = m.index[(2, 0)], 3, 0
    st.pos, st.facing = m.index[(0, 0)], 3
    assert watchers(st) == (0 if patrol_then_look else 1)
