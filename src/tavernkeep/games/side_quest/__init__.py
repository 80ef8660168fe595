"""Side Quest (Tap To Win): a co-operative dungeon crawl for 1-4 heroes.

`rules.py` is the Game (the protocol) and the flow of a game turn, `state.py` the state,
`config.py` the options; `content.py` and `content/standard.toml` the cards (CONTENT.md),
and RULES.md the readings the rules follow. The game is not in the registry yet: its
bot team and renderers come next.
"""

from tavernkeep.games.side_quest.rules import SideQuest, SideQuestState

GAME = SideQuest()

__all__ = ["GAME", "SideQuest", "SideQuestState"]
