"""Search bots on a server: budgets within the server's limits, thought out in a pool that
is shared fairly.

A search (`bot:mcts`) thinks for its whole budget. Run on the event loop it would stall
every table; run on a thread per table, six long searches starved every other search
table. So searches run in a bounded pool of worker processes (a core of their own, out of
the event loop's way and the GIL's), one decision a task, and a table asks only with a
copy of its state, never holding its lock while the search thinks.

What a stranger may ask for is bounded: a table's search budget must lie within the
server's `SearchLimits` (the lobby's own offer, `LOBBY_MCTS`, is well within them), and an
iteration budget is also cut at the time limit, since iterations cost what the game makes
them cost. How the workers are shared is `FairShare`'s policy (PROTOCOL.md, "What a
stranger can make the server spend"):

1. A search a person waits on (a bot at a table with people, a stand-in, the tutor) goes
   before a search at a table of bots alone, and a running search of a table of bots
   alone is stopped the moment one such search waits: it plays what it has found so far
   (`ISMCTSBot.stop`, after its first few iterations).
2. Within that, addresses take turns (the one served longest ago goes first), and so do
   one address's tables: ten tables from one address take turns with each other, not
   with everyone else. A search that has thought `SLICE` seconds stops when another
   address's search of its kind waits, so nobody waits long behind a long budget.
3. An address past `seconds_a_minute` of search in the last minute has its searches cut
   to `OVER_SHARE_MS` a decision until its minute comes back under.

Addresses are known for tables opened since the server started; a table brought back from
storage after a restart counts as an address of its own.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tavernkeep.agents import make_bot
from tavernkeep.agents.advice import ADVICE_MS, advise
from tavernkeep.agents.ismcts import ISMCTSBot
from tavernkeep.agents.levels import played_as
from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import SeatError
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng, random_seed

WINDOW = 60.0
"""The minute over which an address's search time is counted."""
SLICE = 0.4
"""How long a search may think before another address's waiting search takes its worker:
more than the lobby's quick bots and the stand-in think (300 ms), which so finish."""
OVER_SHARE_MS = 100
"""A decision's search for an address past its minute's share."""


@dataclass(frozen=True)
class SearchLimits:
    """The most a table's search bot may think a decision on this server, and the search
    time one address's tables may use a minute before theirs are cut short."""

    millis: int = 2000
    iterations: int = 5000
    seconds_a_minute: float = 30.0

    def check(self, spec: str, game: Game[Any, Any]) -> None:
        """SeatError unless the seat's search (if it is one) keeps within the limits."""
        played = played_as(spec, game)  # a level (bot:hard) is checked as its search
        if not played.startswith("bot:mcts"):
            return
        bot = make_bot(played, game)
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


# -- who asks, and in what order they are served -------------------------------------


@dataclass(frozen=True)
class Asker:
    """Whom a search is for: the address that opened its table ("" where not known), the
    table, and whether a person waits on it."""

    address: str
    table: str
    people: bool

    @property
    def group(self) -> str:
        """Whose minute the search is counted in: its address, or the table alone."""
        return self.address or f"table {self.table}"


@dataclass(eq=False)
class Ask:
    """A search waiting for a worker, or thinking on one."""

    asker: Asker
    asked: float
    order: int
    started: float | None = None
    lane: int | None = None
    stopping: bool = False


