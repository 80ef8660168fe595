"""Vector environments: a batch of games stepped per call, optionally across processes.

`TavernVectorEnv` is Gymnasium's vector API over N copies of `TavernGym` (seat 0 learns,
bots play the other seats). `step` takes one action a game and answers for the batch:
observations (N, size) float32, rewards, terminations and truncations (N,), and the masks
batched, `infos["action_mask"]` and `action_masks()` (N, actions) int8.

A finished game is reset within the same step (Gymnasium's SAME_STEP autoreset): the
observation returned at its index is the next game's first, and its last observation and
info (with the result) are in `infos["final_obs"]` and `infos["final_info"]`, flagged by
`infos["_final_obs"]`.

Seeds: `reset(seed=s)` starts game i at seed s + i, as N single envs reset with those
seeds would; each next game of env i takes its seed from that env's own seeded generator,
as a single env's `reset()` does. So the batch plays exactly the games of N single envs
(tests/rl/test_vector.py), whether it runs here or in worker processes.

`workers=K` splits the batch across K processes, each stepping its share; the main process
sends the actions and gathers the answers (benchmarks/rl_steps.py measures what it gains).

`SelfPlayBatch` is the batched AEC form, for self-play: every seat of N games is the
learner, and each call steps the deciding seat of every game.
"""

from __future__ import annotations

import multiprocessing
from multiprocessing.connection import Connection
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from tavernkeep.engine.errors import ConfigError
from tavernkeep.rl.gym import Opponents, TavernGym
from tavernkeep.rl.table import Mask, Table, Vector

Batched = npt.NDArray[Any]
Finals = dict[int, tuple[Vector, dict[str, Any]]]
Answer = tuple[Batched, Batched, Batched, Batched, Batched, Finals]
"""observations, rewards, terminations, truncations, masks, and for each game that ended
at this step its index's last observation and info."""


class Games:
    """A batch of single envs in this process: what a worker or the vector env steps."""

    def __init__(self, count: int, game: str, opponents: Opponents, options: dict[str, Any]):
        self.envs = [TavernGym(game, opponents=opponents, **options) for _ in range(count)]

    def reset(self, seeds: list[int | None]) -> tuple[Batched, Batched]:
        """The first observations and masks of new games from `seeds`."""
        observations, masks = [], []
        for env, seed in zip(self.envs, seeds, strict=True):
            observation, info = env.reset(seed=seed)
            observations.append(observation)
            masks.append(info["action_mask"])
        return np.stack(observations), np.stack(masks)

    def step(self, actions: Batched) -> Answer:
        count = len(self.envs)
        observations = []
        rewards = np.zeros(count, dtype=np.float64)
        terminated = np.zeros(count, dtype=np.bool_)
        truncated = np.zeros(count, dtype=np.bool_)
        masks = []
        finals: Finals = {}
        for i, (env, action) in enumerate(zip(self.envs, actions, strict=True)):
            observation, reward, term, trunc, info = env.step(int(action))
            rewards[i], terminated[i], truncated[i] = reward, term, trunc
            if term or trunc:
                finals[i] = (observation, info)
                observation, info = env.reset()
            observations.append(observation)
            masks.append(info["action_mask"])
        return np.stack(observations), rewards, terminated, truncated, np.stack(masks), finals


def _work(conn: Connection, count: int, game: str, opponents: Any, options: Any) -> None:
    """A worker process: steps its share of the batch for as long as it is asked."""
    games = Games(count, game, opponents, options)
    while True:
        command, argument = conn.recv()
        if command not in ("step", "reset"):
            conn.close()
            return
        conn.send(getattr(games, command)(argument))


class TavernVectorEnv(gymnasium.vector.VectorEnv[Batched, Batched, Batched]):
    """N games of `game` for seat 0 against `opponents`, stepped together."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        num_envs: int,
        opponents: Opponents = None,
        workers: int = 0,
        **options: Any,
    ) -> None:
        check_count(num_envs)
        if not isinstance(workers, int) or not 0 <= workers <= num_envs:
            raise ConfigError(
                f"workers must be 0 (this process) to num_envs ({num_envs}), not {workers!r}"
            )
        # One env made here first: a bad game, option or opponent is one error now, not
        # a worker's traceback.
        probe = TavernGym(game, opponents=opponents, **options)
        self.num_envs = num_envs
        self.single_observation_space = probe.observation_space
        self.single_action_space = probe.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.table = probe.table
        """A table of the batch's game, config and pack, for its encoding and actions."""
        pack = options.get("pack")
        self.pack = None if pack is None else str(pack)
        assert isinstance(self.single_action_space, spaces.Discrete)
        self._sizes = [len(part) for part in np.array_split(np.arange(num_envs), max(workers, 1))]
        self._local: Games | None = None
        self._conns: list[Connection] = []
        self._processes: list[Any] = []
        if workers == 0:
            self._local = Games(num_envs, game, opponents, options)
        else:
            # Spawned, not forked: a learner's process holds torch's threads, which a
            # fork would copy half-alive.
            context = multiprocessing.get_context("spawn")
            for size in self._sizes:
                mine, theirs = context.Pipe()
                process = context.Process(
                    target=_work, args=(theirs, size, game, opponents, options), daemon=True
                )
                process.start()
                theirs.close()
                self._conns.append(mine)
                self._processes.append(process)
        self._masks = np.zeros((num_envs, self.single_action_space.n), dtype=np.int8)
        self.closed = False

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Batched, dict[str, Any]]:
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ConfigError(f"reset: {len(seeds)} seeds for {self.num_envs} games")
        answers = self._ask("reset", seeds)
        observations, masks = (joined([answer[k] for answer in answers]) for k in range(2))
        self._masks = masks
        return observations, {"action_mask": masks}

    def _ask(self, command: str, values: Any) -> list[Any]:
        """Each part of the batch's answer to `command` (Games' step or reset) given its
        share of `values`, in order: this process's one part, or every worker's."""
        if self._local is not None:
            return [getattr(self._local, command)(values)]
        start = 0
        for conn, size in zip(self._conns, self._sizes, strict=True):
            conn.send((command, values[start : start + size]))
            start += size
        return [conn.recv() for conn in self._conns]

    def step(self, actions: Batched) -> tuple[Batched, Batched, Batched, Batched, dict[str, Any]]:
        actions = integer_actions(actions, self.num_envs)
        answers = self._ask("step", actions)
        observations, rewards, terminated, truncated, masks = (
            joined([answer[k] for answer in answers]) for k in range(5)
        )
        finals: Finals = {}
        start = 0
        for answer, size in zip(answers, self._sizes, strict=True):
            finals.update({start + i: final for i, final in answer[5].items()})
            start += size
        self._masks = masks
        infos: dict[str, Any] = {"action_mask": masks}
        if finals:
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_info = np.full(self.num_envs, None, dtype=object)
            flags = np.zeros(self.num_envs, dtype=np.bool_)
            for i, (observation, info) in finals.items():
                final_obs[i], final_info[i], flags[i] = observation, info, True
            infos.update(
                final_obs=final_obs, _final_obs=flags, final_info=final_info, _final_info=flags
            )
        return observations, rewards, terminated, truncated, infos

    def action_masks(self) -> Mask:
        """The legal actions of every game now, one row a game (MaskablePPO's convention)."""
        return self._masks

    def close_extras(self, **kwargs: Any) -> None:
        for conn in self._conns:
            try:
                conn.send(("close", None))
                conn.close()
            except (BrokenPipeError, OSError):
                pass
        for process in self._processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
        self._conns, self._processes = [], []


