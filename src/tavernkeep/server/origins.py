"""The server's own origin, and the CSRF defence that rests on it (`SameOrigin`).

The origin is `serve --public-url` when given (a server behind a proxy that terminates
TLS), else the scheme and `Host` of each request, which a page on another site cannot
set. Passkeys are bound to its host name (`relying_party`), and a state-changing request
that a session cookie signs must say, in its `Origin` header, that it came from a page of
this origin (accounts.py, PROTOCOL.md "Accounts"); so must a WebSocket handshake whose
session cookie the lobby's socket reads (`handshake_cookie`, lobby_socket.py).
"""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import urlsplit

from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.requests import cookie_parser

from tavernkeep.engine.errors import ConfigError, IllegalAction

SESSION_COOKIE = "tk_session"
"""The cookie a signed-in browser holds: its session's random id (accounts.py)."""
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
ACCOUNT_API = "/api/account"
WORKBENCH_API = "/api/workbench"
"""Every change to the workbench is checked too: its designer cookie signs it, and a page
of another site could otherwise post to a workbench open on 127.0.0.1."""


def normal_origin(url: str) -> str | None:
    """`scheme://host[:port]` of an http(s) URL, lower-cased, its default port left out;
    None for anything else (`null`, another scheme, no host)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname
    if parts.scheme not in ("http", "https") or not host:
        return None
    if ":" in host:
        host = f"[{host}]"
    default = 443 if parts.scheme == "https" else 80
    return f"{parts.scheme}://{host}" + (f":{port}" if port and port != default else "")


def public_origin(public_url: str | None) -> str | None:
    """The origin `serve --public-url` names (None when not given); ConfigError in one
    line for a value that is not an http(s) origin."""
    if public_url is None or not public_url.strip():
        return None
    origin = normal_origin(public_url)
    parts = urlsplit(public_url.strip())
    if origin is None or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ConfigError(
            f"--public-url must be the address people open, as http(s)://host[:port], "
            f"not '{public_url}'"
        )
    return origin


def server_origin(scope: Any, public: str | None) -> str | None:
    """The origin this server's pages are served from: the configured public one, else
    the request's own scheme and Host (which a page on another site cannot set)."""
    if public is not None:
        return public
    host = Headers(scope=scope).get("host")
    if not host:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", ""), scope.get("scheme"))
    return normal_origin(f"{scheme}://{host}")


def handshake_cookie(scope: Any, public: str | None) -> str | None:
    """The session cookie a WebSocket's handshake carries, if a page of this server's own
    origin opened it; None for none, or for a handshake from any other origin.

    A browser adds its cookies to every WebSocket handshake to this server, whichever
    site's page opens it, and SameSite does not keep them off a page of another port or
    subdomain; but it always sends that page's `Origin`, which no page can set. So a page
    elsewhere that opens the lobby's socket is served as a browser signed out, and never
    reads the tables of whoever's browser it runs in (cross-site WebSocket hijacking)."""
    headers = Headers(scope=scope)
    cookie = cookie_parser(headers.get("cookie", "")).get(SESSION_COOKIE)
    if not cookie or len(cookie) > 100:
        return None
    origin = normal_origin(headers.get("origin", ""))
    if origin is None or origin != server_origin(scope, public):
        return None
    return cookie


def relying_party(origin: str | None) -> str:
    """The passkeys' relying party id: the origin's host name. IllegalAction for an IP
    address, which WebAuthn refuses."""
    host = urlsplit(origin or "").hostname or ""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if host:
            return host
    raise IllegalAction(
        "passkeys need this server's name, not an IP address: open it as "
        "http://localhost:PORT/ here, or by its domain name"
    )


class SameOrigin:
    """ASGI middleware, the CSRF defence: a state-changing API request that a session
    cookie would sign (and any to /api/account, whose sign-ins make one, or to
    /api/workbench, which its designer cookie or its machine's address lets in) must carry an
    `Origin` header that is this server's origin, or it is refused (403) before it runs.

    Browsers send `Origin` with every such request and a page cannot forge it, so a form
    or script on another site is refused while the server's own pages pass unchanged. A
    request with no cookie is signed by nothing the browser adds (a credential in its
    body), so it is not asked."""

    def __init__(self, app: Any, public: str | None = None) -> None:
        self.app = app
        self.public = public

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] in UNSAFE
            and scope["path"].startswith("/api/")
        ):
            headers = Headers(scope=scope)
            cookies = cookie_parser(headers.get("cookie", ""))
            if SESSION_COOKIE in cookies or scope["path"].startswith((ACCOUNT_API, WORKBENCH_API)):
                origin = normal_origin(headers.get("origin", ""))
                if origin is None or origin != server_origin(scope, self.public):
                    refused = JSONResponse(
                        {
                            "error": "refused: a signed-in change must come from this "
                            "server's own pages (its Origin header did not match)"
                        },
                        status_code=403,
                    )
                    await refused(scope, receive, send)
                    return
        await self.app(scope, receive, send)
