"""Tables stored as game records, one committed row per action.

A table is its record: (game, pack, config, seed, seats) in `tables`, and each action a
row of `actions`, committed before anyone is told of it. A server killed at any moment
brings a table back, when someone asks for it, by replaying its actions. The same code
serves SQLite (the default, a file beside the server) and PostgreSQL
(`postgresql://...`) through SQLAlchemy Core.

A person's seat has two secrets, both stored only as SHA-256 hashes in `seat_keys`: the
invite, good for one claim, and the credential the claim hands to one browser (see
PROTOCOL.md, "Seats and who may act"). A claim is one conditional UPDATE, so two browsers
racing for one invite (on one server or several) cannot both win it.

The schema's version is kept in `meta`; an older database is brought up to date when it
is opened (`SCHEMA`, `_migrate`), in one transaction, so nothing is half-migrated.

Several server processes may share one PostgreSQL database (server/peers.py). For them,
every write that changes a table also tells the others, with `pg_notify` in the same
transaction, so the news goes out exactly when the change is committed; a table's actions
are appended only at the revision the writer last saw (`Append.revision`), so two
processes can never both add the same move; and `servers`, `tables.keeper` and `presence`
say which process is alive, which one runs a table's bots and clocks, and who is at a
table on which process.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    cast,
    create_engine,
    delete,
    event,
    extract,
    func,
    insert,
    inspect,
    make_url,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.records import RECORD_VERSION, GameRecord
from tavernkeep.server.chat import SHOWN, ChatLine

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("pack", String(200), nullable=False),
    Column("pack_digest", String(64), nullable=False),
    Column("config", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", Text, nullable=False),
    Column("token_hashes", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("result", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    # Who may know the seed before the end: "secret" (nobody), "chosen" (the creator
    # typed it in) or "known" (a table opened before seeds were kept secret, when the
    # creator was shown it). Every seat is shown which (PROTOCOL.md).
    Column("deal", String(16), nullable=False, server_default="secret"),
    # The numbering its stored actions are written in (engine/records.py RECORD_VERSION):
    # a table from schema 1 is 1 until the server first replays it and rewrites them.
    Column("record_version", Integer, nullable=False, server_default="1"),
    # How the table is kept, as its creator chose (server/settings.py), as JSON: rules of
    # the room rather than of the game.
    Column("settings", Text, nullable=False, server_default="{}"),
    # The hash of the creator's host key, which hands out a seat's invite again (and
    # closes the table, starts its rematch); None for a table from before hosts.
    Column("host_hash", String(64), nullable=True),
    # The table its rematch was opened as, once one was: asked again, the same one.
    Column("rematch_id", String(32), nullable=True),
    # Bumped by every change to its actions (an append, a take-back): an append names the
    # revision it follows, and is refused if another writer got there first.
    Column("revision", Integer, nullable=False, server_default="0"),
    # The server process (servers.id) that runs the table's bots and clocks: its lease,
    # good while that process's heartbeat is (server/peers.py).
    Column("keeper", String(32), nullable=True),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("action", String(200), nullable=False),
    # The seat whose person had left when a bot standing in for them chose this action
    # (rooms.py), so the result and the record can say which decisions were not theirs.
    Column("stand_in", Integer, nullable=True),
)

seat_keys = Table(
    "seat_keys",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("invite_hash", String(64), nullable=True),
    Column("credential_hash", String(64), nullable=True),
    Column("device", Boolean, nullable=False, default=False),
    # What the seat's person calls themselves (server/names.py), shown to everyone.
    Column("name", String(100), nullable=True),
    # Seconds left on the seat's clock as its last decision ended (settings.Clock).
    Column("clock", Float, nullable=True),
    # Left open by the creator for anyone to take from the lobby (POST .../join).
    Column("open_seat", Boolean, nullable=False, server_default=text("false")),
    # Why a bot plays the seat until its person is back ("left", "out of time"); None
    # while its person plays it. Stored so every server process shows and plays the same.
    Column("away", String(16), nullable=True),
    # The kind of decision (Game.reaction_kinds) its person passes on until they have
    # another to make ("modifier"); None when they are asked as usual.
    Column("passing_on", String(40), nullable=True),
)

chat = Table(
    "chat",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(100), nullable=True),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    # "say" for what a person said; "notice" for what the table did ("Player 2's seat
    # was handed to a new invite"), which the page shows in its log.
    Column("kind", String(16), nullable=False, server_default="say"),
)

servers = Table(
    "servers",
    metadata,
    # One row a running server process: alive while `until` (the database's clock, in
    # seconds since the epoch) is ahead; its leases and presence go with it.
    Column("id", String(32), primary_key=True),
    Column("until", Float, nullable=False),
    Column("started", Float, nullable=False),
)

presence = Table(
    "presence",
    metadata,
    # A seat's person has a page open on `server` (one row however many pages): every
    # process shows them at the table, and the keeper waits for them, not for a leaver.
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("server", String(32), primary_key=True),
)

meta = Table(
    "meta",
    metadata,
    Column("key", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)

SCHEMA = 5
"""1: seat tokens in `tables.token_hashes`, each acting for its seat for ever.
2: invites claimed for credentials (`seat_keys`), and `tables.deal`.
3: a seat's person's name, clock and openness (`seat_keys.name`, `.clock`, `.open_seat`;
a table waiting for its open seats is "waiting"), the table's
settings (`tables.settings`), its host key (`tables.host_hash`), its rematch
(`tables.rematch_id`), its chat and notices (`chat`), and which actions a stand-in bot
chose (`actions.stand_in`); a table ends "closed" by its host or "archived" when left
idle.
4: several server processes on one database: a table's `revision` and `keeper`, a seat's
`away`, the `servers` alive and who is `presence`-ent on which.
5: the kind of decision a seat's person passes on until their turn (`seat_keys.passing_on`)."""


