"""Who used which card in each game of a comparison, as arrays.

A tally column (`tally_card_played`, say) holds, game by game, one `{name: count}` map a
seat. `compare` asks of every card three things a game: how many seats used it, whether
the same seats used it in both arms, and how those seats fared. Read into Python, 10,000
paired games of Here to Slay were some three million small tuples and took a fifth of the
whole comparison's time, after the games were played; read straight from Arrow into one
count array per arm (`games × seats × cards`), each question is a few array operations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


@dataclass(frozen=True)
class Uses:
    """One tally kind in both arms: `counts[arm][game, seat, card]` is how often that seat
    did that thing with that card in that game (0: not at all)."""

    names: list[str]
    before: np.ndarray
    after: np.ndarray

    @property
    def seats(self) -> int:
        return int(self.before.shape[1])

    def users(self, card: int) -> tuple[np.ndarray, np.ndarray]:
        """Each arm's `games × seats` truth of which seats used the card."""
        return self.before[:, :, card] > 0, self.after[:, :, card] > 0

    def differs(self) -> np.ndarray:
        """Each game: whether any seat's count of any card differs between the arms."""
        return np.asarray((self.before != self.after).any(axis=(1, 2)))


def _flat(column: Any) -> pa.Array:
    return column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column


def _spans(lists: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For a list array: each child's parent, its place in that list, and the range of
    children used, read from the offsets (Arrow's compute functions take no maps)."""
    offsets = np.asarray(lists.offsets.to_numpy(zero_copy_only=False), dtype=np.int64)
    lengths = np.diff(offsets)
    valid = np.asarray(lists.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
    lengths = np.where(valid, lengths, 0)  # a null list's span, if any, holds nothing
    parent = np.repeat(np.arange(len(lengths)), lengths)
    place = np.arange(len(parent), dtype=np.int64) - np.repeat(offsets[:-1] - offsets[0], lengths)
    children = offsets[0] + np.concatenate(([0], np.cumsum(lengths)[:-1]))
    child = np.repeat(children, lengths) + place
    return parent, place, child


def _entries(column: pa.Array) -> tuple[np.ndarray, np.ndarray, pa.Array, np.ndarray]:
    """Every (game, seat, name, count) of a list-of-maps column, as four arrays."""
    game, seat, cell = _spans(column)
    maps = column.values.take(pa.array(cell, pa.int64()))  # one map a (game, seat)
    owner, _, entry = _spans(maps)
    pairs = maps.values.take(pa.array(entry, pa.int64()))  # struct<key, value>
    names = pairs.field("key")
    counts = np.asarray(pairs.field("value").fill_null(0).to_numpy(zero_copy_only=False))
    return game[owner], seat[owner], names, counts


def read_uses(before: Any, after: Any, seats: int) -> Uses:
    """Both arms' column of one tally kind (game i of one beside game i of the other)."""
    columns = [_flat(before), _flat(after)]
    if len(columns[0]) != len(columns[1]):
        raise ValueError("both arms hold the same number of games")
    entries = [_entries(column) for column in columns]
    names = sorted(
        set(pc.unique(entries[0][2]).to_pylist()) | set(pc.unique(entries[1][2]).to_pylist())
    )
    dictionary = pa.array(names, pa.string())
    arrays = []
    for column, (game, seat, name, count) in zip(columns, entries, strict=True):
        dense = np.zeros((len(column), seats, len(names)), dtype=np.int32)
        card = pc.index_in(name, value_set=dictionary).to_numpy(zero_copy_only=False)
        # A map names a card once, so each cell is written once: no sums needed.
        dense[game, seat, card.astype(np.int64)] = count
        arrays.append(dense)
    return Uses(names=names, before=arrays[0], after=arrays[1])
