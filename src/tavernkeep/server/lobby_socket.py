"""The lobby's one WebSocket (`serve_lobby`, `/ws/lobby`): a page says which seats its
browser holds, and is told their tables, then each change to them (your_tables.py keeps
what is followed and reads the tables). A page signed in with a passkey is told its
account's tables too: the session cookie its handshake carries is read only if the
handshake came from a page of this server's own origin (origins.py `handshake_cookie`),
so a page of another site that opens the socket in a signed-in browser is served as one
signed out (PROTOCOL.md, "WebSocket /ws/lobby").

What a stranger can make it spend is bounded before it is spent (PROTOCOL.md, "What a
stranger can make the server spend"): one address's lobby sockets count with its table
sockets (`--sockets-per-client`); a message is at most `MAX_MESSAGE` bytes and
`MAX_DEPTH` levels deep, at most `RATE_LIMIT` a second; a follow names at most
`MAX_FOLLOWED` seats and comes at most `FOLLOWS_PER_MINUTE` a minute.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections import deque
from contextlib import suppress

from fastapi import WebSocket, WebSocketDisconnect

from tavernkeep.engine.errors import IllegalAction
from tavernkeep.server.guards import RateLimiter, parse_message, receive_text, send_loop
from tavernkeep.server.origins import handshake_cookie
from tavernkeep.server.table_lines import SeatClaim
from tavernkeep.server.your_tables import Follower, YourTables

log = logging.getLogger("tavernkeep.server")

MAX_FOLLOWED = 200
"""Seats one lobby socket may follow: more tables than anyone plays at once, and a
bound on the rows and replays one message can ask for."""
MAX_MESSAGE = 48 * 1024
"""Bytes in one message: a follow of `MAX_FOLLOWED` seats at the longest a table id
and a credential may be is about 33 KiB (a browser's own are under 16 KiB)."""
MAX_ID = 32
"""Characters in a table id (the column's width; the server's own are 8)."""
MAX_TOKEN = 100
"""Characters in a credential, as a table's join takes it (the server's are 22)."""
RATE_LIMIT = 20
"""Messages a socket may send in any one second before it is closed, as a table's."""
FOLLOWS_PER_MINUTE = 30
FOLLOW_BURST = 5
"""A follow reads every table it names: a page sends one as it opens and one when this
browser takes a new seat, so a few at once and one every two seconds is plenty."""
FIRST_MESSAGE = 10.0
"""Seconds a new socket has to say which seats it follows."""


async def serve_lobby(
    websocket: WebSocket,
    your_tables: YourTables,
    sockets: dict[str, int],
    per_client: int,
    public: str | None = None,
) -> None:
    """Serve one lobby socket, counted in `sockets` with its address's table sockets:
    refused at the handshake (1013) past `per_client`. `public` is the server's
    configured origin (origins.py), None to take the handshake's own."""
    client = websocket.client.host if websocket.client else ""
    if sockets.get(client, 0) >= per_client:
        await websocket.close(code=1013)
        return
    sockets[client] = sockets.get(client, 0) + 1
    try:
        cookie = handshake_cookie(websocket.scope, public)
        # Kept as storage keeps a session: its SHA-256 (accounts.py).
        session = hashlib.sha256(cookie.encode()).hexdigest() if cookie else None
        await websocket.accept()
        await _serve(websocket, your_tables, Follower(session))
    finally:
        left = sockets.get(client, 1) - 1
        if left > 0:
            sockets[client] = left
        else:
            sockets.pop(client, None)


def claims_of(raw: object) -> list[SeatClaim]:
    """The seats a follow names, each `{table, seat, token}`; IllegalAction, in one line,
    for a list that is not one or is too long."""
    shape = "seats must be a list of {table, seat, token}"
    if not isinstance(raw, list):
        raise IllegalAction(shape)
    if len(raw) > MAX_FOLLOWED:
        raise IllegalAction(f"a lobby follows at most {MAX_FOLLOWED} seats, not {len(raw)}")
    out: dict[SeatClaim, None] = {}
    for item in raw:
        if not isinstance(item, dict):
            raise IllegalAction(shape)
        table, seat, token = item.get("table"), item.get("seat"), item.get("token")
        if (
            not isinstance(table, str)
            or not 0 < len(table) <= MAX_ID
            or not isinstance(seat, int)
            or isinstance(seat, bool)
            or not isinstance(token, str)
            or not 0 < len(token) <= MAX_TOKEN
        ):
            raise IllegalAction(
                f"{shape}: a table id of 1 to {MAX_ID} characters, a seat number and "
                f"a credential of 1 to {MAX_TOKEN}"
            )
        out[SeatClaim(table, seat, token)] = None
    return list(out)



async def _serve(websocket: WebSocket, your_tables: YourTables, follower: Follower) -> None:
    sender = asyncio.get_running_loop().create_task(send_loop(websocket, follower.outbox))
    sent: deque[float] = deque()
    # One bucket, this socket's: its follows, whatever the address's other sockets do.
    follows = RateLimiter(FOLLOWS_PER_MINUTE, FOLLOW_BURST, clients=1)
    first = True
    try:
        while not follower.closed:
            try:
                wait = FIRST_MESSAGE if first else None
                text = await asyncio.wait_for(receive_text(websocket, MAX_MESSAGE), wait)
            except TimeoutError:
                refuse(follower, "no follow: say first which seats this page holds")
                return
            now = time.monotonic()
            sent.append(now)
            while sent and now - sent[0] > 1.0:
                sent.popleft()
            if len(sent) > RATE_LIMIT:
                refuse(follower, f"too many messages: at most {RATE_LIMIT} a second")
                return
            try:
                message = parse_message(text, MAX_MESSAGE)
                kind = message["type"]
                if kind == "follow":
                    if not follows.allow(""):
                        raise IllegalAction(
                            f"too many follows: at most {FOLLOWS_PER_MINUTE} a minute"
                        )
                    claims = claims_of(message.get("seats"))
                    try:
                        await your_tables.follow(follower, claims)
                    except IllegalAction:
                        raise
                    except Exception:
                        # The database went away, say: said in one line; the page
                        # follows again when its socket is back.
                        log.exception("following a lobby's tables failed")
                        refuse(follower, "the tables could not be read just now: try again")
                        return
                elif first:
                    raise IllegalAction("the first message must be a follow")
                elif kind == "ping":
                    follower.send({"type": "pong"})
                else:
                    raise IllegalAction(f"unknown message type '{kind[:40]}'")
            except IllegalAction as exc:
                if first:
                    # As a table's refused join: said, and the socket closed (1008).
                    refuse(follower, str(exc))
                    return
                follower.send({"type": "error", "message": str(exc)})
            first = False
    except WebSocketDisconnect:
        pass
    finally:
        your_tables.unfollow(follower)
        follower.send_close()
        with suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(sender, timeout=1.0)


def refuse(follower: Follower, why: str) -> None:
    """Say why, then close the socket (1008)."""
    follower.send({"type": "error", "message": why})
    follower.send_close()
