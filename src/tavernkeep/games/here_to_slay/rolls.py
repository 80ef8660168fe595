"""Rolls: the Modifier window, rolling for a Hero's effect, ATTACKing and SLAYing Monsters.

Every roll is a record on `state.rolls` ([seat, die, die, bonus, modifiers]) and opens a
Modifier window frame above the frame that resolves it; the resolving frame is reached
only when every seat has passed in a row (RULES 15), so nested windows need no flags.
"""

from __future__ import annotations

from functools import lru_cache

from tavernkeep.engine.actions import PASS, Action
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.odds import chance
from tavernkeep.games.here_to_slay.cards import MODIFIER
from tavernkeep.games.here_to_slay.content import Monster
from tavernkeep.games.here_to_slay.state import NONE, HereToSlayState
from tavernkeep.games.here_to_slay.table import (
    ATTACK_ROLL,
    HERO_ROLL,
    THREE_MONSTERS,
    Events,
    aim_actions,
    aim_slots,
    card_of,
    choosable,
    distinct,
    draw,
    fire,
    game_over,
    name,
    number_of,
    player,
    position_of,
    push_effect,
    say,
    skills,
)

TOTALS = range(2, 13)
"""Every total of 2d6."""


@lru_cache(maxsize=64)
def chance_at_least(need: int) -> float:
    """2d6 >= need, with totals below 2 and above 12 read as plain numbers (RULES 17).
    Exact (engine/odds.py enumerates the dice), cached: bots ask it at every turn."""
    return float(chance(2, 6, ">=", need))


@lru_cache(maxsize=64)
def chance_at_least_other(edge: int) -> float:
    """P(2d6 + edge >= another 2d6): a challenger's chance, `edge` its bonus over the
    defender's (ties go to the challenger, RULES 13)."""
    return float(
        sum(chance(2, 6, "==", theirs) * chance(2, 6, ">=", theirs - edge) for theirs in TOTALS)
    )


@lru_cache(maxsize=64)
def chance_at_most(limit: int) -> float:
    return float(chance(2, 6, "<=", limit))


def attack_chances(monster: Monster, bonus: int) -> tuple[float, float]:
    """The chances of slaying `monster` and of its punishment, with `bonus` on the roll."""
    if monster.inverted:
        return (
            chance_at_most(monster.slay_roll - bonus),
            chance_at_least(monster.punishment_roll - bonus),
        )
    return (
        chance_at_least(monster.slay_roll - bonus),
        chance_at_most(monster.punishment_roll - bonus),
    )


def opposed_bonus(st: HereToSlayState, seat: int) -> int:
    """What `seat`'s roll gains each time an opponent plays a Modifier on it (Grimtooth
    Ogre's skill), as `modify` adds it."""
    return sum(
        max(skill.bonus)
        for skill, _, _ in skills(st, seat)
        if skill.trigger == "on_opponent_modifies_your_roll" and skill.bonus
    )


def modifier_extras(st: HereToSlayState, seat: int) -> list[int]:
    """The extra a seat's skill puts on each Modifier it plays (the Stone Warden's +1 or
    -1, chosen as the card is played), or [0]."""
    for skill, _, _ in skills(st, seat):
        if skill.trigger == "on_play_modifier" and skill.bonus:
            return list(skill.bonus)
    return [0]


def modifier_amounts(st: HereToSlayState, seat: int) -> list[list[int]]:
    """For each Modifier card in `seat`'s hand (every copy: each can be played in turn),
    the amounts it can add to a roll, the Stone Warden's extra +1 or -1 included, as
    `modifier_actions` offers them."""
    extras = modifier_extras(st, seat)
    cards = st.catalog.cards
    return [
        [amount + extra for amount in cards[c].options for extra in extras]
        for c in st.hands[seat]
        if cards[c].kind == MODIFIER
    ]


def hand_help(st: HereToSlayState, seat: int, up: bool = True, against: int = NONE) -> int:
    """The most the Modifiers in `seat`'s own hand can move its roll, up (or down, as a
    negative number, for a roll that wants to be low), each card played once at its best
    option. Modifiers are played after the dice, as many as one likes (RULES 15), so
    "the roll plus this" is what the seat can make of it if nobody else plays one; what
    the others hold is not known and not counted. `against`: in a Challenge the seat may
    instead play a card on the other roll, down, which that roll's Grimtooth Ogre
    answers with +1 each time."""
    if st.catalog.modifiers.isdisjoint(st.hands[seat]):
        return 0
    ogre = opposed_bonus(st, against) if against != NONE else 0
    total = 0
    for amounts in modifier_amounts(st, seat):
        best = max(amounts) if up else -min(amounts)
        if against != NONE:
            best = max(best, max(-v for v in amounts) - ogre)
        total += max(0, best)
    return total if up else -total


