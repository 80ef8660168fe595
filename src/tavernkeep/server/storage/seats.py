"""A table's seats as stored (`seat_keys`): their secrets, who claimed them, and what each
seat's person said of themselves or the table said of them.

A person's seat has two secrets, both stored only as SHA-256 hashes in `seat_keys`: the
invite, good for one claim, and the credential the claim hands to one browser (see
PROTOCOL.md, "Seats and who may act"). A claim is one conditional UPDATE, so two browsers
racing for one invite (on one server or several) cannot both win it.

A seat claimed by a person signed in with a passkey belongs to their account
(`seat_keys.account_id`): another browser signed in as them may take a credential of its
own for it (`Seats.take`, kept in `seat_takes`), good while that sign-in lasts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.orm import aliased

from tavernkeep.server.chat import ChatLine
from tavernkeep.server.storage.chat_lines import add_line
from tavernkeep.server.storage.database import Database
from tavernkeep.server.storage.schema import seat_keys, seat_takes, sessions


@dataclass
class SeatKey:
    """A seat's secrets as stored: hashes only. A bot seat has neither."""

    invite_hash: str | None = None
    """The hash of the seat's invite (None for a bot, or a seat on the creator's device).
    Kept once claimed, so that the invite's second user can be told it was claimed."""
    credential_hash: str | None = None
    """The hash of the credential a claim handed out; None until the seat is claimed."""
    device: bool = False
    """Played on the creator's device (hot seat): its credential went to the creator."""
    name: str | None = None
    """What the seat's person calls themselves, once they have said (server/names.py)."""
    clock: float | None = None
    """Seconds left on the seat's real-time clock as its last decision ended."""
    open_seat: bool = False
    """Left open for anyone to take from the lobby; claimed once someone has."""
    away: str | None = None
    """Why a stand-in bot plays the seat until its person is back; None if they play it."""
    passing_on: str | None = None
    """The kind of decision its person passes on until they have another to make."""
    account_id: str | None = None
    """The account the seat belongs to, if its person was signed in (never sent to a
    page: a rated table checks it, one seat an account)."""

    @property
    def claimed(self) -> bool:
        return self.credential_hash is not None


def _held_by_none(table_id: str, account: str | None, sole: bool) -> list[Any]:
    """The condition of a claim at a rated table (`sole`): the claiming account holds no
    seat of it yet, checked in the claim's own statement, so two claims at once by one
    account cannot both win."""
    if not sole or account is None:
        return []
    other = aliased(seat_keys)
    held = select(other.c.seat).where(other.c.table_id == table_id, other.c.account_id == account)
    return [~held.exists()]


