"""Side Quest (Tap To Win): a co-operative dungeon crawl for 1-4 heroes.

`rules.py` is the Game (the protocol); the game itself is played by modules named for
their part of it (`turn.py`, `rolls.py`, `effects.py`, `combat.py`, `monsters.py`,
`locations.py`, `heroes.py`, `dungeon.py`, `cards.py`; rules.py says which is which),
and what each choice shows: `chances.py` (its dice's exact chances) and `labels.py`.
`state.py` is the state, `config.py` the options; `content.py` and
`content/standard.toml` the cards (CONTENT.md), and RULES.md the readings the rules
follow. `heuristic.py` is the bot team (`bot:heuristic`), `terminal.py` draws the dungeon
row for terminal play; the browser draws it with `web/renderer.js`, in the look of
`web/style.css`.
"""

from tavernkeep.games.side_quest.rules import SideQuest, SideQuestState

GAME = SideQuest()

__all__ = ["GAME", "SideQuest", "SideQuestState"]
