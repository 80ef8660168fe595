"""Content packs: game data in TOML, validated at load time.

A pack is one TOML file checked against the game's pydantic model. An error names the
file, the entry and the field in one line ("my.toml: quest #4 'Troll Bridge': field
'goal': Input should be less than or equal to 18"), so a designer can fix it at once.
An error with a place in the file names its line too ("my.toml: line 41: quest #4 ...").
A pack that loads may still say one thing on a card and play another: a game declares
which phrases of its cards' text restate which numbers (`Restated`), and each mismatch
is a warning on the Pack, one line each, which `pack check` prints; warnings never stop
a pack loading. A pack's digest hashes its validated content, so a game record can tell
when it is replayed against different cards than it was played with.
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
from tavernkeep.engine.toml_lines import line_of, locate

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
    warnings: tuple[str, ...] = ()
    """Lines for a designer where the pack loads but contradicts itself (a card's text
    says +2, its bonus is 1): each "FILE: line N: entry: what", in file order."""
    data: dict[str, Any] | None = None
    """The pack's data (what its TOML file holds), for a pack made from data rather than
    read from a file of its own (a designer's pack from the workbench, or one a record
    holds): a game's record keeps it, so the game replays without the file."""
    base: str | None = None
    """The built-in pack a designer's pack (`data`) was changed from, where it says."""


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


_WORDS = "zero one two three four five six seven eight nine ten eleven twelve"
_NUMBER_WORDS = {word: n for n, word in enumerate(_WORDS.split())}
_STEP = re.compile(r"([A-Za-z_][\w-]*)(?:\[([A-Za-z_][\w-]*)=([^\]]+)\])?\Z")


@dataclass(frozen=True)
class Restated:
    """A phrase of an entry's text that restates one of the entry's numbers, declared by
    its game: where the two disagree the card reads one way and plays another, which is
    a warning when the pack loads (`restated_warnings`).

    Only phrases a game declares are compared, never every number of a text against
    every field: "the first trick" or "4 actions a turn" are numbers of a different kind,
    and a warning that is wrong once is read never again.
    """

    kinds: tuple[str, ...]
    """The pack's lists of entries this reads: ("leader", "monster")."""
    pattern: str
    """A regular expression for the phrase; its one group (or else the whole match) is
    the number, in digits ("+2", "3") or a word ("two")."""
    field: str
    """Where the number is in an entry, as the TOML names it: "bonus", "skill.bonus",
    "when.die"; `effect[verb=draw].count` reads only the items of a list that have that
    key and value. A list of numbers holds the phrase's number if any of them is it."""
    text: str = "text"
    """Where the text is in an entry: "text", "skill.text"."""

    def __post_init__(self) -> None:
        # A game's mistake in its own declaration fails at import, not as a silent
        # comparison that never matches.
        if re.compile(self.pattern).groups > 1:
            raise ValueError(f"Restated {self.pattern!r}: one group, the number")
        for path in (self.field, self.text):
            if not all(_STEP.match(step) for step in path.split(".")):
                raise ValueError(f"Restated: '{path}' is not a field path")


def restated_warnings(
    content: BaseModel, restated: Sequence[Restated], file: str, text: str | None = None
) -> tuple[str, ...]:
    """One line for each phrase of an entry's text whose number its field does not hold:
    "FILE: line N: leader #4 'The Wild Hawk': its skill.text says '+2' but its
    skill.bonus is [1]", the line the field's (or, where it has none, the text's)."""
    if not restated:
        return ()
    data = content.model_dump(by_alias=True)  # as the TOML names fields, defaults filled
    found: list[tuple[tuple[int | str, ...], str]] = []
    for claim in restated:
        for kind in claim.kinds:
            entries = data.get(kind)
            if not isinstance(entries, list):
                continue
            for index, entry in enumerate(entries):
                found.extend(_contradictions(claim, data, (kind, index), entry))
    if not found:
        return ()
    located = locate(text) if text is not None else None
    placed = sorted(
        ((line_of(located, place), said) for place, said in found), key=lambda p: p[0] or 0
    )
    lines: list[str] = []
    for line, said in placed:  # in file order, as a designer reads the file
        warning = f"{_at_line(file, line)}{said}"
        if warning not in lines:  # the same phrase twice in one text: one warning
            lines.append(warning)
    return tuple(lines)


