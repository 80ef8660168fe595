"""Rage for learning agents: a fixed action indexing and an observation vector.

Built from `view(state, 0)` only; the layout is in ENCODING.md beside this file. The map
is a pack's, so the vector has one block of planes per open cell of that map.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.games.rage.village import village_of

DECISIONS = ("move", "combat", "backstab")
MODES = ("patrolling", "returning", "holding", "destroyed")
PLANES = 6  # me, my sight, food, skeleton, a skeleton's sight, visited house
SCALARS = 12
SKELETON_FIELDS = 2 + len(MODES) + 2  # hp, facing, mode, sees you, back to you


class RageEncoding:
    def __init__(self, cells: int, skeletons: int) -> None:
        self.cells, self.skeletons = cells, skeletons
        self.actions: list[Action] = [
            *(Action("step", d) for d in range(6)),
            Action("stop"),
            Action("escape"),
            Action("backstab"),
            Action("spare"),
            Action("fight"),
            Action("disengage"),
        ]
        self.size = (
            len(DECISIONS) + PLANES * cells + SCALARS + 6 + skeletons * SKELETON_FIELDS
            + 2 * skeletons
        )

    def encode(self, view: dict[str, Any], seat: int) -> npt.NDArray[np.float32]:
        out = np.zeros(self.size, dtype=np.float32)
        cells = self.cells
        decision = view["decision"]
        if decision is not None:
            out[DECISIONS.index(decision["kind"])] = 1.0
        at = len(DECISIONS)
        me = view["player"]
        out[at + me["cell"]] = 1.0
        for cell in me["sight"]:
            out[at + cells + cell] = 1.0
        for cell, count in view["food"]:
            out[at + 2 * cells + cell] = count
        for house in view["map"]["houses"]:
            if house["visited"]:
                for cell in house["cells"]:
                    out[at + 5 * cells + cell] = 1.0
        for sk in view["skeletons"]:
            if sk["mode"] != "destroyed":
                out[at + 3 * cells + sk["cell"]] = 1.0
                for cell in sk["sight"]:
                    out[at + 4 * cells + cell] = 1.0
        at += PLANES * cells
        out[at : at + SCALARS] = (
            view["turn"],
            view["turn_limit"],
            me["hp"],
            me["max_hp"],
            me["raging"],
            me["rage"],
            me["bag"],
            me["steps_left"],
            view["food_left"],
            view["rage_limit"],
            view["win_food"],
            sum(view["dice"]),
        )
        at += SCALARS
        out[at + me["facing"]] = 1.0
        at += 6
        for sk in view["skeletons"][: self.skeletons]:
            out[at] = sk["hp"]
            out[at + 1] = sk["facing"]
            out[at + 2 + MODES.index(sk["mode"])] = 1.0
            out[at + 6] = sk["sees_you"]
            out[at + 7] = sk["back_to_you"]
            at += SKELETON_FIELDS
        at = self.size - 2 * self.skeletons
        if view["foe"] is not None:
            out[at + view["foe"]] = 1.0
        if view["offer"] is not None:
            out[at + self.skeletons + view["offer"]] = 1.0
        return out


def make_encoding(config: Any, pack: Pack[Any]) -> RageEncoding:
    village = village_of(pack.content)
    return RageEncoding(len(village.cells), len(village.patrols))
