"""Real `tavernkeep serve` processes: killed with SIGKILL mid-game and started again, and
several at once over one PostgreSQL database.

Each server runs as a subprocess bound to 127.0.0.1 and is played over a real websocket
(the `websockets` client). Its stdout and stderr (uvicorn's access and error logs) are
kept, to check that no seat token is ever logged.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from tavernkeep.engine.records import parse_record, replay
from tavernkeep.games import get_game

STARTUP = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, url: str, logs: Path, name: str, *extra: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.stdout = logs / f"{name}.out"
        self.stderr = logs / f"{name}.err"
        with self.stdout.open("wb") as out, self.stderr.open("wb") as err:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tavernkeep.cli",
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--database-url",
                    url,
                    "--bot-delay",
                    "0.05",
                    *extra,
                ],
                stdout=out,
                stderr=err,
                stdin=subprocess.DEVNULL,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        deadline = time.monotonic() + STARTUP
        while True:
            assert self.proc.poll() is None, f"server exited: {self.logs()}"
            try:
                if httpx.get(f"{self.base}/api/games", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, f"server did not start: {self.logs()}"
            time.sleep(0.05)

    def get(self, path: str) -> Any:
        return httpx.get(self.base + path, timeout=5.0)

    def post(self, path: str, body: Any) -> Any:
        return httpx.post(self.base + path, json=body, timeout=5.0)

    def logs(self) -> str:
        return self.stdout.read_text(errors="replace") + self.stderr.read_text(errors="replace")

    @property
    def me(self) -> str:
        """The id this process goes by in the database (its banner says it)."""
        found = re.search(r"server process (\w+)", self.logs())
        assert found, f"no process id in the banner: {self.logs()}"
        return found.group(1)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        assert self.proc.wait(timeout=10) == -signal.SIGKILL

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@contextmanager
def server(url: str, logs: Path, name: str, *extra: str) -> Iterator[Server]:
    srv = Server(url, logs, name, *extra)
    try:
        yield srv
    finally:
        srv.stop()


class RealSock:
    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.seats: list[dict[str, Any]] = []
        """The seats as last shown, by a state or a seats message."""
        self.log: list[dict[str, Any]] = []
        self.versions: list[int] = []
        """The version of each `events` message, as they came."""

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def recv(self) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=10))
        if msg["type"] == "state":
            self.state = msg
            self.seats = msg["seats"]
        elif msg["type"] == "seats":
            self.seats = msg["seats"]
        elif msg["type"] == "events":
            self.log.extend(msg["events"])
            self.versions.append(msg["version"])
        elif msg["type"] == "welcome":
            self.log.extend(msg["log"])
        elif msg["type"] == "error":
            raise AssertionError(f"server error: {msg['message']}")
        return msg

    def until_state(self, pred: Any) -> dict[str, Any]:
        while self.state is None or not pred(self.state):
            self.recv()
        return self.state


@contextmanager
def seat(srv: Server, table_id: str, seat: int, token: str) -> Iterator[RealSock]:
    with connect(f"ws://127.0.0.1:{srv.port}/ws/tables/{table_id}", open_timeout=10) as ws:
        sock = RealSock(ws)
        sock.send({"type": "join", "seat": seat, "token": token})
        assert sock.recv()["type"] == "welcome"
        assert sock.recv()["type"] == "state"
        yield sock


def claim(srv: Server, table_id: str, seat: int, invite: str) -> str:
    """Trade an invite for a credential, as a browser opening the link does."""
    response = srv.post(f"/api/tables/{table_id}/claim", {"seat": seat, "invite": invite})
    assert response.status_code == 200, response.text
    return str(response.json()["token"])


def refused_join(srv: Server, table_id: str, message: dict[str, Any]) -> str:
    with connect(f"ws://127.0.0.1:{srv.port}/ws/tables/{table_id}", open_timeout=10) as ws:
        ws.send(json.dumps(message))
        reply = json.loads(ws.recv(timeout=10))
        assert reply["type"] == "error"
        return str(reply["message"])


def test_sigkill_mid_game_then_restart_resumes_exactly(
    db_url: str, tmp_path: Path, tk: Any, helpers: Any
) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    tokens: list[str] = []

    first = Server(db_url, logs, "first")
    try:
        created = first.post(
            "/api/tables",
            {
                "game": "hack-and-slash",
                "seats": ["human", "bot:random", "human"],
                "options": {"round_limit": 3},
                "seed": 31,
            },
        )
        assert created.status_code == 201
        table = created.json()
        tid, invites = table["id"], tk.invites(table)
        seat_tokens = {s: claim(first, tid, s, invite) for s, invite in invites.items()}
        tokens += [*invites.values(), *seat_tokens.values()]
        bots = first.post(
            "/api/tables",
            {
                "game": "hack-and-slash",
                "seats": ["bot:random", "bot:heuristic", "bot:random"],
                "options": {"round_limit": 4},
                "seed": 32,
            },
        ).json()
        # A token offered for the wrong seat is refused, and must not be logged either.
        assert "not valid" in refused_join(
            first, tid, {"type": "join", "seat": 2, "token": seat_tokens[0]}
        )
        with (
            seat(first, tid, 0, seat_tokens[0]) as zero,
            seat(first, tid, 2, seat_tokens[2]) as two,
        ):
            socks = {0: zero, 2: two}
            for _ in range(4):
                st = zero.until_state(lambda s: s["actor"] in socks and s["result"] is None)
                mine = socks[st["actor"]].until_state(
                    lambda s, v=st["version"]: s["version"] == v and s["legal"]
                )
                socks[st["actor"]].send(
                    {
                        "type": "action",
                        "action": mine["legal"][-1]["action"],
                        "version": mine["version"],
                    }
                )
                zero.until_state(lambda s, v=st["version"]: s["version"] > v)
            before = zero.until_state(lambda s: s["actor"] in socks)
            two.until_state(lambda s: s["version"] == before["version"])
            log_before = list(zero.log)
        assert before["version"] >= 4
        helpers.wait_for(
            lambda: len(helpers.stored_actions(db_url, bots["id"])) >= 3, what="bot actions"
        )
        first.kill()
    finally:
        first.stop()
    assert len(helpers.stored_actions(db_url, tid)) == before["version"]
    bots_before = helpers.stored_actions(db_url, bots["id"])
    assert helpers.stored_table(db_url, bots["id"]).status == "playing", "finished too soon"

    with server(db_url, logs, "second") as second:
        summary = second.get(f"/api/tables/{tid}").json()
        assert summary["actions"] == before["version"]
        assert summary["status"] == "playing"
        with seat(second, tid, 0, seat_tokens[0]) as zero:
            assert zero.state is not None
            assert zero.state["version"] == before["version"]
            assert zero.state["view"] == before["view"]
            assert zero.state["actor"] == before["actor"]
            assert zero.state["legal"] == before["legal"]
            assert zero.log == log_before
        # The bots-only table comes back when a spectator opens it, and plays to its end.
        with connect(f"ws://127.0.0.1:{second.port}/ws/tables/{bots['id']}") as ws:
            ws.send(json.dumps({"type": "join"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        deadline = time.monotonic() + 20
        while second.get(f"/api/tables/{bots['id']}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bots-only table did not finish"
            time.sleep(0.05)
        record = parse_record(second.get(f"/api/tables/{bots['id']}/record").text)
    assert record.actions[: len(bots_before)] == bots_before
    game = get_game("hack-and-slash")
    result = game.result(replay(game, record))
    assert result is not None and result.to_json() == record.result

    # Tokens never reach a log: uvicorn's access and error logs of both processes.
    text = "".join((logs / n).read_text(errors="replace") for n in sorted(os.listdir(logs)))
    assert f"/ws/tables/{tid}" in text, "the logs were not captured"
    assert "POST /api/tables" in text
    for token in tokens:
        assert token not in text


# -- a stranger's half-sent and oversized requests ---------------------------------------


def half_sent(port: int, source: str) -> socket.socket | None:
    """A connection that starts a request and never finishes its headers (slowloris);
    None if the server would not even take it."""
    sock = socket.socket()
    sock.bind((source, 0))
    try:
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Wait: ")
    except OSError:
        sock.close()
        return None
    return sock


def test_half_sent_requests_block_nobody_and_are_dropped(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    url = f"sqlite:///{tmp_path / 'tavernkeep.db'}"
    with server(url, logs, "slow", "--header-timeout", "1") as srv:
        # A thousand half-sent requests from one address (127.0.0.2, loopback too).
        held = [half_sent(srv.port, "127.0.0.2") for _ in range(1000)]
        try:
            # Everybody else is served as usual, while they hang.
            assert srv.get("/api/games").status_code == 200
            # The server holds only a few of them; the rest it closed at once.
            open_ones = [s for s in held if s is not None and still_open(s)]
            assert len(open_ones) <= 32
            # And those it drops once their headers are overdue.
            time.sleep(1.5)
            assert not any(still_open(s) for s in open_ones)
            assert srv.get("/api/games").status_code == 200
        finally:
            for sock in held:
                if sock is not None:
                    sock.close()


def still_open(sock: socket.socket) -> bool:
    """Whether the server has kept the connection: no close and no answer yet."""
    sock.setblocking(False)
    try:
        data = sock.recv(4096)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)
    # An answer (a 408) or the end of the stream: the server let go of it.
    return not (data == b"" or data.startswith(b"HTTP/1.1 408"))


def test_a_huge_body_is_refused_before_it_is_read(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    url = f"sqlite:///{tmp_path / 'tavernkeep.db'}"
    with (
        server(url, logs, "huge") as srv,
        socket.create_connection(("127.0.0.1", srv.port)) as sock,
    ):
        size = 200 * 1024 * 1024
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
            + f"content-length: {size}\r\n\r\n".encode()
            + b'{"game": "'
        )
        # The answer comes with 200 MiB still unsent: the server never waited for them.
        sock.settimeout(10)
        reply = b""
        while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
            chunk = sock.recv(4096)
            if not chunk:
                break
            reply += chunk
        head, _, body = reply.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 413"), head
        message = json.loads(body)["error"]
        assert "at most" in message and "\n" not in message
        assert srv.get("/api/tables").json() == []


def search_workers(parent: int) -> set[int]:
    """The search pool's worker processes of `parent` (their command line says so)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = next(int(ln.split()[1]) for ln in status.splitlines() if ln.startswith("PPid:"))
        if ppid == parent and b"spawn_main" in cmdline:
            found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in state