DB_NOW = cast(extract("epoch", func.clock_timestamp()), Float)
"""Now by the database's clock: every process's leases are timed by one clock, whatever
the hosts' own say."""

KEEPER_ALIVE = (
    select(servers.c.id).where(servers.c.id == tables.c.keeper, servers.c.until >= DB_NOW).exists()
)
"""Whether a table's keeper is a live server process (its heartbeat ahead of now)."""

UNFINISHED = ("playing", "waiting")
"""The statuses of a table not over: played, or waiting for people to take its open seats."""


@dataclass(frozen=True)
class Append:
    """One action to commit: action number `index` (0-based) of a table, and with its last
    action the game's result."""

    table_id: str
    index: int
    action: str
    result: dict[str, Any] | None = None
    stand_in: int | None = None
    """The seat, if a bot standing in for its person chose the action."""
    at: float | None = None
    """When it was taken (seconds since the epoch): the next decision's clock starts here."""
    clock: tuple[int, float] | None = None
    """A seat and the seconds left on its clock after this, its decision."""
    revision: int | None = None
    """The table's revision the writer saw: refused if the table has moved since. None
    (a tool's append) checks only that no action has this index yet."""


class Refused(SQLAlchemyError):
    """An append the table had moved on from: another writer took that turn first."""


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

    @property
    def claimed(self) -> bool:
        return self.credential_hash is not None


@dataclass
class Listing:
    """One open table, as the lobby lists it, without replaying it."""

    id: str
    game: str
    pack: str
    pack_digest: str
    seats: list[str]
    devices: list[bool]
    actions: int
    created_at: float
    status: str = "playing"
    open_seats: list[int] = field(default_factory=list)
    """Seats left open that nobody has taken yet: a "Join" in the lobby takes the first."""
    names: dict[int, str] = field(default_factory=dict)
    """The names the seated people gave, by seat: whoever looks for a table sees who is at it."""


@dataclass
class StoredTable:
    id: str
    record: GameRecord
    keys: list[SeatKey]
    status: str
    created_at: float
    deal: str = "secret"
    settings: dict[str, Any] = field(default_factory=dict)
    chat: list[ChatLine] = field(default_factory=list)
    """The latest lines of its chat (chat.SHOWN at most), oldest first."""
    chat_count: int = 0
    """Lines its chat holds in all."""
    host_hash: str | None = None
    rematch_id: str | None = None
    stood_in: dict[int, int] = field(default_factory=dict)
    """The actions (by index) a stand-in bot chose, each with the seat it chose for."""
    updated_at: float = 0.0
    """When its last action (or its creation) was committed."""
    revision: int = 0
    keeper: str | None = None
    """The server process whose lease runs its bots and clocks, if any holds one."""
    present: set[int] = field(default_factory=set)
    """Seats whose person has a page open on another live server process."""


def safe_url(url: str) -> str:
    """The URL with any password masked, for banners and error messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "the given URL" if "@" in url else url


def normalise_url(url: str) -> str:
    """Use the psycopg 3 driver for plain postgresql:// URLs (psycopg2 is not installed)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: readers never block the writer; synchronous=NORMAL keeps every committed
    # action through a killed process (only an OS crash could lose the last ones).
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


LEASE = 3.0
"""Seconds a server process's heartbeat keeps it alive, and its tables' leases with it."""


