"""The state of a game of Side Quest: plain lists of integers, cheap to clone.

Every card of the game is an integer id, fixed at setup: `card_kind[id]` says what it is
("monster", "boss", "heart", "weapon", "item", "spell", "damsel", "rune", "portal", "key")
and `card_ref[id]` which entry of the pack it is (an index into the pack's list of that
kind; -1 for the special cards, which have no entry). Each card is in exactly one place: a deck,
a discard pile, the box, a Location (`here`, in the order cards arrived) or a hero's
equipment. Locations of the row are indexes into the pack's `location` list.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import Tally, new_tally
from tavernkeep.games.side_quest.config import SideQuestConfig
from tavernkeep.games.side_quest.content import SideQuestPack

NONE = -1


@dataclass(slots=True)
class SideQuestState:
    content: SideQuestPack = field(compare=False, repr=False)
    config: SideQuestConfig = field(compare=False, repr=False)
    card_kind: tuple[str, ...]
    card_ref: tuple[int, ...]
    scenario: int
    rng: Rng
    players: int
    level: int
    row: list[int]
    """The Locations of this level, left to right (pack indexes)."""
    revealed: list[bool]
    here: list[list[int]]
    """Cards on each Location of the row, in the order they arrived."""
    position: list[int]
    """Each seat's Location in the row (NONE before it enters)."""
    hero: list[int]
    """Each seat's hero (pack index; NONE before it is chosen)."""
    health: list[int]
    weapons: list[list[int]]
    equipped: list[list[int]]
    """The weapons in the hero's hands (at most two hands' worth); the rest are carried."""
    items: list[list[int]]
    spells: list[list[int]]
    box: list[int]
    """Basic weapons nobody took."""
    monster_deck: list[int]
    monster_discard: list[int]
    loot_deck: list[int]
    dungeon_deck: list[int]
    """Drawn from the end; the Dungeon Key lies at index 0, the bottom."""
    removed: list[int]
    """Cards out of play: slain Runes and Portals, rescued or lost Damsels."""
    stunned: set[int]
    depth: dict[int, int]
    """How far each Damsel in play has been lowered."""
    hero_stun: list[int]
    """For a stunned hero, the game turn (counted as `turns`) it loses; else NONE."""
    blocked: set[int]
    """Monsters a used card holds in place at their next activation (until the End phase)."""
    sealed: set[int]
    """Locations nothing is dealt to at the next Refresh."""
    used: list[int]
    """The cards the current hero has used this turn (its ability: -1)."""
    temporary: list[tuple[int, str, int]]
    """(seat, effect, amount) of used cards' effects that last until the End phase."""
    leader: int
    current: int
    """The seat whose hero turn it is (NONE outside the Hero phase)."""
    actions: int
    looted: bool
    turns: int
    """Game turns finished in all."""
    level_turns: int
    queue: list[int]
    """Monsters still to activate this Monster phase, in order."""
    stack: list[Decision]
    ending: str = ""
    tally: Tally = field(default_factory=new_tally)
    """What each hero did, by name: heroes played, Monsters slain, cards used, wounds."""

    def clone(self) -> SideQuestState:
        twin = SideQuestState.__new__(SideQuestState)
        twin.content = self.content
        twin.config = self.config
        twin.card_kind = self.card_kind
        twin.card_ref = self.card_ref
        twin.scenario = self.scenario
        twin.rng = self.rng.clone()
        twin.players = self.players
        twin.level = self.level
        twin.row = self.row[:]
        twin.revealed = self.revealed[:]
        twin.here = [h[:] for h in self.here]
        twin.position = self.position[:]
        twin.hero = self.hero[:]
        twin.health = self.health[:]
        twin.weapons = [w[:] for w in self.weapons]
        twin.equipped = [w[:] for w in self.equipped]
        twin.items = [i[:] for i in self.items]
        twin.spells = [s[:] for s in self.spells]
        twin.box = self.box[:]
        twin.monster_deck = self.monster_deck[:]
        twin.monster_discard = self.monster_discard[:]
        twin.loot_deck = self.loot_deck[:]
        twin.dungeon_deck = self.dungeon_deck[:]
        twin.removed = self.removed[:]
        twin.stunned = set(self.stunned)
        twin.depth = dict(self.depth)
        twin.hero_stun = self.hero_stun[:]
        twin.blocked = set(self.blocked)
        twin.sealed = set(self.sealed)
        twin.used = self.used[:]
        twin.temporary = self.temporary[:]
        twin.leader = self.leader
        twin.current = self.current
        twin.actions = self.actions
        twin.looted = self.looted
        twin.turns = self.turns
        twin.level_turns = self.level_turns
        twin.queue = self.queue[:]
        twin.stack = self.stack[:]
        twin.ending = self.ending
        twin.tally = self.tally.copy()
        return twin

    def zones(self) -> list[list[int]]:
        """Every place a card can be, for the check that each card is in exactly one."""
        return [
            *self.here,
            *self.weapons,
            *self.items,
            *self.spells,
            self.box,
            self.monster_deck,
            self.monster_discard,
            self.loot_deck,
            self.dungeon_deck,
            self.removed,
        ]
