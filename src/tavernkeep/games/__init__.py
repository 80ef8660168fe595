"""The game registry: adding a game is one folder under games/ plus one line here.

Games are imported only when asked for, so listing games or running one never pays for
loading the other four.
"""

from __future__ import annotations

import importlib
from typing import Any

from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.game import Game

REGISTRY: dict[str, str] = {
    "hack-and-slash": "tavernkeep.games.hack_and_slash:GAME",
    "here-to-slay": "tavernkeep.games.here_to_slay:GAME",
    "crits-and-tricks": "tavernkeep.games.crits_and_tricks:GAME",
    "side-quest": "tavernkeep.games.side_quest:GAME",
    "rage": "tavernkeep.games.rage:GAME",
}


def game_names() -> list[str]:
    return list(REGISTRY)


def get_game(name: str) -> Game[Any, Any]:
    try:
        target = REGISTRY[name]
    except KeyError:
        known = ", ".join(REGISTRY)
        raise ConfigError(f"unknown game '{name}' (games: {known})") from None
    module, _, attr = target.partition(":")
    game: Game[Any, Any] = getattr(importlib.import_module(module), attr)
    return game


def all_games() -> list[Game[Any, Any]]:
    return [get_game(name) for name in REGISTRY]


def encoding_of(game: Game[Any, Any], config: Any, pack: Any) -> Any:
    """The game's fixed observation layout and action indexing for learning agents, for
    this config and pack (games/<game>/encoding.py; `tavernkeep.rl.table.Encoding`)."""
    module = REGISTRY[game.name].partition(":")[0] + ".encoding"
    return importlib.import_module(module).make_encoding(config, pack)
