"""The lobby's reads, without replaying any table: the unfinished tables (`Listing`), and
the tables a person sits at (`Summary`, the lobby's "Your tables")."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select

from tavernkeep.engine.records import GameRecord
from tavernkeep.server.storage.database import Database
from tavernkeep.server.storage.schema import UNFINISHED, actions, seat_keys, tables
from tavernkeep.server.storage.seats import SeatKey

CHUNK = 500
"""Table ids in one `IN (...)` list: well within every database's bound on a statement's
parameters (SQLite's was 999), and few statements for the tables anyone follows."""


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
    rated: bool = False
    """Opened rated (settings.py): its seats are taken signed in, one an account."""
    own_pack: bool = False
    """Played with a designer's pack it holds (`tables.pack_data`), not a built-in one:
    no built-in pack's digest says whether it still replays."""


@dataclass
class Summary:
    """One table as the lobby's "Your tables" shows it, read without replaying it: who
    sits where, its status, its result once over, and what says whether it moved since
    it was last replayed (`revision`, `actions`). Its seats' secrets are hashes, checked
    here and never sent."""

    id: str
    game: str
    pack: str
    pack_digest: str
    seats: list[str]
    keys: list[SeatKey]
    status: str
    result: dict[str, Any] | None
    settings: str
    """How the table is kept (server/settings.py), as stored: JSON text, read by whoever
    needs it (most tables of a list share a few, so it is read once for each)."""
    rematch_id: str | None
    revision: int
    actions: int
    updated_at: float
    """When its last action (or its start, or its end) was committed: the deciding
    seat's clock counts from here, as a table loaded from storage does."""
    record: GameRecord | None = None
    """Its record (seed and all: it never leaves the server), where it was asked for, to
    replay it for whose decision it is."""


class Listings:
    """The lobby's list of open tables and their count, and the tables people sit at."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine

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
                tables.c.settings,
                tables.c.pack_data.is_not(None).label("own_pack"),
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
                    rated=bool(json.loads(row.settings or "{}").get("rated")),
                    open_seats=sorted(free.get(row.id, set())),
                    names=names.get(row.id, {}),
                    own_pack=bool(row.own_pack),
                )
            )
        return out

    def count_open(self) -> int:
        with self.engine.connect() as conn:
            count = conn.execute(
                select(func.count()).select_from(tables).where(tables.c.status.in_(UNFINISHED))
            ).scalar_one()
        return int(count)

    def summaries(self, table_ids: Sequence[str], records: bool = False) -> dict[str, Summary]:
        """The tables of `table_ids` that exist, by id, in two statements a few hundred
        tables (their rows with their action counts, then their seats), whatever their
        status: a person's list of tables costs no replay and no row per action. With
        `records`, a third reads their actions too, for the few a caller must replay."""
        out: dict[str, Summary] = {}
        ids = list(dict.fromkeys(table_ids))
        rows: dict[str, Any] = {}
        # What a replay needs besides, read only for one (a config may be long).
        extra = (
            [
                tables.c.config,
                tables.c.seed,
                tables.c.record_version,
                tables.c.pack_data,
                tables.c.pack_base,
            ]
            if records
            else []
        )
        with self.engine.connect() as conn:
            for start in range(0, len(ids), CHUNK):
                chunk = ids[start : start + CHUNK]
                moves = (
                    select(actions.c.table_id, func.count().label("n"))
                    .where(actions.c.table_id.in_(chunk))
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
                        tables.c.status,
                        tables.c.result,
                        tables.c.settings,
                        tables.c.rematch_id,
                        tables.c.revision,
                        tables.c.updated_at,
                        func.coalesce(moves.c.n, 0),
                        *extra,
                    )
                    .outerjoin(moves, moves.c.table_id == tables.c.id)
                    .where(tables.c.id.in_(chunk))
                )
                # Rows read as tuples: a named column is a lookup, and a few hundred rows
                # of a dozen columns made them a third of the read.
                for row in conn.execute(query):
                    table_id, game, pack, digest, seats_text, status, result, settings = row[:8]
                    rematch_id, revision, updated_at, moves_played = row[8:12]
                    rows[table_id] = row
                    seats = json.loads(seats_text)
                    out[table_id] = Summary(
                        id=table_id,
                        game=game,
                        pack=pack,
                        pack_digest=digest,
                        seats=seats,
                        keys=[SeatKey() for _ in seats],
                        status=status,
                        result=json.loads(result) if result else None,
                        settings=settings or "{}",
                        rematch_id=rematch_id,
                        revision=int(revision),
                        actions=int(moves_played),
                        updated_at=float(updated_at),
                    )
                if not out:
                    continue
                keys = select(
                    seat_keys.c.table_id,
                    seat_keys.c.seat,
                    seat_keys.c.credential_hash,
                    seat_keys.c.device,
                    seat_keys.c.name,
                    seat_keys.c.clock,
                    seat_keys.c.open_seat,
                    seat_keys.c.away,
                    seat_keys.c.passing_on,
                    seat_keys.c.account_id,
                ).where(seat_keys.c.table_id.in_(chunk))
                for table_id, seat, *held in conn.execute(keys):
                    found = out.get(table_id)
                    if found is not None and 0 <= seat < len(found.keys):
                        credential, device, name, clock, open_seat, away, passing_on, owner = held
                        # No invite: the lobby shows a seat, it never claims one.
                        found.keys[seat] = SeatKey(
                            None,
                            credential,
                            bool(device),
                            name,
                            clock,
                            bool(open_seat),
                            away,
                            passing_on,
                            owner,
                        )
                if records:
                    self._records(conn, [i for i in chunk if i in rows], rows, out)
        return out

    @staticmethod
    def _records(conn: Any, ids: list[str], rows: dict[str, Any], out: dict[str, Summary]) -> None:
        """Each table's record, its actions read in one statement for all of `ids`."""
        texts: dict[str, list[str]] = {table_id: [] for table_id in ids}
        if ids:
            for move in conn.execute(
                select(actions.c.table_id, actions.c.action)
                .where(actions.c.table_id.in_(ids))
                .order_by(actions.c.table_id, actions.c.idx)
            ):
                texts[move.table_id].append(move.action)
        for table_id in ids:
            row, found = rows[table_id], out[table_id]
            config, seed, version, pack_data, pack_base = row[12:17]
            found.record = GameRecord(
                version=version,
                game=found.game,
                pack=found.pack,
                pack_digest=found.pack_digest,
                config=json.loads(config),
                seed=seed,
                seats=found.seats,
                actions=texts[table_id],
                result=found.result,
                pack_data=json.loads(pack_data) if pack_data else None,
                pack_base=pack_base,
            )
