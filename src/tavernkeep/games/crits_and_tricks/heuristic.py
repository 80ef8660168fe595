"""The Crits & Tricks heuristic bot: win the tricks worth winning with the dice that fit.

Dice are public, so the bot knows every die its opponents still hold. For a card and a
die it estimates the chance of taking the trick: it must beat the cards on the table, and
each opponent still to play must either fail to follow suit (judged from the cards not
seen yet) or hold no unused die that beats it. A trick is worth its Bards, the quests the
play would complete, and the lead of the next trick. A die is worth keeping for the
tricks ahead in proportion to how well it fits the suits left in hand, so a 20 is kept for
a Barbarian or Paladin trick and a 1 for a Rogue trick: that is the pairing planned over
the round. Re-rolls and crits are taken when they raise the chance by more than the card
or the risk costs. It reads only what its seat knows (`observer.Seen`, the view's facts)
and the public pack.

The tutor's line of why for a choice (reasons.py) puts this reading in words.
"""

from __future__ import annotations

from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet
from tavernkeep.games.crits_and_tricks.content import SUITS, CritsAndTricksPack, Quest
from tavernkeep.games.crits_and_tricks.history import Play, Trick, play_meets
from tavernkeep.games.crits_and_tricks.observer import OnTable, Seen
from tavernkeep.games.crits_and_tricks.tricks import (
    BARBARIAN,
    BARD,
    DRUID,
    PALADIN,
    ROGUE,
    WIZARD,
    Lay,
    winner,
)

DICE = (4, 6, 8, 10, 12, 20)
TRICK = 1.0
"""Taking a trick, before its Bards and quests: the next lead, and Barkeep counts."""
KEEP_DIE = 0.8
"""How much a die that fits the suits still in hand weighs against the trick at hand."""
SPARE_CARD = 0.15
"""A card spent on a crit while the hand still has one for every trick left."""
NEEDED_CARD = 1.0
"""A card spent on a crit that will leave a trick unplayed at the end of the round."""
FOLLOW_ODDS_FLOOR = 0.05


def fit(suit: int, value: int, size: int) -> float:
    """How well a die showing `value` suits a card of `suit` (0..1)."""
    if suit in (BARBARIAN, PALADIN):
        return value / 20
    if suit == ROGUE:
        return (21 - value) / 20
    if suit == WIZARD:
        return 1.0 - min(abs(value - 5), 10) / 10
    if suit == DRUID:
        return 0.7 * value / 20 + 0.15
    return max(fit(s, value, size) for s in (BARBARIAN, ROGUE, WIZARD))


def beats(led: int, lead_size: int, mine: tuple[int, int], theirs: tuple[int, int]) -> bool:
    """Whether a later follower showing `theirs` (value, size) would beat `mine` on the
    suit's rule, ties going to the larger die and then to the later card (theirs)."""
    (mv, ms), (tv, ts) = mine, theirs
    if led == BARBARIAN:
        a, b = tv, mv
    elif led == ROGUE:
        a, b = -tv, -mv
    elif led == WIZARD:
        a, b = -abs(tv - 5), -abs(mv - 5)
    elif led == PALADIN:
        if ts != lead_size:
            return False
        if ms != lead_size:
            return True
        a, b = tv, mv
    else:  # Druid: the second-highest value; a higher die lets mine be second
        return tv > mv
    return a > b or (a == b and ts >= ms)


NO_RANK = (-100, 0)
"""Below every die's `rank`: a seat with no die left (or, with a Paladin led, none of the
lead's size) beats nothing."""
OFF_SIZE = (-50, 0)
"""With a Paladin led, the rank of this bot's card on a die of another size than the
lead's: below every die of the lead's size, above NO_RANK."""


def rank(led: int, lead_size: int, die: tuple[int, int], mine: bool = False) -> tuple[int, int]:
    """A die (value, size) as `beats` orders it for a suit led other than the Druid: a
    later follower's die beats this bot's card exactly when its rank is at least the
    card's (`mine`), ties going to the larger die, then to the later card. With a
    Paladin led, only dice of the lead's size compete, and any of them beats a card on
    another size."""
    value, size = die
    if led == BARBARIAN:
        return value, size
    if led == ROGUE:
        return -value, size
    if led == WIZARD:
        return -abs(value - 5), size
    if size != lead_size:
        return OFF_SIZE if mine else NO_RANK
    return value, size


