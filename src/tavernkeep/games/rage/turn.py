"""How a turn of Rage moves: the player's sneak, what ending it sets off, the skeletons.

A turn is a pipeline of stages (state.py names them). The player's move is the only
free decision; then, in order: backstabs offered for each adjacent skeleton with its
back turned, combat with each adjacent skeleton facing the player, the rage check for
each skeleton in the player's sight (a failed check makes the player rush one and
fight), the skeletons' patrol, and combat with every skeleton that spotted the player
and rushed. `advance` runs the stages until a decision is needed or the game ends; the
decisions inside combat (fight on or disengage) pause it where they arise. RULES.md
gives the reading behind each step.
"""

from __future__ import annotations

from collections import deque

from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.events import Event
from tavernkeep.games.rage.hexes import DIRECTION_NAMES, behind
from tavernkeep.games.rage.state import (
    CHECK,
    FIGHT,
    FIGHT_RUSHED,
    FIGHT_SPOTTED,
    HOLDING,
    MOVE,
    NONE,
    PATROL,
    PATROLLING,
    RETURNING,
    STAB,
    RageState,
)
from tavernkeep.games.rage.village import Village

Events = list[Event] | None

START_RAGE = 5
LOSE_CONTROL = 20
BLUE_HP = 5
RED_HP = 2
SKELETON_HP = 2
SNEAK = 3
"""Hexes the player may sneak a turn."""
HOUSE_RAGE = 2
WOUND_RAGE = 2
KILL_RAGE = 3
FOOD_CALM = 1
RETREAT_CALM = 3
WIN_FOOD = 25

MOVE_FRAME = Decision(0, "move")
COMBAT_FRAME = Decision(0, "combat")
BACKSTAB_FRAME = Decision(0, "backstab")

ENDINGS = {
    "died": "you fell to the skeletons, and many will starve",
    "survived": "you escaped with your rage in check, but with too little food to win",
    "won": "you escaped with your rage in check and food enough for the capital",
    "knighted": "you escaped with every cube of food: the King knights you",
    "wanders": "your rage took you; you survived, but you wander the lands seeking death",
    "dawn": "dawn lifted the mist before you left the village",
}
WINS = frozenset({"won", "knighted"})


def say(ev: Events, kind: str, text: str, **data: object) -> None:
    if ev is not None:
        ev.append(Event(kind, text, dict(data)))


def skeleton_name(m: Village, k: int) -> str:
    return m.skeleton[k].name


# -- places and paths ---------------------------------------------------------------


def occupied(st: RageState, cell: int) -> bool:
    """A living skeleton stands there."""
    return cell in st.sk_cell


def adjacent(m: Village, a: int, b: int) -> bool:
    """Next to each other with no wall between: what fighting and backstabbing need."""
    return b in m.step[a]


def facing_to(m: Village, a: int, b: int) -> int:
    """The direction from a to the adjacent b."""
    return m.step[a].index(b)


