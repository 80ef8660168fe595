"""Side Quest's tutor's line of why (agents/advice.py): what the team weighs in a choice,
in words: an attack's chance to slay and what the kill spares the heroes, a roll's chance
and its prize, a move's Grab Attacks and the Monsters that reach where it ends, a weapon's
damage; "" where the odds say it all.

It reads a position as the heuristic bot does (heuristic.py `Plan`), on a deal the seat
cannot tell from the true one (`determinize`, from a fixed stream), and of it only what
every seat sees: the cards on the row and in the heroes' hands, their health and actions.
The chances are the game's own (`info.odds`). Apart from the bot, which simulations
compile and run by the million: the words are for a person, once a decision.
"""

from __future__ import annotations

from math import ceil
from typing import Any

from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng
from tavernkeep.games.side_quest.cards import (
    FIGHTERS,
    card_name,
    index_of,
    weapon_of,
    who,
)
from tavernkeep.games.side_quest.combat import hit_targets
from tavernkeep.games.side_quest.content import HERO_HEALTH, Effect
from tavernkeep.games.side_quest.effects import card_effects, chooses
from tavernkeep.games.side_quest.heroes import (
    ABILITY,
    hero_range,
    overburdened,
)
from tavernkeep.games.side_quest.heuristic import Plan, weapon_damage, wound_cost
from tavernkeep.games.side_quest.monsters import active_monster_at
from tavernkeep.games.side_quest.state import SideQuestState

LINE = 110
"""The longest line the tutor's reasons aim for: one line beside a choice."""
REASON_DEAL = 1
"""The stream the tutor's deal is drawn from. The reasons read nothing a deal changes, so
any would do; a fixed one keeps the line the same however often it is asked."""


def reason(info: InfoSet, action: Action) -> str:
    """What the team weighs in a choice, as the tutor's line (agents/advice.py): an
    attack's chance to slay and what the kill spares the heroes, a roll's chance and
    its prize, a move's Grab Attacks and the Monsters that reach where it ends, a
    weapon's damage; "" where the odds say it all.

    It reads a deal the seat cannot tell from the true one (`determinize`, from a
    fixed stream), and of it only what every seat sees, as `choose` does: the cards
    on the row and in the heroes' hands, their health and actions. The chances are
    the game's own (`info.odds`)."""
    st: SideQuestState = info.determinize(Rng(REASON_DEAL))
    if not st.stack or st.ending:
        return ""
    reasons = Reasons(Plan(st, info.seat), info.odds(action), info.legal_actions())
    return reasons.line(action)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def damage_rows(odds: dict[str, float]) -> tuple[dict[int, float], dict[int, float], str]:
    """An attack's odds (chances.damage_odds) by total: the chance of each `N+ damage`,
    the chance of each with the hero's help, and the help's name ("with boost")."""
    rolled: dict[int, float] = {}
    helped: dict[int, float] = {}
    helper = ""
    for name, p in odds.items():
        total, _, rest = name.partition("+ ")
        if not total.isdigit():
            continue
        if rest == "damage":
            rolled[int(total)] = p
        else:
            helped[int(total)] = p
            helper = rest
    return rolled, helped, helper


def slay_chances(odds: dict[str, float], need: int) -> tuple[float, float, str]:
    """The chance an attack deals `need` or more (all of it can go to one target: no
    partial damage), alone and with the hero's help, and the help's name. The odds show
    the least total the dice can deal that reaches each slaying amount, so the row for
    `need` is the first at or above it; none means the dice cannot reach it."""
    rolled, helped, helper = damage_rows(odds)
    above = [t for t in rolled if t >= need]
    if not above:
        return 0.0, 0.0, helper
    row = min(above)
    return rolled[row], helped.get(row, rolled[row]), helper


def chance_words(p: float, helped: float, helper: str) -> str:
    """'58%', or with the hero's help where it adds to it: '58% (83% with boost)'."""
    if helper and helped > p:
        return f"{p:.0%} ({helped:.0%} {helper})"
    return f"{p:.0%}"


def success_words(odds: dict[str, float]) -> str:
    """A one-die roll's chance as the odds show it: '50% (75% with boost)'."""
    p = odds.get("success", 0.0)
    helped, helper = p, ""
    for name, q in odds.items():
        if name != "success":
            helped, helper = q, name
    return chance_words(p, helped, helper)


