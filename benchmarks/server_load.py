"""Load on the web server: N concurrent tables, each one person and bots, for a while.

Starts `tavernkeep serve` on 127.0.0.1 in its own process (a fresh SQLite database in a
temporary folder unless --database-url is given), creates N Hack & Slash tables of one
websocket client and bots, and keeps N tables going for --seconds: a client that sees its
table end opens a new one. Each client answers its decisions after --think seconds and
measures the time from sending an action to receiving the view it led to. Prints actions
per second (people's and bots') and p50/p99/max latency, and counts every error.

With `--processes N` (PostgreSQL only) it starts N server processes on one database, each
on its own port: each table is opened at one process and its person's websocket goes to
the next one round, as a load balancer without sticky sessions would send them. With
`--failover` it then measures what a kill -9 costs: tables of bots opened at the first
process (which so runs their bots), watched from the second; the first is killed, and
the time until every table's next action is the failover time; every action committed
before the kill must still be in each finished table's record.

With `--comparison GAMES` a designer's comparison (the workbench's "What does my change
do?", issue 45) of GAMES paired Here to Slay games runs on the same server, started just
before the load: the tables' latency beside it, and how far it got.

    python benchmarks/server_load.py --tables 200 --seconds 30
    python benchmarks/server_load.py --tables 200 --seconds 30 --comparison 10000
    python benchmarks/server_load.py --processes 2 --database-url postgresql://... --failover
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    client_actions: int = 0
    server_actions: int = 0
    games_finished: int = 0
    errors: list[str] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_for_server(base: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient() as http:
        while time.monotonic() < deadline:
            try:
                if (await http.get(f"{base}/api/games")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
    raise SystemExit("server did not start")


async def one_table(
    http: httpx.AsyncClient,
    base: str,
    ws_base: str,
    think: float,
    stats: Stats,
    settings: dict[str, Any],
) -> None:
    """Create a table, play its human seat to the end."""
    response = await http.post(
        f"{base}/api/tables",
        json={
            "game": "hack-and-slash",
            "seats": ["human", "bot:heuristic", "bot:random"],
            "settings": settings,
        },
    )
    if response.status_code != 201:
        stats.errors.append(f"create: {response.status_code} {response.text[:100]}")
        return
    table = response.json()
    fragment = table["seats"][0]["invite"].split("#", 1)[1]
    params = dict(part.split("=", 1) for part in fragment.split("&"))
    # Opening the invite claims the seat: the credential it hands back is the seat's.
    claimed = await http.post(
        f"{base}/api/tables/{table['id']}/claim", json={"seat": 0, "invite": params["invite"]}
    )
    if claimed.status_code != 200:
        stats.errors.append(f"claim: {claimed.status_code} {claimed.text[:100]}")
        return
    token = claimed.json()["token"]
    async with websockets.connect(f"{ws_base}/ws/tables/{table['id']}") as ws:
        await ws.send(json.dumps({"type": "join", "seat": 0, "token": token}))
        sent_at: float | None = None
        sent_version = -1
        last_version = 0
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "error":
                stats.errors.append(message["message"])
                continue
            if message["type"] != "state":
                continue
            version = message["version"]
            if version > last_version:
                stats.server_actions += version - last_version
                last_version = version
            if sent_at is not None and version > sent_version:
                stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if message["result"] is not None:
                stats.games_finished += 1
                return
            if message["legal"] and sent_at is None:
                await asyncio.sleep(think)
                choice = message["legal"][0]["action"]
                sent_version = version
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": choice, "version": version}))
                stats.client_actions += 1


async def client_loop(
    http: httpx.AsyncClient,
    base: str | list[str],
    ws_base: str | None,
    think: float,
    stats: Stats,
    until: float,
    settings: dict[str, Any],
    first: int = 0,
) -> None:
    """Open tables one after another until `until`. Given several bases (one a server
    process), table k is opened at process `first + k` and played at the next one."""
    bases = [base] if isinstance(base, str) else base
    k = first
    while time.monotonic() < until:
        opened_at = bases[k % len(bases)]
        played_at = bases[(k + 1) % len(bases)].replace("http://", "ws://")
        k += 1
        try:
            await asyncio.wait_for(
                one_table(http, opened_at, ws_base or played_at, think, stats, settings),
                timeout=until - time.monotonic(),
            )
        except TimeoutError:
            return
        except Exception as exc:  # a failure is a result to report, not a crash
            stats.errors.append(f"{type(exc).__name__}: {exc}")
            await asyncio.sleep(0.5)


async def drive(args: argparse.Namespace, bases: list[str]) -> Stats:
    for base in bases:
        await wait_for_server(base)
    stats = Stats()
    settings: dict[str, Any] = {}
    if args.clock is not None:
        settings["clock"] = {"kind": "real_time", "seconds": args.clock, "increment": 20.0}
    # One address, as all the load comes from here: the server lets an address hold 32
    # HTTP connections, and a pool of 16 queues the rest as a browser would.
    limits = httpx.Limits(max_connections=16, max_keepalive_connections=16)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        until = time.monotonic() + args.seconds
        # Open the tables over the first second, as people would arrive, not all at once.
        tasks = []
        for i in range(args.tables):
            tasks.append(
                asyncio.create_task(
                    client_loop(http, bases, None, args.think, stats, until, settings, i)
                )
            )
            await asyncio.sleep(1.0 / args.tables)
        await asyncio.gather(*tasks)
    return stats


@contextmanager
def serving(
    database_url: str | None, bot_delay: float | None, extra: Sequence[str] = ()
) -> Iterator[str]:
    """`tavernkeep serve` on 127.0.0.1 for the length of a benchmark (a fresh SQLite
    database in a temporary folder unless `database_url`): its base URL. The other
    benchmarks of the server start theirs here too. `bot_delay` None keeps serve's own;
    `extra` are more of serve's options."""
    with serving_many(database_url, bot_delay, 1, extra) as (_, servers):
        yield servers[0][0]


