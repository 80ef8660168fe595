"""Confidence intervals for rates measured by simulation."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

Z95 = 1.959963984540054
TOLERANCE = 0.02
"""Win-rate points a group may be off its fair share (or a card's users off the others)
before it is flagged, or a tune's win-rate target met: two points unless told."""


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
