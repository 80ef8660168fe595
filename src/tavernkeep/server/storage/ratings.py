"""Ratings as stored (`ratings`, `rating_history`): each subject's rating of a game, and
one row a subject a rated game, for a person's page and its chart (server/skill.py says
what a subject is and how a game is rated).

A rated table is rated in the transaction that commits its last action and its result
(`Ratings.rate_finished`, called by appends.py): a table is over and rated together, or
neither, whichever server process commits it, and once. Only a game that reached its end
by the rules comes there: a table closed or archived has no result and is never rated.
The rating runs in a savepoint of its own, so a rating that fails (logged) leaves the
table unrated, never the person's last move uncommitted.

What anyone may read is public by design (PROTOCOL.md, "Ratings"): a leaderboard names
accounts by their name and handle, never their id, and a person's page is found by the
handle alone.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from tavernkeep.server.skill import (
    ACCOUNT,
    BAND,
    Placing,
    Skill,
    Subject,
    outcome,
    places,
    rate,
    rated_subjects,
)
from tavernkeep.server.storage.database import Database
from tavernkeep.server.storage.schema import (
    accounts,
    actions,
    rating_history,
    ratings,
    seat_keys,
    tables,
)

log = logging.getLogger("tavernkeep.server")


@dataclass(frozen=True)
class Standing:
    """A subject's rating of a game, as a leaderboard lists it: `subject` is an account's
    id (kept here: the API shows its `name` and `handle`), a bot's spec or "the game"."""

    game: str
    kind: str
    subject: str
    mu: float
    sigma: float
    games: int
    name: str | None = None
    handle: str | None = None


@dataclass(frozen=True)
class RatedGame:
    """One rated game of a person's: where they placed, and their rating after it."""

    game: str
    at: float
    place: int
    of: int
    won: bool
    mu: float
    sigma: float


@dataclass(frozen=True)
class Person:
    """What anyone may read of an account: its name, its ratings and its rated games."""

    name: str
    handle: str
    ratings: list[Standing]
    games: list[RatedGame]


