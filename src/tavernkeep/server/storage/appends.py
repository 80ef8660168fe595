"""A table's actions as stored (`actions`): appended one committed row an action, taken
back, or rewritten in this version's numbering.

Each action is committed before anyone is told of it. When several server processes share
one database, a table's actions are appended only at the revision the writer last saw
(`Append.revision`), so two processes can never both add the same move.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, delete, insert, select, update
from sqlalchemy.exc import SQLAlchemyError

from tavernkeep.engine.records import RECORD_VERSION
from tavernkeep.server.chat import ChatLine
from tavernkeep.server.storage.chat_lines import add_line
from tavernkeep.server.storage.database import Database
from tavernkeep.server.storage.schema import actions, seat_keys, tables


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


Finished = Callable[[Connection, str, dict[str, Any]], None]
"""Asked, in the transaction that commits a table's result, with the table and its result
(storage/ratings.py `Ratings.rate_finished`)."""


class Appends:
    """Writes to a table's actions, each checked against the revision its writer saw; a
    table's last one is committed with its result, and `finished` is asked in the same
    transaction (a rated table is rated there)."""

    def __init__(self, db: Database, finished: Finished | None = None) -> None:
        self.db = db
        self.engine = db.engine
        self.finished = finished

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
                if self.finished is not None:
                    self.finished(conn, entry.table_id, entry.result)
        self.db.notify(conn, *progress)

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

    def take_back(self, table_id: str, keep: int, notice: ChatLine, revision: int) -> ChatLine:
        """Keep a table's first `keep` actions only, with the notice that says which was
        taken back, in one transaction: the record holds only the actions that stand.
        Refused if the table has moved on from `revision`."""
        with self.engine.begin() as conn:
            self._advance(conn, table_id, revision)
            conn.execute(
                delete(actions).where(actions.c.table_id == table_id, actions.c.idx >= keep)
            )
            self.db.notify(conn, table_id)
            return add_line(conn, table_id, notice)

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
