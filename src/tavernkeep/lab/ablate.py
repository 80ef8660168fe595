"""`tavernkeep ablate`: which cards are strong, as causes, not as company.

"Those who completed the Dragon's Hoard win 60%" says who completed it, not what it did:
winners complete more quests of every kind. To tell what a card does, change only that
card and play the same games again. For each entry of a kind (`--field quest.reward`:
every [[quest]] and its reward; `--field leader.skill.bonus`: every Party Leader whose
skill's bonus is one number; any number sweep reaches in an entry, named as sweep names
it there, `tavernkeep pack params GAME --fields` listing them), ablate plays, on the same
seeds as the pack as it is:

- the entry with its number set to the kind's median (a neutral stand-in: the same card
  in the same place of every shuffle, worth what a middling card of its kind is worth);
- the entry with its number one `--step` higher.

The deck, the shuffles and the dice stay as they were, so each game is the same game until
a choice goes another way. What is compared, arm against arm:

- **The holders' win share, where the same seats hold it in both arms.** The seats that
  held the entry (`--holder`: a tally kind such as `quest completed`, or a seat fact such
  as `leader`) are read in each arm's game; in the games where the same seats held it in
  both, each holder's win share with the higher number less with the lower, averaged a
  game, with a 95% interval. Both arms of a seed are played, so these seats (who hold it
  whatever its number: the "always-holders" of principal stratification, Frangakis and
  Rubin 2002) are seen, not guessed. A paired difference over the holders of one arm
  alone is biased: a seat that held the card in the game as it is may not hold it once the
  change sends a choice another way, and it loses the luck that made it a holder (a
  stronger Dragon's Hoard read as costing its holders 33 points); compared as populations,
  holders chosen anew in each arm differ in who they are (a cheaper Barkeep's Challenge
  chosen by players behind read as weaker when made better).
- **How much it is held**: the holders a game, paired game by game (sound: the games, not
  the seats, are matched).
- **The game's length**, paired game by game.

An entry whose change leaves every game as it was (nobody can use it) reads "no effect".
Beside these, labelled as the correlation it is, the holders' win rate against everyone
else's in the game as it is.
"""

from __future__ import annotations

import contextlib
import copy
import difflib
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
from tavernkeep.lab.rows import SEAT_FACT, TALLY, column_name, held
from tavernkeep.lab.simulate import Batch, progress_bar, results_file, simulate_many
from tavernkeep.lab.stats import Z95
from tavernkeep.lab.sweep import (
    LISTING,
    Step,
    default_seats,
    get_number,
    hint,
    listing,
    load_raw,
    number_paths,
    parse_path,
    raw_pack,
    set_number,
)

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
    """The mean and a normal 95% interval of paired differences (games are many). In
    floats (numpy): `statistics.stdev` works in exact fractions, which cost seconds over
    a comparison's hundreds of cards by ten thousand games."""
    import numpy as np

    n = len(differences)
    if n == 0:
        return Paired(math.nan, math.nan, math.nan, 0)
    values = np.asarray(differences, dtype=np.float64)
    mean = float(values.mean())
    spread = float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return Paired(mean, mean - Z95 * spread, mean + Z95 * spread, n)


