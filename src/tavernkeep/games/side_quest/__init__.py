"""Side Quest (Tap To Win): a co-operative dungeon crawl for 1-4 heroes.

`rules.py` is the Game (the protocol) and the flow of a game turn, `state.py` the state,
`config.py` the options; `content.py` and `content/standard.toml` the cards (CONTENT.md),
and RULES.md the readings the rules follow. The rules play the first level so far; the
docstring of `rules.py` says which rules are still to come.
"""

from tavernkeep.games.side_quest.rules import SideQuest, SideQuestState

GAME = SideQuest()

__all__ = ["GAME", "SideQuest", "SideQuestState"]
