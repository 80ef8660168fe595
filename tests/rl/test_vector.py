"""The vector env plays exactly the games of N single envs, here or in worker processes."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from tavernkeep.engine.errors import ConfigError
from tavernkeep.rl import aec_env, gym_env, self_play, vector_env
from tavernkeep.rl.vector import SelfPlayBatch, TavernVectorEnv

CASES = [
    ("hack-and-slash", ["bot:random", "bot:heuristic"]),
    ("rage", []),
]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action a game."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks])


@pytest.mark.parametrize("workers", [0, 2])
@pytest.mark.parametrize(("game", "opponents"), CASES)
def test_a_batch_plays_the_games_of_single_envs(
    game: str, opponents: list[str], workers: int
) -> None:
    count, seed, steps = 4, 100, 300
    batch = vector_env(game, count, opponents, workers=workers)
    singles = [gym_env(game, opponents=opponents) for _ in range(count)]
    try:
        observations, infos = batch.reset(seed=seed)
        alone = [env.reset(seed=seed + i) for i, env in enumerate(singles)]
        assert np.array_equal(observations, np.stack([o for o, _ in alone]))
        assert np.array_equal(infos["action_mask"], np.stack([i["action_mask"] for _, i in alone]))
        rng = np.random.default_rng(0)
        finished = 0
        for _ in range(steps):
            actions = pick(batch.action_masks(), rng)
            observations, rewards, terminated, truncated, infos = batch.step(actions)
            for i, env in enumerate(singles):
                observation, reward, term, trunc, info = env.step(int(actions[i]))
                assert rewards[i] == reward and terminated[i] == term and truncated[i] == trunc
                if term or trunc:
                    # Reset in the same step: the last observation and result are kept.
                    finished += 1
                    assert infos["_final_obs"][i]
                    assert np.array_equal(infos["final_obs"][i], observation)
                    assert infos["final_info"][i]["result"] == info["result"]
                    observation, info = env.reset()
                assert np.array_equal(observations[i], observation)
                assert np.array_equal(infos["action_mask"][i], info["action_mask"])
        assert finished >= 2, "the batch should have seen games end and start again"
    finally:
        batch.close()


def test_bad_batches_are_one_line_errors() -> None:
    with pytest.raises(ConfigError, match="num_envs must be a whole number, 1 or more, not 0"):
        TavernVectorEnv("rage", 0)
    with pytest.raises(ConfigError, match=r"workers must be 0 \(this process\) to num_envs"):
        TavernVectorEnv("rage", 2, workers=3)
    with pytest.raises(ConfigError, match="needs 2 opponents"):
        TavernVectorEnv("hack-and-slash", 2, ["bot:random"], players=3)
    batch = TavernVectorEnv("rage", 2)
    batch.reset(seed=1)
    with pytest.raises(ConfigError, match=r"step: \(3,\) actions for 2 games"):
        batch.step(np.zeros(3, dtype=np.int64))
    batch.close()


@pytest.mark.parametrize(("game", "players"), [("crits-and-tricks", 3), ("side-quest", 2)])
def test_self_play_plays_the_games_of_single_aec_envs(game: str, players: int) -> None:
    count, seed = 3, 40
    batch = self_play(game, count, players=players)
    singles = [aec_env(game, players=players) for _ in range(count)]
    played = [0] * count  # games each single env has started

    def start(i: int) -> None:
        singles[i].reset(seed=seed + i + played[i] * count)
        played[i] += 1

    for i in range(count):
        start(i)
    seats, observations, masks = batch.reset(seed=seed)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        for i, env in enumerate(singles):
            agent = env.agent_selection
            observed = env.observe(agent)
            assert seats[i] == int(agent.removeprefix("seat_"))
            assert np.array_equal(observations[i], observed["observation"])
            assert np.array_equal(masks[i], observed["action_mask"])
        actions = pick(masks, rng)
        seats, observations, masks, rewards, finished, infos = batch.step(actions)
        for i, env in enumerate(singles):
            env.step(int(actions[i]))
            if all(env.terminations.values()):
                assert finished[i]
                assert list(rewards[i]) == [env.rewards[a] for a in env.possible_agents]
                assert infos["results"][i] == env.infos["seat_0"]["result"]
                ended += 1
                start(i)
            else:
                assert not finished[i]
    assert ended >= 2


def test_self_play_refuses_a_shaped_reward_and_a_bad_batch() -> None:
    with pytest.raises(ConfigError, match="reward 'shaped' is for one learner"):
        SelfPlayBatch("rage", 2, reward="shaped")
    with pytest.raises(ConfigError, match="num_envs must be a whole number"):
        SelfPlayBatch("rage", 0)
