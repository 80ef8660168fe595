"""Live tables: a match in memory, its seats' connections, and its bots.

Every change to a table goes through `Tavern.act`, under the table's lock: check the
action, commit it to storage, apply it, then tell every connection what its seat may
see. Committing before applying means an action nobody has heard of can be lost only
if the commit itself failed, and then the table is unchanged too.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tavernkeep.agents import check_seat, make_bot
from tavernkeep.agents.ismcts import ISMCTSBot
from tavernkeep.engine.actions import PASS, Action
from tavernkeep.engine.errors import ConfigError, IllegalAction, SeatError, TavernkeepError
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import Agent, InfoSet, Match
from tavernkeep.engine.rng import Rng, derive_seed, random_seed
from tavernkeep.games import get_game
from tavernkeep.server.storage import Storage

T = TypeVar("T")
log = logging.getLogger("tavernkeep.server")

MAX_SEED = 2**63 - 1
MAX_OUTBOX = 1000
"""Messages queued for a client that does not read; beyond this it is dropped."""


def new_token() -> str:
    """A seat token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class RemoteSeat:
    """A seat played by a person over a websocket: the server never asks it to choose."""

    name = "human"

    def choose(self, info: InfoSet) -> Action:
        raise IllegalAction("a person decides for this seat")


@dataclass(eq=False)
class Connection:
    """One websocket: the seat it acts for (None: a spectator) and its outbox."""

    seat: int | None
    send: Callable[[str], Any]
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)


class Room:
    def __init__(
        self,
        table_id: str,
        match: Match,
        log: list[Event],
        token_hashes: list[str | None],
        created_at: float,
    ) -> None:
        self.id = table_id
        self.match = match
        self.game: Game[Any, Any] = match.game
        self.seats: list[str] = list(match.record.seats)
        self.log = log
        self.token_hashes = token_hashes
        self.created_at = created_at
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None

    @property
    def version(self) -> int:
        return self.match.actions

    @property
    def actor(self) -> int | None:
        return self.game.actor(self.match.state)

    def lone_pass(self) -> bool:
        """Whether the seat to decide can only pass: a reaction window that asks every
        seat, so nobody learns who holds what, asks this one with nothing to play."""
        game, state = self.match.game, self.match.state
        return game.actor(state) is not None and game.legal_actions(state) == [PASS]

    def check_token(self, seat: object, token: object) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise IllegalAction("no such seat at this table")
        expected = self.token_hashes[seat]
        if expected is None or not isinstance(token, str) or len(token) > 100:
            raise IllegalAction("that seat token is not valid for this table")
        if not hmac.compare_digest(expected, token_hash(token)):
            raise IllegalAction("that seat token is not valid for this table")
        return seat

    def summary(self) -> dict[str, Any]:
        connected = {c.seat for c in self.connections if c.seat is not None}
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "status": "finished" if self.actor is None else "playing",
            "seats": [
                {"seat": s, "agent": spec, "connected": spec != "human" or s in connected}
                for s, spec in enumerate(self.seats)
            ],
            "actions": self.version,
            "created_at": self.created_at,
        }

    def state_message(self, seat: int | None) -> dict[str, Any]:
        game, state = self.game, self.match.state
        actor = game.actor(state)
        legal = []
        # A lone pass is answered by the server (see `lone_pass`): offering it as a button
        # would only race that answer.
        if seat is not None and seat == actor and not self.lone_pass():
            legal = [
                {
                    "action": a.text,
                    "label": game.label(state, a),
                    "odds": game.odds(state, a),
                }
                for a in game.legal_actions(state)
            ]
        result = game.result(state)
        return {
            "type": "state",
            "version": self.version,
            "view": game.view(state, seat),
            "actor": actor,
            "legal": legal,
            "result": result.to_json() if result else None,
            "seats": self.summary()["seats"],
        }

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
            "log": self.visible(self.log, seat),
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

    def drop(self, conn: Connection) -> None:
        """Forget a connection and tell its sender to close the socket."""
        self.connections.discard(conn)
        while not conn.outbox.empty():
            conn.outbox.get_nowait()
        conn.outbox.put_nowait(None)