def roll_bonus(st: HereToSlayState, seat: int, purpose: str, hero: int = NONE) -> int:
    """Passive bonuses added to a roll before its window (RULES 18)."""
    bonus = seat_bonus(st, seat, purpose)
    return bonus + item_bonus(st, hero) if hero != NONE else bonus


def seat_bonus(st: HereToSlayState, seat: int, purpose: str) -> int:
    """The part of `roll_bonus` that is the seat's: this turn's boosts, its Party
    Leader's and slain Monsters' skills; the same for each of its Heroes' rolls."""
    bonus = st.boost[seat]
    for skill, _, _ in skills(st, seat):
        if skill.bonus and (skill.trigger == purpose or skill.trigger == "on_any_roll"):
            # A two-option bonus on a roll: the roller takes the better one.
            bonus += max(skill.bonus)
    if purpose == ATTACK_ROLL:
        bonus += st.attack_boost[seat]
    return bonus


def item_bonus(st: HereToSlayState, hero: int) -> int:
    """The part of a Hero's roll bonus that is its equipped Item's."""
    item = st.equipped.get(hero)
    if item is not None:
        worn = st.catalog.cards[item].skill
        if worn is not None and worn.bonus and worn.trigger == HERO_ROLL:
            return max(worn.bonus)
    return 0


def roll(st: HereToSlayState, seat: int, purpose: str, hero: int, what: str, ev: Events) -> None:
    d1, d2 = st.rng.dice(2, 6)
    bonus = roll_bonus(st, seat, purpose, hero)
    if purpose == ATTACK_ROLL:
        st.attack_boost[seat] = 0
    st.rolls.append([seat, d1, d2, bonus, 0])
    if ev is not None:
        extra = f" {bonus:+d}" if bonus else ""
        say(
            ev,
            "roll",
            f"{player(seat)} rolls {d1}+{d2}{extra} = {d1 + d2 + bonus} {what}",
            seat=seat,
            dice=[d1, d2],
            bonus=bonus,
            total=d1 + d2 + bonus,
        )


def open_window(st: HereToSlayState, roller: int, rolls: int) -> None:
    """The Modifier window over the top `rolls` rolls, asked from the roller (RULES 15).
    args: (rolls, passes in a row since the last Modifier)."""
    st.stack.append(Decision(roller, "modifier", (rolls, 0)))


def modifier_actions(st: HereToSlayState, seat: int, rolls: int) -> list[Action]:
    if st.catalog.modifiers.isdisjoint(st.hands[seat]):
        return [PASS]  # the common case: every seat is asked, most hold no Modifier
    extras = modifier_extras(st, seat)
    out = []
    cards = st.catalog.cards
    # Each open roll by its number on the table, as the screen heads it (table.py).
    first = len(st.rolls) - rolls
    targets = [number_of(first + k) for k in range(rolls)]
    for card in distinct(st, [c for c in st.hands[seat] if cards[c].kind == MODIFIER]):
        for amount in cards[card].options:
            for target in targets:
                for extra in extras:
                    if extra:
                        out.append(Action("modify", card, amount, target, extra))
                    else:
                        out.append(Action("modify", card, amount, target))
    out.append(PASS)
    return out


def modify(st: HereToSlayState, seat: int, action: Action, ev: Events) -> None:
    frame = st.stack[-1]
    rolls = frame.args[0]
    card, amount, target = (int(a) for a in action.args[:3])
    extra = int(action.args[3]) if len(action.args) > 3 else 0
    st.hands[seat].remove(card)
    st.discard.append(card)
    st.tally[seat, "card played", name(st, card)] += 1
    modified = st.rolls[position_of(target)]
    modified[4] += amount + extra
    roller = modified[0]
    if roller != seat:
        for skill, _, _ in skills(st, roller):
            if skill.trigger == "on_opponent_modifies_your_roll" and skill.bonus:
                modified[3] += max(skill.bonus)
    # Playing a Modifier starts the count of passes again (RULES 15).
    st.stack[-1] = Decision(seat, "modifier", (rolls, 0))
    say(
        ev,
        "modifier",
        f"{player(seat)} plays {name(st, card)} ({amount + extra:+d}) on {player(roller)}'s "
        f"roll: now {st.total(modified)}",
        seat=seat,
        card=card,
        amount=amount + extra,
        total=st.total(modified),
    )
    fire(st, seat, "on_play_modifier")
    for k in range(st.players):
        fire(st, (seat + k) % st.players, "on_any_modifier")


