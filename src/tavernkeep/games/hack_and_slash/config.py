"""Options of a game of Hack & Slash: player count and the variant flags of RULES.md."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class HackAndSlashConfig(BaseModel):
    # Strict: `--variant round_limit` (True) must not quietly become a 1-round limit.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    players: int = Field(default=4, ge=2, le=6)
    # A title and a description are what the lobby's form shows a player (and `--help`
    # lists beside the option's name): the table's words, never the code's.
    two_player: bool = Field(
        default=False,
        title="Two players",
        description="A variant: play with 2 (the rulebook says 3 to 6).",
    )
    adventurers: int = Field(
        default=8, ge=1, le=20, title="Adventurers", description="Each guild's starting size."
    )
    box: int = Field(
        default=50,
        ge=0,
        le=200,
        title="Adventurers in all",
        description="Every adventurer in the game: those not in a guild start in the Tavern.",
    )
    empty_tavern: Literal["stand-in", "no-gain"] = Field(
        default="stand-in",
        title="A gain from an empty Tavern",
        description="stand-in: take a stand-in token; no-gain: nothing.",
    )
    # 100 rounds is far past any real game: it only stops bots that never score (RULES.md).
    round_limit: int = Field(
        default=100,
        ge=0,
        title="Round limit",
        description="The game ends after this many rounds (0: no limit).",
    )

    @model_validator(mode="after")
    def _two_players_is_a_variant(self) -> HackAndSlashConfig:
        if self.players == 2 and not self.two_player:
            raise ValueError(
                "2 players is a variant: turn on two_player (--variant two_player); "
                "otherwise 3-6 players"
            )
        return self
