"""The random bot: a uniformly random legal action, from the seat's own RNG stream."""

from __future__ import annotations

from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet


class RandomBot:
    name = "bot:random"

    def choose(self, info: InfoSet) -> Action:
        actions = info.legal_actions()
        return actions[info.rng.below(len(actions))]
