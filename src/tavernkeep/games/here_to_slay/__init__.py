"""Here to Slay (Unstable Games, 2nd edition): heroes, items, magic and monsters for 2-6.

`rules.py` is the Game (the protocol); `turn.py`, `rolls.py`, `effects.py` and `table.py`
how a game moves, frame by frame on the decision stack; `state.py` the state; `cards.py`
a pack turned into numbered cards; `content.py` and `content/standard.toml` the content;
`heuristic.py` its bot and `terminal.py` how it looks in a terminal.
"""

from tavernkeep.games.here_to_slay.rules import HereToSlay, HereToSlayState

GAME = HereToSlay()

__all__ = ["GAME", "HereToSlay", "HereToSlayState"]
