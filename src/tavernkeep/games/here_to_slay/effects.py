"""The effect interpreter: the content's steps (verbs and named effects) as frames.

An effect frame is `Decision(owner, "effect", (effect, next step, chosen player,
challenger, card the last step gave, source card, cards named before the roll))`.
It does one step at a time; a step that needs a choice pushes a "pick" or "target"
frame above the effect frame, which goes on with the next step when the choice is made.
Nothing is a suspended generator, so a half-done effect clones and pickles like the
rest of the state.
"""

from __future__ import annotations

from tavernkeep.engine.actions import Action
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.events import Event
from tavernkeep.games.here_to_slay.cards import HERO, matches
from tavernkeep.games.here_to_slay.content import Step
from tavernkeep.games.here_to_slay.rolls import (
    begin_attack,
    begin_hero_roll,
    slay,
)
from tavernkeep.games.here_to_slay.state import NONE, HereToSlayState
from tavernkeep.games.here_to_slay.table import (
    PAST,
    Events,
    aimed_at,
    choosable,
    discard_from_hand,
    draw,
    fire,
    lose_hero,
    name,
    owner_of,
    party_cards,
    player,
    remove_hero,
    say,
    seats_of,
    unequip,
)

EVERYONE = -1
"""A `known` mask with every seat's bit set: the card was shown to the table."""


def step_scope(step: Step) -> str:
    specs = (step.who, step.from_)
    if "chosen_player" in specs:
        return "chosen_player"
    if "chosen_opponent" in specs or step.named == "look_and_take":
        return "chosen_opponent"
    return ""


ASKED_FIRST = frozenset({"draw", "pull", "challenge"})
"""Verbs whose "you may" is a yes-or-no question before the step; the other verbs (and
`play_at_once`) offer a skip among their choices instead."""
PICKING_NAMED = frozenset({"encore", "ward_hero", "replace_monster", "look_and_take"})


def asks_first(step: Step) -> bool:
    if not step.optional:
        return False
    if step.verb is not None:
        return step.verb in ASKED_FIRST
    return step.named not in PICKING_NAMED and step.named != "play_at_once"


def skip_step(st: HereToSlayState) -> None:
    """The owner declined an optional step: the effect goes on with the next one."""
    st.stack.pop()
    frame = st.stack[-1]
    a = frame.args
    st.stack[-1] = Decision(frame.seat, "effect", (a[0], a[1] + 1, *a[2:]))


def run_effect(st: HereToSlayState, ev: Events, confirmed: bool = False) -> None:
    """Do the next step of the effect frame on top; `confirmed` when its owner has just
    said yes to an optional step."""
    frame = st.stack[-1]
    owner = frame.seat
    eid, index, target, challenger, last, source, aimed = frame.args
    steps = st.catalog.effects[eid]
    if index >= len(steps):
        st.stack.pop()
        return
    step = steps[index]
    scope = step_scope(step)
    if scope and target == NONE:
        candidates = choosable(st, owner, scope, eid)
        if len(candidates) > 1:
            st.stack.append(Decision(owner, "target", (scope, eid)))
            return
        target = candidates[0] if candidates else NONE
    if not confirmed and asks_first(step):
        st.stack[-1] = Decision(owner, "effect", (eid, index, target, *frame.args[3:]))
        st.stack.append(Decision(owner, "may_step", (eid, index)))
        return
    at = len(st.stack) - 1
    st.stack.pop()
    if step.cost and not can_pay(st, owner, step):
        say(ev, "unpaid", f"{player(owner)} has nothing to {step.verb}: the rest is not done")
        return
    gained = do_step(st, owner, eid, index, target, challenger, last, source, aimed, ev)
    if st.ending:
        return
    # Under whatever the step pushed (choices, triggers), so the effect goes on after it.
    after = (eid, index + 1, target, challenger, gained, source, aimed)
    st.stack.insert(at, Decision(owner, "effect", after))


