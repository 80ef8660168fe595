"""Your tables (`YourTables`): the tables a person sits at as the lobby lists them, and
the lobby sockets that follow them (lobby_socket.py serves the socket itself).

Without accounts a person is a browser: the credentials it holds, one for each seat it
claimed. Its lobby page sends them, each is checked as a table's join checks it
(`verify`), and one that fails yields nothing: the same nothing as a table that does not
exist. The seats that pass are what the socket follows; another source of seats (a
signed-in account's) hands `follow` its own as `vouched`.

No table is brought into memory to be listed. One someone is at here is read from memory;
the others from storage, a few statements for all of them (storage/listings.py
`Summary`). Storage does not keep whose decision it is, so a table not in memory is
replayed for it once, off the event loop, and the answer is kept until the table moves
on (`Turn`, by its revision). A follower is told again when a table it follows tells
its pages something (room.py `Room.changed`), when another server process changed it
(`heard`), and every `REFRESH_EVERY` seconds for what changes a table nobody is at
here (its archiving, or a start, close or rematch asked over HTTP).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from tavernkeep.engine.actions import PASS, Action
from tavernkeep.engine.errors import RecordError, TavernkeepError
from tavernkeep.engine.game import Game, Result
from tavernkeep.engine.match import Match
from tavernkeep.engine.records import GameRecord, action_at, open_record
from tavernkeep.games import get_game
from tavernkeep.server.invites import secret_hash
from tavernkeep.server.room import MAX_OUTBOX, Room, agents_for
from tavernkeep.server.settings import Clock, TableSettings
from tavernkeep.server.storage import SeatKey
from tavernkeep.server.storage.listings import Summary
from tavernkeep.server.tables import Tables

log = logging.getLogger("tavernkeep.server")

TELL_AFTER = 0.05
"""Seconds the changes gather before followers are told: a move, the seats message and
the bots' next move after it are one look at the table, not three."""
REFRESH_EVERY = 30.0
"""Seconds between reads of the followed tables nobody is at here, for what changes them
without a page being told (an archiving; a start, close or rematch asked over HTTP): a
rare change, told a little late, for a read of every followed table."""
KEPT_TURNS = 10_000
"""Tables whose replayed turn is kept: a few dozen bytes each."""
NOBODY = "0" * 64
"""Compared with a credential's hash where the seat has none, so that an unknown table,
an unclaimed seat and a wrong credential take the same time and say the same nothing."""

Held = tuple[str, int]
"""A seat a lobby socket follows: (table id, seat)."""


@dataclass(frozen=True)
class SeatClaim:
    """A seat a page says is its person's: the table, the seat and the credential."""

    table: str
    seat: int
    token: str


@dataclass(frozen=True)
class Turn:
    """Whose decision it is at a table not in memory, as a replay found it."""

    actor: int | None
    decision: str | None
    """The kind of decision (`Game.decision`): a seat passing on that kind is passed for."""
    lone_pass: bool
    """Passing is the only choice: the server passes for a person after a pause."""
    may_pass: bool


@dataclass
class Line:
    """One table as each of its people's lobbies shows it; what is a seat's alone (whether
    the decision is theirs, the result's headline for them) is added by `entry`."""

    id: str
    game: Game[Any, Any]
    status: str
    seats: list[dict[str, Any]]
    actor: int | None
    person_decides: bool
    """A person decides for the deciding seat (no bot, no stand-in)."""
    passed_for: bool
    """The server passes for the deciding person: said to that seat alone."""
    clock: dict[str, Any] | None
    result: Result | None
    rematch: str | None
    actions: int
    at: float
    """When the table last moved, in seconds since the epoch."""
    credentials: list[str | None]
    """Each seat's credential hash, checked again at every change: a seat handed to a
    new invite stops being followed. Never sent."""


