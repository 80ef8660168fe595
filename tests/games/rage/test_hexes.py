"""Rage hex geometry against hand-computed cases: directions and distances, canonical edge
names, the five-hex cone in every facing, line of sight through edge walls (lenient where
the segment runs along an edge) and which neighbours are behind a figure."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

import pytest

from tavernkeep.games.rage.hexes import (
    DIRECTION_NAMES,
    DIRECTIONS,
    Edge,
    Hex,
    behind,
    cone,
    direction_to,
    disc,
    distance,
    edge,
    line,
    neighbour,
    neighbours,
    opposite,
    pixel,
    ring,
    sight,
    visible,
)

ORIGIN: Hex = (0, 0)
E, NE, NW, W, SW, SE = range(6)
NO_WALLS: frozenset[Edge] = frozenset()


def in_disc(radius: int) -> Callable[[Hex], bool]:
    def is_open(h: Hex) -> bool:
        return distance(ORIGIN, h) <= radius

    return is_open


def open_everywhere(h: Hex) -> bool:
    return True


def test_directions_and_names() -> None:
    assert DIRECTION_NAMES == ("E", "NE", "NW", "W", "SW", "SE")
    assert [opposite(d) for d in range(6)] == [W, SW, SE, E, NE, NW]
    for d in range(6):
        # Opposite steps cancel.
        assert neighbour(neighbour(ORIGIN, d), opposite(d)) == ORIGIN


def test_neighbours_in_direction_order() -> None:
    assert neighbours((2, -1)) == [(3, -1), (3, -2), (2, -2), (1, -1), (1, 0), (2, 0)]
    assert neighbour((2, -1), NE) == (3, -2)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((0, 0), (0, 0), 0),
        ((0, 0), (1, -1), 1),
        ((0, 0), (2, -1), 2),
        ((0, 0), (3, -1), 3),
        ((1, 2), (-2, 1), 4),  # dq = -3, dr = -1, ds = +4
        ((-3, 3), (3, -3), 6),
    ],
)
def test_distance(a: Hex, b: Hex, expected: int) -> None:
    assert distance(a, b) == expected
    assert distance(b, a) == expected


def test_direction_to() -> None:
    assert direction_to((0, 0), (1, 0)) == E
    assert direction_to((0, 0), (1, -1)) == NE
    assert direction_to((2, 3), (2, 2)) == NW
    assert direction_to((2, 3), (1, 4)) == SW
    assert direction_to((0, 0), (0, 0)) is None
    assert direction_to((0, 0), (2, 0)) is None
    assert direction_to((0, 0), (1, 1)) is None  # distance 2


def test_line() -> None:
    assert line((0, 0), (0, 0)) == [(0, 0)]
    assert line((0, 0), (3, 0)) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert line((0, 0), (0, -2)) == [(0, 0), (0, -1), (0, -2)]
    # At t = 1/3: (1, -1/3, -2/3) rounds to (1, 0); at 2/3: (2, -2/3, -4/3) to (2, -1).
    assert line((0, 0), (3, -1)) == [(0, 0), (1, 0), (2, -1), (3, -1)]
    # Along the edge between (1, 0) and (1, -1): the nudge (+q, +r) picks (1, 0).
    assert line((0, 0), (2, -1)) == [(0, 0), (1, 0), (2, -1)]
    for b in disc(ORIGIN, 5):
        hexes = line(ORIGIN, b)
        assert len(hexes) == distance(ORIGIN, b) + 1
        assert all(direction_to(x, y) is not None for x, y in pairwise(hexes))


def test_ring_and_disc() -> None:
    assert ring((1, 1), 0) == [(1, 1)]
    # From the East hex, counter-clockwise: NE, NW, W, SW, SE.
    assert ring(ORIGIN, 1) == [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    r2 = ring(ORIGIN, 2)
    assert r2[:3] == [(2, 0), (2, -1), (2, -2)]
    assert len(r2) == 12 and all(distance(ORIGIN, h) == 2 for h in r2)
    assert len(set(r2)) == 12
    assert disc(ORIGIN, 1) == [(0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1)]
    d7 = disc((2, -1), 7)
    assert len(d7) == 1 + 3 * 7 * 8 and len(set(d7)) == len(d7)
    assert set(d7) == {h for k in range(8) for h in ring((2, -1), k)}
    with pytest.raises(ValueError):
        disc(ORIGIN, -1)


def test_pixel() -> None:
    assert pixel((0, 0)) == (0.0, 0.0)
    assert pixel((0, 2)) == pytest.approx((3**0.5, 3.0))
    assert pixel((1, -1)) == pytest.approx((3**0.5 / 2, -1.5))  # NE: up and to the right


def test_edge_names_are_canonical() -> None:
    assert edge((0, 0), E) == ((0, 0), E)
    assert edge((1, 0), W) == ((0, 0), E)
    assert edge((0, 0), NW) == ((0, -1), SE)
    assert edge((0, -1), SE) == ((0, -1), SE)
    assert edge((0, 0), SW) == ((-1, 1), NE)
    assert edge((-1, 1), NE) == ((-1, 1), NE)
    for h in disc((3, -2), 3):
        for d in range(6):
            name = edge(h, d)
            # Both sides give the same name, and the name uses E, NE or SE.
            assert edge(neighbour(h, d), opposite(d)) == name
            assert name[1] in (E, NE, SE)
        assert len({edge(h, d) for d in range(6)}) == 6


# The cone from (0, 0), listed by hand: viewer, ahead, straight on, left, right.
CONES = {
    E: [(0, 0), (1, 0), (2, 0), (2, -1), (1, 1)],
    NE: [(0, 0), (1, -1), (2, -2), (1, -2), (2, -1)],
    NW: [(0, 0), (0, -1), (0, -2), (-1, -1), (1, -2)],
    W: [(0, 0), (-1, 0), (-2, 0), (-2, 1), (-1, -1)],
    SW: [(0, 0), (-1, 1), (-2, 2), (-1, 2), (-2, 1)],
    SE: [(0, 0), (0, 1), (0, 2), (1, 1), (-1, 2)],
}


@pytest.mark.parametrize("facing", range(6))
def test_cone(facing: int) -> None:
    assert cone(ORIGIN, facing) == CONES[facing]
    # The same shape anywhere: shift the viewer.
    shifted = [(q + 3, r - 5) for q, r in CONES[facing]]
    assert cone((3, -5), facing) == shifted


@pytest.mark.parametrize("facing", range(6))
def test_sight_without_walls_is_the_cone(facing: int) -> None:
    assert sight(ORIGIN, facing, NO_WALLS, open_everywhere) == CONES[facing]
    assert sight((1, -1), facing, NO_WALLS, open_everywhere) == cone((1, -1), facing)


def test_every_hex_of_an_open_disc_is_visible() -> None:
    is_open = in_disc(6)
    for b in disc(ORIGIN, 6):
        assert visible(ORIGIN, b, NO_WALLS, is_open)
        assert visible(b, ORIGIN, NO_WALLS, is_open)


def test_wall_ahead_blocks_row_1_and_straight_on_not_the_diagonals() -> None:
    walls = frozenset({edge(ORIGIN, E)})
    # (2, -1) is still seen past (1, -1), (1, 1) past (0, 1): one clear way round suffices.
    assert sight(ORIGIN, E, walls, open_everywhere) == [(0, 0), (2, -1), (1, 1)]
    # The wall named from the other side is the same wall.
    assert edge((1, 0), W) in walls
    assert not visible(ORIGIN, (1, 0), walls, open_everywhere)
    assert not visible(ORIGIN, (2, 0), walls, open_everywhere)


def test_diagonal_blocked_when_both_ways_are_walled() -> None:
    # Walls E and NE of the viewer: both ways to (2, -1) cross one of them.
    walls = frozenset({edge(ORIGIN, E), edge(ORIGIN, NE)})
    assert sight(ORIGIN, E, walls, open_everywhere) == [(0, 0), (1, 1)]
    # Same for walls on the far side: between (1, 0) and (2, -1), and (1, -1) and (2, -1).
    far = frozenset({edge((1, 0), NE), edge((1, -1), E)})
    assert not visible(ORIGIN, (2, -1), far, open_everywhere)
    assert visible(ORIGIN, (2, 0), far, open_everywhere)
    # One near wall and the other way's far wall: also both ways walled.
    mixed = frozenset({edge(ORIGIN, E), edge((1, -1), E)})
    assert not visible(ORIGIN, (2, -1), mixed, open_everywhere)
    assert visible(ORIGIN, (1, 1), mixed, open_everywhere)


def test_wall_along_the_sightline_does_not_block() -> None:
    # The segment to (2, -1) runs along the edge between (1, 0) and (1, -1): a wall there is
    # touched, not crossed.
    walls = frozenset({edge((1, 0), NW)})
    assert walls == {((1, -1), SE)}
    assert visible(ORIGIN, (2, -1), walls, open_everywhere)


def test_rubble_blocks() -> None:
    def is_open(h: Hex) -> bool:
        return h != (1, 0)

    # Rubble ahead: not seen itself, hides the hex straight behind, the diagonals seen round it.
    assert sight(ORIGIN, E, NO_WALLS, is_open) == [(0, 0), (2, -1), (1, 1)]

    def blocked_both(h: Hex) -> bool:
        return h not in ((1, 0), (1, -1))

    # Both ways to (2, -1) enter rubble; (1, 1) is still seen past (0, 1).
    assert sight(ORIGIN, E, NO_WALLS, blocked_both) == [(0, 0), (1, 1)]
    # Off the map counts as rubble.
    assert sight(ORIGIN, E, NO_WALLS, in_disc(1)) == [(0, 0), (1, 0)]
    assert sight(ORIGIN, E, NO_WALLS, lambda h: False) == []


def test_long_sightline_checks_every_edge_it_crosses() -> None:
    # (0, 0) to (4, -1) is shallow: it passes x = 2.6 (the (1, 0)-(2, 0) edge) at y = -0.64,
    # above that edge's top vertex (y = -0.5), so it goes (1, 0), (2, -1), (2, 0), (3, -1).
    # `line` keeps one hex per step and skips (2, -1); the walls are read off the segment.
    assert line(ORIGIN, (4, -1)) == [(0, 0), (1, 0), (2, 0), (3, -1), (4, -1)]
    for crossed in (edge((1, 0), NE), edge((2, -1), SE), edge((2, 0), NE)):
        assert not visible(ORIGIN, (4, -1), frozenset({crossed}), open_everywhere)
    assert visible(ORIGIN, (4, -1), frozenset({edge((1, 0), E)}), open_everywhere)
    assert not visible(ORIGIN, (4, -1), NO_WALLS, lambda h: h != (2, -1))


# The three rear neighbours of (0, 0) for each facing, by hand.
REAR = {
    E: {(-1, 0), (0, -1), (-1, 1)},  # W, NW, SW
    NE: {(-1, 1), (-1, 0), (0, 1)},  # SW, W, SE
    NW: {(0, 1), (-1, 1), (1, 0)},  # SE, SW, E
    W: {(1, 0), (0, 1), (1, -1)},  # E, SE, NE
    SW: {(1, -1), (1, 0), (0, -1)},  # NE, E, NW
    SE: {(0, -1), (1, -1), (-1, 0)},  # NW, NE, W
}


@pytest.mark.parametrize("facing", range(6))
def test_behind(facing: int) -> None:
    back = {p for p in neighbours(ORIGIN) if behind(ORIGIN, facing, p)}
    assert back == REAR[facing]
    # Not adjacent, or the same hex: never behind.
    assert not behind(ORIGIN, facing, ORIGIN)
    assert not any(behind(ORIGIN, facing, p) for p in ring(ORIGIN, 2))


def test_directions_table() -> None:
    # The table the names index (and `pixel` agrees: E is +x, NE/NW go up, y down).
    assert DIRECTIONS == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    assert pixel(DIRECTIONS[NW])[1] < 0 < pixel(DIRECTIONS[SE])[1]
