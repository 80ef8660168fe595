"""Group commit (server/commits.py): the actions of many tables share a transaction, each
is answered only once committed, and one refused action refuses itself alone."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
from sqlalchemy.exc import IntegrityError

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.match import Match
from tavernkeep.games import get_game
from tavernkeep.server.commits import GroupCommit
from tavernkeep.server.storage import Append, SeatKey, Storage

TABLES = 12
T = TypeVar("T")


def open_tables(storage: Storage, count: int) -> list[tuple[str, list[str]]]:
    """`count` Hack & Slash tables in storage, each with the texts of its first moves."""
    game = get_game("hack-and-slash")
    opened = []
    for n in range(count):
        match = Match.start(game, [RandomBot()] * 3, seed=n)
        for _ in range(3):
            match.step()
        moves = list(match.record.actions)
        table = Match.start(game, [RandomBot()] * 3, seed=n)
        keys = [SeatKey("i", "c", False)] * 3
        storage.create(f"table{n}", table.record, keys, time.time())
        opened.append((f"table{n}", moves))
    return opened


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run `coroutine` on an event loop of its own thread: the browser tests' worker has
    Playwright's loop running in this one."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def stored(storage: Storage, table_id: str) -> list[str]:
    table = storage.load(table_id)
    assert table is not None
    return list(table.record.actions)


def test_actions_that_gather_while_the_writer_is_busy_are_committed_together(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = Storage(db_url)
    writer = ThreadPoolExecutor(max_workers=1)
    batches: list[int] = []
    told: list[tuple[str, int]] = []
    real = Storage.append_actions

    def append_actions(self: Storage, batch: Sequence[Append]) -> list[Any]:
        batches.append(len(batch))
        met = real(self, batch)
        # Nobody has been answered before the commit that holds their action.
        assert not [entry for entry in batch if (entry.table_id, entry.index) in told]
        return met

    monkeypatch.setattr(Storage, "append_actions", append_actions)
    try:
        tables = open_tables(storage, TABLES)
        commits = GroupCommit(storage, writer)

        async def play() -> None:
            busy = threading.Event()
            # The writer is at another table's commit while every table sends its move.
            blocked = asyncio.get_running_loop().run_in_executor(writer, busy.wait, 5.0)

            async def move(table_id: str, index: int, text: str) -> None:
                await commits.append(Append(table_id, index, text))
                told.append((table_id, index))

            for index in range(3):
                sent = [
                    asyncio.ensure_future(move(table_id, index, moves[index]))
                    for table_id, moves in tables
                ]
                await asyncio.sleep(0.05)
                busy.set()
                await blocked
                await asyncio.gather(*sent)
                busy.clear()
                blocked = asyncio.get_running_loop().run_in_executor(writer, busy.wait, 5.0)
            busy.set()
            await blocked

        run(play())
        assert batches == [TABLES] * 3, "three transactions, one a round of moves"
        for table_id, moves in tables:
            assert stored(storage, table_id) == moves
    finally:
        writer.shutdown()
        storage.close()


def test_a_refused_action_refuses_itself_alone(db_url: str) -> None:
    storage = Storage(db_url)
    writer = ThreadPoolExecutor(max_workers=1)
    try:
        (first, first_moves), (second, second_moves) = open_tables(storage, 2)
        storage.append_action(first, 0, first_moves[0])
        commits = GroupCommit(storage, writer)

        async def play() -> list[BaseException | None]:
            busy = threading.Event()
            blocked = asyncio.get_running_loop().run_in_executor(writer, busy.wait, 5.0)
            # A second writer's action 0 for the first table, beside the second's own.
            sent = [
                commits.append(Append(first, 0, first_moves[1])),
                commits.append(Append(second, 0, second_moves[0])),
            ]
            gathered = asyncio.gather(*sent, return_exceptions=True)
            await asyncio.sleep(0.05)
            busy.set()
            await blocked
            return list(await gathered)

        refused, committed = run(play())
        assert isinstance(refused, IntegrityError)
        assert committed is None
        assert stored(storage, first) == first_moves[:1], "the first table is not forked"
        assert stored(storage, second) == second_moves[:1]
    finally:
        writer.shutdown()
        storage.close()
