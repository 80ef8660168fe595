"""A hero's rolls and the window after them: Mighty Boost and re-rolls (RULES 18, 25).

Every roll a hero makes on its turn (Attack, Loot, Rescue, the Key, Cast Spell, a card's
free Loot) is a tuple of `Die` that goes through `after_roll`: with unused actions that
could lift a failed die, or an unused card that may re-roll it (45), the hero gets a
`boost` frame; otherwise, or once the hero keeps the roll, `resolve_roll` makes it count.
"""

from __future__ import annotations

from tavernkeep.engine.actions import Action
from tavernkeep.engine.decisions import Decision
from tavernkeep.games.side_quest.cards import card_name, who
from tavernkeep.games.side_quest.combat import allocate_hits
from tavernkeep.games.side_quest.dungeon import Events, say, travel
from tavernkeep.games.side_quest.heroes import ABILITY, gain
from tavernkeep.games.side_quest.state import SideQuestState

Die = tuple[int, int, int, int]
"""A die of a hero's roll: its value (bonuses and Mighty Boost included), the number it
needs, the damage it deals on a success (attack dice only), and the bonus its cards add
(kept for a re-roll)."""
KEEP = Action("keep")
"""Lets the roll stand: no Mighty Boost, no re-roll."""


def boostable(st: SideQuestState, dice: tuple[Die, ...]) -> list[int]:
    """Dice that the hero's unused actions can still lift to a success (RULES 18)."""
    return [i for i, (v, need, _, _) in enumerate(dice) if v < need and need - v <= st.actions]


def rerollers(st: SideQuestState, seat: int, what: str, dice: tuple[Die, ...]) -> list[int]:
    """Unused cards (the ability: ABILITY) that may re-roll this roll, when a die failed."""
    if all(d[0] >= d[1] for d in dice):
        return []
    out = []
    for source in (ABILITY, *st.items[seat]):
        if source != ABILITY and st.card_kind[source] != "item":
            continue
        if source in st.used:
            continue
        if source == ABILITY:
            card = st.content.hero[st.hero[seat]]
            if card.use == "passive":
                continue
            effects = card.effects
        else:
            effects = st.content.item[st.card_ref[source]].effects
        if any(e.name == "reroll" and e.roll in ("any", what) for e in effects):
            out.append(source)
    return out


def after_roll(
    st: SideQuestState, seat: int, what: str, target: int, dice: tuple[Die, ...], ev: Events
) -> None:
    """RULES 18: with actions to spare that could change the outcome, the hero may give
    them up for Mighty Boost before the roll counts."""
    if boostable(st, dice) or rerollers(st, seat, what, dice):
        st.stack.append(Decision(seat, "boost", (what, target, dice)))
    else:
        resolve_roll(st, seat, what, target, dice, ev)


def resolve_roll(
    st: SideQuestState, seat: int, what: str, target: int, dice: tuple[Die, ...], ev: Events
) -> None:
    success = [d for d in dice if d[0] >= d[1]]
    pos = st.position[seat]
    if what == "attack":
        hits = tuple(d[2] for d in success)
        say(ev, "hits", f"{len(hits)} hits", seat=seat, hits=list(hits))
        allocate_hits(st, seat, target, hits, (), ev)
    elif what == "loot":
        if success and st.loot_deck:
            card = st.loot_deck.pop()
            st.tally[seat, "loot found", card_name(st, card)] += 1
            say(
                ev,
                "loot",
                f"{who(st, seat)} finds {card_name(st, card)}",
                seat=seat,
                card=card,
                success=True,
            )
            gain(st, seat, card)
        else:
            say(ev, "loot", f"{who(st, seat)} finds nothing", seat=seat, success=False)
    elif what == "spell":
        if success:
            # The spell's effects run next, as a frame the turn resolves by itself
            # (turn.py): effects.py starts rolls, so this module leaves effects to it.
            st.stack.append(Decision(seat, "cast", (target,)))
        else:
            say(ev, "cast", f"The spell fails ({dice[0][0]})", seat=seat)
    elif what == "key":
        if success:
            st.items[seat].remove(target)
            st.removed.append(target)
            say(ev, "door", f"{who(st, seat)} opens the Locked Door", seat=seat)
            travel(st, ev)
        else:
            say(ev, "door", "The Locked Door holds", seat=seat)
    elif what == "rescue":
        if success:
            st.here[pos].remove(target)
            del st.depth[target]
            st.removed.append(target)
            say(ev, "rescue", f"{who(st, seat)} rescues a Damsel", seat=seat)
            if st.loot_deck:
                gain(st, seat, st.loot_deck.pop())
        else:
            say(ev, "rescue", f"{who(st, seat)} fails to rescue the Damsel", seat=seat)