def test_a_killed_server_leaves_no_search_worker_behind(tmp_path: Path) -> None:
    """kill -9 of a server whose searches were thinking: its workers end within seconds,
    rather than waiting for ever, each holding its memory, on a queue nobody will fill."""
    url = f"sqlite:///{tmp_path / 'workers.db'}"
    with server(url, tmp_path, "workers", "--search-workers", "1") as srv:
        made = srv.post(
            "/api/tables",
            {"game": "hack-and-slash", "seats": ["bot:mcts:50ms", "bot:random", "bot:random"]},
        )
        assert made.status_code == 201, made.text
        table = made.json()["id"]
        with connect(f"ws://127.0.0.1:{srv.port}/ws/tables/{table}", open_timeout=10) as ws:
            watcher = RealSock(ws)
            watcher.send({"type": "join"})  # someone at the table: its bots play
            watcher.until_state(lambda s: s["version"] >= 3)
        workers = search_workers(srv.proc.pid)
        assert workers, "the search bot thought in the pool"
        srv.kill()
    deadline = time.monotonic() + 10.0
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in workers if alive(pid)], "workers outlived their server"


# -- several server processes over one PostgreSQL database (peers.py) ----------------------


def decide(sock: RealSock, version: int) -> None:
    """Send the seat's choice at `version`: a different legal action from one decision to
    the next, so a game goes somewhere."""
    assert sock.state is not None
    legal = sock.state["legal"]
    sock.send(
        {"type": "action", "action": legal[version % len(legal)]["action"], "version": version}
    )


