"""Events: what happened, for logs, screens and animations, with who may see it.

An event visible to everyone has `seats=None`. A private event (a card drawn) names the
seats that see it in full and carries an optional `public` twin for everyone else ("Ana
drew a card"). `for_seat` is the one place that decides, so no front-end can get it wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    seats: frozenset[int] | None = None
    public: Event | None = None

    def for_seat(self, seat: int | None) -> Event | None:
        """What `seat` (None: a spectator) sees of this event, or None if nothing."""
        if self.seats is None or (seat is not None and seat in self.seats):
            return self
        return self.public

    def to_json(self) -> dict[str, Any]:
        """JSON for a viewer; call it on what `for_seat` returned, never on a private event."""
        return {"kind": self.kind, "text": self.text, "data": self.data}


def visible_events(events: list[Event], seat: int | None) -> list[Event]:
    out = []
    for event in events:
        seen = event.for_seat(seat)
        if seen is not None:
            out.append(seen)
    return out
