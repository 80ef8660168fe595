"""Rage in the browser: one person sneaks through the village on the SVG hex map, only by
clicking what the page draws (the highlighted step hexes, their own hex to stop) and the
table's buttons (backstab or spare, fight or disengage), until the game ends (a small
turn limit brings dawn soon).

The map is checked against the game's own view: one hex for each cell, one line for each
wall, a patrol loop and a marker for each skeleton; the player's marker moves with a
click, and the ending is shown both in the banner and on the map's panel.
"""

from __future__ import annotations

from typing import Any

from tavernkeep.games.rage import GAME
from tavernkeep.games.rage.hexes import DIRECTION_NAMES

NAME = "rage"
SEED = 11
TURN_LIMIT = 6
MAX_DECISIONS = 80
# The step directions the person prefers, in order: into the village (NE, NW, E...).
PREFERRED = (1, 2, 0, 5, 3, 4)

STEPS = "#game .rg-hex.rg-step.playable"
STOP = "#game .rg-hex.rg-stop.playable"
PLAYER = "#game .rg-player"


def click_and_wait(page: Any, target: Any, handle_of: Any = None) -> None:
    """Click something that sends an action; return once the page has redrawn (what was
    clicked has left the page)."""
    handle = (handle_of or target).element_handle()
    target.click()
    page.wait_for_function("el => !el.isConnected", arg=handle)


def player_at(page: Any) -> tuple[str, str]:
    marker = page.locator(PLAYER)
    return str(marker.get_attribute("data-cell")), str(marker.locator("circle").get_attribute("cx"))


def test_one_person_sneaks_through_the_village_by_clicking_hexes(server: Any, ui: Any) -> None:
    expect = ui.expect
    games = {g["name"]: g for g in server.get("/api/games")}
    assert games[NAME]["renderer"] is True, "games/rage/web/renderer.js is missing"
    view = GAME.view(GAME.setup(GAME.make_config({"turn_limit": TURN_LIMIT}), SEED), 0)

    created = server.create_table(
        game=NAME, seats=["human"], seed=SEED, options={"turn_limit": TURN_LIMIT}
    )
    invite = next(e["invite"] for e in created["seats"] if e["seat"] == 0)
    page = ui.new_page(server.url(invite))
    ui.wait_connected(page)
    expect(page.locator("#game-title")).to_have_text("Rage")

    # The map as the game's view has it.
    game = page.locator("#game")
    expect(game.locator("svg.rg-map .rg-hex")).to_have_count(len(view["map"]["cells"]))
    expect(game.locator("svg.rg-map .rg-wall")).to_have_count(len(view["map"]["walls"]))
    expect(game.locator("svg.rg-map .rg-rubble")).to_have_count(len(view["map"]["rubble"]))
    expect(game.locator("svg.rg-map .rg-patrol")).to_have_count(len(view["skeletons"]))
    expect(game.locator("svg.rg-map .rg-skeleton")).to_have_count(len(view["skeletons"]))
    expect(game.locator("svg.rg-map .rg-food")).to_have_count(len(view["food"]))
    house = view["map"]["houses"][0]
    q, r = view["map"]["cells"][house["cells"][0]]
    expect(game.locator(f'.rg-hex[data-q="{q}"][data-r="{r}"]')).to_have_attribute(
        "aria-label", f"({q},{r}): {house['name']}"
    )
    first = view["skeletons"][0]
    facing = DIRECTION_NAMES[first["facing"]]
    expect(game.locator(".rg-skeleton").first).to_have_attribute(
        "aria-label", f"skeleton {first['name']} facing {facing}"
    )
    expect(game.locator(".rg-stat-rage .rg-value")).to_have_text(f"5 / {view['rage_limit']}")
    expect(game.locator(".rg-turn")).to_have_text(f"Turn 1 / {TURN_LIMIT}")
    # The player starts on the gap: its tag offers the escape, their hex the stop.
    start = str(view["map"]["start"])
    expect(game.locator(".rg-exit.playable")).to_have_attribute("data-action", "escape")
    expect(game.locator(".rg-exit.playable")).to_have_attribute("data-cell", start)
    expect(page.locator(STOP)).to_have_attribute("data-cell", start)
    expect(game.locator(".rg-sight-player .rg-cone")).to_have_count(len(view["player"]["sight"]))
    ui.shoot(page, "rage-start")

    visited: set[str] = set()
    moved = False
    clicked = {"step": 0, "stop": 0, "button": 0}
    for _ in range(MAX_DECISIONS):
        if not ui.wait_turn(page):
            break
        legal = [o["action"] for o in ui.offered(page)]
        here = player_at(page)
        visited.add(here[0])
        turn = int(game.locator(".rg-turn").get_attribute("data-turn") or 0)
        steps_left = game.locator(".rg-stat-steps .rg-value")
        tired = turn % 2 == 0 and steps_left.count() and steps_left.inner_text() == "1"
        if any(a.startswith("step:") for a in legal) and not tired:
            # Every legal step is a highlighted hex beside the player; the person takes
            # the first preferred direction to a hex not walked on yet.
            steps = page.locator(STEPS)
            offered = steps.evaluate_all(
                "els => els.map(e => ({action: e.dataset.action, cell: e.dataset.cell}))"
            )
            assert sorted(o["action"] for o in offered) == sorted(
                a for a in legal if a.startswith("step:")
            )
            fresh = [o for o in offered if o["cell"] not in visited] or offered
            choice = min(fresh, key=lambda o: PREFERRED.index(int(o["action"][5:])))
            click_and_wait(page, page.locator(f'{STEPS}[data-action="{choice["action"]}"]'))
            clicked["step"] += 1
            if not moved:
                after = player_at(page)
                assert after[0] == choice["cell"] and after != here, (here, after)
                moved = True
        elif "stop" in legal:
            click_and_wait(page, page.locator(STOP))
            clicked["stop"] += 1
        else:
            # Backstab or spare, fight or disengage: the table's buttons.
            action = next((a for a in ("backstab", "fight") if a in legal), legal[0])
            click_and_wait(page, page.locator(f'{ui.DECIDE}[data-action="{action}"]'))
            clicked["button"] += 1
    else:
        raise AssertionError(f"the game did not end within {MAX_DECISIONS} decisions")

    expect(page.locator(ui.OVER)).to_be_visible()
    reason = page.locator("#banner .result-reason").inner_text()
    assert reason.startswith("You "), reason
    expect(game.locator(".rg-ending")).to_have_text(reason)
    expect(game.locator(".playable")).to_have_count(0)
    assert moved and clicked["step"] and clicked["stop"], clicked
    ui.shoot(page, "rage-over")
    assert ui.violations(page) == [], "the page offered a decision that was not its seat's"
    assert ui.toasts(page) == [], "the person was shown errors"


