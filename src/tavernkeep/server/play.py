"""A seat's decisions at a table (`Play`): a person's action checked (whose decision it
is, whether it is legal), committed to storage at the table's revision, applied to the
match in memory and told to every page; a bot's goes the same way from `commit_and_apply`
on (bots.py). Also what a person may change of their own decisions: taking back their
latest one (engine/takeback.py), and passing on a kind of decision until their turn.

Committing before applying means an action nobody has heard of can be lost only if the
commit itself failed, and then the table is unchanged too. Of two writers acting at once
(a person's other page, another server process), one wins and the other catches up and
says so (`Moved`).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from sqlalchemy.exc import IntegrityError

from tavernkeep.engine.actions import PASS, Action
from tavernkeep.engine.errors import IllegalAction
from tavernkeep.engine.takeback import may_take_back
from tavernkeep.server.clocks import Clocks
from tavernkeep.server.commits import GroupCommit
from tavernkeep.server.room import ENDED, Room, person_name
from tavernkeep.server.storage import Append, Refused, StoredTable
from tavernkeep.server.tables import Tables
from tavernkeep.server.talk import Talk


class Moved(IllegalAction):
    """An action another writer (a person's other page, another server process) beat to
    the table's turn: the table is brought up to date, and the action is not taken."""


class Play:
    """The decisions taken at the tables in memory. Each change is made under the table's
    lock; a writer that lost the table's turn catches the table up from storage
    (`reconcile`, keeping.py) before it says so."""

    def __init__(
        self,
        tables: Tables,
        talk: Talk,
        clocks: Clocks,
        commits: GroupCommit,
        reconcile: Callable[[Room, StoredTable | None], Awaitable[None]],
    ) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.db = tables.db
        self.talk = talk
        self.clocks = clocks
        self.commits = commits
        self.reconcile = reconcile

    async def act(self, room: Room, seat: int, text: str, version: object | None) -> None:
        """Apply a seat's action: checked, committed, applied, broadcast; else IllegalAction."""
        async with room.lock:
            if version is not None and version != room.version:
                raise IllegalAction("the table has moved on since that choice; choose again")
            action = Action.parse(text)
            actor = room.actor
            if actor != seat:
                if room.ended is not None:
                    raise IllegalAction(ENDED[room.ended])
                if room.waiting:
                    raise IllegalAction("the game has not begun: the table waits for players")
                raise IllegalAction(
                    "the game is over" if actor is None else "it is not your decision"
                )
            legal = room.game.legal_actions(room.match.state)
            room.game.check_legal(room.match.state, action)
            if seat in room.stand_ins:
                # Playing is coming back: the bot standing in stops here.
                await self.clocks.come_back(room, seat)
            if action == PASS and len(legal) > 1:
                # A pass the person chose where they could have played: how long such
                # passes take is what a pass for them with nothing to play imitates.
                room.timing.observe(seat, time.monotonic() - room.asked_at)
            await self.commit_and_apply(room, seat, action, person=True)

    async def commit_and_apply(
        self, room: Room, seat: int, action: Action, stand_in: bool = False, person: bool = False
    ) -> None:
        """Commit a seat's action at the table's revision, then apply it (`apply`); Moved,
        with the table caught up, if another writer took the turn first. Under the lock."""
        # Tried on a copy first, so that the action that ends the game is committed with
        # its result (storage.append_actions): a server killed between the two cannot
        # leave a table over in its actions and open in the lobby's list.
        game = room.game
        trial = game.clone(room.match.state)
        game.apply(trial, action, False)
        ended = game.result(trial) if game.actor(trial) is None else None
        result = ended.to_json() if ended is not None else None
        undoable = self.undoable(room, seat, action, person, trial)
        turn = self._turn_comes(room, trial)
        if turn is not None:
            # Their turn comes: they asked to pass on a kind of decision until now.
            await self.db(self.storage.set_passing_on, room.id, turn, None)
            room.keys[turn] = replace(room.keys[turn], passing_on=None)
        by = seat if stand_in else None
        now = time.time()
        clock = room.settings.clock
        bank = None
        if clock is not None and clock.kind == "real_time" and room.person_decides(seat):
            left = room.clock_left(seat, now)
            bank = (seat, max(0.0, left or 0.0) + clock.increment)
        try:
            await self.commits.append(
                Append(
                    room.id,
                    room.version,
                    action.text,
                    result,
                    by,
                    at=now,
                    clock=bank,
                    revision=room.revision,
                )
            )
        except (Refused, IntegrityError):
            # Another writer took this turn (its action holds the index, if the table's
            # revision did not already say so).
            raise await self._moved(room) from None
        room.revision += 1
        if bank is not None:
            room.keys[seat] = replace(room.keys[seat], clock=bank[1])
        room.asked_wall = now
        self.apply(room, seat, action, stand_in, undoable)

    async def _moved(self, room: Room) -> Moved:
        """Another writer took the table's turn: catch up from storage (under the lock),
        and the error that says so."""
        await self.reconcile(room, await self.db(self.storage.load, room.id))
        return Moved("the table has moved on since that choice; choose again")

    @staticmethod
    def _turn_comes(room: Room, after: Any) -> int | None:
        """The person whose turn `after` asks, if they pass on a kind of decision until
        then (`Room.passed_for`): a decision of another kind than the game's reactions."""
        game = room.game
        actor = game.actor(after)
        if actor is None or room.seats[actor] != "human" or not room.keys[actor].passing_on:
            return None
        return None if game.decision(after) in game.reaction_kinds else actor

    def undoable(
        self, room: Room, seat: int, action: Action, person: bool, after: Any = None
    ) -> str | None:
        """The label of a person's own decision that showed them nothing, which they may
        take back while the decision stays theirs (Board Game Arena's rule,
        engine/takeback.py); None for any other, which ends that chance. `after` is the
        state the action leads to, if the caller has tried it already."""
        if not person:
            return None
        game, state = room.game, room.match.state
        if not may_take_back(game, state, seat, action, after):
            return None
        return game.label(state, action)

    def apply(
        self, room: Room, seat: int, action: Action, stand_in: bool, undoable: str | None
    ) -> None:
        """Apply a committed action to the table in memory and tell every page."""
        index = room.version
        if stand_in:
            room.stood_in[index] = seat
        if undoable is not None:
            if room.takebacks and room.takebacks[-1][1] != seat:
                room.takebacks.clear()
            room.takebacks.append((index, seat, undoable))
        else:
            room.takebacks.clear()
        events = room.match.play(seat, action)
        room.log.extend(events)
        room.asked_at = time.monotonic()
        room.broadcast(events)
        self.clocks.watch(room)

    async def pass_on(self, room: Room, seat: int, kind: object) -> None:
        """`seat`'s person passes on `kind` of decision until their turn (None: asks to be
        asked again). Told to that seat's pages alone: nobody else may learn it."""
        game = room.game
        if kind is not None and (not isinstance(kind, str) or kind not in game.reaction_kinds):
            known = ", ".join(game.reaction_kinds) or "none in this game"
            raise IllegalAction(f"no such kind of decision to pass on (kinds: {known})")
        async with room.lock:
            if room.ended is not None or game.actor(room.match.state) is None:
                raise IllegalAction("the game is over")
            if room.keys[seat].passing_on != kind:
                await self.db(self.storage.set_passing_on, room.id, seat, kind)
                room.keys[seat] = replace(room.keys[seat], passing_on=kind)
            room.send_own(seat)

    async def take_back(self, room: Room, seat: int) -> None:
        """Take back `seat`'s latest decision, if it may be (see `Room.takebacks`): the
        table goes back to just before it, storage forgets it, everyone is told in the log
        and every page is sent the table again (`undone`, then a welcome and a state)."""
        async with room.lock:
            if room.actor != seat or not room.takebacks or room.takebacks[-1][1] != seat:
                raise IllegalAction(
                    "nothing to take back: only your own latest decisions in your turn that "
                    "rolled no die and showed you no hidden card"
                )
            index, _, label = room.takebacks.pop()
            match, events = self.tables.rebuilt(room, actions=room.match.record.actions[:index])
            who = person_name(room.keys[seat], seat)
            notice = self.talk.notice_line(f"{who} took back: {label}")
            try:
                line = await self.db(self.storage.take_back, room.id, index, notice, room.revision)
            except Refused:
                room.takebacks.append((index, seat, label))
                raise await self._moved(room) from None
            room.revision += 1
            room.match = match
            room.log = events
            self.talk.noted(room, line)
            room.stood_in = {i: s for i, s in room.stood_in.items() if i < index}
            room.resync()
        self.clocks.watch(room)
