"""The designer's workbench in the browser (issue 45): one number of a Hack & Slash card
changed in the form, a bad value shown beside its field, the change's effect played on the
server and read from its chart and its findings, the comparison found again after a
reload, and the pack saved and downloaded as the file the command line reads."""

from __future__ import annotations

import re
import tomllib
from typing import Any

SEATS = ["bot:heuristic", "bot:heuristic", "bot:heuristic", "bot:random"]


def test_a_card_changed_in_the_form_and_what_the_change_does(server: Any, ui: Any) -> None:
    expect = ui.expect
    page = ui.new_page(server.url("/workbench?game=hack-and-slash"))
    expect(page.locator("#pack-verdict")).to_have_text("The game loads this pack.")
    entry = page.locator("details.wb-entry", has_text="Rats in the Cellar")
    entry.locator("summary").click()
    reward = entry.get_by_label("Reward")
    field = reward.locator("xpath=..")  # its .wb-field, where its error is shown

    reward.fill("99")
    error = field.locator(".wb-field-error")
    expect(error).to_have_text("Input should be less than or equal to 50")
    expect(reward).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#pack-verdict")).to_contain_text(
        "quest #1 'Rats in the Cellar': field 'reward'"
    )
    page.get_by_role("button", name="What does my change do?").click()
    expect(page.locator("#wb-error")).to_contain_text("fix it first")
    expect(page.locator("#run-status")).to_be_hidden()

    reward.fill("3")
    expect(page.locator("#pack-verdict")).to_have_text("The game loads this pack.")
    expect(error).to_be_hidden()
    expect(page.locator("#changes li")).to_have_text(["quest[Rats in the Cellar].reward: 1 → 3"])
    expect(entry).to_have_class(re.compile(r"\bchanged\b"))

    page.locator("#run-games").fill("200")
    page.get_by_role("button", name="What does my change do?").click()
    status = page.locator("#run-status")
    expect(status).to_have_attribute("data-state", "done", timeout=90_000)
    expect(page.locator("#run-progress")).to_have_js_property("value", 1)
    expect(page.locator("#run-text")).to_have_text(
        "Done: 200 games with each pack, standard (changed) against standard"
    )
    seats = page.locator('figure[data-chart="seats"]')
    expect(seats.locator("figcaption")).to_have_text(
        "Win rate by seat, with each pack (95% intervals)"
    )
    chart = seats.get_by_role("img", name="Win rate by seat, with each pack (95% intervals)")
    for n, spec in enumerate(SEATS, 1):
        expect(chart).to_contain_text(f"Seat {n} ({spec})")
    assert chart.locator("circle").count() == 2 * len(SEATS), "a dot a seat with each pack"
    expect(page.locator('figure[data-chart="cards"] svg[aria-label]')).to_contain_text(
        "Rats in the Cellar (quest completed)"
    )
    findings = page.locator("#run-findings li.wb-finding")
    expect(findings.first).to_have_text(re.compile(r"^[\d,]+ of the 200 games went otherwise"))
    card = findings.filter(has_text="Rats in the Cellar (quest completed): ")
    expect(card).to_have_text(
        re.compile(r"uses a game, [+-]\d\.\d\d \[[+-]\d\.\d\d, [+-]\d\.\d\d\]; its users' wins ")
    )

    # A reload finds the comparison where it is: in the server's database.
    page.reload()
    expect(page.locator("#run-status")).to_have_attribute("data-state", "done")
    expect(page.locator('figure[data-chart="seats"] svg[aria-label]')).to_contain_text(
        "Seat 4 (bot:random)"
    )

    # Saved and downloaded, it is the file `--pack FILE` reads.
    page.locator("details.wb-entry", has_text="Rats in the Cellar").locator("summary").click()
    page.locator("details.wb-entry", has_text="Rats in the Cellar").get_by_label("Reward").fill("4")
    expect(page.locator("#changes li")).to_have_text(["quest[Rats in the Cellar].reward: 1 → 4"])
    page.locator("#pack-name").fill("rats-4")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("#pack-title")).to_have_text("rats-4 (from standard)")
    expect(page.locator("#pack-list")).to_contain_text("rats-4")
    with page.expect_download() as caught:
        page.get_by_role("link", name="Download TOML").click()
    download = caught.value
    assert download.suggested_filename == "hack-and-slash-rats-4.toml"
    pack = tomllib.loads(download.path().read_text())
    rats = {"name": "Rats in the Cellar", "challenge": 1, "goal": 3, "reward": 4}
    assert pack["quest"][0] == rats


