"""A table's chat as stored: each line, a person's or a notice of what the table did,
added at the chat's next index."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import Connection, func, insert, select

from tavernkeep.server.chat import ChatLine
from tavernkeep.server.storage.schema import chat, tables


def add_line(conn: Connection, table_id: str, line: ChatLine) -> ChatLine:
    """Add `line` at the chat's next index, whatever index it came with: the table's
    row is locked first (PostgreSQL), so two server processes never take one index."""
    conn.execute(select(tables.c.id).where(tables.c.id == table_id).with_for_update())
    index = conn.execute(
        select(func.coalesce(func.max(chat.c.idx) + 1, 0)).where(chat.c.table_id == table_id)
    ).scalar_one()
    line = replace(line, index=int(index))
    conn.execute(
        insert(chat).values(
            table_id=table_id,
            idx=line.index,
            seat=line.seat,
            name=line.name,
            text=line.text,
            at=line.at,
            kind=line.kind,
        )
    )
    return line
