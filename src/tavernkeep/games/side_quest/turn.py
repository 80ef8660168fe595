"""A game turn: Refresh, the Hero phase, the Monster phase, the End phase (RULES 6-9).

`advance` works off the frames the rules resolve by themselves (AUTOMATIC) until a seat
must decide or the game is over. In the Hero phase each hero takes up to three actions
(`turn_actions`, `hero_action`): Move with its Grab Attacks, Attack, Pick Up, Loot, Cast
Spell and used cards, Trade, Rescue, the Dungeon Key, Dropping (10-19). The End phase
restores stuns, lowers the Damsels (26), passes the Leader card and checks the turn limit
(32).
"""

from __future__ import annotations

from collections.abc import Callable

from tavernkeep.engine.actions import Action
from tavernkeep.engine.decisions import Decision
from tavernkeep.games.side_quest.cards import (
    FIGHTERS,
    LOOT_KINDS,
    ability,
    card_name,
    index_of,
    location_name,
    shown,
    weapon_of,
    who,
)
from tavernkeep.games.side_quest.combat import hit_targets
from tavernkeep.games.side_quest.dungeon import Events, refresh, say, seat_order
from tavernkeep.games.side_quest.effects import run_effects, use_actions, use_card
from tavernkeep.games.side_quest.heroes import (
    LOOT_ROLL,
    bonus,
    gain,
    hero_range,
    overburdened,
    re_equip,
)
from tavernkeep.games.side_quest.locations import entered, location_end_phase, reveal
from tavernkeep.games.side_quest.monsters import (
    activate,
    active_monster_at,
    monster_hits,
    monster_phase,
    wound,
)
from tavernkeep.games.side_quest.rolls import Die, after_roll
from tavernkeep.games.side_quest.state import NONE, SideQuestState

ACTIONS_A_TURN = 3
END = Action("end")
LOOT = Action("loot")
TRADE = Action("trade")
AUTOMATIC = frozenset({"round", "hero_turn", "monsters", "activate", "end_phase", "cast"})
"""Frames the rules resolve by themselves; every other frame is a seat's decision."""
ENDINGS = {
    "boss-slain": "the Boss was slain",
    "hero-fell": "a hero fell",
    "damsel-lost": "a Damsel was lost",
    "turn-limit": "the turn limit ran out",
}


def advance(st: SideQuestState, ev: Events) -> None:
    """Resolve automatic frames until a seat must decide or the game is over."""
    while not st.ending and st.stack and st.stack[-1].kind in AUTOMATIC:
        top = st.stack.pop()
        kind = top.kind
        if kind == "round":
            refresh(st, ev)
            st.stack.append(Decision(st.leader, "end_phase"))
            st.stack.append(Decision(st.leader, "monsters"))
            for seat in reversed(seat_order(st)):
                st.stack.append(Decision(seat, "hero_turn"))
        elif kind == "hero_turn":
            if st.hero_stun[top.seat] == st.turns:
                say(ev, "stunned", f"{who(st, top.seat)} is stunned and loses the turn")
                continue
            st.current = top.seat
            st.actions = ACTIONS_A_TURN + bonus(st, top.seat, "extra_action")
            st.looted = False
            st.used = []
            st.stack.append(Decision(top.seat, "turn"))
        elif kind == "monsters":
            st.current = NONE
            st.actions = 0
            monster_phase(st, ev)
            st.stack.append(Decision(top.seat, "activate"))
        elif kind == "activate":
            if st.queue:
                st.stack.append(top)
                activate(st, st.queue.pop(0), ev)
        elif kind == "end_phase":
            end_phase(st, ev)
        elif kind == "cast":
            # A spell whose roll stands (rolls.py): its effects, which may ask a seat.
            run_effects(st, top.seat, top.args[0], 0, ev)
    if st.ending:
        st.stack.clear()
        verb = "win" if st.ending == "boss-slain" else "lose"
        say(ev, "ending", f"The heroes {verb}: {ENDINGS[st.ending]}", ending=st.ending)