def begin_hero_roll(st: HereToSlayState, seat: int, hero: int, ev: Events) -> None:
    """Choose the effect's player first, so others may wait for the target (RULES 16).
    The frame's args: (Hero, chosen player, cards named so far)."""
    st.rolled.append(hero)
    st.tally[seat, "hero rolled", name(st, hero)] += 1
    say(ev, "hero-roll", f"{player(seat)} rolls for {name(st, hero)}", seat=seat, hero=hero)
    st.stack.append(Decision(seat, "hero_roll", (hero, NONE, ())))
    eid = card_of(st, hero).effect
    scope = st.catalog.targets[eid]
    if scope:
        candidates = choosable(st, seat, scope, eid)
        if len(candidates) == 1:
            st.stack[-1] = Decision(seat, "hero_roll", (hero, candidates[0], ()))
        elif candidates:
            st.stack.append(Decision(seat, "target", (scope, eid)))


def hero_roll(st: HereToSlayState, ev: Events) -> None:
    """Name every card the effect takes from another Party, then roll: others may wait
    for all of the targets before the window (RULES 16)."""
    frame = st.stack[-1]
    hero, target, aims = frame.args
    seat = frame.seat
    eid = card_of(st, hero).effect
    slots = aim_slots(st, seat, eid, target)
    steps = st.catalog.effects[eid]
    while len(aims) < len(slots):
        index, source = slots[len(aims)]
        step = steps[index]
        probe = Decision(seat, "aim", (step.verb, step.kind, source, aims))
        if aim_actions(st, probe):
            st.stack[-1] = Decision(seat, "hero_roll", (hero, target, aims))
            st.stack.append(probe)
            return
        aims = (*aims, NONE)  # nothing there to name: that card is not taken
    st.stack[-1] = Decision(seat, "hero_result", (hero, target, aims))
    roll(st, seat, HERO_ROLL, hero, f"for {name(st, hero)} ({card_of(st, hero).roll}+)", ev)
    open_window(st, seat, 1)


def hero_result(st: HereToSlayState, ev: Events) -> None:
    frame = st.stack.pop()
    seat = frame.seat
    hero, target, aims = frame.args
    total = st.total(st.rolls.pop())
    c = card_of(st, hero)
    item = st.equipped.get(hero, NONE)
    success = total >= c.roll
    if success:
        st.tally[seat, "hero ability used", c.name] += 1
        say(ev, "success", f"{c.name}: {total} meets {c.roll}+", seat=seat, hero=hero, total=total)
    else:
        say(ev, "failure", f"{c.name}: {total} misses {c.roll}+", seat=seat, hero=hero, total=total)
    trigger = "on_successful_hero_roll" if success else "on_failed_hero_roll"
    # Skills are pushed first so that they happen after the Hero's effect.
    if item != NONE:
        ic = card_of(st, item)
        if ic.skill is not None and ic.skill.trigger == trigger:
            push_effect(st, seat, ic.skill_effect, source=hero)
    fire(st, seat, trigger, source=hero)
    if success:
        push_effect(st, seat, c.effect, source=hero, target=target, aimed=aims)


def begin_attack(st: HereToSlayState, seat: int, monster: int, ev: Events) -> None:
    m = st.catalog.monsters[monster]
    st.tally[seat, "monster attacked", m.name] += 1
    say(ev, "attack", f"{player(seat)} ATTACKS {m.name}", seat=seat, monster=monster)
    st.stack.append(Decision(seat, "attack_result", (monster,)))
    roll(st, seat, ATTACK_ROLL, NONE, f"against {m.name} ({m.slay_text} slays)", ev)
    open_window(st, seat, 1)


def attack_result(st: HereToSlayState, ev: Events) -> None:
    frame = st.stack.pop()
    seat = frame.seat
    monster = frame.args[0]
    m = st.catalog.monsters[monster]
    total = st.total(st.rolls.pop())
    if monster not in st.row:
        say(ev, "gone", f"{m.name} is no longer there", monster=monster)
    elif m.slays(total):
        slay(st, seat, monster, ev)
    elif m.punishes(total):
        say(ev, "punished", f"{m.name} fights back ({total})", seat=seat, total=total)
        push_effect(st, seat, st.catalog.punishment[monster])
    else:
        say(ev, "nothing", f"{m.name} stands unhurt ({total})", seat=seat, total=total)


def slay(st: HereToSlayState, seat: int, monster: int, ev: Events) -> None:
    m = st.catalog.monsters[monster]
    index = st.row.index(monster)
    st.row.pop(index)
    st.slain[seat].append(monster)
    st.tally[seat, "monster slain", m.name] += 1
    say(ev, "slay", f"{player(seat)} SLAYS {m.name}", seat=seat, monster=monster)
    if len(st.slain[seat]) >= THREE_MONSTERS:
        game_over(st, seat, "three-monsters", ev)
        return
    if st.monster_deck:
        new = st.monster_deck.pop()
        st.row.insert(index, new)
        say(ev, "monster", f"{st.catalog.monsters[new].name} is turned up", monster=new)
    if m.draw_on_slay:
        draw(st, seat, m.draw_on_slay, ev)
