"""Exact dice odds for designers, bots and the quest table.

Chances are computed exactly (as fractions, with icepool) rather than simulated, because
designers compare quests whose chances differ by a point or two and a Monte Carlo estimate
would blur exactly that. Bots ask the same few questions thousands of times inside their
decision loops, so every computation is cached; the public functions validate their
arguments and then call a cached core, which keeps their signatures typed for callers.

Hack & Slash rules used here: a quest rolls n six-sided dice and sums them; the goal is
either "N+" (sum >= N) or "exactly N" (sum == N). After a failure the player may commit
one rescuer and re-roll exactly one die of their choice, adding no die.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import icepool

from tavernkeep.engine.errors import TavernkeepError

QUEST_SIDES = 6
"""Hack & Slash quests roll six-sided dice."""
MAX_DICE = 100
"""The most dice one expression may roll."""
MIN_SIDES = 2
"""A designer's 'd1' is almost surely a typo, so expressions need at least two sides."""
MAX_SIDES = 1000
"""The most sides a die may have."""
MAX_DICE_TIMES_SIDES = 10_000
"""icepool sums dice one at a time, so the work grows with (dice x sides) squared: at
10,000 (e.g. 10d1000 or 100d100) an exact answer takes about ten seconds; beyond it the
command would seem to hang."""
MAX_RESCUE_DICE = 10
"""Rescue odds enumerate every multiset of dice; 10d6 is 3,003 of them, and the game
itself never rolls more than 3."""
LONGEST_FRACTION = 10**12
"""format_odds prints count/total only while total fits a line a person can read."""

COMPARISONS = (">=", ">", "<=", "<", "==")
"""The comparisons an expression may use; a lone '=' is read as '=='."""

EXPECTED_FORM = "expected dice like '3d6>=12' or '2d6==7'"

_EXPRESSION = re.compile(
    r"""
    \s*(?P<n_dice>[0-9]*)\s*
    [dD]\s*(?P<sides>[0-9]+)\s*
    (?:(?P<sign>[+-])\s*(?P<modifier>[0-9]+)\s*)?
    (?P<op>>=|<=|==|=|>|<)\s*
    (?P<target_sign>[+-]?)\s*(?P<target>[0-9]+)\s*
    """,
    re.VERBOSE | re.ASCII,
)
_LONGEST_NUMBER = 9
"""Digits in any one number of an expression; longer ones are certainly mistakes."""


class OddsError(TavernkeepError, ValueError):
    """A dice expression or odds question that cannot be answered; the message is one line.

    It is a ValueError for callers that treat odds as plain math, and a TavernkeepError so
    the command line and server report it like every other bad input.
    """


@dataclass(frozen=True)
class Expression:
    """A designer's roll question such as '2d6+1 >= 8': (sum of dice) + modifier op target."""

    n_dice: int
    sides: int
    modifier: int
    op: str
    target: int

    def __str__(self) -> str:
        modifier = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.n_dice}d{self.sides}{modifier} {self.op} {self.target}"

    def probability(self) -> Fraction:
        """The exact chance that this roll meets its comparison."""
        return chance(self.n_dice, self.sides, self.op, self.target, self.modifier)


