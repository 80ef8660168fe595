"""Content packs: game data in TOML, validated at load time.

A pack is one TOML file checked against the game's pydantic model. An error names the
file, the entry and the field in one line ("my.toml: quest #4 'Troll Bridge': field
'goal': Input should be less than or equal to 18"), so a designer can fix it at once.
A pack's digest hashes its validated content, so a game record can tell when it is
replayed against different cards than it was played with.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
import stat
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar, get_args

from pydantic import BaseModel, ValidationError

from tavernkeep.engine.errors import ContentError

M = TypeVar("M", bound=BaseModel)
C = TypeVar("C")
V = TypeVar("V")


@dataclass(frozen=True, eq=False)
class Pack(Generic[M]):
    """A loaded, validated content pack. Shared by every state that uses it, never copied."""

    game: str
    name: str
    """'standard' for a built-in pack, else the path it was loaded from."""
    digest: str
    content: M


class Derived(Generic[C, V]):
    """What a game works out once from loaded content (every card's face, an index of
    effects, a map's distance tables), kept for the few content objects last asked about.

    Content is never changed once loaded (packs are frozen models, and what is built
    from them is read only), and a sweep's every variant is a new object, so the object
    itself is the key, compared by identity: nothing is hashed, and an object no longer
    asked about is let go after `keep` others.
    """

    def __init__(self, build: Callable[[C], V], keep: int = 4) -> None:
        self.build = build
        self.keep = keep
        self._kept: list[tuple[C, V]] = []

    def __call__(self, content: C) -> V:
        for known, value in self._kept:
            if known is content:
                return value
        value = self.build(content)
        self._kept.insert(0, (content, value))
        del self._kept[self.keep :]
        return value


def check_unique_names(
    sections: Iterable[tuple[str, Sequence[str]]], taken: Iterable[str] = ()
) -> None:
    """Card names are how records, logs and people tell cards apart: raise ValueError
    naming the first card (section, number, name) whose name a card before it has, in
    these sections or among `taken`. A pack validator calls this; `load_pack` turns the
    error into its one-line message."""
    seen = set(taken)
    for section, names in sections:
        for number, name in enumerate(names, start=1):
            if name in seen:
                raise ValueError(
                    f"{section} #{number} '{name}': field 'name': another card has that name"
                )
            seen.add(name)


def builtin_packs(content_dir: Path) -> list[str]:
    return sorted(p.stem for p in content_dir.glob("*.toml"))


_PACK_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*\Z")


def is_pack_name(source: str) -> bool:
    """Whether `source` names a built-in pack ('standard') rather than a file: a plain word,
    which can only ever be looked up among a game's own packs."""
    return _PACK_NAME.match(source) is not None and not source.endswith(".toml")


def resolve_pack_path(source: str | Path | None, content_dir: Path) -> tuple[str, Path]:
    """Name and path of a pack: None means 'standard'; a bare name a built-in pack."""
    if source is None:
        source = "standard"
    text = str(source)
    if isinstance(source, str) and "/" not in text and not text.endswith(".toml"):
        if not is_pack_name(text):
            raise ContentError(f"'{text[:80]}' is not a pack: name a built-in pack or a .toml file")
        path = content_dir / f"{text}.toml"
        if not path.is_file():
            known = ", ".join(builtin_packs(content_dir)) or "none"
            raise ContentError(f"no built-in pack named '{text}' (built-in packs: {known})")
        return text, path
    return text, Path(text)


def toml_hint(text: str) -> str:
    """What to write instead, for the TOML mistake a designer makes most: an entry of a
    list headed `[quest]` (a table, once) where each of a list is `[[quest]]`."""
    single = re.findall(r"^\s*\[([A-Za-z_][\w-]*)\]\s*(?:#.*)?$", text, re.M)
    double = set(re.findall(r"^\s*\[\[([A-Za-z_][\w-]*)\]\]\s*(?:#.*)?$", text, re.M))
    for name in single:
        if name in double or single.count(name) > 1:
            return f"; each entry of a list is headed [[{name}]] (two brackets), not [{name}]"
    return ""


_LOADED: dict[tuple[str, type[BaseModel], str, int, int], Pack[Any]] = {}
LOADED_KEEP = 16
"""Packs kept loaded, by file and its modification: a server opening table after table
reads, validates and works out its pack's faces once, not once a table, and a designer's
saved change is a new file to load."""


def load_pack(game: str, model: type[M], source: str | Path | None, content_dir: Path) -> Pack[M]:
    name, path = resolve_pack_path(source, content_dir)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode) and not path.is_dir():
            # A device or a pipe may never end (/dev/zero): refuse it unread.
            raise ContentError(f"{path}: not a regular file; a pack is one .toml file")
        key = (game, model, f"{name}\0{path.resolve()}", info.st_mtime_ns, info.st_size)
        known = _LOADED.get(key)
        if known is not None:
            return known
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ContentError(f"{path}: no such pack file") from None
    except IsADirectoryError:
        raise ContentError(f"{path}: is a folder; a pack is one .toml file") from None
    except UnicodeDecodeError:
        raise ContentError(f"{path}: not a text file (expected UTF-8 TOML)") from None
    except OSError as exc:
        raise ContentError(f"{path}: cannot read the pack: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        hint = toml_hint(path.read_text(encoding="utf-8", errors="replace"))
        raise ContentError(f"{path}: not valid TOML: {exc}{hint}") from None
    except ValueError:
        # Python reads no integer of more than 4,300 digits; no pack needs one.
        raise ContentError(f"{path}: not a pack: a number in it is too long") from None
    except RecursionError:
        raise ContentError(f"{path}: not a pack: nested too deep") from None
    content = validate(model, raw, str(path))
    digest = hashlib.sha256(content.model_dump_json().encode()).hexdigest()[:16]
    pack = Pack(game=game, name=name, digest=digest, content=content)
    if len(_LOADED) >= LOADED_KEEP:
        del _LOADED[next(iter(_LOADED))]  # the oldest loaded
    _LOADED[key] = pack
    return pack


def validate(model: type[M], raw: dict[str, Any], file: str) -> M:
    try:
        return model.model_validate(raw)
    except RecursionError:
        raise ContentError(f"{file}: not a pack: nested too deep") from None
    except ValidationError as exc:
        errors = exc.errors()
        first = errors[0]
        more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
        raise ContentError(
            f"{file}: {_where(raw, first['loc'])}{_message(first, model)}{more}"
        ) from None


def _message(error: Any, model: type[BaseModel]) -> str:
    msg = str(error["msg"]).removeprefix("Value error, ")
    if error["type"] == "missing":
        return "is missing"
    if error["type"] == "extra_forbidden":
        # A misspelt field or table ('rewrad', '[[quests]]'): the one it most likely means.
        known = _fields_at(model, tuple(error["loc"])[:-1])
        close = difflib.get_close_matches(str(error["loc"][-1]), known, n=1, cutoff=0.6)
        if close:
            return f"is not a known field; did you mean '{close[0]}'?"
        return "is not a known field" + (f" (fields: {', '.join(known)})" if known else "")
    return msg


def _fields_at(model: Any, loc: tuple[int | str, ...]) -> list[str]:
    """The field names of the model that validates the part of a pack at `loc` (a list's
    index steps into its items; a union, into its first model)."""
    node: Any = model
    for key in loc:
        node = _model_in(node)
        if node is None:
            return []
        if isinstance(key, int):
            continue
        field = node.model_fields.get(key)
        if field is None:
            return []
        node = field.annotation
    found = _model_in(node)
    return list(found.model_fields) if found is not None else []


def _model_in(annotation: Any) -> Any:
    """The pydantic model an annotation holds: itself, or a list's or an optional's."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for inner in get_args(annotation):
        found = _model_in(inner)
        if found is not None:
            return found
    return None


def _where(raw: Any, loc: tuple[int | str, ...]) -> str:
    """'quest #4 'Troll Bridge': field 'goal': ' for loc ('quest', 3, 'goal')."""
    parts: list[str] = []
    node = raw
    i = 0
    while i < len(loc):
        key = loc[i]
        if isinstance(key, str) and i + 1 < len(loc) and isinstance(loc[i + 1], int):
            index = int(loc[i + 1])
            items = node.get(key) if isinstance(node, dict) else None
            item = items[index] if isinstance(items, list) and index < len(items) else None
            label = f"{key} #{index + 1}"
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                label += f" '{item['name']}'"
            parts.append(label)
            node = item
            i += 2
            continue
        if i == len(loc) - 1:
            parts.append(f"field '{key}'")
        else:
            parts.append(f"'{key}'")
        node = node.get(key) if isinstance(node, dict) else None
        i += 1
    return "".join(p + ": " for p in parts)
