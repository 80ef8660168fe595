"""The table of a game of Here to Slay: what each seat has, and cards moving between zones.

Everything the other modules share lives here: whose Hero is where and of which class, a
seat's skills (its Party Leader's and its slain Monsters'), Party requirements, drawing
and losing cards, and pushing a skill's effect as a frame on the decision stack.
"""

from __future__ import annotations

from tavernkeep.engine.actions import PASS, Action
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.events import Event
from tavernkeep.games.here_to_slay.cards import (
    CURSED,
    DRAWN_KINDS,
    HERO,
    ITEM,
    MAGIC,
    TARGETING,
    Card,
    SkillEntry,
    matches,
)
from tavernkeep.games.here_to_slay.content import CLASSES, Monster, Step
from tavernkeep.games.here_to_slay.state import NONE, HereToSlayState

Events = list[Event] | None
"""The events of an action being applied; None when the caller wants none (simulation)."""

ACTION_POINTS = 3
HAND = 5
"""Cards dealt, and drawn by DISCARD-and-DRAW."""
THREE_MONSTERS = 3
"""Slain Monsters that win at once."""

DRAW = Action("draw")
REDRAW = Action("redraw")
END = Action("end")
CHALLENGE_ACTION = Action("challenge")
ROLL = Action("roll")
SKIP = Action("skip")
USE = Action("use")

HERO_ROLL, ATTACK_ROLL, CHALLENGE_ROLL = "on_hero_roll", "on_attack_roll", "on_challenge_roll"
"""What a roll is for, named as the skill triggers whose bonus it takes."""

ENDINGS = {
    "three-monsters": "slew a third Monster",
    "full-party": "ended their turn with a Party of six classes",
    "turn-limit": "the turn limit was reached with no winner",
}
PAST = {"destroy": "destroyed", "sacrifice": "sacrificed"}

_ACTIONS: dict[tuple[str, int, int], Action] = {}


def action_of(kind: str, a: int, b: int = NONE) -> Action:
    """`Action(kind, a)` or `Action(kind, a, b)`, built once: legal actions are listed on
    every decision, and building the same small objects again was a visible cost."""
    key = (kind, a, b)
    found = _ACTIONS.get(key)
    if found is None:
        found = _ACTIONS[key] = Action(kind, a) if b == NONE else Action(kind, a, b)
    return found


def player(seat: int) -> str:
    return f"Player {number_of(seat)}"


# An action's text is what a person types, so its numbers are the ones the screen shows
# (issue 23): `target:2` chooses the player named "Player 2", `modify:card,4,2` changes
# the roll the terminal heads "Roll 2" (rolls are numbered over every roll on the table,
# so that a window opened while another waits does not number its roll 1 again),
# `leader:4` is the Party Leader listed and labelled #4 (its place in the pack) and
# `skill:1` a seat's first skill, its Party Leader's, before its slain Monsters' in the
# order slain, as its Party lists them. The state and the view count all of these from 0,
# as positions. Card and Monster ids (`play:`, `roll:`, `attack:`, `pick:`, `steal:`) are
# numbers no screen shows, and stay as they are.


def number_of(position: int) -> int:
    """The number people see for a position counted from 0 (a seat, a roll, ...)."""
    return position + 1


def position_of(number: int) -> int:
    """The position (from 0) of the thing people see numbered `number`."""
    return number - 1


def card_of(st: HereToSlayState, card: int) -> Card:
    return st.catalog.cards[card]


def name(st: HereToSlayState, card: int) -> str:
    return st.catalog.cards[card].name


def say(ev: Events, kind: str, text: str, **data: object) -> None:
    if ev is not None:
        ev.append(Event(kind, text, dict(data)))


def skills(st: HereToSlayState, seat: int) -> tuple[SkillEntry, ...]:
    """The Party Leader's skill, then each slain Monster's. Asked at every draw, roll and
    turn, so the common case (no Monster slain yet) is a tuple built once per pack."""
    cat = st.catalog
    leader = st.leaders[seat]
    own = cat.leader_skills[leader] if leader != NONE else ()
    slain = st.slain[seat]
    if not slain:
        return own
    return own + tuple([cat.monster_skills[m] for m in slain])


def has_named(st: HereToSlayState, seat: int, named: str) -> bool:
    return any(named in standing for _, _, standing in skills(st, seat))