def _require_int(name: str, value: object, low: int | None = None, high: int | None = None) -> int:
    # bool is an int subclass, but True dice or True sides is always a caller's mistake.
    if not isinstance(value, int) or isinstance(value, bool):
        raise OddsError(f"{name} must be a whole number, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise OddsError(f"{name} must be {span}, got {value}")
    return value


def _require_dice(n_dice: object, sides: object, min_dice: int = 0) -> tuple[int, int]:
    n = _require_int("n_dice", n_dice, min_dice, MAX_DICE)
    s = _require_int("sides", sides, 1, MAX_SIDES)
    if n * s > MAX_DICE_TIMES_SIDES:
        raise OddsError(
            f"{n}d{s} is too large to compute exactly: "
            f"dice times sides must be at most {MAX_DICE_TIMES_SIDES}"
        )
    return n, s


@lru_cache(maxsize=256)
def _sum_die(n_dice: int, sides: int) -> Any:
    # Kept apart from _chance so that every target asked of one roll reuses one convolution.
    return n_dice @ icepool.d(sides)


@lru_cache(maxsize=8192)
def _chance(n_dice: int, sides: int, op: str, target: int, modifier: int) -> Fraction:
    # sum + modifier <op> target  <=>  sum <op> target - modifier, for every comparison.
    return Fraction(_sum_die(n_dice, sides).probability(op, target - modifier))


def chance(n_dice: int, sides: int, op: str, target: int, modifier: int = 0) -> Fraction:
    """The exact chance that (sum of `n_dice` dice of `sides` faces) + `modifier` `op` `target`.

    `op` is one of '>=', '>', '<=', '<', '=='. Zero dice sum to 0, so designers can ask about
    a bare modifier. Bad arguments raise OddsError (a ValueError) with a one-line message.
    """
    n, s = _require_dice(n_dice, sides)
    if op not in COMPARISONS:
        raise OddsError(f"op must be one of {', '.join(COMPARISONS)}; got {op!r}")
    goal = _require_int("target", target)
    bonus = _require_int("modifier", modifier)
    return _chance(n, s, op, goal, bonus)


def _goal_op(exact: bool) -> str:
    return "==" if exact else ">="


_MEET: dict[tuple[int, int, bool], float] = {}
_MEET_WITH_RESCUE: dict[tuple[int, int, bool], float] = {}
"""The two quest chances bots ask for at every decision, as floats by (dice, goal, exact):
a heuristic game asks the same few thousands of times, and checking its arguments and
converting the exact fraction each time was a quarter of the bot's own work (profiled)."""
FLOATS_KEPT = 4096


def _keep(
    kept: dict[tuple[int, int, bool], float], key: tuple[int, int, bool], exact: Fraction
) -> float:
    if len(kept) >= FLOATS_KEPT:
        kept.clear()
    kept[key] = value = float(exact)
    return value


def meet_chance(n_dice: int, goal: int, exact: bool) -> float:
    """The chance that a quest of `n_dice` d6 meets its goal: sum >= goal, or == goal if exact.

    A float because it feeds bots' expected values and the quest table; use `chance` for
    the exact fraction.
    """
    if type(n_dice) is int and type(goal) is int:
        known = _MEET.get((n_dice, goal, bool(exact)))
        if known is not None:
            return known
    n, _ = _require_dice(n_dice, QUEST_SIDES)
    target = _require_int("goal", goal)
    return _keep(
        _MEET, (n, target, bool(exact)), _chance(n, QUEST_SIDES, _goal_op(bool(exact)), target, 0)
    )


@lru_cache(maxsize=8192)
def _best_rescue(dice: tuple[int, ...], goal: int, exact: bool, sides: int) -> tuple[int, Fraction]:
    op = _goal_op(exact)
    total = sum(dice)
    best_value, best = dice[0], Fraction(-1)
    # Ascending with a strict '>' keeps the lowest value on ties.
    for value in sorted(set(dice)):
        after = _chance(1, sides, op, goal, total - value)
        if after > best:
            best_value, best = value, after
    return best_value, best


def best_rescue(
    dice: tuple[int, ...], goal: int, exact: bool, sides: int = QUEST_SIDES
) -> tuple[int, float]:
    """Which die a rescuer should re-roll, and the chance of then meeting the goal.

    Returns the face VALUE of the die to re-roll (any die showing it will do) and the chance
    that the new sum meets the goal (sum >= goal, or == goal if `exact`). It answers even when
    the dice already meet the goal, so a bot can weigh a rescue without checking first.

    Ties go to the lowest value, for both kinds of goal, so bots and replays agree on one
    choice. For "N+" goals the lowest die is in fact always a best choice: re-rolling it
    keeps the largest possible sum of the others.
    """
    if not isinstance(dice, tuple | list) or not 1 <= len(dice) <= MAX_DICE:
        raise OddsError(f"dice must be a tuple of 1 to {MAX_DICE} face values, got {dice!r}")
    s = _require_int("sides", sides, 1, MAX_SIDES)
    faces = tuple(sorted(_require_int("each die", face, 1, s) for face in dice))
    target = _require_int("goal", goal)
    value, after = _best_rescue(faces, target, bool(exact), s)
    return value, float(after)


@lru_cache(maxsize=1024)
def _chance_with_rescue(n_dice: int, goal: int, exact: bool) -> Fraction:
    # Enumerate sorted outcomes (multisets) with their multinomial weights rather than all
    # 6**n ordered rolls: the best re-roll depends only on which values show.
    rolls = icepool.d(QUEST_SIDES).pool(n_dice).expand()
    success = Fraction(0)
    for outcome, weight in rolls.items():
        dice = tuple(sorted(outcome))
        total = sum(dice)
        if total == goal or (not exact and total > goal):
            success += weight
        else:
            success += weight * _best_rescue(dice, goal, exact, QUEST_SIDES)[1]
    return success / int(rolls.denominator())


def meet_chance_with_rescue(n_dice: int, goal: int, exact: bool) -> float:
    """The chance that a quest of `n_dice` d6 succeeds when every failure is rescued.

    The player rescues after any failed first roll and re-rolls the best die
    (`best_rescue`), so this is P(first roll meets) + the sum, over failing rolls, of
    P(roll) x P(the best re-roll meets). Bots compare it with `meet_chance` to price a
    rescuer. Computed exactly, then returned as a float.
    """
    if type(n_dice) is int and type(goal) is int:
        known = _MEET_WITH_RESCUE.get((n_dice, goal, bool(exact)))
        if known is not None:
            return known
    n = _require_int("n_dice", n_dice, 1, MAX_RESCUE_DICE)
    target = _require_int("goal", goal)
    return _keep(
        _MEET_WITH_RESCUE, (n, target, bool(exact)), _chance_with_rescue(n, target, bool(exact))
    )


def _number(text: str, digits: str) -> int:
    if len(digits) > _LONGEST_NUMBER:
        raise OddsError(f"cannot read {text!r}: the number {digits[:12]}... is too long")
    return int(digits)


def parse_expression(text: str) -> Expression:
    """Read a designer's roll question such as '3d6>=12', '2d6 = 7' or '2d6+1>=8'.

    Whitespace is free, 'd' may be upper case, a missing dice count means one die and a lone
    '=' means '=='. Anything else raises OddsError with one line naming the problem.
    """
    if not isinstance(text, str):
        raise OddsError(f"cannot read {text!r}: {EXPECTED_FORM}")
    match = _EXPRESSION.fullmatch(text)
    if match is None:
        problem = "" if any(c in text for c in "<=>") else "no comparison such as >= or ==; "
        raise OddsError(f"cannot read {text!r}: {problem}{EXPECTED_FORM}")
    n_dice = _number(text, match["n_dice"]) if match["n_dice"] else 1
    sides = _number(text, match["sides"])
    modifier = _number(text, match["modifier"]) if match["modifier"] else 0
    if match["sign"] == "-":
        modifier = -modifier
    target = _number(text, match["target"])
    if match["target_sign"] == "-":
        target = -target
    op = "==" if match["op"] == "=" else match["op"]
    if not 1 <= n_dice <= MAX_DICE:
        raise OddsError(f"cannot roll {text!r}: the number of dice must be 1 to {MAX_DICE}")
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise OddsError(f"cannot roll {text!r}: dice must have {MIN_SIDES} to {MAX_SIDES} sides")
    if n_dice * sides > MAX_DICE_TIMES_SIDES:
        raise OddsError(
            f"cannot roll {text!r}: too large to compute exactly "
            f"(dice times sides must be at most {MAX_DICE_TIMES_SIDES})"
        )
    return Expression(n_dice=n_dice, sides=sides, modifier=modifier, op=op, target=target)


def format_odds(text: str, rescue: bool = False) -> str:
    """What `tavernkeep odds` prints: the exact chance of a roll question, in plain text.

    For example 'P(3d6 >= 12) = 0.3750  (81/216, 37.50%)'. The count is over all
    sides**n ordered rolls, which designers can check by hand; it is left out when that
    total would be longer than 12 digits. With `rescue`, a second line gives the Hack &
    Slash chance with one rescue re-roll of the best die; that only makes sense for plain
    d6 quests ('>=' or '==', no modifier), so other expressions raise OddsError.
    """
    expression = parse_expression(text)
    if rescue:
        _require_rescue(expression)
    p = expression.probability()
    total = expression.sides**expression.n_dice
    shown = float(p)
    if total <= LONGEST_FRACTION:
        count = p * total
        detail = f"{count.numerator}/{total}, {shown:.2%}"
    else:
        detail = f"{shown:.2%}"
    lines = [f"P({expression}) = {shown:.4f}  ({detail})"]
    if rescue:
        with_rescue = meet_chance_with_rescue(
            expression.n_dice, expression.target, expression.op == "=="
        )
        lines.append(
            f"with one rescue re-roll of the best die: {with_rescue:.4f} ({with_rescue:.2%})"
        )
    return "\n".join(lines)


def _require_rescue(expression: Expression) -> None:
    reasons = []
    if expression.sides != QUEST_SIDES:
        reasons.append(f"quests roll d{QUEST_SIDES}, not d{expression.sides}")
    if expression.modifier:
        reasons.append("quests have no modifier")
    if expression.op not in (">=", "=="):
        reasons.append(f"quest goals are '>=' or '==', not '{expression.op}'")
    if expression.n_dice > MAX_RESCUE_DICE:
        reasons.append(f"rescue odds go up to {MAX_RESCUE_DICE} dice")
    if reasons:
        raise OddsError(f"no rescue odds for '{expression}': {'; '.join(reasons)}")
