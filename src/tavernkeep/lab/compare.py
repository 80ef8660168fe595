"""`tavernkeep compare`: what a designer's change did, difference by difference.

A designer changes a card in a copy of a pack and asks what that did. `compare` plays the
pack as it was (BASE) and as changed (CHANGED) on the same seeds (or reads two results
files that `simulate --out` wrote on the same seeds), so each game is the same game until
the change first matters, and states every difference with its 95% interval:

- **What changed**, read from the two packs' files: `quest[The Dragon's Hoard].reward:
  8 → 9`.
- **Each seat's win rate**, in each and paired game by game (the seats are the same
  seats: sound).
- **The game's length** (turns), paired.
- **Each card the change touched, first**: how often it is used a game (paired), and the
  win share of the seats that use it in both games of a seed (the seats matched as the
  games are: ablate.py says why not its users in one arm alone). Then every other card
  whose use moved beyond its interval.

The paired interval is normal (games are many): mean ± 1.96 standard errors of the
per-game differences.
"""

from __future__ import annotations

import contextlib
import json
import math
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavernkeep import build
from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.game import Game
from tavernkeep.engine.rng import random_seed
from tavernkeep.games import get_game
from tavernkeep.lab.ablate import paired, plain
from tavernkeep.lab.rows import TALLY, column_name
from tavernkeep.lab.simulate import Batch, MemoryRows, progress_bar, simulate_many
from tavernkeep.lab.stats import Z95
from tavernkeep.lab.sweep import default_seats, load_raw, raw_pack
from tavernkeep.lab.uses import Uses, read_uses

MOVED_SHOWN = 12
"""Cards the change did not touch but whose use moved, listed at most (the largest)."""


@dataclass(frozen=True)
class Arms:
    """Both arms' games, game i of one beside game i of the other (the same seed)."""

    seeds: list[int]
    shares: tuple[list[list[float]], list[list[float]]]
    turns: tuple[list[int], list[int]]
    tallies: dict[str, Uses]
    """Each tally kind: who used which card, game by game, in each arm (uses.py)."""
    seats: list[str]


# -- what changed -----------------------------------------------------------------------------


def pack_changes(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """Every difference between two packs' TOML data, as a designer names it: a list of
    named tables by name (`quest[The Dragon's Hoard].reward`), anything else by its key."""
    out: list[dict[str, Any]] = []

    def walk(a: Any, b: Any, where: str, entry: str | None) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for key in [*a, *(k for k in b if k not in a)]:
                place = f"{where}.{key}" if where else str(key)
                if key not in b:
                    out.append({"where": place, "before": a[key], "after": None, "entry": entry})
                elif key not in a:
                    out.append({"where": place, "before": None, "after": b[key], "entry": entry})
                else:
                    walk(a[key], b[key], place, entry)
            return
        if _named(a) and _named(b):
            olds = {e["name"]: e for e in a}
            news = {e["name"]: e for e in b}
            for name in [*olds, *(n for n in news if n not in olds)]:
                place = f"{where}[{name}]"
                if name not in news:
                    gone = {"where": place, "before": "(an entry)", "after": None}
                    out.append({**gone, "entry": name})
                elif name not in olds:
                    new = {"where": place, "before": None, "after": "(an entry)"}
                    out.append({**new, "entry": name})
                else:
                    walk(olds[name], news[name], place, name)
            return
        if a != b:
            out.append({"where": where, "before": a, "after": b, "entry": entry})

    walk(before, after, "", None)
    return out


def _named(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(e, dict) and isinstance(e.get("name"), str) for e in value)
        and len({e["name"] for e in value}) == len(value)
    )


def change_text(change: dict[str, Any]) -> str:
    def shown(value: Any) -> str:
        return "(none)" if value is None else json.dumps(value, ensure_ascii=False)

    return f"{change['where']}: {shown(change['before'])} → {shown(change['after'])}"


# -- playing or reading both arms ------------------------------------------------------------


