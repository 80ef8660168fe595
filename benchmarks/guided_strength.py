"""How strong the guided search is (`bot:guided:PATH`, issue 42), against the current
search and the heuristic bot.

For the guide's game and table (`tavernkeep.rl.expert` trains one), the guided search at
`--budget` (100ms a decision by default) against each of `--against` (by default
`bot:mcts:1000ms`, the current search at a second a decision, and `bot:heuristic`):

- competitive games: the guided seat against the other seats all held by the opponent,
  the guided seat moving round the table game by game (a batch per seat, all dealt from
  the same seeds); its win rate (a shared victory counts 1/k) with a 95% Wilson interval
  beside its fair share (1 / players);
- co-operative and solo games: the whole team played by the guided search, then by each
  opponent, over the same seeds: each team's win rate, and each other team against the
  guided one seed by seed (an exact sign test on the seeds only one of the two won).

The rows are `benchmarks/strength.py`'s own (its `competitive_rows` and `team_rows`).
Time budgets are wall-clock: on a loaded host both searches get fewer iterations alike,
and the header says the load and the host probe (hand-written Hack & Slash games a second
on one core) so that a reader can judge the figures.

    python benchmarks/guided_strength.py --guide runs/guide-rage/guide.npz
        [--budget 100ms] [--against bot:mcts:1000ms,bot:heuristic] [--games 40]
        [--workers 2] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import platform
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

import tavernkeep
from bot_games import probe
from strength import SEED, competitive_rows, team_rows
from tavernkeep.agents import check_seat
from tavernkeep.agents.guide import load_guide
from tavernkeep.engine.errors import ConfigError, SeatError
from tavernkeep.games import get_game


def main() -> None:
    parser = argparse.ArgumentParser(description="The guided search against other bots.")
    parser.add_argument("--guide", required=True, help="a guide file (tavernkeep.rl.expert)")
    parser.add_argument("--budget", default="100ms", help="the guided search's (100ms)")
    parser.add_argument(
        "--against",
        default="bot:mcts:1000ms,bot:heuristic",
        help="opponents, comma-separated seat specs (bot:mcts:1000ms,bot:heuristic)",
    )
    parser.add_argument("--games", type=int, default=40, help="games against each (40)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be 1 or more")
    opponents = [o for o in args.against.split(",") if o]
    try:
        guide = load_guide(args.guide)
        game = get_game(guide.game)
        players = int(guide.options.get("players", 1))
        config = game.make_config({"players": players})
        spec = f"bot:guided:{args.guide}:{args.budget}"
        for s in (spec, *opponents):
            if not s.startswith("bot:"):
                raise SeatError(f"--against: '{s}' is not a bot's seat spec")
            check_seat(s, game, config)
    except (ConfigError, SeatError) as exc:
        parser.error(str(exc))
    console = Console(width=160)
    console.print(
        f"guided search strength: {spec} ({guide.about}); {tavernkeep.build()} build, "
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores, "
        f"{args.workers} worker(s), load {os.getloadavg()[0]:.1f}; host probe "
        f"{probe():,.0f} hand-written games/s; seed {args.seed}"
    )
    table = Table(
        "game",
        "players",
        "table",
        "games",
        "win rate",
        "95% interval",
        "fair share",
        "verdict",
        "wall s",
        box=box.MARKDOWN,
    )
    # strength.py's rows name opponents by what follows "bot:".
    names = [o.removeprefix("bot:") for o in opponents]
    rows: list[list[str]]
    shared: Any = args
    if game.kind == "competitive":
        rows = [competitive_rows(game, spec, name, players, args.games, shared) for name in names]
    else:
        rows = team_rows(game, spec, names, players, args.games, shared)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    console.print(f"load at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
