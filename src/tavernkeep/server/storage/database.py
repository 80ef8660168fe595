"""The database itself, SQLite or PostgreSQL: its URL, its engine set up for its dialect
with the schema prepared, this process's name among the server processes sharing it,
and the news it tells them.

The same code serves SQLite (the default, a file beside the server) and PostgreSQL
(`postgresql://...`) through SQLAlchemy Core. Several server processes may share one
PostgreSQL database (server/peers.py). For them, every write that changes a table also
tells the others, with `pg_notify` in the same transaction (`Database.notify`), so the
news goes out exactly when the change is committed.
"""

from __future__ import annotations

import hashlib
import secrets
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    Float,
    cast,
    create_engine,
    event,
    extract,
    func,
    make_url,
    text,
)
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from tavernkeep.engine.errors import ConfigError
from tavernkeep.server.storage.schema import prepare_schema

DB_NOW = cast(extract("epoch", func.clock_timestamp()), Float)
"""Now by the database's clock: every process's leases are timed by one clock, whatever
the hosts' own say."""


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


class Database:
    """One database, as every part of storage uses it: its engine, and who this process
    is among those that share it."""

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

    def notify(self, conn: Connection, *table_ids: str) -> None:
        """Tell the other server processes that these tables changed, when (and only if)
        the transaction of `conn` commits: PostgreSQL holds a NOTIFY until then."""
        if not self.shared or not table_ids:
            return
        # One statement however many tables: a round trip a batch, not a table.
        conn.execute(
            text("SELECT pg_notify(:channel, news) FROM unnest(CAST(:news AS text[])) AS news"),
            {"channel": self.channel, "news": [f"{self.me} {t}" for t in dict.fromkeys(table_ids)]},
        )

    def close(self) -> None:
        self.engine.dispose()
