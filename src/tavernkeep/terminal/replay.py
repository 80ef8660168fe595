"""`tavernkeep replay`: step through a recorded game, or check that it replays exactly."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from rich.console import Console

from tavernkeep.engine.errors import RecordError
from tavernkeep.engine.records import load_record, replay, replay_steps
from tavernkeep.games import get_game
from tavernkeep.terminal.render import event_line, renderer_for


def check_record(path: Path) -> None:
    """Replay silently and compare with the stored result; a mismatch is an error."""
    record = load_record(path)
    game = get_game(record.game)
    result = game.result(replay(game, record))
    count = len(record.actions)
    if record.result is None:
        status = "finished" if result is not None else "not finished"
        print(f"OK: {count} actions replay; the record has no result (game {status}).")
        return
    if result is None:
        raise RecordError(f"{path}: the game is not over after its {count} actions")
    if result.to_json() != record.result:
        raise RecordError(
            f"{path}: replays to a different result: recorded '{record.result.get('reason')}', "
            f"replayed '{result.reason}'"
        )
    print(f"OK: {count} actions replay to the recorded result: {result.reason}.")


def show_replay(path: Path, delay: float | None) -> None:
    record = load_record(path)
    game = get_game(record.game)
    console = Console(highlight=False)
    render = renderer_for(game)
    interactive = delay is None and sys.stdin.isatty()
    console.print(
        f"[bold]{game.title}[/], seed {record.seed}, seats: {', '.join(record.seats)}; "
        f"{len(record.actions)} actions."
    )
    state = None
    for index, action, events, state in replay_steps(game, record):
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
    console.print(f"[bold green]{result.reason}.[/]" if result else "The game was not finished.")
