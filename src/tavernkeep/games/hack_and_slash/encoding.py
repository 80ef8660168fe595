"""Hack & Slash for learning agents: a fixed action indexing and an observation vector.

Built from `view(state, seat)` only; the layout is in ENCODING.md beside this file.
Seats are counted from the observer (0 is me, 1 the next seat in turn order), so a
policy learned in one seat plays in any seat.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack

SLOTS = 3
DIE_SIDES = 6
SEAT_FIELDS = 4  # adventurers, score, turns taken, is the current player
QUEST_FIELDS = 6  # present, challenge, goal, exact, reward, adds an adventurer
NO_QUEST = (0.0,) * QUEST_FIELDS
NO_ATTEMPT = (0.0,) * 13


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


def make_encoding(config: Any, pack: Pack[Any]) -> HackAndSlashEncoding:
    return HackAndSlashEncoding(config.players)
