"""Training an agent with sb3-contrib's MaskablePPO, and saving it to play at any table.

Optional: `pip install '.[train]'` (sb3-contrib, Stable-Baselines3 and torch, pinned to
the CPU build: the README says how to get that build elsewhere).
MaskablePPO is PPO that never samples an action the mask forbids: our games offer a few
legal actions among dozens, and a learner that must first learn which are legal wastes
most of its samples. Stable-Baselines3 is the well-kept, documented, tested choice for
single-learner PPO on CPU; nothing here reimplements it.

- `learner_env` wraps our `TavernVectorEnv` in Stable-Baselines3's VecEnv API (with
  `action_masks`, which MaskablePPO asks for), so that training steps a batch of games,
  across worker processes if asked.
- `export` turns a trained MaskablePPO model into a policy file (agents/policy.py), which
  `bot:policy:PATH` seats in `play`, `simulate`, `serve` and the lab, with no torch.
- `Curve` is a training callback: at checkpoints it saves the policy so far and plays it
  in the lab against each set of opponents, for a win rate with its 95% interval; it
  stops training after the minutes given, and `plot` draws the learning curve.
- A reinforcement run also saves the whole MaskablePPO model at every checkpoint
  (model.zip, its optimiser's state included, with model.json naming its game and
  options): `train(..., resume=True)` (`--resume`) loads it and goes on training, its
  step count and learning curve continued.
- `imitate` trains the same policy network from a teacher bot's choices instead of from
  rewards (`tavernkeep.rl.imitate`), with a checkpoint every round.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvStepReturn

from tavernkeep.agents import make_bot
from tavernkeep.agents.policy import Policy, save_policy
from tavernkeep.cli import parse_options as table_options
from tavernkeep.engine.errors import ConfigError, SeatError
from tavernkeep.games import get_game
from tavernkeep.lab.simulate import Batch, check_batches, simulate
from tavernkeep.lab.stats import wilson_interval
from tavernkeep.rl.table import Table
from tavernkeep.rl.vector import TavernVectorEnv

MODEL = "model.zip"
"""A reinforcement run's MaskablePPO model in its folder (sb3's `save`: the networks and
the optimiser's state), saved at every checkpoint: what `--resume` goes on from."""
MODEL_ABOUT = "model.json"
"""Beside the model: its game, its table's options and its steps, which `--resume` checks
before any work (a model of another table would train on, unnoticed, wherever the
observation size happens to match)."""