@dataclass
class FairShare:
    """Which waiting search goes next, and which running one gives its worker up: the
    policy of the module's docstring, over a clock the caller passes in (so that a test
    plays it out in made-up seconds)."""

    lanes: int
    seconds_a_minute: float
    waiting: list[Ask] = field(default_factory=list)
    running: list[Ask | None] = field(default_factory=list)
    used: dict[str, deque[tuple[float, float]]] = field(default_factory=dict)
    """Per group, the searches of the last minute that are over: (started, ended)."""
    served: dict[str, float] = field(default_factory=dict)
    """Per table and per group, when its last search started."""
    _orders: Any = field(default_factory=itertools.count)

    def __post_init__(self) -> None:
        self.running = [None] * self.lanes

    def ask(self, asker: Asker, now: float) -> Ask:
        ask = Ask(asker, now, next(self._orders))
        self.waiting.append(ask)
        return ask

    def spent(self, group: str, now: float) -> float:
        """Seconds of search `group` used in the last minute, what runs now included."""
        since = now - WINDOW
        done = self.used.get(group)
        total = 0.0
        if done is not None:
            while done and done[0][1] <= since:
                done.popleft()
            total = sum(end - max(start, since) for start, end in done)
        for ask in self.running:
            if ask is not None and ask.asker.group == group and ask.started is not None:
                total += now - max(ask.started, since)
        return total

    def over_share(self, group: str, now: float) -> bool:
        return self.spent(group, now) >= self.seconds_a_minute

    def rank(self, ask: Ask) -> tuple[int, float, float, int]:
        """Lower goes first: a person waiting, the group served longest ago, its table
        served longest ago, the first asked."""
        asker = ask.asker
        never = float("-inf")
        return (
            0 if asker.people else 1,
            self.served.get("group " + asker.group, never),
            self.served.get("table " + asker.table, never),
            ask.order,
        )

    def start_next(self, now: float) -> Ask | None:
        """The waiting search that takes a free worker now, if any (marked running)."""
        free = next((lane for lane, ask in enumerate(self.running) if ask is None), None)
        if free is None or not self.waiting:
            return None
        best = min(self.waiting, key=self.rank)
        self.waiting.remove(best)
        best.lane, best.started = free, now
        self.running[free] = best
        self.served["group " + best.asker.group] = now
        self.served["table " + best.asker.table] = now
        return best

    def finish(self, ask: Ask, now: float) -> None:
        assert ask.lane is not None and ask.started is not None
        self.running[ask.lane] = None
        self.used.setdefault(ask.asker.group, deque()).append((ask.started, now))

    def to_stop(self, now: float) -> list[Ask]:
        """Running searches that should give their workers up to waiting ones now (each
        marked as stopping, so it is asked once): one for each waiting search that
        outranks a running one, the lowest-ranked first."""
        if not self.waiting or all(ask is None for ask in self.running):
            return []
        stopped: list[Ask] = []
        candidates = [a for a in self.running if a is not None and not a.stopping]
        for waiting in sorted(self.waiting, key=self.rank):
            victims = [a for a in candidates if self._yields(a, waiting, now)]
            if not victims:
                continue
            # The bots' search before a person's; else the one that has thought longest.
            victim = max(victims, key=lambda a: (not a.asker.people, now - (a.started or now)))
            victim.stopping = True
            candidates.remove(victim)
            stopped.append(victim)
        return stopped

    def slice_ends(self, now: float) -> float | None:
        """Seconds until a running search's slice is over while a search it would give
        way to waits, if any does (the pool looks again then)."""
        ends = [
            running.started + SLICE - now
            for running in self.running
            if running is not None and running.started is not None and not running.stopping
            if any(self._yields(running, waiting, float("inf")) for waiting in self.waiting)
        ]
        return max(0.0, min(ends)) if ends else None

    def _yields(self, running: Ask, waiting: Ask, now: float) -> bool:
        """Whether `running` gives its worker up to `waiting`: a table of bots alone to a
        person at once; to another group's search of its kind, after a slice."""
        if waiting.asker.people and not running.asker.people:
            return True
        assert running.started is not None
        return (
            waiting.asker.people == running.asker.people
            and waiting.asker.group != running.asker.group
            # A millisecond's grace: the timer set for the slice's end may wake a hair early.
            and now - running.started >= SLICE - 0.001
        )


# -- the worker processes ------------------------------------------------------------

_STOPS: Sequence[int] = ()
"""In a worker: one flag a lane, set by the server to stop the search thinking there."""

PARENT_CHECK_S = 1.0
"""How often a worker looks whether its server is still there."""


def _start(parent: int, stops: Sequence[int]) -> None:
    """In a worker, at its start: keep the lanes' stop flags, and end when the server
    that started it is gone. A server killed with SIGKILL runs no shutdown, and its
    workers would wait for ever, each holding its memory, on a task queue whose writing
    end they hold themselves (so it never closes); an orphan's parent is no longer
    `parent`."""
    global _STOPS
    _STOPS = stops

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _stopper(lane: int) -> Callable[[], bool]:
    stops = _STOPS
    return lambda: bool(stops[lane])


def _think(
    game: Game[Any, Any], spec: str, state: Any, seat: int, rng_state: int, cap_ms: int, lane: int
) -> tuple[str, int]:
    """In a worker process: the search's choice, as action text, and the iterations it
    ran."""
    bot = make_bot(spec, game)
    assert isinstance(bot, ISMCTSBot)
    bot.cap_millis = cap_ms
    bot.stop = _stopper(lane)
    return bot.choose(InfoSet(game, state, seat, Rng(rng_state))).text, bot.last_iterations


ADVICE_STREAM = 0x5EED_AD71CE
"""Mixed into the advice's seed for its search stream, apart from the InfoSet's."""


