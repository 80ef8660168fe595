"""Environment steps/s of our RL environments beside the ones researchers would use.

One process, one run, the same random masked loop everywhere (a `random.Random(0)` a
side picks uniformly among the legal actions), on one core:

- ours, each game at its default player count:
  - the PettingZoo AEC env (`tavernkeep.rl.aec_env`): `env.last()`, a random action the
    mask allows (None for a finished agent), `env.step`; a step is one decision;
  - the Gymnasium env (`tavernkeep.rl.gym_env`, "bot:random" in the other seats): a
    random action among `info["action_mask"]` until the episode ends; a step is one
    learner decision, the bots' moves up to the next one included;
  - for context, the raw engine's actions/s: random-bot games through
    `Match(..., record_events=False, keep_record=False)`, the path `tavernkeep simulate`
    takes, and the raw / AEC ratio (the adapter's cost);
- PettingZoo's classic envs (`connect_four_v3`, `tictactoe_v3`, `leduc_holdem_v4`,
  `texas_holdem_v4`, as `env()` builds them, wrappers included) with the same AEC loop;
- OpenSpiel's `rl_environment.Environment` ("connect_four", "tic_tac_toe", "leduc_poker",
  "kuhn_poker"): `reset`, then `step([a random legal action])` of the current player
  until `last()`; a step is one decision (the env samples chance nodes itself).

A comparison env that does not import is a row saying "not installed", not a crash
(`pip install 'pettingzoo[classic]' open-spiel`; the poker envs need rlcard, which
pettingzoo[classic] brings).

Every side runs whole episodes, resets included, in turns of a tenth of a CPU second
(`time.process_time`) until each has had `--seconds`, so a shared host whose speed
drifts slows them all alike and the ratios hold. Then, per game, the AEC and gym
steps/s as a ratio to OpenSpiel's Connect Four in the same run (the goal: every game's
gym env at or above it), and where an AEC step goes: one engine action, the
observation, the mask, each timed alone on positions from random games, and the rest.

Last, the vector env (`tavernkeep.rl.vector.TavernVectorEnv`, seat 0 against random bots)
in wall-clock time, since its workers are other processes: one gym env alone, a batch of
`--envs` games in this process, and the same batch across two worker processes, each
stepped with random legal actions for `--vector-seconds`; the goal is the two workers'
steps/s at least 2x the single env's.

    python benchmarks/rl_steps.py [--seconds S] [--game NAME] [--no-theirs]
                                  [--envs N] [--vector-seconds S] [--no-vector]
"""

from __future__ import annotations

import argparse
import importlib
import platform
import random
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from importlib.metadata import PackageNotFoundError, version
from itertools import count
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

import tavernkeep
from bot_games import probe
from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.match import Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games import game_names, get_game
from tavernkeep.rl import aec_env, gym_env
from tavernkeep.rl.table import Table as GameTable
from tavernkeep.rl.vector import TavernVectorEnv

SLICE = 0.1
"""CPU seconds of one side before the next takes its turn."""
PETTINGZOO = ("connect_four_v3", "tictactoe_v3", "leduc_holdem_v4", "texas_holdem_v4")
OPENSPIEL = ("connect_four", "tic_tac_toe", "leduc_poker", "kuhn_poker")
YARDSTICK = "connect_four"
"""The OpenSpiel game every one of ours is held against (the project's goal)."""


class Side:
    """One thing timed: whole episodes, played until it has had its CPU seconds. The
    timing is written once, here; each side says how it plays an episode."""

    def __init__(self, env: Any = None) -> None:
        self.env = env
        self.rng = random.Random(0)
        self.seeds = count(1)

    def run(self, seconds: float) -> tuple[int, float]:
        """(steps, CPU seconds) of whole episodes played for about `seconds`."""
        steps, start = 0, time.process_time()
        while (spent := time.process_time() - start) < seconds:
            steps += self.episode()
        return steps, spent

    def episode(self) -> int:
        """Play one episode, resets included; the steps it took."""
        raise NotImplementedError