def _contradictions(
    claim: Restated, data: dict[str, Any], at: tuple[int | str, ...], entry: Any
) -> list[tuple[tuple[int | str, ...], str]]:
    out: list[tuple[tuple[int | str, ...], str]] = []
    for text_at, text in _values_at(entry, claim.text, at):
        if not isinstance(text, str):
            continue
        for match in re.finditer(claim.pattern, text):
            said = _said(match.group(1) if match.re.groups else match.group())
            if said is None:
                continue
            held = _values_at(entry, claim.field, at)
            numbers = [
                n
                for _, value in held
                for n in (value if isinstance(value, list) else [value])
                if isinstance(n, int | float) and not isinstance(n, bool)
            ]
            if said in numbers:
                continue
            shown = " and ".join(_shown(value) for _, value in held if value is not None)
            where = held[0][0] if held else text_at
            out.append(
                (
                    where,
                    f"{_where(data, at)}its {claim.text} says '{match.group()}' but its "
                    f"{claim.field} is {shown or 'not set'}",
                )
            )
    return out


def _values_at(
    node: Any, path: str, at: tuple[int | str, ...]
) -> list[tuple[tuple[int | str, ...], Any]]:
    """The values at a Restated path within an entry, each with its place in the pack."""
    found = [(at, node)]
    for step in path.split("."):
        matched = _STEP.match(step)
        assert matched is not None  # checked when the Restated was made
        name, key, wanted = matched.groups()
        following: list[tuple[tuple[int | str, ...], Any]] = []
        # A list on the way ("effects.amount") is read item by item.
        stepped: list[tuple[tuple[int | str, ...], Any]] = []
        for place, value in found:
            if isinstance(value, list):
                stepped.extend(((*place, i), item) for i, item in enumerate(value))
            else:
                stepped.append((place, value))
        for place, value in stepped:
            child = value.get(name) if isinstance(value, dict) else None
            if child is None:
                continue
            if key is None:
                following.append(((*place, name), child))
                continue
            items = child if isinstance(child, list) else [child]
            following.extend(
                ((*place, name, i), item)
                for i, item in enumerate(items)
                if isinstance(item, dict) and str(item.get(key)) == wanted
            )
        found = following
    return found


def _said(word: str) -> int | None:
    try:
        return int(word)
    except ValueError:
        return _NUMBER_WORDS.get(word.lower())


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


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


def load_pack(
    game: str,
    model: type[M],
    source: str | Path | None,
    content_dir: Path,
    restated: Sequence[Restated] = (),
) -> Pack[M]:
    """A pack, validated against `model`; `restated` says which phrases of its entries'
    text restate which of their numbers, for the Pack's warnings."""
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
        text = path.read_text(encoding="utf-8")
        raw = tomllib.loads(text)
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
    content = validate(model, raw, str(path), text)
    digest = hashlib.sha256(content.model_dump_json().encode()).hexdigest()[:16]
    warnings = restated_warnings(content, restated, str(path), text)
    pack = Pack(game=game, name=name, digest=digest, content=content, warnings=warnings)
    if len(_LOADED) >= LOADED_KEEP:
        del _LOADED[next(iter(_LOADED))]  # the oldest loaded
    _LOADED[key] = pack
    return pack


def validate(model: type[M], raw: dict[str, Any], file: str, text: str | None = None) -> M:
    """`raw` validated against `model`, or one line naming the first mistake: the file,
    the line in `text` (the file's TOML) where it is found, the entry and the field."""
    try:
        return model.model_validate(raw)
    except RecursionError:
        raise ContentError(f"{file}: not a pack: nested too deep") from None
    except ValidationError as exc:
        errors = exc.errors()
        first = errors[0]
        more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
        message = _message(first, model)
        line = None
        if text is not None:
            line = line_of(locate(text), _place(tuple(first["loc"]), message))
        raise ContentError(
            f"{_at_line(file, line)}{_where(raw, first['loc'])}{message}{more}"
        ) from None


def _at_line(file: str, line: int | None) -> str:
    # "FILE: line N: ", the file first as in every pack error, so the line starts alike
    # with or without a line to name.
    return f"{file}: line {line}: " if line is not None else f"{file}: "


_NAMED_ENTRY = re.compile(r"([A-Za-z_][\w-]*) #(\d+)\b(?: '.*?'(?=:))?(?:: field '([^']+)')?")
_NAMED_FIELD = re.compile(r"field '([^']+)'")


def _place(loc: tuple[int | str, ...], message: str) -> tuple[int | str, ...]:
    """Where a mistake is, for its line. A check of a whole entry or pack has no field in
    pydantic's location (it checks several), but says in its message where the mistake
    is: "field 'times': ..." of the entry it checks, or "quest #3 'Rats': field 'name':
    ..." of the pack; either is taken at its word."""
    if not loc:
        entry = _NAMED_ENTRY.match(message)
        if entry is not None:
            section, number, name = entry.groups()
            return (section, int(number) - 1) + ((name,) if name else ())
    field = _NAMED_FIELD.match(message)
    if field is not None and (not loc or loc[-1] != field.group(1)):
        return (*loc, field.group(1))
    return loc


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