class Ratings:
    """Rating finished games, and reading the leaderboards and people's pages."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine

    # -- rating ------------------------------------------------------------------------------

    def rate_finished(self, conn: Connection, table_id: str, result: dict[str, Any]) -> None:
        """Rate a table that has just finished, in the transaction committing its result,
        if it was opened rated and may still be (skill.py `rated_subjects`: every person's
        seat its own account's). In a savepoint: a failure is logged and rates nothing."""
        row = conn.execute(
            select(tables.c.game, tables.c.seats, tables.c.settings).where(tables.c.id == table_id)
        ).first()
        if row is None or not json.loads(row.settings or "{}").get("rated"):
            return
        try:
            with conn.begin_nested():
                self._rate_table(conn, table_id, row.game, json.loads(row.seats), result)
        except Exception:
            log.exception("rating table %s failed: it stays unrated", table_id)

    def _rate_table(
        self, conn: Connection, table_id: str, game: str, seats: list[str], result: dict[str, Any]
    ) -> None:
        held = {
            r.seat: r.account_id
            for r in conn.execute(
                select(seat_keys.c.seat, seat_keys.c.account_id).where(
                    seat_keys.c.table_id == table_id
                )
            )
        }
        subjects = rated_subjects(seats, held)
        if subjects is None:
            log.info("table %s was opened rated, but not every person at it is: unrated", table_id)
            return
        forfeits = set(
            conn.execute(
                select(actions.c.stand_in)
                .where(actions.c.table_id == table_id, actions.c.stand_in.is_not(None))
                .distinct()
            ).scalars()
        )
        placings = places(result, subjects, forfeits)
        if placings:
            self._apply(conn, game, placings, table_id, time.time())

    def record(
        self, game: str, placings: Sequence[Placing], table_id: str, at: float
    ) -> dict[Subject, Skill]:
        """Rate one game played outside any table (`tavernkeep ratings seed`), in a
        transaction of its own: every subject's rating after it."""
        with self.engine.begin() as conn:
            return self._apply(conn, game, placings, table_id, at)

    def _apply(
        self, conn: Connection, game: str, placings: Sequence[Placing], table_id: str, at: float
    ) -> dict[Subject, Skill]:
        subjects = sorted({s for p in placings for s in p.members})
        ids = [s.id for s in subjects]
        # Every subject's row exists before any is locked: two tables rating a new bot at
        # once insert it once, and neither fails for the other.
        dialect = postgresql if self.db.shared else sqlite
        conn.execute(
            dialect.insert(ratings)
            .values(
                [
                    {
                        "game": game,
                        "subject": s.id,
                        "kind": s.kind,
                        "mu": Skill().mu,
                        "sigma": Skill().sigma,
                        "games": 0,
                        "updated_at": at,
                    }
                    for s in subjects
                ]
            )
            .on_conflict_do_nothing()
        )
        # Locked in one order (PostgreSQL; SQLite has one writer), so that two games
        # rating the same subjects never wait on each other in a circle.
        rows = conn.execute(
            select(ratings)
            .where(ratings.c.game == game, ratings.c.subject.in_(ids))
            .order_by(ratings.c.subject)
            .with_for_update()
        ).all()
        now = {Subject(r.kind, r.subject): Skill(r.mu, r.sigma, r.games) for r in rows}
        after = rate(placings, now)
        for subject, skill in after.items():
            conn.execute(
                update(ratings)
                .where(ratings.c.game == game, ratings.c.subject == subject.id)
                .values(mu=skill.mu, sigma=skill.sigma, games=skill.games, updated_at=at)
            )
        history = []
        for subject, skill in after.items():
            place, of, won = outcome(placings, subject)
            history.append(
                {
                    "table_id": table_id,
                    "subject": subject.id,
                    "game": game,
                    "kind": subject.kind,
                    "at": at,
                    "place": place,
                    "of": of,
                    "won": won,
                    "mu": skill.mu,
                    "sigma": skill.sigma,
                }
            )
        conn.execute(insert(rating_history), history)
        return after

    # -- reading ------------------------------------------------------------------------------

    def leaderboard(self, game: str, limit: int) -> list[Standing]:
        """A game's ratings, the band's lower edge highest first (skill.py), with each
        account's name and handle."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ratings, accounts.c.name, accounts.c.handle)
                .outerjoin(
                    accounts, (ratings.c.kind == ACCOUNT) & (accounts.c.id == ratings.c.subject)
                )
                .where(ratings.c.game == game, ratings.c.games > 0)
                .order_by((ratings.c.mu - BAND * ratings.c.sigma).desc(), ratings.c.games.desc())
                .limit(limit)
            ).all()
        return [
            Standing(r.game, r.kind, r.subject, r.mu, r.sigma, r.games, r.name, r.handle)
            for r in rows
            # An account's rating outlives nothing of it: one deleted has no row to show.
            if r.kind != ACCOUNT or r.handle is not None
        ]

    def person(self, handle: str, games: int) -> Person | None:
        """The public page of the account with this handle: its name, its ratings and its
        latest `games` rated games (oldest first). None for no such handle."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(accounts.c.id, accounts.c.name, accounts.c.handle).where(
                    accounts.c.handle == handle
                )
            ).first()
            if found is None:
                return None
            rated = conn.execute(
                select(ratings)
                .where(ratings.c.kind == ACCOUNT, ratings.c.subject == found.id)
                .order_by(ratings.c.game)
            ).all()
            history = conn.execute(
                select(rating_history)
                .where(rating_history.c.kind == ACCOUNT, rating_history.c.subject == found.id)
                .order_by(rating_history.c.at.desc())
                .limit(games)
            ).all()
        return Person(
            found.name,
            found.handle,
            [
                Standing(
                    r.game, r.kind, r.subject, r.mu, r.sigma, r.games, found.name, found.handle
                )
                for r in rated
            ],
            [
                RatedGame(h.game, h.at, h.place, h.of, bool(h.won), h.mu, h.sigma)
                for h in reversed(history)
            ],
        )

    def of_account(self, account_id: str) -> tuple[list[Standing], list[RatedGame]]:
        """Everything kept of an account's ratings, for its download."""
        with self.engine.connect() as conn:
            rated = conn.execute(
                select(ratings).where(ratings.c.kind == ACCOUNT, ratings.c.subject == account_id)
            ).all()
            history = conn.execute(
                select(rating_history)
                .where(rating_history.c.kind == ACCOUNT, rating_history.c.subject == account_id)
                .order_by(rating_history.c.at)
            ).all()
        return (
            [Standing(r.game, r.kind, r.subject, r.mu, r.sigma, r.games) for r in rated],
            [RatedGame(h.game, h.at, h.place, h.of, bool(h.won), h.mu, h.sigma) for h in history],
        )


def forget_account(conn: Connection, account_id: str) -> None:
    """Delete an account's ratings and its rated games' rows (its opponents' stay theirs),
    in the transaction that deletes the account."""
    conn.execute(delete(ratings).where(ratings.c.kind == ACCOUNT, ratings.c.subject == account_id))
    conn.execute(
        delete(rating_history).where(
            rating_history.c.kind == ACCOUNT, rating_history.c.subject == account_id
        )
    )
