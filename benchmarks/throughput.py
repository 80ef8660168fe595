"""Engine throughput on one core, for every registered game.

For each game in `tavernkeep.games.all_games()`, at its default player count:

- random-bot games/s and actions/s with events off: `Match(..., record_events=False,
  keep_record=False)`, a new seed per game, the path `tavernkeep simulate` takes;
- actions/s with events on (every event built, as the terminal and the server need);
- `clone()` per second, on states taken from random games;
- the heuristic bot's decisions per second (`choose()` alone, on positions taken from
  random games), for games that have one;
- for games with a hand-written baseline in this folder, its games/s and the engine's
  games/s as a ratio to it (goal: at least 0.5x); and, to tell the cost of the engine's
  random numbers from the cost of the engine, the same hand-written loop drawing every
  number from the engine's `Rng` (SplitMix64 in Python) instead of `random` (in C).

Each figure is the best of a few rounds of CPU time (`time.process_time`), engine and
baseline rounds interleaved, so another program briefly taking the core slows one round
rather than the result.

    python benchmarks/throughput.py [--seconds S] [--game NAME] [--players N]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from itertools import count
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng, derive_seed
from tavernkeep.games import all_games

sys.path.insert(0, str(Path(__file__).resolve().parent))
import handwritten_hack_and_slash

GOAL_RATIO = 0.5
ROUNDS = 5
SEED = 20_240_601

Work = Callable[[], tuple[int, int]]
"""Does one chunk of work; returns (units, secondary units), e.g. (games, actions)."""


def handwritten_baseline(game: Game[Any, Any], engine_rng: bool = False) -> Work | None:
    """A chunk of the game's hand-written loop, if this folder has one.

    With `engine_rng`, each game draws from its own `Rng`, seeded as the engine seeds a
    game, in place of the `random` module: one number for one number.
    """
    if game.name != "hack-and-slash":
        return None
    cards = handwritten_hack_and_slash.load_cards()
    play = handwritten_hack_and_slash.play
    seeds = count()

    def uniform(rng: Rng) -> Callable[[], float]:
        next64 = rng.next64
        return lambda: next64() * 2.0**-64

    def chunk() -> tuple[int, int]:
        for _ in range(200):
            if engine_rng:
                rng = Rng(derive_seed(SEED, next(seeds)))
                play(cards, uniform(rng), rng.shuffle)
            else:
                play(cards)
        return 200, 0

    return chunk


def best_rates(works: dict[str, Work], seconds: float) -> dict[str, tuple[float, float]]:
    """Units per CPU second of each work, best of ROUNDS rounds, the works interleaved."""
    budget = seconds / ROUNDS
    best = {name: (0.0, 0.0) for name in works}
    for _ in range(ROUNDS):
        for name, work in works.items():
            units = extra = 0
            start = time.process_time()
            while (elapsed := time.process_time() - start) < budget:
                done, more = work()
                units += done
                extra += more
            if units / elapsed > best[name][0]:
                best[name] = (units / elapsed, extra / elapsed)
    return best


def default_players(game: Game[Any, Any]) -> int:
    players: int = getattr(game.make_config({}), "players", game.min_players)
    return players


def random_games(game: Game[Any, Any], players: int, record_events: bool) -> Work:
    config = game.make_config({"players": players})
    pack = game.load_pack()
    agents = [RandomBot() for _ in range(players)]
    seeds = count()

    def chunk() -> tuple[int, int]:
        games = actions = 0
        for _ in range(50):
            seed = derive_seed(SEED, next(seeds))
            match = Match(
                game,
                agents,
                seed,
                config,
                pack,
                record_events=record_events,
                keep_record=False,
            )
            match.run()
            games += 1
            actions += match.actions
        return games, actions

    return chunk


def positions(game: Game[Any, Any], players: int, wanted: int = 500) -> list[Any]:
    """States met in random games: every fifth decision of as many games as it takes."""
    config = game.make_config({"players": players})
    pack = game.load_pack()
    found: list[Any] = []
    for seed in count():
        match = Match(game, [RandomBot()] * players, seed, config, pack, record_events=False)
        while not game.is_over(match.state) and len(found) < wanted:
            if match.actions % 5 == 0:
                found.append(game.clone(match.state))
            match.step()
        if len(found) >= wanted:
            return found
    raise AssertionError("unreachable")


def clones(game: Game[Any, Any], states: list[Any]) -> Work:
    clone = game.clone

    def chunk() -> tuple[int, int]:
        for state in states:
            clone(state)
        return len(states), 0

    return chunk


def heuristic_decisions(game: Game[Any, Any], states: list[Any]) -> Work | None:
    bot = game.heuristic_agent()
    if bot is None:
        return None
    infos = []
    for i, state in enumerate(states):
        seat = game.actor(state)
        assert seat is not None
        infos.append(InfoSet(game, state, seat, Rng(i)))

    def chunk() -> tuple[int, int]:
        for info in infos:
            bot.choose(info)
        return len(infos), 0

    return chunk


def measure(
    game: Game[Any, Any], seconds: float, players: int
) -> list[tuple[str, str, str]]:
    """Rows of (measure, per second, note) for one game at `players` seats."""
    works: dict[str, Work] = {
        "events off": random_games(game, players, record_events=False),
        "events on": random_games(game, players, record_events=True),
    }
    baseline = handwritten_baseline(game)
    same_rng_baseline = handwritten_baseline(game, engine_rng=True)
    if baseline is not None and same_rng_baseline is not None:
        works["hand-written"] = baseline
        works["hand-written, engine Rng"] = same_rng_baseline
    states = positions(game, players)
    works["clone"] = clones(game, states)
    heuristic = heuristic_decisions(game, states)
    if heuristic is not None:
        works["heuristic"] = heuristic
    rates = best_rates(works, seconds)

    games, actions = rates["events off"]
    rows = [
        ("random-bot games, events off", f"{games:,.0f}", f"{actions / games:.1f} actions a game"),
        ("random-bot actions, events off", f"{actions:,.0f}", ""),
        ("random-bot actions, events on", f"{rates['events on'][1]:,.0f}", ""),
        ("clone()", f"{rates['clone'][0]:,.0f}", f"{len(states)} states from random games"),
    ]
    if heuristic is not None:
        rows.append(("heuristic bot decisions", f"{rates['heuristic'][0]:,.0f}", "choose() alone"))
    if baseline is not None:
        hand = rates["hand-written"][0]
        ratio = games / hand
        verdict = "met" if ratio >= GOAL_RATIO else "not met"
        rows.append(("hand-written loop games", f"{hand:,.0f}", "no engine; random module"))
        rows.append(
            ("engine / hand-written games", f"{ratio:.2f}x", f"goal >= {GOAL_RATIO}x: {verdict}")
        )
        same_rng = rates["hand-written, engine Rng"][0]
        rows.append(
            (
                "hand-written loop games, engine Rng",
                f"{same_rng:,.0f}",
                f"{same_rng / hand:.2f}x the loop; engine {games / same_rng:.2f}x this",
            )
        )
    return rows


def engine_build() -> str:
    """Whether the hot paths run compiled (setup.py, TAVERNKEEP_COMPILE=1) or as Python."""
    import tavernkeep.engine.rng as rng

    compiled = not (rng.__file__ or "").endswith(".py")
    return "compiled with mypyc" if compiled else "pure Python"


def main() -> None:
    parser = argparse.ArgumentParser(description="Engine throughput on one core.")
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="CPU seconds per figure (default 3)"
    )
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument(
        "--players", type=int, help="seats at every game measured (default: each game's own)"
    )
    args = parser.parse_args()

    console = Console(width=120)
    console.print(
        f"tavernkeep throughput, one core: Python {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores; best of {ROUNDS} rounds, "
        f"{args.seconds:g} CPU s a figure"
    )
    console.print(f"engine build: {engine_build()}")
    table = Table("game", "measure", "per second", "note", box=box.MARKDOWN)
    for game in all_games():
        if args.game and game.name not in args.game:
            continue
        players = args.players or default_players(game)
        if not game.min_players <= players <= game.max_players:
            parser.error(f"{game.title} takes {game.min_players}-{game.max_players} players")
        title = f"{game.name} ({players} player{'' if players == 1 else 's'})"
        for measure_name, value, note in measure(game, args.seconds, players):
            table.add_row(title, measure_name, value, note)
            title = ""
    console.print(table)


if __name__ == "__main__":
    main()
