"""The secrets a table hands out, kept only as their hashes: a seat's invite, the
credential a browser trades it for (seating.py), and the host key that hands a seat out
again or begins, closes and rematches the table (lifecycle.py).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from tavernkeep.engine.errors import IllegalAction
from tavernkeep.server.storage import StoredTable


def new_secret() -> str:
    """An invite or a credential: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def is_secret(stored_hash: str | None, secret: object) -> bool:
    """Whether `secret`, as a stranger sent it, is the one whose hash is stored: text of
    at most 100 characters, compared in constant time."""
    return (
        isinstance(secret, str)
        and 0 < len(secret) <= 100
        and stored_hash is not None
        and hmac.compare_digest(stored_hash, secret_hash(secret))
    )


async def check_credential(stored: StoredTable, seat: object, token: object) -> None:
    """IllegalAction unless `token` is the credential of `seat` at the stored table."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(stored.keys):
        raise IllegalAction("no such seat at this table")
    if not is_secret(stored.keys[seat].credential_hash, token):
        raise IllegalAction("that seat token is not valid for this table")


def check_host(stored: StoredTable, host: object) -> None:
    """IllegalAction unless `host` is the table's host key."""
    if not is_secret(stored.host_hash, host):
        raise IllegalAction("that is not this table's host key")
