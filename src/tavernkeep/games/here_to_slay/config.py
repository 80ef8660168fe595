"""Options of a game of Here to Slay: player count and the options of RULES.md."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class HereToSlayConfig(BaseModel):
    # Strict: `--variant hand_limit` (True) must not quietly become a limit of 1.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    players: int = Field(default=4, ge=2, le=6)
    # A title and a description are what the lobby's form shows a player.
    leaders: Literal["choose", "random"] = Field(
        default="choose",
        title="Party Leaders",
        description="choose: picked in reverse turn order; random: dealt.",
    )
    reshuffle: bool = Field(
        default=True,
        title="Reshuffle the discard pile",
        description="When the deck runs out, the discard pile becomes the new deck.",
    )
    hand_limit: int = Field(
        default=0,
        ge=0,
        le=30,
        title="Hand limit",
        description="Discard down to this many cards at the end of your turn (0: no limit).",
    )
    curse_discards: Literal["hero", "item"] = Field(
        default="hero",
        title="A cursed Hero's fall",
        description="What a curse that discards after the next success takes: hero: the "
        "Hero and the Item; item: the Item alone.",
    )
    # Off, the table is faster and tells who holds what: a bots' lab setting (RULES.md).
    ask_everyone: bool = Field(
        default=True,
        title="Ask everyone",
        description="Ask every player in each Challenge and Modifier window, even one with "
        "nothing to play, so that nobody learns who holds what. Off: faster, but the "
        "table learns who holds nothing.",
    )
    challenge_off_turn: bool = Field(
        default=False,
        title="Challenges off turn",
        description="A card played at once on another player's turn may be challenged too "
        "(the rulebook's Challenge is played on the turn of the player it stops).",
    )
    turn_limit: int = Field(
        default=400,
        ge=0,
        title="Turn limit",
        description="The game ends with no winner after this many turns (0: no limit).",
    )