def entries_of(
    raw: dict[str, Any], field: str, listed: str = LISTING
) -> tuple[str, list[Step], list[Entry]]:
    """`quest.reward` -> ("quest", the path `reward`, every [[quest]] with a reward). The
    field is any number sweep reaches in one entry, named the same way:
    `leader.skill.bonus` (each Party Leader's bonus, where it is one number),
    `hero.effect[#1].count`. An entry without that number (a Leader whose skill has no
    bonus, or a bonus of several numbers where the path names one) is not ablated."""
    shape = f"--field '{field}': expected KIND.FIELD, e.g. quest.reward or leader.skill.bonus"
    try:
        path = parse_path(field)
    except ConfigError:
        raise ConfigError(shape) from None
    kind, rest = path[0], path[1:]
    if not rest:
        raise ConfigError(shape)
    if kind.name is not None or kind.number is not None:
        # Every entry of the kind is ablated, each against the same median: one entry is
        # --entry's to pick, not the path's.
        raise ConfigError(f"{shape} (no [...] after the kind: --entry NAME picks entries)")
    table = raw.get(kind.key)
    if not isinstance(table, list) or not table or not all(isinstance(e, dict) for e in table):
        lists = [k for k, v in raw.items() if isinstance(v, list) and v and isinstance(v[0], dict)]
        raise ConfigError(
            f"--field {field}: the pack has no list of '{kind.key}' entries"
            + hint(kind.key, lists, "its lists", listed)
        )
    inside = ".".join(str(step) for step in rest)
    found = []
    for i, entry in enumerate(table):
        try:
            value = get_number(entry, rest, inside)
        except ConfigError:
            continue  # this entry has no such number: nothing of its to ablate
        if value is not None:
            found.append(Entry(i, str(entry.get("name", f"#{i + 1}")), value))
    if len(found) < 2:
        # The fields the kind's entries do hold, for the one most likely meant.
        fields = list(dict.fromkeys(p for entry in table for p, _ in number_paths(entry)))
        raise ConfigError(
            f"--field {field}: fewer than two '{kind.key}' entries hold a number at "
            f"'{inside}'" + hint(inside, fields, "their numbers", listed)
        )
    return kind.key, rest, found