def verify(claims: Sequence[SeatClaim], summaries: dict[str, Summary]) -> dict[Held, str]:
    """The claimed seats whose credential is the seat's, with the credential's hash: as a
    table's join checks it (seating.py `Seating.authenticate`), a credential acts for its
    own seat alone. A claim that fails is left out, whatever failed."""
    out: dict[Held, str] = {}
    for claim in claims:
        hashed = secret_hash(claim.token)
        found = summaries.get(claim.table)
        key = found.keys[claim.seat] if found and 0 <= claim.seat < len(found.keys) else None
        stored = key.credential_hash if key is not None else None
        if hmac.compare_digest(stored or NOBODY, hashed) and stored is not None:
            out[(claim.table, claim.seat)] = hashed
    return out


def public_seats(
    seats: list[str], keys: list[SeatKey], away: dict[int, str]
) -> list[dict[str, Any]]:
    """Who sits where, as anyone watching the table may know it: a person's name, a seat
    still open, a bot standing in for a person who left."""
    out = []
    for seat, spec in enumerate(seats):
        item: dict[str, Any] = {"seat": seat, "agent": spec}
        if spec == "human":
            key = keys[seat]
            if key.name:
                item["name"] = key.name
            if key.open_seat and not key.claimed:
                item["open"] = True
            if seat in away:
                item["away"] = away[seat]
        out.append(item)
    return out


def room_line(room: Room) -> Line:
    """A table someone is at here, from memory: exactly as its pages see it."""
    actor = room.actor
    person = actor is not None and room.person_decides(actor)
    clock = room.clocks(time.time())[actor] if room.settings.clock and actor is not None else None
    return Line(
        id=room.id,
        game=room.game,
        status=room.status,
        seats=public_seats(room.seats, room.keys, room.stand_ins),
        actor=actor,
        person_decides=person,
        passed_for=person and room.passed_for(),
        clock=clock,
        result=room.game.result(room.match.state) if room.status == "finished" else None,
        rematch=room.rematch_id,
        actions=room.version,
        at=room.asked_wall,
        credentials=[key.credential_hash for key in room.keys],
    )


def stored_line(summary: Summary, game: Game[Any, Any], turn: Turn | None) -> Line:
    """A table nobody is at here, from storage and its replayed turn. Its clock counts
    from its last move, as the table loaded from storage would count it (tables.py)."""
    keys = summary.keys
    away = {seat: key.away for seat, key in enumerate(keys) if key.away}
    actor = turn.actor if turn is not None and summary.status == "playing" else None
    person = actor is not None and summary.seats[actor] == "human" and actor not in away
    passed = False
    if person and turn is not None and actor is not None:
        kind = keys[actor].passing_on
        passed = turn.lone_pass or (kind is not None and kind == turn.decision and turn.may_pass)
    clock = None
    timing = clock_setting(summary.settings)
    if timing is not None and actor is not None and summary.seats[actor] == "human":
        bank = keys[actor].clock
        left = timing.seconds if timing.kind == "turn_based" or bank is None else bank
        spent = time.time() - summary.updated_at if person else 0.0
        clock = {"left": max(0.0, left - spent), "running": person}
    result = None
    if summary.status == "finished" and summary.result:
        result = result_of(summary.result)
    return Line(
        id=summary.id,
        game=game,
        status=summary.status,
        seats=public_seats(summary.seats, keys, away),
        actor=actor,
        person_decides=person,
        passed_for=passed,
        clock=clock,
        result=result,
        rematch=summary.rematch_id,
        actions=summary.actions,
        at=summary.updated_at,
        credentials=[key.credential_hash for key in keys],
    )


@functools.lru_cache(maxsize=256)
def clock_setting(settings: str) -> Clock | None:
    """The clocks of a table's settings as stored (JSON text): read once for the many
    tables that share them."""
    return TableSettings.model_validate(json.loads(settings), strict=False).clock


