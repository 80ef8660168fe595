"""The lab's goal: a million random-bot games of Hack & Slash simulated, written to a
results file and reported on, in under 3 minutes on this 2-core machine.

Runs the two commands a designer would type, through the same functions, timed:

    tavernkeep simulate hack-and-slash -n 1000000 --workers 2 --seed S \\
        --seat bot:random x4 --out lab_million.parquet
    tavernkeep report lab_million.parquet

and prints one table: games/s of the simulation with its file, the time to write the
results file (the simulation with --out, and the same simulation without it, so the
difference is what the rows cost), the time to write the report, and the sizes.

It first times the hand-written Hack & Slash loop (`handwritten_hack_and_slash.py`) for
a few seconds: this shared host's speed drifts by a factor of three or four from day to
day, and the loop's games/s beside its usual figure (`USUAL_LOOP`) says how fast the
machine was while the million games ran.

    python benchmarks/lab_million.py [--games N] [--workers W] [--folder DIR]
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

from handwritten_hack_and_slash import games_per_second
from tavernkeep.lab.report import write_report
from tavernkeep.lab.simulate import Batch, results_file, simulate

GOAL_SECONDS = 180.0
USUAL_LOOP = 24_000
"""The hand-written loop's games/s on one core of this machine on a good day (the
throughput tables in README.md: 23,740 and 25,095)."""
SEED = 20_261_203


def main() -> None:
    parser = argparse.ArgumentParser(description="A million games, their file and report.")
    parser.add_argument("--games", type=int, default=1_000_000, help="games (default 1,000,000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--folder", type=Path, default=None, help="where to write (default: a temporary one)"
    )
    parser.add_argument(
        "--skip-plain",
        action="store_true",
        help="skip the run without --out that prices the rows (halves the time)",
    )
    args = parser.parse_args()
    if args.folder is not None:
        try:
            args.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            parser.error(f"--folder {args.folder}: {exc.strerror or exc}")
    games, workers = args.games, args.workers
    batch = Batch("hack-and-slash", ("bot:random",) * 4, {}, None, SEED)
    loop, _ = games_per_second(5.0)

    with tempfile.TemporaryDirectory() as scratch:
        folder = args.folder or Path(scratch)
        results = folder / "lab_million.parquet"
        page = folder / "lab_million.html"

        start = time.perf_counter()
        with results_file(results, [batch], games) as rows:
            tally = simulate(batch, games, workers, rows=rows)
        simulated = time.perf_counter() - start

        start = time.perf_counter()
        write_report(results, page)
        reported = time.perf_counter() - start

        plain = None
        if not args.skip_plain:
            start = time.perf_counter()
            simulate(batch, games, workers)
            plain = time.perf_counter() - start

        total = simulated + reported
        print(
            f"lab: hack-and-slash, 4 random bots, {games:,} games, {workers} workers, seed "
            f"{SEED}; Python {platform.python_version()}, {os.cpu_count()} cores"
        )
        lines = [
            ("hand-written loop, games/s", f"{loop:,.0f}"),
            ("host speed (loop / usual)", f"{loop / USUAL_LOOP:.2f}x"),
            ("games simulated", f"{tally.games:,}"),
            ("simulate --out, wall s", f"{simulated:.1f}"),
            ("games/s (with the file)", f"{games / simulated:,.0f}"),
        ]
        if plain is not None:
            lines += [
                ("simulate without --out, wall s", f"{plain:.1f}"),
                ("the file's cost, s (difference)", f"{simulated - plain:.1f}"),
            ]
        lines += [
            ("report, wall s", f"{reported:.1f}"),
            ("results file, MB", f"{results.stat().st_size / 1e6:.1f}"),
            ("report page, MB", f"{page.stat().st_size / 1e6:.2f}"),
            ("simulate + report, s", f"{total:.1f}"),
            (
                "goal: under 3 minutes",
                "met" if total < GOAL_SECONDS else f"not met ({total - GOAL_SECONDS:.0f} s over)",
            ),
        ]
        width = max(len(k) for k, _ in lines)
        print(f"| {'measure':<{width}} | {'value':>12} |")
        print(f"|{'-' * (width + 2)}|{'-' * 14}|")
        for key, value in lines:
            print(f"| {key:<{width}} | {value:>12} |")


if __name__ == "__main__":
    main()