def end_phase(st: SideQuestState, ev: Events) -> None:
    """RULES 9: stuns restored, Damsels lowered, the Leader card passed; then the limit."""
    st.stunned.clear()
    st.temporary.clear()
    st.blocked.clear()
    for seat in range(st.players):
        if st.hero_stun[seat] == st.turns:
            st.hero_stun[seat] = NONE
    lost = False
    for damsel in list(st.depth):
        st.depth[damsel] += 1
        if st.depth[damsel] >= st.content.specials.damsel_depth:
            lost = True
    equip = location_end_phase(st, ev)
    st.leader = (st.leader + 1) % st.players
    st.turns += 1
    st.level_turns += 1
    say(
        ev,
        "end_phase",
        f"End of turn {st.level_turns}; {who(st, st.leader)} leads",
        leader=st.leader,
    )
    if lost:
        st.ending = "damsel-lost"
    elif st.level_turns >= st.config.turn_limit:
        st.ending = "turn-limit"
    else:
        st.stack.append(Decision(st.leader, "round"))
        for seat in reversed(equip):
            re_equip(st, seat)


def turn_actions(st: SideQuestState, seat: int) -> list[Action]:
    """Every action the hero may take now, in the order a player reads them."""
    return [
        *moves(st, seat),
        *attacks(st, seat),
        *on_the_floor(st, seat),
        *trades(st, seat),
        *keys(st, seat),
        *use_actions(st, seat),
        *drops(st, seat),
        END,
    ]


def offered(st: SideQuestState, seat: int, action: Action) -> bool:
    """Whether `action` is among `turn_actions`: only its own kind's are worked out, so
    `apply` checks an action at a fraction of the cost of listing them all (the search
    checks every action it plays)."""
    offer = OFFERS.get(action.kind)
    return offer is not None and action in offer(st, seat)


def moves(st: SideQuestState, seat: int) -> list[Action]:
    if st.actions <= 0 or overburdened(st, seat):
        return []
    pos = st.position[seat]
    return [Action("move", shown(loc)) for loc in (pos - 1, pos + 1) if 0 <= loc < len(st.row)]


def attacks(st: SideQuestState, seat: int) -> list[Action]:
    if st.actions <= 0:
        return []
    pos, reach = st.position[seat], hero_range(st, seat)
    return [
        Action("attack", shown(loc))
        for loc in range(max(pos - reach, 0), min(pos + reach + 1, len(st.row)))
        if hit_targets(st, loc, seat)
    ]


def on_the_floor(st: SideQuestState, seat: int) -> list[Action]:
    """Pick Up, Rescue and Loot: only with no active Monster at the hero's Location."""
    pos = st.position[seat]
    if st.actions <= 0 or active_monster_at(st, pos):
        return []
    out = [
        Action("pickup", c)
        for c in st.here[pos]
        if st.card_kind[c] in LOOT_KINDS or st.card_kind[c] == "key"
    ]
    out += [Action("rescue", c) for c in st.here[pos] if st.card_kind[c] == "damsel"]
    if not st.looted:
        out.append(LOOT)
    return out


def trades(st: SideQuestState, seat: int) -> list[Action]:
    pos = st.position[seat]
    if st.actions > 0 and any(st.position[s] == pos for s in range(st.players) if s != seat):
        return [TRADE]
    return []


def keys(st: SideQuestState, seat: int) -> list[Action]:
    if st.actions <= 0 or st.depth:
        return []
    key = next((c for c in st.items[seat] if st.card_kind[c] == "key"), NONE)
    if key != NONE and st.content.location[st.row[st.position[seat]]].locked_door:
        return [Action("key", key)]
    return []


def drops(st: SideQuestState, seat: int) -> list[Action]:
    return [
        Action("drop", c)
        for zone in (st.weapons[seat], st.items[seat], st.spells[seat])
        for c in zone
    ]


OFFERS: dict[str, Callable[[SideQuestState, int], list[Action]]] = {
    "move": moves,
    "attack": attacks,
    "pickup": on_the_floor,
    "rescue": on_the_floor,
    "loot": on_the_floor,
    "trade": trades,
    "key": keys,
    "ability": use_actions,
    "use": use_actions,
    "cast": use_actions,
    "drop": drops,
    "end": lambda st, seat: [END],
}
"""Which part of `turn_actions` offers each kind of action."""


