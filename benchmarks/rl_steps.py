"""What the RL adapter costs: environment steps/s against the raw engine's actions/s.

For each game at its default player count, on one core:

- raw: random-bot games through `Match(..., record_events=False, keep_record=False)`,
  actions per second (the path `tavernkeep simulate` takes);
- env: the PettingZoo AEC loop a learner runs (`env.last()`, a uniformly random action
  among those the mask allows, `env.step`), steps per second, where a step is one
  decision: it pays for the rules, the legal actions, the mask, `view` and the encoder;
- the ratio raw/env (goal: at most 2x);
- the same ratio with an observation that costs nothing (a constant vector; the mask is
  still built): the floor of the AEC loop itself, which no encoder can go below;
- where an env step's time goes, in microseconds a call on positions from random games:
  one engine action (raw), `view`, the game's encoder and the mask (legal actions
  included), so that a ratio over 2x says whose code to look at; and the rest of a
  step (an env step's time less those four): PettingZoo's and the adapter's
  bookkeeping, the learner's pick from the mask and the game's setup, a step's share.

The three loops take turns of a tenth of a CPU second each (`time.process_time`) until
each has had `--seconds`, so a shared host whose speed drifts slows them alike and the
ratios hold (runs of whole seconds each, one after the other, moved the ratio by a
third from one run to the next).

    python benchmarks/rl_steps.py [--seconds S] [--game NAME]
"""

from __future__ import annotations

import argparse
import random
import time
import warnings
from itertools import count

import numpy as np
from rich.console import Console
from rich.table import Table

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.match import Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games import game_names, get_game
from tavernkeep.rl import aec_env
from tavernkeep.rl.table import Table as GameTable

SLICE = 0.1
"""CPU seconds of one side before the next takes its turn."""


class Raw:
    """The raw engine: random-bot games through `Match`, no events, no record."""

    def __init__(self, name: str) -> None:
        self.game = get_game(name)
        self.config = self.game.make_config({})
        self.pack = self.game.load_pack(None)
        self.players = getattr(self.config, "players", 1)
        self.seeds = count(1)

    def run(self, seconds: float) -> tuple[int, float]:
        """(actions, CPU seconds) of whole games played for about `seconds`."""
        actions, start = 0, time.process_time()
        while (spent := time.process_time() - start) < seconds:
            match = Match(self.game, [RandomBot()] * self.players, next(self.seeds),
                          self.config, self.pack, record_events=False, keep_record=False)
            match.run()
            actions += match.actions
        return actions, spent


class Loop:
    """The AEC loop a learner runs: `last()`, a random action the mask allows, `step`.
    With `free`, a constant observation vector (the mask still built): the fastest
    this loop could go with an observation that cost nothing."""

    def __init__(self, name: str, free: bool = False) -> None:
        self.env = env = aec_env(name)
        if free:
            # Only the encoded view is replaced: the env's own `observe` still runs.
            vector = np.zeros(env.table.encoding.size, dtype=np.float32)
            env.table.observe = lambda seat: vector  # type: ignore[method-assign]
        self.rng = random.Random(0)
        self.seeds = count(1)

    def run(self, seconds: float) -> tuple[int, float]:
        """(steps, CPU seconds) of whole games played for about `seconds`."""
        env, rng = self.env, self.rng
        steps, start = 0, time.process_time()
        while (spent := time.process_time() - start) < seconds:
            env.reset(seed=next(self.seeds))
            for _ in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return steps, spent


def rates(name: str, seconds: float) -> tuple[float, float, float]:
    """Raw actions/s, env steps/s and free-observation env steps/s, measured in turns
    of SLICE CPU seconds each until each side has had `seconds`, so that a host whose
    speed drifts (a shared machine) slows all three alike."""
    sides = [Raw(name), Loop(name), Loop(name, free=True)]
    done = [0] * 3
    spent = [0.0] * 3
    while min(spent) < seconds:
        for i, side in enumerate(sides):
            n, cpu = side.run(SLICE)
            done[i] += n
            spent[i] += cpu
    raw, env, free = (d / s for d, s in zip(done, spent, strict=True))
    return raw, env, free


def per_call(name: str, positions: int = 2000) -> tuple[float, float, float]:
    """Microseconds a call of view, encode and mask, on positions from random games."""
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
    game, encode = table.game, table.encoding.encode

    def timed(work: object) -> float:
        start = time.process_time()
        for state, seat in states:
            work(state, seat)  # type: ignore[operator]
        return (time.process_time() - start) / len(states) * 1e6

    views = [game.view(state, seat) for state, seat in states]
    view_us = timed(game.view)
    start = time.process_time()
    for (_, seat), view in zip(states, views, strict=True):
        encode(view, seat)
    encode_us = (time.process_time() - start) / len(states) * 1e6

    def mask(state: object, seat: int) -> None:
        table.state, table._legal, table._indices = state, None, None
        table.mask(seat)

    return view_us, encode_us, timed(mask)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=6.0, help="CPU seconds of each side (6)"
    )
    parser.add_argument("--game", choices=game_names())
    args = parser.parse_args()
    if not args.seconds > 0:
        parser.error(f"--seconds must be above 0, not {args.seconds}")
    warnings.simplefilter("ignore")
    table = Table(title="RL adapter cost (one core, random actions)")
    for column in (
        "game", "raw actions/s", "env steps/s", "raw / env", "raw / env, free obs",
        "action µs", "view µs", "encode µs", "mask µs", "rest µs",
    ):
        table.add_column(column, justify="left" if column == "game" else "right")
    for name in [args.game] if args.game else game_names():
        raw, env, free = rates(name, args.seconds)
        view_us, encode_us, mask_us = per_call(name)
        table.add_row(
            name,
            f"{raw:,.0f}",
            f"{env:,.0f}",
            f"{raw / env:.2f}x",
            f"{raw / free:.2f}x",
            f"{1e6 / raw:.1f}",
            f"{view_us:.1f}",
            f"{encode_us:.1f}",
            f"{mask_us:.1f}",
            f"{1e6 / env - 1e6 / raw - view_us - encode_us - mask_us:.1f}",
        )
    Console(width=165).print(table)


if __name__ == "__main__":
    main()
