"""The workbench's "What does my change do?" timed as a designer meets it (issue 45).

Starts `tavernkeep serve` on 127.0.0.1 (a fresh SQLite database), asks its workbench for
a comparison of a one-number change (Here to Slay: the Grimtooth Ogre's slay roll at 12,
the lab's planted case; Hack & Slash: The Dragon's Hoard's reward at 9) over N paired
games with the game's default seats, as the page's button does, and times it from the
request to the first partial result and to the whole result, polling as the page does.

    python benchmarks/workbench_compare.py [--games 10000] [--game here-to-slay]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from server_load import probe, serving, wait_for_server

CHANGES = {
    "here-to-slay": ("monster", "Grimtooth Ogre", "slay_roll", 12),
    "hack-and-slash": ("quest", "The Dragon's Hoard", "reward", 9),
}


def changed(game: str, data: dict[str, Any]) -> dict[str, Any]:
    section, name, field, value = CHANGES[game]
    data = json.loads(json.dumps(data))
    next(entry for entry in data[section] if entry["name"] == name)[field] = value
    if game == "here-to-slay":
        data["pack"]["strict_composition"] = False  # off the published roll numbers
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--game", choices=sorted(CHANGES), default="here-to-slay")
    args = parser.parse_args()
    import asyncio

    import tavernkeep
    from tavernkeep.games import get_game
    from tavernkeep.lab.sweep import default_seats

    seats = list(default_seats(get_game(args.game)))
    with serving(None, None) as base:
        asyncio.run(wait_for_server(base))
        with httpx.Client(base_url=base, headers={"Origin": base}, timeout=60) as client:
            pack = client.get(f"/api/workbench/games/{args.game}/packs/standard").json()
            data = changed(args.game, pack["base_data"])
            started = time.monotonic()
            run = client.post(
                "/api/workbench/runs",
                json={"game": args.game, "data": data, "seats": seats, "games": args.games},
            )
            run.raise_for_status()
            ident = run.json()["id"]
            first = None
            while True:
                state = client.get(f"/api/workbench/runs/{ident}").json()
                if first is None and state.get("result") is not None:
                    first = time.monotonic() - started
                if state["state"] in ("done", "failed", "cancelled"):
                    break
                time.sleep(0.25)
            whole = time.monotonic() - started
    print(
        f"workbench comparison: {args.game}, {args.games:,} paired games, seats "
        f"{', '.join(seats)}; {tavernkeep.build()} build, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, host probe "
        f"{probe():,.0f} hand-written games/s"
    )
    print("| measure | value |")
    print("|---|---|")
    print(f"| state at the end | {state['state']} |")
    print(f"| first result on the page, s | {first:.1f} |" if first else "| first result | - |")
    print(f"| whole result, s (goal: under 30) | {whole:.1f} |")
    headline = (state.get("result") or {}).get("headline")
    if headline:
        print(f"| headline | {headline} |")


if __name__ == "__main__":
    main()
