"""Keeping the tables in memory in step with the other server processes (`Keeping`).

On PostgreSQL, several server processes may hold one table at once (peers.py): every
process hears of the others' changes and catches up its copy (`Keeping.heard`), telling
its pages what changed as if it had happened here; news that may have been missed catches
up every table (`refresh`); and the tables of a process that died are taken over from
where storage has them (`take_over`), their lease asked for (lease.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import replace

from tavernkeep.engine.actions import PASS, Action
from tavernkeep.engine.errors import RecordError, TavernkeepError
from tavernkeep.server.bots import Bots
from tavernkeep.server.clocks import Clocks
from tavernkeep.server.lease import Lease
from tavernkeep.server.play import Play
from tavernkeep.server.room import ENDED, Room
from tavernkeep.server.storage import StoredTable
from tavernkeep.server.tables import Tables

log = logging.getLogger("tavernkeep.server")


class Keeping:
    """News from the other server processes (peers.py), and the catching up it asks for:
    a change another process committed is applied here as that process did (play.py), and
    the table's bots and clock go on from it (bots.py, clocks.py)."""

    def __init__(
        self, tables: Tables, lease: Lease, clocks: Clocks, play: Play, bots: Bots
    ) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.db = tables.db
        self.rooms = tables.rooms
        self.lease = lease
        self.clocks = clocks
        self.play = play
        self.bots = bots
        self._unresumable: set[str] = set()
        """Tables of a dead keeper that cannot be replayed here: not tried again."""

    def heard(self, table_id: str) -> None:
        """Another process changed the table: if it is in memory here, catch up."""
        room = self.rooms.get(table_id)
        if room is None:
            if table_id in self.tables.loading_now:
                # News while the table is read: it is caught up once it is in memory.
                self.tables.heard_meanwhile.add(table_id)
            return
        if room.sockets == 0 and not room.kept and not room.claiming:
            # Nobody is at it here, and its bots are another's: it leaves memory rather
            # than follow every move (storage brings it back if someone comes).
            self.tables.unload(room)
            return
        self.follow(room)

    def follow(self, room: Room) -> None:
        """Catch the table in memory up with storage, soon (once for news that comes
        while it does)."""
        room.dirty = True
        if room.catching is None or room.catching.done():
            room.catching = asyncio.get_running_loop().create_task(self.catch_up(room))

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
                    room = await self.tables.get_room(table_id)
                except TavernkeepError:
                    # Its pack changed under it: it stays as it is (logged once).
                    self._unresumable.add(table_id)
                    continue
                if room is None:
                    continue
            if not room.kept:
                room.keeper = None  # dead: `keeps` asks for the lease, which has lapsed
                self.lease.keeps(room)
            if loaded:
                self.tables.forget_if_idle(room)

    async def catch_up(self, room: Room) -> None:
        """Read the table again until no news of it is left and bring the copy here to
        it, under the table's lock; a copy that cannot be is let go of."""
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
                    await self.reconcile(room, stored)
        except Exception:
            log.exception("table %s: catching up with another server failed", room.id)
            self.tables.unload(room)

    async def reconcile(self, room: Room, stored: StoredTable | None) -> None:
        """Bring the table in memory to what storage holds, telling every page here what
        changed as if it had happened here. Called under the table's lock."""
        if stored is None:
            return
        self.tables.lease_from(room, stored)
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
            room.match, room.log = self.tables.rebuilt(room, seats=seats)
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
                room.match, room.log = self.tables.rebuilt(room, actions=stored.record.actions)
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
        self.bots.schedule(room)
        self.clocks.watch(room)

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
        undoable = self.play.undoable(room, seat, action, person)
        self.play.apply(room, seat, action, stand_in, undoable)