def checked_pack(source: str, game_name: str | None) -> tuple[Game[Any, Any], Any]:
    """A pack file loaded by its game (named, or the one game that loads it), or one line
    that points at the fix: its mistake, or whose pack it is where another game's."""
    from tavernkeep.engine.errors import ContentError
    from tavernkeep.games import all_games

    if not Path(source).is_file():
        raise ConfigError(f"{source}: no such pack file")
    wanted = get_game(game_name) if game_name is not None else None
    if wanted is not None:
        # The named game's pack, as a rule: loaded once, no other game asked.
        with contextlib.suppress(ContentError, ConfigError):
            return wanted, wanted.load_pack(source)
    fits = []
    for game in all_games():
        try:
            fits.append((game, game.load_pack(source)))
        except (ContentError, ConfigError):
            continue
    if wanted is not None:
        if fits:
            other = fits[0][0]
            raise ConfigError(
                f"{source}: this is a {other.title} pack; {wanted.name} needs its own "
                f"(tavernkeep pack export {wanted.name} --to FILE)"
            )
        wanted.load_pack(source)  # the game's own one line: the mistake, where it is
        raise ConfigError(f"{source}: not a {wanted.title} pack")
    if len(fits) == 1:
        return fits[0]
    names = ", ".join(g.name for g in all_games())
    if not fits:
        raise ConfigError(
            f"{source}: no game loads this pack; say whose it is with --game ({names}) for "
            "its first mistake"
        )
    raise ConfigError(f"{source}: a pack several games load; say whose with --game ({names})")


def pack_game(source: str) -> str:
    """The game a pack file is for: the one game that loads it. A built-in name, or a
    file no game or several games load, asks for --game in one line."""
    if not Path(source).suffix:
        raise ConfigError(f"compare: '{source}' is a built-in pack name: say whose with --game")
    return checked_pack(source, None)[0].name


def is_results(source: str) -> bool:
    return source.lower().endswith(".parquet")


def play_arms(
    game: Game[Any, Any],
    base: str,
    changed: str,
    seats: list[str],
    games: int,
    workers: int,
    seed: int,
    options: dict[str, Any],
    ray: str | None,
) -> tuple[Arms, list[dict[str, Any]], tuple[str, str]]:

    named: list[str] = []
    raws: list[dict[str, Any]] = []
    batches: list[Batch] = []
    for arm, source in (("base", base), ("changed", changed)):
        name, raw = raw_pack(game, source)
        loaded = load_raw(game, raw, name)
        named.append(name)
        raws.append(raw)
        batches.append(
            Batch(game.name, tuple(seats), options, source, seed, loaded, columns={"arm": arm})
        )
    # The games' rows stay in memory, base then changed (the batches' order): a file
    # written and read back cost the main process a second it shares with the workers.
    rows = MemoryRows()
    with progress_bar() as progress:
        task = progress.add_task(f"{game.name}: both packs", total=games * 2)
        simulate_many(batches, games, workers, lambda k: progress.advance(task, k), rows, ray)
    table = rows.table()
    arms = aligned_arms(game, table.slice(0, games), table.slice(games), seats)
    return arms, pack_changes(raws[0], raws[1]), (named[0], named[1])


def aligned_arms(game: Game[Any, Any], before: Any, after: Any, seats: list[str]) -> Arms:
    """Both arms from their rows (Arrow tables), game i of one beside game i of the other:
    played on the same seeds, as `play_arms` and the workbench play them."""
    kinds = {kind: column_name(TALLY, kind) for kind in game.tally_kinds}
    plain = ["game_seed", "win_share", "turns"]
    a, b = before.select(plain).to_pydict(), after.select(plain).to_pydict()
    assert a["game_seed"] == b["game_seed"], "both arms are dealt from one seed"
    return Arms(
        seeds=a["game_seed"],
        shares=(a["win_share"], b["win_share"]),
        turns=(a["turns"], b["turns"]),
        tallies={
            kind: read_uses(before.column(c), after.column(c), len(seats))
            for kind, c in kinds.items()
        },
        seats=list(seats),
    )