class Seats:
    """Claims of seats, and what is kept about each seat's person."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine

    def reissue(self, table_id: str, seat: int, invite_hash: str, notice: ChatLine) -> ChatLine:
        """Give a seat a new invite: its credential acts no more, and the next browser to
        open the new invite claims it. Kept with the notice that says so, in one
        transaction, so no table's seat changes hands unsaid."""
        with self.engine.begin() as conn:
            # Whoever claims the new invite owns the seat: the account it belonged to, and
            # the credentials its other browsers took, act for it no more.
            conn.execute(
                update(seat_keys)
                .where(seat_keys.c.table_id == table_id, seat_keys.c.seat == seat)
                .values(invite_hash=invite_hash, credential_hash=None, account_id=None)
            )
            conn.execute(
                delete(seat_takes).where(
                    seat_takes.c.table_id == table_id, seat_takes.c.seat == seat
                )
            )
            self.db.notify(conn, table_id)
            return add_line(conn, table_id, notice)

    def claim(
        self,
        table_id: str,
        seat: int,
        invite_hash: str,
        credential_hash: str,
        account: str | None = None,
        sole: bool = False,
    ) -> bool:
        """Hand the seat a credential if `invite_hash` is its invite and nobody has claimed
        it yet, and to `account` the seat, if one is signed in; with `sole` (a rated
        table), only if the account holds no other seat of the table. False when another
        claim got there first, or the account holds one."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seat_keys)
                .where(
                    seat_keys.c.table_id == table_id,
                    seat_keys.c.seat == seat,
                    seat_keys.c.invite_hash == invite_hash,
                    seat_keys.c.credential_hash.is_(None),
                    *_held_by_none(table_id, account, sole),
                )
                .values(credential_hash=credential_hash, account_id=account)
            )
            self.db.notify(conn, table_id)
            return bool(done.rowcount == 1)

    def claim_open(
        self, table_id: str, credential_hash: str, account: str | None = None, sole: bool = False
    ) -> int | None:
        """Give the first open seat nobody has taken to the credential (and to `account`,
        if one is signed in; with `sole`, only if it holds no other seat of the table): the
        seat, or None if every open seat is taken (or the account holds one). One
        conditional update a try, so two people asking at once never get one seat."""
        with self.engine.begin() as conn:
            for _ in range(8):
                seat = conn.execute(
                    select(func.min(seat_keys.c.seat)).where(
                        seat_keys.c.table_id == table_id,
                        seat_keys.c.open_seat.is_(True),
                        seat_keys.c.credential_hash.is_(None),
                    )
                ).scalar()
                if seat is None:
                    return None
                done = conn.execute(
                    update(seat_keys)
                    .where(
                        seat_keys.c.table_id == table_id,
                        seat_keys.c.seat == seat,
                        seat_keys.c.credential_hash.is_(None),
                        *_held_by_none(table_id, account, sole),
                    )
                    .values(credential_hash=credential_hash, account_id=account)
                )
                if done.rowcount == 1:
                    self.db.notify(conn, table_id)
                    return int(seat)
        return None

    def own(self, table_id: str, seats: list[int], account: str) -> None:
        """Give `account` the seats its person was handed on their own device as they
        opened the table (hot seats), unless another account has them already."""
        if not seats:
            return
        with self.engine.begin() as conn:
            conn.execute(
                update(seat_keys)
                .where(
                    seat_keys.c.table_id == table_id,
                    seat_keys.c.seat.in_(seats),
                    seat_keys.c.account_id.is_(None),
                )
                .values(account_id=account)
            )

    def take(
        self, table_id: str, seat: int, account: str, session_hash: str, credential_hash: str
    ) -> bool:
        """Hand a browser signed in as `account` (its session) a credential for the seat,
        if the seat is the account's; its own earlier one for the seat acts no more, so a
        browser holds one a seat however often it asks. False if the seat is not theirs."""
        with self.engine.begin() as conn:
            owner = conn.execute(
                select(seat_keys.c.account_id).where(
                    seat_keys.c.table_id == table_id, seat_keys.c.seat == seat
                )
            ).scalar()
            if owner is None or owner != account:
                return False
            conn.execute(
                delete(seat_takes).where(
                    seat_takes.c.table_id == table_id,
                    seat_takes.c.seat == seat,
                    seat_takes.c.session_hash == session_hash,
                )
            )
            conn.execute(
                insert(seat_takes).values(
                    table_id=table_id,
                    seat=seat,
                    session_hash=session_hash,
                    credential_hash=credential_hash,
                )
            )
            return True

    def taken(self, table_id: str, seat: int, credential_hash: str, now: float) -> bool:
        """Whether the credential is one a signed-in browser took for the seat, and still
        acts: its session has not ended or expired, and the seat is still its account's."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(seat_takes.c.seat)
                .join(sessions, sessions.c.id_hash == seat_takes.c.session_hash)
                .join(
                    seat_keys,
                    (seat_keys.c.table_id == seat_takes.c.table_id)
                    & (seat_keys.c.seat == seat_takes.c.seat),
                )
                .where(
                    seat_takes.c.table_id == table_id,
                    seat_takes.c.seat == seat,
                    seat_takes.c.credential_hash == credential_hash,
                    sessions.c.expires_at > now,
                    seat_keys.c.account_id == sessions.c.account_id,
                )
            ).first()
        return found is not None

    def set_name(self, table_id: str, seat: int, name: str) -> None:
        """Name a seat's person: kept with the table, so its record and a restarted
        server still say who sat there."""
        with self.engine.begin() as conn:
            conn.execute(
                update(seat_keys)
                .where(seat_keys.c.table_id == table_id, seat_keys.c.seat == seat)
                .values(name=name)
            )
            self.db.notify(conn, table_id)

    def set_passing_on(self, table_id: str, seat: int, kind: str | None) -> None:
        """Say which kind of decision a seat's person passes on until their turn (None:
        they are asked again), kept so that every server process passes alike."""
        with self.engine.begin() as conn:
            conn.execute(
                update(seat_keys)
                .where(seat_keys.c.table_id == table_id, seat_keys.c.seat == seat)
                .values(passing_on=kind)
            )
            self.db.notify(conn, table_id)

    def set_away(
        self, table_id: str, seat: int, away: str | None, clock: float | None = None
    ) -> None:
        """Say why a stand-in plays a seat now (None: its person plays it again), and with
        it the seconds left on its clock if those change too (run out, or given back): one
        write, so storage never holds one without the other."""
        values: dict[str, Any] = {"away": away}
        if clock is not None:
            values["clock"] = clock
        with self.engine.begin() as conn:
            conn.execute(
                update(seat_keys)
                .where(seat_keys.c.table_id == table_id, seat_keys.c.seat == seat)
                .values(**values)
            )
            self.db.notify(conn, table_id)

    def seat_key(self, table_id: str, seat: int) -> SeatKey | None:
        """The seat's hashes as committed: every join is checked against these, so a claim
        made anywhere counts at once."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(seat_keys).where(seat_keys.c.table_id == table_id, seat_keys.c.seat == seat)
            ).first()
        if row is None:
            return None
        return SeatKey(
            row.invite_hash,
            row.credential_hash,
            bool(row.device),
            row.name,
            row.clock,
            bool(row.open_seat),
            row.away,
            row.passing_on,
            row.account_id,
        )
