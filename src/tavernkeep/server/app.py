"""The web app: lobby API, table pages and one WebSocket per browser.

Run it with `tavernkeep serve`. Everything a browser learns about a game comes from
`Game.view` for its seat and from events filtered for its seat (see PROTOCOL.md). An
invite travels in the URL fragment and is traded, once, for a credential of the browser's
own (`POST /api/tables/{id}/claim`); the credential travels in request bodies and the
first WebSocket message, never in a logged URL.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import resource
import socket
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from tavernkeep.engine.errors import IllegalAction, RecordError, TavernkeepError
from tavernkeep.games import all_games, game_names
from tavernkeep.server import replays
from tavernkeep.server.accounts import NotSignedIn, account_router, signed_in
from tavernkeep.server.guards import (
    RateLimiter,
    RequestGuard,
    guarded_http,
    parse_message,
    receive_text,
    send_loop,
)
from tavernkeep.server.lifecycle import Busy
from tavernkeep.server.limits import Limits
from tavernkeep.server.lobby import GAME_FILES, game_file, game_list, opened
from tavernkeep.server.lobby_socket import serve_lobby
from tavernkeep.server.names import clean_name
from tavernkeep.server.origins import SameOrigin, public_origin
from tavernkeep.server.ratings import ratings_router
from tavernkeep.server.room import MAX_OUTBOX, Connection, Room
from tavernkeep.server.rooms import Tavern
from tavernkeep.server.seating import SeatTaken
from tavernkeep.server.settings import TableSettings
from tavernkeep.server.storage import Storage
from tavernkeep.server.timing import PassPrior
from tavernkeep.server.workbench import workbench_router

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096
"""Bytes in one client message; an action is a few dozen."""
log = logging.getLogger("tavernkeep.server")
RATE_LIMIT = 20
"""Messages a connection may send in any one second before it is closed."""
JOIN_TIMEOUT = 10.0
"""Seconds a new socket has to say who it is."""


class CreateTable(BaseModel):
    # Strict: a seed of `true` or "12" is a mistake to refuse, not a number to guess.
    model_config = ConfigDict(extra="forbid", strict=True)

    game: str = Field(max_length=64)
    seats: list[str] = Field(min_length=1, max_length=8)
    options: dict[str, bool | int | str | list[str]] = Field(default_factory=dict, max_length=32)
    seed: int | None = None
    pack: str | None = Field(default=None, max_length=64)
    device: list[int] = Field(default_factory=list, max_length=8)
    """Seats played on the creator's device (hot seat): their credentials come back at
    once, and every seat is shown which they are."""
    settings: TableSettings = Field(default_factory=TableSettings)
    open: list[int] = Field(default_factory=list, max_length=8)
    """Person seats left open: the lobby lists the table, and whoever joins takes one."""


class ReplayFrame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    record: str | dict[str, Any]
    """The record's text as written (the page's way: its numbers pass as they are), or
    its JSON object."""
    seat: int | None = None
    step: int = 0


class Reissue(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    seat: int
    host: str = Field(max_length=100)


class HostOnly(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    host: str = Field(max_length=100)


class Rematch(BaseModel):
    """Asked for by a person seated at the finished table (`seat` and its `token`) or by
    its host (`host`)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    seat: int | None = None
    token: str | None = Field(default=None, max_length=100)
    host: str | None = Field(default=None, max_length=100)


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    seat: int
    invite: str = Field(max_length=100)


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(
    database_url: str = "sqlite:///tavernkeep.db",
    bot_delay: float = 0.8,
    limits: Limits | None = None,
    pass_delay: float = 2.0,
    warm_search: bool = False,
    public_url: str | None = None,
    designer_key: str | None = None,
) -> FastAPI:
    """The app over one database. `bot_delay` is the pause before a bot's move and
    `pass_delay` the median pause before a pass for a person with nothing to play
    (bots.py, timing.py); `limits` bounds what one table or stranger may spend;
    `warm_search` starts the search workers with the app rather than at the first search
    (search.py `SearchPool.warm`); `public_url` is the origin people open, for passkeys
    and the CSRF check (accounts.py; None: each request's own); `designer_key` opens the
    workbench to whoever gives it (workbench.py; None: to this machine alone)."""
    limits = limits or Limits()
    public = public_origin(public_url)
    tavern = Tavern(Storage(database_url), bot_delay, limits, PassPrior.around(pass_delay))
    creations = RateLimiter(limits.tables_per_minute, limits.table_burst)
    frames = RateLimiter(replays.FRAMES_PER_MINUTE, replays.FRAMES_BURST)
    sockets: dict[str, int] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Nothing is replayed here: a table comes back when someone asks for it.
        await tavern.begin()
        archiver = asyncio.get_running_loop().create_task(archive(tavern, limits.archive_after))
        if warm_search:
            tavern.searches.warm()
        yield
        archiver.cancel()
        with suppress(asyncio.CancelledError):
            await archiver
        await tavern.close()

    app = FastAPI(title="tavernkeep", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.tavern = tavern
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(TavernkeepError)
    async def tavernkeep_error(_: Request, exc: TavernkeepError) -> JSONResponse:
        if isinstance(exc, SeatTaken):
            return error(str(exc), 409)
        if isinstance(exc, Busy):
            return error(str(exc), 503)
        if isinstance(exc, NotSignedIn):
            return error(str(exc), 401)
        return error(str(exc))

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "request"
        return error(f"{where}: {first.get('msg', 'invalid')}")

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/games/{name}/{path:path}", include_in_schema=False, response_model=None)
    async def game_web_file(name: str, path: str) -> FileResponse | JSONResponse:
        # A game's renderer and stylesheet live beside its rules, not in static/.
        found = game_file(name, path)
        if found is None:
            return error("no such file", 404)
        return FileResponse(found, media_type=GAME_FILES[found.suffix])

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return game_list(limits.policies)

    @app.get("/api/games/{name}/rules", response_model=None)
    async def game_rules(name: str) -> dict[str, Any] | JSONResponse:
        # The How to play as text runs and lists: a page draws it as text, never markup.
        found = next((g for g in all_games() if g.name == name), None)
        how = found.how_to_play("browser") if found is not None else None
        if how is None:
            return error("no rules for that game", 404)
        return {"game": name, **how.to_json()}

    @app.post("/api/tables", status_code=201, response_model=None)
    async def create_table(request: Request, body: CreateTable) -> dict[str, Any] | JSONResponse:
        client = request.client.host if request.client else ""
        if not creations.allow(client):
            wait = max(1, round(creations.wait(client)))
            return error(f"too many new tables from one address: try again in {wait} s", 429)
        if body.game not in game_names():
            return error(f"unknown game '{body.game}'")
        account = await signed_in(request)
        room, handed, host = await tavern.create_table(
            body.game,
            body.seats,
            body.options,
            body.seed,
            body.pack,
            body.device,
            body.settings,
            body.open,
            opened_by=client,
            account=account,
        )
        if account is not None and body.device:
            await tavern.own_seats(room.id, body.device, account)
        return opened(room, handed, host)

    @app.post("/api/tables/{table_id}/claim", response_model=None)
    async def claim_seat(
        request: Request, table_id: str, body: Claim
    ) -> dict[str, Any] | JSONResponse:
        token = await tavern.claim(table_id, body.seat, body.invite, await signed_in(request))
        if token is None:
            return error("no such table", 404)
        return {"seat": body.seat, "token": token}

    @app.post("/api/tables/{table_id}/reissue", response_model=None)
    async def reissue_seat(table_id: str, body: Reissue) -> dict[str, Any] | JSONResponse:
        invite = await tavern.reissue(table_id, body.host, body.seat)
        if invite is None:
            return error("no such table", 404)
        return {"seat": body.seat, "invite": f"/table/{table_id}#seat={body.seat}&invite={invite}"}

    @app.post("/api/tables/{table_id}/join", response_model=None)
    async def join_open(request: Request, table_id: str) -> dict[str, Any] | JSONResponse:
        client = request.client.host if request.client else ""
        # Taking seats is bounded like opening tables: a stranger cannot fill every
        # table's open seats at once.
        if not creations.allow(client):
            wait = max(1, round(creations.wait(client)))
            return error(f"too many seats taken from one address: try again in {wait} s", 429)
        taken = await tavern.join_open(table_id, await signed_in(request))
        if taken is None:
            return error("no such table", 404)
        seat, token = taken
        return {"seat": seat, "token": token, "table": f"/table/{table_id}#seat={seat}"}

    @app.post("/api/tables/{table_id}/start", response_model=None)
    async def start_table(table_id: str, body: HostOnly) -> dict[str, Any] | JSONResponse:
        if not await tavern.start(table_id, body.host):
            return error("no such table", 404)
        return {"id": table_id, "status": "playing"}

    @app.post("/api/tables/{table_id}/close", response_model=None)
    async def close_table(table_id: str, body: HostOnly) -> dict[str, Any] | JSONResponse:
        if not await tavern.close_table(table_id, body.host):
            return error("no such table", 404)
        return {"id": table_id, "status": "closed"}

    @app.post("/api/tables/{table_id}/rematch", response_model=None)
    async def rematch(
        request: Request, table_id: str, body: Rematch
    ) -> dict[str, Any] | JSONResponse:
        client = request.client.host if request.client else ""
        if not creations.allow(client):
            wait = max(1, round(creations.wait(client)))
            return error(f"too many new tables from one address: try again in {wait} s", 429)
        rematch_id = await tavern.rematch(table_id, body.seat, body.token, body.host)
        if rematch_id is None:
            return error("no such table", 404)
        return {"id": rematch_id, "table": f"/table/{rematch_id}"}

    @app.get("/api/tables")
    async def open_tables() -> list[dict[str, Any]]:
        return await tavern.open_tables(100)

    @app.get("/api/tables/{table_id}", response_model=None)
    async def table_summary(table_id: str) -> dict[str, Any] | JSONResponse:
        summary = await tavern.summary(table_id)
        if summary is None:
            return error("no such table", 404)
        return summary

    @app.post("/api/replay", response_model=None)
    async def replay_frame(request: Request, body: ReplayFrame) -> dict[str, Any] | JSONResponse:
        client = request.client.host if request.client else ""
        if not frames.allow(client):
            return error("too many replay steps from one address: slow down", 429)
        try:
            # A replay of a few hundred actions takes milliseconds: off the event loop
            # all the same, so a long record holds up no table.
            return await asyncio.to_thread(replays.frame, body.record, body.seat, body.step)
        except RecordError as exc:
            return error(str(exc), 400)

    @app.get("/api/tables/{table_id}/record", response_model=None)
    async def table_record(table_id: str) -> Response:
        try:
            record = await tavern.record(table_id)
        except IllegalAction as exc:
            # The record holds the seed, and the seed reveals every hidden card.
            return error(str(exc), 409)
        if record is None:
            return error("no such table", 404)
        filename = f"{record.game}-{table_id}.json"
        return Response(
            record.to_json(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        client = websocket.client.host if websocket.client else ""
        if sockets.get(client, 0) >= limits.sockets_per_client:
            # Refused before a room is loaded or a byte is read.
            await websocket.close(code=1013)
            return
        sockets[client] = sockets.get(client, 0) + 1
        try:
            await websocket.accept()
            try:
                room = await tavern.get_room(table_id)
                if room is None:
                    raise IllegalAction("no such table")
            except TavernkeepError as exc:
                await websocket.send_text(json.dumps({"type": "error", "message": str(exc)}))
                await websocket.close(code=1008)
                return
            # Counted from here, with no wait between: news from another process does
            # not let go of a table a page is joining (keeping.py `Keeping.heard`).
            room.sockets += 1
            try:
                await serve_connection(websocket, room, tavern)
            finally:
                room.sockets -= 1
        finally:
            left = sockets.get(client, 1) - 1
            if left > 0:
                sockets[client] = left
            else:
                sockets.pop(client, None)

    @app.websocket("/ws/lobby")
    async def your_tables(websocket: WebSocket) -> None:
        # The tables of the seats this browser holds, and of the account it is signed in
        # as (its cookie trusted from this server's own pages alone), and each change
        # (lobby_socket.py); counted with the address's table sockets.
        await serve_lobby(websocket, tavern.your_tables, sockets, limits.sockets_per_client, public)

    app.include_router(account_router(tavern, limits, public))
    app.include_router(ratings_router(tavern))
    app.include_router(workbench_router(tavern, designer_key, public, limits.policies))
    app.add_middleware(SameOrigin, public=public)
    app.add_middleware(RequestGuard)
    return app


def run(
    app: FastAPI, host: str, port: int, header_timeout: float, reuse_port: bool = False
) -> None:
    """Serve `app` until stopped, with the HTTP protocol that bounds half-sent requests;
    with `reuse_port`, on a socket other processes of `serve --workers` listen on too."""
    import uvicorn

    # Every connection is a file: take all the operating system allows this process
    # (the soft limit is often 1,024, which a thousand idle sockets would use up).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_http(header_timeout),
        ws_max_size=65536,
        # No permessage-deflate: a compressed frame's size tells an eavesdropper who can
        # put words into the same stream (a chat line, a name) what else is in it, a
        # seat's hand (CRIME); and compressing every frame cost a tenth of the event
        # loop at 500 tables (benchmarks/README.md, "500 tables").
        ws_per_message_deflate=False,
        log_level="info",
    )
    server = uvicorn.Server(config)
    # What is built by now (the modules, the app, the games) lives as long as the server:
    # frozen out of the collector's sight, so that a full collection walks only what the
    # tables make (it walked it all, 55-80 ms a time: the lobby's slowest answers).
    gc.freeze()
    if not reuse_port:
        server.run()
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    server.run(sockets=[sock])


async def archive(tavern: Tavern, idle_seconds: float) -> None:
    """Archive idle tables (`Tavern.archive_idle`) for as long as the server runs, looking
    a few times within each idle span, at most once a minute."""
    while True:
        await asyncio.sleep(min(60.0, idle_seconds / 4))
        try:
            await tavern.archive_idle(idle_seconds)
        except Exception:
            # A storage hiccup costs one round, not the loop: the next round tries again.
            log.exception("archiving idle tables failed")



def _error(conn: Connection, message: str) -> None:
    conn.outbox.put_nowait(json.dumps({"type": "error", "message": message}))


async def serve_connection(websocket: WebSocket, room: Room, tavern: Tavern) -> None:
    sent: deque[float] = deque()
    conn: Connection | None = None
    sender: asyncio.Task[None] | None = None
    try:
        # The first message says who this is: a seat with its token, or a spectator.
        try:
            try:
                hello = parse_message(
                    await asyncio.wait_for(receive_text(websocket, MAX_MESSAGE), JOIN_TIMEOUT),
                    MAX_MESSAGE,
                )
            except TimeoutError:
                raise IllegalAction("no join message: say who you are first") from None
            if hello["type"] != "join":
                raise IllegalAction("the first message must be a join")
            seat = None
            if "token" in hello or "seat" in hello:
                seat = await tavern.authenticate(room, hello.get("seat"), hello.get("token"))
            # A name may come with the join (the page remembers it); a bad one refuses
            # the join, as any bad first message does.
            name = clean_name(hello["name"]) if "name" in hello else None
        except IllegalAction as exc:
            await websocket.send_text(json.dumps({"type": "error", "message": str(exc)}))
            await websocket.close(code=1008)
            return
        conn = Connection(seat, websocket.send_text, name=name if seat is None else None)
        sender = asyncio.get_running_loop().create_task(send_loop(websocket, conn.outbox))
        if seat is not None and name is not None:
            # Told below, with the news that the seat's person is here.
            await tavern.rename(room, seat, name, tell=False)
        room.connections.add(conn)
        conn.outbox.put_nowait(json.dumps(room.welcome_message(seat)))
        conn.outbox.put_nowait(json.dumps(room.state_message(seat)))
        if seat is not None:
            # A spectator coming or going changes nothing anyone is shown.
            await tavern.arrived(room, seat)
            room.broadcast_seats(skip=conn)
        while True:
            text = await receive_text(websocket, MAX_MESSAGE)
            now = time.monotonic()
            sent.append(now)
            while sent and now - sent[0] > 1.0:
                sent.popleft()
            if len(sent) > RATE_LIMIT:
                _error(conn, f"too many messages: at most {RATE_LIMIT} a second")
                conn.outbox.put_nowait(None)
                return
            if conn.outbox.qsize() > MAX_OUTBOX:
                room.drop(conn)
                return
            try:
                message = parse_message(text, MAX_MESSAGE)
                kind = message["type"]
                if kind == "ping":
                    conn.outbox.put_nowait(json.dumps({"type": "pong"}))
                elif kind == "action":
                    if conn.seat is None:
                        raise IllegalAction("a spectator cannot act")
                    action = message.get("action")
                    if not isinstance(action, str) or len(action) > 200:
                        raise IllegalAction("an action must be its text, e.g. 'quest:1'")
                    await tavern.act(room, conn.seat, action, message.get("version"))
                elif kind == "take_back":
                    if conn.seat is None:
                        raise IllegalAction("a spectator has no decision to take back")
                    await tavern.take_back(room, conn.seat)
                elif kind == "advice":
                    tavern.request_advice(room, conn)
                elif kind == "pass_on":
                    if conn.seat is None:
                        raise IllegalAction("a spectator has no decisions to pass on")
                    await tavern.pass_on(room, conn.seat, message.get("kind"))
                elif kind == "back":
                    if conn.seat is None:
                        raise IllegalAction("a spectator has no seat to come back to")
                    await tavern.come_back(room, conn.seat)
                elif kind == "chat":
                    await tavern.say(room, conn, message.get("text"))
                elif kind == "name":
                    if conn.seat is None:
                        conn.name = clean_name(message.get("name"))
                    else:
                        await tavern.rename(room, conn.seat, message.get("name"))
                else:
                    raise IllegalAction(f"unknown message type '{kind[:40]}'")
            except IllegalAction as exc:
                _error(conn, str(exc))
    except WebSocketDisconnect:
        pass
    finally:
        if conn is not None:
            room.connections.discard(conn)
            if conn.seat is not None and all(c.seat != conn.seat for c in room.connections):
                room.broadcast_seats()
                tavern.departed(room, conn.seat)
            tavern.forget_if_idle(room)
        if sender is not None:
            if conn is not None and not sender.done():
                conn.outbox.put_nowait(None)
            with suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(sender, timeout=1.0)
