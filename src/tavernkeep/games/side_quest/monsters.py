"""The Monsters' side: the Monster phase, activation and the damage heroes take.

Portals and summoners spawn, never onto a Damsel (RULES 27, 48), then every Monster and
the Boss activates, left to right (8); each attacks the nearest hero in range or moves
toward one first (22). Its attack roll (the Grab Attack of reading 10 too) adds the Dark
Runes' and the rallying Monsters' bonus (28, 34); the heroes there choose, hit by hit, who
takes each, armor ignoring the first points of each attack (23, 43), and a stun_on_hit
hit stuns the hero (24). An "active Monster" is a Monster or the Boss not stunned (35).
"""

from __future__ import annotations

from tavernkeep.engine.decisions import Decision
from tavernkeep.games.side_quest.cards import (
    FIGHTERS,
    ability,
    card_name,
    fighter_of,
    location_name,
    who,
)
from tavernkeep.games.side_quest.dungeon import (
    Events,
    draw_monster,
    location_has,
    place,
    say,
    seat_order,
)
from tavernkeep.games.side_quest.heroes import bonus
from tavernkeep.games.side_quest.state import NONE, SideQuestState


def location_of(st: SideQuestState, card: int) -> int:
    return next(loc for loc in range(len(st.row)) if card in st.here[loc])


def active_monster_at(st: SideQuestState, loc: int) -> bool:
    return any(st.card_kind[c] in FIGHTERS and c not in st.stunned for c in st.here[loc])


def nearest(st: SideQuestState, loc: int, ev: Events) -> int:
    """The Location of the nearest hero; equally near on both sides, a die decides."""
    best = min(abs(p - loc) for p in st.position)
    sides = {p for p in st.position if abs(p - loc) == best}
    if len(sides) == 1:
        return sides.pop()
    roll = st.rng.die(6)
    say(
        ev,
        "tie",
        f"Heroes are equally near on both sides: {roll} ({'left' if roll <= 3 else 'right'})",
        roll=roll,
    )
    return min(sides) if roll <= 3 else max(sides)


def monster_phase(st: SideQuestState, ev: Events) -> None:
    """RULES 8 and 27: Portals and summoners spawn, never onto a Damsel (48), then every
    Monster is queued, left to right."""
    spawns = st.content.specials.portal_spawns
    for loc in range(len(st.row)):
        for c in list(st.here[loc]):
            if st.card_kind[c] == "portal" or ability(st, c) == "summoner":
                spawn_from(st, c, loc, spawns if st.card_kind[c] == "portal" else 1, ev)
    st.queue = [
        c for loc in range(len(st.row)) for c in st.here[loc] if st.card_kind[c] in FIGHTERS
    ]


def has_damsel(st: SideQuestState, loc: int) -> bool:
    return any(st.card_kind[c] == "damsel" for c in st.here[loc])


def spawn_from(st: SideQuestState, spawner: int, loc: int, count: int, ev: Events) -> None:
    """`count` cards from the Monster deck onto the spawner's Location. Monsters 'do not
    spawn on' a Damsel (rulebook): where one hangs, none comes out, or, with the variant
    `spawn_on_damsel=beside`, they come out in the nearest Location without one (48)."""
    name = card_name(st, spawner)
    where = ""
    if has_damsel(st, loc):
        free = [other for other in range(len(st.row)) if not has_damsel(st, other)]
        if st.config.spawn_on_damsel == "none" or not free:
            say(
                ev,
                "spawn_held",
                f"No Monster is called up by {name}: a Damsel hangs there",
                card=spawner,
                location=loc,
            )
            return
        best = min(abs(other - loc) for other in free)
        sides = [other for other in free if abs(other - loc) == best]
        if len(sides) == 1:
            loc = sides[0]
        else:
            # As a Monster choosing between equally near heroes: 1-3 left, 4-6 right (22).
            roll = st.rng.die(6)
            loc = sides[0] if roll <= 3 else sides[1]
            say(
                ev,
                "tie",
                f"Free Locations are equally near {name} on both sides: {roll} "
                f"({'left' if roll <= 3 else 'right'})",
                roll=roll,
            )
        where = ", beside the Damsel"
    for _ in range(count):
        spawn = draw_monster(st)
        if spawn == NONE:
            return
        place(st, spawn, loc)
        say(
            ev,
            "spawn",
            f"{card_name(st, spawn)} is called up by {name}{where}",
            card=spawn,
            location=loc,
        )


