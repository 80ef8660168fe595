"""What a stranger can make the server spend: bounded before it is spent.

- `RateLimiter`: so many new tables a minute from one address (a bucket each, and a
  bounded number of buckets, so the limiter itself cannot be grown without bound).
- `RequestGuard`: an HTTP body is refused from its Content-Length before a byte of it is
  read, and counted as it arrives when it has none; a body that dribbles in is cut off;
  JSON nested deeper than any request needs is a one-line error, not a RecursionError.
- `guarded_http`: the HTTP protocol with a deadline for a request's headers (uvicorn has
  none for a new connection: a thousand half-sent requests held a thousand sockets until
  the server ran out of them) and a cap on one address's HTTP connections.
- `json_depth`: the nesting of a JSON text, found without parsing it (the WebSocket's
  messages and the HTTP bodies both go through it).
- `receive_text` and `parse_message`: a WebSocket's message read within its socket's size
  limit and parsed, or a one-line error (the table's socket and the lobby's alike).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections import OrderedDict
from typing import Any

from starlette.websockets import WebSocketDisconnect
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from tavernkeep.engine.errors import IllegalAction

MAX_DEPTH = 16
"""Nesting of any JSON the server reads: its deepest message has three levels."""
MAX_BODY = 64 * 1024
"""Bytes in an HTTP request body: a new table's is a few hundred."""
BODY_SECONDS = 10.0
"""Seconds a request body may take to arrive, chunk after chunk."""
HEADER_SECONDS = 10.0
"""Seconds a connection has to send a request's headers, from its first byte or from
the end of its last response."""
HTTP_PER_CLIENT = 32
"""HTTP connections one address may hold open at once (a browser opens six); its
WebSockets are counted apart, by the app (`Limits.sockets_per_client`)."""

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")


async def send_loop(websocket: Any, outbox: asyncio.Queue[str | None]) -> None:
    """Send a socket's outbox in order until a None, which closes it (1008: the table's
    socket and the lobby's alike); a socket gone mid-send just ends the loop."""
    with contextlib.suppress(Exception):
        while True:
            message = await outbox.get()
            if message is None:
                await websocket.close(code=1008)
                return
            await websocket.send_text(message)


async def receive_text(websocket: Any, limit: int) -> str | None:
    """A WebSocket's next text message, or None for one over `limit` bytes or not text
    (the table's socket and the lobby's each say their own limit)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None or len(text.encode()) > limit:
        return None
    return str(text)


def parse_message(text: str | None, limit: int) -> dict[str, Any]:
    """A message as `receive_text` gave it, parsed: IllegalAction, one line, unless it is
    a JSON object with a 'type' within `limit` bytes and MAX_DEPTH levels."""
    if text is None:
        raise IllegalAction(f"messages must be JSON text of at most {limit} bytes")
    if json_depth(text) > MAX_DEPTH:
        raise IllegalAction(f"messages must be JSON nested at most {MAX_DEPTH} levels deep")
    try:
        message = json.loads(text)
    except json.JSONDecodeError:
        raise IllegalAction("messages must be JSON objects") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise IllegalAction("messages must be JSON objects with a 'type'")
    return message


def json_depth(text: str) -> int:
    """How deeply a JSON text nests (0 for a number or a string), counting brackets
    outside strings; malformed text gets some number, and the parser refuses it later."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


class RateLimiter:
    """A token bucket an address: `burst` at once, then `per_minute`."""

    def __init__(self, per_minute: float, burst: int, clients: int = 10_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.clients = clients
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, client: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        tokens, then = self.buckets.pop(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        allowed = tokens >= 1.0
        self.buckets[client] = (tokens - 1.0 if allowed else tokens, now)
        while len(self.buckets) > self.clients:
            # The address heard from longest ago is forgotten: it would have a full
            # bucket by now, or nearly.
            self.buckets.popitem(last=False)
        return allowed

    def wait(self, client: str) -> float:
        """Seconds until `client` may try again."""
        tokens, _ = self.buckets.get(client, (self.burst, 0.0))
        return max(0.0, (1.0 - tokens) / self.rate) if self.rate > 0 else float("inf")


def _error_response(status: int, message: str) -> tuple[dict[str, Any], dict[str, Any]]:
    body = json.dumps({"error": message}).encode()
    start = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ],
    }
    return start, {"type": "http.response.body", "body": body}


class RequestGuard:
    """ASGI middleware: bounded, timely, shallow request bodies, or a one-line error."""

    def __init__(
        self,
        app: Any,
        max_body: int = MAX_BODY,
        body_seconds: float = BODY_SECONDS,
        max_depth: int = MAX_DEPTH,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.body_seconds = body_seconds
        self.max_depth = max_depth

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def refuse(status: int, message: str) -> None:
            start, body = _error_response(status, message)
            await send(start)
            await send(body)

        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None:
            if not length.isdigit() or len(length) > 18:
                await refuse(400, "request: Content-Length is not a number of bytes")
                return
            if int(length) > self.max_body:
                await refuse(413, f"request: a body may be at most {self.max_body:,} bytes")
                return
        body = bytearray()
        deadline = time.monotonic() + self.body_seconds
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                await refuse(408, f"request: the body took over {self.body_seconds:g} s to arrive")
                return
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.max_body:
                await refuse(413, f"request: a body may be at most {self.max_body:,} bytes")
                return
            if not message.get("more_body", False):
                break
        if body and b"json" in headers.get(b"content-type", b""):
            text = body.decode("utf-8", errors="replace")
            if json_depth(text) > self.max_depth:
                await refuse(400, f"request: JSON nested deeper than {self.max_depth} levels")
                return
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def guarded_http(
    header_seconds: float = HEADER_SECONDS, per_client: int = HTTP_PER_CLIENT
) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol with a deadline for headers and a cap an address.

    A class per server, so its count of connections is that server's own."""
    pending: dict[str, int] = {}

    class GuardedHttp(HttpToolsProtocol):
        _deadline: asyncio.TimerHandle | None = None
        _counted: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client else ""
            if pending.get(host, 0) >= per_client:
                # Refused before anything is read: a stranger holding its share of
                # sockets gets no more of them.
                transport.close()
                return
            pending[host] = pending.get(host, 0) + 1
            self._counted = host
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(header_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _uncount(self) -> None:
            if self._counted is not None:
                left = pending.get(self._counted, 1) - 1
                if left > 0:
                    pending[self._counted] = left
                else:
                    pending.pop(self._counted, None)
                self._counted = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.write(
                    b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\n"
                    b"connection: close\r\n\r\n"
                )
                self.transport.close()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def handle_websocket_upgrade(self) -> None:
            # The socket is the WebSocket's now, bounded by the app's own caps.
            self._disarm()
            self._uncount()
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._uncount()
            super().connection_lost(exc)

    return GuardedHttp
