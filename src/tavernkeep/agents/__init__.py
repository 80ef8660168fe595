"""Bots that play any game through the Game protocol, and the seat specs that name them.

A seat spec is what a person types: `human`, `bot:random`, `bot:heuristic`. Games supply
their own heuristic (`Game.heuristic_agent`) because good play is
game knowledge; everything else here is game-agnostic.
"""

from __future__ import annotations

from typing import Any

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.errors import SeatError
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import Agent

BOTS = ("random", "heuristic")


def make_bot(spec: str, game: Game[Any, Any]) -> Agent:
    """The bot a spec names: 'bot:random' or 'bot:heuristic'."""
    kind, _, rest = spec.partition(":")
    name, _, params = rest.partition(":")
    if kind != "bot" or name not in BOTS:
        raise SeatError(f"unknown seat '{spec}': expected human, bot:random or bot:heuristic")
    if params:
        raise SeatError(f"seat '{spec}': bot:{name} takes no parameters")
    if name == "random":
        return RandomBot()
    agent = game.heuristic_agent()
    if agent is None:
        raise SeatError(f"seat '{spec}': {game.title} has no heuristic bot yet")
    return agent


def check_seat(spec: str, game: Game[Any, Any]) -> None:
    """Raise SeatError unless `spec` names a seat this game can fill."""
    if spec != "human":
        make_bot(spec, game)
