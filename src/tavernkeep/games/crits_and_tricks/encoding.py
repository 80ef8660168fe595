"""Crits & Tricks for learning agents: a fixed action indexing and an observation vector.

Built from `view(state, seat)` only; the layout is in ENCODING.md beside this file.
Seats are counted from the observer (0 is me). `encode_state` builds the same vector
straight from the state, reading only what the view shows (tests/rl/test_direct_encoders.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.games.crits_and_tricks.content import SUITS
from tavernkeep.games.crits_and_tricks.state import NONE, CritsAndTricksState
from tavernkeep.games.crits_and_tricks.tricks import BARD

DICE = (4, 6, 8, 10, 12, 20)
DECISIONS = ("play", "crit", "reroll", "bard", "give_up", "barkeep")
DECISION_INDEX = {kind: i for i, kind in enumerate(DECISIONS)}
USED = tuple(tuple(mask >> i & 1 for i in range(len(DICE))) for mask in range(1 << len(DICE)))
"""The six used flags of a seat's dice, by the state's bitmask over DICE indices."""
NUDGES = (-3, -2, -1, 1, 2, 3)
SEAT_FIELDS = 2 * len(DICE) + 5  # dice values and used flags, hand, quests, scored, loot, tricks


class CritsAndTricksEncoding:
    def __init__(self, players: int, cards: int, quests: int, barkeeps: int) -> None:
        self.players, self.cards, self.quests = players, cards, quests
        words = [s.lower() for s in SUITS[:-1]]
        actions = [Action("reroll"), Action("keep"), Action("done")]
        actions += [Action("discard", q) for q in range(quests)]
        # Numbered as the rules' texts are (as the screen shows them): the Barkeep's
        # Challenges and the Druid's targets from 1, in the same order as ever.
        actions += [Action("barkeep", b) for b in range(1, barkeeps + 1)]
        for c in range(cards):
            for size in DICE:
                actions.append(Action("play", c, size))
                actions += [Action("play", c, size, w) for w in words]
        for c in range(cards):
            actions.append(Action("crit", c))
            extra = sorted({*NUDGES, *DICE, *range(1, players + 1)})
            actions += [Action("crit", c, d) for d in extra]
        self.actions = actions
        self.size = (
            len(DECISIONS)
            + 1
            + 6
            + cards
            + len(SUITS)
            + 4
            + quests * 2
            + 1
            + players * SEAT_FIELDS
            + players * (len(SUITS) + 3)
        )
        # Where each block of the vector starts, and each observer's seats in the order
        # it sees them (itself first): constants of the layout, not worked out each call.
        self.suits_at = len(DECISIONS) + 1
        self.hand_at = self.suits_at + 6
        self.led_at = self.hand_at + cards
        self.round_at = self.led_at + len(SUITS)
        self.quests_at = self.round_at + 4
        self.loot_at = self.quests_at + 2 * quests
        self.seats_at = self.loot_at + 1
        self.table_at = self.seats_at + players * SEAT_FIELDS
        self.order = [
            tuple((seat + k) % players for k in range(players)) for seat in range(players)
        ]

    def encode(self, view: dict[str, Any], seat: int) -> npt.NDArray[np.float32]:
        out = np.zeros(self.size, dtype=np.float32)
        players = self.players
        decision = view["decision"]
        if decision is not None and decision["seat"] == seat:
            out[DECISIONS.index(decision["kind"])] = 1.0
            out[len(DECISIONS)] = decision.get("crits_left", 0)
        at = len(DECISIONS) + 1
        for name in view["suits"]:
            out[at + SUITS.index(name)] = 1.0
        at += 6
        me = view["seats"][seat]
        for card in me["hand"] or ():
            out[at + card["id"]] = 1.0
        at += self.cards
        if view["led"] is not None:
            out[at + SUITS.index(view["led"])] = 1.0
        at += len(SUITS)
        out[at : at + 4] = (view["round"], view["trick"], view["deck"], view["leader"] == seat)
        at += 4
        for quest in me["quests"] or ():
            out[at + quest["id"]] = 1.0
        for quest in (decision or {}).get("offered", ()):
            out[at + self.quests + quest["id"]] = 1.0
        at += 2 * self.quests
        barkeep = view.get("barkeep")
        out[at] = barkeep["loot"] if barkeep else 0.0
        at += 1
        for k in range(players):
            s = view["seats"][(seat + k) % players]
            for i, die in enumerate(s["dice"]):
                out[at + i] = die["value"]
                out[at + len(DICE) + i] = die["used"]
            at += 2 * len(DICE)
            out[at : at + 5] = (
                s["hand_size"],
                s["quests_held"],
                len(s["scored"]),
                s["loot"],
                s["tricks_won"],
            )
            at += 5
        for play in view["table"]:
            k = (play["seat"] - seat) % players
            base = at + k * (len(SUITS) + 3)
            out[base + SUITS.index(play["card"]["suit"])] = 1.0
            out[base + len(SUITS) : base + len(SUITS) + 3] = (
                play["die"],
                play["value"],
                play["followed"],
            )
        return out

    def encode_state(self, state: CritsAndTricksState, seat: int) -> npt.NDArray[np.float32]:
        """`encode(view(state, seat), seat)` without building the view. Only what the view
        shows `seat` is read: its own hand, secret quests and quest offer; of the others'
        hands and quests their counts; of the deck its size; never the rng.

        A numpy zero vector: most of it stays zero (the hand, the quests and the suits are
        one-hots), so those are written one by one; the dense block of the seats is built
        as a list and written in one slice."""
        out = np.zeros(self.size, dtype=np.float32)
        players = self.players
        two = players == 2  # as the view: with two, the quests are public, not held
        top = state.stack[-1] if state.stack else None
        if top is not None and top.seat == seat:
            out[DECISION_INDEX[top.kind]] = 1.0
            if top.kind == "crit":
                out[len(DECISIONS)] = state.crits_left
        at = self.suits_at
        for s in state.suits:
            out[at + s] = 1.0
        out[at + BARD] = 1.0  # the view lists the Bards' suit with the three in play
        at = self.hand_at
        for c in state.hands[seat]:
            out[at + c] = 1.0
        if state.led != NONE:
            out[self.led_at + state.led] = 1.0
        at = self.round_at
        out[at] = state.round
        out[at + 1] = state.trick
        out[at + 2] = len(state.deck)
        out[at + 3] = state.leader == seat
        at = self.quests_at
        if not two:
            for q in state.quests[seat]:
                out[at + q] = 1.0
        if top is not None and top.kind == "give_up" and top.seat == seat:
            for q in state.offered[seat]:
                out[at + self.quests + q] = 1.0
        if state.barkeep != NONE:
            out[self.loot_at] = state.content.barkeep[state.barkeep].loot
        # The seats' block is dense: built as a list and written in one slice, cheaper
        # than a numpy write per number. Tricks won are counted as the view counts them.
        winners = [t.winner for t in state.tricks]
        dice, used, hands, quests = state.dice, state.used, state.hands, state.quests
        block: list[float] = []
        for s in self.order[seat]:
            block += dice[s]
            block += USED[used[s]]
            block += (
                len(hands[s]),
                0 if two else len(quests[s]),
                len(state.scored[s]),
                state.loot[s],
                winners.count(s),
            )
        out[self.seats_at : self.table_at] = block
        fields = len(SUITS) + 3
        for play in state.table:
            base = self.table_at + (play.seat - seat) % players * fields
            out[base + state.card_suit[play.card]] = 1.0
            out[base + len(SUITS)] = DICE[play.die]
            out[base + len(SUITS) + 1] = dice[play.seat][play.die]
            out[base + len(SUITS) + 2] = play.followed
        return out


def make_encoding(config: Any, pack: Pack[Any]) -> CritsAndTricksEncoding:
    content = pack.content
    deck = content.deck
    two = config.players == 2
    copies = deck.two_player_copies if two else deck.copies
    bards = deck.two_player_bards if two else deck.bards
    return CritsAndTricksEncoding(
        config.players, 3 * copies + bards, len(content.quest), len(content.barkeep)
    )
