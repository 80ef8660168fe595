"""Side Quest for learning agents: a fixed action indexing and an observation vector.

Built from `view(state, seat)` only; the layout is in ENCODING.md beside this file.
Every card of a game has an integer id (monsters, loot, weapons, then the scenario's
specials), and most actions name a card, a Location or a seat, so the action space is
each action kind over every id that kind could name. A Location or a seat is named by the
number people see (from 1); the order is the one of the days they were counted from 0, so
that an index of `move`, `wound`, `give` and the like names the Location or seat it named
then. `target` is over card ids, and Locations and heroes by number fall among them.
`encode_state` builds the same vector straight from the state, reading only what the view
shows (tests/rl/test_direct_encoders.py).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Derived, Pack
from tavernkeep.games.side_quest.cards import card_numbers
from tavernkeep.games.side_quest.content import SideQuestPack
from tavernkeep.games.side_quest.heroes import overburdened
from tavernkeep.games.side_quest.state import NONE, SideQuestState

DECISIONS = (
    "turn",
    "hero",
    "weapon",
    "enter",
    "equip",
    "hit",
    "boost",
    "reroll",
    "push",
    "walk",
    "wound",
    "target",
    "trade",
    "monster",
)
PLAIN = ("loot", "trade", "end", "done", "keep", "ability")
BY_CARD = (
    "weapon",
    "pickup",
    "rescue",
    "key",
    "drop",
    "use",
    "cast",
    "hit",
    "target",
    "reroll",
)
BY_PLACE = ("enter", "move", "attack", "push", "step", "boost", "wound")
SHOWN = frozenset({"enter", "move", "attack", "push", "step", "wound"})
"""Kinds whose number is a Location or a seat as people see it, from 1 (`boost` names a die
of the roll and counts from 0, like card ids: no screen numbers the dice)."""
DECISION_INDEX = {kind: i for i, kind in enumerate(DECISIONS)}
SEAT_FIELDS = 4  # health, Location, stunned, overburdened
SCALARS = 10


Cards = tuple[tuple[str, ...], tuple[int, ...]]
HEALTH: Derived[SideQuestPack, dict[Cards, tuple[int, ...]]] = Derived(lambda _: {})
"""Each card id's health, by a game's (card_kind, card_ref): every game of a scenario has
the same cards, so a new game finds its table here instead of reading every card again."""


def card_health(state: SideQuestState) -> tuple[int, ...]:
    """Each card id's health as a view shows it on the card's face (`card_numbers`, the
    view's own reading), 0 for a card without one: fixed for a game, as its cards are."""
    known = HEALTH(state.content)
    cards = (state.card_kind, state.card_ref)
    health = known.get(cards)
    if health is None:
        if len(known) > 64:  # a few a scenario are expected; never let it grow unbounded
            known.clear()
        health = tuple(card_numbers(state, c).get("health") or 0 for c in range(len(cards[0])))
        known[cards] = health
    return health


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
            len(DECISIONS)
            + SCALARS
            + self.row * 2
            + ids * self.row
            + ids
            + players * SEAT_FIELDS
            + ids * players * 2
        )
        # Where each block of the vector starts: constants of the layout.
        self.places_at = len(DECISIONS) + SCALARS
        self.health_at = self.places_at + self.row * 2 + ids * self.row
        self.heroes_at = self.health_at + ids
        self.held_at = self.heroes_at + players * SEAT_FIELDS
        self.equipped_at = self.held_at + ids * players
        # The health of the last game's cards and what it was read from: a game's cards
        # are fixed at setup (a clone shares the tuples and the pack), so most calls check
        # identity alone; held here, an object's id is never reused while it is compared.
        self._read_from: tuple[object, object, object] = (None, None, None)
        self._health: tuple[int, ...] = ()

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

    def encode_state(self, state: SideQuestState, seat: int) -> npt.NDArray[np.float32]:
        """`encode(view(state, seat), seat)` without building the view. Only what the view
        shows is read: a Location's face once it is revealed, the decks' sizes, never their
        order, the face-down Locations or the rng.

        A numpy zero vector written element by element: it is mostly zeros (a card's place
        is a one-hot over the row, its holder over the seats). `overburdened` is the view's
        own reading (the hero's item limit with its bonuses), the costliest part here."""
        out = np.zeros(self.size, dtype=np.float32)
        players, row = self.players, self.row
        # The view shows no decision once the game has ended.
        if state.stack and not state.ending:
            top = state.stack[-1]
            if top.seat == seat:
                kind = DECISION_INDEX.get(top.kind)
                if kind is not None:
                    out[kind] = 1.0
        at = len(DECISIONS)
        turn_limit = state.config.turn_limit
        out[at] = state.level
        out[at + 1] = min(state.level_turns + 1, turn_limit)  # as the view: never past it
        out[at + 2] = turn_limit
        out[at + 3] = state.actions
        out[at + 4] = state.looted
        out[at + 5] = state.leader == seat
        out[at + 6] = state.current == seat
        out[at + 7] = len(state.dungeon_deck)
        out[at + 8] = len(state.monster_deck)
        out[at + 9] = len(state.loot_deck)
        kinds, refs, content = self._read_from
        if (
            state.card_kind is not kinds
            or state.card_ref is not refs
            or state.content is not content
        ):
            self._read_from = (state.card_kind, state.card_ref, state.content)
            self._health = card_health(state)
        health = self._health
        at, cards_at, health_at = self.places_at, self.places_at + 2 * row, self.health_at
        locations = state.content.location
        for i, loc in enumerate(state.row):
            if state.revealed[i]:
                out[at + i] = 1.0
                # Only a revealed Location's face is read: the row hides the others.
                out[at + row + i] = bool(locations[loc].locked_door)
            for c in state.here[i]:
                out[cards_at + c * row + i] = 1.0
                out[health_at + c] = health[c]
        at, held, equipped = self.heroes_at, self.held_at, self.equipped_at
        for s in range(players):
            k = (s - seat) % players
            base = at + k * SEAT_FIELDS
            out[base] = state.health[s]
            place = state.position[s]
            out[base + 1] = place if place != NONE else -1  # the view's None: not entered
            out[base + 2] = state.hero_stun[s] != NONE
            out[base + 3] = state.hero[s] != NONE and overburdened(state, s)
            for zone in (state.weapons, state.items, state.spells):
                for c in zone[s]:
                    out[held + c * players + k] = 1.0
            for c in state.equipped[s]:
                out[equipped + c * players + k] = 1.0
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
