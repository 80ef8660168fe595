"""What an RL researcher relies on (issue 41): a forfeit never pays, a policy opponent fits
its table, a run seeded once replays, a finished episode stays finished, bad input is one
line, `gymnasium.make` and PettingZoo's render test work for every game."""
# ruff: noqa: E402  (the imports below need the rl extra, checked just above them)

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

NO_EXTRA = "the rl extra is not installed (pip install tavernkeep[rl])"
pytest.importorskip("pettingzoo", reason=NO_EXTRA)
pytest.importorskip("gymnasium", reason=NO_EXTRA)

import gymnasium
import numpy as np
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import render_test

from tavernkeep.agents.policy import Policy, save_policy
from tavernkeep.engine.errors import ConfigError, SeatError
from tavernkeep.games import encoding_of, get_game
from tavernkeep.rl import aec_env, gym_env, vector_env
from tavernkeep.rl.gym import TavernGym
from tavernkeep.rl.imitate import label_games

HNS = "hack-and-slash"
GAMES = ["hack-and-slash", "here-to-slay", "crits-and-tricks", "side-quest", "rage"]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def random_return(env: TavernGym, seed: int, forfeit_after: int | None = None) -> float | None:
    """One episode's undiscounted return: random legal actions, and with `forfeit_after`
    an illegal one after that many steps (None if the game ended first)."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    total, done, steps = 0.0, False, 0
    while not done:
        if forfeit_after is not None and steps == forfeit_after:
            _, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
            assert done and "illegal" in info
            return total + reward
        _, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
        steps += 1
    return None if forfeit_after is not None else total


FORFEIT_CASES = [
    ("win", "hack-and-slash", 2),
    ("win", "rage", 0),
    ("margin", "crits-and-tricks", 2),
    ("margin", "hack-and-slash", 2),
    ("margin", "here-to-slay", 1),
    ("shaped", "rage", 0),
    ("shaped", "crits-and-tricks", 2),
]


@pytest.mark.parametrize(("reward", "game", "others"), FORFEIT_CASES)
def test_forfeiting_never_pays_better_than_playing(reward: str, game: str, others: int) -> None:
    env = gym_env(game, opponents=["bot:random"] * others, reward=reward)
    games = 12
    played = [random_return(env, seed) for seed in range(games)]
    worst = min(p for p in played if p is not None)
    forfeits = 0
    for seed in range(games):
        # At the first step and part-way through: the shaping collected is taken back.
        for after in (0, 3, 15):
            forfeited = random_return(env, seed, forfeit_after=after)
            if forfeited is None:
                continue
            forfeits += 1
            assert forfeited < worst, (seed, after, forfeited, worst)
            # Reward 'shaped' starts from the same estimate for the same seed, so the
            # forfeit is below this very game played out, not only below the worst.
            assert forfeited < played[seed]  # type: ignore[operator]
    assert forfeits >= games
    env.reset(seed=0)
    _, paid, terminated, _, info = env.step(99_999)
    assert terminated and info["illegal"] == 99_999
    assert paid <= env.forfeit < -1.0


def test_a_step_after_a_forfeit_or_before_reset_is_refused() -> None:
    env = gym_env("hack-and-slash", opponents=["bot:random"] * 2)
    with pytest.raises(ResetNeeded, match=r"call reset\(\) first"):
        env.step(0)
    with pytest.raises(ConfigError, match=r"call reset\(\) first"):
        env.action_masks()
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    legal = int(np.flatnonzero(info["action_mask"])[0])
    assert env.step(illegal)[2]
    with pytest.raises(ConfigError, match=r"the episode is over: call reset\(\)"):
        env.step(legal)
    env.reset(seed=1)
    env.step(legal)  # a reset starts play again


def test_an_aec_step_before_reset_or_after_everyone_left_is_one_line() -> None:
    env = aec_env("rage")
    with pytest.raises(ResetNeeded, match=r"call reset\(\) first"):
        env.step(0)
    env.reset(seed=3)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            with pytest.raises(ValueError, match="has finished: its only step is step\\(None\\)"):
                env.step(0)
            env.step(None)  # PettingZoo's way for a finished agent
        else:
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert not env.agents
    with pytest.raises(ConfigError, match=r"the game is over .*: call reset\(\)"):
        env.step(0)


def games_of(kind: str, resets: int) -> list[np.ndarray]:
    """The first observations of a run's games: seeded once, then reset without a seed,
    each game played a few random steps from a fixed generator."""
    rng = np.random.default_rng(0)
    seen: list[np.ndarray] = []
    if kind == "aec":
        aec = aec_env("hack-and-slash", players=3)
        for k in range(resets):
            aec.reset(seed=5 if k == 0 else None)
            seen.append(aec.observe("seat_0")["observation"].copy())
            for _ in range(5):
                obs, _, term, trunc, _ = aec.last()
                if term or trunc:
                    break
                aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return seen
    if kind == "gym":
        env = gym_env("hack-and-slash", opponents="bot:random", players=3)
        for k in range(resets):
            observation, info = env.reset(seed=5 if k == 0 else None)
            seen.append(observation)
            env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        return seen
    batch = vector_env("hack-and-slash", 2, "bot:random", players=3)
    observations, infos = batch.reset(seed=5)
    for _ in range(resets * 8):
        masks = infos["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        observations, _, done, _, infos = batch.step(actions)
        seen.extend(observations[done])  # the next games' first observations
    return seen


@pytest.mark.parametrize("kind", ["aec", "gym", "vector"])
def test_a_run_seeded_once_replays_every_later_game(kind: str) -> None:
    first, second = games_of(kind, 12), games_of(kind, 12)
    assert len(first) == len(second) >= 5
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))
    # ... and its games differ from each other: the seed moves on from game to game.
    assert len({a.tobytes() for a in first}) > 1


def policy_file(path: Path, game: str, players: int) -> str:
    rules = get_game(game)
    config = rules.make_config({"players": players} if game != "rage" else {})
    encoding = encoding_of(rules, config, rules.load_pack(None))
    rng = np.random.default_rng(1)
    layers = (
        (rng.normal(size=(4, encoding.size)).astype(np.float32), np.zeros(4, np.float32)),
        (
            rng.normal(size=(len(encoding.actions), 4)).astype(np.float32),
            np.zeros(len(encoding.actions), np.float32),
        ),
    )
    actions = tuple(a.text for a in encoding.actions)
    save_policy(
        path,
        Policy(
            game, config.model_dump(mode="json"), None, encoding.size, actions, layers, "tanh", {}
        ),
    )
    return f"bot:policy:{path}"


def test_every_env_refuses_a_policy_made_for_another_table(tmp_path: Path) -> None:
    three = policy_file(tmp_path / "three.npz", "hack-and-slash", 3)
    rage = policy_file(tmp_path / "rage.npz", "rage", 1)
    for spec, error in [
        (three, "trained on hack-and-slash for 3 players, and this table seats 4"),
        (rage, "a policy for rage, not hack-and-slash"),
    ]:
        makers: list[tuple[Any, tuple[Any, ...], dict[str, Any]]] = [
            (gym_env, (HNS,), {"opponents": [spec] * 3}),
            (gym_env, (HNS,), {"opponents": spec}),  # every other seat
            (vector_env, (HNS, 2, [spec] * 3), {}),
            (vector_env, (HNS, 2, [spec] * 3), {"workers": 1}),
            (label_games, (HNS, "bot:heuristic", range(1), [spec] * 3), {}),  # an opponent
            (label_games, (HNS, spec, range(1), ["bot:random"] * 3), {}),  # the teacher
        ]
        for make, args, keywords in makers:
            with pytest.raises(SeatError) as caught:
                make(*args, **keywords)
            assert error in str(caught.value) and "\n" not in str(caught.value)
    # The same file at the table it was made for plays.
    env = gym_env("hack-and-slash", opponents=three, players=3)
    assert env.reset(seed=1)[0].shape == (53,)


def test_one_opponent_spec_fills_every_other_seat() -> None:
    env = gym_env("hack-and-slash", opponents="bot:heuristic")
    assert env.table.players == 4 and len(env.bots) == 3  # the game's default, as aec_env
    assert len(gym_env("hack-and-slash", opponents="bot:random", players=5).bots) == 4
    assert len(gym_env("crits-and-tricks").bots) == 2  # None: bot:random in every other seat


@pytest.mark.parametrize("game", GAMES)
def test_aec_and_gym_default_to_the_games_player_count(game: str) -> None:
    default = getattr(get_game(game).make_config({}), "players", 1)
    assert aec_env(game).table.players == gym_env(game).table.players == default


def test_bad_env_input_is_one_line() -> None:
    with pytest.raises(SeatError) as human:
        gym_env("hack-and-slash", opponents=["human", "bot:random"])
    assert "bot:random" in str(human.value) and "human" not in str(human.value).split(":", 1)[1]
    with pytest.raises(SeatError, match="unknown opponent 'bot:genius'") as unknown:
        gym_env("hack-and-slash", opponents="bot:genius")
    assert "expected human" not in str(unknown.value)
    with pytest.raises(ConfigError, match="opponents must be a seat spec or a list"):
        gym_env("hack-and-slash", opponents=3)  # type: ignore[arg-type]
    # A Python caller is told the keyword, not the command line's flag.
    with pytest.raises(ConfigError, match=r"two_player=True") as variant:
        gym_env("hack-and-slash", opponents=["bot:random"])
    assert "--variant" not in str(variant.value)
    with pytest.raises(ConfigError, match="render_mode must be 'ansi', 'human' or None"):
        aec_env("rage", render_mode="rgb_array")


def test_an_action_must_be_a_whole_number() -> None:
    env = gym_env("rage")
    _, info = env.reset(seed=1)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    with pytest.raises(TypeError, match=r"an action is an integer index .*, not 0\.7"):
        env.step(legal + 0.7)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not True"):
        env.step(True)
    env.step(np.int32(legal))  # numpy's integers are integers
    aec = aec_env("rage")
    aec.reset(seed=1)
    with pytest.raises(TypeError, match="an action is an integer index"):
        aec.step(float(legal))  # type: ignore[arg-type]
    batch = vector_env("rage", 2)
    batch.reset(seed=1)
    with pytest.raises(TypeError, match="actions are integer indices, not float64"):
        batch.step(np.array([0.7, 1.2]))


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_make_and_render(game: str) -> None:
    env = gymnasium.make(f"tavernkeep/{game}-v0", render_mode="ansi")
    observation, _ = env.reset(seed=3)
    assert env.observation_space.contains(observation)
    text = env.render()
    assert isinstance(text, str) and len(text.splitlines()) > 5
    assert "Player 1" in text and "to act" in text
    # With a spec, Gymnasium's checker also makes and renders every declared mode.
    check_env(env.unwrapped)
    render_test(lambda render_mode=None: aec_env(game, render_mode=render_mode))


def test_a_spectators_render_shows_no_hand() -> None:
    # The AEC env renders for a spectator: the seats' hidden cards are not in the text.
    env = aec_env("crits-and-tricks", render_mode="ansi")
    env.reset(seed=2)
    seat = gym_env("crits-and-tricks", render_mode="ansi")
    seat.reset(seed=2)
    assert env.render() != seat.render()


# -- observations a network can read ------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_observations_are_scaled_and_their_space_bounded(game: str) -> None:
    # The raw encodings hold counts and scores up to a few hundred beside 0/1 flags; the
    # envs give them asinh-scaled in a finite box, and raw on request.
    env = gym_env(game)
    raw = gym_env(game, observation="raw")
    space = env.observation_space
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    assert not np.isfinite(raw.observation_space.high).any()
    aec = aec_env(game)
    assert np.isfinite(aec.observation_space(aec.possible_agents[0])["observation"].high).all()
    largest = 0.0
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        unscaled, _ = raw.reset(seed=seed)
        done = False
        while not done:
            assert space.contains(obs)
            # The same game, seen both ways: asinh keeps order and sign, 0 at 0.
            expected = np.arcsinh(unscaled)
            assert np.allclose(obs, expected)
            largest = max(largest, float(np.abs(unscaled).max()))
            action = int(np.flatnonzero(info["action_mask"])[0])
            obs, _, done, truncated, info = env.step(action)
            unscaled, *_ = raw.step(action)
            done = done or truncated
    assert np.arcsinh(largest) < 8  # what a network sees stays small however large the count


def test_a_bad_observation_scale_is_one_line() -> None:
    with pytest.raises(ConfigError, match="observation must be 'asinh' or 'raw', not 'log'"):
        gym_env(HNS, observation="log")


def test_a_policy_plays_its_observations_as_it_learnt_them(tmp_path: Path) -> None:
    # A one-layer policy that scores each action by one feature of the observation: the
    # file records how its inputs were scaled, and the bot scales the encoding the same
    # way; a file from before scaling (no record) reads the raw encoding.
    from tavernkeep.agents.policy import load_policy, scaled

    game = get_game(HNS)
    config = game.make_config({"players": 3})
    encoding = encoding_of(game, config, game.load_pack(None))
    weights = np.random.default_rng(1).normal(size=(len(encoding.actions), encoding.size))
    for scale in ("asinh", "raw"):
        policy = Policy(
            game=HNS, options=config.model_dump(mode="json"), pack=None, size=encoding.size,
            actions=tuple(a.text for a in encoding.actions),
            layers=((weights.astype(np.float32), np.zeros(len(encoding.actions), np.float32)),),
            activation="tanh", about={}, observation=scale,
        )  # fmt: skip
        path = tmp_path / f"{scale}.npz"
        save_policy(path, policy)
        loaded = load_policy(path)
        assert loaded.observation == scale
        env = gym_env(HNS, opponents=f"bot:policy:{path}", players=3, observation=scale)
        obs, _ = env.reset(seed=4)
        assert np.allclose(obs, scaled(env.table.encoded(0), scale))
        # At a table, the bot chooses what the network scores highest on the encoding
        # scaled its way: the scaled and the raw reading choose apart at some decision.
        from tavernkeep.agents.policy import PolicyBot
        from tavernkeep.engine.match import InfoSet
        from tavernkeep.engine.rng import Rng

        bot = PolicyBot(f"bot:policy:{path}", loaded, game)
        table = env.table
        differ = 0
        for seed in range(20):
            table.reset(seed)
            if table.actor() != 0 or len(table.legal()) < 2:
                continue
            info = InfoSet(game, table.state, 0, Rng(seed))
            indices = table.legal_indices()
            for how in ("asinh", "raw"):
                values = loaded.scores(scaled(table.encoded(0), how))
                best = table.legal()[max(range(len(indices)), key=lambda k: values[indices[k]])]
                if how == scale:
                    assert bot.choose(info) == best
                else:
                    differ += bot.choose(info) != best
        assert differ, "no decision told the two readings apart"
