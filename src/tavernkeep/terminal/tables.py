"""Tables that never cut what a person reads or types, at any terminal width.

Rich squeezes a table into a narrow terminal by cutting its widest columns with "…",
whatever they hold: a game id became `crits-and-tr…`, a 95% interval `(34.4%-…`. Here a
column of ids and numbers may wrap only at its spaces and is never cut; prose (a
summary) wraps anywhere. When even that cannot fit, the table is drawn compact, and when
that cannot fit either, each row becomes a short block of "heading: value" lines, which
the terminal wraps without losing a character.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Column as RichColumn
from rich.table import Table
from rich.text import Text

Cell = str | Text
"""Plain text (never read as markup: a quest may be named "[#1]"), or styled Text."""

PROSE_MIN = 10
"""The narrowest a prose column is drawn; longer words fold onto the next line."""


@dataclass(frozen=True)
class Column:
    heading: str
    prose: bool = False
    """Free text that may wrap anywhere; otherwise the column holds ids and numbers."""
    right: bool = False
    """Right-aligned (numbers that line up by their last digit)."""


def _text(cell: Cell) -> Text:
    return cell if isinstance(cell, Text) else Text(cell)


def _lines(cell: Cell) -> list[str]:
    return _text(cell).plain.split("\n")


def _widths(column: Column, cells: list[Cell]) -> tuple[int, int]:
    """The narrowest and the widest the column's content can be drawn."""
    lines = [line for cell in [column.heading, *cells] for line in _lines(cell)]
    widest = max((cell_len(line) for line in lines), default=0)
    longest_word = max((cell_len(word) for line in lines for word in line.split()), default=0)
    narrowest = min(longest_word, PROSE_MIN) if column.prose else longest_word
    return max(narrowest, 1), max(widest, 1)


def _share(spare: int, least: list[int], most: list[int]) -> list[int]:
    """Widths from `least` toward `most`: the neediest column last, and none given more
    than an equal share of what is left, so a long summary cannot starve a short title."""
    widths = list(least)
    order = sorted(range(len(widths)), key=lambda i: most[i] - least[i])
    for done, index in enumerate(order):
        grant = min(most[index] - least[index], spare // (len(order) - done))
        widths[index] += grant
        spare -= grant
    return widths


STYLES: tuple[dict[str, Any], ...] = (
    {},  # the usual table, as every command draws it
    {"box": box.SIMPLE_HEAD, "show_edge": False, "pad_edge": False, "collapse_padding": True},
)


def _overhead(style: dict[str, Any], columns: int) -> int:
    """Characters a style spends on borders and padding beyond the columns' content."""
    probe = Table(*[RichColumn("", width=1) for _ in range(columns)], **style)
    probe.add_row(*[""] * columns)
    return Console(width=10_000).measure(probe).maximum - columns


def fitted(
    columns: Sequence[Column],
    rows: Sequence[Sequence[Cell]],
    width: int,
    title: str | None = None,
) -> RenderableType:
    """`rows` under `columns`, drawn within `width` without cutting an id or a number."""
    spans = [_widths(column, [row[i] for row in rows]) for i, column in enumerate(columns)]
    least = [low for low, _ in spans]
    most = [high for _, high in spans]
    for style in STYLES:
        room = width - _overhead(style, len(columns))
        if sum(least) > room:
            continue
        widths = _share(room - sum(least), least, most)
        table = Table(
            *[
                RichColumn(
                    _text(column.heading),
                    width=w,
                    overflow="fold",
                    justify="right" if column.right else "left",
                )
                for column, w in zip(columns, widths, strict=True)
            ],
            title=title,
            title_justify="left",
            **style,
        )
        for row in rows:
            table.add_row(*[_text(cell) for cell in row])
        return table
    return _stacked(columns, rows, title)


def _stacked(
    columns: Sequence[Column], rows: Sequence[Sequence[Cell]], title: str | None
) -> RenderableType:
    """Each row as a block: its first cell as a heading, then one line a column."""
    parts: list[RenderableType] = []
    if title:
        parts.append(Text(title, style="italic"))

    def flat(cell: Cell) -> Text:
        return Text(" ").join(_text(cell).split("\n"))

    for row in rows:
        head = Text.assemble((flat(columns[0].heading).plain + ": ", "bold"), flat(row[0]))
        if not columns[0].heading:
            head = flat(row[0])
            head.stylize("bold")
        parts.append(head)
        for column, cell in zip(columns[1:], row[1:], strict=True):
            if not _text(cell).plain.strip():
                continue
            label = flat(column.heading).plain
            line = Text.assemble((label + ": ", "dim") if label else "", flat(cell))
            parts.append(Padding(line, (0, 0, 0, 2)))
    return Group(*parts)
