"""A hero and its equipment: passive bonuses, hands and limits, loot, trading.

`bonus` sums the passive effects on a hero: its hero card's, its items', those of heroes
sharing its Location, the effects of used cards and Locations that last until the End
phase, and its revealed Location's. Two hands' worth of weapons are held and the rest
count against the item limit; a hero over a limit is Overburdened (RULES 20-21). A new
weapon lets the hero re-equip (12), and a trade moves equipment between the heroes in one
Location (15).
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Derived
from tavernkeep.engine.decisions import Decision
from tavernkeep.games.side_quest.cards import card_name, shown, weapon_of, who
from tavernkeep.games.side_quest.content import Effect, SideQuestPack
from tavernkeep.games.side_quest.dungeon import Events, say
from tavernkeep.games.side_quest.state import NONE, SideQuestState

ABILITY = -1
"""The source id of a hero's own ability (cards are ids 0 and up)."""
LOOT_ROLL = 5
"""What a Loot roll needs on its die to draw a Loot card (RULES 13)."""
DONE = Action("done")
"""Ends a trade, and a free move's steps (a `walk` frame)."""


class Passive(NamedTuple):
    """The passive effects of one name in a pack, by the card that carries them."""

    heroes: dict[int, tuple[Effect, ...]]
    items: dict[int, tuple[Effect, ...]]
    locations: dict[int, tuple[Effect, ...]]
    """Only those on every hero there: a Location's passive effect reaches nobody else."""


def _passives(content: SideQuestPack) -> dict[str, Passive]:
    index: dict[str, Passive] = {}

    def effects_named(
        effects: list[Effect], name: str, everyone: bool = False
    ) -> tuple[Effect, ...]:
        return tuple(
            e for e in effects if e.name == name and (not everyone or e.target == "every_hero_here")
        )

    for name in content.named_effects():
        passive = Passive(
            {
                h: found
                for h, hero in enumerate(content.hero)
                if hero.use == "passive" and (found := effects_named(hero.effects, name))
            },
            {
                i: found
                for i, item in enumerate(content.item)
                if item.use == "passive" and (found := effects_named(item.effects, name))
            },
            {
                loc: found
                for loc, location in enumerate(content.location)
                if location.when == "passive"
                and (found := effects_named(location.effects, name, everyone=True))
            },
        )
        if any(passive):
            index[name] = passive
    return index


PASSIVES = Derived(_passives)
"""Each pack's passive effects by name: `bonus` runs in every legal-action listing, and
most names are on no card a hero holds."""


def bonus(st: SideQuestState, seat: int, name: str, roll: str = "") -> int:
    """The sum of the passive effects `name` on this hero (for boost, on rolls of kind
    `roll`): its own hero card and items, every_hero_here effects of the heroes sharing its
    Location, its revealed Location's own, and used cards' effects lasting this turn."""
    total = 0
    if st.temporary:
        names = (name, "boost:any", f"boost:{roll}") if name == "boost" else (name,)
        total += sum(a for s, n, a in st.temporary if s == seat and n in names)
    passive = PASSIVES(st.content).get(name)
    if passive is None:
        return total
    rolls = ("any", roll)
    pos = st.position[seat]
    if passive.heroes:
        for other in range(st.players):
            effects = passive.heroes.get(st.hero[other])
            if effects is None:
                continue
            there = pos != NONE and st.position[other] == pos
            for e in effects:
                if name == "boost" and e.roll not in rolls:
                    continue
                if (e.target == "self" and other == seat) or (
                    e.target == "every_hero_here" and there
                ):
                    total += e.amount
    if passive.items:
        for c in st.items[seat]:
            if st.card_kind[c] == "item":
                for e in passive.items.get(st.card_ref[c], ()):
                    if name != "boost" or e.roll in rolls:
                        total += e.amount
    if passive.locations and pos != NONE and st.revealed[pos]:
        for e in passive.locations.get(st.row[pos], ()):
            if name != "boost" or e.roll in rolls:
                total += e.amount
    return total


