"""Every game opens from the lobby form itself, at every player count it offers: the form
sends only what the server takes (Crits & Tricks' suits once failed every time)."""

from __future__ import annotations

from typing import Any


def test_every_game_opens_at_every_player_count_from_the_form(server: Any, ui: Any) -> None:
    expect = ui.expect
    games = server.get("/api/games")
    page = ui.new_page(server.url("/"))
    opened: list[tuple[str, int]] = []
    table_id = ""
    for game in games:
        page.goto(server.url(f"/?game={game['name']}"))
        expect(page.locator("#game")).to_have_value(game["name"])
        counts = page.locator("#players option").evaluate_all("els => els.map(e => e.value)")
        assert counts, f"{game['name']}: no player counts offered"
        for count in counts:
            page.get_by_label("Players", exact=True).select_option(count)
            expect(page.locator("#seat-rows select")).to_have_count(int(count))
            page.get_by_role("button", name="Open the table").click()
            created = page.locator("#created")
            expect(created).to_contain_text("is open")
            # A new table each time, not the last one's panel still showing.
            expect(created.locator("h3 code")).not_to_have_text(table_id or "-")
            expect(page.locator("#create-error")).to_be_hidden()
            table_id = created.locator("h3 code").inner_text()
            summary = server.get(f"/api/tables/{table_id}")
            assert summary["game"] == game["name"]
            assert len(summary["seats"]) == int(count)
            opened.append((game["name"], int(count)))
        # The last of them opens as a table page, drawn by the game's renderer.
        watch = ui.new_page(server.url(f"/table/{table_id}#watch"))
        ui.wait_connected(watch)
        expect(watch.locator("#game-title")).to_have_text(game["title"])
        watch.close()
    assert {name for name, _ in opened} == {g["name"] for g in games}


def test_crits_and_tricks_suits_are_chosen_with_boxes(server: Any, ui: Any) -> None:
    expect = ui.expect
    page = ui.new_page(server.url("/?game=crits-and-tricks"))
    boxes = page.locator('[data-option="suits"] input[type="checkbox"]')
    expect(boxes).to_have_count(5)
    for suit in ("wizard", "druid", "paladin"):
        page.get_by_label(suit, exact=True).check()
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#created")).to_contain_text("is open")
    table_id = page.locator("#created h3 code").inner_text()
    summary = server.get(f"/api/tables/{table_id}")
    assert summary["options"] == {"suits": ["wizard", "druid", "paladin"]}
    # Every seat is shown the table's rules: here, its suits.
    watch = ui.new_page(server.url(f"/table/{table_id}#watch"))
    expect(watch.locator("#table-rules")).to_contain_text("suits: wizard, druid, paladin")

    # Two suits are not three: the server's one line says so, and nothing opens.
    page.reload()
    for suit in ("wizard", "druid"):
        page.get_by_label(suit, exact=True).check()
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#create-error")).to_contain_text("suits")
