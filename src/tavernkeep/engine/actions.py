"""Actions: small immutable values with one stable text encoding.

An action is a kind and a few integer or word arguments: `quest:2`, `rescue:5`, `quit`.
The text form is what records store, what the browser sends and what a person may type;
`to_json` gives the same content as an object. Labels for people come from the game
(`Game.label`), because a good label needs the state ("Bandit Camp: 2 adventurers, 8+")
and building strings on the hot path of a simulation would cost more than the rules.
"""

from __future__ import annotations

import re
from typing import Any

from tavernkeep.engine.errors import IllegalAction

Arg = int | str

_WORD = re.compile(r"[a-z][a-z0-9_\-]*\Z")
_INT = re.compile(r"-?\d+\Z")


class Action:
    """One choice a seat can make. Equal when kind and arguments are equal."""

    __slots__ = ("args", "kind")

    kind: str
    args: tuple[Arg, ...]

    def __init__(self, kind: str, *args: Arg) -> None:
        self.kind = kind
        self.args = args

    @property
    def text(self) -> str:
        if not self.args:
            return self.kind
        return self.kind + ":" + ",".join(str(a) for a in self.args)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "args": list(self.args)}

    @classmethod
    def from_json(cls, data: object) -> Action:
        """Accepts the text form or the object form; raises IllegalAction on anything else."""
        if isinstance(data, str):
            return cls.parse(data)
        if isinstance(data, dict) and isinstance(data.get("kind"), str):
            args = data.get("args", [])
            if isinstance(args, list) and all(
                isinstance(a, (int, str)) and not isinstance(a, bool) for a in args
            ):
                return cls.parse(Action(data["kind"], *args).text)
        raise IllegalAction(f"not an action: {str(data)[:80]!r}")

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the text form: `kind` or `kind:arg,arg`. Integers come back as ints."""
        kind, _, rest = text.strip().partition(":")
        if not _WORD.match(kind):
            raise IllegalAction(f"not an action: {text[:80]!r}")
        args: list[Arg] = []
        if rest:
            for part in rest.split(","):
                part = part.strip()
                if _INT.match(part):
                    args.append(int(part))
                elif _WORD.match(part):
                    args.append(part)
                else:
                    raise IllegalAction(f"not an action: {text[:80]!r}")
        return cls(kind, *args)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Action) and self.kind == other.kind and self.args == other.args
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.args))

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __str__(self) -> str:
        return self.text


PASS = Action("pass")
"""Letting a reaction window go by. A game that asks every seat in its windows (so that
nobody learns who holds what) offers a seat with nothing to play only this; the terminal
and the server answer it for a person, after the pause a bot would take."""
