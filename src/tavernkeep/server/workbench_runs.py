"""The workbench's comparisons in this server process: each played in a worker process of
its own (workbench_compare.py), one at a time, its state kept in storage.

A comparison is queued in storage, then played here: the worker lowers its own priority
before it plays (the tables come first) and tells this process how it goes over a pipe;
what it tells is kept in storage at once (progress at most `SAVE_SECONDS` apart), so a
page that reloads, or asks another server process, reads where it is. A cancel is a
move in storage (from any process) and, here, the end of the worker and the processes it
plays on (its process group). A worker that dies, or a server that stops, ends the run
"failed" with why; a server that was killed finds its runs so at its next start
(`WorkbenchStore.orphans`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Awaitable, Callable
from functools import partial
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from tavernkeep.server.storage.workbench import UNFINISHED_RUNS, Run, WorkbenchStore
from tavernkeep.server.workbench_compare import work

log = logging.getLogger("tavernkeep.server")
T = TypeVar("T")
Db = Callable[..., Awaitable[Any]]

MOST_UNFINISHED = 3
"""Comparisons queued or running at once, across the server's processes."""
SAVE_SECONDS = 0.5
"""The least time between two progress writes of one run."""
CHECK_SECONDS = 1.0
"""How often a running comparison asks storage whether it was cancelled elsewhere."""
STOPPED = "the server stopped while it ran: start it again"
_ENDED = object()
"""What the pipe gives once the worker has gone."""


def _receive(reader: Connection, seconds: float) -> Any:
    """The worker's next message, None if it said nothing for `seconds`, or `_ENDED`."""
    try:
        return reader.recv() if reader.poll(seconds) else None
    except (EOFError, OSError):
        return _ENDED


def _stop(process: BaseProcess) -> None:
    """End a worker and the processes it plays on (its own process group)."""
    if process.pid is not None and process.exitcode is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            process.kill()  # not yet leading its group: nothing under it yet
    process.join(timeout=10)


class Runs:
    """Comparisons queued here and the one being played."""

    def __init__(self, store: WorkbenchStore, db: Db, workers: int | None = None) -> None:
        self.store = store
        self.db = db
        """Runs a storage call on the server's one writer thread (tables.py `Tables.db`)."""
        self.workers = workers or max(1, os.cpu_count() or 1)
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.playing: dict[str, BaseProcess] = {}
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        ended = await self.db(self.store.orphans, time.time())
        if ended:
            log.info("workbench: %d comparison(s) ended by a stopped server", len(ended))
        self.task = asyncio.get_running_loop().create_task(self._serve())

    async def close(self) -> None:
        """The server stops: the comparison playing here is stopped (its worker too, as
        the loop is cancelled) and it and those queued here end "failed", with why."""
        ended = list(self.playing)
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        while not self.queue.empty():
            ended.append(self.queue.get_nowait())
        for run_id in ended:
            await self.db(self.store.move, run_id, UNFINISHED_RUNS, time.time(), "failed", STOPPED)

    async def submit(self, run: Run) -> bool:
        """Queue a comparison; False when `MOST_UNFINISHED` are queued or running."""
        if not await self.db(self.store.add_run, run, MOST_UNFINISHED):
            return False
        self.queue.put_nowait(run.id)
        return True

    async def cancel(self, run_id: str) -> bool:
        """Cancel a queued or running comparison; False if it had ended already."""
        moved = await self.db(self.store.move, run_id, UNFINISHED_RUNS, time.time(), "cancelled")
        process = self.playing.get(run_id)
        if process is not None:
            await asyncio.to_thread(_stop, process)
        return bool(moved)

    async def _serve(self) -> None:
        while True:
            run_id = await self.queue.get()
            try:
                await self._play(run_id)
            except Exception:
                # One run's trouble (storage, a worker that would not start) ends that run,
                # never the loop that plays the others.
                log.exception("workbench: comparison %s failed", run_id)
                await self.db(
                    self.store.move, run_id, UNFINISHED_RUNS, time.time(), "failed",
                    "the comparison could not be run (the server's log says why)",
                )

    async def _play(self, run_id: str) -> None:
        run = await self.db(self.store.run, run_id)
        if run is None or not await self.db(
            self.store.move, run_id, ("queued",), time.time(), "running"
        ):
            return  # cancelled while it waited
        plan = dict(run.plan, workers=self.workers)
        context = multiprocessing.get_context("spawn")
        reader, writer = context.Pipe(duplex=False)
        # Not a daemon: it plays on processes of its own, which a daemon may not start.
        process = context.Process(
            target=work, args=(plan, writer), name=f"tavernkeep-workbench-{run_id}"
        )
        process.start()
        writer.close()
        self.playing[run_id] = process
        try:
            await self._follow(run_id, reader, process)
        finally:
            self.playing.pop(run_id, None)
            await asyncio.to_thread(_stop, process)
            reader.close()

    async def _follow(self, run_id: str, reader: Connection, process: BaseProcess) -> None:
        """Keep what the worker tells in storage until it ends, fails or is cancelled."""
        saved = checked = time.monotonic()

        async def move(state: str | None = None, error: str | None = None, **values: Any) -> bool:
            moving = partial(self.store.move, run_id, ("running",), time.time(), state, error)
            return bool(await self.db(partial(moving, **values)))

        while True:
            message = await asyncio.to_thread(_receive, reader, CHECK_SECONDS / 2)
            if message is _ENDED:
                await asyncio.to_thread(process.join, 10)
                await move(
                    "failed", f"the comparison stopped unexpectedly (exit code {process.exitcode})"
                )
                return
            now = time.monotonic()
            if now - checked >= CHECK_SECONDS:
                checked = now
                if await self.db(self.store.state, run_id) != "running":
                    return  # cancelled, here or on another server process
            if message is None:
                continue
            kind = message[0]
            if kind == "progress":
                if now - saved >= SAVE_SECONDS:
                    saved = now
                    if not await move(done=message[1]):
                        return
            elif kind == "partial":
                if not await move(done=message[1], result=message[2]):
                    return
            elif kind == "done":
                await move("done", done=message[1], result=message[2])
                return
            elif kind == "failed":
                await move("failed", str(message[1]))
                return
