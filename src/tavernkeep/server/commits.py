"""Group commit: the actions of every table, committed together.

Each action is committed before anyone hears of it (rooms.py), and a commit waits for the
database to flush to disk: one at a time, a server with hundreds of tables in play spends
its writer thread waiting on flushes, and every table queues behind them. So the tables'
appends gather while the writer is busy, and the writer commits all that have gathered in
one transaction, one flush for all (`Storage.append_actions`). Nothing is told sooner: each
append is answered only once the transaction holding it has committed.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Executor

from tavernkeep.server.storage import Append, Storage


class GroupCommit:
    """Appends to storage, committed by `executor` (the server's one writer thread) in
    batches of whatever has gathered since the last commit began."""

    def __init__(self, storage: Storage, executor: Executor) -> None:
        self.storage = storage
        self.executor = executor
        self._lock = threading.Lock()
        self._waiting: list[tuple[Append, asyncio.Future[None]]] = []

    async def append(self, entry: Append) -> None:
        """Return once `entry` is committed; raise what refused it if it was not."""
        loop = asyncio.get_running_loop()
        committed: asyncio.Future[None] = loop.create_future()
        with self._lock:
            self._waiting.append((entry, committed))
            first = len(self._waiting) == 1
        if first:
            # A batch is taken when the writer reaches it, not now: what arrives while
            # it commits the batch before joins this one.
            loop.run_in_executor(self.executor, self._commit, loop)
        await committed

    def _commit(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the writer thread: commit everything waiting and answer each append."""
        with self._lock:
            batch, self._waiting = self._waiting, []
        if not batch:
            return
        outcomes: list[BaseException | None]
        try:
            outcomes = list(self.storage.append_actions([entry for entry, _ in batch]))
        except Exception as failed:  # the database is gone, say: every append hears it
            outcomes = [failed] * len(batch)
        for (_, committed), outcome in zip(batch, outcomes, strict=True):
            loop.call_soon_threadsafe(settle, committed, outcome)


def settle(committed: asyncio.Future[None], outcome: BaseException | None) -> None:
    if committed.done():  # the one waiting has gone (its socket closed)
        return
    if outcome is None:
        committed.set_result(None)
    else:
        committed.set_exception(outcome)
