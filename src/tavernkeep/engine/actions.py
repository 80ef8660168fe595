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
MAX_DIGITS = 18
"""No game counts past a few hundred, and an action's text comes from files and people:
Python refuses to read an integer of more than 4,300 digits (and is slow well before),
so a longer number is refused as text, before it is ever read as one."""
LIMIT = 10**MAX_DIGITS


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
                if any(isinstance(a, int) and not -LIMIT < a < LIMIT for a in args):
                    raise IllegalAction(
                        f"not an action: a number in it is too long (at most {MAX_DIGITS} digits)"
                    )
                return cls.parse(Action(data["kind"], *args).text)
        # repr() of a huge int is refused like int() of a huge text: describe, never show.
        raise IllegalAction(f"not an action: {_shown(data)}")

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
                    digits = len(part.lstrip("-"))
                    if digits > MAX_DIGITS:
                        raise IllegalAction(
                            f"not an action: '{text.strip()[:30]}...': a number of {digits} "
                            f"digits is too long (at most {MAX_DIGITS})"
                        )
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

    def __reduce__(self) -> tuple[type[Action], tuple[Arg, ...]]:
        # Pickled (a search worker's answer, a state sent to a process) as the call that
        # makes it: the compiled build's Action has no instance dict to restore.
        return (Action, (self.kind, *self.args))

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __str__(self) -> str:
        return self.text


def _shown(data: object) -> str:
    """Up to 80 characters of what was sent, for an error message."""
    try:
        return repr(str(data)[:80])
    except ValueError:  # an int too long to write out, somewhere inside
        return f"a {type(data).__name__} holding a number too long to show"


PASS = Action("pass")
"""Letting a reaction window go by. A game that asks every seat in its windows (so that
nobody learns who holds what) offers a seat with nothing to play only this; the terminal
and the server answer it for a person, after the pause a bot would take."""
