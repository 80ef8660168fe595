"""Two people, each in a browser of their own, play one table by their invite links.

Each clicks only when their page offers a decision; the other page (and a spectator's)
must then offer nothing at all (no button, no clickable card or die). Midway, person A
tries to act for person B with a websocket of their own: every attempt is refused and
nothing changes.
"""

from __future__ import annotations

import time
from typing import Any

SEED = 4242

# Run in A's page: A holds only their own seat's credential (claimed with their invite,
# kept in this browser's localStorage) and knows their own, spent, invite.
FORGE = """
async ({table, other, action, invite}) => {
  const seat = Number(new URLSearchParams(location.hash.slice(1)).get("seat"));
  const held = JSON.parse(localStorage.getItem(`tavernkeep:seats:${table}`));
  const token = held.credentials[String(seat)];
  const url = `ws://${location.host}/ws/tables/${encodeURIComponent(table)}`;
  // Open a socket, send `first`; on the first state send what `after(state)` returns;
  // resolve with every message received once `until(message)` or the socket closes.
  const talk = (first, after, until) => new Promise((resolve) => {
    const ws = new WebSocket(url);
    const got = [];
    let done = false;
    const finish = (closed) => {
      if (done) return;
      done = true;
      if (closed === null) ws.close();
      resolve({ got, closed });
    };
    ws.onopen = () => ws.send(JSON.stringify(first));
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      got.push(message);
      if (message.type === "state" && after) {
        after(message).forEach((m) => ws.send(JSON.stringify(m)));
        after = null;
      }
      if (until(message)) finish(null);
    };
    ws.onclose = (event) => finish(event.code);
    setTimeout(() => finish("timeout"), 5000);
  });
  // 1. B's seat with A's token.
  const asOther = await talk({ type: "join", seat: other, token }, null, () => false);
  // 2. A's own seat, sending B's action (with and without a version, naming B's seat).
  const asMine = await talk(
    { type: "join", seat, token },
    (state) => [
      { type: "action", action, version: state.version, seat: other },
      { type: "action", action, seat: other },
      { type: "ping" },
    ],
    (message) => message.type === "pong",
  );
  // 3. A's own invite, spent when A's browser claimed the seat, acts for nobody.
  const spent = await talk({ type: "join", seat, token: invite }, null, () => false);
  // 4. No seat at all.
  const asWatcher = await talk(
    { type: "join" },
    (state) => [{ type: "action", action, version: state.version }, { type: "ping" }],
    (message) => message.type === "pong",
  );
  return { asOther, asMine, spent, asWatcher };
}
"""


def whose_decision(ui: Any, pages: dict[int, Any], timeout: float = 20.0) -> int | None:
    """The seat whose page offers a decision now, or None once both show the result."""
    deadline = time.monotonic() + timeout
    while True:
        for seat, page in pages.items():
            if page.locator(ui.DECIDE).count():
                return seat
        if all(page.locator(ui.OVER).count() for page in pages.values()):
            return None
        assert time.monotonic() < deadline, "neither page offers a decision nor a result"
        pages[0].wait_for_timeout(50)


