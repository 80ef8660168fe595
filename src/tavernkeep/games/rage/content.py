"""The schema of a Rage map (the content pack) and the tables a game reads from it.

A map is a disc of hexes around (0, 0): the village inside its outer wall. It names the
gap in the walls (`start`, where the player enters) and the front gate (`gate`), both on
the outer ring and both exits; rubble nobody enters or sees through; extra wall edges;
the food; the houses (their outlines are walls except the doors); and the skeletons with
their patrol loops. Validation checks that the map can be played (every food cube
reachable, enough food to win, legal patrols) and reports a mistake in one line naming
the entry. The validated model then offers plain tuples over cell indexes (`cells`,
`step`, `sight`, ...) so the rules never touch coordinates. MAP.md describes the
standard map, "The Fallen Village".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    model_validator,
)

from tavernkeep.engine.content import Pack, check_unique_names, load_pack
from tavernkeep.games.rage.hexes import (
    DIRECTION_NAMES,
    Edge,
    Hex,
    distance,
    distances,
    edge,
    neighbour,
    sight,
)

CONTENT_DIR = Path(__file__).parent / "content"
GAME_NAME = "rage"
STANDARD_MAP = "village"
"""The built-in map a game loads when none is named: content/village.toml."""
WIN_FOOD = 25
"""Food a player must escape with to win (rulebook): a map with less cannot be won."""
NONE = -1

_SIDE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s+([A-Z]{1,2})\s*$")


def parse_side(text: str) -> tuple[Hex, int]:
    """'2,-1 NE' -> ((2, -1), 1): a hex and one of its six sides."""
    match = _SIDE.match(text)
    if match is None or match.group(3) not in DIRECTION_NAMES:
        sides = "/".join(DIRECTION_NAMES)
        raise ValueError(f"'{text}' is not a hex side like '2,-1 NE' (sides {sides})")
    return (int(match.group(1)), int(match.group(2))), DIRECTION_NAMES.index(match.group(3))


def _check_side(text: str) -> str:
    parse_side(text)
    return text


def _shape(size: int, form: str) -> Callable[[Any], Any]:
    """TOML gives lists: check the length here (a clearer message than pydantic's) and
    hand on a tuple, whose strict type then checks the integers."""

    def check(value: Any) -> Any:
        if isinstance(value, list):
            if len(value) != size:
                raise ValueError(f"{value} is not {form}")
            return tuple(value)
        return value

    return check


def _check_cubes(value: tuple[int, int, int]) -> tuple[int, int, int]:
    if value[2] < 1:
        raise ValueError(f"{value[2]} cubes: food is at least 1 cube")
    return value


HexField = Annotated[tuple[int, int], BeforeValidator(_shape(2, "[q, r]"))]
"""[q, r] in TOML."""
FoodField = Annotated[
    tuple[int, int, int], BeforeValidator(_shape(3, "[q, r, cubes]")), AfterValidator(_check_cubes)
]
"""[q, r, cubes] in TOML."""
SideField = Annotated[str, AfterValidator(_check_side)]
"""'q,r SIDE' in TOML: a hex and one of its sides, E NE NW W SW SE."""


def hex_text(h: Hex) -> str:
    return f"({h[0]},{h[1]})"


class House(BaseModel):
    """A house: its outline is walled except at the doors. Entering one angers (+2 rage)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    name: str = Field(min_length=1, max_length=60)
    hexes: list[HexField] = Field(min_length=1, description="connected hexes")
    doors: list[SideField] = Field(
        default_factory=list, description="outline edges left open: 'q,r SIDE'"
    )


class Skeleton(BaseModel):
    """A skeleton starts on the first hex of its loop and walks it one hex a turn."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    name: str = Field(min_length=1, max_length=60)
    patrol: list[HexField] = Field(
        min_length=2,
        description="a loop: each hex adjacent to the next, the last to the first",
    )


class RageMap(BaseModel):
    """A village map. After validation the tables below (cells, step, sight, ...) hold
    cell indexes: `cells[i]` is the hex of cell i, NONE (-1) means no cell."""

    # Strict: `radius = "7"` or `food = [[1, 2, true]]` is a mistake to report.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    name: str = Field(min_length=1, max_length=60)
    radius: int = Field(ge=2, le=12, description="the village: every hex this near (0, 0)")
    start: HexField = Field(description="the gap in the walls, on the outer ring: an exit")
    gate: HexField = Field(description="the front gate, on the outer ring: an exit")
    dawn: int = Field(
        default=150, ge=1, le=10_000, description="turns of night before dawn lifts the mist"
    )
    rubble: list[HexField] = Field(default_factory=list, description="solid hexes")
    # `food` and `walls` in TOML; the model's `food` and `walls` are the derived tables.
    wall_sides: list[SideField] = Field(
        default_factory=list, alias="walls", description="extra wall edges: 'q,r SIDE'"
    )
    food_spots: list[FoodField] = Field(
        default_factory=list, alias="food", description="where the food lies: [q, r, cubes]"
    )
    house: list[House] = Field(default_factory=list, description="[[house]] in TOML")
    skeleton: list[Skeleton] = Field(min_length=1, description="[[skeleton]] in TOML")

    _cells: tuple[Hex, ...] = PrivateAttr(default=())
    _index: dict[Hex, int] = PrivateAttr(default_factory=dict)
    _step: tuple[tuple[int, ...], ...] = PrivateAttr(default=())
    _sight: tuple[tuple[tuple[int, ...], ...], ...] = PrivateAttr(default=())
    _house_of: tuple[int, ...] = PrivateAttr(default=())
    _food: tuple[int, ...] = PrivateAttr(default=())
    _patrols: tuple[tuple[int, ...], ...] = PrivateAttr(default=())
    _walls: frozenset[Edge] = PrivateAttr(default_factory=frozenset)
    _exits: frozenset[int] = PrivateAttr(default_factory=frozenset)

    # -- the derived tables -------------------------------------------------------------

    @property
    def cells(self) -> tuple[Hex, ...]:
        """Every open hex (in the village, not rubble), row by row north to south, west
        to east within a row: cell i is cells[i]."""
        return self._cells

    @property
    def index(self) -> dict[Hex, int]:
        """The cell of each open hex."""
        return self._index

    @property
    def step(self) -> tuple[tuple[int, ...], ...]:
        """step[cell][d]: the cell one step in direction d, NONE where that is off the
        map, rubble or across a wall."""
        return self._step

    @property
    def sight(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """sight[cell][facing]: the cells seen from cell facing that way (the cone of
        hexes.sight: walls and rubble block), the viewer's own cell included."""
        return self._sight

    @property
    def house_of(self) -> tuple[int, ...]:
        """The house (index into `house`) each cell belongs to, NONE for the streets."""
        return self._house_of

    @property
    def food(self) -> tuple[int, ...]:
        """Food cubes lying on each cell at the start of a game."""
        return self._food

    @property
    def start_cell(self) -> int:
        return self._index[self.start]

    @property
    def gate_cell(self) -> int:
        return self._index[self.gate]

    @property
    def exits(self) -> frozenset[int]:
        """The cells the player may escape from: the gap in the walls and the gate."""
        return self._exits

    @property
    def patrols(self) -> tuple[tuple[int, ...], ...]:
        """Each skeleton's loop as cells; it starts on patrols[k][0]."""
        return self._patrols

    @property
    def walls(self) -> frozenset[Edge]:
        """Every wall edge inside the village (canonical `hexes.edge` names): the extra
        walls and each house outline but its doors. The disc's edge is no wall: beyond
        it is simply off the map."""
        return self._walls

    # -- validation ---------------------------------------------------------------------

    @model_validator(mode="after")
    def _build(self) -> RageMap:
        check_unique_names(
            [("house", [h.name for h in self.house]), ("skeleton", [s.name for s in self.skeleton])]
        )
        self._check_places()
        self._walls = self._build_walls()
        self._build_cells()
        self._check_food()
        self._check_exits()
        self._check_patrols()
        self._sight = tuple(
            tuple(
                tuple(self._index[h] for h in sight(cell, facing, self._walls, self._is_open))
                for facing in range(6)
            )
            for cell in self._cells
        )
        return self

    def _in_village(self, h: Hex) -> bool:
        return distance((0, 0), h) <= self.radius

    def _is_open(self, h: Hex) -> bool:
        return h in self._index

    def _check_places(self) -> None:
        """Every hex inside the village; the exits on the outer ring; nothing on rubble."""
        radius = self.radius
        outside = f"is outside the village (radius {radius})"
        rubble = set(self.rubble)
        for field in ("start", "gate"):
            h: Hex = getattr(self, field)
            where = f"field '{field}': {hex_text(h)}"
            if not self._in_village(h):
                raise ValueError(f"{where} {outside}")
            if distance((0, 0), h) != radius:
                raise ValueError(f"{where} is not on the outer ring (distance {radius} from (0,0))")
            if h in rubble:
                raise ValueError(f"{where} is on rubble")
        if self.start == self.gate:
            raise ValueError(f"field 'gate': {hex_text(self.gate)} is the start hex too")
        for n, h in enumerate(self.rubble, start=1):
            if not self._in_village(h):
                raise ValueError(f"rubble #{n} {hex_text(h)} {outside}")
        for n, text in enumerate(self.wall_sides, start=1):
            h, d = parse_side(text)
            if not self._in_village(h):
                raise ValueError(f"walls #{n} '{text}': {hex_text(h)} {outside}")
            if not self._in_village(neighbour(h, d)):
                raise ValueError(f"walls #{n} '{text}': on the outer wall, which is no edge")
        for n, (q, r, _cubes) in enumerate(self.food_spots, start=1):
            if not self._in_village((q, r)):
                raise ValueError(f"food #{n} {hex_text((q, r))} {outside}")
            if (q, r) in rubble:
                raise ValueError(f"food #{n} {hex_text((q, r))} is on rubble")
        housed: dict[Hex, str] = {}
        for n, house in enumerate(self.house, start=1):
            entry = f"house #{n} '{house.name}'"
            for i, h in enumerate(house.hexes, start=1):
                if not self._in_village(h):
                    raise ValueError(f"{entry}: hex {i} {hex_text(h)} {outside}")
                if h in rubble:
                    raise ValueError(f"{entry}: hex {i} {hex_text(h)} is on rubble")
                if h in housed:
                    raise ValueError(f"{entry}: hex {i} {hex_text(h)} is in {housed[h]} already")
                housed[h] = f"house '{house.name}'"
            if not _connected(set(house.hexes)):
                raise ValueError(f"{entry}: its hexes are not connected")
            inside = set(house.hexes)
            for i, text in enumerate(house.doors, start=1):
                h, d = parse_side(text)
                if (h in inside) == (neighbour(h, d) in inside) or not self._in_village(h):
                    raise ValueError(f"{entry}: door {i} '{text}' is not on the house's outline")
        for n, skeleton in enumerate(self.skeleton, start=1):
            entry = f"skeleton #{n} '{skeleton.name}'"
            for i, h in enumerate(skeleton.patrol, start=1):
                if not self._in_village(h):
                    raise ValueError(f"{entry}: patrol hex {i} {hex_text(h)} {outside}")
                if h in rubble:
                    raise ValueError(f"{entry}: patrol hex {i} {hex_text(h)} is on rubble")

    def _build_walls(self) -> frozenset[Edge]:
        walls = {edge(*parse_side(text)) for text in self.wall_sides}
        for n, house in enumerate(self.house, start=1):
            inside = set(house.hexes)
            doors = {edge(*parse_side(text)) for text in house.doors}
            for i, text in enumerate(house.doors, start=1):
                if edge(*parse_side(text)) in walls:
                    raise ValueError(
                        f"house #{n} '{house.name}': door {i} '{text}' is walled up by an "
                        "entry of 'walls'"
                    )
            for h in house.hexes:
                for d in range(6):
                    other = neighbour(h, d)
                    if other not in inside and self._in_village(other) and edge(h, d) not in doors:
                        walls.add(edge(h, d))
        return frozenset(walls)

    def _build_cells(self) -> None:
        radius = self.radius
        rubble = set(self.rubble)
        cells = tuple(
            (q, r)
            for r in range(-radius, radius + 1)
            for q in range(-radius, radius + 1)
            if self._in_village((q, r)) and (q, r) not in rubble
        )
        index = {h: i for i, h in enumerate(cells)}
        walls = self._walls
        step: list[tuple[int, ...]] = []
        for h in cells:
            row = []
            for d in range(6):
                other = neighbour(h, d)
                row.append(index[other] if other in index and edge(h, d) not in walls else NONE)
            step.append(tuple(row))
        house_of = [NONE] * len(cells)
        for k, house in enumerate(self.house):
            for h in house.hexes:
                house_of[index[h]] = k
        self._cells = cells
        self._index = index
        self._step = tuple(step)
        self._house_of = tuple(house_of)
        self._exits = frozenset({index[self.start], index[self.gate]})

    def _reach(self, cell: int) -> list[bool]:
        """Which cells a walk from `cell` can reach (walls and rubble in the way)."""
        far = len(self._cells) + 1
        return [steps < far for steps in distances(self._step, [cell])]

    def _check_food(self) -> None:
        food = [0] * len(self._cells)
        reach = self._reach(self._index[self.start])
        first: dict[Hex, int] = {}
        for n, (q, r, cubes) in enumerate(self.food_spots, start=1):
            cell = self._index[(q, r)]
            if (q, r) in first:
                raise ValueError(
                    f"food #{n} {hex_text((q, r))} is on the hex of food #{first[(q, r)]}: "
                    "give that entry the cubes"
                )
            first[(q, r)] = n
            if not reach[cell]:
                raise ValueError(
                    f"food #{n} {hex_text((q, r))} cannot be reached from the start "
                    f"{hex_text(self.start)}"
                )
            food[cell] = cubes
        total = sum(food)
        if total < WIN_FOOD:
            raise ValueError(
                f"field 'food': {total} cubes in all; a game needs at least {WIN_FOOD} to be won"
            )
        self._food = tuple(food)

    def _check_exits(self) -> None:
        if not self._reach(self._index[self.start])[self._index[self.gate]]:
            raise ValueError(
                f"field 'gate': {hex_text(self.gate)} and the start {hex_text(self.start)} "
                "cannot be reached from each other"
            )

    def _check_patrols(self) -> None:
        starts: dict[Hex, int] = {}
        patrols: list[tuple[int, ...]] = []
        for n, skeleton in enumerate(self.skeleton, start=1):
            entry = f"skeleton #{n} '{skeleton.name}'"
            loop = [self._index[h] for h in skeleton.patrol]
            # Step i (1-based) walks from patrol hex i to the next; the last step, from the
            # last hex back to the first, closes the loop.
            for number in range(1, len(loop) + 1):
                a, b = loop[number - 1], loop[number % len(loop)]
                if b not in self._step[a]:
                    near = distance(self._cells[a], self._cells[b]) == 1
                    how = "crosses a wall" if near else "is not to a neighbouring hex"
                    raise ValueError(
                        f"{entry}: patrol step {number} {hex_text(self._cells[a])} to "
                        f"{hex_text(self._cells[b])} {how}"
                    )
            first = skeleton.patrol[0]
            if first in starts:
                raise ValueError(
                    f"{entry}: starts on {hex_text(first)}, where skeleton #{starts[first]} starts"
                )
            if first == self.start:
                raise ValueError(f"{entry}: starts on the start hex {hex_text(first)}")
            starts[first] = n
            patrols.append(tuple(loop))
        self._patrols = tuple(patrols)


def _connected(hexes: set[Hex]) -> bool:
    first = next(iter(hexes))
    seen = {first}
    todo = [first]
    while todo:
        h = todo.pop()
        for d in range(6):
            other = neighbour(h, d)
            if other in hexes and other not in seen:
                seen.add(other)
                todo.append(other)
    return seen == hexes


def load(source: str | Path | None = None) -> Pack[RageMap]:
    """The standard map (content/village.toml), a built-in map by name, or a designer's
    .toml file by path."""
    return load_pack(GAME_NAME, RageMap, STANDARD_MAP if source is None else source, CONTENT_DIR)


def sketch(m: RageMap, patrols: bool = False) -> str:
    """The map in ASCII, north up, each hex three characters: a house's letter (A for the
    first [[house]]), then the food cubes ('.' for none; '@' the gap in the walls, '^' the
    gate; '#' rubble), then the number of a skeleton starting there. Walls: '|' between
    east-west neighbours, '/' and '\\' on the slanted edges between rows. With `patrols`
    the middle character is instead the number of the skeleton patrolling the hex ('*'
    where loops cross)."""
    radius = m.radius
    width = 8 * radius + 5
    walled = m.walls
    starts = {loop[0]: k for k, loop in enumerate(m.patrols)}
    walkers: dict[int, set[int]] = {}
    for k, loop in enumerate(m.patrols):
        for spot in loop:
            walkers.setdefault(spot, set()).add(k)
    lines: list[str] = []
    for r in range(-radius, radius + 1):
        row = [" "] * width
        below = [" "] * width
        for q in range(max(-radius, -radius - r), min(radius, radius - r) + 1):
            h = (q, r)
            c = 2 * (2 * q + r) + 4 * radius + 2
            cell = m.index.get(h)
            if cell is None:
                row[c - 1 : c + 2] = "###"
            else:
                house = m.house_of[cell]
                row[c - 1] = chr(ord("A") + house) if house != NONE else " "
                if patrols and cell in walkers:
                    ks = walkers[cell]
                    mid = str(min(ks) + 1) if len(ks) == 1 else "*"
                elif cell == m.start_cell:
                    mid = "@"
                elif cell == m.gate_cell:
                    mid = "^"
                else:
                    mid = str(m.food[cell]) if m.food[cell] else "."
                row[c] = mid
                row[c + 1] = str(starts[cell] + 1) if cell in starts else " "
            if edge(h, 0) in walled:
                row[c + 2] = "|"
            if edge(h, 5) in walled:
                below[c + 1] = "\\"
            if edge(h, 4) in walled:
                below[c - 1] = "/"
        lines.append("".join(row).rstrip())
        if r < radius:
            lines.append("".join(below).rstrip())
    return "\n".join(lines) + "\n"
