"""Rage at the terminal: what a player sees on the screen of real (random) games.

Positions come from random legal play on small maps written here (a tiny village, and a
brawl with five skeletons where rage boils over) and on the standard village; each is
printed by Rich at width 120 and read back as plain text (or, for colours, as segments).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tavernkeep.engine.content import Pack
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng
from tavernkeep.games.rage import GAME
from tavernkeep.games.rage.hexes import DIRECTIONS, Hex, distance, edge
from tavernkeep.games.rage.terminal import (
    ARROWS,
    EDGE_EW,
    SLANTS,
    WALL_EW,
    column,
    decision_text,
    draw_map,
    line,
    mark,
    render,
)
from tavernkeep.terminal.play import HumanAgent
from tavernkeep.terminal.render import odds_text, renderer_for

WIDTH = 120

TINY = """
name = "Tiny"
radius = 4
start = [4, 0]
gate = [-4, 0]
food = [[0, 0, 10], [1, -1, 10], [-1, 1, 10]]
[[house]]
name = "Hut"
hexes = [[0, 2], [1, 2]]
doors = ["0,2 NW"]
[[skeleton]]
name = "Bones"
patrol = [[-2, 0], [-2, 1], [-3, 1]]
[[skeleton]]
name = "Rattle"
patrol = [[2, -2], [2, -3]]
"""

BRAWL = """
name = "Brawl"
radius = 4
start = [4, 0]
gate = [-4, 0]
rubble = [[-1, -2]]
food = [[-3, 3, 25]]
[[house]]
name = "Hut"
hexes = [[0, 2], [1, 2]]
doors = ["0,2 NW"]
[[skeleton]]
name = "Bones"
patrol = [[-2, 0], [-2, 1], [-3, 1]]
[[skeleton]]
name = "Rattle"
patrol = [[2, -2], [2, -3]]
[[skeleton]]
name = "Clatter"
patrol = [[1, 0], [1, -1]]
[[skeleton]]
name = "Grin"
patrol = [[0, -1], [-1, -1]]
[[skeleton]]
name = "Marrow"
patrol = [[3, -1], [3, 0]]
"""
"""Five skeletons and food far off: an aggressive player's rage takes control."""

Json = dict[str, Any]


@pytest.fixture(scope="module")
def maps(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Pack[Any]]:
    folder = tmp_path_factory.mktemp("rage_maps")
    packs: dict[str, Pack[Any]] = {}
    for name, text in (("tiny", TINY), ("brawl", BRAWL)):
        path = folder / f"{name}.toml"
        path.write_text(text)
        packs[name] = GAME.load_pack(path)
    return packs


def play(pack: Pack[Any] | None, seed: int, brave: bool = False) -> Iterator[Json]:
    """The view after setup and after every action of a random game. Escaping is rare
    (so games go on); `brave` never escapes, disengages or spares a skeleton."""
    state = GAME.setup(GAME.config_model(), seed, pack)
    rng = Rng(seed)
    yield GAME.view(state, 0)
    while actions := GAME.legal_actions(state):
        shy = ("escape", "disengage", "spare") if brave else ("escape",)
        pick = [a for a in actions if a.kind not in shy] or actions
        if not brave and rng.below(40) == 0:
            pick = actions
        GAME.apply(state, pick[rng.below(len(pick))])
        yield GAME.view(state, 0)


def screen(view: Json, width: int = WIDTH) -> str:
    console = Console(
        file=io.StringIO(), record=True, width=width, color_system=None, legacy_windows=False
    )
    console.print(render(view))
    return console.export_text()


def flat(text: str) -> str:
    return " ".join(text.split())


def map_rows(view: Json) -> list[str]:
    return draw_map(view).plain.split("\n")


def at(view: Json, h: Hex, rows: list[str] | None = None) -> str:
    """The three characters of hex `h` on the map (drawn now unless `rows` are given)."""
    radius = view["map"]["radius"]
    row = (rows or map_rows(view))[line(h, radius)].ljust(8 * radius + 5)
    x = column(h, radius)
    return row[x - 1 : x + 2]


def hex_of(view: Json, cell: int) -> Hex:
    q, r = view["map"]["cells"][cell]
    return (q, r)


