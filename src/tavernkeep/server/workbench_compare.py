"""The workbench's "What does my change do?": a changed pack played against the pack it came
from, on the same seeds, in a worker process of its own (workbench_runs.py starts it).

The lab's comparison (lab/compare.py) plays both arms at once and says its result at the
end. Here the arms' blocks of games are played side by side (`simulate_many`'s
`interleave`), and as soon as both arms' first games reach a share of the whole
(`STEPS`) what they say is sent, while the pool plays on, so the page's charts fill in as
the intervals narrow; each step's result is the lab's own (`seat_rows`,
`card_rows`, `paired`), and its findings are the terminal's words (`seat_cells`,
`turns_text`, `card_tables`, `went_otherwise`, `interval`): each a line, each a row of
what it is about and what it says (`figures`, which the history sets side by side), and
the one the history lists the comparison by (`headline`).

The process lowers its own priority first (`NICE`): the tables on the same server come
first, and the comparison takes what CPU they leave. It leads a process group of its own,
so that cancelling it stops the processes it plays on too.
"""

from __future__ import annotations

import math
import os
import time
import tomllib
from collections import Counter
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from tavernkeep.engine.errors import TavernkeepError
from tavernkeep.games import get_game
from tavernkeep.lab.ablate import paired
from tavernkeep.lab.compare import (
    Arms,
    aligned_arms,
    card_rows,
    card_tables,
    change_text,
    games_changed,
    interval,
    pack_changes,
    rate,
    seat_cells,
    seat_rows,
    turns_text,
    went_otherwise,
)
from tavernkeep.lab.rows import SEAT_FACT, column_name
from tavernkeep.lab.simulate import Batch, simulate_many
from tavernkeep.lab.stats import Z95, wilson_interval
from tavernkeep.lab.sweep import load_raw

if TYPE_CHECKING:
    import pyarrow as pa

NICE = 10
"""How much lower than the server's the comparison's priority is: at 10 it gets about a
tenth of a core the tables want, and every idle cycle."""
STEPS = (0.05, 0.15, 0.3, 0.5, 0.75, 1.0)
"""After these shares of the games (both arms' first games, all in) the page is sent
what they say so far."""
PROGRESS_SECONDS = 0.25
"""The least time between two progress messages."""

Send = Callable[[tuple[Any, ...]], None]


def work(plan: dict[str, Any], out: Connection) -> None:
    """The worker process's whole life: play the plan, telling `out` how it goes:
    ("progress", games played), ("partial", games, result), then ("done", games, result)
    or ("failed", one line)."""
    os.setpgrp()
    os.nice(NICE)
    try:
        play(plan, out.send)
    except (BrokenPipeError, EOFError):
        return  # the server is gone: nobody to tell
    except TavernkeepError as exc:
        out.send(("failed", str(exc)))
    except Exception as exc:  # a bug: said in one line, not a traceback on the page
        out.send(("failed", f"the comparison failed: {type(exc).__name__}: {exc}"))
    finally:
        out.close()


def steps(games: int) -> list[int]:
    """The game counts after which a result is sent: the growing shares `STEPS` of the
    games (at least one game each), the last all of them."""
    return sorted({max(1, min(games, math.ceil(games * share))) for share in STEPS})


def play(plan: dict[str, Any], send: Send) -> None:
    game = get_game(plan["game"])
    raws, batches, names = [], [], []
    for arm in ("base", "changed"):
        name = str(plan[arm]["name"])
        raw = tomllib.loads(plan[arm]["toml"])
        loaded = load_raw(game, raw, name)
        raws.append(raw)
        names.append(name)
        seats, options, seed = tuple(plan["seats"]), plan["options"], plan["seed"]
        batches.append(Batch(game.name, seats, options, name, seed, loaded, columns={"arm": arm}))
    changes = pack_changes(raws[0], raws[1])
    games, workers = int(plan["games"]), int(plan["workers"])
    sink = ArmRows(game)
    started = time.perf_counter()
    played = 0
    last = 0.0

    def progress(count: int) -> None:
        nonlocal played, last
        played += count
        now = time.monotonic()
        if now - last >= PROGRESS_SECONDS:
            last = now
            send(("progress", played))

    marks = steps(games)

    def tell(upto: int) -> None:
        """What the first `upto` games of both arms say, sent to the page."""
        sink.upto = upto
        arms = aligned_arms(game, sink.table("base"), sink.table("changed"), list(seats))
        result = compare_result(game.name, sink, arms, changes, names)
        result.update(seed=plan["seed"], workers=workers)
        result["elapsed_seconds"] = round(time.perf_counter() - started, 3)
        send(("done" if upto == games else "partial", 2 * upto, finite(result)))

    def arrived(upto: int) -> None:
        # A step's result as soon as both arms' first games are in, while the rest play:
        # the pool never waits for the page's figures.
        while marks and marks[0] < games and upto >= marks[0]:
            tell(marks.pop(0))

    sink.arrived = arrived
    simulate_many(batches, games, workers, progress, sink, interleave=True)
    tell(games)


