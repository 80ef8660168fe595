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
- listings.py: the lobby's list of open tables (`Listing`) and a person's tables
  (`Summary`);
- leases.py: which server process is alive, keeps a table, and has whom at it (`LEASE`);
- accounts.py: people signed in with a passkey: their passkeys, sessions, ceremonies
  under way and seats (`Passkey`, `OwnedSeat`);
- ratings.py: ratings of people and bots, a rated table rated as its result is committed,
  the leaderboards and people's public pages (`Standing`, `Person`);
- workbench.py: the workbench's saved packs and comparisons (`WorkbenchStore`, asked
  through `Storage.workbench`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from tavernkeep.engine.records import GameRecord
from tavernkeep.server.chat import ChatLine
from tavernkeep.server.storage.accounts import (
    Account,
    Accounts,
    Challenge,
    OwnedSeat,
    Passkey,
    Session,
)
from tavernkeep.server.storage.appends import Append, Appends, Refused
from tavernkeep.server.storage.database import DB_NOW, Database, normalise_url, safe_url
from tavernkeep.server.storage.leases import KEEPER_ALIVE, LEASE, Leases
from tavernkeep.server.storage.listings import Listing, Listings, Summary
from tavernkeep.server.storage.ratings import Person, RatedGame, Ratings, Standing
from tavernkeep.server.storage.schema import (
    SCHEMA,
    UNFINISHED,
    accounts,
    actions,
    challenges,
    chat,
    meta,
    metadata,
    passkeys,
    prepare_schema,
    presence,
    seat_keys,
    seat_takes,
    servers,
    sessions,
    tables,
)
from tavernkeep.server.storage.seats import SeatKey, Seats
from tavernkeep.server.storage.stored_tables import StoredTable, StoredTables
from tavernkeep.server.storage.workbench import WorkbenchStore

__all__ = [
    "DB_NOW",
    "KEEPER_ALIVE",
    "LEASE",
    "SCHEMA",
    "UNFINISHED",
    "Account",
    "Append",
    "Challenge",
    "Listing",
    "OwnedSeat",
    "Passkey",
    "Person",
    "RatedGame",
    "Refused",
    "SeatKey",
    "Session",
    "Standing",
    "Storage",
    "StoredTable",
    "accounts",
    "actions",
    "challenges",
    "chat",
    "meta",
    "metadata",
    "normalise_url",
    "passkeys",
    "prepare_schema",
    "presence",
    "safe_url",
    "seat_keys",
    "seat_takes",
    "servers",
    "sessions",
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
        self.ratings = Ratings(self.database)
        # A rated table is rated in the transaction that commits its result.
        self.appends = Appends(self.database, self.ratings.rate_finished)
        self.listings = Listings(self.database)
        self.leases = Leases(self.database)
        self.accounts = Accounts(self.database)
        self.workbench = WorkbenchStore(self.database)
        """The workbench's packs and comparisons (server/workbench.py)."""

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

    def claim(
        self,
        table_id: str,
        seat: int,
        invite_hash: str,
        credential_hash: str,
        account: str | None = None,
        sole: bool = False,
    ) -> bool:
        return self.seats.claim(table_id, seat, invite_hash, credential_hash, account, sole)

    def claim_open(
        self, table_id: str, credential_hash: str, account: str | None = None, sole: bool = False
    ) -> int | None:
        return self.seats.claim_open(table_id, credential_hash, account, sole)

    def own_seats(self, table_id: str, seats: list[int], account: str) -> None:
        self.seats.own(table_id, seats, account)

    def take_seat(
        self, table_id: str, seat: int, account: str, session_hash: str, credential_hash: str
    ) -> bool:
        return self.seats.take(table_id, seat, account, session_hash, credential_hash)

    def seat_taken(self, table_id: str, seat: int, credential_hash: str, now: float) -> bool:
        return self.seats.taken(table_id, seat, credential_hash, now)

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

    def summaries(self, table_ids: Sequence[str], records: bool = False) -> dict[str, Summary]:
        return self.listings.summaries(table_ids, records)

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

    # -- accounts signed in with passkeys (accounts.py) ----------------------------------

    def add_challenge(
        self,
        challenge_hash: str,
        kind: str,
        account_id: str | None,
        name: str | None,
        now: float,
        expires_at: float,
    ) -> None:
        self.accounts.add_challenge(challenge_hash, kind, account_id, name, now, expires_at)

    def take_challenge(self, challenge_hash: str, kind: str, now: float) -> Challenge | None:
        return self.accounts.take_challenge(challenge_hash, kind, now)

    def create_account(
        self, account: Account, passkey: Passkey, session_hash: str, expires_at: float
    ) -> None:
        self.accounts.create_account(account, passkey, session_hash, expires_at)

    def account(self, account_id: str) -> Account | None:
        return self.accounts.account(account_id)

    def rename_account(self, account_id: str, name: str) -> None:
        self.accounts.rename(account_id, name)

    def delete_account(self, account_id: str) -> None:
        self.accounts.delete_account(account_id)

    def add_passkey(self, passkey: Passkey, most: int) -> bool:
        return self.accounts.add_passkey(passkey, most)

    def passkey(self, credential_id: str) -> Passkey | None:
        return self.accounts.passkey(credential_id)

    def passkeys(self, account_id: str) -> list[Passkey]:
        return self.accounts.passkeys(account_id)

    def used_passkey(self, credential_id: str, sign_count: int, now: float) -> None:
        self.accounts.used_passkey(credential_id, sign_count, now)

    def remove_passkey(self, account_id: str, credential_id: str) -> str:
        return self.accounts.remove_passkey(account_id, credential_id)

    def start_session(
        self, account_id: str, session_hash: str, now: float, expires_at: float
    ) -> None:
        self.accounts.start_session(account_id, session_hash, now, expires_at)

    def session_account(self, session_hash: str, now: float) -> str | None:
        return self.accounts.session_account(session_hash, now)

    def sessions(self, account_id: str) -> list[Session]:
        return self.accounts.sessions(account_id)

    def end_session(self, session_hash: str) -> None:
        self.accounts.end_session(session_hash)

    def owned_seats(self, account_id: str, limit: int) -> list[OwnedSeat]:
        return self.accounts.owned_seats(account_id, limit)

    def session_seats(
        self, session_hash: str, now: float, limit: int
    ) -> tuple[str | None, list[tuple[str, int]]]:
        return self.accounts.session_seats(session_hash, now, limit)

    # -- ratings (ratings.py) -------------------------------------------------------------

    def leaderboard(self, game: str, limit: int) -> list[Standing]:
        return self.ratings.leaderboard(game, limit)

    def person(self, handle: str, games: int) -> Person | None:
        return self.ratings.person(handle, games)

    def account_ratings(self, account_id: str) -> tuple[list[Standing], list[RatedGame]]:
        return self.ratings.of_account(account_id)

    def close(self) -> None:
        self.database.close()