def test_two_people_each_decide_only_for_their_own_seat(server: Any, ui: Any) -> None:
    expect = ui.expect
    created = server.create_table(seats=["human", "human", "bot:heuristic"], seed=SEED)
    table_id = created["id"]
    invites = {e["seat"]: e["invite"] for e in created["seats"] if "invite" in e}
    assert sorted(invites) == [0, 1]

    # Two people, two browsers: nothing is shared between them but the server.
    pages = {seat: ui.new_page(server.url(invite)) for seat, invite in invites.items()}
    for seat, page in pages.items():
        ui.wait_connected(page)
        expect(page.locator("#who")).to_have_text(f"you are Player {seat + 1}")
        # Each sees the other person at the table.
        expect(page.locator("#seats li").nth(1 - seat)).to_contain_text("here")

    # A third browser watches by the spectators' link.
    watcher = ui.new_page(server.url(created["spectate"]))
    ui.wait_connected(watcher)
    expect(watcher.locator("#who")).to_have_text("spectator")

    forged: dict[str, Any] | None = None
    turns = {0: 0, 1: 0}
    for _ in range(120):
        seat = whose_decision(ui, pages)
        if seat is None:
            break
        me, other = pages[seat], pages[1 - seat]
        name = f"Player {seat + 1}"
        # The person deciding is told so; the other sees whose decision it is, and has
        # nothing to press.
        expect(me.locator("#game .hs-turn")).to_have_text("Your turn")
        expect(other.locator("#prompt")).to_have_text(f"Waiting for {name} to decide…")
        expect(other.locator("#game .hs-turn")).to_have_text(f"{name}'s turn")
        expect(other.locator("#seats li").nth(seat)).to_contain_text("deciding")
        expect(other.locator("#actions button.action")).to_have_count(0)
        expect(other.locator("#game .playable")).to_have_count(0)
        expect(other.locator("#decision-title")).to_have_text("Decision")

        if sum(turns.values()) == 2:
            ui.shoot(other, "table-waiting-for-the-other-person")

        if seat == 1 and forged is None:
            offered = ui.offered(me)
            before = server.get(f"/api/tables/{table_id}")["actions"]
            forged = pages[0].evaluate(
                FORGE,
                {
                    "table": table_id,
                    "other": 1,
                    "action": offered[0]["action"],
                    "invite": invites[0].rsplit("invite=", 1)[1],
                },
            )
            check_forgeries(forged, before)
            # Nothing moved: the table's version, and B's decision is still B's to make.
            assert server.get(f"/api/tables/{table_id}")["actions"] == before
            assert ui.offered(me) == offered
            expect(other.locator("#actions button.action")).to_have_count(0)

        ui.take_turn(me, "card" if turns[seat] % 2 else "button")
        turns[seat] += 1
    else:
        raise AssertionError("the game did not end")

    assert forged is not None, "Player 2 never had a decision to forge"
    assert turns[0] and turns[1], turns

    # Both see the same result, each from their own seat.
    banners = {seat: page.locator("#banner") for seat, page in {**pages, 2: watcher}.items()}
    for banner in banners.values():
        expect(banner).to_be_visible()
    tables = [b.locator(".score-table tbody").inner_text() for b in banners.values()]
    reasons = [b.locator(".result-reason").inner_text() for b in banners.values()]
    assert tables[0] == tables[1] == tables[2] and reasons[0] == reasons[1] == reasons[2]
    assert ui.visible_state(watcher)["log"] == ui.visible_state(pages[0])["log"]
    assert ui.violations(watcher) == [], "the spectator was offered a decision"
    summary = server.get(f"/api/tables/{table_id}")
    assert summary["status"] == "finished"
    for seat, page in pages.items():
        assert ui.violations(page) == [], f"Player {seat + 1}'s page offered another's decision"
        assert ui.toasts(page) == [], f"Player {seat + 1} was shown errors"


def check_forgeries(forged: dict[str, Any], version: int) -> None:
    # 1. A's token does not open B's seat: an error, then the socket is closed (1008).
    as_other = forged["asOther"]
    assert [m["type"] for m in as_other["got"]] == ["error"], as_other
    assert "not valid" in as_other["got"][0]["message"]
    assert as_other["closed"] == 1008, as_other

    # 2. On A's own seat, B's action is refused twice, and A's socket never sees B's
    #    legal actions.
    as_mine = forged["asMine"]
    kinds = [m["type"] for m in as_mine["got"]]
    assert kinds == ["welcome", "state", "error", "error", "pong"], as_mine
    state = as_mine["got"][1]
    assert state["version"] == version
    assert state["actor"] == 1
    assert state["legal"] == []
    for error in as_mine["got"][2:4]:
        assert error["message"] == "it is not your decision", error

    # 3. The invite that claimed A's seat acts for nobody now.
    spent = forged["spent"]
    assert [m["type"] for m in spent["got"]] == ["error"], spent
    assert "not valid" in spent["got"][0]["message"]
    assert spent["closed"] == 1008, spent

    # 4. Without a seat, nothing can be done either.
    as_watcher = forged["asWatcher"]
    kinds = [m["type"] for m in as_watcher["got"]]
    assert kinds == ["welcome", "state", "error", "pong"], as_watcher
    assert as_watcher["got"][2]["message"] == "a spectator cannot act"
