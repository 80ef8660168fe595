"""A table survives a reload of the page and a SIGKILL of the server.

What a person reads on the page (round, scores, guilds, quests, dice, seats, prompt,
buttons, the whole log) must be the same before and after; then play goes on to the end.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ONE_PERSON = ["human", "bot:heuristic", "bot:random"]


def invite_of(created: dict[str, Any], seat: int = 0) -> str:
    return str(next(e["invite"] for e in created["seats"] if e["seat"] == seat))


def another_tab(page: Any, url: str) -> Any:
    """A new tab of the same browser (its credential kept), at `url`."""
    tab = page.context.new_page()
    tab.goto(url)
    return tab


def wait_actions(server: Any, table_id: str, more_than: int, timeout: float = 10.0) -> int:
    """The table's action count, once it exceeds `more_than` (the server has the click)."""
    deadline = time.monotonic() + timeout
    while True:
        actions = int(server.get(f"/api/tables/{table_id}")["actions"])
        if actions > more_than:
            return actions
        assert time.monotonic() < deadline, f"the table stayed at {actions} actions"
        time.sleep(0.02)


def test_a_reload_mid_game_resumes_where_it_was(server: Any, ui: Any) -> None:
    expect = ui.expect
    created = server.create_table(seats=ONE_PERSON, seed=777)
    table_id = created["id"]
    page = ui.new_page(server.url(invite_of(created)))
    ui.wait_connected(page)

    reloads: list[str] = []

    def reload_and_compare(why: str) -> None:
        before = ui.visible_state(page)
        assert before["log"], "nothing in the log to compare"
        page.reload()
        ui.wait_connected(page)
        assert ui.wait_turn(page), "after the reload the page offers no decision"
        after = ui.visible_state(page)
        for key in before:
            assert after[key] == before[key], f"{why}: {key} changed over a reload"
        reloads.append(why)

    def on_turn(turn: int) -> None:
        rescue = any(o["action"].startswith("rescue:") for o in ui.offered(page))
        if turn == 2:
            reload_and_compare("a quest decision" if not rescue else "a rescue decision")
        elif rescue and "a rescue decision" not in reloads:
            # The failed roll sits on the card: its dice must come back as they were.
            reload_and_compare("a rescue decision")
        elif turn == 3:
            # A reload right after a click, while the bots are playing on.
            ui.take_turn(page)
            page.reload()
            ui.wait_connected(page)

    ui.play_to_end(page, on_turn=on_turn)
    assert reloads and reloads[0] in ("a quest decision", "a rescue decision"), reloads

    expect(page.locator("#banner h2")).to_be_visible()
    assert server.get(f"/api/tables/{table_id}")["status"] == "finished"
    # The page that lived through the reloads reads as a fresh one does.
    fresh = another_tab(page, server.url(f"/table/{table_id}#seat=0"))
    expect(fresh.locator("#banner h2")).to_be_visible()
    assert ui.visible_state(fresh) == ui.visible_state(page)
    assert ui.toasts(page) == []


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_a_server_killed_mid_game_loses_nothing(
    database: str,
    request: pytest.FixtureRequest,
    start_server: Callable[[str], Any],
    ui: Any,
    check_replay: Callable[[Path], str],
) -> None:
    expect = ui.expect
    url = request.getfixturevalue("sqlite_url" if database == "sqlite" else "postgres_url")
    srv = start_server(url)
    created = srv.create_table(seats=["human", "bot:heuristic", "bot:heuristic"], seed=9001)
    table_id = created["id"]
    page = ui.new_page(srv.url(invite_of(created)))
    lobby = ui.new_page(srv.url("/"))
    ui.wait_connected(page)

    # Two decisions in, at a decision of mine (the bots wait for it):
    for _ in range(2):
        assert ui.wait_turn(page), "the game ended before the server could be killed"
        ui.take_turn(page)
    assert ui.wait_turn(page), "the game ended before the server could be killed"
    before = ui.visible_state(page)
    actions = int(srv.get(f"/api/tables/{table_id}")["actions"])
    lobby.reload()
    item = lobby.locator("#tables .table-item", has_text=table_id)
    expect(item).to_contain_text(f"{actions} moves")

    srv.kill()
    # The page says it lost the server and offers nothing to press meanwhile.
    expect(page.locator("#conn")).to_have_class(re.compile(r"\boffline\b"))
    expect(page.locator("#conn")).to_contain_text("reconnecting")
    expect(page.locator(ui.DECIDE)).to_have_count(0)
    expect(page.locator("#actions button.action").first).to_be_disabled()
    if database == "sqlite":
        ui.shoot(page, "table-reconnecting")

    srv.start()  # same port, same database
    ui.wait_connected(page, timeout=30_000)  # by itself: nobody reloads the page
    assert ui.wait_turn(page)
    after = ui.visible_state(page)
    for key in before:
        assert after[key] == before[key], f"{key} changed over the restart"
    assert int(srv.get(f"/api/tables/{table_id}")["actions"]) == actions
    lobby.reload()
    expect(item).to_contain_text(f"{actions} moves")

    # Killed again, this time just after my action, while the bots play on.
    ui.take_turn(page)
    wait_actions(srv, table_id, actions)
    srv.kill()
    srv.start()
    ui.wait_connected(page, timeout=30_000)
    ui.play_to_end(page)

    expect(page.locator("#banner h2")).to_be_visible()
    assert srv.get(f"/api/tables/{table_id}")["status"] == "finished"
    fresh = another_tab(page, srv.url(f"/table/{table_id}#seat=0"))
    expect(fresh.locator("#banner h2")).to_be_visible()
    assert ui.visible_state(fresh) == ui.visible_state(page)
    path, _ = ui.download_record(page)
    assert "actions replay to the recorded result" in check_replay(path)
    assert ui.toasts(page) == []

    # A finished table outlives a restart too: its page and its record are still there.
    shown, record = ui.visible_state(page), path.read_bytes()
    srv.restart()
    later = another_tab(page, srv.url(f"/table/{table_id}#seat=0"))
    expect(later.locator("#banner h2")).to_be_visible()
    assert ui.visible_state(later) == shown
    again, _ = ui.download_record(later)
    assert again.read_bytes() == record
