"""A table's life (`Lifecycle`): opening it, beginning it once its people are there (or
at its host's word), ending it without a result (closed by its host, or archived when left
idle), and opening its rematch once it is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from dataclasses import replace
from typing import Any

from tavernkeep.agents import check_seat
from tavernkeep.engine.content import Pack
from tavernkeep.engine.errors import ConfigError, IllegalAction, SeatError, TavernkeepError
from tavernkeep.engine.match import Match
from tavernkeep.engine.records import open_record
from tavernkeep.engine.rng import random_seed
from tavernkeep.games import get_game
from tavernkeep.server.bots import Bots
from tavernkeep.server.clocks import Clocks
from tavernkeep.server.invites import check_credential, check_host, new_secret, secret_hash
from tavernkeep.server.limits import Limits
from tavernkeep.server.room import ENDED, Room, agents_for, seat_name
from tavernkeep.server.settings import STAND_IN_MS, TableSettings, stand_in_within
from tavernkeep.server.skill import check_rated_table
from tavernkeep.server.storage import SeatKey
from tavernkeep.server.tables import Tables
from tavernkeep.server.talk import Talk

MAX_SEED = 2**63 - 1


class Busy(TavernkeepError):
    """The server is at a limit it keeps (tables open, tables a minute): try later."""


class Lifecycle:
    """Opening, beginning, ending and rematching the tables of one server, within its
    limits (limits.py)."""

    def __init__(
        self, tables: Tables, talk: Talk, clocks: Clocks, bots: Bots, limits: Limits
    ) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.db = tables.db
        self.rooms = tables.rooms
        self.talk = talk
        self.clocks = clocks
        self.bots = bots
        self.limits = limits
        self._rematching = asyncio.Lock()
        """Rematches are opened one at a time: two people asking at once get one table."""

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
        """Open a table for the address `opened_by` (and `account`, if its person is
        signed in: a rated table must be). Returns it; a seat, the secret its creator is
        handed (an invite for a person elsewhere, a credential for a seat on the creator's
        device, None for a bot); and the creator's host key, which hands a seat out
        again. `pack` names a built-in pack; a loaded Pack is a designer's, which only
        the workbench hands over (after its own door: workbench_tables.py), and which the
        table keeps in its record."""
        game = get_game(game_name)
        settings = settings or TableSettings()
        if settings.stand_in is None:
            # The default within this server's caps: a server that lets a search think
            # less than the default's time still opens tables with the default settings.
            settings = settings.model_copy(
                update={"stand_in": stand_in_within(self.limits.search.millis)}
            )
        stand_in = settings.stand_in or ""
        if isinstance(pack, str) and ("/" in pack or "\\" in pack or pack.endswith(".toml")):
            raise ConfigError("only the built-in packs can be used on the server")
        if "players" in options:
            raise ConfigError("the player count comes from the seats")
        for spec in [*seats, stand_in]:
            if spec.startswith("bot:policy:") and spec not in self.limits.policies:
                offered = ", ".join(self.limits.policies) or "none"
                raise SeatError(f"this server seats no policy '{spec}' (it offers: {offered})")
            if spec.startswith("bot:guided"):
                # Its guide is a file the spec names, and it thinks outside the search
                # pool's limits: a stranger's spec must read no file and spend no more
                # than the pool allows. Guided searches play at the terminal and in the lab.
                raise SeatError(f"this server seats no guided search ('{spec}')")
        config = game.make_config({**options, "players": len(seats)})
        loaded = pack if isinstance(pack, Pack) else game.load_pack(pack)
        if loaded.game != game.name:
            raise ConfigError(f"the pack is {loaded.game}'s, not {game.name}'s")
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
        if settings.rated:
            check_rated_table(seats, here, seed, settings.advice, account)
            # Said to every page, so that none offers the tutor.
            settings = settings.model_copy(update={"advice": False})
        if seed is None:
            seed, deal = random_seed(), "secret"
        elif not 0 <= seed <= MAX_SEED:
            raise ConfigError(f"seed must be between 0 and {MAX_SEED}")
        else:
            deal = "chosen"
        await self.check_room_for_one_more()
        match = Match(game, agents_for(game, seats), seed, config, loaded, seats=seats)
        if loaded.data is None:
            # The pack as it is now, for the lobby's check of which tables still replay.
            self.tables.digests[(game.name, match.pack.name)] = match.pack.digest
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
        room = self.tables.new_room(table_id, match, list(match.opening), keys, created_at, deal)
        room.settings = settings
        room.waiting = waiting
        room.opened_by = opened_by
        self.rooms[table_id] = room
        self.bots.schedule(room)
        self.tables.forget_if_idle(room)
        return room

    async def start(self, table_id: str, host: object, everyone_here: bool = False) -> bool:
        """Begin a table that waits for players: at its host's word (an open seat nobody
        took is played by the table's stand-in bot), or once every open seat is taken.
        False for no such table."""
        stored = await self.tables.stored(table_id)
        if stored is None:
            return False
        if not everyone_here:
            check_host(stored, host)
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
        line = await self.db(self.storage.start, table_id, seats, self.talk.notice_line(said))
        if line is None:
            raise IllegalAction("the table is not waiting for players")
        room = self.rooms.get(table_id)
        if room is not None:
            async with room.lock:
                room.match, room.log = self.tables.rebuilt(room, seats=seats)
                room.seats = seats
                room.waiting = False
                room.asked_wall = time.time()
                # A person not at the table as it begins (the host started a rematch
                # without them) has the table's grace from now, as one who left.
                now = time.monotonic()
                for seat, key in enumerate(room.keys):
                    if seats[seat] == "human" and key.claimed and not room.present(seat):
                        room.left_at.setdefault(seat, now)
                self.talk.noted(room, line)
                room.touched += 1
                room.resync()
            self.bots.schedule(room)
            self.clocks.watch(room)
        return True

    @staticmethod
    def everyone_here(room: Room) -> bool:
        """Whether a waiting table has all its people: no open seat left to take, and a
        page of every person seated (a rematch waits for them so)."""
        if any(key.open_seat and not key.claimed for key in room.keys):
            return False
        return all(room.present(s) for s, spec in enumerate(room.seats) if spec == "human")

    async def close_table(self, table_id: str, host: object) -> bool:
        """End an unfinished table at its host's word; False for no such table."""
        stored = await self.tables.stored(table_id)
        if stored is None:
            return False
        check_host(stored, host)
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
        await self.talk.notice(table_id, ENDED[status][0].upper() + ENDED[status][1:])
        if room is not None:
            room.broadcast(None)
            self.tables.forget_if_idle(room)

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

    async def rematch(self, table_id: str, seat: object, token: object, host: object) -> str | None:
        """The rematch of a finished table: the same game, seats, options, pack and
        settings, a new deal, and the same people in the same seats (their credentials and
        names carry over, so each page moves to it as it is). Asked for by a person seated
        there or the host; asked again, the same table. None for no such table."""
        async with self._rematching:
            stored = await self.tables.stored(table_id)
            if stored is None:
                return None
            if host is not None:
                check_host(stored, host)
            else:
                await check_credential(stored, seat, token)
            if stored.status != "finished":
                raise IllegalAction("a rematch follows a finished game")
            if stored.rematch_id is not None:
                return stored.rematch_id
            await self.check_room_for_one_more()
            record = stored.record
            game = get_game(record.game)
            # The same rules: its config and its pack (a designer's, as the table holds it).
            config, pack = open_record(game, record)
            match = Match(
                game, agents_for(game, record.seats), random_seed(), config, pack, record.seats
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
