"""The bots at the tables (`Bots`): a bot's seat and a stand-in's decide when the table
is theirs, after a pause people can follow, and their moves go through play.py as a
person's do; a person who can only pass (or asked to pass on a kind of decision) is passed
for after a pause like their own (timing.py). Searches think in the search pool, which
takes them in a fair order across tables and strangers (search.py); so does the tutor,
which advises a person on their own decision (agents/advice.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from tavernkeep.agents.ismcts import ISMCTSBot
from tavernkeep.engine.actions import PASS
from tavernkeep.engine.errors import IllegalAction
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng, derive_seed
from tavernkeep.server.lease import Lease
from tavernkeep.server.play import Moved, Play
from tavernkeep.server.room import MAX_OUTBOX, Connection, Room
from tavernkeep.server.search import SearchPool
from tavernkeep.server.tables import Tables

log = logging.getLogger("tavernkeep.server")


class Bots:
    """The bots' turns and the tutor's advice at the tables in memory, run where the
    table's lease is (lease.py), over one search pool."""

    def __init__(
        self, tables: Tables, lease: Lease, play: Play, searches: SearchPool, bot_delay: float
    ) -> None:
        self.tables = tables
        self.lease = lease
        self.play = play
        self.searches = searches
        self.bot_delay = bot_delay

    def schedule(self, room: Room) -> None:
        actor = room.actor
        if actor is None or (room.person_decides(actor) and not room.passed_for()):
            return
        if not self.lease.keeps(room):
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
            self.tables.unload(room)
            return
        # The task is done once this returns: an idle table may leave memory then.
        asyncio.get_running_loop().call_soon(self.tables.forget_if_idle, room)

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
                            await self.play.commit_and_apply(room, actor, PASS)
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
                    await self.play.commit_and_apply(room, actor, action, stand_in)

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