class Reasons:
    """The tutor's line for the choices of one decision: what `Plan` weighs, in words.

    Every figure is the Plan's own (what a kill is worth, who strikes where, a weapon's
    damage) or the game's odds; nothing here reads a deck or a face-down Location."""

    def __init__(self, plan: Plan, odds: dict[str, float], actions: list[Action]) -> None:
        self.plan = plan
        self.st = plan.st
        self.seat = plan.seat
        self.odds = odds
        self.actions = actions
        """The decision's legal actions: the others a choice is weighed against."""

    def line(self, action: Action) -> str:
        top = self.st.stack[-1]
        kind = action.kind
        if top.kind == "turn":
            return self.turn_line(action)
        if kind == "hit":
            return self.hit_line(top.args, int(action.args[0]))
        if kind == "wound":
            return self.wound_line(top.args, index_of(action.args[0]))
        if kind == "boost":
            return self.boost_line(top.args, int(action.args[0]))
        if kind == "reroll":
            return self.reroll_line(top.args)
        if kind == "equip":
            return self.arms_words([int(w) for w in action.args])
        if kind == "weapon":
            return self.arms_words([int(action.args[0])])
        if kind == "hero":
            return self.hero_line(int(action.args[0]))
        if kind == "enter":
            return self.enter_line(index_of(action.args[0]))
        if kind == "target":
            return self.target_line(top.args, action)
        if kind == "push":
            far = self.plan.distance_to_heroes(index_of(action.args[0]))
            return f"{_plural(far, 'Location')} from the nearest hero"
        if kind == "step":
            return self.there(index_of(action.args[0]), "")
        return ""  # trading, letting a roll stand, finishing a walk: the label says it

    def turn_line(self, action: Action) -> str:
        kind = action.kind
        if kind == "attack":
            return self.attack_line(index_of(action.args[0]))
        if kind == "move":
            return self.there(index_of(action.args[0]), f"{self.grab_words()}; ")
        if kind == "pickup":
            return self.pickup_line(int(action.args[0]))
        if kind == "loot":
            return self.loot_line()
        if kind == "rescue":
            damsel = self.damsel_words(int(action.args[0]))
            return f"{success_words(self.odds)} to rescue her; {damsel}"
        if kind == "key":
            return f"{success_words(self.odds)} to open the Locked Door: on to the next level"
        if kind == "drop":
            return self.drop_line(int(action.args[0]))
        if kind in ("use", "cast", "ability"):
            return self.card_line(action)
        return ""

    # -- attacks and kills ------------------------------------------------------------------

    def attack_line(self, loc: int) -> str:
        """The kill the attack most likely brings (its worth times its chance, as the Plan
        counts it) and what that kill spares the heroes."""
        plan = self.plan
        targets = plan.ranked(hit_targets(self.st, loc, self.seat))
        if not targets:
            return ""
        chances = {c: slay_chances(self.odds, plan.need(c)) for c in targets}
        best = max(targets, key=lambda c: plan.kill_value(c) * chances[c][1])
        p, helped, helper = chances[best]
        name, need = card_name(self.st, best), plan.need(best)
        if helped <= 0:
            return f"no kill: {name} has {need} health, more than these dice can deal"
        said = f"{chance_words(p, helped, helper)} to {self.verb(best)} {name}"
        line = f"{said}: {self.kill_words(best)}"
        # A long name, the help and a blast together: the figure goes, the words stay.
        return line if len(line) <= LINE else f"{said}: {self.kill_words(best, brief=True)}"

    def verb(self, card: int) -> str:
        kind = self.st.card_kind[card]
        if kind == "boss" and self.plan.hearts:
            return "stun"
        return "slay" if kind in FIGHTERS else "destroy"

    def kill_words(self, card: int, brief: bool = False) -> str:
        """What the Plan counts a kill worth: the damage the Monster would deal (this
        Monster phase above all), a Heart, the Portal, a Rune, the Boss (the game).
        `brief`: without the figure."""
        st, plan = self.st, self.plan
        kind = st.card_kind[card]
        if kind == "monster":
            threat = "" if brief else f", then ~{plan.threat(card):.1f} damage an attack"
            if card in st.stunned:
                words = f"stunned now{threat}"
            elif plan.imminent(card) > 0:
                figure = "" if brief else f" (~{plan.threat(card):.1f} damage)"
                words = f"it strikes this Monster phase{figure}"
            else:
                words = f"out of reach this turn{threat}"
            if plan.blast(card) > 0:
                words += "; it explodes" if brief else "; it explodes on the heroes there"
            return words
        if kind == "boss":
            if plan.hearts == 0:
                return "slaying the Boss wins the game"
            return f"{_plural(plan.hearts, 'Dungeon Heart')} still guard the Boss"
        if kind == "heart":
            return "one Dungeon Heart fewer guarding the Boss"
        if kind == "portal":
            return "no more Monsters through the Dark Portal"
        if kind == "rune":
            bonus_of = st.content.specials.rune_bonus
            return f"every Monster's attack dice lose the Rune's +{bonus_of}"
        return ""

    def hit_line(self, args: tuple[Any, ...], card: int) -> str:
        """A hit given: the kill it completes, or how far it leaves the target short."""
        hits, given = args[1], args[2]
        total = hits[0] + sum(damage for c, damage in given if c == card)
        need = self.plan.need(card)
        if total >= need:
            return f"{self.verb(card)}s it: {self.kill_words(card)}"
        if len(hits) > 1:
            more = _plural(len(hits) - 1, "more hit")
            return f"{need - total} short of the kill, with {more} to give"
        return ""

    # -- rolls ------------------------------------------------------------------------------

    def roll_prize(self, what: str, target: int) -> str:
        if what == "loot":
            return "a Loot card"
        if what == "rescue":
            return "the Damsel saved"
        if what == "key":
            return "the Locked Door open"
        if what == "spell":
            return "the spell cast"
        return ""

    def boost_line(self, args: tuple[Any, ...], die: int) -> str:
        """Mighty Boost on one die: what the roll comes to with it, against the action."""
        what, target, dice = args
        value, need, damage, extra = dice[die]
        lifted = (*dice[:die], (value + 1, need, damage, extra), *dice[die + 1 :])
        if value + 1 < need:
            return ""  # the label says how many more it takes
        if what == "attack":
            now = self.plan.roll_value(what, target, dice)
            if self.plan.roll_value(what, target, lifted) > now:
                return "the hit completes a kill, for one action"
            return "the hit completes no kill: the action is worth more"
        if all(d[0] >= d[1] for d in lifted):
            return f"the roll succeeds: {self.roll_prize(what, target)}, for one action"
        return ""

    def reroll_line(self, args: tuple[Any, ...]) -> str:
        what, target = args[0], args[1]
        if what == "attack":
            return self.attack_line(target)
        prize = self.roll_prize(what, target)
        return f"{success_words(self.odds)} on the new roll: {prize}" if prize else ""

    def loot_line(self) -> str:
        st = self.st
        if not st.loot_deck:
            return "the Loot deck is empty: nothing to draw"
        if overburdened(st, self.seat):
            return "you are Overburdened already: a card drawn is one more to drop"
        left = _plural(len(st.loot_deck), "card")
        return f"{success_words(self.odds)} to draw a Loot card; {left} left in the deck"

    def damsel_words(self, damsel: int) -> str:
        st = self.st
        left = st.content.specials.damsel_depth - st.depth.get(damsel, 0)
        if left <= 1:
            return "one step from the skull: lost this End phase, and the game with her"
        return f"{left} steps from the skull"

    # -- cards --------------------------------------------------------------------------------

    def card_line(self, action: Action) -> str:
        """A card used, a spell cast, the hero's ability: what its effects come to now."""
        st = self.st
        source = ABILITY if action.kind == "ability" else int(action.args[0])
        words = self.effects_words(card_effects(st, self.seat, source))
        if action.kind == "cast":
            return f"{success_words(self.odds)} to cast it: {words}"
        if source != ABILITY and st.content.item[st.card_ref[source]].consumed:
            words += "; then discarded"
        return words

    def effects_words(self, effects: list[Effect]) -> str:
        """The effects that count, as `Plan.effects_value` weighs them, the first two."""
        said = [w for w in (self.effect_words(e) for e in effects) if w]
        return ", ".join(said[:2]) if said else "nothing it helps with now"

    def effect_words(self, effect: Effect) -> str:
        st, plan, seat = self.st, self.plan, self.seat
        name = effect.name
        reach = max(hero_range(st, seat), 0)
        if name == "heal":
            return self.heal_words(effect)
        if name in ("damage", "stun", "block", "push"):
            monsters = plan.monsters_within(0 if effect.target.endswith("here") else reach)
            if not monsters:
                return "no Monster in reach"
            if name == "damage":
                slain = [c for c in monsters if effect.amount >= plan.need(c)]
                if not slain:
                    return "too little damage to slay a Monster in reach"
                return f"slays {card_name(st, max(slain, key=plan.kill_value))}"
            awake = [c for c in monsters if c not in st.stunned]
            if name == "stun" and not awake:
                return "every Monster in reach is stunned already"
            if name == "stun" and effect.target.startswith("every"):
                return f"stuns {_plural(len(awake), 'Monster')}"
            if name == "stun":
                return f"stuns {card_name(st, max(awake, key=plan.threat))}"
            return f"holds back {card_name(st, max(monsters, key=plan.threat))}"
        if name == "extra_action":
            return f"+{_plural(effect.amount, 'action')}"
        if name == "draw_loot":
            return f"draws {_plural(effect.amount, 'Loot card')}"
        if name == "free_loot":
            if "success" in self.odds:
                return f"a Loot roll at {success_words(self.odds)}"
            return "a free Loot roll"
        if name in ("armor", "evade"):
            if active_monster_at(st, st.position[seat]):
                return "a guard against the Monsters here"
            return "no Monster here to guard against"
        if name in ("damage_plus", "boost", "range_plus"):
            if plan.monsters_within(reach + 1):
                return "help for an attack on a Monster near"
            return "no Monster near to attack"
        return ""

    def heal_words(self, effect: Effect) -> str:
        st, seat = self.st, self.seat
        pos = st.position[seat]
        hurt = [s for s in range(st.players) if st.health[s] < HERO_HEALTH]
        if effect.target in ("hero_here", "every_hero_here"):
            hurt = [s for s in hurt if st.position[s] == pos]
        elif effect.target == "self":
            hurt = [s for s in hurt if s == seat]
        if not hurt:
            return "nobody hurt to heal"
        s = min(hurt, key=lambda h: st.health[h])
        return f"heals {who(st, s)} ({st.health[s]} health)"

    def pickup_line(self, card: int) -> str:
        st, plan, seat = self.st, self.plan, self.seat
        kind = st.card_kind[card]
        if kind == "key":
            return "the Dungeon Key: it opens the Locked Door, the way on"
        if kind == "weapon":
            now = plan.arms(st.equipped[seat])
            best = max(plan.hands_with(card), key=lambda combo: plan.arms(list(combo)))
            if plan.arms(list(best)) > now:
                other = [card_name(st, w) for w in best if w != card]
                held = f"held with {other[0]}" if other else "held"
                was = self.arms_words(st.equipped[seat])
                return f"{held}: {self.arms_words(list(best))} (now {was})"
            if plan.full(seat):
                return "no better than what you hold, and one card too many to carry"
            return "no better than what you hold: a spare"
        if plan.full(seat, kind):
            return "one card too many: you would be Overburdened"
        return f"a {kind} for a turn that needs it"

    def arms_words(self, weapons: list[int]) -> str:
        """'1.3 damage an attack, range 1': what weapons in hand deal on average (the
        dice's chance, not the hero's bonuses), as `Plan.arms` weighs them."""
        st = self.st
        if not weapons:
            return "nothing in hand"
        if sum(weapon_of(st, w).hands for w in weapons) > 2:
            return "more than two hands"
        damage = sum(weapon_damage(weapon_of(st, w)) for w in weapons)
        reach = max(weapon_of(st, w).range for w in weapons)
        return f"{damage:.1f} damage an attack, range {reach}"

    def drop_line(self, card: int) -> str:
        st = self.st
        if st.card_kind[card] == "key":
            return "the Dungeon Key is the way on: keep it"
        if not overburdened(st, self.seat):
            return "you are not Overburdened: nothing to gain"
        if card in st.equipped[self.seat]:
            return "a weapon in your hands: a carried card goes first"
        return "you are Overburdened: this lightens the load"

    # -- heroes, wounds and places -------------------------------------------------------------

    def wound_line(self, args: tuple[Any, ...], taker: int) -> str:
        """The hit's cost to this hero against the others who could take it: each point
        dearer as health runs low (`point_cost`)."""
        st, plan = self.st, self.plan
        loc, hits, absorbed = args[0], args[1], args[3]
        takers = [s for s in range(st.players) if st.position[s] == loc]

        def cost(s: int) -> float:
            return wound_cost(st.health[s], plan.wound_damage(s, hits[0], absorbed[s]))

        damage = plan.wound_damage(taker, hits[0], absorbed[taker])
        left = max(0, st.health[taker] - damage)
        if damage == 0:
            return "armor ignores all of it"
        if left == 0:
            return "the hero falls: the heroes lose"
        cheapest = cost(taker) <= min(cost(s) for s in takers)
        then = "; the hero best able to take it" if cheapest else ""
        return f"{damage} damage, {left} health left{then}"

    def hero_line(self, hero: int) -> str:
        st, plan = self.st, self.plan
        left = [h for h in range(len(st.content.hero)) if h not in st.hero]
        taste = plan.hero_taste(hero)
        rank = 1 + sum(1 for h in left if plan.hero_taste(h) > taste)
        return f"the bots' games rank it {_ordinal(rank)} of the {len(left)} heroes left"

    def enter_line(self, loc: int) -> str:
        middle = (len(self.st.row) - 1) / 2
        # With an even row the middle is two Locations: count steps to the nearer.
        off = ceil(abs(loc - middle) - 0.5)
        if off <= 0:
            return "the middle of the row: the fewest steps to every Location"
        return f"{_plural(off, 'step')} off the middle of the row: farther from its far end"

    def target_line(self, args: tuple[Any, ...], action: Action) -> str:
        """A card's target, as `Plan.target` weighs it: a place to stand, the most hurt
        hero, the Monsters that hit hardest, the kill a card's damage makes."""
        st, plan = self.st, self.plan
        effect = card_effects(st, self.seat, args[0])[args[1]]
        what = chooses(effect)
        if effect.name in ("teleport", "free_move") or effect.target == "location_in_range":
            return self.there(index_of(action.args[0]), "")
        if what == "hero":
            s = index_of(action.args[0])
            least = min(st.health[index_of(a.args[0])] for a in self.actions)
            if st.health[s] <= least:
                return f"the most hurt of the heroes it may choose ({st.health[s]} health)"
            return f"{st.health[s]} health: another hero is more hurt"
        if what == "location":
            loc = index_of(action.args[0])
            monsters = [c for c in st.here[loc] if st.card_kind[c] == "monster"]
            if not monsters:
                return "no Monster there"
            threat = sum(plan.threat(c) for c in monsters)
            return f"{_plural(len(monsters), 'Monster')} there, ~{threat:.1f} damage an attack"
        card = int(action.args[0])
        if effect.name == "damage":
            if effect.amount >= plan.need(card):
                return f"slays it: {self.kill_words(card)}"
            return ""  # the label says it is unharmed
        if effect.name == "stun" and card in st.stunned:
            return "stunned already"
        return f"it deals ~{plan.threat(card):.1f} damage an attack"

    def grab_words(self) -> str:
        """A move's Grab Attacks, from the odds: the chance to be hurt and to fall."""
        if not self.odds:
            return "no Grab Attacks"
        hurt = 1.0 - self.odds.get("unhurt", 0.0)
        if hurt <= 0:
            return "harmless Grab Attacks"
        fall = self.odds.get("fall", 0.0)
        words = f"Grab Attacks: {hurt:.0%} to hurt you"
        return words + (f", {fall:.0%} to fell you" if fall else "")

    def there(self, loc: int, before: str) -> str:
        """`before`, then what the hero would find at `loc`, as `Plan.standing` weighs it:
        what it could do there next (as much as the line has room for), and the Monsters
        that would strike it there."""
        st, seat = self.st, self.seat
        keep = st.position[seat]
        st.position[seat] = loc
        try:
            aims = self.aims(loc)
            strikers = self.plan.strikers(loc)
        finally:
            st.position[seat] = keep
        if not strikers:
            danger = "no Monster strikes you"
        elif len(strikers) == 1:
            danger = f"{card_name(st, strikers[0])} strikes you"
        else:
            danger = f"{len(strikers)} Monsters strike you"
        for told in range(min(len(aims), 2), 0, -1):
            line = f"{before}there: {_and(aims[:told])}; {danger}"
            if len(line) <= LINE:
                return line
        return f"{before}there: {danger}"

    def aims(self, loc: int) -> list[str]:
        """What the hero could do at `loc` (where it stands now, in the Plan's reading):
        the best kill in reach, a Damsel, the Key or Loot to pick up, the Locked Door."""
        st, plan, seat = self.st, self.plan, self.seat
        out: list[str] = []
        reach = hero_range(st, seat)
        targets = [
            c
            for t in range(len(st.row))
            if abs(t - loc) <= reach and plan.attack_value(t, 0) > 0
            for c in hit_targets(st, t, seat)
        ]
        if targets:
            out.append(f"{card_name(st, plan.ranked(targets)[0])} in reach")
        if not active_monster_at(st, loc):
            kinds = {st.card_kind[c] for c in st.here[loc]}
            if "damsel" in kinds:
                out.append("a Damsel to rescue")
            if "key" in kinds:
                out.append("the Dungeon Key")
            elif kinds & {"weapon", "item", "spell"}:
                out.append("Loot to pick up")
        door = st.revealed[loc] and st.content.location[st.row[loc]].locked_door
        if door and plan.holds_key() and not st.depth:
            out.append("the Locked Door to open")
        return out