class Raw(Side):
    """The raw engine: random-bot games through `Match`, no events, no record."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.game = get_game(name)
        self.config = self.game.make_config({})
        self.pack = self.game.load_pack(None)
        self.players: int = getattr(self.config, "players", 1)

    def episode(self) -> int:
        match = Match(
            self.game,
            [RandomBot()] * self.players,
            next(self.seeds),
            self.config,
            self.pack,
            record_events=False,
            keep_record=False,
        )
        match.run()
        return match.actions


class AecLoop(Side):
    """The AEC loop a learner runs, the same code for our env and PettingZoo's own."""

    def episode(self) -> int:
        env, rng, steps = self.env, self.rng, 0
        env.reset(seed=next(self.seeds))
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps


class GymLoop(Side):
    """Seat 0 of our Gymnasium env: a random action the mask allows until the end."""

    def episode(self) -> int:
        env, rng, steps = self.env, self.rng, 0
        _, info = env.reset(seed=next(self.seeds))
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            if not len(legal):  # the bots ended the game before seat 0 decided
                break
            _, _, term, trunc, info = env.step(int(legal[rng.randrange(len(legal))]))
            done = term or trunc
            steps += 1
        return steps


class SpielLoop(Side):
    """OpenSpiel's `rl_environment`, as its own examples drive it."""

    def episode(self) -> int:
        env, rng, steps = self.env, self.rng, 0
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            legal = time_step.observations["legal_actions"][player]
            time_step = env.step([legal[rng.randrange(len(legal))]])
            steps += 1
        return steps


@dataclass
class Row:
    """One line of the table: a side to time, or why there is none."""

    source: str
    game: str
    api: str
    seats: int | str
    side: Side | None
    note: str = ""
    raw: Raw | None = None
    """Our AEC row's raw engine, timed beside it for the raw / AEC ratio."""
    rate: float = 0.0


def installed(make: Callable[[], Any]) -> tuple[Any, str]:
    """(the env, "") or (None, what is missing): a missing library is a row, not a crash."""
    try:
        return make(), ""
    except ImportError as exc:  # pettingzoo, pygame, rlcard or pyspiel missing
        return None, f"needs {exc.name}" if exc.name else str(exc)


def pettingzoo_env(name: str) -> Any:
    return importlib.import_module(f"pettingzoo.classic.{name}").env()


def spiel_env(game: str) -> Any:
    from open_spiel.python import rl_environment

    # The chance nodes (cards dealt) drawn from a seeded stream, so runs deal alike.
    sampler = rl_environment.ChanceEventSampler(seed=0)
    return rl_environment.Environment(game, chance_event_sampler=sampler)


def rows_of(games: list[str], theirs: bool) -> list[Row]:
    rows: list[Row] = []
    for name in games:
        raw = Raw(name)
        seats = raw.players
        rows.append(Row("ours", name, "PettingZoo AEC", seats, AecLoop(aec_env(name)), raw=raw))
        opponents = ["bot:random"] * (seats - 1)
        api = f"Gymnasium, {seats - 1} x bot:random" if opponents else "Gymnasium"
        rows.append(Row("ours", name, api, seats, GymLoop(gym_env(name, opponents=opponents))))
    if theirs:
        for name in PETTINGZOO:
            env, note = installed(partial(pettingzoo_env, name))
            side: Side | None = AecLoop(env) if env is not None else None
            agents = len(env.possible_agents) if env is not None else ""
            rows.append(Row("PettingZoo", name, "classic AEC", agents, side, note))
    # OpenSpiel's Connect Four is the yardstick of the goal: measured even with
    # --no-theirs, so that the ratios below are always of the same run.
    for name in OPENSPIEL if theirs else (YARDSTICK,):
        env, note = installed(partial(spiel_env, name))
        side = SpielLoop(env) if env is not None else None
        players = env.num_players if env is not None else ""
        rows.append(Row("OpenSpiel", name, "rl_environment", players, side, note))
    return rows