def do_step(
    st: HereToSlayState,
    owner: int,
    eid: int,
    index: int,
    target: int,
    challenger: int,
    last: int,
    source: int,
    aimed: tuple[int, ...],
    ev: Events,
) -> int:
    """Step `index` of effect `eid`; the card it put in the owner's hand (for
    `play_at_once`), else NONE."""
    step = st.catalog.effects[eid][index]
    if step.named is not None:
        return do_named(st, owner, step, eid, target, last, source, ev)
    verb = step.verb
    what = step.kind
    optional = int(step.optional)
    gained = NONE
    if verb == "draw":
        for seat in seats_of(st, step.who, owner, target, challenger):
            got = draw(st, seat, step.count, ev)
            if seat == owner:
                gained = got
    elif verb == "discard" or verb == "sacrifice":
        for seat in reversed(seats_of(st, step.who, owner, target, challenger)):
            st.stack.append(Decision(seat, "pick", (verb, what, NONE, step.count, optional, ())))
    elif verb == "destroy" or verb == "steal" or verb == "return":
        assert step.from_ is not None
        for seat in reversed(seats_of(st, step.from_, owner, target, challenger)):
            aim = aimed_at(st, owner, eid, target, aimed, index, seat) if aimed else ()
            st.stack.append(Decision(owner, "pick", (verb, what, seat, step.count, optional, aim)))
    elif verb == "pull":
        assert step.from_ is not None
        for seat in seats_of(st, step.from_, owner, target, challenger):
            for _ in range(step.count):
                hand = st.hands[seat]
                if not hand:
                    break
                gained = hand[st.rng.below(len(hand))]
                hand_to_hand(st, gained, seat, owner, "pull", "PULLS", "", ev)
    elif verb == "search":
        st.stack.append(Decision(owner, "pick", ("search", what, NONE, step.count, optional, ())))
    elif verb == "attack" or verb == "slay":
        st.stack.append(Decision(owner, "pick", (verb, "monster", NONE, 1, optional, ())))
    else:
        # CHALLENGE as a step needs a card being played within reach, which no effect run
        # from a Hero, Magic card or skill has; it does nothing.
        say(ev, "nothing", "There is no card being played to CHALLENGE")
    return gained


def can_pay(st: HereToSlayState, owner: int, step: Step) -> bool:
    """Whether `owner` has a card of the kind a cost step asks for."""
    cards = st.catalog.cards
    if step.verb == "sacrifice":
        return bool(party_cards(st, owner, step.kind, takeable=False))
    st.unasked += 1  # the answer comes from a hand: see HereToSlayState.unasked
    return any(matches(cards[c], step.kind) for c in st.hands[owner])


def hand_to_hand(
    st: HereToSlayState,
    card: int,
    giver: int,
    taker: int,
    kind: str,
    verb: str,
    where: str,
    ev: Events,
) -> None:
    """Move a card from one hand to another: only the two players learn which card."""
    st.hands[giver].remove(card)
    st.hands[taker].append(card)
    st.known[card] = (1 << giver) | (1 << taker)
    if ev is not None:
        ev.append(
            Event(
                kind,
                f"{player(taker)} {verb} {name(st, card)} from {player(giver)}{where}",
                {"seat": taker, "from": giver, "card": card},
                seats=frozenset({taker, giver}),
                public=Event(
                    kind,
                    f"{player(taker)} {verb} a card from {player(giver)}{where}",
                    {"seat": taker, "from": giver},
                ),
            )
        )


def do_named(
    st: HereToSlayState,
    owner: int,
    step: Step,
    eid: int,
    target: int,
    last: int,
    source: int,
    ev: Events,
) -> int:
    named = step.named
    optional = int(step.optional)
    if named == "encore":
        st.stack.append(Decision(owner, "pick", ("encore", HERO, source, 1, optional, ())))
    elif named == "plus_one_rolls_this_turn":
        st.boost[owner] += 1
        say(ev, "boost", f"{player(owner)}'s rolls get +1 this turn", seat=owner)
    elif named == "next_attack_plus_two":
        st.attack_boost[owner] += 2
        say(ev, "boost", f"{player(owner)}'s next ATTACK gets +2", seat=owner)
    elif named == "ward_hero":
        st.stack.append(Decision(owner, "pick", ("ward", HERO, NONE, 1, optional, ())))
    elif named == "replace_monster":
        st.stack.append(Decision(owner, "pick", ("replace", "monster", NONE, 1, optional, ())))
    elif named == "look_and_take":
        if target != NONE:
            # The owner sees the whole hand from now on (its view shows it while they
            # choose): each card of it is known to them where it lies, so `determinize`
            # keeps that hand as it is for them, and the pick means the same in every deal.
            for seen in st.hands[target]:
                st.known[seen] = st.known.get(seen, 0) | (1 << owner)
            st.stack.append(Decision(owner, "pick", ("take", "card", target, 1, optional, ())))
    elif named == "two_more_action_points":
        if st.current == owner:
            st.ap += 2
            say(ev, "boost", f"{player(owner)} gains 2 action points", seat=owner)
    elif named == "play_at_once":
        # Asked even if the card has left the hand (only "pass" is offered then), so that
        # every card drawn still gets its one question (RULES 38).
        if last != NONE:
            what = st.catalog.drawn_kinds[eid]
            st.stack.append(Decision(owner, "play_now", (last, int(step.optional), what)))
    elif named == "reveal_drawn_card":
        if last != NONE:
            st.known[last] = EVERYONE
            say(ev, "reveal", f"{player(owner)} reveals {name(st, last)}", seat=owner, card=last)
    elif named == "discard_after_success":
        item = st.equipped.get(source, NONE)
        if item != NONE and owner_of(st, source) != NONE:
            if st.config.curse_discards == "hero":
                owner = owner_of(st, source)
                st.tally[owner, "hero lost", name(st, source)] += 1
                remove_hero(st, source)
                st.discard.append(source)
                st.discard.append(item)
                say(
                    ev,
                    "curse",
                    f"{name(st, source)} and {name(st, item)} are discarded",
                    seat=owner,
                    card=source,
                )
            else:
                unequip(st, item)
                st.discard.append(item)
                say(ev, "curse", f"{name(st, item)} is discarded", card=item)
    # decoy, effect_cannot_be_used, steal_instead_of_destroy, heroes_cannot_be_destroyed
    # and items_cannot_be_challenged are standing rules, read where they apply.
    return NONE


