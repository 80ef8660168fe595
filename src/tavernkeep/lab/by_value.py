"""A sweep's report: one column per value.

A sweep plays the same seeds once for each value of one number, so its results file
holds several games in one: pooled, a seat's win rate or a card's use mixes the values
and answers no question. Here every breakdown is drawn once per value and set side by
side, the swept entry's own figures first (how often it was used, how its users won,
how often an attempt at it succeeded), then the seats (or the team), each label, how
long games last and how they end, and every tallied name's use. A cell is flagged by
the one definition of out of balance (stats.off_balance), as the pooled report flags.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from tavernkeep.lab.added import pct
from tavernkeep.lab.breakdowns import (
    Group,
    SeatGames,
    TallyRow,
    as_array,
    by_fact,
    by_seat,
    coded,
    length_summary,
    rate_text,
    seat_games,
    tally_rows,
)
from tavernkeep.lab.rows import SEAT_FACT, TALLY, column_name
from tavernkeep.lab.stats import wilson_intervals
from tavernkeep.lab.sweep import SWEEP_COLUMN

Section = Callable[[str, str, str], None]
"""report.build_report's `section(heading, body, question)`."""
Flag = Callable[[list[Group], str], None]
"""report.build_report's `note_flags(groups, what)`."""


@dataclass
class Value:
    """One value of the sweep and its games, broken down."""

    label: str
    table: pa.Table
    sg: SeatGames
    tallies: dict[str, list[TallyRow]]