def read_arms(base: str, changed: str) -> tuple[Game[Any, Any], Arms, tuple[str, str]]:
    """Two results files of one game, played on the same seeds: game i of one beside the
    game of the other with the same seed."""
    from tavernkeep.lab.results import read_results

    tables = []
    for source in (base, changed):
        table, meta = read_results(source)
        tables.append((table, meta))
    (table_a, meta_a), (table_b, meta_b) = tables
    if meta_a.get("game") != meta_b.get("game"):
        raise ConfigError(
            f"compare: {base} is {meta_a.get('game')} and {changed} is {meta_b.get('game')}: "
            "compare two results of one game"
        )
    game = get_game(str(meta_a["game"]))
    plain_columns = ["game_seed", "seats", "win_share", "turns"]
    a = table_a.select(plain_columns).to_pydict()
    b = table_b.select(plain_columns).to_pydict()
    by_seed = {seed: i for i, seed in enumerate(b["game_seed"])}
    pairs = [(i, by_seed[seed]) for i, seed in enumerate(a["game_seed"]) if seed in by_seed]
    if not pairs:
        raise ConfigError(
            f"compare: {base} and {changed} share no seed: play both with the same --seed "
            "(simulate --seed N --out ...), or give compare the two packs to play"
        )
    if a["seats"][pairs[0][0]] != b["seats"][pairs[0][1]]:
        raise ConfigError(f"compare: {base} and {changed} seat other bots: compare like with like")

    def split(column: str) -> tuple[list[Any], list[Any]]:
        return [a[column][i] for i, _ in pairs], [b[column][j] for _, j in pairs]

    columns = {k: column_name(TALLY, k) for k in game.tally_kinds}
    kinds = {
        k: c for k, c in columns.items() if c in table_a.column_names and c in table_b.column_names
    }
    seats = list(a["seats"][pairs[0][0]])
    rows_a = [i for i, _ in pairs]
    rows_b = [j for _, j in pairs]
    arms = Arms(
        seeds=[a["game_seed"][i] for i in rows_a],
        shares=split("win_share"),
        turns=split("turns"),
        tallies={
            kind: read_uses(
                table_a.column(c).take(rows_a), table_b.column(c).take(rows_b), len(seats)
            )
            for kind, c in kinds.items()
        },
        seats=seats,
    )
    packs = (str(meta_a.get("pack", "?")), str(meta_b.get("pack", "?")))
    return game, arms, packs


# -- the differences --------------------------------------------------------------------------


def rate(values: list[float]) -> float:
    return statistics.fmean(values) if values else math.nan


def seat_rows(arms: Arms) -> list[dict[str, Any]]:
    before, after = arms.shares
    out = []
    for seat, agent in enumerate(arms.seats):
        was = [g[seat] for g in before]
        now = [g[seat] for g in after]
        out.append(
            {
                "seat": seat,
                "agent": agent,
                "base": rate(was),
                "changed": rate(now),
                "difference": paired([n - w for w, n in zip(was, now, strict=True)]).to_json(),
            }
        )
    return out


def card_row(arms: Arms, kind: str, uses: Uses, card: int, gain: Any) -> dict[str, Any]:
    """One card of one tally kind: its users a game in each arm (paired), and the win
    share of the seats that used it in both games of a seed. `gain` is each game's
    change of each seat's win share (`games × seats`)."""
    users_before, users_after = uses.users(card)
    count_before = users_before.sum(axis=1)
    count_after = users_after.sum(axis=1)
    same = (count_before > 0) & (users_before == users_after).all(axis=1)
    users_gain = (gain * users_before).sum(axis=1)[same] / count_before[same]
    return {
        "kind": kind,
        "name": uses.names[card],
        "uses_base": rate(count_before.astype(float).tolist()),
        "uses_changed": rate(count_after.astype(float).tolist()),
        "uses": paired((count_after - count_before).astype(float).tolist()).to_json(),
        "users_win": paired(users_gain.tolist()).to_json(),
    }


