"""Leases and presence, for several server processes on one PostgreSQL database
(server/peers.py): `servers` says which process is alive, `tables.keeper` which one runs
a table's bots and clocks, and `presence` who is at a table on which process.
"""

from __future__ import annotations

import time

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert

from tavernkeep.server.storage.database import DB_NOW, Database
from tavernkeep.server.storage.schema import UNFINISHED, presence, servers, tables

LEASE = 3.0
"""Seconds a server process's heartbeat keeps it alive, and its tables' leases with it."""

KEEPER_ALIVE = (
    select(servers.c.id).where(servers.c.id == tables.c.keeper, servers.c.until >= DB_NOW).exists()
)
"""Whether a table's keeper is a live server process (its heartbeat ahead of now)."""


class Leases:
    """This process's heartbeat, the tables it keeps, and the seats whose people are here."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine

    def beat(self) -> None:
        """This process's heartbeat: alive, with its leases, for `LEASE` seconds more."""
        until = DB_NOW + LEASE
        with self.engine.begin() as conn:
            done = conn.execute(
                update(servers).where(servers.c.id == self.db.me).values(until=until)
            )
            if done.rowcount == 0:
                conn.execute(
                    insert(servers).values(id=self.db.me, until=until, started=time.time())
                )

    def take_lease(self, table_id: str) -> bool:
        """Become the process that runs the table's bots and clocks, unless a live one is:
        one conditional update, so two processes asking at once cannot both win it."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tables)
                .where(
                    tables.c.id == table_id,
                    tables.c.status.in_(UNFINISHED),
                    (tables.c.keeper.is_(None)) | (tables.c.keeper == self.db.me) | ~KEEPER_ALIVE,
                )
                .values(keeper=self.db.me)
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
                        tables.c.keeper != self.db.me,
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
                        tables.c.status == "playing", tables.c.keeper == self.db.me
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
            self.db.notify(conn, *touched)
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
                        presence.c.server == self.db.me,
                    ),
                    gone,
                )
            come = [
                {"table_id": t, "seat": seat, "server": self.db.me}
                for (t, seat), here in present.items()
                if here
            ]
            if come:
                conn.execute(pg_insert(presence).on_conflict_do_nothing(), come)
            if released:
                done = conn.execute(
                    update(tables)
                    .where(tables.c.id.in_(released), tables.c.keeper == self.db.me)
                    .values(keeper=None)
                    .returning(tables.c.id)
                )
                touched += list(done.scalars())
            self.db.notify(conn, *touched)

    def leave(self) -> None:
        """This process stops: its leases and presence go now, not when they lapse."""
        with self.engine.begin() as conn:
            held = list(
                conn.execute(select(tables.c.id).where(tables.c.keeper == self.db.me)).scalars()
            )
            seen = list(
                conn.execute(
                    select(presence.c.table_id).where(presence.c.server == self.db.me)
                ).scalars()
            )
            conn.execute(update(tables).where(tables.c.keeper == self.db.me).values(keeper=None))
            conn.execute(delete(presence).where(presence.c.server == self.db.me))
            conn.execute(delete(servers).where(servers.c.id == self.db.me))
            self.db.notify(conn, *held, *seen)
