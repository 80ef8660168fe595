"""Optional sign-in with a passkey: accounts, their sessions, and the seats that are theirs.

Nobody needs an account to play. A person who wants their seats on every device creates
one with a name and a passkey (WebAuthn, checked by py_webauthn; no password exists
anywhere), and signs in with that passkey on any other device. A seat claimed while
signed in belongs to the account, and a browser signed in as it takes a credential of its
own for that seat without asking the host (`POST /api/tables/{id}/seats/{n}/take`).

- **Sessions** are a random id in a cookie (`HttpOnly`, `SameSite=Lax`, `Secure` when the
  server's origin is https), stored only as its SHA-256, for `SESSION_SECONDS`.
- **CSRF**: a state-changing API request that carries the session cookie, and every one
  to `/api/account`, must name this server's own origin in its `Origin` header
  (origins.py `SameOrigin`); a form on another site cannot. The passkeys' relying party
  is the origin's host name (origins.py: why a server at 127.0.0.1 is opened as
  http://localhost:PORT/ to sign in).
- **Ceremonies** (registering, adding or signing in with a passkey) begin with a
  challenge, kept as its hash, used once, and gone after `CHALLENGE_SECONDS`.
- **Bounds**: each address may begin and answer so many ceremonies an hour (new
  accounts) or a minute (sign-ins, passkeys added): `Limits`.
- **Nothing about an account is readable by anyone else**: every endpoint here reads the
  account of the request's own session; none takes an account's id from a client, and no
  page is ever shown one. What is public is its rated play alone, at a random handle
  (ratings.py): its name, its ratings and its rated games' results.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url, generate_challenge, parse_client_data_json
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from tavernkeep.engine.errors import IllegalAction
from tavernkeep.games import all_games
from tavernkeep.server.guards import RateLimiter
from tavernkeep.server.limits import Limits
from tavernkeep.server.names import clean_name
from tavernkeep.server.origins import SESSION_COOKIE, relying_party, server_origin
from tavernkeep.server.rooms import Tavern
from tavernkeep.server.storage import Account, Challenge, Passkey

STATIC = Path(__file__).parent / "static"
SESSION_SECONDS = 30 * 86400.0
"""How long a sign-in lasts: a month of a move a day, then the passkey again."""
CHALLENGE_SECONDS = 120.0
"""How long a passkey ceremony may take, from its challenge to its answer."""
PASSKEYS_MOST = 20
"""Passkeys one account may hold: a person's devices and keys, not a stranger's thousands."""
TABLES_LISTED = 100
RP_NAME = "tavernkeep"


class NotSignedIn(IllegalAction):
    """An account's endpoint asked without a session: 401 (app.py)."""

    def __init__(self) -> None:
        super().__init__("sign in with a passkey first")


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _hash(secret: str | bytes) -> str:
    return hashlib.sha256(secret.encode() if isinstance(secret, str) else secret).hexdigest()


# -- who is signed in ---------------------------------------------------------------------


async def session_of(request: Request) -> tuple[str, str] | None:
    """(account id, session hash) of the request's session cookie, if it is signed in."""
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie or len(cookie) > 100:
        return None
    tavern: Tavern = request.app.state.tavern
    session_hash = _hash(cookie)
    account = await tavern.tables.db(tavern.storage.session_account, session_hash, time.time())
    return None if account is None else (account, session_hash)


async def signed_in(request: Request) -> str | None:
    """The account the request is signed in as, or None: what a claim, a join or a new
    table's hot seats are given to (app.py)."""
    found = await session_of(request)
    return None if found is None else found[0]


def device_label(user_agent: str) -> str:
    """A person's words for the device a passkey was added on ("Chrome on Android"), so
    they can tell their passkeys apart; only a guess from the User-Agent."""
    systems = [
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Android", "Android"),
        ("CrOS", "ChromeOS"),
        ("Mac OS X", "macOS"),
        ("Windows", "Windows"),
        ("Linux", "Linux"),
    ]
    browsers = [
        ("Edg/", "Edge"),
        ("Firefox/", "Firefox"),
        ("Chrom", "Chrome"),
        ("Safari/", "Safari"),
    ]
    system = next((name for mark, name in systems if mark in user_agent), "")
    browser = next((name for mark, name in browsers if mark in user_agent), "")
    return " on ".join(part for part in (browser, system) if part) or "a browser"


