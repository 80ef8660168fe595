"""`tavernkeep sweep`: the same games played with each value of one number, to see how
balance moves before a card is printed.

What varies is named by a path into the pack's TOML, written as a designer reads the
file: `quest[The Dragon's Hoard].reward` (the [[quest]] entry whose name is The Dragon's Hoard),
`quest[#4].goal` (the fourth [[quest]]), `brag.goal` (a field of the [brag] table). An
array is named as the pack shows it: `leader[The Wild Hawk].skill.bonus` where the array
(`bonus = [1]`) holds one number, `skill.bonus[#2]` where it holds several (naming it
without the place is then an error that says how many there are); the same for an array
of one table. `tavernkeep pack params GAME` lists every number of a pack by the path that
names it (`number_paths`), and a name that is not there is one error line with the
closest name there is. The values are a list (`1,3,5`) or, as `tune` takes a range, every
integer from LOW to HIGH (`1..5`, at most MAX_SWEEP_VALUES).

Each value is written into the raw TOML data, which then goes through the game's own
pack loading, so a value the rules cannot take fails exactly as a designer's own pack
file would. A name that is a game option (`round_limit`, `players`, `scenario`) varies
that option instead. Every value plays the same game seeds, so the differences between
values are the change's effect and not the luck of different dice.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import json
import math
import re
import statistics
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavernkeep import build
from tavernkeep.engine.content import Pack, resolve_pack_path
from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.game import Game
from tavernkeep.engine.records import pack_from_data
from tavernkeep.engine.rng import random_seed
from tavernkeep.games import get_game
from tavernkeep.lab.simulate import (
    Batch,
    progress_bar,
    results_file,
    simulate_many,
    summarize,
)
from tavernkeep.lab.stats import Z95

SWEEP_COLUMN = "sweep_value"

LISTING = "tavernkeep pack params GAME"
"""The command that lists every number of a pack, as an error names it where the game is
not known (`listing` gives it for a game and pack)."""
MAX_SWEEP_VALUES = 50
"""Values a sweep's range may hold: each is a batch of every game, so a range of hundreds
is more likely a slip (1..500 for 1..5) than a plan."""
RANGE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)\s*$")


def listing(game: str, pack: str | None = None) -> str:
    """The command that lists every number of `game`'s pack, to quote in an error."""
    return f"tavernkeep pack params {game}" + (f" --pack {pack}" if pack else "")


def hint(word: str, known: list[str], what: str, listed: str) -> str:
    """The end of an error about a name that is not there: the closest name, or the names
    there are, and where to find them all."""
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    if close:
        return f"; did you mean '{close[0]}'? ({listed} lists every number)"
    shown = ", ".join(known[:8]) + (", ..." if len(known) > 8 else "")
    return f" ({what}: {shown or 'none'}; {listed} lists every number)"


def is_number(value: Any) -> bool:
    # TOML's true and false are bools, which Python counts as ints: never a number here.
    return isinstance(value, int | float) and not isinstance(value, bool)


def described(value: Any) -> str:
    """What a path names instead of a number, short enough for a one-line error."""
    if isinstance(value, dict):
        return f"a table ({', '.join(value)})"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def tables_or_numbers(items: list[Any]) -> bool:
    """Whether a path can name each of an array's items: all numbers or all tables (an
    array of arrays, Rage's hexes, holds numbers no path names)."""
    return all(is_number(v) for v in items) or all(isinstance(v, dict) for v in items)


def entry_step(key: str, items: list[dict[str, Any]], index: int) -> str:
    """How a path names the `index`th (from 0) table of the array `key`: by its name
    where the name is its own and a path can hold it, without brackets where it is the
    only one, else by its place."""
    name = items[index].get("name")
    names = [e.get("name") for e in items]
    if (
        isinstance(name, str)
        and name.strip() == name
        and name
        and not name.startswith("#")
        and "]" not in name
        and names.count(name) == 1
    ):
        return f"{key}[{name}]"
    if len(items) == 1:
        return key
    return f"{key}[#{index + 1}]"


