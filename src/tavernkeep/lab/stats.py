"""Confidence intervals for rates measured by simulation."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tavernkeep.engine.errors import ConfigError

Z95 = 1.959963984540054
TOLERANCE = 0.02
"""Win-rate points a group may be off its fair share (or a card's users off the others)
before it is flagged, or a tune's win-rate target met: two points unless told. Kept as a
fraction inside; people give and read it in points (`--tolerance 2`, "2 points")."""
MIN_SAMPLE = 100
"""Seat-games (or games) a group needs before it is flagged at all: below that its
interval is too wide to say anything a designer should act on, and a card flagged at
"100% (34-100%)" from four games reads as a finding when it is a handful."""


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval: honest near 0 and 1, unlike the normal approximation.

    `successes` may be fractional (a shared victory counts 1/k to each of k winners).
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # At p = 0 or 1 the bound is p exactly; rounding must not leave it a hair inside.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def wilson_intervals(
    successes: np.ndarray[Any, Any], trials: np.ndarray[Any, Any], z: float = Z95
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """`wilson_interval` for whole arrays of groups at once (a report's thousands of
    cards); a group without trials gets (0, 1)."""
    trials = np.asarray(trials, dtype=float)
    safe = np.maximum(trials, 1.0)
    p = np.asarray(successes, dtype=float) / safe
    denom = 1 + z * z / safe
    centre = (p + z * z / (2 * safe)) / denom
    half = z * np.sqrt(p * (1 - p) / safe + z * z / (4 * safe * safe)) / denom
    lo = np.maximum(0.0, np.minimum(p, centre - half))
    hi = np.minimum(1.0, np.maximum(p, centre + half))
    empty = trials <= 0
    return np.where(empty, 0.0, lo), np.where(empty, 1.0, hi)


def off_balance(lo: float, hi: float, fair: float, trials: float, tolerance: float) -> int:
    """The one definition of "out of balance" every lab answer uses (the terminal's
    tables, the report, its flags and its "In short"): the whole 95% interval lies more
    than `tolerance` from the fair share (or from the rate it is held against), over at
    least MIN_SAMPLE trials. +1 above, -1 below, 0 not shown to be off."""
    if trials < MIN_SAMPLE:
        return 0
    if lo > fair + tolerance:
        return 1
    if hi < fair - tolerance:
        return -1
    return 0


def points(tolerance: float) -> str:
    """A tolerance as people say it: "2 points" (of win rate)."""
    value = round(tolerance * 100, 6)
    return f"{value:g} point{'' if value == 1 else 's'}"


def balance_rule(tolerance: float) -> str:
    """What "out of balance" means, in the words every answer prints beside its flags."""
    return (
        f"out of balance: the whole 95% interval lies more than {points(tolerance)} "
        f"from the fair share, and it rests on at least {MIN_SAMPLE} games"
    )


def tolerance_points(value: float, where: str | None = None) -> float:
    """A tolerance given in points (2 means 2 points) as the fraction used inside. A
    value under half a point is almost surely a fraction written the old way (0.02):
    one line says so rather than flag every wobble. `where` names it in the error
    (`--tolerance 0.02`, unless told)."""
    said = where or f"--tolerance {value:g}"
    if value < 0 or value > 100:
        raise ConfigError(f"{said}: give win-rate points from 0 to 100 (2 = 2 points)")
    if 0 < value < 0.5:
        raise ConfigError(
            f"{said}: tolerances are in win-rate points (2 = 2 points); "
            f"for {value * 100:g} points write {value * 100:g}"
        )
    return value / 100


def share_verdict(
    rate: float, lo: float, hi: float, fair: float, trials: float, tolerance: float
) -> str:
    """Where a rate stands against its fair share, in the words of `balance_rule`: one
    sentence a designer can act on, never "27.7%: not more than 2 points off" (a rate
    2.7 points off whose interval still reaches within the tolerance)."""
    off = off_balance(lo, hi, fair, trials, tolerance)
    gap = (rate - fair) * 100
    side = "above" if gap > 0 else "below"
    if off > 0:
        return f"out of balance in its favour, {gap:.1f} points above it"
    if off < 0:
        return f"out of balance against it, {-gap:.1f} points below it"
    if trials < MIN_SAMPLE:
        return f"too few games to tell (fewer than {MIN_SAMPLE})"
    if lo >= fair - tolerance and hi <= fair + tolerance:
        return f"in balance: the whole interval lies within {points(tolerance)} of it"
    return (
        f"{abs(gap):.1f} points {side} it, but its interval still comes within "
        f"{points(tolerance)}, so these games do not show it out of balance (more games "
        "would tell)"
    )
