"""Positions laid out by hand for the Crits & Tricks tests, shared by the test modules.

A test builds a game on a small pack of its own (so a retuned standard pack changes
nothing here), answers the round's opening decisions (quests, the Barkeep), then deals
named suits into hands, sets dice values, and scripts re-rolls with ScriptedRng.

pytest runs with --import-mode=importlib, so test modules cannot import a sibling module by
name; conftest.py loads this file once as `crits_and_tricks_helpers` and the tests import it.
"""

from __future__ import annotations

from typing import Any

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.engine.events import Event
from tavernkeep.engine.rng import ScriptedRng
from tavernkeep.games.crits_and_tricks import GAME, CritsAndTricksState
from tavernkeep.games.crits_and_tricks.content import (
    SUITS,
    Barkeep,
    CritsAndTricksPack,
    Quest,
)

SUIT = {name.lower(): i for i, name in enumerate(SUITS)}
"""'barbarian' -> 0 ... 'bard' -> 5, the suit ids of the rules."""
SIZES = (4, 6, 8, 10, 12, 20)

QUESTS: dict[str, dict[str, Any]] = {
    "Bard Haul": {"loot": 2, "when": {"suit": "Bard"}},
    "Leader's Luck": {"loot": 1, "when": {"leading": True}},
    "Follower's Luck": {"loot": 1, "when": {"leading": False}},
    "Sore Loser": {"loot": 1, "when": {"result": "lose"}},
    "Show Up": {"loot": 1, "when": {"result": "play"}},
    "High Roller": {"loot": 2, "when": {"min_value": 15}},
    "Little Win": {"loot": 3, "when": {"max_value": 2}},
    "Double Up": {"loot": 3, "when": {}, "times": 2, "in_a_row": True},
    "First Blood": {"loot": 1, "when": {"trick": 1}},
    "Crit Happy": {"loot": 2, "when": {"crit": "any"}},
    "Off Suit": {"loot": 1, "when": {"result": "play", "followed": False}},
    "Small Die": {"loot": 2, "when": {"die": 4}},
    "Barbarian Win": {"loot": 2, "when": {"suit": "Barbarian"}},
    "Rogue Win": {"loot": 2, "when": {"suit": "Rogue"}},
    "Wizard Win": {"loot": 2, "when": {"suit": "Wizard"}},
    "Druid Win": {"loot": 2, "when": {"suit": "Druid"}},
    "Paladin Win": {"loot": 2, "when": {"suit": "Paladin"}},
}
BARKEEPS: dict[str, dict[str, Any]] = {
    "Most Tricks": {"loot": 3, "measure": "tricks_won"},
    "Bard Collector": {"loot": 2, "measure": "bards_won"},
    "Creative": {"loot": 2, "measure": "suits_won", "min_players": 3},
    "Careful": {"loot": 2, "measure": "cards_left"},
    "Steady Hand": {"loot": 1, "measure": "rerolls", "best": "fewest"},
}


def make_pack(
    quests: dict[str, dict[str, Any]] | None = None,
    barkeeps: dict[str, dict[str, Any]] | None = None,
) -> Pack[CritsAndTricksPack]:
    content = CritsAndTricksPack(
        quest=[
            Quest.model_validate({"name": name, "text": name, **fields}, strict=False)
            for name, fields in (quests or QUESTS).items()
        ],
        barkeep=[
            Barkeep(name=name, text=name, **fields)
            for name, fields in (barkeeps or BARKEEPS).items()
        ],
    )
    return Pack(game=GAME.name, name="rules-test", digest="rules-test", content=content)


PACK = make_pack()
QUEST_NAMES = list(QUESTS)
BARKEEP_NAMES = list(BARKEEPS)


def quest_id(name: str) -> int:
    return QUEST_NAMES.index(name)


def barkeep_id(name: str) -> int:
    """The challenge's place in the pack, from 0, as the state holds it."""
    return BARKEEP_NAMES.index(name)


def choose_barkeep(name: str) -> str:
    """The action choosing the named challenge: numbered from 1, as the screen lists them."""
    return f"barkeep:{barkeep_id(name) + 1}"


