"""How Rage looks in a terminal: the village as a hex map, and a status panel beside it.

Drawn from `view()` alone. The map is the village's pointy-top hexes as offset rows: each
hex is three characters with a column between east-west neighbours, and each row is
shifted half a hex (two columns) from the one above, so row r of hex (q, r) sits
`2 * (2q + r)` columns from the centre. A line between two rows holds their slanted edges.
Walls are drawn where they really are, on hex edges, as the hex outline would draw them:
`┃` between east-west neighbours, `╱` and `╲` on the slanted sides (a walled hex reads
`╱ ╲` over its top and `╲ ╱` under its bottom); the village's own edge is drawn dim, open
at the two exits. Backgrounds tint the houses (brown until entered, grey after) and the
sight cones (blue yours, red the skeletons', purple both); figures carry an arrow on the
side they face. The status panel beside the map (under it, on a narrow terminal) holds
the counters, the fight and the skeletons' table; the decision pending, or the ending,
follows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.table import Table
from rich.text import Text

from tavernkeep.games.rage.hexes import (
    DIRECTION_NAMES,
    DIRECTIONS,
    Hex,
    disc,
    distance,
    edge,
    sight,
)
from tavernkeep.games.rage.rules import Rage
from tavernkeep.games.rage.turn import LOSE_CONTROL, WIN_FOOD

Json = dict[str, Any]

ARROWS = ("→", "↗", "↖", "←", "↙", "↘")
"""The facing arrows, by direction: 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE (as hexes.py)."""
MARKS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""A skeleton's letter on the map, by its place in the view (I and O are skipped)."""
PLAYER = "@"
GAP = "○"
GATE = "Π"
RUBBLE = "▓"
EMPTY = "·"
WALL_EW = "┃"
EDGE_EW = "│"
SLANTS = {1: "╲", 2: "╱", 4: "╲", 5: "╱"}
"""The mark of a slanted edge, by the side of the hex it is on: the hex outline's own
stroke (NE and SW edges run down to the right, NW and SE edges up to the right)."""

RAGE_MAX = LOSE_CONTROL
"""Rage at which the player loses control."""
DIE_FACES = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}

WALL_STYLE = Style(color="#ffaf00", bold=True)
EDGE_STYLE = Style(color="grey42")
EMPTY_STYLE = Style(color="grey46")
FOOD_STYLE = Style(color="bright_yellow", bold=True)
EXIT_STYLE = Style(color="bright_green", bold=True)
RUBBLE_STYLE = Style(color="grey50")
PLAYER_STYLE = Style(color="bright_cyan", bold=True)
RAGING_STYLE = Style(color="bright_red", bold=True, reverse=True)
SKELETON_STYLE = Style(color="bright_white", bold=True)
SKELETON_DIM = Style(color="grey58", dim=True)
"""A skeleton holding or walking back: not patrolling its loop."""

HOUSE_RGB = (88, 58, 22)
VISITED_RGB = (52, 52, 52)
YOU_RGB = (0, 50, 135)
THEM_RGB = (125, 0, 0)
"""Background tints, added up where they meet (a house in both cones is all three)."""

Rgb = tuple[int, int, int]

MIXED = frozenset(Rage.ending_headlines) - frozenset({"won", "knighted"})
"""Endings that are neither a victory nor a defeat: the player got out alive."""


def _tint(*parts: Rgb) -> Style | None:
    if not parts:
        return None
    r, g, b = (min(255, sum(p[i] for p in parts)) for i in range(3))
    return Style(bgcolor=f"#{r:02x}{g:02x}{b:02x}")


def mark(k: int) -> str:
    """Skeleton k's letter on the map and in the table."""
    return MARKS[k % len(MARKS)]


def column(h: Hex, radius: int) -> int:
    """The column of the middle character of hex `h` on the map (the village's edge at
    column 0 on the west): four columns a hex, two more for each row down."""
    return 2 * (2 * h[0] + h[1]) + 4 * radius + 2


def line(h: Hex, radius: int) -> int:
    """The line of hex `h` on the map: odd lines are rows of hexes, even ones the slanted
    edges between them (line 0 is the village's edge over the top row)."""
    return 2 * (h[1] + radius) + 1


# -- the map ------------------------------------------------------------------------------


