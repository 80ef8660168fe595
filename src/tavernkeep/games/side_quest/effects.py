"""Cards a hero uses: its ability, its items and Cast Spell (RULES 14).

A card is offered when every effect on it is one these rules play (USABLE: free_loot,
free_move and push also as its last effect, reroll in the window after a roll; 47), which
the standard pack's cards all are. Each used card works at most once a turn, on its
holder's own turn (CONTENT.md, "Once a turn"). A card's effects run in order; an effect
whose target someone must choose opens a `target` frame (args: the source, the effect's
index), and the rest runs once it is answered: `target:N` names a Monster by its card id,
a Location or a hero by the number people see (Location N, Player N). A spell is rolled
for first (rolls.py).
"""

from __future__ import annotations

from tavernkeep.engine.actions import Action
from tavernkeep.engine.decisions import Decision
from tavernkeep.games.side_quest.cards import (
    ability,
    card_name,
    health_of,
    index_of,
    location_name,
    shown,
    who,
)
from tavernkeep.games.side_quest.combat import slay
from tavernkeep.games.side_quest.content import HERO_HEALTH, Effect
from tavernkeep.games.side_quest.dungeon import Events, say
from tavernkeep.games.side_quest.heroes import (
    ABILITY,
    LOOT_ROLL,
    bonus,
    gain,
    hero_range,
    overburdened,
)
from tavernkeep.games.side_quest.locations import entered, reveal
from tavernkeep.games.side_quest.monsters import active_monster_at, location_of
from tavernkeep.games.side_quest.rolls import after_roll
from tavernkeep.games.side_quest.state import NONE, SideQuestState

USABLE = frozenset(
    {
        "heal",
        "damage",
        "stun",
        "block",
        "seal",
        "extra_action",
        "teleport",
        "evade",
        "draw_loot",
        "boost",
        "range_plus",
        "damage_plus",
        "armor",
    }
)
"""Effects a used card may carry to be offered; free_loot, free_move and push too, as a
card's last effect (they open a roll or a choice of their own). reroll is used in the window
after a roll, never on its own."""


def card_effects(st: SideQuestState, seat: int, source: int) -> list[Effect]:
    if source == ABILITY:
        return list(st.content.hero[st.hero[seat]].effects)
    kind, ref = st.card_kind[source], st.card_ref[source]
    if kind == "item":
        return list(st.content.item[ref].effects)
    return list(st.content.spell[ref].effects)


def usable(effects: list[Effect]) -> bool:
    return all(
        e.name in USABLE or (e.name in ("free_loot", "free_move", "push") and i == len(effects) - 1)
        for i, e in enumerate(effects)
    )


def card_range(st: SideQuestState, seat: int) -> int:

    return max(hero_range(st, seat), 0)


def options(st: SideQuestState, seat: int, effect: Effect) -> list[int]:
    """What a chosen target may be: seats, Monster ids or Location indexes."""

    pos = st.position[seat]
    if effect.name == "teleport":
        if overburdened(st, seat):
            return []
        return [loc for loc in range(len(st.row)) if st.revealed[loc] and loc != pos]
    if effect.name == "free_move":
        if overburdened(st, seat):
            return []
        return [loc for loc in (pos - 1, pos + 1) if 0 <= loc < len(st.row)]
    target = effect.target
    if target == "hero_here":
        return [s for s in range(st.players) if st.position[s] == pos]
    if target == "any_hero":
        return list(range(st.players))
    reach = 0 if target in ("monster_here",) else card_range(st, seat)
    if target in ("monster_here", "monster_in_range"):
        out = []
        for loc in range(len(st.row)):
            if abs(loc - pos) > reach:
                continue
            guarded = any(
                ability(st, c) == "bodyguard" and c not in st.stunned for c in st.here[loc]
            )
            for c in st.here[loc]:
                if st.card_kind[c] != "monster":
                    continue
                if guarded and ability(st, c) != "bodyguard":
                    continue
                if loc != pos and ability(st, c) == "shielded":
                    continue
                out.append(c)
        return out
    if target == "location_in_range":
        return [loc for loc in range(len(st.row)) if abs(loc - pos) <= reach]
    if target == "every_monster_in_range":
        return [
            loc
            for loc in range(len(st.row))
            if abs(loc - pos) <= reach and any(st.card_kind[c] == "monster" for c in st.here[loc])
        ]
    return []