class ArmRows:
    """The games' rows as they come (the lab's `RowSink`), kept by arm in game order
    whatever order the blocks finish in."""

    def __init__(self, game: Any) -> None:
        self.facts = {fact: column_name(SEAT_FACT, fact) for fact in game.seat_facts}
        self.blocks: dict[str, dict[int, pa.Table]] = {"base": {}, "changed": {}}
        self.upto = 0
        """Games read (`table`, `column`): the first of each arm, both arms in."""
        self.arrived: Callable[[int], None] = lambda upto: None
        """Told, as blocks come in, how many first games both arms now hold."""

    def add(self, number: int, table: pa.Table) -> None:
        arm = str(table.column("arm")[0].as_py())
        self.blocks[arm][int(table.column("game_index")[0].as_py())] = table
        self.arrived(min(self.complete("base"), self.complete("changed")))

    def complete(self, arm: str) -> int:
        """How many first games of the arm are in, with no block missing before them."""
        upto = 0
        blocks = self.blocks[arm]
        while upto in blocks:
            upto += blocks[upto].num_rows
        return upto

    def table(self, arm: str) -> pa.Table:
        import pyarrow as pa

        first = pa.concat_tables(
            t for start, t in sorted(self.blocks[arm].items()) if start < self.upto
        )
        return first.slice(0, self.upto)

    def column(self, arm: str, name: str) -> list[Any]:
        return list(self.table(arm).column(name).to_pylist())


def compare_result(
    game: str, sink: ArmRows, arms: Arms, changes: list[dict[str, Any]], names: list[str]
) -> dict[str, Any]:
    """The lab's comparison of the games so far (lab/compare.py `run_compare`'s result,
    the same keys), with what the page draws (`charts`) and says (`findings`)."""
    touched = {str(c["entry"]) for c in changes if c["entry"] is not None}
    mine, moved = card_rows(arms, touched)
    before, after = sink.column("base", "turns"), sink.column("changed", "turns")
    result: dict[str, Any] = {
        "lab": "compare",
        "game": game,
        "base": names[0],
        "changed": names[1],
        "changes": [{**c, "text": change_text(c)} for c in changes],
        "games": len(before),
        "games_changed": games_changed(arms),
        "seats": seat_rows(arms),
        "turns": {
            "base": rate([float(t) for t in before]),
            "changed": rate([float(t) for t in after]),
            "difference": paired(
                [float(n - w) for w, n in zip(before, after, strict=True)]
            ).to_json(),
        },
        "touched": mine,
        "moved": moved,
    }
    players = len(result["seats"])
    labels = label_rows(sink, players)
    result["charts"] = charts(result, (before, after), labels)
    result["findings"] = findings(result, labels)
    result["figures"] = figures(result, labels)
    result["headline"] = headline(result, labels)
    return result


def label_rows(sink: ArmRows, players: int) -> list[dict[str, Any]]:
    """Each label of the game's seat facts (a Party Leader) in each arm: the seats that
    held it and their win rate with its Wilson interval, and the difference between the
    arms with a normal interval (unpaired: a label is dealt or chosen anew in each arm)."""
    out = []
    for fact, column in sink.facts.items():
        counted: list[Counter[str]] = []
        won: list[dict[str, float]] = []
        for arm in ("base", "changed"):
            held: Counter[str] = Counter()
            wins: dict[str, float] = {}
            for labels, shares in zip(
                sink.column(arm, column), sink.column(arm, "win_share"), strict=True
            ):
                for seat in range(players):
                    for label in labels[seat] or []:
                        held[label] += 1
                        wins[label] = wins.get(label, 0.0) + shares[seat]
            counted.append(held)
            won.append(wins)
        for label in sorted(set(counted[0]) | set(counted[1])):
            row: dict[str, Any] = {"fact": fact, "label": label}
            rates = []
            for arm, held, wins in zip(("base", "changed"), counted, won, strict=True):
                n, w = held[label], wins.get(label, 0.0)
                rates.append((w / n, n) if n else (math.nan, 0))
                row[arm] = {"seats": n, "rate": rates[-1][0], "ci95": list(wilson_interval(w, n))}
            (p, n), (q, m) = rates
            spread = math.sqrt(p * (1 - p) / n + q * (1 - q) / m) if n and m else math.nan
            mean = q - p
            row["difference"] = {
                "mean": mean,
                "ci95": [mean - Z95 * spread, mean + Z95 * spread],
                "games": min(n, m),
            }
            out.append(row)
    return out


