"""The tables in memory (`Tables`), over storage: which are loaded here, which are idle,
bringing a table into memory and letting it go again.

Storage is the truth; memory holds only the tables someone is at. A table is loaded when
someone asks for it (a join, a claim, the lobby's link) and leaves memory again when
nobody is connected and its bots have nothing to do, so a thousand abandoned tables cost
rows, not replays and megabytes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from tavernkeep.engine.errors import RecordError, TavernkeepError
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import Match
from tavernkeep.engine.records import RECORD_VERSION
from tavernkeep.games import get_game
from tavernkeep.server.peers import Peers
from tavernkeep.server.room import ENDED, Room, agents_for
from tavernkeep.server.settings import TableSettings
from tavernkeep.server.storage import SeatKey, Storage, StoredTable
from tavernkeep.server.timing import PassPrior

T = TypeVar("T")
log = logging.getLogger("tavernkeep.server")

IDLE_KEPT = 32
"""Tables kept in memory after the last person left them (see `Tables.forget_if_idle`)."""


class Tables:
    """The live tables of one server process, by id, over one storage.

    Below the other parts of the tavern (rooms.py), it asks three things of them: a table
    just loaded may have bots to run (`schedule_bots`), one another process changed
    while it was read here is caught up (`follow`, keeping.py), and each table it builds
    tells the lobby sockets that follow it when it changes (`changed`, your_tables.py)."""

    def __init__(
        self,
        storage: Storage,
        writer: ThreadPoolExecutor,
        pass_prior: PassPrior,
        peers: Peers | None,
        schedule_bots: Callable[[Room], None],
        follow: Callable[[Room], None],
        changed: Callable[[Room], None] | None = None,
    ) -> None:
        self.storage = storage
        self.writer = writer
        self.pass_prior = pass_prior
        self.peers = peers
        self.schedule_bots = schedule_bots
        self.follow = follow
        self.changed = changed
        self.rooms: dict[str, Room] = {}
        # One lock for loading rooms: loads are rare, and a lock per asked-for id would
        # let anyone grow the server's memory by asking for made-up tables.
        self._loading = asyncio.Lock()
        self.digests: dict[tuple[str, str], str] = {}
        """Each built-in pack's digest, by game and pack (`pack_digest`)."""
        self._idle: OrderedDict[str, None] = OrderedDict()
        """Tables in memory that nobody is at, the most recently idle last."""
        self.loading_now: set[str] = set()
        self.heard_meanwhile: set[str] = set()
        """Tables another process changed while they were being read here."""

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.writer, fn, *args)

    async def get_room(self, table_id: str) -> Room | None:
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(table_id)
            if room is None:
                self.loading_now.add(table_id)
                try:
                    room = await self._load(table_id)
                finally:
                    self.loading_now.discard(table_id)
                if room is not None and table_id in self.heard_meanwhile:
                    self.heard_meanwhile.discard(table_id)
                    self.follow(room)
        return room

    async def _load(self, table_id: str) -> Room | None:
        """Bring a stored table into memory (under `_loading`)."""
        stored = await self.db(self.storage.load, table_id)
        if stored is None:
            return None
        try:
            game = get_game(stored.record.game)
            match, events = Match.from_record(
                game, stored.record, agents_for(game, stored.record.seats)
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
        room = self.new_room(table_id, match, events, stored.keys, stored.created_at, stored.deal)
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
        self.lease_from(room, stored)
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

    def new_room(
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
        room.changed = self.changed
        return room

    def rebuilt(self, room: Room, **changed: Any) -> tuple[Match, list[Event]]:
        """The table's match replayed from its record with `changed` (other seats, fewer
        or more actions), and every event of it: for a start, a take-back, a catch-up."""
        record = room.match.record.model_copy(update=changed)
        return Match.from_record(room.game, record, agents_for(room.game, record.seats))

    def lease_from(self, room: Room, stored: StoredTable) -> None:
        """Whose the table's bots and clocks are, as storage says (several processes)."""
        if self.peers is not None:
            room.keeper = stored.keeper
            room.kept = stored.keeper == self.storage.me

    async def stored(self, table_id: str) -> StoredTable | None:
        """A table as committed, read without replaying it; RecordError for one whose
        pack has changed under it, which no longer replays (its asker is told so)."""
        stored = await self.db(self.storage.load, table_id)
        if stored is None:
            return None
        if stored.record.pack_data is not None:
            return stored  # its own pack, checked against its digest as it replays
        game = get_game(stored.record.game)
        digest = self.pack_digest(game, stored.record.pack)
        if stored.record.pack_digest and digest != stored.record.pack_digest:
            log.warning("table %s cannot be resumed: its pack has changed", table_id)
            raise RecordError(
                f"table {table_id} was played with another version of pack "
                f"'{stored.record.pack}' and cannot be resumed"
            )
        return stored

    def pack_digest(self, game: Game[Any, Any], pack: str) -> str:
        """A built-in pack's digest, loaded once (a pack takes milliseconds to validate,
        and the lobby's list is asked for every few seconds)."""
        key = (game.name, pack)
        if key not in self.digests:
            self.digests[key] = game.load_pack(pack).digest
        return self.digests[key]

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

    def unload(self, room: Room) -> None:
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
