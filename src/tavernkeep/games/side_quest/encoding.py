"""Side Quest for learning agents: a fixed action indexing and an observation vector.

Built from `view(state, seat)` only; the layout is in ENCODING.md beside this file.
Every card of a game has an integer id (monsters, loot, weapons, then the scenario's
specials), and most actions name a card, a Location or a seat, so the action space is
each action kind over every id that kind could name. A Location or a seat is named by the
number people see (from 1); the order is the one of the days they were counted from 0, so
that an index of `move`, `wound`, `give` and the like names the Location or seat it named
then. `target` is over card ids, and Locations and heroes by number fall among them.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack

DECISIONS = (
    "turn", "hero", "weapon", "enter", "equip", "hit", "boost", "reroll", "push",
    "walk", "wound", "target", "trade", "monster",
)
PLAIN = ("loot", "trade", "end", "done", "keep", "ability")
BY_CARD = (
    "weapon", "pickup", "rescue", "key", "drop", "use", "cast", "hit", "target", "reroll",
)
BY_PLACE = ("enter", "move", "attack", "push", "step", "boost", "wound")
SHOWN = frozenset({"enter", "move", "attack", "push", "step", "wound"})
"""Kinds whose number is a Location or a seat as people see it, from 1 (`boost` names a die
of the roll and counts from 0, like card ids: no screen numbers the dice)."""
SEAT_FIELDS = 4  # health, Location, stunned, overburdened
SCALARS = 10


class SideQuestEncoding:
    def __init__(self, players: int, heroes: int, ids: int, weapons: list[int]) -> None:
        self.players, self.ids = players, ids
        self.row = players + 2
        reach = max(ids, self.row, players)
        actions = [Action(kind) for kind in PLAIN]
        actions += [Action("hero", h) for h in range(heroes)]
        for kind in BY_CARD:
            actions += [Action(kind, c) for c in range(-1, reach) if Action(kind, c) not in actions]
        for kind in BY_PLACE:
            shift = 1 if kind in SHOWN else 0
            places = [Action(kind, p + shift) for p in range(reach)]
            actions += [a for a in places if a not in actions]
        actions += [Action("give", c, s + 1) for c in range(ids) for s in range(players)]
        actions += [Action("equip", w) for w in weapons]
        actions += [Action("equip", *pair) for pair in combinations(sorted(weapons), 2)]
        self.actions = actions
        self.size = (
            len(DECISIONS) + SCALARS + self.row * 2 + ids * self.row + ids
            + players * SEAT_FIELDS + ids * players * 2
        )

    def encode(self, view: dict[str, Any], seat: int) -> npt.NDArray[np.float32]:
        out = np.zeros(self.size, dtype=np.float32)
        players, ids, row = self.players, self.ids, self.row
        decision = view["decision"]
        if decision is not None and decision["seat"] == seat and decision["kind"] in DECISIONS:
            out[DECISIONS.index(decision["kind"])] = 1.0
        at = len(DECISIONS)
        out[at : at + SCALARS] = (
            view["level"],
            view["turn"],
            view["turn_limit"],
            view["actions"],
            view["looted"],
            view["leader"] == seat,
            view["current"] == seat,
            view["dungeon_deck"],
            view["monster_deck"],
            view["loot_deck"],
        )
        at += SCALARS
        health = at + row * 2 + ids * row
        for place in view["locations"]:
            out[at + place["index"]] = place["revealed"]
            out[at + row + place["index"]] = bool(place["locked_door"])
            for card in place["cards"]:
                out[at + 2 * row + card["id"] * row + place["index"]] = 1.0
                out[health + card["id"]] = card.get("health") or 0
        at = health + ids
        held = at + players * SEAT_FIELDS
        for hero in view["heroes"]:
            k = (hero["seat"] - seat) % players
            base = at + k * SEAT_FIELDS
            out[base : base + SEAT_FIELDS] = (
                hero["health"],
                -1 if hero["location"] is None else hero["location"],
                hero["stunned"],
                hero["overburdened"],
            )
            for zone in ("weapons", "items", "spells"):
                for card in hero[zone]:
                    out[held + card["id"] * players + k] = 1.0
            for card in hero["equipped"]:
                out[held + ids * players + card * players + k] = 1.0
        return out


def make_encoding(config: Any, pack: Pack[Any]) -> SideQuestEncoding:
    content = pack.content
    elites = len(content.elite_weapons())
    loot = len(content.monster) + elites + len(content.item) + len(content.spell)
    basics = len(content.basic_weapons())
    specials = max(
        sum(lv.damsels + lv.runes + lv.portal for lv in sc.levels)
        + next(b.hearts for b in content.boss if b.name == sc.boss)
        for sc in content.scenario
    )
    ids = loot + basics + specials + 2  # the Boss and the key
    monsters = len(content.monster)
    weapons = [*range(monsters, monsters + elites), *range(loot, loot + basics)]
    return SideQuestEncoding(config.players, len(content.hero), ids, weapons)