def result_of(data: dict[str, Any]) -> Result | None:
    """A stored result (`Result.to_json`) as the game's own, for its headline."""
    try:
        return Result(
            scores=tuple(data.get("scores", ())),
            ranks=tuple(data.get("ranks", ())),
            winners=tuple(int(seat) for seat in data.get("winners", ())),
            ending=str(data.get("ending", "")),
            reason=str(data.get("reason", "")),
            won=data.get("won"),
            turns=int(data.get("turns", 0)),
            facts=dict(data.get("facts") or {}),
        )
    except (TypeError, ValueError):
        return None


def entry(line: Line, mine: list[int]) -> dict[str, Any]:
    """The table as the lobby of the person at `mine` (their seats there) is told it."""
    actor = line.actor
    theirs = actor is not None and actor in mine
    out: dict[str, Any] = {
        "id": line.id,
        "game": line.game.name,
        "title": line.game.title,
        "status": line.status,
        "seats": line.seats,
        "mine": mine,
        "actor": actor,
        # Not while the server passes for them (a pass they have nothing else to make,
        # or one they asked for until their turn): nothing there waits on them.
        "your_turn": theirs and line.person_decides and not line.passed_for,
        "rematch": line.rematch,
        "actions": line.actions,
        "at": line.at,
    }
    if theirs and line.passed_for:
        out["passing"] = True
    if line.clock is not None:
        out["clock"] = line.clock
    if line.result is not None:
        out["result"] = {
            "winners": list(line.result.winners),
            "won": line.result.won,
            "reason": line.result.reason,
        }
        out["headline"] = line.game.headline(line.result, mine[0] if mine else None)
    return out


def steady(item: dict[str, Any] | None) -> dict[str, Any] | None:
    """An entry without what changes by itself (a running clock's seconds, which a page
    counts down): what a follower need not be told again."""
    clock = item.get("clock") if item is not None else None
    if item is None or not clock or not clock.get("running"):
        return item
    return {**item, "clock": {"running": True}}


def replay_turn(record: GameRecord) -> Turn:
    """Whose decision it is after the record's actions: a replay without events, bots or
    a record of its own (about a millisecond for a game of a hundred actions)."""
    game = get_game(record.game)
    config, pack = open_record(game, record)
    people = agents_for(game, ["human"] * len(record.seats))
    match = Match(game, people, record.seed, config, pack, record.seats, False, False)
    for written in record.actions:
        seat = game.actor(match.state)
        if seat is None:
            raise RecordError("an action after the end")
        match.play(seat, Action.parse(action_at(game, record.version, match.state, written)))
    actor = game.actor(match.state)
    if actor is None:
        return Turn(None, None, False, False)
    legal = game.legal_actions(match.state)
    return Turn(actor, game.decision(match.state), legal == [PASS], PASS in legal)


def replay_turns(records: dict[str, GameRecord]) -> dict[str, Turn]:
    """Each table's turn, in one call on a thread: a table that no longer replays (its
    pack changed under it) shows nobody deciding, as its page will say why."""
    out = {}
    for table_id, record in records.items():
        try:
            out[table_id] = replay_turn(record)
        except TavernkeepError as exc:
            log.warning("table %s: whose decision it is cannot be replayed: %s", table_id, exc)
            out[table_id] = Turn(None, None, False, False)
    return out


class Follower:
    """One lobby socket: the seats it follows, by table, each with its credential's hash
    (None for a seat another source vouched for), and the entry it was last sent of each
    table, so that it is told only what changed."""

    def __init__(self) -> None:
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.seats: dict[str, dict[int, str | None]] = {}
        self.told: dict[str, dict[str, Any]] = {}
        self.answering = False
        """A follow is being answered: changes meanwhile wait for the answer (`missed`),
        so that an older answer never follows a newer change."""
        self.missed: set[str] = set()
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if self.outbox.qsize() > MAX_OUTBOX:
            # A page that stopped reading: closed, not queued for without bound.
            self.closed = True
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(json.dumps(message))

    def send_close(self) -> None:
        """Close the socket once what is queued has been sent."""
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)


