"""How a turn of Here to Slay moves: action points, playing a card through its Challenge
window, ending the turn, and `advance`, the loop that works off frames nobody decides.

A frame is an immutable `Decision(seat, kind, args)`. Decision frames wait for their
seat; the others ("auto" frames: a card being played, a roll waiting for its window to
close, an effect half done) are worked off by `advance` as soon as they reach the top.
A frame that pushes more work above itself is resumed when that work is done, so "roll,
open the Modifier window, then resolve" is three frames, not a suspended generator.
"""

from __future__ import annotations

from tavernkeep.engine.actions import PASS, Action
from tavernkeep.engine.decisions import Decision
from tavernkeep.games.here_to_slay.cards import (
    CHALLENGE,
    CURSED,
    HERO,
    ITEM,
    MAGIC,
)
from tavernkeep.games.here_to_slay.effects import pick, run_effect
from tavernkeep.games.here_to_slay.rolls import (
    attack_result,
    begin_attack,
    begin_hero_roll,
    hero_result,
    hero_roll,
    open_window,
    roll,
)
from tavernkeep.games.here_to_slay.state import NONE, HereToSlayState
from tavernkeep.games.here_to_slay.table import (
    ACTION_POINTS,
    CHALLENGE_ROLL,
    DRAW,
    END,
    HAND,
    REDRAW,
    Events,
    action_of,
    can_draw,
    can_roll,
    card_of,
    distinct,
    draw,
    fire,
    full_party,
    game_over,
    has_named,
    meets_requirement,
    name,
    number_of,
    owner_of,
    pick_actions,
    play_actions,
    play_now_actions,
    player,
    position_of,
    push_effect,
    say,
    skills,
    worth_using,
)

AUTO = frozenset(
    {
        "begin",
        "play",
        "cast",
        "challenged",
        "hero_roll",
        "hero_result",
        "attack_result",
        "effect",
        "end_turn",
    }
)
"""Frames no one decides: worked off by `advance` when they reach the top."""


def start_turn(st: HereToSlayState, ev: Events) -> None:
    st.turn += 1
    seat = st.current
    st.rolled.clear()
    st.skills_used.clear()
    for s in range(st.players):
        st.boost[s] = 0
        st.attack_boost[s] = 0
    for hero in [h for h, warder in st.wards.items() if warder == seat]:
        del st.wards[hero]
    st.ap = ACTION_POINTS
    for skill, _, _ in skills(st, seat):
        if skill.trigger == "turn_start" and skill.bonus:
            st.ap += max(skill.bonus)
    st.stack.append(Decision(seat, "turn"))
    say(ev, "turn", f"{player(seat)}'s turn ({st.ap} action points)", seat=seat, turn=st.turn)
    fire(st, seat, "turn_start")


def finish_turn(st: HereToSlayState, ev: Events) -> None:
    """End the current turn: the hand limit's discards first, if any (RULES 9)."""
    seat = st.current
    limit = st.config.hand_limit
    st.stack[-1] = Decision(seat, "end_turn")
    if limit and len(st.hands[seat]) > limit:
        excess = len(st.hands[seat]) - limit
        st.stack.append(Decision(seat, "pick", ("discard", "card", NONE, excess, 0, ())))


def end_turn(st: HereToSlayState, ev: Events) -> None:
    st.stack.pop()
    seat = st.current
    if full_party(st, seat):
        game_over(st, seat, "full-party", ev)
        return
    for s in range(st.players):
        st.boost[s] = 0
        st.attack_boost[s] = 0
    limit = st.config.turn_limit
    if limit and st.turn >= limit:
        game_over(st, NONE, "turn-limit", ev)
        return
    st.current = (seat + 1) % st.players
    start_turn(st, ev)


def turn_actions(st: HereToSlayState) -> list[Action]:
    # Written out rather than built from play_actions and distinct: this list is made at
    # every decision of a turn, the most common decision of a game.
    seat = st.current
    ap = st.ap
    out: list[Action] = []
    cat = st.catalog
    party = st.parties[seat]
    if ap >= 1:
        if st.deck or (st.config.reshuffle and st.discard):
            out.append(DRAW)
        cards = cat.cards
        equipped = st.equipped
        seen: set[str] = set()
        for card in st.hands[seat]:
            c = cards[card]
            if c.name in seen:
                continue
            seen.add(c.name)
            kind = c.kind
            if kind in (HERO, MAGIC):
                out.append(action_of("play", card))
            elif kind == ITEM:
                out.extend(action_of("play", card, h) for h in party if h not in equipped)
            elif kind == CURSED:
                out.extend(play_actions(st, seat, card))
        rolled = st.rolled
        for hero in party:
            if hero not in rolled and (
                hero not in equipped or "effect_cannot_be_used" not in cards[equipped[hero]].named
            ):
                out.append(action_of("roll", hero))
    if ap >= 2 and party:
        for m in st.row:
            if meets_requirement(st, seat, cat.monsters[m]):
                out.append(action_of("attack", m))
    if ap >= 3:
        out.append(REDRAW)
    leader = st.leaders[seat]
    if (leader != NONE and cat.leader_acts[leader]) or any(
        cat.monster_acts[m] for m in st.slain[seat]
    ):
        for k, (skill, eid, _) in enumerate(skills(st, seat)):
            if (
                skill.trigger == "action"
                and ap >= skill.action_cost
                and not (skill.once_per_turn and k in st.skills_used)
                and worth_using(st, seat, eid)
            ):
                out.append(action_of("skill", number_of(k)))
    out.append(END)
    return out


