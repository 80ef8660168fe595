"""The Here to Slay heuristic bot: card values read from the pack's own steps.

It plays to win by the two roads of the rulebook. It ATTACKs a Monster when the exact
chance of slaying it is worth the action points and the punishment, plays Heroes (more
for a class its Party lacks or a Monster asks for), rolls for the Heroes whose effects are
worth their chance, puts Cursed Items on the leading opponent's Heroes, and draws when
nothing better is left. In a Modifier window it plays the smallest Modifier that turns a
roll that matters its way (its own rolls up, the leader's down); it CHALLENGEs the plays
that would help an opponent most.

A card's worth is computed from its effect's steps (DRAW is a card, DESTROY a Hero is a
Hero, ...), never from its name, so a designer's new card is valued by what it does. The
bot reads only its seat's view, the legal actions with their exact odds, and the pack
(public: every player may read every card).

The tutor's line of why for a choice (reasons.py) puts this reading in words.
"""

from __future__ import annotations

from typing import Any

from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet
from tavernkeep.games.here_to_slay.cards import (
    CHALLENGE,
    CURSED,
    HERO,
    ITEM,
    MAGIC,
    MODIFIER,
    Catalog,
)
from tavernkeep.games.here_to_slay.content import Step
from tavernkeep.games.here_to_slay.rolls import attack_chances
from tavernkeep.games.here_to_slay.table import ROLL, USE, position_of

CARD = 1.0
"""A card in hand: the unit of value."""
HERO_IN_PARTY = 3.0
NEW_CLASS = 2.0
"""A class the Party lacks: one step of six to the full-Party win."""
SLAY = 14.0
"""A slain Monster: a third of a win, and its skill."""
PUNISHED_HERO = 3.5
"""A Hero sacrificed to a Monster's punishment."""
MODIFIER_SPENT = 1.3
"""A Modifier card played to save a roll."""
SPOIL = 1.5
"""Least stake worth a Modifier or a Challenge card."""

LEADER_TASTE = {
    "on_attack_roll": 3.0,
    "on_hero_roll": 2.5,
    "action": 2.0,
    "on_play_modifier": 1.8,
    "on_challenge_roll": 1.5,
    "on_play_magic": 1.5,
}
"""How much a Party Leader's skill helps this bot's way of playing, by its trigger."""


class HeuristicBot:
    name = "bot:heuristic"

    def choose(self, info: InfoSet) -> Action:
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        cat: Catalog = info.content()
        # The choices that need no view are made before one is built (a view is most of
        # a decision's time): a Party Leader, and a free roll or a skill's "use it?".
        first = actions[0]
        if first.kind == "leader":
            return max(
                actions,
                key=lambda a: LEADER_TASTE.get(
                    cat.leaders[position_of(int(a.args[0]))].skill.trigger, 1.0
                ),
            )
        if first in (ROLL, USE):
            # free_roll, may, may_step: the roll or the skill; saying no only wastes it.
            return first
        view = info.observe()
        reading = Reading(view, cat, info.seat)
        kind = view["decision"]["kind"]
        if kind == "turn":
            return reading.turn(actions, info)
        if kind == "modifier":
            return reading.modify(actions)
        if kind == "challenge":
            return reading.challenge(actions)
        if kind in ("pick", "aim"):
            return reading.pick(actions)
        if kind == "target":
            return reading.target(actions)
        if kind == "play_now":
            plays = [a for a in actions if a.kind == "play"]
            return max(plays, key=reading.play_value) if plays else actions[0]
        return actions[0]