class LearnerEnv(VecEnv):
    """`TavernVectorEnv` as Stable-Baselines3 steps it (its own VecEnv API)."""

    def __init__(self, games: TavernVectorEnv) -> None:
        self.games = games
        super().__init__(games.num_envs, games.single_observation_space, games.single_action_space)
        self._actions: np.ndarray | None = None
        self._seed: int | None = None

    def reset(self) -> np.ndarray:
        observations, _ = self.games.reset(seed=self._seed)
        self._seed = None
        return observations

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        self._seed = seed
        return [None if seed is None else seed + i for i in range(self.num_envs)]

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        assert self._actions is not None
        observations, rewards, terminated, truncated, infos = self.games.step(self._actions)
        done = terminated | truncated
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if "final_obs" in infos:
            for i in np.flatnonzero(infos["_final_obs"]):
                out[i] = dict(infos["final_info"][i])
                out[i]["terminal_observation"] = infos["final_obs"][i]
                out[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return observations, rewards.astype(np.float32), done, out

    def action_masks(self) -> np.ndarray:
        return self.games.action_masks().astype(bool)

    def close(self) -> None:
        self.games.close()

    # The VecEnv API's reach into single envs: only the mask is asked for by MaskablePPO.
    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "render_mode":
            return [None] * len(self._indices(indices))
        raise AttributeError(f"the learner env has no per-game attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"the learner env cannot set {attr_name!r} on its games")

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"the learner env's games have no method {method_name!r}")
        masks = self.action_masks()
        return [masks[i] for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks"

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)


def learner_env(
    game: str,
    num_envs: int = 8,
    opponents: list[str] | None = None,
    workers: int = 0,
    **options: Any,
) -> LearnerEnv:
    """`num_envs` games of `game` for MaskablePPO to learn seat 0 of, against `opponents`.

    With `workers` > 0 the games are stepped in spawned processes, which import the
    script that started them: its training must sit under `if __name__ == "__main__":`,
    or each worker runs it again and the run dies (a connection reset)."""
    return LearnerEnv(TavernVectorEnv(game, num_envs, opponents, workers, **options))


def export(
    model: Any, env: LearnerEnv, path: str | Path, about: dict[str, Any] | None = None
) -> Path:
    """Save a trained MaskablePPO model's policy as a policy file for `bot:policy:PATH`."""
    out = Path(path)
    save_policy(out, policy_of(model, env, about))
    return out


def policy_of(model: Any, env: LearnerEnv, about: dict[str, Any] | None = None) -> Policy:
    """A trained MaskablePPO model's policy as `bot:policy` plays it: the policy network's
    linear layers and the action head, run in numpy at the table (the value head is for
    training only)."""
    import torch.nn as nn

    policy = model.policy
    extractor = type(policy.features_extractor).__name__
    if extractor != "FlattenExtractor":
        raise ConfigError(f"export: a {extractor} cannot be exported, only a flat observation")
    activation = {nn.Tanh: "tanh", nn.ReLU: "relu"}.get(policy.activation_fn)
    if activation is None:
        raise ConfigError(f"export: activation {policy.activation_fn.__name__} is not tanh or relu")
    modules = [*policy.mlp_extractor.policy_net, policy.action_net]
    linears = [m for m in modules if isinstance(m, nn.Linear)]
    layers = tuple(
        (
            linear.weight.detach().cpu().numpy().astype(np.float32),
            linear.bias.detach().cpu().numpy().astype(np.float32),
        )
        for linear in linears
    )
    table = env.games.table
    return Policy(
        game=table.game.name,
        options=table.config.model_dump(mode="json"),
        pack=env.games.pack,
        size=table.encoding.size,
        actions=tuple(action.text for action in table.actions),
        layers=layers,
        activation=activation,
        about=dict(about or {}),
        # The scale of the observations it learnt from, for the bot that plays it.
        observation=table.observation,
    )


@dataclass(frozen=True)
class Point:
    """One checkpoint's win rate against one set of opponents, with its 95% interval."""

    steps: int
    minutes: float
    against: str
    rate: float
    low: float
    high: float


def win_rate(
    spec: str,
    game: str,
    opponents: list[str],
    games: int,
    seed: int,
    workers: int = 1,
    options: dict[str, Any] | None = None,
) -> tuple[float, float, float]:
    """The win rate of seat 0 played by `spec` against `opponents`, with its Wilson 95%
    interval, over `games` lab games from `seed` (a shared win counts its share), at
    tables of the game's `options` (the player count is the seats')."""
    table = {k: v for k, v in (options or {}).items() if k != "players"}
    batch = Batch(game, (spec, *opponents), table, None, seed)
    check_batches([batch])
    totals = simulate(batch, games, workers)
    wins = float(totals.wins[0])
    low, high = wilson_interval(wins, totals.games)
    return wins / totals.games, low, high


class Curve(BaseCallback):
    """Checkpoints every `every` minutes of training: the policy saved in `folder`, and
    its win rates against each of `against` ({label: opponents}); with `save`, the whole
    model too (`save_model`). Training stops after `minutes` more. The points are in
    `points`, printed as they come; a resumed run starts from the points it had (`before`),
    its minutes counted on from theirs."""

    def __init__(
        self,
        env: LearnerEnv,
        folder: Path,
        against: dict[str, list[str]],
        minutes: float,
        every: float,
        games: int,
        seed: int = 1,
        workers: int = 1,
        options: dict[str, Any] | None = None,
        before: list[Point] | None = None,
        save: bool = False,
    ) -> None:
        super().__init__()
        self.env, self.folder, self.against = env, folder, against
        self.every, self.games, self.seed = every, games, seed
        self.workers, self.options, self.save = workers, dict(options or {}), save
        self.points: list[Point] = list(before or [])
        self._training = self.points[-1].minutes if self.points else 0.0
        """Minutes spent training, checkpoints' games left out."""
        self.minutes = self._training + minutes
        # A new run's first checkpoint is at the start (the untrained policy); a resumed
        # run's start is the last checkpoint already, so its next is `every` on.
        self._next = self._training + every if self.points else 0.0
        self._since = time.monotonic()

    def _on_training_start(self) -> None:
        self._since = time.monotonic()
        self.checkpoint()

    def _on_step(self) -> bool:
        now = time.monotonic()
        self._training += (now - self._since) / 60
        self._since = now
        if self._training >= self._next:
            self.checkpoint()
            self._since = time.monotonic()
        return self._training < self.minutes

    def _on_training_end(self) -> None:
        self.checkpoint()

    def checkpoint(self) -> None:
        steps = self.num_timesteps
        if self.points and self.points[-1].steps == steps:
            return
        self.points += checkpoint(
            self.model,
            self.env,
            self.folder,
            self.against,
            self.games,
            self.seed,
            self.workers,
            steps,
            self._training,
            self.options,
        )
        # The model before the curve: a run stopped between the two resumes from this
        # checkpoint and draws it again, rather than holding a point its model lacks.
        if self.save:
            save_model(self.model, self.env, self.folder)
        write_points(self.points, self.folder / "curve.csv")
        self._next = self._training + self.every


def checkpoint(
    model: Any,
    env: LearnerEnv,
    folder: Path,
    against: dict[str, list[str]],
    games: int,
    seed: int,
    workers: int,
    steps: int,
    minutes: float,
    options: dict[str, Any] | None = None,
    unit: str = "steps",
) -> list[Point]:
    """Save the policy so far as folder/policy-STEPS.npz and play it in the lab against
    each set of opponents, at tables of `options`: its win rates with their intervals,
    each printed. `unit` names what `steps` counts: env steps when it learns by playing,
    "labels" (the teacher's labelled decisions it has learnt from) when it imitates."""
    path = export(model, env, folder / f"policy-{steps}.npz", {unit: steps})
    points = []
    for label, opponents in against.items():
        rate, low, high = win_rate(
            f"bot:policy:{path}",
            env.games.table.game.name,
            opponents,
            games,
            seed,
            workers,
            options,
        )
        point = Point(steps, minutes, label, rate, low, high)
        points.append(point)
        print(
            f"{point.minutes:6.1f} min {steps:>9,} {unit}  against {label}: "
            f"{rate:.1%} ({low:.1%}-{high:.1%})",
            flush=True,
        )
    return points


def plot(points: list[Point], references: dict[str, float], title: str, path: Path) -> None:
    """The learning curve: each opponent set's win rate by training minutes, with its
    interval, and the reference rates (another bot's) as dashed lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 4.5))
    for label in dict.fromkeys(p.against for p in points):
        mine = [p for p in points if p.against == label]
        x = [p.minutes for p in mine]
        axes.plot(x, [p.rate for p in mine], marker="o", label=f"policy against {label}")
        axes.fill_between(x, [p.low for p in mine], [p.high for p in mine], alpha=0.2)
    for label, rate in references.items():
        # In the legend: a note written at minute 0 fell outside a curve that starts later.
        axes.axhline(rate, linestyle="--", color="grey", label=f"{label}: {rate:.1%}")
    axes.set(xlabel="minutes of training", ylabel="win rate (95% interval)", title=title)
    axes.set_ylim(0, 1)
    axes.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def write_points(points: list[Point], path: Path) -> None:
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["steps", "minutes", "against", "rate", "low", "high"])
        for p in points:
            writer.writerow([p.steps, f"{p.minutes:.2f}", p.against, p.rate, p.low, p.high])


def read_points(path: Path) -> list[Point]:
    """The points `write_points` wrote (none where there is no file)."""
    if not path.exists():
        return []
    with open(path, newline="") as source:
        return [
            Point(
                int(row["steps"]),
                float(row["minutes"]),
                row["against"],
                float(row["rate"]),
                float(row["low"]),
                float(row["high"]),
            )
            for row in csv.DictReader(source)
        ]


def table_about(table: Table) -> dict[str, Any]:
    """What a model is bound to: its game and its table's options, as model.json says."""
    return {"game": table.game.name, "options": table.config.model_dump(mode="json")}


def save_model(model: Any, env: LearnerEnv, folder: Path) -> None:
    """The whole MaskablePPO model (sb3's `save`, its optimiser's state included) as
    folder/model.zip, and beside it model.json: its game, options and steps. Each is
    written whole to a temporary file first, so that a run stopped while saving leaves
    the last checkpoint's model, not half of one."""
    about = {**table_about(env.games.table), "steps": int(model.num_timesteps)}
    with open(folder / f"{MODEL}.part", "wb") as out:
        model.save(out)
    os.replace(folder / f"{MODEL}.part", folder / MODEL)
    (folder / f"{MODEL_ABOUT}.part").write_text(json.dumps(about, indent=1) + "\n")
    os.replace(folder / f"{MODEL_ABOUT}.part", folder / MODEL_ABOUT)


def resume_error(folder: Path, table: Table) -> str | None:
    """Why the model saved in `folder` cannot go on training at `table`, or None."""
    model, about_path = folder / MODEL, folder / MODEL_ABOUT
    if not model.exists():
        return f"{folder} holds no {MODEL} to go on from (a run by reinforcement saves one)"
    try:
        about = json.loads(about_path.read_text())
        game, saved = about["game"], dict(about["options"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"{about_path}, which says what {model} learned, is unreadable ({exc})"
    now = table_about(table)
    if game != now["game"]:
        return f"{model} learned {game}, not {now['game']}"
    differs = [
        f"{key}={saved.get(key)!r} where this run has {now['options'].get(key)!r}"
        for key in sorted(set(saved) | set(now["options"]))
        if saved.get(key) != now["options"].get(key)
    ]
    if differs:
        return (
            f"{model} learned at a table with {', '.join(differs)}: give the "
            "--players, --option and --variant it was trained with"
        )
    return None


def train(
    game: str,
    opponents: list[str],
    against: dict[str, list[str]],
    references: dict[str, float],
    folder: Path,
    minutes: float,
    every: float,
    games: int,
    envs: int = 32,
    workers: int = 0,
    seed: int = 1,
    reward: str = "win",
    teacher: str | None = None,
    round_games: int = 600,
    options: dict[str, Any] | None = None,
    resume: bool = False,
) -> Path:
    """Train a MaskablePPO policy for seat 0 of `game` against `opponents` for `minutes`,
    at tables of `options` (the player count among them; the lab's checkpoint games too);
    write the final policy, the curve's points (curve.csv) and its plot (curve.png) to
    `folder`. Returns the final policy's path.

    Without a `teacher`, by reinforcement (PPO), with a checkpoint every `every` minutes
    (`Curve`) that also saves the whole model (model.zip). With `resume`, training goes
    on from that model: its step count, optimiser and learning curve continued, and
    `minutes` more of it. With a teacher (a seat spec), by imitation of that bot
    (`imitate`), with a checkpoint every round; that cannot be resumed."""
    options = dict(options or {})
    if resume and teacher is not None:
        raise ConfigError("resume goes on with reinforcement: an imitation run keeps no model")
    import torch
    from sb3_contrib import MaskablePPO

    # One thread: the network is small. Measured on this project's 2-core machine (Rage,
    # 32 games): alone, a second thread changed nothing (9,076 against 9,225 steps/s);
    # beside two env workers it cost 12% (7,507 against 8,546).
    torch.set_num_threads(1)
    folder.mkdir(parents=True, exist_ok=True)
    # Imitation steps no env: one game gives the model its spaces and the export its table.
    env = learner_env(
        game,
        envs if teacher is None else 1,
        opponents,
        0 if teacher else workers,
        reward=reward,
        **options,
    )
    if resume:
        # Checked again here for a caller other than the examples (which check it first,
        # before any work): a model of another table would train on it unnoticed.
        why = resume_error(folder, env.games.table)
        if why is not None:
            env.close()
            raise ConfigError(f"resume: {why}")
    env.seed(seed)
    if teacher is not None:
        # Wider than PPO's default (64, 64), with ReLU: the planner's choices turn on the
        # whole map. Trained on 2,400 of the planner's nights (8 passes), this net chose
        # as the planner did on 95.7% of the decisions of nights it had not seen.
        net = {"net_arch": [256, 256], "activation_fn": torch.nn.ReLU}
        model = MaskablePPO("MlpPolicy", env, seed=seed, device="cpu", policy_kwargs=net)
        points, final = imitate(
            model,
            env,
            teacher,
            opponents,
            folder,
            against,
            minutes,
            games,
            seed,
            workers,
            round_games,
            options,
        )
        how = f"imitating {teacher}"
    else:
        before = read_points(folder / "curve.csv") if resume else []
        curve = Curve(env, folder, against, minutes, every, games, seed, 1, options, before, True)
        if resume:
            steps = json.loads((folder / MODEL_ABOUT).read_text())["steps"]
            # The saved hyperparameters come back with the model; the seed moves on by
            # the steps taken, so that the resumed run does not replay the first games.
            again = (seed + steps) % 2**32  # numpy's seeds are 32-bit
            model = MaskablePPO.load(folder / MODEL, env=env, device="cpu", seed=again)
            print(
                f"resuming {folder / MODEL} at {model.num_timesteps:,} steps "
                f"(its optimiser's state and curve.csv with it)",
                flush=True,
            )
        else:
            model = MaskablePPO(
                "MlpPolicy",
                env,
                # Many games a step and short rollouts: a policy update every 256 x envs
                # steps, in minibatches large enough that one torch call does real work.
                n_steps=256,
                batch_size=1024,
                n_epochs=4,
                gamma=0.995,  # rewards come at the end of games of a hundred decisions or more
                ent_coef=0.01,
                seed=seed,
                device="cpu",
                verbose=0,
            )
        # Not reset on resume: the step count goes on (and checkpoints' names with it).
        model.learn(total_timesteps=10**12, callback=curve, reset_num_timesteps=not resume)
        save_model(model, env, folder)
        final = export(model, env, folder / "policy.npz", {"steps": model.num_timesteps})
        points, how = curve.points, "MaskablePPO"
    env.close()
    write_points(points, folder / "curve.csv")
    title = f"{how} on {env.games.table.game.title}, seat 0"
    plot(points, references, title, folder / "curve.png")
    return final


def imitate(
    model: Any,
    env: LearnerEnv,
    teacher: str,
    opponents: list[str],
    folder: Path,
    against: dict[str, list[str]],
    minutes: float,
    games: int,
    seed: int,
    workers: int,
    round_games: int = 600,
    options: dict[str, Any] | None = None,
) -> tuple[list[Point], Path]:
    """Train `model`'s policy to play as `teacher` plays, by rounds (`rl/imitate.py`):
    first on the teacher's own games, then each round on games the policy so far plays
    and the teacher labels, every label kept. Each round ends in a checkpoint; the rounds
    stop at the first checkpoint after `minutes` of training (checkpoints' games left
    out). A round plays `round_games` games (the first, the teacher's own, four times as
    many): on two cores Rage's planner labels 600 in about 30 seconds. The final policy
    (policy.npz) is the checkpoint that won most against the first of `against`: a
    round's training moves the policy by more than its progress, so the last round is
    not always the best. Labelled games are played in `workers` processes (0: one a
    core). Returns the checkpoints and the final policy's path."""
    import os
    import shutil

    import torch

    from tavernkeep.rl.imitate import fit, label_games

    game = env.games.table.game.name
    processes = workers or os.cpu_count() or 1
    optimizer = torch.optim.Adam(model.policy.parameters(), lr=1e-3)
    spent, since = 0.0, time.monotonic()
    # The labelled games' seeds are apart from the checkpoints' (which start at `seed`).
    first = (seed + 1) * 1_000_003
    options = dict(options or {})
    labels = label_games(
        game, teacher, range(first, first + 4 * round_games), opponents, None, processes, **options
    )
    first += 4 * round_games
    fit(model.policy, labels, epochs=8, seed=seed, optimizer=optimizer)
    points: list[Point] = []
    best: tuple[float, Path] | None = None
    rounds = 0
    while True:
        spent += (time.monotonic() - since) / 60
        # What imitation has learnt from is labelled decisions, not env steps: named so.
        steps = len(labels)
        reached = checkpoint(
            model, env, folder, against, games, seed, 1, steps, spent, options, "labels"
        )
        points += reached
        if best is None or reached[0].rate >= best[0]:
            best = (reached[0].rate, folder / f"policy-{steps}.npz")
        since = time.monotonic()
        if spent >= minutes:
            break
        rounds += 1
        student = policy_of(model, env)
        seeds = range(first, first + round_games)
        labels = labels + label_games(
            game, teacher, seeds, opponents, student, processes, **options
        )
        first += round_games
        for group in optimizer.param_groups:
            group["lr"] = 5e-4  # the policy is near; smaller steps keep it there
        fit(model.policy, labels, epochs=3, seed=seed + rounds, optimizer=optimizer)
    final = folder / "policy.npz"
    shutil.copyfile(best[1], final)
    print(f"the final policy is {best[1].name}, the checkpoint that won most", flush=True)
    return points, final


class OneLineParser(argparse.ArgumentParser):
    """argparse whose mistakes are one line on stderr and exit code 2, as the
    `tavernkeep` command's are (argparse's own also prints its usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def parse_options(
    doc: str,
    game: str,
    out: str,
    reward: str,
    teacher: str | None = None,
    more: Callable[[argparse.ArgumentParser], None] | None = None,
    players: int = 1,
) -> tuple[argparse.Namespace, dict[str, Any]]:
    """The command line of a training script (examples/train_*.py): its own options (added
    by `more`) and those every one takes, checked before any work; and those as `train`'s
    keywords (the table's options, the player count among them, as `options`)."""
    parser = OneLineParser(description=doc.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="of training (30)")
    parser.add_argument(
        "--every",
        type=float,
        default=3.0,
        help="minutes between checkpoints (3; a teacher's checkpoint ends each round)",
    )
    parser.add_argument("--games", type=int, default=400, help="lab games a checkpoint (400)")
    parser.add_argument(
        "--reward",
        choices=["win", "shaped"],
        default=reward,
        help="win: +1/-1 at the end; shaped: and the change in the game's own estimate of "
        f"the chances at every step ({reward})",
    )
    parser.add_argument(
        "--teacher",
        default=teacher or "none",
        help="a bot to learn from by imitation (bot:heuristic), or none: by reinforcement "
        f"({teacher or 'none'})",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=players,
        help=f"at the table: the learner's seat and the bots' ({players})",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, as `tavernkeep simulate` takes it (repeat for more)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        help="a variant flag, as `tavernkeep simulate` takes it, e.g. two_player",
    )
    parser.add_argument("--envs", type=int, default=32, help="games stepped together (32)")
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="processes stepping them (0: this one; more gain nothing past the cores); "
        "with a teacher, playing its games (0: one a core)",
    )
    parser.add_argument(
        "--round",
        type=int,
        default=600,
        help="with a teacher, games a round of imitation plays (600; the first, 4 times as many)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path(out))
    parser.add_argument(
        "--resume",
        action="store_true",
        help=f"go on training the model a reinforcement run saved in --out ({MODEL}): its "
        "steps, optimiser and curve continued, for --minutes more",
    )
    if more is not None:
        more(parser)
    args = parser.parse_args()
    if not (args.minutes > 0 and args.every > 0 and min(args.games, args.envs, args.round) >= 1):
        parser.error("--minutes and --every must be above 0, --games, --envs and --round 1 or more")
    if not 0 <= args.workers <= args.envs:
        parser.error(f"--workers must be 0 to --envs ({args.envs}), not {args.workers}")
    if args.teacher != "none":
        try:
            if not args.teacher.startswith("bot:"):
                raise SeatError(f"a bot such as bot:heuristic, or none, not {args.teacher}")
            make_bot(args.teacher, get_game(game))
        except SeatError as exc:
            parser.error(f"--teacher: {exc}")
    try:
        if any(item.partition("=")[0].strip() == "players" for item in args.option):
            raise ConfigError("--option players: the player count is --players")
        options = {**table_options(args.option, args.variant), "players": args.players}
        # The table the run would train at, made once here: a bad player count, option or
        # variant is this one line, not a traceback minutes into training.
        table = Table(game, reward=args.reward, **options)
    except ConfigError as exc:
        parser.error(str(exc))
    model = args.out / MODEL
    if args.resume:
        if args.teacher != "none":
            parser.error(
                "--resume goes on with reinforcement (--teacher none): an imitation run "
                "keeps no model to go on from"
            )
        why = resume_error(args.out, table)
        if why is not None:
            parser.error(f"--resume: {why}")
    elif model.exists():
        parser.error(
            f"{args.out} holds a trained model ({MODEL}): --resume goes on training it, "
            "another --out starts afresh"
        )
    keywords = {
        "folder": args.out,
        "minutes": args.minutes,
        "every": args.every,
        "games": args.games,
        "envs": args.envs,
        "workers": args.workers,
        "seed": args.seed,
        "reward": args.reward,
        "teacher": None if args.teacher == "none" else args.teacher,
        "round_games": args.round,
        "options": options,
        "resume": args.resume,
    }
    return args, keywords