def check_screen(view: Json) -> None:
    """Everything a player would look for on one screen."""
    text = screen(view)
    lines = text.splitlines()
    assert max(len(row) for row in lines) <= WIDTH
    # The map is on the screen as drawn, under its name.
    rows = map_rows(view)
    assert lines[0].startswith(view["map"]["name"])
    for i, row in enumerate(rows, start=1):
        assert lines[i].startswith(row), (i, row)
    # The player, with the arrow on the side it faces.
    player = view["player"]
    me = at(view, (player["hex"][0], player["hex"][1]), rows)
    arrow = ARROWS[player["facing"]]
    assert me[1] == "@"
    assert (me[2] if player["facing"] in (0, 1, 5) else me[0]) == arrow
    # Each living skeleton's letter and arrow where it stands, its name in the table.
    for k, s in enumerate(view["skeletons"]):
        assert s["name"] in text
        if s["hex"] is not None:
            here = at(view, (s["hex"][0], s["hex"][1]), rows)
            assert here[1] == mark(k)
            assert ARROWS[s["facing"]] in here
    # Food: the cubes where they lie (a figure's hex shows them beside it).
    for cell, n in view["food"]:
        here = at(view, hex_of(view, cell), rows)
        if "@" in here or any(ch.isupper() for ch in here):
            assert (str(n) if n < 10 else "+") in here
        else:
            assert here.strip() == str(n)
    flat_text = flat(text)
    assert f"{player['bag']}/25 to win" in flat_text
    assert f"{view['food_total']} in all" in flat_text
    assert f"{view['turn']} / {view['turn_limit']}" in flat_text
    assert f"{player['rage']}/20" in flat_text
    if view["over"]:
        assert view["result"]["reason"] in flat_text
        assert "Game over" in flat_text
    else:
        assert "Game over" not in flat_text


def test_renderer_is_found() -> None:
    assert renderer_for(GAME) is render


