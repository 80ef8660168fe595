"""The search workers shared fairly (issue 38, item 3): a person's search before a table of
bots alone, address by address and table by table, and no address past its minute.
`FairShare` is played out over made-up seconds; the pool is then shown to stop a running
search of bots alone when a person's search comes."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.match import Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games import get_game
from tavernkeep.server.search import (
    SLICE,
    WINDOW,
    Asker,
    FairShare,
    SearchLimits,
    SearchPool,
)

STRANGER = "203.0.113.9"
FRIEND = "198.51.100.4"


def bots(table: int) -> Asker:
    """One of the stranger's ten tables of bots alone."""
    return Asker(STRANGER, f"bots-{table}", people=False)


def test_a_person_goes_before_tables_of_bots_and_stops_one_at_once() -> None:
    share = FairShare(lanes=1, seconds_a_minute=30.0)
    first = share.ask(bots(0), 0.0)
    assert share.start_next(0.0) is first
    for table in range(1, 10):
        share.ask(bots(table), 0.1)
    person = share.ask(Asker(FRIEND, "friends", people=True), 0.2)
    assert share.to_stop(0.2) == [first], "the running search of bots alone gives way"
    assert share.to_stop(0.2) == [], "asked once"
    share.finish(first, 0.21)
    assert share.start_next(0.21) is person


def test_one_address_takes_turns_with_itself_not_with_everyone() -> None:
    share = FairShare(lanes=1, seconds_a_minute=1000.0)
    now = 0.0
    # The stranger's ten tables have searched for a while, each in turn.
    for table in range(10):
        share.ask(bots(table), now)
    order = []
    for _ in range(10):
        ask = share.start_next(now)
        assert ask is not None
        order.append(ask.asker.table)
        now += 2.0
        share.finish(ask, now)
        share.ask(ask.asker, now)  # each asks again for its next decision
    assert order == [f"bots-{t}" for t in range(10)], "round and round, oldest first"
    # Another address's table of bots alone comes: it is next, ahead of the ten.
    ask = share.start_next(now)
    assert ask is not None
    other = share.ask(Asker(FRIEND, "friends-bots", people=False), now + 0.01)
    assert share.to_stop(now + 0.01) == [], "not before the running search had its slice"
    assert share.slice_ends(now + 0.01) == pytest.approx(SLICE - 0.01)
    assert share.to_stop(now + SLICE) == [ask]
    assert share.slice_ends(now + SLICE) is None, "the slice is over: nothing more to time"
    share.finish(ask, now + SLICE + 0.02)
    assert share.start_next(now + SLICE + 0.02) is other
    # The addresses take turns, a slice each while the other waits.
    assert share.to_stop(now + 2 * SLICE + 0.02) == [other]
    share.finish(other, now + 2 * SLICE + 0.02)
    nxt = share.start_next(now + 2 * SLICE + 0.02)
    assert nxt is not None and nxt.asker.table == "bots-1", "the stranger's next table in turn"


def test_a_person_at_one_address_waits_a_slice_at_most_for_another() -> None:
    """The stranger sits at their ten tables too, so a person waits on every search there:
    a search of the stranger's gives way after its slice to another address's person."""
    share = FairShare(lanes=1, seconds_a_minute=1000.0)
    stranger = [Asker(STRANGER, f"seated-{t}", people=True) for t in range(10)]
    for asker in stranger:
        share.ask(asker, 0.0)
    first = share.start_next(0.0)
    assert first is not None
    friend = share.ask(Asker(FRIEND, "friends", people=True), 0.1)
    assert share.to_stop(0.1) == []
    assert share.to_stop(SLICE) == [first]
    share.finish(first, SLICE + 0.01)
    assert share.start_next(SLICE + 0.01) is friend, "before the stranger's other nine"


def test_an_address_past_its_minute_is_over_until_the_minute_passes() -> None:
    share = FairShare(lanes=1, seconds_a_minute=30.0)
    ask = share.ask(bots(0), 0.0)
    share.start_next(0.0)
    assert not share.over_share(STRANGER, 29.0)
    assert share.over_share(STRANGER, 31.0), "what runs now counts"
    share.finish(ask, 40.0)
    assert share.over_share(STRANGER, 45.0)
    assert not share.over_share(STRANGER, 40.0 + WINDOW - 10.0)
    assert share.spent(STRANGER, 40.0 + WINDOW + 1.0) == 0.0
    assert not share.over_share(FRIEND, 45.0)


def test_a_table_from_storage_counts_as_an_address_of_its_own() -> None:
    assert Asker("", "t1", people=False).group != Asker("", "t2", people=False).group
    assert Asker(STRANGER, "t1", people=False).group == Asker(STRANGER, "t2", people=False).group


def test_the_pool_stops_a_search_of_bots_alone_for_a_person() -> None:
    game = get_game("hack-and-slash")
    state = Match.start(game, [RandomBot()] * 4, seed=3).state
    seat = game.actor(state)
    assert seat is not None
    pool = SearchPool(1, SearchLimits(millis=20_000, iterations=100_000))

    async def play() -> None:
        pool.warm()
        long = asyncio.ensure_future(
            pool.choose(game, "bot:mcts:100000", game.clone(state), seat, Rng(1), bots(0))
        )
        while pool.share.running[0] is None:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # it is thinking
        person = Asker(FRIEND, "friends", people=True)
        await pool.choose(game, "bot:mcts:50", game.clone(state), seat, Rng(2), person)
        await long

    # In a thread of its own: a server test before it may have left this thread's loop set.
    try:
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, play()).result()
    finally:
        pool.close()
    assert pool.gave_way == 1
    searched = dict(pool.recent)
    assert searched["friends"] == 50, "the person's search ran its whole budget"
    assert 16 <= searched["bots-0"] < 100_000, "the search of bots alone stopped early"
