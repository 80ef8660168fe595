"""The stack of pending decisions.

Every game keeps, in its state, a list of `Decision` frames: the top frame is the one seat
that must decide now, and what it decides about. A reaction opens a frame on top of the
frame it reacts to (a Challenge window over a card being played, a Modifier window over
the Challenge roll), and closing it returns to the frame below, so a window inside a
window inside a turn is ordinary. Frames are immutable tuples: a state's stack clones as
a shallow list copy, and a step of a multi-step effect is a new frame, not a mutation.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Decision(NamedTuple):
    seat: int
    """The seat that must decide."""
    kind: str
    """What is being decided, in the game's words: 'quest', 'rescue', 'modifier', ..."""
    args: tuple[Any, ...] = ()
    """The frame's own data: the effect's step, targets already chosen, who passed."""

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind}