def hero_action(st: SideQuestState, seat: int, action: Action, ev: Events) -> None:
    kind = action.kind
    if kind == "end":
        say(ev, "end_turn", f"{who(st, seat)} ends the turn", seat=seat)
        st.current = NONE
        return
    st.stack.append(Decision(seat, "turn"))
    if kind == "drop":
        card = int(action.args[0])
        for zone in (st.weapons[seat], st.items[seat], st.spells[seat]):
            if card in zone:
                zone.remove(card)
        if card in st.equipped[seat]:
            st.equipped[seat].remove(card)
        st.here[st.position[seat]].append(card)
        say(ev, "drop", f"{who(st, seat)} drops {card_name(st, card)}", seat=seat, card=card)
        return
    if kind in ("ability", "use", "cast"):
        use_card(st, seat, action, ev)
        return
    st.actions -= 1
    pos = st.position[seat]
    if kind == "move":
        move_hero(st, seat, index_of(action.args[0]), ev)
    elif kind == "attack":
        attack(st, seat, index_of(action.args[0]), ev)
    elif kind == "pickup":
        card = int(action.args[0])
        st.here[pos].remove(card)
        say(ev, "pickup", f"{who(st, seat)} picks up {card_name(st, card)}", seat=seat, card=card)
        gain(st, seat, card)
    elif kind == "key":
        roll = st.rng.die(6)
        say(ev, "roll", f"{who(st, seat)} rolls {roll} to open the Locked Door", seat=seat)
        need = st.content.specials.key_roll
        plus = bonus(st, seat, "boost", "key")
        after_roll(st, seat, "key", int(action.args[0]), ((roll + plus, need, 0, plus),), ev)
    elif kind == "trade":
        say(ev, "trade", f"{who(st, seat)} trades", seat=seat)
        st.stack.append(Decision(seat, "trade", ()))
    elif kind == "loot":
        st.looted = True
        roll = st.rng.die(6)
        say(ev, "roll", f"{who(st, seat)} rolls {roll} to Loot", seat=seat, dice=[roll])
        plus = bonus(st, seat, "boost", "loot")
        after_roll(st, seat, "loot", NONE, ((roll + plus, LOOT_ROLL, 0, plus),), ev)
    elif kind == "rescue":
        roll = st.rng.die(6)
        say(ev, "roll", f"{who(st, seat)} rolls {roll} to rescue", seat=seat, dice=[roll])
        need = st.content.specials.rescue_roll
        plus = bonus(st, seat, "boost", "rescue")
        after_roll(st, seat, "rescue", int(action.args[0]), ((roll + plus, need, 0, plus),), ev)


def move_hero(st: SideQuestState, seat: int, loc: int, ev: Events) -> None:
    """RULES 10: every active Monster left behind makes a Grab Attack, -1 on each die."""
    left = st.position[seat]
    evading = bonus(st, seat, "evade") > 0
    for c in list(st.here[left]):
        if st.card_kind[c] in FIGHTERS and c not in st.stunned and not evading:
            grab = 0 if ability(st, c) == "grasping" else -1
            hits = monster_hits(st, c, grab, ev, grab=True)
            took = 0
            for damage in hits:
                took = wound(st, seat, damage, c, ev, took)
                if st.ending:
                    return
    st.position[seat] = loc
    say(ev, "move", f"{who(st, seat)} moves to {location_name(st, loc)}", seat=seat, location=loc)
    reveal(st, loc, ev)
    entered(st, loc, ev, seat)


def attack(st: SideQuestState, seat: int, loc: int, ev: Events) -> None:
    """RULES 11: every equipped weapon that reaches rolls; each success is a hit to allocate."""
    pos = st.position[seat]
    dice: list[Die] = []
    farther = bonus(st, seat, "range_plus")
    plus = bonus(st, seat, "boost", "attack")
    more = bonus(st, seat, "damage_plus")
    for w in st.equipped[seat]:
        weapon = weapon_of(st, w)
        if abs(loc - pos) > weapon.range + farther:
            continue
        rolled = st.rng.dice(weapon.dice)
        dice += [(d + plus, weapon.hit, weapon.damage + more, plus) for d in rolled]
        say(
            ev,
            "attack",
            f"{who(st, seat)} attacks with {weapon.name}: {'+'.join(map(str, rolled))} "
            f"({weapon.hit}+ to hit)",
            seat=seat,
            dice=rolled,
        )
    after_roll(st, seat, "attack", loc, tuple(dice), ev)
