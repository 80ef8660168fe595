"""What one seat knows of a game of Crits & Tricks, for a bot: its `Game.observe`.

The same facts as the seat's view (rules.py's `view`), in the rules' own integers (suit
ids, die sizes) and without the words a person reads, so the heuristic bot, deciding a
few hundred times a game, builds a few tuples where the view builds some hundred dicts.
It holds the seat's own hand and quests and what is public: every die, the cards on the
table and in this round's tricks, how many cards each hand holds. It is a function of
that alone: tests/engine/test_views.py checks it equal on every determinized twin.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from tavernkeep.games.crits_and_tricks.content import SUITS
from tavernkeep.games.crits_and_tricks.state import DICE, NONE, CritsAndTricksState


class OnTable(NamedTuple):
    """A card on the table, as every seat sees it."""

    seat: int
    suit: int
    followed: bool
    size: int
    """The die's size (4 to 20)."""
    value: int
    last: bool
    """A Rogue's crit moved it after everyone for the tie-break."""
    paladin: bool
    """Its seat used a Paladin's crit in this trick."""


@dataclass(frozen=True, slots=True)
class Seen:
    seat: int
    players: int
    kind: str
    """The pending decision's kind ("" when the game is over)."""
    leader: int
    led: int
    """The suit led in the trick being played (NONE before it is led)."""
    suits: int
    """How many mercenary suits are in play (Bards aside)."""
    tricks_per_round: int
    tricks_done: int
    """Tricks finished this round."""
    round_suits: tuple[int, ...]
    """The suits of the cards played to this round's finished tricks."""
    hand: tuple[int, ...]
    """This seat's card ids, in hand order."""
    hand_suits: tuple[int, ...]
    dice: tuple[tuple[int, ...], ...]
    """Every seat's six dice values, d4 to d20 (public)."""
    used: tuple[int, ...]
    """Every seat's used dice, a bitmask over DICE indices (public)."""
    hand_sizes: tuple[int, ...]
    table: tuple[OnTable, ...]
    quests: tuple[int, ...]
    """This seat's quests (3-4 players) or the public ones (2 players)."""

    def unused(self, seat: int) -> list[tuple[int, int]]:
        """A seat's unused dice as (value, size), smallest die first."""
        values, used = self.dice[seat], self.used[seat]
        return [(values[i], size) for i, size in enumerate(DICE) if not used >> i & 1]


def observe(st: CritsAndTricksState, seat: int) -> Seen:
    suit_of = st.card_suit
    hand = st.hands[seat]
    return Seen(
        seat=seat,
        players=st.players,
        kind=st.stack[-1].kind if st.stack else "",
        leader=st.leader,
        led=st.led,
        suits=len(st.suits),
        tricks_per_round=st.config.tricks,
        tricks_done=len(st.tricks),
        round_suits=tuple(SUITS.index(p.suit) for t in st.tricks for p in t.plays),
        hand=tuple(hand),
        hand_suits=tuple(suit_of[c] for c in hand),
        dice=tuple(tuple(d) for d in st.dice),
        used=tuple(st.used),
        hand_sizes=tuple(len(h) for h in st.hands),
        table=tuple(
            OnTable(
                c.seat,
                suit_of[c.card],
                c.followed,
                DICE[c.die],
                st.dice[c.seat][c.die],
                c.order > st.players,
                c.paladin != NONE,
            )
            for c in st.table
        ),
        quests=tuple(st.quests[0] if st.players == 2 else st.quests[seat]),
    )