def is_turn_action(st: HereToSlayState, action: Action) -> bool:
    """Whether `action` is in `turn_actions(st)`, without building that list: apply checks
    every action, and the turn's list is the longest one a game builds."""
    kind, args = action.kind, action.args
    ap = st.ap
    seat = st.current
    if any(type(a) is not int for a in args):
        return False
    if kind == "end" or kind == "draw" or kind == "redraw":
        if args:
            return False
        return (
            kind == "end"
            or (kind == "draw" and ap >= 1 and can_draw(st))
            or (kind == "redraw" and ap >= 3)
        )
    if kind == "play":
        if ap < 1 or not args or args[0] not in st.hands[seat]:
            return False
        card = int(args[0])
        # Only the first copy of a name is offered (see `distinct`).
        return card in distinct(st, st.hands[seat]) and action in play_actions(st, seat, card)
    if len(args) != 1:
        return False
    chosen = int(args[0])
    if kind == "roll":
        return ap >= 1 and chosen in st.parties[seat] and can_roll(st, chosen)
    if kind == "attack":
        return (
            ap >= 2
            and chosen in st.row
            and meets_requirement(st, seat, st.catalog.monsters[chosen])
        )
    if kind == "skill":
        return action in turn_actions(st)
    return False


def take_turn_action(st: HereToSlayState, action: Action, ev: Events) -> None:
    seat = st.current
    kind = action.kind
    if kind == "end":
        say(ev, "end", f"{player(seat)} ends their turn", seat=seat)
        finish_turn(st, ev)
    elif kind == "draw":
        st.ap -= 1
        draw(st, seat, 1, ev)
    elif kind == "play":
        st.ap -= 1
        hero = int(action.args[1]) if len(action.args) > 1 else NONE
        begin_play(st, seat, int(action.args[0]), hero, ev)
    elif kind == "roll":
        st.ap -= 1
        begin_hero_roll(st, seat, int(action.args[0]), ev)
    elif kind == "attack":
        st.ap -= 2
        begin_attack(st, seat, int(action.args[0]), ev)
    elif kind == "redraw":
        st.ap -= 3
        say(ev, "redraw", f"{player(seat)} discards their hand and draws five", seat=seat)
        st.discard.extend(st.hands[seat])
        st.hands[seat].clear()
        draw(st, seat, HAND, ev)
    elif kind == "skill":
        k = position_of(int(action.args[0]))
        skill, eid, _ = skills(st, seat)[k]
        st.ap -= skill.action_cost
        st.skills_used.append(k)
        say(ev, "skill", f"{player(seat)} uses {skill.text}", seat=seat)
        push_effect(st, seat, eid)


def begin_play(st: HereToSlayState, seat: int, card: int, hero: int, ev: Events) -> None:
    """Out of the hand, into play; the Challenge window opens over it (RULES 11)."""
    st.hands[seat].remove(card)
    st.playing.append(card)
    st.stack.append(Decision(seat, "play", (card, hero)))
    c = card_of(st, card)
    st.tally[seat, "card played", c.name] += 1
    onto = f" onto {name(st, hero)}" if hero != NONE else ""
    say(ev, "play", f"{player(seat)} plays {c.name}{onto}", seat=seat, card=card, hero=hero)
    if c.kind in (ITEM, CURSED) and has_named(st, seat, "items_cannot_be_challenged"):
        return
    # A Challenge is played "on that player's turn" (rulebook): a card played at once on
    # someone else's turn meets none, unless the table plays otherwise (RULES 12).
    if st.players > 1 and (seat == st.current or st.config.challenge_off_turn):
        st.stack.append(Decision((seat + 1) % st.players, "challenge", (seat, card, 1)))


def challenge(st: HereToSlayState, seat: int, ev: Events) -> None:
    player_seat, card, _ = st.stack.pop().args
    cards = st.catalog.cards
    used = next(c for c in st.hands[seat] if cards[c].kind == CHALLENGE)
    st.hands[seat].remove(used)
    st.discard.append(used)
    st.tally[seat, "card played", cards[used].name] += 1
    st.tally[player_seat, "card challenged", cards[card].name] += 1
    say(
        ev,
        "challenge",
        f"{player(seat)} CHALLENGES {player(player_seat)}'s {name(st, card)}",
        seat=seat,
        card=card,
        used=used,
    )
    st.stack.append(Decision(player_seat, "challenged", (card, seat)))
    roll(st, seat, CHALLENGE_ROLL, NONE, "to challenge", ev)
    roll(st, player_seat, CHALLENGE_ROLL, NONE, "against the challenge", ev)
    open_window(st, seat, 2)
    fire(st, player_seat, "on_challenged", challenger=seat)


