"""Ratings as pages and an API (issue 44, item 3): a leaderboard a game
(`/leaderboard`, `GET /api/leaderboard/{game}`) and a person's public page
(`/people/{handle}`, `GET /api/people/{handle}`) with their rated games and their rating
over time.

What of a person is public, and nothing more: the name they chose, their ratings, and
their rated games' results (when, which game, their place, their rating after). Never
their account's id (the page's address is a random handle made with the account), their
passkeys, their unrated tables or their seats. A bot is named by its label ("Search bot
(300 ms)"), a co-operative or solo game's own rating as the game itself. How a rating is
made and shown: skill.py; how it is kept: storage/ratings.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse

from tavernkeep.games import all_games
from tavernkeep.server.rooms import Tavern
from tavernkeep.server.skill import ACCOUNT, BOT, MU, SIGMA, bot_label, shown
from tavernkeep.server.storage import Standing

STATIC = Path(__file__).parent / "static"
LEADERBOARD_ROWS = 100
PERSON_GAMES = 500
"""A person's latest rated games their page shows and charts."""
HANDLE = re.compile(r"[A-Za-z0-9_-]{1,32}\Z")


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def ratings_router(tavern: Tavern) -> APIRouter:
    """The leaderboards and people's pages over the tavern's storage."""
    router = APIRouter()
    storage = tavern.storage
    db = tavern.tables.db
    games = {game.name: game for game in all_games()}

    def standing(entry: Standing, place: int) -> dict[str, Any]:
        out: dict[str, Any] = {"place": place, **shown(entry.mu, entry.sigma)}
        out["games"] = entry.games
        if entry.kind == ACCOUNT:
            out.update(kind="person", name=entry.name, handle=entry.handle)
        elif entry.kind == BOT:
            out.update(kind="bot", label=bot_label(entry.subject))
        else:
            title = games[entry.game].title if entry.game in games else entry.game
            out.update(kind="game", label=f"{title} itself")
        return out

    @router.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return FileResponse(STATIC / "leaderboard.html")

    @router.get("/people/{handle}", include_in_schema=False)
    async def person_page(handle: str) -> FileResponse:
        return FileResponse(STATIC / "person.html")

    @router.get("/api/leaderboard/{game}", response_model=None)
    async def leaderboard(game: str) -> dict[str, Any] | JSONResponse:
        found = games.get(game)
        if found is None:
            return error(f"unknown game '{game[:64]}'", 404)
        rows = await db(storage.leaderboard, game, LEADERBOARD_ROWS)
        return {
            "game": game,
            "title": found.title,
            "kind": found.kind,
            "entries": [standing(entry, place) for place, entry in enumerate(rows, start=1)],
        }

    @router.get("/api/people/{handle}", response_model=None)
    async def person(handle: str) -> dict[str, Any] | JSONResponse:
        found = await db(storage.person, handle, PERSON_GAMES) if HANDLE.match(handle) else None
        if found is None:
            return error("no such person", 404)

        def title(game: str) -> str:
            return games[game].title if game in games else game

        return {
            "name": found.name,
            "handle": found.handle,
            # Where every rating begins, the chart's first point.
            "start": shown(MU, SIGMA),
            "ratings": [
                {
                    "game": r.game,
                    "title": title(r.game),
                    "kind": games[r.game].kind if r.game in games else "competitive",
                    "games": r.games,
                    **shown(r.mu, r.sigma),
                }
                for r in found.ratings
                if r.games > 0
            ],
            "games": [
                {
                    "game": g.game,
                    "title": title(g.game),
                    "at": g.at,
                    "place": g.place,
                    "of": g.of,
                    "won": g.won,
                    **shown(g.mu, g.sigma),
                }
                for g in found.games
            ],
        }

    return router
