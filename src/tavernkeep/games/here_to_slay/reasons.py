"""Here to Slay's tutor's line of why (agents/advice.py): what the heuristic weighs in a
choice, in words: a roll's chance (the rules' own odds) and what it brings, what a card or
a target is worth to whom; "" where the odds say it all. It reads only the seat's view,
the odds and the pack, as the bot does (heuristic.py's `Reading`, which `Reasons` puts
in words).
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
)
from tavernkeep.games.here_to_slay.content import Step
from tavernkeep.games.here_to_slay.heuristic import (
    Reading,
)
from tavernkeep.games.here_to_slay.rolls import attack_chances
from tavernkeep.games.here_to_slay.table import player, position_of

LEADER_WORDS = {
    "on_attack_roll": "helps every ATTACK: the road to three Monsters",
    "on_hero_roll": "helps every Hero roll",
    "action": "one more use for an action point",
    "on_play_modifier": "makes each Modifier you play count for more",
    "on_challenge_roll": "wins more Challenges, yours and against you",
    "on_play_magic": "a card back for each Magic card you play",
}
"""What a Party Leader's skill does for this bot's way of playing, in the tutor's words,
by its trigger (the reason behind `LEADER_TASTE`)."""
NAMED_WORDS = {
    "plus_one_rolls_this_turn": "+1 to your rolls this turn",
    "next_attack_plus_two": "+2 to your next ATTACK",
    "ward_hero": "guard a Hero until your next turn",
    "replace_monster": "turn up a new Monster",
    "look_and_take": "take a card from a hand you look at",
    "two_more_action_points": "2 more action points",
    "encore": "roll at once for another Hero",
    "play_at_once": "play it at once",
}
"""A named effect in a few words, short enough for a line of reason (the pack's glossary
says it in full)."""
KIND_WORDS = {
    "card": ("card", "cards"),
    HERO: ("Hero", "Heroes"),
    ITEM: ("Item", "Items"),
    CURSED: ("Cursed Item", "Cursed Items"),
    "any_item": ("Item", "Items"),
    MAGIC: ("Magic card", "Magic cards"),
    MODIFIER: ("Modifier", "Modifiers"),
    CHALLENGE: ("Challenge card", "Challenge cards"),
    "monster": ("Monster", "Monsters"),
}
WHO_WORDS = {
    "chosen_player": "a player you choose",
    "chosen_opponent": "an opponent",
    "each_opponent": "each opponent",
    "each_player": "each player",
    "challenger": "the challenger",
}
"""Whose step it is, when not the player's own: the verb then takes an S ("each opponent
DISCARDS a card")."""


def reason(info: InfoSet, action: Action) -> str:
    """What the bot weighs in a choice, as the tutor's line (agents/advice.py): a
    roll's chance (the rules' own odds) and what it brings, what a card or a target
    is worth to whom. "" where the odds say it all. Reads only the seat's view, the
    odds and the pack, as `choose` does."""
    view = info.view()
    decision = view["decision"]
    if decision is None:
        return ""
    reading = Reasons(Reading(view, info.content(), info.seat))
    return reading.reason(decision, action, info.odds(action))