def resolve_challenge(st: HereToSlayState, ev: Events) -> None:
    card, _ = st.stack.pop().args
    defended = st.rolls.pop()
    attacked = st.rolls.pop()
    theirs, mine = st.total(attacked), st.total(defended)
    # Ties go to the challenger (RULES 13).
    if theirs >= mine:
        play = st.stack.pop()
        assert play.kind == "play" and play.args[0] == card
        st.playing.remove(card)
        st.discard.append(card)
        say(
            ev,
            "challenge-won",
            f"The challenge succeeds ({theirs} vs {mine}): {name(st, card)} is discarded",
            card=card,
            challenger=theirs,
            player=mine,
        )
    else:
        say(
            ev,
            "challenge-lost",
            f"The challenge fails ({theirs} vs {mine})",
            card=card,
            challenger=theirs,
            player=mine,
        )


def resolve_play(st: HereToSlayState, ev: Events) -> None:
    frame = st.stack.pop()
    seat = frame.seat
    card, hero = frame.args
    c = card_of(st, card)
    if c.kind == MAGIC:
        # A Magic card stays in play while its effect runs, then goes to the discard pile.
        st.stack.append(Decision(seat, "cast", (card,)))
        push_effect(st, seat, c.effect, source=card)
        return
    st.playing.remove(card)
    if c.kind == HERO:
        st.parties[seat].append(card)
        say(ev, "enter", f"{c.name} joins {player(seat)}'s Party", seat=seat, card=card)
        if can_roll(st, card):
            st.stack.append(Decision(seat, "free_roll", (card,)))
        return
    if owner_of(st, hero) != NONE and hero not in st.equipped:
        st.equipped[hero] = card
        say(ev, "equip", f"{c.name} is equipped to {name(st, hero)}", card=card, hero=hero)
    else:
        st.discard.append(card)
        say(ev, "fizzle", f"{c.name} has no Hero to go on and is discarded", card=card)


def resolve_cast(st: HereToSlayState, ev: Events) -> None:
    frame = st.stack.pop()
    card = frame.args[0]
    st.playing.remove(card)
    st.discard.append(card)
    fire(st, frame.seat, "on_play_magic")


def advance(st: HereToSlayState, ev: Events) -> None:
    """Work off frames until a seat must decide (or the game is over)."""
    stack = st.stack
    n = len(st.hands)
    while stack:
        if st.ending:
            stack.clear()
            return
        top = stack[-1]
        kind = top.kind
        if kind == "turn":
            # The most common top of all, so it is tested first.
            if st.ap > 0:
                return
            finish_turn(st, ev)
        elif kind in AUTO:
            AUTO_STEPS[kind](st, ev)
        elif kind == "modifier":
            # Every seat is asked, even with nothing to play, unless the table agreed to
            # skip those (ask_everyone=false): skipping tells who holds none (RULES 29).
            rolls, passes = top.args
            seat = top.seat
            modifiers = st.catalog.modifiers
            skip = not st.config.ask_everyone
            while passes < n and skip and modifiers.isdisjoint(st.hands[seat]):
                st.unasked += 1
                seat = (seat + 1) % n
                passes += 1
            if passes >= n:
                stack.pop()
            else:
                if seat != top.seat:
                    stack[-1] = Decision(seat, "modifier", (rolls, passes))
                return
        elif kind == "challenge":
            player_seat, card, offset = top.args
            challenges = st.catalog.challenges
            skip = not st.config.ask_everyone
            while (
                offset < n and skip and challenges.isdisjoint(st.hands[(player_seat + offset) % n])
            ):
                st.unasked += 1
                offset += 1
            if offset >= n:
                stack.pop()
            else:
                if offset != top.args[2]:
                    seat = (player_seat + offset) % n
                    stack[-1] = Decision(seat, "challenge", (player_seat, card, offset))
                return
        elif kind == "pick":
            options = pick_actions(st, top)
            if not options:
                if top.args[0] == "discard":
                    st.unasked += 1  # it holds nothing of the kind
                stack.pop()  # nothing to act on: the step does nothing (RULES 24)
            elif len(options) == 1 and options[0].args and options[0].args[0] in top.args[5]:
                pick(st, options[0], ev)  # a card named before the roll (RULES 16)
            else:
                return
        elif kind == "free_roll":
            hero = top.args[0]
            if hero not in st.parties[top.seat] or not can_roll(st, hero):
                stack.pop()
            else:
                return
        elif kind == "play_now":
            # Asked even with nothing to play, unless the table skips such questions: who
            # is asked is public, what could be played is not (RULES 38).
            if not st.config.ask_everyone and play_now_actions(st, top) == [PASS]:
                st.unasked += 1
                stack.pop()
            else:
                return
        else:
            return


def begin(st: HereToSlayState, ev: Events) -> None:
    st.stack.pop()
    start_turn(st, ev)


AUTO_STEPS = {
    "begin": begin,
    "play": resolve_play,
    "cast": resolve_cast,
    "challenged": resolve_challenge,
    "hero_roll": hero_roll,
    "hero_result": hero_result,
    "attack_result": attack_result,
    "effect": run_effect,
    "end_turn": end_turn,
}
