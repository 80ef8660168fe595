"""The skill ladder of every game, in one run: how long it takes and what it finds.

For each game (or `--game`), at its usual table, `tavernkeep ladder` as a designer runs
it (`lab.ladder.run_ladder`): random, heuristic, then the search at doubling budgets from
`--start` to `--top` iterations a decision, each rung against the one below for at most
`--games` games (seeds, in a team game) and stopping early once a verdict is clear; then
the top rung against random, the first seat at a table of heuristic bots
(`--seat-games`) and the share of outcomes luck decides.

Goal (issue 27): the ladder of all five games in under 30 minutes on this 2-core machine.

    python benchmarks/skill_ladder.py [--game NAME] [--games N] [--start N] [--top N]
        [--seat-games N] [--workers W] [--seed S] [--json FILE]

The header names the build, the workers, the load and a host speed probe (the
hand-written Hack & Slash loop of `handwritten_hack_and_slash.py`, one core), so that a
time from a slower or busier host is read against it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

import tavernkeep
from handwritten_hack_and_slash import games_per_second
from tavernkeep.engine.errors import ConfigError
from tavernkeep.games import all_games, get_game
from tavernkeep.lab.ladder import interval, pct, run_ladder

SEED = 20_261_205


def summary_row(result: dict[str, Any], seconds: float) -> str:
    table = result["tables"][0]
    top, luck, seat = table["top_vs_random"], table["luck"], table["first_seat"]
    cells = [
        result["game"],
        str(table["players"]),
        f"{table['rungs']}{' (at --top)' if table['ceiling'] else ''}",
        table["top"],
        "-" if top is None else f"{pct(top['rate'])} ({interval(top['ci95'])})",
        "-" if luck is None else f"{pct(luck['share'])} ({interval(luck['share_ci95'])})",
        "-"
        if seat is None
        else f"{pct(seat['rate'])} vs {pct(seat['fair'])} ({interval(seat['ci95'])})",
        f"{seconds:,.0f}",
    ]
    return "| " + " | ".join(cells) + " |"


def step_rows(result: dict[str, Any]) -> list[str]:
    rows = []
    for step in result["tables"][0]["steps"]:
        cells = [
            result["game"],
            f"{step['upper']} vs {step['lower']}",
            f"{step['games']:,}",
            pct(step["rate"]),
            interval(step["ci95"]),
            pct(step["fair"]),
            step.get("verdict") or ("clearly stronger" if step["clear"] else "not told apart"),
        ]
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description="The skill ladder of every game.")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--games", type=int, default=200, help="most games a rung (200)")
    parser.add_argument("--start", type=int, default=50, help="the search's first rung (50)")
    parser.add_argument("--top", type=int, default=800, help="the search's last rung (800)")
    parser.add_argument("--seat-games", type=int, default=2000, help="first-seat games (2000)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--json", type=Path, help="also write the ladders' JSON here, as each game ends"
    )
    args = parser.parse_args()
    try:
        games = [get_game(name) for name in args.game] if args.game else all_games()
    except ConfigError as exc:
        parser.error(str(exc))  # a one-line error, exit 2, before anything is played
    if args.games < 8 or args.workers < 1 or args.start < 1 or args.top < args.start:
        parser.error("--games at least 8, --workers and --start at least 1, --top >= --start")
    print(
        f"skill ladder: {tavernkeep.build()} build, {args.workers} workers, "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f}; host probe {games_per_second(2.0)[0]:,.0f} "
        f"hand-written games/s; at most {args.games} games a rung, search "
        f"{args.start}..{args.top} iterations, seed {args.seed}",
        flush=True,
    )
    results = []
    started = time.perf_counter()
    for game in games:
        begun = time.perf_counter()
        # The ladder prints its own table; this script prints one line a game instead.
        with contextlib.redirect_stdout(io.StringIO()):
            result = run_ladder(
                game.name,
                None,
                args.games,
                args.start,
                args.top,
                args.seat_games,
                args.workers,
                args.seed,
                {},
                None,
                as_json=True,
            )
        results.append((result, time.perf_counter() - begun))
        # Each game's row as it ends, so a long run shows what it found so far.
        print(summary_row(result, time.perf_counter() - begun), flush=True)
        if args.json:
            args.json.write_text(json.dumps([r for r, _ in results], indent=1), encoding="utf-8")
    total = time.perf_counter() - started
    print()
    print(
        "| game | players | rungs | top rung | top against random | luck share "
        "| first seat (heuristic bots) | seconds |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for result, seconds in results:
        print(summary_row(result, seconds))
    print()
    print("| game | rung against the one below | games | rate | 95% interval | fair | verdict |")
    print("|---|---|---|---|---|---|---|")
    for result, _ in results:
        for row in step_rows(result):
            print(row)
    print()
    print(f"all games: {total:,.0f} s (goal: under 1,800 s)")


if __name__ == "__main__":
    main()
