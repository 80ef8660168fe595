"""Your tables (`YourTables`): the tables a person sits at as the lobby lists them, and
the lobby sockets that follow them (lobby_socket.py serves the socket itself; each table
is read and told as table_lines.py says).

A person is a browser, and an account if they signed in. The browser's lobby page sends
the credentials it holds, one for each seat it claimed; each is checked as a table's join
checks it (`verify`), and one that fails yields nothing: the same nothing as a table that
does not exist. A socket whose handshake carried a session cookie from a page of this
server (lobby_socket.py) follows, besides, the seats of the account signed in there
(`Follower.session`): its latest `ACCOUNT_SEATS`, read from storage as it follows, and
looked at again when the account takes a seat here (`touched`), when a browser of it
signs out here (`account_changed`) and every `REFRESH_EVERY` seconds (a seat taken, a
sign-out or a session's end at another server process). A seat that leaves its account
(handed to a new invite) is followed no more, as a credential that stops acting is not.

No table is brought into memory to be listed. One someone is at here is read from memory;
the others from storage, a few statements for all of them (storage/listings.py
`Summary`). Storage does not keep whose decision it is, so a table not in memory is
replayed for it once, off the event loop, and the answer is kept until the table moves
on (`Turn`, by its revision). A follower is told again when a table it follows tells
its pages something (room.py `Room.changed`), when it changed over HTTP here with nobody
at it (a claim, a start, a close, a rematch, an archiving: `touched`, asked by rooms.py),
when another server process changed it (`heard`), and every `REFRESH_EVERY` seconds for
what another process changed unheard.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Collection, Coroutine, Sequence
from typing import Any

from tavernkeep.engine.errors import TavernkeepError
from tavernkeep.engine.game import Game
from tavernkeep.games import get_game
from tavernkeep.server.room import MAX_OUTBOX, Room
from tavernkeep.server.storage.listings import Summary
from tavernkeep.server.table_lines import (
    Held,
    Line,
    SeatClaim,
    Turn,
    entry,
    replay_turns,
    room_line,
    steady,
    stored_line,
    verify,
)
from tavernkeep.server.tables import Tables

log = logging.getLogger("tavernkeep.server")

TELL_AFTER = 0.05
"""Seconds the changes gather before followers are told: a move, the seats message and
the bots' next move after it are one look at the table, not three."""
REFRESH_EVERY = 30.0
"""Seconds between reads of the followed tables nobody is at here, and of the accounts'
seats, for what changes them without this process hearing of it (a change at another
process whose news was missed; a seat an account took, or a browser of it signed out,
at another process; a session's end): a rare change, told a little late, for a read of
every followed table."""
KEPT_TURNS = 10_000
"""Tables whose replayed turn is kept: a few dozen bytes each."""
ACCOUNT_SEATS = 200
"""An account's seats one lobby socket follows, as many as a page's credentials
(lobby_socket.py `MAX_FOLLOWED`): its tables under way first, then the latest moved."""


def holds(follower: Follower, line: Line, seat: int, hashed: str | None) -> bool:
    """Whether a seat a follower follows is still theirs: its credential still the
    seat's, or (followed for the account) the seat still their account's."""
    if hashed is None:
        return follower.account is not None and line.owners[seat] == follower.account
    stored = line.credentials[seat]
    return stored is not None and hmac.compare_digest(stored, hashed)


