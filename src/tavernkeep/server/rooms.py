"""The tavern (`Tavern`): all live tables of one server, over one storage, and the front
door the web app (app.py) talks to. It builds the parts that act on a table in memory
(room.py `Room`), each a module named for what it keeps (README.md has the map).

Every change to a table goes one way, under the table's lock: check the action, commit
it to storage, apply it, then tell every connection what its seat may see (play.py); the
bots then move if the table is theirs (bots.py). Committing before applying means an
action nobody has heard of can be lost only if the commit itself failed, and then the
table is unchanged too.

On PostgreSQL, several server processes may hold one table at once (peers.py): an action
is committed only at the table's revision its writer saw, so of two processes acting at
once one wins and the other catches up and says so (`Moved`); every process hears of the
others' changes and catches up its copy (`Tavern.heard`, keeping.py); and the bots and
clocks run in the one process that holds the table's lease (lease.py, `Room.kept`).

Storage is the truth; memory holds only the tables someone is at (tables.py).
"""

from __future__ import annotations

import contextlib
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tavernkeep.engine.content import Pack
from tavernkeep.engine.errors import IllegalAction, SeatError
from tavernkeep.engine.game import Agent, Game
from tavernkeep.engine.records import GameRecord
from tavernkeep.server.bots import Bots
from tavernkeep.server.chat import TABLE_LINES
from tavernkeep.server.clocks import Clocks
from tavernkeep.server.commits import GroupCommit
from tavernkeep.server.keeping import Keeping
from tavernkeep.server.lease import Lease
from tavernkeep.server.lifecycle import Busy, Lifecycle
from tavernkeep.server.limits import Limits
from tavernkeep.server.lobby import Lobby
from tavernkeep.server.peers import Peers
from tavernkeep.server.play import Moved, Play
from tavernkeep.server.room import MAX_OUTBOX, Connection, Room, agents_for
from tavernkeep.server.search import SearchPool
from tavernkeep.server.seating import Seating, SeatTaken
from tavernkeep.server.settings import TableSettings
from tavernkeep.server.storage import Storage, StoredTable
from tavernkeep.server.tables import IDLE_KEPT, Tables
from tavernkeep.server.talk import Talk
from tavernkeep.server.timing import PassPrior
from tavernkeep.server.your_tables import YourTables


