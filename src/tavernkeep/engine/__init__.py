"""The game-agnostic core: protocol, actions, events, decisions, RNG, content, records."""

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.errors import (
    ConfigError,
    ContentError,
    IllegalAction,
    RecordError,
    SeatError,
    TavernkeepError,
)
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Agent, Game, Result
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.records import GameRecord
from tavernkeep.engine.rng import Rng, ScriptedRng, derive_seed

__all__ = [
    "Action",
    "Agent",
    "ConfigError",
    "ContentError",
    "Decision",
    "Event",
    "Game",
    "GameRecord",
    "IllegalAction",
    "InfoSet",
    "Match",
    "Pack",
    "RecordError",
    "Result",
    "Rng",
    "ScriptedRng",
    "SeatError",
    "TavernkeepError",
    "derive_seed",
]
