"""Have a game's games changed? One digest a game, to compare before and after a change.

An optimisation should leave every game the same move for move, and a measurement
played across sessions (`strength.py --outcomes`) may go on with a later build only if
its games are the same. For each game (or `--game`) this plays `--games` games between
the game's own bots (heuristic where it has one, else random), at every table size in
turn, and asks the search (`--spec`, a small budget, without the heuristic's proposal to
fall back on, so that its own choice is what is hashed) for its choice at a few
positions of them; it prints a SHA-256 of every action of every game and of every searched choice.
Equal digests: the same games. Run it with the build and the code to compare (pure
Python and the compiled build must agree too).

    python benchmarks/game_digest.py [--game NAME] [--games N] [--spec SPEC]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from typing import Any

from tavernkeep.agents import make_bot
from tavernkeep.engine.errors import ConfigError, SeatError
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng, derive_seed
from tavernkeep.games import all_games, get_game

SEED = 20261203
SEARCHED = 3
"""Games whose positions are also searched (every 40th action of each)."""


def digest(game: Game[Any, Any], games: int, spec: str) -> tuple[str, float]:
    """(the digest, CPU seconds) of `games` games of `game` and the searched choices."""
    bot = "bot:heuristic" if game.heuristic_agent() is not None else "bot:random"
    sizes = list(range(game.min_players, game.max_players + 1))
    sha = hashlib.sha256()
    started = time.process_time()
    for index in range(games):
        players = sizes[index % len(sizes)]
        seats = [make_bot(bot, game) for _ in range(players)]
        match = Match.start(game, seats, seed=derive_seed(SEED, game.name, index))
        searching = index < SEARCHED
        while (seat := game.actor(match.state)) is not None:
            if searching and match.actions % 40 == 20:
                search = make_bot(spec, game)
                info = InfoSet(game, match.state, seat, Rng(derive_seed(SEED, index)))
                sha.update(b"search " + search.choose(info).text.encode())
            match.step()
        sha.update(repr(match.record.actions).encode())
    return sha.hexdigest(), time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description="A digest of each game's games.")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--games", type=int, default=100, help="games a game (100)")
    parser.add_argument(
        "--spec", default="bot:mcts:30:pure", help="the search asked (bot:mcts:30:pure)"
    )
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    try:
        chosen = [get_game(name) for name in args.game] if args.game else all_games()
        for game in chosen:
            make_bot(args.spec, game)
    except (ConfigError, SeatError) as exc:
        parser.error(str(exc))
    for game in chosen:
        sha, cpu = digest(game, args.games, args.spec)
        print(f"{game.name:<18} {sha}  ({args.games} games, {cpu:.1f} s CPU)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
