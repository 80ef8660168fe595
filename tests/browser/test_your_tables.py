"""Your tables (issue 44, item 1), as a person uses them: they sit at two tables, open the
lobby and find both at its top, the one waiting on them first; the other person moves and
the list says it is their turn there too, without a reload; with the page in the
background its title counts the tables waiting on them and, since they asked for it with
a click, the browser's notification says which.
"""

from __future__ import annotations

import time
from typing import Any

# Before every page's own scripts: a Notification that records what it is asked to show,
# whose permission the person gives with their click (kept for the context's other pages).
NOTIFICATIONS = """
(() => {
  const notes = (window.__notes = []);
  class Recorded {
    static get permission() {
      return localStorage.getItem("__notify") || "default";
    }
    static async requestPermission() {
      localStorage.setItem("__notify", "granted");
      return "granted";
    }
    constructor(title, options = {}) {
      notes.push({ title, body: options.body, tag: options.tag });
    }
    close() {}
  }
  window.Notification = Recorded;
})();
"""

# The page goes to the background (or comes back) as a switched tab would.
HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(document, "visibilityState", {
    configurable: true, get: () => (hidden ? "hidden" : "visible"),
  });
  document.dispatchEvent(new Event("visibilitychange"));
}"""

SHORT = {"round_limit": 2}


def claim(context: Any, ui: Any, server: Any, invite: str) -> Any:
    """Open an invite link in this person's browser: the page claims the seat."""
    page = context.new_page()
    page.goto(server.url(invite))
    ui.wait_connected(page)
    ui.expect(page.locator("#who")).to_contain_text("you are")
    return page


def group(lobby: Any, name: str) -> Any:
    return lobby.locator(f"#your-tables .your-tables-group.{name} .table-item")


def test_a_person_finds_their_tables_and_their_turn_in_the_lobby(server: Any, ui: Any) -> None:
    expect = ui.expect
    me = ui.new_context()
    me.add_init_script(NOTIFICATIONS)
    ann = ui.new_context()

    # Table A: me and two bots; it is my decision first.
    solo = server.create_table(seats=["human", "bot:random", "bot:random"], options=SHORT)
    # Table B: Ann and me (and a bot); Ann decides first.
    shared = server.create_table(seats=["human", "human", "bot:random"], options=SHORT)
    mine_a = claim(me, ui, server, solo["seats"][0]["invite"])
    ann_b = claim(ann, ui, server, shared["seats"][0]["invite"])
    mine_b = claim(me, ui, server, shared["seats"][1]["invite"])
    ui.wait_turn(mine_a)
    mine_a.close()
    mine_b.close()

    lobby = me.new_page()
    lobby.goto(server.url("/"))
    section = lobby.locator("#your-tables")
    expect(section).to_be_visible()
    expect(section.get_by_role("heading", name="Your tables")).to_be_visible()
    # Mine first: "your turn" heads the list, the table where Ann decides below it.
    first = section.locator(".table-item").first
    expect(first).to_have_attribute("data-table", solo["id"])
    expect(first).to_contain_text("Your turn")
    expect(group(lobby, "your-turn")).to_have_count(1)
    expect(group(lobby, "waiting-on-others")).to_have_count(1)
    waiting = group(lobby, "waiting-on-others").first
    expect(waiting).to_have_attribute("data-table", shared["id"])
    expect(waiting).to_contain_text("Player 1 decides")
    expect(first.get_by_role("link", name="Play")).to_have_attribute(
        "href", f"/table/{solo['id']}#seat=0"
    )

    # Told of turns: asked on this click alone (the page asked nothing as it loaded).
    assert lobby.evaluate("() => window.__notes.length") == 0
    lobby.get_by_role("button", name="Tell me when it's my turn").click()
    expect(section.locator("#notify-state")).to_have_text(
        "This browser tells you when it is your turn."
    )
    expect(lobby.get_by_role("button", name="Tell me when it's my turn")).to_be_hidden()

    # The lobby goes to the background: its title counts the table waiting on me.
    lobby.evaluate(HIDE, True)
    expect(lobby).to_have_title("(1) Your turn — tavernkeep")

    # Ann names herself and plays until the decision is mine at our table.
    ann_b.get_by_label("Your name").fill("Ann")
    ann_b.get_by_role("button", name="Save").click()
    deadline = time.monotonic() + 30
    while group(lobby, "your-turn").count() < 2:
        assert time.monotonic() < deadline, "the shared table never became mine"
        if ann_b.locator(ui.DECIDE).count():
            ui.take_turn(ann_b)
        else:
            time.sleep(0.1)
    # No reload: the row moved up, the title counts two, and the browser said which.
    expect(group(lobby, "your-turn")).to_have_count(2)
    expect(group(lobby, "waiting-on-others")).to_have_count(0)
    expect(lobby).to_have_title("(2) Your turn — tavernkeep")
    notes = lobby.evaluate("() => window.__notes")
    assert [note["tag"] for note in notes] == [f"tavernkeep:turn:{shared['id']}"], notes
    assert notes[0]["title"] == "Your turn: Hack & Slash"
    assert "Ann" in notes[0]["body"]
    expect(section.locator(f'[data-table="{shared["id"]}"]')).to_contain_text("Ann")

    # Back to the page: the title is the lobby's again.
    lobby.evaluate(HIDE, False)
    expect(lobby).to_have_title("tavernkeep · the lobby")

    # I play my turn at the shared table, in its page; the lobby follows without a reload.
    table_page = me.new_page()
    table_page.goto(server.url(f"/table/{shared['id']}#seat=1"))
    ui.wait_turn(table_page)
    # My turn may hold several decisions, the next offered only once the page hears of it:
    # I play on until the lobby no longer waits on me (no button may be showing in between).
    deadline = time.monotonic() + 30
    while group(lobby, "waiting-on-others").count() == 0:
        assert time.monotonic() < deadline, "my turn at the shared table never ended"
        if table_page.locator(ui.DECIDE).count():
            ui.take_turn(table_page)
        else:
            time.sleep(0.1)
    expect(group(lobby, "waiting-on-others")).to_have_count(1)
    expect(group(lobby, "waiting-on-others").first).to_have_attribute("data-table", shared["id"])

    # The table page in the background tells of my next turn there, as the lobby does.
    table_page.evaluate(HIDE, True)
    deadline = time.monotonic() + 30
    while not table_page.evaluate("() => window.__notes.length"):
        assert time.monotonic() < deadline, "the table page never told of my turn"
        if ann_b.locator(ui.DECIDE).count():
            ui.take_turn(ann_b)
        else:
            time.sleep(0.1)
    told = table_page.evaluate("() => window.__notes")
    assert told[0]["tag"] == f"tavernkeep:turn:{shared['id']}"
    assert told[0]["title"] == "Your turn: Hack & Slash"
