"""Crits & Tricks' tutor's line of why (agents/advice.py): what the heuristic weighs in a
choice, in words: its chance to take the trick (with the dice of those still to play),
what the trick would bring, the die or card it spends; a quest's or a challenge's worth;
"" where the odds say it all. It reads only the seat's view, the odds and the pack, as
the bot does (heuristic.py's `Reading`, which `Reasons` puts in words).
"""

from __future__ import annotations

from collections.abc import Callable

from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet
from tavernkeep.games.crits_and_tricks.chances import player
from tavernkeep.games.crits_and_tricks.content import SUITS, Quest
from tavernkeep.games.crits_and_tricks.heuristic import DICE, Reading, fit
from tavernkeep.games.crits_and_tricks.tricks import (
    BARBARIAN,
    BARD,
    DRUID,
    PALADIN,
    WIZARD,
    winner,
)

LINE = 110
"""The longest line of reason the tutor is given: one short line beside a choice."""
GOOD_FIT = 0.75
"""A die that fits a suit left in hand this well is one the tutor's line says is spent."""


def reason(info: InfoSet, action: Action) -> str:
    """What the bot weighs in a choice, as the tutor's line (agents/advice.py): its
    chance to take the trick (with the dice of those still to play), what the trick
    would bring, the die or card it spends; a quest's or a challenge's worth. "" where
    the odds say it all. Reads only the seat's view, the odds and the pack."""
    reading = Reasons(Reading(info.observe(), info.content()))
    if not reading.bot.seen.kind:
        return ""
    return reading.reason(action, info.odds(action))