def test_a_saved_pack_is_played_at_a_table_and_two_comparisons_are_set_side_by_side(
    server: Any, ui: Any
) -> None:
    """Play it (issue 45, item 4): the card edited and saved, a table opened with the pack
    from the workbench, and the table's page, a seat's and a spectator's, naming the pack
    and its difference. History (item 5): two comparisons listed, newest first, set side
    by side, and found again after a reload."""
    expect = ui.expect
    page = ui.new_page(server.url("/workbench?game=hack-and-slash"))
    expect(page.locator("#pack-verdict")).to_have_text("The game loads this pack.")
    play = page.get_by_role("button", name="Open a table with this pack")
    expect(play).to_be_disabled()  # the game's own pack is played from the lobby

    entry = page.locator("details.wb-entry", has_text="Rats in the Cellar")
    entry.locator("summary").click()
    entry.get_by_label("Reward").fill("5")
    expect(page.locator("#changes li")).to_have_text(["quest[Rats in the Cellar].reward: 1 → 5"])
    page.locator("#pack-name").fill("hoard")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("#pack-title")).to_have_text("hoard (from standard)")
    expect(play).to_be_enabled()
    expect(page.locator("#play-note")).to_contain_text("Opens a table with hoard as saved")

    play.click()
    created = page.locator("#play-created")
    expect(created).to_contain_text("Hack & Slash with hoard: table")
    take = created.get_by_role("link", name="Take seat 1")
    invite = take.get_attribute("href")
    assert invite and invite.startswith(server.url("/table/")) and "#seat=0&invite=" in invite
    table = invite.split("#")[0]

    mine = page.context.new_page()  # the designer's own seat, in this browser
    mine.goto(invite)
    ui.wait_connected(mine)
    expect(mine.locator("#table-pack")).to_be_visible()
    expect(mine.locator("#table-pack .table-pack-title")).to_have_text(
        "Played with the pack 'hoard' (changed from standard):"
    )
    expect(mine.locator("#table-pack li")).to_have_text(["quest[Rats in the Cellar].reward: 1 → 5"])
    expect(mine.locator("#host-tools")).to_be_visible()  # the host key, kept by the workbench
    friend = ui.new_page(f"{table}#watch")  # anyone else at the table
    ui.wait_connected(friend)
    expect(friend.locator("#table-pack li")).to_have_text(
        ["quest[Rats in the Cellar].reward: 1 → 5"]
    )

    # Two comparisons: the pack as saved, then with the reward changed again (unsaved).
    page.locator("#run-games").fill("100")
    start = page.get_by_role("button", name="What does my change do?")
    start.click()
    expect(page.locator("#run-status")).to_have_attribute("data-state", "done", timeout=90_000)
    page.locator("details.wb-entry", has_text="Rats in the Cellar").get_by_label("Reward").fill("9")
    expect(page.locator("#changes li")).to_have_text(["quest[Rats in the Cellar].reward: 1 → 9"])
    expect(play).to_be_disabled()  # unsaved: the table would not play what is shown
    start.click()
    expect(page.locator("#run-text")).to_have_text(
        "Done: 100 games with each pack, hoard (unsaved) against standard", timeout=90_000
    )
    rows = page.locator("#history-list tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("td").nth(2)).to_contain_text("hoard (unsaved) against standard")
    expect(rows.nth(1).locator("td").nth(2)).to_contain_text("hoard against standard")
    for n in range(2):
        expect(rows.nth(n).locator(".wb-headline")).not_to_be_empty()

    page.reload()  # kept on the server: the history comes back
    expect(rows).to_have_count(2)
    rows.nth(0).get_by_role("checkbox").check()
    rows.nth(1).get_by_role("checkbox").check()
    page.get_by_role("button", name="Set the two side by side").click()
    beside = page.locator("#beside")
    heads = beside.locator("table.wb-beside-table thead th")
    expect(heads.nth(1)).to_contain_text("hoard (unsaved) against standard, 100 games each")
    expect(heads.nth(2)).to_contain_text("hoard against standard, 100 games each")
    seat = beside.locator("table.wb-beside-table tbody tr", has_text="Seat 4 (bot:random)")
    expect(seat.locator("td")).to_have_count(2)
    for n in range(2):
        expect(seat.locator("td").nth(n)).to_have_text(re.compile(r"^\d+\.\d% → \d+\.\d%, "))
    runs = beside.locator(".wb-beside-run")
    expect(runs).to_have_count(2)
    expect(runs.nth(0).locator(".wb-changes li")).to_have_text(
        ["quest[Rats in the Cellar].reward: 1 → 9"]
    )
    expect(runs.nth(1).locator(".wb-changes li")).to_have_text(
        ["quest[Rats in the Cellar].reward: 1 → 5"]
    )
    for n in range(2):
        expect(runs.nth(n).locator('figure[data-chart="seats"] svg[aria-label]')).to_contain_text(
            "Seat 1 (bot:heuristic)"
        )
