"""How a Rage position stands: the chance of winning the night, for the search cut short
at a horizon (`Game.evaluator`, `bot:mcts:...:cutN`).

The planning bot's own score (`heuristic.Scorer`: food in the bag, hit points, rage, the
walk to the next food or the exit, the skeletons about to see the player) says how good a
place is, not how much of the night is left to use it, so the log-odds of a win count
the score (in thousands) and the moves already played. Fitted by logistic regression
(`benchmarks/fit_evaluation.py`) on every fourth decision of 150 games of the planning
bot (5,819 positions, 56 games won): the log-loss fell from 0.65 (the win rate alone) to
0.52. Food, hit points and moves alone fit as well (0.51) but cannot tell a place near
food from one far from it, which is what a search cut short must compare.
"""

from __future__ import annotations

from tavernkeep.engine.chances import Model
from tavernkeep.games.rage.heuristic import Scorer
from tavernkeep.games.rage.state import RageState

MODEL = Model(
    features=("planner's score / 1000", "moves played"), weights=(1.416, -0.188), base=-1.49
)


def features(st: RageState) -> list[float]:
    return [Scorer(st).score(st) / 1000.0, st.turn]


def chances(st: RageState) -> list[float]:
    """The one player's chance (a list of one, as every evaluator returns a seat each)."""
    return MODEL.team(features(st), 1)
