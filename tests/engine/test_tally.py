"""The designer tallies, for every game: what holds whatever the game counts.

Each game's own tests check that its tally says what its events say (tests/games/<game>/
test_tally.py); these check the mechanism: counted with events off as with them, copied
with a state and no more, every seat holding every declared kind, and every name counted
among the names the game declares its pack could count (so a report's dead card is one).
"""

from __future__ import annotations

from typing import Any

import pytest

from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import counts_of, tally_facts
from tavernkeep.games import all_games, get_game

GAMES = [game.name for game in all_games()]
ROUNDS = {"hack-and-slash": 30, "rage": 10, "side-quest": 12, "crits-and-tricks": 6}
"""Random games a test plays: Here to Slay's are long, Hack & Slash's and Rage's short."""


def play(name: str, seed: int, record: bool = True, state: Any = None) -> Any:
    game = get_game(name)
    if state is None:
        state = game.setup(game.make_config({}), seed, game.load_pack(None))
    rng = Rng(seed + 1)
    while game.actor(state) is not None:
        game.apply(state, rng.choice(game.legal_actions(state)), record=record)
    return state


@pytest.mark.parametrize("name", GAMES)
def test_games_without_events_count_the_same(name: str) -> None:
    for seed in range(ROUNDS.get(name, 3)):
        assert play(name, seed, record=False).tally == play(name, seed).tally


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_counts_on_its_own(name: str) -> None:
    game = get_game(name)
    state = game.setup(game.make_config({}), 5, game.load_pack(None))
    before = state.tally.copy()
    twin = play(name, 5, state=game.clone(state))
    assert state.tally == before
    assert sum(twin.tally.values()) > sum(before.values())


@pytest.mark.parametrize("name", GAMES)
def test_every_seat_holds_every_declared_kind_and_no_other(name: str) -> None:
    game = get_game(name)
    state = play(name, 2)
    result = game.result(state)
    assert result is not None
    facts = result.facts["tally"]
    assert len(facts) == len(result.scores)
    assert all(list(seat) == list(game.tally_kinds) for seat in facts)
    assert counts_of(facts) == {key: n for key, n in state.tally.items() if n}
    state.tally[0, "a kind nobody declared", "Bob"] += 1
    with pytest.raises(KeyError, match="a kind nobody declared"):
        tally_facts(state.tally, len(facts), game.tally_kinds)


@pytest.mark.parametrize("name", GAMES)
def test_counted_names_are_declared_names(name: str) -> None:
    game = get_game(name)
    declared = game.tally_names(game.load_pack(None).content)
    assert declared, f"{name} declares no names for any tally kind"
    assert set(declared) <= set(game.tally_kinds)
    counted: dict[str, set[str]] = {kind: set() for kind in declared}
    for seed in range(ROUNDS.get(name, 3)):
        for (_, kind, name_), n in play(name, seed, record=False).tally.items():
            if kind in counted and n:
                counted[kind].add(name_)
    for kind, names in declared.items():
        assert counted[kind] <= set(names), f"{name} {kind}: {counted[kind] - set(names)}"
    assert any(counted.values())
