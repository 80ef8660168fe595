"""Difficulty levels: the bots people choose by name (`bot:easy`, `bot:normal`, ...).

A person opening a table wants to know how well a bot plays, which `bot:mcts:300ms` does
not say. Each game's folder holds `levels.toml`: the levels it offers, each a bot, and
what that bot was measured to do against `normal` (the game's own heuristic bot), so
the lobby can say "wins about 1 game in 10 against normal bots" rather than a spec.

- **easy** is the normal bot slipping (`bot:heuristic:slipN`): at N% of its decisions it
  takes a legal action at random, drawn from its seat's own stream, so a seed replays.
- **normal** is the game's heuristic bot: the yardstick, measured against itself.
- **hard** and **expert** are searches, offered only where one was measured clearly
  stronger than normal (the interval of its win share above an even share); a game whose
  search is not yet told apart from its heuristic offers no such level, rather than a
  name that promises what the bot does not do.

The figures are measured by `python -m tavernkeep.agents.levels GAME` (its table says how;
`--write` puts them in the game's file) and checked in the slow tests, which play the
shipped levels and fail where one no longer plays at its level.
"""

from __future__ import annotations

import sys
import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from tavernkeep.engine.errors import ContentError, SeatError
from tavernkeep.engine.game import Game

NAMES = ("easy", "normal", "hard", "expert")
"""The levels, weakest first; a game offers some of them, `normal` always."""
NORMAL = "bot:heuristic"


class Level(BaseModel):
    """One level of one game, and what it was measured to do."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Literal["easy", "normal", "hard", "expert"]
    bot: str = Field(description="the bot it plays as: bot:heuristic[:slipN] or bot:mcts:N")
    wins: float = Field(ge=0.0, le=1.0, description="measured win share against normal")
    low: float = Field(ge=0.0, le=1.0)
    high: float = Field(ge=0.0, le=1.0)
    games: int = Field(ge=0, description="games the figure rests on (0: normal, by definition)")

    @model_validator(mode="after")
    def _checked(self) -> Level:
        if not self.low <= self.wins <= self.high:
            raise ValueError(
                f"level '{self.name}': wins {self.wins} is outside {self.low}-{self.high}"
            )
        if self.name == "normal" and self.bot != NORMAL:
            raise ValueError(f"level 'normal' is {NORMAL} as it is, the yardstick")
        return self


class Levels(BaseModel):
    """A game's `levels.toml`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    measured: str = Field(description="how the figures were measured: command, build, date")
    players: int = Field(ge=1, description="the table the figures were measured at")
    fair: float = Field(gt=0.0, le=1.0, description="an even share at that table")
    team: bool = Field(description="co-operative or solo: a team of the level, not one seat")
    level: list[Level]

    @model_validator(mode="after")
    def _ordered(self) -> Levels:
        names = [lv.name for lv in self.level]
        if "normal" not in names:
            raise ValueError("every game offers the level 'normal'")
        if names != sorted(names, key=NAMES.index) or len(set(names)) != len(names):
            raise ValueError(f"levels are listed once each, weakest first ({', '.join(NAMES)})")
        return self

    def get(self, name: str) -> Level | None:
        return next((lv for lv in self.level if lv.name == name), None)


def levels_file(game: Game[Any, Any]) -> Path | None:
    where = getattr(sys.modules.get(type(game).__module__), "__file__", None)
    return Path(where).parent / "levels.toml" if where else None


@cache
def _load(path: Path) -> Levels:
    try:
        return Levels.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{path}: not TOML: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ContentError(f"{path}: {where + ': ' if where else ''}{first['msg']}") from None


def game_levels(game: Game[Any, Any]) -> Levels | None:
    """The game's levels, or None for a game without a heuristic bot to measure against."""
    path = levels_file(game)
    if path is None or not path.is_file():
        return None
    return _load(path)


def level_of(spec: str, game: Game[Any, Any]) -> Level | None:
    """The level a seat spec names (`bot:easy`), or None for any other spec. A level the
    game does not offer is a SeatError naming those it does."""
    kind, _, name = spec.partition(":")
    if kind != "bot" or name not in NAMES:
        return None
    levels = game_levels(game)
    found = levels.get(name) if levels else None
    if found is None:
        offered = ", ".join(lv.name for lv in levels.level) if levels else "none"
        raise SeatError(f"seat '{spec}': {game.title} offers the levels {offered}")
    return found


def played_as(spec: str, game: Game[Any, Any]) -> str:
    """The spec a level plays as (`bot:hard` → `bot:mcts:200`); any other spec as it is.
    What the server's search limits and pool look at."""
    level = level_of(spec, game)
    return level.bot if level is not None else spec


def says(levels: Levels, level: Level) -> str:
    """What the lobby says of a level, in games out of ten."""
    tens = round(level.wins * 10)
    games = "game" if tens == 1 else "games"
    if level.name == "normal":
        if levels.team:  # a team of it wins or loses against the game: say how often
            return f"the game's own bot: wins about {tens} {games} in 10"
        return "the game's own bot: the yardstick the others are measured against"
    if levels.team:
        normal = levels.get("normal")
        base = f" (normal bots: {round(normal.wins * 10)})" if normal else ""
        return f"wins about {tens} {games} in 10{base}"
    even = f"{levels.fair * 10:.1f}".rstrip("0").rstrip(".")
    return f"wins about {tens} {games} in 10 against normal bots (an even share is {even})"


def lobby_levels(game: Game[Any, Any]) -> list[dict[str, Any]]:
    """The levels as the lobby lists them (`GET /api/games`)."""
    levels = game_levels(game)
    if levels is None:
        return []
    return [
        {"bot": f"bot:{lv.name}", "name": lv.name, "says": says(levels, lv)} for lv in levels.level
    ]
