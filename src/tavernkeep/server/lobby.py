"""What the lobby and the API read (`Lobby`, `game_list`): the games on offer, with their
options, bots, rules and web files; the tables open to join, a table's summary and a
finished table's record. Read from storage, with presence from the tables in memory: a
table need not be replayed to be listed or summed up, whoever asks how often.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tavernkeep.agents import BOTS, LOBBY_MCTS
from tavernkeep.agents.levels import lobby_levels
from tavernkeep.agents.policy import load_policy
from tavernkeep.engine.errors import IllegalAction, SeatError, TavernkeepError
from tavernkeep.engine.game import Game
from tavernkeep.engine.records import GameRecord
from tavernkeep.games import all_games, game_names, get_game
from tavernkeep.server.room import Room, seats_of, variant_options
from tavernkeep.server.settings import TableSettings
from tavernkeep.server.storage import UNFINISHED, Listing, SeatKey, StoredTable
from tavernkeep.server.table_packs import pack_shown
from tavernkeep.server.tables import Tables

GAME_FILES = {".js": "text/javascript", ".css": "text/css"}
"""What a game's `web/` folder serves, by suffix: its renderer's modules, its stylesheet."""


def game_file(name: str, path: str) -> Path | None:
    """A file of a registered game's `web/` folder (Game.web_dir), or None: an unknown
    game, a path that leads out of the folder, or a kind of file it does not serve."""
    if name not in game_names():
        return None
    web = get_game(name).web_dir()
    if web is None:
        return None
    root = web.resolve()
    target = (root / path).resolve()
    if not target.is_relative_to(root) or target.suffix not in GAME_FILES:
        return None
    return target if target.is_file() else None


def policy_game(spec: str) -> str | None:
    """The game a server's trained policy plays (None if its file has gone since)."""
    try:
        return load_policy(spec.removeprefix("bot:policy:")).game
    except SeatError:
        return None


def game_list(policies: tuple[str, ...]) -> list[dict[str, Any]]:
    """The lobby's games: each with its seats, bots (the server's trained `policies` for
    it among them), options and what of its page it brings (`GET /api/games`)."""
    out = []
    for game in all_games():
        bots = [
            LOBBY_MCTS if b == "mcts" else f"bot:{b}"
            for b in BOTS
            if b != "heuristic" or game.heuristic_agent()
        ]
        bots += [spec for spec in policies if policy_game(spec) == game.name]
        out.append(
            {
                "name": game.name,
                "title": game.title,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "players_note": game.players_note,
                "players_variant": game.players_variant,
                "kind": game.kind,
                "summary": game.summary,
                "bots": bots,
                # The levels people choose by name, each with what it was measured to do.
                "levels": lobby_levels(game),
                "options": describe_options(game),
                "renderer": game_file(game.name, "renderer.js") is not None,
                "stylesheet": game_file(game.name, "style.css") is not None,
                "rules": game.how_to_play() is not None,
            }
        )
    return out


def describe_options(game: Game[Any, Any]) -> list[dict[str, Any]]:
    """The game's options for the lobby form, from its config model (players excluded)."""
    out = []
    for name, info in game.config_model.model_fields.items():
        if name == "players":
            continue
        annotation = info.annotation
        entry: dict[str, Any] = {
            "name": name,
            # What the form shows a person: the option's title and description, in the
            # table's words (the name is what the command line and the API take).
            "title": info.title or name.replace("_", " ").capitalize(),
            "default": info.get_default(call_default_factory=True),
            "description": info.description or "",
        }
        choices = [c for c in getattr(annotation, "__args__", ()) if c is not type(None)]
        if annotation is str:
            # A name from the pack (Side Quest's scenario): the pack's names as a list.
            named = game.grid_values(name, game.load_pack().content)
            if named and all(isinstance(c, str) for c in named):
                choices = named
        if annotation is bool:
            entry["type"] = "bool"
        elif annotation is int or choices == [int]:
            entry["type"] = "int"
        elif choices and all(isinstance(c, str) for c in choices):
            entry["type"] = "choice"
            entry["choices"] = list(choices)
        elif getattr(annotation, "__origin__", None) is list and len(choices) == 1:
            # A list of choices (Crits & Tricks' suits): the form offers a box each.
            entry["type"] = "choices"
            entry["choices"] = list(getattr(choices[0], "__args__", ()))
        else:
            entry["type"] = "str"
        out.append(entry)
    return out


def stored_clocks(stored: StoredTable) -> list[dict[str, Any] | None] | None:
    """Each person's clock as storage has it, for a table nobody is at: seconds left as
    the seat's last decision ended. Whose runs now only a replay could say (`running`
    is null); the table in memory says it exactly."""
    clock = TableSettings.model_validate(stored.settings, strict=False).clock
    if clock is None:
        return None
    out: list[dict[str, Any] | None] = []
    for seat, key in enumerate(stored.keys):
        if stored.record.seats[seat] != "human":
            out.append(None)
            continue
        bank = key.clock if clock.kind == "real_time" and key.clock is not None else clock.seconds
        out.append({"left": bank, "running": None})
    return out


