"""Rage invariants over thousands of random games, checked after every action.

Food is conserved (on the map or in the bag), rage always equals its ledger (RULES 16),
nobody stands in rubble, off the map or on another's hex, skeletons' hit points stay
within 0-2 and the player's within their tokens, a seat asked to decide always has a
choice, an illegal action changes nothing, and every game ends in a named ending.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import IllegalAction
from tavernkeep.engine.rng import Rng
from tavernkeep.games.rage import GAME, RageState
from tavernkeep.games.rage.state import NONE, PATROLLING
from tavernkeep.games.rage.turn import (
    BLUE_HP,
    ENDINGS,
    LOSE_CONTROL,
    RED_HP,
    START_RAGE,
    WINS,
    dawn,
)

GAMES = 2000
PACK = GAME.load_pack()
FOOD = sum(PACK.content.food)


def check(st: RageState) -> None:
    m = st.map
    cells = len(m.cells)
    # Food: every cube is on the map or in the bag; the bag is what was collected.
    assert sum(st.food) + st.bag == FOOD
    assert st.eaten == st.bag
    assert all(n >= 0 for n in st.food)
    # Rage equals its ledger, and the floor only swallows calming.
    ledger = (
        START_RAGE
        + 2 * st.houses
        + 2 * st.wounds
        + 3 * st.kills
        - st.eaten
        - 3 * st.retreats
        + st.floor
    )
    assert st.rage == ledger >= 0
    assert st.houses == sum(st.visited)
    # Control is lost at 20 and never regained (a killing wound's rage comes too late).
    if not st.raging:
        assert st.rage < LOSE_CONTROL or st.ending == "died"
        assert 0 <= st.hp <= BLUE_HP
    else:
        assert 0 <= st.hp <= RED_HP
    # Nobody in a wall: every unit on an open cell (rubble is not a cell), one a cell.
    living = [c for c in st.sk_cell if c != NONE]
    assert all(0 <= c < cells for c in [st.pos, *living])
    assert len(set(living)) == len(living)
    assert st.pos not in living
    for k, cell in enumerate(st.sk_cell):
        assert 0 <= st.sk_hp[k] <= 2
        assert (cell == NONE) == (st.sk_hp[k] == 0)
        if cell != NONE and st.sk_mode[k] == PATROLLING:
            assert m.patrols[k][st.sk_at[k]] == cell
    assert st.kills == st.sk_cell.count(NONE)
    # The game asks someone exactly while it is not over.
    if st.ending:
        assert GAME.actor(st) is None and GAME.legal_actions(st) == []
        result = GAME.result(st)
        assert result is not None and result.ending in ENDINGS
        assert result.won == (st.ending in WINS)
        assert (st.ending == "died") == (st.hp == 0)
    else:
        assert GAME.actor(st) == 0
        assert GAME.legal_actions(st)
        assert st.turn <= dawn(st)


def play_one(seed: int, turn_limit: int = 150) -> RageState:
    st = GAME.setup(GAME.make_config({"turn_limit": turn_limit}), seed, PACK)
    rng = Rng(seed)
    check(st)
    while GAME.actor(st) is not None:
        legal = GAME.legal_actions(st)
        # Escaping at once ends most random games on turn 1: random players take the
        # exit rarely, so games wander the village and meet its skeletons.
        if len(legal) > 2 and Action("escape") in legal and rng.below(20):
            legal.remove(Action("escape"))
        GAME.apply(st, rng.choice(legal), record=False)
        check(st)
    return st


@pytest.mark.parametrize("block", range(2))
def test_random_games_keep_every_invariant(block: int) -> None:
    endings: Counter[str] = Counter()
    for seed in range(block * GAMES // 2, (block + 1) * GAMES // 2):
        endings[play_one(seed, turn_limit=40 + seed % 80).ending] += 1
    # Random players meet the skeletons: games end in more than one way.
    assert len(endings) >= 3, endings


def test_an_illegal_action_changes_nothing() -> None:
    st = GAME.setup(GAME.make_config({}), 7, PACK)
    rng = Rng(7)
    bad = [
        Action("step", 9),
        Action("step", "x"),
        Action("fight"),
        Action("backstab"),
        Action("jump"),
    ]
    for _ in range(200):
        if GAME.actor(st) is None:
            break
        before = GAME.clone(st)
        for action in bad:
            if action in GAME.legal_actions(st):
                continue
            with pytest.raises(IllegalAction):
                GAME.apply(st, action)
            assert st == before
        GAME.apply(st, rng.choice(GAME.legal_actions(st)))


def test_events_on_and_off_play_the_same_game() -> None:
    for seed in range(30):
        a = GAME.setup(GAME.make_config({}), seed, PACK)
        b = GAME.setup(GAME.make_config({}), seed, PACK)
        rng = Rng(seed)
        while GAME.actor(a) is not None:
            action = rng.choice(GAME.legal_actions(a))
            events = GAME.apply(a, action)
            GAME.apply(b, action, record=False)
            assert a == b
            assert all(e.text for e in events)
