"""Every page fits its window and reads for everyone (issue 39, items 2 and 9): at 1280x800
and at a phone's 390x844, no page is wider than the window at a game's start, in its
middle (with a take-back on offer where the game has one) and at its end, whatever the
names at the table; and an automated accessibility check (axe-core, through Playwright)
finds nothing serious or critical there, in the lobby or in a replay. The page is
measured as a person's browser lays it out: the document's width, and which elements run
past the window's edge when it is too wide."""

from __future__ import annotations

import random
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

SIZES = [(1280, 800), (390, 844)]
LONG_NAME = "Wilhelmina Thistlewood"  # 22 of the 24 letters a name may have
# Each title at a table of one person (two on one device in Side Quest, to show the badge
# every seat sees), short enough to reach its end.
WITH_BOTS = ["human", "bot:heuristic", "bot:random"]
TABLES: dict[str, dict[str, Any]] = {
    "hack-and-slash": {"seats": WITH_BOTS, "options": {"round_limit": 2}},
    "here-to-slay": {"seats": WITH_BOTS, "options": {"turn_limit": 6}},
    "crits-and-tricks": {"seats": WITH_BOTS, "options": {"rounds": 1, "tricks": 3}},
    "side-quest": {"seats": ["human", "human"], "device": [0, 1]},
    "rage": {"seats": ["human"], "device": [0]},
}
QUIET = {"rage": "step:", "side-quest": "trade"}
"""A choice that shows nothing, so that the middle of the game offers a take-back."""

TOO_WIDE = """
() => {
  const width = window.innerWidth;
  if (document.documentElement.scrollWidth <= width) return [];
  const right = (e) => Math.round(e.getBoundingClientRect().right);
  return [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().width > 0 && right(e) > width + 1)
    .slice(0, 6)
    .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} ends at ${right(e)}`);
}
"""


def seat_page(server: Any, ui: Any, created: dict[str, Any]) -> Any:
    """The first seat's page, as its person opens it (an invite, or the host's device)."""
    first = created["seats"][0]
    if "invite" in first:
        return ui.new_page(server.url(first["invite"]))
    page = ui.new_page(server.url("/"))
    page.evaluate(
        "([t, k]) => localStorage.setItem(`tavernkeep:seats:${t}`,"
        " JSON.stringify({credentials: {'0': k, '1': k}, last: 0}))",
        [created["id"], first["token"]],
    )
    page.goto(server.url(f"/table/{created['id']}#seat=0"))
    return page


