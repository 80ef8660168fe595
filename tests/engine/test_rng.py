"""The seeded RNG: the same seed rolls the same dice forever; clones and forks stay apart."""

from __future__ import annotations

import collections

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavernkeep.engine.rng import Rng, ScriptedRng, derive_seed

seeds = st.integers(0, 2**64 - 1)


def test_the_sequence_is_splitmix64_and_never_changes() -> None:
    # The published SplitMix64 outputs for seed 0: old records must replay forever.
    rng = Rng(0)
    assert [rng.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    assert Rng(42).dice(10, 6) == [2, 2, 1, 1, 5, 1, 2, 3, 2, 3]


@given(seed=seeds)
def test_the_same_seed_gives_the_same_rolls_and_shuffles(seed: int) -> None:
    a, b = Rng(seed), Rng(seed)
    assert a.dice(20, 6) == b.dice(20, 6)
    items_a, items_b = list(range(30)), list(range(30))
    a.shuffle(items_a)
    b.shuffle(items_b)
    assert items_a == items_b
    assert sorted(items_a) == list(range(30))
    assert a == b
    assert hash(a) == hash(b)


def test_different_seeds_give_different_rolls() -> None:
    rolls = {tuple(Rng(seed).dice(12, 6)) for seed in range(50)}
    assert len(rolls) == 50


@pytest.mark.parametrize("sides", [2, 4, 6, 8, 12, 20])
def test_every_face_comes_up_and_none_outside(sides: int) -> None:
    rng = Rng(sides)
    counts = collections.Counter(rng.die(sides) for _ in range(200 * sides))
    assert set(counts) == set(range(1, sides + 1))
    # Fixed seed: a crude check that no face is starved or hogged.
    assert min(counts.values()) > 100
    assert max(counts.values()) < 300


def test_below_and_choice_stay_in_range() -> None:
    rng = Rng(9)
    assert {rng.below(3) for _ in range(100)} == {0, 1, 2}
    assert {rng.choice("abc") for _ in range(100)} == {"a", "b", "c"}


def test_shuffles_reach_many_orders() -> None:
    rng = Rng(5)
    orders = set()
    for _ in range(200):
        items = [1, 2, 3, 4]
        rng.shuffle(items)
        orders.add(tuple(items))
    assert len(orders) == 24


@given(seed=seeds)
def test_a_clone_rolls_what_the_original_would_and_is_independent(seed: int) -> None:
    rng = Rng(seed)
    rng.dice(3, 6)
    twin = rng.clone()
    assert twin == rng and twin is not rng
    ahead = twin.dice(10, 6)
    assert rng != twin
    assert rng.dice(10, 6) == ahead


@given(seed=seeds)
def test_a_fork_leaves_the_parent_untouched_and_streams_differ(seed: int) -> None:
    rng = Rng(seed)
    before = rng.clone()
    bot = rng.fork("bot", 1)
    other = rng.fork("bot", 2)
    assert rng == before
    assert rng.fork("bot", 1) == bot
    streams = [tuple(r.clone().dice(16, 6)) for r in (rng, bot, other)]
    assert len(set(streams)) == 3


def test_derive_seed_is_stable_63_bit_and_label_sensitive() -> None:
    assert derive_seed(1, "seat", 0) == 7454822719465839880
    seen = set()
    for seed in range(20):
        for labels in [(), ("seat", 0), ("seat", 1), (0, "seat"), ("0",), (0,)]:
            value = derive_seed(seed, *labels)
            assert 0 <= value < 2**63
            assert value == derive_seed(seed, *labels)
            seen.add(value)
    assert len(seen) == 20 * 6


def test_scripted_rng_rolls_the_chosen_dice_in_order() -> None:
    rng = ScriptedRng([6, 6, 1, 3])
    assert rng.die(6) == 6
    assert rng.dice(2, 6) == [6, 1]
    assert rng.script == [3]
    assert rng.die(20) == 3


def test_scripted_rng_errors_when_the_script_runs_out() -> None:
    rng = ScriptedRng([2])
    rng.die(6)
    with pytest.raises(AssertionError, match="ran out"):
        rng.die(6)
    with pytest.raises(AssertionError, match="ran out"):
        ScriptedRng([]).dice(1, 6)


@pytest.mark.parametrize(("value", "sides"), [(7, 6), (0, 6), (-1, 6), (5, 4)])
def test_scripted_rng_errors_on_a_value_the_die_cannot_show(value: int, sides: int) -> None:
    with pytest.raises(AssertionError, match=f"d{sides}"):
        ScriptedRng([value]).die(sides)


def test_scripted_rng_shuffles_like_a_seeded_rng() -> None:
    scripted, plain = ScriptedRng([1], seed=77), Rng(77)
    a, b = list(range(10)), list(range(10))
    scripted.shuffle(a)
    plain.shuffle(b)
    assert a == b
    assert scripted.script == [1]


def test_a_scripted_clone_has_its_own_script() -> None:
    rng = ScriptedRng([1, 2, 3])
    twin = rng.clone()
    assert twin == rng
    assert twin.die(6) == 1
    assert rng.script == [1, 2, 3]
    assert twin != rng
    assert ScriptedRng([1]) != Rng(0)
    assert Rng(0) != ScriptedRng([1])


def test_seat_streams_are_fixed_apart_from_the_game_and_from_each_other() -> None:
    """A game's seats each get their own stream, the same for the same seed (a bot's
    choices replay), never the game's own, and no two alike, over many seeds."""
    from tavernkeep.engine.rng import seat_streams

    assert [r.state for r in seat_streams(1, 4)] == [r.state for r in seat_streams(1, 4)]
    assert seat_streams(1, 4)[0].state == 9_693_379_190_956_107_411
    firsts = set()
    for seed in range(500):
        game = tuple(Rng(seed).dice(8, 6))
        seats = [tuple(r.dice(8, 6)) for r in seat_streams(seed, 6)]
        assert game not in seats
        assert len(set(seats)) == 6
        firsts.update(r.state for r in seat_streams(seed, 6))
    assert len(firsts) == 500 * 6
