"""One row per game, built column-wise in the worker that plays the games.

A block of games fills flat Python lists (one value a game, or one a seat with the
offsets where each game's seats start) and becomes one Arrow table at its end: a few
appends a game, a vanishing cost beside playing it. The columns are described for
designers in RESULTS.md beside this file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tavernkeep.engine.game import Game, Result

if TYPE_CHECKING:
    import pyarrow as pa

SEAT_FACT = "fact_"
"""Prefix of the columns that hold a `Game.seat_facts` fact: the labels of each seat."""
SCORE_PART = "part_"
"""Prefix of the columns that hold a `Game.score_parts` part: a number a seat."""
TALLY = "tally_"
"""Prefix of the columns that hold a designer tally kind: a {name: count} map a seat."""
CELL = "cell_"
"""Prefix of the columns that hold a grid cell's value (Side Quest: cell_scenario)."""


def column_name(prefix: str, name: str) -> str:
    """A column name DuckDB and pandas take without quotes: 'card played' -> tally_card_played."""
    return prefix + "".join(c if c.isalnum() else "_" for c in name.lower())


def held(cell: Any, name: str) -> bool:
    """Whether a seat's cell of the holder column names the entry: a tally map (a list
    of (name, count) pairs as Arrow gives it) or a list of seat-fact labels."""
    if cell is None:
        return False
    for item in cell:
        if isinstance(item, tuple):
            if item[0] == name and item[1]:
                return True
        elif item == name:
            return True
    return False


class Rows:
    """The rows of one block of games of one batch, gathered column by column."""

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        pack: str,
        options: Mapping[str, Any],
        seats: Sequence[str],
        batch_seed: int,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        self.game_name = game.name
        self.pack = pack
        self.options = json.dumps(dict(options), sort_keys=True)
        self.seats = list(seats)
        self.batch_seed = batch_seed
        self.extra = dict(extra or {})
        """Constant columns for every row: a grid's cell values, a sweep's value."""
        self.seat_facts = tuple(game.seat_facts)
        self.score_parts = tuple(game.score_parts)
        self.tally_kinds = tuple(game.tally_kinds)
        self.index: list[int] = []
        self.seed: list[int] = []
        self.turns: list[int] = []
        self.actions: list[int] = []
        self.ending: list[str] = []
        self.won: list[bool | None] = []
        self.scores: list[float] = []
        self.ranks: list[int] = []
        self.share: list[float] = []
        self.winners: list[int] = []
        self.winner_offsets: list[int] = [0]
        self.facts: dict[str, list[list[str]]] = {f: [] for f in self.seat_facts}
        self.parts: dict[str, list[float]] = {p: [] for p in self.score_parts}
        # A tally kind as one map a seat-game: names, counts, and where each map starts.
        self.tally_names: dict[str, list[str]] = {k: [] for k in self.tally_kinds}
        self.tally_counts: dict[str, list[int]] = {k: [] for k in self.tally_kinds}
        self.tally_offsets: dict[str, list[int]] = {k: [0] for k in self.tally_kinds}

    def add(self, index: int, seed: int, result: Result, actions: int) -> None:
        self.index.append(index)
        self.seed.append(seed)
        self.turns.append(result.turns)
        self.actions.append(actions)
        self.ending.append(result.ending)
        self.won.append(result.won)
        self.scores.extend(result.scores)
        self.ranks.extend(result.ranks)
        winners = result.winners
        self.winners.extend(winners)
        self.winner_offsets.append(len(self.winners))
        share = [0.0] * len(result.scores)
        for seat in winners:
            # A victory shared by k seats counts 1/k to each, as in simulate's tallies.
            share[seat] = 1 / len(winners)
        self.share.extend(share)
        facts = result.facts
        for fact in self.seat_facts:
            for held in facts[fact]:
                self.facts[fact].append(
                    [str(label) for label in held] if isinstance(held, list) else [str(held)]
                )
        for part in self.score_parts:
            self.parts[part].extend(float(x) for x in facts[part])
        if self.tally_kinds:
            seats = len(result.scores)
            tally: Sequence[Mapping[str, Mapping[str, int]]] = facts.get("tally") or [{}] * seats
            for kind in self.tally_kinds:
                names, counts, offsets = (
                    self.tally_names[kind],
                    self.tally_counts[kind],
                    self.tally_offsets[kind],
                )
                for counted in tally:
                    held = counted.get(kind)
                    if held:
                        names.extend(held)
                        counts.extend(held.values())
                    offsets.append(len(names))

    def table(self) -> pa.Table:
        import pyarrow as pa

        games = len(self.index)
        players = len(self.seats)
        # Every game of a batch seats the same number of players.
        seat_offsets = pa.array(range(0, (games + 1) * players, players), pa.int32())

        def per_seat(values: pa.Array) -> pa.Array:
            return pa.ListArray.from_arrays(seat_offsets, values)

        def constant(value: Any, type_: pa.DataType) -> pa.Array:
            return pa.repeat(pa.scalar(value, type_), games)

        columns: dict[str, pa.Array] = {
            "game": constant(self.game_name, pa.string()),
            "pack": constant(self.pack, pa.string()),
            "options": constant(self.options, pa.string()),
            "batch_seed": constant(self.batch_seed, pa.int64()),
            "game_index": pa.array(self.index, pa.int64()),
            "game_seed": pa.array(self.seed, pa.int64()),
            "players": constant(players, pa.int8()),
            "seats": per_seat(pa.array(self.seats * games, pa.string())),
            "scores": per_seat(pa.array(self.scores, pa.float64())),
            "ranks": per_seat(pa.array(self.ranks, pa.int8())),
            "win_share": per_seat(pa.array(self.share, pa.float64())),
            "winners": pa.ListArray.from_arrays(
                pa.array(self.winner_offsets, pa.int32()), pa.array(self.winners, pa.int8())
            ),
            "won": pa.array(self.won, pa.bool_()),
            "turns": pa.array(self.turns, pa.int32()),
            "actions": pa.array(self.actions, pa.int32()),
            "ending": pa.array(self.ending, pa.string()),
        }
        for fact in self.seat_facts:
            labels = pa.array(self.facts[fact], pa.list_(pa.string()))
            columns[column_name(SEAT_FACT, fact)] = per_seat(labels)
        for part in self.score_parts:
            columns[column_name(SCORE_PART, part)] = per_seat(pa.array(self.parts[part]))
        for kind in self.tally_kinds:
            counts = pa.MapArray.from_arrays(
                pa.array(self.tally_offsets[kind], pa.int32()),
                pa.array(self.tally_names[kind], pa.string()),
                pa.array(self.tally_counts[kind], pa.int32()),
            )
            columns[column_name(TALLY, kind)] = per_seat(counts)
        for name, value in self.extra.items():
            columns[name] = constant(value, pa.scalar(value).type)
        return pa.table(columns)
