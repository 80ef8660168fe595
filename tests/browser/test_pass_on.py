"""A person with a Modifier they will not play passes on Modifiers until their turn, with
one tick of a box, instead of clicking "Pass" round after round (issue 39, item 3)."""

from __future__ import annotations

import random
from typing import Any


def test_a_person_ticks_pass_on_modifiers_and_is_asked_again_on_their_turn(
    server: Any, ui: Any
) -> None:
    expect = ui.expect
    created = server.create_table(
        game="here-to-slay", seats=["human", "bot:random", "bot:random"], seed=3
    )
    page = ui.new_page(server.url(created["seats"][0]["invite"]))
    ui.wait_connected(page)
    choose = random.Random(3)
    box = page.locator("#pass-on")
    for _ in range(3000):
        assert ui.wait_turn(page, timeout=60_000), "the game ended before a Modifier window"
        if box.count():
            break
        offered = [o["action"] for o in ui.offered(page)]
        ui.take_turn(page, "button", choose.choice(offered))
    expect(page.get_by_label("Pass on Modifiers until my turn")).to_be_visible()
    box.click()  # the panel redraws at once: the box is gone, the note comes
    # Passed for, after a pause like their own; the page says so, and how to undo it.
    expect(page.locator(".passing-on")).to_contain_text(
        "You pass on Modifiers until your turn."
    )
    ask_again = page.get_by_role("button", name="Ask me again")
    expect(ask_again).to_be_visible()
    # From their turn on they are asked again: the note is gone, and no Modifier window
    # asked them in between.
    for _ in range(3000):
        if not ui.wait_turn(page, timeout=60_000):
            break
        if page.locator(".passing-on").count() == 0:
            break
        assert page.locator("#pass-on").count() == 0
        offered = [o["action"] for o in ui.offered(page)]
        assert not any(a.startswith("modify") for a in offered), "a Modifier window asked"
        ui.take_turn(page, "button", choose.choice(offered))
    expect(page.locator(".passing-on")).to_have_count(0)
