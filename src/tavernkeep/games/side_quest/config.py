"""Options of a game of Side Quest: heroes (seats), scenario, how heroes are dealt, turn limit,
and the variant flags of RULES.md."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class SideQuestConfig(BaseModel):
    # Strict: `--variant turn_limit=true` must not quietly become one turn.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    players: int = Field(default=2, ge=1, le=4, description="heroes, one seat each")
    scenario: str = Field(default="", description="the scenario's name (empty: the pack's first)")
    heroes: Literal["choose", "random"] = Field(
        default="choose",
        description="choose: each seat picks a hero and a Basic weapon; random: both are dealt",
    )
    turn_limit: int = Field(
        default=60, ge=1, le=1000, description="game turns a level before the game is lost"
    )
    spawn_on_damsel: Literal["none", "beside"] = Field(
        default="none",
        description="a Portal's or summoner's spawn where a Damsel hangs: none comes out, or "
        "it comes out beside her, in the nearest Location without a Damsel (RULES.md 48)",
    )
