"""Hack & Slash for learning agents: a fixed action indexing and an observation vector.

Built from `view(state, seat)` only; the layout is in ENCODING.md beside this file.
Seats are counted from the observer (0 is me, 1 the next seat in turn order), so a
policy learned in one seat plays in any seat. `encode_state` builds the same vector
straight from the state, reading only what the view shows (tests/rl/test_direct_encoders.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Derived, Pack
from tavernkeep.games.hack_and_slash.content import QuestCard
from tavernkeep.games.hack_and_slash.rules import EMPTY, FACES, HackAndSlashState

SLOTS = 3
DIE_SIDES = 6
SEAT_FIELDS = 4  # adventurers, score, turns taken, is the current player
QUEST_FIELDS = 6  # present, challenge, goal, exact, reward, adds an adventurer
NO_QUEST = (0.0,) * QUEST_FIELDS
NO_ATTEMPT = (0.0,) * 13

# The direct encoder's pieces, all ints: numpy converts a list of ints alone about twice
# as fast as one that mixes ints with bools or floats, and the numbers come out the same.
DECISION_AT = {"quest": 0, "rescue": 1}
NO_QUEST_INTS = (0,) * QUEST_FIELDS
NO_ATTEMPT_INTS = (0,) * 13
ATTEMPT_AT = tuple((1, *(int(slot == at) for at in range(SLOTS + 1))) for slot in range(SLOTS + 1))
"""An attempt's first fields, present and its slot one-hot, by slot (the Brag is 3)."""


def card_fields(cards: tuple[QuestCard, ...]) -> dict[int, tuple[int, ...]]:
    """Each card's quest fields by card index, and EMPTY's for a slot with none, read off
    the faces a view shows (`FACES`) so that the direct encoder cannot show other numbers."""
    fields: dict[int, tuple[int, ...]] = {
        card: (1, f["challenge"], f["goal"], int(f["exact"]), f["reward"], int(f["adventurer"]))
        for card, f in enumerate(FACES(cards))
    }
    fields[EMPTY] = NO_QUEST_INTS
    return fields


CARD_FIELDS: Derived[tuple[QuestCard, ...], dict[int, tuple[int, ...]]] = Derived(card_fields)
"""Built once a pack: every state of a game shares one tuple of cards."""


class HackAndSlashEncoding:
    def __init__(self, players: int) -> None:
        self.players = players
        self.actions: list[Action] = [
            *(Action("quest", slot + 1) for slot in range(SLOTS)),
            Action("brag"),
            Action("quit"),
            *(Action("rescue", value) for value in range(1, DIE_SIDES + 1)),
        ]
        self.size = 2 + SEAT_FIELDS * players + 4 + 3 + QUEST_FIELDS * SLOTS + 13 + 1
        # The seats in the order each observer sees them: itself first.
        self.order = [
            tuple((seat + k) % players for k in range(players)) for seat in range(players)
        ]

    def encode(self, view: dict[str, Any], seat: int) -> npt.NDArray[np.float32]:
        # Built as a Python list and converted once: a numpy write per number costs
        # more than the whole list, and this runs at every step of training.
        players = self.players
        decision = view["decision"]
        mine = decision is not None and decision["seat"] == seat
        kind = decision["kind"] if mine else ""
        out: list[float] = [kind == "quest", kind == "rescue"]
        parties, scores, turns = view["parties"], view["scores"], view["turns"]
        current = view["current"]
        for k in range(players):
            s = (seat + k) % players
            out += (parties[s], scores[s], turns[s], s == current)
        out += (view["tavern"], view["stand_ins"], view["draw_pile"], view["round"])
        brag = view["brag"]
        out += (brag["challenge"], brag["goal"], brag["exact"])
        for quest in view["quests"]:
            if quest is None:
                out += NO_QUEST
            else:
                out += (
                    1.0,
                    quest["challenge"],
                    quest["goal"],
                    quest["exact"],
                    quest["reward"],
                    quest["adventurer"],
                )
        attempt = view["attempt"]
        if attempt is None:
            out += NO_ATTEMPT
        else:
            where = [0.0] * (SLOTS + 1)
            where[attempt["slot"]] = 1.0
            faces = [0.0] * DIE_SIDES
            for die in attempt["dice"]:
                faces[die - 1] += 1.0
            out += (1.0, *where, attempt["adventurers"], *faces, attempt["total"])
        out.append(view["ending"] is not None)
        return np.array(out, dtype=np.float32)

    def encode_state(self, state: HackAndSlashState, seat: int) -> npt.NDArray[np.float32]:
        """`encode(view(state, seat), seat)` without building the view. It reads only
        what the view shows: of the draw pile its size, never its order, nor the rng."""
        out: list[int] = [0, 0]
        top = state.stack[-1] if state.stack else None
        if top is not None and top.seat == seat and top.kind in DECISION_AT:
            out[DECISION_AT[top.kind]] = 1
        parties, scores, turns = state.parties, state.scores, state.turns
        for s in self.order[seat]:
            out += (parties[s], scores[s], turns[s], 0)
        # The current player's flag, at its place counted from the observer.
        out[2 + SEAT_FIELDS * ((state.current - seat) % self.players) + 3] = 1
        out += (state.tavern, state.stand_ins, len(state.pile), state.round)
        fields = CARD_FIELDS(state.cards)
        out += fields[0][1:4]  # the Brag is card 0: challenge, goal, exact
        for card in state.row:
            out += fields[card]
        if state.slot == EMPTY:
            out += NO_ATTEMPT_INTS
        else:
            dice = state.dice
            faces = [0] * DIE_SIDES
            for die in dice:
                faces[die - 1] += 1
            out += (*ATTEMPT_AT[state.slot], state.on_card, *faces, sum(dice))
        out.append(1 if state.ending else 0)  # the view shows `ending or None`
        return np.array(out, dtype=np.float32)


def make_encoding(config: Any, pack: Pack[Any]) -> HackAndSlashEncoding:
    return HackAndSlashEncoding(config.players)
