"""A table's row as stored (`tables`): created with its seats, started, ended, and read
back whole (`StoredTable`) to be replayed.

A table is its record: (game, pack, config, seed, seats, and a designer's pack's data)
in `tables`, and each action a row of `actions`. A server killed at any moment brings a
table back, when someone asks for it, by replaying its actions (`StoredTables.load`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, insert, select, update

from tavernkeep.engine.records import GameRecord
from tavernkeep.server.chat import SHOWN, ChatLine
from tavernkeep.server.storage.chat_lines import add_line
from tavernkeep.server.storage.database import DB_NOW, Database
from tavernkeep.server.storage.schema import (
    UNFINISHED,
    actions,
    chat,
    presence,
    seat_keys,
    servers,
    tables,
)
from tavernkeep.server.storage.seats import SeatKey


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


class StoredTables:
    """Tables' rows: their creation, their status from start to end, and their loading."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine

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
                    # A designer's pack is kept with the table: the workbench's copy may
                    # change or go, and the table still replays.
                    pack_data=None if record.pack_data is None else json.dumps(record.pack_data),
                    pack_base=record.pack_base,
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
                    # A rematch's seats are the same people's, and their accounts'.
                    "account_id": key.account_id,
                }
                for seat, key in enumerate(keys)
            ]
            if rows:
                conn.execute(insert(seat_keys), rows)

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
            self.db.notify(conn, table_id)
            return add_line(conn, table_id, notice)

    def end(self, table_id: str, status: str) -> bool:
        """End an unfinished table without a result: "closed" by its host, "archived" when
        left idle. False if it had already ended (finished, closed or archived)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tables)
                .where(tables.c.id == table_id, tables.c.status.in_(UNFINISHED))
                .values(status=status, updated_at=time.time())
            )
            self.db.notify(conn, table_id)
            return bool(done.rowcount == 1)

    def idle(self, before: float, limit: int) -> list[str]:
        """Unfinished tables with no progress since `before`, the longest idle first; on
        a shared database, not those where someone sits at another process, thinking."""
        query = select(tables.c.id).where(
            tables.c.status.in_(UNFINISHED), tables.c.updated_at < before
        )
        if self.db.shared:
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
            self.db.notify(conn, table_id)
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
            self.db.notify(conn, table_id)

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
                pack_data=json.loads(row.pack_data) if row.pack_data else None,
                pack_base=row.pack_base,
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
                        key.account_id,
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
            if self.db.shared:
                here = set(
                    conn.execute(
                        select(presence.c.seat)
                        .join(servers, servers.c.id == presence.c.server)
                        .where(
                            presence.c.table_id == table_id,
                            presence.c.server != self.db.me,
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
            self.db.notify(conn, table_id)
            return add_line(conn, table_id, line)