def item_has(st: HereToSlayState, hero: int, named: str) -> bool:
    item = st.equipped.get(hero)
    return item is not None and named in st.catalog.cards[item].named


def hero_class(st: HereToSlayState, hero: int) -> str:
    """A mask makes its Hero count as the mask's class instead of its own (RULES 21)."""
    item = st.equipped.get(hero)
    if item is not None:
        mask = st.catalog.cards[item].counts_as
        if mask:
            return mask
    return st.catalog.cards[hero].hero_class


def leader_class(st: HereToSlayState, seat: int) -> str:
    leader = st.leaders[seat]
    return st.catalog.leaders[leader].hero_class if leader != NONE else ""


def owner_of(st: HereToSlayState, hero: int) -> int:
    for seat, party in enumerate(st.parties):
        if hero in party:
            return seat
    return NONE


def full_party(st: HereToSlayState, seat: int) -> bool:
    classes = {hero_class(st, h) for h in st.parties[seat]}
    classes.add(leader_class(st, seat))
    return all(c in classes for c in CLASSES)


def meets_requirement(st: HereToSlayState, seat: int, monster: Monster) -> bool:
    """Each Hero fills one symbol; the Leader fills its class but never a hero (RULES 21).

    Using the Leader for its class always saves a Hero, and any Hero fills an "any"
    symbol, so counting is enough: no assignment search is needed.
    """
    need = monster.requirement
    party = st.parties[seat]
    classes = need.classes
    if not classes:
        return len(party) >= need.heroes
    if len(party) < need.heroes + len(classes) - 1:
        return False  # even with the Leader filling a class
    leader = leader_class(st, seat)
    used = 0
    for cls in set(classes):
        count = classes.count(cls) - (cls == leader)
        if count > 0:
            if sum(1 for h in party if hero_class(st, h) == cls) < count:
                return False
            used += count
    return len(party) - used >= need.heroes


def can_roll(st: HereToSlayState, hero: int) -> bool:
    return hero not in st.rolled and not item_has(st, hero, "effect_cannot_be_used")


def can_draw(st: HereToSlayState) -> bool:
    return bool(st.deck) or (st.config.reshuffle and bool(st.discard))


def heroes_without_item(st: HereToSlayState, seats: range | list[int]) -> list[int]:
    return [h for s in seats for h in st.parties[s] if h not in st.equipped]


def play_actions(st: HereToSlayState, seat: int, card: int) -> list[Action]:
    """Ways to play `card` from `seat`'s hand: a Hero or Magic card as is, an Item onto a
    Hero of the seat's own, a Cursed Item onto any Hero (RULES 19)."""
    kind = st.catalog.cards[card].kind
    if kind in (HERO, MAGIC):
        return [action_of("play", card)]
    if kind == ITEM:
        return [action_of("play", card, h) for h in heroes_without_item(st, [seat])]
    if kind == CURSED:
        return [action_of("play", card, h) for h in heroes_without_item(st, range(st.players))]
    return []


def distinct(st: HereToSlayState, cards: list[int]) -> list[int]:
    """One card of each name: identical copies are the same choice, and offering each
    copy would only multiply a bot's branches."""
    seen: set[str] = set()
    out = []
    for card in cards:
        n = st.catalog.cards[card].name
        if n not in seen:
            seen.add(n)
            out.append(card)
    return out


def draw(st: HereToSlayState, seat: int, count: int, ev: Events) -> int:
    """DRAW `count` cards (fewer if both piles run dry, RULES 8); the last one drawn."""
    last = NONE
    cat = st.catalog
    for _ in range(count):
        if not st.deck:
            if not (st.config.reshuffle and st.discard):
                say(ev, "deck-empty", "The main deck is empty: no card is drawn")
                break
            st.deck, st.discard = st.discard, []
            st.rng.shuffle(st.deck)
            say(ev, "reshuffle", "The discard pile is shuffled into a new main deck")
        card = st.deck.pop()
        st.hands[seat].append(card)
        st.known.pop(card, None)
        last = card
        if ev is not None:
            ev.append(
                Event(
                    "draw",
                    f"{player(seat)} draws {cat.cards[card].name}",
                    {"seat": seat, "card": card, "name": cat.cards[card].name},
                    seats=frozenset({seat}),
                    public=Event("draw", f"{player(seat)} draws a card", {"seat": seat}),
                )
            )
        drawn(st, seat, card)
    return last


