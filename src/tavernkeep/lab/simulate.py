"""`tavernkeep simulate`: many bot games across worker processes.

Game i of a batch is seeded with derive_seed(batch_seed, i), and each worker plays a
contiguous block of indices, so the set of games played is fixed by the batch seed and
the game count alone. Tallies are kept exactly (wins as fractions, since a shared victory
counts 1/k to each of k winners) and merged by addition, so the report for a seed is the
same whatever the number of workers or the order in which their blocks finish.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import multiprocessing
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tavernkeep import build
from tavernkeep.agents import check_seat, make_bot
from tavernkeep.engine.content import Pack
from tavernkeep.engine.errors import SeatError
from tavernkeep.engine.match import Match
from tavernkeep.engine.rng import derive_seed, random_seed
from tavernkeep.games import get_game
from tavernkeep.lab.cluster import run_on_ray
from tavernkeep.lab.stats import TOLERANCE, balance_rule, off_balance, wilson_interval

if TYPE_CHECKING:
    import pyarrow as pa

    from tavernkeep.lab.results import RowWriter


class RowSink(Protocol):
    """Where blocks of rows go as they come: a Parquet file (`RowWriter`) or memory."""

    def add(self, number: int, table: pa.Table) -> None: ...


class MemoryRows:
    """Blocks of rows kept in memory, in block order whatever order they finish in (a
    `RowSink` for a caller that reads the games itself rather than keeping a file)."""

    def __init__(self) -> None:
        self.blocks: dict[int, pa.Table] = {}

    def add(self, number: int, table: pa.Table) -> None:
        self.blocks[number] = table

    def table(self) -> pa.Table:
        import pyarrow as pa  # as the rows themselves: only where rows are asked for

        return pa.concat_tables(self.blocks[n] for n in sorted(self.blocks))


BLOCKS_PER_WORKER = 16
"""Blocks per worker: enough to balance load and move the progress bar, few enough that
the cost of a block (building the bots, pickling a tally) stays invisible."""


@dataclass
class Totals:
    """Exact, mergeable totals over a set of games."""

    players: int
    games: int = 0
    wins: list[Fraction] = field(default_factory=list)
    scores: list[Fraction] = field(default_factory=list)
    turns: int = 0
    actions: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    lengths: Counter[int] = field(default_factory=Counter)
    """Games by their number of turns."""
    labelled: Counter[tuple[str, str]] = field(default_factory=Counter)
    """Seats played under each label of the game's `seat_facts`: (fact, label) -> seats."""
    labelled_wins: dict[tuple[str, str], Fraction] = field(default_factory=dict)
    parts: Counter[str] = field(default_factory=Counter)
    """Totals over every seat of each of the game's `score_parts`."""
    won: int = 0
    """Games the result calls won: for a co-operative or solo game, the team's victories."""
    rows: pa.Table | None = None
    """One block's games as rows, when asked for; never merged (they go to a file)."""

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [Fraction(0)] * self.players
            self.scores = [Fraction(0)] * self.players

    def merge(self, other: Totals) -> None:
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.scores = [a + b for a, b in zip(self.scores, other.scores, strict=True)]
        self.turns += other.turns
        self.actions += other.actions
        self.endings.update(other.endings)
        self.lengths.update(other.lengths)
        self.labelled.update(other.labelled)
        self.parts.update(other.parts)
        self.won += other.won
        for key, wins in other.labelled_wins.items():
            self.labelled_wins[key] = self.labelled_wins.get(key, Fraction(0)) + wins


@dataclass(frozen=True)
class Batch:
    game: str
    seats: tuple[str, ...]
    options: dict[str, Any]
    pack: str | None
    seed: int
    loaded: Pack[Any] | None = None
    """A pack already loaded (a sweep's edited cards), used instead of loading `pack`."""
    columns: dict[str, Any] = field(default_factory=dict)
    """Values written as extra columns of every row (a grid cell's options, a sweep's
    value)."""

    def load_pack(self) -> Pack[Any]:
        return self.loaded or get_game(self.game).load_pack(self.pack)


