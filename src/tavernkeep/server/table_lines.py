"""A table as a person's lobby lists it ("Your tables", your_tables.py): who sits where,
whose decision it is, the clock and, once over, the result, read from a table in memory
(`room_line`) or from storage and one replay of it (`stored_line`, `replay_turns`); the
entry each of its people's lobbies is told (`entry`); and the check of the credentials a
page says it holds (`verify`), as a table's join checks them.

Nothing here keeps anything or knows of sockets: your_tables.py follows the tables and
tells the lobbies.
"""

from __future__ import annotations

import functools
import hmac
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tavernkeep.engine.actions import PASS, Action
from tavernkeep.engine.errors import RecordError, TavernkeepError
from tavernkeep.engine.game import Game, Result
from tavernkeep.engine.match import Match
from tavernkeep.engine.records import GameRecord, action_at, open_record
from tavernkeep.games import get_game
from tavernkeep.server.invites import secret_hash
from tavernkeep.server.room import Room, agents_for
from tavernkeep.server.settings import Clock, TableSettings
from tavernkeep.server.storage import SeatKey
from tavernkeep.server.storage.listings import Summary

log = logging.getLogger("tavernkeep.server")

NOBODY = "0" * 64
"""Compared with a credential's hash where the seat has none, so that an unknown table,
an unclaimed seat and a wrong credential take the same time and say the same nothing."""

Held = tuple[str, int]
"""A seat a lobby socket follows: (table id, seat)."""


@dataclass(frozen=True)
class SeatClaim:
    """A seat a page says is its person's: the table, the seat and the credential."""

    table: str
    seat: int
    token: str


@dataclass(frozen=True)
class Turn:
    """Whose decision it is at a table not in memory, as a replay found it."""

    actor: int | None
    decision: str | None
    """The kind of decision (`Game.decision`): a seat passing on that kind is passed for."""
    lone_pass: bool
    """Passing is the only choice: the server passes for a person after a pause."""
    may_pass: bool


@dataclass
class Line:
    """One table as each of its people's lobbies shows it; what is a seat's alone (whether
    the decision is theirs, the result's headline for them) is added by `entry`."""

    id: str
    game: Game[Any, Any]
    status: str
    seats: list[dict[str, Any]]
    actor: int | None
    person_decides: bool
    """A person decides for the deciding seat (no bot, no stand-in)."""
    passed_for: bool
    """The server passes for the deciding person: said to that seat alone."""
    clock: dict[str, Any] | None
    result: Result | None
    rematch: str | None
    actions: int
    at: float
    """When the table last moved, in seconds since the epoch."""
    credentials: list[str | None]
    """Each seat's credential hash, checked again at every change: a seat handed to a
    new invite stops being followed. Never sent."""
    owners: list[str | None]
    """The account each seat belongs to, checked as the credentials are: a seat handed
    to a new invite leaves its account's lobbies too. Never sent."""


def verify(claims: Sequence[SeatClaim], summaries: dict[str, Summary]) -> dict[Held, str]:
    """The claimed seats whose credential is the seat's, with the credential's hash: as a
    table's join checks it (seating.py `Seating.authenticate`), a credential acts for its
    own seat alone. A claim that fails is left out, whatever failed."""
    out: dict[Held, str] = {}
    for claim in claims:
        hashed = secret_hash(claim.token)
        found = summaries.get(claim.table)
        key = found.keys[claim.seat] if found and 0 <= claim.seat < len(found.keys) else None
        stored = key.credential_hash if key is not None else None
        if hmac.compare_digest(stored or NOBODY, hashed) and stored is not None:
            out[(claim.table, claim.seat)] = hashed
    return out


def public_seats(
    seats: list[str], keys: list[SeatKey], away: dict[int, str]
) -> list[dict[str, Any]]:
    """Who sits where, as anyone watching the table may know it: a person's name, a seat
    still open, a bot standing in for a person who left."""
    out = []
    for seat, spec in enumerate(seats):
        item: dict[str, Any] = {"seat": seat, "agent": spec}
        if spec == "human":
            key = keys[seat]
            if key.name:
                item["name"] = key.name
            if key.open_seat and not key.claimed:
                item["open"] = True
            if seat in away:
                item["away"] = away[seat]
        out.append(item)
    return out


def room_line(room: Room) -> Line:
    """A table someone is at here, from memory: exactly as its pages see it."""
    actor = room.actor
    person = actor is not None and room.person_decides(actor)
    clock = room.clocks(time.time())[actor] if room.settings.clock and actor is not None else None
    return Line(
        id=room.id,
        game=room.game,
        status=room.status,
        seats=public_seats(room.seats, room.keys, room.stand_ins),
        actor=actor,
        person_decides=person,
        passed_for=person and room.passed_for(),
        clock=clock,
        result=room.game.result(room.match.state) if room.status == "finished" else None,
        rematch=room.rematch_id,
        actions=room.version,
        at=room.asked_wall,
        credentials=[key.credential_hash for key in room.keys],
        owners=[key.account_id for key in room.keys],
    )