def path_to_beside(st: RageState, start: int, target: int, walker: int) -> list[int] | None:
    """The shortest walk from `start` to a cell beside `target` (no wall between), around
    walls and living skeletons (and the player, when a skeleton walks): the cells
    entered, in order; [] when already beside it; None when there is no way."""
    m = st.map
    if adjacent(m, start, target):
        return []
    goals = {c for c in m.step[target] if c != NONE}
    blocked = set(st.sk_cell)
    blocked.discard(walker)
    if walker != NONE:
        blocked.add(st.pos)
    came = {start: start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for nxt in m.step[cell]:
            if nxt in (NONE, target) or nxt in came or nxt in blocked:
                continue
            came[nxt] = cell
            if nxt in goals:
                path = [nxt]
                while came[path[-1]] != start:
                    path.append(came[path[-1]])
                return path[::-1]
            queue.append(nxt)
    return None


# -- rage and hit points ------------------------------------------------------------


def add_rage(st: RageState, amount: int, why: str, ev: Events) -> None:
    st.rage += amount
    say(ev, "rage", f"Rage +{amount} ({why}): {st.rage}", rage=st.rage, change=amount)
    if not st.raging and st.rage >= LOSE_CONTROL:
        # "Swap out your remaining blue hitpoint tokens for the 2 red ones."
        st.raging = True
        st.hp = RED_HP
        say(
            ev,
            "lost-control",
            "Your rage takes control: two red hit points, a d10 in combat, and one goal "
            "left, to destroy every skeleton",
            hp=st.hp,
        )


def calm(st: RageState, amount: int, why: str, ev: Events) -> None:
    # Rage counters cannot go below none; the ledger keeps what the floor swallowed.
    taken = min(amount, st.rage)
    st.floor += amount - taken
    st.rage -= taken
    say(ev, "rage", f"Rage -{taken} ({why}): {st.rage}", rage=st.rage, change=-taken)


def enter(st: RageState, cell: int, ev: Events) -> None:
    """The player steps into a cell: a house counts the first time it is entered."""
    st.pos = cell
    house = st.map.house_of[cell]
    if house != NONE and not st.visited[house]:
        st.visited[house] = True
        st.houses += 1
        st.tally[0, "house entered", st.map.house[house].name] += 1
        say(ev, "house", f"You enter {st.map.house[house].name}", house=house)
        add_rage(st, HOUSE_RAGE, "a house of your village, burnt", ev)


# -- the turn -----------------------------------------------------------------------


def dawn(st: RageState) -> int:
    """The last turn of the night: the game's `turn_limit`, else the map's own."""
    return st.config.turn_limit or st.map.dawn


def start_turn(st: RageState, ev: Events) -> None:
    if st.turn >= dawn(st):
        finish(st, "dawn", ev)
        return
    st.turn += 1
    st.stage = MOVE
    st.steps = 0
    st.stack.append(MOVE_FRAME)
    say(ev, "turn", f"Turn {st.turn}", turn=st.turn)


def step(st: RageState, d: int, ev: Events) -> None:
    m = st.map
    cell = m.step[st.pos][d]
    st.facing = d
    st.steps += 1
    # The hex in the data, not the words: the map never shows a hex's coordinates.
    say(ev, "step", f"You sneak {DIRECTION_NAMES[d]}", cell=cell)
    enter(st, cell, ev)
    if st.ending:
        return
    if st.steps >= SNEAK and st.pos not in m.exits:
        end_move(st, ev)


def end_move(st: RageState, ev: Events) -> None:
    """The move ends where the player stands: food, then backstabs, then the rest."""
    st.stack.pop()
    cubes = st.food[st.pos]
    if cubes:
        st.food[st.pos] = 0
        st.bag += cubes
        st.eaten += cubes
        say(ev, "food", f"You collect {cubes} food ({st.bag} in the bag)", cubes=cubes)
        calm(st, FOOD_CALM * cubes, "food recalls your purpose", ev)
    m = st.map
    me = m.cells[st.pos]
    st.pending = [
        k
        for k, cell in enumerate(st.sk_cell)
        if cell != NONE and adjacent(m, st.pos, cell) and behind(m.cells[cell], st.sk_facing[k], me)
    ]
    st.stage = STAB
    advance(st, ev)


def escape(st: RageState, ev: Events) -> None:
    st.stack.pop()
    gate = "the front gate" if st.pos == st.map.gate_cell else "the gap in the walls"
    st.tally[0, "escaped through", gate.removeprefix("the ")] += 1
    say(ev, "escape", f"You slip out through {gate} with {st.bag} food", food=st.bag)
    judge(st, ev)


def judge(st: RageState, ev: Events) -> None:
    """The game ends with the player alive."""
    finish(st, alive_ending(st), ev)


def alive_ending(st: RageState) -> str:
    """The ending the rulebook's table gives a player who leaves the village alive now."""
    if st.raging:
        return "wanders"
    if st.bag >= sum(st.map.food):
        return "knighted"
    return "won" if st.bag >= WIN_FOOD else "survived"


def finish(st: RageState, ending: str, ev: Events) -> None:
    st.ending = ending
    st.stack.clear()
    st.pending.clear()
    st.foe = NONE
    say(ev, "game-over", ENDINGS[ending][0].upper() + ENDINGS[ending][1:], ending=ending)


def advance(st: RageState, ev: Events) -> None:
    """Run the turn's stages until someone must decide or the game is over."""
    m = st.map
    while not st.ending:
        stage = st.stage
        if stage == MOVE:
            return
        if stage == STAB:
            while st.pending:
                k = st.pending[0]
                if st.sk_cell[k] != NONE:
                    st.stack.append(BACKSTAB_FRAME)
                    return
                st.pending.pop(0)
            st.stage = FIGHT
            st.pending = [
                k
                for k, cell in enumerate(st.sk_cell)
                if cell != NONE
                and adjacent(m, st.pos, cell)
                and not behind(m.cells[cell], st.sk_facing[k], m.cells[st.pos])
            ]
        elif stage in (FIGHT, FIGHT_RUSHED, FIGHT_SPOTTED):
            while st.pending:
                k = st.pending.pop(0)
                if st.sk_cell[k] != NONE and fight(st, k, ev):
                    return
                if st.ending:
                    return
            if stage == FIGHT:
                st.stage = CHECK
            elif stage == FIGHT_RUSHED:
                st.stage = PATROL
            else:
                start_turn(st, ev)
                return
        elif stage == CHECK:
            rage_check(st, ev)
            st.stage = FIGHT_RUSHED
        elif stage == PATROL:
            patrol(st, ev)
            st.stage = FIGHT_SPOTTED


def rage_check(st: RageState, ev: Events) -> None:
    """'Each time a skeleton is in your sight ... roll a d20. If you roll below or equal
    to the number of rage counters you have, you must rush towards the skeleton and
    engage it in combat.' Nearest first; one rush a turn."""
    m = st.map
    seen = m.sight[st.pos][st.facing]
    in_sight = [k for k, cell in enumerate(st.sk_cell) if cell != NONE and cell in seen]
    in_sight.sort(key=lambda k: seen.index(st.sk_cell[k]))
    for k in in_sight:
        roll = st.rng.die(20)
        lost = st.raging or roll <= st.rage
        say(
            ev,
            "rage-check",
            f"{skeleton_name(m, k)} is in your sight: d20 {roll} against rage {st.rage}: "
            + ("you must rush it" if lost else "you keep your head"),
            skeleton=k,
            dice=[roll],
            rage=st.rage,
            lost=lost,
        )
        if not lost:
            continue
        st.tally[0, "rage check lost", skeleton_name(m, k)] += 1
        path = path_to_beside(st, st.pos, st.sk_cell[k], NONE)
        if path is None:
            say(ev, "rush", f"Walls keep you from {skeleton_name(m, k)}", skeleton=k)
            continue
        for cell in path:
            if cell != st.pos:
                enter(st, cell, ev)
        if st.ending:
            return
        st.facing = facing_to(m, st.pos, st.sk_cell[k])
        say(ev, "rush", f"You rush {skeleton_name(m, k)}", skeleton=k, cell=st.pos)
        st.pending = [k]
        return


def sees_player(st: RageState, k: int) -> bool:
    """Skeleton k, where it stands and as it faces, has the player in its sight."""
    return st.pos in st.map.sight[st.sk_cell[k]][st.sk_facing[k]]


def looks_first(st: RageState, k: int) -> bool:
    """Skeleton k spots the player before it walks: 'they patrol 1 hex normally unless
    you are spotted' (RULES 12). A holding skeleton always looks first: it walks only
    once it has lost the player (RULES 14). The `patrol_then_look` variant has the
    others walk their hex first."""
    if st.sk_mode[k] != HOLDING and st.config.patrol_then_look:
        return False
    return sees_player(st, k)


def patrol_step(st: RageState, k: int) -> tuple[int, int]:
    """Where skeleton k's one hex this phase takes it and the way it then faces: the
    next hex of its loop, or, walking back (holding ones too, once they have lost the
    player), the first hex nearer its loop. Where the hex it wants is taken, it stays,
    a patrolling one turned toward it (RULES 12)."""
    m = st.map
    cell, pos, cells = st.sk_cell[k], st.pos, st.sk_cell
    if st.sk_mode[k] == PATROLLING:
        loop = m.patrols[k]
        at = st.sk_at[k] + 1
        nxt = loop[at if at < len(loop) else 0]
        # Blocked or not, it turns to its next hex: a player standing in its way is in
        # front of it, not hidden behind its back.
        facing = m.step[cell].index(nxt)
        return (nxt if nxt != pos and nxt not in cells else cell), facing
    home = m.home[k]
    for d, nxt in enumerate(m.step[cell]):
        if nxt != NONE and home[nxt] < home[cell] and nxt != pos and nxt not in cells:
            return nxt, d
    return cell, st.sk_facing[k]


def will_spot(st: RageState, k: int) -> bool:
    """Whether skeleton k, alive and acting, would spot the player in the skeletons'
    phase were the skeletons to stand as they do now: before its step or after it."""
    if st.sk_mode[k] == HOLDING and st.turn < st.sk_hold[k]:
        return False
    if looks_first(st, k):
        return True
    cell, facing = patrol_step(st, k)
    return st.pos in st.map.sight[cell][facing]


def patrol(st: RageState, ev: Events) -> None:
    """The skeletons' phase: each that sees the player stays to rush them; each other
    walks one hex (its loop, or back toward it) and looks again; then every skeleton
    that spotted the player rushes to them, nearest first."""
    m = st.map
    pos = st.pos
    cells = st.sk_cell
    spotters: list[int] = []
    for k, cell in enumerate(cells):
        if cell == NONE:
            continue
        if st.sk_mode[k] == HOLDING and st.turn < st.sk_hold[k]:
            continue
        if looks_first(st, k):
            spotters.append(k)
            continue
        if st.sk_mode[k] == HOLDING:
            # Out of its sight: "confused", it heals and heads back to its route.
            st.sk_hp[k] = SKELETON_HP
            st.sk_mode[k] = RETURNING
            say(ev, "confused", f"{skeleton_name(m, k)} lost you and turns back", skeleton=k)
        cells[k], st.sk_facing[k] = patrol_step(st, k)
        loop = m.patrols[k]
        if st.sk_mode[k] == PATROLLING:
            if cells[k] != cell:
                st.sk_at[k] = (st.sk_at[k] + 1) % len(loop)
        elif cells[k] in loop:
            st.sk_mode[k] = PATROLLING
            st.sk_at[k] = loop.index(cells[k])
        # Only its own place and the player's decide whether it sees them, and the
        # player does not move in this phase: it may look as soon as it has walked.
        if sees_player(st, k):
            spotters.append(k)
    if not spotters:
        st.pending = []
        return
    spotters.sort(key=lambda k: m.sight[cells[k]][st.sk_facing[k]].index(pos))
    rushed = []
    for k in spotters:
        path = path_to_beside(st, cells[k], pos, k)
        if path is None:
            continue
        if path:
            cells[k] = path[-1]
        st.sk_facing[k] = facing_to(m, cells[k], pos)
        if st.sk_mode[k] == PATROLLING:
            st.sk_mode[k] = RETURNING
        st.tally[0, "spotted by", skeleton_name(m, k)] += 1
        say(ev, "spotted", f"{skeleton_name(m, k)} spots you and rushes in", skeleton=k)
        rushed.append(k)
    st.pending = rushed


# -- fighting -----------------------------------------------------------------------


def backstab(st: RageState, ev: Events) -> None:
    st.stack.pop()
    k = st.pending.pop(0)
    st.tally[0, "skeleton backstabbed", skeleton_name(st.map, k)] += 1
    say(ev, "backstab", f"You destroy {skeleton_name(st.map, k)} from behind", skeleton=k)
    destroy(st, k, ev)
    advance(st, ev)


def spare(st: RageState, ev: Events) -> None:
    st.stack.pop()
    k = st.pending.pop(0)
    say(ev, "spare", f"You let {skeleton_name(st.map, k)} walk on", skeleton=k)
    advance(st, ev)


def destroy(st: RageState, k: int, ev: Events) -> None:
    st.sk_cell[k] = NONE
    st.sk_hp[k] = 0
    st.kills += 1
    add_rage(st, KILL_RAGE, "a skeleton destroyed", ev)
    if all(cell == NONE for cell in st.sk_cell):
        say(ev, "cleared", "The last skeleton falls: nothing stands between you and the gate")
        judge(st, ev)


def player_roll(st: RageState) -> int:
    """Two d6, the higher kept; a d10 once rage has control."""
    rng = st.rng
    if st.raging:
        return rng.die(10)
    a, b = rng.die(6), rng.die(6)
    return a if a > b else b


def fight(st: RageState, k: int, ev: Events) -> bool:
    """Combat rounds with skeleton k until one side falls or the player, hurt, must
    choose to fight on or disengage. True when that choice waits (or the game ended)."""
    m = st.map
    st.foe = k
    while True:
        mine = player_roll(st)
        theirs = st.rng.die(6)
        st.dice = [mine, theirs]
        if mine > theirs:
            st.sk_hp[k] -= 1
            say(
                ev,
                "combat",
                f"You roll {mine}, {skeleton_name(m, k)} rolls {theirs}: it loses a hit point",
                skeleton=k,
                dice=[mine, theirs],
                won=True,
            )
            if st.sk_hp[k] == 0:
                st.foe = NONE
                st.tally[0, "skeleton destroyed in combat", skeleton_name(m, k)] += 1
                destroy(st, k, ev)
                return bool(st.ending)
            continue
        st.hp -= 1
        st.wounds += 1
        st.tally[0, "wounded by", skeleton_name(m, k)] += 1
        say(
            ev,
            "combat",
            f"You roll {mine}, {skeleton_name(m, k)} rolls {theirs}: you lose a hit point",
            skeleton=k,
            dice=[mine, theirs],
            won=False,
        )
        if st.hp == 0:
            # The wound's rage still counts (the ledger), but it cannot bring the red
            # hit points in: the player is already dead.
            st.rage += WOUND_RAGE
            finish(st, "died", ev)
            return True
        add_rage(st, WOUND_RAGE, "a wound", ev)
        st.stack.append(COMBAT_FRAME)
        return True


def fight_on(st: RageState, ev: Events) -> None:
    st.stack.pop()
    if not fight(st, st.foe, ev):
        advance(st, ev)


def disengage(st: RageState, ev: Events) -> None:
    st.stack.pop()
    k = st.foe
    st.foe = NONE
    st.retreats += 1
    st.sk_mode[k] = HOLDING
    # It acts again in the skeleton phase after the player's next move (RULES.md).
    st.sk_hold[k] = st.turn + 1
    say(ev, "disengage", f"You break off from {skeleton_name(st.map, k)}", skeleton=k)
    calm(st, RETREAT_CALM, "you chide yourself for your foolhardiness", ev)
    advance(st, ev)
