"""Optional sign-in with a passkey (issue 44, item 2): an account made with a name and a
passkey, signed in on a second device with the same passkey, sessions in cookies that a
page on another site cannot use, bounds on each address, and a seat claimed while signed
in that the account's other device takes without an invite. Nothing of an account is
readable by anyone else.

The passkeys come from `Authenticator`, a software authenticator written here with
`cryptography` (ES256, attestation "none"), so the server's checks (py_webauthn) run on
answers built byte by byte as a browser's authenticator builds them.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import cbor2
import httpx
import pytest
import sqlalchemy as sa
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient
from sqlalchemy.pool import NullPool

from tavernkeep.server import accounts as accounts_module
from tavernkeep.server.app import create_app
from tavernkeep.server.limits import Limits
from tavernkeep.server.storage import normalise_url

ORIGIN = "http://testserver"
SEATS = ["human", "bot:random", "human"]
SHORT = {"round_limit": 2}


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "===")


class Authenticator:
    """A passkey authenticator in software: ES256 keys it keeps (discoverable
    credentials), attestation "none", user present and verified on every use."""

    def __init__(self, origin: str = ORIGIN) -> None:
        self.origin = origin
        self.keys: dict[bytes, dict[str, Any]] = {}

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """navigator.credentials.create(): a new key pair for the options' relying party
        and user, and the attestation a browser hands the page, as JSON."""
        rp_id = options["rp"]["id"]
        client_data = json.dumps(
            {
                "type": "webauthn.create",
                "challenge": options["challenge"],
                "origin": origin or self.origin,
                "crossOrigin": False,
            }
        ).encode()
        key = ec.generate_private_key(ec.SECP256R1())
        numbers = key.public_key().public_numbers()
        cose = cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )
        credential_id = os.urandom(16)
        auth_data = (
            hashlib.sha256(rp_id.encode()).digest()
            + bytes([0x45])  # user present, user verified, attested credential data
            + (0).to_bytes(4, "big")
            + bytes(16)  # aaguid: none said
            + len(credential_id).to_bytes(2, "big")
            + credential_id
            + cose
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        self.keys[credential_id] = {
            "key": key,
            "rp_id": rp_id,
            "user": options["user"]["id"],
            "count": 0,
        }
        return {
            "id": b64(credential_id),
            "rawId": b64(credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client_data),
                "attestationObject": b64(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    def get(
        self, options: dict[str, Any], credential_id: bytes | None = None, origin: str | None = None
    ) -> dict[str, Any]:
        """navigator.credentials.get() with no allow list: the (first, or named) passkey
        kept for the relying party signs the challenge."""
        rp_id = options["rpId"]
        if credential_id is None:
            credential_id = next(k for k, v in self.keys.items() if v["rp_id"] == rp_id)
        kept = self.keys[credential_id]
        kept["count"] += 1
        client_data = json.dumps(
            {
                "type": "webauthn.get",
                "challenge": options["challenge"],
                "origin": origin or self.origin,
                "crossOrigin": False,
            }
        ).encode()
        auth_data = (
            hashlib.sha256(rp_id.encode()).digest()
            + bytes([0x05])  # user present, user verified
            + kept["count"].to_bytes(4, "big")
        )
        signature = kept["key"].sign(
            auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return {
            "id": b64(credential_id),
            "rawId": b64(credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client_data),
                "authenticatorData": b64(auth_data),
                "signature": b64(signature),
                "userHandle": kept["user"],
            },
            "clientExtensionResults": {},
        }

    def copy(self) -> Authenticator:
        """The same passkeys on another device: a synced passkey."""
        other = Authenticator(self.origin)
        other.keys = {k: dict(v) for k, v in self.keys.items()}
        return other


@contextmanager
def app_client(url: str, **kwargs: Any) -> Iterator[TestClient]:
    # The server's own pages send their Origin with every change; so does this client,
    # unless a test says otherwise.
    with TestClient(create_app(url, bot_delay=0.0, **kwargs), headers={"Origin": ORIGIN}) as c:
        yield c


class Device:
    """One browser on a client: its own cookies, swapped in for each of its requests."""

    def __init__(self, client: TestClient, passkeys: Authenticator | None = None) -> None:
        self.client = client
        self.jar = httpx.Cookies()
        self.passkeys = passkeys or Authenticator()

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        saved = self.client.cookies
        self.client.cookies = self.jar
        try:
            return self.client.request(method, path, **kwargs)
        finally:
            self.jar = self.client.cookies
            self.client.cookies = saved

    def post(self, path: str, status: int = 200, **kwargs: Any) -> Any:
        response = self.request("POST", path, **kwargs)
        assert response.status_code == status, response.text
        return response.json()

    def get(self, path: str, status: int = 200) -> Any:
        response = self.request("GET", path)
        assert response.status_code == status, response.text
        return response.json()

    @property
    def session(self) -> str | None:
        return self.jar.get("tk_session")

    def register(self, name: str = "Bea") -> httpx.Response:
        options = self.post("/api/account/register", json={"name": name})["options"]
        credential = self.passkeys.create(options)
        response = self.request(
            "POST", "/api/account/register/finish", json={"credential": credential}
        )
        assert response.status_code == 200, response.text
        return response

    def sign_in(self, status: int = 200) -> Any:
        options = self.post("/api/account/sign-in", json={})["options"]
        assert options["allowCredentials"] == []  # a passkey: no name asked for
        response = self.request(
            "POST", "/api/account/sign-in/finish", json={"credential": self.passkeys.get(options)}
        )
        assert response.status_code == status, response.text
        return response.json()

    def account(self) -> Any:
        return self.get("/api/account")["account"]


def rows(url: str, sql: str, **params: Any) -> list[Any]:
    engine = sa.create_engine(normalise_url(url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return list(conn.execute(sa.text(sql), params).all())
    finally:
        engine.dispose()


def execute(url: str, sql: str, **params: Any) -> None:
    engine = sa.create_engine(normalise_url(url), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(sql), params)
    finally:
        engine.dispose()


# -- creating an account and signing in -----------------------------------------------------


def test_an_account_is_made_with_a_passkey_and_signed_in_on_another_device(db_url: str) -> None:
    with app_client(db_url) as client:
        laptop = Device(client)
        made = laptop.register("Bea")
        assert made.json() == {"name": "Bea"}
        # The session cookie: HttpOnly (no script reads it), SameSite, not Secure over
        # plain http, a month long, for the whole site.
        cookie = made.headers["set-cookie"]
        assert cookie.startswith("tk_session=")
        flags = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
        assert {"httponly", "samesite", "path", "max-age"} <= flags and "secure" not in flags
        assert "samesite=lax" in cookie.lower()
        account = laptop.account()
        assert account["name"] == "Bea" and len(account["passkeys"]) == 1
        assert "id" not in account  # no page is ever shown an account's id
        # Stored: the session's hash, never the cookie; the passkey's public key only.
        session = laptop.session
        assert session is not None
        hashed = rows(db_url, "SELECT id_hash FROM sessions")
        assert [r.id_hash for r in hashed] == [hashlib.sha256(session.encode()).hexdigest()]
        # The phone has the same passkey (synced): it signs in, with no name asked for.
        phone = Device(client, laptop.passkeys.copy())
        assert phone.account() is None
        assert phone.sign_in() == {"name": "Bea"}
        assert phone.account()["name"] == "Bea"
        assert phone.session != laptop.session
        used = rows(db_url, "SELECT sign_count, used_at FROM passkeys")
        assert used[0].sign_count == 1 and used[0].used_at is not None
        # Signed out, the phone's session acts no more; the laptop's still does.
        gone = phone.session
        phone.post("/api/account/sign-out")
        assert phone.session is None and phone.account() is None
        phone.jar.set("tk_session", str(gone))
        assert phone.account() is None
        assert laptop.account()["name"] == "Bea"


def test_over_https_the_cookie_is_secure_and_bound_to_the_public_origin(sqlite_url: str) -> None:
    public = "https://tables.example"
    with TestClient(
        create_app(sqlite_url, bot_delay=0.0, public_url=public + "/"),
        base_url=public,
        headers={"Origin": public},
    ) as client:
        device = Device(client, Authenticator(public))
        made = device.register("Cy")
        assert "secure" in made.headers["set-cookie"].lower()
        options = device.post("/api/account/sign-in", json={})["options"]
        assert options["rpId"] == "tables.example"
        # A passkey answer made for another origin does not sign in here.
        wrong = device.passkeys.get(options, origin="https://evil.example")
        refused = device.request("POST", "/api/account/sign-in/finish", json={"credential": wrong})
        assert refused.status_code == 400 and "could not be checked" in refused.json()["error"]


def test_a_bad_public_url_is_one_line() -> None:
    from tavernkeep.engine.errors import ConfigError
    from tavernkeep.server.origins import public_origin

    assert public_origin("https://Tables.Example:443/") == "https://tables.example"
    assert public_origin("http://localhost:8000") == "http://localhost:8000"
    for bad in ("tables.example", "ftp://x", "https://x/tavern", "https://x?a=1"):
        with pytest.raises(ConfigError, match="--public-url"):
            public_origin(bad)


def test_an_ip_address_is_no_relying_party(sqlite_url: str) -> None:
    # WebAuthn refuses an IP address as the relying party: the page is told to use a name.
    with TestClient(
        create_app(sqlite_url, bot_delay=0.0),
        base_url="http://127.0.0.1:8000",
        headers={"Origin": "http://127.0.0.1:8000"},
    ) as client:
        refused = client.post("/api/account/sign-in", json={})
        assert refused.status_code == 400 and "localhost" in refused.json()["error"]


def test_a_challenge_is_used_once_and_expires(sqlite_url: str, monkeypatch: Any) -> None:
    with app_client(sqlite_url) as client:
        device = Device(client)
        options = device.post("/api/account/register", json={"name": "Bea"})["options"]
        credential = device.passkeys.create(options)
        device.post("/api/account/register/finish", json={"credential": credential})
        again = device.request(
            "POST", "/api/account/register/finish", json={"credential": credential}
        )
        assert again.status_code == 400 and "used already" in again.json()["error"]
        options = device.post("/api/account/sign-in", json={})["options"]
        answer = device.passkeys.get(options)
        other = Device(client)
        other.post("/api/account/sign-in/finish", json={"credential": answer})
        # The same answer, replayed by whoever saw it, signs nobody in again.
        replayed = Device(client).request(
            "POST", "/api/account/sign-in/finish", json={"credential": answer}
        )
        assert replayed.status_code == 400 and "used already" in replayed.json()["error"]
        # A challenge of one kind is not one of another: a sign-in's cannot register.
        options = device.post("/api/account/sign-in", json={})["options"]
        fake = {
            "rp": {"id": options["rpId"]},
            "challenge": options["challenge"],
            "user": {"id": "eA"},
        }
        crossed = device.request(
            "POST",
            "/api/account/register/finish",
            json={"credential": device.passkeys.create(fake)},
        )
        assert crossed.status_code == 400
        # Expired: a challenge lives CHALLENGE_SECONDS.
        monkeypatch.setattr(accounts_module, "CHALLENGE_SECONDS", -1.0)
        options = device.post("/api/account/sign-in", json={})["options"]
        late = device.request(
            "POST", "/api/account/sign-in/finish", json={"credential": device.passkeys.get(options)}
        )
        assert late.status_code == 400 and "took too long" in late.json()["error"]
        # Used challenges and expired ones are gone from storage; the sign-in's challenge
        # that the crossed answer named was not used, and waits to expire.
        assert [r.kind for r in rows(sqlite_url, "SELECT kind FROM challenges")] == ["sign_in"]


def test_answers_that_are_not_passkeys_are_one_line(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        device = Device(client)
        for credential in ({}, {"response": 3}, {"response": {"clientDataJSON": "!!"}}):
            refused = device.request(
                "POST", "/api/account/sign-in/finish", json={"credential": credential}
            )
            assert refused.status_code == 400
            assert refused.json() == {"error": "that is not a passkey's answer"}
        # A name that is not one is refused as a seat's is.
        bad = device.request("POST", "/api/account/register", json={"name": "\u202eevil"})
        assert bad.status_code == 400 and "plain text" in bad.json()["error"]
        # A passkey nobody registered signs nobody in.
        stranger = Device(client)
        options = stranger.post("/api/account/register", json={"name": "Al"})["options"]
        stranger.passkeys.create(options)  # made, never sent
        options = stranger.post("/api/account/sign-in", json={})["options"]
        unknown = stranger.request(
            "POST",
            "/api/account/sign-in/finish",
            json={"credential": stranger.passkeys.get(options)},
        )
        assert unknown.status_code == 400 and "not one of this server's" in unknown.json()["error"]


# -- CSRF ---------------------------------------------------------------------------------------


def test_a_signed_in_change_from_another_site_is_refused(sqlite_url: str, tk: Any) -> None:
    with app_client(sqlite_url) as client:
        device = Device(client)
        device.register()
        body = {"game": "hack-and-slash", "seats": SEATS, "options": SHORT}
        # A form on another site posting to the server: the browser adds the cookie and
        # its own Origin, which is not this server's.
        form = device.request(
            "POST",
            "/api/account/sign-out",
            content="x=1",
            headers={
                "Origin": "https://evil.example",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        assert form.status_code == 403 and "Origin" in form.json()["error"]
        assert device.account() is not None
        for origin in ("https://evil.example", "null", "http://testserver.evil.example"):
            refused = device.request("POST", "/api/tables", json=body, headers={"Origin": origin})
            assert refused.status_code == 403
        deleted = device.request(
            "DELETE", "/api/account", headers={"Origin": "https://evil.example"}
        )
        assert deleted.status_code == 403
        # No Origin at all: not a page of this server's, refused too.
        saved = client.cookies
        client.cookies = device.jar
        try:
            bare = client.build_request("POST", "/api/tables", json=body)
            del bare.headers["Origin"]
            assert "tk_session" in bare.headers["cookie"]
            assert client.send(bare).status_code == 403
        finally:
            client.cookies = saved
        # The server's own page passes; and a request without the cookie is asked nothing,
        # as before accounts (its credentials are in its body).
        assert device.request("POST", "/api/tables", json=body).status_code == 201
        anonymous = client.post("/api/tables", json=body, headers={"Origin": "https://x.example"})
        assert anonymous.status_code == 201
        # Reads change nothing and are not asked.
        assert (
            device.request(
                "GET", "/api/account", headers={"Origin": "https://x.example"}
            ).status_code
            == 200
        )
        # Signing in from another site is refused as well, cookie or not.
        assert (
            Device(client)
            .request(
                "POST", "/api/account/sign-in", json={}, headers={"Origin": "https://x.example"}
            )
            .status_code
            == 403
        )


# -- bounds --------------------------------------------------------------------------------------


def test_account_creation_and_sign_in_are_bounded_per_address(sqlite_url: str) -> None:
    limits = Limits(
        accounts_per_hour=0.0, account_burst=2, sign_ins_per_minute=0.0, sign_in_burst=3
    )
    with app_client(sqlite_url, limits=limits) as client:
        device = Device(client)
        for _ in range(2):
            device.post("/api/account/register", json={"name": "Bea"})
        refused = device.request("POST", "/api/account/register", json={"name": "Bea"})
        assert refused.status_code == 429 and "too many new accounts" in refused.json()["error"]
        for _ in range(3):
            device.post("/api/account/sign-in", json={})
        refused = device.request("POST", "/api/account/sign-in", json={})
        assert refused.status_code == 429 and "too many sign-ins" in refused.json()["error"]
        assert "\n" not in refused.json()["error"]


# -- seats ----------------------------------------------------------------------------------------


def test_a_seat_claimed_while_signed_in_is_taken_on_another_device(db_url: str, tk: Any) -> None:
    with app_client(db_url) as client:
        laptop = Device(client)
        laptop.register("Bea")
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid = data["id"]
        invites = tk.invites(data)
        claimed = laptop.post(f"/api/tables/{tid}/claim", json={"seat": 0, "invite": invites[0]})
        other_seat = tk.claim(client, tid, 2, invites[2])  # a friend, not signed in
        tables = laptop.account()["tables"]
        assert [(t["table"], t["seat"], t["title"], t["status"]) for t in tables] == [
            (tid, 0, "Hack & Slash", "playing")
        ]
        # The phone signs in with the same passkey and takes the seat: no invite, no host.
        phone = Device(client, laptop.passkeys.copy())
        phone.sign_in()
        assert phone.account()["tables"] == tables
        taken = phone.post(f"/api/tables/{tid}/seats/0/take")
        assert taken["seat"] == 0 and taken["table"] == f"/table/{tid}#seat=0"
        assert taken["token"] != claimed["token"]
        # Both devices play the seat: it is one person's.
        with (
            tk.join(client, tid, 0, taken["token"]) as on_phone,
            tk.join(client, tid, 0, claimed["token"]) as on_laptop,
            tk.join(client, tid, 2, other_seat) as friend,
        ):
            tk.play_to_end({0: on_phone, 2: friend}, stop_after=2, watchers=(on_laptop,))
        # Nobody else takes it: not signed in, or signed in as someone else.
        assert Device(client).request("POST", f"/api/tables/{tid}/seats/0/take").status_code == 401
        stranger = Device(client)
        stranger.register("Cy")
        refused = stranger.request("POST", f"/api/tables/{tid}/seats/0/take")
        assert refused.status_code == 400 and "not your account's" in refused.json()["error"]
        # The friend's seat is nobody's account's; a seat that is not one is no seat.
        assert phone.request("POST", f"/api/tables/{tid}/seats/2/take").status_code == 400
        assert phone.request("POST", f"/api/tables/{tid}/seats/9/take").status_code == 400
        assert phone.request("POST", "/api/tables/nosuch/seats/0/take").status_code == 404
        # The phone signs out: the credential it took acts no more; the laptop's still does.
        phone.post("/api/account/sign-out")
        with tk.connect(client, tid, 0) as late:
            late.send({"type": "join", "seat": 0, "token": taken["token"]})
            code, seen = late.until_closed()
            assert code == 1008 and "not valid" in seen[-1]["message"]
        with tk.join(client, tid, 0, claimed["token"]):
            pass


def test_open_seats_and_hot_seats_taken_while_signed_in_are_the_accounts(
    sqlite_url: str, tk: Any
) -> None:
    with app_client(sqlite_url) as client:
        device = Device(client)
        device.register("Bea")
        solo = device.post(
            "/api/tables",
            201,
            json={
                "game": "hack-and-slash",
                "seats": ["human", "bot:random", "bot:random"],
                "device": [0],
            },
        )
        waiting = tk.create(client, seats=["human", "human", "bot:random"], open=[1])
        joined = device.post(f"/api/tables/{waiting['id']}/join")
        owned = {(t["table"], t["seat"]) for t in device.account()["tables"]}
        assert owned == {(solo["id"], 0), (waiting["id"], joined["seat"])}
        # The seat the anonymous creator sent an invite for is nobody's account's.
        assert (waiting["id"], 0) not in owned


def test_a_seat_handed_out_again_leaves_the_account(sqlite_url: str, tk: Any) -> None:
    with app_client(sqlite_url) as client:
        laptop = Device(client)
        laptop.register()
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid = data["id"]
        laptop.post(f"/api/tables/{tid}/claim", json={"seat": 0, "invite": tk.invites(data)[0]})
        taken = laptop.post(f"/api/tables/{tid}/seats/0/take")["token"]
        client.post(f"/api/tables/{tid}/reissue", json={"host": data["host"], "seat": 0})
        assert laptop.account()["tables"] == []
        with tk.connect(client, tid, 0) as again:
            again.send({"type": "join", "seat": 0, "token": taken})
            assert again.until_closed()[0] == 1008
        assert laptop.request("POST", f"/api/tables/{tid}/seats/0/take").status_code == 400


# -- what an account holds, and nobody else reads ------------------------------------------------


def test_nobody_reads_or_changes_another_accounts_data(db_url: str, tk: Any) -> None:
    with app_client(db_url) as client:
        bea, cy = Device(client), Device(client)
        bea.register("Bea")
        data = tk.create(client, seats=SEATS, options=SHORT)
        bea.post(f"/api/tables/{data['id']}/claim", json={"seat": 0, "invite": tk.invites(data)[0]})
        cy.register("Cy")
        bea_key = bea.account()["passkeys"][0]["id"]
        mine = cy.account()
        assert mine["name"] == "Cy" and mine["tables"] == []
        assert bea_key not in {p["id"] for p in mine["passkeys"]}
        # Another account's passkey is as unknown as one that never was.
        assert cy.request("DELETE", f"/api/account/passkeys/{bea_key}").status_code == 404
        downloaded = cy.get("/api/account/data")
        assert "Bea" not in json.dumps(downloaded) and data["id"] not in json.dumps(downloaded)
        # Signed out, there is no account to read or change.
        nobody = Device(client)
        assert nobody.get("/api/account") == {"account": None}
        for method, path in (
            ("GET", "/api/account/data"),
            ("DELETE", "/api/account"),
            ("POST", "/api/account/passkeys"),
            ("DELETE", f"/api/account/passkeys/{bea_key}"),
        ):
            response = nobody.request(method, path)
            assert response.status_code == 401, (method, path)
            assert response.json() == {"error": "sign in with a passkey first"}
        assert nobody.request("POST", "/api/account/name", json={"name": "X"}).status_code == 401
        # A made-up cookie is nobody's session.
        nobody.jar.set("tk_session", "made-up")
        assert nobody.get("/api/account") == {"account": None}
        assert bea.account()["name"] == "Bea" and len(bea.account()["tables"]) == 1


def test_passkeys_are_added_and_removed_but_never_the_last(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        laptop = Device(client)
        laptop.register()
        # A second passkey, from the signed-in laptop (a security key, say).
        options = laptop.post("/api/account/passkeys")["options"]
        assert len(options["excludeCredentials"]) == 1  # the first is not made again
        added = laptop.post(
            "/api/account/passkeys/finish", json={"credential": laptop.passkeys.create(options)}
        )["passkey"]
        held = laptop.account()["passkeys"]
        assert [p["id"] for p in held][1] == added["id"] and len(held) == 2
        # Each signs in.
        first, second = list(laptop.passkeys.keys)
        for credential_id in (first, second):
            device = Device(client, laptop.passkeys)
            options = device.post("/api/account/sign-in", json={})["options"]
            device.post(
                "/api/account/sign-in/finish",
                json={"credential": laptop.passkeys.get(options, credential_id)},
            )
            assert device.account()["name"] == "Bea"
        # The first removed: it signs in no more; the last is kept.
        laptop.request("DELETE", f"/api/account/passkeys/{b64(first)}")
        assert [p["id"] for p in laptop.account()["passkeys"]] == [b64(second)]
        device = Device(client, laptop.passkeys)
        options = device.post("/api/account/sign-in", json={})["options"]
        removed = device.request(
            "POST",
            "/api/account/sign-in/finish",
            json={"credential": laptop.passkeys.get(options, first)},
        )
        assert removed.status_code == 400
        last = laptop.request("DELETE", f"/api/account/passkeys/{b64(second)}")
        assert last.status_code == 400 and "at least one passkey" in last.json()["error"]
        # Renamed once, the name is the account's everywhere.
        assert laptop.post("/api/account/name", json={"name": "  Bea   the Bold "}) == {
            "name": "Bea the Bold"
        }
        assert laptop.account()["name"] == "Bea the Bold"


def test_an_accounts_data_is_downloaded_and_deleted(db_url: str, tk: Any) -> None:
    with app_client(db_url) as client:
        laptop = Device(client)
        laptop.register("Bea")
        phone = Device(client, laptop.passkeys.copy())
        phone.sign_in()
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid = data["id"]
        claimed = laptop.post(
            f"/api/tables/{tid}/claim", json={"seat": 0, "invite": tk.invites(data)[0]}
        )
        taken = phone.post(f"/api/tables/{tid}/seats/0/take")["token"]
        response = laptop.request("GET", "/api/account/data")
        assert response.status_code == 200
        assert "attachment" in response.headers["content-disposition"]
        mine = response.json()
        assert mine["name"] == "Bea"
        assert [p["label"] for p in mine["passkeys"]] == ["a browser"]  # TestClient says no more
        assert sorted(s["this"] for s in mine["sessions"]) == [False, True]
        assert mine["seats"] == [
            {"table": tid, "seat": 0, "game": "hack-and-slash", "status": "playing", "name": None}
        ]
        # No session's secret, not even as its hash, is in the download.
        for session in (laptop.session, phone.session):
            assert session is not None
            assert session not in response.text
            assert hashlib.sha256(session.encode()).hexdigest() not in response.text
        # Deleted: its sessions, passkeys and name are gone; its seat stays in its game.
        gone = laptop.request("DELETE", "/api/account")
        assert gone.status_code == 200 and laptop.session is None
        assert phone.account() is None
        for table in ("accounts", "passkeys", "sessions", "seat_takes"):
            assert rows(db_url, f"SELECT * FROM {table}") == [], table
        assert rows(db_url, "SELECT account_id FROM seat_keys WHERE account_id IS NOT NULL") == []
        assert phone.sign_in(400)["error"].startswith("that passkey is not one of this server's")
        with tk.connect(client, tid, 0) as late:
            late.send({"type": "join", "seat": 0, "token": taken})
            assert late.until_closed()[0] == 1008
        with tk.join(client, tid, 0, claimed["token"]) as still:
            assert still.state is not None


def test_an_expired_session_is_signed_out(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        device = Device(client)
        device.register()
        execute(sqlite_url, "UPDATE sessions SET expires_at = :t", t=time.time() - 1)
        assert device.account() is None
        assert device.request("POST", "/api/account/passkeys").status_code == 401
        # The next sign-in anywhere clears it from storage.
        Device(client, device.passkeys).sign_in()
        assert len(rows(sqlite_url, "SELECT * FROM sessions")) == 1


def test_the_account_page_is_served(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        page = client.get("/account")
        assert page.status_code == 200 and 'src="/static/account.js"' in page.text
