"""`tavernkeep ablate`: which cards are strong, as causes, not as company.

"Those who completed the Dragon's Hoard win 60%" says who completed it, not what it did:
winners complete more quests of every kind. To tell what a card does, change only that
card and play the same games again. For each entry of a kind (`--field quest.reward`:
every [[quest]] and its reward), ablate plays, on the same seeds as the pack as it is:

- the entry with its number set to the kind's median (a neutral stand-in: the same card
  in the same place of every shuffle, worth what a middling card of its kind is worth);
- the entry with its number one `--step` higher.

The deck, the shuffles and the dice stay as they were, so each game is the same game until
a choice goes another way. The effect on a card's holders (the seats that held it in the
game as it is: `--holder`, a tally kind such as `quest completed`, or a seat fact such as
`leader`) is each game's difference in their win share, averaged over the games where
someone held it, with a 95% interval: a causal effect, paired game by game. Beside it,
labelled as the correlation it is, the holders' win rate against everyone else's.
"""

from __future__ import annotations

import copy
import json
import math
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavernkeep import build
from tavernkeep.engine.errors import ConfigError, ContentError
from tavernkeep.engine.game import Game
from tavernkeep.engine.rng import random_seed
from tavernkeep.games import get_game
from tavernkeep.lab.rows import SEAT_FACT, TALLY, column_name
from tavernkeep.lab.simulate import Batch, progress_bar, results_file, simulate_many
from tavernkeep.lab.stats import Z95
from tavernkeep.lab.sweep import default_seats, load_raw, raw_pack

MIN_HELD = 30
"""Games in which someone held an entry below which its verdict is "unknown": a paired
interval over a handful of games can be narrow by chance (all of them alike)."""
NEUTRAL, STEP = "neutral", "step"


@dataclass(frozen=True)
class Entry:
    """One card of the kind ablated: its name and its number as the pack has it."""

    index: int
    name: str
    value: float


@dataclass(frozen=True)
class Paired:
    """A mean of paired differences with its 95% interval, over `games` games."""

    mean: float
    low: float
    high: float
    games: int

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "ci95": [self.low, self.high], "games": self.games}


def paired(differences: list[float]) -> Paired:
    """The mean and a normal 95% interval of paired differences (games are many)."""
    n = len(differences)
    if n == 0:
        return Paired(math.nan, math.nan, math.nan, 0)
    mean = statistics.fmean(differences)
    spread = statistics.stdev(differences) / math.sqrt(n) if n > 1 else math.inf
    return Paired(mean, mean - Z95 * spread, mean + Z95 * spread, n)


def entries_of(raw: dict[str, Any], field: str) -> tuple[str, str, list[Entry]]:
    """`quest.reward` -> ("quest", "reward", every [[quest]] with a reward)."""
    kind, dot, name = field.partition(".")
    if not dot or not kind or not name or "." in name or "[" in field:
        raise ConfigError(f"--field '{field}': expected KIND.FIELD, e.g. quest.reward")
    table = raw.get(kind)
    if not isinstance(table, list) or not all(isinstance(e, dict) for e in table):
        lists = [k for k, v in raw.items() if isinstance(v, list) and v and isinstance(v[0], dict)]
        raise ConfigError(
            f"--field {field}: the pack has no list of '{kind}' entries "
            f"(its lists: {', '.join(lists) or 'none'})"
        )
    found = []
    for i, entry in enumerate(table):
        value = entry.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        found.append(Entry(i, str(entry.get("name", f"#{i + 1}")), float(value)))
    if len(found) < 2:
        raise ConfigError(f"--field {field}: fewer than two '{kind}' entries hold a '{name}'")
    return kind, name, found


def holder_column(game: Game[Any, Any], holder: str | None, field: str) -> str:
    """The results file's column that says who held an entry in a game."""
    facts = list(game.seat_facts)
    kinds = list(game.tally_kinds)
    if holder is None:
        raise ConfigError(
            f"ablate {field}: say who holds a card with --holder: a tally kind "
            f"({', '.join(kinds) or 'none'}) or a seat fact ({', '.join(facts) or 'none'})"
        )
    if holder in facts:
        return column_name(SEAT_FACT, holder)
    if holder in kinds:
        return column_name(TALLY, holder)
    raise ConfigError(
        f"--holder '{holder}': not a tally kind ({', '.join(kinds) or 'none'}) nor a seat "
        f"fact ({', '.join(facts) or 'none'}) of {game.name}"
    )


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


