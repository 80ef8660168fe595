"""Rage in the browser: every decision shows what a person needs to decide it.

One person plays a short night by clicking the map (ringed hexes to step, their own hex
to stop, an exit's tag to escape) and the table's buttons, taking a choice the dice
decide whenever one is offered, so that rage checks and fights come up. At every
decision the page is held to the game's own words for the same position, replayed here
from the table's seed and the actions taken: each choice's label and chances as the
buttons show them (no coordinates, which the map never shows), each clickable hex
marked with a ring and its step's direction drawn over the sight tints (a ring, never a
fill, so a hex you can reach never reads as one a skeleton sees) and its tooltip giving
the same choice and chances. The map carries a key, each skeleton's name, and the
panel a line for each skeleton.
"""

from __future__ import annotations

import math
import re
from typing import Any

from tavernkeep.engine.actions import Action
from tavernkeep.games.rage import GAME
from tavernkeep.games.rage.hexes import DIRECTION_NAMES

NAME = "rage"
SEED = 11
TURN_LIMIT = 8
MAX_DECISIONS = 80
PREFERRED = (1, 2, 0, 5, 3, 4)
"""Step directions in the order the person likes them: into the village."""

COORDINATES = re.compile(r"\(-?\d+, ?-?\d+\)")
KEY_WORDS = (
    "You:",
    "A skeleton",
    "Red ring",
    "Green ring",
    "Dashed ring",
    "Blue tint: your sight",
    "Red tint: the skeletons' sight",
    "Ringed hex",
    "Solid ring",
    "Food",
    "Exits",
    "A house not yet entered",
    "A house you have entered",
    "A wall",
    "Rubble",
)


def percent(p: float) -> str:
    """dom.js's percent(): a chance as the page prints it."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{math.floor(p * 100 + 0.5)}%"


def odds_text(odds: dict[str, float]) -> str:
    """dom.js's oddsText()."""
    return " · ".join(
        percent(p) if name == "success" else f"{percent(p)} {name}" for name, p in odds.items()
    )


def click_and_wait(page: Any, target: Any) -> None:
    handle = target.element_handle()
    target.click()
    page.wait_for_function("el => !el.isConnected", arg=handle)


def test_every_choice_on_the_map_says_what_lies_there_and_its_chances(server: Any, ui: Any) -> None:
    expect = ui.expect
    state = GAME.setup(GAME.make_config({"turn_limit": TURN_LIMIT}), SEED)
    created = server.create_table(
        game=NAME, seats=["human"], seed=SEED, options={"turn_limit": TURN_LIMIT}
    )
    invite = next(e["invite"] for e in created["seats"] if e["seat"] == 0)
    page = ui.new_page(server.url(invite))
    ui.wait_connected(page)
    game = page.locator("#game")

    # The key under the map: every mark the map draws, open until folded.
    key = game.locator("details.rg-key")
    expect(key).to_have_attribute("open", "")
    items = key.locator(".rg-key-item > span").all_inner_texts()
    assert len(items) == len(KEY_WORDS)
    for words in KEY_WORDS:
        assert any(item.strip().startswith(words) for item in items), (words, items)
    expect(key.locator(".rg-key-swatch")).to_have_count(len(KEY_WORDS))
    game.locator(".rg-key-title").click()
    expect(key).not_to_have_attribute("open", "")
    game.locator(".rg-key-title").click()
    expect(key).to_have_attribute("open", "")

    # Every skeleton's name on the map (as the choices name them) and in the panel.
    view = GAME.view(state, 0)
    names = [s["name"] for s in view["skeletons"]]
    expect(game.locator("svg.rg-map .rg-skeleton .rg-skeleton-name")).to_have_text(
        [n.removeprefix("The ") for n in names]
    )
    expect(game.locator(".rg-roster .rg-roster-name")).to_have_text(names)
    facing = DIRECTION_NAMES[view["player"]["facing"]]
    expect(game.locator(".rg-stat-you .rg-value")).to_have_text(f"facing {facing}")

    seen: set[str] = set()
    visited: set[int] = set()
    for decisions in range(1, MAX_DECISIONS + 1):
        if not ui.wait_turn(page):
            break
        legal = GAME.legal_actions(state)
        offered = ui.offered(page)
        assert [o["action"] for o in offered] == [a.text for a in legal]
        for entry, action in zip(offered, legal, strict=True):
            label, odds = GAME.label(state, action), GAME.odds(state, action)
            assert entry["label"] == label
            assert entry["odds"] == odds_text(odds), (label, odds)
            assert not COORDINATES.search(label), label
            if any(name.startswith("rush ") or name == "keep your head" for name in odds):
                seen.add("rage check")
            if any(name.startswith("destroy ") for name in odds):
                seen.add("fight odds" if action.kind == "fight" else "fight ahead")
        here = GAME.view(state, 0)
        kind = (here["decision"] or {})["kind"]
        seen.add(kind)
        if kind == "move":
            check_move(page, ui, legal)
        elif kind == "combat":
            foe = here["skeletons"][here["foe"]]["name"]
            expect(game.locator(".rg-decision")).to_have_text(
                f"Wounded by {foe}: fight on or disengage."
            )
        elif kind == "backstab":
            offer = here["skeletons"][here["offer"]]["name"]
            expect(game.locator(".rg-decision")).to_have_text(
                f"{offer} has its back to you: backstab it or let it walk on."
            )
        action = choose(state, legal, visited)
        visited.add(state.pos)
        if action.kind == "step":
            target = game.locator(f'.rg-hex.rg-step.playable[data-action="{action.text}"]')
        elif action.kind == "stop":
            target = game.locator(".rg-hex.rg-stop.playable")
        elif action.kind == "escape":
            target = game.locator(".rg-exit.playable")
        else:
            target = page.locator(f'{ui.DECIDE}[data-action="{action.text}"]')
        if "fight odds" in seen and "shot" not in seen:
            seen.add("shot")
            ui.shoot(page, "rage-decisions-fight")
        if decisions == 2:
            ui.shoot(page, "rage-decisions-move")
        click_and_wait(page, target)
        GAME.apply(state, action)
    else:
        raise AssertionError(f"the game did not end within {MAX_DECISIONS} decisions")

    expect(page.locator(ui.OVER)).to_be_visible()
    assert GAME.result(state) is not None, "the page and the replay ended together"
    assert {"move", "combat", "rage check", "fight odds", "fight ahead"} <= seen, seen
    assert ui.violations(page) == []
    assert ui.toasts(page) == []


