"""The online table people expect (issue 24), as the people at it see it: a seat handed to
a new device, a leaver's seat played by a bot and taken back, a clock running out, a
rematch, a decision taken back and one that may not be, and a chat line that looks like
markup shown as the characters typed.

Each person is a browser profile of their own. A person's name and a host's key are put in
their browser's storage, as the lobby leaves them there (the lobby's own tests cover it).
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

HNS = "hack-and-slash"
TWO = {"two_player": True}


def person(ui: Any, server: Any, path: str | None = None, name: str = "", host: str = "") -> Any:
    """A person's browser, with the name they gave and the host key they hold, on `path`."""
    context = ui.new_context()
    script = ""  # in a try: the script runs in about:blank too, which has no storage
    if name:
        script += f"localStorage.setItem('tavernkeep:name', {json.dumps(name)});"
    if host:
        table, key = host.split(" ", 1)
        script += f"localStorage.setItem('tavernkeep:host:{table}', {json.dumps(key)});"
    if script:
        context.add_init_script(f"try {{ {script} }} catch (error) {{}}")
    page = context.new_page()
    if path is not None:
        page.goto(server.url(path))
        ui.wait_connected(page)
    return page


def invites(created: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["invite"] for s in created["seats"] if s.get("invite")}


def seat_row(page: Any, seat: int) -> Any:
    return page.locator(f'#seats li[data-seat="{seat}"]')