def measure(rows: list[Row], seconds: float) -> dict[int, float]:
    """Each row's steps/s (and each raw engine's actions/s, keyed by its id), measured in
    turns of SLICE CPU seconds until every side has had `seconds`, so that a host whose
    speed drifts (a shared machine) slows all alike."""
    sides: list[Side] = []
    for row in rows:
        if row.raw is not None:
            sides.append(row.raw)
        if row.side is not None:
            sides.append(row.side)
    done = [0] * len(sides)
    spent = [0.0] * len(sides)
    while min(spent) < seconds:
        for i, side in enumerate(sides):
            n, cpu = side.run(SLICE)
            done[i] += n
            spent[i] += cpu
    rates = {id(side): d / s for side, d, s in zip(sides, done, spent, strict=True)}
    for row in rows:
        if row.side is not None:
            row.rate = rates[id(row.side)]
    return rates


def per_call(name: str, positions: int = 2000) -> tuple[str, float, float]:
    """How the env observes ("direct" from the state or "view" then encode) and the
    microseconds of an observation and of a mask, on positions from random games."""
    table = GameTable(name)
    rng = Rng(1)
    states: list[tuple[object, int]] = []
    seed = 0
    while len(states) < positions:
        table.reset(seed := seed + 1)
        while (seat := table.actor()) is not None:
            states.append((table.game.clone(table.state), seat))
            legal = table.legal()
            table.apply(legal[rng.below(len(legal))])
    states = states[:positions]

    def observe(state: object, seat: int) -> None:
        table.state = state
        table.observe(seat)

    def mask(state: object, seat: int) -> None:
        table.state, table._legal, table._indices = state, None, None
        table.mask(seat)

    def timed(work: Callable[[object, int], None]) -> float:
        start = time.process_time()
        for state, seat in states:
            work(state, seat)
        return (time.process_time() - start) / len(states) * 1e6

    return getattr(table, "observe_by", "view"), timed(observe), timed(mask)


def vector_rates(name: str, envs: int, seconds: float) -> tuple[float, float, float]:
    """Wall-clock steps/s of one gym env, of `envs` games in a vector env here, and of the
    same across two worker processes; every side seat 0 against random bots."""
    players: int = getattr(get_game(name).make_config({}), "players", 1)
    opponents = ["bot:random"] * (players - 1)
    single = GymLoop(gym_env(name, opponents=opponents))
    start = time.perf_counter()
    steps = 0
    while time.perf_counter() - start < seconds:
        steps += single.run(0.05)[0]
    alone = steps / (time.perf_counter() - start)
    rates = [alone]
    for workers in (0, 2):
        batch = TavernVectorEnv(name, envs, opponents, workers=workers)
        rng = np.random.default_rng(0)
        batch.reset(seed=1)
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            masks = batch.action_masks()
            # A uniform random legal action a game: the largest random key among the legal.
            actions = np.where(masks, rng.random(masks.shape), -1.0).argmax(axis=1)
            batch.step(actions)
            steps += envs
        rates.append(steps / (time.perf_counter() - start))
        batch.close()
    return rates[0], rates[1], rates[2]


