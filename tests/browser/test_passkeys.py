"""Optional sign-in with a passkey (issue 44, item 2), as a person does it: they create an
account with a passkey on their laptop, take a seat at a turn-based table from its invite,
and then, on a second browser with the same passkey (synced, as a phone's would be), sign
in, open their table (from the account page, or from the lobby's "Your tables", which
lists the account's tables with "your turn" first) and make their move, within 10 s.
Signed out in another tab, the lobby lists the account's tables no more.

The passkeys are Chromium's virtual authenticator (DevTools' WebAuthn domain): a platform
authenticator that keeps its passkeys and verifies its user. The second browser's is
given the laptop's passkey, which is how a synced passkey looks to the server. The pages
are opened at http://localhost:PORT, since WebAuthn takes a host name, never an IP
address, for the relying party (and localhost is a secure context).
"""

from __future__ import annotations

import time
from typing import Any

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
}
TURN_BASED = {"clock": {"kind": "turn_based", "seconds": 86400}}


def with_passkeys(ui: Any) -> tuple[Any, Any, str]:
    """A new browser (context) and page with a virtual authenticator: the page, its
    DevTools session and the authenticator's id."""
    page = ui.new_context().new_page()
    devtools = page.context.new_cdp_session(page)
    devtools.send("WebAuthn.enable")
    made = devtools.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return page, devtools, made["authenticatorId"]


def test_a_person_continues_their_game_on_a_second_browser(server: Any, ui: Any) -> None:
    expect = ui.expect
    local = server.base.replace("127.0.0.1", "localhost")

    # The laptop. At the IP address the page says where passkeys work instead.
    laptop, laptop_tools, laptop_key = with_passkeys(ui)
    laptop.goto(server.url("/account"))
    expect(laptop.locator("#account-note")).to_contain_text(f"open {local}/account")
    laptop.goto(local + "/")
    expect(laptop.locator("#account-link")).to_have_text("Sign in")
    laptop.locator("#account-link").click()
    expect(laptop.get_by_role("button", name="Sign in with a passkey")).to_be_visible()
    expect(laptop.locator("#account-note")).to_be_hidden()
    ui.shoot(laptop, "passkeys-signed-out")
    laptop.get_by_label("Your name").fill("Bea")
    laptop.get_by_role("button", name="Create an account with a passkey").click()
    expect(laptop.locator("#account-title")).to_have_text("Signed in as Bea")
    expect(laptop.locator("#passkeys li")).to_have_count(1)
    expect(laptop.locator("#account-tables")).to_contain_text("No tables yet")
    # The lobby says who is signed in.
    laptop.goto(local + "/")
    expect(laptop.locator("#account-link")).to_have_text("Bea")

    # A friend opened a turn-based table and sent Bea an invite: she takes her seat.
    created = server.create_table(
        seats=["human", "bot:random", "bot:random"], options={"round_limit": 2}, settings=TURN_BASED
    )
    invite = next(s["invite"] for s in created["seats"] if s["seat"] == 0)
    laptop.goto(local + invite)
    ui.wait_connected(laptop)
    expect(laptop.locator("#who")).to_have_text("you are Bea")
    expect(laptop.locator("#rated-badge")).to_be_hidden()  # an unrated table says nothing
    assert ui.wait_turn(laptop)

    # Her phone: another browser, the same passkey (synced), nothing else of the laptop's.
    stored = laptop_tools.send("WebAuthn.getCredentials", {"authenticatorId": laptop_key})
    assert len(stored["credentials"]) == 1 and stored["credentials"][0]["isResidentCredential"]
    phone, phone_tools, phone_key = with_passkeys(ui)
    for credential in stored["credentials"]:
        phone_tools.send(
            "WebAuthn.addCredential", {"authenticatorId": phone_key, "credential": credential}
        )
    began = time.monotonic()
    phone.goto(local + "/account")
    phone.get_by_role("button", name="Sign in with a passkey").click()
    expect(phone.locator("#account-title")).to_have_text("Signed in as Bea")
    listed = phone.locator("#account-tables .table-item", has_text=created["id"])
    expect(listed).to_contain_text("Hack & Slash")
    listed.get_by_role("button", name="Play as Player 1").click()
    ui.wait_connected(phone)
    expect(phone.locator("#who")).to_have_text("you are Bea")
    assert ui.wait_turn(phone)
    ui.take_turn(phone)
    took = time.monotonic() - began
    assert took < 10.0, f"signing in on the phone and moving took {took:.1f} s"

    # The move is the table's: committed, and the laptop, still at the table, sees it.
    deadline = time.monotonic() + 10
    while server.get(f"/api/tables/{created['id']}")["actions"] < 1:
        assert time.monotonic() < deadline, "the phone's move was never committed"
        time.sleep(0.05)
    expect(laptop.locator("#log")).to_contain_text("Bea")
    # Both browsers hold the seat: it is one person's.
    ui.wait_connected(laptop)
    expect(laptop.locator("#who")).to_have_text("you are Bea")
    phone.goto(local + "/account")
    expect(phone.locator("#account-title")).to_have_text("Signed in as Bea")
    ui.shoot(phone, "passkeys-account")


