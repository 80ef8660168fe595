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
    if not isinstance(raw, str):
        raise IllegalAction(f"a name is text, 1 to {NAME_LIMIT} characters")
    name = " ".join(unicodedata.normalize("NFC", raw[: NAME_LIMIT * 8]).split())
    if not name or len(name) > NAME_LIMIT:
        raise IllegalAction(f"a name is 1 to {NAME_LIMIT} characters")
    for char in name:
        if unicodedata.category(char).startswith("C") and char != JOINER:
            raise IllegalAction(
                f"a name is plain text: no control or invisible characters (U+{ord(char):04X})"
            )
    return name