def number_paths(node: dict[str, Any], prefix: str = "") -> list[tuple[str, int | float]]:
    """Every number in a pack's raw TOML data (or under one table of it), in the file's
    order, each with the path that sweep, tune and ablate name it by (`pack params`):
    an array holding one number is named without [#1], one holding several by place."""
    found: list[tuple[str, int | float]] = []
    for key, value in node.items():
        here = f"{prefix}.{key}" if prefix else key
        if is_number(value):
            found.append((here, value))
        elif isinstance(value, dict):
            found += number_paths(value, here)
        elif isinstance(value, list) and value and tables_or_numbers(value):
            if all(is_number(v) for v in value):
                if len(value) == 1:
                    found.append((here, value[0]))
                else:
                    found += [(f"{here}[#{i}]", v) for i, v in enumerate(value, start=1)]
                continue
            for i, entry in enumerate(value):
                step = entry_step(key, value, i)
                found += number_paths(entry, f"{prefix}.{step}" if prefix else step)
    return found


@dataclass(frozen=True)
class Step:
    """One step of a path: a key, and for an array of tables which entry."""

    key: str
    name: str | None = None
    number: int | None = None

    def __str__(self) -> str:
        if self.number is not None:
            return f"{self.key}[#{self.number}]"
        if self.name is not None:
            return f"{self.key}[{self.name}]"
        return self.key


def parse_path(text: str) -> list[Step]:
    """`quest[The Dragon's Hoard].reward` ->
    [Step('quest', name="The Dragon's Hoard"), Step('reward')].

    A name in brackets runs to the `]` that ends the step, so names may hold dots."""
    steps: list[Step] = []
    i = 0
    while True:
        j = i
        while j < len(text) and text[j] not in ".[":
            j += 1
        key = text[i:j].strip()
        if not key:
            raise ConfigError(
                f"'{text}': a part of the path is empty (expected e.g. quest[Name].reward)"
            )
        if j < len(text) and text[j] == "[":
            close = text.find("]", j)
            while close != -1 and close + 1 < len(text) and text[close + 1] != ".":
                close = text.find("]", close + 1)
            if close == -1:
                raise ConfigError(f"'{text}': '[' without a closing ']'")
            inside = text[j + 1 : close].strip()
            if not inside:
                raise ConfigError(f"'{text}': empty brackets after '{key}'")
            if inside.startswith("#"):
                try:
                    number = int(inside[1:])
                except ValueError:
                    raise ConfigError(
                        f"'{text}': '[{inside}]' is not an entry number like [#3]"
                    ) from None
                steps.append(Step(key, number=number))
            else:
                steps.append(Step(key, name=inside))
            j = close + 1
        else:
            steps.append(Step(key))
        if j >= len(text):
            return steps
        if text[j] != ".":
            raise ConfigError(f"'{text}': expected '.' after '{steps[-1]}'")
        i = j + 1


