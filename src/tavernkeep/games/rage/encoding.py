"""Rage for learning agents: a fixed action indexing and an observation vector.

Built from `view(state, 0)` only; the layout is in ENCODING.md beside this file. The map
is a pack's, so the vector has one block of planes per open cell of that map.
`encode_state` builds the same vector straight from the state, reading only what the view
shows (tests/rl/test_direct_encoders.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.games.rage import rules
from tavernkeep.games.rage.heuristic import Scorer
from tavernkeep.games.rage.hexes import behind
from tavernkeep.games.rage.state import NONE, RageState
from tavernkeep.games.rage.turn import BLUE_HP, LOSE_CONTROL, RED_HP, SNEAK, WIN_FOOD, dawn
from tavernkeep.games.rage.village import Village, village_of

DECISIONS = ("move", "combat", "backstab")
MODES = ("patrolling", "returning", "holding", "destroyed")
PLANES = 6  # me, my sight, food, skeleton, a skeleton's sight, visited house
SCALARS = 12
SKELETON_FIELDS = 2 + len(MODES) + 2  # hp, facing, mode, sees you, back to you
POTENTIAL_SCALE = 10_000.0
"""The planner's scores run from about -7,000 (caught, hurt, nowhere near food) to about
8,000 (a bag near full by the exit): over 10,000, a potential of order one."""

MODE_AT = {mode: MODES.index(shown) for mode, shown in rules.MODES.items()}
"""Where a living skeleton's mode sits in its one-hot, by the state's mode (named as the
view names it)."""
DESTROYED = MODES.index("destroyed")


class RageEncoding:
    def __init__(self, cells: int, skeletons: int) -> None:
        self.cells, self.skeletons = cells, skeletons
        self.actions: list[Action] = [
            *(Action("step", d) for d in range(6)),
            Action("stop"),
            Action("escape"),
            Action("backstab"),
            Action("spare"),
            Action("fight"),
            Action("disengage"),
        ]
        self.size = (
            len(DECISIONS)
            + PLANES * cells
            + SCALARS
            + 6
            + skeletons * SKELETON_FIELDS
            + 2 * skeletons
        )
        # Where the direct encoder writes: the planes, then the numbers after them.
        at = len(DECISIONS)
        self.sight_at, self.food_at = at + cells, at + 2 * cells
        self.skeleton_at, self.seen_at = at + 3 * cells, at + 4 * cells
        self.scalars_at = at + PLANES * cells
        self.facing_at = self.scalars_at + SCALARS
        self.fields_at = self.facing_at + 6
        self.foe_at = self.size - 2 * skeletons
        self.offer_at = self.foe_at + skeletons
        self.village: Village | None = None
        self.houses: list[tuple[int, ...]] = []
        self.counts_at = np.zeros(0, dtype=np.intp)

    def encode(self, view: dict[str, Any], seat: int) -> npt.NDArray[np.float32]:
        out = np.zeros(self.size, dtype=np.float32)
        cells = self.cells
        decision = view["decision"]
        if decision is not None:
            out[DECISIONS.index(decision["kind"])] = 1.0
        at = len(DECISIONS)
        me = view["player"]
        out[at + me["cell"]] = 1.0
        for cell in me["sight"]:
            out[at + cells + cell] = 1.0
        for cell, count in view["food"]:
            out[at + 2 * cells + cell] = count
        for house in view["map"]["houses"]:
            if house["visited"]:
                for cell in house["cells"]:
                    out[at + 5 * cells + cell] = 1.0
        for sk in view["skeletons"]:
            if sk["mode"] != "destroyed":
                out[at + 3 * cells + sk["cell"]] = 1.0
                for cell in sk["sight"]:
                    out[at + 4 * cells + cell] = 1.0
        at += PLANES * cells
        out[at : at + SCALARS] = (
            view["turn"],
            view["turn_limit"],
            me["hp"],
            me["max_hp"],
            me["raging"],
            me["rage"],
            me["bag"],
            me["steps_left"],
            view["food_left"],
            view["rage_limit"],
            view["win_food"],
            sum(view["dice"]),
        )
        at += SCALARS
        out[at + me["facing"]] = 1.0
        at += 6
        for sk in view["skeletons"][: self.skeletons]:
            out[at] = sk["hp"]
            out[at + 1] = sk["facing"]
            out[at + 2 + MODES.index(sk["mode"])] = 1.0
            out[at + 6] = sk["sees_you"]
            out[at + 7] = sk["back_to_you"]
            at += SKELETON_FIELDS
        at = self.size - 2 * self.skeletons
        if view["foe"] is not None:
            out[at + view["foe"]] = 1.0
        if view["offer"] is not None:
            out[at + self.skeletons + view["offer"]] = 1.0
        return out

    def encode_state(self, state: RageState, seat: int) -> npt.NDArray[np.float32]:
        """`encode(view(state, seat), seat)` without building the view. Nothing on the map
        is hidden; the rng (the dice to come) is never read."""
        m = state.map
        if m is not self.village:
            self._read_map(m)
        pos, facing = state.pos, state.facing
        top = state.stack[-1] if state.stack else None
        kind = top.kind if top is not None else ""
        # Every 0/1 element is set in a bytearray (a plain Python write, far cheaper than
        # a numpy one) converted once; the counts, which need not fit a byte (a turn
        # limit may be 10,000), then go in by one numpy write at their places (`counts_at`).
        ones = bytearray(self.size)
        if top is not None:
            ones[DECISIONS.index(kind)] = 1
        ones[len(DECISIONS) + pos] = 1
        at = self.sight_at
        for c in m.sight[pos][facing]:
            ones[at + c] = 1
        for house, visited in zip(self.houses, state.visited, strict=True):
            if visited:
                for i in house:
                    ones[i] = 1
        ones[self.facing_at + facing] = 1
        food = state.food
        counts = [food[c] for c in m.food_cells]  # the only cells that ever hold food
        raging = state.raging
        counts += (
            state.turn,
            dawn(state),
            state.hp,
            RED_HP if raging else BLUE_HP,
            1 if raging else 0,
            state.rage,
            state.bag,
            SNEAK - state.steps if kind == "move" else 0,
            sum(food),
            LOSE_CONTROL,
            WIN_FOOD,
            sum(state.dice),
        )
        me = m.cells[pos]
        skeleton_at, seen_at, fields_at = self.skeleton_at, self.seen_at, self.fields_at
        sk_facing, sk_hp, sk_mode = state.sk_facing, state.sk_hp, state.sk_mode
        for k, cell in enumerate(state.sk_cell):
            turned = sk_facing[k]
            counts += (sk_hp[k], turned)
            at = fields_at + SKELETON_FIELDS * k
            if cell == NONE:
                ones[at + 2 + DESTROYED] = 1
                continue
            ones[at + 2 + MODE_AT[sk_mode[k]]] = 1
            ones[skeleton_at + cell] = 1
            sight = m.sight[cell][turned]
            for c in sight:
                ones[seen_at + c] = 1
            # As the view's: it sees me; beside me with no wall between, its back to me.
            if pos in sight:
                ones[at + 6] = 1
            if pos in m.step[cell] and behind(m.cells[cell], turned, me):
                ones[at + 7] = 1
        if state.foe != NONE:
            ones[self.foe_at + state.foe] = 1
        if kind == "backstab":
            ones[self.offer_at + state.pending[0]] = 1
        out = np.frombuffer(ones, dtype=np.uint8).astype(np.float32)
        out[self.counts_at] = counts
        return out

    def potential(self, state: RageState, seat: int) -> float:
        """How well the night goes, for a learner's shaped reward (`reward="shaped"`,
        rl/table.py): the planning bot's own score of the position (food in the bag, hit
        points and rage, the walk to the next food or the exit, the skeletons about to see
        you), scaled. The game's evaluator, the chance of winning from here, hardly moves
        along a night (0.29 to 0.40 over whole games won and lost), so it teaches a learner
        nothing; this score rises step by step as the planner's nights go well."""
        return Scorer(state).score(state) / POTENTIAL_SCALE

    def _read_map(self, m: Village) -> None:
        """The places on this map the direct encoder writes, worked out once a map."""
        self.village = m
        # A visited house's cells, as the view lists them (`MAP_VIEWS`).
        visited_at = len(DECISIONS) + 5 * self.cells
        houses = rules.MAP_VIEWS(m)["houses"]
        self.houses = [tuple(visited_at + c for c in cells) for _, cells in houses]
        # `encode_state` lists the counts in this order: the food plane's cells that start
        # with food, the scalars, then each skeleton's hp and facing.
        self.counts_at = np.array(
            [
                *(self.food_at + c for c in m.food_cells),
                *range(self.scalars_at, self.scalars_at + SCALARS),
                *(
                    self.fields_at + SKELETON_FIELDS * k + field
                    for k in range(self.skeletons)
                    for field in (0, 1)
                ),
            ],
            dtype=np.intp,
        )


def make_encoding(config: Any, pack: Pack[Any]) -> RageEncoding:
    village = village_of(pack.content)
    return RageEncoding(len(village.cells), len(village.patrols))
