"""An invite claims its seat: the creator who sent the links cannot follow a decision into a
friend's seat, see that hand or choose for it, and a second browser on a claimed invite
watches and is told why."""

from __future__ import annotations

import re
from typing import Any

from tavernkeep.games.here_to_slay import GAME

SEED = 424242


def test_the_creator_never_plays_a_seat_their_friend_claimed(server: Any, ui: Any) -> None:
    expect = ui.expect
    # The creator sets up a table for two people in the lobby, Party Leaders chosen.
    creator = ui.new_context()
    lobby = creator.new_page()
    lobby.goto(server.url("/?game=here-to-slay"))
    lobby.get_by_label("Players", exact=True).select_option("2")
    seats = lobby.locator("#seat-rows select")
    seats.nth(0).select_option(label="a person")
    seats.nth(1).select_option(label="a person")
    lobby.get_by_label("Seed").fill(str(SEED))
    lobby.get_by_role("button", name="Open the table").click()
    created = lobby.locator("#created")
    expect(created).to_contain_text("is open")
    table_id = created.locator("h3 code").inner_text()
    friend_link = created.get_by_label("Player 2 link").input_value()
    assert re.search(r"#seat=1&invite=", friend_link), friend_link

    # They take their own seat in a tab of their own browser...
    with creator.expect_page() as opened:
        created.get_by_role("link", name="Take seat 1").click()
    mine = opened.value
    ui.wait_connected(mine)
    expect(mine.locator("#who")).to_have_text("you are Player 1")
    # ...and their friend opens the link they were sent, in their own browser.
    friend = ui.new_page(friend_link)
    ui.wait_connected(friend)
    expect(friend.locator("#who")).to_have_text("you are Player 2")
    expect(mine.locator("#seats li").nth(1)).to_contain_text("here")

    # Party Leaders are chosen in reverse turn order: Player 2 first. The friend's page
    # offers the choice; the creator's only says whose it is, and stays Player 1's.
    shadow = GAME.setup(GAME.make_config({"players": 2, "leaders": "choose"}), SEED)
    assert GAME.actor(shadow) == 1
    assert ui.wait_turn(friend)
    expect(mine.locator("#prompt")).to_have_text("Waiting for Player 2 to decide…")
    mine.wait_for_timeout(500)  # what an old page did next: follow the decision
    expect(mine.locator("#who")).to_have_text("you are Player 1")
    expect(mine.locator(ui.DECIDE)).to_have_count(0)
    expect(mine.get_by_label("Play as")).to_be_hidden()
    # The friend's hand is theirs: none of its cards is on the creator's page.
    board = mine.locator("#game").inner_text()
    names = {shadow.catalog.cards[c].name for c in shadow.hands[1]}
    mine_names = {shadow.catalog.cards[c].name for c in shadow.hands[0]}
    for name in names - mine_names:
        assert name not in board, f"the creator's page shows {name} from Player 2's hand"
    ui.take_turn(friend)

    # The lobby offers the creator their own seat back, and only that one.
    lobby.reload()
    item = lobby.locator("#tables .table-item", has_text=table_id)
    expect(item.get_by_role("link", name="Return to seat 1")).to_be_visible()
    expect(item.get_by_role("link", name="Return to seat 2")).to_have_count(0)

    # Someone else opening the friend's link (forwarded, or sent twice) only watches.
    third = ui.new_page(friend_link)
    expect(third.locator("#notice")).to_have_text(
        "Player 2's seat was claimed by another browser: you are watching."
    )
    ui.wait_connected(third)
    expect(third.locator("#who")).to_have_text("spectator")
    expect(third).to_have_url(re.compile(r"#watch$"))
    expect(third.locator(ui.DECIDE)).to_have_count(0)
    # The friend still holds the seat.
    expect(friend.locator("#who")).to_have_text("you are Player 2")
    for page in (mine, friend, third):
        assert ui.violations(page) == []
