"""Exact chances behind a hero's decisions: what `SideQuest.odds` shows beside a choice.

Every figure comes from what every seat sees (the cards on the row, the heroes' health
and equipment, the actions left), never from the decks or the dice to come, and is
counted exactly over the faces of the dice (as fractions, then a float for the screens),
with every bonus the rules will add:

- **A roll of one die** (Loot, Rescue, the Dungeon Key, Cast Spell, a card's free Loot):
  `success`, the die with the hero's bonuses (Corvin's +1 to rescue, the Dowsing Rod's
  to Loot, Ozric's and the Chalk-bone Wand's to spells); then, where the hero keeps
  something to lift a failed roll, the chance when it uses it: `with boost` (each unused
  action given up for +1, RULES 18), `with re-roll` (a card or ability that re-rolls,
  25), or `with boost and re-roll`.
- **An attack** (or the re-roll of one): `N+ damage`, the chance of dealing N or more,
  for each N that would slay some of the targets there, alone or together: a target
  falls only to the damage given it in one attack (no partial damage), so `2+ damage`
  beside a Monster of 2 health is the chance to slay it, and a total the dice cannot
  reach shows once, at 0%. Then the same with the hero's help, `N+ with boost` (and so
  on), each counting the best use of the help for that N.
- **A move away from active Monsters**: their Grab Attacks (-1 on each die unless
  grasping, the Runes' and rallying bonuses, armor once per attack): `unhurt`,
  `N damage`, `fall` (the hero's last health: the game is lost) and, from a Monster that
  stuns on a hit, `stunned`.

The same few questions come back at every decision (one weapon, one Monster), so the
counting is cached by the dice alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement, product
from math import comb, factorial, prod

from tavernkeep.engine.actions import Action
from tavernkeep.games.side_quest.cards import (
    FIGHTERS,
    ability,
    fighter_of,
    health_of,
    index_of,
    weapon_of,
)
from tavernkeep.games.side_quest.combat import hit_targets
from tavernkeep.games.side_quest.effects import card_effects
from tavernkeep.games.side_quest.heroes import ABILITY, LOOT_ROLL, bonus
from tavernkeep.games.side_quest.rolls import rerollers
from tavernkeep.games.side_quest.state import NONE, SideQuestState

SIDES = 6
Dice = tuple[tuple[int, int], ...]
"""A hero's roll as the d6s see it: each die's need less its bonus (what the bare die
must show), and the damage it deals on a success (1 for a roll that deals none)."""
Grab = tuple[int, int, int, int, bool]
"""One Monster's Grab Attack: its dice, what each bare die must show, the damage a hit,
the armor that ignores the first points of it, and whether a hit stuns the hero."""
FAILED = ((0, 1, 0, 0),)
"""A roll with a failed die: `rerollers` offers a re-roll only after one."""


# -- counting ---------------------------------------------------------------------------


def _shortfalls(need: int) -> tuple[tuple[int, int], ...]:
    """How far a d6 falls short of `need` (0: it succeeds), with how many faces do so."""
    faces = Counter(max(0, need - face) for face in range(1, SIDES + 1))
    return tuple(sorted(faces.items()))


def _group_rolls(need: int, count: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every way `count` dice of one need can fall, as a multiset of shortfalls, with
    the number of ordered rolls that give it."""
    classes = _shortfalls(need)
    for picked in combinations_with_replacement(range(len(classes)), count):
        counts = Counter(picked)
        ways = factorial(count) // prod(factorial(k) for k in counts.values())
        ways *= prod(classes[i][1] ** k for i, k in counts.items())
        yield ways, tuple(classes[i][0] for i in picked)


def _most_added(failed: list[tuple[int, int]], spare: int) -> int:
    """The most damage Mighty Boost can add to a roll: `failed` are the failed dice
    (shortfall, damage), and `spare` actions each lift one die by 1."""
    best = [0] * (spare + 1)
    for short, damage in failed:
        for left in range(spare, short - 1, -1):
            best[left] = max(best[left], best[left - short] + damage)
    return best[spare]


@lru_cache(maxsize=4096)
def reach(dice: Dice, spare: int, rerolls: int) -> tuple[tuple[int, Fraction, Fraction], ...]:
    """For each total `t` > 0 these dice can deal, ascending: (t, the chance the roll
    deals t or more, the chance it does when the hero may then give up to `spare` actions
    for Mighty Boost and re-roll every die with each of `rerolls` cards while short of t).

    With help, a roll that Mighty Boost can lift to t is lifted (a sure thing), one that
    it cannot is re-rolled while a card is left (every die again, so the boost given
    before would be lost): t fails only if every one of the rerolls + 1 rolls falls short
    of it even with the boost."""
    groups = sorted(Counter(dice).items())
    totals = {0}
    for (_, damage), count in groups:
        for _ in range(count):
            totals |= {t + damage for t in totals}
    wanted = sorted(t for t in totals if t > 0)
    rolled = dict.fromkeys(wanted, 0)
    helped = dict.fromkeys(wanted, 0)
    for outcome in product(*(_group_rolls(need, count) for (need, _), count in groups)):
        ways = prod(w for w, _ in outcome)
        dealt = 0
        failed: list[tuple[int, int]] = []
        for ((_, damage), _), (_, shorts) in zip(groups, outcome, strict=True):
            for short in shorts:
                if short == 0:
                    dealt += damage
                else:
                    failed.append((short, damage))
        most = dealt + (_most_added(failed, spare) if spare > 0 and failed else 0)
        for t in wanted:
            if dealt >= t:
                rolled[t] += ways
            if most >= t:
                helped[t] += ways
    every = SIDES ** len(dice)
    return tuple(
        (t, Fraction(rolled[t], every), 1 - (1 - Fraction(helped[t], every)) ** (rerolls + 1))
        for t in wanted
    )


