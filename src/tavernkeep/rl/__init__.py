"""Reinforcement-learning environments for every game: PettingZoo AEC and Gymnasium.

Optional: `pip install tavernkeep[rl]`. Nothing in the core imports this package, so the
engine, the server and the lab run without numpy, PettingZoo or Gymnasium installed.

Importing it registers every game with Gymnasium as `tavernkeep/<game>-v0` (seat 0
against `bot:random` in every other seat of the game's default count, unless `opponents`
or `players` say otherwise): `gymnasium.make("tavernkeep/rage-v0")`, or without the
import, `gymnasium.make("tavernkeep.rl:tavernkeep/rage-v0")`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tavernkeep.engine.errors import ConfigError
from tavernkeep.games import game_names

if TYPE_CHECKING:
    from tavernkeep.rl.aec import TavernAEC
    from tavernkeep.rl.gym import Opponents, TavernGym
    from tavernkeep.rl.vector import SelfPlayBatch, TavernVectorEnv

_NEEDED = ("numpy", "gymnasium", "pettingzoo")


def _require_extra() -> None:
    import importlib.util

    missing = [name for name in _NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        raise ConfigError(
            f"the RL environments need {', '.join(missing)}: pip install tavernkeep[rl]"
        )


def aec_env(game: str, **config: Any) -> TavernAEC:
    """A PettingZoo AEC environment for a registered game; agents are its seats.

    Keywords: the game's options (players, variants), plus `pack` (a built-in name or a
    path), `reward` ("win" or "margin") and `render_mode` ("ansi" or None).
    """
    _require_extra()
    from tavernkeep.rl.aec import TavernAEC

    return TavernAEC(game, **config)


def gym_env(game: str, opponents: Opponents = None, **config: Any) -> TavernGym:
    """A Gymnasium environment for seat 0 of a game, the other seats played by bots.

    `opponents`: a list, one seat spec a seat (its length sets the player count unless
    `players` is given), or one spec such as "bot:heuristic" for every other seat of
    `players` or of the game's default count; None is "bot:random". Rage has no others.
    """
    _require_extra()
    from tavernkeep.rl.gym import TavernGym

    return TavernGym(game, opponents=opponents, **config)


def vector_env(
    game: str,
    num_envs: int,
    opponents: Opponents = None,
    workers: int = 0,
    **config: Any,
) -> TavernVectorEnv:
    """Gymnasium's vector API over `num_envs` games of seat 0 against `opponents`, stepped
    together, in `workers` processes (0: this one); see `tavernkeep.rl.vector`."""
    _require_extra()
    from tavernkeep.rl.vector import TavernVectorEnv

    return TavernVectorEnv(game, num_envs, opponents, workers, **config)


def self_play(game: str, num_envs: int, **config: Any) -> SelfPlayBatch:
    """`num_envs` games in which every seat is the learner, each call stepping the deciding
    seat of every game (the batched AEC form); see `tavernkeep.rl.vector`."""
    _require_extra()
    from tavernkeep.rl.vector import SelfPlayBatch

    return SelfPlayBatch(game, num_envs, **config)


def _register() -> None:
    """`tavernkeep/<game>-v0` for every game, where Gymnasium is installed."""
    import importlib.util

    if importlib.util.find_spec("gymnasium") is None:
        return
    import gymnasium

    for name in game_names():
        env_id = f"tavernkeep/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id, entry_point="tavernkeep.rl.gym:TavernGym", kwargs={"game": name}
            )


_register()

__all__ = ["aec_env", "gym_env", "self_play", "vector_env"]
