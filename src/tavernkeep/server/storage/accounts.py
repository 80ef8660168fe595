"""Accounts as stored: people signed up with a passkey, their passkeys, the browsers
signed in as them (sessions), the passkey ceremonies under way (challenges), and the seats
that are theirs.

Nothing secret is kept in the clear: a session's cookie and a challenge only as SHA-256
hashes, and a passkey is a public key. Every read here is by an account's own id, which
only the server knows (from a session, server/accounts.py): nothing lists accounts or
finds one by its name. (A leaderboard and a person's page, ratings.py, show an account's
name and public handle, never its id.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Connection, Row, case, delete, func, insert, select, update

from tavernkeep.server.storage.database import Database
from tavernkeep.server.storage.ratings import forget_account
from tavernkeep.server.storage.schema import (
    UNFINISHED,
    accounts,
    challenges,
    new_handle,
    passkeys,
    seat_keys,
    seat_takes,
    sessions,
    tables,
)


@dataclass(frozen=True)
class Passkey:
    """A passkey as stored: its id and COSE public key, both base64url."""

    id: str
    account_id: str
    public_key: str
    sign_count: int
    label: str
    created_at: float
    used_at: float | None = None


@dataclass(frozen=True)
class Challenge:
    """A ceremony's challenge, as it was when it was asked for."""

    kind: str
    account_id: str | None
    name: str | None


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    created_at: float
    handle: str | None = None
    """Its public page's address (/people/{handle}); one is made with the account."""


@dataclass(frozen=True)
class OwnedSeat:
    """A seat an account holds, with what its person is shown of the table."""

    table_id: str
    seat: int
    game: str
    status: str
    name: str | None
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class Session:
    id_hash: str
    created_at: float
    expires_at: float


def _end_sessions(conn: Connection, where: ColumnElement[bool]) -> None:
    """End the sessions `where` selects, and with them the seats' credentials they took."""
    ended = select(sessions.c.id_hash).where(where)
    conn.execute(delete(seat_takes).where(seat_takes.c.session_hash.in_(ended)))
    conn.execute(delete(sessions).where(where))


