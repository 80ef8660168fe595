"""A person who never read a rulebook finishes a game of each title in the browser without
leaving the page (issue 25's goal), as a test: from the lobby they open the game's How to
play, set up a table with the form, take their seat, and play to the result with only what
the table shows them. At every decision each choice is in words, with the rule that
explains it a click away; the tutor answers the first one. Nothing opens elsewhere: the
table's address stays the table's, and no other page or tab is ever needed."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tavernkeep.games import all_games

GAMES = [(g.name, g.title) for g in all_games()]
MAX_DECISIONS = 700
"""More than a seat decides in a long game of any title with random bots beside it."""
KEEN = {"attack": 0, "roll": 1, "play": 2, "pass": 8, "end": 9}
"""A newcomer keen to get on with it: a Monster to attack or a Hero to roll before
anything else, passing and ending a turn last; among equals, any."""


@pytest.mark.parametrize(("name", "title"), GAMES, ids=[n for n, _ in GAMES])
def test_a_newcomer_plays_a_game_to_its_end_from_the_lobby(
    server: Any, ui: Any, name: str, title: str
) -> None:
    expect = ui.expect
    context = ui.new_context()
    lobby = context.new_page()
    lobby.goto(server.url("/"))

    # What is this game? Its card says, and its rules open beside the lobby.
    card = lobby.locator(".game-card", has_text=title)
    card.get_by_role("button", name="How to play").click()
    drawer = lobby.get_by_role("dialog", name=f"How to play {title}")
    expect(drawer.locator('[data-section="goal"]')).to_be_visible()
    drawer.get_by_role("button", name="Close the rules").click()

    # A table for one person and bots, from the form, at the smallest table the game has.
    card.get_by_role("button", name="Set up a table").click()
    expect(lobby.locator("#game")).to_have_value(name)
    counts = lobby.locator("#players option").evaluate_all("els => els.map(e => e.value)")
    lobby.get_by_label("Players", exact=True).select_option(counts[0])
    seats = lobby.locator("#seat-rows select")
    seats.nth(0).select_option(label="a person")
    for n in range(1, seats.count()):
        seats.nth(n).select_option(label="random bot")
    lobby.get_by_role("button", name="Open the table").click()
    created = lobby.locator("#created")
    expect(created).to_contain_text("is open")
    with context.expect_page() as opened:
        # A solo game's seat is played on this device ("Play seat 1"); else an invite.
        created.get_by_role("link", name=re.compile(r"^(Take|Play) seat 1$")).click()
    page = opened.value
    ui.wait_connected(page)
    address = page.url
    assert re.search(r"/table/[A-Za-z0-9_-]+#", address), address

    # The first decision: the tutor's chance beside every choice.
    assert ui.wait_turn(page), f"{name}: over before the person's first decision"
    page.get_by_label("Advice").check()
    expect(page.locator("#actions .action-advice").first).to_contain_text(
        re.compile(r"win \d+%"), timeout=20_000
    )
    page.get_by_label("Advice").uncheck()

    chooser = random.Random(name)
    decisions = 0
    while ui.wait_turn(page, timeout=30_000):
        rows = page.locator("#actions .action-row")
        for row in rows.all():
            button = row.locator("button.action")
            label = button.locator(".action-label").inner_text().strip()
            action = button.get_attribute("data-action") or ""
            assert label and label != action, f"{name}: '{action}' is not in words"
            # The rule that explains the choice, a click away.
            expect(row.get_by_role("button", name=re.compile(r"^Rules: "))).to_have_count(1)
        offered = [o["action"] for o in ui.offered(page)]
        chooser.shuffle(offered)
        offered.sort(key=lambda action: KEEN.get(action.split(":")[0], 5))
        ui.take_turn(page, action=offered[0])
        decisions += 1
        assert decisions < MAX_DECISIONS, f"{name}: no end after {decisions} decisions"

    # The result, on the same page, where the game was played.
    expect(page.locator("#banner h2")).to_be_visible()
    assert page.url == address, "the person never left the table"
    assert context.pages == [lobby, page], "nothing opened elsewhere"
