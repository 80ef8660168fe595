"""A table in memory (`Room`): its match and log, its seats and the people at them, its
connections, and what every page of it is told.

A Room keeps the table's state; the tavern's parts act on it (rooms.py), each under the
table's `lock` when it changes the match. Storage is the truth: a Room is a copy of one
table, kept while someone is at it (tables.py).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tavernkeep.agents import make_bot
from tavernkeep.engine.actions import PASS, Action
from tavernkeep.engine.errors import IllegalAction
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Agent, Game
from tavernkeep.engine.match import Match
from tavernkeep.server.chat import SHOWN, ChatLine, ChatRate
from tavernkeep.server.search import Asker
from tavernkeep.server.settings import STAND_IN_MS, TableSettings, stand_in_within
from tavernkeep.server.storage import SeatKey
from tavernkeep.server.table_packs import pack_shown
from tavernkeep.server.timing import PassPrior, PassTiming

MAX_OUTBOX = 1000
"""Messages queued for a client that does not read; beyond this it is dropped."""

ENDED = {
    "closed": "the table's host closed the table",
    "archived": "the table was archived, left with nobody at it and no move for too long",
}
"""What a table ended without a result says, as a notice and to an action tried at it."""


def person_name(key: SeatKey, seat: int) -> str:
    """A person's seat as the table's notices name it: their name, else the seat's."""
    return key.name if key.name else seat_name(seat)


def seat_name(seat: int) -> str:
    return f"Player {seat + 1}"


class RemoteSeat:
    """A seat played by a person over a websocket: the server never asks it to choose."""

    name = "human"

    def choose(self, info: Any) -> Action:
        raise IllegalAction("a person decides for this seat")


def agents_for(game: Game[Any, Any], seats: list[str]) -> list[Agent]:
    """The table's agents: a bot for each bot's seat, and for a person's seat, one
    the server never asks to choose."""
    return [RemoteSeat() if spec == "human" else make_bot(spec, game) for spec in seats]


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
    """One table in memory: the tavern's parts act on it (rooms.py)."""

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
        person has not come back within the table's grace gets a stand-in (`Clocks.watch`).
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
        """Storage's revision of the table's actions as this copy has them (server/storage/)."""
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
        read may predate one reads again (keeping.py `Keeping.catch_up`)."""
        self.rematch_told = False
        self.rematch_id: str | None = None
        self.sockets = 0
        """WebSockets being served this table here, joined or still joining: a table a
        page is joining is not let go of (keeping.py `Keeping.heard`)."""
        self.changed: Callable[[Room], None] | None = None
        """Told after the pages, whenever they are told something: the lobby sockets that
        follow the table read it again (your_tables.py). Set as tables.py builds it."""

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
            kind is not None and game.decision(state) == kind and PASS in game.legal_actions(state)
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
            # A designer's pack and what it changes (None for a built-in pack).
            "pack": pack_shown(self.match.record),
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
        self.tell_changed()

    def send_own(self, seat: int) -> None:
        """Send `seat`'s pages its state again: something of its own changed."""
        message = json.dumps(self.state_message(seat))
        for conn in [c for c in self.connections if c.seat == seat]:
            if conn.outbox.qsize() <= MAX_OUTBOX:
                conn.outbox.put_nowait(message)
        self.tell_changed()

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
        self.tell_changed()

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
        self.tell_changed()

    def tell_changed(self) -> None:
        """Tell whoever follows the table from the lobby that its pages were told
        something (`changed`): they read it again, and say only what changed."""
        if self.changed is not None:
            self.changed(self)

    def drop(self, conn: Connection, why: str | None = None) -> None:
        """Forget a connection and tell its sender to close the socket, first saying
        `why` if given (what it had queued is not sent)."""
        self.connections.discard(conn)
        while not conn.outbox.empty():
            conn.outbox.get_nowait()
        if why is not None:
            conn.outbox.put_nowait(json.dumps({"type": "error", "message": why}))
        conn.outbox.put_nowait(None)
