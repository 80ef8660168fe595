"""The lobby's newer parts, as a person uses them: the name they go by, a seat left open
for whoever joins from the lobby, the room's settings (clocks, leavers, spectators' chat)
and the open tables list's Join."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

DEFAULTS = {
    "spectator_chat": False,
    "grace_seconds": 120.0,
    "stand_in": "bot:mcts:300ms",
    "clock": None,
    "advice": None,
    "rated": False,
}
"""A table's settings when its creator chose none (the server fills the stand-in in)."""


def until(check: Any, timeout: float = 15.0) -> Any:
    """Poll `check()` until it returns something true; that value."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.1)


def take_open_seat(server: Any, table_id: str) -> int:
    """Someone else, elsewhere, joins the table (the API, not a page)."""
    request = urllib.request.Request(server.url(f"/api/tables/{table_id}/join"), method="POST")
    with urllib.request.urlopen(request, timeout=5) as response:
        return int(json.loads(response.read())["seat"])


def open_form(ui: Any, server: Any, game: str = "hack-and-slash") -> Any:
    page = ui.new_page(server.url(f"/?game={game}"))
    ui.expect(page.locator("#game")).to_have_value(game)
    ui.expect(page.locator("#seat-rows select").first).to_be_visible()
    return page


def test_the_name_typed_in_the_lobby_is_kept(server: Any, ui: Any) -> None:
    expect = ui.expect
    page = ui.new_page(server.url("/"))
    name = page.get_by_label("Your name")
    expect(name).to_have_value("")
    expect(name).to_have_attribute("maxlength", "24")
    # Kept as typed, without leaving the field first: a reload right away keeps it,
    # trimmed with its runs of spaces made one, as the server keeps it.
    name.fill("  Bea   the <b>Bold</b> ")
    page.reload()
    expect(page.get_by_label("Your name")).to_have_value("Bea the <b>Bold</b>")
    # Leaving the field tidies what is shown; emptying it forgets the name.
    name = page.get_by_label("Your name")
    name.fill(" Bea ")
    name.press("Tab")
    expect(name).to_have_value("Bea")
    name.fill("")
    name.press("Tab")
    page.reload()
    expect(page.get_by_label("Your name")).to_have_value("")


def test_an_open_seat_is_taken_by_whoever_joins_from_the_lobby(server: Any, ui: Any) -> None:
    expect = ui.expect
    host = open_form(ui, server)
    host.get_by_label("Players", exact=True).select_option(label="2 (variant)")
    seats = host.locator("#seat-rows select")
    expect(seats).to_have_count(2)
    seats.nth(1).select_option(label="an open seat")
    host.get_by_label("Clocks").select_option(label="Real time: 3 min + 20 s a decision")
    host.get_by_label("Spectators may chat").check()
    host.get_by_label("Advice (the tutor)").select_option(label="allowed, clocks or not")
    host.get_by_role("button", name="Open the table").click()

    created = host.locator("#created")
    expect(created).to_contain_text("is open")
    expect(host.locator("#create-error")).to_be_hidden()
    expect(created.locator(".link-row.open")).to_have_text(
        re.compile(r"Player 2\s*open: whoever joins from the lobby takes it")
    )
    expect(created.get_by_role("link", name=re.compile(r"^Take seat"))).to_have_count(1)
    expect(created).to_contain_text("You are this table's host")
    table_id = created.locator("h3 code").inner_text()
    # The host key stays in the creator's browser, for the table page's host controls.
    held = host.evaluate("(id) => localStorage.getItem(`tavernkeep:host:${id}`)", table_id)
    assert isinstance(held, str) and held

    summary = server.get(f"/api/tables/{table_id}")
    assert summary["status"] == "waiting"
    assert summary["seats"][1]["agent"] == "human" and summary["seats"][1].get("open") is True
    assert summary["settings"]["clock"] == {"kind": "real_time", "seconds": 180, "increment": 20}
    assert summary["settings"]["spectator_chat"] is True
    assert summary["settings"]["advice"] is True, "the tutor allowed at a clocked table"
    assert summary["settings"]["grace_seconds"] == DEFAULTS["grace_seconds"]

    # Someone else, in a browser of their own, finds the table in the lobby and joins.
    guest = ui.new_context().new_page()
    guest.goto(server.url("/"))
    item = guest.locator("#tables .table-item", has_text=table_id)
    expect(item).to_contain_text("Looking for players · 1 open seat")
    chair = item.locator(".seat-chip").nth(1)
    expect(chair).to_have_class(re.compile(r"\bopen\b"))
    expect(chair).to_have_attribute("title", "an open seat")
    expect(item.get_by_role("link", name=re.compile("Return to seat"))).to_have_count(0)
    item.get_by_role("button", name="Join").click()
    expect(guest).to_have_url(re.compile(rf"/table/{re.escape(table_id)}#seat=1$"))
    ui.wait_connected(guest)
    expect(guest.locator("#who")).to_have_text("you are Player 2")

    # Every open seat is taken: the game begins.
    until(lambda: server.get(f"/api/tables/{table_id}")["status"] == "playing")
    # Back in the lobby, the seat is the guest's to return to; there is nothing to join.
    guest.goto(server.url("/"))
    item = guest.locator("#tables .table-item", has_text=table_id)
    expect(item.get_by_role("link", name="Return to seat 2")).to_be_visible()
    expect(item.get_by_role("button", name="Join")).to_have_count(0)
    expect(item).not_to_contain_text("Looking for players")


def test_the_name_given_in_the_lobby_goes_with_a_join(server: Any, ui: Any) -> None:
    expect = ui.expect
    table = server.create_table(seats=["human", "human", "human"], open=[1, 2])
    guest = ui.new_context().new_page()
    guest.goto(server.url("/"))
    guest.get_by_label("Your name").fill("Bea")
    item = guest.locator("#tables .table-item", has_text=table["id"])
    expect(item).to_contain_text("Looking for players · 2 open seats")
    item.get_by_role("button", name="Join").click()
    ui.wait_connected(guest)
    # The page joins with the name: the seat is named, for everyone at the table.
    until(lambda: server.get(f"/api/tables/{table['id']}")["seats"][1]["name"] == "Bea")
    summary = server.get(f"/api/tables/{table['id']}")
    assert summary["seats"][1]["claimed"] is True
    assert summary["status"] == "waiting", "one seat is still open"


def test_a_seat_taken_first_by_someone_else_is_said_in_one_line(server: Any, ui: Any) -> None:
    expect = ui.expect
    table = server.create_table(seats=["human", "human", "human"], open=[1, 2])
    table_id = table["id"]
    take_open_seat(server, table_id)
    page = ui.new_page(server.url("/"))
    item = page.locator("#tables .table-item", has_text=table_id)
    expect(item).to_contain_text("Looking for players · 1 open seat")

    # The last seat goes to someone else while this page's Join is on its way.
    def beaten(route: Any) -> None:
        take_open_seat(server, table_id)
        route.continue_()

    page.route(f"**/api/tables/{table_id}/join", beaten)
    item.get_by_role("button", name="Join").click()
    error = page.locator("#tables-error")
    expect(error).to_be_visible()
    expect(error).to_have_text(
        re.compile(rf"^Could not join table {re.escape(table_id)}: no open seat")
    )
    # The list is read again: the table is being played, with nothing to join; the
    # error is still said, and this browser holds no seat there.
    expect(item.get_by_role("button", name="Join")).to_have_count(0)
    expect(item).not_to_contain_text("Looking for players")
    expect(error).to_be_visible()
    assert page.url == server.url("/")
    assert server.get(f"/api/tables/{table_id}")["status"] == "playing"


def test_a_table_with_the_rooms_defaults_sends_no_settings(server: Any, ui: Any) -> None:
    expect = ui.expect
    page = open_form(ui, server)
    expect(page.get_by_label("Clocks")).to_have_value("off")
    expect(page.get_by_label("Spectators may chat")).not_to_be_checked()
    expect(page.get_by_label("Stand-in bot").locator("option").first).to_have_text(
        "the search bot (default)"
    )

    def is_create(request: Any) -> bool:
        return request.method == "POST" and request.url.endswith("/api/tables")

    with page.expect_request(is_create) as sent:
        page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#created")).to_contain_text("is open")
    body = json.loads(sent.value.post_data or "{}")
    assert "settings" not in body and "open" not in body, body
    assert list(body)[-1] == "seed" and body["seed"] is None
    first = page.locator("#created h3 code").inner_text()
    assert server.get(f"/api/tables/{first}")["settings"] == DEFAULTS

    # Only what differs from the defaults is sent; the seed's digits still go in whole.
    page.get_by_label("When a person leaves").select_option(label="wait for them")
    page.get_by_label("Stand-in bot").select_option(label="random bot")
    page.get_by_label("Seed").fill("9223372036854775807")
    with page.expect_request(is_create) as sent:
        page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#created h3 code")).not_to_have_text(first)
    raw = sent.value.post_data or ""
    assert raw.endswith('"seed":9223372036854775807}'), raw
    assert json.loads(raw)["settings"] == {"grace_seconds": None, "stand_in": "bot:random"}
    second = page.locator("#created h3 code").inner_text()
    settings = server.get(f"/api/tables/{second}")["settings"]
    assert settings == {**DEFAULTS, "grace_seconds": None, "stand_in": "bot:random"}


def test_pass_and_play_is_not_offered_with_an_open_seat(server: Any, ui: Any) -> None:
    # Pass and play puts every person's seat on this device; an open seat's person plays
    # on their own, so the server would refuse the two together.
    expect = ui.expect
    page = open_form(ui, server)
    page.get_by_label("Players", exact=True).select_option("3")
    box = page.get_by_label("Pass and play")
    box.check()
    seats = page.locator("#seat-rows select")
    seats.nth(1).select_option(label="an open seat")
    expect(box).to_be_disabled()
    expect(box).not_to_be_checked()
    expect(page.locator("#seat-rows [data-device]")).to_have_count(0)
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#created")).to_contain_text("is open")
    expect(page.locator("#create-error")).to_be_hidden()
    table_id = page.locator("#created h3 code").inner_text()
    summary = server.get(f"/api/tables/{table_id}")
    assert [s.get("device") for s in summary["seats"]] == [False, False, None]
    assert summary["seats"][1].get("open") is True
    seats.nth(1).select_option(label="a person")
    expect(box).to_be_enabled()