def card_rows(arms: Arms, touched: set[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The cards the change touched (every tally kind that counts them), and the others
    whose use moved beyond their interval, the largest moves first. Uses are counted for
    every card at once (numpy); a card's whole row only where it is shown."""
    import numpy as np

    gain = np.asarray(arms.shares[1], dtype=float) - np.asarray(arms.shares[0], dtype=float)
    mine, moved = [], []
    for kind, uses in arms.tallies.items():
        users_before = (uses.before > 0).sum(axis=1)  # games × cards
        users_after = (uses.after > 0).sum(axis=1)
        change = (users_after - users_before).astype(float)
        games = len(change)
        mean = change.mean(axis=0)
        spread = change.std(axis=0, ddof=1) / math.sqrt(games) if games > 1 else mean
        used = users_before.any(axis=0) | users_after.any(axis=0)
        for card, name in enumerate(uses.names):
            if not used[card]:
                continue
            if name in touched:
                mine.append(card_row(arms, kind, uses, card, gain))
            elif abs(mean[card]) > Z95 * spread[card]:
                moved.append((abs(float(mean[card])), kind, card))
    moved.sort(key=lambda m: -m[0])
    shown = [
        card_row(arms, kind, arms.tallies[kind], card, gain)
        for _, kind, card in moved[:MOVED_SHOWN]
    ]
    return mine, shown


def games_changed(arms: Arms) -> int:
    """Games that went otherwise: anything kept of them differs between the arms (who
    won, the length, a card's use). None did: the change made no difference to them."""
    before_turns, after_turns = arms.turns
    differs = [uses.differs() for uses in arms.tallies.values()]
    return sum(
        1
        for g in range(len(arms.seeds))
        if arms.shares[0][g] != arms.shares[1][g]
        or before_turns[g] != after_turns[g]
        or any(bool(d[g]) for d in differs)
    )


def run_compare(
    game_name: str | None,
    base: str,
    changed: str,
    seats: list[str] | None,
    games: int,
    workers: int,
    seed: int | None,
    options: dict[str, Any],
    as_json: bool,
    html: Path | None = None,
    ray: str | None = None,
) -> dict[str, Any]:
    started = time.perf_counter()
    if is_results(base) != is_results(changed):
        raise ConfigError(
            "compare: give two packs to play, or two results files (.parquet) to read, "
            "not one of each"
        )
    if is_results(base):
        game, arms, packs = read_arms(base, changed)
        changes: list[dict[str, Any]] = []
        batch_seed = None
    else:
        if game_name is None:
            raise ConfigError("compare: name the game of the two packs with --game")
        game = get_game(game_name)
        table = list(seats or default_seats(game))
        batch_seed = random_seed() if seed is None else seed
        arms, changes, packs = play_arms(
            game, base, changed, table, games, workers, batch_seed, options, ray
        )
    touched = {str(c["entry"]) for c in changes if c["entry"] is not None}
    mine, moved = card_rows(arms, touched)
    before_turns, after_turns = arms.turns
    changed_games = games_changed(arms)
    result = {
        "lab": "compare",
        "game": game.name,
        "base": packs[0],
        "changed": packs[1],
        "changes": [{**c, "text": change_text(c)} for c in changes],
        "games": len(arms.seeds),
        "games_changed": changed_games,
        "seed": batch_seed,
        "seats": seat_rows(arms),
        "turns": {
            "base": rate([float(t) for t in before_turns]),
            "changed": rate([float(t) for t in after_turns]),
            "difference": paired(
                [float(n - w) for w, n in zip(before_turns, after_turns, strict=True)]
            ).to_json(),
        },
        "touched": mine,
        "moved": moved,
        "workers": workers,
        "build": build(),
        "elapsed_seconds": round(time.perf_counter() - started, 3),
    }
    if html is not None:
        html.write_text(compare_html(result), encoding="utf-8")
    if as_json:
        print(json.dumps(plain(result)))
    else:
        print_compare(result, html)
    return result


# -- saying it --------------------------------------------------------------------------------


def interval(effect: dict[str, Any], scale: float, unit: str, places: int = 1) -> str:
    """'+3.6 points [+1.2, +6.0]'; '-' where no game had it."""
    if not effect["games"] or math.isnan(effect["mean"]):
        return "-"
    low, high = effect["ci95"]
    mean = f"{effect['mean'] * scale:+.{places}f}{unit}"
    if math.isinf(low):
        return f"{mean} (1 game)"
    return f"{mean} [{low * scale:+.{places}f}, {high * scale:+.{places}f}]"


def seat_cells(result: dict[str, Any]) -> list[list[str]]:
    """Each seat's row, as text: both front-ends (terminal, page) show the same cells."""
    return [
        [
            str(row["seat"] + 1),
            row["agent"],
            f"{row['base']:.1%}",
            f"{row['changed']:.1%}",
            interval(row["difference"], 100, " points"),
        ]
        for row in result["seats"]
    ]


def card_tables(result: dict[str, Any]) -> list[tuple[str, list[list[str]]]]:
    """The touched cards and the others whose use moved, each a titled table of text rows;
    a table with no row is left out."""
    tables = []
    for title, rows in (
        ("The cards the change touched", result["touched"]),
        ("Other cards whose use moved", result["moved"]),
    ):
        if rows:
            cells = [
                [
                    row["name"],
                    row["kind"],
                    f"{row['uses_base']:.2f} → {row['uses_changed']:.2f}",
                    interval(row["uses"], 1, "", 2),
                    interval(row["users_win"], 100, " points"),
                ]
                for row in rows
            ]
            tables.append((title, cells))
    return tables


def turns_text(result: dict[str, Any]) -> str:
    turns = result["turns"]
    return (
        f"Turns a game: {turns['base']:.1f} → {turns['changed']:.1f}, "
        f"{interval(turns['difference'], 1, '')}"
    )


def print_compare(result: dict[str, Any], html: Path | None) -> None:
    from rich.console import Console
    from rich.markup import escape

    from tavernkeep.terminal.tables import Column, fitted

    console = Console()
    console.print(
        f"[bold]{escape(result['game'])}[/]: {escape(result['changed'])} against "
        f"{escape(result['base'])}, {result['games']:,} games each on the same seeds"
        + (f" (seed {result['seed']})" if result["seed"] is not None else "")
        + f", {result['workers']} worker(s), {result['build']} build, "
        f"{result['elapsed_seconds']:.1f} s"
    )
    if result["changes"]:
        console.print("[bold]What changed[/]")
        for change in result["changes"]:
            console.print(f"  {escape(change['text'])}")
    console.print(went_otherwise(result))
    def escaped(rows: list[list[str]]) -> list[list[str]]:
        return [[escape(cell) for cell in row] for row in rows]

    console.print(
        fitted(
            [
                Column("seat"),
                Column("bot"),
                Column("wins, base", right=True),
                Column("wins, changed", right=True),
                Column("difference [95%]", right=True),
            ],
            escaped(seat_cells(result)),
            console.width,
        )
    )
    console.print(turns_text(result))
    for title, rows in card_tables(result):
        console.print(f"[bold]{title}[/]")
        console.print(
            fitted(
                [
                    Column("card", prose=True),
                    Column("counted as"),
                    Column("uses a game, base → changed", right=True),
                    Column("difference [95%]", right=True),
                    Column("its users' wins, the\nsame seats in both", right=True),
                ],
                escaped(rows),
                console.width,
            )
        )
    console.print(
        "Each difference is the changed pack less the base, paired game by game on the same "
        "seeds, with its 95% interval; a card's users are the seats that used it in both "
        "games of a seed (the seats matched as the games are)."
    )
    if html is not None:
        console.print(f"The page: {escape(str(html))}")


def went_otherwise(result: dict[str, Any]) -> str:
    changed, games = result["games_changed"], result["games"]
    if not changed:
        return f"No game of the {games:,} went otherwise: the change made no difference."
    return f"{changed:,} of the {games:,} games went otherwise ({changed / games:.0%})."


def compare_html(result: dict[str, Any]) -> str:
    """The comparison as one page a designer can keep and send."""
    from html import escape as esc

    def table(head: list[str], rows: list[list[str]]) -> str:
        top = "".join(f"<th>{esc(h)}</th>" for h in head)
        body = "".join(
            "<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows
        )
        return f"<table><tr>{top}</tr>{body}</table>"

    parts = [
        f"<h1>{esc(result['game'])}: {esc(result['changed'])} against {esc(result['base'])}</h1>",
        f"<p>{result['games']:,} games each, on the same seeds; every difference is the "
        "changed pack less the base, paired game by game, with its 95% interval.</p>",
    ]
    if result["changes"]:
        items = "".join(f"<li>{esc(c['text'])}</li>" for c in result["changes"])
        parts.append(f"<h2>What changed</h2><ul>{items}</ul>")
    parts.append(f"<p>{esc(went_otherwise(result))}</p>")
    parts.append("<h2>Seats</h2>")
    parts.append(
        table(
            ["seat", "bot", "wins, base", "wins, changed", "difference [95%]"],
            seat_cells(result),
        )
    )
    parts.append(f"<p>{esc(turns_text(result))}</p>")
    for title, rows in card_tables(result):
        parts.append(f"<h2>{esc(title)}</h2>")
        parts.append(
            table(
                ["card", "counted as", "uses a game", "difference [95%]", "its users' wins"],
                rows,
            )
        )
    style = (
        "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;"
        "color:#2b1d0e}table{border-collapse:collapse;margin:0.5rem 0 1rem}td,th{border:1px "
        "solid #cfae73;padding:4px 8px;text-align:left}th{background:#f6e8c9}"
    )
    title = esc(f"{result['game']}: {result['changed']} against {result['base']}")
    return (
        f"<!doctype html><html lang=en><meta charset=utf-8><title>{title}</title>"
        f"<style>{style}</style><body>{''.join(parts)}</body></html>\n"
    )