def named(record: GameRecord, keys: list[SeatKey], stood_in: dict[int, int]) -> GameRecord:
    """The record with the names its people gave and the actions stand-ins chose (each
    left out if there are none)."""
    update: dict[str, Any] = {}
    names = [key.name for key in keys]
    if any(names):
        update["names"] = names
    if stood_in:
        update["stood_in"] = sorted(stood_in)
    return record.model_copy(update=update) if update else record


def opened(room: Room, handed: list[str | None], host: str) -> dict[str, Any]:
    """What the creator of a table just opened is told (`POST /api/tables`, and the
    workbench's): each person's seat's invite link, or its credential where it is played
    on the creator's device, and the host key. Given once, here. No seed: it rebuilds
    every hidden card, so it is in the record once the game is over and nowhere before."""
    seats = []
    for seat, spec in enumerate(room.seats):
        entry: dict[str, Any] = {"seat": seat, "agent": spec}
        secret = handed[seat]
        if secret is not None and room.keys[seat].device:
            entry["device"] = True
            entry["token"] = secret
        elif secret is not None:
            entry["invite"] = f"/table/{room.id}#seat={seat}&invite={secret}"
        seats.append(entry)
    return {
        "id": room.id,
        "game": room.game.name,
        "deal": room.deal,
        "spectate": f"/table/{room.id}",
        "seats": seats,
        # The creator's key to the table: it hands a seat out again.
        "host": host,
    }


class Lobby:
    """The tables as the lobby and the API read them, over the tables in memory."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.db = tables.db
        self.rooms = tables.rooms

    async def open_tables(self, limit: int = 100) -> list[dict[str, Any]]:
        """The lobby's list, newest first, from storage: a table need not be replayed to
        be listed. Presence comes from the tables in memory (nobody is at the others)."""
        listed: list[Listing] = await self.db(self.storage.open_tables, limit)
        out = []
        for entry in listed:
            try:
                game = get_game(entry.game)
                # A designer's pack is the table's own: no built-in pack to check against.
                digest = entry.pack_digest
                if not entry.own_pack:
                    digest = self.tables.pack_digest(game, entry.pack)
            except TavernkeepError:
                continue
            if entry.pack_digest and digest != entry.pack_digest:
                # Its pack was changed since: the table cannot be resumed, so it is not
                # offered (opening it says why).
                continue
            room = self.rooms.get(entry.id)
            if room is not None and room.actor is None and not room.waiting:
                continue
            connected = {c.seat for c in room.connections if c.seat is not None} if room else set()
            seats = []
            for seat, spec in enumerate(entry.seats):
                item: dict[str, Any] = {"seat": seat, "agent": spec}
                item["connected"] = spec != "human" or seat in connected
                if spec == "human":
                    item["device"] = entry.devices[seat]
                    if seat in entry.open_seats:
                        item["open"] = True
                    # The table in memory knows a name given since storage was read.
                    name = room.keys[seat].name if room is not None else entry.names.get(seat)
                    if name:
                        item["name"] = name
                seats.append(item)
            out.append(
                {
                    "id": entry.id,
                    "game": entry.game,
                    "title": game.title,
                    "status": entry.status,
                    "seats": seats,
                    "open_seats": len(entry.open_seats),
                    "rated": entry.rated,
                    "actions": room.version if room is not None else entry.actions,
                    "created_at": entry.created_at,
                }
            )
        return out

    async def summary(self, table_id: str) -> dict[str, Any] | None:
        """A table's summary. From memory when someone is at it, else from storage: a
        summary never costs a replay, whoever asks how often."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room.summary()
        stored = await self.tables.stored(table_id)
        if stored is None:
            return None
        game = get_game(stored.record.game)
        return {
            "id": stored.id,
            "game": game.name,
            "title": game.title,
            "status": stored.status,
            "seats": seats_of(
                stored.record.seats,
                stored.keys,
                set(),
                None,
                stored.stood_in,
                None,
                stored_clocks(stored),
            ),
            "actions": len(stored.record.actions),
            "created_at": stored.created_at,
            "deal": stored.deal,
            "options": variant_options(game, stored.record.config),
            "settings": TableSettings.model_validate(stored.settings, strict=False).model_dump(),
            "reactions": dict(game.reaction_kinds),
            "pack": pack_shown(stored.record),
        }

    async def record(self, table_id: str) -> GameRecord | None:
        """The record of a finished table, from storage; None for no such table, and
        IllegalAction before the end (the record holds the seed)."""
        room = self.rooms.get(table_id)
        if room is not None:
            # A table waiting for players has no actor either: its deal is still to come.
            if room.actor is not None or room.waiting:
                raise IllegalAction("the record is available once the game is over")
            return named(room.match.record, room.keys, room.stood_in)
        stored = await self.tables.stored(table_id)
        if stored is None:
            return None
        if stored.status in UNFINISHED:
            raise IllegalAction("the record is available once the game is over")
        return named(stored.record, stored.keys, stored.stood_in)
