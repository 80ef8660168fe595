"""How to play, in the browser (issue 25, item 1): every game's rules open from its card in
the lobby and from a button at its table, beside what the page shows, and a person can
read them and play on."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tavernkeep.games import all_games

GAMES = [(g.name, g.title) for g in all_games()]


@pytest.mark.parametrize(("name", "title"), GAMES, ids=[n for n, _ in GAMES])
def test_the_rules_open_from_the_games_card_in_the_lobby(
    server: Any, ui: Any, name: str, title: str
) -> None:
    expect = ui.expect
    page = ui.new_page(server.url("/"))
    card = page.locator(".game-card", has_text=title)
    card.get_by_role("button", name="How to play").click()
    drawer = page.get_by_role("dialog", name=f"How to play {title}")
    expect(drawer).to_be_visible()
    sections = drawer.locator(".rules-section")
    ids = sections.evaluate_all("els => els.map(e => e.dataset.section)")
    for required in ("goal", "table", "turn", "dice", "end", "tips", "readings"):
        assert required in ids, f"{name}: no #{required}"
    # The contents take the reader to a section, in the drawer.
    dice = drawer.locator('[data-section="dice"]')
    heading = dice.locator("h3").inner_text()
    drawer.locator(".rules-contents").get_by_role("link", name=heading, exact=True).click()
    expect(dice.locator("h3")).to_be_in_viewport()
    assert page.url.endswith("/"), "the page's own address is left alone"
    # Text only: no markup came from the rules.
    assert drawer.locator("script, img, iframe").count() == 0
    page.keyboard.press("Escape")
    expect(drawer).to_be_hidden()
    expect(card).to_be_visible()


def test_the_rules_open_beside_the_table_and_the_game_plays_on(server: Any, ui: Any) -> None:
    expect = ui.expect
    created = server.create_table(seats=["human", "bot:heuristic", "bot:random"], seed=12)
    page = ui.new_page(server.url(created["seats"][0]["invite"]))
    ui.wait_connected(page)
    assert ui.wait_turn(page)
    drawer = page.get_by_role("dialog", name="How to play Hack & Slash")
    # Each choice links to the rule that explains it: a quest's "?" opens Quest cards.
    quest_row = page.locator(".action-row", has=page.locator('[data-action^="quest"]')).first
    quest_row.get_by_role("button", name=re.compile(r"^Rules: ")).click()
    expect(drawer).to_be_visible()
    quests = drawer.locator('[data-section="quests"]')
    expect(quests.locator("h3")).to_be_in_viewport()
    drawer.get_by_role("button", name="Close the rules").click()
    expect(drawer).to_be_hidden()

    page.get_by_role("button", name="How to play").click()
    expect(drawer).to_be_visible()
    expect(drawer.locator('[data-section="quests"]')).to_be_attached()
    # Beside the board, not in its place: the board and the decision are still there, and
    # the person decides with the rules open.
    expect(page.locator("#game .quest-card").first).to_be_visible()
    box = drawer.bounding_box()
    board = page.locator("#game").bounding_box()
    assert box is not None and board is not None
    assert board["x"] + board["width"] <= box["x"] + 1, "the board is left of the rules"
    ui.take_turn(page)
    expect(drawer).to_be_visible()
    drawer.get_by_role("button", name="Close the rules").click()
    expect(drawer).to_be_hidden()


@pytest.mark.parametrize(("name", "title"), GAMES, ids=[n for n, _ in GAMES])
def test_the_rules_pictures_are_drawn_by_the_games_renderer(
    server: Any, ui: Any, name: str, title: str
) -> None:
    """Each picture in a game's How to play is drawn (its renderer's cards and map, not an
    image), with a numbered badge on each part a note explains."""
    expect = ui.expect
    page = ui.new_page(server.url("/"))
    page.locator(".game-card", has_text=title).get_by_role("button", name="How to play").click()
    drawer = page.get_by_role("dialog", name=f"How to play {title}")
    expect(drawer).to_be_visible()
    figures = drawer.locator(".rules-picture")
    assert figures.count() >= 1, f"{name}: no picture in its How to play"
    for n in range(figures.count()):
        figure = figures.nth(n)
        figure.scroll_into_view_if_needed()
        drawing = figure.locator(".picture-drawing")
        expect(drawing.locator(":scope > :not(.picture-badge)")).to_have_count(1)
        notes = figure.locator(".picture-notes li").count()
        expect(drawing.locator(".picture-badge")).to_have_count(notes)
        box = drawing.bounding_box()
        assert box is not None and box["height"] > 40, f"{name}: an empty picture"
        # Each badge sits on the drawing, not off in a corner of the drawer.
        for badge in drawing.locator(".picture-badge").all():
            at = badge.bounding_box()
            assert box is not None and at is not None
            assert box["x"] - 1 <= at["x"] <= box["x"] + box["width"]
            assert box["y"] - 1 <= at["y"] <= box["y"] + box["height"]


def test_a_card_on_the_board_shows_its_rule_when_pointed_at(server: Any, ui: Any) -> None:
    """Hack & Slash: pointing at a quest card shows "Quest cards" and its first lines, and
    "?" opens the drawer there (a click on the card takes it: the quest is a choice); a
    click on the Tavern, which plays nothing, opens its rule."""
    expect = ui.expect
    created = server.create_table(seats=["human", "bot:random", "bot:random"], seed=4)
    page = ui.new_page(server.url(created["seats"][0]["invite"]))
    ui.wait_connected(page)
    assert ui.wait_turn(page)
    tip = page.get_by_role("tooltip")
    page.locator("#game .quest-card.playable").first.hover()
    expect(tip).to_be_visible()
    expect(tip.locator(".rule-tip-title")).to_have_text("Quest cards")
    expect(tip).to_contain_text("20 quests")
    expect(tip).to_contain_text("Press ? for the rule")
    page.keyboard.press("?")
    drawer = page.get_by_role("dialog", name="How to play Hack & Slash")
    expect(drawer).to_be_visible()
    expect(drawer.locator('[data-section="quests"] h3')).to_be_in_viewport()
    expect(tip).to_be_hidden()
    drawer.get_by_role("button", name="Close the rules").click()

    tavern = page.locator("#game .hs-tavern")
    tavern.hover()
    expect(tip.locator(".rule-tip-title")).to_have_text("Adventurers and the Tavern")
    expect(tip).to_contain_text("Click or press ? for the rule")
    tavern.click()
    expect(drawer).to_be_visible()
    expect(drawer.locator('[data-section="adventurers"] h3')).to_be_in_viewport()
    drawer.get_by_role("button", name="Close the rules").click()
    # The tip only tells: over a choice, it never takes the click meant for it.
    page.locator("#game .quest-card.playable").first.hover()
    expect(tip).to_be_visible()
    assert tip.evaluate("el => getComputedStyle(el).pointerEvents") == "none"
    # Moving away hides it; the board is as it was and the game goes on.
    page.locator("#game .hs-status").hover()
    expect(tip).to_be_hidden()
    ui.take_turn(page)
