"""What a card of Side Quest is: its name and numbers as a player reads them.

Every card is an integer id fixed at setup (state.py); `card_kind` and `card_ref` say what
it stands for in the pack. These read a card, a hero or a Location of the row and change
nothing: the Monster or Boss behind a fighter, its health (a Dark Rune's, the Portal's and
a Dungeon Heart's too; RULES 27-29), its ability, a weapon's numbers. `shown` and
`index_of` are where a Location or a seat becomes the number people see and type (from 1)
and back.
"""

from __future__ import annotations

from typing import Any

from tavernkeep.engine.actions import Arg
from tavernkeep.games.side_quest.content import MONSTER_ABILITIES, Boss, Monster, Weapon
from tavernkeep.games.side_quest.state import NONE, SideQuestState

LOOT_KINDS = ("weapon", "item", "spell")
FIGHTERS = ("monster", "boss")
"""What activates and attacks, and counts as an active Monster where one stands."""


def shown(index: int) -> int:
    """The number people see for a Location (1 is the leftmost) or a seat (Player 1 is
    seat 0). Action texts name Locations and seats by it, so that what a person types is
    what the screens show; the state counts from 0."""
    return index + 1


def index_of(number: Arg) -> int:
    """The Location or seat an action's number names: `shown`, undone."""
    return int(number) - 1


def who(st: SideQuestState, seat: int) -> str:
    h = st.hero[seat]
    return st.content.hero[h].name if h != NONE else f"Player {shown(seat)}"


def card_name(st: SideQuestState, card: int) -> str:
    kind, ref = st.card_kind[card], st.card_ref[card]
    c = st.content
    if kind == "monster":
        return c.monster[ref].name
    if kind == "boss":
        return c.boss[ref].name
    if kind == "weapon":
        return c.weapon[ref].name
    if kind == "item":
        return c.item[ref].name
    if kind == "spell":
        return c.spell[ref].name
    return {
        "damsel": "a Damsel",
        "rune": "a Dark Rune",
        "portal": "the Dark Portal",
        "key": "the Dungeon Key",
        "heart": "a Dungeon Heart",
    }[kind]


def card_numbers(st: SideQuestState, card: int) -> dict[str, Any]:
    """What a player reads on a card's face: a fighter's or weapon's numbers, a card's text.

    A fighter's ability comes with its wording (`ability_text`, the pack's MONSTER_ABILITIES),
    so a renderer need not keep a copy of it."""
    kind, ref, c = st.card_kind[card], st.card_ref[card], st.content
    if kind in FIGHTERS:
        f = fighter_of(st, card)
        return {
            "health": health_of(st, card),
            "move": f.move,
            "range": f.range,
            "dice": f.dice,
            "hit": f.hit,
            "damage": f.damage,
            "ability": f.ability,
            "ability_text": MONSTER_ABILITIES[f.ability] if f.ability else None,
            "text": f.text,
        }
    if kind == "weapon":
        w = c.weapon[ref]
        return {
            "tier": w.tier,
            "hands": w.hands,
            "range": w.range,
            "dice": w.dice,
            "hit": w.hit,
            "damage": w.damage,
            "text": w.text,
        }
    if kind == "item":
        return {"text": c.item[ref].text, "consumed": c.item[ref].consumed}
    if kind == "spell":
        return {"text": c.spell[ref].text, "roll": c.spell[ref].roll}
    if kind in ("rune", "portal", "heart"):
        return {"health": health_of(st, card)}
    return {}


def location_name(st: SideQuestState, loc: int) -> str:
    if st.revealed[loc]:
        return st.content.location[st.row[loc]].name
    return f"the face-down Location {shown(loc)}"


def fighter_of(st: SideQuestState, card: int) -> Monster | Boss:
    if st.card_kind[card] == "boss":
        return st.content.boss[st.card_ref[card]]
    return st.content.monster[st.card_ref[card]]


def health_of(st: SideQuestState, card: int) -> int:
    kind = st.card_kind[card]
    if kind == "monster":
        return st.content.monster[st.card_ref[card]].health
    if kind == "rune":
        return st.content.specials.rune_health
    if kind == "heart":
        return st.content.specials.heart_health
    if kind == "boss":
        return st.content.boss[st.card_ref[card]].hearts
    return st.content.specials.portal_health


def ability(st: SideQuestState, card: int) -> str | None:
    """The Monster or Boss ability of a card (None for any other card)."""
    kind = st.card_kind[card]
    if kind == "monster":
        return st.content.monster[st.card_ref[card]].ability
    if kind == "boss":
        return st.content.boss[st.card_ref[card]].ability
    return None


def weapon_of(st: SideQuestState, card: int) -> Weapon:
    return st.content.weapon[st.card_ref[card]]
