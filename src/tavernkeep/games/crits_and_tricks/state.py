"""The state of a game of Crits & Tricks: plain lists of integers, cheap to clone.

Mercenary cards, quests and Barkeep's Challenges are integer ids. A card id is an index
into `card_suit`, fixed for the game (which suits are in play and how many copies depend
on the player count). What is pending is a `Decision` frame on `stack`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import Tally
from tavernkeep.games.crits_and_tricks.config import CritsAndTricksConfig
from tavernkeep.games.crits_and_tricks.content import CritsAndTricksPack
from tavernkeep.games.crits_and_tricks.history import Trick

NONE = -1
DICE = (4, 6, 8, 10, 12, 20)


@dataclass(slots=True)
class Current:
    """One seat's card in the trick being played: mutable until the trick is taken."""

    seat: int
    card: int
    followed: bool
    die: int
    """Index into DICE of the die paired with the card (a Wizard's crit may change it)."""
    played: int
    """Index into DICE of the die the seat played this turn (before any Wizard swap)."""
    rerolled: bool = False
    crits: list[int] = field(default_factory=list)
    """Suit ids of the crits this seat used on its turn."""
    order: int = 0
    """Turn order for the tie-break (a Rogue's crit moves it after everyone)."""
    paladin: int = -1
    """When this seat used a Paladin's crit in the trick (-1: it did not)."""

    def copy(self) -> Current:
        return Current(
            self.seat,
            self.card,
            self.followed,
            self.die,
            self.played,
            self.rerolled,
            self.crits[:],
            self.order,
            self.paladin,
        )


@dataclass(slots=True)
class CritsAndTricksState:
    content: CritsAndTricksPack = field(compare=False, repr=False)
    config: CritsAndTricksConfig = field(compare=False, repr=False)
    card_suit: tuple[int, ...]
    """Suit id (SUITS order) of each mercenary card of this game."""
    suits: tuple[int, ...]
    """The three mercenary suits in play (Bards are always in)."""
    playable: tuple[int, ...]
    """The quests that name only suits in play: the only ones dealt (RULES 24)."""
    rng: Rng
    round: int
    trick: int
    """The trick being played in this round, from 1."""
    deck: list[int]
    """Mercenary cards not dealt this round."""
    discard: list[int]
    """Cards played to tricks or spent for crits this round."""
    hands: list[list[int]]
    dice: list[list[int]]
    """Each seat's six dice values, d4 to d20; public."""
    used: list[int]
    """Each seat's dice used this round, as a bitmask over DICE indices."""
    leader: int
    led: int
    """The suit the current trick is led in (NONE until led)."""
    table: list[Current]
    tricks: list[Trick]
    """This round's finished tricks."""
    tricks_played: int
    """Tricks finished this game: a game's length (`Result.turns`)."""
    won: list[list[int]]
    """Cards each seat has taken in tricks this game (their Bards are loot)."""
    loot: list[int]
    loot_from: list[list[int]]
    """Per seat: loot from Bards taken, from quests, from the Barkeep."""
    quest_deck: list[int]
    quest_discard: list[int]
    """2 players: quests laid out and not scored (or tied), kept out of later rounds."""
    quests: list[list[int]]
    """3-4 players: each seat's private quests. 2 players: one list, the public quests."""
    offered: list[list[int]]
    """3-4 players: the four quests a seat is choosing from, until it discards one."""
    scored: list[list[int]]
    """Quests each seat has scored this game."""
    held: list[list[int]]
    """Quests each seat has kept this game (3-4 players; with 2, the quests it scored):
    what `simulate` reports win rates by."""
    barkeep: int
    barkeep_used: list[int]
    crits_left: int
    """Crits the seat on turn may still use (2 a turn)."""
    paladins: int
    """Paladin crits used in this trick so far (their order)."""
    stack: list[Decision]
    ending: str
    """'' while the game goes on."""
    tally: Tally
    """What each seat did in the open, by name: quests completed, crits, the Barkeep."""

    @property
    def players(self) -> int:
        return len(self.hands)

    def clone(self) -> CritsAndTricksState:
        twin = CritsAndTricksState.__new__(CritsAndTricksState)
        twin.content = self.content
        twin.config = self.config
        twin.card_suit = self.card_suit
        twin.suits = self.suits
        twin.playable = self.playable
        twin.rng = self.rng.clone()
        twin.round = self.round
        twin.trick = self.trick
        twin.deck = self.deck[:]
        twin.discard = self.discard[:]
        twin.hands = [h[:] for h in self.hands]
        twin.dice = [d[:] for d in self.dice]
        twin.used = self.used[:]
        twin.leader = self.leader
        twin.led = self.led
        twin.table = [c.copy() for c in self.table]
        twin.tricks = self.tricks[:]
        twin.tricks_played = self.tricks_played
        twin.won = [w[:] for w in self.won]
        twin.loot = self.loot[:]
        twin.loot_from = [f[:] for f in self.loot_from]
        twin.quest_deck = self.quest_deck[:]
        twin.quest_discard = self.quest_discard[:]
        twin.quests = [q[:] for q in self.quests]
        twin.offered = [o[:] for o in self.offered]
        twin.scored = [s[:] for s in self.scored]
        twin.held = [h[:] for h in self.held]
        twin.barkeep = self.barkeep
        twin.barkeep_used = self.barkeep_used[:]
        twin.crits_left = self.crits_left
        twin.paladins = self.paladins
        twin.stack = self.stack[:]
        twin.ending = self.ending
        twin.tally = self.tally.copy()
        return twin