def chooses(effect: Effect) -> str:
    """What the effect's chosen target is, as `options` lists them: "location", "hero" (a
    seat) or "monster" (a card id)."""
    if effect.name in ("teleport", "free_move"):
        return "location"
    if effect.target in ("hero_here", "any_hero"):
        return "hero"
    if effect.target in ("monster_here", "monster_in_range"):
        return "monster"
    return "location"


def chosen(effect: Effect) -> bool:
    return effect.name in ("teleport", "free_move") or effect.target in (
        "location_in_range",
        "hero_here",
        "any_hero",
        "monster_here",
        "monster_in_range",
        "every_monster_in_range",
    )


def use_actions(st: SideQuestState, seat: int) -> list[Action]:
    """The cards the hero may use now: not used this turn, and with something to aim at."""
    out: list[Action] = []
    hero = st.content.hero[st.hero[seat]]
    sources: list[tuple[int, str, str]] = []
    if hero.use != "passive":
        sources.append((ABILITY, hero.use, "ability"))
    for c in st.items[seat]:
        if st.card_kind[c] == "item":
            item = st.content.item[st.card_ref[c]]
            if item.use != "passive":
                sources.append((c, item.use, "use"))
    if st.actions > 0:
        sources += [(c, "action", "cast") for c in st.spells[seat]]
    for source, use, verb in sources:
        if source in st.used or (use == "action" and st.actions == 0):
            continue
        effects = card_effects(st, seat, source)
        if not usable(effects):
            continue
        first = next((e for e in effects if chosen(e)), None)
        if first is not None and not options(st, seat, first):
            continue
        if any(e.name == "free_loot" for e in effects) and active_monster_at(st, st.position[seat]):
            continue
        out.append(Action("ability") if source == ABILITY else Action(verb, source))
    return out


def use_card(st: SideQuestState, seat: int, action: Action, ev: Events) -> None:
    """The hero uses a card: a spell is rolled for first (RULES 14), then effects run."""

    source = ABILITY if action.kind == "ability" else int(action.args[0])
    st.used.append(source)
    if action.kind == "cast":
        st.actions -= 1
        spell = st.content.spell[st.card_ref[source]]
        st.tally[seat, "spell cast", spell.name] += 1
        roll = st.rng.die(6)
        say(ev, "cast", f"{who(st, seat)} casts {spell.name}: {roll}", seat=seat, roll=roll)
        plus = bonus(st, seat, "boost", "spell")
        after_roll(st, seat, "spell", source, ((roll + plus, spell.roll, 0, plus),), ev)
        return
    if source == ABILITY:
        hero = st.content.hero[st.hero[seat]]
        use, name = hero.use, hero.name + "'s ability"
        st.tally[seat, "ability used", hero.name] += 1
    else:
        item = st.content.item[st.card_ref[source]]
        use, name = item.use, item.name
        st.tally[seat, "item used", item.name] += 1
        if item.consumed:
            st.items[seat].remove(source)
            st.removed.append(source)
    if use == "action":
        st.actions -= 1
    say(ev, "use", f"{who(st, seat)} uses {name}", seat=seat)
    run_effects(st, seat, source, 0, ev)


def run_effects(st: SideQuestState, seat: int, source: int, start: int, ev: Events) -> None:
    """The card's effects from `start` on, stopping at one whose target must be chosen."""
    effects = card_effects(st, seat, source)
    for index in range(start, len(effects)):
        effect = effects[index]
        if chosen(effect):
            choices = options(st, seat, effect)
            if len(choices) > 1:
                st.stack.append(Decision(seat, "target", (source, index)))
                return
            if choices:
                apply_effect(st, seat, effect, choices[0], ev)
        else:
            apply_effect(st, seat, effect, NONE, ev)
        if st.ending:
            return


