"""Your tables (issue 44, item 1): the lobby's one socket follows the seats this browser
holds. Each credential is checked as a table's join checks it, and a wrong one, an
unknown table or a seat that is not the credential's all get the same nothing; every
verified table comes with its game, names, whose decision it is, its clock and, once
over, its result and rematch; a change to any of them is pushed, from this process or
another, over a table's socket or over HTTP alone; what a stranger can make the socket
spend is bounded, each refusal one line. A browser signed in with a passkey is told its
account's tables too, wherever their seats were claimed, as long as its session lasts
and only when its page is one of this server's (the handshake's Origin)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import pytest
from fastapi import WebSocketDisconnect
from fastapi.testclient import TestClient
from tests.server.test_accounts import ORIGIN, SEATS, Device, app_client, execute

from tavernkeep.games import get_game
from tavernkeep.server import your_tables
from tavernkeep.server.app import create_app
from tavernkeep.server.lobby_socket import FOLLOW_BURST, MAX_FOLLOWED, RATE_LIMIT
from tavernkeep.server.rooms import Limits
from tavernkeep.server.storage import SeatKey
from tavernkeep.server.storage.listings import Summary
from tavernkeep.server.table_lines import Turn, entry, stored_line

SHORT = {"round_limit": 2}
TIMEOUT = 10.0


class Closed(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(f"socket closed with code {code}")
        self.code = code


class LobbySock:
    """A test lobby socket: every receive has a timeout, and the raw frames are kept."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.raw: list[str] = []

    def send(self, message: Any) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def follow(self, *seats: tuple[str, int, str]) -> None:
        self.send(
            {
                "type": "follow",
                "seats": [{"table": t, "seat": s, "token": token} for t, s, token in seats],
            }
        )

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        stream = self.ws._send_rx

        async def receive() -> Any:
            with anyio.fail_after(timeout):
                return await stream.receive()

        message = self.ws.portal.call(receive)
        if message["type"] == "websocket.close":
            raise Closed(int(message.get("code", 1000)))
        raw = message["text"]
        self.raw.append(raw)
        parsed: dict[str, Any] = json.loads(raw)
        if parsed["type"] == "error":
            assert "\n" not in parsed["message"] and parsed["message"]
        return parsed

    def until(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, deadline - time.monotonic()))
            if pred(msg):
                return msg

    def tables(self) -> dict[str, dict[str, Any]]:
        """The answer to a follow, by table id."""
        answer = self.until(lambda m: m["type"] in ("tables", "error"))
        assert answer["type"] == "tables", answer
        return {item["id"]: item for item in answer["tables"]}

    def update(self, table_id: str, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        msg = self.until(
            lambda m: m["type"] == "table" and m["table"]["id"] == table_id and pred(m["table"])
        )
        return dict(msg["table"])

    def quiet(self, timeout: float = 0.3) -> None:
        try:
            msg = self.recv(timeout)
        except TimeoutError:
            return
        raise AssertionError(f"unexpected message: {msg}")

    def closed(self, timeout: float = TIMEOUT) -> int:
        deadline = time.monotonic() + timeout
        try:
            while True:
                self.recv(max(0.01, deadline - time.monotonic()))
        except Closed as closed:
            return closed.code


@contextmanager
def lobby(client: Any) -> Iterator[LobbySock]:
    with client.websocket_connect("/ws/lobby") as ws:
        yield LobbySock(ws)


@pytest.fixture
def client(sqlite_url: str) -> Iterator[Any]:
    with TestClient(create_app(sqlite_url, bot_delay=0.0, pass_delay=0.05)) as c:
        yield c


def two_people(client: Any, tk: Any, **body: Any) -> tuple[str, dict[int, str]]:
    """A table of two people and a bot (Hack & Slash, two rounds): its id and both
    people's credentials, each claimed as its person's browser would."""
    data = tk.create(client, seats=["human", "human", "bot:random"], options=SHORT, **body)
    return data["id"], tk.tokens(data)


def alone(client: Any, tk: Any, **body: Any) -> tuple[str, str, dict[str, Any]]:
    """A table of one person and two bots: its id, the person's credential and the
    answer that opened it (its host key)."""
    data = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT, **body)
    return data["id"], tk.tokens(data)[0], data


