"""The PettingZoo AEC environment: one agent a seat, turns taken as the game asks.

`observe(agent)` is that seat's view encoded, with the action mask (all 0 when the seat
is not the one deciding); the rewards come at the end, from `result`.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from tavernkeep.engine.errors import ConfigError
from tavernkeep.rl.gym import RENDER_MODES, check_render_mode
from tavernkeep.rl.table import EpisodeOver, Table, action_index

AgentID = str
Observation = dict[str, Any]


class TavernAEC(AECEnv[AgentID, Observation, int]):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "tavernkeep_v0",
        "is_parallelizable": False,
    }

    def __init__(self, game: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.table = Table(game, **options)
        if self.table.reward == "shaped":
            raise ConfigError("reward 'shaped' is for one learner: use gym_env")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"tavernkeep_{game.replace('-', '_')}_v0"}  # type: ignore[misc]
        self.possible_agents = [f"seat_{i}" for i in range(self.table.players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        size, count = self.table.encoding.size, len(self.table.actions)
        observation = spaces.Dict(
            {
                "observation": spaces.Box(self.table.low, self.table.high, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (count,), np.int8),
            }
        )
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(count) for a in self.possible_agents}
        self.agents: list[AgentID] = []
        self._started = False
        self._np_random: np.random.Generator | None = None

    def observation_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # Gymnasium's rule, as `gym_env` follows it: a seeded reset plays that seed and
        # seeds the env's generator, from which every reset without a seed draws the next
        # game's; so a run seeded once plays the same games again, however many.
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(self._np_random.integers(2**63)) if seed is None else seed
        self.table.reset(game_seed)
        self._started = True
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[AgentID, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        actor = self.table.actor()
        if actor is not None:
            self.agent_selection = self.possible_agents[actor]
            return
        # Over: every seat gets its reward and is done; PettingZoo then walks the dead.
        result = self.table.result()
        assert result is not None
        for agent, reward in zip(self.agents, self.table.rewards(result), strict=True):
            self.rewards[agent] = reward
            self.terminations[agent] = True
            self.infos[agent] = {"result": result.to_json()}
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]

    def observe(self, agent: AgentID) -> Observation:
        seat = self._seat[agent]
        return {"observation": self.table.observe(seat), "action_mask": self.table.mask(seat)}

    def step(self, action: int | None) -> None:
        if not self.agents:
            # PettingZoo removes each finished agent as it steps with None; with none left
            # there is nobody to step for.
            if not self._started:
                raise EpisodeOver("no game yet: call reset() first")
            raise EpisodeOver("the game is over and every agent has left: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent} has finished: its only step is step(None)")
            self._was_dead_step(action)
            return
        if action is None:
            raise ConfigError(f"{agent} must act: only a finished seat may step with None")
        index = action_index(action)
        self._cumulative_rewards[agent] = 0.0
        self.table.play(index)
        # Rewards stay 0 until the game ends, when `_select` hands them out once; so a
        # step in play touches no reward dictionary (a loop over the seats, every step).
        self._select()

    def render(self) -> str | None:
        """The table as the terminal draws it for a spectator, who sees no seat's secrets
        ('ansi': returned; 'human': printed)."""
        if self.render_mode is None or not self._started:
            return None
        text = self.table.text(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
