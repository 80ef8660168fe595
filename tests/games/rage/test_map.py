"""Rage's map: the standard village can be played (35 food, 7 skeletons, everything within
reach, legal patrols), the derived tables agree with the geometry, and every mistake a
map designer can make is one line naming the file, the entry and the field."""

from __future__ import annotations

import copy
import re
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from tavernkeep.engine.content import Pack, load_pack
from tavernkeep.engine.errors import ContentError
from tavernkeep.games.rage import content
from tavernkeep.games.rage.content import NONE, RageMap, sketch
from tavernkeep.games.rage.hexes import distance, edge, neighbour, opposite
from tavernkeep.games.rage.hexes import distances as village_distances

CONTENT_DIR = Path(content.__file__).parent / "content"
VILLAGE = CONTENT_DIR / "village.toml"
MAP_DOC = Path(content.__file__).parent / "MAP.md"


def load(source: str | Path | None) -> Pack[RageMap]:
    return load_pack("rage", RageMap, source, CONTENT_DIR)


@pytest.fixture(scope="module")
def village() -> RageMap:
    return load(VILLAGE).content


def reach(m: RageMap, start: int) -> set[int]:
    seen = {start}
    todo = deque([start])
    while todo:
        cell = todo.popleft()
        for nxt in m.step[cell]:
            if nxt != NONE and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


# -- the standard map --------------------------------------------------------------------


def test_the_village_loads_by_path_by_name_and_by_default() -> None:
    pack = load(VILLAGE)
    assert pack.content.name == "The Fallen Village"
    assert load("village").digest == pack.digest
    assert content.load().digest == pack.digest
    assert content.load().name == content.STANDARD_MAP == "village"


def test_the_village_has_35_food_and_7_skeletons(village: RageMap) -> None:
    assert sum(village.food) == 35
    assert sum(cubes for _q, _r, cubes in village.food_spots) == 35
    assert len(village.skeleton) == len(village.patrols) == 7


def test_the_exits_are_on_the_outer_wall_and_far_apart(village: RageMap) -> None:
    centre = (0, 0)
    assert distance(centre, village.start) == distance(centre, village.gate) == 7
    assert distance(village.start, village.gate) == 14
    assert village.exits == {village.start_cell, village.gate_cell}


def test_every_food_hex_and_the_gate_are_reachable_from_the_start(village: RageMap) -> None:
    reachable = reach(village, village.start_cell)
    food_cells = [cell for cell, cubes in enumerate(village.food) if cubes]
    assert food_cells
    assert all(cell in reachable for cell in food_cells)
    assert village.gate_cell in reachable
    # Nothing open is cut off at all: every street and room can be walked to.
    assert reachable == set(range(len(village.cells)))


def test_every_patrol_loop_is_legal(village: RageMap) -> None:
    starts = [loop[0] for loop in village.patrols]
    assert len(set(starts)) == len(starts)
    assert village.start_cell not in starts
    for loop in village.patrols:
        assert len(loop) >= 2
        for i, cell in enumerate(loop):
            assert loop[(i + 1) % len(loop)] in village.step[cell]
    # Each skeleton walks its own streets: no two loops share a hex.
    walked = [cell for loop in village.patrols for cell in set(loop)]
    assert len(walked) == len(set(walked))


def test_the_houses_have_one_or_two_doors_and_most_hold_food(village: RageMap) -> None:
    assert len(village.house) >= 8
    assert all(1 <= len(house.doors) <= 2 for house in village.house)
    fed = {village.house_of[cell] for cell, cubes in enumerate(village.food) if cubes}
    assert len(fed - {NONE}) >= len(village.house) - 1
    # No house is entered without crossing its outline at a door.
    for k, house in enumerate(village.house):
        doors = {edge(*content.parse_side(text)) for text in house.doors}
        for h in house.hexes:
            cell = village.index[h]
            for d, nxt in enumerate(village.step[cell]):
                if nxt != NONE and village.house_of[nxt] != k:
                    assert edge(h, d) in doors


