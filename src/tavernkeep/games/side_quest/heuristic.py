"""The Side Quest bot team: heroes that plan each turn together from what they all see.

Every seat runs the same reading of the same public table, so the heroes agree without
talking: each scores its actions in one currency, health points, against the plan of the
team. A Monster slain is worth the damage it would deal before it fell; a hero's health
is worth more the lower it runs (the last point loses the game for everyone); a Damsel
about to reach the skull is worth the game. So the team:

- attacks where the expected value of the kills is highest, counting every way its dice
  can land and giving each hit where it completes a kill (no partial damage);
- sends to a sinking Damsel the hero who can reach her and leaves the others to fight;
- spends Mighty Boost only when the +1 turns a roll that matters, for less than the
  actions it costs, and re-rolls a failed roll that matters;
- takes Monster hits on the hero who can best afford them (armor first);
- moves toward what it can do next (targets in range, loot, the Key, the Door), weighing
  the Grab Attacks and the Monsters that will reach the square it ends on.

It plans on `determinize`d states: the decks and face-down Locations re-sampled, never
the true ones, and with the rules' own helpers for ranges and targets.

The tutor's line of why for a choice (reasons.py) reads a position the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from math import comb
from typing import Any

from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet
from tavernkeep.games.side_quest.cards import (
    FIGHTERS,
    fighter_of,
    health_of,
    index_of,
    weapon_of,
)
from tavernkeep.games.side_quest.combat import hearts_standing, hit_targets
from tavernkeep.games.side_quest.content import HERO_HEALTH, Effect, Weapon
from tavernkeep.games.side_quest.effects import card_effects, chooses
from tavernkeep.games.side_quest.heroes import (
    ABILITY,
    DONE,
    LOOT_ROLL,
    bonus,
    hero_range,
    overburdened,
)
from tavernkeep.games.side_quest.monsters import active_monster_at
from tavernkeep.games.side_quest.rolls import KEEP
from tavernkeep.games.side_quest.state import NONE, SideQuestState

ACTION = 0.6
"""What an unspent action is worth when given up for Mighty Boost."""
DAMSEL_SAVED = 6.0
"""A Damsel rescued before the last step: a threat to the game gone, and her thanks."""
GAME = 60.0
"""What the game itself is worth: a Damsel at the skull, the last health point, the Boss."""
KEY_PICKED = 6.0
DOOR_OPENED = 25.0
LOOT_CARD = 1.0
FOCUS = 0.35
"""How strongly a hero is drawn toward what it could do at a Location a step or more away."""


def chance(need: int) -> float:
    """The chance one d6 shows `need` or more."""
    return max(0, min(6, 7 - need)) / 6


def point_cost(health: int) -> float:
    """What losing the point that leaves a hero at `health - 1` costs the team."""
    return {1: GAME, 2: 4.0, 3: 1.6}.get(health, 1.0)


def wound_cost(health: int, damage: int) -> float:
    return sum(point_cost(health - k) for k in range(damage) if health - k > 0)


def weapon_damage(weapon: Weapon) -> float:
    """The damage one attack with this weapon deals on average."""
    return weapon.dice * chance(weapon.hit) * weapon.damage


Attackers = list[tuple[int, float, int]]
"""Monster attacks to come: (dice, chance a die hits, damage a hit)."""


def hits_spread(attacks: Attackers) -> dict[tuple[int, int], float]:
    """The chance of each outcome of these attacks: (hits of 1 damage, hits of 2 or more)."""
    spread = {(0, 0): 1.0}
    for dice, p, damage in attacks:
        for _ in range(dice):
            grown: dict[tuple[int, int], float] = {}
            for (ones, twos), q in spread.items():
                miss = (ones, twos)
                hit = (ones + 1, twos) if damage == 1 else (ones, twos + 1)
                grown[miss] = grown.get(miss, 0.0) + q * (1 - p)
                grown[hit] = grown.get(hit, 0.0) + q * p
            spread = grown
    return spread


def attacks_cost(healths: list[int], attacks: Attackers) -> float:
    """The expected cost of these attacks to the heroes standing together with `healths`,
    each hit taken by the hero who can best afford it (RULES 23)."""
    if not attacks:
        return 0.0
    return expected_cost(tuple(healths), tuple(attacks))


# It depends on its arguments alone, and the few healths and Monsters of a game meet
# again decision after decision (a search asks it thousands of times a second).
@lru_cache(maxsize=1 << 16)
def expected_cost(healths: tuple[int, ...], attacks: tuple[tuple[int, float, int], ...]) -> float:
    total = 0.0
    for (ones, twos), q in hits_spread(list(attacks)).items():
        if q < 1e-4 or not (ones or twos):
            continue
        left = sorted(healths, reverse=True)
        cost = 0.0
        for damage in [2] * twos + [1] * ones:
            cost += wound_cost(left[0], damage)
            left[0] -= damage
            left.sort(reverse=True)
        total += q * min(cost, GAME)
    return total


Weapons = tuple[tuple[int, float, int], ...]
"""Weapons attacking together: (dice, chance a die hits, damage a hit)."""


# Like `expected_cost`: the same few weapons and odds come back decision after decision.
@lru_cache(maxsize=1 << 16)
def attack_outcomes(weapons: Weapons) -> list[tuple[float, tuple[int, ...]]]:
    """Every way these weapons' dice can land that hits at all, with its chance (those
    under 1e-4 left out): (chance, the damage of each hit, largest first)."""
    out: list[tuple[float, tuple[int, ...]]] = []
    for counts in product(*(range(n + 1) for n, _, _ in weapons)):
        weight = 1.0
        hits: list[int] = []
        for k, (n, p, damage) in zip(counts, weapons, strict=True):
            weight *= comb(n, k) * p**k * (1 - p) ** (n - k)
            hits += [damage] * k
        if hits and weight > 1e-4:
            out.append((weight, tuple(sorted(hits, reverse=True))))
    return out


class TeamBot:
    """`bot:heuristic` for Side Quest: one seat of a team that plans together."""

    name = "bot:heuristic"

    def choose(self, info: InfoSet) -> Action:
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        st: SideQuestState = info.determinize(info.rng)
        return Plan(st, info.seat).choose(actions)


class Plan:
    """One decision, read from a determinized state."""

    def __init__(self, st: SideQuestState, seat: int) -> None:
        self.st = st
        self.seat = seat
        self.runes = sum(
            st.content.specials.rune_bonus
            for zone in st.here
            for c in zone
            if st.card_kind[c] == "rune"
        )
        self.hearts = hearts_standing(st) if "boss" in st.card_kind else 0
        # One decision reads the same table many times over: remember what it computed.
        self.attacks: dict[tuple[int, int, int], float] = {}
        self.kills: dict[tuple[int, int], float] = {}
        self.dangers: dict[int, float] = {}
        self.stands: dict[tuple[int, int], float] = {}
        self.bonuses: dict[tuple[int, str, str, tuple[int, ...]], int] = {}

    def bonus(self, seat: int, name: str, roll: str = "") -> int:
        """The rules' `bonus`, remembered: a decision asks it hundreds of times."""
        key = (seat, name, roll, tuple(self.st.position))
        value = self.bonuses.get(key)
        if value is None:
            value = self.bonuses[key] = bonus(self.st, seat, name, roll)
        return value

    def choose(self, actions: list[Action]) -> Action:
        st = self.st
        top = st.stack[-1]
        kind = top.kind
        if kind == "turn":
            return max(actions, key=self.turn_value)
        if kind == "hit":
            return self.give_hit(top.args, actions)
        if kind == "wound":
            return self.take_wound(top.args, actions)
        if kind == "boost":
            return self.boost(top.args, actions)
        if kind == "equip":
            return max(actions, key=lambda a: self.arms([int(w) for w in a.args]))
        if kind == "hero":
            return max(actions, key=lambda a: self.hero_taste(int(a.args[0])))
        if kind == "weapon":
            return max(actions, key=lambda a: self.arms([int(a.args[0])]))
        if kind == "enter":
            middle = (len(st.row) - 1) / 2
            return min(actions, key=lambda a: abs(index_of(a.args[0]) - middle))
        if kind == "target":
            return self.target(top.args, actions)
        if kind == "push":
            return max(actions, key=lambda a: self.distance_to_heroes(index_of(a.args[0])))
        if kind == "walk":
            return max(actions, key=self.walk_value)
        # Trading: the heroes keep what they carry.
        return DONE if DONE in actions else actions[0]

    # -- what things are worth -------------------------------------------------------

    def threat(self, card: int) -> float:
        """The damage a fighter deals in one activation, on average."""
        f = fighter_of(self.st, card)
        return f.dice * chance(f.hit - self.runes) * f.damage

    def kill_value(self, card: int) -> float:
        # What a kill is worth depends on where the heroes stand (`standing` tries
        # this hero elsewhere), so remember it for each place.
        key = (card, self.st.position[self.seat])
        value = self.kills.get(key)
        if value is None:
            value = self.kills[key] = self.slaying(card)
        return value

    def slaying(self, card: int) -> float:
        st = self.st
        kind = st.card_kind[card]
        if kind == "monster":
            # The damage it would deal over the turns it would live, the Location it
            # keeps the dungeon from dealing to (the Key lies under the last card), and
            # above all what its attack this Monster phase would cost the heroes it reaches.
            later = 1.0 + 1.5 * self.threat(card) * (0.4 if card in st.stunned else 1.0)
            return later + self.imminent(card) - self.blast(card)
        if kind == "boss":
            return GAME if self.hearts == 0 else 2.0 + self.imminent(card)
        if kind == "heart":
            return 5.0
        if kind == "portal":
            return 6.0
        if kind == "rune":
            return 1.5 + sum(
                self.threat(c) for zone in st.here for c in zone if st.card_kind[c] in FIGHTERS
            )
        return 0.0

    def blast(self, card: int) -> float:
        """What slaying a Monster that explodes costs the heroes standing by it."""
        st = self.st
        if fighter_of(st, card).ability != "explodes":
            return 0.0
        loc = next(i for i, zone in enumerate(st.here) if card in zone)
        return sum(wound_cost(st.health[s], 1) for s in range(st.players) if st.position[s] == loc)

    def imminent(self, card: int) -> float:
        """The expected cost of this fighter's next activation to the heroes it would
        attack, were the heroes to stay where they stand."""
        st = self.st
        if card in st.stunned:
            return 0.0
        f = fighter_of(st, card)
        loc = next(i for i, zone in enumerate(st.here) if card in zone)
        placed = [p for p in st.position if p != NONE]
        if not placed:
            return 0.0
        gap = min(abs(p - loc) for p in placed)
        if gap > f.range + f.move:
            return 0.0
        # Equally near heroes on both sides: the die picks one; count the worse side.
        sides = {p for p in placed if abs(p - loc) == gap}
        return max(
            attacks_cost(
                [
                    st.health[s] + self.bonus(s, "armor")
                    for s in range(st.players)
                    if st.position[s] == side
                ],
                [(f.dice, chance(f.hit - self.runes), f.damage)],
            )
            for side in sides
        )

    def need(self, card: int) -> int:
        """The damage one attack must give `card` to slay it (or, the Boss with Hearts
        standing, to stun it)."""
        return health_of(self.st, card)

    def hero_taste(self, hero: int) -> float:
        h = self.st.content.hero[hero]
        # Measured over random deals (RULES.md, Bots): armor that shrugs off the
        # first point of every attack keeps a hero standing longest.
        taste = {
            "armor": 3.0,
            "free_loot": 2.3,
            "damage_plus": 2.3,
            "heal": 2.2,
            "extra_action": 2.1,
            "boost": 2.0,
            "range_plus": 1.8,
            "reroll": 1.6,
            "stun": 1.4,
        }
        return sum(taste.get(e.name, 1.0) for e in h.effects) + 0.2 * h.item_limit

    def arms(self, weapons: list[int]) -> float:
        """Expected damage of one attack with these weapons in hand, reach counted a little."""
        if sum(weapon_of(self.st, w).hands for w in weapons) > 2:
            return -1.0
        out = 0.0
        for w in weapons:
            weapon = weapon_of(self.st, w)
            out += weapon_damage(weapon) + 0.25 * weapon.range
        return out

    # -- attacks ----------------------------------------------------------------------

    def best_kills(self, targets: list[int], hits: list[int], given: dict[int, int]) -> float:
        """The value of the kills these hits can complete, given greedily: the most
        valuable target first, with the fewest hits that reach what it still needs."""
        return self.kills_of(self.ranked(targets), hits, given)

    def ranked(self, targets: list[int]) -> list[int]:
        """The targets, the most valuable kill first."""
        return sorted(targets, key=self.kill_value, reverse=True)

    def kills_of(self, ranked: list[int], hits: Sequence[int], given: dict[int, int]) -> float:
        """`best_kills` of targets already `ranked`."""
        left = sorted(hits, reverse=True)
        total = 0.0
        for card in ranked:
            need = self.need(card) - given.get(card, 0)
            if need <= 0 or self.kill_value(card) <= 0:
                continue
            used = self.cover(left, need)
            if used is None:
                continue
            for h in used:
                left.remove(h)
            total += self.kill_value(card)
        return total

    @staticmethod
    def cover(hits: list[int], need: int) -> list[int] | None:
        """The hits (largest first) whose sum reaches `need`, wasting as little as can be."""
        if sum(hits) < need:
            return None
        chosen: list[int] = []
        for h in sorted(hits, reverse=True):
            if need <= 0:
                break
            if h >= need:
                # The smallest single hit that finishes it.
                h = min(x for x in hits if x >= need and (hits.count(x) > chosen.count(x)))
            chosen.append(h)
            need -= h
        return chosen

    def attack_value(self, loc: int, spare: int) -> float:
        """The expected value of attacking `loc`, over every way the dice can land; up to
        `spare` unused actions may lift a failed die by Mighty Boost."""
        st, seat = self.st, self.seat
        pos = st.position[seat]
        key = (pos, loc, spare)
        value = self.attacks.get(key)
        if value is None:
            value = self.attacks[key] = self.attacking(loc, spare)
        return value

    def attacking(self, loc: int, spare: int) -> float:
        st, seat = self.st, self.seat
        targets = hit_targets(st, loc, seat)
        if not targets:
            return 0.0
        pos = st.position[seat]
        plus = self.bonus(seat, "boost", "attack")
        more = self.bonus(seat, "damage_plus")
        farther = self.bonus(seat, "range_plus")
        # Dice of one weapon land alike: count the hits of each weapon, not each die.
        weapons: list[tuple[int, float, int]] = []
        for w in st.equipped[seat]:
            weapon = weapon_of(st, w)
            if abs(loc - pos) > weapon.range + farther:
                continue
            p = chance(weapon.hit - plus)
            if spare:
                # Mighty Boost lifts some of the dice that miss by one.
                p += 0.5 * min(1.0, spare / 2) * (chance(weapon.hit - plus - 1) - p)
            weapons.append((weapon.dice, p, weapon.damage + more))
        if not weapons:
            return 0.0
        total = 0.0
        ranked = self.ranked(targets)
        # Weapons of the same damage land the same hits in different ways: each set of
        # hits is given out once.
        kills: dict[tuple[int, ...], float] = {}
        for weight, hits in attack_outcomes(tuple(weapons)):
            value = kills.get(hits)
            if value is None:
                value = kills[hits] = self.kills_of(ranked, hits, {})
            total += weight * value
        return total

    def give_hit(self, args: tuple[Any, ...], actions: list[Action]) -> Action:
        _loc, hits, given = args
        so_far: dict[int, int] = {}
        for card, damage in given:
            so_far[card] = so_far.get(card, 0) + damage
        rest = list(hits[1:])

        def value(a: Action) -> float:
            card = int(a.args[0])
            trial = dict(so_far)
            trial[card] = trial.get(card, 0) + hits[0]
            targets = [int(x.args[0]) for x in actions]
            done = sum(self.kill_value(c) for c in targets if trial.get(c, 0) >= self.need(c))
            waste = 0.01 * max(0, trial[card] - self.need(card))
            # A hit that slays nothing is best given to a Monster already awake.
            awake = 0.001 if card not in self.st.stunned else 0.0
            return done + self.best_kills(targets, rest, trial) - waste + awake

        return max(actions, key=value)

    # -- Monster hits -----------------------------------------------------------------

    def take_wound(self, args: tuple[Any, ...], actions: list[Action]) -> Action:
        _, hits, _, absorbed = args
        st = self.st

        def cost(a: Action) -> float:
            s = index_of(a.args[0])
            return wound_cost(st.health[s], self.wound_damage(s, hits[0], absorbed[s]))

        return min(actions, key=cost)

    def wound_damage(self, seat: int, damage: int, absorbed: int) -> int:
        """The damage a hit leaves `seat`'s hero once its armor (`absorbed` of it spent
        on this attack already) has taken its share."""
        return max(0, damage - max(0, self.bonus(seat, "armor") - absorbed))

    # -- rolls ------------------------------------------------------------------------

    def roll_value(
        self, what: str, target: int, dice: tuple[tuple[int, int, int, int], ...]
    ) -> float:
        st = self.st
        success = [d for d in dice if d[0] >= d[1]]
        if what == "attack":
            return self.best_kills(hit_targets(st, target, self.seat), [d[2] for d in success], {})
        if not success:
            return 0.0
        if what == "loot":
            return LOOT_CARD
        if what == "rescue":
            return self.damsel_value(target)
        if what == "key":
            return DOOR_OPENED
        if what == "spell":
            return self.effects_value(card_effects(st, self.seat, target))
        return 0.0

    def boost(self, args: tuple[Any, ...], actions: list[Action]) -> Action:
        what, target, dice = args
        now = self.roll_value(what, target, dice)
        # An action given up is worth what the hero could still do with it.
        st, seat = self.st, self.seat
        reach = hero_range(st, seat)
        pos = st.position[seat]
        action = max(
            [ACTION]
            + [
                self.attack_value(loc, 0)
                for loc in range(len(st.row))
                if abs(loc - pos) <= reach and loc != (target if what == "attack" else NONE)
            ]
        )
        best, best_gain = KEEP, 0.0
        for a in actions:
            if a.kind == "boost":
                i = int(a.args[0])
                value, need, damage, extra = dice[i]
                lifted = (*dice[:i], (need, need, damage, extra), *dice[i + 1 :])
                gain = self.roll_value(what, target, lifted) - now - action * (need - value)
            elif a.kind == "reroll":
                # A fresh roll of every die: its expected value against what stands.
                p = chance(min(d[1] - d[3] for d in dice))
                if what == "attack":
                    gain = 0.5 * p * self.attack_value(target, 0) - now * 0.5
                else:
                    gain = (
                        p * self.roll_value(what, target, tuple((d[1], *d[1:]) for d in dice)) - now
                    )
                source = int(a.args[0])
                if source != ABILITY and self.st.content.item[self.st.card_ref[source]].consumed:
                    gain -= 0.8
            else:
                continue
            if gain > best_gain:
                best, best_gain = a, gain
        return best

    # -- the hero's turn ----------------------------------------------------------------

    def turn_value(self, action: Action) -> float:
        st, seat = self.st, self.seat
        kind = action.kind
        spare = max(0, st.actions - 1)
        if kind == "end":
            return 0.0
        if kind == "attack":
            # An attack that cannot slay anything is an action thrown away.
            return self.attack_value(index_of(action.args[0]), spare) or -0.05
        if kind == "move":
            return self.move_value(index_of(action.args[0]))
        if kind == "pickup":
            return self.card_worth(int(action.args[0]), picking=True)
        if kind == "loot":
            if overburdened(st, seat) or not st.loot_deck:
                return -0.1
            return chance(LOOT_ROLL - self.bonus(seat, "boost", "loot")) * LOOT_CARD + 0.05
        if kind == "rescue":
            c = int(action.args[0])
            p = chance(st.content.specials.rescue_roll - self.bonus(seat, "boost", "rescue"))
            return min(1.0, p + (1 - p) * 0.4 * min(spare, 2)) * self.damsel_value(c)
        if kind == "key":
            p = chance(st.content.specials.key_roll - self.bonus(seat, "boost", "key"))
            return min(1.0, p + (1 - p) * 0.5 * min(spare, 2)) * DOOR_OPENED
        if kind == "drop":
            return self.drop_value(int(action.args[0]))
        if kind in ("use", "cast", "ability"):
            source = ABILITY if kind == "ability" else int(action.args[0])
            value = self.effects_value(card_effects(st, seat, source))
            if kind == "cast":
                spell = st.content.spell[st.card_ref[source]]
                value *= chance(spell.roll - self.bonus(seat, "boost", "spell"))
                value -= 0.2  # the action, spent either way
            elif source != ABILITY and st.content.item[st.card_ref[source]].consumed:
                value -= 1.0  # a one-use card is kept for a turn that needs it more
            return value
        return -1.0  # trading: the heroes keep what they carry

    def damsel_value(self, damsel: int) -> float:
        st = self.st
        left = st.content.specials.damsel_depth - st.depth.get(damsel, 0)
        return GAME if left <= 1 else DAMSEL_SAVED * (2.0 if left == 2 else 1.0)

    def card_worth(self, card: int, picking: bool) -> float:
        st, seat = self.st, self.seat
        kind = st.card_kind[card]
        if kind == "key":
            return KEY_PICKED
        if kind == "weapon":
            now = self.arms(st.equipped[seat])
            best = max((self.arms(list(combo)) for combo in self.hands_with(card)), default=now)
            gain = best - now
            return 0.3 + 3.0 * gain if gain > 0 else (0.1 if not self.full(seat) else -0.5)
        if self.full(seat, kind):
            return -0.5
        return LOOT_CARD

    def hands_with(self, card: int) -> list[tuple[int, ...]]:
        weapons = [*self.st.weapons[self.seat], card]
        out: list[tuple[int, ...]] = [(card,)]
        out += [(card, w) for w in weapons if w != card]
        return out

    def full(self, seat: int, kind: str = "item") -> bool:
        """Whether one more card of `kind` would Overburden the hero."""
        st = self.st
        hero = st.content.hero[st.hero[seat]]
        if kind == "spell":
            return len(st.spells[seat]) >= hero.spell_limit
        carried = len(st.items[seat]) + len(st.weapons[seat]) - len(st.equipped[seat])
        return carried >= hero.item_limit + self.bonus(seat, "carry")

    def drop_value(self, card: int) -> float:
        st, seat = self.st, self.seat
        if not overburdened(st, seat) or st.card_kind[card] == "key":
            return -1.0
        if card in st.equipped[seat]:
            return -0.5
        # Shed the least useful card first.
        return 0.5 - 0.1 * (st.card_kind[card] == "item")

    def effects_value(self, effects: list[Effect]) -> float:
        st, seat = self.st, self.seat
        pos = st.position[seat]
        value = 0.0
        reach = max(hero_range(st, seat), 0)
        for effect in effects:
            name = effect.name
            if name == "heal":
                hurt = [s for s in range(st.players) if st.health[s] < HERO_HEALTH]
                if effect.target in ("hero_here", "every_hero_here"):
                    hurt = [s for s in hurt if st.position[s] == pos]
                elif effect.target == "self":
                    hurt = [s for s in hurt if s == seat]
                value += max(
                    (
                        sum(
                            point_cost(st.health[s] + k + 1)
                            for k in range(min(effect.amount, HERO_HEALTH - st.health[s]))
                        )
                        * (0.6 if st.health[s] >= 3 else 1.0)
                        for s in hurt
                    ),
                    default=-0.5,
                )
            elif name in ("damage", "stun", "block", "push"):
                monsters = self.monsters_within(0 if effect.target.endswith("here") else reach)
                if not monsters:
                    value -= 0.5
                    continue
                if name == "damage":
                    value += max(
                        (self.kill_value(c) for c in monsters if effect.amount >= self.need(c)),
                        default=0.0,
                    )
                elif name == "stun":
                    active = [c for c in monsters if c not in st.stunned]
                    threats = [self.threat(c) for c in active]
                    value += (
                        sum(threats)
                        if effect.target.startswith("every")
                        else max(threats, default=0)
                    )
                else:
                    value += 0.3
            elif name == "extra_action":
                value += 1.2 * effect.amount
            elif name == "draw_loot":
                value += LOOT_CARD * effect.amount
            elif name == "free_loot":
                value += chance(LOOT_ROLL) * LOOT_CARD
            elif name in ("armor", "evade"):
                value += 0.5 if active_monster_at(st, pos) else 0.0
            elif name in ("damage_plus", "boost", "range_plus"):
                value += 0.3 if self.monsters_within(reach + 1) else 0.0
            else:
                value += 0.1
        return value

    def monsters_within(self, reach: int) -> list[int]:
        st = self.st
        pos = st.position[self.seat]
        return [
            c
            for loc in range(len(st.row))
            if abs(loc - pos) <= reach
            for c in st.here[loc]
            if st.card_kind[c] == "monster"
        ]

    # -- where to stand -------------------------------------------------------------------

    def move_value(self, to: int) -> float:
        st, seat = self.st, self.seat
        here = st.position[seat]
        grabs: Attackers = []
        if self.bonus(seat, "evade") == 0:
            for c in st.here[here]:
                if st.card_kind[c] in FIGHTERS and c not in st.stunned:
                    f = fighter_of(st, c)
                    need = f.hit - self.runes + (0 if self.ability(c) == "grasping" else 1)
                    grabs.append((f.dice, chance(need), f.damage))
        grab_cost = attacks_cost([st.health[seat]], grabs)
        spare = max(0, st.actions - 1)
        there = self.standing(to, spare)
        if spare and not active_monster_at(st, to) and not overburdened(st, seat):
            # A step on from there this turn (out of a Monster's reach, say).
            for on in (to - 1, to + 1):
                if 0 <= on < len(st.row) and on != here:
                    there = max(there, self.standing(on, spare - 1) - 0.05)
        return there - self.standing(here, spare) - grab_cost

    def ability(self, card: int) -> str | None:
        return fighter_of(self.st, card).ability if self.st.card_kind[card] in FIGHTERS else None

    def standing(self, loc: int, spare: int) -> float:
        """What the hero can make of standing at `loc` with `spare` actions left this
        turn, and how the Monster phase will treat it there."""
        value = self.stands.get((loc, spare))
        if value is None:
            value = self.stands[(loc, spare)] = self.standing_at(loc, spare)
        return value

    def standing_at(self, loc: int, spare: int) -> float:
        st, seat = self.st, self.seat
        keep = st.position[seat]
        st.position[seat] = loc
        try:
            now = 0.0
            if spare:
                reach = hero_range(st, seat)
                chances = [
                    self.attack_value(t, spare - 1)
                    for t in range(len(st.row))
                    if abs(t - loc) <= reach
                ]
                now = max(chances, default=0.0)
                if not active_monster_at(st, loc):
                    for c in st.here[loc]:
                        kind = st.card_kind[c]
                        if kind == "damsel":
                            now = max(now, 0.6 * self.damsel_value(c))
                        elif kind == "key" or kind in ("weapon", "item", "spell"):
                            now = max(now, 0.8 * self.card_worth(c, picking=True))
                door = st.content.location[st.row[loc]].locked_door and st.revealed[loc]
                if door and self.holds_key() and not st.depth:
                    now = max(now, 0.5 * DOOR_OPENED)
            # The longer a level drags on, the harder the heroes press toward the work
            # left (a Monster on the Key's way, the Door): a team that only waits loses
            # to the turn limit.
            focus = FOCUS * (1 + st.level_turns / 6)
            return now + focus * self.pull(loc) + self.rest(loc) - self.danger(loc)
        finally:
            st.position[seat] = keep

    def rest(self, loc: int) -> float:
        """The health a revealed Location gives back to the hero in the End phase."""
        st, seat = self.st, self.seat
        if not st.revealed[loc] or st.health[seat] >= HERO_HEALTH:
            return 0.0
        place = st.content.location[st.row[loc]]
        if place.when != "end_phase":
            return 0.0
        heal = sum(e.amount for e in place.effects if e.name == "heal")
        return 0.8 * sum(point_cost(st.health[seat] + k + 1) for k in range(heal))

    def holds_key(self) -> bool:
        st = self.st
        return any(st.card_kind[c] == "key" for s in range(st.players) for c in st.items[s])

    def pull(self, loc: int) -> float:
        """What draws a hero toward a Location: work to do there or beyond it, less the
        steps to get there."""
        st = self.st
        best = 0.0
        key_out = self.holds_key()
        for t in range(len(st.row)):
            worth = 0.0
            for c in st.here[t]:
                kind = st.card_kind[c]
                if kind in FIGHTERS or kind in ("rune", "portal", "heart"):
                    worth = max(worth, 0.5 * self.kill_value(c))
                elif kind == "damsel":
                    worth = max(worth, self.damsel_value(c))
                elif kind == "key":
                    worth = max(worth, KEY_PICKED)
                elif kind in ("weapon", "item", "spell"):
                    worth = max(worth, 0.5)
            if key_out and not st.depth:
                if st.revealed[t] and st.content.location[st.row[t]].locked_door:
                    worth = max(worth, 0.5 * DOOR_OPENED)
                elif not st.revealed[t]:
                    worth = max(worth, 2.0)
            steps = abs(t - loc)
            best = max(best, worth / (1 + steps))
        return best

    def danger(self, loc: int) -> float:
        """The expected cost of the Monster attacks that will reach the heroes at `loc`
        this Monster phase (the team's positions as they stand, this hero's moved there)."""
        value = self.dangers.get(loc)
        if value is None:
            value = self.dangers[loc] = self.endangering(loc)
        return value

    def endangering(self, loc: int) -> float:
        st = self.st
        attacks: Attackers = []
        for c in self.strikers(loc):
            f = fighter_of(st, c)
            attacks.append((f.dice, chance(f.hit - self.runes), f.damage))
        healths = [
            st.health[s] + self.bonus(s, "armor")
            for s in range(st.players)
            if st.position[s] == loc
        ]
        return attacks_cost(healths, attacks)

    def strikers(self, loc: int) -> list[int]:
        """The fighters whose attack this Monster phase reaches the heroes at `loc`: each
        goes for the nearest hero (the team's positions as they stand)."""
        st = self.st
        out: list[int] = []
        for m_loc in range(len(st.row)):
            for c in st.here[m_loc]:
                if st.card_kind[c] not in FIGHTERS or c in st.stunned:
                    continue
                f = fighter_of(st, c)
                nearest = min(abs(p - m_loc) for p in st.position if p != NONE)
                gap = abs(loc - m_loc)
                if gap != nearest or gap > f.range + f.move:
                    continue
                out.append(c)
        return out

    def distance_to_heroes(self, loc: int) -> int:
        st = self.st
        return min(abs(p - loc) for p in st.position if p != NONE)

    def walk_value(self, action: Action) -> float:
        if action == DONE:
            return 0.0
        return self.move_value(index_of(action.args[0])) + 0.01

    def target(self, args: tuple[Any, ...], actions: list[Action]) -> Action:
        st, seat = self.st, self.seat
        source, index = args
        effect = card_effects(st, seat, source)[index]
        # A Location or a hero is named by the number people see, a Monster by its card id.
        what = chooses(effect)
        if effect.name in ("teleport", "free_move") or effect.target == "location_in_range":
            return max(actions, key=lambda a: self.standing(index_of(a.args[0]), st.actions))
        if what == "hero":
            return min(actions, key=lambda a: st.health[index_of(a.args[0])])
        if what == "location":  # every_monster_in_range
            return max(
                actions,
                key=lambda a: sum(
                    self.threat(c)
                    for c in st.here[index_of(a.args[0])]
                    if st.card_kind[c] == "monster"
                ),
            )
        if effect.name == "damage":
            return max(
                actions,
                key=lambda a: (
                    self.kill_value(int(a.args[0])) * (effect.amount >= self.need(int(a.args[0])))
                ),
            )
        if effect.name == "push":
            return max(actions, key=lambda a: self.threat(int(a.args[0])))
        return max(
            actions,
            key=lambda a: self.threat(int(a.args[0])) * (int(a.args[0]) not in st.stunned),
        )
