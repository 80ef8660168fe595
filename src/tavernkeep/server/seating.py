"""Who sits where (`Seating`): a seat's invite traded, once, for a browser's credential
(a claim), an open seat taken from the lobby, a seat handed to a new invite by the host
(a reissue), a credential checked as a page joins, and the names people give.

A seat claimed by a person signed in with a passkey is their account's too: another
browser signed in as them takes a credential of its own for it (`Seating.take`), without
an invite (PROTOCOL.md, "Accounts").

Storage decides who wins a seat (one conditional update each), so no table is replayed to
claim a seat at it; the secrets are kept only as hashes (invites.py).
"""

from __future__ import annotations

import hmac
import time
from dataclasses import replace

from tavernkeep.engine.errors import IllegalAction
from tavernkeep.server.invites import check_host, new_secret, secret_hash
from tavernkeep.server.lifecycle import Lifecycle
from tavernkeep.server.names import clean_name
from tavernkeep.server.room import Room, seat_name
from tavernkeep.server.storage import UNFINISHED, StoredTable
from tavernkeep.server.tables import Tables
from tavernkeep.server.talk import Talk


class SeatTaken(IllegalAction):
    """An invite whose seat another browser has claimed: its holder may watch."""


def rated_seat(stored: StoredTable, account: str | None) -> bool:
    """Whether a seat taken at this table must be its taker's account's alone (a rated
    table); IllegalAction, one line, if it cannot be theirs: a rated table's seats are
    taken signed in, one an account, or the table could not be rated (PROTOCOL.md,
    "Ratings")."""
    if not stored.settings.get("rated"):
        return False
    if account is None:
        raise IllegalAction(
            "this table is rated: sign in (the lobby's Sign in), then take the seat again "
            "(its link still holds it)"
        )
    for seat, key in enumerate(stored.keys):
        if key.account_id == account:
            raise IllegalAction(
                f"your account holds {seat_name(seat)}'s seat at this rated table already: "
                "one seat a person"
            )
    return True


