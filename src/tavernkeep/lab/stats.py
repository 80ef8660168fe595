"""Confidence intervals for rates measured by simulation."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


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
