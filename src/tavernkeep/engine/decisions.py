"""The stack of pending decisions.

Every game keeps, in its state, a list of `Decision` frames: the top frame is the one seat
that must decide now, and what it decides about. A reaction opens a frame on top of the
frame it reacts to (a Challenge window over a card being played, a Modifier window over
the Challenge roll), and closing it returns to the frame below, so a window inside a
window inside a turn is ordinary. Frames are never changed once made: a state's stack
clones as a shallow list copy, and a step of a multi-step effect is a new frame, not a
mutation.
"""

from __future__ import annotations

from typing import Any, Final


class Decision:
    """One frame: who decides, about what, with the frame's own data.

    A small class of three read-only fields rather than a NamedTuple: the build compiles
    it (setup.py), and a compiled frame is made several times faster than a named tuple,
    whose constructor is a Python function however the caller is built. Here to Slay
    makes about 760 frames a game (every seat's pass of every Modifier window is one),
    which cost a tenth of a simulated game as named tuples. Frames compare and hash by
    value, as the tuples did."""

    __slots__ = ("args", "kind", "seat")

    def __init__(self, seat: int, kind: str, args: tuple[Any, ...] = ()) -> None:
        self.seat: Final = seat
        """The seat that must decide."""
        self.kind: Final = kind
        """What is being decided, in the game's words: 'quest', 'rescue', 'modifier', ..."""
        self.args: Final = args
        """The frame's own data: the effect's step, targets already chosen, who passed."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return self.seat == other.seat and self.kind == other.kind and self.args == other.args

    def __hash__(self) -> int:
        return hash((self.seat, self.kind, self.args))

    def __repr__(self) -> str:
        return f"Decision(seat={self.seat!r}, kind={self.kind!r}, args={self.args!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a search pool's worker, a server's copy) as the call that makes it.
        return (Decision, (self.seat, self.kind, self.args))

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind}
