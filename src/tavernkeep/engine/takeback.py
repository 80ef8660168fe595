"""Whether a decision may be taken back: the rule Board Game Arena plays by, asked of any
game through the protocol it already has.

A person may take back a decision that told them nothing: no die was rolled for it and
no hidden card was shown to them by it. The game need not say which of its actions those
are. `Game.determinize` deals a state the deciding seat cannot tell from the true one (its
hidden parts and its dice to come drawn again); if the decision told them nothing, what
they see after it (their view, and the events told to them: a roll's dice are in the log
even when the quest they decided is gone from the board) is the same in the true state and
in every such deal. One deal where it differs shows that the decision rolled or revealed
something, and it stands.

Chance could make a roll come out the same in every deal drawn, so `DEALS` deals are
drawn: a coin would have to fall the same way twelve times running (1 in 4,096) for a
flip to pass as telling nothing, a die far more.
"""

from __future__ import annotations

from typing import Any

from tavernkeep.engine.actions import Action
from tavernkeep.engine.game import Game
from tavernkeep.engine.rng import Rng

DEALS = 12


def tells_nothing(
    game: Game[Any, Any], state: Any, seat: int, action: Action, rng: Rng, deals: int = DEALS
) -> bool:
    """Whether `seat`'s `action` in `state` (left unchanged) showed `seat` nothing it
    could not already see: no die rolled, no hidden card revealed to them."""
    seen = _seen(game, game.clone(state), seat, action)
    for _ in range(deals):
        deal = game.determinize(game.clone(state), seat, rng)
        if _seen(game, deal, seat, action) != seen:
            return False
    return True


def _seen(game: Game[Any, Any], state: Any, seat: int, action: Action) -> tuple[Any, Any]:
    """What `seat` sees of `action` played in `state` (which it changes): the events told
    to it, and its view after."""
    events = game.apply(state, action, True)
    told = [seen.to_json() for event in events if (seen := event.for_seat(seat)) is not None]
    return told, game.view(state, seat)