def ablate_fields(raw: dict[str, Any]) -> list[tuple[str, int]]:
    """Every `--field` ablate takes in a pack's raw TOML data, in the file's order, with
    how many entries hold a number there (`pack params --fields`): each number sweep names
    in an entry of a list, with the entry left out, wherever two entries or more hold it."""
    fields: list[tuple[str, int]] = []
    for kind, table in raw.items():
        if not isinstance(table, list) or not all(isinstance(e, dict) for e in table):
            continue
        for inside in dict.fromkeys(p for entry in table for p, _ in number_paths(entry)):
            rest = parse_path(inside)
            held = 0
            for entry in table:
                # Named as in another entry, a number may be absent here, or several.
                with contextlib.suppress(ConfigError):
                    held += get_number(entry, rest, inside) is not None
            if held >= 2:
                fields.append((f"{kind}.{inside}", held))
    return fields


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
    only: list[str] | None = None,
) -> dict[str, Any]:
    import pyarrow.parquet as pq

    game = get_game(game_name)
    if game.kind != "competitive":
        raise ConfigError(f"ablate: {game.name} is not competitive; every seat wins alike")
    pack_name, raw = raw_pack(game, pack)
    kind, rest, entries = entries_of(raw, field, listing(game.name, pack))
    inside = ".".join(str(step) for step in rest)
    column = holder_column(game, holder, field)
    # The median of every entry of the kind, whichever are ablated.
    median = statistics.median(e.value for e in entries)
    if only:
        names = [e.name for e in entries]
        missing = [n for n in only if n not in names]
        if missing:
            close = difflib.get_close_matches(missing[0], names, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f" (entries: {', '.join(names)})"
            raise ConfigError(f"--entry '{missing[0]}': no {kind} of that name{hint}")
        entries = [e for e in entries if e.name in only]
    integer = all(e.value == int(e.value) for e in entries) and step == int(step)
    table = tuple(seats or default_seats(game))
    batch_seed = random_seed() if seed is None else seed

    def number(value: float) -> int | float:
        return int(value) if integer else value

    batches = [Batch(game.name, table, options, pack, batch_seed, columns={"ablate": "as it is"})]
    variants: list[tuple[Entry, str, float]] = []
    for entry in entries:
        for variant, value in ((NEUTRAL, median), (STEP, entry.value + step)):
            if variant == NEUTRAL and number(value) == number(entry.value):
                continue  # already the median (as the pack writes it): its own stand-in
            changed = copy.deepcopy(raw)
            # By its place, not its name: two entries may share a name.
            at = [Step(kind, number=entry.index + 1), *rest]
            set_number(changed, at, number(value), field)
            label = f"{pack_name} with {kind}[{entry.name}].{inside}={number(value)}"
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

    def holding_in(games_: range, name_: str) -> dict[int, list[int]]:
        return {
            g: [s for s, cell in enumerate(holders[g]) if held(cell, name_)] for g in games_
        }

    results = []
    for entry in entries:
        holding = holding_in(base, entry.name)
        users = [(g, s) for g, seats_ in holding.items() for s in seats_]
        others = [(g, s) for g in base for s in range(len(table)) if s not in holding[g]]
        user_rate = statistics.fmean(shares[g][s] for g, s in users) if users else math.nan
        other_rate = statistics.fmean(shares[g][s] for g, s in others) if others else math.nan
        effects: dict[str, Any] = {}
        for b, (ventry, variant, value) in enumerate(variants, start=1):
            if ventry != entry:
                continue
            arm = block(b)
            holding_arm = holding_in(arm, entry.name)
            # Both read "what the card's number gives its holders": the card as it is
            # against its stand-in (as it is less stand-in), and the step against the card
            # as it is (stepped less as it is).
            if variant == NEUTRAL:
                high, low, high_at, low_at = holding, holding_arm, base, arm
            else:
                high, low, high_at, low_at = holding_arm, holding, arm, base
            lengths = [float(turns[h] - turns[lo]) for h, lo in zip(high_at, low_at, strict=True)]
            # The same seats held it in both arms: their win share, higher less lower.
            same = [
                statistics.fmean(shares[h][s] - shares[lo][s] for s in high[h])
                for h, lo in zip(high_at, low_at, strict=True)
                if high[h] and high[h] == low[lo]
            ]
            uses = [
                float(len(high[h]) - len(low[lo])) for h, lo in zip(high_at, low_at, strict=True)
            ]
            went_otherwise = sum(
                1
                for g, v in zip(base, arm, strict=True)
                if turns[g] != turns[v] or shares[g] != shares[v] or holding[g] != holding_arm[v]
            )
            effects[variant] = {
                "value": number(value),
                "holders_win": paired(same).to_json(),
                "held": paired(uses).to_json(),
                "turns": paired(lengths).to_json(),
                # Games that went otherwise than the pack as it is: none, and the entry's
                # number changed nothing anyone did.
                "games_changed": went_otherwise,
            }
        causal = verdict(effects.get(NEUTRAL), tolerance, number(entry.value) == number(median))
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
    order = {"strong": 0, "weak": 1, "neutral": 2, "no effect": 3, "unknown": 4}
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
    the tolerance and beyond the interval; weak: less; no effect: not one game went
    otherwise (nobody can use it, or its number changes nothing anyone does); neutral: the
    interval lies within the tolerance of no effect; unknown: too few games held it in
    either arm (MIN_HELD) or the interval straddles the tolerance."""
    if neutral is None:
        # Already the median of its kind (its stand-in is itself), or a stand-in the
        # pack's checks refused.
        return "neutral" if at_median else "unknown"
    if neutral.get("games_changed") == 0:
        return "no effect"
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
        Column("held a game, as it\nis vs the median", right=True),
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
                effect(row, NEUTRAL, "held", False),
                effect(row, NEUTRAL, "turns", False),
                row["verdict"],
                "-" if math.isnan(corr) else f"{corr:+.1%} (used by winners)" if corr > 0
                else f"{corr:+.1%}",
            ]
        )  # fmt: skip
    console.print(fitted(columns, rows, console.width))
    console.print(
        "cause: the change in the holders' win share when the entry is as it is rather than "
        "the median stand-in, over the games where the same seats held it either way (95% "
        "interval; the games are paired, the seats matched); held: holders a game; no "
        "effect: not one game went otherwise; correlation: how the seats that held it won "
        "beside the rest, which says who held it, not what it did"
    )