class Reasons:
    """The heuristic's reading of a decision, put in words for a person. The dice's exact
    odds come from the rules (`InfoSet.odds`); "about" marks this bot's own estimate,
    which also counts the dice of the players still to play."""

    def __init__(self, bot: Reading) -> None:
        self.bot = bot

    def reason(self, action: Action, odds: dict[str, float]) -> str:
        kind = action.kind
        if kind == "play":
            return self.play_words(action, odds)
        if kind == "discard":
            return self.quest_words(self.bot.pack.quest[int(action.args[0])])
        if kind == "barkeep":
            return self.barkeep_words(int(action.args[0]) - 1)
        if not any(c.seat == self.bot.me for c in self.bot.table):
            return ""  # a re-roll or a crit is always about this bot's card on the table
        if kind == "reroll":
            return self.reroll_words(odds)
        if kind in ("keep", "done"):
            return self.standing_words()
        if kind == "crit":
            return self.crit_words(action, odds)
        return ""

    def chance_words(self, suit: int, value: int, size: int, led: int, paladin: bool) -> str:
        """'about 72% to take it: Player 3 could beat your 12', with the table as it is
        (this bot's card off it)."""
        if self.bot.table and suit not in (led, BARD):
            return "off suit: cannot win"
        lays = self.bot.lays_with(suit, value, size, paladin)
        if winner(led, lays) != self.bot.me:
            return f"your {value} is behind"
        threats = self.bot.threats(lays, led, value, size, paladin)
        if not threats:
            return "takes it" + (": no die left to play beats it" if self.bot.later_seats() else "")
        who = player(threats[0]) if len(threats) == 1 else f"{len(threats)} players"
        chance = self.bot.win_chance(suit, value, size, led, paladin)
        return f"{_about(chance)} to take it: {who} could beat your {value}"

    def stake_words(self, suit: int, value: int, size: int, led: int) -> list[str]:
        """['for 2 Bards and Pebble Toss (2 loot)', 'Sore Loser (1 loot) if lost']: what
        `trick_worth` counts, the table as it is (this bot's card off it)."""
        bards = sum(1 for c in self.bot.table if c.suit == BARD) + (suit == BARD)
        won = [q for q in self.bot.quests if self.bot.completes(q, suit, value, size, led, True)]
        lost = [q for q in self.bot.quests if self.bot.completes(q, suit, value, size, led, False)]
        gains = [_plural(bards, "Bard")] if bards else []
        if won:
            gains.append(_quests(won))
        parts = ["for " + " and ".join(gains)] if gains else []
        if lost and not won:
            parts.append(f"{_quests(lost)} if lost")
        return parts

    def spent_words(self, value: int, size: int, card_index: int) -> str:
        """'your Barbarian could use this 19 later': a die `keep_worth` would keep."""
        # A Bard fits every die (it follows any suit): the line names a mercenary.
        rest = [s for k, s in enumerate(self.bot.hand) if k != card_index and s != BARD]
        if not rest or self.bot.tricks_left <= 1:
            return ""
        best = max(rest, key=lambda s: fit(s, value, size))
        if fit(best, value, size) < GOOD_FIT:
            return ""
        article = "an" if str(value).startswith("8") or value in (11, 18) else "a"
        return f"spends {article} {value} your {SUITS[best]} could use"

    def play_words(self, action: Action, odds: dict[str, float]) -> str:
        """A card and a die (`play_value`): the chance, the stake, the die spent."""
        card, size = int(action.args[0]), int(action.args[1])
        if card not in self.bot.hand_ids:
            return ""
        index = self.bot.hand_ids.index(card)
        suit = self.bot.hand[index]
        value = next((v for v, s in self.bot.dice if s == size), 0)
        led = self.bot.led if self.bot.table else suit
        if len(action.args) > 2:  # a led Bard names its suit
            led = SUITS.index(str(action.args[2]).capitalize())
        parts = [self.chance_words(suit, value, size, led, False)]
        if parts[0].endswith("is behind") and odds:
            # The rules' odds count the free re-roll a card behind would take.
            name, chance = next(iter(odds.items()))
            parts[0] = f"behind; the free re-roll: {chance:.0%} {name}"
        if not parts[0].startswith("off suit"):
            parts += self.stake_words(suit, value, size, led)
        parts.append(self.spent_words(value, size, index))
        return _line(parts)

    def on_table_words(self, words: Callable[[int, int, int, int, bool], str]) -> str:
        """`words(suit, value, size, led, paladin)` with this bot's own card taken off the
        table first, as `win_chance_on_table` reads it."""
        suit, value, size, led, paladin = self.bot.current()
        saved = self.bot.table
        self.bot.table = tuple(c for c in saved if c.seat != self.bot.me)
        try:
            return words(suit, value, size, led, paladin)
        finally:
            self.bot.table = saved

    def standing_words(self) -> str:
        """Keeping the die, or no more crits: the chance as it stands, and the stake."""

        def words(suit: int, value: int, size: int, led: int, paladin: bool) -> str:
            chance = self.chance_words(suit, value, size, led, paladin)
            stake = (
                [] if chance.startswith("off suit") else self.stake_words(suit, value, size, led)
            )
            return _line([f"as it stands, {chance}", *stake])

        return self.on_table_words(words)

    def reroll_words(self, odds: dict[str, float]) -> str:
        """The free re-roll (or the Bard crit's second): this bot's chance after it
        against keeping (`expected_after_reroll` against `now_value`)."""
        if not self.bot.mine().followed:
            return "off suit: cannot win, whatever the die shows"
        suit, value, size, led, paladin = self.bot.current()
        now = self.bot.win_chance_on_table(suit, value, size, led, paladin)
        after = (
            sum(
                self.bot.win_chance_on_table(suit, face, size, led, paladin)
                for face in range(1, size + 1)
            )
            / size
        )
        text = f"{_about(after)} to take it after, {now:.0%} if you keep the {value}"
        if self.bot.later_seats() and odds:
            # Players still to play: the dice's own odds say less than "take it".
            text = ", ".join(f"{p:.0%} {name}" for name, p in odds.items()) + f"; {text}"
        stake = self.on_table_words(lambda su, v, si, le, _: _line(self.stake_words(su, v, si, le)))
        return _line([text, stake])

    def crit_words(self, action: Action, odds: dict[str, float]) -> str:
        """A crit (`crit`, `after_crit`): this bot's chance after it, against now, and the
        card it costs."""
        card = int(action.args[0])
        if card not in self.bot.hand_ids:
            return ""
        crit_suit = self.bot.hand[self.bot.hand_ids.index(card)]
        suit, value, size, led, paladin = self.bot.current()
        now = self.bot.win_chance_on_table(suit, value, size, led, paladin)
        spare = len(self.bot.hand) > self.bot.tricks_left - 1
        cost = "a spare card" if spare else "a card a later trick needs"
        if crit_suit == BARD:
            cost = "a Bard, loot to nobody" if spare else "a Bard a later trick needs"
        after: float | None = None
        extra = ""
        if crit_suit == BARBARIAN:
            raised = value + int(action.args[1])
            after = self.bot.win_chance_on_table(suit, raised, size, led, paladin)
        elif crit_suit == PALADIN:
            after = self.bot.win_chance_on_table(suit, value, size, led, True)
        elif crit_suit == WIZARD:
            other = int(action.args[1])
            used = self.bot.seen.dice[self.bot.me][DICE.index(other)]
            after = self.bot.win_chance_on_table(suit, used, other, led, paladin)
            extra = f", the d{size} ({value}) back for later"
        elif crit_suit == BARD:
            after = (
                sum(
                    self.bot.win_chance_on_table(suit, face, size, led, paladin)
                    for face in range(1, size + 1)
                )
                / size
            )
        if after is not None:
            return f"{_about(after)} to take it, from {now:.0%}{extra}; costs {cost}"
        if crit_suit == DRUID and odds:
            name, chance = next(iter(odds.items()))
            return f"{chance:.0%} {name} after their re-roll, from {_about(now)}; costs {cost}"
        return f"wins ties on turn order; {_about(now)} to take it now; costs {cost}"

    def quest_words(self, quest: Quest) -> str:
        """Giving up a quest (`quest_worth`): its loot, and the rough chance to meet it."""
        chance = min(1.0, self.bot.quest_chance(quest))
        return (
            f"{quest.loot} loot at a rough {chance:.0%} chance to meet it: "
            f"worth about {self.bot.quest_worth(quest):.1f} loot kept"
        )

    def barkeep_words(self, b: int) -> str:
        """A Barkeep's Challenge (`barkeep_taste`): its loot and how this hand suits it."""
        if not 0 <= b < len(self.bot.pack.barkeep):
            return ""
        challenge = self.bot.pack.barkeep[b]
        suits = min(1.0, max(0.0, self.bot.barkeep_fit(b)))
        tricks = self.bot.seen.tricks_per_round
        why = {
            "tricks_won": f"your dice total {sum(v for v, _ in self.bot.dice)}",
            "bards_won": _plural(sum(1 for s in self.bot.hand if s == BARD), "Bard") + " in hand",
            "crits_used": f"{_plural(len(self.bot.hand), 'card')} for {tricks} tricks",
            "cards_left": f"{_plural(len(self.bot.hand), 'card')} for {tricks} tricks",
            "highest_value": f"your highest die {max((v for v, _ in self.bot.dice), default=0)}",
            "total_value": f"your dice total {sum(v for v, _ in self.bot.dice)}",
        }.get(challenge.measure, "")
        return f"{challenge.loot} loot; your hand and dice suit it {suits:.0%}" + (
            f" ({why})" if why else ""
        )


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _quests(quests: list[Quest]) -> str:
    """'Pebble Toss (2 loot)', or '3 quests (7 loot)': short enough for one line."""
    if len(quests) == 1:
        return f"{quests[0].name} ({quests[0].loot} loot)"
    return f"{len(quests)} quests ({sum(q.loot for q in quests)} loot)"


def _line(parts: list[str]) -> str:
    """The parts of a line joined, the first always, each later one only if the line
    stays within `LINE`: what matters most comes first."""
    line = parts[0] if parts else ""
    for part in parts[1:]:
        if part and len(line) + 2 + len(part) <= LINE:
            line += f"; {part}"
    return line


def _about(chance: float) -> str:
    """'about 64%': this bot's estimate; a sure thing or a lost cause is said plainly."""
    if chance in (0.0, 1.0):
        return f"{chance:.0%}"
    if chance < 0.005:
        return "under 1%"
    if chance >= 0.995:
        return "over 99%"
    return f"about {chance:.0%}"
