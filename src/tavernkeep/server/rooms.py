"""Live tables: a match in memory, its seats' connections, and its bots.

Every change to a table goes through `Tavern.act`, under the table's lock: check the
action, commit it to storage, apply it, then tell every connection what its seat may
see. Committing before applying means an action nobody has heard of can be lost only
if the commit itself failed, and then the table is unchanged too.

On PostgreSQL, several server processes may hold one table at once (peers.py): an action
is committed only at the table's revision its writer saw, so of two processes acting at
once one wins and the other catches up and says so (`Moved`); every process hears of the
others' changes and catches up its copy (`Tavern.heard`); and the bots and clocks run in
the one process that holds the table's lease (`Room.kept`).

Storage is the truth; memory holds only the tables someone is at. A table is loaded when
someone asks for it (a join, a claim, the lobby's link) and leaves memory again when
nobody is connected and its bots have nothing to do, so a thousand abandoned tables cost
rows, not replays and megabytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError

from tavernkeep.agents import check_seat, make_bot
from tavernkeep.agents.ismcts import ISMCTSBot
from tavernkeep.engine.actions import PASS, Action
from tavernkeep.engine.errors import (
    ConfigError,
    IllegalAction,
    RecordError,
    SeatError,
    TavernkeepError,
)
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Agent, Game
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.records import RECORD_VERSION, GameRecord
from tavernkeep.engine.rng import Rng, derive_seed, random_seed
from tavernkeep.engine.takeback import may_take_back
from tavernkeep.games import get_game
from tavernkeep.server.chat import SHOWN, TABLE_LINES, ChatLine, ChatRate, clean_line
from tavernkeep.server.commits import GroupCommit
from tavernkeep.server.names import clean_name
from tavernkeep.server.peers import Peers
from tavernkeep.server.search import Asker, SearchLimits, SearchPool, default_workers
from tavernkeep.server.settings import STAND_IN_MS, TableSettings, stand_in_within
from tavernkeep.server.storage import (
    UNFINISHED,
    Append,
    Listing,
    Refused,
    SeatKey,
    Storage,
    StoredTable,
)
from tavernkeep.server.timing import PassPrior, PassTiming

T = TypeVar("T")
log = logging.getLogger("tavernkeep.server")

MAX_SEED = 2**63 - 1
MAX_OUTBOX = 1000
"""Messages queued for a client that does not read; beyond this it is dropped."""
IDLE_KEPT = 32
"""Tables kept in memory after the last person left them (see `Tavern.forget_if_idle`)."""


class SeatTaken(IllegalAction):
    """An invite whose seat another browser has claimed: its holder may watch."""


class Moved(IllegalAction):
    """An action another writer (a person's other page, another server process) beat to
    the table's turn: the table is brought up to date, and the action is not taken."""


class Busy(TavernkeepError):
    """The server is at a limit it keeps (tables open, tables a minute): try later."""


def new_secret() -> str:
    """An invite or a credential: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def is_secret(stored_hash: str | None, secret: object) -> bool:
    """Whether `secret`, as a stranger sent it, is the one whose hash is stored: text of
    at most 100 characters, compared in constant time."""
    return (
        isinstance(secret, str)
        and 0 < len(secret) <= 100
        and stored_hash is not None
        and hmac.compare_digest(stored_hash, secret_hash(secret))
    )


def person_name(key: SeatKey, seat: int) -> str:
    """A person's seat as the table's notices name it: their name, else the seat's."""
    return key.name if key.name else seat_name(seat)


def seat_name(seat: int) -> str:
    return f"Player {seat + 1}"


@dataclass(frozen=True)
class Limits:
    """What the server lets any one table or stranger spend (see `tavernkeep serve`)."""

    search: SearchLimits = field(default_factory=SearchLimits)
    search_workers: int = field(default_factory=default_workers)
    tables_per_minute: float = 10.0
    """New tables one address may open a minute, after a first `table_burst`."""
    table_burst: int = 10
    open_tables: int = 1000
    """Unfinished tables the server keeps at once; a new one waits for one to end."""
    sockets_per_client: int = 64
    """WebSockets one address may hold open: a table's tabs, a family's devices."""
    archive_after: float = 14 * 86400.0
    """Seconds an unfinished table with nobody at it may go without a move before it is
    archived out of the open list: long enough for friends playing a move a day."""
    policies: tuple[str, ...] = ()
    """The trained policies tables may seat, each `bot:policy:PATH` as the operator named
    it (`serve --policy`): a stranger's spec never names another file to read."""


class RemoteSeat:
    """A seat played by a person over a websocket: the server never asks it to choose."""

    name = "human"

    def choose(self, info: Any) -> Action:
        raise IllegalAction("a person decides for this seat")


@dataclass(eq=False)
class Connection:
    """One websocket: the seat it acts for (None: a spectator) and its outbox."""

    seat: int | None
    send: Callable[[str], Any]
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    name: str | None = None
    """A spectator's name (a seat's is the seat's, in its SeatKey)."""
    chat_rate: ChatRate = field(default_factory=ChatRate)


def seats_of(
    seats: list[str],
    keys: list[SeatKey],
    connected: set[int],
    stand_ins: dict[int, str] | None = None,
    stood_in: dict[int, int] | None = None,
    stand_in: str | None = None,
    clocks: list[dict[str, Any] | None] | None = None,
) -> list[dict[str, Any]]:
    """Who sits where, as every seat and spectator may know it: for a person's seat, its
    name, the bot standing in for them now if they left (`stand_in`) and how many of the
    seat's decisions one has made (`stood_in`), and its clock if the table has clocks."""
    stood: dict[int, int] = {}
    for seat in (stood_in or {}).values():
        stood[seat] = stood.get(seat, 0) + 1
    out = []
    for seat, spec in enumerate(seats):
        entry: dict[str, Any] = {
            "seat": seat,
            "agent": spec,
            "connected": spec != "human" or seat in connected,
        }
        if spec == "human":
            entry["device"] = keys[seat].device
            entry["claimed"] = keys[seat].claimed
            entry["name"] = keys[seat].name
            # What is seldom so is said only when it is: seat messages stay small.
            if keys[seat].open_seat:
                entry["open"] = True
            away = (stand_ins or {}).get(seat)
            if away is not None:
                entry["stand_in"] = stand_in
                entry["away"] = away
            if stood.get(seat):
                entry["stood_in"] = stood[seat]
            if clocks and clocks[seat] is not None:
                entry["clock"] = clocks[seat]
        out.append(entry)
    return out


BACK_TIME = 60.0
"""Seconds on the clock of a person back after theirs ran out: time to find their feet."""

ENDED = {
    "closed": "the table's host closed the table",
    "archived": "the table was archived, left with nobody at it and no move for too long",
}
"""What a table ended without a result says, as a notice and to an action tried at it."""


def stored_clocks(stored: StoredTable) -> list[dict[str, Any] | None] | None:
    """Each person's clock as storage has it, for a table nobody is at: seconds left as
    the seat's last decision ended. Whose runs now only a replay could say (`running`
    is null); the table in memory says it exactly."""
    clock = TableSettings.model_validate(stored.settings, strict=False).clock
    if clock is None:
        return None
    out: list[dict[str, Any] | None] = []
    for seat, key in enumerate(stored.keys):
        if stored.record.seats[seat] != "human":
            out.append(None)
            continue
        bank = key.clock if clock.kind == "real_time" and key.clock is not None else clock.seconds
        out.append({"left": bank, "running": None})
    return out


def named(record: GameRecord, keys: list[SeatKey], stood_in: dict[int, int]) -> GameRecord:
    """The record with the names its people gave and the actions stand-ins chose (each
    left out if there are none)."""
    update: dict[str, Any] = {}
    names = [key.name for key in keys]
    if any(names):
        update["names"] = names
    if stood_in:
        update["stood_in"] = sorted(stood_in)
    return record.model_copy(update=update) if update else record


def variant_options(game: Game[Any, Any], config: dict[str, Any]) -> dict[str, Any]:
    """The options a table was opened with that differ from the game's defaults: the
    rules every seat plays by, so every seat is shown them."""
    out = {}
    for name, info in game.config_model.model_fields.items():
        if name == "players" or name not in config:
            continue
        if config[name] != info.get_default(call_default_factory=True):
            out[name] = config[name]
    return out


class Room:
    def __init__(
        self,
        table_id: str,
        match: Match,
        log: list[Event],
        keys: list[SeatKey],
        created_at: float,
        deal: str,
        pass_prior: PassPrior,
    ) -> None:
        self.id = table_id
        self.match = match
        self.game: Game[Any, Any] = match.game
        self.seats: list[str] = list(match.record.seats)
        self.log = log
        self.keys = keys
        self.created_at = created_at
        self.deal = deal
        self.options = variant_options(self.game, match.record.config)
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.timing = PassTiming(pass_prior)
        self.settings = TableSettings()
        self.waiting = False
        """Waiting for people to take its open seats: the game has not begun."""
        self.stand_ins: dict[int, str] = {}
        """Seats a bot plays until their person is back, each with why: "left" (every
        page of theirs gone past the grace) or "out of time" (their clock ran out)."""
        self.stood_in: dict[int, int] = {}
        """The actions (by index) a stand-in chose, each with the seat it chose for."""
        self.advice: dict[int, tuple[int, list[dict[str, Any]]]] = {}
        """The tutor's last advice for each seat, with the version it was for: asked
        again for the same decision, it is sent again, not thought out again."""
        self.advising: set[tuple[int, int]] = set()
        """(seat, version) advice being thought out now: asked twice, thought once."""
        self.tasks: set[asyncio.Task[None]] = set()
        """Work a message started that runs on its own (advice), held until done."""
        self.waited: int | None = None
        """The version whose decision the table already waited on (a leaver's grace, a
        clock running out): its stand-in decides at once, without the bots' pause."""
        self.left_at: dict[int, float] = {}
        """When each person's seat was last left by its person (monotonic): a seat whose
        person has not come back within the table's grace gets a stand-in (Tavern.watch).
        A seat never claimed is not here: it waits for its person."""
        self.watch_task: asyncio.Task[None] | None = None
        self.opened_by = ""
        """The address that opened the table, while this process knows it: its searches
        count in that address's minute (search.py); "" for a table from storage."""
        self.takebacks: list[tuple[int, int, str]] = []
        """The decisions that may be taken back (engine/takeback.py), latest last: each
        its index, its seat and its label. Only the latest run of one seat's own decisions
        that told it nothing; any other decision ends the run."""
        self._stand_in: Agent | None = None
        self.ended: str | None = None
        """"closed" by its host or "archived" when left idle: over without a result, and
        nobody acts at it again."""
        self.chat: deque[ChatLine] = deque(maxlen=SHOWN)
        """The latest lines of the table's chat, sent to whoever joins."""
        self.chat_count = 0
        """Lines the table's chat holds in all (the next line's index)."""
        self.asked_at = time.monotonic()
        """When the decision now open was put to its seat: a voluntary pass is timed
        from here (see timing.py)."""
        self.asked_wall = time.time()
        """The same, in seconds since the epoch, as storage keeps it: clocks count from
        here, so a restarted server's clocks go on where they were."""
        self.revision = 0
        """Storage's revision of the table's actions as this copy has them (storage.py)."""
        self.kept = True
        """Whether this process runs the table's bots and clocks: always, for one process
        alone on its database; for several, while it holds the table's lease."""
        self.keeper: str | None = None
        """The process that holds the lease, as storage last said (None: nobody)."""
        self.claiming = False
        self.remote: set[int] = set()
        """Seats whose person has a page open on another server process."""
        self.catching: asyncio.Task[None] | None = None
        self.dirty = False
        """Another process changed the table since this copy last caught up."""
        self.touched = 0
        """Counts this process's own changes to the table in memory: a catch-up whose
        read may predate one reads again (`Tavern._catch_up`)."""
        self.rematch_told = False
        self.rematch_id: str | None = None
        self.sockets = 0
        """WebSockets being served this table here, joined or still joining: a table a
        page is joining is not let go of (`Tavern.heard`)."""

    @property
    def version(self) -> int:
        return self.match.actions

    @property
    def actor(self) -> int | None:
        if self.ended is not None or self.waiting:
            return None
        return self.game.actor(self.match.state)

    @property
    def status(self) -> str:
        if self.ended is not None:
            return self.ended
        if self.waiting:
            return "waiting"
        return "finished" if self.actor is None else "playing"

    def lone_pass(self) -> bool:
        """Whether the seat to decide can only pass: a reaction window that asks every
        seat, so nobody learns who holds what, asks this one with nothing to play."""
        game, state = self.match.game, self.match.state
        return self.actor is not None and game.legal_actions(state) == [PASS]

    def passed_for(self) -> bool:
        """Whether the server passes for the person to decide, after a pause like their
        own (timing.py): they can only pass, or they asked to pass on this kind of
        decision until their turn (`Game.reaction_kinds`). The two look alike to the
        table: the same pause, the same pass."""
        actor = self.actor
        if actor is None:
            return False
        if self.lone_pass():
            return True
        kind = self.keys[actor].passing_on
        game, state = self.match.game, self.match.state
        return (
            kind is not None
            and game.decision(state) == kind
            and PASS in game.legal_actions(state)
        )

    def connected(self) -> set[int]:
        """The seats whose person has a page open, here or on another server process."""
        return {c.seat for c in self.connections if c.seat is not None} | self.remote

    def here(self, seat: int) -> bool:
        """Whether a page of the seat's person is connected to this process."""
        return any(c.seat == seat for c in self.connections)

    def present(self, seat: int) -> bool:
        """Whether the seat's person is at the table: a page of theirs is connected. The
        seats on the host's device are one device's: any of them connected counts."""
        here = self.connected()
        if self.keys[seat].device:
            return any(self.keys[s].device for s in here)
        return seat in here

    @property
    def stand_in(self) -> str:
        """The bot that plays for a person who left (a table stored before it had one
        plays the default: its search time is capped by the pool all the same)."""
        return self.settings.stand_in or stand_in_within(STAND_IN_MS)

    def stand_in_agent(self) -> Agent:
        """The bot that plays for a person who left (one for the table: a bot keeps no
        memory between decisions that a seat could tell apart)."""
        if self._stand_in is None:
            self._stand_in = make_bot(self.stand_in, self.game)
        return self._stand_in

    def has_people(self) -> bool:
        """Whether a person sits at the table: its bots' searches go before those of
        tables of bots alone (search.py)."""
        return "human" in self.seats

    def asker(self, person_waits: bool) -> Asker:
        """Whom a search for this table is for, in the search pool's terms."""
        return Asker(self.opened_by, self.id, person_waits)

    def person_decides(self, seat: int) -> bool:
        """Whether a person decides for `seat` now (not a bot, nor a stand-in)."""
        return self.seats[seat] == "human" and seat not in self.stand_ins

    def clock_left(self, seat: int, now: float) -> float | None:
        """Seconds left on `seat`'s clock at `now`; None if it has none (no clocks, a bot)."""
        clock = self.settings.clock
        if clock is None or self.seats[seat] != "human":
            return None
        ticking = self.actor == seat and self.person_decides(seat)
        spent = now - self.asked_wall if ticking else 0.0
        if clock.kind == "turn_based":
            return clock.seconds - spent
        bank = self.keys[seat].clock
        return (clock.seconds if bank is None else bank) - spent

    def clocks(self, now: float) -> list[dict[str, Any] | None]:
        """Each seat's clock as every seat is shown it: seconds left, and whether it runs
        (a page counts it down from the message)."""
        out: list[dict[str, Any] | None] = []
        for seat in range(len(self.seats)):
            left = self.clock_left(seat, now)
            running = self.actor == seat and self.person_decides(seat)
            out.append(None if left is None else {"left": max(0.0, left), "running": running})
        return out

    def seats_summary(self) -> list[dict[str, Any]]:
        return seats_of(
            self.seats,
            self.keys,
            self.connected(),
            self.stand_ins,
            self.stood_in,
            self.stand_in,
            self.clocks(time.time()),
        )

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "status": self.status,
            "seats": self.seats_summary(),
            "actions": self.version,
            "created_at": self.created_at,
            "deal": self.deal,
            "options": self.options,
            "settings": self.settings.model_dump(),
            # The kinds of decision a person may pass on until their turn, in words.
            "reactions": dict(self.game.reaction_kinds),
        }

    def state_message(self, seat: int | None) -> dict[str, Any]:
        game, state = self.game, self.match.state
        actor = self.actor
        legal = []
        passing = False
        if seat is not None and seat == actor:
            if self.person_decides(seat) and self.passed_for():
                # Answered by the server after a person-like pause (see timing.py): a
                # button would only race that answer. Said to this seat alone.
                passing = True
            else:
                legal = [
                    {
                        "action": a.text,
                        "label": game.label(state, a),
                        "odds": game.odds(state, a),
                    }
                    for a in game.legal_actions(state)
                ]
        result = game.result(state)
        offer = None
        if seat is not None and seat == actor and self.takebacks and self.takebacks[-1][1] == seat:
            offer = self.takebacks[-1][2]
        message = {
            "type": "state",
            "version": self.version,
            # Nothing of the game while the table waits for its people: the deal is made
            # when it begins, and no die, hand or "Player 1 chooses" shows before then.
            "view": None if self.waiting else game.view(state, seat),
            "actor": actor,
            "legal": legal,
            "result": result.to_json() if result else None,
            # The game's own heading for its ending, for this reader ("You win!", Rage's
            # "You survived, without enough food"): every front-end says the same.
            "headline": game.headline(result, seat) if result else None,
            "seats": self.seats_summary(),
            # "playing", "finished", or "closed"/"archived": over with no result.
            "status": self.status,
        }
        if offer is not None:
            # Said to the deciding seat alone: the decision of theirs it may take back.
            message["take_back"] = offer
        if passing:
            message["passing"] = True
        if seat is not None:
            # The seat's own kind of decision now (the page offers to pass on it until
            # their turn, Game.reaction_kinds), and what it passes on: told to it alone.
            message["decision"] = game.decision(state) if seat == actor else None
            message["passing_on"] = self.keys[seat].passing_on
        return message

    def visible(self, events: list[Event], seat: int | None) -> list[dict[str, Any]]:
        out = []
        for event in events:
            seen = event.for_seat(seat)
            if seen is not None:
                out.append(seen.to_json())
        return out

    def welcome_message(self, seat: int | None) -> dict[str, Any]:
        return {
            "type": "welcome",
            "seat": seat,
            "table": self.summary(),
            "log": [] if self.waiting else self.visible(self.log, seat),
            # The rematch of this table, once one is open: a page that comes back to the
            # finished table offers to go there rather than to open another.
            "rematch": self.rematch_id,
            "chat": [line.to_json() for line in self.chat],
        }

    def broadcast(self, events: list[Event] | None) -> None:
        """Queue, for every connection, the events and state its seat may see."""
        cache: dict[int | None, list[str]] = {}
        for conn in list(self.connections):
            if conn.outbox.qsize() > MAX_OUTBOX:
                # A client that stopped reading: drop it rather than queue without bound.
                self.drop(conn)
                continue
            if conn.seat not in cache:
                messages = []
                if events:
                    seen = self.visible(events, conn.seat)
                    if seen:
                        messages.append(
                            json.dumps({"type": "events", "version": self.version, "events": seen})
                        )
                messages.append(json.dumps(self.state_message(conn.seat)))
                cache[conn.seat] = messages
            for message in cache[conn.seat]:
                conn.outbox.put_nowait(message)

    def send_own(self, seat: int) -> None:
        """Send `seat`'s pages its state again: something of its own changed."""
        message = json.dumps(self.state_message(seat))
        for conn in [c for c in self.connections if c.seat == seat]:
            if conn.outbox.qsize() <= MAX_OUTBOX:
                conn.outbox.put_nowait(message)

    def broadcast_seats(self, skip: Connection | None = None) -> None:
        """Tell every connection (but `skip`) who is at the table now: a few hundred
        bytes, where a whole state to every connection for every join cost thousands."""
        self.send_all(json.dumps({"type": "seats", "seats": self.seats_summary()}), skip)

    def resync(self) -> None:
        """Send every page the table again, after it went back (a decision taken back):
        `undone` says to drop what it was shown since `version`, and a welcome and a state
        follow, as for a page joining."""
        for conn in list(self.connections):
            if conn.outbox.qsize() > MAX_OUTBOX:
                self.drop(conn)
                continue
            conn.outbox.put_nowait(json.dumps({"type": "undone", "version": self.version}))
            conn.outbox.put_nowait(json.dumps(self.welcome_message(conn.seat)))
            conn.outbox.put_nowait(json.dumps(self.state_message(conn.seat)))

    def broadcast_chat(self, line: ChatLine) -> None:
        """Tell every connection, spectators too, a new line of the chat."""
        self.send_all(json.dumps({"type": "chat", "line": line.to_json()}))

    def send_all(self, message: str, skip: Connection | None = None) -> None:
        """Queue one message, the same for every seat, on every connection but `skip`; a
        connection that stopped reading is dropped rather than queued for without bound."""
        for conn in list(self.connections):
            if conn is skip:
                continue
            if conn.outbox.qsize() > MAX_OUTBOX:
                self.drop(conn)
                continue
            conn.outbox.put_nowait(message)

    def drop(self, conn: Connection, why: str | None = None) -> None:
        """Forget a connection and tell its sender to close the socket, first saying
        `why` if given (what it had queued is not sent)."""
        self.connections.discard(conn)
        while not conn.outbox.empty():
            conn.outbox.get_nowait()
        if why is not None:
            conn.outbox.put_nowait(json.dumps({"type": "error", "message": why}))
        conn.outbox.put_nowait(None)


