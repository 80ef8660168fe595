"""The workbench as stored (server/workbench.py): the packs designers saved, and the
comparisons they asked for, with each one's state, progress and result, the digests of
the packs it played and its headline finding: the history lists every comparison so,
without reading its result, newest first.

A comparison's row is the truth its page reads: a reload, or another server process,
finds it where it is. It moves only forward: "queued", then "running" (its `done` of
`total` games growing, its result so far kept as it comes), then one of "done", "failed"
and "cancelled", never back. Every move is one conditional update, so a cancel and the
end of a run cannot both win.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Row, delete, insert, select, update

from tavernkeep.server.storage.database import DB_NOW, Database
from tavernkeep.server.storage.schema import servers, workbench_packs, workbench_runs

UNFINISHED_RUNS = ("queued", "running")
RUNS_LISTED = 50


@dataclass(frozen=True)
class SavedPack:
    game: str
    name: str
    base: str
    """The built-in pack it started from: what its differences are read against."""
    toml: str
    digest: str
    updated_at: float


@dataclass(frozen=True)
class Run:
    id: str
    game: str
    base: str
    changed: str
    plan: dict[str, Any]
    state: str
    done: int
    total: int
    result: dict[str, Any] | None
    error: str | None
    created_at: float
    updated_at: float
    digest: str | None = None
    """The changed pack's digest: which version of it the comparison played."""
    base_digest: str | None = None
    headline: str | None = None
    """The finding the history lists it by (workbench_compare.py `headline`), once the
    first games are in."""

    def to_json(self, whole: bool = True) -> dict[str, Any]:
        """What a page is shown: the result only when asked for the one run (`whole`)."""
        out: dict[str, Any] = {
            "id": self.id,
            "game": self.game,
            "base": self.base,
            "changed": self.changed,
            "state": self.state,
            "done": self.done,
            "total": self.total,
            "seats": self.plan.get("seats", []),
            "games": self.plan.get("games"),
            "error": self.error,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "digest": self.digest,
            "base_digest": self.base_digest,
            "headline": self.headline,
        }
        if whole:
            out["result"] = self.result
        return out


def _run(row: Row[Any]) -> Run:
    """A run as read; without its result where the row was read without it (a list)."""
    result = row._mapping.get("result")
    return Run(
        id=row.id,
        game=row.game,
        base=row.base,
        changed=row.changed,
        plan=json.loads(row.plan),
        state=row.state,
        done=row.done,
        total=row.total,
        result=json.loads(result) if result else None,
        error=row.error,
        created_at=row.created_at,
        updated_at=row.updated_at,
        digest=row.digest,
        base_digest=row.base_digest,
        headline=row.headline,
    )