class _Canvas:
    """Characters with styles on a grid, turned into one Text."""

    def __init__(self, width: int, height: int) -> None:
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[Style | None]] = [[None] * width for _ in range(height)]

    def put(self, y: int, x: int, char: str, style: Style | None = None) -> None:
        self.chars[y][x] = char
        self.styles[y][x] = style

    def text(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        for y, (chars, styles) in enumerate(zip(self.chars, self.styles, strict=True)):
            if y:
                out.append("\n")
            last = len(chars)
            while last and chars[last - 1] == " " and styles[last - 1] is None:
                last -= 1
            for x in range(last):
                out.append(chars[x], styles[x])
        return out


def _figure(char: str, facing: int, style: Style, extra: str, extra_style: Style) -> list[Any]:
    """A figure's three characters: its mark in the middle, the arrow on the side it faces,
    anything under it (food) on the other side."""
    arrow = (ARROWS[facing], style)
    under = (extra, extra_style)
    if facing in (0, 1, 5):  # faces east: the arrow on the right
        return [under, (char, style), arrow]
    return [arrow, (char, style), under]


def draw_map(view: Json) -> Text:
    """The village, north up (module docstring)."""
    return _map_canvas(view).text()


def _map_canvas(view: Json) -> _Canvas:
    """The village drawn on a canvas (the How to play's picture marks a hex on it)."""
    mp = view["map"]
    radius: int = mp["radius"]
    cells: list[Hex] = [(q, r) for q, r in mp["cells"]]
    rubble = {(q, r) for q, r in mp["rubble"]}
    walls = {((q, r), d) for q, r, d in mp["walls"]}
    # A made-up corner of a village (a picture) may have no way out.
    exits = {cells[mp[k]]: m for k, m in (("start", GAP), ("gate", GATE)) if mp.get(k) is not None}
    food = {cells[c]: n for c, n in view["food"]}
    house_of: dict[Hex, bool] = {}
    for house in mp["houses"]:
        for c in house["cells"]:
            house_of[cells[c]] = house["visited"]
    you_see = {cells[c] for c in view["player"]["sight"]}
    they_see = {cells[c] for s in view["skeletons"] for c in s["sight"]}

    def background(h: Hex) -> Style | None:
        parts: list[Rgb] = []
        if h in house_of:
            parts.append(VISITED_RGB if house_of[h] else HOUSE_RGB)
        if h in you_see:
            parts.append(YOU_RGB)
        if h in they_see:
            parts.append(THEM_RGB)
        return _tint(*parts)

    player = view["player"]
    me: Hex = (player["hex"][0], player["hex"][1])
    figures: dict[Hex, tuple[str, int, Style]] = {
        me: (PLAYER, player["facing"], RAGING_STYLE if player["raging"] else PLAYER_STYLE)
    }
    for k, s in enumerate(view["skeletons"]):
        if s["hex"] is not None:
            calm = s["mode"] == "patrolling"
            figures[(s["hex"][0], s["hex"][1])] = (
                mark(k),
                s["facing"],
                SKELETON_STYLE if calm else SKELETON_DIM,
            )

    canvas = _Canvas(8 * radius + 5, 4 * radius + 3)
    village = [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if distance((0, 0), (q, r)) <= radius
    ]
    for h in village:
        x, y = column(h, radius), line(h, radius)
        bg = background(h) if h not in rubble else None
        chars: list[Any]
        if h in rubble:
            chars = [(RUBBLE, RUBBLE_STYLE)] * 3
        elif h in figures:
            char, facing, style = figures[h]
            n = food.get(h, 0)
            extra = "" if not n else str(n) if n < 10 else "+"
            chars = _figure(char, facing, style, extra or " ", FOOD_STYLE)
        elif h in food:
            chars = [(ch, FOOD_STYLE) for ch in f"{food[h]:^3}"]
        elif h in exits:
            chars = [(" ", None), (exits[h], EXIT_STYLE), (" ", None)]
        else:
            chars = [(" ", None), (EMPTY, EMPTY_STYLE), (" ", None)]
        for i, (ch, style) in enumerate(chars):
            canvas.put(y, x - 1 + i, ch, (style or Style()) + bg if bg else style)
        for d, (dq, dr) in enumerate(DIRECTIONS):
            other = (h[0] + dq, h[1] + dr)
            outside = distance((0, 0), other) > radius
            if outside and h in exits:
                # The way out: no wall, the exit's mark in the opening instead.
                sx = x + 2 if d in (0,) else x - 2 if d == 3 else x + 1 if d in (1, 5) else x - 1
                sy = y if d in (0, 3) else y - 1 if d in (1, 2) else y + 1
                canvas.put(sy, sx, exits[h], EXIT_STYLE)
                continue
            walled = outside or edge(h, d) in walls
            if d in (0, 3):
                sx = x + 2 if d == 0 else x - 2
                if walled:
                    canvas.put(
                        y,
                        sx,
                        EDGE_EW if outside else WALL_EW,
                        EDGE_STYLE if outside else WALL_STYLE,
                    )
                elif d == 0:
                    # Between two hexes of one tint (a house, a cone) the tint runs on.
                    tint = bg if h not in rubble and other not in rubble else None
                    if tint is not None and background(other) == tint:
                        canvas.put(y, sx, " ", tint)
            elif walled:
                sy = y - 1 if d in (1, 2) else y + 1
                sx = x + 1 if d in (1, 5) else x - 1
                canvas.put(sy, sx, SLANTS[d], EDGE_STYLE if outside else WALL_STYLE)
    return canvas


def legend() -> Columns:
    """What the marks and tints on the map mean, item by item (never split in two)."""
    items: list[Text] = []

    def item(sample: str, style: Style | None, words: str) -> None:
        items.append(Text(sample, style or "") + Text(" " + words))

    item(f"{PLAYER}{ARROWS[0]}", PLAYER_STYLE, "you, facing E")
    item(f"A{ARROWS[2]}", SKELETON_STYLE, "skeleton A, facing NW")
    item(f"A{ARROWS[2]}", SKELETON_DIM, "holding or walking back")
    item("3", FOOD_STYLE, "food cubes (+ 10 or more)")
    item(f"{GAP} {GATE}", EXIT_STYLE, "the gap (start), the gate: exits")
    item(RUBBLE, RUBBLE_STYLE, "rubble")
    item(f"{WALL_EW}╱╲", WALL_STYLE, "walls, on hex edges")
    item(f"{EDGE_EW}╱╲", EDGE_STYLE, "the village's edge")
    item("   ", _tint(YOU_RGB), "your sight")
    item("   ", _tint(THEM_RGB), "skeletons' sight")
    item("   ", _tint(YOU_RGB, THEM_RGB), "both")
    item("   ", _tint(HOUSE_RGB), "a house")
    item("   ", _tint(VISITED_RGB), "a house entered")
    items.append(Text("  ".join(f"{a} {n}" for a, n in zip(ARROWS, DIRECTION_NAMES, strict=True))))
    return Columns(items, padding=(0, 2))


# -- the status panel ---------------------------------------------------------------------


def hp_text(player: Json) -> Text:
    """Hit points as hearts: blue, or the two red ones once rage has control."""
    hp, most = player["hp"], player["max_hp"]
    colour = "bright_red" if player["raging"] else "blue"
    out = Text("♥" * hp + "♡" * max(0, most - hp), style=Style(color=colour, bold=True))
    out.append(f" {hp}/{most}", style=colour)
    if player["raging"]:
        out.append("  RAGING", style="bold bright_red")
    return out


def rage_text(player: Json) -> Text:
    """Rage out of 20, with a bar that warms as it fills."""
    rage = player["rage"]
    filled = min(rage, RAGE_MAX)
    if player["raging"] or rage >= RAGE_MAX:
        colour = "bright_red"
    elif rage >= 15:
        colour = "dark_orange"
    elif rage >= 10:
        colour = "yellow"
    else:
        colour = "green"
    out = Text("█" * filled, style=colour)
    out.append("░" * (RAGE_MAX - filled), style="grey35")
    out.append(f" {rage}/{RAGE_MAX}", style=f"bold {colour}")
    return out


def food_text(view: Json) -> Text:
    """The bag against the 25 to win, and all the food there is."""
    bag = view["player"]["bag"]
    colour = "bright_green" if bag >= WIN_FOOD else "bright_yellow"
    out = Text(f"{bag}/{WIN_FOOD}", style=f"bold {colour}")
    out.append(" to win", style=colour)
    out.append(f" · {view['food_total']} in all, {view['food_left']} still lying about")
    return out


def dice_text(dice: list[int]) -> str:
    return " ".join(f"{DIE_FACES.get(d, '')}{d}" for d in dice)


def status(view: Json) -> Table:
    player = view["player"]
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    grid.add_row("Turn", f"{view['turn']} / {view['turn_limit']} (then dawn)")
    q, r = player["hex"]
    steps = f", {player['steps_left']} steps left" if player["steps_left"] else ""
    grid.add_row(
        "You",
        Text(f"({q},{r}) facing {DIRECTION_NAMES[player['facing']]} ")
        + Text(ARROWS[player["facing"]], style=PLAYER_STYLE)
        + Text(steps),
    )
    grid.add_row("Hit points", hp_text(player))
    grid.add_row("Rage", rage_text(player))
    grid.add_row("Food", food_text(view))
    houses = view["map"]["houses"]
    if houses:
        entered = sum(h["visited"] for h in houses)
        grid.add_row("Houses", f"{entered}/{len(houses)} entered (+2 rage each, first time)")
    foe = view["foe"]
    if foe is not None:
        s = view["skeletons"][foe]
        grid.add_row(
            "Fighting",
            Text(f"{mark(foe)} {s['name']}", style="bold red")
            + Text(f" hp {s['hp']}/{s['max_hp']}"),
        )
    if view["dice"]:
        mine, *theirs = view["dice"]
        grid.add_row(
            "Last dice", f"you {dice_text([mine])} · skeleton {dice_text(theirs)} (ties theirs)"
        )
    return grid


def skeleton_table(view: Json) -> Table:
    """Each skeleton: its letter and facing, name, hit points, what it is doing and
    whether it sees you (or has its back to you, for a backstab)."""
    table = Table(
        box=box.SIMPLE_HEAD,
        show_edge=False,
        padding=(0, 1),
        pad_edge=False,
        title="Skeletons",
        title_justify="left",
        title_style="bold",
    )
    table.add_column("", no_wrap=True)
    table.add_column("skeleton", no_wrap=True)
    table.add_column("hp", no_wrap=True)
    table.add_column("mode", no_wrap=True)
    table.add_column("sees you")
    foe = view["foe"]
    for k, s in enumerate(view["skeletons"]):
        if s["hex"] is None:
            table.add_row(
                mark(k),
                Text(s["name"], style="strike"),
                "0",
                "destroyed",
                "",
                style="grey50",
            )
            continue
        calm = s["mode"] == "patrolling"
        if k == foe:
            sees = "[bold red]fighting you[/]"
        elif s["sees_you"]:
            sees = "[bold red]yes[/]"
        elif s["back_to_you"]:
            sees = "[bold green]no, its back to you[/]"
        else:
            sees = "[green]no[/]"
        table.add_row(
            Text(mark(k) + ARROWS[s["facing"]], style=SKELETON_STYLE if calm else SKELETON_DIM),
            Text(s["name"]),
            f"{s['hp']}/{s['max_hp']}",
            Text(s["mode"], style="" if calm else "dim"),
            sees,
        )
    return table


def decision_text(view: Json) -> Text:
    """What must be decided now, or how the game ended."""
    result = view["result"]
    if view["over"] or result is not None:
        reason = result["reason"] if result else f"The game is over ({view['ending']})."
        won = bool(result and result.get("won"))
        ending = (result or {}).get("ending") or view.get("ending")
        # Escaping alive without food enough (or taken by rage) is no defeat: it is headed
        # in the game's own words (Rage.ending_headlines), in neither victory's colour
        # nor defeat's.
        style = "bold green" if won else "bold yellow" if ending in MIXED else "bold red"
        return Text(f"Game over: {reason}", style=style)
    decision = view["decision"] or {}
    kind = decision.get("kind")
    player = view["player"]
    if kind == "move":
        here = (
            " or escape here"
            if player["cell"] in (view["map"]["start"], view["map"]["gate"])
            else ""
        )
        words = f"Sneak (up to {player['steps_left']} more hexes), stop{here}."
    elif kind == "backstab":
        k = view["offer"]
        name = view["skeletons"][k]["name"]
        words = f"{name} ({mark(k)}) has its back to you: backstab it or let it walk on."
    elif kind == "combat":
        foe = view["foe"]
        by = f" by {view['skeletons'][foe]['name']}" if foe is not None else ""
        words = f"Wounded{by}: fight on, or disengage (-3 rage)."
    else:
        words = f"Waiting: {kind}."
    return Text(words, style="bold")


# -- the screen ---------------------------------------------------------------------------


class _Screen:
    """The map with the panel beside it when the terminal is wide enough, else under it."""

    def __init__(
        self, left: RenderableType, right: RenderableType, below: Iterable[RenderableType]
    ) -> None:
        self.left = left
        self.right = right
        self.below = list(below)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        left = Measurement.get(console, options, self.left).maximum
        right = Measurement.get(console, options, self.right).minimum
        if left + 2 + max(right, 44) <= options.max_width:
            grid = Table.grid(padding=(0, 2))
            grid.add_column(no_wrap=True)
            grid.add_column()
            grid.add_row(self.left, self.right)
            yield grid
        else:
            yield self.left
            yield self.right
        yield from self.below

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, options.max_width)


