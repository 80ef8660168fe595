"""The schema of a Crits & Tricks pack: the mercenary deck, the quests, the Barkeep.

The rulebook publishes the six suits, their dice requirements and crits (those are rules,
in `rules.py`). Quests and Barkeep's Challenges are not published: they are data here,
each a condition built from a few fields over the trick history, so a designer writes a
new quest in TOML without touching code. CONTENT.md describes every field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tavernkeep.engine.content import Pack, Restated, check_unique_names, load_pack

GAME_NAME = "crits-and-tricks"
CONTENT_DIR = Path(__file__).parent / "content"

Suit = Literal["Barbarian", "Rogue", "Wizard", "Druid", "Paladin", "Bard"]
SUITS: tuple[str, ...] = ("Barbarian", "Rogue", "Wizard", "Druid", "Paladin", "Bard")
MERCENARIES: tuple[str, ...] = SUITS[:5]
"""The suits a Bard may stand for: every suit but the Bard."""
Die = Literal[4, 6, 8, 10, 12, 20]
DICE: tuple[int, ...] = (4, 6, 8, 10, 12, 20)

_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True)


class When(BaseModel):
    """What one play in one trick must be for a quest: every field given must hold.

    A play is a seat's card and die in a trick; `result` says whether the seat took the
    trick. Fields left out do not matter.
    """

    model_config = _STRICT

    result: Literal["win", "lose", "play"] = "win"
    suit: Suit | None = None
    """The suit printed on the seat's card (a Bard is a Bard here, whatever it stood for)."""
    led: Suit | None = None
    """The suit the trick was led in (a led Bard counts as the suit it named)."""
    leading: bool | None = None
    """True: the seat led the trick; False: it followed."""
    followed: bool | None = None
    """True: the card was of the led suit (or a Bard); False: it was off suit."""
    die: Die | None = None
    value: int | None = Field(default=None, ge=1, le=20)
    min_value: int | None = Field(default=None, ge=1, le=20)
    max_value: int | None = Field(default=None, ge=1, le=20)
    crit: Literal["Barbarian", "Rogue", "Wizard", "Druid", "Paladin", "Bard", "any"] | None = None
    """The seat used a crit of this suit (or any) on its turn in this trick. One Literal,
    not `Suit | Literal["any"]`: a union's error names its branch instead of the field."""
    crits: int | None = Field(default=None, ge=1, le=2)
    """The seat used at least this many crits on its turn in this trick."""
    rerolled: bool | None = None
    """The seat re-rolled its die (the free re-roll) in this trick."""
    trick: int | None = Field(default=None, ge=1, le=6)
    """The trick's number in the round."""
    bards: int | None = Field(default=None, ge=1, le=4)
    """At least this many Bards were played in the trick."""
    highest: bool | None = None
    """True: the seat's value was the highest in the trick (alone or tied)."""
    lowest: bool | None = None

    @model_validator(mode="after")
    def _possible(self) -> When:
        low = self.min_value or 1
        high = self.max_value or 20
        if low > high:
            raise ValueError(f"field 'min_value': {low} is above max_value {high}")
        if self.die is not None:
            if self.value is not None and self.value > self.die:
                raise ValueError(f"field 'value': a d{self.die} never shows {self.value}")
            if low > self.die:
                raise ValueError(f"field 'min_value': a d{self.die} never shows {low}")
        if self.value is not None and not low <= self.value <= high:
            raise ValueError(f"field 'value': {self.value} is outside min_value..max_value")
        if self.leading and self.followed is False:
            raise ValueError("field 'followed': the leader's card is always of the led suit")
        if self.led == "Bard":
            raise ValueError(
                "field 'led': a led Bard counts as the suit it names, so no trick is led "
                "'Bard' (for leading a Bard: suit = \"Bard\", leading = true)"
            )
        if self.followed is False and self.suit == "Bard":
            raise ValueError("field 'followed': a Bard always follows the led suit")
        if self.followed is False and self.result == "win":
            raise ValueError("field 'followed': only a card of the led suit can win a trick")
        return self