def test_the_tables_agree_with_the_geometry(village: RageMap) -> None:
    m = village
    assert len(m.cells) == len(m.index) == len(m.step) == len(m.sight)
    assert len(m.house_of) == len(m.food) == len(m.cells)
    assert list(m.cells) == sorted(m.cells, key=lambda h: (h[1], h[0]))
    assert not set(m.cells) & set(m.rubble)
    for cell, h in enumerate(m.cells):
        assert m.index[h] == cell
        for d, nxt in enumerate(m.step[cell]):
            other = neighbour(h, d)
            if nxt == NONE:
                assert other not in m.index or edge(h, d) in m.walls
            else:
                assert m.cells[nxt] == other
                assert edge(h, d) not in m.walls
                assert m.step[nxt][opposite(d)] == cell
        for facing in range(6):
            seen = m.sight[cell][facing]
            assert seen[0] == cell
            assert all(distance(h, m.cells[c]) <= 2 for c in seen)
            assert len(seen) <= 5


def test_walls_are_house_outlines_and_the_extra_walls(village: RageMap) -> None:
    m = village
    extra = {edge(*content.parse_side(text)) for text in m.wall_sides}
    assert extra <= m.walls
    doors = {edge(*content.parse_side(t)) for house in m.house for t in house.doors}
    assert not doors & m.walls
    for h, d in m.walls:
        assert d in (0, 1, 5)
        assert distance((0, 0), h) <= m.radius
        assert distance((0, 0), neighbour(h, d)) <= m.radius


def test_a_wall_hides_what_lies_behind_it(village: RageMap) -> None:
    # From the market east of the Tankard's front door, looking east into the closed taproom
    # wall: the Tankard's cellar beyond is never seen from outside but through a door.
    m = village
    cellar = m.index[(4, -1)]
    for cell, h in enumerate(m.cells):
        if m.house_of[cell] == m.house_of[cellar]:
            continue
        for facing in range(6):
            if cellar in m.sight[cell][facing]:
                assert distance(h, (4, -1)) == 2


