"""A table's pack as its pages are shown it (the table summary's `pack`): a designer's
pack, opened at the table from the workbench, by its name, with its differences from the
built-in pack it was changed from, in the lab's words (`quest[Rats in the Cellar].reward:
1 → 5`, lab/compare.py `pack_changes` and `change_text`).

A pack is the rules' data, which every seat may know: its cards as they are defined,
never the deal. So every page of the table, a spectator's too, is shown the same, read
from the table's record alone (never its state). A table played with a built-in pack is
shown nothing (None): its rules are the game's own.
"""

from __future__ import annotations

from typing import Any

from tavernkeep.engine.errors import TavernkeepError
from tavernkeep.engine.records import GameRecord
from tavernkeep.games import get_game
from tavernkeep.lab.compare import change_text, pack_changes
from tavernkeep.lab.sweep import raw_pack

MOST_SHOWN = 40
"""Differences a table lists; past them it says how many more (an uploaded pack may
differ in every card)."""
KEPT = 64
"""Packs' differences kept worked out, by game, digest and base: a table's summary is
asked for whenever a page joins."""

_shown: dict[tuple[str, str, str, str | None], dict[str, Any]] = {}


def pack_shown(record: GameRecord) -> dict[str, Any] | None:
    """`{name, base, digest, changes, more}` for a table played with a designer's pack
    (`changes` the first `MOST_SHOWN` differences from `base`, `more` how many others);
    None for a built-in pack."""
    if record.pack_data is None:
        return None
    key = (record.game, record.pack_digest, record.pack, record.pack_base)
    found = _shown.get(key)
    if found is None:
        texts = differences(record)
        found = {
            "name": record.pack,
            "base": record.pack_base,
            "digest": record.pack_digest,
            "changes": texts[:MOST_SHOWN],
            "more": max(0, len(texts) - MOST_SHOWN),
        }
        if len(_shown) >= KEPT:
            del _shown[next(iter(_shown))]  # the oldest
        _shown[key] = found
    return found


def differences(record: GameRecord) -> list[str]:
    """What the record's own pack changes of its base, a line each; none where its base
    is no built-in pack of the game now (nothing to read it against)."""
    assert record.pack_data is not None
    if record.pack_base is None:
        return []
    try:
        _, base = raw_pack(get_game(record.game), record.pack_base)
    except TavernkeepError:
        return []
    return [change_text(change) for change in pack_changes(base, record.pack_data)]
