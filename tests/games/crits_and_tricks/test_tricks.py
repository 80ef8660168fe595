"""Who takes a trick (RULES 10, 13, 15-18): each suit's dice requirement and every
tie-breaker, on lays written out by hand.

A lay is one seat's card on the table; `lay()` builds it with the seat's turn order as its
place in the tie-break unless a test moves it (a Rogue's crit) and no Paladin crit.
"""

from __future__ import annotations

import pytest

from tavernkeep.games.crits_and_tricks.tricks import (
    BARBARIAN,
    BARD,
    DRUID,
    NEVER,
    PALADIN,
    ROGUE,
    WIZARD,
    Lay,
    break_tie,
    winner,
)


def lay(
    seat: int,
    value: int,
    die: int = 20,
    suit: int | None = None,
    followed: bool = True,
    order: int | None = None,
    paladin: int = NEVER,
    led: int = BARBARIAN,
) -> Lay:
    return Lay(
        seat,
        led if suit is None else suit,
        followed,
        die,
        value,
        seat if order is None else order,
        paladin,
    )


def table(led: int, *values: int, die: int = 20) -> list[Lay]:
    """One lay a seat, seats in turn order 0, 1, 2..., all of the led suit on one die size."""
    return [lay(seat, value, die=die, led=led) for seat, value in enumerate(values)]


# -- each suit's dice requirement ---------------------------------------------------------


def test_barbarian_highest_value_wins() -> None:
    assert winner(BARBARIAN, table(BARBARIAN, 7, 15, 3)) == 1
    assert winner(BARBARIAN, table(BARBARIAN, 19, 15, 18, 2)) == 0


def test_rogue_lowest_value_wins() -> None:
    assert winner(ROGUE, table(ROGUE, 7, 15, 3)) == 2
    assert winner(ROGUE, table(ROGUE, 1, 15, 3, 20)) == 0


def test_wizard_closest_to_five_wins() -> None:
    assert winner(WIZARD, table(WIZARD, 9, 5, 1)) == 1
    assert winner(WIZARD, table(WIZARD, 12, 3, 8)) == 1
    assert winner(WIZARD, table(WIZARD, 2, 7, 20)) == 1


def test_wizard_four_and_six_tie_and_the_tie_breakers_decide() -> None:
    # 4 and 6 are both one away from 5: the tie goes to the later in turn order ...
    assert winner(WIZARD, table(WIZARD, 4, 6)) == 1
    assert winner(WIZARD, table(WIZARD, 6, 4)) == 1
    # ... unless the dice differ: the larger die wins, wherever it sits.
    lays = [lay(0, 6, die=12, led=WIZARD), lay(1, 4, die=8, led=WIZARD)]
    assert winner(WIZARD, lays) == 0


def test_druid_second_highest_value_counts_values_not_cards() -> None:
    # 9, 9 and 4 on the table: the second-highest value shown is 4.
    assert winner(DRUID, table(DRUID, 9, 9, 4)) == 2
    assert winner(DRUID, table(DRUID, 9, 4, 9)) == 1
    assert winner(DRUID, table(DRUID, 12, 3, 8, 10)) == 3


def test_druid_with_a_lone_follower_that_card_wins() -> None:
    lays = [
        lay(0, 7, led=DRUID),
        lay(1, 15, suit=BARBARIAN, followed=False),
        lay(2, 12, suit=WIZARD, followed=False),
    ]
    assert winner(DRUID, lays) == 0


def test_druid_with_all_values_equal_the_tie_breakers_decide() -> None:
    assert winner(DRUID, table(DRUID, 6, 6, 6)) == 2
    lays = [lay(0, 6, die=20, led=DRUID), lay(1, 6, die=8, led=DRUID), lay(2, 6, die=6, led=DRUID)]
    assert winner(DRUID, lays) == 0


def test_druid_ties_on_the_second_value_are_broken_as_usual() -> None:
    lays = [
        lay(0, 11, die=12, led=DRUID),
        lay(1, 5, die=10, led=DRUID),
        lay(2, 5, die=6, led=DRUID),
        lay(3, 3, die=20, led=DRUID),
    ]
    assert winner(DRUID, lays) == 1


def test_paladin_only_the_lead_die_size_competes() -> None:
    lays = [
        lay(0, 3, die=8, led=PALADIN),
        lay(1, 20, die=20, led=PALADIN),
        lay(2, 7, die=8, led=PALADIN),
        lay(3, 12, die=12, led=PALADIN),
    ]
    assert winner(PALADIN, lays) == 2


