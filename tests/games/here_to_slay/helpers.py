"""Positions laid out by hand for the Here to Slay tests, shared by the test modules.

A test sets up a real game, lets each seat choose a named Party Leader, then moves named
cards into hands, Parties and the Monster row, and scripts the dice with ScriptedRng.

pytest runs with --import-mode=importlib, so test modules cannot import a sibling module by
name; conftest.py loads this file once as `here_to_slay_helpers` and the tests import that.
"""

from __future__ import annotations

from tavernkeep.engine.actions import Action
from tavernkeep.engine.events import Event
from tavernkeep.engine.rng import ScriptedRng
from tavernkeep.games.here_to_slay import GAME, HereToSlayState

PACK = GAME.load_pack()
LEADERS = ("The Ember Sage", "The Shadow Claw", "The Wild Hawk", "The Iron Boar")
"""Seat 0's Leader only helps Magic, so seat 0's rolls have no bonus unless a test says so."""


def new_game(
    players: int = 3, leaders: tuple[str, ...] = LEADERS, **options: object
) -> HereToSlayState:
    # Seats with nothing to play are not asked in these positions (ask_everyone=false),
    # so a test names only the answers that matter; test_windows.py plays the default.
    config = GAME.make_config({"players": players, "ask_everyone": False, **options})
    st = GAME.setup(config, 7, PACK)
    names = [leader.name for leader in st.catalog.leaders]
    while st.stack and st.stack[-1].kind == "leader":
        seat = st.stack[-1].seat
        GAME.apply(st, Action("leader", names.index(leaders[seat]) + 1))  # #1 is the first
    for seat in range(players):
        st.deck.extend(st.hands[seat])
        st.hands[seat].clear()
    return st


def card_ids(st: HereToSlayState, name: str) -> list[int]:
    return [i for i, card in enumerate(st.catalog.cards) if card.name == name]


def take(st: HereToSlayState, name: str) -> int:
    """A card of that name out of the deck or the discard pile."""
    for card in card_ids(st, name):
        for pile in (st.deck, st.discard):
            if card in pile:
                pile.remove(card)
                return card
    raise AssertionError(f"no free copy of {name}")


def give(st: HereToSlayState, seat: int, *names: str) -> list[int]:
    cards = [take(st, name) for name in names]
    st.hands[seat].extend(cards)
    return cards


def field(st: HereToSlayState, seat: int, *names: str) -> list[int]:
    heroes = [take(st, name) for name in names]
    st.parties[seat].extend(heroes)
    return heroes


def equip(st: HereToSlayState, hero: int, name: str) -> int:
    item = take(st, name)
    st.equipped[hero] = item
    return item


def monster(st: HereToSlayState, name: str) -> int:
    return [m.name for m in st.catalog.monsters].index(name)


def set_row(st: HereToSlayState, *names: str) -> list[int]:
    st.monster_deck.extend(st.row)
    st.row.clear()
    for n in names:
        m = monster(st, n)
        st.monster_deck.remove(m)
        st.row.append(m)
    return st.row[:]


def slain_by(st: HereToSlayState, seat: int, name: str) -> int:
    m = monster(st, name)
    (st.row if m in st.row else st.monster_deck).remove(m)
    st.slain[seat].append(m)
    return m


def dice(st: HereToSlayState, *values: int) -> None:
    st.rng = ScriptedRng(list(values), seed=1)


def act(st: HereToSlayState, text: str) -> None:
    GAME.apply(st, Action.parse(text))


def act_events(st: HereToSlayState, text: str) -> list[Event]:
    """Apply an action and return every event it made (private ones whole)."""
    return GAME.apply(st, Action.parse(text))


def choose(st: HereToSlayState, target: int) -> None:
    """Choose seat `target` (Player target + 1) as the effect's player when asked. A player
    that the effect alone can reach is chosen without a question (RULES 39); what then
    moves says who it was."""
    if st.stack[-1].kind == "target":
        act(st, f"target:{target + 1}")


def decision(st: HereToSlayState) -> tuple[int, str]:
    top = st.stack[-1]
    return top.seat, top.kind


def texts(st: HereToSlayState) -> list[str]:
    return [a.text for a in GAME.legal_actions(st)]


def on_top(st: HereToSlayState, *names: str) -> list[int]:
    """Put named cards on top of the main deck: the first name is drawn first."""
    cards = [take(st, name) for name in names]
    st.deck.extend(reversed(cards))
    return cards
