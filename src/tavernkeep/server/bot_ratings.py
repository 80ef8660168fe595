"""Bots rated among themselves (`tavernkeep ratings seed GAME`, issue 44, item 3): rated
games between bots, played as the lab plays them (engine `Match` with no events and no
record kept) and rated into a server's database as its rated tables are (skill.py,
storage/ratings.py), so a bot's rating means something before people have met it, and a
difficulty level reads as a rating beside theirs.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable
from typing import Any

from tavernkeep.agents import check_seat, make_bot
from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.game import Agent, Game
from tavernkeep.engine.match import Match
from tavernkeep.engine.rng import derive_seed, random_seed
from tavernkeep.games import get_game
from tavernkeep.server.lobby import game_list
from tavernkeep.server.skill import BOT, Subject, places
from tavernkeep.server.storage import Standing, Storage

MAX_GAMES = 1_000_000


def lobby_bots(game: Game[Any, Any]) -> list[str]:
    """The bots the lobby offers at the game's tables (lobby.py `game_list`, less trained
    policies): those whose ratings people meet."""
    offered = next(g for g in game_list(()) if g["name"] == game.name)
    return [str(spec) for spec in offered["bots"]]


def seed_ratings(
    storage: Storage,
    game_name: str,
    games: int,
    bots: list[str] | None = None,
    players: int | None = None,
    seed: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Standing]:
    """Play `games` rated games among `bots` (default: the lobby's) at tables of
    `players` (default: the game's usual table), each table drawn at random from the bots,
    and rate each into `storage`. A competitive table seats each bot once while there are
    as many bots as seats; a co-operative team is drawn seat by seat (two of one bot, or
    one of each), or every team of two bots would be the same and tell them apart never.
    The game's leaderboard after them. ConfigError, before any game is played, for a
    game, bot or table size that is not one."""
    game = get_game(game_name)
    if not 1 <= games <= MAX_GAMES:
        raise ConfigError(f"--games: 1 to {MAX_GAMES:,}, not {games}")
    specs = list(dict.fromkeys(bots or lobby_bots(game)))
    if players is None:
        players = int(getattr(game.make_config({}), "players", game.min_players))
    config = game.make_config({"players": players})
    pack = game.load_pack(None)
    agents: dict[str, Agent] = {}
    for spec in specs:
        if spec == "human" or not spec.startswith("bot:"):
            raise ConfigError(f"--bot {spec}: only bots are rated among themselves")
        check_seat(spec, game, config, pack)
        agents[spec] = make_bot(spec, game)
    draw = random.Random(seed)
    batch = random_seed() if seed is None else seed
    for index in range(games):
        if game.kind == "competitive" and len(specs) >= players:
            seated = draw.sample(specs, players)
        else:
            seated = [draw.choice(specs) for _ in range(players)]
        match = Match(
            game,
            [agents[spec] for spec in seated],
            derive_seed(batch, index),
            config,
            pack,
            seated,
            record_events=False,
            keep_record=False,
        )
        result = match.run()
        placings = places(result.to_json(), [Subject(BOT, spec) for spec in seated], set())
        if placings:
            storage.ratings.record(game.name, placings, f"seed-{secrets.token_hex(8)}", time.time())
        if progress is not None:
            progress(index + 1)
    return storage.leaderboard(game.name, 100)
