"""How a Here to Slay position stands: each seat's chance of winning, for the search cut
short at a horizon (`Game.evaluator`, `bot:mcts:...:cutN`).

A seat's strength counts the Monsters it has slain, the Heroes in its Party and the
cards in its hand. Fitted as a conditional logit (`benchmarks/fit_evaluation.py`) on
every third decision of 200 games between heuristic bots: slain 0.89 and 1.20, Hero
0.35 and 0.26, card 0.29 and 0.15 with 2 and 4 players (5,038 and 12,066 positions); the
classes a Party covers added nothing once its size was counted. The game turns on single
rolls, so the fit is modest: the log-loss of the winner fell from 0.69 (a coin) to 0.59
with 2 players and from 1.39 to 1.23 with 4.

Fitted again on the rules that name targets before the Modifier window and ask Monster
questions after every draw (RULES 16, 38, 39): slain 0.89 and 1.04, Hero 0.21 and 0.17,
card 0.29 and 0.13 (5,039 and 11,767 positions). The weights below still do about as well
as the refit (log-loss 0.604 against 0.596 with 2 players, 1.276 against 1.267 with 4),
so they stay: changing them would change every search for a hundredth of a nat.
"""

from __future__ import annotations

from tavernkeep.engine.chances import Model
from tavernkeep.games.here_to_slay.state import HereToSlayState

MODEL = Model(features=("monsters slain", "heroes", "cards in hand"), weights=(1.0, 0.3, 0.2))


def features(st: HereToSlayState) -> list[list[float]]:
    return [
        [len(slain), len(party), len(hand)]
        for slain, party, hand in zip(st.slain, st.parties, st.hands, strict=True)
    ]


def chances(st: HereToSlayState) -> list[float]:
    return MODEL.shares(features(st))
