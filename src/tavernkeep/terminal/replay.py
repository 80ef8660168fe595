"""`tavernkeep replay`: step through a recorded game, or check that it replays exactly."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from tavernkeep.engine.errors import RecordError
from tavernkeep.engine.game import Game
from tavernkeep.engine.records import GameRecord, load_record, replay, replay_steps
from tavernkeep.games import game_names, get_game
from tavernkeep.terminal.render import ending_text, event_line, renderer_for


def check_record(path: Path, pack: str | None = None) -> None:
    """Replay silently and compare with the stored result; a mismatch is an error.
    `pack` is the pack file the person names, for a game played with one."""
    record = load_record(path)
    game = record_game(path, record)
    result = game.result(replay(game, record, pack))
    count = len(record.actions)
    if record.result is None:
        status = "finished" if result is not None else "not finished"
        print(f"OK: {count} actions replay; the record has no result (game {status}).")
        return
    if result is None:
        raise RecordError(f"{path}: the game is not over after its {count} actions")
    replayed = result.to_json()
    if replayed != record.result:
        differs = difference(record.result, replayed)
        raise RecordError(f"{path}: replays to a different result: {differs}")
    print(f"OK: {count} actions replay to the recorded result: {result.reason}.")


def record_game(path: Path, record: GameRecord) -> Game[Any, Any]:
    """The game a record names, or RecordError in a line of readable length."""
    if record.game not in game_names():
        shown = record.game if len(record.game) <= 40 else record.game[:40] + "..."
        known = ", ".join(game_names())
        raise RecordError(f"{path}: a record of an unknown game '{shown}' (games: {known})")
    return get_game(record.game)


def difference(recorded: Any, replayed: Any, where: str = "") -> str:
    """The first thing that differs between two results, by its name, with both values:
    "scores: recorded [3.0, 1.0], replayed [2.0, 1.0]" (and how many others differ)."""
    found = differences(recorded, replayed, where)
    name, old, new = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return f"{name}: recorded {shown(old)}, replayed {shown(new)}{more}"


def differences(recorded: Any, replayed: Any, where: str) -> list[tuple[str, Any, Any]]:
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        found = []
        for key in [*recorded, *(k for k in replayed if k not in recorded)]:
            name = f"{where}.{key}" if where else str(key)
            if key not in recorded or key not in replayed:
                found.append((name, recorded.get(key, MISSING), replayed.get(key, MISSING)))
            elif recorded[key] != replayed[key]:
                found.extend(differences(recorded[key], replayed[key], name))
        return found
    if (
        isinstance(recorded, list)
        and isinstance(replayed, list)
        and len(recorded) == len(replayed)
        and any(isinstance(item, (dict, list)) for item in recorded)
    ):
        # Per-seat tallies: name the seat and the count, not a page of JSON.
        found = []
        for index, (old, new) in enumerate(zip(recorded, replayed, strict=True)):
            if old != new:
                found.extend(differences(old, new, f"{where}[{index}]"))
        return found
    return [(where or "result", recorded, replayed)]


class _Missing:
    def __repr__(self) -> str:
        return "nothing"


MISSING = _Missing()


def shown(value: Any) -> str:
    """A value as JSON writes it, cut to a readable length."""
    text = repr(value) if value is MISSING else json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def show_replay(path: Path, delay: float | None, pack: str | None = None) -> None:
    record = load_record(path)
    game = record_game(path, record)
    console = Console(highlight=False)
    render = renderer_for(game)
    interactive = delay is None and sys.stdin.isatty()
    console.print(
        f"[bold]{game.title}[/], seed {record.seed}, seats: {', '.join(record.seats)}; "
        f"{len(record.actions)} actions."
    )
    state = None
    for index, action, events, state in replay_steps(game, record, pack=pack):
        if action is not None:
            console.print(f"[dim]#{index} {action.text}[/]")
        for event in events:
            seen = event.for_seat(None)
            if seen is not None:
                console.print(event_line(seen))
        if interactive:
            console.print(render(game.view(state, None)))
            try:
                input("Enter for the next action (Ctrl-C to stop) ")
            except (KeyboardInterrupt, EOFError):
                console.print()
                return
        elif delay:
            time.sleep(delay)
    console.print(render(game.view(state, None)))
    result = game.result(state)
    console.print(ending_text(game, result, None) if result else "The game was not finished.")