def charts(
    result: dict[str, Any], turns: tuple[list[int], list[int]], labels: list[dict[str, Any]]
) -> dict[str, Any]:
    """What the page's charts draw, one row a mark: each seat's win rate in each arm with
    its Wilson interval; each card's users' win difference and use difference; each
    label's win rate in each arm; and how many games lasted how many turns, in each arm."""
    games = result["games"]
    seats = []
    for row in result["seats"]:
        for arm in ("base", "changed"):
            low, high = wilson_interval(row[arm] * games, games)
            seats.append(
                {
                    "seat": f"Seat {row['seat'] + 1} ({row['agent']})",
                    "arm": arm,
                    "rate": row[arm],
                    "low": low,
                    "high": high,
                }
            )
    cards = [
        {
            "card": f"{row['name']} ({row['kind']})",
            "touched": touched,
            "uses": row["uses"],
            "users_win": row["users_win"],
        }
        for touched, rows in ((True, result["touched"]), (False, result["moved"]))
        for row in rows
    ]
    label_marks = [
        {
            "label": row["label"],
            "fact": row["fact"],
            "arm": arm,
            "rate": row[arm]["rate"],
            "low": row[arm]["ci95"][0],
            "high": row[arm]["ci95"][1],
            "seats": row[arm]["seats"],
        }
        for row in labels
        for arm in ("base", "changed")
        if row[arm]["seats"]
    ]
    lengths = []
    for arm, lengths_of in zip(("base", "changed"), turns, strict=True):
        for length, count in sorted(Counter(lengths_of).items()):
            lengths.append({"arm": arm, "turns": length, "share": count / games})
    return {"seats": seats, "cards": cards, "labels": label_marks, "lengths": lengths}


def findings(result: dict[str, Any], labels: list[dict[str, Any]]) -> list[str]:
    """A line a finding, in the words `tavernkeep compare` prints them."""
    return [text if what is None else f"{what}: {text}" for what, text, _ in said(result, labels)]


def figures(result: dict[str, Any], labels: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The findings as rows of what each is about and what it says (`{what, text}`): what
    the history sets side by side, two comparisons' rows of one `what` in one line."""
    games, changed = result["games"], result["games_changed"]
    otherwise = f"{changed:,} of {games:,} ({changed / games:.0%})" if games else "-"
    return [
        {"what": "Games that went otherwise", "text": otherwise}
        if what is None
        else {"what": what, "text": text}
        for what, text, _ in said(result, labels)
    ]


def said(
    result: dict[str, Any], labels: list[dict[str, Any]]
) -> list[tuple[str | None, str, dict[str, Any] | None]]:
    """Each finding: what it is about (None for the games that went otherwise, a sentence
    of its own), what it says, and the difference in win rate it states (`{mean, ci95,
    games}`, paired or not), or None for one that states none (the game's length)."""
    out: list[tuple[str | None, str, dict[str, Any] | None]] = [
        (None, went_otherwise(result), None)
    ]
    for row, (seat, agent, base, changed, difference) in zip(
        result["seats"], seat_cells(result), strict=True
    ):
        what = f"Seat {seat} ({agent})"
        out.append((what, f"{base} → {changed}, {difference}", row["difference"]))
    out.append(("Turns a game", turns_text(result).removeprefix("Turns a game: "), None))
    # card_tables' tables are the touched cards' and the moved ones', each where it has rows.
    groups = [rows for rows in (result["touched"], result["moved"]) if rows]
    for full, (_, rows) in zip(groups, card_tables(result), strict=True):
        for row, (name, kind, uses, difference, users) in zip(full, rows, strict=True):
            text = f"{uses} uses a game, {difference}; its users' wins {users}"
            out.append((f"{name} ({kind})", text, row["users_win"]))
    for row in labels:
        if row["base"]["seats"] and row["changed"]["seats"]:
            text = (
                f"{row['base']['rate']:.1%} → {row['changed']['rate']:.1%}, "
                f"{interval(row['difference'], 100, ' points')}"
            )
            out.append((row["label"], text, row["difference"]))
    return out


def clear(effect: dict[str, Any] | None) -> bool:
    """Whether a difference's 95% interval leaves out zero (a finite one, of games)."""
    if effect is None or not effect.get("games"):
        return False
    low, high = effect["ci95"]
    if not all(isinstance(v, int | float) and math.isfinite(v) for v in (low, high)):
        return False
    return bool(low > 0 or high < 0)


def headline(result: dict[str, Any], labels: list[dict[str, Any]]) -> str:
    """The one finding a comparison is listed by in the history: the largest difference
    in win rate (a seat's, the users' of a card, a label's) whose 95% interval leaves out
    zero; where none does, the games that went otherwise, and that no win rate moved
    beyond its interval."""
    found = [
        (abs(float(effect["mean"])), f"{what}: {text}")
        for what, text, effect in said(result, labels)
        if effect is not None and clear(effect)
    ]
    if found:
        return max(found)[1]
    return f"{went_otherwise(result)} No win rate moved beyond its 95% interval."


def finite(value: Any) -> Any:
    """JSON a browser reads: no NaN or infinity (a card nobody used, an interval of one
    game), null instead."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value
