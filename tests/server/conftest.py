"""Fixtures and a small harness for the server tests.

The app runs in-process (`TestClient` as a context manager, so the lifespan runs and every
websocket shares one event loop). `Sock` wraps a test websocket: every receive has a
timeout (a silent server fails a test instead of hanging it), keeps the raw text of every
frame (for the leak tests) and checks protocol invariants on every message it sees.

PostgreSQL variants run when TAVERNKEEP_TEST_POSTGRES_URL is set (see pg_setup.sh); each
test gets a fresh schema of its own, dropped afterwards.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import re
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

import tavernkeep.games
from tavernkeep.server.storage import Storage, normalise_url

HERE = Path(__file__).parent
PG_ENV = "TAVERNKEEP_TEST_POSTGRES_URL"
HIDDEN_MODULE = "tavernkeep_tests_hidden_game"
INVITE = re.compile(r"^/table/(?P<id>[^#/]+)#seat=(?P<seat>\d+)&invite=(?P<token>[A-Za-z0-9_-]+)$")
TIMEOUT = 10.0


def _load_hidden_game() -> Any:
    """Import hidden_game.py under one fixed name, whatever pytest's import mode, so the
    game registry can name it as `module:GAME` like any built-in game."""
    if HIDDEN_MODULE in sys.modules:
        return sys.modules[HIDDEN_MODULE]
    spec = importlib.util.spec_from_file_location(HIDDEN_MODULE, HERE / "hidden_game.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[HIDDEN_MODULE] = module
    spec.loader.exec_module(module)
    return module


hidden = _load_hidden_game()


# -- storage -------------------------------------------------------------------------


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tavernkeep.db'}"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A URL whose connections see only a fresh, empty schema of this test's own."""
    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"no PostgreSQL: set {PG_ENV}")
    schema = f"tk_test_{uuid.uuid4().hex[:16]}"
    admin = create_engine(normalise_url(url), poolclass=NullPool)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    sep = "&" if "?" in url else "?"
    try:
        yield f"{url}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tavernkeep.db'}"
    return str(request.getfixturevalue("postgres_url"))


def stored_table(url: str, table_id: str) -> Any:
    """The table as committed (a StoredTable or None), read with a connection of our own."""
    storage = Storage(url)
    try:
        return storage.load(table_id)
    finally:
        storage.close()


def stored_actions(url: str, table_id: str) -> list[str]:
    stored = stored_table(url, table_id)
    return [] if stored is None else list(stored.record.actions)


# -- the hidden-information game ------------------------------------------------------


