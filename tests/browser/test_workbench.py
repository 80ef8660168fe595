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
