"""The Gymnasium environment: seat 0 learns, bots play every other seat.

The observation is seat 0's view encoded; the legal actions are in `info["action_mask"]`
and `action_masks()` (the convention of maskable policy learners). An action that is not
legal ends the episode as a forfeit: Gymnasium hands out actions without a mask, and a
forfeit is a signal a learner can use where an exception would stop training. A forfeit
pays less than any game played to its end can (`Table.forfeit`: the worst outcome of the
reward mode, less 1; with reward 'shaped', the shaping collected so far is taken back),
so a learner never learns to give up.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from tavernkeep.agents import BOTS, seat_bot
from tavernkeep.engine.errors import ConfigError, SeatError
from tavernkeep.engine.game import Agent, Game
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng, seat_streams
from tavernkeep.games import get_game
from tavernkeep.rl.table import EpisodeOver, Mask, Table, Vector, action_index

LEARNER = 0
RENDER_MODES = ("ansi", "human")
OPPONENTS = "bot:random, bot:heuristic, bot:mcts[:...] or bot:policy:PATH"
"""What an env seats opponents as: bots only, as no person sits at a learner's table."""

Opponents = str | list[str] | tuple[str, ...] | None


def opponent_seats(
    game: Game[Any, Any], opponents: Opponents, options: dict[str, Any]
) -> list[str]:
    """The bots of seats 1.. as a list, and `options["players"]` set to match.

    A list gives one spec a seat, so its length sets the player count where `players` is
    not given. A single spec (or None, read as "bot:random") fills every other seat of
    `players`, or of the game's default count, as `aec_env` plays it."""
    if opponents is None:
        opponents = "bot:random"
    if isinstance(opponents, str):
        if "players" not in options:
            options["players"] = getattr(game.make_config({}), "players", 1)
        specs = [opponents] * (int(options["players"]) - 1)
    elif isinstance(opponents, list | tuple) and all(isinstance(s, str) for s in opponents):
        specs = list(opponents)
        options.setdefault("players", 1 + len(specs))
    else:
        raise ConfigError(
            f"opponents must be a seat spec or a list of them (e.g. 'bot:random'), "
            f"not {opponents!r}"
        )
    if options["players"] != 1 + len(specs):
        raise ConfigError(
            f"{game.title} with {options['players']} players needs "
            f"{options['players'] - 1} opponents (opponents=['bot:random', ...], or one "
            f"spec for every seat), not {len(specs)}"
        )
    for spec in specs:
        kind, _, rest = spec.partition(":")
        if kind != "bot" or rest.partition(":")[0] not in (*BOTS, "policy"):
            raise SeatError(f"unknown opponent '{spec}': an env seats bots, {OPPONENTS}")
    return specs


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ConfigError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")


class TavernGym(gymnasium.Env[Vector, np.int64]):
    # Gymnasium declares `metadata` an instance attribute with a class-level default.
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        opponents: Opponents = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        rules = get_game(game)
        specs = opponent_seats(rules, opponents, options)
        check_render_mode(render_mode)
        self.table = Table(game, **options)
        self.render_mode = render_mode
        # Checked against this table's config and pack, as every table seats a bot: a
        # policy trained for another player count would read a view of another shape.
        self.bots: list[Agent] = [
            seat_bot(spec, rules, self.table.config, self.table.pack) for spec in specs
        ]
        size, count = self.table.encoding.size, len(self.table.actions)
        self.observation_space = spaces.Box(self.table.low, self.table.high, (size,), np.float32)
        self.action_space = spaces.Discrete(count)
        self.forfeit = self.table.forfeit()
        """What an illegal action pays (before the shaping taken back, reward 'shaped')."""
        self._rngs: list[Rng] = []
        self._potential = 0.0
        self._playing = False

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
        self._playing = True
        if self.render_mode == "human":
            self.render()
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
        if self.table.state is None:
            raise EpisodeOver("no game yet: call reset() first")
        return self.table.mask(LEARNER)

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        table = self.table
        if not self._playing:
            # Both after a game's end and after a forfeit: a forfeit ends the game too,
            # though the table would let it go on.
            if table.state is None:
                raise EpisodeOver("no game yet: call reset() first")
            raise EpisodeOver("the episode is over: call reset()")
        index = action_index(action)
        if index not in table.legal_indices():
            self._playing = False
            info = self._info()
            info["illegal"] = index
            # The shaping paid so far is taken back: over the episode, a forfeit then
            # comes to `forfeit` less the first estimate, below any game's result less it.
            reward = self.forfeit - self._potential
            return table.observe(LEARNER), reward, True, False, info
        table.apply(table.actions[index])
        self._bots_play()
        result = table.result()
        info = self._info()
        before, self._potential = self._potential, self._estimate()
        shaping = self._potential - before
        if self.render_mode == "human":
            self.render()
        if result is None:
            return table.observe(LEARNER), shaping, False, False, info
        self._playing = False
        info["result"] = result.to_json()
        reward = table.rewards(result)[LEARNER] + shaping
        return table.observe(LEARNER), reward, True, False, info

    def render(self) -> str | None:
        """The learner's table as the terminal draws it ('ansi': returned; 'human':
        printed)."""
        if self.render_mode is None or self.table.state is None:
            return None
        text = self.table.text(LEARNER)
        if self.render_mode == "human":
            print(text)
            return None
        return text