@pytest.fixture
def hidden_game(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Register Secret Draw as 'hidden-test' for one test. Every module reaches games
    through tavernkeep.games' functions over this one dict, so one entry is enough."""
    monkeypatch.setitem(tavernkeep.games.REGISTRY, hidden.NAME, f"{HIDDEN_MODULE}:GAME")
    return hidden


# -- websockets ----------------------------------------------------------------------


class Closed(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(f"socket closed with code {code}")
        self.code = code


class ServerError(AssertionError):
    pass


class Sock:
    """One test websocket, as seat `seat` (None: a spectator)."""

    def __init__(self, ws: Any, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.raw: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []
        """Every event received after the welcome, in order."""
        self.closed: int | None = None

    # sending
    def send(self, message: Any) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def act(self, action: str, version: Any = None) -> None:
        message: dict[str, Any] = {"type": "action", "action": action}
        if version is not None:
            message["version"] = version
        self.send(message)

    # receiving
    def _receive(self, timeout: float) -> dict[str, Any]:
        stream = self.ws._send_rx

        async def receive() -> Any:
            with anyio.fail_after(timeout):
                return await stream.receive()

        message: dict[str, Any] = self.ws.portal.call(receive)
        return message

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        if self.closed is not None:
            raise Closed(self.closed)
        message = self._receive(timeout)
        if message["type"] == "websocket.close":
            self.closed = int(message.get("code", 1000))
            raise Closed(self.closed)
        assert message["type"] == "websocket.send", message
        raw = message.get("text")
        assert isinstance(raw, str), f"the server sent a non-text frame: {message}"
        self.raw.append(raw)
        msg = json.loads(raw)
        self._check(msg)
        self.messages.append(msg)
        return msg

    def _check(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "state":
            actor = msg["actor"]
            mine = self.seat is not None and actor == self.seat
            # A seat with nothing to play is told it is being passed for, and offered
            # nothing; no other socket is told anything of it.
            passing = msg.get("passing", False)
            assert not passing or mine, f"seat {self.seat} was told another seat passes"
            assert bool(msg["legal"]) == (mine and not passing), (
                f"seat {self.seat}'s socket got legal={msg['legal']!r} with actor {actor}"
            )
            if self.state is not None:
                assert msg["version"] >= self.state["version"], "versions went backwards"
            ended = msg["status"] in ("closed", "archived", "waiting")
            assert (msg["result"] is None) == (actor is not None or ended)
            self.state = msg
        elif kind == "events":
            assert msg["events"], "an events message with no events"
            assert self.state is None or msg["version"] > self.state["version"]
            self.events.extend(msg["events"])
        elif kind == "welcome":
            assert self.welcome is None, "a second welcome"
            self.welcome = msg
        elif kind == "undone":
            # The table went back (a decision taken back): a welcome and a state follow,
            # and versions start again from the one given.
            self.welcome = None
            self.state = None
        elif kind == "seats":
            assert isinstance(msg["seats"], list) and msg["seats"]
        elif kind == "error":
            assert isinstance(msg["message"], str) and msg["message"]
            assert "\n" not in msg["message"]

    def expect(self, kind: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The very next message, which must be of this type."""
        msg = self.recv(timeout)
        assert msg["type"] == kind, f"expected {kind}, got {msg}"
        return msg

    def until(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT
    ) -> dict[str, Any]:
        """Read until a message satisfies `pred`; an error message on the way fails."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, deadline - time.monotonic()))
            if pred(msg):
                return msg
            if msg["type"] == "error":
                raise ServerError(f"seat {self.seat}: unexpected error {msg['message']!r}")

    def until_state(
        self, pred: Callable[[dict[str, Any]], bool] = lambda s: True, timeout: float = TIMEOUT
    ) -> dict[str, Any]:
        """The first state satisfying `pred`, the last one received counting too."""
        if self.state is not None and pred(self.state):
            return self.state
        return self.until(lambda m: m["type"] == "state" and pred(m), timeout)

    def until_closed(self, timeout: float = TIMEOUT) -> tuple[int, list[dict[str, Any]]]:
        """Read until the server closes; the close code and the messages before it."""
        seen: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        try:
            while True:
                seen.append(self.recv(max(0.01, deadline - time.monotonic())))
        except Closed as closed:
            return closed.code, seen

    def quiet(self, timeout: float = 0.15) -> None:
        """Nothing arrives within `timeout`."""
        try:
            msg = self._receive(timeout)
        except TimeoutError:
            return
        raise AssertionError(f"unexpected message: {msg}")

    def ping(self) -> None:
        """A round trip: the next message must be the pong, so nothing was queued before it."""
        self.send({"type": "ping"})
        self.expect("pong")

    def settle(self) -> None:
        """Read everything queued so far (a ping's pong comes after it)."""
        self.send({"type": "ping"})
        self.until(lambda m: m["type"] == "pong")

    def drain_to_end(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        return self.until_state(lambda s: s["result"] is not None, timeout)


class Harness:
    """Helpers over a TestClient: tables, sockets and playing games through them."""

    client: Any = None
    """The client of the last `create`, which `tokens` claims seats through."""

    def create(self, client: Any, status: int = 201, **body: Any) -> dict[str, Any]:
        body.setdefault("game", "hack-and-slash")
        response = client.post("/api/tables", json=body)
        assert response.status_code == status, response.text
        data: dict[str, Any] = response.json()
        self.client = client
        return data

    def invites(self, created: dict[str, Any]) -> dict[int, str]:
        """Each person's seat's invite, as the creator was handed it."""
        out = {}
        for entry in created["seats"]:
            if "invite" in entry:
                match = INVITE.match(entry["invite"])
                assert match, entry["invite"]
                assert match["id"] == created["id"]
                assert int(match["seat"]) == entry["seat"]
                out[entry["seat"]] = match["token"]
        return out

    def claim(self, client: Any, table_id: str, seat: int, invite: str) -> str:
        """Open an invite as a browser would: the credential the server hands back."""
        response = client.post(
            f"/api/tables/{table_id}/claim", json={"seat": seat, "invite": invite}
        )
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["seat"] == seat
        return str(body["token"])

    def tokens(self, created: dict[str, Any], client: Any = None) -> dict[int, str]:
        """Every person seat's credential: each invite claimed as its person would, and
        the creator's device seats' credentials as handed out."""
        client = client or self.client
        out = {
            seat: self.claim(client, created["id"], seat, invite)
            for seat, invite in self.invites(created).items()
        }
        for entry in created["seats"]:
            if entry.get("device"):
                out[entry["seat"]] = entry["token"]
        return dict(sorted(out.items()))

    @contextmanager
    def connect(self, client: Any, table_id: str, seat: int | None = None) -> Iterator[Sock]:
        """A raw socket to the table: nothing sent yet."""
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            yield Sock(ws, seat)

    @contextmanager
    def join(
        self, client: Any, table_id: str, seat: int | None = None, token: str | None = None
    ) -> Iterator[Sock]:
        """A socket joined as `seat` (None: spectator), past its welcome and first state."""
        with self.connect(client, table_id, seat) as sock:
            hello: dict[str, Any] = {"type": "join"}
            if seat is not None:
                hello.update(seat=seat, token=token)
            sock.send(hello)
            welcome = sock.expect("welcome")
            assert welcome["seat"] == seat
            assert welcome["table"]["id"] == table_id
            sock.expect("state")
            yield sock

    def play_to_end(
        self,
        socks: dict[int, Sock],
        choose: Callable[[int, dict[str, Any]], str] | None = None,
        watchers: tuple[Sock, ...] = (),
        max_actions: int = 400,
        stop_after: int | None = None,
    ) -> dict[str, Any]:
        """Play every human seat in `socks` through its own socket until the game is over
        (or until `stop_after` of their actions); bots play themselves. Returns the last
        state of the first socket."""
        rng = random.Random(7)
        if choose is None:

            def choose(seat: int, state: dict[str, Any]) -> str:
                return str(rng.choice(state["legal"])["action"])

        ref = next(iter(socks.values()))
        current = max(s.state["version"] for s in socks.values() if s.state)
        for count in range(max_actions):
            if count == stop_after:
                quiet = ref.until_state(
                    lambda s, v=current: (
                        s["version"] >= v and (s["result"] is not None or s["actor"] in socks)
                    )
                )
                for sock in socks.values():
                    sock.until_state(lambda s, v=quiet["version"]: s["version"] >= v)
                return quiet
            # A state where a person must decide is quiet: no bot moves until they do.
            st = ref.until_state(
                lambda s, v=current: (
                    s["version"] >= v and (s["result"] is not None or s["actor"] in socks)
                )
            )
            if st["result"] is not None:
                break
            version, actor = st["version"], st["actor"]
            sock = socks[actor]
            mine = sock.until_state(lambda s, v=version: s["version"] == v)
            if mine.get("passing"):
                # Nothing to play: the server passes for this seat after a pause.
                current = version + 1
                continue
            sock.act(choose(actor, mine), version)
            current = version + 1
        else:
            raise AssertionError(f"no end after {max_actions} actions")
        final = ref.state
        assert final is not None
        for sock in (*socks.values(), *watchers):
            end = sock.drain_to_end()
            assert end["version"] == final["version"]
            assert end["result"] == final["result"]
        return final


@pytest.fixture
def tk() -> Harness:
    return Harness()


def wait_for(pred: Callable[[], Any], timeout: float = TIMEOUT, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = pred()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


@pytest.fixture
def helpers() -> Any:
    """Plain functions the test modules share (they cannot import this conftest)."""

    class Helpers:
        stored_actions = staticmethod(stored_actions)
        stored_table = staticmethod(stored_table)
        wait_for = staticmethod(wait_for)
        Closed = Closed
        ServerError = ServerError
        INVITE = INVITE

    return Helpers