class Follower:
    """One lobby socket: the seats it follows, by table, each with its credential's hash
    (None for a seat of the account it is signed in as), and the entry it was last sent
    of each table, so that it is told only what changed."""

    def __init__(self, session: str | None = None) -> None:
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.seats: dict[str, dict[int, str | None]] = {}
        self.told: dict[str, dict[str, Any]] = {}
        self.session = session
        """The hash of the session cookie its handshake carried from a page of this
        server's own origin (lobby_socket.py); None for none, or one from elsewhere."""
        self.account: str | None = None
        """The account that session was signed in as when last looked at."""
        self.lock = asyncio.Lock()
        """Its seats are chosen by one follow or one look at its account at a time."""
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

    def account_seats(self) -> set[Held]:
        """The seats it follows for its account (not for a credential of its own)."""
        return {
            (table_id, seat)
            for table_id, held in self.seats.items()
            for seat, hashed in held.items()
            if hashed is None
        }


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
        self.accounts: dict[str, set[Follower]] = {}
        """The followers signed in as each account, by its id."""
        self.turns: OrderedDict[str, tuple[tuple[int, int], Turn]] = OrderedDict()
        """Each replayed table's turn, with the (revision, actions) it was replayed at."""
        self.dirty: set[str] = set()
        self.sought: set[str] = set()
        """Tables changed here whose seats an account followed here may have taken."""
        self.telling: asyncio.Task[None] | None = None
        self.seeking: asyncio.Task[None] | None = None
        self.refreshing: asyncio.Task[None] | None = None
        self.looks: set[asyncio.Task[None]] = set()

    # -- a lobby socket's seats (lobby_socket.py) ---------------------------------------

    async def follow(self, follower: Follower, claims: Sequence[SeatClaim]) -> None:
        """Follow the seats of `claims` whose credential is right, and those of the
        account the follower's session is signed in as, instead of what it followed
        before; send it every one of their tables (`tables`), then each change (`table`)."""
        async with follower.lock:
            account, owned = await self._account_seats(follower)
            ids = sorted({claim.table for claim in claims} | {table for table, _ in owned})
            summaries: dict[str, Summary] = await self.db(self.storage.summaries, ids)
            seats: dict[Held, str | None] = dict(verify(claims, summaries))
            for table_id, seat in owned:
                if table_id in summaries and 0 <= seat < len(summaries[table_id].keys):
                    seats.setdefault((table_id, seat), None)
            self.unfollow(follower)
            self._sign_in(follower, account)
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
            self._drop(follower, table_id)
        follower.seats = {}
        follower.told = {}
        self._sign_in(follower, None)

    def _drop(self, follower: Follower, table_id: str) -> None:
        others = self.following.get(table_id)
        if others is not None:
            others.discard(follower)
            if not others:
                del self.following[table_id]

    def _sign_in(self, follower: Follower, account: str | None) -> None:
        """Count `follower` among the lobbies of `account` (None: of no account)."""
        if follower.account is not None:
            others = self.accounts.get(follower.account)
            if others is not None:
                others.discard(follower)
                if not others:
                    del self.accounts[follower.account]
        follower.account = account
        if account is not None:
            self.accounts.setdefault(account, set()).add(follower)

    # -- an account's seats -----------------------------------------------------------------

    async def _account_seats(self, follower: Follower) -> tuple[str | None, list[Held]]:
        """The account the follower's session is signed in as now, and its seats."""
        if follower.session is None:
            return None, []
        return await self.db(
            self.storage.session_seats, follower.session, time.time(), ACCOUNT_SEATS
        )

    def account_changed(self, account: str) -> None:
        """A browser signed in as the account signed out here, or the account was
        deleted: each of its lobby sockets here looks at its own session again, and
        shows the account's tables no more if that one has ended."""
        for follower in list(self.accounts.get(account, ())):
            self._look(self._reaccount(follower))

    def _look(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.looks.add(task)
        task.add_done_callback(self.looks.discard)

    async def _reaccount(self, follower: Follower) -> None:
        """Follow the account's seats as storage has them now: those it took since
        (at another process) are told, and all of them are gone once its session ends."""
        async with follower.lock:
            try:
                account, owned = await self._account_seats(follower)
            except Exception:
                log.exception("reading a lobby's account failed")
                return
            if follower.closed:
                return
            self._sign_in(follower, account)
            had, wanted = follower.account_seats(), set(owned)
            changed = set()
            for table_id, seat in had - wanted:
                follower.seats.get(table_id, {}).pop(seat, None)
                changed.add(table_id)
            for table_id, seat in wanted - had:
                held = follower.seats.setdefault(table_id, {})
                if seat not in held:  # else its own credential's, followed already
                    held[seat] = None
                    self.following.setdefault(table_id, set()).add(follower)
                    changed.add(table_id)
            for table_id in changed:
                if not follower.seats.get(table_id):
                    self._forget(follower, table_id)
            self._mark([table_id for table_id in changed if table_id in follower.seats])

    def _forget(self, follower: Follower, table_id: str) -> None:
        """The follower holds no seat at the table now: it is told so, once."""
        follower.seats.pop(table_id, None)
        self._drop(follower, table_id)
        if follower.told.pop(table_id, None) is not None:
            follower.send({"type": "gone", "table": table_id})

    async def _seek(self) -> None:
        """The tables changed here (`touched`) whose seats an account followed here holds
        and its lobbies do not follow yet (a claim, a join, a rematch, signed in): they
        are followed and told, while fewer than `ACCOUNT_SEATS`."""
        await asyncio.sleep(TELL_AFTER)
        while self.sought:
            table_ids = sorted(self.sought)
            self.sought = set()
            if not self.accounts:
                return
            try:
                summaries = await self.db(self.storage.summaries, table_ids)
            except Exception:
                log.exception("reading the tables an account may sit at failed")
                continue
            found = set()
            for summary in summaries.values():
                for seat, key in enumerate(summary.keys):
                    for follower in list(self.accounts.get(key.account_id or "", ())):
                        if seat in follower.seats.get(summary.id, {}) or (
                            len(follower.account_seats()) >= ACCOUNT_SEATS
                        ):
                            continue
                        follower.seats.setdefault(summary.id, {})[seat] = None
                        self.following.setdefault(summary.id, set()).add(follower)
                        found.add(summary.id)
            self._mark(found)
            self._keep_refreshing()

    # -- news of the tables ---------------------------------------------------------------

    def changed(self, room: Room) -> None:
        """A table in memory told its pages something (room.py `Room.changed`)."""
        if room.id in self.following:
            self._mark([room.id])

    def touched(self, *table_ids: str) -> None:
        """Tables changed over HTTP here (a seat claimed or taken, a start, a close, a
        rematch, an archiving), perhaps with nobody at them to tell their pages: their
        followers are told, and the lobbies here of an account that holds a seat there
        now follow it (rooms.py asks, after each)."""
        self._mark([table_id for table_id in table_ids if table_id in self.following])
        if self.accounts and table_ids:
            self.sought.update(table_ids)
            if self.seeking is None or self.seeking.done():
                with contextlib.suppress(RuntimeError):
                    self.seeking = asyncio.get_running_loop().create_task(self._seek())

    def heard(self, table_id: str) -> None:
        """Another server process changed the table (peers.py)."""
        if table_id in self.following:
            self._mark([table_id])

    def refresh(self) -> None:
        """News from the other processes may have been missed: read every table again."""
        self._mark(list(self.following))

    def close(self) -> None:
        for task in (self.telling, self.seeking, self.refreshing, *self.looks):
            if task is not None:
                task.cancel()

    def _mark(self, table_ids: Collection[str]) -> None:
        self.dirty.update(table_ids)
        if self.dirty and (self.telling is None or self.telling.done()):
            with contextlib.suppress(RuntimeError):  # no loop: nobody follows anything
                self.telling = asyncio.get_running_loop().create_task(self._tell())

    def _keep_refreshing(self) -> None:
        if (self.following or self.accounts) and (
            self.refreshing is None or self.refreshing.done()
        ):
            self.refreshing = asyncio.get_running_loop().create_task(self._refresh())

    async def _refresh(self) -> None:
        while self.following or self.accounts:
            await asyncio.sleep(REFRESH_EVERY)
            # A table in memory here tells of its own changes.
            self._mark([table_id for table_id in self.following if table_id not in self.rooms])
            for follower in {f for group in self.accounts.values() for f in group}:
                await self._reaccount(follower)

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
            seat: hashed for seat, hashed in held.items() if holds(follower, line, seat, hashed)
        }
        if not still:
            follower.seats.pop(table_id, None)
            follower.told.pop(table_id, None)
            self._drop(follower, table_id)
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