@contextmanager
def serving_many(
    database_url: str | None,
    bot_delay: float | None,
    processes: int,
    extra: Sequence[str] = (),
) -> Iterator[tuple[str, list[tuple[str, subprocess.Popen[bytes]]]]]:
    """`processes` server processes on one database, each on a port of its own: each
    one's base URL and process (a benchmark may kill one), with the database URL they
    use: on PostgreSQL a fresh schema, dropped afterwards, so every run starts empty."""
    with tempfile.TemporaryDirectory() as tmp, fresh_schema(database_url) as url:
        url = url or f"sqlite:///{os.path.join(tmp, 'bench.db')}"
        servers = []
        for _ in range(processes):
            port = free_port()
            server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tavernkeep.cli",
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--database-url",
                    url,
                    *(["--bot-delay", str(bot_delay)] if bot_delay is not None else []),
                    # Every table and socket comes from this one address: lift the
                    # per-address bounds a stranger is held to, so they measure the
                    # server, not the guard.
                    "--tables-per-minute",
                    "1000000",
                    "--sockets-per-client",
                    "100000",
                    # Searches stay out of it: one worker a process, as on a small host.
                    "--search-workers",
                    "1",
                    *extra,
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            servers.append((f"http://127.0.0.1:{port}", server))
        try:
            yield url, servers
        finally:
            for _, server in servers:
                if server.poll() is None:
                    server.terminate()
            for _, server in servers:
                server.wait(timeout=15)


@contextmanager
def fresh_schema(database_url: str | None) -> Iterator[str | None]:
    """The URL with a new, empty schema of its own (PostgreSQL), dropped at the end."""
    if not (database_url or "").startswith("postgres"):
        yield database_url
        return
    import uuid

    from sqlalchemy import create_engine, text

    from tavernkeep.server.storage import normalise_url

    assert database_url is not None
    schema = f"tk_bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(normalise_url(database_url))
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    sep = "&" if "?" in database_url else "?"
    try:
        yield f"{database_url}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


