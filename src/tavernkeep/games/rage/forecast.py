"""What a choice in Rage leads to, in words and exact chances, for the person making it.

Both front-ends show each legal choice's label (`Rage.label`) and, beside it, its odds
(`Rage.odds`). The words here say what lies where a step goes (food, a house, an exit,
a skeleton beside it, one in view, the skeletons whose sight it is in) and what a
choice costs; the odds give the chance of the first dice the choice sets off.

Which dice those are is found by playing the choice on a copy of the game whose dice
are withheld (a `ScriptedRng` with an empty script, which stops at the first die): the
copy then stands where the rules would roll, and the chance is worked out from what it
shows, never from the dice to come. Everything before the first die is deterministic
and public (Rage hides nothing but its dice), so nothing leaks: the same position with
any dice to come gets the same words and the same chances.

- Before the rage checks (RULES 11): for each skeleton in the player's sight, nearest
  first, the chance that its check is the first lost and the player must rush it: a d20
  at most the rage (every check lost once rage has control), one rush a turn; and the
  chance of keeping one's head through them all. A chance of nought is left out.
- Before a round of combat (RULES 13): the chance of destroying the skeleton before it
  wounds the player (one round won for each of its hit points left, in a row), and the
  chance of the wound that ends the rounds, named for what it does (a wound, rage taking
  control, death).

A choice that leads to the next decision without a die (a step that does not end the
move, a backstab with another to decide, an escape) has no odds.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

from tavernkeep.engine.actions import Action
from tavernkeep.engine.odds import chance
from tavernkeep.engine.rng import ScriptedRng
from tavernkeep.games.rage.hexes import behind
from tavernkeep.games.rage.state import CHECK, HOLDING, NONE, RageState
from tavernkeep.games.rage.turn import (
    HOUSE_RAGE,
    LOSE_CONTROL,
    WOUND_RAGE,
    adjacent,
    looks_first,
    path_to_beside,
    patrol,
)

Apply = Callable[[RageState, Action], object]

CHECK_DICE = "check"
"""The next dice are the rage checks."""
FIGHT_DICE = "fight"
"""The next dice are a round of combat against `foe`."""

KEEP_YOUR_HEAD = "keep your head"
"""The odds' name for every rage check won: no rush."""

_NEVER_LOST = 20
"""A d20 face that keeps the player's head at any rage under control: what a rage check
against a skeleton walled off from the player is played with (it changes nothing)."""


def the(name: str) -> str:
    """A name inside a sentence: 'The Reeve' reads 'the Reeve'."""
    return "the " + name[4:] if name.startswith("The ") else name


