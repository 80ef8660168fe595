"""What a table says (`Talk`): its people's chat lines and its own notices (a seat handed
to a new invite, a bot taking a leaver's seat), each kept in storage first, which gives
it its place, then told to everyone at the table once and in order (chat.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tavernkeep.engine.errors import IllegalAction
from tavernkeep.server.chat import ChatLine, clean_line
from tavernkeep.server.room import Connection, Room
from tavernkeep.server.tables import Tables


class Talk:
    """The chat and notices of the tables in memory. A table keeps at most `lines` lines
    (chat.py `TABLE_LINES`). A line kept by another process before this one is read from
    storage first (`follow`, keeping.py)."""

    def __init__(self, tables: Tables, lines: int, follow: Callable[[Room], None]) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.db = tables.db
        self.rooms = tables.rooms
        self.lines = lines
        self.follow = follow

    async def say(self, room: Room, conn: Connection, raw: object) -> None:
        """A line of chat from `conn`: checked (chat.py), kept, then told to everyone."""
        seat = conn.seat
        if seat is None:
            if not room.settings.spectator_chat:
                raise IllegalAction("only the people seated chat at this table")
            if conn.name is None:
                raise IllegalAction("give a name to chat")
        text = clean_line(raw)
        if room.chat_count >= self.lines:
            raise IllegalAction(f"this table's chat is full ({self.lines:,} lines)")
        conn.chat_rate.check()
        name = conn.name if seat is None else room.keys[seat].name
        # Storage gives the line its index, so two lines said at once (on two server
        # processes, say) never share one.
        line = await self.db(
            self.storage.add_chat, room.id, ChatLine(0, seat, name, text, time.time())
        )
        self.said(room, line)

    def noted(self, room: Room, line: ChatLine) -> bool:
        """Keep a kept line in the table's chat in memory, in the chat's order: whether
        it was added now. Not if it was shown (caught up from storage while it was
        written); not yet if another process kept lines before it, which a catch-up reads
        from storage first, then this one."""
        if line.index == room.chat_count:
            room.chat.append(line)
            room.chat_count += 1
            return True
        if line.index > room.chat_count:
            self.follow(room)
        return False

    def said(self, room: Room, line: ChatLine) -> None:
        """Show a kept line of the chat to everyone at the table, once and in order."""
        if self.noted(room, line):
            room.broadcast_chat(line)

    @staticmethod
    def notice_line(text: str) -> ChatLine:
        """A notice for the table's log; storage gives it its place in the chat."""
        return ChatLine(0, None, None, text, time.time(), "notice")

    async def notice(self, table_id: str, text: str) -> None:
        """Keep a notice in the table's log and tell everyone at it (chat.py)."""
        line = await self.db(self.storage.add_chat, table_id, self.notice_line(text))
        room = self.rooms.get(table_id)
        if room is not None:
            self.said(room, line)