def render(view: dict[str, Any]) -> RenderableType:
    mp = view["map"]
    board = Group(Text(mp["name"], style="bold"), draw_map(view))
    panel = Group(status(view), skeleton_table(view))
    return _Screen(board, panel, [legend(), decision_text(view)])


# -- pictures for the How to play (numbered as their notes in HOW_TO_PLAY.md) ---------------

STEP_STYLE = Style(color="#ffd75f", bold=True)
"""A hex one step away, in the picture: the terminal's choices name it, the map does not."""


def _corner_view() -> Json:
    """A made-up corner of a village (not the Fallen Village), as renderer.js draws it: the
    Watchman at its east end looking west, a wall hiding one hex of its cone, you facing
    east, 2 food in the Watchman's sight. The cones are the game's own (hexes.sight)."""
    cells = disc((0, 0), 2)
    walls = {edge((0, -1), 0)}

    def seen(h: Hex, facing: int) -> list[int]:
        return [cells.index(c) for c in sight(h, facing, walls, lambda c: c in cells)]

    you, watchman = (-1, 1), (2, -1)
    return {
        "map": {
            "name": "A corner of a village",
            "radius": 2,
            "cells": [list(c) for c in cells],
            "rubble": [],
            "walls": [[q, r, d] for (q, r), d in walls],
            "houses": [],
        },
        "player": {"hex": list(you), "facing": 0, "raging": False, "sight": seen(you, 0)},
        "skeletons": [
            {"hex": list(watchman), "facing": 3, "mode": "patrolling", "sight": seen(watchman, 3)}
        ],
        "food": [[cells.index((0, 0)), 2]],
    }


