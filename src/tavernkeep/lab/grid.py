"""`tavernkeep simulate` over a grid: one batch for each combination of a game's options.

A game names in `Game.report_grid` the options a designer balances across (Side Quest:
the scenario and the number of heroes). When the command leaves them open (no `--seat`
fixing the players, no `--option` fixing the rest), it plays `--games` games in every
cell with the game's own bot in every seat and prints one table: a row for each value of
the first option, a column for each value of the second, then how each cell's games
ended. The option "bot" is the seats' bot (Rage: the planning bot against the random
baseline), open unless `--seat` names the seats. Each cell is an ordinary batch
seeded from the grid's seed and the cell's options, so a cell's figures are the same
whether it is played alone or in the grid, and whatever the number of workers.
"""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path
from typing import Any

from tavernkeep import build
from tavernkeep.engine.game import Game
from tavernkeep.engine.rng import derive_seed, random_seed
from tavernkeep.lab.rows import CELL, column_name
from tavernkeep.lab.simulate import (
    Batch,
    progress_bar,
    results_file,
    simulate_many,
    summarize,
)

GRID_BOT = "bot:heuristic"


def open_axes(game: Game[Any, Any], options: dict[str, Any], seats_given: bool) -> list[str]:
    """The grid options the command left open."""
    return [
        name
        for name in game.report_grid
        if name not in options and not (name in ("players", "bot") and seats_given)
    ]


def cell_seed(seed: int, cell: dict[str, Any]) -> int:
    return derive_seed(seed, "grid", *sorted(cell.items()))


def run_grid(
    game: Game[Any, Any],
    axes: list[str],
    seats: list[str] | None,
    games: int,
    workers: int,
    seed: int | None,
    options: dict[str, Any],
    pack: str | None,
    as_json: bool,
    out: Path | None = None,
    ray: str | None = None,
) -> dict[str, Any]:

    loaded = game.load_pack(pack)
    values = {name: game.grid_values(name, loaded.content) for name in axes}
    cells = [dict(zip(axes, combo, strict=True)) for combo in itertools.product(*values.values())]
    grid_seed = random_seed() if seed is None else seed
    started = time.perf_counter()
    reported: list[dict[str, Any]] = []
    with progress_bar() as progress:
        task = progress.add_task(f"{game.name}: playing", total=games * len(cells))
        batches = []
        for cell in cells:
            cell_options = {k: v for k, v in cell.items() if k not in ("players", "bot")}
            players = int(cell.get("players", len(seats) if seats else game.min_players))
            bot = str(cell.get("bot", GRID_BOT))
            batches.append(
                Batch(
                    game.name,
                    tuple(seats) if seats else (bot,) * players,
                    dict(options, **cell_options),
                    pack,
                    cell_seed(grid_seed, cell),
                    columns={column_name(CELL, axis): value for axis, value in cell.items()},
                )
            )
        with results_file(out, batches, games, grid=axes) as rows:
            tallies = simulate_many(
                batches, games, workers, lambda k: progress.advance(task, k), rows, ray
            )
    for cell, batch, tally in zip(cells, batches, tallies, strict=True):
        report = summarize(batch, tally, workers, 0.0)
        # The team's record in a co-operative or solo game; else the first seat's.
        first = report["team"] or report["seats"][0]
        reported.append(
            {
                "cell": cell,
                "seed": batch.seed,
                "seats": list(batch.seats),
                "win_rate": first["win_rate"],
                "ci95": first["ci95"],
                "turns": report["turns"],
                "endings": report["endings"],
            }
        )
    grid = {
        "game": game.name,
        "grid": axes,
        "games_per_cell": games,
        "seed": grid_seed,
        "pack": pack or "standard",
        "options": options,
        "cells": reported,
        "workers": workers,
        "build": build(),
        "elapsed_seconds": round(time.perf_counter() - started, 3),
    }
    if out is not None:
        grid["out"] = str(out)
    if as_json:
        print(json.dumps(grid))
    else:
        print_grid(grid, values)
    return grid


def print_grid(grid: dict[str, Any], values: dict[str, list[Any]]) -> None:
    from rich.console import Console
    from rich.markup import escape

    from tavernkeep.terminal.tables import Column, fitted

    console = Console()
    axes = grid["grid"]
    console.print(
        f"[bold]{escape(grid['game'])}[/]: {grid['games_per_cell']:,} games a cell, seed "
        f"{grid['seed']}, {grid['workers']} worker(s), {grid['build']} build, "
        f"{grid['elapsed_seconds']:.1f} s"
    )
    cells = {tuple(c["cell"][a] for a in axes): c for c in grid["cells"]}
    rows = values[axes[0]]
    columns = values[axes[1]] if len(axes) > 1 else [None]
    headings = [heading(axes[1], c) if len(axes) > 1 else "win rate" for c in columns]
    table = []
    for row in rows:
        entries = []
        for column in columns:
            cell = cells[(row,) if column is None else (row, column)]
            lo, hi = cell["ci95"]
            entries.append(
                f"{cell['win_rate']:.1%} ({lo:.0%}-{hi:.0%})\n{cell['turns']['mean']:.1f} turns"
            )
        table.append([str(row), *entries])
    console.print(
        fitted([Column(axes[0]), *(Column(h) for h in headings)], table, console.width)
    )
    console.print(
        "each cell: the win rate of the seats' bot, its 95% interval, and the mean game "
        "length in turns"
    )
    names = sorted({name for cell in grid["cells"] for name in cell["endings"]})
    ended = []
    for cell in grid["cells"]:
        label = ", ".join(heading(a, cell["cell"][a]) for a in axes)
        total = sum(cell["endings"].values()) or 1
        ended.append([label, *(f"{cell['endings'].get(n, 0) / total:.1%}" for n in names)])
    columns_ended = [Column("how the games ended"), *(Column(n) for n in names)]
    console.print(fitted(columns_ended, ended, console.width))


def heading(axis: str, value: Any) -> str:
    if axis == "players":
        return f"{value} player{'s' if value != 1 else ''}"
    if axis == "bot":
        return str(value)
    return f"{axis} {value}"