def pick(st: HereToSlayState, action: Action, ev: Events) -> None:
    at = len(st.stack) - 1
    frame = st.stack.pop()
    if action.kind == "skip":
        return
    seat = frame.seat
    verb, what, source, count, optional, aimed = frame.args
    card = int(action.args[0])
    gained = NONE
    if action.kind == "steal":
        verb = "steal"  # the Hollow King's reading of a DESTROY
    if verb == "discard":
        discard_from_hand(st, seat, card, ev)
    elif verb == "sacrifice" or verb == "destroy":
        if what == HERO:
            victim = owner_of(st, card)
            if lose_hero(st, card, verb, ev) and verb == "destroy":
                fire(st, victim, "on_hero_destroyed", source=card)
        else:
            unequip(st, card)
            st.discard.append(card)
            say(ev, verb, f"{name(st, card)} is {PAST[verb]}", card=card)
    elif verb == "steal":
        if what == HERO:
            item = st.equipped.get(card, NONE)
            victim = owner_of(st, card)
            st.tally[victim, "hero lost", name(st, card)] += 1
            remove_hero(st, card)
            st.parties[seat].append(card)
            if item != NONE:
                st.equipped[card] = item
            say(
                ev,
                "steal",
                f"{player(seat)} STEALS {name(st, card)} from {player(victim)}",
                seat=seat,
                card=card,
                victim=victim,
            )
        else:
            unequip(st, card)
            st.equipped[int(action.args[1])] = card
            say(ev, "steal", f"{player(seat)} STEALS {name(st, card)}", seat=seat, card=card)
    elif verb == "return":
        if what == HERO:
            item = st.equipped.get(card, NONE)
            remove_hero(st, card)
            st.hands[source].append(card)
            st.known[card] = EVERYONE
            if item != NONE:
                st.hands[source].append(item)
                st.known[item] = EVERYONE
        else:
            unequip(st, card)
            st.hands[source].append(card)
            st.known[card] = EVERYONE
        say(ev, "return", f"{name(st, card)} returns to {player(source)}'s hand", card=card)
    elif verb == "search":
        st.discard.remove(card)
        st.hands[seat].append(card)
        st.known[card] = EVERYONE
        gained = card
        say(
            ev,
            "search",
            f"{player(seat)} takes {name(st, card)} from the discard pile",
            seat=seat,
            card=card,
        )
    elif verb == "take":
        # The taker has seen the whole hand (marked known when the look began) and
        # knows where each card of it still is.
        gained = card
        hand_to_hand(st, card, source, seat, "take", "takes", "'s hand", ev)
    elif verb == "ward":
        st.wards[card] = seat
        say(ev, "ward", f"{name(st, card)} is warded until {player(seat)}'s next turn", card=card)
    elif verb == "encore":
        begin_hero_roll(st, seat, card, ev)
    elif verb == "replace":
        index = st.row.index(card)
        st.monster_deck.insert(0, card)
        st.row[index] = st.monster_deck.pop()
        say(
            ev,
            "replace",
            f"{st.catalog.monsters[card].name} goes under the Monster deck; "
            f"{st.catalog.monsters[st.row[index]].name} is turned up",
            monster=card,
        )
    elif verb == "attack":
        begin_attack(st, seat, card, ev)
    elif verb == "slay":
        slay(st, seat, card, ev)
    if st.ending:
        return
    if count > 1:
        # The frame's own verb: a DESTROY that stole one card (the Hollow King) is still a
        # DESTROY for the next.
        rest = tuple([c for c in aimed if c != card])
        again = (frame.args[0], what, source, count - 1, optional, rest)
        st.stack.insert(at, Decision(seat, "pick", again))
    if gained != NONE:
        for i in range(at - 1, -1, -1):
            below = st.stack[i]
            if below.kind == "effect":
                a = below.args
                st.stack[i] = Decision(below.seat, "effect", (*a[:4], gained, *a[5:]))
                break


def set_target(st: HereToSlayState, target: int) -> None:
    st.stack.pop()
    below = st.stack[-1]
    a = below.args
    if below.kind == "hero_roll":
        st.stack[-1] = Decision(below.seat, "hero_roll", (a[0], target, a[2]))
    else:
        st.stack[-1] = Decision(below.seat, "effect", (a[0], a[1], target, *a[3:]))
