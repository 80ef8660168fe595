"""A rated table, as two people play one (issue 44, item 3): each signs in with a passkey
(Chromium's virtual authenticator), Bea opens a table in the lobby with "Rated" ticked,
each takes their seat from its link, they play it to its end, and then the leaderboard
shows both of them with a rating and its "±", and Cy's page draws his rating over time.

Pages are opened at http://localhost:PORT (passkeys take a host name, not an IP address).
"""

from __future__ import annotations

import re
import time
from typing import Any

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
}
RATING = re.compile(r"^-?[\d,]+ ± [\d,]+$")


def signed_up(ui: Any, local: str, name: str) -> Any:
    """A new browser with a passkey authenticator, signed up as `name`."""
    page = ui.new_context().new_page()
    devtools = page.context.new_cdp_session(page)
    devtools.send("WebAuthn.enable")
    devtools.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    page.goto(local + "/account")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Create an account with a passkey").click()
    ui.expect(page.locator("#account-title")).to_have_text(f"Signed in as {name}")
    return page


def whose_decision(ui: Any, pages: dict[int, Any], timeout: float = 20.0) -> int | None:
    """The seat whose page offers a decision now, or None once both show the result."""
    deadline = time.monotonic() + timeout
    while True:
        for seat, page in pages.items():
            if page.locator(ui.DECIDE).count():
                return seat
        if all(page.locator(ui.OVER).count() for page in pages.values()):
            return None
        assert time.monotonic() < deadline, "neither page offers a decision nor a result"
        pages[0].wait_for_timeout(50)


def test_two_people_finish_a_rated_table_and_meet_on_the_leaderboard(
    server: Any, ui: Any
) -> None:
    expect = ui.expect
    local = server.base.replace("127.0.0.1", "localhost")
    bea = signed_up(ui, local, "Bea")
    cy = signed_up(ui, local, "Cy")

    # Bea opens a rated table in the lobby: herself, Cy and the random bot.
    bea.goto(local + "/")
    expect(bea.locator("#account-link")).to_have_text("Bea")
    bea.get_by_label("Game", exact=True).select_option("hack-and-slash")
    bea.get_by_label("Players", exact=True).select_option("3")
    seats = bea.locator("#seat-rows select")
    seats.nth(1).select_option(label="a person")
    seats.nth(2).select_option("bot:random")
    bea.locator('[data-option="round_limit"]').fill("2")
    bea.get_by_label("Rated").check()
    bea.get_by_role("button", name="Open the table").click()
    created = bea.locator("#created")
    links = created.get_by_role("link", name=re.compile(r"^Take seat"))
    expect(links).to_have_count(2)
    mine, theirs = (links.nth(i).get_attribute("href") for i in range(2))
    assert mine and theirs
    table_id = re.search(r"/table/([^#]+)#", mine)[1]  # type: ignore[index]
    listed = bea.locator("#tables .table-item", has_text=table_id)
    expect(listed.locator(".badge.rated")).to_have_text("Rated")

    # Each takes their seat, signed in, and they play it out.
    bea.goto(mine if mine.startswith("http") else local + mine)
    cy.goto(theirs if theirs.startswith("http") else local + theirs)
    pages = {0: bea, 1: cy}
    for seat, page in pages.items():
        ui.wait_connected(page)
        expect(page.locator("#who")).to_have_text(f"you are {'Bea' if seat == 0 else 'Cy'}")
        # The table says it is rated, by its title.
        expect(page.locator(".table-title #rated-badge")).to_have_text("Rated")
        expect(page.locator("#rated-badge")).to_be_visible()
    ui.shoot(bea, "ratings-table")
    for _ in range(120):
        seat = whose_decision(ui, pages)
        if seat is None:
            break
        ui.take_turn(pages[seat])
    else:
        raise AssertionError("the rated table did not end")
    summary = server.get(f"/api/tables/{table_id}")
    assert summary["status"] == "finished" and summary["settings"]["rated"] is True

    # The leaderboard: both of them, each with a rating and its band; the bot too.
    cy.goto(local + "/leaderboard?game=hack-and-slash")
    board = cy.locator("#board-rows")
    expect(board.locator("tr")).to_have_count(3)
    for name in ("Bea", "Cy"):
        row = board.locator("tr", has=cy.get_by_role("link", name=name, exact=True))
        expect(row.locator(".rating")).to_have_text(RATING)
        expect(row.locator(".games")).to_have_text("1")
    expect(board.locator("tr.bot")).to_contain_text("Random bot")
    ui.shoot(cy, "ratings-leaderboard")

    # Cy's page, from the board: his rated game and the chart of his rating.
    board.get_by_role("link", name="Cy", exact=True).click()
    expect(cy).to_have_url(re.compile(r"/people/[A-Za-z0-9_-]+$"))
    expect(cy.locator("#person-name")).to_have_text("Cy")
    expect(cy.locator("#person-ratings .rating")).to_have_text(RATING)
    expect(cy.locator("#person-games tr")).to_have_count(1)
    chart = cy.locator("#person-charts .rating-chart")
    expect(chart).to_have_count(1)
    expect(chart.locator("figcaption")).to_have_text("Hack & Slash")
    # Drawn: from where everyone begins to after the game, the line and its band.
    expect(chart.locator('svg g[aria-label="line"] path')).to_be_visible()
    expect(chart.locator('svg g[aria-label="area"] path')).to_be_visible()
    expect(chart.locator('svg g[aria-label="dot"] circle')).to_have_count(2)
    ui.shoot(cy, "ratings-person")
    assert not ui.js_errors, ui.js_errors