def expected_log(record: Any, seat: int) -> list[dict[str, Any]]:
    """Every event of the whole game that `seat` may see, in order, from its record."""
    from tavernkeep.engine.match import Match
    from tavernkeep.server.rooms import Tavern

    game = get_game(record.game)
    _, events = Match.from_record(game, record, Tavern.agents_for(game, record.seats))
    out = []
    for event in events:
        seen = event.for_seat(seat)
        if seen is not None:
            out.append(seen.to_json())
    return out


def test_three_processes_play_one_table_and_each_page_sees_every_event_once_in_order(
    postgres_url: str, tmp_path: Path, tk: Any
) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    with (
        server(postgres_url, logs, "a") as a,
        server(postgres_url, logs, "b") as b,
        server(postgres_url, logs, "c") as c,
    ):
        made = b.post(
            "/api/tables",
            {
                "game": "hack-and-slash",
                "seats": ["human", "human", "human"],
                "options": {"round_limit": 2},
                "seed": 5,
            },
        )
        assert made.status_code == 201, made.text
        tid, invites = made.json()["id"], tk.invites(made.json())
        procs = [a, b, c]
        # Each person claims and plays at a process of their own.
        tokens = {s: claim(procs[s], tid, s, invites[s]) for s in range(3)}
        with (
            seat(a, tid, 0, tokens[0]) as zero,
            seat(b, tid, 1, tokens[1]) as one,
            seat(c, tid, 2, tokens[2]) as two,
        ):
            socks = [zero, one, two]
            version = 0
            while True:
                states = [s.until_state(lambda st, v=version: st["version"] >= v) for s in socks]
                assert {st["version"] for st in states} == {version}
                if states[0]["result"] is not None:
                    break
                actor = states[0]["actor"]
                assert all(st["actor"] == actor for st in states)
                if socks[actor].state["legal"]:  # type: ignore[index]
                    decide(socks[actor], version)
                # (nothing to play: the table's keeper passes for the seat after a pause)
                version += 1
                assert version < 500, "the game did not end"
            # Every seat shows the other two at the table, though they play elsewhere: at
            # once, or as soon as their processes' presence has reached it (a game this
            # short may end first on a busy machine, as a CI run's did).
            for sock in socks:
                while not all(entry["connected"] for entry in sock.seats):
                    sock.recv()  # within 10 s, or the test fails
        record = parse_record(a.get(f"/api/tables/{tid}/record").text)
    assert len(record.actions) == version
    for s, sock in enumerate(socks):
        assert sock.log == expected_log(record, s), f"seat {s}'s page saw another story"
        assert sock.versions == sorted(set(sock.versions)), "events twice or out of order"