def _advise(
    game: Game[Any, Any], spec: str, state: Any, seat: int, seed: int, lane: int
) -> list[dict[str, Any]]:
    """In a worker process: the tutor's advice for `seat` (agents/advice.py), as JSON."""
    info = InfoSet(game, state, seat, Rng(seed))
    found = advise(info, Rng(seed ^ ADVICE_STREAM), spec, _stopper(lane))
    return [a.to_json() for a in found]


def _ready() -> None:
    """In a worker process: nothing; started, it has imported what every search needs."""


class SearchPool:
    """A fixed number of worker processes, started when the first search is asked for,
    or beforehand by `warm`; each worker a lane that `FairShare` hands out."""

    def __init__(self, workers: int, limits: SearchLimits) -> None:
        self.workers = workers
        self.limits = limits
        self.share = FairShare(workers, limits.seconds_a_minute)
        self._pool: ProcessPoolExecutor | None = None
        self._stops: Any = None
        self._turns: dict[Ask, asyncio.Future[None]] = {}
        self._recheck: asyncio.TimerHandle | None = None
        self.gave_way = 0
        """Searches stopped early to hand their worker to another (the log counts them)."""
        self.recent: deque[tuple[str, int]] = deque(maxlen=64)
        """The latest searches' tables, each with the iterations it ran."""

    async def choose(
        self, game: Game[Any, Any], spec: str, state: Any, seat: int, rng: Rng, asker: Asker
    ) -> Action:
        """The search's action for `seat` in `state` (a copy the caller no longer needs)."""
        text, iterations = await self._run(
            asker,
            lambda lane, cap: (_think, game, spec, state, seat, rng.state, cap, lane),
        )
        self.recent.append((asker.table, iterations))
        return Action.parse(text)

    async def advise(
        self, game: Game[Any, Any], state: Any, seat: int, asker: Asker
    ) -> list[dict[str, Any]]:
        """The tutor's advice for `seat` in `state` (a copy the caller no longer needs),
        thought out in the pool like any search, within the server's time limit."""
        # A seed nobody chose: the advice's samples are the seat's view and chance alone.
        seed = random_seed()

        def task(lane: int, cap: int) -> tuple[Any, ...]:
            spec = f"bot:mcts:{min(ADVICE_MS, cap)}ms"
            return (_advise, game, spec, state, seat, seed, lane)

        result: list[dict[str, Any]] = await self._run(asker, task)
        return result

    async def _run(self, asker: Asker, task: Callable[[int, int], tuple[Any, ...]]) -> Any:
        """Wait for this search's turn at a worker, run it there, and free the worker."""
        loop = asyncio.get_running_loop()
        pool = self._ensure()
        share = self.share
        ask = share.ask(asker, time.monotonic())
        turn: asyncio.Future[None] = loop.create_future()
        self._turns[ask] = turn
        try:
            self._dispatch()
            await turn
        except BaseException:
            # Given up (its table closed): out of the queue, or off the worker it was
            # just handed.
            self._turns.pop(ask, None)
            if ask in share.waiting:
                share.waiting.remove(ask)
            elif ask.lane is not None and share.running[ask.lane] is ask:
                share.finish(ask, time.monotonic())
                self._dispatch()
            raise
        assert ask.lane is not None
        lane = ask.lane
        cap = self.limits.millis
        if share.over_share(asker.group, time.monotonic()):
            cap = min(cap, OVER_SHARE_MS)
        self._stops[lane] = 0
        try:
            return await loop.run_in_executor(pool, *task(lane, cap))
        finally:
            share.finish(ask, time.monotonic())
            self._dispatch()

    def _dispatch(self) -> None:
        """Start what may start on the free workers; stop what must give way."""
        share = self.share
        now = time.monotonic()
        while (ask := share.start_next(now)) is not None:
            turn = self._turns.pop(ask)
            if not turn.done():
                turn.set_result(None)
        for ask in share.to_stop(now):
            assert ask.lane is not None
            self._stops[ask.lane] = 1
            self.gave_way += 1
        due = share.slice_ends(now)
        if due is not None and self._recheck is None:
            # A running search is due to give way when its slice is over.
            self._recheck = asyncio.get_running_loop().call_later(due, self._again)

    def _again(self) -> None:
        self._recheck = None
        self._dispatch()

    def _ensure(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Spawned, not forked: a fork of a server with threads and open sockets would
            # carry them into every worker. The stop flags are shared memory the workers
            # are handed as they start (a plain array: a flag is written by the server
            # alone and read between iterations).
            context = multiprocessing.get_context("spawn")
            self._stops = context.RawArray("b", self.workers)
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context,
                initializer=_start,
                initargs=(os.getpid(), self._stops),
            )
        return self._pool

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
        if self._recheck is not None:
            self._recheck.cancel()
            self._recheck = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