def drawn(st: HereToSlayState, seat: int, card: int) -> None:
    """Set off `seat`'s skills on a card it has just drawn. A skill that would ask its
    owner about the card (play it at once, reveal it) asks after every card drawn, with
    only "pass" to answer when the card is not of its kind: whether its owner is asked
    must not tell the table what was drawn (RULES 38). With ask_everyone=false only a
    card of its kind is asked about."""
    cat = st.catalog
    drawn_card = cat.cards[card]
    for k, (skill, eid, _) in enumerate(skills(st, seat)):
        wants = DRAWN_KINDS.get(skill.trigger, "")
        if not wants or eid == NONE:
            continue
        fits = matches(drawn_card, wants)
        first = cat.effects[eid][0]
        asks = skill.optional or first.named == "play_at_once"
        if not fits and not (asks and st.config.ask_everyone):
            continue
        if skill.once_per_turn:
            if st.current != seat or k in st.skills_used:
                continue
            if fits:
                st.skills_used.append(k)
        if fits:
            push_effect(st, seat, eid, last=card, optional=skill.optional, what=wants)
        elif skill.optional:
            st.stack.append(Decision(seat, "may", (eid, card, NONE, NONE, wants)))
        else:
            st.stack.append(Decision(seat, "play_now", (card, int(first.optional), wants)))


def may_fits(st: HereToSlayState, frame: Decision) -> bool:
    """Whether an optional skill's "may" can be used: one set off by a drawn card only on
    a card of its kind, still in its owner's hand."""
    _, card, _, _, what = frame.args
    if what == "card":
        return True
    return card in st.hands[frame.seat] and matches(st.catalog.cards[card], what)


def play_now_actions(st: HereToSlayState, frame: Decision) -> list[Action]:
    """The ways to play a card at once (args: card, optional, the kind it must be), and
    "skip" when optional; only "pass" when it cannot be played, so that the question is
    asked all the same (RULES 38)."""
    card, optional, what = frame.args
    seat = frame.seat
    if card not in st.hands[seat] or not matches(st.catalog.cards[card], what):
        return [PASS]
    actions = play_actions(st, seat, card)
    if not actions:
        return [PASS]
    return [*actions, SKIP] if optional else actions


def discard_from_hand(st: HereToSlayState, seat: int, card: int, ev: Events) -> None:
    st.hands[seat].remove(card)
    st.discard.append(card)
    say(ev, "discard", f"{player(seat)} discards {name(st, card)}", seat=seat, card=card)


def lose_hero(st: HereToSlayState, hero: int, how: str, ev: Events) -> bool:
    """A Hero SACRIFICED or DESTROYED goes to the discard pile with its Item; a decoy Item
    goes instead. False when the decoy took its place."""
    item = st.equipped.get(hero)
    if item is not None and "decoy" in st.catalog.cards[item].named:
        del st.equipped[hero]
        st.discard.append(item)
        say(ev, "decoy", f"{name(st, item)} is discarded in place of {name(st, hero)}", card=item)
        return False
    owner = owner_of(st, hero)
    st.tally[owner, "hero lost", name(st, hero)] += 1
    remove_hero(st, hero)
    st.discard.append(hero)
    if item is not None:
        st.discard.append(item)
    say(ev, how, f"{name(st, hero)} is {PAST[how]}", seat=owner, card=hero)
    return True


def remove_hero(st: HereToSlayState, hero: int) -> None:
    """Take a Hero out of its Party; its Item, if any, leaves the equipped zone too and
    must be put somewhere by the caller."""
    st.parties[owner_of(st, hero)].remove(hero)
    st.wards.pop(hero, None)
    st.equipped.pop(hero, None)


def unequip(st: HereToSlayState, item: int) -> int:
    """Take an Item off its Hero; the Hero it was on."""
    for hero, equipped in st.equipped.items():
        if equipped == item:
            del st.equipped[hero]
            return hero
    raise AssertionError(f"item {item} is not equipped")


def party_cards(st: HereToSlayState, seat: int, what: str, takeable: bool) -> list[int]:
    """Cards of kind `what` in a Party; `takeable` leaves out warded Heroes."""
    cards = st.catalog.cards
    if what == HERO:
        heroes = st.parties[seat]
        return [h for h in heroes if h not in st.wards] if takeable else heroes[:]
    return [
        st.equipped[h]
        for h in st.parties[seat]
        if h in st.equipped and matches(cards[st.equipped[h]], what)
    ]


