"""The schema of a Hack & Slash pack: the Brag at the Tavern and the quest deck."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from tavernkeep.engine.content import check_unique_names

DIE_SIDES = 6
MAX_DICE = 3
"""The box holds three dice, so no quest asks for more than three adventurers."""


def check_reachable(challenge: int, goal: int, exact: bool) -> None:
    """A goal no roll can meet would make a dead card; say so at load time."""
    low, high = challenge, challenge * DIE_SIDES
    if goal > high:
        raise ValueError(f"goal {goal} cannot be rolled on {challenge} dice (at most {high})")
    if exact and goal < low:
        raise ValueError(
            f"goal exactly {goal} cannot be rolled on {challenge} dice (at least {low})"
        )


class Roll(BaseModel):
    """What every quest card asks for: adventurers sent (= dice rolled) and a goal."""

    # Strict: `reward = true` in a pack is a mistake to report, not a 1-point quest.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    challenge: int = Field(ge=1, le=MAX_DICE, description="adventurers sent = dice rolled")
    exact: bool = Field(default=False, description="roll exactly the goal, not goal or more")
    goal: int = Field(ge=1, le=MAX_DICE * DIE_SIDES)

    @field_validator("goal")
    @classmethod
    def _reachable(cls, goal: int, info: ValidationInfo) -> int:
        # Fields validate in order, so challenge and exact are known here unless invalid.
        challenge = info.data.get("challenge")
        if challenge is not None:
            check_reachable(challenge, goal, info.data.get("exact", False))
        return goal

    @property
    def goal_text(self) -> str:
        return f"exactly {self.goal}" if self.exact else f"{self.goal}+"


class QuestCard(Roll):
    name: str = Field(min_length=1, max_length=60)
    reward: int = Field(default=0, ge=0, le=50)
    adventurer: bool = Field(default=False, description="success adds an adventurer")


class BragCard(Roll):
    """Never scored, always available, and success gives an adventurer."""

    name: str = Field(default="Brag at the Tavern", min_length=1, max_length=60)
    challenge: int = Field(default=1, ge=1, le=MAX_DICE)
    goal: int = Field(default=4, ge=1, le=MAX_DICE * DIE_SIDES)

    def as_quest(self) -> QuestCard:
        return QuestCard(
            name=self.name,
            challenge=self.challenge,
            goal=self.goal,
            exact=self.exact,
            reward=0,
            adventurer=True,
        )


class HackAndSlashPack(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    brag: BragCard = Field(default_factory=BragCard)
    quest: list[QuestCard] = Field(min_length=3, description="the draw pile, [[quest]] in TOML")

    @model_validator(mode="after")
    def _unique_names(self) -> HackAndSlashPack:
        check_unique_names([("quest", [q.name for q in self.quest])], taken=[self.brag.name])
        return self
