"""A page moved to another server process mid-game finds its table where it was.

Two `tavernkeep serve` processes share one PostgreSQL database behind a load balancer
(a small TCP proxy here): the page only knows the balancer's address. Mid-game the
balancer sends new connections to the other process and cuts the open ones, as when a
process is drained; then the first process is killed (SIGKILL), so the table's bots must
move to the one left (its lease lapses). The page reconnects by itself, shows what it
showed, and the game is played to its end there; the record holds every decision the
page took, before the move and after.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

SEATS = ["human", "bot:random", "bot:random"]
SEED = 4242
OPTIONS = {"round_limit": 4}


class Pair:
    """One forwarded connection: the page's socket and the server's."""

    def __init__(self, client: socket.socket, upstream: socket.socket, backend: int) -> None:
        self.client, self.upstream, self.backend = client, upstream, backend
        self.running = 2
        self.lock = threading.Lock()

    def cut(self) -> None:
        """Shut both sockets: each pump's recv returns, and the last one out closes them."""
        for sock in (self.client, self.upstream):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def pump_done(self) -> bool:
        with self.lock:
            self.running -= 1
            return self.running == 0


class Balancer:
    """A TCP proxy on 127.0.0.1 in front of server processes: each connection goes to
    the backend of the moment; `switch(port)` sends new ones to `port` and cuts every
    open one (a drained process: the page's WebSocket closes and it reconnects)."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.1)
        self.port = int(self.listener.getsockname()[1])
        self.base = f"http://127.0.0.1:{self.port}"
        self.backend: int | None = None
        self.lock = threading.Lock()
        self.pairs: set[Pair] = set()
        self.served: Counter[int] = Counter()
        """Connections forwarded to each backend port."""
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._accept, name="balancer", daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return self.base + path

    def switch(self, port: int) -> None:
        with self.lock:
            self.backend = port
            cut = list(self.pairs)
        for pair in cut:
            pair.cut()

    def open_to(self) -> set[int]:
        """The backends of the connections open now."""
        with self.lock:
            return {pair.backend for pair in self.pairs}

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=5)
        self.listener.close()
        with self.lock:
            cut = list(self.pairs)
        for pair in cut:
            pair.cut()

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                client, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            client.settimeout(None)
            # Connected and registered under the lock: a switch cannot miss a connection
            # made to the backend it switches from.
            with self.lock:
                backend = self.backend
                try:
                    assert backend is not None, "no backend yet"
                    upstream = socket.create_connection(("127.0.0.1", backend), timeout=2)
                except (OSError, AssertionError):
                    client.close()
                    continue
                upstream.settimeout(None)
                pair = Pair(client, upstream, backend)
                self.pairs.add(pair)
                self.served[backend] += 1
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(pair, src, dst), daemon=True).start()

    def _pump(self, pair: Pair, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        # Either side gone: the whole connection goes (what a proxy does for a WebSocket).
        pair.cut()
        if pair.pump_done():
            with self.lock:
                self.pairs.discard(pair)
            pair.client.close()
            pair.upstream.close()


@pytest.fixture
def balancer() -> Iterator[Balancer]:
    proxy = Balancer()
    try:
        yield proxy
    finally:
        proxy.close()


def invite_of(created: dict[str, Any], seat: int = 0) -> str:
    return str(next(e["invite"] for e in created["seats"] if e["seat"] == seat))


def actions_of(server: Any, table_id: str) -> int:
    return int(server.get(f"/api/tables/{table_id}")["actions"])


def decisions(record: dict[str, Any]) -> list[tuple[int | None, str]]:
    """Each action of `record` with the seat that chose it (the record replayed)."""
    from tavernkeep.engine.records import parse_record, replay_steps
    from tavernkeep.games import get_game

    parsed = parse_record(json.dumps(record))
    game = get_game(parsed.game)
    chosen: list[tuple[int | None, str]] = []
    deciding: int | None = None
    for _index, action, _events, state in replay_steps(game, parsed, record_events=False):
        if action is not None:
            chosen.append((deciding, action.text))
        deciding = game.actor(state)
    return chosen


# Records every text the connection status shows, for the test to read.
WATCH_CONN = """
() => {
  const node = document.getElementById("conn");
  const seen = (window.__conn = [node.textContent]);
  new MutationObserver(() => seen.push(node.textContent)).observe(node, {
    childList: true, characterData: true, subtree: true,
  });
}
"""


def test_a_page_moved_to_another_process_finds_its_table(
    start_server: Callable[[str], Any],
    postgres_url: str,
    ui: Any,
    balancer: Balancer,
    tmp_path: Path,
    check_replay: Callable[[Path], str],
) -> None:
    expect = ui.expect
    a = start_server(postgres_url)
    b = start_server(postgres_url)  # a second process on the same database
    balancer.switch(a.port)
    created = a.create_table(seats=SEATS, seed=SEED, options=OPTIONS)
    table_id = created["id"]
    page = ui.new_page(balancer.url(invite_of(created)))
    ui.wait_connected(page)

    # Two decisions on process a, then at a decision of mine (the bots wait for it):
    mine: list[str] = []
    for _ in range(2):
        assert ui.wait_turn(page), "the game ended before the page could move"
        mine.append(ui.take_turn(page))
    assert ui.wait_turn(page), "the game ended before the page could move"
    before = ui.visible_state(page)
    actions = actions_of(a, table_id)
    assert actions > len(mine), "the bots have not played yet"
    assert actions_of(b, table_id) == actions, "process b reads another table"
    assert balancer.open_to() == {a.port}
    page.evaluate(WATCH_CONN)

    # Drained: the page's sockets to a are cut, and every new one goes to b.
    balancer.switch(b.port)
    # The page says it lost the server (it may take a moment to notice), then is back
    # by itself: nobody reloads it.
    page.wait_for_function("() => window.__conn.some((t) => t.startsWith('reconnecting'))")
    ui.wait_connected(page, timeout=30_000)
    shown = page.evaluate("() => window.__conn")
    assert shown[-1] == "connected", shown
    assert ui.wait_turn(page)
    after = ui.visible_state(page)
    for key in before:
        assert after[key] == before[key], f"{key} changed over the move to process b"
    assert balancer.open_to() == {b.port}, "the page still talks to process a"
    assert actions_of(b, table_id) == actions

    # Decisions on b while a, which runs the table's bots, is still alive: b sends a
    # the news, a's bots answer, and b shows their moves to the page.
    taken = len(mine)
    while actions_of(b, table_id) == actions + len(mine) - taken:
        mine.append(ui.take_turn(page))
        assert ui.wait_turn(page), "the game ended before process a could be killed"
    # Killed just after my next decision, while its bots may be playing on: the bots
    # move to b once a's lease lapses.
    mine.append(ui.take_turn(page))
    a.kill()
    # Nothing moves until a's lease lapses (3 s): by then b has heard a's last news.
    time.sleep(0.5)
    at_kill = actions_of(b, table_id)
    from playwright.sync_api import TimeoutError as PageTimeout

    try:
        mine += ui.play_to_end(page)
    except PageTimeout as exc:
        raise AssertionError(
            f"the game stalled once process a was killed: {actions_of(b, table_id)} actions "
            f"on b ({at_kill} at the kill): did b take over the table's bots?"
        ) from exc

    expect(page.locator(ui.OVER)).to_be_visible()
    assert b.get(f"/api/tables/{table_id}")["status"] == "finished"
    final = ui.visible_state(page)
    # The log before the move is the start of the log at the end: nothing lost or doubled.
    assert final["log"][: len(before["log"])] == before["log"]
    # A fresh page (through the balancer, so it holds the seat) reads as this one does.
    fresh = page.context.new_page()
    fresh.goto(balancer.url(f"/table/{table_id}#seat=0"))
    expect(fresh.locator(ui.OVER)).to_be_visible()
    assert ui.visible_state(fresh) == final

    # The record, from b: every decision the page took, in order, no stand-in's.
    record = b.get(f"/api/tables/{table_id}/record")
    assert len(record["actions"]) >= actions
    assert not record.get("stood_in"), record.get("stood_in")
    chosen = decisions(record)
    assert [text for seat, text in chosen if seat == 0] == mine
    # The bots played on after a died: b took the table's lease.
    assert any(seat != 0 for seat, _ in chosen[at_kill:]), "no bot moved after the kill"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert "actions replay to the recorded result" in check_replay(path)
    assert ui.toasts(page) == []
    assert ui.violations(page) == []
