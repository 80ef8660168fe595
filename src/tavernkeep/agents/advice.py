"""The tutor: for a person's decision, the search's estimate of each choice's chance to win
the game, with a line of why from the game's heuristic (its `reasons.py`).

It is the search bot's own thinking (`agents/ismcts.py`), run from the seat's `InfoSet`
alone: every imagined game starts from a fresh guess at what the seat cannot see, so the
advice can tell nobody more than the seat knows (the same guarantee, and the same test,
as the search bot's). A person's table may allow it (`settings.advice`); `tavernkeep play
--advice` shows it at the terminal.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from tavernkeep.agents import make_bot
from tavernkeep.agents.ismcts import ISMCTSBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng

ADVICE_MS = 600
"""The tutor's thinking time a decision: within the second a person waits for it."""


@dataclass(frozen=True)
class Advice:
    action: Action
    win: float
    """The chance to win the game (the team's victory in a co-operative or solo game) by
    choosing this, as the search estimates it."""
    tried: int
    """How many imagined games the estimate rests on."""
    reason: str
    """A line of why, from the game's reasons (`reasons.py`): "re-roll the 2: 67% to save
    the quest, for 3 points and the 2 adventurers on it back"; empty where it has none
    (the choice's odds are shown beside it already)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action.text,
            "win": round(self.win, 3),
            "tried": self.tried,
            "reason": self.reason,
        }


class Reasons(Protocol):
    """A game's `reasons.py`, beside its heuristic bot: `reason(info, action)` says in a
    line what the heuristic sees in a choice, what it is worth and what it risks. It reads
    the seat's `InfoSet` alone (the view, the odds, the pack's public cards, or a
    `determinize`d deal from a fixed stream, which depends on the view alone), never the
    true state. The tutor shows it beside the search's number: the number says how good,
    the line says why. A module of its own, not the bot's: simulations compile and run the
    bot by the million, and the words are for a person, once a decision."""

    def reason(self, info: InfoSet, action: Action) -> str: ...


@cache
def reasons_for(game: Game[Any, Any]) -> Reasons | None:
    """The game's `reasons` module, if it has one (found as `terminal.py` is)."""
    name = type(game).__module__.rpartition(".")[0] + ".reasons"
    try:
        module: Reasons = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise  # the module is there and needs something missing: a bug to see
        return None
    return module


def reason(info: InfoSet, action: Action) -> str:
    """The line of why for `action`, from the game's reasons; "" where it has none."""
    reasons = reasons_for(info.game)
    return reasons.reason(info, action) if reasons is not None else ""


def advise(
    info: InfoSet, rng: Rng, spec: str | None = None, stop: Callable[[], bool] | None = None
) -> list[Advice]:
    """Each legal action's chance to win, best first, by the search from `info` alone.
    `spec` is the search (`bot:mcts:...`; by default `ADVICE_MS` milliseconds); `stop`
    may end it early (`ISMCTSBot.stop`)."""
    game = info.game
    actions = info.legal_actions()
    bot = make_bot(spec or f"bot:mcts:{ADVICE_MS}ms", game)
    assert isinstance(bot, ISMCTSBot), "the tutor is the search"
    bot.stop = stop
    kids: dict[Action, Any] = {}
    if len(actions) > 1:
        kids = bot.search(info, rng).children.get(info.seat, {})
    out = []
    for action in actions:
        child = kids.get(action)
        tried = child.visits if child is not None else 0
        win = child.wins / child.visits if child is not None and child.visits else 0.0
        if len(actions) == 1:
            win, tried = 1.0, 0  # nothing to choose: the estimate says nothing
        out.append(Advice(action, win, tried, reason(info, action)))
    out.sort(key=lambda a: (-a.win, -a.tried))
    return out
