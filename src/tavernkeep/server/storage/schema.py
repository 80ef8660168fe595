"""The database's schema: its tables, their version (`SCHEMA`), and the migrations that
bring an older database up to date.

The schema's version is kept in `meta`; an older database is brought up to date when it
is opened (`SCHEMA`, `prepare_schema`), in one transaction, so nothing is half-migrated.
"""

from __future__ import annotations

import json
import secrets

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    insert,
    inspect,
    select,
    text,
    update,
)

from tavernkeep.engine.errors import ConfigError

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
    # A designer's pack, opened at the table from the workbench: its data as JSON (what
    # its TOML file holds), so the table replays however the workbench's copy changes or
    # goes; `pack` is then its name, `pack_base` the built-in pack it was changed from.
    # Null for a built-in pack, which `pack` names.
    Column("pack_data", Text, nullable=True),
    Column("pack_base", String(64), nullable=True),
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
    # The account (accounts.id) the seat belongs to: claimed, taken or opened by a person
    # signed in with a passkey, who may then play it from any device they sign in on
    # (server/accounts.py). No foreign key: a deleted account's seats stay in their games.
    Column("account_id", String(32), nullable=True, index=True),
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

accounts = Table(
    "accounts",
    metadata,
    # A person signed up with a passkey (server/accounts.py). The id is random and is the
    # passkeys' user handle; no page is ever shown it, not even its owner's.
    Column("id", String(32), primary_key=True),
    Column("name", String(100), nullable=False),
    Column("created_at", Float, nullable=False),
    # The account's public page's address (/people/{handle}): random, made with the
    # account, and not its id, which no page shows. Null only between the migration to
    # schema 7 adding the column and its filling, in one transaction.
    Column("handle", String(32), nullable=True, unique=True, index=True),
)