def package(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="CPU seconds of each side (6)")
    parser.add_argument("--game", choices=game_names(), help="only this game of ours")
    parser.add_argument(
        "--theirs",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="PettingZoo's and OpenSpiel's envs beside ours (OpenSpiel's Connect Four, "
        "the yardstick, runs either way)",
    )
    parser.add_argument("--envs", type=int, default=64, help="games in a vector env (64)")
    parser.add_argument(
        "--vector-seconds", type=float, default=5.0, help="wall seconds of each vector side (5)"
    )
    parser.add_argument(
        "--vector", action=argparse.BooleanOptionalAction, default=True, help="the vector env"
    )
    args = parser.parse_args()
    if not args.seconds > 0:
        parser.error(f"--seconds must be above 0, not {args.seconds}")
    if not args.vector_seconds > 0:
        parser.error(f"--vector-seconds must be above 0, not {args.vector_seconds}")
    if args.envs < 2:
        parser.error(f"--envs must be 2 or more (two workers share them), not {args.envs}")
    # PettingZoo warns at every classic env's import (created without its registry).
    warnings.simplefilter("ignore")
    console = Console(width=140)
    console.print(
        f"RL env steps: Python {platform.python_version()}, numpy {np.__version__}, "
        f"pettingzoo {package('pettingzoo')}, open_spiel {package('open_spiel')}, "
        f"tavernkeep {tavernkeep.build()} build; "
        f"host probe {probe():,.0f} hand-written games/s",
        highlight=False,
        soft_wrap=True,  # one line to copy, however narrow the terminal
    )
    games = [args.game] if args.game else game_names()
    rows = rows_of(games, args.theirs)
    rates = measure(rows, args.seconds)

    table = Table(
        title=f"Env steps/s, one core, random masked actions, {args.seconds:g} CPU s each"
    )
    columns = ("source", "game", "API", "seats", "steps/s", "raw actions/s", "raw / AEC", "note")
    for column in columns:
        table.add_column(column, justify="right" if column.endswith(("/s", "AEC")) else "left")
    for row in rows:
        if row.side is None:
            table.add_row(row.source, row.game, row.api, "", "not installed", "", "", row.note)
            continue
        raw = rates[id(row.raw)] if row.raw is not None else None
        table.add_row(
            row.source,
            row.game,
            row.api,
            str(row.seats),
            f"{row.rate:,.0f}",
            f"{raw:,.0f}" if raw else "",
            f"{raw / row.rate:.2f}x" if raw else "",
            row.note,
        )
    console.print(table)

    yardstick = next(
        (r for r in rows if r.source == "OpenSpiel" and r.game == YARDSTICK and r.side), None
    )
    ours = [r for r in rows if r.source == "ours"]
    if yardstick is None:
        console.print("No OpenSpiel Connect Four in this run (not installed): no ratios.")
    else:
        goal = Table(
            title=f"Ours / OpenSpiel's Connect Four, {yardstick.rate:,.0f} steps/s "
            "(goal: gym ≥ 1.00x)",
        )
        for column in ("game", "AEC steps/s", "AEC", "gym steps/s", "gym", "goal"):
            goal.add_column(column, justify="left" if column == "game" else "right")
        for aec, gym in zip(ours[::2], ours[1::2], strict=True):
            share = gym.rate / yardstick.rate
            goal.add_row(
                aec.game,
                f"{aec.rate:,.0f}",
                f"{aec.rate / yardstick.rate:.2f}x",
                f"{gym.rate:,.0f}",
                f"{share:.2f}x",
                "met" if share >= 1 else "not met",
            )
        console.print(goal)

    where = Table(title="Where an AEC step goes, µs (observation and mask timed alone)")
    for column in ("game", "observed by", "action", "observation", "mask", "rest"):
        where.add_column(column, justify="left" if column in ("game", "observed by") else "right")
    for aec in ours[::2]:
        assert aec.raw is not None
        by, observe_us, mask_us = per_call(aec.game)
        action_us, step_us = 1e6 / rates[id(aec.raw)], 1e6 / aec.rate
        where.add_row(
            aec.game,
            "state (direct)" if by == "direct" else "view, then encoder",
            f"{action_us:.1f}",
            f"{observe_us:.1f}",
            f"{mask_us:.1f}",
            f"{step_us - action_us - observe_us - mask_us:.1f}",
        )
    console.print(where)
    if not args.vector:
        return

    vector = Table(
        title=f"Vector env, {args.envs} games, wall-clock steps/s (goal: two workers ≥ 2x one env)"
    )
    for column in ("game", "one gym env", "vector, here", "vector, 2 workers", "2 workers / one"):
        vector.add_column(column, justify="left" if column == "game" else "right")
    for name in games:
        alone, here, two = vector_rates(name, args.envs, args.vector_seconds)
        vector.add_row(name, f"{alone:,.0f}", f"{here:,.0f}", f"{two:,.0f}", f"{two / alone:.2f}x")
    console.print(vector)


if __name__ == "__main__":
    main()