def _one_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else exc.__class__.__name__)[:200]


class Register(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(max_length=200)


class Rename(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(max_length=200)


class Finish(BaseModel):
    """A passkey's answer, as the page turned the browser's credential into JSON."""

    model_config = ConfigDict(extra="forbid", strict=True)

    credential: dict[str, Any]


# -- the API --------------------------------------------------------------------------------


def account_router(tavern: Tavern, limits: Limits, public: str | None = None) -> APIRouter:
    """The account page and API over the tavern's storage: `public` is the server's
    configured origin (`public_origin`), None to take each request's own."""
    router = APIRouter()
    storage = tavern.storage
    db = tavern.tables.db
    registrations = RateLimiter(limits.accounts_per_hour / 60.0, limits.account_burst)
    sign_ins = RateLimiter(limits.sign_ins_per_minute, limits.sign_in_burst)
    # The answers are bounded as the ceremonies they end: an address sending answers
    # (made up, or replayed) costs the server no more than one beginning ceremonies.
    registered_answers = RateLimiter(limits.accounts_per_hour / 60.0, limits.account_burst)
    answers = RateLimiter(limits.sign_ins_per_minute, limits.sign_in_burst)
    titles = {game.name: game.title for game in all_games()}
    uv = UserVerificationRequirement.PREFERRED
    # A passkey the browser keeps (a discoverable credential): signing in asks for no name.
    selection = AuthenticatorSelectionCriteria(
        resident_key=ResidentKeyRequirement.REQUIRED, user_verification=uv
    )

    def origin(request: Request) -> str:
        found = server_origin(request.scope, public)
        if found is None:
            raise IllegalAction("the request named no host")
        return found

    def client(request: Request) -> str:
        return request.client.host if request.client else ""

    def bounded(limiter: RateLimiter, request: Request, what: str) -> JSONResponse | None:
        if limiter.allow(client(request)):
            return None
        wait = limiter.wait(client(request))
        later = f"in {max(1, round(wait))} s" if wait < 86400 else "later"
        return error(f"too many {what} from one address: try again {later}", 429)

    def with_session(response: JSONResponse, request: Request, token: str | None) -> JSONResponse:
        # Secure where the pages are served over TLS: the cookie never goes out in clear.
        secure = origin(request).startswith("https:")
        if token is None:
            response.delete_cookie(
                SESSION_COOKIE, path="/", secure=secure, httponly=True, samesite="lax"
            )
        else:
            response.set_cookie(
                SESSION_COOKIE,
                token,
                max_age=int(SESSION_SECONDS),
                path="/",
                secure=secure,
                httponly=True,
                samesite="lax",
            )
        return response

    async def challenge(kind: str, account_id: str | None, name: str | None) -> bytes:
        made = generate_challenge()
        now = time.time()
        await db(
            storage.add_challenge, _hash(made), kind, account_id, name, now, now + CHALLENGE_SECONDS
        )
        return made

    async def answered(credential: dict[str, Any], kind: str) -> tuple[bytes, Challenge]:
        """The challenge a passkey's answer signed, used up here, and what was kept with
        it; IllegalAction if it is not one of this server's, was used, or expired."""
        try:
            data = parse_client_data_json(
                base64url_to_bytes(credential["response"]["clientDataJSON"])
            )
        except (WebAuthnException, KeyError, TypeError, ValueError, AttributeError):
            raise IllegalAction("that is not a passkey's answer") from None
        kept = await db(storage.take_challenge, _hash(data.challenge), kind, time.time())
        if kept is None:
            raise IllegalAction("that passkey request was used already or took too long: try again")
        return data.challenge, kept

    def registration_options(
        request: Request, account_id: str, name: str, exclude: list[Passkey], made: bytes
    ) -> dict[str, Any]:
        options = generate_registration_options(
            rp_id=relying_party(origin(request)),
            rp_name=RP_NAME,
            user_name=name,
            user_id=account_id.encode(),
            user_display_name=name,
            challenge=made,
            timeout=int(CHALLENGE_SECONDS * 1000),
            authenticator_selection=selection,
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.id)) for p in exclude
            ],
        )
        return {"options": json.loads(options_to_json(options))}

    def registered(
        request: Request, credential: dict[str, Any], made: bytes, account_id: str
    ) -> Passkey:
        try:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=made,
                expected_rp_id=relying_party(origin(request)),
                expected_origin=origin(request),
            )
        except (WebAuthnException, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise IllegalAction(f"that passkey could not be checked: {_one_line(exc)}") from None
        return Passkey(
            bytes_to_base64url(verified.credential_id),
            account_id,
            bytes_to_base64url(verified.credential_public_key),
            verified.sign_count,
            device_label(request.headers.get("user-agent", "")),
            time.time(),
        )

    async def end_old_session(request: Request) -> None:
        # This browser's earlier sign-in ends as it signs in again: one session a browser.
        old = request.cookies.get(SESSION_COOKIE)
        if old and len(old) <= 100:
            await db(storage.end_session, _hash(old))

    async def signed_in_response(request: Request, account_id: str, name: str) -> JSONResponse:
        token = secrets.token_urlsafe(32)
        now = time.time()
        await end_old_session(request)
        await db(storage.start_session, account_id, _hash(token), now, now + SESSION_SECONDS)
        return with_session(JSONResponse({"name": name}), request, token)

    async def need_session(request: Request) -> tuple[str, str]:
        found = await session_of(request)
        if found is None:
            raise NotSignedIn()
        return found

    # -- the page ------------------------------------------------------------------------

    @router.get("/account", include_in_schema=False)
    async def account_page() -> FileResponse:
        return FileResponse(STATIC / "account.html")

    # -- creating an account ---------------------------------------------------------------

    @router.post("/api/account/register", response_model=None)
    async def register(request: Request, body: Register) -> dict[str, Any] | JSONResponse:
        name = clean_name(body.name)
        relying_party(origin(request))
        refused = bounded(registrations, request, "new accounts")
        if refused is not None:
            return refused
        account_id = secrets.token_hex(16)
        made = await challenge("register", account_id, name)
        return registration_options(request, account_id, name, [], made)

    @router.post("/api/account/register/finish", response_model=None)
    async def register_finish(request: Request, body: Finish) -> JSONResponse:
        refused = bounded(registered_answers, request, "new accounts")
        if refused is not None:
            return refused
        made, kept = await answered(body.credential, "register")
        # A registration's challenge was kept with the account it makes and its name.
        account_id, name = kept.account_id or "", kept.name or ""
        passkey = registered(request, body.credential, made, account_id)
        if await db(storage.passkey, passkey.id) is not None:
            raise IllegalAction("that passkey is registered here already: sign in with it")
        await end_old_session(request)
        token = secrets.token_urlsafe(32)
        account = Account(account_id, name, passkey.created_at)
        await db(
            storage.create_account, account, passkey, _hash(token), time.time() + SESSION_SECONDS
        )
        return with_session(JSONResponse({"name": account.name}), request, token)

    # -- signing in and out ------------------------------------------------------------------

    @router.post("/api/account/sign-in", response_model=None)
    async def sign_in(request: Request) -> dict[str, Any] | JSONResponse:
        rp_id = relying_party(origin(request))
        refused = bounded(sign_ins, request, "sign-ins")
        if refused is not None:
            return refused
        made = await challenge("sign_in", None, None)
        options = generate_authentication_options(
            rp_id=rp_id,
            challenge=made,
            timeout=int(CHALLENGE_SECONDS * 1000),
            user_verification=uv,
        )
        return {"options": json.loads(options_to_json(options))}

    @router.post("/api/account/sign-in/finish", response_model=None)
    async def sign_in_finish(request: Request, body: Finish) -> JSONResponse:
        refused = bounded(answers, request, "sign-ins")
        if refused is not None:
            return refused
        made, _ = await answered(body.credential, "sign_in")
        credential = body.credential
        try:
            credential_id = bytes_to_base64url(base64url_to_bytes(credential["rawId"]))
            handle = credential["response"].get("userHandle")
            user = base64url_to_bytes(handle) if handle else None
        except (KeyError, TypeError, ValueError, AttributeError):
            raise IllegalAction("that is not a passkey's answer") from None
        passkey = await db(storage.passkey, credential_id)
        if passkey is None or (user is not None and user != passkey.account_id.encode()):
            raise IllegalAction(
                "that passkey is not one of this server's accounts (removed, or its account "
                "deleted): create an account instead"
            )
        try:
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=made,
                expected_rp_id=relying_party(origin(request)),
                expected_origin=origin(request),
                credential_public_key=base64url_to_bytes(passkey.public_key),
                credential_current_sign_count=passkey.sign_count,
            )
        except (WebAuthnException, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise IllegalAction(f"that passkey could not be checked: {_one_line(exc)}") from None
        await db(storage.used_passkey, credential_id, verified.new_sign_count, time.time())
        account = await db(storage.account, passkey.account_id)
        if account is None:
            raise IllegalAction("that passkey's account was deleted")
        return await signed_in_response(request, account.id, account.name)

    @router.post("/api/account/sign-out")
    async def sign_out(request: Request) -> JSONResponse:
        found = await session_of(request)
        if found is not None:
            await db(storage.end_session, found[1])
            # Its lobby sockets here show the account's tables no more (your_tables.py).
            tavern.your_tables.account_changed(found[0])
        return with_session(JSONResponse({"signed_in": False}), request, None)

    # -- the account -------------------------------------------------------------------------

    @router.get("/api/account")
    async def account(request: Request) -> dict[str, Any]:
        found = await session_of(request)
        mine = None if found is None else await db(storage.account, found[0])
        if mine is None:
            return {"account": None}
        held = await db(storage.passkeys, mine.id)
        seats = await db(storage.owned_seats, mine.id, TABLES_LISTED)
        return {
            "account": {
                "name": mine.name,
                # Its public page (ratings.py): the handle, never the id.
                "handle": mine.handle,
                "created_at": mine.created_at,
                "passkeys": [
                    {"id": p.id, "label": p.label, "created_at": p.created_at, "used_at": p.used_at}
                    for p in held
                ],
                "tables": [
                    {
                        "table": s.table_id,
                        "seat": s.seat,
                        "game": s.game,
                        "title": titles.get(s.game, s.game),
                        "status": s.status,
                        "name": s.name,
                        "created_at": s.created_at,
                        "updated_at": s.updated_at,
                    }
                    for s in seats
                ],
            }
        }

    @router.post("/api/account/name")
    async def rename(request: Request, body: Rename) -> dict[str, Any]:
        account_id, _ = await need_session(request)
        name = clean_name(body.name)
        await db(storage.rename_account, account_id, name)
        return {"name": name}

    @router.post("/api/account/passkeys", response_model=None)
    async def add_passkey(request: Request) -> dict[str, Any] | JSONResponse:
        account_id, _ = await need_session(request)
        refused = bounded(sign_ins, request, "sign-ins")
        if refused is not None:
            return refused
        mine = await db(storage.account, account_id)
        held = await db(storage.passkeys, account_id)
        if mine is None:
            raise NotSignedIn()
        if len(held) >= PASSKEYS_MOST:
            raise IllegalAction(
                f"an account holds at most {PASSKEYS_MOST} passkeys: remove one first"
            )
        made = await challenge("add", account_id, None)
        return registration_options(request, account_id, mine.name, held, made)

    @router.post("/api/account/passkeys/finish", response_model=None)
    async def add_passkey_finish(request: Request, body: Finish) -> dict[str, Any] | JSONResponse:
        account_id, _ = await need_session(request)
        refused = bounded(answers, request, "sign-ins")
        if refused is not None:
            return refused
        made, kept = await answered(body.credential, "add")
        if kept.account_id != account_id:
            raise IllegalAction("that passkey request was another sign-in's: try again")
        passkey = registered(request, body.credential, made, account_id)
        if not await db(storage.add_passkey, passkey, PASSKEYS_MOST):
            raise IllegalAction(
                f"that passkey is registered here already, or the account holds {PASSKEYS_MOST}"
            )
        return {
            "passkey": {"id": passkey.id, "label": passkey.label, "created_at": passkey.created_at}
        }

    @router.delete("/api/account/passkeys/{passkey_id}", response_model=None)
    async def remove_passkey(request: Request, passkey_id: str) -> dict[str, Any] | JSONResponse:
        account_id, _ = await need_session(request)
        done = await db(storage.remove_passkey, account_id, passkey_id[:1400])
        if done == "unknown":
            return error("no such passkey", 404)
        if done == "last":
            raise IllegalAction(
                "an account keeps at least one passkey, or nobody could sign in to it: "
                "add another first, or delete the account"
            )
        return {"removed": passkey_id}

    @router.get("/api/account/data", response_model=None)
    async def download(request: Request) -> Response:
        account_id, session_hash = await need_session(request)
        mine = await db(storage.account, account_id)
        if mine is None:
            raise NotSignedIn()
        held = await db(storage.passkeys, account_id)
        signed = await db(storage.sessions, account_id)
        seats = await db(storage.owned_seats, account_id, 10_000)
        rated, history = await db(storage.account_ratings, account_id)
        data = {
            "name": mine.name,
            "handle": mine.handle,
            "created_at": mine.created_at,
            "passkeys": [
                {
                    "id": p.id,
                    "public_key": p.public_key,
                    "sign_count": p.sign_count,
                    "label": p.label,
                    "created_at": p.created_at,
                    "used_at": p.used_at,
                }
                for p in held
            ],
            # A session's id is the browser's secret: only when and whether it is this one.
            "sessions": [
                {
                    "created_at": s.created_at,
                    "expires_at": s.expires_at,
                    "this": s.id_hash == session_hash,
                }
                for s in signed
            ],
            "seats": [
                {
                    "table": s.table_id,
                    "seat": s.seat,
                    "game": s.game,
                    "status": s.status,
                    "name": s.name,
                }
                for s in seats
            ],
            "ratings": [
                {"game": r.game, "mu": r.mu, "sigma": r.sigma, "games": r.games} for r in rated
            ],
            "rated_games": [
                {
                    "game": g.game,
                    "at": g.at,
                    "place": g.place,
                    "of": g.of,
                    "won": g.won,
                    "mu": g.mu,
                    "sigma": g.sigma,
                }
                for g in history
            ],
        }
        return Response(
            json.dumps(data, indent=2),
            media_type="application/json",
            headers={"Content-Disposition": 'attachment; filename="tavernkeep-account.json"'},
        )

    @router.delete("/api/account")
    async def delete_account(request: Request) -> JSONResponse:
        account_id, _ = await need_session(request)
        await db(storage.delete_account, account_id)
        tavern.your_tables.account_changed(account_id)
        return with_session(JSONResponse({"deleted": True}), request, None)

    # -- an account's seat, on another device ------------------------------------------------

    @router.post("/api/tables/{table_id}/seats/{seat}/take", response_model=None)
    async def take_seat(
        request: Request, table_id: str, seat: int
    ) -> dict[str, Any] | JSONResponse:
        account_id, session_hash = await need_session(request)
        token = await tavern.take_seat(table_id, seat, account_id, session_hash)
        if token is None:
            return error("no such table", 404)
        return {"seat": seat, "token": token, "table": f"/table/{table_id}#seat={seat}"}

    return router