def shown(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def values_of(table: pa.Table, meta: dict[str, Any], path: Path, tolerance: float) -> list[Value]:
    """Each value in the order the sweep played them, with its own games' breakdowns."""
    order = [b.get(SWEEP_COLUMN) for b in meta.get("batches") or [] if SWEEP_COLUMN in b]
    column = as_array(table, SWEEP_COLUMN)
    present = [v for v in dict.fromkeys(column.to_pylist()) if v is not None]
    ordered = [v for v in order if v in present] + [v for v in present if v not in order]
    declared: dict[str, list[str]] = dict(meta.get("tally_names") or {})
    out = []
    for value in ordered:
        part = table.filter(pc.equal(column, pa.scalar(value, column.type)))
        sg = seat_games(part, meta, path)
        tallies = {}
        for kind in dict(meta.get("tally_kinds") or {}):
            name = column_name(TALLY, kind)
            if name in part.column_names:
                known = sorted(declared.get(kind, []))
                tallies[kind] = tally_rows(part, sg, name, known, tolerance)
        out.append(Value(shown(value), part, sg, tallies))
    return out


def wide(rows: list[tuple[str, list[tuple[str, bool]]]], heading: str, values: list[Value]) -> str:
    """A table of one row a figure and one column a value; a flagged cell is marked."""
    head = f"<tr><th>{html.escape(heading)}</th>"
    head += "".join(f"<th>{html.escape(v.label)}</th>" for v in values) + "</tr>"
    body = "".join(
        f"<tr><td>{html.escape(label)}</td>"
        + "".join(
            f"<td class=off>{cell} <span class=flag>out of balance</span></td>"
            if off
            else f"<td>{cell}</td>"
            for cell, off in cells
        )
        + "</tr>"
        for label, cells in rows
    )
    return f"<table>{head}{body}</table>"


def rate_cell(g: Group | None) -> tuple[str, bool]:
    if g is None:
        return "–", False
    return f"{pct(g.rate)} ({pct(g.lo)} – {pct(g.hi)}) of {g.trials:,}", g.flagged


def by_label(groups_by_value: list[list[Group]]) -> list[tuple[str, list[tuple[str, bool]]]]:
    labels = list(dict.fromkeys(g.label for groups in groups_by_value for g in groups))
    found = [{g.label: g for g in groups} for groups in groups_by_value]
    return [(label, [rate_cell(f.get(label)) for f in found]) for label in labels]


def entry_rows(
    values: list[Value], meta: dict[str, Any], name: str
) -> list[tuple[str, list[tuple[str, bool]]]]:
    """The swept entry in every way the games count it: per tally kind its users a game
    and their win rate, and where the kind counts successes of another's attempts, its
    success per attempt."""
    kinds = dict(meta.get("tally_kinds") or {})
    rates: dict[str, str] = dict(meta.get("tally_rates") or {})
    rows: list[tuple[str, list[tuple[str, bool]]]] = []
    for kind, heading in kinds.items():
        found = [next((r for r in v.tallies.get(kind, []) if r.name == name), None) for v in values]
        if not any(r is not None and r.users for r in found):
            continue
        games = [v.sg.games for v in values]
        rows.append(
            (
                f"{heading}: times a game",
                [
                    (f"{r.uses / n:.2f}" if r else "0", False)
                    for r, n in zip(found, games, strict=True)
                ],
            )
        )
        rows.append(
            (
                f"{heading}: users' win rate",
                [
                    (f"{pct(r.rate)} ({pct(r.lo)} – {pct(r.hi)}) of {r.users:,}", False)
                    if r is not None and r.users
                    else ("–", False)
                    for r in found
                ],
            )
        )
        attempt = rates.get(kind)
        if attempt is not None:
            cells = []
            for v, r in zip(values, found, strict=True):
                tries = next((t.uses for t in v.tallies.get(attempt, []) if t.name == name), 0)
                done = r.uses if r is not None else 0
                said = f"{rate_text(done, tries)} of {tries:,}" if tries else "–"
                cells.append((said, False))
            rows.append((f"{heading}: success per attempt", cells))
    return rows


def sweep_sections(
    table: pa.Table,
    meta: dict[str, Any],
    path: Path,
    tolerance: float,
    entry: str | None,
    section: Section,
    note_flags: Flag,
) -> None:
    """Every breakdown of a sweep's results, one column a value (see the module)."""
    values = values_of(table, meta, path, tolerance)
    swept = str(meta.get("sweep"))
    team = values[0].sg.team if values else False
    if entry is not None:
        rows = entry_rows(values, meta, entry)
        if rows:
            section(
                f"{entry}, at each value",
                wide(rows, entry, values),
                f"What did {swept} do to {entry} itself?",
            )
    if team:
        rows = []
        cells = []
        for v in values:
            won = np.asarray(as_array(v.table, "won").fill_null(False), dtype=float)
            lo, hi = wilson_intervals(np.array([won.sum()]), np.array([len(won)]))
            cells.append((f"{pct(won.mean())} ({pct(lo[0])} – {pct(hi[0])})", False))
        rows.append(("the table wins", cells))
        body = wide(rows, swept, values)
        section("Win rate by value", body, f"How does the team's win rate move with {swept}?")
    else:
        seats = [by_seat(v.sg, tolerance) for v in values]
        for v, groups in zip(values, seats, strict=True):
            note_flags(groups, f"At {swept} = {v.label}:")
        section(
            "Win rate by seat, at each value",
            wide(by_label(seats), "seat", values),
            f"How does each seat's win rate move with {swept}?",
        )
    for fact, heading in dict(meta.get("seat_facts") or {}).items():
        column = column_name(SEAT_FACT, fact)
        if column not in table.column_names:
            continue
        labelled = [by_fact(v.table, v.sg, column, tolerance) for v in values]
        for v, found in zip(values, labelled, strict=True):
            note_flags(found, f"At {swept} = {v.label}, {heading}")
        section(
            f"Win rate by {heading}, at each value",
            wide(by_label(labelled), str(heading), values),
            f"How does each {heading}'s win rate move with {swept}?",
        )
    lengths = [length_summary(v.sg.turns) for v in values]
    rows = [
        ("mean turns", [(f"{s['mean']:.1f}", False) for s in lengths]),
        ("median", [(str(s["median"]), False) for s in lengths]),
        ("90% within", [(str(s["p90"]), False) for s in lengths]),
        ("longest", [(str(s["max"]), False) for s in lengths]),
    ]
    endings = []
    for v in values:
        codes, names = coded(as_array(v.table, "ending"))
        counts = np.bincount(codes, minlength=len(names))
        endings.append({n: int(c) / v.sg.games for n, c in zip(names, counts, strict=True)})
    for ending in sorted({e for found in endings for e in found}):
        rows.append(
            (f"ends by {ending}", [(pct(found.get(ending, 0.0)), False) for found in endings])
        )
    section(
        "Game length and endings, at each value",
        wide(rows, swept, values),
        f"How do games go with {swept}?",
    )
    for kind, heading in dict(meta.get("tally_kinds") or {}).items():
        per_value = [{r.name: r for r in v.tallies.get(kind, [])} for v in values]
        names = sorted({n for found in per_value for n, r in found.items() if r.users})
        if not names:
            continue
        rows = [
            (
                name,
                [
                    (f"{found[name].uses_per_game:.2f}", False) if name in found else ("0", False)
                    for found in per_value
                ],
            )
            for name in names
        ]
        section(
            f"{heading}: times a game, at each value",
            wide(rows, "name", values),
            f"{heading}: how does use move with {swept}?",
        )
