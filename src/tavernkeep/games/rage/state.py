"""The state of a game of Rage: plain lists of integers over the map's cell indexes.

The map (a `Village`: the content pack's tables) never changes during a game, so the state holds
only what moves: the player, the food still lying about, the skeletons, the counters
and the stack of decisions. Cells are indexes into `Village.cells`; directions are
0-5 as in `hexes.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import Tally
from tavernkeep.games.rage.config import RageConfig
from tavernkeep.games.rage.village import Village

NONE = -1

# Where a turn is (`stage`): the player's move, then what ending it sets off, then the
# skeletons. The fighting stages work through `pending` (the skeletons waiting to fight).
MOVE, STAB, FIGHT, CHECK, FIGHT_RUSHED, PATROL, FIGHT_SPOTTED = range(7)

# What a living skeleton is doing (`sk_mode`).
PATROLLING, RETURNING, HOLDING = range(3)


@dataclass(slots=True)
class RageState:
    map: Village = field(compare=False, repr=False)
    config: RageConfig = field(compare=False, repr=False)
    rng: Rng
    turn: int
    stage: int
    pos: int
    facing: int
    steps: int
    """Hexes sneaked this move (at most 3)."""
    hp: int
    raging: bool
    """Rage reached 20: the two red hit points, the d10, and a new goal."""
    rage: int
    bag: int
    food: list[int]
    """Cubes still lying on each cell."""
    visited: list[bool]
    """Each house, once entered."""
    sk_cell: list[int]
    """Each skeleton's cell; NONE once destroyed."""
    sk_facing: list[int]
    sk_hp: list[int]
    sk_mode: list[int]
    sk_at: list[int]
    """Where on its loop a patrolling skeleton is (an index into its patrol)."""
    sk_hold: list[int]
    """A holding skeleton acts again in the skeleton phase of this turn."""
    pending: list[int]
    """Skeletons waiting to fight the player, in order."""
    foe: int
    """The skeleton fighting the player now, or NONE."""
    dice: list[int]
    """The last combat round's dice: the player's, then the skeleton's."""
    ending: str
    # The ledger: every change to rage has one of these causes (the property test
    # checks rage against it).
    houses: int
    wounds: int
    kills: int
    eaten: int
    """Food cubes collected (each -1 rage): the bag, by another name for the ledger."""
    retreats: int
    floor: int
    """Rage the floor at 0 swallowed (a cube of food with no rage left to calm)."""
    stack: list[Decision]
    tally: Tally
    """What the player met, by name: houses entered, skeletons that spotted, wounded or
    fell to them, rage checks lost, the way out."""

    def clone(self) -> RageState:
        twin = RageState.__new__(RageState)
        twin.map = self.map
        twin.config = self.config
        twin.rng = self.rng.clone()
        twin.turn = self.turn
        twin.stage = self.stage
        twin.pos = self.pos
        twin.facing = self.facing
        twin.steps = self.steps
        twin.hp = self.hp
        twin.raging = self.raging
        twin.rage = self.rage
        twin.bag = self.bag
        twin.food = self.food[:]
        twin.visited = self.visited[:]
        twin.sk_cell = self.sk_cell[:]
        twin.sk_facing = self.sk_facing[:]
        twin.sk_hp = self.sk_hp[:]
        twin.sk_mode = self.sk_mode[:]
        twin.sk_at = self.sk_at[:]
        twin.sk_hold = self.sk_hold[:]
        twin.pending = self.pending[:]
        twin.foe = self.foe
        twin.dice = self.dice[:]
        twin.ending = self.ending
        twin.houses = self.houses
        twin.wounds = self.wounds
        twin.kills = self.kills
        twin.eaten = self.eaten
        twin.retreats = self.retreats
        twin.floor = self.floor
        twin.stack = self.stack[:]
        twin.tally = self.tally.copy()
        return twin
