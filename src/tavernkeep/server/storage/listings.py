"""The lobby's reads: the unfinished tables (`Listing`), read without replaying any."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from sqlalchemy import func, select

from tavernkeep.server.storage.database import Database
from tavernkeep.server.storage.schema import UNFINISHED, actions, seat_keys, tables


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


class Listings:
    """The lobby's list of open tables and their count."""

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
