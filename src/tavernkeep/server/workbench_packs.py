"""Packs in the workbench: a game's pack as the form edits it, checked the way the game
loads any pack, and told apart from the pack it started from.

A pack is the raw data of its TOML file (what `tomllib` reads), as JSON: the form is made
in the browser from the JSON schema of the game's own pack model (the pydantic model a
pack is validated against when it loads), so every game's cards, quests, monsters,
leaders and hexes get their form without a line of code a game. A pack is checked twice
over, both with the game's loader: `lab.sweep.load_raw` gives the verdict (the first
mistake in one line, as `tavernkeep pack check` says it) and the model's own error list
places each mistake beside its field (`field_errors`). What changed is the lab's
`pack_changes`, in `change_text`'s words.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from pydantic import BaseModel, ValidationError

from tavernkeep.engine.content import builtin_packs
from tavernkeep.engine.errors import ConfigError, ContentError, TavernkeepError
from tavernkeep.engine.game import Game
from tavernkeep.games import all_games, game_names, get_game
from tavernkeep.lab.compare import change_text, pack_changes
from tavernkeep.lab.sweep import load_raw, pack_file_text

PACK_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.\-]{0,59}\Z")
"""A saved pack's name: what a file may be called, a line long at most."""
MOST_DEPTH = 12
"""Nesting of a pack's data: a pack's deepest (an effect's step in a card) is four."""
_ENTRY = re.compile(r"([A-Za-z_][\w-]*) #(\d+)\b(?: '.*?'(?=:))?(?:: field '([^']+)')?: ")


class PackProblem(TavernkeepError):
    """A pack the workbench cannot take, in one line: its name, its TOML, its shape."""


def workbench_game(name: str) -> Game[Any, Any]:
    if name not in game_names():
        raise PackProblem(f"unknown game '{name[:64]}' (games: {', '.join(game_names())})")
    return get_game(name)


def builtin(game: Game[Any, Any]) -> list[str]:
    """The game's own packs, by name ('standard'; Rage's map is 'village')."""
    return builtin_packs(game.content_dir)


def model_of(game: Game[Any, Any]) -> type[BaseModel]:
    """The pydantic model the game validates its packs against: the type of a loaded
    pack's content, whatever the game calls it."""
    return type(game.load_pack().content)


def form_schema(game: Game[Any, Any]) -> dict[str, Any]:
    """The JSON schema the page makes its form from, with the entry kinds' words."""
    return {
        "game": game.name,
        "title": game.title,
        "schema": model_of(game).model_json_schema(),
        "packs": builtin(game),
    }


def builtin_toml(game: Game[Any, Any], name: str) -> str:
    """A built-in pack's file, comments and all."""
    if name not in builtin(game):
        raise PackProblem(f"{game.name} has no built-in pack '{name[:64]}'")
    return pack_file_text(game, name)[1]


def read_toml(text: str, label: str) -> dict[str, Any]:
    """A pack file's data, or one line saying why it is no TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PackProblem(f"{label}: not valid TOML: {exc}") from None
    except (ValueError, RecursionError):
        raise PackProblem(f"{label}: not a pack: a number too long or nested too deep") from None


def to_toml(raw: dict[str, Any]) -> str:
    import tomli_w

    return tomli_w.dumps(raw)


def check_name(name: str, game: Game[Any, Any]) -> str:
    name = name.strip()
    if not PACK_NAME.match(name):
        raise PackProblem(
            "a pack's name is 1 to 60 letters, digits, spaces, '-', '_' or '.', starting "
            "with a letter or digit"
        )
    if name in builtin(game):
        raise PackProblem(f"'{name}' is {game.title}'s own pack: save yours under another name")
    return name


def cleaned(data: Any, depth: int = 0) -> Any:
    """A form's data as a pack file holds it: a field left empty (null) is left out, as
    a file leaves out what it does not set. PackProblem for what TOML cannot hold."""
    if depth > MOST_DEPTH:
        raise PackProblem(f"a pack is nested at most {MOST_DEPTH} levels deep")
    if isinstance(data, dict):
        return {str(k): cleaned(v, depth + 1) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        if any(v is None for v in data):
            raise PackProblem("a list in a pack holds no empty values")
        return [cleaned(v, depth + 1) for v in data]
    if isinstance(data, int) and not isinstance(data, bool) and abs(data) >= 2**63:
        raise PackProblem(f"{data} is too large a number for a pack")
    return data


def check(game: Game[Any, Any], data: Any, label: str) -> dict[str, Any]:
    """The game's verdict on a pack: {"valid", "error" (the first mistake in one line, or
    None), "errors" (each mistake at its field: {"path", "message"}), "warnings" (where
    a card's text and its numbers disagree), "digest"}."""
    if not isinstance(data, dict):
        raise PackProblem("a pack is a table of its entries (a JSON object)")
    raw = cleaned(data)
    errors = field_errors(model_of(game), raw)
    try:
        pack = load_raw(game, raw, label)
    except (ContentError, ConfigError) as exc:
        return {"valid": False, "error": str(exc), "errors": errors, "warnings": [], "digest": None}
    except (TypeError, ValueError) as exc:  # what tomli_w cannot write
        raise PackProblem(f"{label}: not a pack: {exc}") from None
    warnings = [re.sub(r"^.*?pack\.toml: (line \d+: )?", "", w) for w in pack.warnings]
    return {
        "valid": True,
        "error": None,
        "errors": [],
        "warnings": warnings,
        "digest": pack.digest,
    }


def field_errors(model: type[BaseModel], raw: dict[str, Any]) -> list[dict[str, Any]]:
    """Every mistake the pack model finds, each at the place its field is
    (`["quest", 3, "goal"]`). A check of a whole entry or pack (unique names) has no field
    in its location but names one in its message ("quest #3 'Rats': field 'name': ..."),
    which is taken at its word."""
    try:
        model.model_validate(raw)
    except ValidationError as exc:
        out = []
        for error in exc.errors():
            path: list[Any] = list(error["loc"])
            message = str(error["msg"]).removeprefix("Value error, ")
            if error["type"] == "missing":
                message = "is missing"
            elif error["type"] == "extra_forbidden":
                message = "is not a known field"
            named = _ENTRY.match(message)
            if named is not None:
                section, number, field = named.groups()
                path = [*path, section, int(number) - 1] + ([field] if field else [])
                message = message[named.end() :]
            out.append({"path": path, "message": message})
        return out
    except RecursionError:
        return [{"path": [], "message": "nested too deep"}]
    return []


def changes(base: dict[str, Any], raw: dict[str, Any]) -> list[dict[str, Any]]:
    """What differs from the pack it started from, each with the lab's words for it."""
    return [
        {"where": c["where"], "entry": c["entry"], "text": change_text(c)}
        for c in pack_changes(base, cleaned(raw))
    ]


def games() -> list[dict[str, Any]]:
    """The games the workbench offers, each with its built-in packs."""
    return [
        {"name": g.name, "title": g.title, "kind": g.kind, "builtin": builtin(g),
         "min_players": g.min_players, "max_players": g.max_players}
        for g in all_games()
    ]