class WorkbenchStore:
    """Saved packs and comparisons, in the server's one database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine

    # -- packs -----------------------------------------------------------------------------

    def packs(self, game: str) -> list[SavedPack]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(workbench_packs)
                .where(workbench_packs.c.game == game)
                .order_by(workbench_packs.c.name)
            ).all()
        return [SavedPack(**row._asdict()) for row in rows]

    def pack(self, game: str, name: str) -> SavedPack | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(workbench_packs).where(
                    workbench_packs.c.game == game, workbench_packs.c.name == name
                )
            ).first()
        return None if row is None else SavedPack(**row._asdict())

    def save_pack(self, pack: SavedPack, most: int) -> bool:
        """Keep the pack under its name (replacing the one of that name); False when the
        game already has `most` other packs."""
        values = {
            "base": pack.base,
            "toml": pack.toml,
            "digest": pack.digest,
            "updated_at": pack.updated_at,
        }
        keys = (workbench_packs.c.game == pack.game, workbench_packs.c.name == pack.name)
        with self.engine.begin() as conn:
            if conn.execute(update(workbench_packs).where(*keys).values(**values)).rowcount:
                return True
            held = conn.execute(
                select(workbench_packs.c.name).where(workbench_packs.c.game == pack.game)
            ).all()
            if len(held) >= most:
                return False
            conn.execute(insert(workbench_packs).values(game=pack.game, name=pack.name, **values))
        return True

    def delete_pack(self, game: str, name: str) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(
                delete(workbench_packs).where(
                    workbench_packs.c.game == game, workbench_packs.c.name == name
                )
            )
        return bool(done.rowcount)

    # -- comparisons ---------------------------------------------------------------------

    def add_run(self, run: Run, most_unfinished: int) -> bool:
        """Queue a comparison run here; False when `most_unfinished` are queued or running
        already (on any server process)."""
        with self.engine.begin() as conn:
            unfinished = conn.execute(
                select(workbench_runs.c.id).where(workbench_runs.c.state.in_(UNFINISHED_RUNS))
            ).all()
            if len(unfinished) >= most_unfinished:
                return False
            conn.execute(
                insert(workbench_runs).values(
                    id=run.id,
                    game=run.game,
                    base=run.base,
                    changed=run.changed,
                    plan=json.dumps(run.plan),
                    state=run.state,
                    done=run.done,
                    total=run.total,
                    result=None,
                    error=None,
                    server=self.db.me,
                    created_at=run.created_at,
                    updated_at=run.updated_at,
                    digest=run.digest,
                    base_digest=run.base_digest,
                )
            )
        return True

    def run(self, run_id: str) -> Run | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(workbench_runs).where(workbench_runs.c.id == run_id)).first()
        return None if row is None else _run(row)

    def runs(self, game: str, limit: int = RUNS_LISTED) -> list[Run]:
        """The game's latest comparisons, newest first, without their results (the
        history lists each by its headline)."""
        listed = [c for c in workbench_runs.c if c.name != "result"]
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(*listed)
                .where(workbench_runs.c.game == game)
                .order_by(workbench_runs.c.created_at.desc(), workbench_runs.c.id)
                .limit(limit)
            ).all()
        return [_run(row) for row in rows]

    def move(
        self,
        run_id: str,
        states: tuple[str, ...],
        now: float,
        state: str | None = None,
        error: str | None = None,
        **values: Any,
    ) -> bool:
        """Move a run on (to `state`, with its `error`; `values`: its done, result) if it
        is in one of `states`: one conditional update, so a cancel and an end cannot both
        win."""
        if state is not None:
            values["state"] = state
        if error is not None:
            values["error"] = error
        if values.get("result") is not None:
            # Its headline is kept beside it: the history lists runs without their results.
            values["headline"] = values["result"].get("headline")
            values["result"] = json.dumps(values["result"])
        with self.engine.begin() as conn:
            done = conn.execute(
                update(workbench_runs)
                .where(workbench_runs.c.id == run_id, workbench_runs.c.state.in_(states))
                .values(updated_at=now, **values)
            )
        return bool(done.rowcount == 1)

    def state(self, run_id: str) -> str | None:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(workbench_runs.c.state).where(workbench_runs.c.id == run_id)
            ).scalar()
        return None if found is None else str(found)

    def orphans(self, now: float) -> list[str]:
        """The comparisons left queued or running by a server process that is no longer
        alive (stopped, killed): they end "failed", with why."""
        where: tuple[ColumnElement[bool], ...] = (
            workbench_runs.c.state.in_(UNFINISHED_RUNS),
            workbench_runs.c.server != self.db.me,
        )
        if self.db.shared:
            # Several processes on PostgreSQL: another's runs are its own while it beats.
            alive = (
                select(servers.c.id)
                .where(servers.c.id == workbench_runs.c.server, servers.c.until >= DB_NOW)
                .exists()
            )
            where = (*where, ~alive)
        with self.engine.begin() as conn:
            ids = list(conn.execute(select(workbench_runs.c.id).where(*where)).scalars())
            if ids:
                conn.execute(
                    update(workbench_runs)
                    .where(workbench_runs.c.id.in_(ids), *where)
                    .values(
                        state="failed",
                        error="the server stopped while it ran: start it again",
                        updated_at=now,
                    )
                )
        return ids
