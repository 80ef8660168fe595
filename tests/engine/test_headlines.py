"""How every front-end heads a finished game: `Game.headline`, one answer for all of them.

A co-operative or solo game is won or lost by the table, but not every ending is one or
the other: Rage's hero may escape alive with too little food, which is no victory and no
defeat. A game names such endings in `Game.ending_headlines`.
"""

from __future__ import annotations

import pytest

from tavernkeep.engine.game import Result
from tavernkeep.games import all_games, get_game


def result(ending: str, won: bool | None, winners: tuple[int, ...] = ()) -> Result:
    players = max(3, len(winners))
    return Result(
        scores=(0.0,) * players,
        ranks=(1,) * players,
        winners=winners,
        ending=ending,
        reason="because",
        won=won,
    )


def test_rage_heads_surviving_without_food_as_survival_not_defeat() -> None:
    rage = get_game("rage")
    survived = rage.headline(result("survived", False), 0)
    assert "Defeat" not in survived and "Victory" not in survived
    assert "survived" in survived.lower()
    assert rage.headline(result("won", True), 0) == "Victory!"
    assert rage.headline(result("died", False), None) == "Defeat."


def test_a_team_game_without_declared_headlines_says_victory_or_defeat() -> None:
    side_quest = get_game("side-quest")
    assert side_quest.headline(result("boss-slain", True), 0) == "Victory!"
    assert side_quest.headline(result("heroes-fell", False), None) == "Defeat."


@pytest.mark.parametrize(
    ("winners", "seat", "expected"),
    [
        ((1,), 1, "You win!"),
        ((1,), 0, "Player 2 wins"),
        ((1,), None, "Player 2 wins"),
        ((0, 2), 2, "You share the victory!"),
        ((0, 2), 1, "Player 1 and Player 3 share the victory"),
        ((), None, "The game is over"),
    ],
)
def test_a_competitive_ending_is_headed_for_whoever_reads_it(
    winners: tuple[int, ...], seat: int | None, expected: str
) -> None:
    game = get_game("hack-and-slash")
    assert game.headline(result("guild-empty", None, winners), seat) == expected


def test_every_declared_headline_is_short_and_one_line() -> None:
    for game in all_games():
        for ending, headline in game.ending_headlines.items():
            assert ending and headline
            assert "\n" not in headline and len(headline) <= 40, (game.name, ending)