def wait_status(server: Any, table: str, status: str, seconds: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        summary: dict[str, Any] = server.get(f"/api/tables/{table}")
        if summary["status"] == status:
            return summary
        assert time.monotonic() < deadline, f"{table} stayed {summary['status']}"
        time.sleep(0.1)


def test_a_seat_handed_to_a_new_device(server: Any, ui: Any) -> None:
    expect = ui.expect
    created = server.create_table(game=HNS, seats=["human", "human"], seed=7, options=TWO)
    table = created["id"]
    links = invites(created)
    host = person(ui, server, links[0], name="Ann", host=f"{table} {created['host']}")
    old = person(ui, server, links[1], name="Bea")
    expect(old.locator("#who")).to_have_text("you are Bea")
    expect(seat_row(host, 1)).to_contain_text("Bea")

    # Bea's phone is lost; her new one has nothing for the table and only watches.
    new = person(ui, server, f"/table/{table}#seat=1", name="Bea")
    expect(new.locator("#who")).to_have_text("spectator")

    # The host hands her seat to a new invite, and sends it to her.
    tools = host.locator("#host-tools")
    expect(tools).to_contain_text("You host this table")
    tools.get_by_role("button", name="New invite for Bea").click()
    link = tools.get_by_label("Player 2's new invite").input_value()
    assert re.search(rf"/table/{table}#seat=1&invite=", link), link
    new.goto(link)  # the same page: the new fragment is the invite, claimed at once
    ui.wait_connected(new)
    expect(new.locator("#who")).to_have_text("you are Bea")

    # The old device acts no more, and says why; everyone reads it in the log.
    expect(old.locator("#who")).to_have_text("spectator")
    expect(old.locator("#notice")).to_contain_text("Player 2's seat refused this browser")
    for page in (host, new):
        expect(page.locator("#log .kind-notice").last).to_have_text(
            "The table's host handed Player 2's seat to a new invite"
        )
    # The old link is spent too: nobody else gets the seat with it.
    status, _ = _claim(server, table, 1, links[1])
    assert status == 400


def _claim(server: Any, table: str, seat: int, path: str) -> tuple[int, Any]:
    from urllib.parse import parse_qs

    invite = parse_qs(path.split("#", 1)[1])["invite"][0]
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        server.url(f"/api/tables/{table}/claim"),
        data=json.dumps({"seat": seat, "invite": invite}).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_a_leaver_is_played_by_a_bot_after_the_grace_then_comes_back(server: Any, ui: Any) -> None:
    expect = ui.expect
    created = server.create_table(
        game=HNS, seats=["human", "human"], seed=11, options=TWO, settings={"grace_seconds": 1}
    )
    table = created["id"]
    links = invites(created)
    ann = person(ui, server, links[0], name="Ann")
    bea = person(ui, server, links[1], name="Bea")
    # The first decision is Ann's, and Ann closes her tab.
    assert ui.wait_turn(ann)
    expect(bea.locator("#prompt")).to_have_text("Waiting for Ann to decide…")
    context = ann.context
    ann.close()

    # A second after she left, a bot plays her seat, and Bea is not kept waiting.
    row = seat_row(bea, 0)
    expect(row).to_contain_text("mcts:300ms bot plays for them (left)", timeout=10_000)
    expect(bea.locator("#log .kind-notice").filter(has_text="Ann left")).to_have_count(1)
    assert ui.wait_turn(bea, timeout=20_000), "the game went on to Bea"
    ui.take_turn(bea)
    expect(row).to_contain_text(re.compile(r"a bot made \d+ decisions?"))

    # Ann comes back by her seat in the same browser, and plays it again.
    back = context.new_page()
    back.goto(server.url(f"/table/{table}#seat=0"))
    ui.wait_connected(back)
    expect(back.locator("#who")).to_have_text("you are Ann")
    expect(row).not_to_contain_text("plays for them")
    expect(bea.locator("#log .kind-notice").filter(has_text="Ann is back")).to_have_count(1)
    stood = server.get(f"/api/tables/{table}")["seats"][0]
    assert stood.get("stood_in", 0) >= 1 and "stand_in" not in stood


def test_a_clock_runs_out_and_its_person_says_they_are_back(server: Any, ui: Any) -> None:
    expect = ui.expect
    created = server.create_table(
        game=HNS,
        seats=["human", "bot:random"],
        seed=5,
        options=TWO,
        settings={"clock": {"kind": "real_time", "seconds": 4, "increment": 0}},
    )
    table = created["id"]
    me = person(ui, server, invites(created)[0], name="Cy")
    assert ui.wait_turn(me)
    clock = seat_row(me, 0).locator(".seat-clock")
    # The clock counts down on the page while the decision waits.
    expect(clock).to_have_class(re.compile(r"\brunning\b"))
    first = clock.inner_text()
    expect(clock).not_to_have_text(first)
    assert re.fullmatch(r"0:0[0-4] left", clock.inner_text()), clock.inner_text()

    # At zero a bot plays for Cy, and Cy's page says so with a way back.
    back = me.get_by_role("button", name="I'm back")
    expect(back).to_be_visible(timeout=10_000)
    expect(me.locator("#decision-extra")).to_contain_text("Your time ran out")
    expect(me.locator("#log .kind-notice").filter(has_text="Cy ran out of time")).to_have_count(1)
    expect(seat_row(me, 0)).to_contain_text("plays for them (out of time)")
    back.click()
    expect(back).to_have_count(0)
    expect(seat_row(me, 0)).not_to_contain_text("plays for them")
    summary = server.get(f"/api/tables/{table}")
    if summary["status"] == "playing":
        # Back with a minute on the clock, and the decisions are Cy's again.
        assert summary["seats"][0]["clock"]["left"] > 30
        assert ui.wait_turn(me)


def test_a_rematch_seats_the_same_people(server: Any, ui: Any) -> None:
    expect = ui.expect
    created = server.create_table(
        game=HNS, seats=["human", "human"], seed=3, options={**TWO, "round_limit": 1}
    )
    table = created["id"]
    links = invites(created)
    ann = person(ui, server, links[0], name="Ann")
    bea = person(ui, server, links[1], name="Bea")
    for _ in range(60):
        if ann.locator(ui.OVER).count() or bea.locator(ui.OVER).count():
            break
        for page in (ann, bea):
            if page.locator(ui.DECIDE).count():
                ui.take_turn(page)
        ann.wait_for_timeout(100)
    expect(ann.locator(ui.OVER)).to_be_visible()
    expect(bea.locator(ui.OVER)).to_be_visible()
    expect(ann.locator("#banner .score-table")).to_contain_text("Bea")
    # One way of naming a seat everywhere (issue 39): the result, the log and the board
    # call a named seat by its name, never "Player 2" beside "Bea".
    for page in (ann, bea):
        for part in ("#banner", "#log", "#game"):
            assert not re.search(r"Player \d", page.locator(part).inner_text()), part

    ann.get_by_role("button", name="Rematch", exact=True).click()
    expect(ann).to_have_url(re.compile(rf"/table/(?!{re.escape(table)})[^#]+#seat=0$"))
    ui.wait_connected(ann)
    expect(ann.locator("#who")).to_have_text("you are Ann")
    rematch = ann.url.split("/table/")[1].split("#")[0]
    assert rematch != table
    # It waits for Bea (issue 39, item 7): nothing of the game shows, nobody plays for her.
    expect(ann.locator("#prompt")).to_have_text(
        "Waiting for Bea to come. The game begins when everyone is here."
    )
    expect(ann.locator("#game")).to_contain_text("The game has not begun")
    expect(ann.locator("#decision-title")).to_have_text("Decision")
    assert server.get(f"/api/tables/{rematch}")["status"] == "waiting"

    # Bea's page is told, and after a reload still offers the way there, not another.
    expect(bea.get_by_role("button", name="Go to the rematch")).to_be_visible()
    bea.reload()
    ui.wait_connected(bea)
    expect(bea.get_by_role("button", name="Rematch", exact=True)).to_have_count(0)
    # It takes her there as Player 2, her name kept, and the game begins.
    bea.get_by_role("button", name="Go to the rematch").click()
    expect(bea).to_have_url(re.compile(rf"/table/{re.escape(rematch)}#seat=1$"))
    ui.wait_connected(bea)
    expect(bea.locator("#who")).to_have_text("you are Bea")
    expect(ann.locator("#game")).not_to_contain_text("The game has not begun")
    summary = server.get(f"/api/tables/{rematch}")
    assert summary["status"] == "playing"
    assert [s.get("name") for s in summary["seats"]] == ["Ann", "Bea"]
    assert not any(s.get("stand_in") for s in summary["seats"])


def test_a_step_is_taken_back_but_a_roll_stands(server: Any, ui: Any) -> None:
    expect = ui.expect
    created = server.create_table(game="rage", seats=["human"], seed=11, device=[0])
    token = created["seats"][0]["token"]
    table = created["id"]
    page = person(ui, server)
    page.goto(server.url("/"))
    page.evaluate(
        "([t, k]) => localStorage.setItem(`tavernkeep:seats:${t}`,"
        " JSON.stringify({credentials: {'0': k}, last: 0}))",
        [table, token],
    )
    page.goto(server.url(f"/table/{table}#seat=0"))
    ui.wait_connected(page)
    assert ui.wait_turn(page)
    step = page.locator(f'{ui.DECIDE}[data-action="step:0"]')
    label = step.locator(".action-label").inner_text()
    expect(page.locator("#take-back")).to_have_count(0)
    step.click()
    take_back = page.get_by_role("button", name=f"Take back: {label}")
    expect(take_back).to_be_visible()
    take_back.click()
    expect(page.locator("#log .kind-notice").last).to_have_text(f"Player 1 took back: {label}")
    expect(page.locator(f'{ui.DECIDE}[data-action="step:0"]')).to_be_visible()
    expect(page.locator("#take-back")).to_have_count(0)
    assert server.get(f"/api/tables/{table}")["actions"] == 0

    # A quest in Hack & Slash rolls dice: it stands, and nothing offers it back.
    created = server.create_table(game=HNS, seats=["human", "human"], seed=4, options=TWO)
    hns = person(ui, server, invites(created)[0])
    assert ui.wait_turn(hns)
    quest = next(o["action"] for o in ui.offered(hns) if o["action"].startswith("quest"))
    ui.take_turn(hns, action=quest)
    expect(hns.locator("#log .log-dice").first).to_be_visible()
    hns.wait_for_timeout(500)
    expect(hns.locator("#take-back")).to_have_count(0)


PAYLOAD = '<img src=x onerror="window.__pwned=1"><b>hi</b>'


def test_chat_shows_markup_as_the_characters_typed(server: Any, ui: Any) -> None:
    expect = ui.expect
    created = server.create_table(game=HNS, seats=["human", "human"], seed=9, options=TWO)
    table = created["id"]
    links = invites(created)
    ann = person(ui, server, links[0], name="<i>Ann</i>")
    bea = person(ui, server, links[1], name="Bea")
    watcher = person(ui, server, f"/table/{table}#watch", name="Cal")

    ann.get_by_label("Say to the table").fill(PAYLOAD)
    ann.get_by_role("button", name="Say", exact=True).click()
    for page in (ann, bea, watcher):
        line = page.locator("#chat .kind-say").last
        expect(line.locator(".chat-text")).to_have_text(PAYLOAD)
        expect(line.locator(".chat-who")).to_have_text("<i>Ann</i>")
        assert page.locator("#chat img, #chat b, #chat i, #seats i").count() == 0
        assert page.evaluate("() => window.__pwned") is None
    expect(seat_row(bea, 0)).to_contain_text("<i>Ann</i>")

    # A spectator reads the talk but, unless the host allowed it, does not write in it.
    expect(watcher.get_by_label("Say to the table")).to_be_disabled()
    expect(watcher.locator("#chat-hint")).to_have_text(
        "Spectators read the table talk; only the people seated write in it."
    )
    # Renaming a seat shows at once on every page.
    bea.get_by_label("Your name").fill("Beatrix")
    bea.get_by_role("button", name="Save", exact=True).click()
    expect(seat_row(ann, 1)).to_contain_text("Beatrix")
    expect(bea.locator("#who")).to_have_text("you are Beatrix")


def test_the_host_starts_a_table_still_waiting_then_closes_it(server: Any, ui: Any) -> None:
    expect = ui.expect
    created = server.create_table(
        game=HNS, seats=["human", "human", "human"], seed=21, open=[1, 2]
    )
    table = created["id"]
    host = person(ui, server, invites(created)[0], name="Ann", host=f"{table} {created['host']}")
    expect(host.locator("#prompt")).to_have_text(
        "Waiting for players: 2 open seats. The game begins when every seat is taken, "
        "or when you start it (below the seats)."
    )
    expect(seat_row(host, 1)).to_contain_text("open seat")
    # No mixed signals while it waits (issue 39, item 8): no board, no dice, no decision.
    expect(host.locator("#game")).to_contain_text("The game has not begun")
    expect(host.locator("#decision-title")).to_have_text("Decision")
    expect(host.locator("#game .hs-die, #game .die")).to_have_count(0)
    # Someone joins from the lobby; nobody else comes, and the host starts without them.
    joined = person(ui, server)
    joined.goto(server.url("/"))
    joined.locator("#tables .table-item", has_text=table).get_by_role("button", name="Join").click()
    ui.wait_connected(joined)
    expect(joined.locator("#who")).to_have_text("you are Player 2")
    expect(host.locator("#prompt")).to_contain_text("1 open seat.")
    host.get_by_role("button", name="Start now").click()
    wait_status(server, table, "playing")
    expect(seat_row(host, 2)).to_contain_text("bot")
    assert ui.wait_turn(host)

    # Closing asks first; once closed, every page says so and nobody is offered a move.
    host.once("dialog", lambda dialog: dialog.accept())
    host.get_by_role("button", name="Close the table").click()
    wait_status(server, table, "closed")
    for page in (host, joined):
        expect(page.locator("#prompt")).to_have_text("The table's host closed the table.")
        expect(page.locator(ui.DECIDE)).to_have_count(0)
    expect(host.locator("#host-tools")).to_be_hidden()


def test_a_host_takes_their_own_untaken_seat_here(server: Any, ui: Any) -> None:
    """Issue 39, item 7: a host who left the lobby before taking seat 1 finds, on the
    table's page, not only a new invite to copy but their seat to take in this browser."""
    expect = ui.expect
    created = server.create_table(game=HNS, seats=["human", "bot:random", "bot:random"], seed=5)
    table = created["id"]
    host = person(ui, server, f"/table/{table}#watch", host=f"{table} {created['host']}")
    take = host.get_by_role("button", name="Take Player 1's seat here")
    expect(take).to_be_visible()
    take.click()
    expect(host.locator("#who")).to_have_text("you are Player 1")
    expect(host).to_have_url(re.compile(rf"/table/{re.escape(table)}#seat=0$"))
    assert ui.wait_turn(host)
    expect(take).to_have_count(0)
    assert server.get(f"/api/tables/{table}")["seats"][0]["claimed"] is True
