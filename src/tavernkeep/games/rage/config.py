"""Options of a game of Rage: the map is the content pack; these are the rest."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class RageConfig(BaseModel):
    # Strict: `--option turn_limit=true` must not quietly become one turn.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    players: int = Field(default=1, ge=1, le=1, description="a solo game: one seat")
    turn_limit: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description="turns before dawn lifts the mist and the game is lost; by default the "
        "map's night (`dawn` in its file; RULES.md)",
    )