def locate(
    raw: dict[str, Any], path: list[Step], text: str, listed: str = LISTING
) -> tuple[Any, str | int]:
    """The table (or array) in a pack's raw TOML data that holds the number at `path`,
    and its key (or index) there: absent where the pack leaves the field at its default;
    an index where the path ends in an array of numbers (`skill.bonus[#1]`, or
    `skill.bonus` where the array holds one number). One clear error if the path names
    nothing there or something that is not one number; `listed` is the command that
    lists the pack's numbers, which the error quotes."""
    node: Any = raw
    where = ""
    for depth, step in enumerate(path):
        last = depth == len(path) - 1
        if not isinstance(node, dict):
            raise ConfigError(f"'{text}': {where} is not a table with fields")
        if step.key not in node:
            if last and step.name is None and step.number is None and where:
                # A field the pack leaves at its default: validation will say whether
                # the game knows it (and, if not, the field it most likely means).
                return node, step.key
            raise ConfigError(
                f"'{text}': no '{step.key}' in {where or 'the pack'}"
                + hint(step.key, list(node), "there", listed)
            )
        child = node[step.key]
        here = f"{where}.{step.key}" if where else step.key
        holder: Any = node
        slot: str | int = step.key
        if step.name is not None or step.number is not None:
            if not isinstance(child, list):
                raise ConfigError(
                    f"'{text}': '{here}' is {described(child)}, not a list to pick from"
                )
            if step.number is not None:
                if not 1 <= step.number <= len(child):
                    raise ConfigError(
                        f"'{text}': there is no {step.key} #{step.number} "
                        f"(the pack has {len(child)})"
                    )
                holder, slot = child, step.number - 1
                child = child[step.number - 1]
            else:
                tables = [e for e in child if isinstance(e, dict)]
                if not tables:
                    raise ConfigError(
                        f"'{text}': '{here}' holds no named entries: say which by its "
                        f"place, {here}[#1] to [#{len(child)}]"
                    )
                found = [e for e in tables if e.get("name") == step.name]
                if not found:
                    names = [str(e["name"]) for e in tables if "name" in e]
                    raise ConfigError(
                        f"'{text}': no {step.key} named '{step.name}'"
                        + hint(str(step.name), names, "names", listed)
                    )
                child = found[0]
            here = str(step) if not where else f"{where}.{step}"
        elif isinstance(child, list) and len(child) == 1:
            # One number (`bonus = [1]`) or one table (`effect = [{...}]`) in an array:
            # the path names it as the pack shows it, without [#1].
            holder, slot = child, 0
            child = child[0]
        elif isinstance(child, list) and len(child) > 1 and tables_or_numbers(child):
            # Several: which one is the designer's to say, never a silent first.
            if all(is_number(v) for v in child):
                shown = ", ".join(str(v) for v in child[:6]) + (", ..." if len(child) > 6 else "")
                what, by_name = f"{len(child)} numbers ({shown})", ""
            else:
                named = all(isinstance(e.get("name"), str) for e in child)
                what, by_name = f"{len(child)} entries", f" or {here}[Name]" if named else ""
            raise ConfigError(
                f"'{text}': '{here}' holds {what}: say which, {here}[#1] to "
                f"[#{len(child)}]{by_name}"
            )
        if last:
            if not is_number(child):
                raise ConfigError(f"'{text}': '{here}' holds {described(child)}, not a number")
            return holder, slot
        node = child
        where = here
    raise ConfigError(f"'{text}': an empty path")


def set_number(
    raw: dict[str, Any], path: list[Step], value: float, text: str, listed: str = LISTING
) -> None:
    """Write `value` at `path` in a pack's raw TOML data (see `locate`)."""
    node, key = locate(raw, path, text, listed)
    node[key] = value


def get_number(
    raw: dict[str, Any], path: list[Step], text: str, listed: str = LISTING
) -> float | None:
    """The number at `path` in a pack's raw TOML data; None where the pack leaves it at
    its default."""
    node, key = locate(raw, path, text, listed)
    value = node[key] if isinstance(key, int) else node.get(key)
    return None if value is None else float(value)


def pack_file_text(game: Game[Any, Any], source: str | None) -> tuple[str, str]:
    """A pack's name and its file's text, comments and all."""
    base = game.load_pack(source)
    _, path = resolve_pack_path(base.name, game.content_dir)
    return base.name, path.read_text(encoding="utf-8")


def raw_pack(game: Game[Any, Any], source: str | None) -> tuple[str, dict[str, Any]]:
    """A pack's name and its raw TOML data, as a designer's file holds it."""
    name, text = pack_file_text(game, source)
    return name, tomllib.loads(text)


def load_raw(game: Game[Any, Any], raw: dict[str, Any], label: str) -> Pack[Any]:
    """Raw TOML data loaded and validated the way the game loads any pack file; its
    errors name `label`, not the file written on the way (engine/records.py)."""
    return pack_from_data(game, raw, label)


def number(text: str, param: str) -> float:
    value = text.strip()
    try:
        return int(value)
    except ValueError:
        pass
    try:
        return float(value)
    except ValueError:
        raise ConfigError(f"--set {param}: '{value}' is not a number") from None


def edited_pack(
    game: Game[Any, Any], source: str | None, param: str, value: float, listed: str = LISTING
) -> Pack[Any]:
    """The pack `source` with the number at `param` set to `value`, loaded and validated
    the way the game loads any pack."""
    name, raw = raw_pack(game, source)
    set_number(raw, parse_path(param), value, param, listed)
    return load_raw(game, raw, f"{name} with {param}={value}")


