"""Positions laid out by hand for the Side Quest tests, shared by the test modules.

`arena` starts a game on the standard pack with named heroes and weapons entered where the
test says, takes back every card the first Refresh dealt, and gives the first seat its
turn; `put` then lays named cards on Locations and `dice` scripts the rolls.

pytest runs with --import-mode=importlib, so test modules cannot import a sibling module by
name; conftest.py loads this file once as `side_quest_helpers` and the tests import it.
"""

from __future__ import annotations

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.events import Event
from tavernkeep.engine.rng import ScriptedRng
from tavernkeep.games.side_quest import GAME, SideQuestState
from tavernkeep.games.side_quest.cards import card_name
from tavernkeep.games.side_quest.content import Level, SideQuestPack


def special_pack() -> Pack[SideQuestPack]:
    """The standard pack whose first scenario's first level deals a Damsel, a Rune and the
    Dark Portal."""
    content = GAME.load_pack().content
    first = content.scenario[0]
    level = Level(monsters=7, loot=3, damsels=1, runes=1, portal=1)
    scenario = first.model_copy(update={"levels": [level, *first.levels[1:]]})
    changed = content.model_copy(update={"scenario": [scenario, *content.scenario[1:]]})
    return Pack("side-quest", "test", "test", changed)


def hero_index(st: SideQuestState, name: str) -> int:
    return next(i for i, h in enumerate(st.content.hero) if h.name == name)


def card(st: SideQuestState, name: str) -> int:
    """The id of the card with this name (the special cards: 'a Damsel', 'a Dark Rune')."""
    return next(c for c in range(len(st.card_kind)) if card_name(st, c) == name)


def cards(st: SideQuestState, name: str) -> list[int]:
    return [c for c in range(len(st.card_kind)) if card_name(st, c) == name]


def arena(
    heroes: list[str],
    weapons: list[str],
    positions: list[int],
    scenario: str = "",
    turn_limit: int = 60,
    pack: Pack[SideQuestPack] | None = None,
    variants: dict[str, object] | None = None,
) -> SideQuestState:
    """Seat s plays heroes[s] with weapons[s], standing on the Location of index
    positions[s] (from 0, as the state counts: the Location shown as positions[s] + 1); every
    Location is face down and empty, and it is seat 0's turn, with 3 actions, as Leader.
    `variants` are the config's other options (RULES.md's variant flags)."""
    n = len(heroes)
    options = {"players": n, "scenario": scenario, "turn_limit": turn_limit}
    config = GAME.make_config({**options, **(variants or {})})
    st = GAME.setup(config, 7, pack)
    for seat in range(n):
        GAME.apply(st, Action("hero", hero_index(st, heroes[seat])))
        GAME.apply(st, Action("weapon", card(st, weapons[seat])))
    while st.stack[-1].kind == "enter":
        seat = st.stack[-1].seat
        GAME.apply(st, Action("enter", positions[seat] + 1))  # entered by its number
    # Face down again, so that no Location's effect applies unless a test reveals it.
    st.revealed = [False] * len(st.row)
    for loc in range(len(st.row)):
        for c in st.here[loc]:
            st.dungeon_deck.insert(1, c)
            st.depth.pop(c, None)
        st.here[loc] = []
    st.leader = 0
    st.stack = [Decision(0, "end_phase"), Decision(0, "monsters")]
    st.stack += [Decision(s, "hero_turn") for s in reversed(range(1, n))]
    st.stack.append(Decision(0, "turn"))
    st.current, st.actions, st.looted = 0, 3, False
    return st


def put(st: SideQuestState, name: str, loc: int) -> int:
    """Move the first card of that name not on a Location or with a hero onto `loc`."""
    held = {c for zone in (*st.here, *st.weapons, *st.items, *st.spells) for c in zone}
    c = next(c for c in cards(st, name) if c not in held)
    for zone in st.zones():
        if c in zone:
            zone.remove(c)
    st.here[loc].append(c)
    if st.card_kind[c] == "damsel":
        st.depth[c] = 0
    return c


def dice(st: SideQuestState, *values: int) -> None:
    st.rng = ScriptedRng(list(values))


def play(st: SideQuestState, *actions: str) -> list[Event]:
    events: list[Event] = []
    for text in actions:
        events += GAME.apply(st, Action.parse(text))
    return events


def texts(st: SideQuestState) -> set[str]:
    return {a.text for a in GAME.legal_actions(st)}


def location(st: SideQuestState, loc: int, name: str) -> None:
    """Make Location `loc` of the row the named one, revealed."""
    wanted = next(i for i, place in enumerate(st.content.location) if place.name == name)
    if wanted in st.row:
        other = st.row.index(wanted)
        st.row[other], st.revealed[other] = st.row[loc], st.revealed[loc]
    st.row[loc] = wanted
    st.revealed[loc] = True