def run_ablate(
    game_name: str,
    field: str,
    holder: str | None,
    step: float,
    seats: list[str] | None,
    games: int,
    workers: int,
    seed: int | None,
    options: dict[str, Any],
    pack: str | None,
    tolerance: float,
    as_json: bool,
    ray: str | None = None,
) -> dict[str, Any]:
    import pyarrow.parquet as pq

    game = get_game(game_name)
    if game.kind != "competitive":
        raise ConfigError(f"ablate: {game.name} is not competitive; every seat wins alike")
    pack_name, raw = raw_pack(game, pack)
    kind, name, entries = entries_of(raw, field)
    column = holder_column(game, holder, field)
    median = statistics.median(e.value for e in entries)
    integer = all(e.value == int(e.value) for e in entries) and step == int(step)
    table = tuple(seats or default_seats(game))
    batch_seed = random_seed() if seed is None else seed

    def number(value: float) -> int | float:
        return int(value) if integer else value

    batches = [Batch(game.name, table, options, pack, batch_seed, columns={"ablate": "as it is"})]
    variants: list[tuple[Entry, str, float]] = []
    for entry in entries:
        for variant, value in ((NEUTRAL, median), (STEP, entry.value + step)):
            if variant == NEUTRAL and value == entry.value:
                continue  # already the median: its stand-in is itself
            changed = copy.deepcopy(raw)
            changed[kind][entry.index][name] = number(value)
            label = f"{pack_name} with {kind}[{entry.name}].{name}={number(value)}"
            try:
                loaded = load_raw(game, changed, label)
            except ContentError:
                continue  # a step the pack cannot take (over a bound): not played
            variants.append((entry, variant, value))
            batches.append(
                Batch(
                    game.name, table, options, pack, batch_seed, loaded,
                    columns={"ablate": f"{variant}:{entry.index}"},
                )
            )  # fmt: skip
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tavernkeep-ablate-") as folder:
        out = Path(folder) / "ablate.parquet"
        with progress_bar() as progress:
            task = progress.add_task(f"{game.name}: ablating {field}", total=games * len(batches))
            with results_file(out, batches, games) as rows:
                simulate_many(
                    batches, games, workers, lambda k: progress.advance(task, k), rows, ray
                )
        data = pq.read_table(out, columns=["win_share", "turns", column]).to_pydict()
    shares, turns, holders = data["win_share"], data["turns"], data[column]

    def block(b: int) -> range:
        return range(b * games, (b + 1) * games)

    base = block(0)
    results = []
    for entry in entries:
        holding = {
            g: [s for s, cell in enumerate(holders[g]) if held(cell, entry.name)] for g in base
        }
        users = [(g, s) for g, seats_ in holding.items() for s in seats_]
        others = [(g, s) for g in base for s in range(len(table)) if s not in holding[g]]
        user_rate = statistics.fmean(shares[g][s] for g, s in users) if users else math.nan
        other_rate = statistics.fmean(shares[g][s] for g, s in others) if others else math.nan
        effects: dict[str, Any] = {}
        for b, (ventry, variant, value) in enumerate(variants, start=1):
            if ventry != entry:
                continue
            # The card as it is against its stand-in (as it is minus stand-in), and the
            # step against the card as it is (stepped minus as it is): both read "what
            # the card's number gives its holders".
            sign = 1.0 if variant == NEUTRAL else -1.0
            diffs = []
            lengths = []
            for g, v in zip(base, block(b), strict=True):
                lengths.append(sign * (turns[g] - turns[v]))
                if holding[g]:
                    diffs.append(
                        sign * statistics.fmean(shares[g][s] - shares[v][s] for s in holding[g])
                    )
            effects[variant] = {
                "value": number(value),
                "holders_win": paired(diffs).to_json(),
                "turns": paired([float(x) for x in lengths]).to_json(),
            }
        causal = verdict(effects.get(NEUTRAL), tolerance, entry.value == median)
        row: dict[str, Any] = {
            "name": entry.name,
            "value": number(entry.value),
            "held_in": len({g for g, _ in users}),
            "holders_win_rate": user_rate,
            "others_win_rate": other_rate,
            "correlation": user_rate - other_rate if users and others else math.nan,
            "effects": effects,
            "verdict": causal,
        }
        results.append(row)
    order = {"strong": 0, "weak": 1, "neutral": 2, "unknown": 3}
    results.sort(key=lambda r: (order[str(r["verdict"])], -abs(_neutral_mean(r))))
    result = {
        "lab": "ablate",  # which lab answered: `report --add` reads it
        "game": game.name,
        "field": field,
        "holder": holder,
        "median": number(median),
        "step": number(step),
        "seats": list(table),
        "pack": pack_name,
        "games": games,
        "seed": batch_seed,
        "tolerance": tolerance,
        "workers": workers,
        "build": build(),
        "entries": results,
        "elapsed_seconds": round(time.perf_counter() - started, 3),
    }
    if as_json:
        print(json.dumps(plain(result)))
    else:
        print_ablate(result)
    return result


