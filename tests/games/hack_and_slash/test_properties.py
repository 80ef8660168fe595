"""Thousands of random games of Hack & Slash, with the invariants checked after every action.

Games vary the player count (2 with the variant), the guild and box sizes (so the Tavern
runs dry and stand-ins appear), the empty-Tavern reading, the round limit, and the pack:
the standard one, a tiny one whose draw pile runs out, and one whose Brag needs two
adventurers (so a player can be stuck with one).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.engine.match import Match
from tavernkeep.engine.records import parse_record, replay
from tavernkeep.engine.rng import Rng, derive_seed
from tavernkeep.games.hack_and_slash import GAME, HackAndSlashState

EMPTY = -1

TINY_PACK = """
[[quest]]
name = "Sure Thing"
challenge = 1
goal = 2
reward = 1

[[quest]]
name = "Coin Toss"
challenge = 2
goal = 7
reward = 2
adventurer = true

[[quest]]
name = "Snake Eyes"
challenge = 2
goal = 2
exact = true
reward = 6

[[quest]]
name = "Big Job"
challenge = 3
goal = 10
reward = 4
"""

HEAVY_BRAG_PACK = """
[brag]
name = "Arm-Wrestling Night"
challenge = 2
goal = 7

[[quest]]
name = "Pair of Hands"
challenge = 2
goal = 5
reward = 1

[[quest]]
name = "Three Swords"
challenge = 3
goal = 11
reward = 3
adventurer = true

[[quest]]
name = "Lucky Seven"
challenge = 2
goal = 7
exact = true
reward = 3