class Reasons:
    """The heuristic's reading of a decision, put in words for a person."""

    def __init__(self, bot: Reading) -> None:
        self.bot = bot

    def reason(self, decision: dict[str, Any], action: Action, odds: dict[str, float]) -> str:
        kind = action.kind
        if kind == "roll":
            return self.roll_reason(decision, action, odds)
        if kind == "attack" or (kind == "pick" and decision.get("verb") == "attack"):
            return self.attack_words(int(action.args[0]), odds)
        if kind == "play":
            return self.play_words(action)
        if kind in ("draw", "redraw", "end"):
            return self.turn_words(kind)
        if kind == "modify":
            return self.modify_words(action)
        if kind == "pass" and decision["kind"] == "modifier":
            return self.window_words()
        if kind == "challenge":
            return self.challenge_words(odds)
        if kind in ("pick", "steal"):
            return _on_the_roll(odds, self.pick_words(decision, action, odds))
        if kind == "target":
            return _on_the_roll(odds, self.target_words(position_of(int(action.args[0]))))
        if kind == "leader":
            leader = self.bot.cat.leaders[position_of(int(action.args[0]))]
            return LEADER_WORDS.get(leader.skill.trigger, "")
        return ""  # skip, pass, use, a skill: the label says it all

    def effect_words(self, eid: int) -> str:
        """'DESTROY a Hero, then DRAW a card': the steps `effect_value` counts, up to a
        price the bot cannot pay (there the effect stops)."""
        if eid < 0:
            return "no effect"
        words = []
        for step in self.bot.cat.effects[eid]:
            words.append(_step_words(step))
            if step.cost and not self.bot.can_pay(step):
                words[-1] += " (you have none: it stops there)"
                break
        return ", then ".join(words)

    def roll_reason(self, decision: dict[str, Any], action: Action, odds: dict[str, float]) -> str:
        if action.args:
            return self.roll_words(int(action.args[0]), odds)
        card = decision.get("card")  # the free roll of a Hero just played
        return self.roll_words(int(card["id"]), odds, free=True) if card else ""

    def roll_words(self, hero: int, odds: dict[str, float], free: bool = False) -> str:
        """'58% to roll 7+ (+1 bonus), 92% with your +3: DRAW 2 cards': the chance, with the
        bonuses the rules add and the Modifiers in hand, and what success brings."""
        chance = odds.get("success")
        if chance is None:
            return ""
        c = self.bot.cat.cards[hero]
        mine = next((h for h in self.bot.seats[self.bot.me]["party"] if h["id"] == hero), None)
        bonus = int(mine.get("bonus") or 0) if mine is not None else 0
        text = f"{chance:.0%} to roll {c.roll}+" + (f" ({bonus:+d} bonus)" if bonus else "")
        text += _helped(odds, "with your") + (", free" if free else "")
        text += f": {self.effect_words(c.effect)}"
        if self.bot.effect_value(c.effect) <= 0:
            text += " (nothing in it for you now)"
        return text

    def prize_words(self, seat: int) -> str:
        """What a slain Monster is to `seat`: a step of three, or the win."""
        slain = len(self.bot.seats[seat]["slain"])
        whose = "your" if seat == self.bot.me else "their"
        if slain >= 2:
            return f"{whose} third: the win"
        return f"{whose} {'first' if slain == 0 else 'second'} of three"

    def attack_words(self, monster: int, odds: dict[str, float]) -> str:
        """'42% to slay it, your first of three; 28% punished: SACRIFICE a Hero'."""
        if "slay" not in odds:
            return ""
        m = self.bot.cat.monsters[monster]
        punishes = ", then ".join(_step_words(step) for step in m.punishment)
        punished = odds.get("punishment", 0.0)
        return (
            f"{odds['slay']:.0%} to slay it{_helped(odds, 'slay with your')}, "
            f"{self.prize_words(self.bot.me)}; {punished:.0%} punished: {punishes}"
        )

    def hero_words(self, seat: int, hero: dict[str, Any]) -> str:
        """'their only Fighter, with Band of Fortune': what `hero_worth` counts."""
        whose = "your" if seat == self.bot.me else "their"
        cls = hero["class"]
        same = sum(1 for h in self.bot.seats[seat]["party"] if h["class"] == cls)
        leader = self.bot.seats[seat]["leader"]
        if leader and leader["class"] == cls:
            words = f"a {cls}, like {whose} Leader"
        elif same == 1:
            words = f"{whose} only {cls}"
        else:
            words = f"one of {whose} {same} {_class_plural(cls)}"
        item = hero.get("item")
        return words + (f", with {item['name']}" if item else "")

    def play_words(self, action: Action) -> str:
        """A card played from the hand: a Hero's class and free roll, a Magic card's
        effect, an Item's Hero (`play_value`)."""
        c = self.bot.cat.cards[int(action.args[0])]
        if c.kind == HERO:
            have = self.bot.classes(self.bot.me)
            joins = f"another {c.hero_class}"
            if c.hero_class not in have:
                joins = f"a {c.hero_class}: class {len(have) + 1} of 6"
            return f"{joins}; free roll {c.roll}+: {self.effect_words(c.effect)}"
        if c.kind == MAGIC:
            sage = self.bot.leader_trigger(self.bot.me) == "on_play_magic"
            return self.effect_words(c.effect) + (", and DRAW a card (your Leader)" if sage else "")
        if len(action.args) < 2:
            return ""
        hero = int(action.args[1])
        found = self.in_party(hero)
        if found is None:
            return ""
        owner, target, _ = found
        if c.kind == CURSED:
            if owner == self.bot.me:
                return f"a Cursed Item on your own {target['name']}: it hurts you"
            lead = " (nearest to winning)" if owner == self.bot.leader() else ""
            words = self.hero_words(owner, target)
            return f"slows {player(owner)}{lead}: {target['name']}, {words}"
        if c.counts_as:
            if c.counts_as in self.bot.classes(self.bot.me):
                return f"{target['name']} would count as a {c.counts_as}, a class you have"
            lost = self.hero_words(self.bot.me, target).startswith("your only")
            cost = f"; your only {target['class']} goes" if lost else ""
            return f"{target['name']} counts as a {c.counts_as}, a class your Party lacks{cost}"
        if c.skill is not None and c.skill.bonus:
            # A bonus helps most where the roll is hard (`play_value`).
            bonus = max(c.skill.bonus)
            return f"{bonus:+d} to {target['name']}'s rolls, {target['roll']}+ to use its effect"
        return f"on {self.hero_words(owner, target)}, {target['name']}"

    def turn_words(self, kind: str) -> str:
        held = len(self.bot.hand)
        if kind == "draw":
            return "a card for your empty hand" if not held else f"a card to the {held} you hold"
        if kind == "redraw":
            swap = f"your {_plural(held, 'card')} for " if held else ""
            return f"{swap}5 fresh cards, at 3 action points"
        left = int(self.bot.view["action_points"])
        return f"{_plural(left, 'action point')} left unspent" if left else ""

    def open_rolls(self) -> tuple[list[dict[str, Any]], int]:
        """The rolls the window is over, and the place of the first among the table's."""
        rolls = self.bot.view["rolls"]
        first = len(rolls) - int(self.bot.view["decision"]["rolls"])
        return rolls[first:], first

    def succeeds(self, window: list[dict[str, Any]], totals: list[int], index: int) -> bool | None:
        """Whether roll `index` of the window succeeds at `totals` (for a Challenge's
        rolls: whether the card is stopped); None when its purpose is not known."""
        roll = window[index]
        purpose = roll.get("for")
        if purpose == "hero":
            return totals[index] >= int(roll["need"])
        if purpose == "attack":
            return self.bot.cat.monsters[int(roll["monster"]["id"])].slays(totals[index])
        if purpose in ("challenge", "defence"):
            places = [r.get("for") for r in window]
            if "challenge" not in places or "defence" not in places:
                return None
            # Ties go to the challenger (RULES 13).
            return totals[places.index("challenge")] >= totals[places.index("defence")]
        return None

    def whose(self, seat: int) -> str:
        return "your" if seat == self.bot.me else f"{player(seat)}'s"

    def roll_subject(self, window: list[dict[str, Any]], roll: dict[str, Any]) -> str:
        """'your roll for Pim the Apprentice', 'Player 2's ATTACK on Grimtooth Ogre',
        "Player 1's Fireball" (a Challenge's card)."""
        purpose = roll.get("for")
        if purpose in ("challenge", "defence"):
            # Both rolls are about the card of the seat challenged, the defence's roller.
            defender = next(int(r["seat"]) for r in window if r.get("for") == "defence")
            return f"{self.whose(defender)} {roll['card']['name']}"
        whose = self.whose(int(roll["seat"]))
        if purpose == "hero":
            return f"{whose} roll for {roll['card']['name']}"
        return f"{whose} ATTACK on {roll['monster']['name']}"

    def outcome_words(self, roll: dict[str, Any], success: bool, total: int) -> str:
        purpose = roll.get("for")
        if purpose == "hero":
            return f"{'meets' if success else 'misses'} {roll['need']}+"
        if purpose == "attack":
            if success:
                return "slays it"
            m = self.bot.cat.monsters[int(roll["monster"]["id"])]
            return "is punished" if m.punishes(total) else "does nothing"
        return "is stopped" if success else "goes through"

    def stake_words(self, roll: dict[str, Any]) -> str:
        """What rides on a roll, for its roller: the Hero's effect, the slain Monster."""
        purpose = roll.get("for")
        if purpose == "hero":
            return f" ({self.effect_words(self.bot.cat.cards[int(roll['card']['id'])].effect)})"
        if purpose == "attack":
            return f" (the slay: {self.prize_words(int(roll['seat']))})"
        return ""

    def modify_words(self, action: Action) -> str:
        """What a Modifier changes, as `modifier_gain` judges it: whether the roll it is
        played on then succeeds (the card challenged is stopped), and what rides on it."""
        window, first = self.open_rolls()
        target = position_of(int(action.args[2])) - first
        if not 0 <= target < len(window):
            return ""
        roll = window[target]
        change = int(action.args[1]) + (int(action.args[3]) if len(action.args) > 3 else 0)
        if roll["seat"] != self.bot.me:
            # The roller's Grimtooth Ogre answers a Modifier from an opponent, as the
            # choice's label counts it.
            change += int(roll.get("opponent_modifier_bonus") or 0)
        totals = [int(r["total"]) for r in window]
        after = totals[:]
        after[target] += change
        was, now = self.succeeds(window, totals, target), self.succeeds(window, after, target)
        if was is None or now is None:
            return ""
        subject = self.roll_subject(window, roll)
        if was == now:
            words = self.outcome_words(roll, now, after[target])
            return f"changes nothing: {subject} {words} either way"
        return f"{subject} then {self.outcome_words(roll, now, after[target])}" + (
            self.stake_words(roll)
        )

    def window_words(self) -> str:
        """Passing: how the window's roll stands (a Challenge's, if it is one)."""
        window, _ = self.open_rolls()
        if not window:
            return ""
        places = [r.get("for") for r in window]
        index = places.index("challenge") if "challenge" in places else len(window) - 1
        totals = [int(r["total"]) for r in window]
        success = self.succeeds(window, totals, index)
        if success is None:
            return ""
        roll = window[index]
        shown = " against ".join(str(t) for t in totals) if "challenge" in places else totals[index]
        words = self.outcome_words(roll, success, totals[index])
        return f"as it stands, {self.roll_subject(window, roll)} {words} ({shown})"

    def played_words(self, seat: int, card: dict[str, Any], onto: dict[str, Any] | None) -> str:
        """What a card being played brings its player (`played_worth`)."""
        c = self.bot.cat.cards[int(card["id"])]
        if c.kind == HERO:
            have = self.bot.classes(seat)
            if c.hero_class in have:
                return f"another {c.hero_class} for {player(seat)}"
            return f"a {c.hero_class}, {player(seat)}'s class {len(have) + 1} of 6"
        if c.kind == MAGIC:
            return self.effect_words(c.effect)
        where = f" on {onto['name']}" if onto else ""
        if c.kind == CURSED:
            mine = onto is not None and self.bot.owner(int(onto["id"])) == self.bot.me
            return f"a Cursed Item on your {onto['name']}" if mine and onto else "a Cursed Item"
        return f"an Item{where}"

    def challenge_words(self, odds: dict[str, float]) -> str:
        decision = self.bot.view["decision"]
        chance = odds.get("success")
        if chance is None or "player" not in decision:
            return ""
        seat = int(decision["player"])
        what = self.played_words(seat, decision["card"], decision.get("onto"))
        lead = f"; {player(seat)} is nearest to winning" if seat == self.bot.leader() else ""
        return f"{chance:.0%} to stop it{_helped(odds, 'with your')}: {what}{lead}"

    def in_party(self, card: int) -> tuple[int, dict[str, Any], dict[str, Any] | None] | None:
        """Where a card in a Party is: (seat, its Hero, the Item if the card is one)."""
        for s in self.bot.seats:
            for hero in s["party"]:
                if hero["id"] == card:
                    return int(s["seat"]), hero, None
                item = hero.get("item")
                if item is not None and item["id"] == card:
                    return int(s["seat"]), hero, item
        return None

    def party_card_words(self, card: int) -> str:
        """'Player 2 (nearest to winning): their only Fighter', 'your Band of Fortune on
        Pim the Apprentice': what taking a card costs its owner (`pick_value`)."""
        found = self.in_party(card)
        if found is None:
            return ""
        seat, hero, item = found
        whose = "your" if seat == self.bot.me else "their"
        words = (
            self.hero_words(seat, hero)
            if item is None
            else (f"{whose} {item['name']} on {hero['name']}")
        )
        if seat == self.bot.me:
            return words
        lead = " (nearest to winning)" if seat == self.bot.leader() else ""
        return f"{player(seat)}{lead}: {words}"

    def pick_words(self, decision: dict[str, Any], action: Action, odds: dict[str, float]) -> str:
        verb = str(decision.get("verb", ""))
        card = int(action.args[0])
        if verb == "encore":
            return self.roll_words(card, odds, free=True)
        if verb in ("replace", "slay"):
            m = self.bot.cat.monsters[card]
            if verb == "slay":
                return f"slain at once: {self.prize_words(self.bot.me)}"
            slay, _ = attack_chances(m, int(self.bot.seats[self.bot.me]["attack_bonus"]))
            return f"an ATTACK on it would slay it {slay:.0%} of the time"
        if verb in ("discard", "search", "take"):
            return self.card_words(card)
        words = self.party_card_words(card)
        if not words:
            return ""
        if action.kind == "steal" or verb == "steal":
            words += "; yours to keep"
        if len(action.args) > 1:  # a stolen Item: onto one of this seat's Heroes
            words += f", onto {self.bot.cat.cards[int(action.args[1])].name}"
        return words

    def card_words(self, card: int) -> str:
        """A card to hold (`card_value`): a Hero's class and roll, a Magic card's effect."""
        c = self.bot.cat.cards[card]
        if c.kind == HERO:
            lacks = " your Party lacks" if c.hero_class not in self.bot.classes(self.bot.me) else ""
            return f"a {c.hero_class}{lacks}, {c.roll}+: {self.effect_words(c.effect)}"
        if c.kind == MAGIC:
            return f"Magic: {self.effect_words(c.effect)}"
        if c.kind == MODIFIER:
            return " or ".join(f"{v:+d}" for v in c.options) + " on any roll"
        if c.kind == CHALLENGE:
            return "a CHALLENGE against another player's card"
        return f"{'a Cursed Item' if c.kind == CURSED else 'an Item'}: {c.text}"

    def target_words(self, seat: int) -> str:
        """A player chosen for an effect, as `target` weighs them."""
        if seat == self.bot.me:
            return "you: the DRAW is yours" if self.bot.helps_chosen() else "you: it falls on you"
        s = self.bot.seats[seat]
        text = (
            f"{_plural(len(s['slain']), 'Monster')} slain, {len(self.bot.classes(seat))} of 6 "
            f"classes, {_plural(int(s['hand_size']), 'card')} in hand"
        )
        return text + ("; nearest to winning" if seat == self.bot.leader() else "")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _class_plural(cls: str) -> str:
    return "Thieves" if cls == "Thief" else f"{cls}s"