class Storage:
    """Blocking storage calls; the app runs them on one writer thread, in order."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        self.given_url = url
        self.me = secrets.token_hex(8)
        """This process among the servers sharing the database (`servers.id`)."""
        try:
            # No check of a connection before each use (pool_pre_ping): it would cost a
            # round trip a transaction. After the database restarts, the first statement
            # on an old connection fails, and SQLAlchemy then replaces the whole pool.
            self.engine: Engine = create_engine(self.url)
        except ImportError:
            raise ConfigError(
                f"cannot use database '{safe_url(url)}': no driver for it here "
                "(use sqlite:///file.db or postgresql://...)"
            ) from None
        except (ArgumentError, ValueError):
            raise ConfigError(
                f"cannot use database '{safe_url(url)}': not a database URL "
                "(use sqlite:///file.db or postgresql://user:password@host/db)"
            ) from None
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            prepare_schema(self.engine)
        except SQLAlchemyError as exc:
            # The driver's own first line names the problem ("unable to open database
            # file", "Connection refused"); a password is masked should it appear there.
            lines = str(getattr(exc, "orig", None) or exc).strip().splitlines()
            said = lines[0].strip() if lines else exc.__class__.__name__
            password = self.engine.url.password
            if password:
                said = said.replace(str(password), "***")
            database = self.engine.url.database
            if self.engine.dialect.name == "sqlite" and database and database != ":memory:":
                folder = Path(database).parent
                if not folder.is_dir():
                    said = f"no such folder {folder}"
                raise ConfigError(
                    f"cannot open database '{safe_url(url)}': the file {database} cannot be "
                    f"opened or created ({said})"
                ) from None
            raise ConfigError(f"cannot open database '{safe_url(url)}': {said}") from None
        self.shared = self.engine.dialect.name == "postgresql"
        """Whether other server processes may use the database too: PostgreSQL. SQLite is
        one process's (`tavernkeep serve --workers` refuses it)."""
        self.channel = ""
        if self.shared:
            with self.engine.connect() as conn:
                schema = str(conn.execute(text("SELECT current_schema()")).scalar_one())
            # One channel a schema: servers of two deployments in one database (or two
            # tests) do not hear each other.
            self.channel = "tavernkeep_" + hashlib.sha256(schema.encode()).hexdigest()[:16]

    def _notify(self, conn: Connection, *table_ids: str) -> None:
        """Tell the other server processes that these tables changed, when (and only if)
        the transaction of `conn` commits: PostgreSQL holds a NOTIFY until then."""
        if not self.shared or not table_ids:
            return
        # One statement however many tables: a round trip a batch, not a table.
        conn.execute(
            text("SELECT pg_notify(:channel, news) FROM unnest(CAST(:news AS text[])) AS news"),
            {"channel": self.channel, "news": [f"{self.me} {t}" for t in dict.fromkeys(table_ids)]},
        )

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
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables).values(
                    id=table_id,
                    game=record.game,
                    pack=record.pack,
                    pack_digest=record.pack_digest,
                    config=json.dumps(record.config),
                    seed=record.seed,
                    seats=json.dumps(record.seats),
                    # Schema 1's column, kept so an older server never misreads a new
                    # table; every seat's secrets are in seat_keys now.
                    token_hashes="[]",
                    status=status,
                    result=None,
                    created_at=created_at,
                    updated_at=created_at,
                    deal=deal,
                    record_version=record.version,
                    settings=json.dumps(settings or {}),
                    host_hash=host_hash,
                )
            )
            rows = [
                {
                    "table_id": table_id,
                    "seat": seat,
                    "invite_hash": key.invite_hash,
                    "credential_hash": key.credential_hash,
                    "device": key.device,
                    "name": key.name,
                    "clock": key.clock,
                    "open_seat": key.open_seat,
                }
                for seat, key in enumerate(keys)
            ]
            if rows:
                conn.execute(insert(seat_keys), rows)

    def reissue(self, table_id: str, seat: int, invite_hash: str, notice: ChatLine) -> ChatLine:
        """Give a seat a new invite: its credential acts no more, and the next browser to
        open the new invite claims it. Kept with the notice that says so, in one
        transaction, so no table's seat changes hands unsaid."""
        with self.engine.begin() as conn:
            conn.execute(
                update(seat_keys)
                .where(seat_keys.c.table_id == table_id, seat_keys.c.seat == seat)
                .values(invite_hash=invite_hash, credential_hash=None)
            )
            self._notify(conn, table_id)
            return self._add_chat(conn, table_id, notice)

    def claim(self, table_id: str, seat: int, invite_hash: str, credential_hash: str) -> bool:
        """Hand the seat a credential if `invite_hash` is its invite and nobody has claimed
        it yet. False when another claim got there first."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seat_keys)
                .where(
                    seat_keys.c.table_id == table_id,
                    seat_keys.c.seat == seat,
                    seat_keys.c.invite_hash == invite_hash,
                    seat_keys.c.credential_hash.is_(None),
                )
                .values(credential_hash=credential_hash)
            )
            self._notify(conn, table_id)
            return bool(done.rowcount == 1)

    def claim_open(self, table_id: str, credential_hash: str) -> int | None:
        """Give the first open seat nobody has taken to the credential: the seat, or None
        if every open seat is taken. One conditional update a try, so two people asking
        at once never get one seat."""
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
                    )
                    .values(credential_hash=credential_hash)
                )
                if done.rowcount == 1:
                    self._notify(conn, table_id)
                    return int(seat)
        return None

    def start(self, table_id: str, seats: list[str], notice: ChatLine) -> ChatLine | None:
        """Start a table that waited for its open seats, with `seats` (an open seat nobody
        took now a bot's), and the notice that says so (as kept). None if it was not
        waiting."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tables)
                .where(tables.c.id == table_id, tables.c.status == "waiting")
                .values(status="playing", seats=json.dumps(seats), updated_at=time.time())
            )
            if done.rowcount != 1:
                return None
            self._notify(conn, table_id)
            return self._add_chat(conn, table_id, notice)

    def take_back(self, table_id: str, keep: int, notice: ChatLine, revision: int) -> ChatLine:
        """Keep a table's first `keep` actions only, with the notice that says which was
        taken back, in one transaction: the record holds only the actions that stand.
        Refused if the table has moved on from `revision`."""
        with self.engine.begin() as conn:
            self._advance(conn, table_id, revision)
            conn.execute(
                delete(actions).where(actions.c.table_id == table_id, actions.c.idx >= keep)
            )
            self._notify(conn, table_id)
            return self._add_chat(conn, table_id, notice)

    def set_name(self, table_id: str, seat: int, name: str) -> None:
        """Name a seat's person: kept with the table, so its record and a restarted
        server still say who sat there."""
        with self.engine.begin() as conn:
            conn.execute(
                update(seat_keys)
                .where(seat_keys.c.table_id == table_id, seat_keys.c.seat == seat)
                .values(name=name)
            )
            self._notify(conn, table_id)

    def set_passing_on(self, table_id: str, seat: int, kind: str | None) -> None:
        """Say which kind of decision a seat's person passes on until their turn (None:
        they are asked again), kept so that every server process passes alike."""
        with self.engine.begin() as conn:
            conn.execute(
                update(seat_keys)
                .where(seat_keys.c.table_id == table_id, seat_keys.c.seat == seat)
                .values(passing_on=kind)
            )
            self._notify(conn, table_id)

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
            self._notify(conn, table_id)

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
        )

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
        """Commit every append in `batch` (each as `append_action` would) in one
        transaction, so that the tables of a busy server share one flush to disk; what
        each append met, None where it was committed. If the whole cannot commit (one
        table's second writer, say), each is tried in a transaction of its own, so a
        refused append refuses itself alone."""
        try:
            with self.engine.begin() as conn:
                self._append(conn, batch)
            return [None] * len(batch)
        except SQLAlchemyError as whole:
            if len(batch) == 1:
                return [whole]
        met: list[SQLAlchemyError | None] = []
        for entry in batch:
            try:
                with self.engine.begin() as conn:
                    self._append(conn, [entry])
                met.append(None)
            except SQLAlchemyError as refused:
                met.append(refused)
        return met

    def _append(self, conn: Connection, batch: Sequence[Append]) -> None:
        """The statements of `batch`, each kind for all its entries at once (an
        executemany, which psycopg sends as one pipeline): a busy server's batch of a
        hundred costs a handful of round trips to the database."""
        # A table's progress, which a table left idle is archived by (`idle`), and when its
        # next decision began, which its clocks count from: the latest for each table.
        progress: dict[str, float] = {}
        seen: dict[str, int] = {}
        for entry in batch:
            at = entry.at if entry.at is not None else time.time()
            progress[entry.table_id] = max(at, progress.get(entry.table_id, 0.0))
            if entry.revision is not None:
                seen[entry.table_id] = entry.revision
        checked = [{"tid": t, "at": at, "seen": seen[t]} for t, at in progress.items() if t in seen]
        if checked:
            # Each table moves on from the revision its writer saw, or the lot is refused:
            # the check that two server processes never both apply a version of a table.
            # First, so a second writer waits on the table's row, then is refused.
            done = conn.execute(
                update(tables)
                .where(tables.c.id == bindparam("tid"), tables.c.revision == bindparam("seen"))
                .values(updated_at=bindparam("at"), revision=tables.c.revision + 1),
                checked,
            )
            if done.rowcount != len(checked):
                raise Refused("the table has moved on since that choice")
        unchecked = [{"tid": t, "at": at} for t, at in progress.items() if t not in seen]
        if unchecked:
            conn.execute(
                update(tables)
                .where(tables.c.id == bindparam("tid"))
                .values(updated_at=bindparam("at")),
                unchecked,
            )
        conn.execute(
            insert(actions),
            [
                {
                    "table_id": entry.table_id,
                    "idx": entry.index,
                    "action": entry.action,
                    "stand_in": entry.stand_in,
                }
                for entry in batch
            ],
        )
        clocks = [
            {"tid": entry.table_id, "s": entry.clock[0], "left": entry.clock[1]}
            for entry in batch
            if entry.clock is not None
        ]
        if clocks:
            conn.execute(
                update(seat_keys)
                .where(seat_keys.c.table_id == bindparam("tid"), seat_keys.c.seat == bindparam("s"))
                .values(clock=bindparam("left")),
                clocks,
            )
        for entry in batch:
            if entry.result is not None:
                conn.execute(
                    update(tables)
                    .where(tables.c.id == entry.table_id)
                    .values(status="finished", result=json.dumps(entry.result))
                )
        self._notify(conn, *progress)

    @staticmethod
    def _advance(conn: Connection, table_id: str, seen: int) -> None:
        """Move a table on from the revision its writer saw, or refuse."""
        done = conn.execute(
            update(tables)
            .where(tables.c.id == table_id, tables.c.revision == seen)
            .values(revision=tables.c.revision + 1)
        )
        if done.rowcount != 1:
            raise Refused("the table has moved on since that choice")

    def end(self, table_id: str, status: str) -> bool:
        """End an unfinished table without a result: "closed" by its host, "archived" when
        left idle. False if it had already ended (finished, closed or archived)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tables)
                .where(tables.c.id == table_id, tables.c.status.in_(UNFINISHED))
                .values(status=status, updated_at=time.time())
            )
            self._notify(conn, table_id)
            return bool(done.rowcount == 1)

    def idle(self, before: float, limit: int) -> list[str]:
        """Unfinished tables with no progress since `before`, the longest idle first; on
        a shared database, not those where someone sits at another process, thinking."""
        query = select(tables.c.id).where(
            tables.c.status.in_(UNFINISHED), tables.c.updated_at < before
        )
        if self.shared:
            someone = (
                select(presence.c.seat)
                .join(servers, servers.c.id == presence.c.server)
                .where(presence.c.table_id == tables.c.id, servers.c.until >= DB_NOW)
                .exists()
            )
            query = query.where(~someone)
        with self.engine.connect() as conn:
            return list(conn.execute(query.order_by(tables.c.updated_at).limit(limit)).scalars())

    def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Mark `rematch_id` as the table's rematch unless it has one: the one it has."""
        with self.engine.begin() as conn:
            conn.execute(
                update(tables)
                .where(tables.c.id == table_id, tables.c.rematch_id.is_(None))
                .values(rematch_id=rematch_id)
            )
            self._notify(conn, table_id)
            return str(
                conn.execute(
                    select(tables.c.rematch_id).where(tables.c.id == table_id)
                ).scalar_one()
            )

    def finish(self, table_id: str, result: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(tables)
                .where(tables.c.id == table_id)
                .values(status="finished", result=json.dumps(result), updated_at=time.time())
            )
            self._notify(conn, table_id)

    def load(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
            if row is None:
                return None
            moves = conn.execute(
                select(actions.c.action, actions.c.stand_in)
                .where(actions.c.table_id == table_id)
                .order_by(actions.c.idx)
            ).all()
            texts = [move.action for move in moves]
            stood_in = {
                index: move.stand_in
                for index, move in enumerate(moves)
                if move.stand_in is not None
            }
            record = GameRecord(
                version=row.record_version,
                game=row.game,
                pack=row.pack,
                pack_digest=row.pack_digest,
                config=json.loads(row.config),
                seed=row.seed,
                seats=json.loads(row.seats),
                actions=list(texts),
                result=json.loads(row.result) if row.result else None,
            )
            keys = [SeatKey() for _ in record.seats]
            for key in conn.execute(select(seat_keys).where(seat_keys.c.table_id == table_id)):
                if 0 <= key.seat < len(keys):
                    keys[key.seat] = SeatKey(
                        key.invite_hash,
                        key.credential_hash,
                        bool(key.device),
                        key.name,
                        key.clock,
                        bool(key.open_seat),
                        key.away,
                        key.passing_on,
                    )
            said = conn.execute(
                select(chat)
                .where(chat.c.table_id == table_id)
                .order_by(chat.c.idx.desc())
                .limit(SHOWN)
            ).all()
            count = conn.execute(
                select(func.count()).select_from(chat).where(chat.c.table_id == table_id)
            ).scalar_one()
            here: set[int] = set()
            if self.shared:
                here = set(
                    conn.execute(
                        select(presence.c.seat)
                        .join(servers, servers.c.id == presence.c.server)
                        .where(
                            presence.c.table_id == table_id,
                            presence.c.server != self.me,
                            servers.c.until >= DB_NOW,
                        )
                    ).scalars()
                )
        return StoredTable(
            id=row.id,
            record=record,
            keys=keys,
            status=row.status,
            created_at=row.created_at,
            deal=row.deal,
            settings=json.loads(row.settings or "{}"),
            chat=[ChatLine(r.idx, r.seat, r.name, r.text, r.at, r.kind) for r in reversed(said)],
            chat_count=int(count),
            host_hash=row.host_hash,
            rematch_id=row.rematch_id,
            stood_in=stood_in,
            updated_at=row.updated_at,
            revision=row.revision,
            keeper=row.keeper,
            present=here,
        )

    def add_chat(self, table_id: str, line: ChatLine) -> ChatLine:
        """Keep a line of the table's chat: the line as kept, at the chat's next index."""
        with self.engine.begin() as conn:
            self._notify(conn, table_id)
            return self._add_chat(conn, table_id, line)

    @staticmethod
    def _add_chat(conn: Connection, table_id: str, line: ChatLine) -> ChatLine:
        """Add `line` at the chat's next index, whatever index it came with: the table's
        row is locked first (PostgreSQL), so two server processes never take one index."""
        conn.execute(select(tables.c.id).where(tables.c.id == table_id).with_for_update())
        index = conn.execute(
            select(func.coalesce(func.max(chat.c.idx) + 1, 0)).where(chat.c.table_id == table_id)
        ).scalar_one()
        line = replace(line, index=int(index))
        conn.execute(
            insert(chat).values(
                table_id=table_id,
                idx=line.index,
                seat=line.seat,
                name=line.name,
                text=line.text,
                at=line.at,
                kind=line.kind,
            )
        )
        return line

    def rewrite_actions(self, table_id: str, texts: list[str]) -> None:
        """Store a table's actions as this version writes them (`texts`, replayed from
        the table's older record), in one transaction, before any new action is added:
        a table never holds two numberings at once."""
        with self.engine.begin() as conn:
            stored = conn.execute(
                select(actions.c.idx, actions.c.action)
                .where(actions.c.table_id == table_id)
                .order_by(actions.c.idx)
            ).all()
            if len(stored) != len(texts):
                raise ValueError(f"table {table_id}: {len(texts)} texts for {len(stored)} actions")
            for row, text_now in zip(stored, texts, strict=True):
                if text_now != row.action:
                    conn.execute(
                        update(actions)
                        .where(actions.c.table_id == table_id, actions.c.idx == row.idx)
                        .values(action=text_now)
                    )
            conn.execute(
                update(tables).where(tables.c.id == table_id).values(record_version=RECORD_VERSION)
            )

    def open_tables(self, limit: int) -> list[Listing]:
        """The newest unfinished tables, with their action counts, read without
        replaying any of them: the lobby's list costs the same for ten tables or ten
        thousand."""
        moves = (
            select(actions.c.table_id, func.count().label("n"))
            .group_by(actions.c.table_id)
            .subquery()
        )
        query = (
            select(
                tables.c.id,
                tables.c.game,
                tables.c.pack,
                tables.c.pack_digest,
                tables.c.seats,
                tables.c.created_at,
                tables.c.status,
                func.coalesce(moves.c.n, 0).label("moves"),
            )
            .outerjoin(moves, moves.c.table_id == tables.c.id)
            .where(tables.c.status.in_(UNFINISHED))
            .order_by(tables.c.created_at.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = list(conn.execute(query))
            ids = [row.id for row in rows]
            devices: dict[str, set[int]] = {}
            free: dict[str, set[int]] = {}
            names: dict[str, dict[int, str]] = {}
            if ids:
                for key in conn.execute(
                    select(
                        seat_keys.c.table_id,
                        seat_keys.c.seat,
                        seat_keys.c.device,
                        seat_keys.c.open_seat,
                        seat_keys.c.credential_hash,
                        seat_keys.c.name,
                    ).where(seat_keys.c.table_id.in_(ids))
                ):
                    if key.name:
                        names.setdefault(key.table_id, {})[key.seat] = key.name
                    if key.device:
                        devices.setdefault(key.table_id, set()).add(key.seat)
                    if key.open_seat and key.credential_hash is None:
                        free.setdefault(key.table_id, set()).add(key.seat)
        out = []
        for row in rows:
            seats = json.loads(row.seats)
            mine = devices.get(row.id, set())
            out.append(
                Listing(
                    id=row.id,
                    game=row.game,
                    pack=row.pack,
                    pack_digest=row.pack_digest,
                    seats=seats,
                    devices=[seat in mine for seat in range(len(seats))],
                    actions=int(row.moves),
                    created_at=row.created_at,
                    status=row.status,
                    open_seats=sorted(free.get(row.id, set())),
                    names=names.get(row.id, {}),
                )
            )
        return out

    def count_open(self) -> int:
        with self.engine.connect() as conn:
            count = conn.execute(
                select(func.count()).select_from(tables).where(tables.c.status.in_(UNFINISHED))
            ).scalar_one()
        return int(count)

    # -- several server processes on one PostgreSQL database (server/peers.py) ---------

    def beat(self) -> None:
        """This process's heartbeat: alive, with its leases, for `LEASE` seconds more."""
        until = DB_NOW + LEASE
        with self.engine.begin() as conn:
            done = conn.execute(update(servers).where(servers.c.id == self.me).values(until=until))
            if done.rowcount == 0:
                conn.execute(insert(servers).values(id=self.me, until=until, started=time.time()))

    def take_lease(self, table_id: str) -> bool:
        """Become the process that runs the table's bots and clocks, unless a live one is:
        one conditional update, so two processes asking at once cannot both win it."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tables)
                .where(
                    tables.c.id == table_id,
                    tables.c.status.in_(UNFINISHED),
                    (tables.c.keeper.is_(None)) | (tables.c.keeper == self.me) | ~KEEPER_ALIVE,
                )
                .values(keeper=self.me)
            )
            return bool(done.rowcount == 1)

    def lapsed(self, limit: int) -> list[str]:
        """Tables in play whose keeper is dead (its heartbeat lapsed: kill -9, say), which
        a live process takes over so their bots and clocks go on there."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(tables.c.id)
                    .where(
                        tables.c.status == "playing",
                        tables.c.keeper.is_not(None),
                        tables.c.keeper != self.me,
                        ~KEEPER_ALIVE,
                    )
                    .limit(limit)
                ).scalars()
            )

    def kept(self) -> list[str]:
        """The tables in play whose lease this process holds."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(tables.c.id).where(
                        tables.c.status == "playing", tables.c.keeper == self.me
                    )
                ).scalars()
            )

    def reap(self) -> list[str]:
        """Forget the processes whose heartbeat lapsed, and who they had at tables: the
        tables whose seats they had (told the news, so the others see those people gone)."""
        with self.engine.begin() as conn:
            dead = list(
                conn.execute(select(servers.c.id).where(servers.c.until < DB_NOW)).scalars()
            )
            if not dead:
                return []
            touched = list(
                conn.execute(
                    select(presence.c.table_id).where(presence.c.server.in_(dead)).distinct()
                ).scalars()
            )
            conn.execute(delete(presence).where(presence.c.server.in_(dead)))
            # A dead server's row stays while a table names it keeper: `lapsed` finds them.
            kept = select(tables.c.keeper).where(tables.c.keeper.in_(dead)).distinct()
            conn.execute(delete(servers).where(servers.c.id.in_(dead), servers.c.id.not_in(kept)))
            self._notify(conn, *touched)
            return touched

    def settle(self, present: dict[tuple[str, int], bool], released: list[str]) -> None:
        """Say, in one transaction, which seats' people now have a page open on this
        process or no longer (`present`), and which tables' leases it lets go of."""
        touched = [table_id for table_id, _ in present]
        with self.engine.begin() as conn:
            gone = [{"t": t, "s": seat} for (t, seat), here in present.items() if not here]
            if gone:
                conn.execute(
                    delete(presence).where(
                        presence.c.table_id == bindparam("t"),
                        presence.c.seat == bindparam("s"),
                        presence.c.server == self.me,
                    ),
                    gone,
                )
            come = [
                {"table_id": t, "seat": seat, "server": self.me}
                for (t, seat), here in present.items()
                if here
            ]
            if come:
                conn.execute(pg_insert(presence).on_conflict_do_nothing(), come)
            if released:
                done = conn.execute(
                    update(tables)
                    .where(tables.c.id.in_(released), tables.c.keeper == self.me)
                    .values(keeper=None)
                    .returning(tables.c.id)
                )
                touched += list(done.scalars())
            self._notify(conn, *touched)

    def leave(self) -> None:
        """This process stops: its leases and presence go now, not when they lapse."""
        with self.engine.begin() as conn:
            held = list(
                conn.execute(select(tables.c.id).where(tables.c.keeper == self.me)).scalars()
            )
            seen = list(
                conn.execute(
                    select(presence.c.table_id).where(presence.c.server == self.me)
                ).scalars()
            )
            conn.execute(update(tables).where(tables.c.keeper == self.me).values(keeper=None))
            conn.execute(delete(presence).where(presence.c.server == self.me))
            conn.execute(delete(servers).where(servers.c.id == self.me))
            self._notify(conn, *held, *seen)

    def close(self) -> None:
        self.engine.dispose()


def prepare_schema(engine: Engine) -> None:
    """Create what is missing and bring an older database up to `SCHEMA`, in one
    transaction: a server stopped half-way leaves the database as it found it. On
    PostgreSQL under a lock for the transaction, so that several processes starting at
    once on a new database (`serve --workers`) create it once, one after another."""
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('tavernkeep schema'))"))
        had_tables = inspect(conn).has_table("tables")
        metadata.create_all(conn)
        row = conn.execute(select(meta.c.value).where(meta.c.key == "schema")).first()
        version = int(row.value) if row is not None else (1 if had_tables else SCHEMA)
        if version > SCHEMA:
            raise ConfigError(
                f"the database was written by a newer tavernkeep (schema {version}; this "
                f"one knows up to {SCHEMA}): upgrade tavernkeep to use it"
            )
        if version < 2:
            _migrate_to_2(conn)
        if version < 3:
            _migrate_to_3(conn)
        if version < 4:
            _migrate_to_4(conn)
        if version < 5:
            _migrate_to_5(conn)
        if row is None:
            conn.execute(insert(meta).values(key="schema", value=str(SCHEMA)))
        elif version != SCHEMA:
            conn.execute(update(meta).where(meta.c.key == "schema").values(value=str(SCHEMA)))


