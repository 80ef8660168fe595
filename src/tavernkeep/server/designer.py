"""Who may use the workbench: the operator's designer key, or this machine alone.

- **With a key** (`serve --designer-key KEY`, or `TAVERNKEEP_DESIGNER_KEY`) the workbench
  asks every browser for it once and keeps, in an HttpOnly cookie, a token derived from
  it (never the key itself): a request without that cookie reads no pack and starts no
  comparison, from whatever address. A new key ends every browser's old cookie.
- **Without a key** it is open only to a browser on the server's own machine: a request
  from 127.0.0.1 or ::1 that names a loopback host (`Host: localhost:8000`), with no
  proxy's forwarding header. A proxy on the same machine makes every request come from
  127.0.0.1, but it names the public host or says whom it forwards for: refused; and a
  page of another site whose name was pointed at 127.0.0.1 (DNS rebinding) names its own
  host: refused. Anyone else is told, in one line, how the operator opens it.

The CSRF defence is origins.py's `SameOrigin`: every state-changing request to the
workbench's API must come from this server's own pages (their `Origin` header).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress

from fastapi import Request

from tavernkeep.server.guards import RateLimiter

DESIGNER_COOKIE = "tk_designer"
COOKIE_SECONDS = 30 * 86400
KEY_ENV = "TAVERNKEEP_DESIGNER_KEY"
KEY_TRIES_PER_MINUTE = 10.0
KEY_TRIES = 10
"""Keys one address may try at once, then `KEY_TRIES_PER_MINUTE`: a key is not guessed."""
LOCAL_ONLY = (
    "the workbench is open only on the server's own machine (127.0.0.1): its operator "
    "opens it to others with a designer key (tavernkeep serve --designer-key KEY, or "
    f"{KEY_ENV})"
)
NEEDS_KEY = "the workbench needs the designer key: enter it on /workbench"
FORWARDED = ("forwarded", "x-forwarded-for", "x-real-ip")


def is_loopback_host(host: str) -> bool:
    """Whether a Host header names this machine: localhost or a loopback address."""
    name = host.strip().lower()
    if name.startswith("["):
        name = name[1 : name.find("]")] if "]" in name else name
    elif name.count(":") == 1:
        name = name.split(":")[0]
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class DesignerAccess:
    """The workbench's door: `refusal` says why a request may not pass (None: it may)."""

    def __init__(self, key: str | None, secure: bool = False) -> None:
        self.key = key or None
        self.secure = secure
        """Whether the cookie is `Secure`: the server's public origin is https."""
        self.token = (
            hashlib.sha256(f"tavernkeep designer\0{self.key}".encode()).hexdigest()
            if self.key is not None
            else None
        )
        self.tries = RateLimiter(KEY_TRIES_PER_MINUTE, KEY_TRIES)

    @property
    def needs_key(self) -> bool:
        return self.key is not None

    def refusal(self, request: Request) -> tuple[int, str] | None:
        """(status, one line) for a request that may not use the workbench; None if it may."""
        if self.token is not None:
            held = request.cookies.get(DESIGNER_COOKIE, "")
            if hmac.compare_digest(held.encode(), self.token.encode()):
                return None
            return 401, NEEDS_KEY
        client = request.client.host if request.client else ""
        try:
            local = ipaddress.ip_address(client).is_loopback
        except ValueError:
            local = False
        forwarded = any(request.headers.get(h) for h in FORWARDED)
        if local and not forwarded and is_loopback_host(request.headers.get("host", "")):
            return None
        return 403, LOCAL_ONLY

    def key_matches(self, request: Request, given: str) -> tuple[int, str] | None:
        """None when `given` is the designer key; else (status, one line). Every try is
        counted against the address."""
        if self.key is None:
            return 409, "this server has no designer key: the workbench is this machine's"
        client = request.client.host if request.client else ""
        if not self.tries.allow(client):
            wait = max(1, round(self.tries.wait(client)))
            return 429, f"too many tries of the key from one address: try again in {wait} s"
        if hmac.compare_digest(given.encode(), self.key.encode()):
            return None
        return 403, "that is not the designer key"

    def cookie(self) -> dict[str, object]:
        """The cookie a browser that gave the key keeps (Response.set_cookie's keywords)."""
        return {
            "key": DESIGNER_COOKIE,
            "value": self.token or "",
            "max_age": COOKIE_SECONDS,
            "httponly": True,
            "samesite": "strict",
            "secure": self.secure,
            "path": "/",
        }