class Tavern:
    """All live tables of one server, over one storage."""

    def __init__(
        self,
        storage: Storage,
        bot_delay: float = 0.8,
        limits: Limits | None = None,
        pass_prior: PassPrior | None = None,
    ) -> None:
        self.storage = storage
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.pass_prior = pass_prior or PassPrior()
        self.rooms: dict[str, Room] = {}
        self.searches = SearchPool(self.limits.search_workers, self.limits.search)
        # One writer thread: storage calls run in order and never block the event loop.
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="storage")
        self.commits = GroupCommit(storage, self.writer)
        # One lock for loading rooms: loads are rare, and a lock per asked-for id would
        # let anyone grow the server's memory by asking for made-up tables.
        self._loading = asyncio.Lock()
        self._rematching = asyncio.Lock()
        """Rematches are opened one at a time: two people asking at once get one table."""
        self._digests: dict[tuple[str, str], str] = {}
        self._idle: OrderedDict[str, None] = OrderedDict()
        """Tables in memory that nobody is at, the most recently idle last."""
        self._loading_now: set[str] = set()
        self._heard_meanwhile: set[str] = set()
        """Tables another process changed while they were being read here."""
        self._unresumable: set[str] = set()
        """Tables of a dead keeper that cannot be replayed here: not tried again."""
        self.peers = (
            Peers(storage, self.heard, self.refresh, self.take_over) if storage.shared else None
        )
        """The other server processes on the database, if it may have any (PostgreSQL)."""

    async def begin(self) -> None:
        """Join the other server processes, if any: beat, listen for their news, and take
        over the tables of dead ones."""
        if self.peers is not None:
            await self.peers.start()

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.writer, fn, *args)

    @staticmethod
    def agents_for(game: Game[Any, Any], seats: list[str]) -> list[Agent]:
        return [RemoteSeat() if spec == "human" else make_bot(spec, game) for spec in seats]

    async def create_table(
        self,
        game_name: str,
        seats: list[str],
        options: dict[str, Any],
        seed: int | None,
        pack: str | None,
        device: list[int] | None = None,
        settings: TableSettings | None = None,
        open_seats: list[int] | None = None,
        opened_by: str = "",
    ) -> tuple[Room, list[str | None], str]:
        """Open a table for the address `opened_by`. Returns it; a seat, the secret its
        creator is handed (an invite for a person elsewhere, a credential for a seat on
        the creator's device, None for a bot); and the creator's host key, which hands a
        seat out again."""
        game = get_game(game_name)
        settings = settings or TableSettings()
        if settings.stand_in is None:
            # The default within this server's caps: a server that lets a search think
            # less than the default's time still opens tables with the default settings.
            settings = settings.model_copy(
                update={"stand_in": stand_in_within(self.limits.search.millis)}
            )
        stand_in = settings.stand_in or ""
        if pack is not None and ("/" in pack or "\\" in pack or pack.endswith(".toml")):
            raise ConfigError("only the built-in packs can be used on the server")
        if "players" in options:
            raise ConfigError("the player count comes from the seats")
        for spec in [*seats, stand_in]:
            if spec.startswith("bot:policy:") and spec not in self.limits.policies:
                offered = ", ".join(self.limits.policies) or "none"
                raise SeatError(f"this server seats no policy '{spec}' (it offers: {offered})")
        config = game.make_config({**options, "players": len(seats)})
        loaded = game.load_pack(pack)
        for spec in [*seats, stand_in]:
            check_seat(spec, game, config, loaded)
            self.limits.search.check(spec, game)
        if stand_in == "human":
            raise ConfigError("settings: stand_in must be a bot, e.g. 'bot:heuristic'")
        people = [s for s, spec in enumerate(seats) if spec == "human"]
        here = sorted(set(device or []))
        for seat in here:
            if seat not in people:
                raise ConfigError(
                    f"device: {seat_name(seat) if 0 <= seat < len(seats) else f'seat {seat}'}"
                    " is not a person's seat"
                )
        left_open = sorted(set(open_seats or []))
        for seat in left_open:
            if seat not in people or seat in here:
                raise ConfigError(
                    f"open: {seat_name(seat) if 0 <= seat < len(seats) else f'seat {seat}'}"
                    " is not a person's seat away from the host's device"
                )
        if here and game.kind == "competitive" and here != people:
            # One device holding some hands of a competitive table and not others would
            # let its holder read two hands against the rest: pass and play is the
            # whole table at one device, or none of it.
            raise ConfigError(
                "device: in a competitive game every person's seat is on this device "
                "(pass and play) or none is"
            )
        if seed is None:
            seed, deal = random_seed(), "secret"
        elif not 0 <= seed <= MAX_SEED:
            raise ConfigError(f"seed must be between 0 and {MAX_SEED}")
        else:
            deal = "chosen"
        await self.check_room_for_one_more()
        match = Match.start(game, self.agents_for(game, seats), seed, options, pack, seats=seats)
        # The pack as it is now, for the lobby's check of which tables still replay.
        self._digests[(game.name, match.pack.name)] = match.pack.digest
        handed: list[str | None] = []
        keys: list[SeatKey] = []
        for seat, spec in enumerate(seats):
            if spec != "human":
                handed.append(None)
                keys.append(SeatKey())
                continue
            if seat in left_open:
                # Nobody is handed it: the first to join from the lobby takes it.
                handed.append(None)
                keys.append(SeatKey(open_seat=True))
                continue
            secret = new_secret()
            handed.append(secret)
            if seat in here:
                keys.append(SeatKey(None, secret_hash(secret), device=True))
            else:
                keys.append(SeatKey(secret_hash(secret)))
        host = new_secret()
        room = await self._open(
            match, keys, deal, settings, secret_hash(host), bool(left_open), opened_by
        )
        return room, handed, host

    async def check_room_for_one_more(self) -> None:
        """Busy if the server holds as many unfinished tables as it keeps."""
        open_now = await self.db(self.storage.count_open)
        if open_now >= self.limits.open_tables:
            raise Busy(
                f"the server has {self.limits.open_tables:,} tables open, as many as it "
                "keeps: try again when one has finished"
            )

    async def _open(
        self,
        match: Match,
        keys: list[SeatKey],
        deal: str,
        settings: TableSettings,
        host_hash: str | None,
        waiting: bool = False,
        opened_by: str = "",
    ) -> Room:
        """Store a new table and bring it to life: its bots start if it is theirs to move
        (once its open seats are taken, if it has any). `opened_by` is the address that
        opened it, whose minute of search its bots count in (search.py)."""
        table_id = secrets.token_urlsafe(6)
        created_at = time.time()
        await self.db(
            self.storage.create,
            table_id,
            match.record,
            keys,
            created_at,
            deal,
            settings.model_dump(),
            host_hash,
            "waiting" if waiting else "playing",
        )
        room = self._room(table_id, match, list(match.opening), keys, created_at, deal)
        room.settings = settings
        room.waiting = waiting
        room.opened_by = opened_by
        self.rooms[table_id] = room
        self.schedule_bots(room)
        self.forget_if_idle(room)
        return room

    def _room(
        self,
        table_id: str,
        match: Match,
        events: list[Event],
        keys: list[SeatKey],
        created_at: float,
        deal: str,
    ) -> Room:
        room = Room(table_id, match, events, keys, created_at, deal, self.pass_prior)
        room.kept = self.peers is None
        return room

    def _rebuilt(self, room: Room, **changed: Any) -> tuple[Match, list[Event]]:
        """The table's match replayed from its record with `changed` (other seats, fewer
        or more actions), and every event of it: for a start, a take-back, a catch-up."""
        record = room.match.record.model_copy(update=changed)
        return Match.from_record(room.game, record, self.agents_for(room.game, record.seats))

    def _lease_from(self, room: Room, stored: StoredTable) -> None:
        """Whose the table's bots and clocks are, as storage says (several processes)."""
        if self.peers is not None:
            room.keeper = stored.keeper
            room.kept = stored.keeper == self.storage.me

    def keeps(self, room: Room) -> bool:
        """Whether this process runs the table's bots and clocks now. If no process does,
        it asks for the lease, and once it has it starts what is due."""
        if room.kept:
            return True
        if room.keeper is None and not room.claiming and self.peers is not None:
            room.claiming = True
            task = asyncio.get_running_loop().create_task(self._claim(room))
            room.tasks.add(task)
            task.add_done_callback(room.tasks.discard)
        return False

    async def _claim(self, room: Room) -> None:
        assert self.peers is not None
        try:
            won = await self.peers.call(self.storage.take_lease, room.id)
        except Exception:
            log.exception("table %s: taking its lease failed", room.id)
            won = False
        finally:
            room.claiming = False
        if won and self.rooms.get(room.id) is room:
            room.kept, room.keeper = True, self.storage.me
            self.schedule_bots(room)
            self.watch(room)
            self.forget_if_idle(room)

    # -- news from the other server processes (peers.py) ------------------------------

    def heard(self, table_id: str) -> None:
        """Another process changed the table: if it is in memory here, catch up."""
        room = self.rooms.get(table_id)
        if room is None:
            if table_id in self._loading_now:
                # News while the table is read: it is caught up once it is in memory.
                self._heard_meanwhile.add(table_id)
            return
        if room.sockets == 0 and not room.kept and not room.claiming:
            # Nobody is at it here, and its bots are another's: it leaves memory rather
            # than follow every move (storage brings it back if someone comes).
            self._unload(room)
            return
        self._follow(room)

    def _follow(self, room: Room) -> None:
        """Catch the table in memory up with storage, soon (once for news that comes
        while it does)."""
        room.dirty = True
        if room.catching is None or room.catching.done():
            room.catching = asyncio.get_running_loop().create_task(self._catch_up(room))

    def refresh(self) -> None:
        """News may have been missed (the listening connection was lost): catch up every
        table in memory."""
        for table_id in list(self.rooms):
            self.heard(table_id)

    async def take_over(self, table_ids: list[str]) -> None:
        """Run the bots and clocks of tables whose keeper died, from where storage has
        them (every action it acknowledged was committed first), and of this process's
        own tables that left its memory on a failure."""
        for table_id in table_ids:
            room = self.rooms.get(table_id)
            loaded = room is None
            if room is None:
                if table_id in self._unresumable:
                    continue
                try:
                    room = await self.get_room(table_id)
                except TavernkeepError:
                    # Its pack changed under it: it stays as it is (logged once).
                    self._unresumable.add(table_id)
                    continue
                if room is None:
                    continue
            if not room.kept:
                room.keeper = None  # dead: `keeps` asks for the lease, which has lapsed
                self.keeps(room)
            if loaded:
                self.forget_if_idle(room)

    async def _catch_up(self, room: Room) -> None:
        try:
            async with room.lock:
                while room.dirty:
                    room.dirty = False
                    touched = room.touched
                    stored = await self.db(self.storage.load, room.id)
                    if room.touched != touched:
                        # A change of this process's own landed while storage was read,
                        # and the read may predate it: read again.
                        room.dirty = True
                        continue
                    await self._reconcile(room, stored)
        except Exception:
            log.exception("table %s: catching up with another server failed", room.id)
            self._unload(room)

    async def _reconcile(self, room: Room, stored: StoredTable | None) -> None:
        """Bring the table in memory to what storage holds, telling every page here what
        changed as if it had happened here. Called under the table's lock."""
        if stored is None:
            return
        self._lease_from(room, stored)
        now = time.monotonic()
        # Who is at the table on other processes: a person gone from every process is a
        # leaver whose grace starts now; one back is no leaver.
        was = room.connected()
        # What a seat passes on is its own: a change of it is no news to the others.
        public = [replace(key, passing_on=None) for key in room.keys]
        passing_before = [key.passing_on for key in room.keys]
        seats_before = (public, dict(room.stand_ins), was)
        room.remote = set(stored.present)
        is_now = room.connected()
        for seat in was - is_now:
            if room.keys[seat].claimed:
                room.left_at[seat] = now
        for seat in is_now - was:
            room.left_at.pop(seat, None)
        for seat, (old, new) in enumerate(zip(room.keys, stored.keys, strict=True)):
            if old.credential_hash is not None and new.credential_hash != old.credential_hash:
                # Handed to a new invite by the host, on another process.
                for conn in [c for c in room.connections if c.seat == seat]:
                    room.drop(conn, "the table's host handed this seat to a new invite")
        room.keys = list(stored.keys)
        room.stand_ins = {s: k.away for s, k in enumerate(stored.keys) if k.away}
        if room.waiting and stored.status != "waiting":
            # Begun: its open seats taken, or the host's word.
            seats = list(stored.record.seats)
            room.match, room.log = self._rebuilt(room, seats=seats)
            room.seats, room.waiting = seats, False
            room.asked_wall = stored.updated_at
        resync = False
        if stored.revision != room.revision:
            mine = room.match.record.actions
            theirs = stored.record.actions
            if theirs[: len(mine)] != mine:
                resync = True  # a decision was taken back
        for line in stored.chat:
            if line.index >= room.chat_count:
                room.chat.append(line)
                room.chat_count = line.index + 1
                if not resync:
                    room.broadcast_chat(line)
        if stored.revision != room.revision:
            if resync:
                room.match, room.log = self._rebuilt(room, actions=stored.record.actions)
                room.stood_in = dict(stored.stood_in)
                room.takebacks.clear()
            else:
                for index in range(room.version, len(stored.record.actions)):
                    self._replay(room, stored, index)
            room.revision = stored.revision
            room.asked_wall = stored.updated_at
        if stored.status in ENDED and room.ended is None:
            room.ended = stored.status
            if room.bot_task is not None:
                room.bot_task.cancel()
            room.broadcast(None)
        if resync:
            room.resync()
        else:
            public = [replace(key, passing_on=None) for key in room.keys]
            if (public, dict(room.stand_ins), room.connected()) != seats_before:
                room.broadcast_seats()
            for seat, key in enumerate(room.keys):
                if key.passing_on != passing_before[seat]:
                    room.send_own(seat)
        if stored.rematch_id is not None and not room.rematch_told:
            room.rematch_told = True
            room.rematch_id = stored.rematch_id
            room.send_all(json.dumps({"type": "rematch", "table": stored.rematch_id}))
        self.schedule_bots(room)
        self.watch(room)

    def _replay(self, room: Room, stored: StoredTable, index: int) -> None:
        """Apply action `index` that another process committed, as that process did."""
        game, state = room.game, room.match.state
        seat = game.actor(state)
        if seat is None:
            raise RecordError(f"table {room.id}: action {index} after the end")
        action = Action.parse(stored.record.actions[index])
        game.check_legal(state, action)
        stand_in = index in stored.stood_in
        person = (
            room.seats[seat] == "human" and not stand_in and game.legal_actions(state) != [PASS]
        )
        self._apply(room, seat, action, stand_in, self._undoable(room, seat, action, person))

    async def get_room(self, table_id: str) -> Room | None:
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(table_id)
            if room is None:
                self._loading_now.add(table_id)
                try:
                    room = await self._load(table_id)
                finally:
                    self._loading_now.discard(table_id)
                if room is not None and table_id in self._heard_meanwhile:
                    self._heard_meanwhile.discard(table_id)
                    self._follow(room)
        return room

    async def _load(self, table_id: str) -> Room | None:
        """Bring a stored table into memory (under `_loading`)."""
        stored = await self.db(self.storage.load, table_id)
        if stored is None:
            return None
        try:
            game = get_game(stored.record.game)
            match, events = Match.from_record(
                game, stored.record, self.agents_for(game, stored.record.seats)
            )
        except TavernkeepError as exc:
            # Its pack was changed under it, say: reported, and left in storage as
            # it is; the asker is told in one line.
            log.warning("table %s cannot be resumed: %s", table_id, exc)
            raise
        if stored.record.version < RECORD_VERSION:
            # Stored by an older server in an older numbering: the replay read it
            # as this version writes it, and storage is brought along before the
            # table takes a new action.
            await self.db(self.storage.rewrite_actions, table_id, match.record.actions)
        room = self._room(table_id, match, events, stored.keys, stored.created_at, stored.deal)
        room.settings = TableSettings.model_validate(stored.settings, strict=False)
        if stored.status in ENDED:
            room.ended = stored.status
        room.waiting = stored.status == "waiting"
        room.rematch_id = stored.rematch_id
        room.stood_in = dict(stored.stood_in)
        room.asked_wall = stored.updated_at
        room.revision = stored.revision
        room.remote = set(stored.present)
        room.stand_ins = {s: k.away for s, k in enumerate(stored.keys) if k.away}
        self._lease_from(room, stored)
        # Nobody is at a table just loaded: its claimed seats' grace starts now.
        now = time.monotonic()
        for seat, key in enumerate(stored.keys):
            if stored.record.seats[seat] == "human" and key.claimed and seat not in room.remote:
                room.left_at[seat] = now
        room.chat.extend(stored.chat)
        room.chat_count = stored.chat_count
        if stored.status == "playing" and room.actor is None:
            # Killed between the last action's commit and marking the end.
            await self.finish(room)
        self.rooms[table_id] = room
        self.schedule_bots(room)
        return room

    async def open_tables(self, limit: int = 100) -> list[dict[str, Any]]:
        """The lobby's list, newest first, from storage: a table need not be replayed to
        be listed. Presence comes from the tables in memory (nobody is at the others)."""
        listed: list[Listing] = await self.db(self.storage.open_tables, limit)
        out = []
        for entry in listed:
            try:
                game = get_game(entry.game)
                digest = self.pack_digest(game, entry.pack)
            except TavernkeepError:
                continue
            if entry.pack_digest and digest != entry.pack_digest:
                # Its pack was changed since: the table cannot be resumed, so it is not
                # offered (opening it says why).
                continue
            room = self.rooms.get(entry.id)
            if room is not None and room.actor is None and not room.waiting:
                continue
            connected = {c.seat for c in room.connections if c.seat is not None} if room else set()
            seats = []
            for seat, spec in enumerate(entry.seats):
                item: dict[str, Any] = {"seat": seat, "agent": spec}
                item["connected"] = spec != "human" or seat in connected
                if spec == "human":
                    item["device"] = entry.devices[seat]
                    if seat in entry.open_seats:
                        item["open"] = True
                    # The table in memory knows a name given since storage was read.
                    name = room.keys[seat].name if room is not None else entry.names.get(seat)
                    if name:
                        item["name"] = name
                seats.append(item)
            out.append(
                {
                    "id": entry.id,
                    "game": entry.game,
                    "title": game.title,
                    "status": entry.status,
                    "seats": seats,
                    "open_seats": len(entry.open_seats),
                    "actions": room.version if room is not None else entry.actions,
                    "created_at": entry.created_at,
                }
            )
        return out

    def pack_digest(self, game: Game[Any, Any], pack: str) -> str:
        """A built-in pack's digest, loaded once (a pack takes milliseconds to validate,
        and the lobby's list is asked for every few seconds)."""
        key = (game.name, pack)
        if key not in self._digests:
            self._digests[key] = game.load_pack(pack).digest
        return self._digests[key]

    async def stored(self, table_id: str) -> StoredTable | None:
        """A table as committed, read without replaying it; RecordError for one whose
        pack has changed under it, which no longer replays (its asker is told so)."""
        stored = await self.db(self.storage.load, table_id)
        if stored is None:
            return None
        game = get_game(stored.record.game)
        digest = self.pack_digest(game, stored.record.pack)
        if stored.record.pack_digest and digest != stored.record.pack_digest:
            log.warning("table %s cannot be resumed: its pack has changed", table_id)
            raise RecordError(
                f"table {table_id} was played with another version of pack "
                f"'{stored.record.pack}' and cannot be resumed"
            )
        return stored

    async def summary(self, table_id: str) -> dict[str, Any] | None:
        """A table's summary. From memory when someone is at it, else from storage: a
        summary never costs a replay, whoever asks how often."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room.summary()
        stored = await self.stored(table_id)
        if stored is None:
            return None
        game = get_game(stored.record.game)
        return {
            "id": stored.id,
            "game": game.name,
            "title": game.title,
            "status": stored.status,
            "seats": seats_of(
                stored.record.seats,
                stored.keys,
                set(),
                None,
                stored.stood_in,
                None,
                stored_clocks(stored),
            ),
            "actions": len(stored.record.actions),
            "created_at": stored.created_at,
            "deal": stored.deal,
            "options": variant_options(game, stored.record.config),
            "settings": TableSettings.model_validate(stored.settings, strict=False).model_dump(),
            "reactions": dict(game.reaction_kinds),
        }

    async def record(self, table_id: str) -> GameRecord | None:
        """The record of a finished table, from storage; None for no such table, and
        IllegalAction before the end (the record holds the seed)."""
        room = self.rooms.get(table_id)
        if room is not None:
            # A table waiting for players has no actor either: its deal is still to come.
            if room.actor is not None or room.waiting:
                raise IllegalAction("the record is available once the game is over")
            return named(room.match.record, room.keys, room.stood_in)
        stored = await self.stored(table_id)
        if stored is None:
            return None
        if stored.status in UNFINISHED:
            raise IllegalAction("the record is available once the game is over")
        return named(stored.record, stored.keys, stored.stood_in)

    async def say(self, room: Room, conn: Connection, raw: object) -> None:
        """A line of chat from `conn`: checked (chat.py), kept, then told to everyone."""
        seat = conn.seat
        if seat is None:
            if not room.settings.spectator_chat:
                raise IllegalAction("only the people seated chat at this table")
            if conn.name is None:
                raise IllegalAction("give a name to chat")
        text = clean_line(raw)
        if room.chat_count >= TABLE_LINES:
            raise IllegalAction(f"this table's chat is full ({TABLE_LINES:,} lines)")
        conn.chat_rate.check()
        name = conn.name if seat is None else room.keys[seat].name
        # Storage gives the line its index, so two lines said at once (on two server
        # processes, say) never share one.
        line = await self.db(
            self.storage.add_chat, room.id, ChatLine(0, seat, name, text, time.time())
        )
        self._said(room, line)

    def _noted(self, room: Room, line: ChatLine) -> bool:
        """Keep a kept line in the table's chat in memory, in the chat's order: whether
        it was added now. Not if it was shown (caught up from storage while it was
        written); not yet if another process kept lines before it, which a catch-up reads
        from storage first, then this one."""
        if line.index == room.chat_count:
            room.chat.append(line)
            room.chat_count += 1
            return True
        if line.index > room.chat_count:
            self._follow(room)
        return False

    def _said(self, room: Room, line: ChatLine) -> None:
        """Show a kept line of the chat to everyone at the table, once and in order."""
        if self._noted(room, line):
            room.broadcast_chat(line)

    async def join_open(self, table_id: str) -> tuple[int, str] | None:
        """Take the first open seat nobody has: the seat and this browser's credential
        for it. The table begins once its last open seat is taken. None for no such
        table; IllegalAction if no seat is open."""
        stored = await self.stored(table_id)
        if stored is None:
            return None
        if stored.status != "waiting":
            raise SeatTaken("no open seat at this table: it is not waiting for players")
        credential = new_secret()
        seat = await self.db(self.storage.claim_open, table_id, secret_hash(credential))
        if seat is None:
            raise SeatTaken("no open seat at this table: every one was taken")
        room = self.rooms.get(table_id)
        if room is not None:
            room.keys[seat] = replace(room.keys[seat], credential_hash=secret_hash(credential))
            room.touched += 1
            room.broadcast_seats()
        if all(
            key.claimed or not key.open_seat for key in (await self.stored(table_id) or stored).keys
        ):
            await self.start(table_id, None, everyone_here=True)
        return seat, credential

    async def start(self, table_id: str, host: object, everyone_here: bool = False) -> bool:
        """Begin a table that waits for players: at its host's word (an open seat nobody
        took is played by the table's stand-in bot), or once every open seat is taken.
        False for no such table."""
        stored = await self.stored(table_id)
        if stored is None:
            return False
        if not everyone_here:
            self.check_host(stored, host)
        if stored.status != "waiting":
            raise IllegalAction("the table is not waiting for players")
        settings = TableSettings.model_validate(stored.settings, strict=False)
        seats = list(stored.record.seats)
        for seat, key in enumerate(stored.keys):
            if key.open_seat and not key.claimed:
                seats[seat] = settings.stand_in or stand_in_within(STAND_IN_MS)
        filled = [seat for seat, spec in enumerate(seats) if spec != stored.record.seats[seat]]
        said = "Every seat is taken: the game begins"
        if not everyone_here:
            said = "The host begins the game"
        elif not any(key.open_seat for key in stored.keys):
            said = "Everyone is here: the game begins"
        if filled:
            bots = ", ".join(seat_name(seat) for seat in filled)
            said = f"The host begins the game; {seats[filled[0]]} takes {bots}"
        line = await self.db(self.storage.start, table_id, seats, self.notice_line(said))
        if line is None:
            raise IllegalAction("the table is not waiting for players")
        room = self.rooms.get(table_id)
        if room is not None:
            async with room.lock:
                room.match, room.log = self._rebuilt(room, seats=seats)
                room.seats = seats
                room.waiting = False
                room.asked_wall = time.time()
                # A person not at the table as it begins (the host started a rematch
                # without them) has the table's grace from now, as one who left.
                now = time.monotonic()
                for seat, key in enumerate(room.keys):
                    if seats[seat] == "human" and key.claimed and not room.present(seat):
                        room.left_at.setdefault(seat, now)
                self._noted(room, line)
                room.touched += 1
                room.resync()
            self.schedule_bots(room)
            self.watch(room)
        return True

    def request_advice(self, room: Room, conn: Connection) -> None:
        """Start the tutor for `conn`'s seat's decision (agents/advice.py): refused with
        IllegalAction where it may not be had; else the answer comes to that connection
        alone, as `advice`, when it is thought out, while the table goes on."""
        seat = conn.seat
        if seat is None:
            raise IllegalAction("a spectator has no decision to be advised on")
        if not room.settings.advice_allowed():
            raise IllegalAction("this table does not allow advice")
        if room.actor != seat or not room.person_decides(seat) or room.passed_for():
            raise IllegalAction("advice is for your own decision, while it is yours")
        version = room.version
        known = room.advice.get(seat)
        if known is not None and known[0] == version:
            self._send_advice(conn, version, known[1])
            return
        if (seat, version) in room.advising:
            return  # being thought out: its answer goes to every page of the seat
        room.advising.add((seat, version))
        task = asyncio.get_running_loop().create_task(self._advise(room, seat, version))
        room.tasks.add(task)
        task.add_done_callback(room.tasks.discard)

    async def _advise(self, room: Room, seat: int, version: int) -> None:
        try:
            copy = room.game.clone(room.match.state)
            options = await self.searches.advise(room.game, copy, seat, room.asker(True))
        except Exception:
            log.exception("table %s: advice failed", room.id)
            return
        finally:
            room.advising.discard((seat, version))
        room.advice[seat] = (version, options)
        for conn in [c for c in room.connections if c.seat == seat]:
            self._send_advice(conn, version, options)

    @staticmethod
    def _send_advice(conn: Connection, version: int, options: list[dict[str, Any]]) -> None:
        if conn.outbox.qsize() <= MAX_OUTBOX:
            conn.outbox.put_nowait(
                json.dumps({"type": "advice", "version": version, "options": options})
            )

    async def take_back(self, room: Room, seat: int) -> None:
        """Take back `seat`'s latest decision, if it may be (see `Room.takebacks`): the
        table goes back to just before it, storage forgets it, everyone is told in the log
        and every page is sent the table again (`undone`, then a welcome and a state)."""
        async with room.lock:
            if room.actor != seat or not room.takebacks or room.takebacks[-1][1] != seat:
                raise IllegalAction(
                    "nothing to take back: only your own latest decisions in your turn that "
                    "rolled no die and showed you no hidden card"
                )
            index, _, label = room.takebacks.pop()
            match, events = self._rebuilt(room, actions=room.match.record.actions[:index])
            who = person_name(room.keys[seat], seat)
            notice = self.notice_line(f"{who} took back: {label}")
            try:
                line = await self.db(self.storage.take_back, room.id, index, notice, room.revision)
            except Refused:
                room.takebacks.append((index, seat, label))
                raise await self._moved(room) from None
            room.revision += 1
            room.match = match
            room.log = events
            self._noted(room, line)
            room.stood_in = {i: s for i, s in room.stood_in.items() if i < index}
            room.resync()
        self.watch(room)

    async def reissue(self, table_id: str, host: object, seat: object) -> str | None:
        """A new invite for a person's seat, for its person on a new device: the seat's
        credential acts no more (its sockets are closed, told why), and the table is told
        in its log. Only the table's host key may; None for no such table."""
        stored = await self.stored(table_id)
        if stored is None:
            return None
        self.check_host(stored, host)
        if stored.status not in UNFINISHED:
            raise IllegalAction("the game is over: its seats are not handed out again")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(stored.keys):
            raise IllegalAction("no such seat at this table")
        if stored.record.seats[seat] != "human":
            raise IllegalAction(f"{seat_name(seat)} is a bot's seat")
        if stored.keys[seat].device:
            raise IllegalAction(f"{seat_name(seat)} is played on the host's device")
        invite = new_secret()
        said = f"The table's host handed {seat_name(seat)}'s seat to a new invite"
        line = await self.db(
            self.storage.reissue, table_id, seat, secret_hash(invite), self.notice_line(said)
        )
        room = self.rooms.get(table_id)
        if room is not None:
            room.keys[seat] = replace(
                room.keys[seat], invite_hash=secret_hash(invite), credential_hash=None
            )
            room.touched += 1
            for conn in [c for c in room.connections if c.seat == seat]:
                room.drop(conn, "the table's host handed this seat to a new invite")
            self._said(room, line)
            room.broadcast_seats()
        return invite

    async def close_table(self, table_id: str, host: object) -> bool:
        """End an unfinished table at its host's word; False for no such table."""
        stored = await self.stored(table_id)
        if stored is None:
            return False
        self.check_host(stored, host)
        await self.end(table_id, "closed")
        return True

    async def end(self, table_id: str, status: str) -> None:
        """End an unfinished table without a result ("closed" or "archived"): nobody acts
        at it again, everyone at it is told, and its record (seed and all, since no card
        of it will be dealt again) can be downloaded. IllegalAction if it was over."""
        room = self.rooms.get(table_id)
        lock = room.lock if room is not None else asyncio.Lock()
        async with lock:
            ended = await self.db(self.storage.end, table_id, status)
            if not ended:
                raise IllegalAction("the game is over already")
            if room is not None:
                room.ended = status
                room.touched += 1
                if room.bot_task is not None:
                    room.bot_task.cancel()
        await self.notice(table_id, ENDED[status][0].upper() + ENDED[status][1:])
        if room is not None:
            room.broadcast(None)
            self.forget_if_idle(room)

    def watch(self, room: Room) -> None:
        """Keep time on the person whose decision it is: once their clock runs out, or
        the table's grace is over with every page of theirs gone, a bot stands in
        (`_stand_in_after`). Called whenever the decision moves or a person comes, goes
        or is back; a table waiting on a bot has nothing to watch."""
        if room.watch_task is not None:
            room.watch_task.cancel()
            room.watch_task = None
        actor = room.actor
        if actor is None or not room.person_decides(actor):
            return
        due: list[tuple[float, str]] = []
        left = room.clock_left(actor, time.time())
        if left is not None:
            due.append((left, "out of time"))
        grace = room.settings.grace_seconds
        if grace is not None and not room.present(actor) and actor in room.left_at:
            due.append((room.left_at[actor] + grace - time.monotonic(), "left"))
        if not due or not self.keeps(room):
            return
        delay, why = min(due)
        room.watch_task = asyncio.get_running_loop().create_task(
            self._stand_in_after(room, actor, room.version, delay, why)
        )

    async def _stand_in_after(
        self, room: Room, seat: int, version: int, delay: float, why: str
    ) -> None:
        await asyncio.sleep(max(0.0, delay))
        # From here on this task is not the watch's to cancel: the stand-in it starts is
        # told, and its bot scheduled, whatever comes and goes meanwhile.
        room.watch_task = None
        if self.rooms.get(room.id) is not room:
            return
        if room.version != version or room.actor != seat or not room.person_decides(seat):
            return
        if why == "left" and room.present(seat):
            return
        # The stand-in and its clock change together, before anything is awaited: a move
        # or a return landing meanwhile sees both or neither.
        room.stand_ins[seat] = why
        room.touched += 1
        room.waited = version
        clock = room.settings.clock
        run_out = why == "out of time" and clock is not None and clock.kind == "real_time"
        if run_out:
            room.keys[seat] = replace(room.keys[seat], clock=0.0)
        who = person_name(room.keys[seat], seat)
        await self.db(self.storage.set_away, room.id, seat, why, 0.0 if run_out else None)
        if why == "out of time":
            said = f"{who} ran out of time: {room.stand_in} plays their seat until"
            said += " they are back"
        else:
            said = f"{who} left: {room.stand_in} plays their seat until they come back"
        await self.notice(room.id, said)
        room.broadcast_seats()
        self.schedule_bots(room)

    async def arrived(self, room: Room, seat: int) -> None:
        """A page of the seat's person connected: their seat is theirs again."""
        if self.peers is not None and sum(c.seat == seat for c in room.connections) == 1:
            # The first page here: every other process shows them at the table too.
            self.peers.note_presence(room.id, seat, True)
        for held in self.held_with(room, seat):
            room.left_at.pop(held, None)
        await self.come_back(room, seat)
        if room.waiting and self.everyone_here(room):
            with contextlib.suppress(IllegalAction):  # another page began it first
                await self.start(room.id, None, everyone_here=True)

    @staticmethod
    def everyone_here(room: Room) -> bool:
        """Whether a waiting table has all its people: no open seat left to take, and a
        page of every person seated (a rematch waits for them so)."""
        if any(key.open_seat and not key.claimed for key in room.keys):
            return False
        return all(room.present(s) for s, spec in enumerate(room.seats) if spec == "human")

    async def come_back(self, room: Room, seat: int) -> None:
        """The seat's person is back (a page of theirs joined, or said so after their
        clock ran out): no bot plays for them now. Back from running out of time, their
        clock is given `BACK_TIME` to go on with."""
        back = [held for held in self.held_with(room, seat) if held in room.stand_ins]
        clock = room.settings.clock
        banks: dict[int, float | None] = {}
        # Every seat's stand-in and clock change here before anything is awaited: a bot's
        # move landing meanwhile (this runs without the table's lock) must not find the
        # person deciding on an empty clock, and run them out of time again at once.
        for held in back:
            away = room.stand_ins.pop(held)
            room.touched += 1
            banks[held] = None
            if away == "out of time" and clock is not None and clock.kind == "real_time":
                given = max(room.keys[held].clock or 0.0, BACK_TIME)
                room.keys[held] = replace(room.keys[held], clock=given)
                banks[held] = given
        for held, bank in banks.items():
            await self.db(self.storage.set_away, room.id, held, None, bank)
            await self.notice(
                room.id, f"{person_name(room.keys[held], held)} is back and plays their seat"
            )
        if back:
            room.broadcast_seats()
        self.watch(room)

    def departed(self, room: Room, seat: int) -> None:
        """The seat's person's last page here left: if none is open on another process
        either, the table's grace for them starts."""
        if self.peers is not None and not room.here(seat):
            self.peers.note_presence(room.id, seat, False)
        if room.present(seat):
            return
        now = time.monotonic()
        for held in self.held_with(room, seat):
            room.left_at[held] = now
        self.watch(room)

    @staticmethod
    def held_with(room: Room, seat: int) -> list[int]:
        """The seats one person's presence stands for: the seat, or every seat on the
        host's device for one of them."""
        if room.keys[seat].device:
            return [s for s, key in enumerate(room.keys) if key.device]
        return [seat]

    async def archive_idle(self, idle_seconds: float, limit: int = 100) -> list[str]:
        """Archive the unfinished tables with no move for `idle_seconds` and nobody at
        them: the open list keeps the tables people play. The ones archived."""
        done = []
        for table_id in await self.db(self.storage.idle, time.time() - idle_seconds, limit):
            room = self.rooms.get(table_id)
            if room is not None and room.connected():
                continue  # someone sits there, thinking: their table is not idle
            with contextlib.suppress(IllegalAction):  # it ended meanwhile
                await self.end(table_id, "archived")
                done.append(table_id)
        return done

    @staticmethod
    def notice_line(text: str) -> ChatLine:
        """A notice for the table's log; storage gives it its place in the chat."""
        return ChatLine(0, None, None, text, time.time(), "notice")

    async def notice(self, table_id: str, text: str) -> None:
        """Keep a notice in the table's log and tell everyone at it (chat.py)."""
        line = await self.db(self.storage.add_chat, table_id, self.notice_line(text))
        room = self.rooms.get(table_id)
        if room is not None:
            self._said(room, line)

    async def rematch(self, table_id: str, seat: object, token: object, host: object) -> str | None:
        """The rematch of a finished table: the same game, seats, options, pack and
        settings, a new deal, and the same people in the same seats (their credentials and
        names carry over, so each page moves to it as it is). Asked for by a person seated
        there or the host; asked again, the same table. None for no such table."""
        async with self._rematching:
            stored = await self.stored(table_id)
            if stored is None:
                return None
            if host is not None:
                self.check_host(stored, host)
            else:
                await self.check_seat(stored, seat, token)
            if stored.status != "finished":
                raise IllegalAction("a rematch follows a finished game")
            if stored.rematch_id is not None:
                return stored.rematch_id
            await self.check_room_for_one_more()
            record = stored.record
            game = get_game(record.game)
            options = {k: v for k, v in record.config.items() if k != "players"}
            match = Match.start(
                game,
                self.agents_for(game, record.seats),
                random_seed(),
                options,
                record.pack,
                seats=record.seats,
            )
            settings = TableSettings.model_validate(stored.settings, strict=False)
            # The same people in the same seats, with fresh clocks.
            keys = [replace(key, clock=None, passing_on=None) for key in stored.keys]
            old = self.rooms.get(table_id)
            opened_by = old.opened_by if old is not None else ""
            # It waits for its people, as a table with open seats does: it begins once
            # every person has a page at it, or when the host starts it; never played by
            # stand-ins because someone had not followed yet.
            people = any(spec == "human" for spec in record.seats)
            room = await self._open(
                match,
                keys,
                "secret",
                settings,
                stored.host_hash,
                waiting=people,
                opened_by=opened_by,
            )
            rematch_id = await self.db(self.storage.set_rematch, table_id, room.id)
        if rematch_id != room.id:
            # Another server process opened the rematch at the same moment: theirs
            # stands, and this one is closed before anyone sat at it.
            with contextlib.suppress(IllegalAction):
                await self.end(room.id, "closed")
        old = self.rooms.get(table_id)
        if old is not None and not old.rematch_told:
            old.rematch_told = True
            old.rematch_id = rematch_id
            old.send_all(json.dumps({"type": "rematch", "table": rematch_id}))
        return rematch_id

    async def check_seat(self, stored: StoredTable, seat: object, token: object) -> None:
        """IllegalAction unless `token` is the credential of `seat` at the stored table."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(stored.keys):
            raise IllegalAction("no such seat at this table")
        if not is_secret(stored.keys[seat].credential_hash, token):
            raise IllegalAction("that seat token is not valid for this table")

    @staticmethod
    def check_host(stored: StoredTable, host: object) -> None:
        """IllegalAction unless `host` is the table's host key."""
        if not is_secret(stored.host_hash, host):
            raise IllegalAction("that is not this table's host key")

    async def rename(self, room: Room, seat: int, raw: object, tell: bool = True) -> None:
        """Name the person at `seat` (authenticated by the caller) and, if `tell`, tell
        the table; IllegalAction for a name that is not one (names.py)."""
        name = clean_name(raw)
        if room.keys[seat].name == name:
            return
        await self.db(self.storage.set_name, room.id, seat, name)
        room.keys[seat] = replace(room.keys[seat], name=name)
        room.touched += 1
        if tell:
            room.broadcast_seats()

    async def claim(self, table_id: str, seat: object, invite: object) -> str | None:
        """Trade a seat's invite for a credential of this browser's own: the invite acts
        for nobody after that, and a second claim of it is refused (SeatTaken). Storage
        decides (one conditional update), so no table is replayed to claim a seat at it.
        None for no such table."""
        stored = await self.stored(table_id)
        if stored is None:
            return None
        seats = len(stored.record.seats)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
            raise IllegalAction("no such seat at this table")
        if not isinstance(invite, str) or not invite or len(invite) > 100:
            raise IllegalAction("that invite is not valid for this table")
        key = stored.keys[seat]
        if key.invite_hash is None or not hmac.compare_digest(key.invite_hash, secret_hash(invite)):
            raise IllegalAction("that invite is not valid for this table")
        taken = f"{seat_name(seat)}'s seat was claimed by another browser: you are watching"
        if key.claimed:
            raise SeatTaken(taken)
        credential = new_secret()
        won = await self.db(
            self.storage.claim, table_id, seat, key.invite_hash, secret_hash(credential)
        )
        if not won:
            raise SeatTaken(taken)
        room = self.rooms.get(table_id)
        if room is not None:
            room.keys[seat] = replace(room.keys[seat], credential_hash=secret_hash(credential))
            room.touched += 1
            room.broadcast_seats()
        return credential

    async def authenticate(self, room: Room, seat: object, token: object) -> int:
        """The seat a credential acts for, checked against storage; IllegalAction if it
        acts for none. An invite is not a credential: it must be claimed first."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(room.seats):
            raise IllegalAction("no such seat at this table")
        if not isinstance(token, str) or not token or len(token) > 100:
            raise IllegalAction("that seat token is not valid for this table")
        key = await self.db(self.storage.seat_key, room.id, seat)
        if key is None or key.credential_hash is None:
            if (
                key is not None
                and key.invite_hash is not None
                and hmac.compare_digest(key.invite_hash, secret_hash(token))
            ):
                raise IllegalAction("that is an invite: claim the seat with it first")
            raise IllegalAction("that seat token is not valid for this table")
        if not hmac.compare_digest(key.credential_hash, secret_hash(token)):
            raise IllegalAction("that seat token is not valid for this table")
        return seat

    async def act(self, room: Room, seat: int, text: str, version: object | None) -> None:
        """Apply a seat's action: checked, committed, applied, broadcast; else IllegalAction."""
        async with room.lock:
            if version is not None and version != room.version:
                raise IllegalAction("the table has moved on since that choice; choose again")
            action = Action.parse(text)
            actor = room.actor
            if actor != seat:
                if room.ended is not None:
                    raise IllegalAction(ENDED[room.ended])
                if room.waiting:
                    raise IllegalAction("the game has not begun: the table waits for players")
                raise IllegalAction(
                    "the game is over" if actor is None else "it is not your decision"
                )
            legal = room.game.legal_actions(room.match.state)
            room.game.check_legal(room.match.state, action)
            if seat in room.stand_ins:
                # Playing is coming back: the bot standing in stops here.
                await self.come_back(room, seat)
            if action == PASS and len(legal) > 1:
                # A pass the person chose where they could have played: how long such
                # passes take is what a pass for them with nothing to play imitates.
                room.timing.observe(seat, time.monotonic() - room.asked_at)
            await self._commit_and_apply(room, seat, action, person=True)
        self.schedule_bots(room)

    async def _commit_and_apply(
        self, room: Room, seat: int, action: Action, stand_in: bool = False, person: bool = False
    ) -> None:
        """Commit a seat's action at the table's revision, then apply it (`_apply`); Moved,
        with the table caught up, if another writer took the turn first. Under the lock."""
        # Tried on a copy first, so that the action that ends the game is committed with
        # its result (storage.append_actions): a server killed between the two cannot
        # leave a table over in its actions and open in the lobby's list.
        game = room.game
        trial = game.clone(room.match.state)
        game.apply(trial, action, False)
        ended = game.result(trial) if game.actor(trial) is None else None
        result = ended.to_json() if ended is not None else None
        undoable = self._undoable(room, seat, action, person, trial)
        turn = self._turn_comes(room, trial)
        if turn is not None:
            # Their turn comes: they asked to pass on a kind of decision until now.
            await self.db(self.storage.set_passing_on, room.id, turn, None)
            room.keys[turn] = replace(room.keys[turn], passing_on=None)
        by = seat if stand_in else None
        now = time.time()
        clock = room.settings.clock
        bank = None
        if clock is not None and clock.kind == "real_time" and room.person_decides(seat):
            left = room.clock_left(seat, now)
            bank = (seat, max(0.0, left or 0.0) + clock.increment)
        try:
            await self.commits.append(
                Append(
                    room.id,
                    room.version,
                    action.text,
                    result,
                    by,
                    at=now,
                    clock=bank,
                    revision=room.revision,
                )
            )
        except (Refused, IntegrityError):
            # Another writer took this turn (its action holds the index, if the table's
            # revision did not already say so).
            raise await self._moved(room) from None
        room.revision += 1
        if bank is not None:
            room.keys[seat] = replace(room.keys[seat], clock=bank[1])
        room.asked_wall = now
        self._apply(room, seat, action, stand_in, undoable)

    async def _moved(self, room: Room) -> Moved:
        """Another writer took the table's turn: catch up from storage (under the lock),
        and the error that says so."""
        await self._reconcile(room, await self.db(self.storage.load, room.id))
        return Moved("the table has moved on since that choice; choose again")

    @staticmethod
    def _turn_comes(room: Room, after: Any) -> int | None:
        """The person whose turn `after` asks, if they pass on a kind of decision until
        then (`Room.passed_for`): a decision of another kind than the game's reactions."""
        game = room.game
        actor = game.actor(after)
        if actor is None or room.seats[actor] != "human" or not room.keys[actor].passing_on:
            return None
        return None if game.decision(after) in game.reaction_kinds else actor

    async def pass_on(self, room: Room, seat: int, kind: object) -> None:
        """`seat`'s person passes on `kind` of decision until their turn (None: asks to be
        asked again). Told to that seat's pages alone: nobody else may learn it."""
        game = room.game
        if kind is not None and (not isinstance(kind, str) or kind not in game.reaction_kinds):
            known = ", ".join(game.reaction_kinds) or "none in this game"
            raise IllegalAction(f"no such kind of decision to pass on (kinds: {known})")
        async with room.lock:
            if room.ended is not None or game.actor(room.match.state) is None:
                raise IllegalAction("the game is over")
            if room.keys[seat].passing_on != kind:
                await self.db(self.storage.set_passing_on, room.id, seat, kind)
                room.keys[seat] = replace(room.keys[seat], passing_on=kind)
            room.send_own(seat)
        self.schedule_bots(room)

    def _undoable(
        self, room: Room, seat: int, action: Action, person: bool, after: Any = None
    ) -> str | None:
        """The label of a person's own decision that showed them nothing, which they may
        take back while the decision stays theirs (Board Game Arena's rule,
        engine/takeback.py); None for any other, which ends that chance. `after` is the
        state the action leads to, if the caller has tried it already."""
        if not person:
            return None
        game, state = room.game, room.match.state
        if not may_take_back(game, state, seat, action, after):
            return None
        return game.label(state, action)

    def _apply(
        self, room: Room, seat: int, action: Action, stand_in: bool, undoable: str | None
    ) -> None:
        """Apply a committed action to the table in memory and tell every page."""
        index = room.version
        if stand_in:
            room.stood_in[index] = seat
        if undoable is not None:
            if room.takebacks and room.takebacks[-1][1] != seat:
                room.takebacks.clear()
            room.takebacks.append((index, seat, undoable))
        else:
            room.takebacks.clear()
        events = room.match.play(seat, action)
        room.log.extend(events)
        room.asked_at = time.monotonic()
        room.broadcast(events)
        self.watch(room)

    async def finish(self, room: Room) -> None:
        result = room.game.result(room.match.state)
        if result is not None:
            await self.db(self.storage.finish, room.id, result.to_json())

    def forget_if_idle(self, room: Room) -> None:
        """A table nobody is at and whose bots have nothing to do leaves memory after the
        `IDLE_KEPT` tables that went idle after it; storage keeps it, and `get_room`
        brings it back when someone joins. A long-running server holds the tables in
        play and a few just left, so a page reconnecting after a blip (or a stranger
        joining and leaving in a loop) does not cost a replay each time."""
        if self.rooms.get(room.id) is not room or not self._idle_now(room):
            self._idle.pop(room.id, None)
            return
        self._idle[room.id] = None
        self._idle.move_to_end(room.id)
        while len(self._idle) > IDLE_KEPT:
            oldest, _ = self._idle.popitem(last=False)
            left = self.rooms.get(oldest)
            if left is not None and self._idle_now(left):
                self.rooms.pop(oldest, None)
                if left.kept and self.peers is not None:
                    # Its bots and clocks are any process's again: one that has the table
                    # hears so and takes the lease if it has work for it.
                    self.peers.note_release(oldest)
                # Nobody is at it, so nobody waits on a leaver there: its grace starts
                # again when someone comes back and it is loaded.
                if left.watch_task is not None:
                    left.watch_task.cancel()

    def _unload(self, room: Room) -> None:
        """Let go of a table whose copy here went wrong (the database went away in the
        middle of a move, say): its pages are closed, so they reconnect and find it as
        storage has it, and its keeper (this process, if it was) loads it again at its
        next heartbeat."""
        if self.rooms.get(room.id) is room:
            self.rooms.pop(room.id, None)
            self._idle.pop(room.id, None)
        for task in (room.bot_task, room.watch_task):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        for conn in list(room.connections):
            room.drop(conn)

    @staticmethod
    def _idle_now(room: Room) -> bool:
        busy = room.bot_task is not None and not room.bot_task.done()
        return not room.connections and not busy

    def schedule_bots(self, room: Room) -> None:
        actor = room.actor
        if actor is None or (room.person_decides(actor) and not room.passed_for()):
            return
        if not self.keeps(room):
            return  # another process runs this table's bots
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.get_running_loop().create_task(self._bots_play(room))

    async def _bots_play(self, room: Room) -> None:
        try:
            await self._play_bots(room)
        except asyncio.CancelledError:
            raise
        except Exception:
            # A bot or storage failure must not pass silently: the table stops here and
            # the next connection or restart resumes it from what was committed.
            log.exception("table %s: bots stopped", room.id)
            self._unload(room)
            return
        # The task is done once this returns: an idle table may leave memory then.
        asyncio.get_running_loop().call_soon(self.forget_if_idle, room)

    async def _play_bots(self, room: Room) -> None:
        while True:
            actor = room.actor
            if actor is None or not room.kept:
                return
            if room.person_decides(actor):
                if not room.passed_for():
                    return
                # Nothing to play: passed for, after a pause drawn like this person's own
                # passes (timing.py), so the table cannot tell a seat with nothing.
                version = room.version
                await asyncio.sleep(room.timing.delay(actor))
                async with room.lock:
                    still = room.version == version and room.kept
                    if still and room.person_decides(actor) and room.passed_for():
                        with contextlib.suppress(Moved):
                            await self._commit_and_apply(room, actor, PASS)
                continue
            asked = time.monotonic()
            async with room.lock:
                actor = room.actor
                if actor is None or not room.kept or room.person_decides(actor):
                    continue
                # A bot's stream is derived from the table's history, not carried in
                # memory, so a restarted server's bots choose as they would have.
                match = room.match
                version = room.version
                match.rngs[actor] = Rng(derive_seed(match.seed, "seat", actor, version))
                stand_in = room.seats[actor] == "human"
                spec = room.stand_in if stand_in else room.seats[actor]
                agent = room.stand_in_agent() if stand_in else match.agents[actor]
                if isinstance(agent, ISMCTSBot):
                    copy = room.game.clone(match.state)
                    rng = match.rngs[actor]
                    action = None
                else:
                    action = agent.choose(InfoSet(room.game, match.state, actor, match.rngs[actor]))
            if action is None:
                # A search thinks in the pool, over a copy, with the lock free: the
                # table's spectators join and its people reconnect meanwhile.
                asker = room.asker(stand_in or room.has_people())
                action = await self.searches.choose(room.game, spec, copy, actor, rng, asker)
            if room.waited != version:
                # A pause, so that people can follow the bots' moves, counted from when
                # the bot was asked (a search's thinking is part of it); a pass is quick,
                # nothing to follow. Not where the table has just waited out a person's
                # grace or clock. What the pause depends on is the action, which the
                # table sees anyway: it tells nothing of the bot's hand.
                pause = self.bot_delay / 4 if action == PASS else self.bot_delay
                await asyncio.sleep(max(0.0, asked + pause - time.monotonic()))
            async with room.lock:
                if room.version != version or room.actor != actor:
                    continue
                if room.person_decides(actor) or not room.kept:
                    continue  # its person came back while the stand-in thought
                room.game.check_legal(room.match.state, action)
                # Moved: the lease was lost to a process that played this turn.
                with contextlib.suppress(Moved):
                    await self._commit_and_apply(room, actor, action, stand_in)

    async def close(self) -> None:
        for room in self.rooms.values():
            if room.bot_task is not None:
                room.bot_task.cancel()
        if self.peers is not None:
            await self.peers.stop()
        self.searches.close()
        self.writer.shutdown(wait=True)
        self.storage.close()