def _sight_cone_picture() -> RenderableType:
    view = _corner_view()
    canvas = _map_canvas(view)
    step = (-1, 0)  # north-west of you
    canvas.put(line(step, 2), column(step, 2), ARROWS[2], STEP_STYLE)
    key = Table.grid(padding=(0, 1))
    key.add_column(no_wrap=True)
    key.add_column(no_wrap=True)
    key.add_column()
    key.add_row("(1)", Text(f"A{ARROWS[3]}", SKELETON_STYLE), "the Watchman, facing W")
    key.add_row("(2)", Text("   ", _tint(THEM_RGB) or ""), f"red: its sight ({WALL_EW} a wall)")
    you = Text("you, facing E; ") + Text("   ", _tint(YOU_RGB) or "") + Text(" blue: your sight")
    key.add_row("(3)", Text(f"{PLAYER}{ARROWS[0]}", PLAYER_STYLE), you)
    key.add_row("(4)", Text(ARROWS[2], STEP_STYLE), "one step away: Sneak NW")
    key.add_row("(5)", Text("2", FOOD_STYLE), "food cubes")
    grid = Table.grid(padding=(0, 3))
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row(Group(Text(view["map"]["name"], style="bold"), canvas.text()), key)
    return grid


PICTURES = {"sight-cone": _sight_cone_picture}
"""The How to play's pictures, by name, as `tavernkeep rules` draws them."""