def answers(sock: RealSock) -> list[str]:
    """The errors a page was sent until the server answered its ping: the answer to an
    action it sent before the ping comes first, since a socket's messages are handled in
    order."""
    sock.send({"type": "ping"})
    errors = []
    while True:
        msg = json.loads(sock.ws.recv(timeout=10))
        if msg["type"] == "pong":
            return errors
        if msg["type"] == "error":
            errors.append(msg["message"])
        elif msg["type"] == "state":
            sock.state = msg


def test_two_processes_given_the_same_action_at_once_apply_it_once(
    postgres_url: str, tmp_path: Path, tk: Any, helpers: Any
) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    with server(postgres_url, logs, "a") as a, server(postgres_url, logs, "b") as b:
        made = a.post(
            "/api/tables",
            {
                "game": "hack-and-slash",
                "seats": ["human", "bot:random", "bot:random"],
                "options": {"round_limit": 3},
                "seed": 11,
            },
        )
        tid = made.json()["id"]
        token = claim(a, tid, 0, tk.invites(made.json())[0])
        # The same person with a page at each process: both send every choice at once.
        with seat(a, tid, 0, token) as here, seat(b, tid, 0, token) as there:
            rounds = 0
            while rounds < 8:
                st = here.until_state(lambda s: s["result"] is not None or bool(s["legal"]))
                if st["result"] is not None:
                    break
                there.until_state(lambda s, v=st["version"]: s["version"] >= v)
                action = {"type": "action", "action": st["legal"][0]["action"]}
                here.send({**action, "version": st["version"]})
                there.send({**action, "version": st["version"]})
                refused = answers(here) + answers(there)
                assert refused == ["the table has moved on since that choice; choose again"]
                rounds += 1
                here.until_state(lambda s, v=st["version"]: s["version"] > v)
            assert rounds >= 3
    stored = helpers.stored_table(postgres_url, tid)
    game = get_game("hack-and-slash")
    from tavernkeep.engine.match import Match
    from tavernkeep.server.rooms import Tavern

    # The record replays: no action was applied twice, none forked the table.
    match, _ = Match.from_record(game, stored.record, Tavern.agents_for(game, stored.record.seats))
    assert match.actions == len(stored.record.actions)