def play_block(batch: Batch, start: int, stop: int, rows: bool = False) -> Totals:
    """Play games start..stop-1 of a batch; runs in a worker process. With `rows` the
    totals also carry the games' rows (`Totals.rows`, an Arrow table)."""
    game = get_game(batch.game)
    options = dict(batch.options, players=len(batch.seats))
    config = game.make_config(options)
    pack = batch.load_pack()
    agents = [make_bot(spec, game) for spec in batch.seats]
    players = len(batch.seats)
    tally = Totals(players=players)
    table = None
    if rows:
        from tavernkeep.lab.rows import Rows

        table = Rows(
            game,
            pack=pack.name,
            options=batch.options,
            seats=batch.seats,
            batch_seed=batch.seed,
            extra=batch.columns,
        )
    # The sums stay exact without a Fraction per game (a Fraction sum costs microseconds,
    # a tenth of a game): victories are counted by how many seats shared them and turned
    # into fractions once per block, and scores are added as integers while they are whole.
    shared = [[0] * (players + 1) for _ in range(players)]  # [seat][k]: won with k - 1 others
    whole_scores = [0] * players
    other_scores = [Fraction(0)] * players
    turns = actions = 0
    seat_facts = tuple(game.seat_facts)
    score_parts = tuple(game.score_parts)
    # Like `shared`: wins under a label, counted by how many seats shared them.
    labelled_shared: dict[tuple[str, str], list[int]] = {}
    for index in range(start, stop):
        seed = derive_seed(batch.seed, index)
        match = Match(
            game,
            agents,
            seed,
            config,
            pack,
            batch.seats,
            record_events=False,
            keep_record=False,
        )
        result = match.run()
        if table is not None:
            table.add(index, seed, result, match.actions)
        sharers = len(result.winners)
        for seat in result.winners:
            shared[seat][sharers] += 1
        for seat, score in enumerate(result.scores):
            whole = int(score)
            if whole == score:
                whole_scores[seat] += whole
            else:
                other_scores[seat] += Fraction(score)
        turns += result.turns
        actions += match.actions
        tally.endings[result.ending] += 1
        tally.won += bool(result.won)
        tally.lengths[result.turns] += 1
        for fact in seat_facts:
            labels = result.facts[fact]
            for seat in range(players):
                # One label a seat (a Party Leader) or several (the quests it held).
                held = labels[seat]
                for label in held if isinstance(held, list) else [held]:
                    key = (fact, str(label))
                    tally.labelled[key] += 1
                    if seat in result.winners:
                        counts = labelled_shared.setdefault(key, [0] * (players + 1))
                        counts[sharers] += 1
        for fact in score_parts:
            tally.parts[fact] += sum(result.facts[fact])
    for key, counts in labelled_shared.items():
        tally.labelled_wins[key] = sum(
            (Fraction(c, k) for k, c in enumerate(counts) if c), Fraction(0)
        )
    for seat in range(players):
        for sharers, count in enumerate(shared[seat]):
            if count:
                tally.wins[seat] += Fraction(count, sharers)
        tally.scores[seat] += whole_scores[seat] + other_scores[seat]
    tally.games = len(range(start, stop))
    tally.turns = turns
    tally.actions = actions
    if table is not None:
        tally.rows = table.table()
    return tally


