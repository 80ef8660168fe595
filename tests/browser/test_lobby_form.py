"""The lobby's form: what a person sees when a table cannot be opened, and the variant
player count that needs a checkbox."""

from __future__ import annotations

from typing import Any


def test_a_bad_seed_or_option_is_explained_and_opens_nothing(server: Any, ui: Any) -> None:
    expect = ui.expect
    page = ui.new_page(server.url("/?game=hack-and-slash"))
    expect(page.locator("#game")).to_have_value("hack-and-slash")
    error = page.locator("#create-error")
    open_button = page.get_by_role("button", name="Open the table")

    page.get_by_label("Seed").fill("12 dragons")
    open_button.click()
    expect(error).to_be_visible()
    expect(error).to_contain_text("the seed must be a whole number")

    page.get_by_label("Seed").fill("")
    page.get_by_label("Adventurers", exact=True).fill("0")  # the server's rules: at least 1
    open_button.click()
    expect(error).to_be_visible()
    expect(error).to_contain_text("adventurers")

    expect(page.locator("#created")).to_be_hidden()
    page.reload()
    expect(page.locator("#tables")).to_contain_text("No tables are being played")
    assert server.get("/api/tables") == []


def test_two_players_turns_the_variant_on(server: Any, ui: Any) -> None:
    expect = ui.expect
    page = ui.new_page(server.url("/?game=hack-and-slash"))
    expect(page.locator("#players-hint")).to_have_text("Variant: 2 with the Two players variant.")
    checkbox = page.get_by_label("Two players")
    expect(checkbox).not_to_be_checked()
    page.get_by_label("Players", exact=True).select_option(label="2 (variant)")
    expect(checkbox).to_be_checked()
    expect(page.locator("#seat-rows select")).to_have_count(2)
    page.get_by_role("button", name="Open the table").click()
    created = page.locator("#created")
    expect(created).to_contain_text("is open")
    expect(page.locator("#create-error")).to_be_hidden()
    expect(created.locator(".link-row.bot")).to_have_count(1)
    table_id = created.locator("h3 code").inner_text()
    summary = server.get(f"/api/tables/{table_id}")
    # A bot seat starts at the normal level: the game's own bot, by a name people read.
    assert [s["agent"] for s in summary["seats"]] == ["human", "bot:normal"]


def test_an_option_left_to_the_game_opens_with_the_games_own_value(server: Any, ui: Any) -> None:
    # Rage's night comes from its map unless a turn limit is given: the empty field is
    # the map's (57 turns in the Fallen Village), a number is the table's.
    expect = ui.expect
    page = ui.new_page(server.url("/?game=rage"))
    limit = page.get_by_label("Turns until dawn")
    expect(limit).to_have_value("")
    expect(limit).to_have_attribute("placeholder", "the game's own")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#created")).to_contain_text("is open")
    expect(page.locator("#create-error")).to_be_hidden()
    first = page.locator("#created h3 code").inner_text()

    page.reload()
    page.get_by_label("Turns until dawn").fill("30")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#created h3 code")).not_to_have_text(first)
    second = page.locator("#created h3 code").inner_text()

    for table, night in ((first, 57), (second, 30)):
        watch = ui.new_page(server.url(f"/table/{table}"))
        expect(watch.locator("body")).to_contain_text(f"Turn 1 / {night}")


def test_the_form_speaks_a_players_words(server: Any, ui: Any) -> None:
    """Issue 39, item 6: no option's code name, file or rulebook line on the form, and
    Side Quest's scenario picked from a list; the table opens with the one picked."""
    expect = ui.expect
    page = ui.new_page(server.url("/"))
    for game in server.get("/api/games"):
        page.get_by_label("Game", exact=True).select_option(game["name"])
        options = page.locator("#options-field")
        if not game["options"]:
            continue
        expect(options).to_contain_text(game["options"][0]["title"])
        words = options.inner_text()
        for developer in ("_", "RULES", "`", "(false", "--"):
            assert developer not in words, (game["name"], developer, words)
    page.get_by_label("Game", exact=True).select_option("side-quest")
    scenario = page.get_by_label("Scenario")
    expect(scenario.locator("option")).to_have_text(
        ["The Cellar Below the Inn", "Webs Under Thornhold", "The Ashen Throne"]
    )
    scenario.select_option("Webs Under Thornhold")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#created")).to_contain_text("is open")
    table_id = page.locator("#created h3 code").inner_text()
    assert server.get(f"/api/tables/{table_id}")["options"]["scenario"] == "Webs Under Thornhold"


def test_the_lobby_is_wood_to_its_foot_and_its_form_heading_shows(server: Any, ui: Any) -> None:
    """Issue 39, item 9: the tavern's planks run the whole page, not a window high, and
    "Set up a table" scrolls the form's heading into view below the sticky top bar."""
    import io

    from PIL import Image

    page = ui.new_page(server.url("/"))
    ui.expect(page.locator("#games .game-card").first).to_be_visible()
    shot = Image.open(io.BytesIO(page.screenshot(full_page=True))).convert("L")
    _, height = shot.size
    assert height > 1200, "the lobby is longer than a window"
    # Down the left margin, the bottom 400 px hold a dark seam between planks.
    column = [shot.getpixel((6, y)) for y in range(height - 400, height)]
    assert max(column) - min(column) >= 8, "bare wood: the planks stop above the foot"

    page.get_by_role("button", name="Set up a table").first.click()
    page.wait_for_function(
        """() => {
            const heading = document.getElementById("create-title").getBoundingClientRect();
            return heading.top < window.innerHeight / 2;
        }"""
    )
    page.wait_for_timeout(600)  # the smooth scroll settles
    heading, bar = page.evaluate(
        """() => [document.getElementById("create-title").getBoundingClientRect().top,
                  document.querySelector(".topbar").getBoundingClientRect().bottom]"""
    )
    assert heading >= bar, f"the heading at {heading} px is under the top bar ({bar} px)"


def test_the_seats_offer_levels_in_words_and_a_table_opens_with_one(server: Any, ui: Any) -> None:
    # Issue 42: a person chooses "easy" or "normal", told what each was measured to do,
    # not `bot:mcts:300ms`; a bot seat starts at normal.
    import re

    expect = ui.expect
    page = ui.new_page(server.url("/?game=crits-and-tricks"))
    expect(page.locator("#game")).to_have_value("crits-and-tricks")
    seats = page.locator("#seat-rows select")
    expect(seats.nth(1).locator("option:checked")).to_have_text(re.compile(r"^normal bot: "))
    options = seats.nth(1).locator("option")
    expect(
        options.filter(
            has_text=re.compile(r"^easy bot: wins about \d+ games? in 10 against normal bots")
        )
    ).to_have_count(1)
    easy = options.filter(has_text=re.compile(r"^easy bot: ")).inner_text()
    seats.nth(1).select_option(label=easy)
    page.get_by_role("button", name="Open the table").click()
    created = page.locator("#created")
    expect(created).to_be_visible()
    expect(created.locator(".link-row.bot").first).to_contain_text("easy bot")
    table = server.get("/api/tables")[0]
    assert "bot:easy" in [seat["agent"] for seat in table["seats"]], table