async def watch_table(base: str, table_id: str, seen: dict[str, int], done: asyncio.Event) -> None:
    """Follow a table as a spectator at `base`: its latest version in `seen`, until over."""
    ws_base = base.replace("http://", "ws://")
    async with websockets.connect(f"{ws_base}/ws/tables/{table_id}") as ws:
        await ws.send(json.dumps({"type": "join"}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "state":
                seen[table_id] = message["version"]
                if message["result"] is not None or message["status"] != "playing":
                    done.set()
                    return


async def failover(
    servers: list[tuple[str, subprocess.Popen[bytes]]], database_url: str, tables: int
) -> dict[str, Any]:
    """Kill -9 the process running `tables` tables' bots, and time their takeover."""
    from tavernkeep.server.storage import Storage

    first, second = servers[0][0], servers[1][0]
    ids = []
    async with httpx.AsyncClient(timeout=30) as http:
        for k in range(tables):
            made = await http.post(
                f"{first}/api/tables",
                json={
                    "game": "hack-and-slash",
                    "seats": ["bot:random", "bot:heuristic", "bot:random"],
                    "options": {"round_limit": 8},
                    "seed": 1000 + k,
                },
            )
            made.raise_for_status()
            ids.append(made.json()["id"])
    seen: dict[str, int] = {}
    ended = {table_id: asyncio.Event() for table_id in ids}
    watchers = [
        asyncio.create_task(watch_table(second, table_id, seen, ended[table_id]))
        for table_id in ids
    ]
    await asyncio.sleep(2.0)  # the bots of every table are playing, at the first process
    storage = Storage(database_url)
    try:
        servers[0][1].send_signal(signal.SIGKILL)
        killed = time.monotonic()
        servers[0][1].wait(timeout=10)
        # Every action committed before the kill (what anyone was told of was committed).
        before = {t: list((storage.load(t) or _missing(t)).record.actions) for t in ids}
        at_kill = {t: len(actions) for t, actions in before.items()}
        moved: dict[str, float] = {}
        while len(moved) < len(ids) and time.monotonic() - killed < 60:
            for t in ids:
                if t not in moved and (seen.get(t, 0) > at_kill[t] or ended[t].is_set()):
                    moved[t] = time.monotonic() - killed
            await asyncio.sleep(0.01)
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ended.values())), 120)
        lost = 0
        for t in ids:
            after = (storage.load(t) or _missing(t)).record.actions
            if after[: len(before[t])] != before[t]:
                lost += 1
    finally:
        for task in watchers:
            task.cancel()
        storage.close()
    times = sorted(moved.values())
    return {
        "tables": len(ids),
        "taken over": len(times),
        "failover p50 s": statistics.median(times) if times else float("nan"),
        "failover max s": times[-1] if times else float("nan"),
        "tables that lost an action": lost,
    }


def start_comparison(base: str, games: int) -> str:
    """A workbench comparison (this machine's, so no designer key): Here to Slay's standard
    pack against it with the Grimtooth Ogre's slay roll at 12, the lab's planted case."""
    headers = {"Origin": base}
    with httpx.Client(base_url=base, headers=headers, timeout=60) as client:
        pack = client.get("/api/workbench/games/here-to-slay/packs/standard").json()
        data = json.loads(json.dumps(pack["base_data"]))
        ogre = next(m for m in data["monster"] if m["name"] == "Grimtooth Ogre")
        ogre["slay_roll"] = 12
        data["pack"]["strict_composition"] = False  # off the published roll numbers
        started = client.post(
            "/api/workbench/runs",
            json={
                "game": "here-to-slay",
                "data": data,
                "seats": ["bot:heuristic"] * 3 + ["bot:random"],
                "games": games,
            },
        )
        started.raise_for_status()
        return str(started.json()["id"])


def comparison_state(base: str, run: str) -> dict[str, Any]:
    with httpx.Client(base_url=base, timeout=60) as client:
        found: dict[str, Any] = client.get(f"/api/workbench/runs/{run}").json()
        return found


def _missing(table_id: str) -> Any:
    raise SystemExit(f"table {table_id} is not in the database")


