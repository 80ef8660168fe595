"""How a table is kept, as its creator chose at setup: the rules of the room, not of the
game (those are the game's options). Stored with the table as JSON, read back through this
model, so a table from before a setting existed gets its default."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class TableSettings(BaseModel):
    # Strict and closed: a misspelt setting is a mistake to refuse, not one to ignore.
    model_config = ConfigDict(extra="forbid", strict=True)

    spectator_chat: bool = False
    """Whether spectators may write in the table's chat (everyone reads it). Off unless
    the creator turns it on: a stranger watching a friends' table should not talk over it."""
