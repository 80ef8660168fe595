"""Chances of winning from a position: what a game's evaluator gives the search.

A game's evaluator (`Game.evaluator`) is a linear model over a few facts of a position
(its `features`), fitted on positions of games between heuristic bots by
`benchmarks/fit_evaluation.py`, which a designer reruns when the pack changes:

- competitive games: each seat's strength is the weights times its facts, and the chance
  that seat i wins is exp(s_i) / sum_j exp(s_j) (a conditional logit);
- co-operative and solo games: the team's log-odds of victory are the base plus the
  weights times the table's facts (a logistic regression), the same chance in every seat.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Model:
    """A fitted linear model: `weights` in the order of `features`' names."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    base: float = 0.0
    """The team's log-odds when every fact is 0 (unused by competitive games)."""

    def strength(self, facts: Sequence[float]) -> float:
        return self.base + sum(w * x for w, x in zip(self.weights, facts, strict=True))

    def shares(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """Competitive: each seat's chance of winning, from one row of facts a seat."""
        return shares([self.strength(row) for row in rows])

    def team(self, facts: Sequence[float], seats: int) -> list[float]:
        """Co-operative and solo: the team's chance, once a seat."""
        return [odds(self.strength(facts))] * seats


def shares(strengths: Sequence[float]) -> list[float]:
    """Each seat's chance of winning: exp(s_i) / sum_j exp(s_j)."""
    top = max(strengths)
    weights = [math.exp(s - top) for s in strengths]
    total = sum(weights)
    return [w / total for w in weights]


def odds(log_odds: float) -> float:
    """A chance from its log-odds (the logistic function)."""
    if log_odds >= 0:
        return 1.0 / (1.0 + math.exp(-log_odds))
    e = math.exp(log_odds)
    return e / (1.0 + e)