Check = tuple[int, int, int, int, int, int, int]


def quick_check(quest: Quest) -> Check:
    """What a quest asks of a card, a die and a result, as plain numbers (0, or a bound
    that lets anything through, where it asks nothing): die, exact value, lowest and
    highest value, result (1 win, -1 lose, 0 either), suit and led suit (-1: any)."""
    when = quest.when
    return (
        when.die or 0,
        when.value or 0,
        when.min_value if when.min_value is not None else -1000,
        when.max_value if when.max_value is not None else 1000,
        1 if when.result == "win" else -1 if when.result == "lose" else 0,
        SUITS.index(when.suit) if when.suit is not None else -1,
        SUITS.index(when.led) if when.led is not None else -1,
    )


class HeuristicBot:
    name = "bot:heuristic"

    def choose(self, info: InfoSet) -> Action:
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        pack: CritsAndTricksPack = info.content()
        reading = Reading(info.observe(), pack)
        kind = reading.seen.kind
        if kind == "play":
            return max(actions, key=reading.play_value)
        if kind in ("reroll", "bard"):
            return reading.reroll(actions)
        if kind == "crit":
            return reading.crit(actions)
        if kind == "give_up":
            return min(actions, key=lambda a: reading.quest_worth(pack.quest[int(a.args[0])]))
        if kind == "barkeep":
            # `barkeep:N` is the challenge numbered N, pack.barkeep[N - 1].
            return max(actions, key=lambda a: reading.barkeep_taste(int(a.args[0]) - 1))
        return actions[0]


