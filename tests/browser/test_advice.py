"""The tutor in the browser (issue 25, item 3): a person turns Advice on and every choice
of their decision shows the search's chance to win with it; a table with clocks offers no
Advice unless its creator allowed it."""

from __future__ import annotations

import re
from typing import Any


def test_advice_shows_each_choices_chance_to_win_and_why(server: Any, ui: Any) -> None:
    expect = ui.expect
    created = server.create_table(seats=["human", "bot:heuristic", "bot:random"], seed=12)
    page = ui.new_page(server.url(created["seats"][0]["invite"]))
    ui.wait_connected(page)
    assert ui.wait_turn(page)
    buttons = page.locator(ui.DECIDE)
    expect(page.locator(".action-advice")).to_have_count(0)
    page.get_by_label("Advice").check()
    expect(page.locator(".action-advice")).to_have_count(buttons.count(), timeout=20_000)
    for text in page.locator(".action-advice").all_inner_texts():
        assert re.fullmatch(r"win (\d+%|<1%|>99%)", text), text
    # Beside each quest, the heuristic's line of why: its chance, the prize, the risk.
    quest = page.locator(f'{ui.DECIDE}[data-action^="quest"]').first
    expect(quest.locator(".action-why")).to_contain_text(
        re.compile(r"\d+% to complete it.*, for .+; \d+ adventurers? at stake")
    )
    # The choice is this browser's: the next decision is advised too, without asking.
    ui.take_turn(page)
    if ui.wait_turn(page, timeout=30_000):
        expect(page.locator(".action-advice")).to_have_count(
            page.locator(ui.DECIDE).count(), timeout=20_000
        )


def test_a_clocked_table_offers_no_advice_unless_allowed(server: Any, ui: Any) -> None:
    expect = ui.expect
    clock = {"kind": "real_time", "seconds": 600, "increment": 0}
    for settings, offered in (({"clock": clock}, 0), ({"clock": clock, "advice": True}, 1)):
        created = server.create_table(
            seats=["human", "bot:heuristic", "bot:random"], seed=12, settings=settings
        )
        page = ui.new_page(server.url(created["seats"][0]["invite"]))
        ui.wait_connected(page)
        assert ui.wait_turn(page)
        expect(page.get_by_label("Advice")).to_have_count(offered)
