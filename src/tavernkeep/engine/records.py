"""Game records: (game, pack, config, seed, seats, actions), replayed exactly.

Because every die and shuffle comes from the seeded RNG in the state, the actions alone
rebuild the whole game. A record also stores the pack's digest (so a changed card is
caught instead of replaying into a different game) and, once finished, the result, so
`tavernkeep replay --check` can prove the replay ends the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.engine.errors import IllegalAction, RecordError, TavernkeepError
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Game


class GameRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["tavernkeep-record"] = "tavernkeep-record"
    version: Literal[1] = 1
    game: str
    pack: str = "standard"
    pack_digest: str = ""
    config: dict[str, Any] = Field(default_factory=dict)
    seed: int = Field(ge=0, lt=2**63)
    seats: list[str]
    actions: list[str] = Field(default_factory=list)
    result: dict[str, Any] | None = None

    def to_json(self) -> str:
        return self.model_dump_json(indent=1)

    def save(self, path: str | Path) -> None:
        """Write atomically: a crash mid-write never leaves half a record behind."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        try:
            tmp.write_text(self.to_json() + "\n", encoding="utf-8")
            tmp.replace(target)
        except OSError as exc:
            raise RecordError(f"cannot write the record to {target}: {exc.strerror}") from None


def load_record(path: str | Path) -> GameRecord:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such record file") from None
    except (IsADirectoryError, UnicodeDecodeError):
        raise RecordError(f"{path}: not a game record (expected a JSON file)") from None
    return parse_record(text, str(path))


def parse_record(text: str, where: str = "record") -> GameRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}: not valid JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{where}: not a game record (expected a JSON object)")
    try:
        return GameRecord.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "record"
        msg = "is missing" if err["type"] == "missing" else err["msg"]
        raise RecordError(f"{where}: field '{field}': {msg}") from None


def open_record(game: Game[Any, Any], record: GameRecord) -> tuple[BaseModel, Pack[Any]]:
    """The validated config and the pack a record was played with, or RecordError."""
    if record.game != game.name:
        raise RecordError(f"the record is a game of '{record.game}', not '{game.name}'")
    try:
        pack = game.load_pack(record.pack)
        config = game.make_config(record.config)
    except TavernkeepError as exc:
        raise RecordError(f"the record cannot be set up: {exc}") from None
    if record.pack_digest and pack.digest != record.pack_digest:
        raise RecordError(
            f"the record was played with another version of pack '{record.pack}' "
            f"(digest {record.pack_digest}, now {pack.digest})"
        )
    players = getattr(config, "players", len(record.seats))
    if len(record.seats) != players:
        raise RecordError(f"the record names {len(record.seats)} seats for {players} players")
    return config, pack


def replay_steps(
    game: Game[Any, Any], record: GameRecord, record_events: bool = True
) -> Iterator[tuple[int, Action | None, list[Event], Any]]:
    """Rebuild the game step by step: (index, action, events, state) after each action.

    The first item is the initial state (index 0, no action). A record that names
    another game, a changed pack, or an action that is not legal where it stands raises
    RecordError naming the action; the states already yielded stay valid.
    """
    config, pack = open_record(game, record)
    state = game.setup(config, record.seed, pack)
    yield 0, None, [], state
    for index, text in enumerate(record.actions, start=1):
        try:
            action = Action.parse(text)
            game.check_legal(state, action)
            events = game.apply(state, action, record_events)
        except IllegalAction as exc:
            raise RecordError(f"action #{index} '{text}' does not replay: {exc}") from None
        yield index, action, events, state


def replay(game: Game[Any, Any], record: GameRecord) -> Any:
    """The final state of a record."""
    state = None
    for step in replay_steps(game, record, record_events=False):
        state = step[3]
    return state