class Tavern:
    """All live tables of one server, over one storage.

    Its parts are built bottom up, each on the parts built before it, so that a person's
    action runs one way through them (README.md). The few things a lower part asks of a
    higher one (a table's bots to run, its clock to watch, its copy to catch up) it asks
    through the methods of this door that say so, under "asked by the parts below"."""

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
        self.searches = SearchPool(self.limits.search_workers, self.limits.search)
        # One writer thread: storage calls run in order and never block the event loop.
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="storage")
        self.commits = GroupCommit(storage, self.writer)
        self.peers = (
            Peers(storage, self.heard, self.refresh, self.take_over) if storage.shared else None
        )
        """The other server processes on the database, if it may have any (PostgreSQL)."""
        self.tables = Tables(
            storage,
            self.writer,
            self.pass_prior,
            self.peers,
            self.schedule_bots,
            self.follow,
            self.changed,
        )
        self.rooms: dict[str, Room] = self.tables.rooms
        """The tables in memory here, by id (tables.py)."""
        self.lease = Lease(self.tables, self.schedule_bots, self.watch)
        # The chat's bound (chat.py), read as the tavern opens: a tavern may keep fewer.
        self.talk = Talk(self.tables, TABLE_LINES, self.follow)
        self.clocks = Clocks(self.tables, self.lease, self.talk, self.schedule_bots)
        self.play = Play(self.tables, self.talk, self.clocks, self.commits, self.reconcile)
        self.bots = Bots(self.tables, self.lease, self.play, self.searches, bot_delay)
        self.keeping = Keeping(self.tables, self.lease, self.clocks, self.play, self.bots)
        self.lifecycle = Lifecycle(self.tables, self.talk, self.clocks, self.bots, self.limits)
        self.seating = Seating(self.tables, self.talk, self.lifecycle)
        self.lobby = Lobby(self.tables)
        self.your_tables = YourTables(self.tables)
        """The lobby sockets and the tables they follow (your_tables.py, lobby_socket.py)."""

    async def begin(self) -> None:
        """Join the other server processes, if any: beat, listen for their news, and take
        over the tables of dead ones."""
        if self.peers is not None:
            await self.peers.start()

    async def close(self) -> None:
        for room in self.rooms.values():
            if room.bot_task is not None:
                room.bot_task.cancel()
        self.your_tables.close()
        if self.peers is not None:
            await self.peers.stop()
        self.searches.close()
        self.writer.shutdown(wait=True)
        self.storage.close()

    @staticmethod
    def agents_for(game: Game[Any, Any], seats: list[str]) -> list[Agent]:
        return agents_for(game, seats)

    # -- a person's action, from their page (app.py) ----------------------------------

    async def get_room(self, table_id: str) -> Room | None:
        """The table in memory, loaded from storage if nobody is at it (tables.py)."""
        return await self.tables.get_room(table_id)

    async def authenticate(self, room: Room, seat: object, token: object) -> int:
        """The seat a page's credential acts for, or IllegalAction (seating.py)."""
        return await self.seating.authenticate(room, seat, token)

    async def act(self, room: Room, seat: int, text: str, version: object | None) -> None:
        """A person's action at their seat (app.py has checked who they are): checked,
        committed, applied and told to every page (play.py); then the table's bots move
        if it is theirs now (bots.py). IllegalAction if it may not be taken."""
        await self.play.act(room, seat, text, version)
        self.bots.schedule(room)

    async def take_back(self, room: Room, seat: int) -> None:
        """Take back the seat's latest decision, if it may be (play.py)."""
        await self.play.take_back(room, seat)

    async def pass_on(self, room: Room, seat: int, kind: object) -> None:
        """The seat passes on a kind of decision until its turn (play.py): the server
        passes for it (bots.py)."""
        await self.play.pass_on(room, seat, kind)
        self.bots.schedule(room)

    def request_advice(self, room: Room, conn: Connection) -> None:
        """Start the tutor for the connection's own decision (bots.py)."""
        self.bots.request_advice(room, conn)

    async def say(self, room: Room, conn: Connection, raw: object) -> None:
        """A line of chat from the connection (talk.py)."""
        await self.talk.say(room, conn, raw)

    async def rename(self, room: Room, seat: int, raw: object, tell: bool = True) -> None:
        """Name the person at the seat (seating.py)."""
        await self.seating.rename(room, seat, raw, tell)

    async def arrived(self, room: Room, seat: int) -> None:
        """A page of the seat's person connected: their seat is theirs again (clocks.py),
        and a table waiting for its people begins once they are all here (lifecycle.py)."""
        await self.clocks.arrived(room, seat)
        if room.waiting and self.lifecycle.everyone_here(room):
            with contextlib.suppress(IllegalAction):  # another page began it first
                await self.lifecycle.start(room.id, None, everyone_here=True)

    async def come_back(self, room: Room, seat: int) -> None:
        """The seat's person is back: no bot stands in for them now (clocks.py)."""
        await self.clocks.come_back(room, seat)

    def departed(self, room: Room, seat: int) -> None:
        """The seat's person's last page here left: their grace may start (clocks.py)."""
        self.clocks.departed(room, seat)

    def forget_if_idle(self, room: Room) -> None:
        """Let a table nobody is at leave memory, in time (tables.py)."""
        self.tables.forget_if_idle(room)

    # -- tables and seats, from the lobby's API (app.py) ------------------------------
    # A change made here is told to the lobbies that follow the table, and looked for by
    # those of an account that may sit there now (your_tables.py `touched`): a table
    # nobody is at here tells no page of its own.

    async def create_table(
        self,
        game_name: str,
        seats: list[str],
        options: dict[str, Any],
        seed: int | None,
        pack: str | Pack[Any] | None,
        device: list[int] | None = None,
        settings: TableSettings | None = None,
        open_seats: list[int] | None = None,
        opened_by: str = "",
        account: str | None = None,
    ) -> tuple[Room, list[str | None], str]:
        """Open a table: it, each seat's secret for its creator and the host key
        (lifecycle.py)."""
        return await self.lifecycle.create_table(
            game_name, seats, options, seed, pack, device, settings, open_seats, opened_by, account
        )

    async def claim(
        self, table_id: str, seat: object, invite: object, account: str | None = None
    ) -> str | None:
        """Trade a seat's invite for a browser's credential, the seat `account`'s if one
        is signed in (seating.py)."""
        credential = await self.seating.claim(table_id, seat, invite, account)
        if credential is not None:
            self.your_tables.touched(table_id)
        return credential

    async def join_open(self, table_id: str, account: str | None = None) -> tuple[int, str] | None:
        """Take the first open seat nobody has (seating.py)."""
        taken = await self.seating.join_open(table_id, account)
        if taken is not None:
            self.your_tables.touched(table_id)
        return taken

    async def own_seats(self, table_id: str, seats: list[int], account: str) -> None:
        """A signed-in creator's hot seats are their account's (seating.py)."""
        await self.seating.own(table_id, seats, account)
        self.your_tables.touched(table_id)

    async def take_seat(
        self, table_id: str, seat: object, account: str, session_hash: str
    ) -> str | None:
        """A credential for an account's seat, for another browser of theirs (seating.py)."""
        return await self.seating.take(table_id, seat, account, session_hash)

    async def reissue(self, table_id: str, host: object, seat: object) -> str | None:
        """A new invite for a person's seat, at the host's word (seating.py)."""
        invite = await self.seating.reissue(table_id, host, seat)
        if invite is not None:
            self.your_tables.touched(table_id)
        return invite

    async def start(self, table_id: str, host: object, everyone_here: bool = False) -> bool:
        """Begin a table that waits for players (lifecycle.py)."""
        started = await self.lifecycle.start(table_id, host, everyone_here)
        if started:
            self.your_tables.touched(table_id)
        return started

    async def close_table(self, table_id: str, host: object) -> bool:
        """End an unfinished table at its host's word (lifecycle.py)."""
        closed = await self.lifecycle.close_table(table_id, host)
        if closed:
            self.your_tables.touched(table_id)
        return closed

    async def rematch(self, table_id: str, seat: object, token: object, host: object) -> str | None:
        """The rematch of a finished table, opened once (lifecycle.py): the lobbies that
        follow the table are told of it, and those of its seats' accounts follow it."""
        rematch_id = await self.lifecycle.rematch(table_id, seat, token, host)
        if rematch_id is not None:
            self.your_tables.touched(table_id, rematch_id)
        return rematch_id

    async def archive_idle(self, idle_seconds: float, limit: int = 100) -> list[str]:
        """Archive the tables left idle for `idle_seconds` (lifecycle.py)."""
        archived = await self.lifecycle.archive_idle(idle_seconds, limit)
        self.your_tables.touched(*archived)
        return archived

    async def open_tables(self, limit: int = 100) -> list[dict[str, Any]]:
        """The lobby's list of tables (lobby.py)."""
        return await self.lobby.open_tables(limit)

    async def summary(self, table_id: str) -> dict[str, Any] | None:
        """A table's summary, without a replay (lobby.py)."""
        return await self.lobby.summary(table_id)

    async def record(self, table_id: str) -> GameRecord | None:
        """The record of a finished table (lobby.py)."""
        return await self.lobby.record(table_id)

    # -- news from the other server processes (peers.py) ------------------------------

    def heard(self, table_id: str) -> None:
        """Another process changed the table: catch it up here (keeping.py), and tell
        the lobbies here that follow it (your_tables.py)."""
        self.keeping.heard(table_id)
        self.your_tables.heard(table_id)

    def refresh(self) -> None:
        """News may have been missed: catch up every table here (keeping.py), and
        every table the lobbies here follow (your_tables.py)."""
        self.keeping.refresh()
        self.your_tables.refresh()

    async def take_over(self, table_ids: list[str]) -> None:
        """Run the bots and clocks of tables whose keeper died (keeping.py)."""
        await self.keeping.take_over(table_ids)

    # -- asked by the parts below (README.md) -----------------------------------------

    def schedule_bots(self, room: Room) -> None:
        """The table's bots move if it is theirs to (bots.py): asked when a table is
        loaded (tables.py), its lease is won (lease.py) or a stand-in takes a seat
        (clocks.py)."""
        self.bots.schedule(room)

    def watch(self, room: Room) -> None:
        """Keep time on the person whose decision it is (clocks.py): asked when the
        table's lease is won (lease.py)."""
        self.clocks.watch(room)

    def follow(self, room: Room) -> None:
        """Catch the table in memory up with storage, soon (keeping.py): asked for news
        heard while it was loaded (tables.py) and for a chat line kept after lines
        another process kept (talk.py)."""
        self.keeping.follow(room)

    def changed(self, room: Room) -> None:
        """The table told its pages something: the lobbies that follow it are told what
        changed for them (your_tables.py). Asked by every table as it tells (room.py,
        handed by tables.py)."""
        self.your_tables.changed(room)

    async def reconcile(self, room: Room, stored: StoredTable | None) -> None:
        """Bring the table in memory to what storage holds (keeping.py): asked when
        another writer took the table's turn (play.py)."""
        await self.keeping.reconcile(room, stored)


__all__ = [
    "IDLE_KEPT",
    "MAX_OUTBOX",
    "Busy",
    "Connection",
    "Limits",
    "Moved",
    "Room",
    "SeatError",
    "SeatTaken",
    "Tavern",
]