def split_set(text: str) -> tuple[str, list[str]]:
    """`PARAM=v1,v2,...` or `PARAM=LOW..HIGH` (every integer from LOW to HIGH, as tune
    takes a range) -> PARAM and its values, as text."""
    param, sep, values = text.rpartition("=")
    if not sep or not param.strip():
        raise ConfigError(
            f"--set '{text}': expected PARAM=v1,v2,... or PARAM=LOW..HIGH, "
            "e.g. quest[Name].reward=1,2,3 or quest[Name].reward=1..5"
        )
    param = param.strip()
    found = RANGE.match(values)
    if found:
        low_text, high_text = found.groups()
        if "." in low_text or "." in high_text:
            # A sweep plays every value of its range: decimals have no "every", so they
            # are the designer's to list.
            raise ConfigError(
                f"--set {param}: a sweep's range LOW..HIGH is of whole numbers; list "
                f"decimals with commas, e.g. {param}=0.5,1,1.5"
            )
        low, high = int(low_text), int(high_text)
        if low > high:
            raise ConfigError(f"--set {param}: the range {values.strip()} is empty (LOW..HIGH)")
        if high - low + 1 > MAX_SWEEP_VALUES:
            raise ConfigError(
                f"--set {param}: the range {values.strip()} is {high - low + 1} values, each "
                f"a batch of every game; a sweep takes at most {MAX_SWEEP_VALUES}"
            )
        return param, [str(v) for v in range(low, high + 1)]
    items = [v.strip() for v in values.split(",")]
    if not any(items) or not all(items):
        raise ConfigError(f"--set '{text}': give the values after '=', separated by commas")
    return param, items


def sweep_batches(
    game: Game[Any, Any],
    param: str,
    values: list[str],
    seats: list[str] | None,
    seed: int,
    options: dict[str, Any],
    pack: str | None,
) -> tuple[list[Any], list[Batch]]:
    """The value each batch plays with, and the batches: every one seeded alike."""
    fields = game.config_model.model_fields
    batches: list[Batch] = []
    typed: list[Any] = []
    if param == "players" or ("." not in param and "[" not in param and param in fields):
        if param in options:
            raise ConfigError(f"--set {param} and --option {param} both set it: keep one")
        for text in values:
            value = option_value(text)
            typed.append(value)
            if param == "players":
                if not isinstance(value, int):
                    raise ConfigError(f"--set players: '{text}' is not a number of players")
                if seats is not None and len(seats) > 1:
                    raise ConfigError(
                        "--set players fills every seat with one bot: give at most one --seat"
                    )
                bot = seats[0] if seats else default_bot(game)
                batches.append(Batch(game.name, (bot,) * value, options, pack, seed))
            else:
                batches.append(
                    Batch(
                        game.name,
                        tuple(seats or default_seats(game)),
                        dict(options, **{param: value}),
                        pack,
                        seed,
                    )
                )
    else:
        listed = listing(game.name, pack)
        _, raw = raw_pack(game, pack)
        if "." not in param and "[" not in param and param not in raw:
            # A bare word may still be one of the pack's own top-level numbers (Rage's
            # `dawn`, the length of the night): anything else is a mistake to name, most
            # likely a slip of an option's or a number's name.
            known = [name for name in fields if name != "players"] + ["players"]
            close = difflib.get_close_matches(param, [*known, *raw], n=1, cutoff=0.6)
            raise ConfigError(
                f"--set {param}: not a game option nor a number in the pack"
                + (
                    f"; did you mean '{close[0]}'? ({listed} lists every number)"
                    if close
                    else f" (options: {', '.join(known)}; {listed} lists every number)"
                )
            )
        for text in values:
            value = number(text, param)
            typed.append(value)
            loaded = edited_pack(game, pack, param, value, listed)
            batches.append(
                Batch(game.name, tuple(seats or default_seats(game)), options, pack, seed, loaded)
            )
    # One column type for every value: numbers as numbers, anything else as text.
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in typed)
    for i, batch in enumerate(batches):
        column = float(typed[i]) if numeric else str(typed[i])
        batches[i] = dataclasses.replace(batch, columns={SWEEP_COLUMN: column})
    return typed, batches


