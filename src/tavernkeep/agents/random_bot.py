"""The random bot: a uniformly random legal action, from the seat's own RNG stream; and a
bot that slips into it at a share of its decisions (the `easy` level, agents/levels.py)."""

from __future__ import annotations

from tavernkeep.engine.actions import Action
from tavernkeep.engine.game import Agent
from tavernkeep.engine.match import InfoSet


class RandomBot:
    name = "bot:random"

    def choose(self, info: InfoSet) -> Action:
        actions = info.legal_actions()
        return actions[info.rng.below(len(actions))]


class SlippingBot:
    """Another bot, taking a random legal action at `percent`% of its decisions (those
    with a choice), drawn from the seat's own stream so a seed replays the same game."""

    def __init__(self, name: str, inner: Agent, percent: int) -> None:
        self.name = name
        self.inner = inner
        self.percent = percent

    def choose(self, info: InfoSet) -> Action:
        actions = info.legal_actions()
        if len(actions) > 1 and info.rng.below(100) < self.percent:
            return actions[info.rng.below(len(actions))]
        return self.inner.choose(info)
