"""The tutor's lines of why (each game's reasons.py, agents/advice.py), in every game: for
every legal action of positions random games reach, one short line (or nothing), and the
same line on any table the seat cannot tell from the true one: the line reads the seat's
view, never what it cannot see. Each game's own tests say what its lines say."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tavernkeep.agents.advice import reason, reasons_for
from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games import all_games

LONGEST = 120
"""Characters: a line beside a choice, not a paragraph."""
TABLES = {
    "hack-and-slash": [(3, 1), (5, 2)],
    "here-to-slay": [(2, 11), (4, 13), (6, 15)],
    "crits-and-tricks": [(2, 21), (3, 22), (4, 23)],
    "side-quest": [(1, 31), (3, 32)],
    "rage": [(1, 41), (1, 42)],
}
"""(players, seed) of the random games walked, by game."""
STEPS = 200
EVERY = 7
"""Every so many positions, the table is dealt again and the lines compared."""


def positions(game: Game[Any, Any], players: int, seed: int) -> Iterator[Any]:
    match = Match.start(game, [RandomBot() for _ in range(players)], seed=seed)
    while game.actor(match.state) is not None and match.actions < STEPS:
        yield match.state
        match.step()


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_line_is_short_and_the_same_whatever_the_seat_cannot_see(
    game: Game[Any, Any],
) -> None:
    assert reasons_for(game) is not None, f"{game.name} has no reasons.py"
    said = 0
    for players, seed in TABLES[game.name]:
        for k, state in enumerate(positions(game, players, seed)):
            seat = game.actor(state)
            assert seat is not None
            info = InfoSet(game, state, seat, Rng(1))
            lines = {a: reason(info, a) for a in game.legal_actions(state)}
            for action, line in lines.items():
                assert isinstance(line, str)
                assert "\n" not in line and len(line) <= LONGEST, (action.text, line)
                assert line == line.strip(), (action.text, line)
                said += bool(line)
            if k % EVERY:
                continue
            # Another table the seat cannot tell from this one: the others' hands, the
            # decks and the dice to come dealt again.
            other = game.determinize(state, seat, Rng(k))
            assert game.view(other, seat) == game.view(state, seat)
            again = InfoSet(game, other, seat, Rng(1))
            for action, line in lines.items():
                assert reason(again, action) == line, action.text
    assert said, f"{game.name}: not one line of why"
