"""Does the tutor's first choice agree with a long search? (issue 42's tutor goal)

For each game (or `--game`), at its usual table: games between the game's own bots
(heuristic where it has one) from seeds drawn from `--seed`, and in each game one decision
with a choice, at a point drawn from the same stream, until `--positions` positions a game.
At each, the tutor (`agents.advice.advise` at its own budget, `ADVICE_MS`, or `--tutor`)
and a reference search (`--reference`, by default `bot:mcts:10000ms`: ten seconds) each
rank the legal actions by their estimated chance to win, from the deciding seat's
InfoSet alone; the tutor agrees where its first choice is the reference's first.

Printed a game: positions, agreement with its 95% interval, the tutor's median and
slowest answer; first the build, load and a host probe, as the other benchmarks do. Goal
(issue 42): agreement at least 90% on every game, every answer within 1 s.

    python benchmarks/tutor_agreement.py [--game NAME] [--positions N] [--seed S]
                                         [--tutor SPEC] [--reference SPEC]

A position costs the reference's ten seconds: 20 positions of five games take about 18
minutes. Run it on an otherwise idle machine: both budgets are times.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from typing import Any

import tavernkeep
from handwritten_hack_and_slash import games_per_second
from tavernkeep.agents import make_bot
from tavernkeep.agents.advice import ADVICE_MS, advise
from tavernkeep.agents.ismcts import ISMCTSBot
from tavernkeep.engine.errors import ConfigError, SeatError
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng, derive_seed
from tavernkeep.games import all_games, get_game
from tavernkeep.lab.stats import wilson_interval

PLAYERS = {"hack-and-slash": 4, "here-to-slay": 4, "crits-and-tricks": 3, "side-quest": 2}
"""Seats a game: each game's usual table, as `search_speed.py` measures it (Rage: 1)."""


def positions(game: Game[Any, Any], players: int, count: int, seed: int) -> list[Any]:
    """`count` (state, seat) positions with a choice, one a game, each at a point of its
    game drawn from `seed`'s stream."""
    bot = "bot:heuristic" if game.heuristic_agent() is not None else "bot:random"
    pick = Rng(derive_seed(seed, game.name))
    found: list[Any] = []
    index = 0
    while len(found) < count:
        game_seed = derive_seed(seed, f"{game.name}:{index}")
        index += 1

        def start(game_seed: int = game_seed) -> Match:
            seats = [make_bot(bot, game) for _ in range(players)]
            return Match.start(game, seats, seed=game_seed, options={"players": players})

        whole = start()
        whole.run()
        at = pick.below(max(1, whole.actions))
        match = start()
        while (seat := game.actor(match.state)) is not None:
            if match.actions >= at and len(game.legal_actions(match.state)) > 1:
                found.append((game.clone(match.state), seat))
                break
            match.step()
    return found


def first_choice(game: Game[Any, Any], spec: str, state: Any, seat: int) -> tuple[str, float]:
    """(the first choice's text, wall seconds) of `advise` with the search `spec`."""
    info = InfoSet(game, game.clone(state), seat, Rng(derive_seed(1, "tutor")))
    started = time.perf_counter()
    ranked = advise(info, Rng(derive_seed(2, "tutor")), spec)
    return ranked[0].action.text, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--positions", type=int, default=20, help="positions a game (20)")
    parser.add_argument("--seed", type=int, default=20_261_206)
    parser.add_argument("--tutor", default=f"bot:mcts:{ADVICE_MS}ms", help="the tutor's search")
    parser.add_argument("--reference", default="bot:mcts:10000ms", help="the long search")
    args = parser.parse_args()
    if args.positions < 1:
        parser.error(f"--positions must be at least 1, not {args.positions}")
    try:
        games = [get_game(name) for name in args.game] if args.game else all_games()
        for game in games:
            for spec in (args.tutor, args.reference):
                if not isinstance(make_bot(spec, game), ISMCTSBot):
                    parser.error(f"{spec} is not a search bot (bot:mcts...)")
    except (ConfigError, SeatError) as exc:
        parser.error(str(exc))
    print(
        f"tutor agreement: {tavernkeep.build()} build, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; "
        f"host probe {games_per_second(2.0)[0]:,.0f} hand-written games/s; "
        f"tutor {args.tutor}, reference {args.reference}, seed {args.seed}"
    )
    print("| game | players | positions | agrees | 95% | tutor median s | tutor slowest s |")
    print("|---|---|---|---|---|---|---|")
    for game in games:
        players = PLAYERS.get(game.name, game.min_players)
        agree, times = 0, []
        found = positions(game, players, args.positions, args.seed)
        for state, seat in found:
            mine, seconds = first_choice(game, args.tutor, state, seat)
            theirs, _ = first_choice(game, args.reference, state, seat)
            agree += mine == theirs
            times.append(seconds)
        low, high = wilson_interval(agree, len(found))
        print(
            f"| {game.name} | {players} | {len(found)} | {100 * agree / len(found):.0f}% "
            f"| {100 * low:.0f}-{100 * high:.0f}% | {statistics.median(times):.2f} "
            f"| {max(times):.2f} |"
        )


if __name__ == "__main__":
    main()
