"""engine/takeback.py: a decision that rolled a die or showed a hidden card is told apart
from one that showed nothing, in any game, through the Game protocol alone."""

from __future__ import annotations

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import Match
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.takeback import tells_nothing
from tavernkeep.games import get_game


def test_a_step_in_the_dark_tells_nothing_and_a_quest_roll_tells_its_dice() -> None:
    rage = get_game("rage")
    night = Match.start(rage, [RandomBot()], seed=11)
    assert tells_nothing(rage, night.state, 0, Action.parse("step:0"), Rng(1))

    hack = get_game("hack-and-slash")
    table = Match.start(hack, [RandomBot()] * 3, seed=4)
    seat = hack.actor(table.state)
    assert seat is not None
    quest = next(a for a in hack.legal_actions(table.state) if a.kind == "quest")
    before = hack.view(table.state, seat)
    assert not tells_nothing(hack, table.state, seat, quest, Rng(1))
    assert hack.view(table.state, seat) == before, "the state asked about is left as it was"


def test_a_drawn_card_is_news_to_the_one_who_draws_it() -> None:
    slay = get_game("here-to-slay")
    match = Match.start(slay, [RandomBot()] * 3, seed=5)
    while True:
        seat = slay.actor(match.state)
        assert seat is not None
        legal = slay.legal_actions(match.state)
        draw = next((a for a in legal if a.kind == "draw"), None)
        if draw is not None:
            break
        match.step()
    assert not tells_nothing(slay, match.state, seat, draw, Rng(2))