class Quest(BaseModel):
    model_config = _STRICT

    name: str = Field(min_length=1, max_length=60)
    text: str = Field(min_length=1, max_length=160)
    loot: int = Field(ge=1, le=10)
    when: When
    times: int = Field(default=1, ge=1, le=6)
    """Met in this many tricks of one round; it pays after the trick that completes it."""
    in_a_row: bool = False
    """The `times` tricks must follow one another."""

    @model_validator(mode="after")
    def _streak(self) -> Quest:
        if self.in_a_row and self.times < 2:
            raise ValueError("field 'in_a_row': needs times of 2 or more")
        if self.when.trick is not None and self.times > 1:
            raise ValueError("field 'times': a quest for one trick number is met once a round")
        return self


Measure = Literal[
    "tricks_won",
    "bards_won",
    "crits_used",
    "rerolls",
    "cards_left",
    "highest_value",
    "total_value",
    "suits_won",
    "dice_won",
    "off_suit_played",
]
"""What a Barkeep's Challenge counts for each seat over a round (CONTENT.md)."""


class Barkeep(BaseModel):
    model_config = _STRICT

    name: str = Field(min_length=1, max_length=60)
    text: str = Field(min_length=1, max_length=160)
    loot: int = Field(ge=1, le=10)
    measure: Measure
    best: Literal["most", "fewest"] = "most"
    min_players: int = Field(default=2, ge=2, le=4)
    """3 for a challenge left out of two-player games (the rulebook's "Creative")."""


class Deck(BaseModel):
    """The mercenary deck: copies of each suit by player count (rulebook)."""

    model_config = _STRICT

    copies: int = Field(default=8, ge=2, le=12)
    """Cards of each suit in play with 3-4 players."""
    two_player_copies: int = Field(default=4, ge=2, le=12)
    bards: int = Field(default=8, ge=0, le=12)
    two_player_bards: int = Field(default=6, ge=0, le=12)
    hand: int = Field(default=8, ge=6, le=12)
    """Cards dealt to each player every round: 6 tricks, so the rest can pay for crits."""


class CritsAndTricksPack(BaseModel):
    model_config = _STRICT

    deck: Deck = Field(default_factory=Deck)
    quest: list[Quest] = Field(min_length=12)
    barkeep: list[Barkeep] = Field(min_length=3)

    @model_validator(mode="after")
    def _unique_names(self) -> CritsAndTricksPack:
        # Quests and Barkeep's Challenges are separate decks: each has its own names.
        check_unique_names([("quest", [q.name for q in self.quest])])
        check_unique_names([("barkeep", [b.name for b in self.barkeep])])
        return self


RESTATED: tuple[Restated, ...] = (
    # A quest's text is what players read; its `when` is what the rules check. Each
    # phrase here names one field ("your d8" is `die`, "showing 5 to 8" `min_value` and
    # `max_value`), so a text and its fields that drift apart are a warning at load.
    Restated(("quest",), r"\bd(\d+)\b", "when.die"),
    Restated(("quest",), r"showing (\d+)(?![\d,]| or| to)", "when.value"),
    Restated(("quest",), r"\bwith an? (\d+)\b", "when.value"),
    Restated(("quest",), r"showing (\d+)(?:, \d+)* (?:or|to) \d+", "when.min_value"),
    Restated(("quest",), r"showing \d+(?:, \d+)* (?:or|to) (\d+)", "when.max_value"),
    Restated(("quest",), r"\b(\d+) or more\b", "when.min_value"),
    Restated(("quest",), r"\b(\d+) or less\b", "when.max_value"),
    Restated(("quest",), r"\b(two|three|four|five|six) tricks\b", "times"),
    Restated(("quest",), r"\b(one|two) crits\b", "when.crits"),
    Restated(("quest",), r"\b(two|three|four) or more Bards\b", "when.bards"),
)


def load(source: str | Path | None = None) -> Pack[CritsAndTricksPack]:
    """The standard pack, a built-in pack by name, or a designer's .toml file by path."""
    return load_pack(GAME_NAME, CritsAndTricksPack, source, CONTENT_DIR, RESTATED)
