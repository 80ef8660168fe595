"""One stranger's ten tables of search bots against everyone else's: the search workers
shared fairly (issue 38, item 3).

Starts `tavernkeep serve` on 127.0.0.1 with its default bounds (search workers: the cores
less one; a search at most 2,000 ms). From the address 127.0.0.1 a stranger opens
--stranger tables of Hack & Slash with three `bot:mcts:2000ms` seats each (the largest
budget the server allows, and within the tables an address may open a minute) and watches
them. From 127.0.0.2 another person then:

- plays a table against two `bot:mcts:300ms` bots, answering at once, and the time from
  the state that asks a bot to the state its move leads to is measured for each of
  --moves bot moves (goal: the budget plus 1 s at the 95th percentile);
- opens --leavers tables of one person and two heuristic bots with a grace of --grace
  seconds, leaves each when it is their decision, and the time from leaving to the
  stand-in's move is measured (goal: the grace plus 1 s).

With --seated the stranger sits at a seat of each of their tables and plays it at once, so
their bots' searches are ones a person waits on too. With --stranger 0 it measures the
same on a quiet server. The server runs with
--bot-delay 0, so a bot's pause is not counted in its answer.

    python benchmarks/search_fairness.py --stranger 10 --moves 60 --leavers 8
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import websockets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_load import free_port, percentile, probe, wait_for_server

STRANGER = "127.0.0.1"
PERSON = "127.0.0.2"
BUDGET_S = 0.3


@contextmanager
def serving() -> Iterator[str]:
    """`tavernkeep serve` with its default bounds, on a fresh SQLite database."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = subprocess.Popen(
            [
                sys.executable, "-m", "tavernkeep.cli", "serve",
                "--host", "127.0.0.1", "--port", str(port),
                "--database-url", f"sqlite:///{os.path.join(tmp, 'fair.db')}",
                "--bot-delay", "0",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.terminate()
            server.wait(timeout=15)


def client(address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.AsyncHTTPTransport(local_address=address), timeout=30
    )


@contextlib.asynccontextmanager
async def socket(base: str, table: str, address: str) -> AsyncIterator[Any]:
    url = f"{base.replace('http://', 'ws://')}/ws/tables/{table}"
    async with websockets.connect(url, local_addr=(address, 0), max_size=None) as ws:
        yield ws


async def create(http: httpx.AsyncClient, base: str, seats: list[str], **extra: Any) -> Any:
    """A new table, within the tables an address may open a minute: told to wait, it waits."""
    body = {"game": "hack-and-slash", "seats": seats, **extra}
    while True:
        made = await http.post(f"{base}/api/tables", json=body)
        if made.status_code != 429:
            made.raise_for_status()
            return made.json()
        await asyncio.sleep(1.0)


async def claim(http: httpx.AsyncClient, base: str, table: Any) -> str:
    invite = table["seats"][0]["invite"].split("invite=", 1)[1]
    claimed = await http.post(
        f"{base}/api/tables/{table['id']}/claim", json={"seat": 0, "invite": invite}
    )
    claimed.raise_for_status()
    return str(claimed.json()["token"])


async def stranger_tables(
    base: str, count: int, seated: bool, stop: asyncio.Event, moves: list[int]
) -> None:
    """The stranger's tables of search bots, each watched (or, `seated`, with a seat of
    the stranger's own, played at once), one opened again when one ends."""
    async with client(STRANGER) as http:

        async def watch_one() -> None:
            while not stop.is_set():
                seats = ["bot:mcts:2000ms"] * 3
                if seated:
                    seats[0] = "human"
                table = await create(http, base, seats)
                hello: dict[str, Any] = {"type": "join"}
                if seated:
                    hello.update(seat=0, token=await claim(http, base, table))
                async with socket(base, table["id"], STRANGER) as ws:
                    await ws.send(json.dumps(hello))
                    while not stop.is_set():
                        try:
                            message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                        except TimeoutError:
                            continue
                        if message["type"] == "events":
                            moves[0] += 1
                        if message["type"] != "state":
                            continue
                        if message["result"] is not None:
                            break
                        if message["legal"]:
                            choice = message["legal"][0]["action"]
                            version = message["version"]
                            await ws.send(
                                json.dumps({"type": "action", "action": choice, "version": version})
                            )

        await asyncio.gather(*(watch_one() for _ in range(count)))


async def bot_answers(base: str, moves: int) -> list[float]:
    """Seconds from the state that asks a `bot:mcts:300ms` bot to the state its move led to."""
    waits: list[float] = []
    async with client(PERSON) as http:
        while len(waits) < moves:
            table = await create(http, base, ["human", "bot:mcts:300ms", "bot:mcts:300ms"])
            token = await claim(http, base, table)
            async with socket(base, table["id"], PERSON) as ws:
                await ws.send(json.dumps({"type": "join", "seat": 0, "token": token}))
                asked: tuple[int, float] | None = None
                while len(waits) < moves:
                    message = json.loads(await ws.recv())
                    if message["type"] != "state":
                        continue
                    now = time.perf_counter()
                    version = message["version"]
                    if asked is not None and version > asked[0]:
                        waits.append(now - asked[1])
                        asked = None
                    if message["result"] is not None:
                        break
                    if message["legal"]:
                        choice = message["legal"][0]["action"]
                        await ws.send(
                            json.dumps({"type": "action", "action": choice, "version": version})
                        )
                    elif message["actor"] not in (None, 0):
                        asked = (version, now)
    return waits


async def stand_ins(base: str, trials: int, grace: float) -> list[float]:
    """Seconds from a person's leaving to the stand-in's move at their table."""
    stalls: list[float] = []
    async with client(PERSON) as http:
        for _ in range(trials):
            table = await create(
                http, base, ["human", "bot:heuristic", "bot:heuristic"],
                settings={"grace_seconds": grace},
            )  # fmt: skip
            token = await claim(http, base, table)
            async with socket(base, table["id"], PERSON) as watcher:
                await watcher.send(json.dumps({"type": "join"}))
                async with socket(base, table["id"], PERSON) as person:
                    await person.send(json.dumps({"type": "join", "seat": 0, "token": token}))
                    while True:
                        message = json.loads(await person.recv())
                        if message["type"] == "state" and message["legal"]:
                            version = message["version"]
                            break
                left = time.perf_counter()
                while True:
                    message = json.loads(await watcher.recv())
                    if message["type"] == "state" and message["version"] > version:
                        stalls.append(time.perf_counter() - left)
                        if os.environ.get("FAIR_DEBUG"):
                            print("stall", round(stalls[-1], 2), table["id"], flush=True)
                        break
    return stalls


async def run(args: argparse.Namespace, base: str) -> dict[str, Any]:
    await wait_for_server(base)
    stop = asyncio.Event()
    stranger_moves = [0]
    load = asyncio.create_task(
        stranger_tables(base, args.stranger, args.seated, stop, stranger_moves)
    )
    await asyncio.sleep(args.warmup if args.stranger else 0.0)
    started = time.monotonic()
    answers = await bot_answers(base, args.moves)
    stalls = await stand_ins(base, args.leavers, args.grace)
    elapsed = time.monotonic() - started
    stop.set()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(load, 5)
    if not load.done():
        load.cancel()
    return {
        "answers": answers,
        "stalls": stalls,
        "stranger moves a minute": stranger_moves[0] * 60.0 / max(elapsed, 1e-9),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stranger", type=int, default=10, help="the stranger's tables")
    parser.add_argument(
        "--seated",
        action="store_true",
        help="the stranger sits at each of their tables (a person waits on their bots too)",
    )
    parser.add_argument("--moves", type=int, default=60, help="bot moves timed")
    parser.add_argument("--leavers", type=int, default=8, help="stand-ins timed")
    parser.add_argument("--grace", type=float, default=2.0)
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of load first")
    args = parser.parse_args()

    import tavernkeep

    print(
        f"search fairness: {args.stranger} stranger tables of "
        f"{'the stranger + 2' if args.seated else '3'} x bot:mcts:2000ms, "
        f"{tavernkeep.build()} build, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores (search workers: the cores less one), "
        f"load {os.getloadavg()[0]:.1f}, host probe {probe():,.0f} hand-written games/s"
    )
    with serving() as base:
        found = asyncio.run(run(args, base))
    answers, stalls = found["answers"], found["stalls"]
    print("| measured | n | p50 s | p95 s | max s | goal |")
    print("|---|---|---|---|---|---|")
    print(
        f"| another person's bot:mcts:300ms, ask to move | {len(answers)} | "
        f"{percentile(answers, 0.5):.2f} | {percentile(answers, 0.95):.2f} | "
        f"{max(answers):.2f} | p95 < {BUDGET_S + 1:.1f} s |"
    )
    print(
        f"| a stand-in, leaving to its move (grace {args.grace:g} s) | {len(stalls)} | "
        f"{percentile(stalls, 0.5):.2f} | {percentile(stalls, 0.95):.2f} | {max(stalls):.2f} | "
        f"< {args.grace + 1:g} s |"
    )
    print(f"the stranger's tables moved {found['stranger moves a minute']:.0f} times a minute")


if __name__ == "__main__":
    main()