[[quest]]
name = "Long Siege"
challenge = 3
goal = 14
reward = 6
"""


def _load(text: str, tmp: Path, name: str) -> Pack[Any]:
    path = tmp / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return GAME.load_pack(str(path))


@pytest.fixture(scope="module")
def packs(tmp_path_factory: pytest.TempPathFactory) -> list[Pack[Any]]:
    tmp = tmp_path_factory.mktemp("packs")
    return [
        GAME.load_pack("standard"),
        _load(TINY_PACK, tmp, "tiny"),
        _load(HEAVY_BRAG_PACK, tmp, "heavy-brag"),
    ]


games = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**63 - 1),
        "players": st.integers(2, 6),
        "pack": st.sampled_from([0, 0, 1, 2]),
        "adventurers": st.sampled_from([8, 8, 8, 1, 3, 12]),
        "box": st.sampled_from([50, 50, 0, 20, 30]),
        "empty_tavern": st.sampled_from(["stand-in", "no-gain"]),
        "round_limit": st.sampled_from([100, 1, 3, 0]),
    }
)


def check_invariants(state: HackAndSlashState) -> None:
    config = state.config
    # Adventurers are conserved: every meeple in the box, plus stand-ins, is somewhere.
    assert min(state.parties) >= 0 and state.tavern >= 0 and state.on_card >= 0
    assert sum(state.parties) + state.on_card + state.tavern == config.box + state.stand_ins
    # Scores are what the score piles say.
    for score, pile in zip(state.scores, state.score_piles, strict=True):
        assert score == sum(state.cards[card].reward for card in pile)
    # Every quest card is in exactly one place; the Brag (card 0) is in none of them.
    places = [c for c in state.row if c != EMPTY] + state.pile
    places += [c for pile in state.score_piles for c in pile]
    assert 0 not in places
    assert sorted(places) == list(range(1, len(state.cards)))
    # One seat decides while the game runs; none once it is over.
    actor = GAME.actor(state)
    assert (actor is None) == state.over == (GAME.result(state) is not None)
    if actor is not None:
        assert actor == state.current
        assert GAME.legal_actions(state)
        assert state.on_card == 0 or state.stack[-1].kind == "rescue"
    else:
        assert GAME.legal_actions(state) == []
        assert state.on_card == 0
    # Turns differ by at most one in a running game (they are taken in order).
    assert max(state.turns) - min(state.turns) <= 1


def check_end(state: HackAndSlashState) -> None:
    result = GAME.result(state)
    assert result is not None
    assert len(set(state.turns)) == 1, state.turns
    assert result.turns == sum(state.turns)
    assert result.ending in ("guild-empty", "quests-exhausted", "round-limit")
    limit = state.config.round_limit
    if limit:
        assert state.turns[0] <= limit
    assert result.scores == tuple(float(s) for s in state.scores)
    best = max(zip(state.scores, state.parties, strict=True))
    assert result.winners == tuple(
        s for s in range(len(state.scores)) if (state.scores[s], state.parties[s]) == best
    )
    assert all(result.ranks[s] == 1 for s in result.winners)
    assert all(result.ranks[s] > 1 for s in range(len(state.scores)) if s not in result.winners)
    if result.ending == "quests-exhausted":
        assert EMPTY in state.row and not state.pile


def make_state(params: dict[str, Any], packs: list[Pack[Any]]) -> HackAndSlashState:
    players = params["players"]
    config = GAME.make_config(
        {
            "players": players,
            "two_player": players == 2,
            "adventurers": params["adventurers"],
            "box": params["box"],
            "empty_tavern": params["empty_tavern"],
            "round_limit": params["round_limit"],
        }
    )
    return GAME.setup(config, params["seed"], packs[params["pack"]])


@settings(
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(params=games)
def test_invariants_hold_after_every_action(params: dict[str, Any], packs: list[Pack[Any]]) -> None:
    state = make_state(params, packs)
    chooser = Rng(derive_seed(params["seed"], "chooser"))
    check_invariants(state)
    for _ in range(5000):
        if GAME.actor(state) is None:
            break
        actions = GAME.legal_actions(state)
        GAME.apply(state, chooser.choice(actions), record=False)
        check_invariants(state)
    else:
        pytest.fail("the game did not end in 5000 actions")
    check_end(state)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), players=st.integers(2, 6))
def test_a_recorded_game_replays_to_the_same_state(seed: int, players: int) -> None:
    options = {"two_player": True} if players == 2 else {}
    match = Match.start(GAME, [RandomBot()] * players, seed, options)
    result = match.run()
    record = parse_record(match.record.to_json())
    state = replay(GAME, record)
    assert state == match.state
    assert GAME.view(state, None) == GAME.view(match.state, None)
    assert GAME.result(state) == result


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), steps=st.integers(0, 40))
def test_a_clone_is_independent_of_the_original(seed: int, steps: int) -> None:
    state = GAME.setup(GAME.make_config({"players": 4}), seed)
    chooser = Rng(seed)
    for _ in range(steps):
        if GAME.actor(state) is None:
            break
        GAME.apply(state, chooser.choice(GAME.legal_actions(state)))
    snapshot = GAME.clone(state)
    twin = GAME.clone(state)
    assert twin == state
    # Play the clone on and scribble on every part of it.
    if GAME.actor(twin) is not None:
        GAME.apply(twin, chooser.choice(GAME.legal_actions(twin)))
    twin.rng.next64()
    twin.parties[0] += 5
    twin.row[0] = EMPTY
    twin.pile.append(99)
    twin.score_piles[1].append(99)
    twin.scores[2] += 7
    twin.turns[3] += 1
    twin.dice.append(6)
    twin.stack.clear()
    assert state == snapshot
    assert GAME.view(state, None) == GAME.view(snapshot, None)


def test_every_seed_and_player_count_plays_the_same_game_twice() -> None:
    for seed in range(30):
        for players in (3, 4, 5, 6):
            a = GAME.setup(GAME.make_config({"players": players}), seed)
            b = GAME.setup(GAME.make_config({"players": players}), seed)
            chooser_a, chooser_b = Rng(seed), Rng(seed)
            while GAME.actor(a) is not None:
                action = chooser_a.choice(GAME.legal_actions(a))
                assert action == chooser_b.choice(GAME.legal_actions(b))
                assert GAME.apply(a, action) == GAME.apply(b, Action.parse(action.text))
            assert a == b
