"""The table page's edges: a wrong invite, an unknown table, and the game log."""

from __future__ import annotations

import re
from typing import Any

LAST_LINE_IN_SIGHT = """() => {
  const log = document.getElementById("log");
  const last = log.lastElementChild;
  if (!last) return true;
  const box = log.getBoundingClientRect();
  const line = last.getBoundingClientRect();
  return line.bottom <= box.bottom + 2 && line.top >= box.top - 2;
}"""

LOG_METRICS = """() => {
  const log = document.getElementById("log");
  return {scrollTop: log.scrollTop, scrollHeight: log.scrollHeight,
          clientHeight: log.clientHeight, follow: log.dataset.follow || null,
          last: log.lastElementChild ? log.lastElementChild.textContent : null};
}"""


def test_a_wrong_invite_link_watches_instead(server: Any, ui: Any) -> None:
    expect = ui.expect
    created = server.create_table(seats=["human", "bot:heuristic", "bot:random"], seed=5)
    table_id = created["id"]
    page = ui.new_page(server.url(f"/table/{table_id}#seat=0&invite=not-the-invite"))
    # Said in a notice that stays, not a toast that goes before it is read.
    expect(page.locator("#notice")).to_have_text(
        "That invite is not valid for this table: you are watching."
    )
    ui.wait_connected(page)
    expect(page.locator("#who")).to_have_text("spectator")
    expect(page).to_have_url(re.compile(r"#watch$"))
    # It is Player 1's decision, and the spectator is only told so.
    expect(page.locator("#prompt")).to_have_text("Waiting for Player 1 to decide…")
    expect(page.locator("#actions button.action")).to_have_count(0)
    expect(page.locator("#game .playable")).to_have_count(0)
    assert ui.violations(page) == []


def test_an_unknown_table_says_so(server: Any, ui: Any) -> None:
    expect = ui.expect
    page = ui.new_page(server.url("/table/no-such-table"))
    expect(page.locator("#game-title")).to_have_text("No such table")
    expect(page.locator("#game")).to_contain_text("The server says: no such table.")
    expect(page.locator("#conn")).to_have_text("closed")
    page.get_by_role("link", name="Back to the lobby").click()
    expect(page.locator("#create-title")).to_be_visible()


def test_the_log_keeps_its_newest_line_in_sight(server: Any, ui: Any) -> None:
    created = server.create_table(seats=["human", "bot:heuristic", "bot:random"], seed=20240607)
    invite = next(e["invite"] for e in created["seats"] if e["seat"] == 0)
    page = ui.new_page(server.url(invite), reduced_motion=False)  # the dice tumble
    ui.wait_connected(page)

    def newest_line_in_sight(turn: int) -> None:
        # Nobody touches the log: it must show its newest line whenever I decide.
        try:
            page.wait_for_function(LAST_LINE_IN_SIGHT, timeout=3000)
        except Exception:
            raise AssertionError(
                f"decision {turn}: the log's newest line is out of sight: "
                f"{page.evaluate(LOG_METRICS)}"
            ) from None

    ui.play_to_end(page, on_turn=newest_line_in_sight)
    newest_line_in_sight(-1)