def test_paladin_the_lead_card_wins_when_nobody_matches_its_die() -> None:
    lays = [
        lay(0, 1, die=4, led=PALADIN),
        lay(1, 20, die=20, led=PALADIN),
        lay(2, 8, die=8, led=PALADIN),
    ]
    assert winner(PALADIN, lays) == 0


def test_paladin_a_bard_on_the_lead_die_size_competes() -> None:
    lays = [lay(0, 5, die=10, led=PALADIN), lay(1, 9, die=10, suit=BARD)]
    assert winner(PALADIN, lays) == 1


@pytest.mark.parametrize("led", [BARBARIAN, ROGUE, WIZARD, DRUID, PALADIN])
def test_off_suit_cards_never_win(led: int) -> None:
    # The off-suit cards have the best values for every requirement: 20/1/5 and more.
    off = BARBARIAN if led != BARBARIAN else ROGUE
    lays = [
        lay(0, 13, die=12, led=led),
        lay(1, 20, die=20, suit=off, followed=False),
        lay(2, 1, die=12, suit=off, followed=False),
        lay(3, 5, die=12, suit=off, followed=False, paladin=1),
    ]
    assert winner(led, lays) == 0


def test_a_bard_that_followed_can_win() -> None:
    lays = [lay(0, 4, led=ROGUE), lay(1, 2, suit=BARD), lay(2, 1, suit=BARBARIAN, followed=False)]
    assert winner(ROGUE, lays) == 1


# -- the tie-breakers ------------------------------------------------------------------


def test_a_paladin_crit_wins_a_tie_over_a_larger_die_and_a_later_seat() -> None:
    lays = [
        lay(0, 8, die=8, paladin=1),
        lay(1, 8, die=20),
        lay(2, 8, die=12),
    ]
    assert winner(BARBARIAN, lays) == 0


def test_a_paladin_crit_does_not_help_a_card_that_is_not_tied() -> None:
    lays = [lay(0, 7, die=8, paladin=1), lay(1, 8, die=8)]
    assert winner(BARBARIAN, lays) == 1


def test_a_paladin_crit_works_in_a_trick_of_any_suit() -> None:
    for led in (BARBARIAN, ROGUE, WIZARD, DRUID):
        lays = [lay(0, 5, die=6, led=led, paladin=1), lay(1, 5, die=20, led=led)]
        assert winner(led, lays) == 0


def test_among_several_paladin_crits_the_last_used_wins() -> None:
    lays = [
        lay(0, 9, die=10, paladin=2),
        lay(1, 9, die=20, paladin=1),
        lay(2, 9, die=12),
    ]
    assert winner(BARBARIAN, lays) == 0
    assert break_tie(lays) == 0
    lays = [lay(0, 9, die=10, paladin=1), lay(1, 9, die=20, paladin=3), lay(2, 9, paladin=2)]
    assert break_tie(lays) == 1


def test_without_a_paladin_crit_the_larger_die_wins_a_tie() -> None:
    for small, big in ((4, 6), (6, 8), (8, 10), (10, 12), (12, 20)):
        lays = [lay(0, 3, die=big), lay(1, 3, die=small)]
        assert winner(BARBARIAN, lays) == 0
        lays = [lay(0, 3, die=small), lay(1, 3, die=big)]
        assert winner(BARBARIAN, lays) == 1


def test_on_the_same_die_the_later_in_turn_order_wins() -> None:
    lays = [lay(0, 4, die=6, led=ROGUE), lay(1, 4, die=6, led=ROGUE), lay(2, 5, die=6, led=ROGUE)]
    assert winner(ROGUE, lays) == 1
    # Turn order is the lay's order, not its seat number: seat 0 played after seat 3.
    lays = [lay(3, 4, die=6, order=0), lay(0, 4, die=6, order=1)]
    assert break_tie(lays) == 0


def test_a_rogue_crit_makes_a_card_last_in_turn_order() -> None:
    players = 3
    # Seat 0 led and used a Rogue's crit: it now counts after everyone.
    lays = [
        lay(0, 10, die=12, order=players + 1),
        lay(1, 10, die=12, order=1),
        lay(2, 10, die=12, order=2),
    ]
    assert winner(BARBARIAN, lays) == 0
    # Two Rogue crits in a trick: the one used latest is last.
    lays = [
        lay(0, 10, die=12, order=players + 1),
        lay(1, 10, die=12, order=players + 3),
        lay(2, 10, die=12, order=2),
    ]
    assert winner(BARBARIAN, lays) == 1


def test_the_larger_die_beats_a_rogue_crit() -> None:
    lays = [lay(0, 10, die=20), lay(1, 10, die=12, order=9)]
    assert winner(BARBARIAN, lays) == 0


def test_break_tie_of_one_lay_is_that_lay() -> None:
    assert break_tie([lay(2, 1, die=4)]) == 2