def joined(parts: list[Batched]) -> Batched:
    """The parts' arrays as one, in order (one part as it is: no copy)."""
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def integer_actions(actions: Any, num_envs: int) -> Batched:
    """`actions` as an array of one index a game; ConfigError for the wrong count,
    TypeError for numbers that are not whole (`int(0.7)` would quietly play action 0)."""
    array: Batched = np.asarray(actions)
    if array.shape != (num_envs,):
        raise ConfigError(f"step: {array.shape} actions for {num_envs} games")
    if not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"step: actions are integer indices, not {array.dtype} {array!r}")
    return array


def check_count(num_envs: object) -> None:
    if not isinstance(num_envs, int) or num_envs < 1:
        raise ConfigError(f"num_envs must be a whole number, 1 or more, not {num_envs!r}")


class SelfPlayBatch:
    """N games in which every seat is the learner (self-play), stepped together: the
    batched form of the AEC env. Each call takes one action a game, for the seat whose
    decision it is, and answers for every game with the seat deciding next, its
    observation and its mask, batched. A game that ends answers its seats' rewards
    (a row of `players`, the AEC env's) and starts the next at once.

    Game i's k-th game is seeded `seed + i + k * N`, so every game of a run differs and a
    run is the same again from the same seed."""

    def __init__(self, game: str, num_envs: int, **options: Any) -> None:
        check_count(num_envs)
        self.tables = [Table(game, **options) for _ in range(num_envs)]
        if self.tables[0].reward == "shaped":
            raise ConfigError("reward 'shaped' is for one learner: use gym_env")
        self.num_envs = num_envs
        self.players = self.tables[0].players
        self._next: list[int] = []

    def reset(self, seed: int = 0) -> tuple[Batched, Batched, Batched]:
        """(seats, observations, masks) of the first decision of each game."""
        for i, table in enumerate(self.tables):
            table.reset(seed + i)
        self._next = [seed + i + self.num_envs for i in range(self.num_envs)]
        return self._batch()

    def _batch(self) -> tuple[Batched, Batched, Batched]:
        seats = np.empty(self.num_envs, dtype=np.int64)
        observations, masks = [], []
        for i, table in enumerate(self.tables):
            seat = table.actor()
            assert seat is not None  # a finished game has been reset
            seats[i] = seat
            observations.append(table.observe(seat))
            masks.append(table.mask(seat))
        return seats, np.stack(observations), np.stack(masks)

    def step(
        self, actions: Batched
    ) -> tuple[Batched, Batched, Batched, Batched, Batched, dict[str, Any]]:
        """(seats, observations, masks, rewards (N, players), finished (N,), infos): the
        next decision of every game, and the rewards of those that ended at this step
        (their results in `infos["results"]`, their last observations of every seat in
        `infos["final_obs"]`, both by game index)."""
        actions = integer_actions(actions, self.num_envs)
        rewards = np.zeros((self.num_envs, self.players), dtype=np.float64)
        finished = np.zeros(self.num_envs, dtype=np.bool_)
        results: dict[int, dict[str, Any]] = {}
        final_obs: dict[int, Batched] = {}
        for i, (table, action) in enumerate(zip(self.tables, actions, strict=True)):
            table.play(int(action))
            if table.actor() is None:
                result = table.result()
                assert result is not None
                rewards[i] = table.rewards(result)
                finished[i] = True
                results[i] = result.to_json()
                final_obs[i] = np.stack([table.observe(s) for s in range(self.players)])
                table.reset(self._next[i])
                self._next[i] += self.num_envs
        seats, observations, masks = self._batch()
        infos = {"results": results, "final_obs": final_obs}
        return seats, observations, masks, rewards, finished, infos
