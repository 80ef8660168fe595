"""Crits & Tricks (InsideUp Games): trick-taking with dice, for 2-4.

`rules.py` is the Game (the protocol) and the flow of a round; `tricks.py` who takes a
trick; `history.py` the trick records that quests and the Barkeep read; `state.py` the
state; `content.py` and `content/standard.toml` the quests and Barkeep's Challenges;
`heuristic.py` its bot, `chances.py` what a seat is told at a decision (who would take
the trick, the dice's exact odds) and `terminal.py` how it looks in a terminal.
"""

from tavernkeep.games.crits_and_tricks.rules import CritsAndTricks, CritsAndTricksState

GAME = CritsAndTricks()

__all__ = ["GAME", "CritsAndTricks", "CritsAndTricksState"]