def _helped(odds: dict[str, float], prefix: str) -> str:
    """', 92% with your +3': the rules' second figure, with the Modifiers in hand."""
    for name, chance in odds.items():
        if name.startswith(prefix):
            return f", {chance:.0%} {name[name.index('with your') :]}"
    return ""


def _on_the_roll(odds: dict[str, float], words: str) -> str:
    """'42% on the roll; Player 2: their only Fighter': a player or card named before a
    Hero's roll, with the roll's chance the rules' odds give it (the choice does not move
    it, but it is what the choosing is for)."""
    chance = odds.get("on the roll")
    if chance is None or not words:
        return words
    return f"{chance:.0%} on the roll; {words}"


def _step_words(step: Step) -> str:
    """A step in the cards' words: 'DRAW 2 cards', 'each opponent DISCARDS a card'."""
    if step.named is not None:
        return NAMED_WORDS.get(step.named, step.named.replace("_", " "))
    verb = (step.verb or "").upper()
    one, many = KIND_WORDS.get(step.kind, (step.kind, step.kind + "s"))
    article = "an" if one[0] in "AEIOU" else "a"
    what = f"{step.count} {many}" if step.count > 1 else f"{article} {one}"
    who = WHO_WORDS.get(step.who)
    if who is None:
        return f"{verb} {what}"
    return f"{who} {verb}{'ES' if verb.endswith(('H', 'S')) else 'S'} {what}"