def activate(st: SideQuestState, monster: int, ev: Events) -> None:
    """RULES 22: attack the nearest hero in range, else move toward one first."""
    if monster in st.stunned:
        say(ev, "stunned", f"{card_name(st, monster)} is stunned", card=monster)
        return
    info = fighter_of(st, monster)
    loc = location_of(st, monster)
    distance = min(abs(p - loc) for p in st.position)
    if distance > info.range:
        if info.move == 0 or location_has(st, loc, "block") or monster in st.blocked:
            return
        goal = nearest(st, loc, ev)
        step = 1 if goal > loc else -1
        for _ in range(info.move):
            st.here[loc].remove(monster)
            loc += step
            st.here[loc].append(monster)
            if min(abs(p - loc) for p in st.position) <= info.range:
                break
        say(
            ev,
            "monster_move",
            f"{info.name} moves to {location_name(st, loc)}",
            card=monster,
            location=loc,
        )
        distance = min(abs(p - loc) for p in st.position)
        if distance > info.range:
            return
    target = nearest(st, loc, ev)
    hits = monster_hits(st, monster, 0, ev, grab=False)
    if hits:
        give_wounds(st, target, hits, monster, ev)


def monster_hits(
    st: SideQuestState, monster: int, modifier: int, ev: Events, grab: bool
) -> tuple[int, ...]:
    """A Monster's attack roll: each die at or above its hit number deals its damage.
    Every standing Rune adds its bonus to each die (RULES 28), and so does each other
    rallying Monster in its Location."""
    info = fighter_of(st, monster)
    runes = sum(1 for zone in st.here for c in zone if st.card_kind[c] == "rune")
    rallies = sum(
        1
        for c in st.here[location_of(st, monster)]
        if c != monster and ability(st, c) == "rallying"
    )
    # (`plus`, not `bonus`: that name is the heroes' passive bonus, imported here.)
    plus = modifier + runes * st.content.specials.rune_bonus + rallies
    dice = st.rng.dice(info.dice)
    hits = tuple(info.damage for d in dice if d + plus >= info.hit)
    what = "Grab Attack" if grab else "attack"
    say(
        ev,
        "monster_attack",
        f"{info.name} makes its {what}: {'+'.join(map(str, dice))}"
        f"{f' {plus:+d}' if plus else ''} ({len(hits)} hits)",
        card=monster,
        dice=dice,
    )
    return hits


def give_wounds(
    st: SideQuestState,
    loc: int,
    hits: tuple[int, ...],
    monster: int,
    ev: Events,
    absorbed: tuple[int, ...] | None = None,
) -> None:
    """RULES 23: the heroes there choose who takes each hit, the first of them deciding.
    `absorbed` counts, for each seat, the damage its armor has ignored in this attack."""
    there = [s for s in seat_order(st) if st.position[s] == loc]
    absorbed = absorbed or (0,) * st.players
    if len(there) == 1:
        took = absorbed[there[0]]
        for damage in hits:
            took = wound(st, there[0], damage, monster, ev, took)
            if st.ending:
                return
        return
    st.stack.append(Decision(there[0], "wound", (loc, hits, monster, absorbed)))


def wound(
    st: SideQuestState, seat: int, damage: int, monster: int, ev: Events, absorbed: int = 0
) -> int:
    """One hit of an attack; armor ignores the first points of each attack. Returns how
    much armor has ignored in this attack so far."""
    ignored = max(0, min(damage, bonus(st, seat, "armor") - absorbed))
    if ignored:
        say(ev, "armor", f"{who(st, seat)}'s armor ignores {ignored} damage", seat=seat)
    damage -= ignored
    absorbed += ignored
    if damage == 0:
        return absorbed
    st.health[seat] = max(0, st.health[seat] - damage)
    st.tally[seat, "damage taken", card_name(st, monster)] += damage
    if ability(st, monster) == "stun_on_hit" and st.hero_stun[seat] == NONE:
        # RULES 24: through the hero's next turn, restored in the End phase after it.
        st.hero_stun[seat] = st.turns + 1
    say(
        ev,
        "wound",
        f"{who(st, seat)} takes {damage} damage from "
        f"{card_name(st, monster)} ({st.health[seat]} health left)",
        seat=seat,
        damage=damage,
        card=monster,
    )
    if st.health[seat] == 0:
        st.ending = "hero-fell"
        st.tally[seat, "hero fallen", st.content.hero[st.hero[seat]].name] += 1
    return absorbed
