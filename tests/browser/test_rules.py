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
