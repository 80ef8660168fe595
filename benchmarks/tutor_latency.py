"""How long a person waits for the tutor: from asking for advice to its answer.

Starts `tavernkeep serve` on 127.0.0.1 (a fresh SQLite database), opens tables of one
person and two bots of --game, and at each of the person's decisions asks for advice
(`{"type": "advice"}`) and times the answer, then plays the first choice. The first ask
of a server is shown apart: it once waited for a search worker to start, which `serve`
now starts with the server. Goal (issue 25): within 1 s at the default budget.

    python benchmarks/tutor_latency.py --game hack-and-slash --decisions 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

import httpx
import websockets

from server_load import percentile, serving, wait_for_server

SEATS = {
    "hack-and-slash": ["human", "bot:heuristic", "bot:random"],
    "here-to-slay": ["human", "bot:heuristic", "bot:random"],
    "crits-and-tricks": ["human", "bot:heuristic", "bot:random"],
    "side-quest": ["human", "bot:heuristic"],
    "rage": ["human"],
}


async def one_table(base: str, game: str, want: int, times: list[float]) -> None:
    async with httpx.AsyncClient(timeout=30) as http:
        made = await http.post(f"{base}/api/tables", json={"game": game, "seats": SEATS[game]})
        made.raise_for_status()
        table = made.json()
        invite = table["seats"][0]["invite"].split("invite=", 1)[1]
        claimed = await http.post(
            f"{base}/api/tables/{table['id']}/claim", json={"seat": 0, "invite": invite}
        )
        claimed.raise_for_status()
    url = f"{base.replace('http://', 'ws://')}/ws/tables/{table['id']}"
    async with websockets.connect(url) as ws:
        join = {"type": "join", "seat": 0, "token": claimed.json()["token"]}
        await ws.send(json.dumps(join))
        while len(times) < want:
            message = json.loads(await ws.recv())
            if message["type"] != "state":
                continue
            if message["result"] is not None:
                return
            if not message["legal"]:
                continue
            asked = time.perf_counter()
            await ws.send(json.dumps({"type": "advice"}))
            while True:
                answer = json.loads(await ws.recv())
                if answer["type"] == "advice":
                    times.append(time.perf_counter() - asked)
                    break
                if answer["type"] == "error":
                    raise SystemExit(f"refused: {answer['message']}")
            action = message["legal"][0]["action"]
            await ws.send(
                json.dumps({"type": "action", "action": action, "version": message["version"]})
            )


async def drive(base: str, game: str, want: int) -> list[float]:
    await wait_for_server(base)
    times: list[float] = []
    while len(times) < want:
        await one_table(base, game, want, times)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hack-and-slash", choices=sorted(SEATS))
    parser.add_argument("--decisions", type=int, default=20)
    args = parser.parse_args()
    if args.decisions < 2:
        parser.error("--decisions must be at least 2 (the first is timed apart)")
    with serving(None, 0.1) as base:
        times = asyncio.run(drive(base, args.game, args.decisions))
    first, rest = times[0], times[1:]
    print(f"tutor: {args.game}, {len(times)} decisions, the default budget (600 ms)")
    print(f"| {'measure':<34} | {'value':>12} |")
    print(f"|{'-' * 36}|{'-' * 14}|")
    rows = [
        ("first ask of the server, s", f"{first:.2f}"),
        ("then p50, s", f"{statistics.median(rest):.2f}"),
        ("then p99, s", f"{percentile(rest, 0.99):.2f}"),
        ("then max, s", f"{max(rest):.2f}"),
    ]
    for name, value in rows:
        print(f"| {name:<34} | {value:>12} |")


if __name__ == "__main__":
    main()
