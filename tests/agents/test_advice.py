"""The tutor (issue 25, item 3): each choice's chance to win, by the search from the seat's
view alone. Its numbers for a seat are the same whatever the seat cannot see: two tables
that differ only in other seats' hidden cards (and the dice to come) get the same advice."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tavernkeep.agents import make_bot
from tavernkeep.agents.advice import advise
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games import get_game

POSITIONS = [
    ("hack-and-slash", 4, 3, 6),
    ("here-to-slay", 3, 5, 40),
    ("crits-and-tricks", 3, 2, 10),
    ("side-quest", 2, 2, 12),
    ("rage", 1, 4, 5),
]


def midgame(name: str, players: int, seed: int, actions: int) -> tuple[Game[Any, Any], Any]:
    """A state some random actions into a game, at a decision of two or more choices."""
    game = get_game(name)
    match = Match.start(game, [make_bot("bot:random", game)] * players, seed=seed)
    while match.actions < actions or len(game.legal_actions(match.state)) < 2:
        if game.actor(match.state) is None:  # over before then: another game
            match = Match.start(game, [make_bot("bot:random", game)] * players, seed=seed + 1)
            seed += 1
        match.step()
    return game, match.state


@pytest.mark.parametrize(("name", "players", "seed", "actions"), POSITIONS, ids=lambda v: str(v))
def test_the_advice_is_the_same_whatever_the_seat_cannot_see(
    name: str, players: int, seed: int, actions: int
) -> None:
    game, state = midgame(name, players, seed, actions)
    seat = game.actor(state)
    assert seat is not None
    # Another table the seat cannot tell from this one: the others' hands, the decks and
    # the dice to come dealt again.
    other = game.determinize(state, seat, Rng(99))
    assert game.view(other, seat) == game.view(state, seat)
    told = [
        [
            (a.action.text, a.win, a.tried, a.reason)
            for a in advise(InfoSet(game, s, seat, Rng(1)), Rng(7), "bot:mcts:150")
        ]
        for s in (state, other)
    ]
    assert told[0] == told[1]
    assert sum(tried for _, _, tried, _ in told[0]) == 150, "every imagined game counted"
    assert all(0.0 <= win <= 1.0 for _, win, _, _ in told[0])


def test_a_sure_loss_and_a_sure_chance_read_as_such() -> None:
    """Hack & Slash: a quest's advice follows its chance, the dice's line beside it."""
    game, state = midgame("hack-and-slash", 3, 7, 0)
    seat = game.actor(state)
    assert seat is not None
    advice = advise(InfoSet(game, state, seat, Rng(1)), Rng(3), "bot:mcts:300")
    assert {a.action for a in advice} == set(game.legal_actions(state))
    assert advice == sorted(advice, key=lambda a: (-a.win, -a.tried))
    quests = [a for a in advice if a.action.text.startswith("quest")]
    # The heuristic's line: the chance with the rescue it would try, the prize, the risk.
    line = re.compile(r"\d+% to complete it with a rescue, for .+; \d+ adventurers at stake")
    assert quests and all(line.fullmatch(a.reason) for a in quests), [a.reason for a in quests]
