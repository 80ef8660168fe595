"""The names people give themselves at a table: plain text, short, one line.

A name is shown to everyone at the table and in the record, so it is checked as it
arrives, once, rather than escaped differently by every place that shows it: Unicode
letters, marks, numbers, punctuation, symbols and single spaces, nothing that moves the
cursor or turns text around (controls, bidi overrides, invisible format characters) and
at most `NAME_LIMIT` characters. Every page still sets it as text, never as HTML.
"""

from __future__ import annotations

import unicodedata

from tavernkeep.engine.errors import IllegalAction

NAME_LIMIT = 24
"""Characters in a name: enough for "Bartholomew the Bold", short enough for a seat chip."""

JOINER = "\u200d"
"""The zero-width joiner, the one format character kept: emoji such as a family are made
with it, and it cannot reorder or hide text."""


def clean_name(raw: object) -> str:
    """`raw` as a name (trimmed, runs of spaces made one), or IllegalAction saying why not."""
    return plain_text(raw, NAME_LIMIT, "a name")


def plain_text(raw: object, limit: int, what: str) -> str:
    """`raw` as one line of plain text of 1 to `limit` characters, trimmed and with runs
    of spaces made one; IllegalAction naming `what` and why not."""
    if not isinstance(raw, str):
        raise IllegalAction(f"{what} is text, 1 to {limit} characters")
    cleaned = " ".join(unicodedata.normalize("NFC", raw[: limit * 8]).split())
    if not cleaned or len(cleaned) > limit:
        raise IllegalAction(f"{what} is 1 to {limit} characters")
    for char in cleaned:
        if unicodedata.category(char).startswith("C") and char != JOINER:
            raise IllegalAction(
                f"{what} is plain text: no control or invisible characters (U+{ord(char):04X})"
            )
    return cleaned