class Reading:
    """One decision, read for the bot from what its seat knows (`observer.Seen`)."""

    def __init__(self, seen: Seen, pack: CritsAndTricksPack) -> None:
        self.seen = seen
        self.pack = pack
        self.me = seen.seat
        self.n = seen.players
        self.hand = list(seen.hand_suits)
        self.hand_ids = list(seen.hand)
        self.dice = seen.unused(self.me)
        self.table: tuple[OnTable, ...] = seen.table
        self.led = seen.led
        self.tricks_left = seen.tricks_per_round - seen.tricks_done
        self.quests: list[Quest] = [pack.quest[q] for q in seen.quests]
        # What a trick is worth depends on the card, the die and the led suit alone, and
        # a decision asks it of the same few many times over (each die, each re-roll
        # face): worked out once a decision. Profiled: two fifths of the bot's time.
        self.bards_played = sum(1 for c in self.table if c.suit == BARD)
        self.played = tuple(
            Play(c.seat, -1, SUITS[c.suit], c.followed, c.size, c.value, (), False)
            for c in self.table
        )
        self.worths: dict[tuple[int, int, int, int, bool], float] = {}
        # Only quests met in one trick are judged play by play (`completes`).
        self.single_quests = [q for q in self.quests if q.times == 1 and self.may_meet(q)]
        self.quest_checks = [(q, quick_check(q)) for q in self.single_quests]
        self._keeps: dict[tuple[int, int], float] = {}
        # What stays the same while the bot weighs its choices, worked out once: the
        # seats still to play and their dice, and (keyed by the table's length, as its
        # own card is on the table or off it) the cards it has seen and the lays.
        self._later: list[int] | None = None
        self._their_dice: dict[int, list[tuple[int, int]]] = {}
        self._follows: dict[tuple[int, int, int], float] = {}
        self._lays: dict[int, list[Lay]] = {}
        self._best: dict[tuple[int, int, int], tuple[int, int]] = {}

    # -- the chance of taking the trick --------------------------------------------

    def later_seats(self) -> list[int]:
        """Opponents still to play to this trick (after this bot): the same whether or
        not this bot's own card is on the table."""
        if self._later is None:
            played = {c.seat for c in self.table}
            played.add(self.me)
            start, sizes = self.seen.leader, self.seen.hand_sizes
            order = [(start + k) % self.n for k in range(self.n)]
            self._later = [s for s in order if s not in played and sizes[s] > 0]
        return self._later

    def their_dice(self, seat: int) -> list[tuple[int, int]]:
        dice = self._their_dice.get(seat)
        if dice is None:
            dice = self._their_dice[seat] = self.seen.unused(seat)
        return dice

    def follow_odds(self, seat: int, led: int) -> float:
        """The chance `seat` holds a card of the led suit or a Bard, from the cards not
        seen: the deck composition less this bot's hand and the cards played."""
        key = (seat, led, len(self.table))
        known = self._follows.get(key)
        if known is not None:
            return known
        deck = self.pack.deck
        per_suit = deck.copies if self.n > 2 else deck.two_player_copies
        bards = deck.bards if self.n > 2 else deck.two_player_bards
        total = per_suit * self.seen.suits + bards
        matching = (per_suit if led != BARD else 0) + bards
        seen = [*self.hand, *(c.suit for c in self.table), *self.seen.round_suits]
        unseen = max(1, total - len(seen))
        match_left = max(0, matching - sum(1 for s in seen if s in (led, BARD)))
        q = match_left / unseen
        h = self.seen.hand_sizes[seat]
        known = self._follows[key] = max(FOLLOW_ODDS_FLOOR, 1.0 - (1.0 - q) ** h)
        return known

    def win_chance(self, suit: int, value: int, size: int, led: int, paladin: bool) -> float:
        followed = not self.table or suit in (led, BARD)
        if not followed:
            return 0.0
        lays = self.lays_with(suit, value, size, paladin)
        if winner(led, lays) != self.me:
            return 0.0
        chance = 1.0
        for seat in self.threats(lays, led, value, size, paladin):
            chance *= 1.0 - 0.85 * self.follow_odds(seat, led)
        return chance

    def lays_with(self, suit: int, value: int, size: int, paladin: bool) -> list[Lay]:
        """The cards on the table, and this bot's card last on its die (as followed)."""
        lays = self._lays.get(len(self.table))
        if lays is None:
            lays = self._lays[len(self.table)] = [
                Lay(
                    c.seat,
                    c.suit,
                    c.followed,
                    c.size,
                    c.value,
                    k + (self.n + 1 if c.last else 0),
                    1 if c.paladin else -1,
                )
                for k, c in enumerate(self.table)
            ]
        return [*lays, Lay(self.me, suit, True, size, value, len(lays), 2 if paladin else -1)]

    def threats(self, lays: list[Lay], led: int, value: int, size: int, paladin: bool) -> list[int]:
        """The opponents still to play who hold an unused die that would beat this bot's
        card, should they follow suit (their dice are public, their cards are not)."""
        found = []
        if led == DRUID:
            for seat in self.later_seats():
                if any(self.druid_loses(lays, seat, t) for t in self.their_dice(seat)):
                    found.append(seat)
            return found
        if paladin:
            return found
        lead_size = lays[0].die
        mine = rank(led, lead_size, (value, size), mine=True)
        for seat in self.later_seats():
            if self.best_rank(seat, led, lead_size) >= mine:
                found.append(seat)
        return found

    def best_rank(self, seat: int, led: int, lead_size: int) -> tuple[int, int]:
        """The best `rank` among a seat's unused dice: it holds one that `beats` a card
        exactly when this is at least the card's own rank."""
        key = (seat, led, lead_size)
        best = self._best.get(key)
        if best is None:
            best = self._best[key] = max(
                (rank(led, lead_size, t) for t in self.their_dice(seat)), default=NO_RANK
            )
        return best

    def druid_loses(self, lays: list[Lay], seat: int, theirs: tuple[int, int]) -> bool:
        extra = Lay(seat, DRUID, True, theirs[1], theirs[0], len(lays), -1)
        return winner(DRUID, [*lays, extra]) != self.me

    # -- what a trick and a die are worth ----------------------------------------------

    def expected(self, chance: float, suit: int, value: int, size: int, led: int) -> float:
        """The trick's worth, won with `chance` and lost otherwise."""
        return chance * self.trick_worth(suit, value, size, led, True) + (
            1 - chance
        ) * self.trick_worth(suit, value, size, led, False)

    def trick_worth(self, suit: int, value: int, size: int, led: int, won: bool) -> float:
        key = (suit, value, size, led, won)
        known = self.worths.get(key)
        if known is not None:
            return known
        bards = self.bards_played + (suit == BARD)
        worth = (TRICK + bards) if won else 0.0
        play: Play | None = None
        trick: Trick | None = None
        for quest, (die, exact, low, high, result, of_suit, of_led) in self.quest_checks:
            # What `play_meets` reads of the card, the die and the result, checked first
            # on plain numbers: most quests fail here, before a play is built.
            if (
                (die and die != size)
                or (exact and exact != value)
                or value < low
                or value > high
                or (result == 1 and not won)
                or (result == -1 and won)
                or (of_suit >= 0 and of_suit != suit)
                or (of_led >= 0 and of_led != led)
            ):
                continue
            if play is None or trick is None:
                play = self.play_of(suit, value, size)
                trick = self.trick_of(play, led, won)
            if play_meets(quest.when, trick, play):
                worth += quest.loot
        self.worths[key] = worth
        return worth

    def may_meet(self, quest: Quest) -> bool:
        """False for a quest no play this bot weighs can meet, whatever its card and die:
        it weighs a card that followed, with no crit and no re-roll, in this trick
        (`play_of`, `trick_of`); `play_meets` reads the same fields the same way."""
        when = quest.when
        leading = self.seen.leader == self.me
        return not (
            when.crit is not None
            or (when.crits is not None and when.crits > 0)
            or when.rerolled is True
            or when.followed is False
            or (when.leading is not None and leading != when.leading)
            or (when.trick is not None and when.trick != self.seen.tricks_done + 1)
        )

    def play_of(self, suit: int, value: int, size: int) -> Play:
        return Play(self.me, -1, SUITS[suit], True, size, value, (), False)

    def trick_of(self, play: Play, led: int, won: bool) -> Trick:
        return Trick(
            self.seen.tricks_done + 1,
            self.seen.leader,
            SUITS[led],
            (*self.played, play),
            self.me if won else -1,
        )

    def completes(
        self, quest: Quest, suit: int, value: int, size: int, led: int, won: bool
    ) -> bool:
        if quest.times > 1:
            return False  # counted over several tricks: not judged play by play
        play = self.play_of(suit, value, size)
        return play_meets(quest.when, self.trick_of(play, led, won), play)

    def keep_worth(self, die_value: int, die_size: int, card_index: int) -> float:
        """What the die is worth for the rest of the round: its best fit with a card left.
        (A fit reads the die's value alone, so the size is no part of the key.)"""
        key = (die_value, card_index)
        known = self._keeps.get(key)
        if known is not None:
            return known
        rest = [s for k, s in enumerate(self.hand) if k != card_index]
        if not rest or self.tricks_left <= 1:
            known = 0.0
        else:
            known = KEEP_DIE * max(fit(s, die_value, die_size) for s in rest)
        self._keeps[key] = known
        return known

    def play_value(self, action: Action) -> float:
        card = int(action.args[0])
        size = int(action.args[1])
        index = self.hand_ids.index(card)
        suit = self.hand[index]
        value = next(v for v, s in self.dice if s == size)
        led = SUITS.index(str(action.args[2]).capitalize()) if len(action.args) > 2 else (
            self.led if self.table else suit
        )
        chance = self.win_chance(suit, value, size, led, paladin=False)
        gain = self.expected(chance, suit, value, size, led)
        # A Bard kept in hand always follows and may be a point later.
        card_cost = 0.3 if suit == BARD else 0.0
        return gain - self.keep_worth(value, size, index) - card_cost

    # -- re-rolls, crits ------------------------------------------------------------

    def mine(self) -> OnTable:
        return next(c for c in self.table if c.seat == self.me)

    def current(self) -> tuple[int, int, int, int, bool]:
        c = self.mine()
        return c.suit, c.value, c.size, self.led, c.paladin

    def expected_after_reroll(self) -> float:
        suit, _, size, led, paladin = self.current()
        total = 0.0
        for face in range(1, size + 1):
            chance = self.win_chance_on_table(suit, face, size, led, paladin)
            total += self.expected(chance, suit, face, size, led)
        return total / size

    def now_value(self) -> float:
        suit, value, size, led, paladin = self.current()
        chance = self.win_chance_on_table(suit, value, size, led, paladin)
        return self.expected(chance, suit, value, size, led)

    def win_chance_on_table(
        self, suit: int, value: int, size: int, led: int, paladin: bool
    ) -> float:
        """As `win_chance`, with this bot's own card taken off the table first."""
        saved = self.table
        self.table = tuple(c for c in saved if c.seat != self.me)
        try:
            return self.win_chance(suit, value, size, led, paladin)
        finally:
            self.table = saved

    def reroll(self, actions: list[Action]) -> Action:
        better = self.expected_after_reroll() > self.now_value() + 0.05
        return next(a for a in actions if a.kind == ("reroll" if better else "keep"))

    def crit(self, actions: list[Action]) -> Action:
        suit, value, size, led, paladin = self.current()
        now = self.now_value()
        spare = len(self.hand) > self.tricks_left - 1
        cost = SPARE_CARD if spare else NEEDED_CARD
        best, best_gain = next(a for a in actions if a.kind == "done"), 0.0
        for action in actions:
            if action.kind != "crit":
                continue
            crit_suit = self.hand[self.hand_ids.index(int(action.args[0]))]
            after = self.after_crit(crit_suit, action, suit, value, size, led, paladin)
            gain = after - now - cost - (0.3 if crit_suit == BARD else 0.0)
            if gain > best_gain:
                best, best_gain = action, gain
        return best

    def after_crit(
        self,
        crit_suit: int,
        action: Action,
        suit: int,
        value: int,
        size: int,
        led: int,
        paladin: bool,
    ) -> float:
        def worth(v: int, s: int, pal: bool) -> float:
            return self.expected(self.win_chance_on_table(suit, v, s, led, pal), suit, v, s, led)

        if crit_suit == BARBARIAN:
            return worth(value + int(action.args[1]), size, paladin)
        if crit_suit == PALADIN:
            return worth(value, size, True)
        if crit_suit == WIZARD:
            other = int(action.args[1])
            used = self.seen.dice[self.me][DICE.index(other)]
            # The freed die comes back for a later trick.
            return worth(used, other, paladin) + self.keep_worth_die(value, size)
        if crit_suit == BARD:
            return sum(worth(face, size, paladin) for face in range(1, size + 1)) / size
        # Rogue (ties by order) and Druid (an opponent's re-roll): modest, rarely decisive.
        return self.now_value() + 0.05

    def keep_worth_die(self, value: int, size: int) -> float:
        if not self.hand or self.tricks_left <= 1:
            return 0.0
        return KEEP_DIE * max(fit(s, value, size) for s in self.hand)

    # -- quests and the Barkeep -------------------------------------------------------

    def quest_worth(self, quest: Quest) -> float:
        """Loot times a rough chance: every condition a quest sets makes it harder."""
        return quest.loot * self.quest_chance(quest)

    def quest_chance(self, quest: Quest) -> float:
        """A rough chance to meet a quest: 3 in 4 for each condition, half for each time
        beyond the first, half again as likely with a card of its suit in hand (it may go
        above 1: it ranks quests, it is no probability)."""
        when = quest.when
        conditions = sum(
            1
            for f in (
                when.suit, when.led, when.leading, when.followed, when.die, when.crit,
                when.crits, when.rerolled, when.trick, when.bards, when.highest, when.lowest,
            )
            if f is not None
        )
        if when.value is not None:
            conditions += 2
        elif when.min_value is not None or when.max_value is not None:
            conditions += 1
        chance = 0.75**conditions * (0.5 ** (quest.times - 1))
        if when.suit is not None and SUITS.index(when.suit) in self.hand:
            chance *= 1.5
        return chance

    def barkeep_taste(self, b: int) -> float:
        return self.barkeep_fit(b) * self.pack.barkeep[b].loot

    def barkeep_fit(self, b: int) -> float:
        """How well this round's hand and dice suit challenge `b`, about 0 to 1."""
        challenge = self.pack.barkeep[b]
        measure = challenge.measure
        bards = sum(1 for s in self.hand if s == BARD)
        high = max((v for v, _ in self.dice), default=0)
        total = sum(v for v, _ in self.dice)
        score = {
            "tricks_won": total / 30,
            "bards_won": bards / 2,
            "crits_used": (len(self.hand) - 6) / 2,
            "rerolls": 0.5,
            "cards_left": (len(self.hand) - 6) / 2,
            "highest_value": high / 20,
            "total_value": total / 40,
            "suits_won": 0.4,
            "dice_won": 0.4,
            "off_suit_played": 0.3,
        }[measure]
        if challenge.best == "fewest":
            score = 1.0 - score
        return float(score)