def new_game(
    players: int = 3,
    suits: tuple[str, ...] = ("barbarian", "rogue", "druid"),
    seed: int = 1,
    pack: Pack[CritsAndTricksPack] = PACK,
    **options: Any,
) -> CritsAndTricksState:
    """A fresh game, stopped at the round's first decision (quests or the Barkeep)."""
    config = GAME.make_config({"players": players, "suits": list(suits), **options})
    return GAME.setup(config, seed, pack)


def settle(st: CritsAndTricksState, barkeep: str | None = None) -> None:
    """Answer the round's opening decisions: every seat gives up the first quest offered,
    the chooser takes the named Barkeep's Challenge (else the first one offered)."""
    while st.stack and st.stack[-1].kind in ("give_up", "barkeep"):
        if st.stack[-1].kind == "give_up":
            act(st, texts(st)[0])
        else:
            act(st, choose_barkeep(barkeep) if barkeep else texts(st)[0])


def no_quests(st: CritsAndTricksState) -> None:
    """Put every quest held back into the quest deck, so no quest pays in the test."""
    for held in st.quests:
        st.quest_deck.extend(held)
        held.clear()


def start(
    players: int = 3,
    suits: tuple[str, ...] = ("barbarian", "rogue", "druid"),
    barkeep: str | None = "Steady Hand",
    **options: Any,
) -> CritsAndTricksState:
    """A game at the first trick's lead (seat 0), no quests held. By default the Barkeep's
    challenge is 'Steady Hand', which pays nobody when nobody re-rolls."""
    st = new_game(players, suits, **options)
    settle(st, barkeep)
    no_quests(st)
    return st


def deal(st: CritsAndTricksState, *hands: str) -> list[list[int]]:
    """Give each seat, in seat order, the named suits ('barbarian bard bard'); every other
    card goes to the deck. Returns the card ids dealt, hand by hand, in the order named."""
    assert len(hands) == st.players
    pool = sorted(st.deck + [c for h in st.hands for c in h])
    dealt: list[list[int]] = []
    for words in hands:
        cards = []
        for word in words.split():
            card = next(c for c in pool if st.card_suit[c] == SUIT[word])
            pool.remove(card)
            cards.append(card)
        dealt.append(cards)
    st.hands = [cards[:] for cards in dealt]
    st.deck = pool
    return dealt


def set_dice(st: CritsAndTricksState, seat: int, **values: int) -> None:
    """set_dice(st, 0, d20=7, d4=1): those dice of that seat show those values."""
    for name, value in values.items():
        st.dice[seat][SIZES.index(int(name[1:]))] = value


def value(st: CritsAndTricksState, seat: int, size: int) -> int:
    return st.dice[seat][SIZES.index(size)]


def used(st: CritsAndTricksState, seat: int) -> set[int]:
    return {size for i, size in enumerate(SIZES) if st.used[seat] >> i & 1}


def script(st: CritsAndTricksState, *values: int) -> None:
    st.rng = ScriptedRng(list(values), seed=1)


def act(st: CritsAndTricksState, *texts_: str) -> list[Event]:
    events: list[Event] = []
    for text in texts_:
        events += GAME.apply(st, Action.parse(text))
    return events


def decision(st: CritsAndTricksState) -> tuple[int, str]:
    top = st.stack[-1]
    return top.seat, top.kind


def texts(st: CritsAndTricksState) -> list[str]:
    return [a.text for a in GAME.legal_actions(st)]


def turn(st: CritsAndTricksState, card: int, size: int, named: str = "") -> list[Event]:
    """Play a card on a die, keep the die, and use no crit."""
    seat = decision(st)[0]
    text = f"play:{card},{size}" + (f",{named}" if named else "")
    events = act(st, text, "keep")
    if st.stack and decision(st) == (seat, "crit"):
        events += act(st, "done")
    return events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def taken(events: list[Event]) -> int:
    """The seat that took the last trick among these events (the record of a round's last
    trick is gone once the next round starts, the event is not)."""
    return int([e for e in events if e.kind == "trick"][-1].data["seat"])
