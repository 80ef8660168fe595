"""How a table is kept, as its creator chose at setup: the rules of the room, not of the
game (those are the game's options). Stored with the table as JSON, read back through this
model, so a table from before a setting existed gets its default."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Clock(BaseModel):
    """A clock for every person's seat. `real_time`: a bank of `seconds` that runs while
    the seat decides, with `increment` added after each of its decisions (3 minutes + 20 s,
    say). `turn_based`: `seconds` for each decision (a day, say), so friends play across
    days. A seat out of time is played by the table's stand-in until its person is back."""

    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["real_time", "turn_based"]
    seconds: float = Field(ge=1.0, le=30 * 86400.0)
    increment: float = Field(default=0.0, ge=0.0, le=3600.0)


class TableSettings(BaseModel):
    # Strict and closed: a misspelt setting is a mistake to refuse, not one to ignore.
    model_config = ConfigDict(extra="forbid", strict=True)

    spectator_chat: bool = False
    """Whether spectators may write in the table's chat (everyone reads it). Off unless
    the creator turns it on: a stranger watching a friends' table should not talk over it."""

    grace_seconds: float | None = Field(default=120.0, ge=1.0, le=7 * 86400.0)
    """How long a person's seat may be without its person (every page of theirs closed or
    cut off) before a bot plays it for them, until they come back; None: wait for them
    however long (a table played a move a day, say). A seat nobody has claimed yet waits."""
    stand_in: str | None = Field(default=None, max_length=64)
    """The bot that plays a seat whose person has left. None: the search with a small
    budget (`stand_in_within`), so the others play on against a seat that still plays
    well; a new table is stored with the bot it was given."""
    clock: Clock | None = None
    """The seats' clocks; None: nobody is timed (a leaver is still stood in for)."""
    advice: bool | None = None
    """Whether a person may ask the tutor (the search's chance to win with each choice,
    from their own view). None: yes, unless the table has clocks (a timed game is a
    contest of the people's own thinking)."""

    rated: bool = False
    """Whether the game is rated at its end (server/skill.py): opened by a person signed
    in, each person's seat then taken by its own account, no tutor, a deal nobody chose.
    A rated table whose people are not all signed in, one apiece, is not rated."""

    def advice_allowed(self) -> bool:
        if self.rated:
            return False
        return self.advice if self.advice is not None else self.clock is None


STAND_IN_MS = 300
"""The default stand-in's thinking time a decision: quick, and still the search."""


def stand_in_within(max_search_ms: int) -> str:
    """The default stand-in on a server whose searches may think `max_search_ms` at most."""
    return f"bot:mcts:{min(STAND_IN_MS, max_search_ms)}ms"
