"""A real `tavernkeep serve` process, killed with SIGKILL mid-game and started again.

The server runs as a subprocess bound to 127.0.0.1 and is played over a real websocket
(the `websockets` client). Its stdout and stderr (uvicorn's access and error logs) are
kept, to check that no seat token is ever logged.
"""

from __future__ import annotations

import json
import os
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
        self.log: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def recv(self) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=10))
        if msg["type"] == "state":
            self.state = msg
        elif msg["type"] == "events":
            self.log.extend(msg["events"])
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
