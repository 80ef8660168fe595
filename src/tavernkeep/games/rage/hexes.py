"""Hex geometry for Rage: coordinates, edges with walls, the sight cone and line of sight.

Pure geometry, no game knowledge; the map (content.py) uses it to precompute its tables.

Coordinates. Pointy-top hexes in axial coordinates: a hex is `(q, r)`, the third cube
coordinate is `s = -q - r`. On screen x grows to the east and y grows downwards (south), so
north is `r - 1`. The six directions are numbered counter-clockwise from East:

    0 E (+1, 0)   1 NE (+1, -1)   2 NW (0, -1)   3 W (-1, 0)   4 SW (-1, +1)   5 SE (0, +1)

and `opposite(d) = (d + 3) % 6`. A facing is one of these directions: a figure looks
through one edge of its hex. `pixel` puts the centre of a hex of size 1 (centre to corner)
at `x = sqrt(3) * (q + r / 2)`, `y = 1.5 * r`.

Edges. A wall lies on the edge between a hex and a neighbour. Either side may name the edge,
so `edge(h, d)` gives the one canonical name: of `(h, d)` and `(neighbour(h, d),
opposite(d))` the one whose direction is E, NE or SE. Walls are a set of canonical edges.

The sight cone. The rulebook's cone "including the currently occupied hex, goes 3 hexes
forward ... 3 hexes at its zenith compared to the 1 at its nadir". Our reading: row 0 is
the viewer's hex, row 1 the hex ahead, row 2 the three hexes two steps away within 30
degrees either side of the facing, boundaries included: straight on (`2 * d`) and the two
hexes beside it (`d + (d + 1)`, `d + (d - 1)`). Five hexes; facing East from (0, 0):

            .   (2,-1)             row 2, left (d + NE):   (2, -1)
        (0,0) (1,0) (2,0)          rows 0, 1, 2 straight:  (0, 0) (1, 0) (2, 0)
            .   (1,1)              row 2, right (d + SE):  (1, 1)

(the dots, (1, -1) and (0, 1), are beside the viewer, not ahead of it).

`cone` lists them in that order: the viewer, the hex ahead, straight on, left, right.

Line of sight. The segment between the two hex centres is blocked where it crosses a walled
edge or enters a hex that is not open (rubble, off the map). The two side hexes of row 2 lie
exactly 30 degrees off, so their segment runs along the edge between the hex ahead and its
neighbour, through a vertex at each end; longer segments can pass through vertices too. We
nudge the segment sideways by +epsilon and by -epsilon and call the target visible if EITHER
nudged segment is clear (lenient): a wall on one of the two ways round does not hide it,
and a wall the segment only runs along is never crossed. The segment is followed edge by
edge, not by `line` (one hex per step): a long shallow one clips corners `line` skips.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from collections.abc import Set as AbstractSet

Hex = tuple[int, int]
Edge = tuple[Hex, int]
"""A canonical edge `(hex, direction)`, direction E, NE or SE (see `edge`)."""

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
CANONICAL_SIDES = frozenset((0, 1, 5))
"""The directions a canonical edge is named by: E, NE, SE (each edge has one of them)."""

_SQRT3 = math.sqrt(3.0)
_NUDGE = 1e-6
"""How far a line is pushed off a vertex or edge: far below any real geometry here, far
above float error for maps of a few dozen hexes."""
_STEP: tuple[tuple[float, float], ...] = tuple(
    (_SQRT3 * (dq + dr / 2), 1.5 * dr) for dq, dr in DIRECTIONS
)
"""Centre-to-centre vector towards each neighbour (length sqrt(3)); the edge between two
hexes is the perpendicular bisector of that vector, at 1.5 = |v|^2 / 2 along it."""


def opposite(d: int) -> int:
    return (d + 3) % 6


def neighbour(h: Hex, d: int) -> Hex:
    dq, dr = DIRECTIONS[d]
    return (h[0] + dq, h[1] + dr)


def neighbours(h: Hex) -> list[Hex]:
    """The six neighbours in direction order (E, NE, NW, W, SW, SE)."""
    q, r = h
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction from `a` to `b` when they are neighbours, else None."""
    diff = (b[0] - a[0], b[1] - a[1])
    try:
        return DIRECTIONS.index(diff)
    except ValueError:
        return None


def pixel(h: Hex) -> tuple[float, float]:
    """The centre of a pointy-top hex of size 1; y grows southwards."""
    q, r = h
    return (_SQRT3 * (q + r / 2), 1.5 * r)


