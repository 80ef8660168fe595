"""Time at a table (`Clocks`): the clock of the person whose decision it is, the grace
of a person whose pages are all gone, and the bot that stands in for them once either runs
out, until they are back. Who is at the table (their pages coming and going, here or on
another server process) is kept here too: the grace starts when the last page goes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace

from tavernkeep.server.lease import Lease
from tavernkeep.server.room import Room, person_name
from tavernkeep.server.tables import Tables
from tavernkeep.server.talk import Talk

BACK_TIME = 60.0
"""Seconds on the clock of a person back after theirs ran out: time to find their feet."""


class Clocks:
    """The clocks and stand-ins of the tables in memory, run where the table's lease is
    (lease.py). A stand-in, once it plays, is the bots' to schedule (`schedule_bots`,
    bots.py)."""

    def __init__(
        self,
        tables: Tables,
        lease: Lease,
        talk: Talk,
        schedule_bots: Callable[[Room], None],
    ) -> None:
        self.storage = tables.storage
        self.db = tables.db
        self.rooms = tables.rooms
        self.peers = tables.peers
        self.lease = lease
        self.talk = talk
        self.schedule_bots = schedule_bots

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
        if not due or not self.lease.keeps(room):
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
        await self.talk.notice(room.id, said)
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
            await self.talk.notice(
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