@lru_cache(maxsize=4096)
def grabbed(
    grabs: tuple[Grab, ...], health: int, can_stun: bool
) -> dict[tuple[int, bool], Fraction]:
    """The damage a hero of `health` takes from these Grab Attacks, made in turn (each
    hit after the armor of its attack; none once the hero falls), and whether a hit
    stuns it: {(damage, stunned): chance}, damage at most `health`."""
    spread: dict[tuple[int, bool], Fraction] = {(0, False): Fraction(1)}
    for dice, need, damage, armor, stuns in grabs:
        p = Fraction(max(0, min(SIDES, SIDES + 1 - need)), SIDES)
        grown: dict[tuple[int, bool], Fraction] = {}
        for (taken, stunned), chance in spread.items():
            if taken >= health:
                grown[taken, stunned] = grown.get((taken, stunned), Fraction(0)) + chance
                continue
            for hits in range(dice + 1):
                weight = chance * comb(dice, hits) * p**hits * (1 - p) ** (dice - hits)
                if not weight:
                    continue
                lost = max(0, hits * damage - armor)
                key = (min(health, taken + lost), stunned or (stuns and can_stun and lost > 0))
                grown[key] = grown.get(key, Fraction(0)) + weight
        spread = grown
    return spread


# -- what a choice shows -------------------------------------------------------------------


def helped_by(spare: int, rerolls: int) -> str:
    """The name of the chance with the hero's help: "" when it has none left."""
    if spare > 0 and rerolls > 0:
        return "with boost and re-roll"
    if spare > 0:
        return "with boost"
    return "with re-roll" if rerolls > 0 else ""


def success_odds(need: int, spare: int, rerolls: int) -> dict[str, float]:
    """One die that must show `need` (its bonus already taken off)."""
    ((_, p, helped),) = reach(((need, 1),), max(spare, 0), rerolls)
    out = {"success": float(p)}
    name = helped_by(spare, rerolls)
    if name and helped != p:
        out[name] = float(helped)
    return out


def damage_odds(dice: Dice, spare: int, rerolls: int, slays: tuple[int, ...]) -> dict[str, float]:
    """An attack's dice: for each damage that would slay some of the targets (`slays`,
    ascending), the chance of the least total the dice can deal that reaches it, or more;
    then the same with the hero's help. A damage the dice cannot reach is shown once, at
    0%: the attack cannot slay that much."""
    totals = reach(tuple(sorted(dice)), max(spare, 0), rerolls)
    rows: list[tuple[int, Fraction, Fraction]] = []
    for damage in slays:
        row = next((r for r in totals if r[0] >= damage), None)
        if row is None:
            if not rows:
                return {f"{damage}+ damage": 0.0}
            break
        if row not in rows:
            rows.append(row)
    out = {f"{t}+ damage": float(p) for t, p, _ in rows}
    name = helped_by(spare, rerolls)
    if name:
        out.update({f"{t}+ {name}": float(helped) for t, p, helped in rows if helped != p})
    return out


def reroll_count(st: SideQuestState, seat: int, what: str, spent: int | None = None) -> int:
    """How many cards (the hero's ability among them) could re-roll a failed roll of kind
    `what`: the rules' own `rerollers`, less the card `spent` on the action itself."""
    return sum(1 for source in rerollers(st, seat, what, FAILED) if source != spent)


def attack_dice(st: SideQuestState, seat: int, loc: int) -> Dice:
    """The dice an Attack on `loc` rolls (turn.attack): each equipped weapon that
    reaches, with the hero's attack bonus and extra damage."""
    pos = st.position[seat]
    farther = bonus(st, seat, "range_plus")
    plus = bonus(st, seat, "boost", "attack")
    more = bonus(st, seat, "damage_plus")
    dice: list[tuple[int, int]] = []
    for w in st.equipped[seat]:
        weapon = weapon_of(st, w)
        if abs(loc - pos) <= weapon.range + farther:
            dice += [(weapon.hit - plus, weapon.damage + more)] * weapon.dice
    return tuple(dice)


def slaying(st: SideQuestState, seat: int, loc: int) -> tuple[int, ...]:
    """Each damage that would slay (a guarded Boss: stun) some of the targets there, one
    target or several together (no partial damage: a total between these slays no more
    than the one below it), ascending."""
    sums = {0}
    for c in hit_targets(st, loc, seat):
        sums |= {s + health_of(st, c) for s in sums}
    return tuple(sorted(s for s in sums if s > 0))


