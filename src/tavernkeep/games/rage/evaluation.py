"""How a Rage position stands: the chance of winning the night, for the search cut short
at a horizon (`Game.evaluator`, `bot:mcts:...:cutN`).

The planning bot's own score (`heuristic.Scorer`: food in the bag, hit points, rage, the
walk to the next food or the exit, the skeletons about to see the player) says how good a
place is, not how much of the night is left to use it, so the log-odds of a win count
the score (in thousands) and the moves already played. Fitted by logistic regression
(`benchmarks/fit_evaluation.py --game rage --games 150 --every 4`, seed 1000) on every
fourth decision of 150 games of the planning bot on the 57-turn night, skeletons rushing
as soon as they see the player (RULES 12): 5,647 positions, 32.6% of them from games won.
The log-loss is 0.622, against 0.631 for the win rate alone and 0.711 for the weights
fitted before that reading and night (1.416, -0.188, base -1.49); on the positions of
100 other games (seed 5000) 0.569, against 0.574 for that 32.6% alone and 0.680 for the
old weights. So the score now says little of how the
night will end (we think because most nights follow one of a few routes set by the
fixed patrols, and the score cannot see which: RULES.md, Balance), but it still ranks a
place near food above one far from it, which is what a search cut short must compare.
(Before, food, hit points and moves alone fitted as well as the score, 0.51 against
0.52.)
"""

from __future__ import annotations

from tavernkeep.engine.chances import Model
from tavernkeep.games.rage.heuristic import Scorer
from tavernkeep.games.rage.state import RageState

MODEL = Model(
    features=("planner's score / 1000", "moves played"), weights=(0.286, -0.041), base=-0.807
)


def features(st: RageState) -> list[float]:
    return [Scorer(st).score(st) / 1000.0, st.turn]


def chances(st: RageState) -> list[float]:
    """The one player's chance (a list of one, as every evaluator returns a seat each)."""
    return MODEL.team(features(st), 1)
