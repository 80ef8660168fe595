"""How strong the ISMCTS bot is, and how fast it searches, game by game.

For each game (or `--game`), at its usual table (`--players` to change it):

- competitive games: one `bot:mcts:N` seat against the other seats all held by the
  heuristic bot, then all by the random bot. The search seat moves round the table, game
  by game (a batch per seat, all dealt from the same seeds), so no seat position is
  favoured; its win rate (a shared victory counts 1/k) is printed with a 95% Wilson
  interval beside its fair share (1 / players);
- co-operative and solo games: the whole team played by `bot:mcts:N`, then by the
  heuristic bot, then by the random bot, over the same seeds; the team's win rate each,
  and each other team against the search game by game: an exact sign test on the seeds
  that only one of the two won.

Then the search's iterations per second on one core: `search()` alone at N iterations on
positions from random games (CPU time, `time.process_time`).

Games are played by `tavernkeep.lab.simulate` (derived seeds, worker processes).

    python benchmarks/strength.py [--game NAME] [--iterations N] [--games N] [--workers W]
        [--seed S] [--players P] [--rollout random|heuristic] [--pure] [--cut H]
        [--against heuristic,random] [--outcomes FILE]

A team game of the search can take minutes (every seat searches every decision). With
`--outcomes FILE` each finished game's outcome is appended to FILE as it comes (a JSON
line: the table, the game's number, won or not), and a run started again with the same
file and arguments plays only the games not in it: a long measurement survives being
stopped and goes on where it was, the same games as one run. The file holds outcomes of
the code that played them: start a new file after changing a game or a bot.

`--pure` plays `bot:mcts:N:pure`: the search without the heuristic as its incumbent.
In the games that can evaluate a position the search cuts its rollouts after 20 actions
and backs up the game's evaluation of where they stopped (`bot:mcts:N:cut20`, the
default); `--cut H` cuts them after H actions, `--cut full` plays them to the end.
Tables name each bot by its full spec.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import sys
import time
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from tavernkeep.agents import make_bot
from tavernkeep.agents.ismcts import ISMCTSBot
from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.errors import SeatError
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng, derive_seed
from tavernkeep.games import all_games
from tavernkeep.lab.simulate import Batch, play_block, simulate_many
from tavernkeep.lab.stats import wilson_interval

SEED = 20_261_203


def default_players(game: Game[Any, Any]) -> int:
    players: int = game.make_config({}).players  # type: ignore[attr-defined]
    return players


def competitive_rows(
    game: Game[Any, Any], spec: str, opponent: str, players: int, games: int, args: Any
) -> list[str]:
    """One row: the search seat's win rate against `opponent` in every other seat."""
    batches = []
    for seat in range(players):
        seats = [f"bot:{opponent}"] * players
        seats[seat] = spec
        batches.append(Batch(game.name, tuple(seats), {}, None, args.seed))
    per_seat = max(1, games // players)
    started = time.perf_counter()
    tallies = simulate_many(batches, per_seat, args.workers)
    seconds = time.perf_counter() - started
    wins = sum((t.wins[seat] for seat, t in enumerate(tallies)), Fraction(0))
    played = per_seat * players
    lo, hi = wilson_interval(float(wins), played)
    fair = 1 / players
    if lo > fair:
        verdict = "beats it"
    elif hi < fair:
        verdict = "loses to it"
    else:
        verdict = "not told apart"
    return [
        game.name,
        f"{players}",
        f"{spec} vs {players - 1} x bot:{opponent}",
        f"{played:,}",
        f"{float(wins) / played:.1%}",
        f"{lo:.1%} - {hi:.1%}",
        f"{fair:.1%}",
        verdict,
        f"{seconds:,.0f}",
    ]


def team_rows(
    game: Game[Any, Any],
    spec: str,
    others: list[str],
    players: int,
    games: int,
    args: Any,
    kept: Outcomes | None = None,
) -> list[list[str]]:
    """The team's win rate played by the search bot, then by each other bot, same seeds.

    The same seeds deal the same villages and dungeons to every team, so each other bot
    is compared game by game (a sign test on the seeds only one of the two won), which
    tells two teams apart in fewer games than two separate intervals."""
    rows = []
    specs = [spec, *(f"bot:{o}" for o in others)]
    outcomes: list[list[bool]] = []
    for s in specs:
        batch = Batch(game.name, (s,) * players, {}, None, args.seed)
        started = time.perf_counter()
        won = game_outcomes(batch, games, args.workers, kept)
        seconds = time.perf_counter() - started
        outcomes.append(won)
        lo, hi = wilson_interval(sum(won), games)
        rows.append(
            [
                game.name,
                f"{players}",
                f"team of {players} x {batch.seats[0]}",
                f"{games:,}",
                f"{sum(won) / games:.1%}",
                f"{lo:.1%} - {hi:.1%}",
                "",
                "",
                f"{seconds:,.0f}",
            ]
        )
    for row, won in zip(rows[1:], outcomes[1:], strict=True):
        row[7] = paired_verdict(outcomes[0], won)
    return rows


class Outcomes:
    """Games' outcomes kept in a file of JSON lines, one a finished game, so that a long
    run can be stopped and started again (`--outcomes`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.known: dict[str, dict[int, bool]] = {}
        # Opened for appending now, so that a file that cannot be written is an error
        # before the first game, not after it.
        with path.open("a"):
            pass
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            try:
                entry = json.loads(line)
                table, index, won = entry["table"], entry["game"], entry["won"]
                if not (isinstance(table, str) and type(index) is int and index >= 0):
                    raise ValueError
                if not isinstance(won, bool):
                    raise ValueError
            except (ValueError, KeyError, TypeError):
                raise ValueError(
                    f"{path}, line {number}: not an outcome this script wrote "
                    '(expected {"table": ..., "game": N, "won": true or false})'
                ) from None
            self.known.setdefault(table, {})[index] = won

    @staticmethod
    def table(batch: Batch) -> str:
        """What identifies a batch's games: the game, the seats, the seed, the options."""
        options = json.dumps(batch.options, sort_keys=True)
        return f"{batch.game} {','.join(batch.seats)} seed {batch.seed} {options} {batch.pack}"

    def of(self, batch: Batch) -> dict[int, bool]:
        return self.known.get(self.table(batch), {})

    def add(self, batch: Batch, index: int, won: bool) -> None:
        self.known.setdefault(self.table(batch), {})[index] = won
        with self.path.open("a") as out:
            out.write(json.dumps({"table": self.table(batch), "game": index, "won": won}) + "\n")


def game_outcomes(
    batch: Batch, games: int, workers: int, kept: Outcomes | None = None
) -> list[bool]:
    """Whether the team won each game of a batch, in game order. With `kept`, the games
    already there are not played again, and each one played is added as it finishes."""
    known = dict(kept.of(batch)) if kept is not None else {}
    jobs = [(batch, index) for index in range(games) if index not in known]
    if known:
        print(
            f"{batch.seats[0]}: {games - len(jobs)} of {games} games already in the file",
            file=sys.stderr,
        )

    def take(index: int, won: bool) -> None:
        known[index] = won
        if kept is not None:
            kept.add(batch, index, won)
        if len(jobs) > 1:
            done = sum(1 for i in range(games) if i in known)
            print(
                f"{batch.seats[0]}: game {index} {'won' if won else 'lost'} ({done} of {games})",
                file=sys.stderr,
                flush=True,
            )

    if workers == 1 or len(jobs) <= 1:
        for job in jobs:
            take(*won_game(job))
    else:
        context = multiprocessing.get_context("fork" if hasattr(os, "fork") else None)
        with context.Pool(workers) as pool:
            for index, won in pool.imap_unordered(won_game, jobs, chunksize=1):
                take(index, won)
    return [known[index] for index in range(games)]


def won_game(job: tuple[Batch, int]) -> tuple[int, bool]:
    batch, index = job
    return index, play_block(batch, index, index + 1).won == 1


def paired_verdict(search: list[bool], other: list[bool]) -> str:
    """A two-sided exact sign test on the seeds one team won and the other lost."""
    better = sum(1 for a, b in zip(search, other, strict=True) if a and not b)
    worse = sum(1 for a, b in zip(search, other, strict=True) if b and not a)
    split = better + worse
    tail = sum(comb(split, k) for k in range(min(better, worse) + 1)) / 2**split
    p = min(1.0, 2 * tail)
    # "12-3": 12 seeds won by the search only, 3 by the other team only.
    seeds = f"{better}-{worse} seeds, p = {p:.3f}"
    if p >= 0.05:
        return f"not told apart ({seeds})"
    return f"search wins {'more' if better > worse else 'less'} ({seeds})"


def positions(game: Game[Any, Any], players: int, wanted: int) -> list[tuple[Any, int]]:
    """States with a real decision (two or more legal actions), from random games."""
    out: list[tuple[Any, int]] = []
    config = game.make_config({"players": players})
    pack = game.load_pack()
    index = 0
    bot = RandomBot()
    while len(out) < wanted:
        seed = derive_seed(SEED, "positions", index)
        index += 1
        match = Match(game, [bot] * players, seed, config, pack, record_events=False)
        rng = Rng(seed)
        taken = 0
        while (seat := game.actor(match.state)) is not None and len(out) < wanted:
            if len(game.legal_actions(match.state)) > 1 and rng.below(8) == 0 and taken < 5:
                out.append((game.clone(match.state), seat))
                taken += 1
            match.step()
    return out


def spec_for(game: Game[Any, Any], args: Any) -> str:
    """The search bot's full seat spec in `game` (a horizon only where it can evaluate)."""
    cut = args.cut is not None and game.evaluator() is not None
    spec = (
        f"bot:mcts:{args.iterations}"
        + (f":{args.rollout}" if args.rollout else "")
        + (f":{'full' if args.cut == 'full' else 'cut' + args.cut}" if cut else "")
        + (":pure" if args.pure else "")
    )
    return make_bot(spec, game).name


def search_speed(game: Game[Any, Any], players: int, spec: str, count: int) -> tuple[float, float]:
    """(iterations per CPU second, ms a decision) of `search()` alone."""
    bot = make_bot(spec, game)
    assert isinstance(bot, ISMCTSBot)
    total = 0
    cpu = 0.0
    decisions = 0
    for state, seat in positions(game, players, count):
        info = InfoSet(game, state, seat, Rng(derive_seed(SEED, "search", decisions)))
        started = time.process_time()
        bot.search(info, Rng(derive_seed(SEED, "tree", decisions)))
        cpu += time.process_time() - started
        total += bot.last_iterations
        decisions += 1
    return total / cpu, 1000 * cpu / decisions


def main() -> None:
    parser = argparse.ArgumentParser(description="ISMCTS against the other bots.")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--iterations", type=int, default=1000, help="a decision (1000)")
    parser.add_argument("--games", type=int, default=200, help="games against each opponent (200)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--players", type=int, help="seats (default: each game's own)")
    parser.add_argument(
        "--rollout",
        choices=("random", "heuristic"),
        help="the search's rollouts (default: each game's own, `Game.search_rollout`)",
    )
    parser.add_argument(
        "--pure", action="store_true", help="no incumbent: the search's own choice always"
    )
    parser.add_argument(
        "--cut",
        metavar="H",
        help="cut rollouts after H actions where the game can evaluate ('full': never)",
    )
    parser.add_argument("--against", default="heuristic,random", help="opponents, comma-separated")
    parser.add_argument(
        "--speed-positions", type=int, default=20, help="positions timed for iterations/s"
    )
    parser.add_argument("--no-games", action="store_true", help="only the speed table")
    parser.add_argument(
        "--outcomes",
        metavar="FILE",
        type=Path,
        help="keep team games' outcomes in FILE; a rerun plays only the games not in it",
    )
    args = parser.parse_args()
    if args.cut is not None and args.cut != "full" and not args.cut.isdigit():
        parser.error(f"--cut: '{args.cut}' is neither a number of actions nor 'full'")
    opponents = [o for o in args.against.split(",") if o]
    for o in opponents:
        if o not in ("heuristic", "random"):
            parser.error(f"--against: '{o}' is not heuristic or random")
    chosen = [g for g in all_games() if not args.game or g.name in args.game]
    if not chosen:
        parser.error(f"no such game: {', '.join(args.game)}")
    kept = None
    if args.outcomes is not None:
        competitive = [g.title for g in chosen if g.kind == "competitive"]
        if competitive:
            parser.error(
                f"--outcomes keeps the outcomes of team games only, not of {competitive[0]}: "
                "give --game side-quest or --game rage"
            )
        try:
            kept = Outcomes(args.outcomes)
        except (OSError, UnicodeDecodeError) as exc:
            parser.error(f"--outcomes: cannot use {args.outcomes}: {exc}")
        except ValueError as exc:
            parser.error(f"--outcomes: {exc}")

    console = Console(width=140)
    try:
        specs = sorted({spec_for(game, args) for game in chosen})
    except SeatError as exc:
        parser.error(str(exc))
    console.print(
        f"tavernkeep ISMCTS strength: {', '.join(specs)}; Python {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores, {args.workers} worker(s), "
        f"seed {args.seed}"
    )
    if not args.no_games:
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
        for game in chosen:
            players = args.players or default_players(game)
            if not game.min_players <= players <= game.max_players:
                parser.error(f"{game.title} takes {game.players_text()} players")
            against = [o for o in opponents if o != "heuristic" or game.heuristic_agent()]
            spec = spec_for(game, args)
            if game.kind == "competitive":
                for opponent in against:
                    table.add_row(
                        *competitive_rows(game, spec, opponent, players, args.games, args)
                    )
            else:
                for row in team_rows(game, spec, against, players, args.games, args, kept):
                    table.add_row(*row)
        console.print(table)

    speed = Table(
        "game", "players", "search", "iterations/s (one core)", "ms a decision", box=box.MARKDOWN
    )
    for game in chosen:
        players = args.players or default_players(game)
        spec = spec_for(game, args)
        rate, ms = search_speed(game, players, spec, args.speed_positions)
        speed.add_row(game.name, str(players), spec, f"{rate:,.0f}", f"{ms:,.0f}")
    console.print(speed)


if __name__ == "__main__":
    main()
