"""Options of a game of Crits & Tricks: player count and the options of RULES.md."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

MercenarySuit = Literal["barbarian", "rogue", "wizard", "druid", "paladin"]


class CritsAndTricksConfig(BaseModel):
    # Strict: `--variant rounds` (True) must not quietly become one round.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    players: int = Field(default=3, ge=2, le=4)
    # A title and a description are what the lobby's form shows a player.
    suits: list[MercenarySuit] = Field(
        default_factory=list,
        title="Suits",
        description="The three suits in play besides the Bards (none ticked: three at random).",
    )
    rounds: int = Field(default=3, ge=1, le=6, title="Rounds", description="Rounds in a game.")
    tricks: int = Field(default=6, ge=1, le=6, title="Tricks", description="Tricks in a round.")
    extra_rounds: int = Field(
        default=3,
        ge=0,
        le=10,
        title="Rounds to break a tie",
        description="With 2 players, rounds played on a tie before it stands as a shared win.",
    )
