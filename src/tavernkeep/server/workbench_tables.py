""" "Play it": a table opened from the workbench with a designer's saved pack, for friends.

A saved pack is the workbench's, so only the workbench's door (designer.py: the designer
key, or this machine alone) lets a request open a table with one: a stranger who could not
read a pack cannot play it either, and the lobby's `POST /api/tables` takes built-in packs
alone. The pack is the one saved: loaded as the game loads any pack file, and, where the
page says which version it saw (`digest`), refused if it was saved again since, rather
than played unseen. The tavern is handed it loaded (lifecycle.py), and the table keeps its
data with its record (storage: `tables.pack_data`), so the table outlives a restart,
another server process taking it over, and the pack's deletion from the workbench; its
record replays anywhere. Everyone at the table is shown the pack's name and its
differences from its base (table_packs.py). Its people are invited as at any table.
"""

from __future__ import annotations

import tomllib
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.records import pack_from_data
from tavernkeep.server.guards import RateLimiter
from tavernkeep.server.lobby import opened
from tavernkeep.server.rooms import Tavern
from tavernkeep.server.storage.workbench import WorkbenchStore
from tavernkeep.server.workbench_packs import PackProblem, workbench_game


class TableBody(BaseModel):
    """A table as the workbench opens it: `POST /api/tables`'s seats, options and open
    seats, with a saved pack (by name, and the digest the page saw) for the built-in one."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: str = Field(max_length=64)
    pack: str = Field(max_length=60)
    """A pack saved in the workbench."""
    digest: str | None = Field(default=None, max_length=64)
    """The saved pack's digest as the page has it: a pack saved again since is refused."""
    seats: list[str] = Field(min_length=1, max_length=8)
    options: dict[str, bool | int | str | list[str]] = Field(default_factory=dict, max_length=32)
    open: list[int] = Field(default_factory=list, max_length=8)


class Stale(PackProblem):
    """The pack was saved again since the page read it."""


class TableOpener:
    """Opens the workbench's tables, within the server's bound on new tables an address."""

    def __init__(self, tavern: Tavern, store: WorkbenchStore) -> None:
        self.tavern = tavern
        self.store = store
        limits = tavern.limits
        self.creations = RateLimiter(limits.tables_per_minute, limits.table_burst)

    def allow(self, client: str) -> str | None:
        """None if `client` may open another table now; else why not, in one line."""
        if self.creations.allow(client):
            return None
        wait = max(1, round(self.creations.wait(client)))
        return f"too many new tables from one address: try again in {wait} s"

    async def open(self, body: TableBody, client: str) -> dict[str, Any] | None:
        """The table opened (as `POST /api/tables` answers); None when the game has no
        saved pack so called. Stale for a pack saved again since the page read it."""
        game = workbench_game(body.game)
        kept = await self.tavern.tables.db(self.store.pack, game.name, body.pack)
        if kept is None:
            return None
        if body.digest is not None and body.digest != kept.digest:
            raise Stale(
                f"the pack '{kept.name}' was saved again since this page read it: open it "
                "again to play it as it is now"
            )
        loaded = pack_from_data(game, tomllib.loads(kept.toml), kept.name, kept.base)
        if loaded.digest != kept.digest:
            # Saved by a tavernkeep whose game read the pack otherwise: not the pack the
            # designer saw, so not played as if it were.
            raise ConfigError(
                f"the pack '{kept.name}' loads otherwise than when it was saved: open it in "
                "the workbench and save it again"
            )
        room, handed, host = await self.tavern.create_table(
            game.name,
            body.seats,
            body.options,
            None,
            loaded,
            open_seats=body.open,
            opened_by=client,
        )
        return opened(room, handed, host)
