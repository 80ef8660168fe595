"""A database written by the server before seats were claimed still serves its tables:
old tokens become invites, old action texts are renumbered, and nothing is lost."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.pool import NullPool

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.match import Match
from tavernkeep.engine.records import replay, shift_arguments
from tavernkeep.games import get_game
from tavernkeep.server.app import create_app
from tavernkeep.server.storage import SCHEMA, Account, Passkey, Storage, normalise_url

# Schema 1, as the server before this one created it.
SCHEMA_1 = [
    """CREATE TABLE tables (
        id VARCHAR(32) PRIMARY KEY, game VARCHAR(64) NOT NULL, pack VARCHAR(200) NOT NULL,
        pack_digest VARCHAR(64) NOT NULL, config TEXT NOT NULL, seed BIGINT NOT NULL,
        seats TEXT NOT NULL, token_hashes TEXT NOT NULL, status VARCHAR(16) NOT NULL,
        result TEXT, created_at FLOAT NOT NULL, updated_at FLOAT NOT NULL)""",
    """CREATE TABLE actions (
        table_id VARCHAR(32) NOT NULL REFERENCES tables (id), idx INTEGER NOT NULL,
        action VARCHAR(200) NOT NULL, PRIMARY KEY (table_id, idx))""",
]
OLD_TOKEN = "old-token-of-player-one-aaaa"


def old_database(url: str) -> tuple[str, list[str]]:
    """A schema-1 database holding one Hack & Slash table, 8 actions in, in version-1
    texts (quest slots counted from 0). Returns its id and its actions as now written."""
    game = get_game("hack-and-slash")
    seats = ["human", "bot:random", "bot:random"]
    match = Match.start(game, [RandomBot()] * 3, seed=12, options={"round_limit": 3}, seats=seats)
    while match.actions < 8:
        match.step()
    now = list(match.record.actions)
    assert any(text.startswith("quest:") for text in now), "pick a seed with a quest taken"
    back = shift_arguments({"quest": (0,)}, by=-1)
    engine = sa.create_engine(normalise_url(url), poolclass=NullPool)
    with engine.begin() as conn:
        for statement in SCHEMA_1:
            conn.execute(sa.text(statement))
        conn.execute(
            sa.text(
                "INSERT INTO tables VALUES (:id, :game, :pack, :digest, :config, :seed, "
                ":seats, :hashes, 'playing', NULL, 1.0, 1.0)"
            ),
            {
                "id": "oldtable",
                "game": game.name,
                "pack": match.pack.name,
                "digest": match.pack.digest,
                "config": json.dumps(match.record.config),
                "seed": 12,
                "seats": json.dumps(seats),
                "hashes": json.dumps([hashlib.sha256(OLD_TOKEN.encode()).hexdigest(), None, None]),
            },
        )
        for idx, text in enumerate(now):
            conn.execute(
                sa.text("INSERT INTO actions VALUES ('oldtable', :idx, :action)"),
                {"idx": idx, "action": back(text)},
            )
    engine.dispose()
    return "oldtable", now


def stored(url: str, table_id: str) -> Any:
    storage = Storage(url)
    try:
        return storage.load(table_id)
    finally:
        storage.close()


def test_an_old_database_is_brought_up_to_date_and_plays_on(db_url: str, tk: Any) -> None:
    table_id, actions = old_database(db_url)
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        # Until it is replayed the table keeps its texts, marked as version 1; replayed
        # so, it is the same game.
        before = stored(db_url, table_id)
        assert before.record.version == 1 and before.record.actions != actions
        game = get_game("hack-and-slash")
        assert game.actor(replay(game, before.record)) is not None
        summary = client.get(f"/api/tables/{table_id}").json()
        assert summary["actions"] == 8 and summary["deal"] == "known"
        # Opened once, its texts are rewritten as this version writes them.
        with tk.join(client, table_id) as watcher:
            assert watcher.state["version"] >= 8
        after = stored(db_url, table_id)
        assert after.record.version == 2
        assert after.record.actions[:8] == actions
        assert [t["id"] for t in client.get("/api/tables").json()] == [table_id]
        # The old link's token is an invite now: claimed once, by the first browser.
        token = tk.claim(client, table_id, 0, OLD_TOKEN)
        refused = client.post(
            f"/api/tables/{table_id}/claim", json={"seat": 0, "invite": OLD_TOKEN}
        )
        assert refused.status_code == 409
        with tk.join(client, table_id, 0, token) as zero:
            assert zero.state["version"] >= 8
            tk.play_to_end({0: zero})
    engine = sa.create_engine(normalise_url(db_url), poolclass=NullPool)
    with engine.connect() as conn:
        version = conn.execute(sa.text("SELECT value FROM meta WHERE key = 'schema'")).scalar()
    engine.dispose()
    assert version == str(SCHEMA)


def test_opening_it_twice_changes_nothing_more(db_url: str) -> None:
    table_id, _ = old_database(db_url)
    first = stored(db_url, table_id)
    again = stored(db_url, table_id)
    assert again.record == first.record
    assert again.keys[0].invite_hash == hashlib.sha256(OLD_TOKEN.encode()).hexdigest()


def test_a_schema_2_database_gains_names_and_keeps_its_seats(db_url: str, tk: Any) -> None:
    """Schema 2 (claimed seats, no names): its seats stay claimed, and a person names theirs."""
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=["human", "bot:random", "bot:random"])
        tid, token = data["id"], tk.tokens(data)[0]
    engine = sa.create_engine(normalise_url(db_url), poolclass=NullPool)
    with engine.begin() as conn:
        conn.execute(sa.text("ALTER TABLE seat_keys DROP COLUMN name"))
        conn.execute(sa.text("UPDATE meta SET value = '2' WHERE key = 'schema'"))
    with (
        TestClient(create_app(db_url, bot_delay=0.0)) as client,
        tk.connect(client, tid, 0) as zero,
    ):
        zero.send({"type": "join", "seat": 0, "token": token, "name": "Alice"})
        assert zero.expect("welcome")["table"]["seats"][0]["name"] == "Alice"
    with engine.connect() as conn:
        version = conn.execute(sa.text("SELECT value FROM meta WHERE key = 'schema'")).scalar()
    engine.dispose()
    assert version == str(SCHEMA) == "9"
    assert stored(db_url, tid).keys[0].name == "Alice"


def test_a_schema_5_database_gains_accounts_and_keeps_its_seats(db_url: str, tk: Any) -> None:
    """Schema 5 (no accounts): its seats stay their browsers', and may be an account's."""
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=["human", "bot:random", "bot:random"])
        tid, token = data["id"], tk.tokens(data)[0]
    engine = sa.create_engine(normalise_url(db_url), poolclass=NullPool)
    with engine.begin() as conn:
        for table in ("seat_takes", "challenges", "sessions", "passkeys", "accounts"):
            conn.execute(sa.text(f"DROP TABLE {table}"))
        # SQLite drops no column an index covers.
        conn.execute(sa.text("DROP INDEX ix_seat_keys_account_id"))
        conn.execute(sa.text("ALTER TABLE seat_keys DROP COLUMN account_id"))
        conn.execute(sa.text("UPDATE meta SET value = '5' WHERE key = 'schema'"))
    with TestClient(create_app(db_url, bot_delay=0.0)) as client, tk.join(client, tid, 0, token):
        pass
    with engine.connect() as conn:
        version = conn.execute(sa.text("SELECT value FROM meta WHERE key = 'schema'")).scalar()
        found = sa.inspect(conn)
        assert {"accounts", "passkeys", "sessions", "challenges", "seat_takes"} <= set(
            found.get_table_names()
        )
        assert "ix_seat_keys_account_id" in {i["name"] for i in found.get_indexes("seat_keys")}
        owners = conn.execute(sa.text("SELECT account_id FROM seat_keys")).scalars().all()
    engine.dispose()
    assert version == str(SCHEMA) == "9" and owners == [None, None, None]
    # The seat, a browser's as before, may now be an account's.
    storage = Storage(db_url)
    try:
        passkey = Passkey("key", "acc", "pub", 0, "a browser", 1.0)
        storage.create_account(Account("acc", "Bea", 1.0), passkey, "session", 2e9)
        storage.own_seats(tid, [0], "acc")
        assert [(s.table_id, s.seat) for s in storage.owned_seats("acc", 10)] == [(tid, 0)]
    finally:
        storage.close()