class Reading:
    """One decision's view, read for the bot: who leads, what each card is worth."""

    def __init__(self, view: dict[str, Any], cat: Catalog, me: int) -> None:
        self.view = view
        self.cat = cat
        self.me = me
        self.seats = view["table"]
        self.n = view["players"]
        self.hand: list[dict[str, Any]] = self.seats[me]["hand"] or []

    # -- who is where -------------------------------------------------------------

    def classes(self, seat: int) -> set[str]:
        s = self.seats[seat]
        found = {h["class"] for h in s["party"]}
        if s["leader"]:
            found.add(s["leader"]["class"])
        return found

    def threat(self, seat: int) -> float:
        """How near a seat is to winning: slain Monsters weigh most."""
        s = self.seats[seat]
        return 3.0 * len(s["slain"]) + len(self.classes(seat)) + 0.3 * len(s["party"])

    def leader(self) -> int:
        """The opponent nearest to winning."""
        others = [s for s in range(self.n) if s != self.me]
        return max(others, key=self.threat)

    def owner(self, hero: int) -> int:
        for s in self.seats:
            if any(h["id"] == hero for h in s["party"]):
                return int(s["seat"])
        return -1

    def hero_worth(self, seat: int, hero: dict[str, Any]) -> float:
        """What a Hero is worth to its owner: its place, its class if it is the only one,
        its Item."""
        worth = HERO_IN_PARTY
        same = sum(1 for h in self.seats[seat]["party"] if h["class"] == hero["class"])
        leader = self.seats[seat]["leader"]
        if same == 1 and not (leader and leader["class"] == hero["class"]):
            worth += NEW_CLASS
        item = hero.get("item")
        if item is not None:
            worth += -1.5 if item["kind"] == CURSED else 1.5
        return worth

    # -- what effects are worth ---------------------------------------------------

    def effect_value(self, eid: int) -> float:
        if eid < 0:
            return 0.0
        total = 0.0
        for step in self.cat.effects[eid]:
            if step.cost and not self.can_pay(step):
                break  # the rest of the effect would not be done
            total += self.step_value(step)
        return total

    def can_pay(self, step: Step) -> bool:
        if step.verb == "sacrifice":
            return bool(self.seats[self.me]["party"])
        return any(_matches(c["kind"], step.kind) for c in self.hand)

    def step_value(self, step: Step) -> float:
        opponents = [s for s in range(self.n) if s != self.me]
        heroes_there = any(self.seats[s]["party"] for s in opponents)
        if step.named is not None:
            return {
                "plus_one_rolls_this_turn": 0.6,
                "next_attack_plus_two": 1.5 if self.view["action_points"] >= 2 else 0.2,
                "ward_hero": 0.6,
                "replace_monster": 0.4,
                "look_and_take": 1.6,
                "two_more_action_points": 2.2,
                "encore": 1.8,
                "play_at_once": 0.8,
            }.get(step.named, 0.0)
        verb, count = step.verb, step.count
        mine = step.who == "self"
        if verb == "draw":
            # A chosen player's DRAW is this bot's own: it chooses itself (see `target`).
            return count * CARD if step.who in ("self", "chosen_player") else 0.0
        if verb == "discard":
            if mine:
                return -0.8 * count
            hands = sum(1 for s in opponents if self.seats[s]["hand_size"])
            return 0.5 * count * (hands if step.who == "each_opponent" else min(hands, 1))
        if verb == "sacrifice":
            if mine:
                return -HERO_IN_PARTY if self.seats[self.me]["party"] else 0.0
            return 1.2 * count
        if verb in ("destroy", "return"):
            return (3.0 if verb == "destroy" else 2.0) * count if heroes_there else 0.0
        if verb == "steal":
            if step.kind == HERO:
                return 5.5 * count if heroes_there else 0.0
            return 2.0 if self.seats[self.me]["party"] else 0.0
        if verb == "pull":
            return 1.1 * count
        if verb == "search":
            found = [c for c in self.view["discard"] if _matches(c["kind"], step.kind)]
            return 1.3 * min(count, len(found))
        if verb in ("attack", "slay"):
            # Worth a share of a slain Monster when one is there to be attacked.
            return 0.4 * self.slay_value() if self.view["monsters"] else 0.0
        return 0.0

    def slay_value(self) -> float:
        return SLAY * (4.0 if len(self.seats[self.me]["slain"]) == 2 else 1.0)

    def card_value(self, card: dict[str, Any]) -> float:
        """A card in this bot's hand: what playing it could bring."""
        kind = card["kind"]
        c = self.cat.cards[card["id"]]
        if kind == HERO:
            new = c.hero_class not in self.classes(self.me)
            return 2.0 + (NEW_CLASS if new else 0.0)
        if kind == MAGIC:
            return max(0.5, self.effect_value(c.effect))
        if kind == MODIFIER:
            return 1.2 + 0.1 * max(abs(int(v)) for v in c.options)
        if kind == CHALLENGE:
            return 1.1
        return 1.4  # Items and Cursed Items

    # -- a turn -------------------------------------------------------------------

    def play_value(self, action: Action) -> float:
        card = int(action.args[0])
        c = self.cat.cards[card]
        if c.kind == HERO:
            value = HERO_IN_PARTY + 0.5
            if c.hero_class not in self.classes(self.me):
                value += NEW_CLASS * (1.5 if len(self.classes(self.me)) >= 4 else 1.0)
            # The free roll that comes with it.
            value += 0.4 * max(0.0, self.effect_value(c.effect))
            return value
        if c.kind == MAGIC:
            # The Ember Sage draws a card for each Magic card played.
            drawn = CARD if self.leader_trigger(self.me) == "on_play_magic" else 0.0
            return self.effect_value(c.effect) + drawn
        hero = int(action.args[1])
        owner = self.owner(hero)
        target = next(h for h in self.seats[owner]["party"] if h["id"] == hero)
        if c.kind == CURSED:
            if owner == self.me:
                return -3.0
            # Best on the leader's Heroes, and on a Hero that is its Party's only one
            # of its class.
            others = [h["class"] for h in self.seats[owner]["party"] if h is not target]
            alone = 0.5 if target["class"] not in others else 0.0
            return 1.2 + 0.3 * self.threat(owner) / max(1.0, self.threat(self.me)) + alone
        value = 1.5
        if c.counts_as:
            if c.counts_as not in self.classes(self.me):
                same = sum(1 for h in self.seats[self.me]["party"] if h["class"] == target["class"])
                value += NEW_CLASS if same > 1 else 0.3
            else:
                value = 0.2
        elif c.skill is not None and c.skill.bonus:
            value += 0.15 * target["roll"]  # a bonus helps most where the roll is hard
        return value

    def leader_trigger(self, seat: int) -> str:
        leader = self.seats[seat]["leader"]
        return self.cat.leaders[leader["id"]].skill.trigger if leader else ""

    def turn(self, actions: list[Action], info: InfoSet) -> Action:
        """Plan the action points left: the best one-point actions, or an ATTACK (two
        points) with the best of the rest. Comparing per point would spend the second
        point of two on a card and never attack."""
        ap = self.view["action_points"]
        singles: list[tuple[float, Action]] = []
        attacks: list[tuple[float, Action]] = []
        redraw: Action | None = None
        draw_value = 0.0
        for action in actions:
            kind = action.kind
            if kind == "draw":
                draw_value = CARD + (0.3 if len(self.hand) < 3 else 0.0)
                singles.append((draw_value, action))
            elif kind == "play":
                singles.append((self.play_value(action), action))
            elif kind == "roll":
                hero = int(action.args[0])
                chance = info.odds(action).get("success", 0.0)
                singles.append((chance * self.effect_value(self.cat.cards[hero].effect), action))
            elif kind == "attack":
                attacks.append((self.attack_value(int(action.args[0])), action))
            elif kind == "redraw":
                redraw = action
            elif kind == "skill":
                singles.append((1.2, action))
        singles.sort(key=lambda va: va[0], reverse=True)

        def best_singles(points: int) -> float:
            # Drawing can be done again and again; every other action once.
            values = [v for v, _ in singles[:points] if v > 0]
            return sum(values) + max(0, points - len(values)) * draw_value

        plan = best_singles(ap)
        if attacks and ap >= 2:
            value, attack = max(attacks, key=lambda va: va[0])
            if value > 0 and value + best_singles(ap - 2) > plan:
                # A roll that helps the ATTACK comes first, when points allow it.
                for v, action in singles:
                    if ap >= 3 and action.kind == "roll" and v > 0 and self.boosts(action):
                        return action
                return attack
        if redraw is not None:
            fresh = 5 * CARD - sum(self.card_value(c) for c in self.hand) - 2.0
            if fresh > plan:
                return redraw
        if singles and singles[0][0] > 0:
            return singles[0][1]
        return next(a for a in actions if a.kind == "end")

    def attack_value(self, monster: int) -> float:
        """The slay, less the punishment, counting the best Modifier in hand: this bot
        will play it if the roll needs it (see `modify`), at the price of the card."""
        m = self.cat.monsters[monster]
        me = self.seats[self.me]
        bonus = int(me["attack_bonus"])
        plus = self.best_plus()
        slay, punish = attack_chances(m, bonus)
        if plus:
            helped, _ = attack_chances(m, bonus + plus)
            # The share of rolls the Modifier saves costs the card; those it turns into a
            # slay no longer punish.
            saved = helped - slay
            slay, punish = helped, punish * (1.0 - saved)
            value = slay * self.slay_value() - saved * MODIFIER_SPENT
        else:
            value = slay * self.slay_value()
        sacrifice = any(step.verb == "sacrifice" for step in m.punishment)
        if sacrifice:
            # The Hero this bot would give up: its least valuable one.
            penalty = min((self.hero_worth(self.me, h) for h in me["party"]), default=PUNISHED_HERO)
        else:
            penalty = 1.6
        return value - punish * penalty

    def best_plus(self) -> int:
        """The biggest amount one Modifier in hand adds (with the Stone Warden's +1)."""
        amounts = [
            v for c in self.hand if c["kind"] == MODIFIER for v in self.cat.cards[c["id"]].options
        ]
        best = max((v for v in amounts if v > 0), default=0)
        leader = self.seats[self.me]["leader"]
        if best and self.leader_trigger(self.me) == "on_play_modifier":
            best += max(self.cat.leaders[leader["id"]].skill.bonus or (0,))
        return best

    def boosts(self, action: Action) -> bool:
        effect = self.cat.cards[int(action.args[0])].effect
        return any(
            s.named in ("next_attack_plus_two", "plus_one_rolls_this_turn")
            for s in self.cat.effects[effect]
        )

    # -- reaction windows ---------------------------------------------------------

    def stake(self, roll: dict[str, Any]) -> tuple[int, float, str]:
        """For one open roll: the total it must reach (or stay under), how much its
        outcome matters to this bot (positive: it wants the roll to succeed), and the
        direction success lies in ("up" or "down")."""
        purpose = roll.get("for")
        roller = roll["seat"]
        if purpose == "hero":
            hero = roll["card"]["id"]
            value = self.effect_value(self.cat.cards[hero].effect)
            if roller == self.me:
                return roll["need"], value, "up"
            worry = value * (1.0 + 0.2 * self.threat(roller) / max(1.0, self.threat(self.me)))
            return roll["need"], -worry, "up"
        if purpose == "attack":
            m = self.cat.monsters[roll["monster"]["id"]]
            slay = SLAY * (3.0 if len(self.seats[roller]["slain"]) == 2 else 1.0)
            want = slay if roller == self.me else -slay * 0.6
            if m.inverted:
                return m.slay_roll, want, "down"
            return m.slay_roll, want, "up"
        return 0, 0.0, "up"

    def modify(self, actions: list[Action]) -> Action:
        rolls = self.view["rolls"]
        open_count = int(self.view["decision"]["rolls"])
        first = len(rolls) - open_count
        window = rolls[first:]
        best: Action | None = None
        best_key = (0.0, 0.0)
        for action in actions:
            if action.kind != "modify":
                continue
            amount = int(action.args[1]) + (int(action.args[3]) if len(action.args) > 3 else 0)
            # The action names the roll by its number on the table; the window's own
            # list counts from its first open roll.
            target = position_of(int(action.args[2])) - first
            gain = self.modifier_gain(window, target, amount)
            if gain >= SPOIL:
                # The biggest gain; among equals, the smallest Modifier spent.
                key = (gain, -abs(amount))
                if key > best_key:
                    best, best_key = action, key
        return best if best is not None else next(a for a in actions if a.kind == "pass")

    def modifier_gain(self, window: list[dict[str, Any]], target: int, amount: int) -> float:
        """What changing roll `target` of the window by `amount` is worth to this bot."""
        roll = window[target]
        if roll.get("for") in ("challenge", "defence"):
            return self.challenge_gain(window, target, amount)
        need, stake, direction = self.stake(roll)
        if not stake:
            return 0.0
        total = roll["total"]

        def succeeds(t: int) -> bool:
            return t >= need if direction == "up" else t <= need

        before, after = succeeds(total), succeeds(total + amount)
        if before == after:
            return 0.0
        return stake if after else -stake

    def challenge_gain(self, window: list[dict[str, Any]], target: int, amount: int) -> float:
        challenger = next(r for r in window if r.get("for") == "challenge")
        defender = next(r for r in window if r.get("for") == "defence")
        stopped_before = challenger["total"] >= defender["total"]
        c_total = challenger["total"] + (amount if window[target] is challenger else 0)
        d_total = defender["total"] + (amount if window[target] is defender else 0)
        stopped_after = c_total >= d_total
        if stopped_before == stopped_after:
            return 0.0
        card = challenger["card"]
        worth = self.played_worth(defender["seat"], card)
        if defender["seat"] == self.me:
            want_stopped = -worth
        elif challenger["seat"] == self.me:
            want_stopped = worth
        else:
            want_stopped = worth if defender["seat"] == self.leader() else 0.0
        return want_stopped if stopped_after else -want_stopped

    def played_worth(self, seat: int, card: dict[str, Any]) -> float:
        """What a card being played is worth to the seat playing it."""
        c = self.cat.cards[card["id"]]
        if c.kind == HERO:
            new = c.hero_class not in self.classes(seat)
            near = len(self.classes(seat)) >= 4
            return HERO_IN_PARTY + (NEW_CLASS * (2.0 if near else 1.0) if new else 0.0)
        if c.kind == MAGIC:
            return max(0.5, self.effect_value(c.effect)) * 1.2
        if c.kind == CURSED:
            return 2.0
        return 1.5

    def challenge(self, actions: list[Action]) -> Action:
        decision = self.view["decision"]
        player = int(decision["player"])
        card = decision["card"]
        worth = self.played_worth(player, card)
        onto = decision.get("onto")
        if onto is not None and card["kind"] == CURSED and self.owner(onto["id"]) == self.me:
            worth += 2.0
        lead = 1.0 + 0.25 * max(0.0, self.threat(player) - self.threat(self.me))
        if player == self.leader():
            lead += 0.3
        if worth * lead >= 4.0:
            return next(a for a in actions if a.kind == "challenge")
        return next(a for a in actions if a.kind == "pass")

    # -- choosing cards and players -----------------------------------------------

    def pick(self, actions: list[Action]) -> Action:
        decision = self.view["decision"]
        verb = decision["verb"]
        if verb in ("replace", "attack", "slay"):
            return self.pick_monster(actions, verb)
        options = [a for a in actions if a.kind != "skip"]
        if not options:
            return actions[0]
        return max(options, key=lambda a: self.pick_value(verb, a))

    def pick_value(self, verb: str, action: Action) -> float:
        card = int(action.args[0])
        if verb == "discard":
            mine = next((c for c in self.hand if c["id"] == card), None)
            return -self.card_value(mine) if mine else 0.0
        if verb in ("search", "take"):
            return self.card_value({"id": card, "kind": self.cat.cards[card].kind})
        if verb == "sacrifice":
            return -self.worth_in_party(card)
        if verb in ("ward", "encore"):
            if verb == "encore":
                return self.effect_value(self.cat.cards[card].effect)
            return self.worth_in_party(card)
        # destroy, steal, return: what it costs its owner, and the leader most.
        owner = self.owner(card)
        value = self.worth_in_party(card) * (1.3 if owner == self.leader() else 1.0)
        if action.kind == "steal":
            value += 2.0
        if len(action.args) > 1:  # a stolen Item: onto the Hero it helps most
            hero = int(action.args[1])
            value += 0.1 * self.cat.cards[hero].roll
        return value

    def worth_in_party(self, card: int) -> float:
        kind = self.cat.cards[card].kind
        if kind == HERO:
            owner = self.owner(card)
            if owner < 0:
                return 0.0
            hero = next(h for h in self.seats[owner]["party"] if h["id"] == card)
            return self.hero_worth(owner, hero)
        return 1.5 if kind == ITEM else -1.0

    def pick_monster(self, actions: list[Action], verb: str) -> Action:
        options = [a for a in actions if a.kind == "pick"]
        if not options:
            return actions[0]
        monsters = self.cat.monsters

        def ease(a: Action) -> float:
            m = monsters[int(a.args[0])]
            return float(-m.slay_roll if not m.inverted else m.slay_roll - 14)

        if verb == "replace":
            # Away with the Monster this bot is least able to slay.
            return min(options, key=ease)
        return max(options, key=ease)

    def target(self, actions: list[Action]) -> Action:
        seats = [position_of(int(a.args[0])) for a in actions]
        if self.me in seats and self.helps_chosen():
            return actions[seats.index(self.me)]
        others = [s for s in seats if s != self.me]

        def worth(seat: int) -> float:
            s = self.seats[seat]
            return self.threat(seat) + 0.1 * int(s["hand_size"]) + 0.5 * bool(s["party"])

        chosen = max(others, key=worth)
        return actions[seats.index(chosen)]

    def helps_chosen(self) -> bool:
        """Whether the effect waiting for a player does the chosen player good (a DRAW),
        so this bot chooses itself."""
        eid = int(self.view["decision"].get("effect", -1))
        if eid < 0:
            return False
        return any(s.verb == "draw" and s.who == "chosen_player" for s in self.cat.effects[eid])

def _matches(kind: str, what: str) -> bool:
    return what == "card" or what == kind or (what == "any_item" and kind in (ITEM, CURSED))