def fire(
    st: HereToSlayState,
    seat: int,
    trigger: str,
    last: int = NONE,
    challenger: int = NONE,
    source: int = NONE,
) -> None:
    """Push the effect of each of `seat`'s skills that `trigger` sets off; an optional
    skill asks its owner first. A once-per-turn skill fires only on its owner's turn,
    once."""
    for k, (skill, eid, _) in enumerate(skills(st, seat)):
        if skill.trigger == trigger and eid != NONE:
            if skill.once_per_turn:
                if st.current != seat or k in st.skills_used:
                    continue
                st.skills_used.append(k)
            push_effect(st, seat, eid, last, challenger, source, skill.optional)


def push_effect(
    st: HereToSlayState,
    seat: int,
    eid: int,
    last: int = NONE,
    challenger: int = NONE,
    source: int = NONE,
    optional: bool = False,
    target: int = NONE,
    aimed: tuple[int, ...] = (),
    what: str = "card",
) -> None:
    """An effect frame: args (effect, next step, chosen player, challenger, card the last
    step gave, source card, cards named before the roll). An optional skill asks first:
    a "may" frame, args (effect, card the trigger gave, challenger, source card, the kind
    that card must be to use it)."""
    frame = Decision(seat, "effect", (eid, 0, target, challenger, last, source, aimed))
    if optional:
        frame = Decision(seat, "may", (eid, last, challenger, source, what))
    st.stack.append(frame)


def seats_of(st: HereToSlayState, spec: str, owner: int, target: int, challenger: int) -> list[int]:
    n = st.players
    if spec == "self":
        return [owner]
    if spec == "chosen_player" or spec == "chosen_opponent":
        return [target] if target != NONE else []
    if spec == "each_opponent":
        return [(owner + k) % n for k in range(1, n)]
    if spec == "each_player":
        return [(owner + k) % n for k in range(n)]
    return [challenger] if challenger != NONE else []


def names_chosen(step: Step) -> bool:
    """Whether a step is done to, or by, the effect's chosen player."""
    return step.who in TARGETING or step.from_ in TARGETING or step.named == "look_and_take"


def reaches(st: HereToSlayState, owner: int, eid: int, seat: int) -> bool:
    """Whether `owner`'s effect can do anything to `seat` as its chosen player. Judged
    from what everyone sees: a hand counts by its size, never by what is in it, or the
    list of players to choose from would tell who holds what (RULES 39)."""
    for step in st.catalog.effects[eid]:
        if not names_chosen(step):
            continue
        verb = step.verb
        if verb == "discard" or verb == "pull" or step.named == "look_and_take":
            if st.hands[seat]:
                return True
        elif verb == "sacrifice":
            if party_cards(st, seat, step.kind, takeable=False):
                return True
        elif verb == "destroy" or verb == "steal" or verb == "return":
            probe = Decision(owner, "pick", (verb, step.kind, seat, 1, 0, ()))
            if pick_actions(st, probe):
                return True
        else:
            return True  # a DRAW, or a step no Party or hand limits
    return False


def choosable(st: HereToSlayState, seat: int, scope: str, eid: int) -> list[int]:
    """The players `seat` may choose for its effect: those it can reach (RULES 39)."""
    n = st.players
    start = 0 if scope == "chosen_player" else 1
    out = []
    for k in range(start, n):
        other = (seat + k) % n
        if reaches(st, seat, eid, other):
            out.append(other)
    return out


def worth_using(st: HereToSlayState, seat: int, eid: int) -> bool:
    """Whether an action skill can do anything: one whose every step is done to a chosen
    player needs a player it can reach, or its action point buys nothing (RULES 39)."""
    cat = st.catalog
    if eid == NONE or not cat.targets[eid]:
        return True
    if not all(names_chosen(step) for step in cat.effects[eid]):
        return True
    return bool(choosable(st, seat, cat.targets[eid], eid))


