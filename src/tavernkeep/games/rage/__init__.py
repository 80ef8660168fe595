"""Rage (a 2014 print-and-play prototype): the solo stealth game in the fallen village.

`rules.py` is the Game (the protocol); `turn.py` plays a turn (the sneak, backstabs,
combat, the rage check, the skeletons' patrol); `hexes.py` is the hex geometry (lines,
sight cones, walls on hex edges); `content.py` the map's schema and the tables the
rules read, with the standard village in `content/village.toml` (MAP.md describes it);
`state.py` the state and `config.py` the options. RULES.md records every reading.
"""

from tavernkeep.games.rage.rules import Rage
from tavernkeep.games.rage.state import RageState

GAME = Rage()

__all__ = ["GAME", "Rage", "RageState"]