passkeys = Table(
    "passkeys",
    metadata,
    # A WebAuthn credential: its id and COSE public key (base64url), nothing secret. An id
    # is at most 1,023 bytes (WebAuthn), 1,364 characters in base64url.
    Column("id", String(1400), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=False, index=True),
    Column("public_key", Text, nullable=False),
    # The authenticator's count of its signatures: one that goes back is a cloned key.
    Column("sign_count", BigInteger, nullable=False),
    # What the person is shown to tell their passkeys apart ("Chrome on Android").
    Column("label", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("used_at", Float, nullable=True),
)

sessions = Table(
    "sessions",
    metadata,
    # A browser signed in: the SHA-256 of its cookie's random id (never the id itself),
    # good until `expires_at`.
    Column("id_hash", String(64), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

challenges = Table(
    "challenges",
    metadata,
    # A passkey ceremony under way, by the SHA-256 of its challenge: used once, then gone;
    # gone anyway after `expires_at`. `kind` is "register", "add" or "sign_in"; a
    # registration's account does not exist yet, so `account_id` has no foreign key.
    Column("challenge_hash", String(64), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("account_id", String(32), nullable=True),
    Column("name", String(100), nullable=True),
    Column("expires_at", Float, nullable=False, index=True),
)

seat_takes = Table(
    "seat_takes",
    metadata,
    # A credential for an account's seat, handed to one of its signed-in browsers (POST
    # .../take): it acts for the seat while that session lasts and the seat is the
    # account's. Beside the seat's own credential, which stays its claiming browser's.
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("session_hash", String(64), ForeignKey("sessions.id_hash"), primary_key=True),
    Column("credential_hash", String(64), nullable=False),
)

ratings = Table(
    "ratings",
    metadata,
    # A rating of one game (server/skill.py): an account's (`subject` its id, never
    # shown), a bot's (its seat spec) or, in a co-operative or solo game, the game's own
    # ("the game"), which the team plays against. openskill's mu and sigma, and how many
    # rated games they come from.
    Column("game", String(64), primary_key=True),
    Column("subject", String(200), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)

rating_history = Table(
    "rating_history",
    metadata,
    # One row a subject a rated game: where it placed and its rating after, for a
    # person's page and its chart. `table_id` is the rated table's, or a made-up one of
    # a game `tavernkeep ratings seed` played (no table was stored for it).
    Column("table_id", String(32), primary_key=True),
    Column("subject", String(200), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("at", Float, nullable=False),
    Column("place", Integer, nullable=False),
    Column("of", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Index("ix_rating_history_subject", "subject", "game", "at"),
)

workbench_packs = Table(
    "workbench_packs",
    metadata,
    # A pack a designer saved in the workbench (server/workbench.py), as the TOML the
    # command line reads (`--pack FILE`), and the built-in pack it started from.
    Column("game", String(64), primary_key=True),
    Column("name", String(60), primary_key=True),
    Column("base", String(64), nullable=False),
    Column("toml", Text, nullable=False),
    Column("digest", String(64), nullable=False),
    Column("updated_at", Float, nullable=False),
)

workbench_runs = Table(
    "workbench_runs",
    metadata,
    # A comparison asked for in the workbench: the packs as played (their TOML, in
    # `plan` with the seats, games and seed), its state ("queued", "running", "done",
    # "failed", "cancelled"), its games played of `total`, its result so far (JSON), and
    # the server process (servers.id) that runs it.
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("base", String(64), nullable=False),
    Column("changed", String(64), nullable=False),
    Column("plan", Text, nullable=False),
    Column("state", String(16), nullable=False, index=True),
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("result", Text, nullable=True),
    Column("error", Text, nullable=True),
    Column("server", String(32), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    # The two packs' digests (the changed pack's, its base's), so a comparison in the
    # history says which version of a pack it played; and its headline finding, the one
    # line the history lists it by. Null for a comparison from before schema 9.
    Column("digest", String(64), nullable=True),
    Column("base_digest", String(64), nullable=True),
    Column("headline", Text, nullable=True),
)

meta = Table(
    "meta",
    metadata,
    Column("key", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)

SCHEMA = 9
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
5: the kind of decision a seat's person passes on until their turn (`seat_keys.passing_on`).
6: optional accounts signed in with passkeys (`accounts`, `passkeys`, `sessions`,
`challenges`), the account a seat belongs to (`seat_keys.account_id`) and the credentials
its other devices took for it (`seat_takes`).
7: ratings (`ratings`, `rating_history`) and each account's public handle
(`accounts.handle`).
8: the designer's workbench: its saved packs (`workbench_packs`) and its comparisons
(`workbench_runs`).
9: a table opened with a designer's pack holds it (`tables.pack_data`, `.pack_base`); a
comparison keeps its packs' digests and its headline (`workbench_runs.digest`,
`.base_digest`, `.headline`)."""

UNFINISHED = ("playing", "waiting")
"""The statuses of a table not over: played, or waiting for people to take its open seats."""


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
        if version < 6:
            _migrate_to_6(conn)
        if version < 7:
            _migrate_to_7(conn)
        if version < 8:
            _migrate_to_8(conn)
        if version < 9:
            _migrate_to_9(conn)
        if row is None:
            conn.execute(insert(meta).values(key="schema", value=str(SCHEMA)))
        elif version != SCHEMA:
            conn.execute(update(meta).where(meta.c.key == "schema").values(value=str(SCHEMA)))


def _migrate_to_9(conn: Connection) -> None:
    """Schema 8's tables were all played with built-in packs (no pack of their own), and
    its comparisons kept no digests or headline (left null: the history lists them
    without)."""
    columns = {c["name"] for c in inspect(conn).get_columns("tables")}
    if "pack_data" not in columns:
        conn.execute(text("ALTER TABLE tables ADD COLUMN pack_data TEXT"))
    if "pack_base" not in columns:
        conn.execute(text("ALTER TABLE tables ADD COLUMN pack_base VARCHAR(64)"))
    runs = {c["name"] for c in inspect(conn).get_columns("workbench_runs")}
    for name, kind in (
        ("digest", "VARCHAR(64)"),
        ("base_digest", "VARCHAR(64)"),
        ("headline", "TEXT"),
    ):
        if name not in runs:
            conn.execute(text(f"ALTER TABLE workbench_runs ADD COLUMN {name} {kind}"))


def _migrate_to_8(conn: Connection) -> None:
    """Schema 7 had no workbench: its tables are new, made with their indexes by
    `create_all`, and nothing older changes."""


def _migrate_to_7(conn: Connection) -> None:
    """Schema 6 had no ratings (their tables are new, made by `create_all`) and no public
    handles: each account is given a random one."""
    if "handle" not in {c["name"] for c in inspect(conn).get_columns("accounts")}:
        conn.execute(text("ALTER TABLE accounts ADD COLUMN handle VARCHAR(32)"))
    for row in conn.execute(select(accounts.c.id).where(accounts.c.handle.is_(None))).all():
        conn.execute(
            update(accounts).where(accounts.c.id == row.id).values(handle=new_handle())
        )
    for index in accounts.indexes:
        index.create(conn, checkfirst=True)


def new_handle() -> str:
    """A public handle for an account's page: random, unguessable, and not its id."""
    return secrets.token_urlsafe(9)


def _migrate_to_6(conn: Connection) -> None:
    """Schema 5 had no accounts: every seat belongs to its browser alone (the account
    tables are new, made by `create_all`)."""
    if "account_id" not in {c["name"] for c in inspect(conn).get_columns("seat_keys")}:
        conn.execute(text("ALTER TABLE seat_keys ADD COLUMN account_id VARCHAR(32)"))
    # `create_all` makes a new table's indexes, not a new column's on an old table.
    for index in seat_keys.indexes:
        index.create(conn, checkfirst=True)


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
