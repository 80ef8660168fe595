"""Options of a game of Hack & Slash: player count and the variant flags of RULES.md."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class HackAndSlashConfig(BaseModel):
    # Strict: `--variant round_limit` (True) must not quietly become a 1-round limit.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    players: int = Field(default=4, ge=2, le=6)
    two_player: bool = Field(
        default=False, description="variant: allow a 2-player game (the rulebook says 3-6)"
    )
    adventurers: int = Field(default=8, ge=1, le=20, description="each guild's starting size")
    box: int = Field(default=50, ge=0, le=200, description="adventurer meeples in the box")
    empty_tavern: Literal["stand-in", "no-gain"] = Field(
        default="stand-in",
        description="a gain when the Tavern is empty: a stand-in token, or nothing",
    )
    round_limit: int = Field(
        default=100, ge=0, description="end after this many rounds (0: never); see RULES.md"
    )

    @model_validator(mode="after")
    def _two_players_is_a_variant(self) -> HackAndSlashConfig:
        if self.players == 2 and not self.two_player:
            raise ValueError(
                "2 players is a variant: turn on two_player (--variant two_player); "
                "otherwise 3-6 players"
            )
        return self