def test_every_cube_can_be_gathered_before_dawn(village: RageMap) -> None:
    # Knighthood must be possible: a walk from the gap that ends a move on every hex of
    # food, then leaves by an exit, fits in the night (skeletons aside). A move covers 3
    # hexes and stops on the food; the shortest such tour, by nearest neighbour and 2-opt.
    m = village
    spots = [c for c, n in enumerate(m.food) if n]
    far = {c: village_distances(m.step, [c]) for c in [m.start_cell, *spots]}
    to_exit = village_distances(m.step, sorted(m.exits))

    def moves(order: list[int]) -> int:
        total, here = 0, m.start_cell
        for spot in order:
            total += -(-far[here][spot] // 3)
            here = spot
        return total + -(-to_exit[here] // 3)

    order: list[int] = []
    here, left = m.start_cell, set(spots)
    while left:
        here = min(left, key=lambda c: (far[here][c], c))
        order.append(here)
        left.remove(here)
    best, better = moves(order), True
    while better:
        better = False
        for i in range(len(order)):
            for j in range(i + 2, len(order) + 1):
                turned = order[:i] + order[i:j][::-1] + order[j:]
                if moves(turned) < best:
                    order, best, better = turned, moves(turned), True
    assert best <= m.dawn - 10, f"every cube takes {best} moves; the night is {m.dawn}"


def test_a_night_without_turns_is_refused(tmp_path: Path) -> None:
    assert error(tmp_path, dawn=0) == "field 'dawn': Input should be greater than or equal to 1"


def test_map_md_shows_the_current_village(village: RageMap) -> None:
    doc = MAP_DOC.read_text(encoding="utf-8")
    assert sketch(village) in doc
    assert sketch(village, patrols=True) in doc
    for item in (*village.house, *village.skeleton):
        assert item.name.lower() in doc.lower()


# -- a designer's mistakes ----------------------------------------------------------------

BASE: dict[str, Any] = {
    "name": "Test Hamlet",
    "radius": 3,
    "start": [-3, 3],
    "gate": [3, -3],
    "rubble": [[0, 0]],
    "walls": ["-1,1 E"],
    "food": [[1, 0, 20], [-1, 1, 5]],
    "house": [{"name": "The Hut", "hexes": [[1, -1], [2, -1]], "doors": ["1,-1 W"]}],
    "skeleton": [
        {"name": "Bones", "patrol": [[0, -1], [-1, -1]]},
        {"name": "Rattles", "patrol": [[0, 2], [1, 1], [1, 2]]},
    ],
}


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(value)


def to_toml(data: dict[str, Any]) -> str:
    lines = [f"{k} = {toml_value(v)}" for k, v in data.items() if k not in ("house", "skeleton")]
    for table in ("house", "skeleton"):
        for entry in data.get(table, []):
            lines.append(f"\n[[{table}]]")
            lines.extend(f"{k} = {toml_value(v)}" for k, v in entry.items())
    return "\n".join(lines) + "\n"


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "hamlet.toml"
    path.write_text(to_toml(data), encoding="utf-8")
    return path


def error(tmp_path: Path, **changes: Any) -> str:
    data = copy.deepcopy(BASE)
    for key, value in changes.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    path = write(tmp_path, data)
    with pytest.raises(ContentError) as info:
        load(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    # Where the file has the mistake's line, the message names it first (engine/content).
    return re.sub(r"^line \d+: ", "", message.removeprefix(f"{path}: "))


def skeletons(*patrols: list[list[int]]) -> list[dict[str, Any]]:
    names = ("Bones", "Rattles", "Miller", "Grin")
    return [{"name": names[i], "patrol": p} for i, p in enumerate(patrols)]


def test_the_small_map_itself_is_valid(tmp_path: Path) -> None:
    m = load(write(tmp_path, BASE)).content
    assert sum(m.food) == 25
    assert len(m.cells) == 37 - 1
    assert m.step[m.index[(-1, 1)]][0] == NONE  # the extra wall
    assert m.step[m.index[(1, -1)]][3] == m.index[(0, -1)]  # the Hut's door
    assert m.step[m.index[(1, -1)]][4] == NONE  # the Hut's outline
    assert m.house_of[m.index[(2, -1)]] == 0
    assert m.house_of[m.index[(2, 0)]] == NONE
    bones = (m.index[(0, -1)], m.index[(-1, -1)])
    rattles = (m.index[(0, 2)], m.index[(1, 1)], m.index[(1, 2)])
    assert m.patrols == (bones, rattles)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"food": [[1, 0, 20], [-1, 1, 4], [4, 0, 1]]}, "food #3 (4,0) is outside the village"),
        ({"rubble": [[0, 0], [0, -4]]}, "rubble #2 (0,-4) is outside the village"),
        ({"walls": ["-1,1 E", "5,0 W"]}, "walls #2 '5,0 W': (5,0) is outside the village"),
        (
            {"house": [{"name": "The Hut", "hexes": [[1, -1], [2, -1], [3, -1], [4, -1]]}]},
            "house #1 'The Hut': hex 4 (4,-1) is outside the village",
        ),
        (
            {"skeleton": skeletons([[0, -1], [-1, -1]], [[0, 3], [0, 4]])},
            "skeleton #2 'Rattles': patrol hex 2 (0,4) is outside the village",
        ),
        ({"start": [-4, 4]}, "field 'start': (-4,4) is outside the village"),
    ],
)
def test_a_hex_outside_the_village(tmp_path: Path, changes: dict[str, Any], expected: str) -> None:
    assert error(tmp_path, **changes) == expected + " (radius 3)"


def test_the_start_not_on_the_outer_ring(tmp_path: Path) -> None:
    assert error(tmp_path, start=[-2, 2]) == (
        "field 'start': (-2,2) is not on the outer ring (distance 3 from (0,0))"
    )


def test_the_gate_not_on_the_outer_ring(tmp_path: Path) -> None:
    assert error(tmp_path, gate=[1, -1]).startswith("field 'gate': (1,-1) is not on the outer ring")


def test_a_patrol_step_across_a_wall(tmp_path: Path) -> None:
    patrols = skeletons([[0, -1], [-1, -1]], [[0, 2], [1, 1]], [[-1, 2], [-1, 1], [0, 1]])
    assert error(tmp_path, skeleton=patrols) == (
        "skeleton #3 'Miller': patrol step 2 (-1,1) to (0,1) crosses a wall"
    )


def test_a_patrol_step_through_a_house_wall(tmp_path: Path) -> None:
    patrols = skeletons([[0, -1], [1, -2], [2, -2], [2, -1]])
    assert error(tmp_path, skeleton=patrols) == (
        "skeleton #1 'Bones': patrol step 3 (2,-2) to (2,-1) crosses a wall"
    )


def test_a_patrol_step_to_a_hex_not_adjacent(tmp_path: Path) -> None:
    patrols = skeletons([[0, -1], [-1, -1]], [[0, 2], [1, 1], [2, 1], [0, 3]])
    assert error(tmp_path, skeleton=patrols) == (
        "skeleton #2 'Rattles': patrol step 3 (2,1) to (0,3) is not to a neighbouring hex"
    )