def grabbers(st: SideQuestState, seat: int) -> list[int]:
    """The Monsters (and the Boss) that make a Grab Attack if the hero moves now."""
    if bonus(st, seat, "evade") > 0:
        return []
    left = st.position[seat]
    return [c for c in st.here[left] if st.card_kind[c] in FIGHTERS and c not in st.stunned]


def grab_of(st: SideQuestState, monster: int, armor: int) -> Grab:
    """A Monster's Grab Attack as `monsters.monster_hits` rolls it."""
    info = fighter_of(st, monster)
    runes = sum(1 for zone in st.here for c in zone if st.card_kind[c] == "rune")
    where = next(zone for zone in st.here if monster in zone)
    rallies = sum(1 for c in where if c != monster and ability(st, c) == "rallying")
    plus = (
        0 if ability(st, monster) == "grasping" else -1
    ) + runes * st.content.specials.rune_bonus
    plus += rallies
    return (info.dice, info.hit - plus, info.damage, armor, ability(st, monster) == "stun_on_hit")


def move_odds(st: SideQuestState, seat: int) -> dict[str, float]:
    monsters = grabbers(st, seat)
    if not monsters:
        return {}
    armor = bonus(st, seat, "armor")
    grabs = tuple(grab_of(st, c, armor) for c in monsters)
    health = st.health[seat]
    spread = grabbed(grabs, health, st.hero_stun[seat] == NONE)
    taken: dict[int, Fraction] = {}
    stunned = Fraction(0)
    for (damage, stun), chance in spread.items():
        taken[damage] = taken.get(damage, Fraction(0)) + chance
        if stun and damage < health:
            stunned += chance
    out: dict[str, float] = {}
    for damage in sorted(taken):
        if taken[damage]:
            name = "unhurt" if damage == 0 else "fall" if damage >= health else f"{damage} damage"
            out[name] = float(taken[damage])
    if stunned:
        out["stunned"] = float(stunned)
    return out


def free_loot_odds(st: SideQuestState, seat: int, source: int) -> dict[str, float]:
    """A card whose last effect is a free Loot roll (Pock's ability): the roll's chance,
    with what the card's earlier effects add (actions, a boost) and what it costs."""
    effects = card_effects(st, seat, source)
    if not effects or effects[-1].name != "free_loot":
        return {}
    if source == ABILITY:
        use = st.content.hero[st.hero[seat]].use
    else:
        use = st.content.item[st.card_ref[source]].use
    spare = st.actions - (1 if use == "action" else 0)
    plus = bonus(st, seat, "boost", "loot")
    for e in effects[:-1]:
        if e.name == "extra_action":
            spare += e.amount
        elif (
            e.name == "boost"
            and e.roll in ("any", "loot")
            and e.target in ("self", "every_hero_here")
        ):
            plus += e.amount
    return success_odds(LOOT_ROLL - plus, spare, reroll_count(st, seat, "loot", source))


def reroll_odds(st: SideQuestState, seat: int, source: int) -> dict[str, float]:
    """A re-roll in the window after a roll: every die again, with its own bonus."""
    what, target, rolled = st.stack[-1].args
    dice = tuple((need - extra, damage) for _, need, damage, extra in rolled)
    rerolls = reroll_count(st, seat, what, source)
    if what == "attack":
        return damage_odds(dice, st.actions, rerolls, slaying(st, seat, target))
    return success_odds(dice[0][0], st.actions, rerolls)


def action_odds(st: SideQuestState, action: Action) -> dict[str, float]:
    """The chances `SideQuest.odds` shows beside `action`, a legal action now."""
    if not st.stack or st.ending:
        return {}
    top = st.stack[-1]
    seat, kind = top.seat, action.kind
    if top.kind == "boost":
        return reroll_odds(st, seat, int(action.args[0])) if kind == "reroll" else {}
    if top.kind != "turn":
        return {}
    spare = st.actions - 1
    specials = st.content.specials
    if kind == "move":
        return move_odds(st, seat)
    if kind == "attack":
        loc = index_of(action.args[0])
        dice = attack_dice(st, seat, loc)
        return damage_odds(dice, spare, reroll_count(st, seat, "attack"), slaying(st, seat, loc))
    if kind == "loot":
        need = LOOT_ROLL - bonus(st, seat, "boost", "loot")
        return success_odds(need, spare, reroll_count(st, seat, "loot"))
    if kind == "rescue":
        need = specials.rescue_roll - bonus(st, seat, "boost", "rescue")
        return success_odds(need, spare, reroll_count(st, seat, "rescue"))
    if kind == "key":
        need = specials.key_roll - bonus(st, seat, "boost", "key")
        return success_odds(need, spare, reroll_count(st, seat, "key"))
    if kind == "cast":
        spell = st.content.spell[st.card_ref[int(action.args[0])]]
        need = spell.roll - bonus(st, seat, "boost", "spell")
        return success_odds(need, spare, reroll_count(st, seat, "spell"))
    if kind == "ability":
        return free_loot_odds(st, seat, ABILITY)
    if kind == "use":
        return free_loot_odds(st, seat, int(action.args[0]))
    return {}