def test_killing_the_process_that_runs_a_tables_bots_moves_them_to_another(
    postgres_url: str, tmp_path: Path, tk: Any, helpers: Any
) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    slow = ("--bot-delay", "1.0")  # time to kill the keeper before its bots move
    a = Server(postgres_url, logs, "a", *slow)
    try:
        # Two processes: the one left holds the table in memory (its page is there) and
        # must take the dead one's lease itself.
        with server(postgres_url, logs, "b", *slow) as b:
            made = a.post(
                "/api/tables",
                {
                    "game": "hack-and-slash",
                    # A bot moves first: the process that opens the table takes its lease.
                    "seats": ["bot:random", "human", "bot:random"],
                    "options": {"round_limit": 3},
                    "seed": 23,
                },
            )
            tid = made.json()["id"]
            token = claim(b, tid, 1, tk.invites(made.json())[1])
            with seat(b, tid, 1, token) as page:
                st = page.until_state(lambda s: bool(s["legal"]))
                assert helpers.stored_table(postgres_url, tid).keeper == a.me
                # Act until the table waits on a bot, then kill the process that runs them.
                while True:
                    decide(page, st["version"])
                    st = page.until_state(lambda s, v=st["version"]: s["version"] > v)
                    if st["actor"] != 1 and st["result"] is None:
                        break
                    st = page.until_state(lambda s: s["result"] is not None or bool(s["legal"]))
                acknowledged = helpers.stored_actions(postgres_url, tid)
                assert len(acknowledged) == st["version"]
                a.kill()
                killed = time.monotonic()
                page.until_state(lambda s, v=st["version"]: s["version"] > v)
                failover = time.monotonic() - killed
                # The lease lapses 3 s after the last heartbeat, and the bot pauses 1 s.
                assert failover < 10.0, f"the bots moved on after {failover:.1f} s"
                assert helpers.stored_table(postgres_url, tid).keeper != a.me
                while page.state["result"] is None:  # type: ignore[index]
                    st = page.until_state(lambda s: s["result"] is not None or bool(s["legal"]))
                    if st["result"] is None:
                        decide(page, st["version"])
                        page.until_state(lambda s, v=st["version"]: s["version"] > v)
            record = parse_record(b.get(f"/api/tables/{tid}/record").text)
    finally:
        a.stop()
    assert record.actions[: len(acknowledged)] == acknowledged
    game = get_game("hack-and-slash")
    result = game.result(replay(game, record))
    assert result is not None and result.to_json() == record.result


def test_serve_workers_starts_processes_that_share_the_port(
    postgres_url: str, tmp_path: Path, helpers: Any
) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    with server(postgres_url, logs, "pair", "--workers", "2") as pair:
        # Both processes beat in the database: two servers alive.
        from sqlalchemy import create_engine, text
        from sqlalchemy.pool import NullPool

        from tavernkeep.server.storage import normalise_url

        engine = create_engine(normalise_url(postgres_url), poolclass=NullPool)
        try:

            def alive() -> int:
                with engine.connect() as conn:
                    return int(conn.execute(text("SELECT count(*) FROM servers")).scalar_one())

            helpers.wait_for(lambda: alive() == 2, what="two server processes")
            made = pair.post(
                "/api/tables",
                {"game": "hack-and-slash", "seats": ["bot:random"] * 3, "seed": 3},
            )
            assert made.status_code == 201, made.text
            tid = made.json()["id"]
            # Asked of either process, the table is the same one, and its bots play on.
            for _ in range(6):
                assert pair.get(f"/api/tables/{tid}").json()["id"] == tid
            helpers.wait_for(
                lambda: pair.get(f"/api/tables/{tid}").json()["status"] == "finished",
                timeout=60,
                what="the bots' game to end",
            )
            pair.stop()
            # Stopped, both processes leave the database's list of the living at once.
            assert alive() == 0
        finally:
            engine.dispose()


def test_frames_are_not_compressed(tmp_path: Path) -> None:
    # A browser offers permessage-deflate, and a compressed frame's size would tell an
    # eavesdropper, who can put words of their own into the same stream (a chat line, a
    # name), what else is in it: a seat's hand (CRIME). Compressing also cost a tenth of
    # the server's loop at 500 tables. The server declines it.
    logs = tmp_path / "logs"
    logs.mkdir()
    url = f"sqlite:///{tmp_path / 'tavernkeep.db'}"
    with server(url, logs, "plain") as srv:
        made = srv.post(
            "/api/tables",
            {"game": "hack-and-slash", "seats": ["human", "bot:random", "bot:random"]},
        )
        table_id = made.json()["id"]
        with connect(f"ws://127.0.0.1:{srv.port}/ws/tables/{table_id}", open_timeout=10) as ws:
            offered = ws.request.headers.get("Sec-WebSocket-Extensions", "")
            taken = ws.response.headers.get("Sec-WebSocket-Extensions", "")
    assert "permessage-deflate" in offered  # the client asked for it, as browsers do
    assert "permessage-deflate" not in taken
