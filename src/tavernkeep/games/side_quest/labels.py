"""What a choice's label says beyond its name: what the choice will do, as far as every
seat can already tell (the dice aside: their chances are `chances.py`'s).

A label names its choice first ("Give the hit to Ogre Bruiser") and puts what follows
from it last, in brackets ("(2/3 damage)"), so that the browser can show the bracket
beside the thing the choice is about (renderer.js, `detail`). Nothing here reads a deck
or the dice to come.
"""

from __future__ import annotations

from tavernkeep.games.side_quest.cards import ability, card_name, health_of, weapon_of
from tavernkeep.games.side_quest.chances import grabbers
from tavernkeep.games.side_quest.combat import hearts_standing
from tavernkeep.games.side_quest.content import HERO_HEALTH, Effect
from tavernkeep.games.side_quest.heroes import bonus
from tavernkeep.games.side_quest.state import NONE, SideQuestState


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def weapon_numbers(st: SideQuestState, card: int) -> str:
    """'one hand, range 0, 1 die hitting on 3+, 1 damage a hit': a weapon's numbers in
    words, for a choice's label (the screens' cards print them short, with a key)."""
    w = weapon_of(st, card)
    hands = "one hand" if w.hands == 1 else f"{w.hands} hands"
    dice = "1 die" if w.dice == 1 else f"{w.dice} dice"
    return f"{hands}, range {w.range}, {dice} hitting on {w.hit}+, {w.damage} damage a hit"


def need_text(need: int, plus: int) -> str:
    """What one die must show: '5+ on a die', or with the hero's bonus '4+ on a die
    with your +1'."""
    if not plus:
        return f"{need}+ on a die"
    after = need - plus
    shown = "any die" if after <= 1 else f"{after}+ on a die"
    return f"{shown} with your {plus:+d}"


def move_detail(st: SideQuestState, seat: int) -> str:
    """' (Grab Attacks by Cellar Rat and Bog Lurker)' when leaving makes any."""
    names = [card_name(st, c) for c in grabbers(st, seat)]
    if not names:
        return ""
    return f" (Grab Attack{'s' if len(names) > 1 else ''} by {_and(names)})"


def attack_weapons(st: SideQuestState, seat: int, loc: int) -> str:
    """' with Iron-shod Staff': the held weapons that reach `loc` and roll."""
    pos = st.position[seat]
    farther = bonus(st, seat, "range_plus")
    names = [
        card_name(st, w)
        for w in st.equipped[seat]
        if abs(loc - pos) <= weapon_of(st, w).range + farther
    ]
    return f" with {_and(names)}" if names else ""


def hit_detail(
    st: SideQuestState, target: int, hit: int, given: tuple[tuple[int, int], ...]
) -> str:
    """'(2/3 damage)' given to the target in this attack once this hit is, and what that
    does: slain, destroyed, or (the Boss while a Heart stands) stunned."""
    total = hit + sum(damage for card, damage in given if card == target)
    health = health_of(st, target)
    kind = st.card_kind[target]
    said = f"{total}/{health} damage"
    if total >= health:
        if kind == "boss" and hearts_standing(st) > 0:
            said += ": stunned"
        elif kind in ("rune", "portal", "heart"):
            said += ": destroyed"
        else:
            said += ": slain"
    return f" ({said})"


def wound_detail(st: SideQuestState, seat: int, damage: int, monster: int, absorbed: int) -> str:
    """'(4 → 2 health)': the hero's health after the hit, armor taken off, and whether it
    falls or is stunned."""
    ignored = max(0, min(damage, bonus(st, seat, "armor") - absorbed))
    left = max(0, st.health[seat] - (damage - ignored))
    said = f"{st.health[seat]} → {left} health"
    if ignored:
        said += f", armor ignores {ignored}"
    if left == 0:
        said += ": falls, and the heroes lose"
    elif damage > ignored and ability(st, monster) == "stun_on_hit" and st.hero_stun[seat] == NONE:
        said += ", stunned"
    return f" ({said})"


def target_detail(st: SideQuestState, seat: int, effect: Effect, chosen: int, what: str) -> str:
    """What a card's effect used by `seat` does to the target `chosen` (a card id, a
    seat or a Location index, as `what` says), where it is not plain: damage slays or
    does nothing (a shielded Monster takes none from afar), a heal stops at full health,
    a stun or a push misses the unstoppable."""
    name, amount = effect.name, effect.amount
    if what == "monster":
        if name == "damage":
            health = health_of(st, chosen)
            return " (slain)" if amount >= health else f" ({health} health: unharmed)"
        if name in ("stun", "push") and ability(st, chosen) == "unstoppable":
            return " (unstoppable: no effect)"
        return ""
    if what == "hero":
        if name == "heal":
            health = st.health[chosen]
            return f" ({health} → {min(HERO_HEALTH, health + amount)} health)"
        return ""
    if name == "damage" and effect.target == "every_monster_in_range":
        afar = chosen != st.position[seat]
        monsters = [c for c in st.here[chosen] if st.card_kind[c] == "monster"]
        slain = sum(
            1
            for c in monsters
            if amount >= health_of(st, c) and not (afar and ability(st, c) == "shielded")
        )
        return f" (slays {slain} of {len(monsters)} Monster{'s' if len(monsters) > 1 else ''})"
    return ""


def roll_outcome(what: str, dice: tuple[tuple[int, int, int, int], ...]) -> str:
    """What a roll comes to if it stands: ': 2 hits (3 damage)' for an attack, else
    ': it fails' or ': it succeeds'."""
    success = [d for d in dice if d[0] >= d[1]]
    if what != "attack":
        return ": it succeeds" if len(success) == len(dice) else ": it fails"
    if not success:
        return ": no hit"
    hits = f"{len(success)} hit{'s' if len(success) > 1 else ''}"
    return f": {hits} ({sum(d[2] for d in success)} damage)"
