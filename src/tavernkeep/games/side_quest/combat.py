"""A hero's attack landing: what it may hit, the hits given out, slaying (RULES 11).

The Attack action rolls in `turn.attack`; once the roll stands (`rolls.resolve_roll`), the
attacker gives each hit to a target, and a target falls only when the damage given to it
in this attack reaches its health: no partial damage. An active bodyguard covers the other
Monsters, a shielded one is no target from afar, and the Portal and the Hearts are targets
only with no active Monster there; while any Heart stands the Boss is only stunned (29,
36). A slain Boss wins the game (32).
"""

from __future__ import annotations

from tavernkeep.engine.decisions import Decision
from tavernkeep.games.side_quest.cards import ability, card_name, health_of
from tavernkeep.games.side_quest.dungeon import Events, say, seat_order
from tavernkeep.games.side_quest.monsters import active_monster_at, wound
from tavernkeep.games.side_quest.state import NONE, SideQuestState

DUNGEON_CARDS = {"rune": "Dark Rune", "portal": "Dark Portal", "heart": "Dungeon Heart"}
"""The special cards a hero may destroy, by the names a designer calls them."""


def hit_targets(st: SideQuestState, loc: int, seat: int) -> list[int]:
    """What an attack on `loc` by `seat` may hit: Monsters, the Boss and Runes, and the
    Portal and Hearts only with no active Monster (nor Boss) there (RULES 11). An active
    bodyguard covers the other Monsters; a shielded Monster is no target from afar."""
    uncovered = not active_monster_at(st, loc)
    guards = [c for c in st.here[loc] if ability(st, c) == "bodyguard" and c not in st.stunned]
    afar = st.position[seat] != loc
    out = []
    for c in st.here[loc]:
        kind = st.card_kind[c]
        if kind in ("portal", "heart") and not uncovered:
            continue
        if kind not in ("monster", "boss", "rune", "portal", "heart"):
            continue
        if kind == "monster" and guards and c not in guards:
            continue
        if afar and ability(st, c) == "shielded":
            continue
        out.append(c)
    return out


def hearts_standing(st: SideQuestState) -> int:
    return sum(1 for c in range(len(st.card_kind)) if st.card_kind[c] == "heart") - sum(
        1 for c in st.removed if st.card_kind[c] == "heart"
    )


def allocate_hits(
    st: SideQuestState,
    seat: int,
    loc: int,
    hits: tuple[int, ...],
    given: tuple[tuple[int, int], ...],
    ev: Events,
) -> None:
    """The attacker gives each hit to a target; with one target there is nothing to choose."""
    targets = hit_targets(st, loc, seat)
    if hits and len(targets) > 1:
        st.stack.append(Decision(seat, "hit", (loc, hits, given)))
        return
    if hits:
        given = (*given, *((targets[0], h) for h in hits))
    total: dict[int, int] = {}
    for target, damage in given:
        total[target] = total.get(target, 0) + damage
    for target, damage in total.items():
        if st.card_kind[target] == "boss" and hearts_standing(st) > 0:
            # RULES 29: no Heart may stand; enough damage only stuns the Boss.
            if damage >= health_of(st, target):
                st.stunned.add(target)
                say(ev, "stun", f"{card_name(st, target)} is stunned", card=target)
            elif target in st.stunned:
                st.stunned.discard(target)
                say(ev, "wake", f"{card_name(st, target)} is woken", card=target)
        elif damage >= health_of(st, target):
            slay(st, target, loc, seat, ev)
        elif target in st.stunned:
            st.stunned.discard(target)
            say(ev, "wake", f"{card_name(st, target)} is woken", card=target)


def slay(st: SideQuestState, card: int, loc: int, by: int, ev: Events) -> None:
    """`by`: the seat whose attack or card slew it; NONE for a Location's trap."""
    st.here[loc].remove(card)
    st.stunned.discard(card)
    if card in st.queue:
        st.queue.remove(card)
    if st.card_kind[card] == "monster":
        st.monster_discard.append(card)
    else:
        st.removed.append(card)
    kind = st.card_kind[card]
    if by == NONE:
        say(ev, "slay", f"{card_name(st, card)} is destroyed", card=card)
    else:
        if kind == "monster" or kind == "boss":
            st.tally[by, f"{kind} slain", card_name(st, card)] += 1
        else:
            st.tally[by, "dungeon card destroyed", DUNGEON_CARDS[kind]] += 1
        say(ev, "slay", f"{card_name(st, card)} is destroyed", seat=by, card=card)
    if kind == "boss":
        st.ending = "boss-slain"
    elif ability(st, card) == "explodes":
        for seat in seat_order(st):
            if st.position[seat] == loc and not st.ending:
                wound(st, seat, 1, card, ev)