def test_a_hex_and_the_rage_meter_show_their_rule_when_pointed_at(server: Any, ui: Any) -> None:
    """Each thing on the map and the panel names the How to play section that explains it
    (a hex by what is on it): pointing at a skeleton's hex shows "Skeletons", "Read the
    rule" opens the drawer there; "?" while pointing at the rage meter opens "Rage and hit
    points". Every rule named is one of the game's sections."""
    expect = ui.expect
    view = GAME.view(GAME.setup(GAME.make_config({"turn_limit": TURN_LIMIT}), SEED), 0)
    sections = {s["id"]: s["title"] for s in server.get(f"/api/games/{NAME}/rules")["sections"]}
    created = server.create_table(
        game=NAME, seats=["human"], seed=SEED, options={"turn_limit": TURN_LIMIT}
    )
    page = ui.new_page(server.url(created["seats"][0]["invite"]))
    ui.wait_connected(page)
    assert ui.wait_turn(page)
    game = page.locator("#game")
    named = game.locator("[data-rule]").evaluate_all("els => els.map(e => e.dataset.rule)")
    assert set(named) <= set(sections), set(named) - set(sections)
    # Every kind of thing on the map and the panel at the start of the night has its rule.
    expected = {"skeletons", "food", "sight", "houses", "goal", "turn", "rage", "table"}
    assert expected <= set(named), expected - set(named)
    # A hex by what is on it: each skeleton's hex is a skeleton's, your own hex is rage's.
    expect(game.locator('.rg-hex[data-rule="skeletons"]')).to_have_count(len(view["skeletons"]))
    mine = str(view["player"]["cell"])
    expect(game.locator(f'.rg-hex[data-cell="{mine}"]')).to_have_attribute("data-rule", "rage")

    tip = page.get_by_role("tooltip")
    drawer = page.get_by_role("dialog", name="How to play Rage")
    game.locator('.rg-hex[data-rule="skeletons"]').first.hover()
    expect(tip).to_be_visible()
    expect(tip.locator(".rule-tip-title")).to_have_text(sections["skeletons"])
    expect(tip).to_contain_text("2 hit points")
    page.keyboard.press("?")
    expect(drawer).to_be_visible()
    expect(drawer.locator('[data-section="skeletons"] h3')).to_be_in_viewport()
    expect(tip).to_be_hidden()
    drawer.get_by_role("button", name="Close the rules").click()
    expect(drawer).to_be_hidden()

    game.locator(".rg-stat-rage").hover()
    expect(tip.locator(".rule-tip-title")).to_have_text(sections["rage"])
    page.keyboard.press("?")
    expect(drawer).to_be_visible()
    expect(drawer.locator('[data-section="rage"] h3')).to_be_in_viewport()
    drawer.get_by_role("button", name="Close the rules").click()
    # Moving away hides the tip; the map still plays: the own hex ends the move.
    game.locator(".rg-village").hover()
    expect(tip.locator(".rule-tip-title")).to_have_text(sections["table"])
    page.locator("#game-title").hover()
    expect(tip).to_be_hidden()
    click_and_wait(page, page.locator(STOP))
    assert ui.wait_turn(page)
    assert ui.toasts(page) == [], "the person was shown errors"