def _migrate_to_5(conn: Connection) -> None:
    """Schema 4's people were asked every decision: nobody passes on any."""
    if "passing_on" not in {c["name"] for c in inspect(conn).get_columns("seat_keys")}:
        conn.execute(text("ALTER TABLE seat_keys ADD COLUMN passing_on VARCHAR(40)"))


def _migrate_to_4(conn: Connection) -> None:
    """Schema 3 was one process's: every table starts at revision 0 with no keeper, every
    seat played by its person (the servers and presence tables are new)."""
    columns = {c["name"] for c in inspect(conn).get_columns("tables")}
    if "revision" not in columns:
        conn.execute(text("ALTER TABLE tables ADD COLUMN revision INTEGER NOT NULL DEFAULT 0"))
    if "keeper" not in columns:
        conn.execute(text("ALTER TABLE tables ADD COLUMN keeper VARCHAR(32)"))
    if "away" not in {c["name"] for c in inspect(conn).get_columns("seat_keys")}:
        conn.execute(text("ALTER TABLE seat_keys ADD COLUMN away VARCHAR(16)"))


def _migrate_to_3(conn: Connection) -> None:
    """Schema 2 had no names, settings or chat: every seat starts without a name, every
    table with the default settings (the chat table is new, made by `create_all`)."""
    keyed = {c["name"] for c in inspect(conn).get_columns("seat_keys")}
    if "name" not in keyed:
        conn.execute(text("ALTER TABLE seat_keys ADD COLUMN name VARCHAR(100)"))
    if "clock" not in keyed:
        conn.execute(text("ALTER TABLE seat_keys ADD COLUMN clock FLOAT"))
    if "open_seat" not in keyed:
        conn.execute(
            text("ALTER TABLE seat_keys ADD COLUMN open_seat BOOLEAN NOT NULL DEFAULT FALSE")
        )
    columns = {c["name"] for c in inspect(conn).get_columns("tables")}
    if "settings" not in columns:
        conn.execute(text("ALTER TABLE tables ADD COLUMN settings TEXT NOT NULL DEFAULT '{}'"))
    if "host_hash" not in columns:
        # Tables from before hosts have none: nobody can hand out their seats again.
        conn.execute(text("ALTER TABLE tables ADD COLUMN host_hash VARCHAR(64)"))
    if "rematch_id" not in columns:
        conn.execute(text("ALTER TABLE tables ADD COLUMN rematch_id VARCHAR(32)"))
    if "stand_in" not in {c["name"] for c in inspect(conn).get_columns("actions")}:
        conn.execute(text("ALTER TABLE actions ADD COLUMN stand_in INTEGER"))


