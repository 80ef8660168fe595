"""Heuristic-bot games beside random-bot games, per game, as the lab plays them.

The lab's next questions (tuning, ablation, skill ladders) play games between the games'
own heuristic bots by the hundred thousand, so their speed is measured where `tavernkeep
simulate` plays: `lab.simulate.simulate`, on --workers processes, the build this Python
runs (compiled or pure, named in the header), in one run for every game so that the
ratios compare like with like. A host speed probe (the hand-written Hack & Slash loop of
`handwritten_hack_and_slash.py`, one core) heads the table: a figure from a slower or
busier host is read against it.

Goal (issue 26): heuristic-bot games at least a third of the random-bot rate in every
game (Crits & Tricks with 3 seats), and at least half of it in Here to Slay.

    python benchmarks/bot_games.py [--seconds S] [--workers N] [--game NAME]
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import tavernkeep
from handwritten_hack_and_slash import games_per_second
from tavernkeep.engine.errors import ConfigError
from tavernkeep.games import all_games, get_game
from tavernkeep.lab.simulate import Batch, simulate

SEED = 20_261_205
PLAYERS = {"crits-and-tricks": 3, "side-quest": 2, "here-to-slay": 4, "hack-and-slash": 4}
"""Seats a game (each game's smallest table where not named): as issue 26 measured."""
GOALS = {"here-to-slay": 1 / 2}
"""The share of the random-bot rate a heuristic game must reach; a third elsewhere."""


def rate(game: str, bot: str, players: int, seconds: float, workers: int) -> float:
    """Games per second: batches of growing size until one takes `seconds`."""
    batch = Batch(game, (bot,) * players, {"players": players}, None, SEED)
    simulate(batch, 2, 1)  # imports, the pack and the odds caches: not timed
    games = 4
    while True:
        start = time.perf_counter()
        simulate(batch, games, workers)
        took = time.perf_counter() - start
        if took >= seconds or games >= 1_000_000:
            return games / took
        games = max(games * 2, int(games * seconds / max(took, 1e-3)))


def probe() -> float:
    """The host's speed: hand-written Hack & Slash games a second on one core."""
    return games_per_second(2.0)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description="Heuristic-bot against random-bot games.")
    parser.add_argument("--seconds", type=float, default=4.0, help="a figure's time (4 s)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--game", help="one game (default: every game)")
    args = parser.parse_args()
    try:
        games = [get_game(args.game)] if args.game else all_games()
    except ConfigError as exc:
        parser.error(str(exc))  # a one-line error, exit 2, before anything is played
    if args.seconds <= 0 or args.workers < 1:
        parser.error("--seconds must be above 0 and --workers at least 1")
    print(
        f"bot games: {tavernkeep.build()} build, {args.workers} workers, "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f}; host probe {probe():,.0f} hand-written games/s"
    )
    print("| game | seats | random-bot games/s | heuristic-bot games/s | share | goal |")
    print("|---|---|---|---|---|---|")
    for game in games:
        if game.heuristic_agent() is None:
            continue
        players = PLAYERS.get(game.name, game.min_players)
        random = rate(game.name, "bot:random", players, args.seconds, args.workers)
        heuristic = rate(game.name, "bot:heuristic", players, args.seconds, args.workers)
        share = heuristic / random
        goal = GOALS.get(game.name, 1 / 3)
        verdict = "met" if share >= goal else "not met"
        print(
            f"| {game.name} | {players} | {random:,.0f} | {heuristic:,.0f} | {share:.2f} "
            f"| >= {goal:.2f}: {verdict} |"
        )


if __name__ == "__main__":
    main()
