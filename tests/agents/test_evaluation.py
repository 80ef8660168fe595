"""The games' evaluations of unfinished positions (`Game.evaluator`), which a search cut
short at a horizon backs up: one chance a seat, in [0, 1], shares of one win in a
competitive game, one team chance in every seat otherwise, and higher where a player
would say the position is better."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.chances import odds, shares
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import Match
from tavernkeep.games import all_games, get_game

JUDGED = [g for g in all_games() if g.evaluator() is not None]


def positions(game: Game[Any, Any], games: int = 6) -> list[Any]:
    """Every fifth state of a few random games, unfinished."""
    players = game.make_config({}).players  # type: ignore[attr-defined]
    found = []
    for seed in range(games):
        match = Match.start(game, [RandomBot()] * players, seed=seed)
        while not game.is_over(match.state):
            if match.actions % 5 == 0:
                found.append(game.clone(match.state))
            match.step()
    return found


def test_every_game_but_hack_and_slash_can_evaluate() -> None:
    # Hack & Slash plays a random game to its end in a tenth of a millisecond: its
    # search needs no cut.
    assert {g.name for g in JUDGED} == {
        "here-to-slay",
        "crits-and-tricks",
        "side-quest",
        "rage",
    }


@pytest.mark.parametrize("game", JUDGED, ids=lambda g: g.name)
def test_an_evaluation_is_a_chance_for_every_seat(game: Game[Any, Any]) -> None:
    judge = game.evaluator()
    assert judge is not None
    for state in positions(game):
        chances = judge(state)
        assert len(chances) == getattr(state, "players", 1)
        assert all(0.0 <= c <= 1.0 for c in chances)
        if game.kind == "competitive":
            assert math.isclose(sum(chances), 1.0)
        else:
            assert len(set(chances)) == 1


def new_game(name: str, players: int) -> tuple[Game[Any, Any], Callable[[Any], list[float]], Any]:
    """A game, its evaluation and a fresh table of `players` (seed 1)."""
    game = get_game(name)
    judge = game.evaluator()
    assert judge is not None
    options = {"players": players} if players > 1 else {}
    return game, judge, game.setup(game.make_config(options), 1)


def test_loot_ahead_is_a_better_chance_in_crits_and_tricks() -> None:
    _, judge, state = new_game("crits-and-tricks", 3)
    assert judge(state) == pytest.approx([1 / 3] * 3)
    state.loot[1] = 4
    early = judge(state)
    assert early[1] > early[0] == pytest.approx(early[2])
    # The same lead with one trick left to play is worth more.
    state.round, state.trick = state.config.rounds, state.config.tricks
    assert judge(state)[1] > early[1]


def test_a_slain_monster_is_a_better_chance_in_here_to_slay() -> None:
    _, judge, state = new_game("here-to-slay", 2)
    even = judge(state)
    state.slain[0].append(state.monster_deck.pop())
    assert judge(state)[0] > even[0]


def test_food_and_health_are_a_better_chance_in_rage() -> None:
    game, judge, state = new_game("rage", 1)
    start = judge(state)[0]
    fed = game.clone(state)
    fed.bag = 10
    assert judge(fed)[0] > start
    hurt = game.clone(state)
    hurt.hp -= 2
    assert judge(hurt)[0] < start


def test_a_wounded_hero_is_a_worse_chance_in_side_quest() -> None:
    _, judge, state = new_game("side-quest", 2)
    start = judge(state)
    state.health[1] = 1
    assert judge(state)[0] < start[0]


def test_shares_and_odds_are_chances() -> None:
    assert shares([0.0, 0.0]) == [0.5, 0.5]
    # Large strengths do not overflow: only their differences count.
    assert shares([1000.0, 1000.0 + math.log(3)]) == pytest.approx([0.25, 0.75])
    assert odds(0.0) == 0.5
    assert odds(-800.0) == 0.0 and odds(800.0) == 1.0