def test_a_patrol_whose_last_hex_does_not_lead_back_to_the_first(tmp_path: Path) -> None:
    patrols = skeletons([[0, -1], [-1, -1], [-2, -1]])
    assert error(tmp_path, skeleton=patrols) == (
        "skeleton #1 'Bones': patrol step 3 (-2,-1) to (0,-1) is not to a neighbouring hex"
    )


def test_a_patrol_on_rubble(tmp_path: Path) -> None:
    patrols = skeletons([[0, -1], [-1, -1]], [[1, 0], [0, 0]])
    assert error(tmp_path, skeleton=patrols) == (
        "skeleton #2 'Rattles': patrol hex 2 (0,0) is on rubble"
    )


def test_food_on_rubble(tmp_path: Path) -> None:
    assert error(tmp_path, food=[[1, 0, 20], [0, 0, 5]]) == "food #2 (0,0) is on rubble"


def test_food_not_reachable_from_the_start(tmp_path: Path) -> None:
    hut = {"name": "The Hut", "hexes": [[1, -1], [2, -1]]}  # no door
    assert error(tmp_path, house=[hut], food=[[1, 0, 20], [2, -1, 5]]) == (
        "food #2 (2,-1) cannot be reached from the start (-3,3)"
    )


def test_a_door_not_on_its_houses_outline(tmp_path: Path) -> None:
    hut = {"name": "The Hut", "hexes": [[1, -1], [2, -1]], "doors": ["1,-1 W", "1,-1 E"]}
    assert error(tmp_path, house=[hut]) == (
        "house #1 'The Hut': door 2 '1,-1 E' is not on the house's outline"
    )


def test_a_door_far_from_its_house(tmp_path: Path) -> None:
    hut = {"name": "The Hut", "hexes": [[1, -1], [2, -1]], "doors": ["-2,1 E"]}
    assert error(tmp_path, house=[hut]) == (
        "house #1 'The Hut': door 1 '-2,1 E' is not on the house's outline"
    )


def test_a_door_named_from_outside_is_on_the_outline(tmp_path: Path) -> None:
    data = copy.deepcopy(BASE)
    data["house"][0]["doors"] = ["0,-1 E"]  # the same edge as "1,-1 W"
    m = load(write(tmp_path, data)).content
    assert m.step[m.index[(0, -1)]][0] == m.index[(1, -1)]


def test_two_skeletons_starting_on_one_hex(tmp_path: Path) -> None:
    patrols = skeletons([[0, -1], [-1, -1]], [[0, 2], [1, 1]], [[0, 2], [-1, 2]])
    assert error(tmp_path, skeleton=patrols) == (
        "skeleton #3 'Miller': starts on (0,2), where skeleton #2 starts"
    )


def test_a_skeleton_starting_on_the_gap_in_the_walls(tmp_path: Path) -> None:
    patrols = skeletons([[-3, 3], [-2, 2]])
    assert error(tmp_path, skeleton=patrols) == (
        "skeleton #1 'Bones': starts on the start hex (-3,3)"
    )


def test_start_and_gate_unreachable_from_each_other(tmp_path: Path) -> None:
    # A line of rubble right across the village, east to west through the well.
    rubble = [[q, 0] for q in range(-3, 4)]
    patrols = skeletons([[0, 2], [1, 1]])
    assert (
        error(
            tmp_path,
            rubble=rubble,
            walls=[],
            food=[[-1, 1, 25]],
            house=[],
            skeleton=patrols,
        )
        == "field 'gate': (3,-3) and the start (-3,3) cannot be reached from each other"
    )


def test_too_little_food_to_win(tmp_path: Path) -> None:
    assert error(tmp_path, food=[[1, 0, 20], [-1, 1, 4]]) == (
        "field 'food': 24 cubes in all; a game needs at least 25 to be won"
    )


# -- more mistakes: the shape of the file ---------------------------------------------


def test_the_start_on_rubble(tmp_path: Path) -> None:
    assert error(tmp_path, rubble=[[0, 0], [-3, 3]]) == "field 'start': (-3,3) is on rubble"


def test_the_gate_on_the_start(tmp_path: Path) -> None:
    assert error(tmp_path, gate=[-3, 3]) == "field 'gate': (-3,3) is the start hex too"


