"""Side Quest invariants over random games: random legal actions, checked after each one.

Every game runs to its end (a short turn limit keeps them quick): hero health stays within
0-4, every card is in exactly one place, a seat asked to decide always has a choice, an
illegal action changes nothing, and the game ends with a named result.
"""

from __future__ import annotations

import json

import pytest

from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import IllegalAction
from tavernkeep.engine.rng import Rng
from tavernkeep.games.side_quest import GAME, SideQuestState
from tavernkeep.games.side_quest.dungeon import travel
from tavernkeep.games.side_quest.turn import ENDINGS, offered

SCENARIOS = ("The Cellar Below the Inn", "Webs Under Thornhold", "The Ashen Throne")
GAMES = 300


def check(st: SideQuestState) -> None:
    assert all(0 <= h <= 4 for h in st.health)
    placed = sorted(c for zone in st.zones() for c in zone)
    assert placed == list(range(len(st.card_kind)))
    for seat in range(st.players):
        assert set(st.equipped[seat]) <= set(st.weapons[seat])
        assert sum(st.content.weapon[st.card_ref[w]].hands for w in st.equipped[seat]) <= 2
    assert set(st.depth) == {c for zone in st.here for c in zone if st.card_kind[c] == "damsel"}
    if GAME.actor(st) is not None:
        assert GAME.legal_actions(st)
    else:
        assert GAME.legal_actions(st) == []


EAGER = ("key", "boost", "attack", "pickup", "hit", "rescue", "loot")
"""What a purposeful player reaches for first: with it, some games travel to level 3."""


def play_one(
    index: int, eager: bool = False, turn_limit: int = 6, boss_level: bool = False
) -> SideQuestState:
    options = {
        "players": 1 + index % 4,
        "scenario": SCENARIOS[index % 3],
        "heroes": "random" if index % 2 or boss_level else "choose",
        "turn_limit": turn_limit,
    }
    st = GAME.setup(GAME.make_config(options), 1000 + index)
    if boss_level:
        # Straight down to level 3, as if the Key had opened the Door twice.
        travel(st, None)
        travel(st, None)
    rng = Rng(index)
    check(st)
    steps = 0
    while GAME.actor(st) is not None:
        legal = GAME.legal_actions(st)
        # Random play drops its weapons half the time; make dropping rarer.
        choices = [a for a in legal if a.kind != "drop"] if rng.below(8) else legal
        if eager and rng.below(4):
            for kind in EAGER:
                wanted = [a for a in choices if a.kind == kind]
                if wanted:
                    choices = wanted
                    break
        action = rng.choice(choices or legal)
        assert GAME.label(st, action)
        GAME.apply(st, action, record=bool(index % 2))
        json.dumps(GAME.view(st, None))
        json.dumps(GAME.view(st, steps % st.players))
        check(st)
        steps += 1
        assert steps < 20000
    return st


@pytest.mark.parametrize("block", range(6))
def test_random_games_keep_the_invariants(block: int) -> None:
    for index in range(block, GAMES, 6):
        st = play_one(index)
        result = GAME.result(st)
        assert result is not None
        assert result.ending in ENDINGS
        assert result.won is (result.ending == "boss-slain")
        assert st.level_turns <= st.config.turn_limit


def test_purposeful_random_games_travel_and_keep_the_invariants() -> None:
    levels = set()
    # Random heroes mostly fall on level 1; a few of these 300 find the Key and the Door.
    for index in range(300):
        st = play_one(index, eager=True, turn_limit=40)
        levels.add(st.level)
        result = GAME.result(st)
        assert result is not None and result.ending in ENDINGS
    assert levels >= {1, 2}


def test_apply_checks_a_hero_action_exactly_as_the_listing_offers_it() -> None:
    # apply checks a hero's action against its own kind's offers only; every action some
    # position of the game offered must be accepted here exactly when listed here.
    for index in range(40):
        st = GAME.setup(GAME.make_config({"players": 1 + index % 4, "turn_limit": 8}), index)
        rng, seen = Rng(index), set()
        while GAME.actor(st) is not None:
            legal = GAME.legal_actions(st)
            top = st.stack[-1]
            if top.kind == "turn":
                seen.update(legal)
                for action in seen:
                    assert offered(st, top.seat, action) is (action in legal), action
            GAME.apply(st, rng.choice(legal), record=False)


def test_an_illegal_action_changes_nothing() -> None:
    st = GAME.setup(GAME.make_config({"players": 2}), 4)
    twin = GAME.clone(st)
    with pytest.raises(IllegalAction):
        GAME.apply(st, Action("attack", 1))
    assert st == twin


def test_clone_and_determinize_are_independent_of_the_original() -> None:
    st = GAME.setup(GAME.make_config({"players": 3, "heroes": "random"}), 8)
    for _ in range(3):
        GAME.apply(st, GAME.legal_actions(st)[0])
    twin = GAME.clone(st)
    assert twin == st
    GAME.apply(twin, GAME.legal_actions(twin)[-1])
    assert twin != st
    guess = GAME.determinize(st, 0, Rng(5))
    assert GAME.view(guess, 0)["locations"] == GAME.view(st, 0)["locations"]
    assert sorted(guess.row) != [] and len(set(guess.row)) == len(guess.row)
    assert guess.dungeon_deck[0] == st.dungeon_deck[0]
    assert len(guess.dungeon_deck) == len(st.dungeon_deck)


def test_the_same_seed_and_actions_replay_exactly() -> None:
    a, b = play_one(7), play_one(7)
    assert a == b


def test_random_games_on_the_boss_level_keep_the_invariants() -> None:
    endings = set()
    for index in range(200):
        st = play_one(index, eager=True, turn_limit=30, boss_level=True)
        assert st.level == 3
        result = GAME.result(st)
        assert result is not None and result.ending in ENDINGS
        assert result.won is (result.ending == "boss-slain")
        endings.add(result.ending)
    assert endings >= {"hero-fell", "damsel-lost", "boss-slain"}