def plain(value: Any) -> Any:
    """JSON without NaN (an entry nobody held has no holders' rate): null instead."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def _neutral_mean(row: dict[str, Any]) -> float:
    effect = row["effects"].get(NEUTRAL)
    mean = effect["holders_win"]["mean"] if effect else 0.0
    return 0.0 if math.isnan(mean) else float(mean)


def verdict(neutral: dict[str, Any] | None, tolerance: float, at_median: bool) -> str:
    """strong: its holders win more, as it is, than with a middling stand-in, by more than
    the tolerance and beyond the interval; weak: less; neutral: the interval lies within
    the tolerance of no effect; unknown: too few games held it (MIN_HELD) or the
    interval straddles the tolerance."""
    if neutral is None:
        # Already the median of its kind (its stand-in is itself), or a stand-in the
        # pack's checks refused.
        return "neutral" if at_median else "unknown"
    effect = neutral["holders_win"]
    low, high = effect["ci95"]
    if effect["games"] < MIN_HELD or math.isnan(low):
        return "unknown"
    if low > tolerance:
        return "strong"
    if high < -tolerance:
        return "weak"
    if -tolerance <= low and high <= tolerance:
        return "neutral"
    return "unknown"


def print_ablate(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape

    from tavernkeep.terminal.tables import Column, fitted

    console = Console()
    console.print(
        f"[bold]{escape(result['game'])}[/]: {escape(result['field'])} ablated, held by "
        f"{escape(str(result['holder']))}; {result['games']:,} games each on the same seeds "
        f"(seed {result['seed']}), {result['workers']} worker(s), {result['build']} build, "
        f"{result['elapsed_seconds']:.1f} s"
    )
    columns = [
        Column("entry"),
        Column("value", right=True),
        Column(f"cause: holders' win\nvs the median {result['median']}", right=True),
        Column(f"+{result['step']}: holders' win", right=True),
        Column("turns, as it is\nvs the median", right=True),
        Column("verdict (paired)"),
        Column("correlation: holders\nwin vs others", right=True),
    ]

    def effect(row: dict[str, Any], variant: str, what: str, percent: bool) -> str:
        e = row["effects"].get(variant)
        if e is None or e[what]["games"] == 0:
            return "-"
        m, (lo, hi) = e[what]["mean"], e[what]["ci95"]
        if percent:
            return f"{m:+.1%}\n({lo:+.1%} to {hi:+.1%})"
        return f"{m:+.1f}\n({lo:+.1f} to {hi:+.1f})"

    rows = []
    for row in result["entries"]:
        corr = row["correlation"]
        rows.append(
            [
                escape(row["name"]),
                str(row["value"]),
                effect(row, NEUTRAL, "holders_win", True),
                effect(row, STEP, "holders_win", True),
                effect(row, NEUTRAL, "turns", False),
                row["verdict"],
                "-" if math.isnan(corr) else f"{corr:+.1%} (used by winners)" if corr > 0
                else f"{corr:+.1%}",
            ]
        )  # fmt: skip
    console.print(fitted(columns, rows, console.width))
    console.print(
        "cause: the change in the holders' win share, paired game by game, when the entry "
        "is as it is rather than the median stand-in (95% interval); correlation: how the "
        "seats that held it won beside the rest, which says who held it, not what it did"
    )
