"""The designer's workbench: a game's packs as forms, saved, downloaded and uploaded as
the TOML the command line reads, and "What does my change do?" played on the server.

The page is `/workbench` (static/workbench.html and static/workbench/*.js); its API is
under `/api/workbench` (PROTOCOL.md, "The workbench"). Who may use either is designer.py's
rule: the operator's designer key, or without one this machine alone; a request refused
learns nothing of any pack or run. The packs are workbench_packs.py's, the comparisons
workbench_runs.py's (their history, side by side, workbench_history.py's), both kept in
storage (storage/workbench.py); a table opened with a saved pack is workbench_tables.py's.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from tavernkeep.engine.game import Game
from tavernkeep.engine.rng import random_seed
from tavernkeep.lab.sweep import default_seats
from tavernkeep.server.designer import DESIGNER_COOKIE, DesignerAccess
from tavernkeep.server.lobby import policy_game
from tavernkeep.server.rooms import Tavern
from tavernkeep.server.storage.workbench import Run, SavedPack
from tavernkeep.server.workbench_history import beside
from tavernkeep.server.workbench_packs import (
    PackProblem,
    builtin,
    builtin_toml,
    changes,
    check,
    check_name,
    cleaned,
    form_schema,
    games,
    read_toml,
    to_toml,
    workbench_game,
)
from tavernkeep.server.workbench_runs import MOST_UNFINISHED, Runs
from tavernkeep.server.workbench_tables import Stale, TableBody, TableOpener

STATIC = Path(__file__).parent / "static"
MOST_PACKS = 100
"""Packs saved for one game."""
MOST_GAMES = 100_000
"""Games a comparison may play in each arm."""
MOST_TOML = 60_000
"""Characters of an uploaded pack file (a request body is at most 64 KiB)."""
MCTS = "bot:mcts:100"
"""The search the workbench seats: an iteration budget, so a seed plays the same games
in both arms until the change matters (a time budget would not)."""


class PackBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    data: dict[str, Any]
    """The pack's raw data: what its TOML file holds, as JSON."""
    base: str | None = Field(default=None, max_length=64)
    """The built-in pack it started from (None: the game's default pack)."""


