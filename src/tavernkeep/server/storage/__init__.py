"""Tables stored as game records, one committed row per action.

A table is its record: (game, pack, config, seed, seats) in `tables`, and each action a
row of `actions`, committed before anyone is told of it. A server killed at any moment
brings a table back, when someone asks for it, by replaying its actions. The same code
serves SQLite (the default, a file beside the server) and PostgreSQL
(`postgresql://...`) through SQLAlchemy Core.

`Storage` is the one object the server calls; it keeps nothing itself, but hands each call
to the part that keeps its concern:

- schema.py: the tables, the schema's version (`SCHEMA`) and the migrations to it;
- database.py: the database's URL, its engine for SQLite or PostgreSQL, this process's
  name among those sharing it, and the news (`pg_notify`) told to the others;
- stored_tables.py: a table's row, created, started, ended and loaded (`StoredTable`);
- seats.py: a seat's secrets and claims, and what is kept of its person (`SeatKey`);
- appends.py: a table's actions, appended at the revision their writer saw (`Append`),
  taken back or rewritten;
- chat_lines.py: a table's chat lines and notices;
- listings.py: the lobby's list of open tables (`Listing`);
- leases.py: which server process is alive, keeps a table, and has whom at it (`LEASE`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from tavernkeep.engine.records import GameRecord
from tavernkeep.server.chat import ChatLine
from tavernkeep.server.storage.appends import Append, Appends, Refused
from tavernkeep.server.storage.database import DB_NOW, Database, normalise_url, safe_url
from tavernkeep.server.storage.leases import KEEPER_ALIVE, LEASE, Leases
from tavernkeep.server.storage.listings import Listing, Listings
from tavernkeep.server.storage.schema import (
    SCHEMA,
    UNFINISHED,
    actions,
    chat,
    meta,
    metadata,
    prepare_schema,
    presence,
    seat_keys,
    servers,
    tables,
)
from tavernkeep.server.storage.seats import SeatKey, Seats
from tavernkeep.server.storage.stored_tables import StoredTable, StoredTables

__all__ = [
    "DB_NOW",
    "KEEPER_ALIVE",
    "LEASE",
    "SCHEMA",
    "UNFINISHED",
    "Append",
    "Listing",
    "Refused",
    "SeatKey",
    "Storage",
    "StoredTable",
    "actions",
    "chat",
    "meta",
    "metadata",
    "normalise_url",
    "prepare_schema",
    "presence",
    "safe_url",
    "seat_keys",
    "servers",
    "tables",
]


class Storage:
    """Blocking storage calls; the app runs them on one writer thread, in order."""

    def __init__(self, url: str) -> None:
        self.database = Database(url)
        self.url = self.database.url
        self.given_url = self.database.given_url
        self.me = self.database.me
        """This process among the servers sharing the database (`servers.id`)."""
        self.engine: Engine = self.database.engine
        self.shared = self.database.shared
        """Whether other server processes may use the database too: PostgreSQL."""
        self.channel = self.database.channel
        """The channel the news of this database's tables goes out on (`Database.notify`)."""
        self.tables = StoredTables(self.database)
        self.seats = Seats(self.database)
        self.appends = Appends(self.database)
        self.listings = Listings(self.database)
        self.leases = Leases(self.database)

    # -- a table's row (stored_tables.py) -----------------------------------------------

    def create(
        self,
        table_id: str,
        record: GameRecord,
        keys: list[SeatKey],
        created_at: float,
        deal: str = "secret",
        settings: dict[str, Any] | None = None,
        host_hash: str | None = None,
        status: str = "playing",
    ) -> None:
        self.tables.create(table_id, record, keys, created_at, deal, settings, host_hash, status)

    def start(self, table_id: str, seats: list[str], notice: ChatLine) -> ChatLine | None:
        return self.tables.start(table_id, seats, notice)

    def end(self, table_id: str, status: str) -> bool:
        return self.tables.end(table_id, status)

    def idle(self, before: float, limit: int) -> list[str]:
        return self.tables.idle(before, limit)

    def set_rematch(self, table_id: str, rematch_id: str) -> str:
        return self.tables.set_rematch(table_id, rematch_id)

    def finish(self, table_id: str, result: dict[str, Any]) -> None:
        self.tables.finish(table_id, result)

    def load(self, table_id: str) -> StoredTable | None:
        return self.tables.load(table_id)

    def add_chat(self, table_id: str, line: ChatLine) -> ChatLine:
        return self.tables.add_chat(table_id, line)

    # -- its seats (seats.py) ------------------------------------------------------------

    def reissue(self, table_id: str, seat: int, invite_hash: str, notice: ChatLine) -> ChatLine:
        return self.seats.reissue(table_id, seat, invite_hash, notice)

    def claim(self, table_id: str, seat: int, invite_hash: str, credential_hash: str) -> bool:
        return self.seats.claim(table_id, seat, invite_hash, credential_hash)

    def claim_open(self, table_id: str, credential_hash: str) -> int | None:
        return self.seats.claim_open(table_id, credential_hash)

    def set_name(self, table_id: str, seat: int, name: str) -> None:
        self.seats.set_name(table_id, seat, name)

    def set_passing_on(self, table_id: str, seat: int, kind: str | None) -> None:
        self.seats.set_passing_on(table_id, seat, kind)

    def set_away(
        self, table_id: str, seat: int, away: str | None, clock: float | None = None
    ) -> None:
        self.seats.set_away(table_id, seat, away, clock)

    def seat_key(self, table_id: str, seat: int) -> SeatKey | None:
        return self.seats.seat_key(table_id, seat)

    # -- its actions (appends.py) --------------------------------------------------------

    def append_action(
        self, table_id: str, index: int, action: str, result: dict[str, Any] | None = None
    ) -> None:
        """Commit action number `index` (0-based), and with the last one the result, in
        the same transaction: no table is ever over in its actions and open in its row.
        The primary key refuses a second action with the same index, so two writers can
        never fork a table."""
        (refused,) = self.append_actions([Append(table_id, index, action, result)])
        if refused is not None:
            raise refused

    def append_actions(self, batch: Sequence[Append]) -> list[SQLAlchemyError | None]:
        return self.appends.append_actions(batch)

    def take_back(self, table_id: str, keep: int, notice: ChatLine, revision: int) -> ChatLine:
        return self.appends.take_back(table_id, keep, notice, revision)

    def rewrite_actions(self, table_id: str, texts: list[str]) -> None:
        self.appends.rewrite_actions(table_id, texts)

    # -- the lobby (listings.py) ---------------------------------------------------------

    def open_tables(self, limit: int) -> list[Listing]:
        return self.listings.open_tables(limit)

    def count_open(self) -> int:
        return self.listings.count_open()

    # -- several server processes on one PostgreSQL database (leases.py) -----------------

    def beat(self) -> None:
        self.leases.beat()

    def take_lease(self, table_id: str) -> bool:
        return self.leases.take_lease(table_id)

    def lapsed(self, limit: int) -> list[str]:
        return self.leases.lapsed(limit)

    def kept(self) -> list[str]:
        return self.leases.kept()

    def reap(self) -> list[str]:
        return self.leases.reap()

    def settle(self, present: dict[tuple[str, int], bool], released: list[str]) -> None:
        self.leases.settle(present, released)

    def leave(self) -> None:
        self.leases.leave()

    def close(self) -> None:
        self.database.close()
