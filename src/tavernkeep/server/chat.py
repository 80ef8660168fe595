"""A table's chat: lines of plain text from its people, kept with the table, and the
table's notices of what happened to its seats, kept in the same place and order.

Everyone at the table reads the chat, spectators too; the people seated write in it, and
spectators only where the table's creator allowed it (`spectator_chat`), and only under a
name, since a line nobody can answer to is a line nobody answers. A line is checked as a
name is (names.py: no control or invisible characters) and may be up to `LINE_LIMIT`
characters. A connection may say `RATE` lines in any `RATE_SECONDS`, and a table keeps at
most `TABLE_LINES`: what a stranger can make the server store is bounded.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from tavernkeep.engine.errors import IllegalAction
from tavernkeep.server.names import plain_text

LINE_LIMIT = 300
"""Characters in a line: a sentence or two, as table talk is."""
RATE = 5
RATE_SECONDS = 10.0
TABLE_LINES = 2000
"""Lines a table keeps: far past any game's talk, and a bound on a stranger's."""
SHOWN = 100
"""The latest lines a joining page is sent."""


@dataclass(frozen=True)
class ChatLine:
    index: int
    """Its place in the table's chat, from 0."""
    seat: int | None
    """The seat that said it; None for a spectator."""
    name: str | None
    """The name it was said under (None: a seat whose person gave none)."""
    text: str
    at: float
    """When, in seconds since the epoch."""
    kind: str = "say"
    """"say", a person's line; "notice", what the table did, said by nobody (the page shows
    notices in its log: a seat handed to a new invite, a bot taking a leaver's seat)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "at": self.at,
            "kind": self.kind,
        }


def clean_line(raw: object) -> str:
    """`raw` as a chat line, or IllegalAction saying why not."""
    return plain_text(raw, LINE_LIMIT, "a chat line")


class ChatRate:
    """A connection's recent lines: at most `RATE` in any `RATE_SECONDS`."""

    def __init__(self) -> None:
        self.said: deque[float] = deque()

    def check(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        while self.said and now - self.said[0] > RATE_SECONDS:
            self.said.popleft()
        if len(self.said) >= RATE:
            raise IllegalAction(
                f"too many chat lines: at most {RATE} every {RATE_SECONDS:.0f} seconds"
            )
        self.said.append(now)
