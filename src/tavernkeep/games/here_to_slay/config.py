"""Options of a game of Here to Slay: player count and the options of RULES.md."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class HereToSlayConfig(BaseModel):
    # Strict: `--variant hand_limit` (True) must not quietly become a limit of 1.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    players: int = Field(default=4, ge=2, le=6)
    leaders: Literal["choose", "random"] = Field(
        default="choose",
        description="Party Leaders chosen in reverse turn order, or dealt at random",
    )
    reshuffle: bool = Field(
        default=True, description="an empty main deck is reshuffled from the discard pile"
    )
    hand_limit: int = Field(
        default=0, ge=0, le=30, description="discard down to this at the end of your turn (0: none)"
    )
    curse_discards: Literal["hero", "item"] = Field(
        default="hero",
        description="what a 'discarded after the next success' curse takes: the Hero and "
        "the Item, or the Item alone",
    )
    ask_everyone: bool = Field(
        default=True,
        description="ask every seat in each Challenge and Modifier window, even one with "
        "nothing to play, and a Monster's 'play it at once' or 'reveal it' after every card "
        "drawn, so that nobody learns who holds what (false: skip them, faster)",
    )
    challenge_off_turn: bool = Field(
        default=False,
        description="a card played at once on another player's turn may be challenged too "
        "(the rulebook's Challenge is played on the turn of the player it stops)",
    )
    turn_limit: int = Field(
        default=400, ge=0, description="end with no winner after this many turns (0: never)"
    )
