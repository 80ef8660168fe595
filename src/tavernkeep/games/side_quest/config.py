"""Options of a game of Side Quest: heroes (seats), scenario, how heroes are dealt, turn limit,
and the variant flags of RULES.md."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class SideQuestConfig(BaseModel):
    # Strict: `--variant turn_limit=true` must not quietly become one turn.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    # A title and a description are what the lobby's form shows a player; the form offers
    # the pack's scenarios as a list (`Game.grid_values`).
    players: int = Field(default=2, ge=1, le=4, description="heroes, one seat each")
    scenario: str = Field(
        default="",
        title="Scenario",
        description="The adventure to play.",
    )
    heroes: Literal["choose", "random"] = Field(
        default="choose",
        title="Heroes",
        description="choose: each player picks a hero and a Basic weapon; random: both dealt.",
    )
    turn_limit: int = Field(
        default=60,
        ge=1,
        le=1000,
        title="Turn limit",
        description="Turns on each level before the heroes lose.",
    )
    # The rulebook is silent on a spawn where a Damsel hangs: RULES.md 48.
    spawn_on_damsel: Literal["none", "beside"] = Field(
        default="none",
        title="A spawn where a Damsel hangs",
        description="none: nothing comes out; beside: it comes out in the nearest Location "
        "without a Damsel.",
    )
