"""Who takes a trick: each suit's dice requirement, then the tie-breakers.

Pure functions over the cards on the table, so every rule is tested on its own. A lay is
one seat's card in the trick: its suit, whether it followed, its die and value, where it
stands in turn order for the tie-break (a Rogue's crit moves it last) and when, if ever,
its seat used a Paladin's crit (the last such seat wins a tie).
"""

from __future__ import annotations

from typing import NamedTuple

BARBARIAN, ROGUE, WIZARD, DRUID, PALADIN, BARD = range(6)
NEVER = -1


class Lay(NamedTuple):
    seat: int
    suit: int
    followed: bool
    die: int
    """The die's size: 4, 6, 8, 10, 12 or 20."""
    value: int
    order: int
    """Place in turn order for the tie-break: later is higher."""
    paladin: int
    """When this seat used a Paladin's crit in the trick (NEVER: it did not)."""


def winner(led: int, lays: list[Lay]) -> int:
    """The seat taking the trick led in suit `led` (a led Bard's named suit); the first
    lay is the leader's. Only cards that followed can win."""
    eligible = [lay for lay in lays if lay.followed]
    if led == BARBARIAN:
        best = max(lay.value for lay in eligible)
        tied = [lay for lay in eligible if lay.value == best]
    elif led == ROGUE:
        best = min(lay.value for lay in eligible)
        tied = [lay for lay in eligible if lay.value == best]
    elif led == WIZARD:
        best = min(abs(lay.value - 5) for lay in eligible)
        tied = [lay for lay in eligible if abs(lay.value - 5) == best]
    elif led == DRUID:
        # The second-highest value among the values shown; with only one value on the
        # table, that value (RULES).
        values = sorted({lay.value for lay in eligible}, reverse=True)
        target = values[1] if len(values) > 1 else values[0]
        tied = [lay for lay in eligible if lay.value == target]
    elif led == PALADIN:
        # Only cards on a die of the size of the lead Paladin's compete (RULES).
        size = lays[0].die
        same = [lay for lay in eligible if lay.die == size]
        best = max(lay.value for lay in same)
        tied = [lay for lay in same if lay.value == best]
    else:
        raise AssertionError(f"a trick is never led as suit {led}")
    return break_tie(tied)


def break_tie(tied: list[Lay]) -> int:
    """A Paladin's crit wins a tie (the last one used, if several); then the larger die;
    then the later in turn order."""
    if len(tied) == 1:
        return tied[0].seat
    crit = max(tied, key=lambda lay: lay.paladin)
    if crit.paladin != NEVER:
        return crit.seat
    return max(tied, key=lambda lay: (lay.die, lay.order)).seat
