"""How a Side Quest position stands: the team's chance of slaying the last Boss, for the
search cut short at a horizon (`Game.evaluator`, `bot:mcts:...:cutN`).

The log-odds of a win count the level reached, the health of the most wounded hero (one
hero at 0 loses for everyone), the turns spent on this level (the Damsels sink and the
Monsters gather) and the weapons and items the heroes carry. Fitted by logistic
regression (`benchmarks/fit_evaluation.py`) on every fourth decision of 200 games of the
bot team with two heroes in the standard scenario (7,053 positions, 154 games won): the
log-loss fell from 0.51 (the win rate alone) to 0.38. The heroes' total health added
nothing once the lowest was counted.
"""

from __future__ import annotations

from tavernkeep.engine.chances import Model
from tavernkeep.games.side_quest.state import SideQuestState

MODEL = Model(
    features=("level", "lowest health", "turns on this level", "weapons and items"),
    weights=(0.80, 0.65, -0.15, 0.39),
    base=-3.03,
)


def features(st: SideQuestState) -> list[float]:
    gear = sum(len(w) for w in st.weapons) + sum(len(i) for i in st.items)
    return [st.level, min(st.health), st.level_turns, gear]


def chances(st: SideQuestState) -> list[float]:
    """The team's chance, once for each hero's seat."""
    return MODEL.team(features(st), st.players)
