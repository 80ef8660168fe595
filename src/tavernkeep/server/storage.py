"""Tables stored as game records, one committed row per action.

A table is its record: (game, pack, config, seed, seats) in `tables`, and each action a
row of `actions`, committed before anyone is told of it. A server killed at any moment
restarts by replaying each open table's actions. The same code serves SQLite (the
default, a file beside the server) and PostgreSQL (`postgresql://...`) through
SQLAlchemy Core. Seat tokens are stored only as SHA-256 hashes.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    make_url,
    select,
    update,
)
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.records import GameRecord

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
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("action", String(200), nullable=False),
)


@dataclass
class StoredTable:
    id: str
    record: GameRecord
    token_hashes: list[str | None]
    status: str
    created_at: float


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


class Storage:
    """Blocking storage calls; the app runs them on one writer thread, in order."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        try:
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
            metadata.create_all(self.engine)
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

    def create(
        self,
        table_id: str,
        record: GameRecord,
        token_hashes: list[str | None],
        created_at: float,
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
                    token_hashes=json.dumps(token_hashes),
                    status="playing",
                    result=None,
                    created_at=created_at,
                    updated_at=created_at,
                )
            )

    def append_action(self, table_id: str, index: int, action: str) -> None:
        """Commit action number `index` (0-based). The primary key refuses a second action
        with the same index, so two writers can never fork a table."""
        with self.engine.begin() as conn:
            conn.execute(insert(actions).values(table_id=table_id, idx=index, action=action))

    def finish(self, table_id: str, result: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(tables)
                .where(tables.c.id == table_id)
                .values(status="finished", result=json.dumps(result), updated_at=time.time())
            )

    def load(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
            if row is None:
                return None
            texts = conn.execute(
                select(actions.c.action)
                .where(actions.c.table_id == table_id)
                .order_by(actions.c.idx)
            ).scalars()
            record = GameRecord(
                game=row.game,
                pack=row.pack,
                pack_digest=row.pack_digest,
                config=json.loads(row.config),
                seed=row.seed,
                seats=json.loads(row.seats),
                actions=list(texts),
                result=json.loads(row.result) if row.result else None,
            )
        return StoredTable(
            id=row.id,
            record=record,
            token_hashes=json.loads(row.token_hashes),
            status=row.status,
            created_at=row.created_at,
        )

    def open_table_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(tables.c.id)
                    .where(tables.c.status == "playing")
                    .order_by(tables.c.created_at.desc())
                ).scalars()
            )

    def close(self) -> None:
        self.engine.dispose()
