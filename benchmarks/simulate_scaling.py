"""How `simulate` scales from one worker process to two.

Times `tavernkeep.lab.simulate.simulate` (the function the `simulate` command calls,
without its progress bar) on N games of random bots, once with 1 worker and once with
2, and prints both wall times and the speed-up (goal: at least 1.7x on 2 cores). It also
checks that the two tallies are equal, as they must be: the games of a batch are fixed
by its seed and count, whatever the number of workers.

With --repeats R > 1 the two runs alternate R times and each keeps its best time, so a
moment when another program has a core counts against neither.

    python benchmarks/simulate_scaling.py [--games N] [--repeats R] [--game NAME]
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from tavernkeep.games import get_game
from tavernkeep.lab.simulate import Batch, Totals, simulate

GOAL = 1.7
SEED = 20_240_601


def timed(batch: Batch, games: int, workers: int) -> tuple[float, Totals]:
    start = time.perf_counter()
    tally = simulate(batch, games, workers)
    return time.perf_counter() - start, tally


def main() -> None:
    parser = argparse.ArgumentParser(description="simulate(): 1 worker against 2.")
    parser.add_argument("--games", type=int, default=100_000, help="games (default 100,000)")
    parser.add_argument("--repeats", type=int, default=1, help="alternate runs (default 1)")
    parser.add_argument("--game", default="hack-and-slash", help="registered game name")
    args = parser.parse_args()

    game = get_game(args.game)
    players: int = getattr(game.make_config({}), "players", game.min_players)
    batch = Batch(args.game, ("bot:random",) * players, {}, None, SEED)
    simulate(batch, 20, 1)  # imports, pack and odds caches: not part of the timing

    print(
        f"simulate(): {args.game}, {players} random bots, {args.games:,} games, seed {SEED}; "
        f"Python {platform.python_version()}, {os.cpu_count()} cores"
    )
    best: dict[int, float] = {}
    tallies: dict[int, Totals] = {}
    for _ in range(args.repeats):
        for workers in (1, 2):
            seconds, tally = timed(batch, args.games, workers)
            best[workers] = min(seconds, best.get(workers, seconds))
            tallies[workers] = tally
    for workers in (1, 2):
        rate = args.games / best[workers]
        print(f"  {workers} worker{'s' if workers > 1 else ' '}: {best[workers]:7.2f} s "
              f"({rate:,.0f} games/s)")
    speedup = best[1] / best[2]
    verdict = "met" if speedup >= GOAL else "not met"
    print(f"  speed-up: {speedup:.2f}x (goal >= {GOAL}x: {verdict})")
    same = tallies[1] == tallies[2]
    print(f"  tallies equal: {'yes' if same else 'NO'} "
          f"({tallies[1].games:,} games, {tallies[1].actions:,} actions either way)")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