class Tavern:
    """All live tables of one server, over one storage."""

    def __init__(self, storage: Storage, bot_delay: float = 0.8) -> None:
        self.storage = storage
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        # One writer thread: storage calls run in order and never block the event loop.
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="storage")
        # One lock for loading rooms: loads are rare, and a lock per asked-for id would
        # let anyone grow the server's memory by asking for made-up tables.
        self._loading = asyncio.Lock()

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.writer, fn, *args)

    @staticmethod
    def agents_for(game: Game[Any, Any], seats: list[str]) -> list[Agent]:
        return [RemoteSeat() if spec == "human" else make_bot(spec, game) for spec in seats]

    async def create_table(
        self,
        game_name: str,
        seats: list[str],
        options: dict[str, Any],
        seed: int | None,
        pack: str | None,
    ) -> tuple[Room, list[str | None]]:
        game = get_game(game_name)
        for spec in seats:
            check_seat(spec, game)
        if pack is not None and ("/" in pack or "\\" in pack or pack.endswith(".toml")):
            raise ConfigError("only the built-in packs can be used on the server")
        if "players" in options:
            raise ConfigError("the player count comes from the seats")
        if seed is None:
            seed = random_seed()
        elif not 0 <= seed <= MAX_SEED:
            raise ConfigError(f"seed must be between 0 and {MAX_SEED}")
        match = Match.start(
            game, self.agents_for(game, seats), seed, options, pack, seats=seats
        )
        tokens = [new_token() if spec == "human" else None for spec in seats]
        hashes = [token_hash(t) if t else None for t in tokens]
        table_id = secrets.token_urlsafe(6)
        created_at = time.time()
        await self.db(self.storage.create, table_id, match.record, hashes, created_at)
        room = Room(table_id, match, list(match.opening), hashes, created_at)
        self.rooms[table_id] = room
        self.schedule_bots(room)
        return room, tokens

    async def get_room(self, table_id: str) -> Room | None:
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(table_id)
            if room is None:
                stored = await self.db(self.storage.load, table_id)
                if stored is None:
                    return None
                game = get_game(stored.record.game)
                match, log = Match.from_record(
                    game, stored.record, self.agents_for(game, stored.record.seats)
                )
                room = Room(table_id, match, log, stored.token_hashes, stored.created_at)
                if stored.status == "playing" and room.actor is None:
                    # Killed between the last action's commit and marking the end.
                    await self.finish(room)
                self.rooms[table_id] = room
                self.schedule_bots(room)
        return room

    async def resume_open_tables(self) -> None:
        """After a restart, bring every unfinished table back, so its bots play on.

        A table that no longer replays (its pack was changed under it) is reported and
        left as it is in storage; it must not keep every other table from resuming."""
        for table_id in await self.db(self.storage.open_table_ids):
            try:
                await self.get_room(table_id)
            except TavernkeepError as exc:
                log.warning("table %s cannot be resumed: %s", table_id, exc)

    async def act(
        self, room: Room, seat: int, text: str, version: object | None
    ) -> None:
        """Apply a seat's action: checked, committed, applied, broadcast; else IllegalAction."""
        async with room.lock:
            if version is not None and version != room.version:
                raise IllegalAction("the table has moved on since that choice; choose again")
            action = Action.parse(text)
            actor = room.actor
            if actor != seat:
                raise IllegalAction(
                    "the game is over" if actor is None else "it is not your decision"
                )
            room.game.check_legal(room.match.state, action)
            await self._commit_and_apply(room, seat, action)
        self.schedule_bots(room)

    async def _commit_and_apply(self, room: Room, seat: int, action: Action) -> None:
        await self.db(self.storage.append_action, room.id, room.version, action.text)
        events = room.match.play(seat, action)
        room.log.extend(events)
        if room.actor is None:
            await self.finish(room)
        room.broadcast(events)
        self.forget_if_idle(room)

    async def finish(self, room: Room) -> None:
        result = room.game.result(room.match.state)
        if result is not None:
            await self.db(self.storage.finish, room.id, result.to_json())

    def forget_if_idle(self, room: Room) -> None:
        """A finished table nobody is looking at leaves memory; storage keeps it, and
        `get_room` brings it back if someone asks. A long-running server stays small."""
        if room.actor is None and not room.connections:
            self.rooms.pop(room.id, None)

    def schedule_bots(self, room: Room) -> None:
        actor = room.actor
        if actor is None or (room.seats[actor] == "human" and not room.lone_pass()):
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.get_running_loop().create_task(self._bots_play(room))

    async def _bots_play(self, room: Room) -> None:
        try:
            while True:
                await asyncio.sleep(self.bot_delay)
                async with room.lock:
                    actor = room.actor
                    if actor is None:
                        return
                    if room.seats[actor] == "human":
                        if not room.lone_pass():
                            return
                        # Answered for the person, after the same pause as a bot's, so
                        # the table cannot tell a seat with nothing to play.
                        await self._commit_and_apply(room, actor, PASS)
                        continue
                    # A bot's stream is derived from the table's history, not carried in
                    # memory, so a restarted server's bots choose as they would have.
                    match = room.match
                    match.rngs[actor] = Rng(derive_seed(match.seed, "seat", actor, room.version))
                    agent = match.agents[actor]
                    if isinstance(agent, ISMCTSBot):
                        # A search thinks for its whole budget: on a thread, over a copy
                        # of the state, so other tables play on meanwhile. The lock stays
                        # held, so nothing moves at this table until it has chosen.
                        copy = room.game.clone(match.state)
                        info = InfoSet(room.game, copy, actor, match.rngs[actor])
                        seat, action = actor, await asyncio.to_thread(agent.choose, info)
                    else:
                        seat, action = match.ask()
                    await self._commit_and_apply(room, seat, action)
        except asyncio.CancelledError:
            raise
        except Exception:
            # A bot or storage failure must not pass silently: the table stops here and
            # the next connection or restart resumes it from what was committed.
            log.exception("table %s: bots stopped", room.id)
            self.rooms.pop(room.id, None)

    async def close(self) -> None:
        for room in self.rooms.values():
            if room.bot_task is not None:
                room.bot_task.cancel()
        self.writer.shutdown(wait=True)
        self.storage.close()


def describe_options(game: Game[Any, Any]) -> list[dict[str, Any]]:
    """The game's options for the lobby form, from its config model (players excluded)."""
    out = []
    for name, info in game.config_model.model_fields.items():
        if name == "players":
            continue
        annotation = info.annotation
        entry: dict[str, Any] = {
            "name": name,
            "default": info.get_default(call_default_factory=True),
            "description": info.description or "",
        }
        choices = [c for c in getattr(annotation, "__args__", ()) if c is not type(None)]
        if annotation is bool:
            entry["type"] = "bool"
        elif annotation is int or choices == [int]:
            entry["type"] = "int"
        elif choices and all(isinstance(c, str) for c in choices):
            entry["type"] = "choice"
            entry["choices"] = list(choices)
        else:
            entry["type"] = "str"
        out.append(entry)
    return out


__all__ = ["Connection", "Room", "SeatError", "Tavern", "describe_options"]