def describe_options(game: Game[Any, Any]) -> list[dict[str, Any]]:
    """The game's options for the lobby form, from its config model (players excluded)."""
    out = []
    for name, info in game.config_model.model_fields.items():
        if name == "players":
            continue
        annotation = info.annotation
        entry: dict[str, Any] = {
            "name": name,
            # What the form shows a person: the option's title and description, in the
            # table's words (the name is what the command line and the API take).
            "title": info.title or name.replace("_", " ").capitalize(),
            "default": info.get_default(call_default_factory=True),
            "description": info.description or "",
        }
        choices = [c for c in getattr(annotation, "__args__", ()) if c is not type(None)]
        if annotation is str:
            # A name from the pack (Side Quest's scenario): the pack's names as a list.
            named = game.grid_values(name, game.load_pack().content)
            if named and all(isinstance(c, str) for c in named):
                choices = named
        if annotation is bool:
            entry["type"] = "bool"
        elif annotation is int or choices == [int]:
            entry["type"] = "int"
        elif choices and all(isinstance(c, str) for c in choices):
            entry["type"] = "choice"
            entry["choices"] = list(choices)
        elif getattr(annotation, "__origin__", None) is list and len(choices) == 1:
            # A list of choices (Crits & Tricks' suits): the form offers a box each.
            entry["type"] = "choices"
            entry["choices"] = list(getattr(choices[0], "__args__", ()))
        else:
            entry["type"] = "str"
        out.append(entry)
    return out


__all__ = ["Busy", "Connection", "Limits", "Room", "SeatError", "SeatTaken", "Tavern"]
