"""How long the server waits before passing for a person who has nothing to play.

A reaction window (a Challenge, a Modifier) asks every seat in turn, so that nobody learns
who holds a card by who is asked. Time could still tell: a person with a card thinks,
while one with nothing would be passed for at once. So the automatic pass waits a delay
drawn like the person's own: from the times that seat took when it passed of its own
choice in a window where it could have played (its recent voluntary passes), and, until
it has made a few, from a prior shaped like a person's reaction time (log-normal).

A spectator timing the windows then sees, for each seat, answers drawn from one
distribution whether or not the seat held a card. Only what the person does with a card
(the play itself) tells the table anything, as at a real table.
"""

from __future__ import annotations

import math
import random
from collections import deque
from dataclasses import dataclass, field

SAMPLES_KEPT = 24
"""Voluntary passes remembered a seat: recent enough to follow a person speeding up."""
SAMPLES_NEEDED = 3
"""Voluntary passes a seat must have made before its own times replace the prior."""


@dataclass(frozen=True)
class PassPrior:
    """A person's pass before the table has seen any: log-normal around `median` seconds,
    kept within [`low`, `high`]."""

    median: float = 2.0
    spread: float = 0.5
    """The log-normal's sigma: 0.5 puts nine passes in ten between 0.9x and 2.3x the median."""
    low: float = 0.6
    high: float = 12.0

    @classmethod
    def around(cls, median: float) -> PassPrior:
        """The default prior's shape around another median (a fast test, a slow table)."""
        factor = median / cls.median
        return cls(median, cls.spread, cls.low * factor, cls.high * factor)


@dataclass
class PassTiming:
    """Every seat's voluntary pass times at one table, and the delays drawn from them."""

    prior: PassPrior = field(default_factory=PassPrior)
    rng: random.Random = field(default_factory=random.SystemRandom)
    """A system source by default: a seeded one would let someone replay the delays."""
    times: dict[int, deque[float]] = field(default_factory=dict)

    def observe(self, seat: int, seconds: float) -> None:
        """Seat passed of its own choice after `seconds`, where it could have played."""
        if not math.isfinite(seconds) or seconds < 0:
            return
        seen = self.times.setdefault(seat, deque(maxlen=SAMPLES_KEPT))
        seen.append(min(seconds, self.prior.high))

    def delay(self, seat: int) -> float:
        """Seconds to wait before passing for `seat`, which has nothing to play."""
        seen = self.times.get(seat)
        if seen is not None and len(seen) >= SAMPLES_NEEDED:
            # One of its own times, blurred a little, so that repeats do not stand out.
            base = self.rng.choice(list(seen))
            return max(self.prior.low, base * self.rng.uniform(0.9, 1.1))
        prior = self.prior
        drawn = prior.median * math.exp(self.rng.gauss(0.0, prior.spread))
        return min(prior.high, max(prior.low, drawn))