def apply_effect(st: SideQuestState, seat: int, effect: Effect, target: int, ev: Events) -> None:

    pos = st.position[seat]
    name, amount = effect.name, effect.amount
    if effect.target in ("hero_here", "any_hero"):
        heroes = [target]
    elif effect.target == "every_hero_here":
        heroes = [s for s in range(st.players) if st.position[s] == pos]
    else:
        heroes = [seat]
    if effect.target in ("monster_here", "monster_in_range"):
        monsters = [target]
    elif effect.target == "every_monster_in_range":
        monsters = [c for c in st.here[target] if st.card_kind[c] == "monster"]
    elif effect.target == "every_monster_here":
        monsters = [c for c in st.here[pos] if st.card_kind[c] == "monster"]
    else:
        monsters = []
    if name == "heal":
        for s in heroes:
            st.health[s] = min(HERO_HEALTH, st.health[s] + amount)
            say(ev, "heal", f"{who(st, s)} has {st.health[s]} health", seat=s)
    elif name == "damage":
        for c in monsters:
            loc = location_of(st, c)
            if loc != pos and ability(st, c) == "shielded":
                continue
            if amount >= health_of(st, c):
                slay(st, c, loc, seat, ev)
            elif c in st.stunned:
                st.stunned.discard(c)
                say(ev, "wake", f"{card_name(st, c)} is woken", card=c)
    elif name == "stun":
        for c in monsters:
            if ability(st, c) != "unstoppable":
                st.stunned.add(c)
                say(ev, "stun", f"{card_name(st, c)} is stunned", card=c)
    elif name == "extra_action":
        st.actions += amount
        say(ev, "actions", f"{who(st, seat)} gains {amount} actions", seat=seat)
    elif name == "draw_loot":
        for _ in range(amount):
            if st.loot_deck:
                gain(st, seat, st.loot_deck.pop())
    elif name == "teleport":
        st.position[seat] = target
        say(ev, "teleport", f"{who(st, seat)} steps away", seat=seat, location=target)
        reveal(st, target, ev)
        entered(st, target, ev, seat)
    elif name in ("armor", "damage_plus", "evade", "range_plus"):
        for s in heroes:
            st.temporary.append((s, name, amount))
    elif name == "boost":
        for s in heroes:
            st.temporary.append((s, f"boost:{effect.roll}", amount))
    elif name == "block":
        for c in monsters:
            if ability(st, c) != "unstoppable":
                st.blocked.add(c)
        say(ev, "block", f"{len(monsters)} Monsters are held in place", seat=seat)
    elif name == "seal":
        loc = target if effect.target == "location_in_range" else pos
        st.sealed.add(loc)
        say(ev, "seal", f"{location_name(st, loc)} is sealed", location=loc)
    elif name == "push":
        c = monsters[0]
        loc = location_of(st, c)
        ways = [p for p in (loc - 1, loc + 1) if 0 <= p < len(st.row)]
        if ability(st, c) != "unstoppable" and ways:
            st.stack.append(Decision(seat, "push", (c,)))
    elif name == "free_move":
        walk(st, seat, target, amount - 1, ev)
    elif name == "free_loot" and not any(
        st.card_kind[c] in ("monster", "boss") and c not in st.stunned for c in st.here[pos]
    ):
        roll = st.rng.die(6)
        say(ev, "roll", f"{who(st, seat)} rolls {roll} to Loot", seat=seat, dice=[roll])
        plus = bonus(st, seat, "boost", "loot")
        after_roll(st, seat, "loot", NONE, ((roll + plus, LOOT_ROLL, 0, plus),), ev)


def walk(st: SideQuestState, seat: int, loc: int, more: int, ev: Events) -> None:
    """A free move: no Grab Attacks; `more` steps may follow, the hero's choice."""
    st.position[seat] = loc
    say(ev, "move", f"{who(st, seat)} slips to {location_name(st, loc)}", seat=seat, location=loc)
    reveal(st, loc, ev)
    entered(st, loc, ev, seat)
    if more > 0 and not st.ending:
        st.stack.append(Decision(seat, "walk", (more,)))


def target_actions(st: SideQuestState, seat: int, source: int, index: int) -> list[Action]:
    """`target:N`: a Monster by its card id, a Location or a hero by the number shown."""
    effect = card_effects(st, seat, source)[index]
    if chooses(effect) == "monster":
        return [Action("target", c) for c in options(st, seat, effect)]
    return [Action("target", shown(t)) for t in options(st, seat, effect)]


def answer_target(
    st: SideQuestState, seat: int, source: int, index: int, choice: int, ev: Events
) -> None:
    """The effect on what `target:choice` names (see `target_actions`), then the rest."""
    effect = card_effects(st, seat, source)[index]
    target = choice if chooses(effect) == "monster" else index_of(choice)
    apply_effect(st, seat, effect, target, ev)
    if not st.ending:
        run_effects(st, seat, source, index + 1, ev)
