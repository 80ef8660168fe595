"""The numbers under every balance answer: a results file flattened to seat-games (one
seat in one game) and grouped with numpy over whole columns, so a million games break
down in seconds: win rates with Wilson intervals by seat, bot, label or setting, each
flagged by the one definition of out of balance (stats.off_balance), and per tallied
name its users, uses and their win rate against the others at the same bots.

Everything is counted over seat-games: a seat's win is its share of the victory (1/k
of a victory shared by k), or in a co-operative or solo game the team's win.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from tavernkeep.lab.added import pct
from tavernkeep.lab.results import ResultsError
from tavernkeep.lab.stats import TOLERANCE, off_balance, wilson_interval, wilson_intervals

Floats = np.ndarray[Any, np.dtype[np.float64]]
Ints = np.ndarray[Any, np.dtype[np.int64]]


def rate_text(successes: float, trials: int) -> str:
    """A rate with its 95% interval, "62.1% (61.2% – 63.0%)"; a dash without trials (a
    quest's success per attempt, in the pooled report and at each value of a sweep)."""
    if not trials:
        return "–"
    lo, hi = wilson_interval(successes, trials)
    return f"{pct(successes / trials)} ({pct(lo)} – {pct(hi)})"


@dataclass
class SeatGames:
    """The results file flattened to one entry per seat in each game."""

    games: int
    game: Ints
    """The row (game) of each seat-game."""
    seat: Ints
    spec: list[str]
    spec_code: Ints
    win: Floats
    fair: Floats
    team: bool
    turns: Ints = field(default_factory=lambda: np.zeros(0, np.int64))


@dataclass
class Group:
    label: str
    trials: int
    wins: float
    rate: float
    lo: float
    hi: float
    fair: float
    flagged: bool


def as_array(table: pa.Table, name: str) -> Any:
    return table.column(name).combine_chunks()


def seat_games(table: pa.Table, meta: dict[str, Any], path: Path) -> SeatGames:
    seats = as_array(table, "seats")
    offsets = np.asarray(seats.offsets, dtype=np.int64)
    players = np.diff(offsets)
    n = table.num_rows
    game = np.repeat(np.arange(n, dtype=np.int64), players)
    seat = np.arange(len(game), dtype=np.int64) - offsets[:-1][game]
    spec_code, spec = coded(seats.flatten())
    team = meta.get("kind", "competitive") != "competitive"
    if team:
        won = np.asarray(as_array(table, "won").fill_null(False), dtype=float)
        win = won[game]
    else:
        share = as_array(table, "win_share").flatten()
        win = np.asarray(share.fill_null(0.0), dtype=float)
    if len(win) != len(game):
        raise ResultsError(f"{path}: win_share does not hold one number a seat")
    turns = np.asarray(as_array(table, "turns"), dtype=np.int64)
    fair = 1.0 / players[game]
    return SeatGames(n, game, seat, spec, spec_code, win, fair, team, turns)


def group_by(
    codes: Ints,
    labels: list[str],
    win: Floats,
    fair: Floats,
    flag: bool = True,
    tolerance: float = TOLERANCE,
) -> list[Group]:
    """Win rates with intervals for each code; `flag` marks intervals off the fair share
    by more than `tolerance`."""
    size = len(labels)
    trials = np.bincount(codes, minlength=size)
    wins = np.bincount(codes, weights=win, minlength=size)
    fairs = np.bincount(codes, weights=fair, minlength=size) / np.maximum(trials, 1)
    lo, hi = wilson_intervals(wins, trials)
    groups = []
    for i, label in enumerate(labels):
        if trials[i] == 0:
            continue
        rate = wins[i] / trials[i]
        off = flag and off_balance(lo[i], hi[i], fairs[i], trials[i], tolerance) != 0
        groups.append(
            Group(label, int(trials[i]), float(wins[i]), rate, lo[i], hi[i], fairs[i], off)
        )
    return groups


def coded(values: Any) -> tuple[Ints, list[str]]:
    """A code for each value and the label of each code. Text columns are read already
    dictionary-encoded; row groups' dictionaries may repeat a label, so codes are
    renumbered over the distinct labels."""
    encoded = values if pa.types.is_dictionary(values.type) else pc.dictionary_encode(values)
    names = [str(v) for v in encoded.dictionary.to_pylist()]
    labels, renumber = np.unique(np.array(names, dtype=object), return_inverse=True)
    indices = np.asarray(encoded.indices.fill_null(0), dtype=np.int64)
    codes = renumber.astype(np.int64)[indices] if len(names) else indices
    return codes, [str(x) for x in labels]


# -- the sections ------------------------------------------------------------------------


def by_seat(sg: SeatGames, tolerance: float) -> list[Group]:
    seats = int(sg.seat.max()) + 1
    labels = [f"seat {i + 1}" for i in range(seats)]
    return group_by(sg.seat, labels, sg.win, sg.fair, tolerance=tolerance)


def by_bot(sg: SeatGames, tolerance: float) -> list[Group]:
    return group_by(sg.spec_code, sg.spec, sg.win, sg.fair, tolerance=tolerance)


def by_fact(table: pa.Table, sg: SeatGames, column: str, tolerance: float) -> list[Group]:
    per_seat = as_array(table, column).flatten()  # one list of labels a seat-game
    labels = per_seat.flatten()
    parent = np.asarray(pc.list_parent_indices(per_seat), dtype=np.int64)
    codes, names = coded(labels)
    return group_by(
        codes, names, sg.win[parent], sg.fair[parent], flag=not sg.team, tolerance=tolerance
    )


def by_setting(table: pa.Table, sg: SeatGames, column: str, tolerance: float) -> list[Group]:
    """Per value of a grid or sweep column (or the options): the team's win rate, or in
    a competitive game each seat's."""
    codes, names = coded(as_array(table, column))
    if sg.team:
        # The team wins or loses a game as one: count games, not seats.
        won = np.asarray(as_array(table, "won").fill_null(False), dtype=float)
        return group_by(codes, names, won, np.zeros(len(won)), flag=False)
    per = codes[sg.game]
    seats = int(sg.seat.max()) + 1
    combined = per * seats + sg.seat
    labels = [f"{name}, seat {s + 1}" for name in names for s in range(seats)]
    return group_by(combined, labels, sg.win, sg.fair, tolerance=tolerance)


NEVER = "Never came up in any game"
WINNING, LOSING = "goes with winning", "goes with losing"
"""A tallied entry's flags: a correlation, said once above the list (who used it, not
what it did), never repeated on each entry."""


@dataclass
class TallyRow:
    name: str
    users: int
    """Seat-games that counted it at least once."""
    share: float
    uses: int
    """Times counted over every game."""
    uses_per_game: float
    rate: float
    lo: float
    hi: float
    others: float
    flagged: str


def map_entries(maps: Any) -> tuple[Any, Any, Ints]:
    """The names, counts and owning map of every entry of a map array; `list_flatten`
    has no kernel for maps, and a map's children are not cut to a sliced array."""
    offsets = np.asarray(maps.offsets, dtype=np.int64)
    start, stop = int(offsets[0]), int(offsets[-1])
    keys = maps.keys.slice(start, stop - start)
    items = maps.items.slice(start, stop - start)
    parent = np.repeat(np.arange(len(maps), dtype=np.int64), np.diff(offsets))
    return keys, items, parent


def tally_rows(
    table: pa.Table, sg: SeatGames, column: str, known: list[str], tolerance: float = TOLERANCE
) -> list[TallyRow]:
    """One row a name of a tally kind: how many seat-games used it, how often, and the win
    rate of its users beside that of everyone else at the same bots: the others' rate at
    each bot, weighted by how many of the users that bot played."""
    maps = as_array(table, column).flatten()  # one {name: count} a seat-game
    if len(maps) != len(sg.win):
        raise ResultsError(f"{column}: does not hold one tally a seat")
    keys, items, parent = map_entries(maps)
    counts = np.asarray(items.fill_null(0), dtype=np.int64)
    used = counts > 0
    keys = keys.filter(pa.array(used))
    parent, counts = parent[used], counts[used]
    codes, names = coded(keys) if len(keys) else (np.zeros(0, np.int64), [])
    index = {name: i for i, name in enumerate(names)}
    every = names + [k for k in known if k not in index]
    size = len(every)
    users = np.bincount(codes, minlength=size)
    uses = np.bincount(codes, weights=counts, minlength=size)
    user_wins = np.bincount(codes, weights=sg.win[parent], minlength=size)
    lo, hi = wilson_intervals(user_wins, users)
    # The same by (name, bot): the others at a bot are that bot's seat-games less its users.
    bots = len(sg.spec)
    pair = codes * bots + sg.spec_code[parent]
    pair_users = np.bincount(pair, minlength=size * bots).reshape(size, bots)
    pair_wins = np.bincount(pair, weights=sg.win[parent], minlength=size * bots).reshape(size, bots)
    bot_games = np.bincount(sg.spec_code, minlength=bots)
    bot_wins = np.bincount(sg.spec_code, weights=sg.win, minlength=bots)
    rest_games = bot_games[None, :] - pair_users
    with np.errstate(invalid="ignore", divide="ignore"):
        rest_rate = (bot_wins[None, :] - pair_wins) / rest_games
    seat_games = len(sg.win)
    rows = []
    for i, name in enumerate(every):
        weights = pair_users[i] * (rest_games[i] > 0)
        others = (
            float((weights * np.nan_to_num(rest_rate[i])).sum() / weights.sum())
            if weights.sum()
            else float("nan")
        )
        # Against the others at the same bots, by the one definition of out of balance
        # (at least MIN_SAMPLE users): a handful of users is shown, never flagged.
        off = off_balance(lo[i], hi[i], others, users[i], tolerance) if weights.sum() else 0
        flag = WINNING if off > 0 else LOSING if off < 0 else ""
        rows.append(
            TallyRow(
                name,
                int(users[i]),
                users[i] / seat_games,
                int(uses[i]),
                uses[i] / sg.games,
                user_wins[i] / users[i] if users[i] else float("nan"),
                float(lo[i]),
                float(hi[i]),
                others,
                flag,
            )
        )
    rows.sort(key=lambda r: (-r.users, r.name))
    return rows


def length_summary(turns: Ints) -> dict[str, float]:
    ordered = np.sort(turns)
    games = len(ordered)

    def quantile(q: float) -> int:
        # The smallest length that at least q of the games do not exceed.
        return int(ordered[max(0, int(np.ceil(q * games)) - 1)])

    return {
        "mean": float(ordered.mean()),
        "median": quantile(0.5),
        "p90": quantile(0.9),
        "p99": quantile(0.99),
        "max": int(ordered[-1]),
    }
