"""Options of a game of Rage: the map is the content pack; these are the rest, the
variant flags of RULES.md among them."""

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
    patrol_then_look: bool = Field(
        default=False,
        description="variant: a skeleton walks its patrol hex before it looks, so one that "
        "sees you as its phase begins may walk out of sight (RULES.md 12)",
    )