def blocks(games: int, workers: int) -> list[tuple[int, int]]:
    count = max(1, min(games, workers * BLOCKS_PER_WORKER))
    edges = [games * i // count for i in range(count + 1)]
    return [(a, b) for a, b in itertools.pairwise(edges) if b > a]


def simulate(
    batch: Batch,
    games: int,
    workers: int = 1,
    on_progress: Any = None,
    rows: RowSink | None = None,
    ray: str | None = None,
) -> Totals:
    """Play `games` games of a batch on `workers` processes; returns the exact tally."""
    return simulate_many([batch], games, workers, on_progress, rows, ray)[0]


Job = tuple[int, Batch, int, int, bool]
"""(job number, batch, first game, game after the last, whether to build rows)."""


def play_job(job: Job) -> tuple[int, Totals]:
    number, batch, start, stop, rows = job
    return number, play_block(batch, start, stop, rows)


def check_batches(batches: list[Batch]) -> None:
    """Every batch's game, options, pack and seats, checked in this process: a bad seat or
    pack is one clear error here (and before a caller writes anything), rather than a
    traceback from a worker."""
    for batch in batches:
        game = get_game(batch.game)
        config = game.make_config(dict(batch.options, players=len(batch.seats)))
        pack = batch.load_pack()
        for spec in batch.seats:
            if spec == "human":
                raise SeatError(
                    "simulate seats bots only: use bot:random, bot:heuristic, bot:mcts or "
                    "bot:policy:PATH"
                )
            check_seat(spec, game, config, pack)


def simulate_many(
    batches: list[Batch],
    games: int,
    workers: int = 1,
    on_progress: Any = None,
    rows: RowSink | None = None,
    ray: str | None = None,
    first: int = 0,
    interleave: bool = False,
) -> list[Totals]:
    """`games` games of each batch, every batch's blocks shared out over one pool of
    `workers` processes (a grid of small batches keeps both cores busy to the end), or
    over a Ray cluster when `ray` names one ("local": a Ray started here). With `rows`,
    every game's row goes to that writer, in batch and game order whatever the order
    in which blocks finish. The games are numbers `first` to `first + games - 1` of each
    batch, so a caller that plays a batch a block at a time (the ladder, which stops once
    it can tell) plays the same games as one run would. With `interleave` the batches'
    blocks are played side by side (block 1 of each, then block 2 of each...) rather than
    batch after batch: the workbench reads both arms' first games while the rest play."""
    check_batches(batches)
    totals = [Totals(players=len(batch.seats)) for batch in batches]
    owner: list[int] = []
    jobs: list[Job] = []
    # A Ray cluster has more cores than this machine: cut the work for two of them at
    # least, so a test's local Ray and a cluster both get blocks to share.
    cut = max(workers, 2) if ray is not None else workers
    spans = blocks(games, cut)
    order = (
        [(i, span) for span in spans for i in range(len(batches))]
        if interleave
        else [(i, span) for i in range(len(batches)) for span in spans]
    )
    for index, (a, b) in order:
        owner.append(index)
        jobs.append((len(jobs), batches[index], first + a, first + b, rows is not None))

    def take(number: int, part: Totals) -> None:
        if rows is not None and part.rows is not None:
            rows.add(number, part.rows)
            part.rows = None
        totals[owner[number]].merge(part)
        if on_progress:
            on_progress(part.games)

    if ray is not None:
        run_on_ray(jobs, ray, play_job, lambda played: take(*played))
    elif workers == 1:
        for job in jobs:
            take(*play_job(job))
    else:
        # Fork where there is one: workers start at once and inherit the loaded game.
        context = multiprocessing.get_context("fork" if hasattr(os, "fork") else None)
        with context.Pool(workers) as pool:
            for number, part in pool.imap_unordered(play_job, jobs):
                take(number, part)
    return totals


def summarize(
    batch: Batch, tally: Totals, workers: int, seconds: float, tolerance: float = TOLERANCE
) -> dict[str, Any]:
    """The report as one JSON-ready object (the `--json` contract in the README)."""
    n, games = tally.players, tally.games
    seats = []
    for seat, spec in enumerate(batch.seats):
        wins = tally.wins[seat]
        lo, hi = wilson_interval(float(wins), games)
        seats.append(
            {
                "seat": seat,
                "agent": spec,
                "wins": float(wins),
                "win_rate": float(wins) / games,
                "ci95": [lo, hi],
                "mean_score": float(tally.scores[seat]) / games,
            }
        )
    bots = []
    for spec in dict.fromkeys(batch.seats):
        held = [s for s in range(n) if batch.seats[s] == spec]
        wins = sum((tally.wins[s] for s in held), Fraction(0))
        trials = games * len(held)
        lo, hi = wilson_interval(float(wins), trials)
        bots.append(
            {
                "agent": spec,
                "seats": held,
                "wins": float(wins),
                "win_rate": float(wins) / trials,
                "ci95": [lo, hi],
            }
        )
    groups: dict[str, Any] = {}
    seat_facts = get_game(batch.game).seat_facts
    for fact, heading in seat_facts.items():
        rows = []
        for (name, label), seated in sorted(tally.labelled.items()):
            if name != fact:
                continue
            wins = tally.labelled_wins.get((name, label), Fraction(0))
            lo, hi = wilson_interval(float(wins), seated)
            rows.append(
                {
                    "label": label,
                    "seats": seated,
                    "wins": float(wins),
                    "win_rate": float(wins) / seated,
                    "ci95": [lo, hi],
                    # The report's own test (stats.off_balance): one meaning everywhere.
                    "out_of_balance": off_balance(lo, hi, 1 / n, seated, tolerance) != 0,
                }
            )
        groups[fact] = {"heading": heading, "rows": rows}
    score_parts = get_game(batch.game).score_parts
    whole = sum(tally.parts[fact] for fact in score_parts) or 1
    parts = {
        fact: {
            "heading": heading,
            "mean_per_seat": tally.parts[fact] / (games * n),
            "share": tally.parts[fact] / whole,
        }
        for fact, heading in score_parts.items()
    }
    lo, hi = wilson_interval(tally.won, games)
    return {
        "game": batch.game,
        "games": games,
        "team": {"won": tally.won, "win_rate": tally.won / games, "ci95": [lo, hi]}
        if get_game(batch.game).kind != "competitive"
        else None,
        "seed": batch.seed,
        "pack": batch.pack or "standard",
        "options": batch.options,
        "players": n,
        "fair_share": 1 / n,
        "tolerance": tolerance,
        # Whether a seat's score says more than its win (Here to Slay's is the win):
        # the table shows a score column only then.
        "scored": any(
            abs(float(tally.scores[i]) - float(tally.wins[i])) > 1e-9 * games for i in range(n)
        ),
        "seats": seats,
        "bots": bots,
        "mean_turns": tally.turns / games,
        "turns": length_summary(tally.lengths),
        "groups": groups,
        "score_parts": parts,
        "mean_actions": tally.actions / games,
        "endings": dict(sorted(tally.endings.items())),
        "workers": workers,
        "build": build(),
        "elapsed_seconds": round(seconds, 3),
    }


def length_summary(lengths: Counter[int]) -> dict[str, float]:
    """Mean, median, 90th and 99th percentile and longest game, in turns."""
    games = sum(lengths.values())
    ordered = sorted(lengths.items())

    def quantile(q: float) -> int:
        # The smallest length that at least q of the games do not exceed.
        seen = 0
        for turns, count in ordered:
            seen += count
            if seen >= q * games:
                return turns
        return ordered[-1][0]

    return {
        "mean": sum(t * c for t, c in ordered) / games,
        "median": quantile(0.5),
        "p90": quantile(0.9),
        "p99": quantile(0.99),
        "max": ordered[-1][0],
    }


def progress_bar() -> Any:
    """The bar `simulate`, its grids and `sweep` show on stderr while they play; nothing
    when stderr is not a terminal, so piped output stays clean."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    err = Console(stderr=True)
    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )


def run_simulation(
    game_name: str,
    seats: list[str],
    games: int,
    workers: int,
    seed: int | None,
    options: dict[str, Any],
    pack: str | Path | None,
    as_json: bool,
    out: Path | None = None,
    ray: str | None = None,
    tolerance: float = TOLERANCE,
) -> dict[str, Any]:
    """The command: simulate with a progress bar, then print a table or JSON; with `out`,
    every game's row also goes to that Parquet file."""

    batch = Batch(
        game_name,
        tuple(seats),
        options,
        str(pack) if pack is not None else None,
        random_seed() if seed is None else seed,
    )
    started = time.perf_counter()
    with progress_bar() as progress:
        task = progress.add_task(f"{game_name}: playing", total=games)
        with results_file(out, [batch], games) as rows:
            tally = simulate(batch, games, workers, lambda k: progress.advance(task, k), rows, ray)
    report = summarize(batch, tally, workers, time.perf_counter() - started, tolerance)
    if out is not None:
        report["out"] = str(out)
    if as_json:
        print(json.dumps(report))
    else:
        print_report(report)
    return report


def results_file(
    out: Path | None, batches: list[Batch], games: int, **about: Any
) -> contextlib.AbstractContextManager[RowWriter | None]:
    """The writer for `--out` (nothing without it), told what the run was."""
    if out is None:
        return contextlib.nullcontext()
    from tavernkeep.lab.results import RowWriter

    game = get_game(batches[0].game)
    first = batches[0]
    pack = first.loaded if first.loaded is not None else game.load_pack(first.pack)
    meta = {
        "game": game.name,
        "title": game.title,
        "kind": game.kind,
        "games_per_batch": games,
        "batches": [
            {"seats": list(b.seats), "seed": b.seed, "options": b.options, **b.columns}
            for b in batches
        ],
        "pack": batches[0].pack or "standard",
        "seat_facts": game.seat_facts,
        "score_parts": game.score_parts,
        "tally_kinds": game.tally_kinds,
        "tally_rates": game.tally_rates,
        # Every name each kind could count, for the report's dead cards.
        "tally_names": game.tally_names(pack.content),
        **about,
    }
    return RowWriter(out, meta)


def print_report(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.text import Text

    from tavernkeep.terminal.tables import Column, fitted

    console = Console()
    width = console.width
    console.print(
        f"[bold]{escape(report['game'])}[/] with the pack {escape(str(report['pack']))}: "
        f"{report['games']:,} games, seed {report['seed']}, "
        f"{report['workers']} worker(s), {report['build']} build, "
        f"{report['elapsed_seconds']:.1f} s"
    )
    team = report["team"]
    if team is not None:
        lo, hi = team["ci95"]
        console.print(
            f"the team won {team['won']:,} of {report['games']:,} games: "
            f"{team['win_rate']:.1%} ({lo:.1%} - {hi:.1%})"
        )
    scored = report.get("scored", True)
    seats = [
        [
            str(s["seat"] + 1),
            s["agent"],
            f"{s['win_rate']:.1%}",
            f"{s['ci95'][0]:.1%} - {s['ci95'][1]:.1%}",
            *([f"{s['mean_score']:.2f}"] if scored else []),
        ]
        for s in report["seats"]
    ]
    # Wins are left out: a victory shared by k seats counts 1/k, and "2033.83 wins" is
    # harder to read than the rate it makes over the games named above.
    headings = ["seat", "agent", "win rate", "95% interval", *(["mean score"] if scored else [])]
    console.print(fitted([Column(h) for h in headings], seats, width))
    bots = [
        [
            b["agent"],
            ", ".join(str(s + 1) for s in b["seats"]),
            f"{b['win_rate']:.1%}",
            f"{b['ci95'][0]:.1%} - {b['ci95'][1]:.1%}",
            f"{report['fair_share']:.1%}",
        ]
        for b in report["bots"]
    ]
    headings = ["agent", "seats", "win rate per seat", "95% interval", "fair share"]
    console.print(fitted([Column(h) for h in headings], bots, width))
    flagged = False
    for group in report["groups"].values():
        rows = [
            [
                row["label"],
                f"{row['seats']:,}",
                f"{row['win_rate']:.1%}",
                f"{row['ci95'][0]:.1%} - {row['ci95'][1]:.1%}",
                Text("out of balance", style="bold red") if row["out_of_balance"] else "",
            ]
            for row in group["rows"]
        ]
        flagged = flagged or any(row["out_of_balance"] for row in group["rows"])
        headings = ["seat-games", "win rate", "95% interval", ""]
        columns = [Column(group["heading"]), *(Column(h) for h in headings)]
        console.print(fitted(columns, rows, width))
    if flagged:
        console.print(escape(balance_rule(report.get("tolerance", TOLERANCE))) + ".")
    if report["score_parts"]:
        split = [
            [part["heading"], f"{part['mean_per_seat']:.2f}", f"{part['share']:.1%}"]
            for part in report["score_parts"].values()
        ]
        columns = [Column("score from"), Column("mean a seat"), Column("share")]
        console.print(fitted(columns, split, width))
    t = report["turns"]
    console.print(
        f"game length in turns: mean {t['mean']:.1f}, median {t['median']}, "
        f"90% {t['p90']}, 99% {t['p99']}, longest {t['max']}"
    )
    endings = ", ".join(f"{escape(k)}: {v:,}" for k, v in report["endings"].items())
    console.print(
        f"mean turns {report['mean_turns']:.1f}, mean actions {report['mean_actions']:.1f}; "
        f"endings: {endings}"
    )
