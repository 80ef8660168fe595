"""The RL environments: PettingZoo's and Gymnasium's own checks, the action mask, secrecy."""
# ruff: noqa: E402  (the imports below need the rl extra, checked just above them)

from __future__ import annotations

import warnings
from typing import Any

import pytest

NO_EXTRA = "the rl extra is not installed (pip install tavernkeep[rl])"
pytest.importorskip("pettingzoo", reason=NO_EXTRA)
pytest.importorskip("gymnasium", reason=NO_EXTRA)

import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.rng import Rng
from tavernkeep.rl import aec_env, gym_env
from tavernkeep.rl.table import Table

GAMES = {
    "hack-and-slash": [3, 6],
    "here-to-slay": [2, 4],
    "crits-and-tricks": [2, 4],
    "side-quest": [1, 3],
    "rage": [1],
}
CASES = [(game, players) for game, counts in GAMES.items() for players in counts]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    # PettingZoo and Gymnasium advise on unbounded Boxes and dict observations; both are
    # deliberate here (counts have no upper bound; the mask rides with the observation).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize(("game", "players"), CASES)
def test_pettingzoo_api_and_seed(game: str, players: int) -> None:
    api_test(aec_env(game, players=players), num_cycles=150)
    seed_test(lambda: aec_env(game, players=players), num_cycles=50)


@pytest.mark.parametrize(
    ("game", "opponents"),
    [("rage", []), ("hack-and-slash", ["bot:heuristic", "bot:random", "bot:random"])],
)
def test_gymnasium_check_env(game: str, opponents: list[str]) -> None:
    check_env(gym_env(game, opponents=opponents), skip_render_check=True)


def play_random(table: Table, seed: int, steps: int, check: Any) -> None:
    rng = Rng(seed)
    table.reset(seed)
    for _ in range(steps):
        seat = table.actor()
        if seat is None:
            table.reset(seed := seed + 1000)
            continue
        check(table, seat)
        legal = table.legal()
        table.apply(legal[rng.below(len(legal))])


@pytest.mark.parametrize(("game", "players"), CASES)
def test_mask_is_exactly_the_legal_actions(game: str, players: int) -> None:
    table = Table(game, players=players)

    def check(table: Table, seat: int) -> None:
        mask = table.mask(seat)
        offered = {table.actions[i] for i in np.flatnonzero(mask)}
        assert offered == set(table.legal())
        other = (seat + 1) % table.players
        if other != seat:
            assert not table.mask(other).any()

    play_random(table, 7, 3000, check)


SETTINGS = [
    *[("hack-and-slash", {"players": n}) for n in (3, 4, 5, 6)],
    ("hack-and-slash", {"players": 2, "two_player": True}),
    *[("here-to-slay", {"players": n}) for n in (2, 3, 5, 6)],
    *[("crits-and-tricks", {"players": n}) for n in (2, 3, 4)],
    *[
        ("side-quest", {"players": n, "scenario": s})
        for n in (1, 2, 4)
        for s in ("The Cellar Below the Inn", "Webs Under Thornhold", "The Ashen Throne")
    ],
    ("rage", {}),
]


@pytest.mark.parametrize(("game", "options"), SETTINGS)
def test_every_offered_action_has_an_index(game: str, options: dict[str, Any]) -> None:
    # Cheaper than the mask test (no observation), so it can afford many more games.
    table = Table(game, **options)
    rng = Rng(5)
    games = steps = 0
    while steps < 8000 and games < 60:
        table.reset(1000 + games)
        while table.actor() is not None:
            legal = table.legal()
            for action in legal:
                assert table.actions[table.index_of(action)] == action
            table.apply(legal[rng.below(len(legal))])
            steps += 1
        games += 1


def test_an_action_outside_the_space_is_named() -> None:
    table = Table("hack-and-slash", players=3)
    table.actions.pop()  # as if the enumeration had forgotten rescue:6
    table.index = {(a.kind, a.args): i for i, a in enumerate(table.actions)}
    from tavernkeep.engine.actions import Action

    with pytest.raises(Exception, match="'rescue:6' is not in the fixed action space"):
        table.index_of(Action("rescue", 6))


def _hide_differently(game: str, state: Any, seat: int) -> None:
    """Change what `seat` may not see: other seats' hands, the order of hidden piles."""
    rng = Rng(99)
    if game == "hack-and-slash":
        rng.shuffle(state.pile)
        state.rng = Rng(12345)
    elif game == "here-to-slay":
        # Deal the other hands' unknown cards among them again, sizes kept (sizes are
        # public; a card someone saw go into a hand is known, so it stays put).
        others = [s for s in range(len(state.hands)) if s != seat]
        free = [c for s in others for c in state.hands[s] if c not in state.known]
        rng.shuffle(free)
        for s in others:
            state.hands[s] = [c if c in state.known else free.pop() for c in state.hands[s]]
        rng.shuffle(state.deck)
        rng.shuffle(state.monster_deck)
    elif game == "crits-and-tricks":
        others = [s for s in range(len(state.hands)) if s != seat]
        pool = [c for s in others for c in state.hands[s]]
        rng.shuffle(pool)
        for s in others:
            n = len(state.hands[s])
            state.hands[s], pool = pool[:n], pool[n:]
    elif game == "side-quest":
        rng.shuffle(state.monster_deck)
        rng.shuffle(state.loot_deck)
    state.rng = Rng(424242)


