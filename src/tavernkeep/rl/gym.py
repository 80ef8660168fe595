"""The Gymnasium environment: seat 0 learns, bots play every other seat.

The observation is seat 0's view encoded; the legal actions are in `info["action_mask"]`
and `action_masks()` (the convention of maskable policy learners). An action that is not
legal ends the episode as a loss: Gymnasium hands out actions without a mask, and a
forfeit is a signal a learner can use where an exception would stop training.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from tavernkeep.agents import make_bot
from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.game import Agent
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng, seat_streams
from tavernkeep.games import get_game
from tavernkeep.rl.table import Mask, Table, Vector

LEARNER = 0


class TavernGym(gymnasium.Env[Vector, np.int64]):
    # Gymnasium declares `metadata` an instance attribute with a class-level default.
    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        opponents: list[str] | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        rules = get_game(game)
        opponents = list(opponents or [])
        options.setdefault("players", 1 + len(opponents))
        if options["players"] != 1 + len(opponents):
            raise ConfigError(
                f"{rules.title} with {options['players']} players needs "
                f"{options['players'] - 1} opponents (opponents=['bot:random', ...]), "
                f"not {len(opponents)}"
            )
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.table = Table(game, **options)
        self.render_mode = render_mode
        self.bots: list[Agent] = [make_bot(spec, rules) for spec in opponents]
        size, count = self.table.encoding.size, len(self.table.actions)
        self.observation_space = spaces.Box(-np.inf, np.inf, (size,), np.float32)
        self.action_space = spaces.Discrete(count)
        self._rngs: list[Rng] = []
        self._potential = 0.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        super().reset(seed=seed)
        # A reset without a seed draws the next game's from the env's own generator
        # (Gymnasium's `np_random`, seeded by the last seeded reset), so that a run seeded
        # once plays the same games again, and a vector env the games of its single envs.
        game_seed = int(self.np_random.integers(2**63)) if seed is None else seed
        self.table.reset(game_seed)
        self._rngs = seat_streams(game_seed, self.table.players)
        self._bots_play()
        self._potential = self._estimate()
        return self.table.observe(LEARNER), self._info()

    def _estimate(self) -> float:
        """How well the learner stands now (reward 'shaped': `Table.potential`), else 0;
        0 once the game is over, so the shaping adds up to nothing over a whole game."""
        table = self.table
        if table.potential is None or table.actor() is None:
            return 0.0
        return table.potential(table.state, LEARNER)

    def _bots_play(self) -> None:
        table = self.table
        while (seat := table.actor()) is not None and seat != LEARNER:
            info = InfoSet(table.game, table.state, seat, self._rngs[seat])
            table.apply(self.bots[seat - 1].choose(info))

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def action_masks(self) -> Mask:
        return self.table.mask(LEARNER)

    def step(self, action: np.int64 | int) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        table = self.table
        index = int(action)
        if table.actor() != LEARNER:
            raise ConfigError("the episode is over: call reset()")
        if index not in table.legal_indices():
            info = self._info()
            info["illegal"] = index
            return table.observe(LEARNER), -1.0, True, False, info
        table.apply(table.actions[index])
        self._bots_play()
        result = table.result()
        info = self._info()
        before, self._potential = self._potential, self._estimate()
        shaping = self._potential - before
        if result is None:
            return table.observe(LEARNER), shaping, False, False, info
        info["result"] = result.to_json()
        reward = table.rewards(result)[LEARNER] + shaping
        return table.observe(LEARNER), reward, True, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        result = self.table.result()
        return f"{self.table.game.title}: " + (result.reason if result else "in play")
