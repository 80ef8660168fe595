"""The state of a game of Here to Slay: every zone as lists of integer card ids.

Main-deck cards, Party Leaders and Monsters are ids into the pack's `Catalog`; a card is
in exactly one zone at a time (the property test checks it after every action). What is
pending (a card being played, a roll waiting for Modifiers, an effect half done) is a
frame on `stack` or a roll on `rolls`, never a suspended generator, so a state clones
cheaply and pickles.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import Tally
from tavernkeep.games.here_to_slay.cards import Catalog
from tavernkeep.games.here_to_slay.config import HereToSlayConfig

NONE = -1


@dataclass(slots=True)
class HereToSlayState:
    catalog: Catalog = field(compare=False, repr=False)
    config: HereToSlayConfig = field(compare=False, repr=False)
    rng: Rng
    deck: list[int]
    """The main deck, top card last."""
    discard: list[int]
    """The discard pile, top card last; face up."""
    hands: list[list[int]]
    parties: list[list[int]]
    """Each seat's Hero cards in play (the Party Leader and Monsters are kept apart)."""
    equipped: dict[int, int]
    """Hero -> the Item equipped to it: the Item's zone."""
    playing: list[int]
    """Cards being played: out of the hand, not yet resolved (their Challenge window or
    a Magic card's effect is still open)."""
    leaders: list[int]
    """Each seat's Party Leader; NONE until chosen."""
    slain: list[list[int]]
    row: list[int]
    """Face-up Monsters."""
    monster_deck: list[int]
    """Top card last; a replaced Monster goes to index 0, the bottom."""
    current: int
    ap: int
    """Action points left this turn."""
    turn: int
    """Turns begun so far (the first turn is 1)."""
    rolled: list[int]
    """Heroes rolled for this turn: each may be rolled for once a turn."""
    skills_used: list[int]
    """This turn's once-per-turn skills used, by index in the seat's skill list."""
    boost: list[int]
    """Per seat: a bonus to each of its rolls until the end of the current turn."""
    attack_boost: list[int]
    """Per seat: a bonus to its next ATTACK roll this turn."""
    wards: dict[int, int]
    """Hero -> the seat that warded it, until that seat's next turn."""
    rolls: list[list[int]]
    """Rolls waiting for their Modifier window: [seat, die, die, bonus, modifiers]."""
    stack: list[Decision]
    known: dict[int, int]
    """Card in a hand -> bitmask of the seats that know it is there (besides its holder):
    both players of a PULL or a take, the looker of a look-and-take, everyone for a card
    returned or searched. `determinize` keeps these cards where they are. An entry is
    set or dropped whenever a card enters a hand, so one left behind by a card that has
    since left its hand is never read."""
    unasked: int
    """How many times the rules settled something from what a hand holds without asking
    its holder (a discard it has nothing for, a cost it cannot pay, a window the table
    skips for it). Each tells the table something about a hidden hand, so a decision that
    moves the count may have shown its chooser something (`HereToSlay.reveals`, the
    take-back rule). One number, not one a seat, so that a clone copies nothing more:
    a chooser's own hand counts too, which only keeps a few more decisions standing."""
    winner: int
    ending: str
    """'' while the game goes on."""
    tally: Tally
    """What each seat played, rolled for, attacked, slew and lost, by name."""

    def clone(self) -> HereToSlayState:
        twin = HereToSlayState.__new__(HereToSlayState)
        twin.catalog = self.catalog
        twin.config = self.config
        twin.rng = self.rng.clone()
        twin.deck = self.deck[:]
        twin.discard = self.discard[:]
        twin.hands = [hand[:] for hand in self.hands]
        twin.parties = [party[:] for party in self.parties]
        twin.equipped = self.equipped.copy()
        twin.playing = self.playing[:]
        twin.leaders = self.leaders[:]
        twin.slain = [slain[:] for slain in self.slain]
        twin.row = self.row[:]
        twin.monster_deck = self.monster_deck[:]
        twin.current = self.current
        twin.ap = self.ap
        twin.turn = self.turn
        twin.rolled = self.rolled[:]
        twin.skills_used = self.skills_used[:]
        twin.boost = self.boost[:]
        twin.attack_boost = self.attack_boost[:]
        twin.wards = self.wards.copy()
        twin.rolls = [roll[:] for roll in self.rolls]
        twin.stack = self.stack[:]
        twin.known = self.known.copy()
        twin.unasked = self.unasked
        twin.winner = self.winner
        twin.ending = self.ending
        twin.tally = self.tally.copy()
        return twin

    @property
    def players(self) -> int:
        return len(self.hands)

    def total(self, roll: list[int]) -> int:
        return roll[1] + roll[2] + roll[3] + roll[4]
