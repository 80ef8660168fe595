"""What the server lets any one table or stranger spend (`tavernkeep serve` sets it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tavernkeep.server.search import SearchLimits, default_workers


@dataclass(frozen=True)
class Limits:
    """What the server lets any one table or stranger spend (see `tavernkeep serve`)."""

    search: SearchLimits = field(default_factory=SearchLimits)
    search_workers: int = field(default_factory=default_workers)
    tables_per_minute: float = 10.0
    """New tables one address may open a minute, after a first `table_burst`."""
    table_burst: int = 10
    open_tables: int = 1000
    """Unfinished tables the server keeps at once; a new one waits for one to end."""
    sockets_per_client: int = 64
    """WebSockets one address may hold open: a table's tabs, a family's devices."""
    archive_after: float = 14 * 86400.0
    """Seconds an unfinished table with nobody at it may go without a move before it is
    archived out of the open list: long enough for friends playing a move a day."""
    accounts_per_hour: float = 6.0
    """Accounts one address may begin to create an hour, after a first `account_burst`:
    a family signs up at one address, a stranger filling the database does not."""
    account_burst: int = 5
    sign_ins_per_minute: float = 10.0
    """Passkey sign-ins (and passkeys added) one address may begin a minute, after a
    first `sign_in_burst`: each ceremony is a row and a signature to check."""
    sign_in_burst: int = 10
    policies: tuple[str, ...] = ()
    """The trained policies tables may seat, each `bot:policy:PATH` as the operator named
    it (`serve --policy`): a stranger's spec never names another file to read."""
