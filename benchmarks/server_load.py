"""Load on the web server: N concurrent tables, each one person and bots, for a while.

Starts `tavernkeep serve` on 127.0.0.1 in its own process (a fresh SQLite database in a
temporary folder unless --database-url is given), creates N Hack & Slash tables of one
websocket client and bots, and keeps N tables going for --seconds: a client that sees its
table end opens a new one. Each client answers its decisions after --think seconds and
measures the time from sending an action to receiving the view it led to. Prints actions
per second (people's and bots') and p50/p99/max latency, and counts every error.

    python benchmarks/server_load.py --tables 200 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
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


async def wait_for_server(base: str, timeout: float = 20.0) -> None:
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
                await ws.send(
                    json.dumps({"type": "action", "action": choice, "version": version})
                )
                stats.client_actions += 1


async def client_loop(
    http: httpx.AsyncClient,
    base: str,
    ws_base: str,
    think: float,
    stats: Stats,
    until: float,
    settings: dict[str, Any],
) -> None:
    while time.monotonic() < until:
        try:
            await asyncio.wait_for(
                one_table(http, base, ws_base, think, stats, settings),
                timeout=until - time.monotonic(),
            )
        except TimeoutError:
            return
        except Exception as exc:  # a failure is a result to report, not a crash
            stats.errors.append(f"{type(exc).__name__}: {exc}")
            await asyncio.sleep(0.5)


async def drive(args: argparse.Namespace, base: str) -> Stats:
    ws_base = base.replace("http://", "ws://")
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
        for _ in range(args.tables):
            tasks.append(
                asyncio.create_task(
                    client_loop(http, base, ws_base, args.think, stats, until, settings)
                )
            )
            await asyncio.sleep(1.0 / args.tables)
        await asyncio.gather(*tasks)
    return stats


@contextmanager
def serving(database_url: str | None, bot_delay: float) -> Iterator[str]:
    """`tavernkeep serve` on 127.0.0.1 for the length of a benchmark (a fresh SQLite
    database in a temporary folder unless `database_url`): its base URL. The other
    benchmarks of the server start theirs here too."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        url = database_url or f"sqlite:///{os.path.join(tmp, 'bench.db')}"
        server = subprocess.Popen(
            [
                sys.executable, "-m", "tavernkeep.cli", "serve", "--host", "127.0.0.1",
                "--port", str(port), "--database-url", url, "--bot-delay", str(bot_delay),
                # Every table and socket comes from this one address: lift the per-address
                # bounds a stranger is held to, so they measure the server, not the guard.
                "--tables-per-minute", "1000000", "--sockets-per-client", "100000",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.terminate()
            server.wait(timeout=10)


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
    args = parser.parse_args()

    with serving(args.database_url, args.bot_delay) as base:
        started = time.monotonic()
        stats = asyncio.run(drive(args, base))
        elapsed = time.monotonic() - started

    lat = [x * 1000 for x in stats.latencies]
    print(f"server load: {args.tables} concurrent tables (1 person + 2 bots each), "
          f"{args.seconds:.0f} s, think {args.think} s, bot delay {args.bot_delay} s, "
          f"{'SQLite' if args.database_url is None else args.database_url.split(':')[0]}, "
          f"{'no clocks' if args.clock is None else f'clocks {args.clock:g} s + 20 s'}")
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


if __name__ == "__main__":
    main()