def choose(state: Any, legal: list[Action], visited: set[int]) -> Action:
    """Into the dice whenever a choice rolls them (a fight, a rage check), never away
    from a fight; else a step to a hex not stood on yet, else the stop."""
    rolling = [a for a in legal if GAME.odds(state, a) and a.kind != "disengage"]
    if rolling:
        return rolling[0]
    if Action("backstab") in legal:
        return Action("spare")
    steps = [a for a in legal if a.kind == "step"]
    fresh = [a for a in steps if state.map.step[state.pos][int(a.args[0])] not in visited]
    if fresh and state.steps < 2:
        return min(fresh, key=lambda a: PREFERRED.index(int(a.args[0])))
    return Action("stop")


def check_move(page: Any, ui: Any, legal: list[Action]) -> None:
    """The clickable hexes of a move: each ringed over the tints, the step's direction
    written in it, its tooltip the choice with its chances."""
    game = page.locator("#game")
    for action in legal:
        if action.kind == "escape":
            continue
        mark = game.locator(f'.rg-reach-mark[data-action="{action.text}"]')
        ui.expect(mark).to_have_count(1)
        if action.kind == "step":
            ui.expect(mark.locator(".rg-reach-dir")).to_have_text(
                DIRECTION_NAMES[int(action.args[0])]
            )
        hexagon = game.locator(f'.rg-hex.playable[data-action="{action.text}"]')
        assert hexagon.get_attribute("data-cell") == mark.get_attribute("data-cell")
        offered = next(o for o in ui.offered(page) if o["action"] == action.text)
        words = offered["label"] + (f" ({offered['odds']})" if offered["odds"] else "")
        assert str(hexagon.get_attribute("aria-label")).endswith(" — " + words)
    # A ring, never a fill; the cones a fill, never a ring; and the rings drawn over them.
    styles = page.evaluate(
        """() => {
          const style = (sel) => {
            const el = document.querySelector(sel);
            if (!el) return null;
            const s = getComputedStyle(el);
            return { fill: s.fill, stroke: s.stroke, width: s.strokeWidth };
          };
          const ring = document.querySelector('#game .rg-reach');
          const cones = [...document.querySelectorAll('#game .rg-sight')];
          const after = (c) => c.compareDocumentPosition(ring) & Node.DOCUMENT_POSITION_FOLLOWING;
          return {
            ring: style('#game .rg-reach-ring'),
            cone: style('#game .rg-sight .rg-cone'),
            above: cones.every(after),
          };
        }"""
    )
    assert styles["ring"]["fill"] == "none" and styles["ring"]["stroke"] != "none", styles
    assert styles["cone"]["stroke"] == "none" and styles["cone"]["fill"] != "none", styles
    assert styles["above"], "the rings are drawn over the sight tints"