def test_the_lobby_lists_every_table_this_browser_sits_at(client: Any, tk: Any) -> None:
    mine, token = alone(client, tk)[:2]
    shared, tokens = two_people(client, tk)
    with tk.join(client, shared, 0, tokens[0]) as other:
        other.send({"type": "name", "name": "Ann"})
        other.settle()
        assert other.state is not None and other.state["actor"] == 0
        with lobby(client) as page:
            page.follow((mine, 0, token), (shared, 1, tokens[1]))
            listed = page.tables()
    assert set(listed) == {mine, shared}
    first, second = listed[mine], listed[shared]
    assert first["title"] == "Hack & Slash" and first["game"] == "hack-and-slash"
    assert first["mine"] == [0] and first["actor"] == 0 and first["your_turn"] is True
    assert first["status"] == "playing" and first["rematch"] is None
    assert [s["agent"] for s in first["seats"]] == ["human", "bot:random", "bot:random"]
    # The other person decides at the shared table: their name is shown, the turn is not ours.
    assert second["mine"] == [1] and second["actor"] == 0 and second["your_turn"] is False
    assert second["seats"][0]["name"] == "Ann"
    assert "result" not in first and "clock" not in first


def test_a_move_and_a_name_are_pushed_to_the_lobby(
    client: Any, tk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Told as the table tells its pages, not by the lobby's own timer.
    monkeypatch.setattr(your_tables, "REFRESH_EVERY", 3600.0)
    shared, tokens = two_people(client, tk)
    with lobby(client) as page, tk.join(client, shared, 0, tokens[0]) as other:
        page.follow((shared, 1, tokens[1]))
        assert page.tables()[shared]["actor"] == 0
        other.send({"type": "name", "name": "Ann"})
        named = page.update(shared, lambda t: t["seats"][0].get("name") == "Ann")
        assert named["your_turn"] is False
        # Ann plays until the decision is ours: the lobby says so without being asked.
        while other.until_state()["actor"] == 0:
            state = other.state
            assert state is not None
            if state.get("passing"):
                other.until_state(lambda s, v=state["version"]: s["version"] > v)
                continue
            other.act(state["legal"][0]["action"], state["version"])
            other.until_state(lambda s, v=state["version"]: s["version"] > v)
        ours = page.update(shared, lambda t: t["actor"] == 1)
        assert ours["your_turn"] is True and ours["actions"] >= 1


def test_a_wrong_credential_and_an_unknown_table_get_the_same_nothing(client: Any, tk: Any) -> None:
    shared, tokens = two_people(client, tk)
    data = tk.create(client, seats=["human", "human", "bot:random"], options=SHORT)
    invite = tk.invites(data)[0]  # never claimed: an invite is no credential
    asks = [
        [(shared, 0, "not-the-credential")],
        [("no-such-table", 0, tokens[0])],
        [(shared, 1, tokens[0])],  # the other seat's: a credential acts for its own alone
        [(shared, 2, tokens[0])],  # a bot's seat
        [(shared, 7, tokens[0])],  # no such seat
        [(shared, -1, tokens[0])],
        [(data["id"], 0, invite)],
    ]
    answers = []
    for ask in asks:
        with lobby(client) as page:
            page.follow(*ask)
            assert page.tables() == {}
            answers.append(page.raw[-1])
    assert set(answers) == {'{"type": "tables", "tables": []}'}
    # A stranger's made-up seats leave nothing behind: nothing followed, nothing replayed.
    yours = client.app.state.tavern.your_tables
    assert yours.following == {} and not yours.turns
    # The right credential, for comparison: its table and nothing else.
    with lobby(client) as page:
        page.follow((shared, 0, tokens[0]), (shared, 1, "wrong"), ("no-such-table", 1, "x"))
        assert list(page.tables()) == [shared]


def test_a_table_nobody_is_at_is_read_from_storage_and_not_loaded(sqlite_url: str, tk: Any) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as first:
        shared, tokens = two_people(
            first, tk, settings={"clock": {"kind": "turn_based", "seconds": 86400}}
        )
        with tk.join(first, shared, 0, tokens[0]) as other:
            other.send({"type": "name", "name": "Ann"})
            other.settle()
            seen = other.state
        assert seen is not None
    # A restarted server: nothing is in memory, and listing the table loads nothing.
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as second:
        tavern = second.app.state.tavern  # type: ignore[attr-defined]
        with lobby(second) as page:
            page.follow((shared, 1, tokens[1]), (shared, 0, tokens[0]))
            listed = page.tables()[shared]
            assert tavern.rooms == {}
        assert listed["mine"] == [0, 1] and listed["actor"] == seen["actor"] == 0
        assert listed["your_turn"] is True and listed["seats"][0]["name"] == "Ann"
        # The deciding person's clock, running since their decision began.
        assert listed["clock"]["running"] is True
        assert 86000 < listed["clock"]["left"] <= 86400
        # What the table page says, once it is loaded, is what the lobby said.
        with tk.join(second, shared, 1, tokens[1]) as me:
            assert me.state is not None and me.state["actor"] == listed["actor"]


def test_a_finished_table_has_its_result_and_its_rematch(client: Any, tk: Any) -> None:
    table, token, _ = alone(client, tk)
    with tk.join(client, table, 0, token) as me:
        me.send({"type": "name", "name": "Bea"})
        final = tk.play_to_end({0: me})
    with lobby(client) as page:
        page.follow((table, 0, token))
        over = page.tables()[table]
        assert over["status"] == "finished" and over["actor"] is None
        assert over["your_turn"] is False and over["rematch"] is None
        assert over["result"]["winners"] == final["result"]["winners"]
        assert over["result"]["reason"] == final["result"]["reason"]
        assert over["headline"] == final["headline"]
        made = client.post(f"/api/tables/{table}/rematch", json={"seat": 0, "token": token})
        rematch = made.json()["id"]
        assert page.update(table, lambda t: t["rematch"] is not None)["rematch"] == rematch
        # The seat's credential carried over: the rematch is the browser's too.
        page.follow((table, 0, token), (rematch, 0, token))
        again = page.tables()
        assert again[rematch]["status"] == "waiting" and again[rematch]["seats"][0]["name"] == "Bea"


def test_a_seat_handed_to_a_new_invite_is_no_longer_followed(client: Any, tk: Any) -> None:
    table, token, data = alone(client, tk)
    with lobby(client) as page:
        page.follow((table, 0, token))
        assert list(page.tables()) == [table]
        handed = client.post(f"/api/tables/{table}/reissue", json={"host": data["host"], "seat": 0})
        assert handed.status_code == 200
        page.until(lambda m: m == {"type": "gone", "table": table})
        page.follow((table, 0, token))
        assert page.tables() == {}


def test_what_a_stranger_can_make_the_lobby_socket_spend(sqlite_url: str, tk: Any) -> None:
    with TestClient(create_app(sqlite_url, limits=Limits(sockets_per_client=2))) as client:
        table, token, _ = alone(client, tk)
        too_many = [(table, 0, token)] * (MAX_FOLLOWED + 1)
        with lobby(client) as page:
            page.follow((table, 0, token))
            assert list(page.tables()) == [table]
            page.follow(*too_many)
            told = page.until(lambda m: m["type"] == "error")["message"]
            assert told == f"a lobby follows at most {MAX_FOLLOWED} seats, not {MAX_FOLLOWED + 1}"
            page.send({"type": "follow", "seats": [{"table": table, "seat": "0", "token": token}]})
            assert page.until(lambda m: m["type"] == "error")["message"].startswith(
                "seats must be a list of {table, seat, token}"
            )
            page.send("x" * 50_000)
            assert "at most" in page.until(lambda m: m["type"] == "error")["message"]
            page.send({"type": "shout"})
            assert page.until(lambda m: m["type"] == "error")["message"] == (
                "unknown message type 'shout'"
            )
            # A follow reads every table it names: a few at once, then one every 2 s.
            for _ in range(FOLLOW_BURST - 3):
                page.follow((table, 0, token))
            page.follow((table, 0, token))
            refused = page.until(lambda m: m["type"] == "error")["message"]
            assert refused.startswith("too many follows")
            # The address's sockets: two here (lobby or table), the third refused.
            with lobby(client) as second:
                second.follow((table, 0, token))
                assert list(second.tables()) == [table]
                with pytest.raises(WebSocketDisconnect) as refused, lobby(client):
                    pass
                assert refused.value.code == 1013
            # Past the rate, the socket is closed.
            for _ in range(RATE_LIMIT + 5):
                page.send({"type": "ping"})
            assert page.closed() == 1008
        with lobby(client) as page:
            page.send({"type": "ping"})
            told = page.until(lambda m: m["type"] == "error")["message"]
            assert told == "the first message must be a follow"
            assert page.closed() == 1008


def test_a_table_changed_at_another_process_is_pushed_here(
    postgres_url: str, tk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Told by the news from the other process, not by the lobby's own timer.
    monkeypatch.setattr(your_tables, "REFRESH_EVERY", 3600.0)
    with (
        TestClient(create_app(postgres_url, bot_delay=0.05, pass_delay=0.05)) as a,
        TestClient(create_app(postgres_url, bot_delay=0.05, pass_delay=0.05)) as b,
    ):
        shared, tokens = two_people(a, tk)
        with lobby(b) as page, tk.join(a, shared, 0, tokens[0]) as other:
            page.follow((shared, 1, tokens[1]))
            assert page.tables()[shared]["actor"] == 0
            other.send({"type": "name", "name": "Ann"})
            page.update(shared, lambda t: t["seats"][0].get("name") == "Ann")
            state = other.until_state(lambda s: bool(s["legal"]))
            other.act(state["legal"][0]["action"], state["version"])
            moved = page.update(shared, lambda t: t["actions"] > state["version"])
            assert moved["actions"] >= 1
            assert b.app.state.tavern.rooms == {}  # type: ignore[attr-defined]


def test_a_decision_the_server_passes_for_waits_on_nobody() -> None:
    """A person whose only choice is to pass, or who passes on that kind of decision
    until their turn, is passed for by the server: their lobby does not call them, and
    only their own seat is told why."""
    game = get_game("hack-and-slash")
    keys = [SeatKey(credential_hash="a" * 64), SeatKey(credential_hash="b" * 64), SeatKey()]
    summary = Summary(
        id="t",
        game=game.name,
        pack="standard",
        pack_digest="",
        seats=["human", "human", "bot:random"],
        keys=keys,
        status="playing",
        result=None,
        settings="{}",
        rematch_id=None,
        revision=3,
        actions=3,
        updated_at=time.time(),
    )
    deciding = Turn(actor=0, decision="quest", lone_pass=False, may_pass=True)
    line = stored_line(summary, game, deciding)
    assert entry(line, [0])["your_turn"] is True and "passing" not in entry(line, [0])
    alone_pass = stored_line(summary, game, Turn(0, "modifier", lone_pass=True, may_pass=True))
    assert entry(alone_pass, [0])["your_turn"] is False and entry(alone_pass, [0])["passing"]
    assert "passing" not in entry(alone_pass, [1])  # said to the seat's own lobby alone
    keys[0] = SeatKey(credential_hash="a" * 64, passing_on="modifier")
    passing_on = stored_line(summary, game, Turn(0, "modifier", lone_pass=False, may_pass=True))
    assert entry(passing_on, [0])["your_turn"] is False
    their_turn = stored_line(summary, game, Turn(0, "quest", lone_pass=False, may_pass=True))
    assert entry(their_turn, [0])["your_turn"] is True
    keys[0] = SeatKey(credential_hash="a" * 64, away="left")
    stood_in = stored_line(summary, game, deciding)
    assert entry(stood_in, [0])["your_turn"] is False
    assert stood_in.seats[0]["away"] == "left"


# -- an account's tables, on every device it signs in on --------------------------------


@contextmanager
def signed_lobby(client: Any, device: Any, origin: str | None = ORIGIN) -> Iterator[LobbySock]:
    """A lobby socket of `device`'s browser: its session cookie in the handshake, and the
    `Origin` of the page that opened it (None: no Origin header at all)."""
    headers = {"cookie": f"tk_session={device.session}"}
    saved = client.headers.get("origin")
    if origin is None:
        client.headers.pop("origin", None)
    else:
        headers["origin"] = origin
    try:
        with client.websocket_connect("/ws/lobby", headers=headers) as ws:
            yield LobbySock(ws)
    finally:
        if saved is not None:
            client.headers["origin"] = saved


def test_an_accounts_seats_are_listed_on_every_device_it_signs_in_on(
    db_url: str, tk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Told as they happen, not by the lobby's own timer.
    monkeypatch.setattr(your_tables, "REFRESH_EVERY", 3600.0)
    with app_client(db_url) as client:
        laptop = Device(client)
        laptop.register("Bea")
        first = tk.create(client, seats=["human", "bot:random", "human"], options=SHORT)
        # The laptop claims Player 1's seat signed in; a friend, signed out, Player 3's.
        laptop.post(
            f"/api/tables/{first['id']}/claim", json={"seat": 0, "invite": tk.invites(first)[0]}
        )
        friend = tk.claim(client, first["id"], 2, tk.invites(first)[2])
        phone = Device(client, laptop.passkeys.copy())
        phone.sign_in()
        # The phone holds no credential: its lobby lists the account's table all the same.
        with signed_lobby(client, phone) as page:
            page.follow()
            listed = page.tables()
            assert list(listed) == [first["id"]]
            mine = listed[first["id"]]
            assert mine["mine"] == [0] and mine["actor"] == 0 and mine["your_turn"] is True
            # The laptop claims a seat at another table: the phone's lobby follows it, live.
            second = tk.create(client, seats=["human", "human", "bot:random"], options=SHORT)
            laptop.post(
                f"/api/tables/{second['id']}/claim",
                json={"seat": 1, "invite": tk.invites(second)[1]},
            )
            found = page.update(second["id"], lambda t: True)
            assert found["mine"] == [1] and found["your_turn"] is False
            # The phone takes its seat at the first table and plays: the lobby follows.
            token = phone.post(f"/api/tables/{first['id']}/seats/0/take")["token"]
            with (
                tk.join(client, first["id"], 0, token) as on_phone,
                tk.join(client, first["id"], 2, friend),
            ):
                state = on_phone.until_state(lambda s: bool(s["legal"]))
                on_phone.act(state["legal"][0]["action"], state["version"])
                moved = page.update(first["id"], lambda t: t["actions"] > state["version"])
                assert moved["mine"] == [0]
            # Bounded as a page's credentials: the account's latest ACCOUNT_SEATS.
            monkeypatch.setattr(your_tables, "ACCOUNT_SEATS", 1)
            with signed_lobby(client, phone) as bounded:
                bounded.follow()
                assert len(bounded.tables()) == 1
            monkeypatch.setattr(your_tables, "ACCOUNT_SEATS", 200)
            # The host hands the seat to a new invite: it leaves the account, and the list.
            client.post(
                f"/api/tables/{second['id']}/reissue", json={"host": second["host"], "seat": 1}
            )
            page.until(lambda m: m == {"type": "gone", "table": second["id"]})


def test_a_page_of_another_site_reads_none_of_an_accounts_tables(sqlite_url: str, tk: Any) -> None:
    with app_client(sqlite_url) as client:
        laptop = Device(client)
        laptop.register("Bea")
        data = tk.create(client, seats=SEATS, options=SHORT)
        laptop.post(
            f"/api/tables/{data['id']}/claim", json={"seat": 0, "invite": tk.invites(data)[0]}
        )
        solo = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
        token = tk.claim(client, solo["id"], 0, tk.invites(solo)[0])
        # A page of this server's: the account's table.
        with signed_lobby(client, laptop) as page:
            page.follow()
            assert list(page.tables()) == [data["id"]]
        # A page elsewhere opens the socket in the signed-in browser, which adds the cookie:
        # it is served as a browser signed out, told only of the seats it names itself.
        for origin in (
            "https://evil.example",
            "null",
            "http://testserver.evil.example",
            "http://testserver:8080",
            "https://testserver",
            None,
        ):
            with signed_lobby(client, laptop, origin) as page:
                page.follow()
                assert page.tables() == {}, origin
                page.follow((solo["id"], 0, token))
                assert list(page.tables()) == [solo["id"]], origin
        assert client.app.state.tavern.your_tables.accounts == {}  # type: ignore[attr-defined]


def test_a_signed_out_browser_is_told_none_of_the_accounts_tables(
    db_url: str, tk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(your_tables, "REFRESH_EVERY", 3600.0)
    with app_client(db_url) as client:
        laptop = Device(client)
        laptop.register("Bea")
        data = tk.create(client, seats=SEATS, options=SHORT)
        laptop.post(
            f"/api/tables/{data['id']}/claim", json={"seat": 0, "invite": tk.invites(data)[0]}
        )
        phone = Device(client, laptop.passkeys.copy())
        phone.sign_in()
        signed_out = Device(client)
        signed_out.jar.set("tk_session", str(phone.session))
        with signed_lobby(client, phone) as page:
            page.follow()
            assert list(page.tables()) == [data["id"]]
            # Signed out in another tab of the phone: its lobby lets the account's table go.
            phone.post("/api/account/sign-out")
            page.until(lambda m: m == {"type": "gone", "table": data["id"]})
            page.follow()
            assert page.tables() == {}
        # The ended session's cookie, sent again, is nobody's; the laptop's still lists it.
        with signed_lobby(client, signed_out) as page:
            page.follow()
            assert page.tables() == {}
        with signed_lobby(client, laptop) as page:
            page.follow()
            assert list(page.tables()) == [data["id"]]
    # A session that ended where this process did not hear of it (another process, or its
    # month ran out) is found at the lobby's next look.
    monkeypatch.setattr(your_tables, "REFRESH_EVERY", 0.2)
    with app_client(db_url) as client:
        again = Device(client)
        again.jar = laptop.jar
        with signed_lobby(client, again) as page:
            page.follow()
            assert list(page.tables()) == [data["id"]]
            execute(db_url, "UPDATE sessions SET expires_at = :t", t=time.time() - 1)
            page.until(lambda m: m == {"type": "gone", "table": data["id"]})


# -- what changes over HTTP alone ---------------------------------------------------------


def test_a_change_over_http_to_a_table_nobody_is_at_is_pushed(
    sqlite_url: str, tk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A claim, a host's close and a rematch asked over HTTP, at tables this process does
    not hold in memory (none of their pages is open): told at once, not at the lobby's
    next look."""
    monkeypatch.setattr(your_tables, "REFRESH_EVERY", 3600.0)
    with TestClient(create_app(sqlite_url, bot_delay=0.0, pass_delay=0.05)) as first:
        waiting = tk.create(first, seats=["human", "human", "bot:random"], open=[1], options=SHORT)
        mine = tk.claim(first, waiting["id"], 0, tk.invites(waiting)[0])
        closing, closing_token, closing_made = alone(first, tk)
        over, over_token, _ = alone(first, tk)
        with tk.join(first, over, 0, over_token) as me:
            tk.play_to_end({0: me})
    # Restarted: nothing in memory, so no table has a page to tell.
    with TestClient(create_app(sqlite_url, bot_delay=0.0, pass_delay=0.05)) as client:
        tavern = client.app.state.tavern  # type: ignore[attr-defined]
        with lobby(client) as page:
            page.follow(
                (waiting["id"], 0, mine), (closing, 0, closing_token), (over, 0, over_token)
            )
            listed = page.tables()
            assert listed[waiting["id"]]["status"] == "waiting"
            assert listed[waiting["id"]]["seats"][1].get("open") is True
            assert tavern.rooms == {}
            # Someone takes the open seat from the lobby's list: the table begins.
            assert client.post(f"/api/tables/{waiting['id']}/join").status_code == 200
            began = page.update(waiting["id"], lambda t: t["status"] == "playing")
            assert "open" not in began["seats"][1]
            assert waiting["id"] not in tavern.rooms
            # The host closes a table nobody is at.
            closed = client.post(
                f"/api/tables/{closing}/close", json={"host": closing_made["host"]}
            )
            assert closed.status_code == 200
            assert page.update(closing, lambda t: t["status"] == "closed")["actor"] is None
            # A rematch of a finished table, asked over HTTP.
            made = client.post(f"/api/tables/{over}/rematch", json={"seat": 0, "token": over_token})
            assert made.status_code == 200
            assert (
                page.update(over, lambda t: t["rematch"] is not None)["rematch"]
                == made.json()["id"]
            )
            assert over not in tavern.rooms


def test_a_seat_the_account_takes_at_another_process_is_found_at_the_next_look(
    postgres_url: str, tk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(your_tables, "REFRESH_EVERY", 0.3)
    with app_client(postgres_url) as a, app_client(postgres_url) as b:
        laptop = Device(a)
        laptop.register("Bea")
        phone = Device(b, laptop.passkeys.copy())
        phone.sign_in()
        with signed_lobby(b, phone) as page:
            page.follow()
            assert page.tables() == {}
            # Claimed signed in at the other process, which this one hears nothing of.
            data = tk.create(a, seats=SEATS, options=SHORT)
            laptop.post(
                f"/api/tables/{data['id']}/claim", json={"seat": 0, "invite": tk.invites(data)[0]}
            )
            assert page.update(data["id"], lambda t: True)["mine"] == [0]
