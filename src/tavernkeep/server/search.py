"""Search bots on a server: budgets within the server's limits, thought out in a pool.

A search (`bot:mcts`) thinks for its whole budget. Run on the event loop it would stall
every table; run on a thread per table, six long searches starved every other search
table. So searches run in a bounded pool of worker processes (a core of their own, out of
the event loop's way and the GIL's), one decision a task, first come first served, and a
table asks only with a copy of its state, never holding its lock while the search thinks.

What a stranger may ask for is bounded too: a table's search budget must lie within the
server's `SearchLimits` (the lobby's own offer, `LOBBY_MCTS`, is well within them), and an
iteration budget is also cut at the time limit, since iterations cost what the game makes
them cost.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from tavernkeep.agents import make_bot
from tavernkeep.agents.advice import ADVICE_MS, advise
from tavernkeep.agents.ismcts import ISMCTSBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import SeatError
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng, random_seed


@dataclass(frozen=True)
class SearchLimits:
    """The most a table's search bot may think a decision on this server."""

    millis: int = 2000
    iterations: int = 5000

    def check(self, spec: str, game: Game[Any, Any]) -> None:
        """SeatError unless the seat's search (if it is one) keeps within the limits."""
        if not spec.startswith("bot:mcts"):
            return
        bot = make_bot(spec, game)
        assert isinstance(bot, ISMCTSBot)
        if bot.millis is not None and bot.millis > self.millis:
            raise SeatError(
                f"seat '{spec}': this server lets a search think at most {self.millis:,} ms "
                "a decision"
            )
        if bot.iterations is not None and bot.iterations > self.iterations:
            raise SeatError(
                f"seat '{spec}': this server lets a search run at most {self.iterations:,} "
                "iterations a decision"
            )


def default_workers() -> int:
    """One process fewer than the cores, so the event loop keeps one to itself."""
    return max(1, (os.cpu_count() or 2) - 1)


def _think(
    game: Game[Any, Any], spec: str, state: Any, seat: int, rng_state: int, cap_ms: int
) -> str:
    """In a worker process: the search's choice, as action text."""
    bot = make_bot(spec, game)
    assert isinstance(bot, ISMCTSBot)
    bot.cap_millis = cap_ms
    return bot.choose(InfoSet(game, state, seat, Rng(rng_state))).text


PARENT_CHECK_S = 1.0
"""How often a worker looks whether its server is still there."""


def _end_with(parent: int) -> None:
    """In a worker, at its start: end when the server that started it is gone. A server
    killed with SIGKILL runs no shutdown, and its workers would wait for ever, each holding
    its memory, on a task queue whose writing end they hold themselves (so it never
    closes); an orphan's parent is no longer `parent`."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


ADVICE_STREAM = 0x5EED_AD71CE
"""Mixed into the advice's seed for its search stream, apart from the InfoSet's."""


def _advise(
    game: Game[Any, Any], spec: str, state: Any, seat: int, seed: int
) -> list[dict[str, Any]]:
    """In a worker process: the tutor's advice for `seat` (agents/advice.py), as JSON."""
    info = InfoSet(game, state, seat, Rng(seed))
    return [a.to_json() for a in advise(info, Rng(seed ^ ADVICE_STREAM), spec)]


def _ready() -> None:
    """In a worker process: nothing; started, it has imported what every search needs."""


class SearchPool:
    """A fixed number of worker processes, started when the first search is asked for,
    or beforehand by `warm`."""

    def __init__(self, workers: int, limits: SearchLimits) -> None:
        self.workers = workers
        self.limits = limits
        self._pool: ProcessPoolExecutor | None = None

    async def choose(
        self, game: Game[Any, Any], spec: str, state: Any, seat: int, rng: Rng
    ) -> Action:
        """The search's action for `seat` in `state` (a copy the caller no longer needs)."""
        loop = asyncio.get_running_loop()
        text = await loop.run_in_executor(
            self._ensure(), _think, game, spec, state, seat, rng.state, self.limits.millis
        )
        return Action.parse(text)

    def _ensure(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Spawned, not forked: a fork of a server with threads and open sockets would
            # carry them into every worker.
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_end_with,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def advise(self, game: Game[Any, Any], state: Any, seat: int) -> list[dict[str, Any]]:
        """The tutor's advice for `seat` in `state` (a copy the caller no longer needs),
        thought out in the pool like any search, within the server's time limit."""
        spec = f"bot:mcts:{min(ADVICE_MS, self.limits.millis)}ms"
        loop = asyncio.get_running_loop()
        # A seed nobody chose: the advice's samples are the seat's view and chance alone.
        return await loop.run_in_executor(
            self._ensure(), _advise, game, spec, state, seat, random_seed()
        )

    def warm(self) -> None:
        """Start the workers now, in the background: a person's first advice (or a bot's
        first search) would otherwise wait for a worker to start and import the games,
        about half a second on this machine. `tavernkeep serve` warms its pool; a test's
        app does not, so that a test server costs no process it does not use."""
        pool = self._ensure()
        for _ in range(self.workers):
            pool.submit(_ready)

    @property
    def started(self) -> bool:
        return self._pool is not None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