def item_limit(st: SideQuestState, seat: int) -> int:
    """How many items (and weapons beyond the two hands') the hero carries (RULES 20)."""
    return st.content.hero[st.hero[seat]].item_limit + bonus(st, seat, "carry")


def overburdened(st: SideQuestState, seat: int, limit: int | None = None) -> bool:
    """Over the hero's item or spell limit (RULES 20-21); `limit`, if known, is the
    hero's `item_limit`."""
    hero = st.content.hero[st.hero[seat]]
    carried = len(st.items[seat]) + len(st.weapons[seat]) - len(st.equipped[seat])
    if limit is None:
        limit = item_limit(st, seat)
    return carried > limit or len(st.spells[seat]) > hero.spell_limit


def hero_range(st: SideQuestState, seat: int) -> int:
    """The greatest range of the equipped weapons, plus range_plus; NONE with none."""
    reach = max((weapon_of(st, w).range for w in st.equipped[seat]), default=NONE)
    return reach + bonus(st, seat, "range_plus") if reach != NONE else NONE


def equip_choices(st: SideQuestState, seat: int) -> list[tuple[int, ...]]:
    """Each way to fill two hands from the hero's weapons (at least one weapon held)."""
    weapons = sorted(st.weapons[seat])
    out: list[tuple[int, ...]] = []
    for size in (1, 2):
        for combo in combinations(weapons, size):
            if sum(weapon_of(st, w).hands for w in combo) <= 2:
                out.append(combo)
    return out


def take_weapon(st: SideQuestState, seat: int, card: int) -> None:
    if card in st.box:
        st.box.remove(card)
    st.weapons[seat].append(card)
    st.equipped[seat].append(card)


def re_equip(st: SideQuestState, seat: int) -> None:
    """The hero takes up weapons: its choice when there is one."""
    choices = equip_choices(st, seat)
    if len(choices) > 1:
        st.stack.append(Decision(seat, "equip"))
    else:
        st.equipped[seat] = list(choices[0]) if choices else []


def gain(st: SideQuestState, seat: int, card: int, equip: bool = True) -> None:
    """A Loot card into the hero's equipment; with a new weapon, the hero may re-equip."""
    kind = st.card_kind[card]
    if kind == "weapon":
        st.weapons[seat].append(card)
        if equip:
            re_equip(st, seat)
    elif kind in ("item", "key"):
        st.items[seat].append(card)
    else:
        st.spells[seat].append(card)


def trade_actions(st: SideQuestState, seat: int, moved: tuple[int, ...]) -> list[Action]:
    """RULES 15: any equipment of a hero there to another hero there; each card moves at
    most once a trade, which reaches every way of sharing it out. `give:card,N` gives it
    to Player N."""
    pos = st.position[seat]
    there = [s for s in range(st.players) if st.position[s] == pos]
    out: list[Action] = []
    for holder in there:
        for zone in (st.weapons[holder], st.items[holder], st.spells[holder]):
            for card in zone:
                if card not in moved:
                    out += [Action("give", card, shown(s)) for s in there if s != holder]
    return out


def give(st: SideQuestState, card: int, taker: int, ev: Events) -> None:
    holder = next(
        s
        for s in range(st.players)
        if card in st.weapons[s] or card in st.items[s] or card in st.spells[s]
    )
    for zone in (st.weapons[holder], st.items[holder], st.spells[holder], st.equipped[holder]):
        if card in zone:
            zone.remove(card)
    kind = st.card_kind[card]
    (st.weapons if kind == "weapon" else st.spells if kind == "spell" else st.items)[taker].append(
        card
    )
    say(
        ev,
        "give",
        f"{who(st, holder)} gives {card_name(st, card)} to {who(st, taker)}",
        seat=holder,
        card=card,
        to=taker,
    )