@pytest.mark.parametrize("observe", ["direct", "view"])
@pytest.mark.parametrize(("game", "players"), [(g, c[-1]) for g, c in GAMES.items()])
def test_observation_ignores_what_the_seat_cannot_see(
    game: str, players: int, observe: str
) -> None:
    table = Table(game, players=players, observe=observe)

    def check(table: Table, seat: int) -> None:
        for watcher in range(table.players):
            before = table.observe(watcher)
            saved = table.game.clone(table.state)
            _hide_differently(game, table.state, watcher)
            assert np.array_equal(before, table.observe(watcher))
            table.state = saved

    play_random(table, 3, 400, check)


def test_reset_with_a_seed_replays() -> None:
    env = aec_env("here-to-slay", players=3)
    runs = []
    for _ in range(2):
        env.reset(seed=11)
        seen = []
        for _agent in env.agent_iter(max_iter=300):
            obs, _, term, trunc, _ = env.last()
            seen.append(obs["observation"].copy())
            mask = obs["action_mask"]
            env.step(None if term or trunc else int(np.flatnonzero(mask)[0]))
        runs.append(seen)
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))


def test_rewards_at_the_end() -> None:
    env = aec_env("hack-and-slash", players=3)
    env.reset(seed=5)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    winners = [a for a, r in totals.items() if r > 0]
    assert winners and all(totals[a] == pytest.approx(1 / len(winners)) for a in winners)
    assert all(r == -1.0 for a, r in totals.items() if a not in winners)


def test_cooperative_games_share_the_reward() -> None:
    env = gym_env("rage")
    env.reset(seed=2)
    done, reward = False, 0.0
    while not done:
        index = int(np.flatnonzero(env.action_masks())[0])
        _, reward, done, _, info = env.step(index)
    assert reward == (1.0 if info["result"]["won"] else -1.0)


def test_bad_options_are_one_line_errors() -> None:
    with pytest.raises(ConfigError, match="needs 2 opponents"):
        gym_env("hack-and-slash", opponents=["bot:random"], players=3)
    with pytest.raises(ConfigError, match="reward must be"):
        aec_env("rage", reward="points")
    with pytest.raises(ConfigError, match="observe must be 'direct' or 'view', not 'state'"):
        gym_env("rage", observe="state")


def test_missing_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pettingzoo" else real(name)
    )
    with pytest.raises(ConfigError, match=r"pip install tavernkeep\[rl\]"):
        aec_env("rage")


def test_a_shaped_reward_adds_up_to_the_result_less_the_first_estimate() -> None:
    # Potential-based: every step is the change in how well the learner stands (Rage's:
    # the planner's score), and the end adds the win or loss, so a whole game's rewards
    # come to the result less the potential it started from, whatever was played between.
    env = gym_env("rage", reward="shaped")
    potential = env.table.potential
    assert potential is not None
    rng = np.random.default_rng(4)
    moved = 0
    for seed in range(6):
        _, info = env.reset(seed=seed)
        first = potential(env.table.state, 0)
        total, done = 0.0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, done, _, info = env.step(action)
            total += reward
            moved += reward != 0 and not done
        end = 1.0 if info["result"]["won"] else -1.0
        assert total == pytest.approx(end - first)
    assert moved, "the estimate should move as games go"


@pytest.mark.parametrize(("game", "opponents"), [("crits-and-tricks", 2), ("side-quest", 1)])
def test_a_shaped_reward_falls_back_on_the_games_evaluator(game: str, opponents: int) -> None:
    env = gym_env(game, opponents=["bot:random"] * opponents, reward="shaped")
    evaluator = env.table.game.evaluator()
    assert evaluator is not None and env.table.potential is not None
    env.reset(seed=2)
    assert env.table.potential(env.table.state, 0) == evaluator(env.table.state)[0]


def test_a_shaped_reward_needs_an_evaluator_and_one_learner() -> None:
    with pytest.raises(ConfigError, match="needs the game's evaluator, and Hack & Slash"):
        gym_env("hack-and-slash", opponents=["bot:random"] * 2, reward="shaped")
    with pytest.raises(ConfigError, match="reward 'shaped' is for one learner: use gym_env"):
        aec_env("rage", reward="shaped")