class Accounts:
    """Accounts, their passkeys and sessions, and the ceremonies that make them."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine

    # -- ceremonies ------------------------------------------------------------------------

    def add_challenge(
        self,
        challenge_hash: str,
        kind: str,
        account_id: str | None,
        name: str | None,
        now: float,
        expires_at: float,
    ) -> None:
        """Keep a ceremony's challenge until it is used or `expires_at`. Those past it go
        now: the table holds only the ceremonies of the last minutes, which the bounds on
        each address keep few."""
        with self.engine.begin() as conn:
            conn.execute(delete(challenges).where(challenges.c.expires_at <= now))
            conn.execute(
                insert(challenges).values(
                    challenge_hash=challenge_hash,
                    kind=kind,
                    account_id=account_id,
                    name=name,
                    expires_at=expires_at,
                )
            )

    def take_challenge(self, challenge_hash: str, kind: str, now: float) -> Challenge | None:
        """The challenge of that kind, used up: a second use of it finds nothing (one
        conditional delete decides, so two at once cannot both use it). None for one
        unknown, of another kind, used or expired."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(challenges).where(
                    challenges.c.challenge_hash == challenge_hash, challenges.c.kind == kind
                )
            ).first()
            if row is None:
                return None
            done = conn.execute(
                delete(challenges).where(challenges.c.challenge_hash == challenge_hash)
            )
            if done.rowcount != 1 or row.expires_at <= now:
                return None
            return Challenge(row.kind, row.account_id, row.name)

    # -- accounts --------------------------------------------------------------------------

    def create_account(
        self, account: Account, passkey: Passkey, session_hash: str, expires_at: float
    ) -> None:
        """A new account with its first passkey, signed in on the browser that made it:
        one transaction, so no account is ever left without a way in."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(accounts).values(
                    id=account.id,
                    name=account.name,
                    created_at=account.created_at,
                    handle=account.handle or new_handle(),
                )
            )
            self._insert_passkey(conn, passkey)
            conn.execute(
                insert(sessions).values(
                    id_hash=session_hash,
                    account_id=account.id,
                    created_at=account.created_at,
                    expires_at=expires_at,
                )
            )

    def account(self, account_id: str) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
        return None if row is None else Account(row.id, row.name, row.created_at, row.handle)

    def rename(self, account_id: str, name: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(name=name))

    def delete_account(self, account_id: str) -> None:
        """Forget the account: its sessions (and the seats' credentials they took), its
        passkeys, its ceremonies, its ratings and its name. Its seats stay in their games,
        each its claiming browser's as before, with no account."""
        with self.engine.begin() as conn:
            forget_account(conn, account_id)
            _end_sessions(conn, sessions.c.account_id == account_id)
            conn.execute(delete(passkeys).where(passkeys.c.account_id == account_id))
            conn.execute(delete(challenges).where(challenges.c.account_id == account_id))
            conn.execute(
                update(seat_keys)
                .where(seat_keys.c.account_id == account_id)
                .values(account_id=None)
            )
            conn.execute(delete(accounts).where(accounts.c.id == account_id))

    # -- passkeys --------------------------------------------------------------------------

    @staticmethod
    def _insert_passkey(conn: Connection, passkey: Passkey) -> None:
        conn.execute(
            insert(passkeys).values(
                id=passkey.id,
                account_id=passkey.account_id,
                public_key=passkey.public_key,
                sign_count=passkey.sign_count,
                label=passkey.label,
                created_at=passkey.created_at,
                used_at=passkey.used_at,
            )
        )

    def add_passkey(self, passkey: Passkey, most: int) -> bool:
        """Add a passkey to its account, unless it holds `most` already or the passkey is
        known here (registered before, to this account or another). False if not added."""
        with self.engine.begin() as conn:
            held = conn.execute(
                select(func.count())
                .select_from(passkeys)
                .where(passkeys.c.account_id == passkey.account_id)
            ).scalar_one()
            known = conn.execute(select(passkeys.c.id).where(passkeys.c.id == passkey.id)).first()
            if held >= most or known is not None:
                return False
            self._insert_passkey(conn, passkey)
            return True

    def passkey(self, credential_id: str) -> Passkey | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(passkeys).where(passkeys.c.id == credential_id)).first()
        return None if row is None else _passkey(row)

    def passkeys(self, account_id: str) -> list[Passkey]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(passkeys)
                .where(passkeys.c.account_id == account_id)
                .order_by(passkeys.c.created_at)
            ).all()
        return [_passkey(row) for row in rows]

    def used_passkey(self, credential_id: str, sign_count: int, now: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(passkeys)
                .where(passkeys.c.id == credential_id)
                .values(sign_count=sign_count, used_at=now)
            )

    def remove_passkey(self, account_id: str, credential_id: str) -> str:
        """Remove one of the account's passkeys: "removed", "last" (an account keeps one,
        or nobody could sign in to it again) or "unknown" (no passkey of this account's:
        another's is as unknown as one that never was)."""
        with self.engine.begin() as conn:
            held = (
                conn.execute(select(passkeys.c.id).where(passkeys.c.account_id == account_id))
                .scalars()
                .all()
            )
            if credential_id not in held:
                return "unknown"
            if len(held) <= 1:
                return "last"
            conn.execute(
                delete(passkeys).where(
                    passkeys.c.id == credential_id, passkeys.c.account_id == account_id
                )
            )
            return "removed"

    # -- sessions --------------------------------------------------------------------------

    def start_session(
        self, account_id: str, session_hash: str, now: float, expires_at: float
    ) -> None:
        """A browser signed in as the account until `expires_at`. Expired sessions of
        anyone's go now, with the credentials they took."""
        with self.engine.begin() as conn:
            _end_sessions(conn, sessions.c.expires_at <= now)
            conn.execute(
                insert(sessions).values(
                    id_hash=session_hash,
                    account_id=account_id,
                    created_at=now,
                    expires_at=expires_at,
                )
            )

    def session_account(self, session_hash: str, now: float) -> str | None:
        """The account a session is signed in as, if it has not ended or expired."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(sessions.c.account_id).where(
                    sessions.c.id_hash == session_hash, sessions.c.expires_at > now
                )
            ).scalar()
        return None if found is None else str(found)

    def sessions(self, account_id: str) -> list[Session]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(sessions)
                .where(sessions.c.account_id == account_id)
                .order_by(sessions.c.created_at)
            ).all()
        return [Session(row.id_hash, row.created_at, row.expires_at) for row in rows]

    def end_session(self, session_hash: str) -> None:
        """Sign a browser out: its session, and the credentials it took for seats, act no
        more."""
        with self.engine.begin() as conn:
            _end_sessions(conn, sessions.c.id_hash == session_hash)

    # -- seats -------------------------------------------------------------------------------

    def owned_seats(self, account_id: str, limit: int) -> list[OwnedSeat]:
        """The account's seats, the tables changed latest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    seat_keys.c.table_id,
                    seat_keys.c.seat,
                    seat_keys.c.name,
                    tables.c.game,
                    tables.c.status,
                    tables.c.created_at,
                    tables.c.updated_at,
                )
                .join(tables, tables.c.id == seat_keys.c.table_id)
                .where(seat_keys.c.account_id == account_id)
                .order_by(tables.c.updated_at.desc(), seat_keys.c.table_id, seat_keys.c.seat)
                .limit(limit)
            ).all()
        return [
            OwnedSeat(
                row.table_id,
                row.seat,
                row.game,
                row.status,
                row.name,
                row.created_at,
                row.updated_at,
            )
            for row in rows
        ]

    def session_seats(
        self, session_hash: str, now: float, limit: int
    ) -> tuple[str | None, list[tuple[str, int]]]:
        """The account a session is signed in as (None if it has ended or expired) and
        its seats, as (table id, seat): the tables under way first, then the latest
        moved, at most `limit`. What a lobby signed in as it follows (your_tables.py)."""
        with self.engine.connect() as conn:
            account = conn.execute(
                select(sessions.c.account_id).where(
                    sessions.c.id_hash == session_hash, sessions.c.expires_at > now
                )
            ).scalar()
            if account is None:
                return None, []
            rows = conn.execute(
                select(seat_keys.c.table_id, seat_keys.c.seat)
                .join(tables, tables.c.id == seat_keys.c.table_id)
                .where(seat_keys.c.account_id == account)
                .order_by(
                    case((tables.c.status.in_(UNFINISHED), 0), else_=1),
                    tables.c.updated_at.desc(),
                    seat_keys.c.table_id,
                    seat_keys.c.seat,
                )
                .limit(limit)
            ).all()
        return str(account), [(str(row.table_id), int(row.seat)) for row in rows]


def _passkey(row: Row[Any]) -> Passkey:
    return Passkey(
        row.id,
        row.account_id,
        row.public_key,
        int(row.sign_count),
        row.label,
        row.created_at,
        row.used_at,
    )
