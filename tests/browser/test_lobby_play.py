"""A person opens a table from the lobby form, takes their seat and plays it to the end.

The screenshots in tests/browser/artifacts/ are taken here: the lobby with a table just
opened, the table mid-game, a rescue decision (when one comes up), the finished table.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

SEED = "20240607"

COVERED = """() => {
  const box = document.getElementById("game").getBoundingClientRect();
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + 40);
  return Boolean(top && top.closest("#pass-cover"));
}"""

def test_open_a_table_in_the_lobby_and_play_it_to_the_end(
    server: Any, ui: Any, check_replay: Callable[[Path], str]
) -> None:
    expect = ui.expect
    context = ui.new_context(reduced_motion=False)  # the dice tumble, as most people see them
    lobby = context.new_page()
    lobby.goto(server.url("/"))

    # The shelf lists the game; its card's button picks it in the form.
    card = lobby.locator(".game-card", has_text="Hack & Slash")
    expect(card).to_be_visible()
    expect(card).to_contain_text("3–6 players")
    card.get_by_role("button", name="Set up a table").click()
    expect(lobby.locator("#game")).to_have_value("hack-and-slash")

    # Three seats: me and two bots.
    lobby.get_by_label("Players", exact=True).select_option("3")
    seats = lobby.locator("#seat-rows select")
    expect(seats).to_have_count(3)
    seats.nth(0).select_option(label="a person")
    seats.nth(1).select_option(label="heuristic bot")
    seats.nth(2).select_option(label="random bot")
    lobby.get_by_label("Seed").fill(SEED)
    lobby.get_by_role("button", name="Open the table").click()

    created = lobby.locator("#created")
    expect(created).to_be_visible()
    expect(created).to_contain_text("Hack & Slash: table")
    table_id = created.locator("h3 code").inner_text()
    assert re.fullmatch(r"[A-Za-z0-9_-]+", table_id), table_id
    # One invite for the one person; the bots are named, with no link.
    expect(created.get_by_role("link", name=re.compile(r"^Take seat"))).to_have_count(1)
    expect(created.locator(".link-row.bot")).to_have_count(2)
    expect(created.locator(".link-row.bot").nth(0)).to_contain_text("heuristic bot")
    expect(created).to_contain_text("You chose the deal")
    # The open tables list shows it; the seat is nobody's until its invite is opened.
    mine = lobby.locator("#tables .table-item", has_text=table_id)
    expect(mine).to_be_visible()
    expect(mine.get_by_role("link", name="Return to seat 1")).to_have_count(0)
    ui.shoot(lobby, "lobby")

    with context.expect_page() as opened:
        created.get_by_role("link", name="Take seat 1").click()
    page = opened.value
    # The invite is spent on opening: the address keeps only the seat.
    expect(page).to_have_url(re.compile(rf"/table/{re.escape(table_id)}#seat=0$"))
    ui.wait_connected(page)
    expect(page.locator("#game-title")).to_have_text("Hack & Slash")
    expect(page.locator("#who")).to_have_text("you are Player 1")
    expect(page.locator("#seats li")).to_have_count(3)
    expect(page.locator("#table-rules")).to_contain_text("Deal chosen by the table's creator")

    shots = {"mid": False, "rescue": False}

    def on_turn(turn: int) -> None:
        # Whenever it is my decision, the page says so in words, not only with buttons.
        expect(page.locator("#decision-title")).to_have_text("Your decision")
        expect(page.locator("#game .hs-turn")).to_have_text("Your turn")
        expect(page).to_have_title(re.compile(r"^▶ Your turn"))
        offered = ui.offered(page)
        if any(o["action"].startswith("rescue:") for o in offered):
            # A rescue: the failed roll is on the card, its dice clickable.
            expect(page.locator("#game .quest-card.attempting")).to_have_count(1)
            expect(page.locator("#game .on-card-dice .die.playable").first).to_be_visible()
            expect(page.get_by_role("button", name=re.compile("Quit in shame"))).to_be_visible()
            if not shots["rescue"]:
                ui.shoot(page, "table-rescue")
                shots["rescue"] = True
        elif turn >= 1 and not shots["mid"]:
            ui.shoot(page, "table-mid-game")
            shots["mid"] = True

    # Every way to decide: a button, the card (or die) itself, the number key.
    def how(turn: int) -> str:
        return ("button", "card", "key")[turn % 3]

    taken = []
    for turn in range(2):
        assert ui.wait_turn(page), "the game ended before I decided twice"
        on_turn(turn)
        taken.append(ui.take_turn(page, how(turn)))

    # I close the tab; the lobby still knows my seat and takes me back to it.
    page.close()
    lobby.reload()
    mine = lobby.locator("#tables .table-item", has_text=table_id)
    expect(mine).to_contain_text("○ Player 1")  # nobody is in my seat now
    mine.get_by_role("link", name="Return to seat 1").click()
    page = lobby
    ui.wait_connected(page)
    expect(page.locator("#who")).to_have_text("you are Player 1")
    taken += ui.play_to_end(page, on_turn=lambda t: on_turn(t + 2), by=lambda t: how(t + 2))

    # The result: a headline naming the winner, a score table, the winner crowned.
    banner = page.locator("#banner")
    expect(banner).to_be_visible()
    headline = banner.locator("h2").inner_text()
    assert re.fullmatch(
        r"You win!|You share the victory!|Player [1-3] wins|Player .* share the victory", headline
    ), headline
    expect(banner.locator(".result-reason")).to_contain_text("the game ended because")
    expect(banner.locator(".score-table tbody tr")).to_have_count(3)
    expect(page.locator("#seats .seat-state.winner").first).to_be_visible()
    expect(page.locator("#prompt")).to_have_text("The game is over.")
    expect(page.locator("#actions button.action")).to_have_count(0)
    expect(page.locator("#game .hs-status")).to_contain_text("The game is over")
    ui.shoot(page, "table-finished")
    assert ui.toasts(page) == []
    assert ui.violations(page) == []

    # The record downloads, is this table's game, and replays to the same result.
    path, download = ui.download_record(page)
    assert download.suggested_filename == f"hack-and-slash-{table_id}.json"
    record = json.loads(path.read_text())
    assert record["game"] == "hack-and-slash"
    assert record["seed"] == int(SEED)
    assert record["seats"] == ["human", "bot:heuristic", "bot:random"]
    assert record["result"] is not None
    mine_in_record = iter(record["actions"])
    assert all(action in mine_in_record for action in taken), "my moves are not in the record"
    winners = [f"Player {s + 1}" for s in record["result"]["winners"]]
    if headline.startswith("You"):
        assert "Player 1" in winners
    else:
        assert all(w in headline for w in winners), (headline, winners)
    assert "actions replay to the recorded result" in check_replay(path)

    # Back in the lobby, the finished table is no longer among the open ones.
    page.get_by_role("link", name="Back to the lobby").click()
    expect(page.locator("#create-title")).to_be_visible()
    expect(page.locator("#tables")).not_to_contain_text(table_id)


def test_pass_and_play_one_device_passed_between_two_people(server: Any, ui: Any) -> None:
    """A competitive table at one device: the lobby's "pass and play" puts every person's
    seat on it, the page moves to whoever decides next and covers the board until they
    say they hold the device, and every seat is shown that one device plays them."""
    expect = ui.expect
    context = ui.new_context()
    page = context.new_page()
    page.goto(server.url("/?game=hack-and-slash"))
    seats = page.locator("#seat-rows select")
    expect(seats).to_have_count(3)
    seats.nth(0).select_option(label="a person")
    seats.nth(1).select_option(label="a person")
    seats.nth(2).select_option(label="heuristic bot")
    page.get_by_label("Pass and play").check()
    page.get_by_role("button", name="Open the table").click()
    created = page.locator("#created")
    # No invite to send: both seats are played here.
    expect(created.get_by_role("link", name=re.compile(r"^Take seat"))).to_have_count(0)
    expect(created.get_by_role("link", name=re.compile(r"^Play seat"))).to_have_count(2)
    table_id = created.locator("h3 code").inner_text()
    summary = server.get(f"/api/tables/{table_id}")
    assert [s.get("device") for s in summary["seats"]] == [True, True, None]

    mine = page.locator("#tables .table-item", has_text=table_id)
    mine.get_by_role("link", name="Return to seat 1").click()
    ui.wait_connected(page)
    expect(page.locator("#who")).to_have_text("you are Player 1")
    expect(page.locator("#seats li").nth(1)).to_contain_text("on the host's device")

    cover = page.locator("#pass-cover")
    taken = {0: 0, 1: 0}
    covers = 0
    for _ in range(200):
        page.locator(f"{ui.OVER}, {ui.DECIDE}, #pass-cover:not([hidden])").first.wait_for()
        if page.locator(ui.OVER).count():
            break
        if cover.is_visible():
            # Another player's hand is under the cover until they say it is theirs: the
            # cover is what a person sees (and clicks, and types to) over the board.
            assert page.evaluate(COVERED), "the board shows through the cover"
            name = cover.locator("h2").inner_text().removeprefix("Pass the device to ")
            # The keyboard starts on the cover's button (issue 39, item 9).
            expect(cover.get_by_role("button", name=f"I am {name}")).to_be_focused()
            page.keyboard.press("1")
            cover.get_by_role("button", name=f"I am {name}").click()
            expect(cover).to_be_hidden()
            expect(page.locator("#decision-title")).to_be_focused()
            expect(page.locator("#who")).to_have_text(f"you are {name}")
            covers += 1
            continue
        who = int(page.locator("#who").inner_text().rsplit(" ", 1)[1]) - 1
        ui.take_turn(page, "button" if taken[who] % 2 else "card")
        taken[who] += 1
    else:
        raise AssertionError("the game did not end")

    assert taken[0] and taken[1], taken
    assert covers >= 2, covers
    expect(page.locator("#banner h2")).to_be_visible()
    assert ui.toasts(page) == []
    assert ui.violations(page) == []
