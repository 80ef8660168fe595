"""Whether a decision may be taken back: the rule Board Game Arena plays by, asked of any
game through the protocol.

A person may take back their own latest decisions while the decision is still theirs, if
none of them showed them anything: no die rolled, no card drawn, no hidden card or hidden
fact told by how it turned out. Which decisions those are is a question of the rules, so
each game answers it (`Game.reveals`), soundly: a decision is offered back only where the
game can say it reveals nothing in any deal the seat cannot tell from the true one. Deals
drawn at random (`Game.determinize`) judge those answers in the tests, a thousand at every
kind of decision (tests/games/test_every_decision.py), never a person's table: a decision
that shows something in one deal of eight passes twelve sampled deals one time in five.

Asked around a legal action, the judgement never turns it into an error: a game's answer
that fails is "it may reveal", the action stands and is played.
"""

from __future__ import annotations

import logging
from typing import Any

from tavernkeep.engine.actions import Action
from tavernkeep.engine.game import Game

log = logging.getLogger(__name__)


def may_take_back(
    game: Game[Any, Any], state: Any, seat: int, action: Action, after: Any = None
) -> bool:
    """Whether `seat`'s legal `action` in `state` (left unchanged) may be taken back: the
    decision stays `seat`'s after it, and the game says it showed them nothing. `after` is
    the state the action leads to, if the caller has played it on a copy already."""
    try:
        if after is None:
            after = game.clone(state)
            game.apply(after, action, False)
        return game.actor(after) == seat and not game.reveals(state, action, after)
    except Exception:
        # A fault in the judgement must never refuse a legal choice: it stands instead.
        log.exception("take-back judgement failed for %s in %s", action.text, game.name)
        return False