def aim_slots(st: HereToSlayState, owner: int, eid: int, target: int) -> list[tuple[int, int]]:
    """Each card a Hero's roller names before the roll, as (step, seat it is taken from):
    `count` cards from each player a DESTROY, STEAL or RETURN takes from (RULES 16)."""
    steps = st.catalog.effects[eid]
    out: list[tuple[int, int]] = []
    for index in st.catalog.aims[eid]:
        step = steps[index]
        assert step.from_ is not None
        for seat in seats_of(st, step.from_, owner, target, NONE):
            for _ in range(step.count):
                out.append((index, seat))
    return out


def aimed_at(
    st: HereToSlayState,
    owner: int,
    eid: int,
    target: int,
    aims: tuple[int, ...],
    index: int,
    seat: int,
) -> tuple[int, ...]:
    """The cards named before the roll for step `index` from `seat`'s Party."""
    slots = aim_slots(st, owner, eid, target)
    out: list[int] = []
    for k in range(min(len(slots), len(aims))):
        step, source = slots[k]
        if step == index and source == seat and aims[k] != NONE:
            out.append(aims[k])
    return tuple(out)


def game_over(st: HereToSlayState, winner: int, ending: str, ev: Events) -> None:
    st.winner = winner
    st.ending = ending
    st.stack.clear()
    who = player(winner) if winner != NONE else "Nobody"
    say(ev, "game-over", f"{who} wins: {ENDINGS[ending]}", winner=winner, ending=ending)


def pick_actions(st: HereToSlayState, frame: Decision) -> list[Action]:
    """args: (verb, what, source, count, optional, aimed). `source` is the Party or hand
    taken from, or for an encore the Hero whose effect it is (it cannot encore itself);
    `aimed` the cards named before the roll (RULES 16): the first of them still there is
    the only choice."""
    seat = frame.seat
    verb, what, source, _, optional, aimed = frame.args
    cards = st.catalog.cards
    out: list[Action] = []
    if verb == "discard":
        hand = [c for c in st.hands[seat] if matches(cards[c], what)]
        out = [action_of("pick", c) for c in distinct(st, hand)]
    elif verb == "sacrifice":
        out = [action_of("pick", c) for c in party_cards(st, seat, what, takeable=False)]
    elif verb == "destroy":
        if what == HERO and has_named(st, source, "heroes_cannot_be_destroyed"):
            return [SKIP] if optional else []
        found = party_cards(st, source, what, takeable=True)
        out = [action_of("pick", c) for c in found]
        if what == HERO and has_named(st, seat, "steal_instead_of_destroy"):
            out += [Action("steal", c) for c in found]
    elif verb == "steal":
        found = party_cards(st, source, what, takeable=True)
        if what == HERO:
            out = [action_of("pick", c) for c in found]
        else:
            mine = heroes_without_item(st, [seat])
            out = [action_of("pick", c, h) for c in found for h in mine]
    elif verb == "return":
        out = [action_of("pick", c) for c in party_cards(st, source, what, takeable=True)]
    elif verb == "search":
        found = [c for c in st.discard if matches(cards[c], what)]
        out = [action_of("pick", c) for c in distinct(st, found)]
    elif verb == "take":
        out = [action_of("pick", c) for c in distinct(st, st.hands[source])]
    elif verb == "ward":
        out = [action_of("pick", h) for h in st.parties[seat]]
    elif verb == "encore":
        out = [
            action_of("pick", h)
            for h in st.parties[seat]
            if h != source and not item_has(st, h, "effect_cannot_be_used")
        ]
    elif verb == "replace" or verb == "slay":
        out = [action_of("pick", m) for m in st.row]
    elif verb == "attack":
        monsters = st.catalog.monsters
        out = [action_of("pick", m) for m in st.row if meets_requirement(st, seat, monsters[m])]
    for named in aimed:
        on_it = [a for a in out if a.args[0] == named]
        if on_it:
            out = on_it
            break
    if out and optional:
        out.append(SKIP)
    return out


def aim_actions(st: HereToSlayState, frame: Decision) -> list[Action]:
    """The cards an "aim" frame (args: verb, what, source, cards already named) offers:
    those its step could take, each once, and not one named already (whether to steal
    instead, or which Hero gets a stolen Item, is chosen when the step is done)."""
    verb, what, source, named = frame.args
    seen: set[int] = set(named)
    out = []
    for action in pick_actions(st, Decision(frame.seat, "pick", (verb, what, source, 1, 0, ()))):
        card = int(action.args[0])
        if card not in seen:
            seen.add(card)
            out.append(action_of("pick", card))
    return out