class Seating:
    """The seats of the tables of one server: a table whose last open seat is taken
    begins (lifecycle.py)."""

    def __init__(self, tables: Tables, talk: Talk, lifecycle: Lifecycle) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.db = tables.db
        self.rooms = tables.rooms
        self.talk = talk
        self.lifecycle = lifecycle

    async def claim(
        self, table_id: str, seat: object, invite: object, account: str | None = None
    ) -> str | None:
        """Trade a seat's invite for a credential of this browser's own: the invite acts
        for nobody after that, and a second claim of it is refused (SeatTaken). Storage
        decides (one conditional update), so no table is replayed to claim a seat at it.
        The seat is `account`'s too, if its person is signed in. None for no such table."""
        stored = await self.tables.stored(table_id)
        if stored is None:
            return None
        seats = len(stored.record.seats)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
            raise IllegalAction("no such seat at this table")
        if not isinstance(invite, str) or not invite or len(invite) > 100:
            raise IllegalAction("that invite is not valid for this table")
        key = stored.keys[seat]
        if key.invite_hash is None or not hmac.compare_digest(key.invite_hash, secret_hash(invite)):
            raise IllegalAction("that invite is not valid for this table")
        taken = f"{seat_name(seat)}'s seat was claimed by another browser: you are watching"
        if key.claimed:
            raise SeatTaken(taken)
        rated = rated_seat(stored, account)
        credential = new_secret()
        won = await self.db(
            self.storage.claim,
            table_id,
            seat,
            key.invite_hash,
            secret_hash(credential),
            account,
            rated,
        )
        if not won:
            if rated:
                # Refused for the account's other seat, taken meanwhile, or another claim.
                rated_seat(await self.tables.stored(table_id) or stored, account)
            raise SeatTaken(taken)
        room = self.rooms.get(table_id)
        if room is not None:
            room.keys[seat] = replace(
                room.keys[seat], credential_hash=secret_hash(credential), account_id=account
            )
            room.touched += 1
            room.broadcast_seats()
        return credential

    async def join_open(self, table_id: str, account: str | None = None) -> tuple[int, str] | None:
        """Take the first open seat nobody has: the seat and this browser's credential
        for it (and the seat `account`'s, if one is signed in). The table begins once its
        last open seat is taken. None for no such table; IllegalAction if no seat is
        open."""
        stored = await self.tables.stored(table_id)
        if stored is None:
            return None
        if stored.status != "waiting":
            raise SeatTaken("no open seat at this table: it is not waiting for players")
        rated = rated_seat(stored, account)
        credential = new_secret()
        seat = await self.db(
            self.storage.claim_open, table_id, secret_hash(credential), account, rated
        )
        if seat is None:
            if rated:
                rated_seat(await self.tables.stored(table_id) or stored, account)
            raise SeatTaken("no open seat at this table: every one was taken")
        room = self.rooms.get(table_id)
        if room is not None:
            room.keys[seat] = replace(
                room.keys[seat], credential_hash=secret_hash(credential), account_id=account
            )
            room.touched += 1
            room.broadcast_seats()
        now = await self.tables.stored(table_id) or stored
        if all(key.claimed or not key.open_seat for key in now.keys):
            await self.lifecycle.start(table_id, None, everyone_here=True)
        return seat, credential

    async def authenticate(self, room: Room, seat: object, token: object) -> int:
        """The seat a credential acts for, checked against storage; IllegalAction if it
        acts for none. An invite is not a credential: it must be claimed first."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(room.seats):
            raise IllegalAction("no such seat at this table")
        if not isinstance(token, str) or not token or len(token) > 100:
            raise IllegalAction("that seat token is not valid for this table")
        key = await self.db(self.storage.seat_key, room.id, seat)
        if key is None or key.credential_hash is None:
            if (
                key is not None
                and key.invite_hash is not None
                and hmac.compare_digest(key.invite_hash, secret_hash(token))
            ):
                raise IllegalAction("that is an invite: claim the seat with it first")
            raise IllegalAction("that seat token is not valid for this table")
        if not hmac.compare_digest(key.credential_hash, secret_hash(token)):
            # Not the claiming browser's: perhaps one an account's other browser took.
            # Asked only then, so a seat without an account costs no more than before.
            taken = await self.db(
                self.storage.seat_taken, room.id, seat, secret_hash(token), time.time()
            )
            if not taken:
                raise IllegalAction("that seat token is not valid for this table")
        return seat

    async def own(self, table_id: str, seats: list[int], account: str) -> None:
        """The seats a signed-in creator was handed on their own device (hot seats) are
        their account's."""
        await self.db(self.storage.own_seats, table_id, seats, account)

    async def take(
        self, table_id: str, seat: object, account: str, session_hash: str
    ) -> str | None:
        """A credential of its own for a browser signed in as the account the seat belongs
        to: no invite, no host. The seat's other credentials still act (one person, two
        devices: the table takes one decision a version, whichever comes first). None for
        no such table; IllegalAction if the seat is not the account's."""
        stored = await self.tables.stored(table_id)
        if stored is None:
            return None
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(stored.keys):
            raise IllegalAction("no such seat at this table")
        credential = new_secret()
        mine = await self.db(
            self.storage.take_seat, table_id, seat, account, session_hash, secret_hash(credential)
        )
        if not mine:
            raise IllegalAction(f"{seat_name(seat)}'s seat is not your account's")
        return credential

    async def rename(self, room: Room, seat: int, raw: object, tell: bool = True) -> None:
        """Name the person at `seat` (authenticated by the caller) and, if `tell`, tell
        the table; IllegalAction for a name that is not one (names.py)."""
        name = clean_name(raw)
        if room.keys[seat].name == name:
            return
        await self.db(self.storage.set_name, room.id, seat, name)
        room.keys[seat] = replace(room.keys[seat], name=name)
        room.touched += 1
        if tell:
            room.broadcast_seats()

    async def reissue(self, table_id: str, host: object, seat: object) -> str | None:
        """A new invite for a person's seat, for its person on a new device: the seat's
        credential acts no more (its sockets are closed, told why), and the table is told
        in its log. Only the table's host key may; None for no such table."""
        stored = await self.tables.stored(table_id)
        if stored is None:
            return None
        check_host(stored, host)
        if stored.status not in UNFINISHED:
            raise IllegalAction("the game is over: its seats are not handed out again")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(stored.keys):
            raise IllegalAction("no such seat at this table")
        if stored.record.seats[seat] != "human":
            raise IllegalAction(f"{seat_name(seat)} is a bot's seat")
        if stored.keys[seat].device:
            raise IllegalAction(f"{seat_name(seat)} is played on the host's device")
        invite = new_secret()
        said = f"The table's host handed {seat_name(seat)}'s seat to a new invite"
        line = await self.db(
            self.storage.reissue, table_id, seat, secret_hash(invite), self.talk.notice_line(said)
        )
        room = self.rooms.get(table_id)
        if room is not None:
            room.keys[seat] = replace(
                room.keys[seat],
                invite_hash=secret_hash(invite),
                credential_hash=None,
                account_id=None,
            )
            room.touched += 1
            for conn in [c for c in room.connections if c.seat == seat]:
                room.drop(conn, "the table's host handed this seat to a new invite")
            self.talk.said(room, line)
            room.broadcast_seats()
        return invite
