"""Exact odds: hand-checked values, brute-force enumeration, the parser and the CLI text."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavernkeep.engine.errors import TavernkeepError
from tavernkeep.engine.odds import (
    Expression,
    OddsError,
    best_rescue,
    chance,
    format_odds,
    meet_chance,
    meet_chance_with_rescue,
    parse_expression,
)

COMPARE = {
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    "==": lambda a, b: a == b,
}


def meets(total: int, goal: int, exact: bool) -> bool:
    return total == goal if exact else total >= goal


def brute_chance(n_dice: int, sides: int, op: str, target: int, modifier: int = 0) -> Fraction:
    rolls = list(itertools.product(range(1, sides + 1), repeat=n_dice))
    hits = sum(1 for roll in rolls if COMPARE[op](sum(roll) + modifier, target))
    return Fraction(hits, len(rolls))


def brute_rescue(dice: tuple[int, ...], goal: int, exact: bool, sides: int = 6) -> Fraction:
    """The best chance over every single die the player could re-roll."""
    best = Fraction(0)
    for i in range(len(dice)):
        rest = sum(dice) - dice[i]
        hits = sum(1 for face in range(1, sides + 1) if meets(rest + face, goal, exact))
        best = max(best, Fraction(hits, sides))
    return best


def brute_with_rescue(n_dice: int, goal: int, exact: bool) -> Fraction:
    rolls = list(itertools.product(range(1, 7), repeat=n_dice))
    total = Fraction(0)
    for roll in rolls:
        total += 1 if meets(sum(roll), goal, exact) else brute_rescue(roll, goal, exact)
    return total / len(rolls)


# --- chance and meet_chance -------------------------------------------------------------


@pytest.mark.parametrize(
    ("n_dice", "sides", "op", "target", "modifier", "expected"),
    [
        (2, 6, ">=", 7, 0, Fraction(21, 36)),
        (3, 6, ">=", 12, 0, Fraction(81, 216)),
        (2, 6, "==", 7, 0, Fraction(6, 36)),
        (1, 6, ">=", 4, 0, Fraction(1, 2)),
        (1, 20, "<=", 12, 0, Fraction(12, 20)),
        (2, 6, ">=", 8, 1, Fraction(21, 36)),  # 2d6+1 >= 8 is 2d6 >= 7
        (1, 6, ">", 4, 0, Fraction(2, 6)),
        (1, 6, "<", 1, 0, Fraction(0)),
        (2, 6, ">=", 13, 0, Fraction(0)),
        (0, 6, ">=", 0, 0, Fraction(1)),  # no dice sum to 0
        (0, 6, "==", 3, 3, Fraction(1)),
        (0, 6, "<", 0, 0, Fraction(0)),
    ],
)
def test_chance_hand_checked(
    n_dice: int, sides: int, op: str, target: int, modifier: int, expected: Fraction
) -> None:
    assert chance(n_dice, sides, op, target, modifier) == expected


@given(
    n_dice=st.integers(0, 3),
    sides=st.integers(2, 8),
    op=st.sampled_from(list(COMPARE)),
    target=st.integers(-3, 28),
    modifier=st.integers(-4, 4),
)
def test_chance_matches_enumeration(
    n_dice: int, sides: int, op: str, target: int, modifier: int
) -> None:
    assert chance(n_dice, sides, op, target, modifier) == brute_chance(
        n_dice, sides, op, target, modifier
    )


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        ((-1, 6, ">=", 3), "n_dice"),
        ((101, 6, ">=", 3), "n_dice"),
        ((2, 0, ">=", 3), "sides"),
        ((2, 1001, ">=", 3), "sides"),
        ((30, 1000, ">=", 3), "too large"),
        ((2, 6, "=>", 3), "op"),
        ((2, 6, "!=", 3), "op"),
        ((2.0, 6, ">=", 3), "n_dice"),
        ((True, 6, ">=", 3), "n_dice"),
        ((2, 6, ">=", "7"), "target"),
    ],
)
def test_chance_rejects_bad_input(args: tuple[object, ...], problem: str) -> None:
    with pytest.raises(ValueError, match=problem) as caught:
        chance(*args)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)


def test_meet_chance_d6_quests() -> None:
    assert meet_chance(2, 7, exact=False) == pytest.approx(21 / 36)
    assert meet_chance(3, 12, exact=False) == pytest.approx(81 / 216)
    assert meet_chance(2, 7, exact=True) == pytest.approx(6 / 36)
    assert meet_chance(1, 4, exact=False) == pytest.approx(1 / 2)
    assert meet_chance(3, 19, exact=False) == 0.0
    assert meet_chance(3, 3, exact=False) == 1.0
    assert meet_chance(3, 2, exact=True) == 0.0
    assert isinstance(meet_chance(2, 7, exact=False), float)


@pytest.mark.parametrize("n_dice", [1, 2, 3])
@pytest.mark.parametrize("exact", [False, True])
def test_meet_chance_matches_enumeration(n_dice: int, exact: bool) -> None:
    for goal in range(0, 20):
        op = "==" if exact else ">="
        expected = float(brute_chance(n_dice, 6, op, goal))
        assert meet_chance(n_dice, goal, exact) == pytest.approx(expected, abs=1e-12)


# --- best_rescue ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "goal", "exact", "sides", "value", "expected"),
    [
        # 12+ from (1, 6): re-rolling the 1 needs a 6; re-rolling the 6 can never reach 12.
        ((1, 6), 12, False, 6, 1, Fraction(1, 6)),
        ((6, 1), 12, False, 6, 1, Fraction(1, 6)),
        # Exactly 7 from (2, 3): the 2 needs a 4, the 3 needs a 5; a tie, so the lower value.
        ((2, 3), 7, True, 6, 2, Fraction(1, 6)),
        # Exactly 4 from (5, 1): only re-rolling the 5 can work (it needs a 3).
        ((5, 1), 4, True, 6, 5, Fraction(1, 6)),
        ((1, 5), 4, True, 6, 5, Fraction(1, 6)),
        # Exactly 9 from (1, 5): re-rolling the 1 needs a 4; the 5 would need an 8.
        ((1, 5), 9, True, 6, 1, Fraction(1, 6)),
        # 10+ from (1, 2, 3): re-rolling the 1 keeps 5, needs 5+.
        ((3, 2, 1), 10, False, 6, 1, Fraction(2, 6)),
        # Already met: re-rolling a 6 of (6, 6) for 12+ is a 1-in-6 chance to stay there.
        ((6, 6), 12, False, 6, 6, Fraction(1, 6)),
        # Already met and a re-roll cannot lose: 2+ with two dice.
        ((3, 4), 2, False, 6, 3, Fraction(1)),
        # Hopeless: 13+ from two dice; ties go to the lowest value.
        ((4, 2), 13, False, 6, 2, Fraction(0)),
        # d8: 9+ from (1, 2) -> re-roll the 1, keep 2, need 7+ on a d8.
        ((1, 2), 9, False, 8, 1, Fraction(2, 8)),
    ],
)
def test_best_rescue_cases(
    dice: tuple[int, ...], goal: int, exact: bool, sides: int, value: int, expected: Fraction
) -> None:
    chosen, after = best_rescue(dice, goal, exact, sides)
    assert chosen == value
    assert after == pytest.approx(float(expected), abs=1e-12)


@pytest.mark.parametrize("n_dice", [1, 2, 3])
@pytest.mark.parametrize("exact", [False, True])
def test_best_rescue_matches_enumeration(n_dice: int, exact: bool) -> None:
    for goal in range(0, 20):
        for dice in itertools.product(range(1, 7), repeat=n_dice):
            value, after = best_rescue(dice, goal, exact)
            assert value in dice
            assert after == pytest.approx(float(brute_rescue(dice, goal, exact)), abs=1e-12)
            # The value it names really gives that chance when re-rolled.
            rest = sum(dice) - value
            hits = sum(1 for face in range(1, 7) if meets(rest + face, goal, exact))
            assert after == pytest.approx(hits / 6, abs=1e-12)
            if not exact:
                assert value == min(dice)


@pytest.mark.parametrize(
    ("dice", "sides", "problem"),
    [
        ((), 6, "dice"),
        ((0, 3), 6, "each die"),
        ((7, 3), 6, "each die"),
        ((3, 9), 8, "each die"),
        ((3,), 0, "sides"),
    ],
)
def test_best_rescue_rejects_bad_dice(dice: tuple[int, ...], sides: int, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        best_rescue(dice, 7, False, sides)


# --- meet_chance_with_rescue -------------------------------------------------------------


@pytest.mark.parametrize("n_dice", [1, 2, 3])
@pytest.mark.parametrize("exact", [False, True])
def test_rescue_chance_matches_enumeration(n_dice: int, exact: bool) -> None:
    for goal in range(0, 21):
        expected = brute_with_rescue(n_dice, goal, exact)
        got = meet_chance_with_rescue(n_dice, goal, exact)
        assert got == pytest.approx(float(expected), abs=1e-12), (n_dice, goal, exact)
        assert got >= meet_chance(n_dice, goal, exact)


def test_rescue_chance_hand_checked() -> None:
    # Exactly 7 on 2d6: any failed roll has exactly one face that fixes it.
    assert meet_chance_with_rescue(2, 7, exact=True) == pytest.approx(1 / 6 + 5 / 6 * 1 / 6)
    # 4+ on 1d6: fail (1/2), then re-roll the only die (1/2).
    assert meet_chance_with_rescue(1, 4, exact=False) == pytest.approx(3 / 4)
    assert meet_chance_with_rescue(3, 19, exact=False) == 0.0


def test_rescue_chance_needs_a_die() -> None:
    with pytest.raises(ValueError, match="n_dice"):
        meet_chance_with_rescue(0, 3, exact=False)


# --- parse_expression -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3d6>=12", Expression(3, 6, 0, ">=", 12)),
        ("2d6==7", Expression(2, 6, 0, "==", 7)),
        ("2d6 = 7", Expression(2, 6, 0, "==", 7)),
        ("1d20<=12", Expression(1, 20, 0, "<=", 12)),
        ("2d6+1>=8", Expression(2, 6, 1, ">=", 8)),
        ("d6>4", Expression(1, 6, 0, ">", 4)),
        ("4d8-2 < 10", Expression(4, 8, -2, "<", 10)),
        ("  3D6 >= 12  ", Expression(3, 6, 0, ">=", 12)),
        ("2 d 6 + 3 > 9", Expression(2, 6, 3, ">", 9)),
        ("1d6 > -1", Expression(1, 6, 0, ">", -1)),
        ("100d100>=5000", Expression(100, 100, 0, ">=", 5000)),
    ],
)
def test_parse_accepts(text: str, expected: Expression) -> None:
    assert parse_expression(text) == expected


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("3x6>=12", "cannot read '3x6>=12': expected dice like '3d6>=12' or '2d6==7'"),
        ("3d6", "no comparison"),
        ("", "cannot read ''"),
        ("3d6=>12", "expected dice like"),
        ("3d6>=", "expected dice like"),
        ("3d6>=12>=3", "expected dice like"),
        ("-3d6>=1", "expected dice like"),
        ("3d6 != 4", "expected dice like"),
        ("0d6>=1", "number of dice must be 1 to 100"),
        ("101d6>=1", "number of dice must be 1 to 100"),
        ("3d1>=2", "2 to 1000 sides"),
        ("3d1001>=2", "2 to 1000 sides"),
        ("30d1000>=5", "too large"),
        ("1234567890d6>=1", "too long"),
    ],
)
def test_parse_rejects(text: str, problem: str) -> None:
    with pytest.raises(OddsError) as caught:
        parse_expression(text)
    message = str(caught.value)
    assert problem in message
    assert "\n" not in message
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, TavernkeepError)


def test_expression_text_round_trips() -> None:
    for text in ["3d6 >= 12", "2d6+1 >= 8", "4d8-2 < 10", "1d20 == 1"]:
        assert str(parse_expression(text)) == text


# --- format_odds ------------------------------------------------------------------------


def test_format_odds_plain() -> None:
    assert format_odds("3d6>=12") == "P(3d6 >= 12) = 0.3750  (81/216, 37.50%)"
    assert format_odds("2d6 = 7") == "P(2d6 == 7) = 0.1667  (6/36, 16.67%)"
    assert format_odds("d6>4") == "P(1d6 > 4) = 0.3333  (2/6, 33.33%)"
    assert format_odds("2d6+1>=8") == "P(2d6+1 >= 8) = 0.5833  (21/36, 58.33%)"


def test_format_odds_leaves_out_unreadable_counts() -> None:
    # 6**20 has 16 digits: the count would not help a person.
    text = format_odds("20d6>=70")
    assert text.startswith("P(20d6 >= 70) = 0.")
    assert "/" not in text


def test_format_odds_with_rescue() -> None:
    expected = float(brute_with_rescue(3, 12, exact=False))
    lines = format_odds("3d6>=12", rescue=True).splitlines()
    assert lines == [
        "P(3d6 >= 12) = 0.3750  (81/216, 37.50%)",
        f"with one rescue re-roll of the best die: {expected:.4f} ({expected:.2%})",
    ]
    lines = format_odds("2d6==7", rescue=True).splitlines()
    assert lines[1] == "with one rescue re-roll of the best die: 0.3056 (30.56%)"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("3d8>=12", "d6"),
        ("2d6+1>=8", "modifier"),
        ("3d6<5", "'>=' or '=='"),
        ("20d6>=30", "10 dice"),
    ],
)
def test_format_odds_refuses_rescue_where_it_does_not_apply(text: str, reason: str) -> None:
    with pytest.raises(OddsError, match=reason) as caught:
        format_odds(text, rescue=True)
    assert "\n" not in str(caught.value)
    # Without the rescue the same expression is fine.
    assert format_odds(text).startswith("P(")


def test_format_odds_bad_text() -> None:
    with pytest.raises(OddsError, match="cannot read '3x6>=12'"):
        format_odds("3x6>=12")
