"""Options of a game of Rage: the map is the content pack; these are the rest, the
variant flags of RULES.md among them."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class RageConfig(BaseModel):
    # Strict: `--option turn_limit=true` must not quietly become one turn.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    players: int = Field(default=1, ge=1, le=1, description="a solo game: one seat")
    # A title and a description are what the lobby's form shows a player. No limit given,
    # the map's own night (`dawn` in its TOML) decides.
    turn_limit: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        title="Turns until dawn",
        description="Dawn lifts the mist and the game is lost (none given: the map's night).",
    )
    # RULES.md 12: the rulebook's order of a skeleton's phase is read two ways.
    patrol_then_look: bool = Field(
        default=False,
        title="Skeletons walk, then look",
        description="A variant: a skeleton walks its patrol hex before it looks, so one that "
        "sees you as its phase begins may walk out of sight.",
    )