def option_value(text: str) -> Any:
    """An option value as `--option` types it: yes/no, an integer, else text."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(low)
    except ValueError:
        return text.strip()


def default_bot(game: Game[Any, Any]) -> str:
    return "bot:heuristic" if game.heuristic_agent() is not None else "bot:random"


def default_seats(game: Game[Any, Any]) -> list[str]:
    """The game's usual table of bots: its own bot in every seat but, in a competitive
    game, the last, which the random baseline takes."""
    players = int(getattr(game.make_config({}), "players", game.min_players))
    bot = default_bot(game)
    if game.kind == "competitive":
        return [bot] * (players - 1) + ["bot:random"]
    return [bot] * players


def run_sweep(
    game_name: str,
    setting: str,
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

    game = get_game(game_name)
    param, texts = split_set(setting)
    batch_seed = random_seed() if seed is None else seed
    values, batches = sweep_batches(game, param, texts, seats, batch_seed, options, pack)
    entry = swept_entry(game, pack, param)
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        # The swept entry's own figures are read from the games' rows: written to --out,
        # or, without it, to a file of the run's own.
        written = out
        if written is None and entry is not None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="tavernkeep-sweep-"))
            written = Path(folder) / "sweep.parquet"
        with progress_bar() as progress:
            task = progress.add_task(f"{game.name}: sweeping {param}", total=games * len(batches))
            with results_file(written, batches, games, sweep=param) as rows:
                tallies = simulate_many(
                    batches, games, workers, lambda k: progress.advance(task, k), rows, ray
                )
        figures = (
            entry_figures(game, written, entry, len(batches), games)
            if entry is not None and written is not None
            else [[] for _ in batches]
        )
    steps = []
    for value, batch, tally, own in zip(values, batches, tallies, figures, strict=True):
        report = summarize(batch, tally, workers, 0.0)
        steps.append(
            {
                "value": value,
                # The entry the sweep changed, first: how it was used and how its users
                # won, at this value.
                "entry": own,
                "seats": report["seats"],
                "team": report["team"],
                "fair_share": report["fair_share"],
                "turns": report["turns"],
                "endings": report["endings"],
            }
        )
    result = {
        "game": game.name,
        "set": param,
        "entry": entry,
        "games_per_value": games,
        "seed": batch_seed,
        "pack": pack or "standard",
        "options": options,
        "values": steps,
        "workers": workers,
        "build": build(),
        "elapsed_seconds": round(time.perf_counter() - started, 3),
    }
    if out is not None:
        result["out"] = str(out)
    if as_json:
        print(json.dumps(result))
    else:
        print_sweep(result)
    return result


def swept_entry(game: Game[Any, Any], pack: str | None, param: str) -> str | None:
    """The name of the card a pack number belongs to (`quest[The Dragon's Hoard].reward`:
    The Dragon's Hoard; `leader[#2].skill.bonus`: the second leader's name), if any."""
    if "." not in param and "[" not in param:
        return None  # an option, or a number at the top of the pack: no card's
    first = parse_path(param)[0]
    if first.name is not None:
        return first.name
    _, raw = raw_pack(game, pack)
    table = raw.get(first.key)
    if not isinstance(table, list):
        return None
    if first.number is None and len(table) == 1:
        # The one entry of its kind, named without brackets as the pack shows it.
        named = table[0]
    elif first.number is not None and 0 < first.number <= len(table):
        named = table[first.number - 1]
    else:
        return None
    if isinstance(named, dict) and isinstance(named.get("name"), str):
        return str(named["name"])
    return None


def entry_figures(
    game: Game[Any, Any], path: Path, name: str, batches: int, games: int
) -> list[list[dict[str, Any]]]:
    """For each value (batch), the entry's own figures in each way the games count it (a
    tally kind, a seat fact): its users a game, and their win share with a 95% interval."""
    import pyarrow.parquet as pq

    from tavernkeep.lab.rows import SEAT_FACT, TALLY, column_name, held

    kinds = [(k, column_name(TALLY, k)) for k in game.tally_kinds]
    kinds += [(f, column_name(SEAT_FACT, f)) for f in game.seat_facts]
    data = pq.read_table(path, columns=["win_share", *(c for _, c in kinds)]).to_pydict()
    out: list[list[dict[str, Any]]] = []
    for b in range(batches):
        games_ = range(b * games, (b + 1) * games)
        figures = []
        for kind, column in kinds:
            shares = [
                data["win_share"][g][s]
                for g in games_
                for s, cell in enumerate(data[column][g])
                if held(cell, name)
            ]
            if not shares:
                continue
            mean = statistics.fmean(shares)
            spread = statistics.pstdev(shares) / math.sqrt(len(shares)) if len(shares) > 1 else 0
            figures.append(
                {
                    "kind": kind,
                    "users_a_game": len(shares) / games,
                    "users": len(shares),
                    "users_win": mean,
                    "ci95": [max(0.0, mean - Z95 * spread), min(1.0, mean + Z95 * spread)],
                }
            )
        out.append(figures)
    return out


def print_sweep(sweep: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape

    from tavernkeep.terminal.tables import Column, fitted

    console = Console()
    console.print(
        f"[bold]{escape(sweep['game'])}[/]: {escape(sweep['set'])} swept, "
        f"{sweep['games_per_value']:,} games a value (the same seeds for each), seed "
        f"{sweep['seed']}, {sweep['workers']} worker(s), {sweep['build']} build, "
        f"{sweep['elapsed_seconds']:.1f} s"
    )
    steps = sweep["values"]
    team = steps[0]["team"] is not None
    # Seats are named by position and bot; a players sweep changes how many there are.
    most = max(len(step["seats"]) for step in steps)
    seat_names = [
        f"seat {i + 1}"
        + (f"\n{steps[0]['seats'][i]['agent']}" if i < len(steps[0]["seats"]) else "")
        for i in range(most)
    ]
    # The line above names what was swept in full; a long name would widen the table.
    first = sweep["set"] if len(sweep["set"]) <= 10 else "value"
    headings = ["team win rate"] if team else seat_names
    columns = [
        Column(first),
        *(Column(h, right=True) for h in headings),
        Column("mean turns", right=True),
        Column("endings"),
    ]
    rows = []
    for step in steps:
        if team:
            t = step["team"]
            cells = [f"{t['win_rate']:.1%}\n({t['ci95'][0]:.1%}-{t['ci95'][1]:.1%})"]
        else:
            cells = []
            for i in range(most):
                if i >= len(step["seats"]):
                    cells.append("")
                    continue
                s = step["seats"][i]
                cells.append(f"{s['win_rate']:.1%}\n({s['ci95'][0]:.1%}-{s['ci95'][1]:.1%})")
        total = sum(step["endings"].values()) or 1
        endings = "\n".join(f"{k} {v / total:.0%}" for k, v in step["endings"].items())
        rows.append([str(step["value"]), *cells, f"{step['turns']['mean']:.1f}", endings])
    entry = sweep.get("entry")
    kinds = [f["kind"] for f in steps[0]["entry"]] if entry else []
    if kinds:
        # The swept entry's own figures first: what the change did to the card itself.
        console.print(f"[bold]{escape(str(entry))}[/], value by value")
        own_rows = []
        for step in steps:
            by = {f["kind"]: f for f in step["entry"]}
            cells = []
            for kind in kinds:
                f = by.get(kind)
                cells.append(
                    "-"
                    if f is None
                    else f"{f['users_a_game']:.2f} a game\nwin {f['users_win']:.1%} "
                    f"({f['ci95'][0]:.1%}-{f['ci95'][1]:.1%})"
                )
            own_rows.append([str(step["value"]), *cells])
        own_columns = [Column(first), *(Column(k, right=True) for k in kinds)]
        console.print(fitted(own_columns, own_rows, console.width))
        console.print(
            "each way the games count it: its users a game, and their win rate (95%); "
            "users win as company too (winners do more of everything): read the change "
            "from value to value, or ask ablate for a cause"
        )
    console.print(fitted(columns, rows, console.width))
    if not team:
        console.print("each seat: its win rate and 95% interval (a shared victory counts 1/k)")