class YourTables:
    """The lobby sockets of this server process and the tables they follow, over the
    tables in memory and storage."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.db = tables.db
        self.rooms = tables.rooms
        self.following: dict[str, set[Follower]] = {}
        """The followers of each followed table, by its id."""
        self.turns: OrderedDict[str, tuple[tuple[int, int], Turn]] = OrderedDict()
        """Each replayed table's turn, with the (revision, actions) it was replayed at."""
        self.dirty: set[str] = set()
        self.telling: asyncio.Task[None] | None = None
        self.refreshing: asyncio.Task[None] | None = None

    # -- a lobby socket's seats (lobby_socket.py) ---------------------------------------

    async def follow(
        self, follower: Follower, claims: Sequence[SeatClaim], vouched: Collection[Held] = ()
    ) -> None:
        """Follow the seats of `claims` whose credential is right, and those `vouched`
        for by another source, instead of what `follower` followed before; send it every
        one of their tables (`tables`), then each change (`table`)."""
        ids = sorted({claim.table for claim in claims} | {table for table, _ in vouched})
        summaries: dict[str, Summary] = await self.db(self.storage.summaries, ids)
        seats: dict[Held, str | None] = dict(verify(claims, summaries))
        for table_id, seat in vouched:
            if table_id in summaries and 0 <= seat < len(summaries[table_id].keys):
                seats.setdefault((table_id, seat), None)
        self.unfollow(follower)
        for (table_id, seat), hashed in seats.items():
            follower.seats.setdefault(table_id, {})[seat] = hashed
            self.following.setdefault(table_id, set()).add(follower)
        follower.answering = True
        try:
            lines = await self._lines(set(follower.seats), summaries)
            entries = []
            for table_id, held in follower.seats.items():
                line = lines.get(table_id)
                if line is not None:
                    entries.append(entry(line, sorted(held)))
            follower.told = {item["id"]: item for item in entries}
            follower.send({"type": "tables", "tables": entries})
        finally:
            follower.answering = False
        if follower.missed:
            self._mark(follower.missed)
            follower.missed = set()
        self._keep_refreshing()

    def unfollow(self, follower: Follower) -> None:
        """Follow nothing for `follower` (its socket closed, or it follows anew)."""
        for table_id in follower.seats:
            others = self.following.get(table_id)
            if others is not None:
                others.discard(follower)
                if not others:
                    del self.following[table_id]
        follower.seats = {}
        follower.told = {}

    # -- news of the tables ---------------------------------------------------------------

    def changed(self, room: Room) -> None:
        """A table in memory told its pages something (room.py `Room.changed`)."""
        if room.id in self.following:
            self._mark([room.id])

    def heard(self, table_id: str) -> None:
        """Another server process changed the table (peers.py)."""
        if table_id in self.following:
            self._mark([table_id])

    def refresh(self) -> None:
        """News from the other processes may have been missed: read every table again."""
        self._mark(list(self.following))

    def close(self) -> None:
        for task in (self.telling, self.refreshing):
            if task is not None:
                task.cancel()

    def _mark(self, table_ids: Collection[str]) -> None:
        self.dirty.update(table_ids)
        if self.dirty and (self.telling is None or self.telling.done()):
            with contextlib.suppress(RuntimeError):  # no loop: nobody follows anything
                self.telling = asyncio.get_running_loop().create_task(self._tell())

    def _keep_refreshing(self) -> None:
        if self.following and (self.refreshing is None or self.refreshing.done()):
            self.refreshing = asyncio.get_running_loop().create_task(self._refresh())

    async def _refresh(self) -> None:
        while self.following:
            await asyncio.sleep(REFRESH_EVERY)
            # A table in memory here tells of its own changes.
            self._mark([table_id for table_id in self.following if table_id not in self.rooms])

    async def _tell(self) -> None:
        """Read the tables that changed, and tell each of their followers what changed
        for them."""
        await asyncio.sleep(TELL_AFTER)
        while self.dirty:
            table_ids = {table_id for table_id in self.dirty if table_id in self.following}
            self.dirty = set()
            try:
                lines = await self._lines(table_ids)
            except Exception:
                # A storage hiccup costs this look: the next change or refresh looks again.
                log.exception("reading the followed tables failed")
                continue
            for table_id in table_ids:
                line = lines.get(table_id)
                for follower in list(self.following.get(table_id, ())):
                    self._tell_one(follower, table_id, line)

    def _tell_one(self, follower: Follower, table_id: str, line: Line | None) -> None:
        if follower.answering:
            follower.missed.add(table_id)
            return
        held = follower.seats.get(table_id)
        if not held or line is None:
            return
        # A seat handed to a new invite, or that left its account: it is not theirs now.
        still = {
            seat: hashed
            for seat, hashed in held.items()
            if hashed is None
            or (
                hmac.compare_digest(line.credentials[seat] or NOBODY, hashed)
                and line.credentials[seat] is not None
            )
        }
        if not still:
            follower.seats.pop(table_id, None)
            follower.told.pop(table_id, None)
            others = self.following.get(table_id)
            if others is not None:
                others.discard(follower)
                if not others:
                    del self.following[table_id]
            follower.send({"type": "gone", "table": table_id})
            return
        follower.seats[table_id] = still
        item = entry(line, sorted(still))
        if steady(item) == steady(follower.told.get(table_id)):
            return
        follower.told[table_id] = item
        follower.send({"type": "table", "table": item})

    # -- reading the tables -----------------------------------------------------------------

    async def _lines(
        self, table_ids: Collection[str], summaries: dict[str, Summary] | None = None
    ) -> dict[str, Line]:
        """Each table as its people's lobbies show it: from memory if someone is at it
        here, else from storage (`summaries`, if the caller has just read them)."""
        lines: dict[str, Line] = {}
        stored: list[str] = []
        for table_id in table_ids:
            room = self.rooms.get(table_id)
            if room is not None:
                lines[table_id] = room_line(room)
            else:
                stored.append(table_id)
        if not stored:
            return lines
        if summaries is None or any(table_id not in summaries for table_id in stored):
            summaries = await self.db(self.storage.summaries, stored)
        found = [summaries[table_id] for table_id in stored if table_id in summaries]
        turns, fresh = await self._turns(found)
        games: dict[str, Game[Any, Any] | None] = {}  # a person's tables are of a few games
        for summary in [fresh.get(s.id, s) for s in found]:
            if summary.game not in games:
                try:
                    games[summary.game] = get_game(summary.game)
                except TavernkeepError:
                    games[summary.game] = None  # a game this server no longer offers
            game = games[summary.game]
            if game is not None:
                lines[summary.id] = stored_line(summary, game, turns.get(summary.id))
        return lines

    async def _turns(self, summaries: list[Summary]) -> tuple[dict[str, Turn], dict[str, Summary]]:
        """Whose decision it is at each table being played: kept from its last replay
        if it has not moved since, else replayed, all at once, off the event loop. With
        it, the tables replayed as read for their replay: what the turn is true of."""
        out: dict[str, Turn] = {}
        missing: list[str] = []
        for summary in summaries:
            if summary.status != "playing":
                continue
            kept = self.turns.get(summary.id)
            if kept is not None and kept[0] == (summary.revision, summary.actions):
                self.turns.move_to_end(summary.id)
                out[summary.id] = kept[1]
            else:
                missing.append(summary.id)
        if not missing:
            return out, {}
        # Read again with their actions, which may be newer: the turn is said of that.
        read = await self.db(self.storage.summaries, missing, True)
        records = {table_id: s.record for table_id, s in read.items() if s.record is not None}
        replayed = await asyncio.to_thread(replay_turns, records)
        for table_id, turn in replayed.items():
            summary = read[table_id]
            self.turns[table_id] = ((summary.revision, summary.actions), turn)
            self.turns.move_to_end(table_id)
            out[table_id] = turn
        while len(self.turns) > KEPT_TURNS:
            self.turns.popitem(last=False)
        return out, read