def probe() -> float:
    """The host's speed: hand-written Hack & Slash games a second on one core."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bot_games import probe as games_probe

    return games_probe()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=0.5, help="a person's pause per decision")
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--database-url", default=None)
    parser.add_argument(
        "--clock",
        type=float,
        default=None,
        metavar="SECONDS",
        help="give every person's seat a real-time clock of this many seconds, 20 s a move",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes on one database (PostgreSQL)"
    )
    parser.add_argument(
        "--failover",
        type=int,
        nargs="?",
        const=20,
        default=0,
        metavar="TABLES",
        help="then kill -9 the first process and time the takeover of TABLES bots' tables",
    )
    parser.add_argument(
        "--comparison",
        type=int,
        default=0,
        metavar="GAMES",
        help="run a workbench comparison of GAMES paired Here to Slay games beside the load",
    )
    args = parser.parse_args()
    postgres = (args.database_url or "").startswith("postgres")
    if args.processes < 1 or (args.processes > 1 and not postgres):
        parser.error("--processes above 1 needs --database-url postgresql://...")
    if args.failover and args.processes < 2:
        parser.error("--failover needs --processes 2 or more")

    import tavernkeep

    header = (
        f"server load: {args.tables} concurrent tables (1 person + 2 bots each), "
        f"{args.seconds:.0f} s, think {args.think} s, bot delay {args.bot_delay} s, "
        f"{'SQLite' if args.database_url is None else 'PostgreSQL'}, "
        f"{args.processes} server process{'es' if args.processes > 1 else ''}, "
        f"{'no clocks' if args.clock is None else f'clocks {args.clock:g} s + 20 s'}; "
        f"{tavernkeep.build()} build, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, "
        f"host probe {probe():,.0f} hand-written games/s"
    )
    taken_over: dict[str, Any] = {}
    with serving_many(args.database_url, args.bot_delay, args.processes) as (url, servers):
        run = None
        if args.comparison:
            asyncio.run(wait_for_server(servers[0][0]))
            run = start_comparison(servers[0][0], args.comparison)
        started = time.monotonic()
        stats = asyncio.run(drive(args, [base for base, _ in servers]))
        elapsed = time.monotonic() - started
        beside = comparison_state(servers[0][0], run) if run is not None else None
        if args.failover:
            taken_over = asyncio.run(failover(servers, url, args.failover))

    lat = [x * 1000 for x in stats.latencies]
    print(header)
    print(f"| {'measure':<34} | {'value':>12} |")
    print(f"|{'-' * 36}|{'-' * 14}|")
    rows = [
        ("actions/s (people and bots)", f"{stats.server_actions / elapsed:,.0f}"),
        ("people's actions/s", f"{stats.client_actions / elapsed:,.0f}"),
        ("games finished", f"{stats.games_finished:,}"),
        ("latency p50 (action -> view), ms", f"{statistics.median(lat):.1f}" if lat else "-"),
        ("latency p99, ms", f"{percentile(lat, 0.99):.1f}" if lat else "-"),
        ("latency max, ms", f"{max(lat):.1f}" if lat else "-"),
        ("errors", f"{len(stats.errors)}"),
    ]
    for name, value in rows:
        print(f"| {name:<34} | {value:>12} |")
    for message in stats.errors[:5]:
        print("  error:", message)
    if beside is not None:
        print(
            f"beside a workbench comparison of {args.comparison:,} paired Here to Slay games: "
            f"{beside['state']} at the load's end, {beside['done']:,} of {beside['total']:,} "
            "games played"
        )
    if taken_over:
        print(f"failover: kill -9 of the process running {taken_over['tables']} tables' bots")
        print(f"| {'measure':<34} | {'value':>12} |")
        print(f"|{'-' * 36}|{'-' * 14}|")
        for name, value in taken_over.items():
            shown = f"{value:.2f}" if isinstance(value, float) else f"{value}"
            print(f"| {name:<34} | {shown:>12} |")


if __name__ == "__main__":
    main()
