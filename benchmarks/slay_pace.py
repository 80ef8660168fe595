"""Here to Slay's pace for a person at a table with bots (issue 39, item 3): how long a
person waits between answering one decision and being asked the next.

Starts `tavernkeep serve` on 127.0.0.1 with its defaults (a bot's pause --bot-delay, the
pass prior --pass-delay) and plays --games tables of three seats: one person and two
heuristic bots. The person answers each decision after --think seconds, choosing at
random among what is offered but passing, where they may pass, with --pass-share of
their chances (so the table learns how long their own passes take). The games are dealt from --seed,
--seed + 1, ..., and the person's choices drawn from --seed, so two builds play alike but
for the bots' and the passes' timing. Prints the waits' median, quartiles and 90th
percentile, and what the person was asked.

    python benchmarks/slay_pace.py --games 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter

import httpx
import websockets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_load import percentile, probe, serving, wait_for_server


async def one_game(
    base: str,
    seed: int,
    think: float,
    pass_share: float,
    choose: random.Random,
    asked: Counter[str],
) -> list[float]:
    """The waits of one game dealt from `seed`, in seconds."""
    async with httpx.AsyncClient(timeout=30) as http:
        made = await http.post(
            f"{base}/api/tables",
            json={
                "game": "here-to-slay",
                "seats": ["human", "bot:heuristic", "bot:heuristic"],
                "seed": seed,
            },
        )
        made.raise_for_status()
        table = made.json()
        invite = table["seats"][0]["invite"].split("invite=", 1)[1]
        claimed = await http.post(
            f"{base}/api/tables/{table['id']}/claim", json={"seat": 0, "invite": invite}
        )
        claimed.raise_for_status()
        token = claimed.json()["token"]
    waits: list[float] = []
    url = f"{base.replace('http://', 'ws://')}/ws/tables/{table['id']}"
    async with websockets.connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "join", "seat": 0, "token": token}))
        answered: float | None = None
        while True:
            message = json.loads(await ws.recv())
            if message["type"] != "state":
                continue
            if message["result"] is not None:
                return waits
            legal = message["legal"]
            if not legal:
                continue
            now = time.perf_counter()
            if answered is not None:
                waits.append(now - answered)
            decision = (message["view"].get("decision") or {}).get("kind", "?")
            asked[decision] += 1
            await asyncio.sleep(think)
            passes = [e for e in legal if e["action"] == "pass"]
            pick = passes[0] if passes and choose.random() < pass_share else choose.choice(legal)
            answer = {"type": "action", "action": pick["action"], "version": message["version"]}
            await ws.send(json.dumps(answer))
            answered = time.perf_counter()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--think", type=float, default=1.0, help="a person's time a decision")
    parser.add_argument("--pass-share", type=float, default=0.8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--serve", nargs=argparse.REMAINDER, default=[], help="serve options")
    args = parser.parse_args()

    import tavernkeep

    print(
        f"Here to Slay's pace: {args.games} games of one person and two heuristic bots, "
        f"think {args.think} s, passes {args.pass_share:.0%} of their chances, serve "
        f"{' '.join(args.serve) or 'with its defaults'}; {tavernkeep.build()} build, Python "
        f"{platform.python_version()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, "
        f"host probe {probe():,.0f} hand-written games/s"
    )
    choose = random.Random(args.seed)
    asked: Counter[str] = Counter()
    waits: list[float] = []
    # serve's own bot delay and pass pause: what a person meets (the bounds a stranger is
    # held to are lifted, as in every server benchmark; one table at a time never meets them).
    with serving(None, None, args.serve) as base:
        asyncio.run(wait_for_server(base))
        for game in range(args.games):
            waits += asyncio.run(
                one_game(base, args.seed + game, args.think, args.pass_share, choose, asked)
            )
    print("| waits | median s | quartiles s | p90 s | max s | goal |")
    print("|---|---|---|---|---|---|")
    print(
        f"| {len(waits)} | {statistics.median(waits):.2f} | {percentile(waits, 0.25):.2f}-"
        f"{percentile(waits, 0.75):.2f} | {percentile(waits, 0.9):.2f} | {max(waits):.2f} | "
        "median < 4 s |"
    )
    print("asked: " + ", ".join(f"{k} {v}" for k, v in asked.most_common()))


if __name__ == "__main__":
    main()