def test_food_twice_on_one_hex(tmp_path: Path) -> None:
    assert error(tmp_path, food=[[1, 0, 20], [1, 0, 5]]) == (
        "food #2 (1,0) is on the hex of food #1: give that entry the cubes"
    )


def test_food_of_no_cubes(tmp_path: Path) -> None:
    message = error(tmp_path, food=[[1, 0, 25], [-1, 1, 0]])
    assert message == "food #2: 0 cubes: food is at least 1 cube"


def test_food_without_its_cubes(tmp_path: Path) -> None:
    assert error(tmp_path, food=[[1, 0, 25], [-1, 1]]) == "food #2: [-1, 1] is not [q, r, cubes]"


def test_a_hex_that_is_not_two_integers(tmp_path: Path) -> None:
    assert error(tmp_path, start=[-3, "3"]) == "start #2: Input should be a valid integer"
    assert error(tmp_path, start=[-3, 3, 0]) == "field 'start': [-3, 3, 0] is not [q, r]"


def test_a_wall_that_does_not_parse(tmp_path: Path) -> None:
    message = error(tmp_path, walls=["-1,1 E", "-1,1 North"])
    assert (
        message == "walls #2: '-1,1 North' is not a hex side like '2,-1 NE' (sides E/NE/NW/W/SW/SE)"
    )


def test_a_wall_on_the_outer_wall(tmp_path: Path) -> None:
    assert error(tmp_path, walls=["3,-3 NE"]) == (
        "walls #1 '3,-3 NE': on the outer wall, which is no edge"
    )


def test_a_door_that_does_not_parse(tmp_path: Path) -> None:
    hut = {"name": "The Hut", "hexes": [[1, -1], [2, -1]], "doors": ["1 -1 W"]}
    assert error(tmp_path, house=[hut]).startswith("house #1 'The Hut': doors #1: '1 -1 W'")


def test_a_door_walled_up(tmp_path: Path) -> None:
    assert error(tmp_path, walls=["0,-1 E"]) == (
        "house #1 'The Hut': door 1 '1,-1 W' is walled up by an entry of 'walls'"
    )


def test_a_house_in_pieces(tmp_path: Path) -> None:
    hut = {"name": "The Hut", "hexes": [[1, -1], [2, 0]], "doors": ["1,-1 W"]}
    assert error(tmp_path, house=[hut]) == "house #1 'The Hut': its hexes are not connected"


def test_two_houses_on_one_hex(tmp_path: Path) -> None:
    huts = [
        {"name": "The Hut", "hexes": [[1, -1], [2, -1]], "doors": ["1,-1 W"]},
        {"name": "The Shed", "hexes": [[2, -1], [2, -2]], "doors": ["2,-2 W"]},
    ]
    assert error(tmp_path, house=huts) == (
        "house #2 'The Shed': hex 1 (2,-1) is in house 'The Hut' already"
    )


def test_a_house_on_rubble(tmp_path: Path) -> None:
    hut = {"name": "The Hut", "hexes": [[1, -1], [1, 0], [0, 0]], "doors": ["1,-1 W"]}
    assert error(tmp_path, house=[hut]) == "house #1 'The Hut': hex 3 (0,0) is on rubble"


def test_two_skeletons_of_one_name(tmp_path: Path) -> None:
    patrols = [
        {"name": "Bones", "patrol": [[0, -1], [-1, -1]]},
        {"name": "Bones", "patrol": [[0, 2], [1, 1]]},
    ]
    assert error(tmp_path, skeleton=patrols) == (
        "skeleton #2 'Bones': field 'name': another card has that name"
    )


def test_a_patrol_of_one_hex(tmp_path: Path) -> None:
    patrols = skeletons([[0, -1]])
    assert error(tmp_path, skeleton=patrols).startswith("skeleton #1 'Bones': field 'patrol': ")


def test_no_skeletons(tmp_path: Path) -> None:
    assert error(tmp_path, skeleton=None) == "field 'skeleton': is missing"


def test_strict_types_and_unknown_fields(tmp_path: Path) -> None:
    assert error(tmp_path, radius="3").startswith("field 'radius': ")
    # Nothing like 'fog' among the map's fields: the line lists them (issue 40, item 9).
    said = error(tmp_path, fog=True)
    assert said.startswith("field 'fog': is not a known field (fields: name, radius, "), said