def _migrate_to_2(conn: Connection) -> None:
    """Schema 1 kept one token a person seat, which acted for it for ever, and handed
    the seed to whoever opened the table. Each old token becomes an unclaimed invite,
    so the first browser to open its link claims the seat as a new invite would; the
    deal of an unfinished table is marked known to its creator, because it was.

    Schema 1's actions are version-1 texts (engine/records.py): its tables keep
    `record_version` 1, and the server rewrites a table's texts the first time it
    replays it (`rewrite_actions`), since only a replay can say what an old number named."""
    columns = {c["name"] for c in inspect(conn).get_columns("tables")}
    if "deal" not in columns:
        conn.execute(
            text("ALTER TABLE tables ADD COLUMN deal VARCHAR(16) NOT NULL DEFAULT 'secret'")
        )
    if "record_version" not in columns:
        conn.execute(
            text("ALTER TABLE tables ADD COLUMN record_version INTEGER NOT NULL DEFAULT 1")
        )
    conn.execute(update(tables).where(tables.c.status == "playing").values(deal="known"))
    rows = []
    for row in conn.execute(select(tables.c.id, tables.c.token_hashes)):
        hashes = json.loads(row.token_hashes or "[]")
        for seat, invite in enumerate(hashes if isinstance(hashes, list) else []):
            if isinstance(invite, str):
                rows.append(
                    {
                        "table_id": row.id,
                        "seat": seat,
                        "invite_hash": invite,
                        "credential_hash": None,
                        "device": False,
                    }
                )
    if rows:
        conn.execute(insert(seat_keys), rows)