def _round(q: float, r: float) -> Hex:
    """The hex containing a fractional axial point (cube rounding)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    # The three rounded values may not sum to 0; the one that moved most is the wrong one.
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (rq, rr)


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the line from `a` to `b`, both included: one per step, each adjacent to
    the last. The usual cube nudge (+1e-6, +2e-6, -3e-6) breaks ties the same way every time
    and, not being parallel to any edge, never leaves a point on a boundary."""
    n = distance(a, b)
    if n == 0:
        return [a]
    # Shifting both ends by the same small cube vector keeps the line parallel to itself.
    q0, r0 = a[0] + _NUDGE, a[1] + 2 * _NUDGE
    dq, dr = b[0] - a[0], b[1] - a[1]
    return [_round(q0 + dq * i / n, r0 + dr * i / n) for i in range(n + 1)]


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes at exactly `radius` from `center`: from the one `radius` steps East,
    counter-clockwise (north first). Radius 0 is the centre alone."""
    if radius < 0:
        raise ValueError(f"negative radius {radius}")
    if radius == 0:
        return [center]
    dq, dr = DIRECTIONS[0]
    q, r = center[0] + dq * radius, center[1] + dr * radius
    out: list[Hex] = []
    # From the East corner, side k runs in direction k + 2: NW first, then W, SW, ...
    for k in range(6):
        sq, sr = DIRECTIONS[(k + 2) % 6]
        for _ in range(radius):
            out.append((q, r))
            q, r = q + sq, r + sr
    return out


def disc(center: Hex, radius: int) -> list[Hex]:
    """Every hex within `radius` of `center`, in reading order: north row first (r
    ascending), west to east within a row (q ascending)."""
    if radius < 0:
        raise ValueError(f"negative radius {radius}")
    cq, cr = center
    out: list[Hex] = []
    for dr in range(-radius, radius + 1):
        for dq in range(max(-radius, -dr - radius), min(radius, -dr + radius) + 1):
            out.append((cq + dq, cr + dr))
    return out


def edge(h: Hex, d: int) -> Edge:
    """The canonical name of the edge of `h` in direction `d` (the same from both sides)."""
    if d in CANONICAL_SIDES:
        return (h, d)
    return (neighbour(h, d), opposite(d))


def cone(h: Hex, facing: int) -> list[Hex]:
    """The five hexes of the sight cone (module docstring): the viewer, the hex ahead,
    the hex two straight ahead, then the row-2 hexes to the left and to the right."""
    ahead = neighbour(h, facing)
    return [
        h,
        ahead,
        neighbour(ahead, facing),
        neighbour(ahead, (facing + 1) % 6),
        neighbour(ahead, (facing - 1) % 6),
    ]


def _crossings(a: Hex, b: Hex, side: float) -> Iterator[tuple[Hex, int]]:
    """Walk the segment between the centres of `a` and `b`, pushed `side` sideways, hex by
    hex: yield `(hex, d)` for each edge crossed, leaving `hex` in direction `d`.

    An exact walk rather than `line`: line drawing keeps one hex per step, but a segment
    can clip the corners of more (a shallow one zig-zags between two rows, one passing a
    vertex crossways touches a third hex on one side), and any edge it crosses may hold a
    wall. Up to distance 2 (the cone) each walk is a line of one hex per step, the nudge
    picking the way round."""
    x0, y0 = pixel(a)
    x1, y1 = pixel(b)
    dx, dy = x1 - x0, y1 - y0
    norm = math.hypot(dx, dy)
    x0 -= dy / norm * side
    y0 += dx / norm * side
    # Only the edges the segment heads towards can be its way out (at most three).
    ahead = [
        (d, ux, uy, dx * ux + dy * uy)
        for d, (ux, uy) in enumerate(_STEP)
        if dx * ux + dy * uy > 0.0
    ]
    cur = a
    while cur != b:
        # The segment p(t) = p0 + t * (dx, dy) leaves the current hex through the first
        # edge bisector it reaches: (p(t) - centre) . u = 1.5. The nudge keeps it unique.
        cx, cy = pixel(cur)
        rx, ry = x0 - cx, y0 - cy
        best_t = math.inf
        best_d = -1
        for d, ux, uy, towards in ahead:
            t = (1.5 - (rx * ux + ry * uy)) / towards
            if t < best_t:
                best_t, best_d = t, d
        yield cur, best_d
        cur = neighbour(cur, best_d)


def _clear(
    a: Hex, b: Hex, side: float, walls: AbstractSet[Edge], is_open: Callable[[Hex], bool]
) -> bool:
    for h, d in _crossings(a, b, side):
        if edge(h, d) in walls or not is_open(neighbour(h, d)):
            return False
    return True


def visible(a: Hex, b: Hex, walls: AbstractSet[Edge], is_open: Callable[[Hex], bool]) -> bool:
    """Whether `b` can be seen from `a`: the centre-to-centre segment, nudged either way by
    epsilon, crosses no walled edge and enters no closed hex on at least one side. The
    viewer's own hex is not asked; `b` is (a closed hex is never seen)."""
    if a == b:
        return True
    return _clear(a, b, _NUDGE, walls, is_open) or _clear(a, b, -_NUDGE, walls, is_open)


def sight(
    h: Hex, facing: int, walls: AbstractSet[Edge], is_open: Callable[[Hex], bool]
) -> list[Hex]:
    """The cone hexes (in `cone` order) that are open and visible from `h`."""
    return [c for c in cone(h, facing) if is_open(c) and visible(h, c, walls, is_open)]


def behind(s: Hex, facing: int, p: Hex) -> bool:
    """Whether a figure at `s` facing `facing` has its back to an adjacent `p`: `p` lies
    through one of the three rear edges (opposite the facing, or either side of it)."""
    d = direction_to(s, p)
    return d is not None and (d - facing) % 6 in (2, 3, 4)


def distances(step: Sequence[Sequence[int]], sources: Sequence[int]) -> tuple[int, ...]:
    """Steps from every cell to the nearest of `sources` over a `step` table (`step[c]`:
    the cells one step from c, -1 where none), around walls; farther than every cell
    (`len(step) + 1`) where none can be reached. Skeletons and the player do not block:
    a map's distances, not a moment's."""
    far = len(step) + 1
    dist = [far] * len(step)
    queue = deque(sources)
    for s in sources:
        dist[s] = 0
    while queue:
        cell = queue.popleft()
        for nxt in step[cell]:
            if nxt != -1 and dist[nxt] == far:
                dist[nxt] = dist[cell] + 1
                queue.append(nxt)
    return tuple(dist)
