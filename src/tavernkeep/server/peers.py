"""The other server processes on one PostgreSQL database, and this one among them.

Any number of `tavernkeep serve` processes, on any number of hosts, may share a database
(PROTOCOL.md, "Several server processes"). PostgreSQL alone coordinates them:

- **News.** Every write that changes a table notifies a channel in its own transaction
  (storage/database.py `Database.notify`). Each process listens on one connection of its
  own and, for a table it holds in memory, reads the table again and brings its copy up to
  date (rooms.py `Tavern.heard`, then keeping.py). A process that lost its listening
  connection catches up every table it holds once it is back, since news sent meanwhile is
  lost to it.
- **Leases.** One process at a time runs a table's bots and clocks: its keeper
  (`tables.keeper`). A process is alive while its heartbeat (`servers.until`, by the
  database's clock) is ahead; each beat also looks for tables whose keeper's heartbeat
  lapsed (a process killed, a host gone) and takes them over, so their games go on.

A second writer is not kept out by the lease but by the table's revision: an action is
appended only at the revision its writer saw (storage/appends.py `Appends._advance`), so
however the processes race, one version of a table is applied once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import psycopg

from tavernkeep.server.storage import LEASE, Storage

T = TypeVar("T")
log = logging.getLogger("tavernkeep.server")

BEAT = LEASE / 4
"""Seconds between heartbeats: three may be missed (a long pause for garbage, a slow
disk) before the leases lapse."""
REAP_EVERY = 8
"""Heartbeats between looks for dead processes' presence to forget."""
SETTLE = 0.2
"""Seconds presence and released leases gather before they are written, together."""
RECONNECT = 1.0
"""Seconds before listening again after the listening connection was lost."""


def libpq_url(url: str) -> str:
    """The URL as libpq reads it: SQLAlchemy's driver suffix taken off."""
    scheme, rest = url.split("://", 1)
    return "postgresql://" + rest if scheme.startswith("postgres") else url


class Peers:
    """This process's part among the servers sharing `storage`: it beats, listens, and
    takes over the tables of the dead. `heard(table_id)` is told of every other process's
    change to a table, `refresh()` when news may have been missed, and `orphans(ids)` of
    tables to take over."""

    def __init__(
        self,
        storage: Storage,
        heard: Callable[[str], None],
        refresh: Callable[[], None],
        orphans: Callable[[list[str]], Awaitable[None]],
    ) -> None:
        self.storage = storage
        self.heard = heard
        self.refresh = refresh
        self.orphans = orphans
        # Its own thread: a heartbeat must not queue behind the tables' writes, or a
        # busy process would lose its leases to a quiet one.
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="peers")
        self.tasks: list[asyncio.Task[None]] = []
        self.listening = asyncio.Event()
        """Set while the listening connection is up (tests wait for it)."""
        self.present: dict[tuple[str, int], bool] = {}
        self.released: set[str] = set()
        self.settling: asyncio.Task[None] | None = None

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.thread, fn, *args)

    def note_presence(self, table_id: str, seat: int, here: bool) -> None:
        """A seat's person has a page here now, or no longer: told to the others within
        `SETTLE` seconds, with whatever else changed meanwhile, in one transaction."""
        self.present[(table_id, seat)] = here
        self._settle_soon()

    def note_release(self, table_id: str) -> None:
        """The table left this process's memory: its lease goes, within `SETTLE` s."""
        self.released.add(table_id)
        self._settle_soon()

    def _settle_soon(self) -> None:
        if self.settling is None or self.settling.done():
            self.settling = asyncio.get_running_loop().create_task(self._settle())

    async def _settle(self) -> None:
        await asyncio.sleep(SETTLE)
        present, self.present = self.present, {}
        released, self.released = sorted(self.released), set()
        try:
            await self.call(self.storage.settle, present, released)
        except Exception:
            # The database is away, say: kept (with what changed since on top) and tried
            # again shortly.
            log.exception("telling the other servers who is here failed")
            self.present = {**present, **self.present}
            self.released |= set(released)
            await asyncio.sleep(RECONNECT)
            self._settle_again()

    def _settle_again(self) -> None:
        self.settling = None
        self._settle_soon()

    async def start(self) -> None:
        """Beat once (so this process counts as alive before it takes a lease) and start
        listening and beating."""
        await self.call(self.storage.beat)
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._listen()), loop.create_task(self._beat())]
        # Serve only once listening: news of a table sent before would be lost to it.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.listening.wait(), 10.0)

    async def stop(self) -> None:
        """Stop beating and listening, and give up every lease and presence now."""
        tasks = [*self.tasks, *([self.settling] if self.settling is not None else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        try:
            await self.call(self.storage.leave)
        except Exception:
            log.exception("leaving the servers' table failed: the leases lapse instead")
        self.thread.shutdown(wait=True)

    async def _listen(self) -> None:
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    libpq_url(self.storage.given_url), autocommit=True
                ) as conn:
                    await conn.execute(f'LISTEN "{self.storage.channel}"')
                    self.listening.set()
                    if not first:
                        self.refresh()
                    first = False
                    async for note in conn.notifies():
                        sender, _, table_id = note.payload.partition(" ")
                        if sender != self.storage.me and table_id:
                            self.heard(table_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # The database restarted, say: listen again, and catch up on what was
                # said meanwhile (`refresh`).
                log.warning("listening for other servers' news stopped (%s): retrying", exc)
            self.listening.clear()
            await asyncio.sleep(RECONNECT)

    async def _beat(self) -> None:
        beats = 0
        while True:
            await asyncio.sleep(BEAT)
            beats += 1
            try:
                await self.call(self.storage.beat)
                lapsed = await self.call(self.storage.lapsed, 50)
                if lapsed:
                    await self.orphans(lapsed)
                if beats % REAP_EVERY == 0:
                    await self.call(self.storage.reap)
                    # Its own tables that left memory on a failure (the database gone in
                    # the middle of a move): loaded again, their bots go on.
                    await self.orphans(await self.call(self.storage.kept))
            except asyncio.CancelledError:
                raise
            except Exception:
                # A beat the database missed costs one beat: the next one tries again.
                log.exception("heartbeat failed")
