"""The village as the rules read it: a map's tables as plain tuples, built once a map.

`RageMap` (content.py) is the validated pack, a pydantic model; its derived tables sit
behind properties, and reading them in the hot loop (every step, every patrol, every
sight check) cost more than the rules themselves. A `Village` holds the same tables as
plain slots, shared by every state of a game on that map.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tavernkeep.engine.content import Derived
from tavernkeep.games.rage.content import House, RageMap, Skeleton
from tavernkeep.games.rage.hexes import Edge, Hex, distances


@dataclass(frozen=True, slots=True, eq=False)
class Village:
    name: str
    radius: int
    dawn: int
    """Turns of night the map gives the player (a game's `turn_limit` may change it)."""
    cells: tuple[Hex, ...]
    """The hex of each cell (every open hex of the map)."""
    index: dict[Hex, int]
    step: tuple[tuple[int, ...], ...]
    """step[cell][d]: the cell a step in direction d reaches, -1 if none (wall, edge, rubble)."""
    sight: tuple[tuple[tuple[int, ...], ...], ...]
    """sight[cell][facing]: the cells seen from there, nearest first."""
    house_of: tuple[int, ...]
    food: tuple[int, ...]
    food_cells: tuple[int, ...]
    """The cells that start with food, in order: the only ones that ever hold any (food
    is taken, never put down), so a view lists the food left without reading every cell."""
    start_cell: int
    gate_cell: int
    exits: frozenset[int]
    exit_cells: tuple[int, ...]
    """The exits in order, as `distances_to` takes them."""
    patrols: tuple[tuple[int, ...], ...]
    walls: frozenset[Edge]
    rubble: frozenset[Hex]
    house: tuple[House, ...]
    skeleton: tuple[Skeleton, ...]
    home: tuple[tuple[int, ...], ...]
    """home[k][cell]: steps from the cell to the nearest hex of skeleton k's loop, the way
    a skeleton that lost the player walks back."""
    tables: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict, repr=False)
    """Distance tables asked for by the bots (see `distances_to`), kept for every game on
    the map."""

    def distances_to(self, cells: tuple[int, ...]) -> tuple[int, ...]:
        """Steps from every cell to the nearest of `cells` (as `distances`), worked out
        once a set of cells: the planner and the search's evaluation ask for the way to
        the exits, to a hex and to the food left at every decision and every rollout."""
        found = self.tables.get(cells)
        if found is None:
            if len(self.tables) >= TABLES_KEPT:
                self.tables.clear()  # a long run's food patterns; the common ones return
            found = self.tables[cells] = distances(self.step, cells)
        return found


TABLES_KEPT = 4096
"""At most this many distance tables a village (a table is a few hundred numbers)."""


def village_of(m: RageMap) -> Village:
    """The village of a map: every game on one map shares it, and its distance tables."""
    return VILLAGES(m)


def build_village(m: RageMap) -> Village:
    return Village(
        name=m.name,
        radius=m.radius,
        dawn=m.dawn,
        cells=m.cells,
        index=m.index,
        step=m.step,
        sight=m.sight,
        house_of=m.house_of,
        food=m.food,
        food_cells=tuple(c for c, n in enumerate(m.food) if n),
        start_cell=m.start_cell,
        gate_cell=m.gate_cell,
        exits=m.exits,
        exit_cells=tuple(sorted(m.exits)),
        patrols=m.patrols,
        walls=m.walls,
        rubble=frozenset(m.rubble),
        house=tuple(m.house),
        skeleton=tuple(m.skeleton),
        home=tuple(distances(m.step, loop) for loop in m.patrols),
    )


VILLAGES: Derived[RageMap, Village] = Derived(build_village)
