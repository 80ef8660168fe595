"""Here to Slay for learning agents: a fixed action indexing and an observation vector.

Built from `view(state, seat)` only (`encode`), or read from the state for the seat
(`encode_state`), the same vector faster; the layout is in ENCODING.md beside this file.
Cards are numbered by the pack (each copy its own id), so the observation is mostly
"where is card i" planes, and the actions are each kind over the ids it could name.
Seats are counted from the observer (0 is me).
"""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np
import numpy.typing as npt

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.games.here_to_slay.cards import (
    CURSED,
    HERO,
    ITEM,
    MAGIC,
    MODIFIER,
    Catalog,
    build,
)
from tavernkeep.games.here_to_slay.rolls import roll_bonus
from tavernkeep.games.here_to_slay.state import NONE, HereToSlayState
from tavernkeep.games.here_to_slay.table import ATTACK_ROLL, CHALLENGE_ROLL

DECISIONS = (
    "turn",
    "modifier",
    "challenge",
    "pick",
    "aim",
    "free_roll",
    "may",
    "may_step",
    "target",
    "play_now",
    "leader",
)
PLAIN = ("draw", "redraw", "end", "challenge", "pass", "roll", "skip", "use")
OPEN_ROLLS = 8
"""Rolls on the table a Modifier may name, by number (1..8). A Challenge's window is over
two rolls and every other window over one, but a window can open while others wait: a
card drawn inside a window (a Monster's DRAW on every Modifier) and played at once (a
Monster's "play it at once") is challenged (two rolls more) or ATTACKs (one more) while
the first rolls wait. 3,000 random games reached four rolls at once, in 26 of their
windows; eight is twice that. A deeper nest is outside the space (the table names the
action it lacks)."""
SEAT_FIELDS = 5  # hand size, attack bonus, challenge bonus, monsters slain, is current
SCALARS = 5  # action points, turn, deck, monster deck, rolls waiting
DECISION_AT = {kind: i for i, kind in enumerate(DECISIONS)}


