"""Where a value is in a TOML file: the line of a key, an entry or a list item.

tomllib gives values without positions, and a pack's error or warning should name the
line a designer opens the file at. This reads the text once more, for positions only:
a TOML file tomllib has already read, so it trusts the syntax and gives up (no line, not
an error) at anything it does not follow.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field

_BARE = re.compile(r"[A-Za-z0-9_\-]+")


@dataclass
class Located:
    """A value of the file and its line (1-based): a table's keys, or an array's items."""

    line: int
    keys: dict[str, Located] = field(default_factory=dict)
    items: list[Located] = field(default_factory=list)
    entries: bool = False
    """An array of tables ([[name]] headers), which later headers append to."""


class _Unfollowed(Exception):
    """Text the scanner does not follow: no lines for this file."""


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.line = 1

    def peek(self, ahead: int = 0) -> str:
        i = self.at + ahead
        return self.text[i] if i < len(self.text) else ""

    def step(self, n: int = 1) -> None:
        for _ in range(n):
            if self.at >= len(self.text):
                raise _Unfollowed
            if self.text[self.at] == "\n":
                self.line += 1
            self.at += 1

    def blank(self, newlines: bool) -> None:
        """Skip spaces and comments (and line ends, where a value may continue)."""
        while True:
            c = self.peek()
            if c in (" ", "\t", "\r") or (newlines and c == "\n"):
                self.step()
            elif c == "#":
                while self.peek() not in ("\n", ""):
                    self.step()
            else:
                return

    def key(self) -> list[str]:
        """A dotted key: its parts, unquoted."""
        parts: list[str] = []
        while True:
            self.blank(newlines=False)
            c = self.peek()
            if c in ('"', "'"):
                start = self.at
                self.string()
                parts.append(_unquote(self.text[start : self.at]))
            else:
                found = _BARE.match(self.text, self.at)
                if found is None:
                    raise _Unfollowed
                parts.append(found.group())
                self.step(found.end() - self.at)
            self.blank(newlines=False)
            if self.peek() != ".":
                return parts
            self.step()

    def string(self) -> None:
        quote = self.peek()
        if self.text.startswith(quote * 3, self.at):
            self.step(3)
            end = quote * 3
            while not self.text.startswith(end, self.at):
                self.step(2 if quote == '"' and self.peek() == "\\" else 1)
            self.step(3)
            while self.peek() == quote:  # up to two quotes may close the string's content
                self.step()
            return
        self.step()
        while self.peek() != quote:
            if self.peek() in ("\n", ""):
                raise _Unfollowed
            self.step(2 if quote == '"' and self.peek() == "\\" else 1)
        self.step()

    def value(self) -> Located:
        here = Located(self.line)
        c = self.peek()
        if c in ('"', "'"):
            self.string()
        elif c == "[":
            self.step()
            while True:
                self.blank(newlines=True)
                if self.peek() == "]":
                    self.step()
                    return here
                here.items.append(self.value())
                self.blank(newlines=True)
                if self.peek() == ",":
                    self.step()
        elif c == "{":
            self.step()
            while True:
                self.blank(newlines=True)
                if self.peek() == "}":
                    self.step()
                    return here
                line = self.line
                parts = self.key()
                if self.peek() != "=":
                    raise _Unfollowed
                self.step()
                self.blank(newlines=False)
                _put(here, parts, self.value(), line)
                self.blank(newlines=True)
                if self.peek() == ",":
                    self.step()
        else:
            # A number, a boolean or a date: up to what ends a value.
            start = self.at
            while self.peek() not in (",", "]", "}", "\n", "#", ""):
                self.step()
            if self.at == start:
                raise _Unfollowed  # nothing read: never loop on it
        return here


def _unquote(quoted: str) -> str:
    """A quoted key as TOML reads it (escapes and all)."""
    value = tomllib.loads(f"k = {quoted}")["k"]
    if not isinstance(value, str):
        raise _Unfollowed
    return value


def _put(table: Located, parts: list[str], value: Located, line: int) -> None:
    """A dotted key's value into its table, its tables made on the way (at the key's line)."""
    for part in parts[:-1]:
        table = table.keys.setdefault(part, Located(line))
    table.keys.setdefault(parts[-1], value)


def _walk(root: Located, parts: list[str], line: int) -> Located:
    """A header's table: each array of tables on the way stands for its last entry."""
    node = root
    for part in parts:
        node = node.keys.setdefault(part, Located(line))
        if node.entries:
            if not node.items:
                raise _Unfollowed
            node = node.items[-1]
    return node


def locate(text: str) -> Located | None:
    """Every table, key and item of a TOML text with its line; None where the scanner
    cannot follow the text (then nothing names a line)."""
    scan = _Scanner(text)
    root = Located(1)
    table = root
    try:
        while True:
            scan.blank(newlines=True)
            if not scan.peek():
                return root
            line = scan.line
            if scan.peek() == "[":
                entry = scan.peek(1) == "["
                scan.step(2 if entry else 1)
                parts = scan.key()
                if not scan.text.startswith("]]" if entry else "]", scan.at):
                    raise _Unfollowed
                scan.step(2 if entry else 1)
                if entry:
                    parent = _walk(root, parts[:-1], line)
                    entries = parent.keys.setdefault(parts[-1], Located(line, entries=True))
                    entries.entries = True
                    table = Located(line)
                    entries.items.append(table)
                else:
                    table = _walk(root, parts, line)
                    table.line = line  # made on the way by an earlier header: its own line now
                continue
            parts = scan.key()
            if scan.peek() != "=":
                raise _Unfollowed
            scan.step()
            scan.blank(newlines=False)
            _put(table, parts, scan.value(), line)
    except (_Unfollowed, tomllib.TOMLDecodeError, RecursionError):
        return None


def line_of(located: Located | None, loc: Sequence[int | str]) -> int | None:
    """The line of the deepest part of `loc` (a pydantic error's location: keys and list
    indexes) that the file holds: a misspelt key's own line, a missing field's entry.
    None where not even its first part is in the file."""
    if located is None:
        return None
    node = located
    found: int | None = None
    for key in loc:
        if isinstance(key, int) and 0 <= key < len(node.items):
            node = node.items[key]
        elif isinstance(key, str) and key in node.keys:
            node = node.keys[key]
        else:
            break
        found = node.line
    return found
