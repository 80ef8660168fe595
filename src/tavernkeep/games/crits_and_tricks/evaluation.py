"""How a Crits & Tricks position stands: each seat's chance of winning, for the search
cut short at a horizon (`Game.evaluator`, `bot:mcts:...:cutN`).

Loot decides the game, and a point of loot weighs more the less of the game is left to
make it up in: a seat's strength is its loot, plus its loot times done², `done` being
the share of the game's tricks played. Fitted as a conditional logit
(`benchmarks/fit_evaluation.py`) on every third decision of 100 games between heuristic
bots: a point weighed about 0.11 at the start and 0.44 at the end with 2 players (3,753
positions), 0.20 and 0.54 with 4 (7,024), and the log-loss of the winner fell from 0.69
(a coin) to 0.47 with 2 players and from 1.39 to 0.88 with 4.
"""

from __future__ import annotations

from tavernkeep.engine.chances import Model
from tavernkeep.games.crits_and_tricks.state import CritsAndTricksState

MODEL = Model(features=("loot", "loot x done²"), weights=(0.15, 0.35))


def features(st: CritsAndTricksState) -> list[list[float]]:
    tricks = st.config.tricks
    done = min(1.0, ((st.round - 1) * tricks + st.trick - 1) / (st.config.rounds * tricks))
    late = done * done
    return [[loot, loot * late] for loot in st.loot]


def chances(st: CritsAndTricksState) -> list[float]:
    return MODEL.shares(features(st))
