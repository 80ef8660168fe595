"""Crits & Tricks for learning agents: a fixed action indexing and an observation vector.

Built from `view(state, seat)` only; the layout is in ENCODING.md beside this file.
Seats are counted from the observer (0 is me).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.games.crits_and_tricks.content import SUITS

DICE = (4, 6, 8, 10, 12, 20)
DECISIONS = ("play", "crit", "reroll", "bard", "give_up", "barkeep")
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
            len(DECISIONS) + 1 + 6 + cards + len(SUITS) + 4 + quests * 2 + 1
            + players * SEAT_FIELDS + players * (len(SUITS) + 3)
        )

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


def make_encoding(config: Any, pack: Pack[Any]) -> CritsAndTricksEncoding:
    content = pack.content
    deck = content.deck
    two = config.players == 2
    copies = deck.two_player_copies if two else deck.copies
    bards = deck.two_player_bards if two else deck.bards
    return CritsAndTricksEncoding(
        config.players, 3 * copies + bards, len(content.quest), len(content.barkeep)
    )
