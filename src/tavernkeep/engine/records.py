"""Game records: (game, pack, config, seed, seats, actions), replayed exactly.

Because every die and shuffle comes from the seeded RNG in the state, the actions alone
rebuild the whole game. A record also stores the pack's digest (so a changed card is
caught instead of replaying into a different game) and, once finished, the result, so
`tavernkeep replay --check` can prove the replay ends the same way.

A record is a file from anywhere, so it is read as untrusted: it may name a built-in pack
but never a file to read (the person replaying names that file), and whatever is wrong
with it (nesting thousands deep, numbers thousands of digits long) is one RecordError.
A game played with a designer's pack (a server's table opened from the workbench) holds
the pack itself (`pack_data`): it is validated as any pack file is, and must hash to the
record's digest.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import stat
import tempfile
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack, is_pack_name
from tavernkeep.engine.errors import ContentError, IllegalAction, RecordError, TavernkeepError
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Game

RECORD_VERSION: Literal[2] = 2
"""Version 2: an action's numbers are the numbers its game shows people (Hack & Slash's
`quest:1` is the quest shown as 1; version 1 counted its slots from 0). A record of an
older version keeps its texts as written; they are read in its version's numbering as
it is replayed (`Game.upgrade_text`, asked with the game just before each action, since
the text alone may not say what a number named)."""


def shift_arguments(positions: dict[str, tuple[int, ...]], by: int = 1) -> Callable[[str], str]:
    """Action texts with the integer arguments at `positions[kind]` moved by `by` (the
    numbers a game came to show people, counted from 1 where they were counted from 0);
    any other text (another kind, or one that does not parse) as it was, so that a replay
    still reports it by its number. For a game's `upgrade_text`."""

    def shift(text: str) -> str:
        try:
            action = Action.parse(text)
        except IllegalAction:
            return text
        where = positions.get(action.kind)
        if where is None:
            return text
        args = list(action.args)
        for index in where:
            if index < len(args) and isinstance(args[index], int):
                args[index] = int(args[index]) + by
        return Action(action.kind, *args).text

    return shift


def action_at(game: Game[Any, Any], version: int, state: Any, text: str) -> str:
    """A record's action text as this version writes it: `text` as written in a `version`
    record, read with `state`, the game just before it (`Game.upgrade_text`)."""
    return text if version >= RECORD_VERSION else game.upgrade_text(version, state, text)


def shorten(text: str, keep: int = 40) -> str:
    """A text a user gave, cut for a one-line error: a record's action may be thousands
    of characters long."""
    return text if len(text) <= keep else text[:keep] + "..."


class GameRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["tavernkeep-record"] = "tavernkeep-record"
    version: Literal[1, 2] = RECORD_VERSION
    """The numbering its actions are written in (see RECORD_VERSION): kept as read."""
    game: str
    pack: str = "standard"
    pack_digest: str = ""
    config: dict[str, Any] = Field(default_factory=dict)
    seed: int = Field(ge=0, lt=2**63)
    seats: list[str]
    actions: list[str] = Field(default_factory=list)
    result: dict[str, Any] | None = None
    names: list[Annotated[str, Field(max_length=100)] | None] | None = None
    """What each seat's person called themselves, where the game was played at a server's
    table (None for a bot or a person who gave no name). Only what is shown: a replay
    does not read it."""

    stood_in: list[Annotated[int, Field(ge=0)]] | None = None
    """The actions (by index, from 0) a bot chose for a seat whose person had left the
    table (a server's stand-in): the record says which decisions were not its person's."""

    pack_data: dict[str, Any] | None = None
    """The pack itself, where it is no built-in one: a designer's pack from the workbench,
    played at a server's table. Its data as its TOML file holds it (what `tomllib` reads),
    so the record replays without the file; checked against `pack_digest` as it loads.
    `pack` is then its name alone."""

    pack_base: Annotated[str, Field(max_length=64)] | None = None
    """The built-in pack `pack_data` was changed from: what its differences are read
    against (a table shows them). Only what is shown: a replay does not read it."""

    @model_validator(mode="after")
    def _a_name_a_seat(self) -> GameRecord:
        if self.names is not None and len(self.names) != len(self.seats):
            raise ValueError(f"names: {len(self.names)} for {len(self.seats)} seats")
        if self.pack_data is not None and not self.pack_digest:
            raise ValueError("pack_data: a pack the record holds comes with its pack_digest")
        return self

    def to_json(self) -> str:
        # A record with no names, stand-ins or pack of its own (the command line's) reads
        # as it did before there were.
        unsaid = {
            name
            for name in ("names", "stood_in", "pack_data", "pack_base")
            if getattr(self, name) is None
        }
        return self.model_dump_json(indent=1, exclude=unsaid or None)

    def save(self, path: str | Path) -> None:
        """Write atomically: a crash mid-write never leaves half a record behind."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        try:
            tmp.write_text(self.to_json() + "\n", encoding="utf-8")
            tmp.replace(target)
        except OSError as exc:
            raise RecordError(f"cannot write the record to {target}: {exc.strerror}") from None


def destination_problem(path: Path) -> str | None:
    """Why no file could be written at `path`, found before a game is played rather than
    after it; None when one can. The folder is tried with a file of its own, removed at
    once: only writing tells a read-only disk or a folder one may not write in."""
    if path.is_dir():
        return "it is a folder; give a file name, e.g. game.json"
    folder = path.parent
    if not folder.is_dir():
        return f"no such folder '{folder}'"
    if path.exists() and not path.is_file():
        return "it is not a regular file"
    try:
        handle, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".check", dir=folder)
    except OSError as exc:
        return f"cannot write in '{folder}': {exc.strerror}"
    os.close(handle)
    os.unlink(probe)
    return None


def load_record(path: str | Path) -> GameRecord:
    try:
        kind = os.stat(path).st_mode
        if not stat.S_ISREG(kind) and not stat.S_ISDIR(kind):
            # A device or a pipe may never end (/dev/zero): refuse it unread.
            raise RecordError(f"{path}: not a regular file, so not a game record")
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such record file") from None
    except (IsADirectoryError, UnicodeDecodeError):
        raise RecordError(f"{path}: not a game record (expected a JSON file)") from None
    except OSError as exc:
        raise RecordError(f"{path}: cannot read the record: {exc.strerror}") from None
    return parse_record(text, str(path))


def parse_record(text: str, where: str = "record") -> GameRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}: not valid JSON: {exc.msg} at line {exc.lineno}") from None
    except ValueError:
        # Python reads no integer of more than 4,300 digits; no record needs one.
        raise RecordError(f"{where}: not a game record: a number in it is too long") from None
    except RecursionError:
        raise RecordError(f"{where}: not a game record: nested too deep") from None
    if not isinstance(data, dict):
        raise RecordError(f"{where}: not a game record (expected a JSON object)")
    version = data.get("version", RECORD_VERSION)
    if type(version) is not int or not 1 <= version <= RECORD_VERSION:
        newer = type(version) is int and version > RECORD_VERSION
        raise RecordError(
            f"{where}: field 'version': {shorten(str(version))} is not a record version this "
            f"tavernkeep reads (1 to {RECORD_VERSION})"
            + ("; the record is from a newer tavernkeep" if newer else "")
        )
    try:
        return GameRecord.model_validate(data)
    except RecursionError:
        raise RecordError(f"{where}: not a game record: nested too deep") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        field = shorten(".".join(str(p) for p in err["loc"]) or "record")
        msg = "is missing" if err["type"] == "missing" else err["msg"]
        raise RecordError(f"{where}: field '{field}': {msg}") from None


_FROM_DATA: dict[tuple[str, str, str, str | None], Pack[Any]] = {}
FROM_DATA_KEPT = 16
"""Packs made from data kept loaded, by their data: a server replaying a designer's
table (or a replay page stepping through its record) validates its pack once."""


def pack_from_data(
    game: Game[Any, Any], data: dict[str, Any], name: str, base: str | None = None
) -> Pack[Any]:
    """A pack from its data (what its TOML file holds), loaded and validated the way the
    game loads any pack file, and named `name`: its errors name it, not the file written
    on the way. It keeps its `data` and `base`, so a record of a game played with it holds
    the pack. ContentError in one line for data that is no pack of the game."""
    import tomli_w

    try:
        text = tomli_w.dumps(data)
    except (TypeError, ValueError) as exc:  # a null, or a value TOML has no way to write
        raise ContentError(f"{name}: not a pack: {exc}") from None
    except RecursionError:
        raise ContentError(f"{name}: not a pack: nested too deep") from None
    key = (game.name, hashlib.sha256(text.encode()).hexdigest(), name, base)
    known = _FROM_DATA.get(key)
    if known is not None:
        return known
    with tempfile.TemporaryDirectory(prefix="tavernkeep-pack-") as folder:
        written = Path(folder) / "pack.toml"
        written.write_text(text, encoding="utf-8")
        try:
            loaded = game.load_pack(str(written))
        except ContentError as exc:
            # A line of the file written here is no line of the designer's file: the
            # error names the pack (its name) and the field, without it.
            said = re.sub(re.escape(str(written)) + r"(: line \d+)?", lambda _: name, str(exc))
            raise ContentError(said) from None
    # Its own copy, as the file holds it: nothing the caller changes later changes it.
    pack = dataclasses.replace(loaded, name=name, data=tomllib.loads(text), base=base)
    if len(_FROM_DATA) >= FROM_DATA_KEPT:
        del _FROM_DATA[next(iter(_FROM_DATA))]  # the oldest
    _FROM_DATA[key] = pack
    return pack


def open_record(
    game: Game[Any, Any], record: GameRecord, pack: str | Path | None = None
) -> tuple[BaseModel, Pack[Any]]:
    """The validated config and the pack a record was played with, or RecordError.

    `pack` is the pack the person replaying named (`--pack`); without it, the record's
    own pack must be a built-in one. A record naming a file is refused unread: a record
    comes from anywhere, and must not choose what this machine reads (/etc/passwd, or
    /dev/zero until memory runs out).
    """
    if record.game != game.name:
        raise RecordError(f"the record is a game of '{shorten(record.game)}', not '{game.name}'")
    held = pack is None and record.pack_data is not None
    if pack is None and not held and not is_pack_name(record.pack):
        raise RecordError(
            f"the record was played with the pack file '{shorten(record.pack, 80)}', and a "
            "record may not choose a file to read: name the pack with --pack"
        )
    try:
        if held:
            assert record.pack_data is not None
            loaded = pack_from_data(
                game, record.pack_data, shorten(record.pack, 60), record.pack_base
            )
        else:
            loaded = game.load_pack(record.pack if pack is None else pack)
        config = game.make_config(record.config)
    except TavernkeepError as exc:
        raise RecordError(f"the record cannot be set up: {exc}") from None
    except RecursionError:
        raise RecordError("the record cannot be set up: its config is nested too deep") from None
    if held and loaded.digest != record.pack_digest:
        raise RecordError(
            f"the pack the record holds ('{loaded.name}') is not the pack it was played "
            f"with (digest {shorten(record.pack_digest)}, its data's {loaded.digest})"
        )
    if record.pack_digest and loaded.digest != record.pack_digest:
        raise RecordError(
            # The pack as loaded: a built-in name or the file this person named, whole.
            f"the record was played with another version of pack '{loaded.name}' "
            f"(digest {shorten(record.pack_digest)}, now {loaded.digest})"
        )
    players = getattr(config, "players", len(record.seats))
    if len(record.seats) != players:
        raise RecordError(f"the record names {len(record.seats)} seats for {players} players")
    return config, loaded


def replay_steps(
    game: Game[Any, Any],
    record: GameRecord,
    record_events: bool = True,
    pack: str | Path | None = None,
) -> Iterator[tuple[int, Action | None, list[Event], Any]]:
    """Rebuild the game step by step: (index, action, events, state) after each action.

    The first item is the initial state (index 0, no action). A record that names
    another game, a changed pack, or an action that is not legal where it stands raises
    RecordError naming the action; the states already yielded stay valid. `pack` is the
    pack the person named (see `open_record`).
    """
    config, loaded = open_record(game, record, pack)
    state = game.setup(config, record.seed, loaded)
    yield 0, None, [], state
    for index, written in enumerate(record.actions, start=1):
        text = action_at(game, record.version, state, written)
        try:
            action = Action.parse(text)
            game.check_legal(state, action)
            events = game.apply(state, action, record_events)
        except IllegalAction as exc:
            raise RecordError(f"action #{index} '{shorten(text)}' does not replay: {exc}") from None
        yield index, action, events, state


def replay(game: Game[Any, Any], record: GameRecord, pack: str | Path | None = None) -> Any:
    """The final state of a record."""
    state = None
    for step in replay_steps(game, record, record_events=False, pack=pack):
        state = step[3]
    return state
