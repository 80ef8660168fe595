"""The tally: how often each seat did the things a designer counts, by name.

A game declares the kinds it counts (`Game.tally_kinds`: "card played", "quest
attempted") and its rules count as they apply an action, whether events are being built
or not, so a simulation run without events counts the same:

    st.tally[seat, "card played", card.name] += 1

The tally lives in the state and is copied with it. It holds only what every seat saw
happen (a card played face up, a monster slain), never a hidden card, so a state's tally
may be shown to anyone.

It is one flat `defaultdict` keyed by (seat, kind, name) rather than nested dicts a seat:
counting is then a single dict update done in C, and cloning a state (which search does
thousands of times a second) a single dict copy. `tally_facts` turns it into the shape a
report reads once the game is over.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import TypeAlias

Tally: TypeAlias = defaultdict[tuple[int, str, str], int]
"""(seat, kind, name) -> count."""
SeatTally: TypeAlias = dict[str, dict[str, int]]
"""One seat's counts: {kind: {name: count}}, the shape of `Result.facts["tally"]`."""


def new_tally() -> Tally:
    return defaultdict(int)


def tally_facts(
    tally: Mapping[tuple[int, str, str], int], players: int, kinds: Iterable[str]
) -> list[SeatTally]:
    """`Result.facts["tally"]`: one dict a seat holding every declared kind (empty when
    that seat never did it, so a report can tell "never" from "not counted"); names come
    in the order they were first counted, which the seed fixes. A kind the game counts
    but did not declare raises KeyError: it would have no heading to be reported under."""
    seats: list[SeatTally] = [{kind: {} for kind in kinds} for _ in range(players)]
    for (seat, kind, name), n in tally.items():
        seats[seat][kind][name] = n
    return seats


def counts_of(facts: Iterable[SeatTally]) -> dict[tuple[int, str, str], int]:
    """`Result.facts["tally"]` back to (seat, kind, name) -> count, leaving out zeros:
    the shape to compare with what a game's events say happened."""
    return {
        (seat, kind, name): n
        for seat, kinds in enumerate(facts)
        for kind, names in kinds.items()
        for name, n in names.items()
        if n
    }