class HereToSlayEncoding:
    def __init__(self, players: int, cat: Catalog) -> None:
        self.players = players
        cards, monsters, leaders = len(cat.cards), len(cat.monsters), len(cat.leaders)
        self.cards, self.monsters, self.leaders = cards, monsters, leaders
        kinds = [c.kind for c in cat.cards]
        heroes = [i for i, k in enumerate(kinds) if k == HERO]
        items = [i for i, k in enumerate(kinds) if k in (ITEM, CURSED)]
        extras: set[int] = set()
        for entries in (*cat.leader_skills, cat.monster_skills):
            for skill, _, _ in entries:
                if skill.trigger == "on_play_modifier":
                    extras.update(skill.bonus)
        actions = [Action(kind) for kind in PLAIN]
        # Leaders, skills, players and rolls by the numbers the screen shows, from 1.
        actions += [Action("leader", i) for i in range(1, 1 + leaders)]
        actions += [Action("skill", k) for k in range(1, 2 + monsters)]
        actions += [Action("play", c) for c, k in enumerate(kinds) if k in (HERO, MAGIC)]
        actions += [Action("play", c, h) for c in items for h in heroes]
        actions += [Action("roll", h) for h in heroes]
        actions += [Action("attack", m) for m in range(monsters)]
        actions += [Action("steal", h) for h in heroes]
        actions += [Action("pick", c) for c in range(max(cards, monsters))]
        actions += [Action("pick", c, h) for c in items for h in heroes]
        actions += [Action("target", s) for s in range(1, 1 + players)]
        for c, card in enumerate(cat.cards):
            if card.kind != MODIFIER:
                continue
            for amount in card.options:
                for target in range(1, 1 + OPEN_ROLLS):
                    actions.append(Action("modify", c, amount, target))
                    actions += [Action("modify", c, amount, target, e) for e in sorted(extras)]
        self.actions = actions
        # Card planes: my hand, discard, being played, each seat's Party, equipped there.
        self.card_planes = 3 + 2 * players
        # Monster planes: the row, slain by each seat; leader planes: each seat's.
        self.size = (
            len(DECISIONS)
            + SCALARS
            + players * SEAT_FIELDS
            + cards * self.card_planes
            + monsters * (1 + players)
            + leaders * players
        )
        # For encode_state: where the card, Monster and leader planes start, and an
        # observation of zeros to copy (a C float array, see there).
        self.deck_at = len(DECISIONS) + SCALARS + players * SEAT_FIELDS
        self.row_at = self.deck_at + cards * self.card_planes
        self.lead_at = self.row_at + monsters * (1 + players)
        self.zeros = array("f", [0.0]) * self.size

    def encode(self, view: dict[str, Any], seat: int) -> npt.NDArray[np.float32]:
        out = np.zeros(self.size, dtype=np.float32)
        players, cards, monsters = self.players, self.cards, self.monsters
        planes = self.card_planes
        decision = view["decision"]
        if decision is not None and decision["seat"] == seat and decision["kind"] in DECISIONS:
            out[DECISIONS.index(decision["kind"])] = 1.0
        at = len(DECISIONS)
        out[at : at + SCALARS] = (
            view["action_points"],
            view["turn"],
            view["deck"],
            view["monster_deck"],
            len(view["rolls"]),
        )
        at += SCALARS
        seats = at
        at += players * SEAT_FIELDS
        deck = at
        for card in view["discard"]:
            out[deck + card["id"] * planes + 1] = 1.0
        for card in view["playing"]:
            out[deck + card["id"] * planes + 2] = 1.0
        row = deck + cards * planes
        for monster in view["monsters"]:
            out[row + monster["id"] * (1 + players)] = 1.0
        lead = row + monsters * (1 + players)
        for place in view["table"]:
            k = (place["seat"] - seat) % players
            out[seats + k * SEAT_FIELDS : seats + (k + 1) * SEAT_FIELDS] = (
                place["hand_size"],
                place["attack_bonus"],
                place["challenge_bonus"],
                len(place["slain"]),
                place["seat"] == view["current"],
            )
            for card in place["hand"] or ():
                out[deck + card["id"] * planes] = 1.0
            for hero in place["party"]:
                out[deck + hero["id"] * planes + 3 + k] = 1.0
                item = hero.get("item")
                if item is not None:
                    out[deck + item["id"] * planes + 3 + players + k] = 1.0
            for monster in place["slain"]:
                out[row + monster["id"] * (1 + players) + 1 + k] = 1.0
            leader = place["leader"]
            if leader is not None:
                out[lead + leader["id"] * players + k] = 1.0
        return out

    def encode_state(self, state: HereToSlayState, seat: int) -> npt.NDArray[np.float32]:
        """`encode(view(state, seat), seat)`, read from the state without building the
        view: only what the view shows `seat` (its own hand, the others' hand sizes, the
        public zones), and the seat bonuses by the view's own helper, `roll_bonus`.
        tests/rl/test_direct_encoders.py holds the two equal."""
        players, planes, stride = self.players, self.card_planes, 1 + self.players
        deck, row, lead = self.deck_at, self.row_at, self.lead_at
        # A C float array set element by element and handed to numpy without a copy:
        # its item assignment is a few times cheaper than an ndarray's, and cheaper than
        # gathering the indices for one fancy-indexed assignment.
        out = self.zeros[:]
        stack = state.stack
        if stack:
            top = stack[-1]
            at = DECISION_AT.get(top.kind)
            if at is not None and top.seat == seat:
                out[at] = 1.0
        at = len(DECISIONS)
        out[at] = state.ap
        out[at + 1] = state.turn
        out[at + 2] = len(state.deck)
        out[at + 3] = len(state.monster_deck)
        out[at + 4] = len(state.rolls)
        for c in state.discard:
            out[deck + c * planes + 1] = 1.0
        for f in stack:  # being played: the view lists these frames, not `state.playing`
            if f.kind == "play" or f.kind == "cast":
                out[deck + f.args[0] * planes + 2] = 1.0
        for m in state.row:
            out[row + m * stride] = 1.0
        for c in state.hands[seat]:  # my hand only: the others' are hidden
            out[deck + c * planes] = 1.0
        equipped = state.equipped
        at += SCALARS
        for s in range(state.players):
            k = (s - seat) % players
            slain = state.slain[s]
            field = at + k * SEAT_FIELDS
            out[field] = len(state.hands[s])
            out[field + 1] = roll_bonus(state, s, ATTACK_ROLL)
            out[field + 2] = roll_bonus(state, s, CHALLENGE_ROLL)
            out[field + 3] = len(slain)
            out[field + 4] = s == state.current
            for hero in state.parties[s]:
                out[deck + hero * planes + 3 + k] = 1.0
                item = equipped.get(hero)
                if item is not None:
                    out[deck + item * planes + 3 + players + k] = 1.0
            for m in slain:
                out[row + m * stride + 1 + k] = 1.0
            leader = state.leaders[s]
            if leader != NONE:
                out[lead + leader * players + k] = 1.0
        return np.frombuffer(out, dtype=np.float32)


def make_encoding(config: Any, pack: Pack[Any]) -> HereToSlayEncoding:
    return HereToSlayEncoding(config.players, build(pack.content))