def names(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def rage_to(st: RageState, change: int) -> str:
    """A change of rage and where it leaves the player: '+3 rage, to 14'."""
    after = max(0, st.rage + change)
    words = f"{change:+d} rage, to {after}"
    if not st.raging and after >= LOSE_CONTROL:
        words += ": rage takes control"
    return words


# -- the dice ----------------------------------------------------------------------------


@lru_cache(maxsize=2)
def round_win(raging: bool) -> Fraction:
    """The chance the player wins a round: every face of their die (the higher of two d6,
    or one d10 once rage has control) against every face of the skeleton's d6, ties to
    the skeleton."""
    theirs = range(1, 7)
    d6 = range(1, 7)
    mine = list(range(1, 11)) if raging else [max(a, b) for a in d6 for b in d6]
    won = sum(1 for m in mine for s in theirs if m > s)
    return Fraction(won, len(mine) * len(theirs))


@lru_cache(maxsize=64)
def destroy_chance(hp_left: int, raging: bool) -> Fraction:
    """The chance of winning `hp_left` rounds in a row: the skeleton falls before it
    wounds the player."""
    return round_win(raging) ** hp_left


@lru_cache(maxsize=256)
def rush_chances(rage: int, raging: bool, checks: int) -> tuple[Fraction, ...]:
    """For `checks` rage checks in turn, the chance that each is the first one lost: a
    d20 at most the rage loses (`engine.odds.chance`), and once rage has control every
    check is lost."""
    lose = Fraction(1) if raging else chance(1, 20, "<=", rage)
    out = []
    kept = Fraction(1)
    for _ in range(checks):
        out.append(kept * lose)
        kept *= 1 - lose
    return tuple(out)


def in_sight(st: RageState) -> list[int]:
    """The living skeletons in the player's sight, nearest first: the order of the rage
    checks (turn.rage_check)."""
    seen = st.map.sight[st.pos][st.facing]
    found = [k for k, c in enumerate(st.sk_cell) if c != NONE and c in seen]
    found.sort(key=lambda k: seen.index(st.sk_cell[k]))
    return found


def rush_targets(st: RageState) -> list[int]:
    """The skeletons in sight a lost check would make the player rush: those a way
    around the walls reaches (a lost check against another changes nothing)."""
    return [k for k in in_sight(st) if path_to_beside(st, st.pos, st.sk_cell[k], NONE) is not None]


def ahead(st: RageState, action: Action, apply: Apply) -> tuple[str, RageState]:
    """Play `action` on a copy of the game whose dice are withheld, up to the first die
    that matters: (CHECK_DICE, the copy) before the rage checks, (FIGHT_DICE, the copy)
    before a round of combat (the copy's `foe` the skeleton), or ("", the copy) where the
    choice leads to the next decision, or the end, without a die. `apply` is the game's
    own (raising IllegalAction for an action that is not legal)."""
    script: list[int] = []
    while True:
        twin = st.clone()
        rng = ScriptedRng(script)
        twin.rng = rng
        try:
            apply(twin, action)
        except AssertionError as exc:
            # The withheld die: the script ran out. Anything else is a real error.
            if rng.script or "ran out" not in str(exc):
                raise
        else:
            return "", twin
        if twin.stage != CHECK:
            return FIGHT_DICE, twin
        checks = len(in_sight(twin))
        if rush_targets(twin):
            return CHECK_DICE, twin
        # Every skeleton in sight is walled off from the player: whatever the checks
        # roll, nothing happens. Play them and look on to the dice after.
        script = script + [_NEVER_LOST] * checks


def chances(kind: str, twin: RageState) -> dict[str, float]:
    """The odds of the dice `ahead` stopped at, by what they decide."""
    m = twin.map
    if kind == CHECK_DICE:
        targets = rush_targets(twin)
        rushes = rush_chances(twin.rage, twin.raging, len(targets))
        odds = {
            f"rush {the(m.skeleton[k].name)}": float(p)
            for k, p in zip(targets, rushes, strict=True)
            if p
        }
        kept = 1 - sum(rushes)
        if kept:
            odds[KEEP_YOUR_HEAD] = float(kept)
        return odds
    if kind == FIGHT_DICE:
        k = twin.foe
        win = destroy_chance(twin.sk_hp[k], twin.raging)
        return {f"destroy {the(m.skeleton[k].name)}": float(win), wound_words(twin): float(1 - win)}
    return {}


def wound_words(st: RageState) -> str:
    """What the next wound does: kills, hands the player to rage, or is a wound."""
    if st.hp <= 1:
        return "you die"
    if not st.raging and st.rage + WOUND_RAGE >= LOSE_CONTROL:
        return "rage takes control"
    return "a wound"


# -- the words ---------------------------------------------------------------------------


def spotters(st: RageState, cell: int, facing: int) -> list[tuple[int, bool]]:
    """The skeletons that would spot the player standing on `cell` in their phase, were
    nothing else to move first (no fight, no rush): (skeleton, True if it sees them
    before it walks, False if only after its step). The patrol is played on a copy:
    it rolls no dice."""
    twin = st.clone()
    twin.pos = cell
    twin.facing = facing
    before = [
        c != NONE
        and not (twin.sk_mode[k] == HOLDING and twin.turn < twin.sk_hold[k])
        and looks_first(twin, k)
        for k, c in enumerate(twin.sk_cell)
    ]
    patrol(twin, None)
    return [(k, before[k]) for k in twin.pending]


def sight_notes(st: RageState, found: list[tuple[int, bool]]) -> list[str]:
    """'in the Watchman's sight', 'in the Reeve's sight after its step'."""
    m = st.map
    now = [f"{the(m.skeleton[k].name)}'s" for k, first in found if first]
    later = [f"{the(m.skeleton[k].name)}'s" for k, first in found if not first]
    notes = []
    if now:
        notes.append(f"in {names(now)} sight")
    if later:
        steps = "its step" if len(later) == 1 else "their steps"
        notes.append(f"in {names(later)} sight after {steps}")
    return notes


def hex_notes(st: RageState, cell: int, facing: int, entering: bool) -> list[str]:
    """What the player finds ending the move on `cell` facing `facing`, as the rules play
    it: food to collect, a house first entered (`entering`: a step, not a stop), an exit,
    skeletons beside it (a backstab behind one, a fight beside one facing it), skeletons
    in view (a rage check each), and the skeletons whose sight it is in."""
    m = st.map
    notes = []
    cubes = st.food[cell]
    if cubes:
        notes.append(f"{'' if entering else 'collect '}{cubes} food")
    house = m.house_of[cell]
    if entering and house != NONE and not st.visited[house]:
        notes.append(f"into {the(m.house[house].name)} ({rage_to(st, HOUSE_RAGE)})")
    if entering and cell in m.exits:
        notes.append("the front gate, an exit" if cell == m.gate_cell else "the gap, an exit")
    me = m.cells[cell]
    backs: list[str] = []
    fronts: list[str] = []
    for k, c in enumerate(st.sk_cell):
        if c != NONE and adjacent(m, cell, c):
            name = the(m.skeleton[k].name)
            (backs if behind(m.cells[c], st.sk_facing[k], me) else fronts).append(name)
    if backs:
        notes.append(f"behind {names(backs)} (a backstab)")
    if fronts:
        notes.append(f"beside {names(fronts)} ({'a fight' if len(fronts) == 1 else 'fights'})")
    seen = m.sight[cell][facing]
    viewed = [
        the(m.skeleton[k].name)
        for k in sorted(
            (k for k, c in enumerate(st.sk_cell) if c != NONE and c in seen),
            key=lambda k: seen.index(st.sk_cell[k]),
        )
    ]
    if viewed:
        checks = "a rage check" if len(viewed) == 1 else "rage checks"
        notes.append(f"{names(viewed)} in view ({checks})")
    notes += sight_notes(st, spotters(st, cell, facing))
    return notes