def accessible(page: Any, where: str) -> None:
    """No serious or critical finding of axe-core on the page as it stands."""
    found = Axe().run(page).response["violations"]
    bad = [
        f"{v['id']} ({v['impact']}): {v['help']}; e.g. {v['nodes'][0]['target']}"
        f" {v['nodes'][0].get('failureSummary', '').splitlines()[-1:]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]
    assert not bad, f"{where}: {bad}"


HOUSE_HEXES = ("#a9865b", "#7d6a8f")
"""Rage's house hexes, unvisited and visited (rage/web/style.css): under a house's name."""


def _rgb(color: str) -> tuple[float, float, float]:
    if color.startswith("#"):
        return tuple(int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]
    parts = color[color.index("(") + 1 : color.index(")")].split(",")
    return tuple(float(p) / 255 for p in parts[:3])  # type: ignore[return-value]


def contrast(ink: tuple[float, ...], ground: tuple[float, ...]) -> float:
    def luminance(c: tuple[float, ...]) -> float:
        lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted((luminance(ink), luminance(ground)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def house_names_read(page: Any) -> None:
    """Rage's house names are hidden from axe (the map's words are its key's, aria-hidden):
    measured here, each name's ink against what is under it, a halo drawn beneath the
    letters where there is one, else the house's hex, at 4.5:1 or more (WCAG AA)."""
    names = page.evaluate(
        """() => [...document.querySelectorAll(".rg-house-name")].map((el) => {
            const cs = getComputedStyle(el);
            return {fill: cs.fill, stroke: cs.stroke, width: parseFloat(cs.strokeWidth) || 0,
                    paint: cs.paintOrder, opacity: parseFloat(cs.opacity)};
        })"""
    )
    assert names, "no house name on Rage's map"
    for name in names:
        halo = name["stroke"] != "none" and name["width"] >= 2
        halo = halo and name["paint"].startswith("stroke")
        grounds = [_rgb(name["stroke"])] if halo else [_rgb(c) for c in HOUSE_HEXES]
        for ground in grounds:
            ink = tuple(
                name["opacity"] * i + (1 - name["opacity"]) * g
                for i, g in zip(_rgb(name["fill"]), ground, strict=True)
            )
            assert contrast(ink, ground) >= 4.5, (name, contrast(ink, ground))


def fits(page: Any, game: str, when: str) -> None:
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        wide = page.evaluate(TOO_WIDE)
        assert not wide, f"{game} at its {when}, {width} px wide: {wide}"
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    accessible(page, f"{game} at its {when}")
    if game == "rage":
        house_names_read(page)


@pytest.mark.parametrize("game", list(TABLES))
def test_every_table_fits_its_window_from_start_to_end(server: Any, ui: Any, game: str) -> None:
    expect = ui.expect
    created = server.create_table(game=game, **TABLES[game])
    if game == "side-quest":
        # The second hero's credential, kept as the host's device keeps it.
        tokens = {str(e["seat"]): e["token"] for e in created["seats"]}
        page = ui.new_page(server.url("/"))
        page.evaluate(
            "([t, c]) => localStorage.setItem(`tavernkeep:seats:${t}`,"
            " JSON.stringify({credentials: c, last: 0}))",
            [created["id"], tokens],
        )
        page.goto(server.url(f"/table/{created['id']}#seat=0"))
    else:
        page = seat_page(server, ui, created)
    ui.wait_connected(page)
    page.locator("#my-name").fill(LONG_NAME)
    page.locator("#name-form button").click()
    expect(page.locator("#seats")).to_contain_text(LONG_NAME)
    ui.wait_turn(page)
    fits(page, game, "start")
    choose = random.Random(7)
    taken = 0
    took_back_offered = False
    while ui.wait_turn(page, timeout=60_000):
        offered = [o["action"] for o in ui.offered(page)]
        quiet = [a for a in offered if game in QUIET and a.startswith(QUIET[game])]
        action = choose.choice(quiet or offered) if taken >= 6 else choose.choice(offered)
        ui.take_turn(page, "button", action)
        taken += 1
        if taken >= 6 and not took_back_offered and page.locator("#take-back").count():
            took_back_offered = True
            fits(page, game, "middle, with a take-back on offer")
        if taken == 12:
            fits(page, game, "middle")
        assert taken < 600, f"{game} did not end"
    if game in QUIET:
        assert took_back_offered, f"{game}: no take-back was offered to measure"
    fits(page, game, "end")


def test_a_phone_is_not_told_to_press_a_number_key(server: Any, ui: Any) -> None:
    """A phone has no number keys: the decision says "Choose one." there, and names the
    keys where a keyboard and a mouse are the way in."""
    expect = ui.expect
    created = server.create_table(seats=["human", "bot:heuristic", "bot:random"])
    invite = created["seats"][0]["invite"]
    desk = ui.new_page(server.url(invite))
    ui.wait_turn(desk)
    expect(desk.locator("#prompt")).to_have_text("Choose one (or press its number key).")
    other = server.create_table(seats=["human", "bot:heuristic", "bot:random"])
    phone = ui.browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    ui.contexts.append(phone)
    page = phone.new_page()
    page.goto(server.url(other["seats"][0]["invite"]))
    ui.wait_turn(page)
    expect(page.locator("#prompt")).to_have_text("Choose one.")


def test_the_lobby_and_a_replay_read_for_everyone(server: Any, ui: Any) -> None:
    expect = ui.expect
    lobby = ui.new_page(server.url("/"))
    expect(lobby.locator("#games")).not_to_be_empty()
    accessible(lobby, "the lobby")
    created = server.create_table(game="rage", seats=["bot:heuristic"])
    watcher = ui.new_page(server.url(f"/table/{created['id']}#watch"))
    expect(watcher.locator(ui.OVER)).to_be_visible(timeout=120_000)
    accessible(watcher, "a finished table, watched")
    watcher.get_by_role("link", name="Watch the replay").click()
    expect(watcher.locator("#step-text")).to_contain_text("Step 0 of")
    accessible(watcher, "a replay at its start")
    watcher.get_by_role("button", name="Last step").click()
    expect(watcher.locator("#banner .result-reason")).to_be_visible()
    accessible(watcher, "a replay at its end")
