"""How long one decision of the search takes, game by game, at one fixed position each.

For each game (or `--game`), at its usual table: a game between the game's own bots
(heuristic where it has one) from a fixed seed, stopped at the first decision with a
choice at or after half its length (a mid-game position). `--spec` (default `bot:mcts`:
1,000 iterations, the game's own rollout and horizon, the heuristic as incumbent)
decides there `--decisions` times, each time from the same InfoSet and streams, so every
decision does the same work; the median wall time a decision and the iterations a
second it makes are printed, with the build, the load and a host probe first (the
hand-written Hack & Slash loop, as `bot_games.py` prints it). Before and after a change
to the search, the same command compares like with like; the choice made is printed
too, and must not change with an optimisation.

`--profile` runs one decision per game under cProfile instead and prints where the time
went (the functions with the most time of their own, and the most cumulative time).

    python benchmarks/search_speed.py [--game NAME] [--decisions N] [--spec SPEC] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import statistics
import time
from typing import Any

import tavernkeep
from handwritten_hack_and_slash import games_per_second
from tavernkeep.agents import make_bot
from tavernkeep.agents.ismcts import ISMCTSBot
from tavernkeep.engine.errors import ConfigError, SeatError
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng, derive_seed
from tavernkeep.games import all_games, get_game

SEED = 20_261_206
PLAYERS = {"hack-and-slash": 4, "here-to-slay": 4, "crits-and-tricks": 3, "side-quest": 2}
"""Seats a game: each game's usual table, as `strength.py` measures the search (Rage: 1)."""


def position(game: Game[Any, Any], players: int) -> tuple[Any, int, int]:
    """(state, deciding seat, actions played before it): the first decision with a
    choice at or after the middle of a game between the game's own bots, fixed seed."""
    bot = "bot:heuristic" if game.heuristic_agent() is not None else "bot:random"
    seed = derive_seed(SEED, game.name)

    def start() -> Match:
        seats = [make_bot(bot, game) for _ in range(players)]
        return Match.start(game, seats, seed=seed, options={"players": players})

    whole = start()
    whole.run()
    match = start()
    while True:
        seat = game.actor(match.state)
        assert seat is not None, "the game ended before its middle"
        if match.actions >= whole.actions // 2 and len(game.legal_actions(match.state)) > 1:
            return game.clone(match.state), seat, match.actions
        match.step()


def decide(game: Game[Any, Any], spec: str, state: Any, seat: int) -> tuple[str, int, float]:
    """(the choice, iterations, wall seconds) of one decision, from fixed streams."""
    bot = make_bot(spec, game)
    assert isinstance(bot, ISMCTSBot)
    info = InfoSet(game, game.clone(state), seat, Rng(derive_seed(SEED, "decide")))
    started = time.perf_counter()
    action = bot.choose(info)
    return action.text, bot.last_iterations, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--decisions", type=int, default=5, help="decisions a game (5)")
    parser.add_argument("--spec", default="bot:mcts", help="the search (bot:mcts)")
    parser.add_argument("--profile", action="store_true", help="cProfile one decision")
    parser.add_argument("--top", type=int, default=25, help="profile rows (25)")
    args = parser.parse_args()
    if args.decisions < 1:
        parser.error(f"--decisions must be at least 1, not {args.decisions}")
    try:
        games = [get_game(name) for name in args.game] if args.game else all_games()
        for game in games:
            if not isinstance(make_bot(args.spec, game), ISMCTSBot):
                parser.error(f"--spec must name a search bot (bot:mcts...), not {args.spec}")
    except (ConfigError, SeatError) as exc:
        parser.error(str(exc))
    print(
        f"search speed: {tavernkeep.build()} build, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; "
        f"host probe {games_per_second(2.0)[0]:,.0f} hand-written games/s"
    )
    if not args.profile:
        print(
            "| game | players | search | action # | choice | iterations | median ms "
            "| iterations/s |"
        )
        print("|---|---|---|---|---|---|---|---|")
    for game in games:
        players = PLAYERS.get(game.name, game.min_players)
        state, seat, played = position(game, players)
        spec = make_bot(args.spec, game).name
        if args.profile:
            profile = cProfile.Profile()
            profile.enable()
            choice, iterations, _ = decide(game, spec, state, seat)
            profile.disable()
            print(f"\n## {game.name}, {players} players, {spec}: {choice}, {iterations} iterations")
            stats = pstats.Stats(profile).strip_dirs()
            stats.sort_stats("tottime").print_stats(args.top)
            stats.sort_stats("cumulative").print_stats(args.top)
            continue
        decide(game, spec, state, seat)  # imports and caches: not timed
        runs = [decide(game, spec, state, seat) for _ in range(args.decisions)]
        choices = {run[0] for run in runs}
        assert len(choices) == 1, f"{game.name}: the same decision chose {choices}"
        iterations = runs[0][1]
        ms = 1000 * statistics.median(run[2] for run in runs)
        print(
            f"| {game.name} | {players} | {spec} | {played + 1} | {runs[0][0]} "
            f"| {iterations:,} | {ms:,.0f} | {1000 * iterations / ms:,.0f} |"
        )


if __name__ == "__main__":
    main()