def test_the_lobby_of_a_second_browser_lists_the_accounts_tables(server: Any, ui: Any) -> None:
    expect = ui.expect
    local = server.base.replace("127.0.0.1", "localhost")

    # The laptop: an account, and a seat at a turn-based table taken signed in.
    laptop, laptop_tools, laptop_key = with_passkeys(ui)
    laptop.goto(local + "/account")
    laptop.get_by_label("Your name").fill("Bea")
    laptop.get_by_role("button", name="Create an account with a passkey").click()
    expect(laptop.locator("#account-title")).to_have_text("Signed in as Bea")
    created = server.create_table(
        seats=["human", "bot:random", "bot:random"], options={"round_limit": 2}, settings=TURN_BASED
    )
    table_id = created["id"]
    laptop.goto(local + next(s["invite"] for s in created["seats"] if s["seat"] == 0))
    ui.wait_connected(laptop)
    assert ui.wait_turn(laptop)

    # The phone: the passkey synced, no seat of its own. Its lobby, open in one tab, has
    # no table to show; it signs in in another tab, and "Your tables" has Bea's table,
    # her turn, at its top, without a reload.
    stored = laptop_tools.send("WebAuthn.getCredentials", {"authenticatorId": laptop_key})
    phone, phone_tools, phone_key = with_passkeys(ui)
    for credential in stored["credentials"]:
        phone_tools.send(
            "WebAuthn.addCredential", {"authenticatorId": phone_key, "credential": credential}
        )
    lobby = phone.context.new_page()
    lobby.goto(local + "/")
    expect(lobby.locator("#account-link")).to_have_text("Sign in")
    expect(lobby.locator("#your-tables")).to_be_hidden()
    began = time.monotonic()
    phone.goto(local + "/account")
    phone.get_by_role("button", name="Sign in with a passkey").click()
    expect(phone.locator("#account-title")).to_have_text("Signed in as Bea")
    turn = lobby.locator("#your-tables .your-tables-group.your-turn .table-item")
    expect(turn).to_have_count(1)
    expect(turn).to_have_attribute("data-table", table_id)
    expect(turn.locator(".badge.your-turn")).to_have_text("Your turn")
    expect(lobby.locator("#account-link")).to_have_text("Bea")
    # No credential of the phone's own for it yet: the account's seat, from the laptop.
    held = "(id) => localStorage.getItem(`tavernkeep:seats:${id}`)"
    assert lobby.evaluate(held, table_id) is None
    ui.shoot(lobby, "your-tables-account")
    # A lobby opened now, signed in, lists it as well (the header says who is signed in).
    fresh = phone.context.new_page()
    fresh.goto(local + "/")
    expect(fresh.locator(f'#your-tables .your-turn[data-table="{table_id}"]')).to_have_count(1)
    fresh.close()
    # Play: the phone takes the account's seat (a credential of its own), then plays.
    turn.get_by_role("button", name="Play", exact=True).click()
    expect(lobby).to_have_url(f"{local}/table/{table_id}#seat=0")
    ui.wait_connected(lobby)
    expect(lobby.locator("#who")).to_have_text("you are Bea")
    assert ui.wait_turn(lobby)
    ui.take_turn(lobby)
    took = time.monotonic() - began
    assert took < 10.0, f"signing in on the phone and moving from its lobby took {took:.1f} s"
    deadline = time.monotonic() + 10
    while server.get(f"/api/tables/{table_id}")["actions"] < 1:
        assert time.monotonic() < deadline, "the phone's move was never committed"
        time.sleep(0.05)

    # Signed out in another tab of the phone: its lobby lists the account's table no more.
    again = phone.context.new_page()
    again.goto(local + "/")
    row = again.locator(f'#your-tables .table-item[data-table="{table_id}"]')
    expect(row).to_have_count(1)
    phone.get_by_role("button", name="Sign out").click()
    expect(phone.get_by_role("button", name="Sign in with a passkey")).to_be_visible()
    expect(row).to_have_count(0)
    expect(again.locator("#your-tables")).to_be_hidden()
    expect(again.locator("#account-link")).to_have_text("Sign in")
    assert not ui.js_errors, ui.js_errors
