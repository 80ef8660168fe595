"""How long a leaver stalls a table: the goal is no longer than the table's grace.

Starts `tavernkeep serve` on 127.0.0.1 (a fresh SQLite database unless --database-url),
then, --trials times: opens a Hack & Slash table of one person and two bots with
`grace_seconds` --grace, takes the person's seat, and when the decision is theirs closes
their socket, as a person closing the tab. A spectator at the table measures the time
from the close to the next action (the stand-in bot's). Meanwhile --load tables of
`server_load.py` keep the server busy. Prints the stall and what it took beyond the
grace (the stand-in's decision and the bots' pause, `--bot-delay`).

    python benchmarks/leaver_stall.py --trials 20 --grace 2 --load 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

import httpx
import websockets

from server_load import Stats, client_loop, percentile, serving, wait_for_server


async def one_leaver(http: httpx.AsyncClient, base: str, grace: float) -> float:
    """Seconds from the person's leaving to the stand-in's action at their table."""
    made = await http.post(
        f"{base}/api/tables",
        json={
            "game": "hack-and-slash",
            "seats": ["human", "bot:heuristic", "bot:random"],
            "settings": {"grace_seconds": grace},
        },
    )
    made.raise_for_status()
    table = made.json()
    invite = table["seats"][0]["invite"].split("invite=", 1)[1]
    claimed = await http.post(
        f"{base}/api/tables/{table['id']}/claim", json={"seat": 0, "invite": invite}
    )
    claimed.raise_for_status()
    url = f"{base.replace('http://', 'ws://')}/ws/tables/{table['id']}"
    async with websockets.connect(url) as watcher:
        await watcher.send(json.dumps({"type": "join"}))
        async with websockets.connect(url) as person:
            token = claimed.json()["token"]
            await person.send(json.dumps({"type": "join", "seat": 0, "token": token}))
            while True:
                message = json.loads(await person.recv())
                if message["type"] == "state" and message["legal"]:
                    version = message["version"]
                    break
        left = time.perf_counter()  # the socket is closed: the person has gone
        while True:
            message = json.loads(await watcher.recv())
            if message["type"] == "state" and message["version"] > version:
                return time.perf_counter() - left


async def drive(args: argparse.Namespace, base: str) -> tuple[list[float], Stats]:
    await wait_for_server(base)
    stats = Stats()
    limits = httpx.Limits(max_connections=16, max_keepalive_connections=16)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        ws_base = base.replace("http://", "ws://")
        until = time.monotonic() + 10_000
        load = [
            asyncio.create_task(client_loop(http, base, ws_base, 0.5, stats, until, {}))
            for _ in range(args.load)
        ]
        await asyncio.sleep(3.0 if args.load else 0.0)  # the load under way first
        stalls = []
        for _ in range(args.trials):
            stalls.append(await one_leaver(http, base, args.grace))
        for task in load:
            task.cancel()
        await asyncio.gather(*load, return_exceptions=True)
    return stalls, stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--grace", type=float, default=2.0)
    parser.add_argument("--load", type=int, default=0, help="tables of server_load.py meanwhile")
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    if args.trials < 1 or args.grace < 1 or args.load < 0:
        parser.error("--trials must be at least 1, --grace at least 1 s, --load not negative")

    with serving(args.database_url, args.bot_delay) as base:
        stalls, stats = asyncio.run(drive(args, base))

    beyond = [s - args.grace for s in stalls]
    print(f"leavers: {args.trials} tables (1 person + 2 bots), grace {args.grace:g} s, "
          f"bot delay {args.bot_delay} s, stand-in bot:mcts:300ms, "
          f"{args.load} tables of load meanwhile ({len(stats.errors)} errors)")
    print(f"| {'measure':<34} | {'value':>12} |")
    print(f"|{'-' * 36}|{'-' * 14}|")
    rows = [
        ("stall p50 (left -> next action), s", f"{statistics.median(stalls):.2f}"),
        ("stall p99, s", f"{percentile(stalls, 0.99):.2f}"),
        ("stall max, s", f"{max(stalls):.2f}"),
        ("beyond the grace, max, s", f"{max(beyond):.2f}"),
    ]
    for name, value in rows:
        print(f"| {name:<34} | {value:>12} |")


if __name__ == "__main__":
    main()
