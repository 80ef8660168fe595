"""Locations: revealed when first entered, and what their cards do (RULES 3-4).

A Location's card works only once revealed: its `enter` effects each time a hero enters it
(its first entering too), its `end_phase` effects in every End phase; its passive effects
are read where they count (`heroes.bonus`, `dungeon.location_has`). A free Loot roll from
a Location takes no Mighty Boost: it is no action of the hero's (42).
"""

from __future__ import annotations

from tavernkeep.games.side_quest.cards import ability, card_name, health_of, location_name, who
from tavernkeep.games.side_quest.combat import slay
from tavernkeep.games.side_quest.content import HERO_HEALTH
from tavernkeep.games.side_quest.dungeon import Events, say, seat_order
from tavernkeep.games.side_quest.heroes import LOOT_ROLL, bonus, gain
from tavernkeep.games.side_quest.monsters import active_monster_at
from tavernkeep.games.side_quest.state import NONE, SideQuestState


def reveal(st: SideQuestState, loc: int, ev: Events) -> None:
    if not st.revealed[loc]:
        st.revealed[loc] = True
        say(ev, "reveal", f"It is {location_name(st, loc)}", location=loc)


def enter(st: SideQuestState, seat: int, loc: int, ev: Events) -> None:
    st.position[seat] = loc
    say(ev, "enter", f"{who(st, seat)} enters {location_name(st, loc)}", seat=seat, location=loc)
    reveal(st, loc, ev)
    entered(st, loc, ev, seat)


def entered(st: SideQuestState, loc: int, ev: Events, seat: int = NONE) -> None:
    """A Location's enter effects, each time a hero enters it (its first entering too)."""
    if st.content.location[st.row[loc]].when == "enter":
        entering = (
            seat
            if seat != NONE
            else next((s for s in range(st.players) if st.position[s] == loc), NONE)
        )
        location_effects(st, loc, entering, True, ev)


def location_end_phase(st: SideQuestState, ev: Events) -> list[int]:
    """Every revealed end_phase Location's effects. Returns the seats that gained a
    weapon, to re-equip once the End phase is over."""
    equip: list[int] = []
    for loc in range(len(st.row)):
        if st.revealed[loc] and st.content.location[st.row[loc]].when == "end_phase":
            for seat in location_effects(st, loc, NONE, False, ev):
                if seat not in equip:
                    equip.append(seat)
    return equip


def location_effects(
    st: SideQuestState, loc: int, entering: int, equip: bool, ev: Events
) -> list[int]:
    """A Location card's effects on the heroes and Monsters there (`self`: the hero who
    entered). A free Loot roll here gets no Mighty Boost: it is no action of the hero's.
    Returns the seats that gained a weapon without re-equipping (`equip` off)."""
    location = st.content.location[st.row[loc]]
    gained: list[int] = []
    for effect in location.effects:
        if effect.target == "self":
            heroes = [entering] if entering != NONE else []
        else:
            heroes = [s for s in seat_order(st) if st.position[s] == loc]
        monsters = [c for c in st.here[loc] if st.card_kind[c] == "monster"]
        name, amount = effect.name, effect.amount
        if name == "heal":
            for s in heroes:
                st.health[s] = min(HERO_HEALTH, st.health[s] + amount)
                say(ev, "heal", f"{location.name}: {who(st, s)} has {st.health[s]} health", seat=s)
        elif name == "damage":
            say(ev, "trap", f"{location.name}: {amount} damage to every Monster here")
            for c in monsters:
                if amount >= health_of(st, c):
                    slay(st, c, loc, NONE, ev)
                elif c in st.stunned:
                    st.stunned.discard(c)
        elif name == "stun":
            st.stunned.update(c for c in monsters if ability(st, c) != "unstoppable")
        elif name == "block":
            st.blocked.update(c for c in monsters if ability(st, c) != "unstoppable")
        elif name == "seal":
            st.sealed.add(loc)
        elif name in ("armor", "damage_plus", "evade", "range_plus"):
            st.temporary += [(s, name, amount) for s in heroes]
        elif name == "boost":
            st.temporary += [(s, f"boost:{effect.roll}", amount) for s in heroes]
        elif name == "free_loot":
            for s in heroes:
                if active_monster_at(st, loc):
                    break
                roll = st.rng.die(6) + bonus(st, s, "boost", "loot")
                if roll >= LOOT_ROLL and st.loot_deck:
                    card = st.loot_deck.pop()
                    st.tally[s, "loot found", card_name(st, card)] += 1
                    say(
                        ev,
                        "loot",
                        f"{location.name}: {who(st, s)} loots ({roll}) and "
                        f"finds {card_name(st, card)}",
                        seat=s,
                        card=card,
                        success=True,
                    )
                    gain(st, s, card, equip=equip)
                    if st.card_kind[card] == "weapon":
                        gained.append(s)
                else:
                    say(
                        ev,
                        "loot",
                        f"{location.name}: {who(st, s)} loots ({roll}) and finds nothing",
                        seat=s,
                        success=False,
                    )
        if st.ending:
            break
    return gained if not equip else []