def stored_line(summary: Summary, game: Game[Any, Any], turn: Turn | None) -> Line:
    """A table nobody is at here, from storage and its replayed turn. Its clock counts
    from its last move, as the table loaded from storage would count it (tables.py)."""
    keys = summary.keys
    away = {seat: key.away for seat, key in enumerate(keys) if key.away}
    actor = turn.actor if turn is not None and summary.status == "playing" else None
    person = actor is not None and summary.seats[actor] == "human" and actor not in away
    passed = False
    if person and turn is not None and actor is not None:
        kind = keys[actor].passing_on
        passed = turn.lone_pass or (kind is not None and kind == turn.decision and turn.may_pass)
    clock = None
    timing = clock_setting(summary.settings)
    if timing is not None and actor is not None and summary.seats[actor] == "human":
        bank = keys[actor].clock
        left = timing.seconds if timing.kind == "turn_based" or bank is None else bank
        spent = time.time() - summary.updated_at if person else 0.0
        clock = {"left": max(0.0, left - spent), "running": person}
    result = None
    if summary.status == "finished" and summary.result:
        result = result_of(summary.result)
    return Line(
        id=summary.id,
        game=game,
        status=summary.status,
        seats=public_seats(summary.seats, keys, away),
        actor=actor,
        person_decides=person,
        passed_for=passed,
        clock=clock,
        result=result,
        rematch=summary.rematch_id,
        actions=summary.actions,
        at=summary.updated_at,
        credentials=[key.credential_hash for key in keys],
        owners=[key.account_id for key in keys],
    )


@functools.lru_cache(maxsize=256)
def clock_setting(settings: str) -> Clock | None:
    """The clocks of a table's settings as stored (JSON text): read once for the many
    tables that share them."""
    return TableSettings.model_validate(json.loads(settings), strict=False).clock


def result_of(data: dict[str, Any]) -> Result | None:
    """A stored result (`Result.to_json`) as the game's own, for its headline."""
    try:
        return Result(
            scores=tuple(data.get("scores", ())),
            ranks=tuple(data.get("ranks", ())),
            winners=tuple(int(seat) for seat in data.get("winners", ())),
            ending=str(data.get("ending", "")),
            reason=str(data.get("reason", "")),
            won=data.get("won"),
            turns=int(data.get("turns", 0)),
            facts=dict(data.get("facts") or {}),
        )
    except (TypeError, ValueError):
        return None


def entry(line: Line, mine: list[int]) -> dict[str, Any]:
    """The table as the lobby of the person at `mine` (their seats there) is told it."""
    actor = line.actor
    theirs = actor is not None and actor in mine
    out: dict[str, Any] = {
        "id": line.id,
        "game": line.game.name,
        "title": line.game.title,
        "status": line.status,
        "seats": line.seats,
        "mine": mine,
        "actor": actor,
        # Not while the server passes for them (a pass they have nothing else to make,
        # or one they asked for until their turn): nothing there waits on them.
        "your_turn": theirs and line.person_decides and not line.passed_for,
        "rematch": line.rematch,
        "actions": line.actions,
        "at": line.at,
    }
    if theirs and line.passed_for:
        out["passing"] = True
    if line.clock is not None:
        out["clock"] = line.clock
    if line.result is not None:
        out["result"] = {
            "winners": list(line.result.winners),
            "won": line.result.won,
            "reason": line.result.reason,
        }
        out["headline"] = line.game.headline(line.result, mine[0] if mine else None)
    return out


def steady(item: dict[str, Any] | None) -> dict[str, Any] | None:
    """An entry without what changes by itself (a running clock's seconds, which a page
    counts down): what a follower need not be told again."""
    clock = item.get("clock") if item is not None else None
    if item is None or not clock or not clock.get("running"):
        return item
    return {**item, "clock": {"running": True}}


def replay_turn(record: GameRecord) -> Turn:
    """Whose decision it is after the record's actions: a replay without events, bots or
    a record of its own (about a millisecond for a game of a hundred actions)."""
    game = get_game(record.game)
    config, pack = open_record(game, record)
    people = agents_for(game, ["human"] * len(record.seats))
    match = Match(game, people, record.seed, config, pack, record.seats, False, False)
    for written in record.actions:
        seat = game.actor(match.state)
        if seat is None:
            raise RecordError("an action after the end")
        match.play(seat, Action.parse(action_at(game, record.version, match.state, written)))
    actor = game.actor(match.state)
    if actor is None:
        return Turn(None, None, False, False)
    legal = game.legal_actions(match.state)
    return Turn(actor, game.decision(match.state), legal == [PASS], PASS in legal)


def replay_turns(records: dict[str, GameRecord]) -> dict[str, Turn]:
    """Each table's turn, in one call on a thread: a table that no longer replays (its
    pack changed under it) shows nobody deciding, as its page will say why."""
    out = {}
    for table_id, record in records.items():
        try:
            out[table_id] = replay_turn(record)
        except TavernkeepError as exc:
            log.warning("table %s: whose decision it is cannot be replayed: %s", table_id, exc)
            out[table_id] = Turn(None, None, False, False)
    return out