class Upload(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(max_length=60)
    toml: str = Field(max_length=MOST_TOML)
    base: str | None = Field(default=None, max_length=64)


class KeyBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    key: str = Field(max_length=200)


class RunBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    game: str = Field(max_length=64)
    base: str | None = Field(default=None, max_length=64)
    name: str = Field(default="changed", max_length=60)
    """What the changed pack is called in the result."""
    data: dict[str, Any]
    seats: list[str] = Field(min_length=1, max_length=8)
    games: int = Field(ge=1, le=MOST_GAMES)
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    options: dict[str, bool | int | str | list[str]] = Field(default_factory=dict, max_length=32)


def error(message: str, status: int = 400, **more: Any) -> JSONResponse:
    return JSONResponse({"error": message, **more}, status_code=status)


def bots_for(game: Game[Any, Any], policies: tuple[str, ...]) -> list[str]:
    """The bots a comparison may seat: the game's own, the random one, the search on an
    iteration budget, and the operator's trained policies for the game."""
    own = ["bot:heuristic"] if game.heuristic_agent() is not None else []
    return [*own, "bot:random", MCTS, *(p for p in policies if policy_game(p) == game.name)]


def download_name(game: str, name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{game}-{name}") + ".toml"


def workbench_router(
    tavern: Tavern,
    designer_key: str | None,
    public: str | None,
    policies: tuple[str, ...] = (),
    workers: int | None = None,
) -> APIRouter:
    """The workbench's page and API; its comparisons start and stop with the app."""
    door = DesignerAccess(designer_key, secure=bool(public and public.startswith("https:")))
    store = tavern.storage.workbench
    db = tavern.tables.db
    runs = Runs(store, db, workers)
    tables = TableOpener(tavern, store)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.workbench_runs = runs
        await runs.start()
        yield
        await runs.close()

    router = APIRouter(lifespan=lifespan)
    api = "/api/workbench"

    def refused(request: Request) -> JSONResponse | None:
        no = door.refusal(request)
        return None if no is None else error(no[1], no[0])

    def base_of(game: Game[Any, Any], base: str | None) -> str:
        """A built-in pack named as a pack's base; None names the game's default pack."""
        if base is None:
            return str(game.load_pack().name)
        if base not in builtin(game):
            known = ", ".join(builtin(game))
            raise PackProblem(f"{game.name} has no built-in pack '{base[:64]}' ({known})")
        return base

    async def saved(game: Game[Any, Any], name: str) -> SavedPack | None:
        return await db(store.pack, game.name, name)

    async def pack_of(game: Game[Any, Any], name: str) -> tuple[str, str] | None:
        """(base, TOML) of a built-in or saved pack; None if there is none so called."""
        if name in builtin(game):
            return name, builtin_toml(game, name)
        kept = await saved(game, name)
        return None if kept is None else (kept.base, kept.toml)

    async def keep(
        game: Game[Any, Any], name: str, base: str | None, data: dict[str, Any]
    ) -> Any:
        name = check_name(name, game)
        base = base_of(game, base)
        verdict = check(game, data, name)
        if not verdict["valid"]:
            return error(verdict["error"], errors=verdict["errors"])
        toml = to_toml(cleaned(data))
        pack = SavedPack(game.name, name, base, toml, verdict["digest"], time.time())
        if not await db(store.save_pack, pack, MOST_PACKS):
            return error(f"{game.title} has {MOST_PACKS} saved packs: delete one first", 409)
        return {"game": game.name, "name": name, "base": base, "digest": pack.digest}

    # -- the page and the key ----------------------------------------------------------------

    @router.get("/workbench", include_in_schema=False, response_model=None)
    async def page(request: Request) -> Response:
        no = door.refusal(request)
        if no is not None and not door.needs_key:
            # Without a key nothing here is anyone's but this machine's: one line says so.
            return PlainTextResponse(no[1] + "\n", status_code=no[0])
        return FileResponse(STATIC / "workbench.html")

    @router.get(f"{api}/access")
    async def access(request: Request) -> dict[str, Any]:
        no = door.refusal(request)
        return {"needs_key": door.needs_key, "open": no is None, "error": no and no[1]}

    @router.post(f"{api}/key", response_model=None)
    async def give_key(request: Request, body: KeyBody) -> Response:
        wrong = door.key_matches(request, body.key)
        if wrong is not None:
            return error(wrong[1], wrong[0])
        response = JSONResponse({"open": True})
        response.set_cookie(**door.cookie())  # type: ignore[arg-type]
        return response

    @router.post(f"{api}/key/forget", response_model=None)
    async def forget_key() -> Response:
        response = JSONResponse({"open": False})
        response.delete_cookie(DESIGNER_COOKIE, path="/")
        return response

    # -- packs -------------------------------------------------------------------------------

    @router.get(f"{api}/games", response_model=None)
    async def game_list(request: Request) -> Any:
        if (no := refused(request)) is not None:
            return no
        return games()

    @router.get(f"{api}/games/{{name}}", response_model=None)
    async def game_packs(request: Request, name: str) -> Any:
        if (no := refused(request)) is not None:
            return no
        game = workbench_game(name)
        kept = await db(store.packs, game.name)
        return {
            **form_schema(game),
            "saved": [{"name": p.name, "base": p.base, "updated_at": p.updated_at} for p in kept],
            "bots": bots_for(game, policies),
            "seats": default_seats(game),
            "min_players": game.min_players,
            "max_players": game.max_players,
            "most_games": MOST_GAMES,
        }

    @router.get(f"{api}/games/{{name}}/packs/{{pack}}", response_model=None)
    async def read_pack(request: Request, name: str, pack: str) -> Any:
        if (no := refused(request)) is not None:
            return no
        game = workbench_game(name)
        found = await pack_of(game, pack)
        if found is None:
            return error(f"{game.title} has no pack '{pack[:60]}'", 404)
        base, text = found
        data = read_toml(text, pack)
        base_data = data if base == pack else read_toml(builtin_toml(game, base), base)
        return {
            "game": game.name,
            "name": pack,
            "saved": pack not in builtin(game),
            "base": base,
            "base_data": base_data,
            "data": data,
            "changes": changes(base_data, data),
            "check": check(game, data, pack),
        }

    @router.post(f"{api}/games/{{name}}/check", response_model=None)
    async def check_pack(request: Request, name: str, body: PackBody) -> Any:
        if (no := refused(request)) is not None:
            return no
        game = workbench_game(name)
        base = base_of(game, body.base)
        base_data = read_toml(builtin_toml(game, base), base)
        return {
            "check": check(game, body.data, "this pack"),
            "changes": changes(base_data, body.data),
        }

    @router.put(f"{api}/games/{{name}}/packs/{{pack}}", response_model=None)
    async def save_pack(request: Request, name: str, pack: str, body: PackBody) -> Any:
        if (no := refused(request)) is not None:
            return no
        return await keep(workbench_game(name), pack, body.base, body.data)

    @router.delete(f"{api}/games/{{name}}/packs/{{pack}}", response_model=None)
    async def delete_pack(request: Request, name: str, pack: str) -> Any:
        if (no := refused(request)) is not None:
            return no
        game = workbench_game(name)
        if not await db(store.delete_pack, game.name, pack):
            return error(f"no saved pack '{pack[:60]}' of {game.title}", 404)
        return {"deleted": pack}

    @router.get(f"{api}/games/{{name}}/packs/{{pack}}/toml", response_model=None)
    async def download(request: Request, name: str, pack: str) -> Response:
        if (no := refused(request)) is not None:
            return no
        game = workbench_game(name)
        found = await pack_of(game, pack)
        if found is None:
            return error(f"{game.title} has no pack '{pack[:60]}'", 404)
        filename = download_name(game.name, pack)
        return Response(
            found[1],
            media_type="application/toml",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @router.post(f"{api}/games/{{name}}/upload", response_model=None)
    async def upload(request: Request, name: str, body: Upload) -> Any:
        if (no := refused(request)) is not None:
            return no
        game = workbench_game(name)
        check_name(body.name, game)
        return await keep(game, body.name, body.base, read_toml(body.toml, body.name))

    # -- comparisons -------------------------------------------------------------------------

    @router.post(f"{api}/runs", status_code=202, response_model=None)
    async def start_run(request: Request, body: RunBody) -> Any:
        if (no := refused(request)) is not None:
            return no
        game = workbench_game(body.game)
        base = base_of(game, body.base)
        offered = bots_for(game, policies)
        for spec in body.seats:
            if spec not in offered:
                return error(f"seat '{spec[:100]}': the workbench seats {', '.join(offered)}")
        game.make_config({**body.options, "players": len(body.seats)})  # ConfigError: 400
        name = body.name.strip() or "changed"
        verdict = check(game, body.data, name)
        if not verdict["valid"]:
            return error(verdict["error"], errors=verdict["errors"])
        seed = random_seed() if body.seed is None else body.seed
        now = time.time()
        base_digest = game.load_pack(base).digest
        run = Run(
            id=secrets.token_hex(8),
            game=game.name,
            base=base,
            changed=name,
            plan={
                "game": game.name,
                "base": {"name": base, "toml": builtin_toml(game, base)},
                "changed": {"name": name, "toml": to_toml(cleaned(body.data))},
                "seats": body.seats,
                "options": body.options,
                "seed": seed,
                "games": body.games,
            },
            state="queued",
            done=0,
            total=2 * body.games,
            result=None,
            error=None,
            created_at=now,
            updated_at=now,
            digest=verdict["digest"],
            base_digest=base_digest,
        )
        if not await runs.submit(run):
            return error(
                f"{MOST_UNFINISHED} comparisons are queued or running already: wait for one "
                "or cancel it",
                429,
            )
        return run.to_json()

    @router.get(f"{api}/runs", response_model=None)
    async def run_list(request: Request, game: str) -> Any:
        if (no := refused(request)) is not None:
            return no
        return [run.to_json(whole=False) for run in await db(store.runs, workbench_game(game).name)]

    @router.get(f"{api}/runs/{{run_id}}", response_model=None)
    async def read_run(request: Request, run_id: str) -> Any:
        if (no := refused(request)) is not None:
            return no
        run = await db(store.run, run_id[:32])
        if run is None:
            return error("no such comparison", 404)
        return run.to_json()

    @router.get(f"{api}/runs/{{first}}/beside/{{second}}", response_model=None)
    async def two_runs(request: Request, first: str, second: str) -> Any:
        if (no := refused(request)) is not None:
            return no
        found = [await db(store.run, run_id[:32]) for run_id in (first, second)]
        if found[0] is None or found[1] is None:
            return error("no such comparison", 404)
        return beside(found[0], found[1])

    @router.post(f"{api}/runs/{{run_id}}/cancel", response_model=None)
    async def cancel_run(request: Request, run_id: str) -> Any:
        if (no := refused(request)) is not None:
            return no
        if not await runs.cancel(run_id[:32]):
            run = await db(store.run, run_id[:32])
            if run is None:
                return error("no such comparison", 404)
            return error(f"the comparison has ended already ({run.state})", 409)
        return {"id": run_id, "state": "cancelled"}

    # -- play it -----------------------------------------------------------------------------

    @router.post(f"{api}/tables", status_code=201, response_model=None)
    async def open_table(request: Request, body: TableBody) -> Any:
        if (no := refused(request)) is not None:
            return no
        client = request.client.host if request.client else ""
        busy = tables.allow(client)
        if busy is not None:
            return error(busy, 429)
        try:
            table = await tables.open(body, client)
        except Stale as exc:
            return error(str(exc), 409)
        if table is None:
            return error(f"no saved pack '{body.pack[:60]}' of {body.game[:64]}", 404)
        return table

    return router