def test_random_tiny_games_show_what_matters(maps: dict[str, Pack[Any]]) -> None:
    endings = set()
    for seed in range(6):
        views = list(play(maps["tiny"], seed))
        for view in [*views[:: max(1, len(views) // 8)], views[-1]]:
            check_screen(view)
        endings.add(views[-1]["ending"])
    assert endings  # every game ended, and its ending was checked on screen


def test_every_wall_and_only_walls_are_drawn(maps: dict[str, Pack[Any]]) -> None:
    view = next(play(maps["tiny"], 1))
    radius = view["map"]["radius"]
    rows = [row.ljust(8 * radius + 5) for row in map_rows(view)]
    walls = {((q, r), d) for q, r, d in view["map"]["walls"]}
    exits = {hex_of(view, view["map"]["start"]), hex_of(view, view["map"]["gate"])}
    village = [(q, r) for q in range(-4, 5) for r in range(-4, 5) if distance((0, 0), (q, r)) <= 4]
    for h in village:
        x, y = column(h, radius), line(h, radius)
        for d, (dq, dr) in enumerate(DIRECTIONS):
            other = (h[0] + dq, h[1] + dr)
            if d in (0, 3):
                spot = rows[y][x + 2 if d == 0 else x - 2]
                mark_ = WALL_EW
            else:
                spot = rows[y - 1 if d in (1, 2) else y + 1][x + 1 if d in (1, 5) else x - 1]
                mark_ = SLANTS[d]
            if distance((0, 0), other) > radius:
                assert spot == (EDGE_EW if d in (0, 3) else mark_) or h in exits, (h, d)
            elif edge(h, d) in walls:
                assert spot == mark_, (h, d)
            else:
                assert spot == " ", (h, d)
    # The hut (0,2)-(1,2): walled east of (1,2), its door open NW of (0,2), none between.
    assert rows[line((1, 2), radius)][column((1, 2), radius) + 2] == WALL_EW
    assert rows[line((0, 2), radius) - 1][column((0, 2), radius) - 1] == " "
    assert rows[line((0, 2), radius) - 1][column((0, 2), radius) + 1] == "╲"
    assert rows[line((0, 2), radius)][column((0, 2), radius) + 2] == " "
    # The exits are marked in their openings in the village's edge.
    assert rows[line((4, 0), radius)][column((4, 0), radius) + 2] == "○"
    assert rows[line((-4, 0), radius)][column((-4, 0), radius) - 2] == "Π"


def test_raging_shows_red_hit_points(maps: dict[str, Pack[Any]]) -> None:
    raged = calm = 0
    for seed in range(10):
        for view in play(maps["brawl"], seed, brave=True):
            player = view["player"]
            console = Console(file=io.StringIO(), width=WIDTH, color_system="truecolor")
            hearts = [
                seg
                for seg in console.render(render(view))
                if "♥" in seg.text or ("♡" in seg.text and not player["hp"])
            ]
            assert hearts
            colours = {seg.style.color.name for seg in hearts if seg.style and seg.style.color}
            if player["raging"]:
                raged += 1
                assert colours == {"bright_red"}
                assert "RAGING" in screen(view)
            else:
                calm += 1
                assert colours == {"blue"}
        if raged > 3:
            break
    assert raged and calm
    check_screen(view)


def test_rubble_and_decisions(maps: dict[str, Pack[Any]]) -> None:
    seen: dict[str, int] = {}
    for seed in range(4):
        for view in play(maps["brawl"], seed):
            kind = (view["decision"] or {}).get("kind")
            if seen.get(kind or "over", 0) >= 3:
                continue
            seen[kind or "over"] = seen.get(kind or "over", 0) + 1
            assert at(view, (-1, -2)) == "▓▓▓"
            text = flat(screen(view))
            if kind == "backstab":
                assert "backstab it or let it walk on" in text
                assert "its back to you" in text
            elif kind == "combat":
                assert "fight on, or disengage" in text
                foe = view["skeletons"][view["foe"]]
                assert f"{mark(view['foe'])} {foe['name']}" in text
                assert "Last dice" in text
            elif kind == "move":
                assert "Sneak (up to" in text
            else:
                assert "Game over" in text
    assert set(seen) == {"move", "backstab", "combat", "over"}


def test_narrow_terminal_stacks_the_panel(maps: dict[str, Pack[Any]]) -> None:
    view = next(play(maps["tiny"], 2))
    narrow = screen(view, 60).splitlines()
    assert max(len(row) for row in narrow) <= 60
    rows = map_rows(view)
    assert [row.rstrip() for row in narrow[1 : len(rows) + 1]] == [r.rstrip() for r in rows]
    assert narrow[len(rows) + 1].startswith("Turn")
    assert narrow[len(rows) + 3].startswith("Hit points")


@pytest.mark.skipif(
    not (Path(GAME.content_dir) / "village.toml").exists(), reason="no standard map yet"
)
def test_standard_village() -> None:
    pack = GAME.load_pack()
    for seed in range(2):
        views = list(play(pack, seed))
        for view in [*views[:: max(1, len(views) // 6)], views[-1]]:
            check_screen(view)


@pytest.mark.parametrize(
    ("ending", "won", "style"),
    [
        ("won", True, "bold green"),
        ("survived", False, "bold yellow"),
        ("wanders", False, "bold yellow"),
        ("died", False, "bold red"),
        ("dawn", False, "bold red"),
    ],
)
def test_an_ending_is_coloured_as_what_it_is(ending: str, won: bool, style: str) -> None:
    # Out alive with too little food is no defeat: not the red of dying or of dawn.
    view = {
        "over": True,
        "ending": ending,
        "result": {"reason": "why", "won": won, "ending": ending},
    }
    assert decision_text(view).style == style


def test_each_choice_is_listed_with_its_words_and_chances(maps: dict[str, Pack[Any]]) -> None:
    """The prompt's list of choices: each the game's label, with the chances of the dice
    it sets off in brackets, for every kind of decision of brave random games."""
    seen: set[str] = set()
    for seed in range(6):
        state = GAME.setup(GAME.config_model(), seed, maps["brawl"])
        rng = Rng(seed)
        while actions := GAME.legal_actions(state):
            kind = (GAME.view(state, 0)["decision"] or {})["kind"]
            console = Console(file=io.StringIO(), record=True, width=400, color_system=None)
            agent = HumanAgent(console, render, ["You"])
            agent.wins = {}  # no advice asked
            agent.show_choices(InfoSet(GAME, state, 0, Rng(1)), actions)
            listed = console.export_text().splitlines()[1:]
            for number, (action, line_) in enumerate(zip(actions, listed, strict=True), 1):
                chances = odds_text(GAME.odds(state, action))
                words = f"  {number}. {GAME.label(state, action)}"
                assert line_ == words + (f"  ({chances})" if chances else ""), line_
                if chances:
                    seen.add(kind)
            if kind == "combat":
                foe = GAME.view(state, 0)["skeletons"][state.foe]["name"]
                assert f"Wounded by {foe}: fight on, or disengage" in flat(
                    screen(GAME.view(state, 0))
                )
            pick = [a for a in actions if a.kind not in ("escape", "disengage")] or actions
            GAME.apply(state, pick[rng.below(len(pick))])
    assert {"move", "backstab", "combat"} <= seen, seen
