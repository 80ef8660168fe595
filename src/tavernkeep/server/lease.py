"""Which tables' bots and clocks this process runs (`Lease`): on PostgreSQL, several
server processes may hold one table at once (peers.py), and its bots and clocks run in the
one process that holds the table's lease (`Room.kept`); a process alone on its database
runs them all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from tavernkeep.server.room import Room
from tavernkeep.server.tables import Tables

log = logging.getLogger("tavernkeep.server")


class Lease:
    """Whether this process keeps a table's bots and clocks, and asking for the lease of
    one nobody keeps. Once it has it, it starts what is due: the table's bots
    (`schedule_bots`, bots.py) and its clock (`watch`, clocks.py)."""

    def __init__(
        self,
        tables: Tables,
        schedule_bots: Callable[[Room], None],
        watch: Callable[[Room], None],
    ) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.peers = tables.peers
        self.rooms = tables.rooms
        self.schedule_bots = schedule_bots
        self.watch = watch

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
            self.tables.forget_if_idle(room)
