"""The dungeon: the row of Locations, the decks and the levels (RULES 2, 5, 6, 31).

A level is a row of face-down Locations and its own Dungeon deck, the Key or the Boss at
the bottom (`build_level`); each Refresh deals a card over each Location that holds no
Monster, Rune or Damsel (`deal`); a successful Key sends the heroes down to the next
level (`travel`). Here too is what every other module shares: `say` for the events an
action tells, the seats in order from the Leader, and `location_has`, a revealed passive
Location's effect on dealing and on the Monsters there (seal, block).
"""

from __future__ import annotations

from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.events import Event
from tavernkeep.games.side_quest.cards import card_name, location_name
from tavernkeep.games.side_quest.state import NONE, SideQuestState

Events = list[Event] | None
"""The events of an action being applied; None when the caller wants none (simulation)."""


def say(ev: Events, kind: str, text: str, **data: object) -> None:
    if ev is not None:
        ev.append(Event(kind, text, dict(data)))


def seat_order(st: SideQuestState) -> list[int]:
    """Every seat, from the Leader on."""
    return [(st.leader + i) % st.players for i in range(st.players)]


def basic_weapons(st: SideQuestState) -> list[int]:
    """The Basic weapons nobody has taken."""
    return sorted(c for c in st.box if st.card_kind[c] == "weapon")


def location_has(st: SideQuestState, loc: int, name: str) -> bool:
    """A revealed passive Location with this effect on the Monsters there (block)."""
    if not st.revealed[loc]:
        return False
    location = st.content.location[st.row[loc]]
    return location.when == "passive" and any(e.name == name for e in location.effects)


def build_level(st: SideQuestState, level: int) -> None:
    """RULES 2, 5 and 31: a new row, face down, and the level's Dungeon deck, with the Key
    (levels 1-2) or the Boss (level 3) at the bottom. Monsters and loot come from their
    decks; the level's Damsels, Runes, Portal and Hearts from the box."""
    content, rng, n = st.content, st.rng, st.players
    spec = content.scenario[st.scenario].levels[level - 1]
    boss_level = level == len(content.scenario[st.scenario].levels)
    door = next(i for i, loc in enumerate(content.location) if loc.locked_door)
    size = n + 2
    others = [i for i in range(len(content.location)) if i != door]
    rng.shuffle(others)
    if boss_level and size < len(content.location):
        row = others[:size]
    else:
        row = [door, *others[: size - 1]]
    rng.shuffle(row)
    st.level = level
    st.level_turns = 0
    st.row = row
    st.revealed = [False] * size
    st.here = [[] for _ in row]
    deck: list[int] = []
    for _ in range(spec.monsters):
        card = draw_monster(st)
        if card != NONE:
            deck.append(card)
    for _ in range(min(spec.loot, len(st.loot_deck))):
        deck.append(st.loot_deck.pop())
    wanted = {"damsel": spec.damsels, "rune": spec.runes, "portal": spec.portal}
    if boss_level:
        wanted["heart"] = len(st.card_kind)  # every Heart
    for c in sorted(st.box):
        kind = st.card_kind[c]
        if wanted.get(kind, 0) > 0:
            wanted[kind] -= 1
            st.box.remove(c)
            deck.append(c)
    rng.shuffle(deck)
    bottom = next(
        c for c in (*st.box, *st.removed) if st.card_kind[c] == ("boss" if boss_level else "key")
    )
    (st.box if bottom in st.box else st.removed).remove(bottom)
    st.dungeon_deck = [bottom, *deck]


def draw_monster(st: SideQuestState) -> int:
    """The top of the Monster deck, refilled from its shuffled discard; NONE if both are empty."""
    if not st.monster_deck and st.monster_discard:
        st.monster_deck = st.monster_discard
        st.monster_discard = []
        st.rng.shuffle(st.monster_deck)
    return st.monster_deck.pop() if st.monster_deck else NONE


def place(st: SideQuestState, card: int, loc: int) -> None:
    st.here[loc].append(card)
    if st.card_kind[card] == "damsel":
        st.depth[card] = 0


def refresh(st: SideQuestState, ev: Events) -> None:
    sealed = st.sealed
    st.sealed = set()
    deal(st, sealed, ev)


def deal(st: SideQuestState, sealed: set[int], ev: Events) -> None:
    """RULES 6: a card over each Location not holding a Monster, Rune or Damsel."""
    for loc in range(len(st.row)):
        if (
            loc in sealed
            or location_has(st, loc, "seal")
            or any(st.card_kind[c] in ("monster", "boss", "rune", "damsel") for c in st.here[loc])
        ):
            continue
        card = st.dungeon_deck.pop() if st.dungeon_deck else draw_monster(st)
        if card == NONE:
            return
        place(st, card, loc)
        say(
            ev,
            "deal",
            f"{card_name(st, card)} appears at {location_name(st, loc)}",
            card=card,
            location=loc,
        )


def travel(st: SideQuestState, ev: Events) -> None:
    """RULES 31: what is left on the old level goes to its discard pile (loot is gone);
    the heroes keep health and equipment, trade freely and enter the next level's row."""
    for zone in st.here:
        for c in zone:
            (st.monster_discard if st.card_kind[c] == "monster" else st.removed).append(c)
    for c in st.dungeon_deck:
        (st.monster_discard if st.card_kind[c] == "monster" else st.removed).append(c)
    st.dungeon_deck = []
    st.stunned.clear()
    st.queue = []
    st.current, st.actions = NONE, 0
    st.position = [NONE] * st.players
    build_level(st, st.level + 1)
    say(ev, "level", f"The heroes go down to level {st.level}", level=st.level)
    st.stack = [Decision(st.leader, "round")]
    for seat in reversed(seat_order(st)):
        st.stack.append(Decision(seat, "enter"))
    if st.players > 1:
        st.stack.append(Decision(st.leader, "trade", ()))
