"""Replays in the browser: a finished game stepped through, forward and back.

The page holds the record (a finished table's, or a file the person opened) and asks for
one step at a time: the board at that step as a seat saw it (any seat: the game is over,
so every hand may be shown), the log up to it with the dice as they fell, and what the
step was. The server keeps nothing: each ask replays the record, which takes milliseconds
for the longest of our games, and a stranger's asks are bounded (`MAX_ACTIONS`, the body
limit, a rate an address).
"""

from __future__ import annotations

import json
from typing import Any

from tavernkeep.engine.errors import RecordError, TavernkeepError
from tavernkeep.engine.records import parse_record, replay_steps
from tavernkeep.games import game_names, get_game

MAX_ACTIONS = 5000
"""Actions a replayed record may hold: well past our longest games (a few hundred)."""
FRAMES_PER_MINUTE = 600
FRAMES_BURST = 60
"""Steps an address may ask for: a person holding the arrow key down, not a flood."""


def frame(raw: object, seat: object, step: object) -> dict[str, Any]:
    """Step `step` of the record `raw` as `seat` (None: a spectator) saw it; RecordError
    in one line for a record, seat or step that is not one. `raw` is the record's text as
    written (what the page sends: a seed of 19 digits is no JavaScript number, so a record
    read into one and written out again would hold another seed), or its JSON object."""
    if isinstance(raw, str):
        record = parse_record(raw, "the record")
    elif isinstance(raw, dict):
        record = parse_record(json.dumps(raw), "the record")
    else:
        raise RecordError("the record must be a game record's text or JSON object")
    if record.game not in game_names():
        raise RecordError(f"the record is of a game this server does not have ({record.game[:40]})")
    if len(record.actions) > MAX_ACTIONS:
        raise RecordError(f"the record has over {MAX_ACTIONS:,} actions: too long to replay here")
    players = len(record.seats)
    if seat is not None and (
        not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players
    ):
        raise RecordError(f"seat must be a seat of the game (0 to {players - 1}) or null")
    total = len(record.actions)
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= total:
        raise RecordError(f"step must be from 0 to {total}")
    game = get_game(record.game)
    log: list[dict[str, Any]] = []
    turns: list[int] = []
    out: dict[str, Any] = {}
    before: Any = None
    previous: int | None = None  # the seat deciding at the step before
    state: Any = None
    try:
        for index, action, events, state in replay_steps(game, record):
            if index <= step:
                for event in events:
                    seen = event.for_seat(seat)
                    if seen is not None:
                        log.append(seen.to_json())
            if index == step:
                out = {
                    "view": game.view(state, seat),
                    "actor": game.actor(state),
                    # The step's action as the seat that chose it read it on its screen.
                    "label": game.label(before, action) if action is not None else None,
                    "by": previous if action is not None else None,
                }
            actor = game.actor(state)
            # A turn begins where the decision passes to another seat: what "jump to a
            # turn" lists.
            if actor is not None and actor != previous:
                turns.append(index)
            if index == step - 1:
                before = game.clone(state)
            previous = actor
    except TavernkeepError as exc:
        raise RecordError(f"the record does not replay: {exc}") from None
    result = game.result(state) if step == total else None
    names = record.names or [None] * players
    return {
        "game": game.name,
        "title": game.title,
        "seats": record.seats,
        "names": names,
        "seat": seat,
        "steps": total,
        "step": step,
        "turns": turns,
        "log": log,
        "result": result.to_json() if result is not None else None,
        "headline": game.headline(result, seat) if result is not None else None,
        **out,
    }
