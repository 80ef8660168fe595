"""Refit a game's evaluation (the search's estimate at a horizon) on games of its bots.

A game's `evaluation.py` names the facts of a position it counts (`features`) and a
linear model over them (`MODEL`, see `tavernkeep/engine/chances.py`). This plays games
between heuristic bots, keeps the facts at every `--every`-th decision of two or more
choices and how the game ended, and fits the weights again: a conditional logit for a
competitive game (which seat wins), a logistic regression for a team (whether it wins).
It prints the model's weights beside the fitted ones, and the log-loss of the outcome
under each, beside that of knowing nothing (a fair share, or the team's win rate): the
lower the better. A designer who changed the pack reruns it and copies the fitted
weights into the game's `MODEL` if they fit better.

    python benchmarks/fit_evaluation.py --game NAME [--players P] [--games 200]
        [--every 3] [--seed 1000]
"""

from __future__ import annotations

import argparse
import importlib
import math
from typing import Any

import numpy as np
import numpy.typing as npt
from rich import box
from rich.console import Console
from rich.table import Table

from tavernkeep.engine.chances import Model
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng
from tavernkeep.games import REGISTRY, game_names, get_game

Array = npt.NDArray[np.float64]


def evaluation_of(game: Game[Any, Any]) -> Any:
    return importlib.import_module(REGISTRY[game.name].partition(":")[0] + ".evaluation")


def collect(
    game: Game[Any, Any], players: int, games: int, every: int, seed: int
) -> tuple[list[Any], list[Any]]:
    """(facts, outcome) a kept position: the winning seat, or whether the team won."""
    module = evaluation_of(game)
    config = game.make_config({"players": players})
    pack = game.load_pack()
    facts: list[Any] = []
    outcomes: list[Any] = []
    rng = Rng(seed)
    for index in range(games):
        state = game.setup(config, seed + index, pack)
        bots = [game.heuristic_agent() for _ in range(players)]
        kept = []
        decisions = 0
        while (seat := game.actor(state)) is not None:
            actions = game.legal_actions(state)
            if len(actions) == 1:
                game.apply(state, actions[0], False)
                continue
            decisions += 1
            if decisions % every == 0:
                kept.append(module.features(state))
            bot = bots[seat]
            assert bot is not None
            game.apply(state, bot.choose(InfoSet(game, state, seat, rng)), False)
        result = game.result(state)
        assert result is not None
        if game.kind == "competitive":
            if len(result.winners) != 1:
                continue  # a shared win or nobody's: no one seat to predict
            outcome: Any = result.winners[0]
        else:
            outcome = bool(result.won)
        facts += kept
        outcomes += [outcome] * len(kept)
    return facts, outcomes


def fit_competitive(x: Array, winner: npt.NDArray[np.int64]) -> Array:
    """Weights of a conditional logit: x is (positions, seats, features)."""
    flat = x.reshape(-1, x.shape[2])
    scale = flat.std(0)
    scale[scale == 0] = 1.0
    z = x / scale
    w = np.zeros(x.shape[2])
    seats = np.arange(len(x))
    for _ in range(4000):
        s = z @ w
        s -= s.max(1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(1, keepdims=True)
        chosen = np.zeros_like(p)
        chosen[seats, winner] = 1.0
        w += 0.1 * ((chosen - p)[:, :, None] * z).sum((0, 1)) / len(x)
    fitted: Array = w / scale
    return fitted


def fit_team(x: Array, won: Array) -> tuple[Array, float]:
    """Weights and base of a logistic regression: x is (positions, features)."""
    mean, scale = x.mean(0), x.std(0)
    scale[scale == 0] = 1.0
    z = np.c_[np.ones(len(x)), (x - mean) / scale]
    w = np.zeros(z.shape[1])
    for _ in range(20000):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        w += 0.1 * z.T @ (won - p) / len(x)
    weights: Array = w[1:] / scale
    return weights, float(w[0] - (w[1:] * mean / scale).sum())


def log_loss_competitive(x: Array, winner: npt.NDArray[np.int64], model: Model) -> float:
    total = 0.0
    for rows, seat in zip(x, winner, strict=True):
        total -= math.log(max(model.shares(rows.tolist())[seat], 1e-12))
    return total / len(x)


def log_loss_team(x: Array, won: Array, model: Model) -> float:
    total = 0.0
    for row, outcome in zip(x, won, strict=True):
        p = min(max(model.team(row.tolist(), 1)[0], 1e-12), 1 - 1e-12)
        total -= math.log(p if outcome else 1 - p)
    return total / len(x)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=game_names())
    parser.add_argument("--players", type=int, help="seats (default: the game's own)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--every", type=int, default=3, help="keep every N-th decision")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    game = get_game(args.game)
    if game.evaluator() is None or game.heuristic_agent() is None:
        parser.error(f"{game.title} has no evaluation to fit (or no heuristic bot to play)")
    players = args.players or game.make_config({}).players  # type: ignore[attr-defined]
    model: Model = evaluation_of(game).MODEL
    facts, outcomes = collect(game, players, args.games, args.every, args.seed)
    if not facts:
        parser.error("no positions kept: play more games")
    x = np.array(facts, dtype=float)
    if game.kind == "competitive":
        winner = np.array(outcomes, dtype=np.int64)
        weights = fit_competitive(x, winner)
        fitted = Model(model.features, tuple(float(w) for w in weights))
        before = log_loss_competitive(x, winner, model)
        after = log_loss_competitive(x, winner, fitted)
        nothing = math.log(players)
        known = f"a fair share (1 in {players})"
    else:
        won = np.array(outcomes, dtype=float)
        weights, base = fit_team(x, won)
        fitted = Model(model.features, tuple(float(w) for w in weights), base)
        before = log_loss_team(x, won, model)
        after = log_loss_team(x, won, fitted)
        rate = float(won.mean())
        nothing = -(rate * math.log(rate) + (1 - rate) * math.log(1 - rate)) if 0 < rate < 1 else 0
        known = f"the win rate alone ({rate:.1%})"
    console = Console(width=120)
    console.print(
        f"{game.title}, {players} player(s): {len(x):,} positions from {args.games} games "
        f"of heuristic bots (seed {args.seed}, every {args.every} decisions)"
    )
    table = Table("fact", "model's weight", "fitted weight", box=box.MARKDOWN)
    for name, now, new in zip(model.features, model.weights, fitted.weights, strict=True):
        table.add_row(name, f"{now:.3f}", f"{new:.3f}")
    if game.kind != "competitive":
        table.add_row("base (log-odds)", f"{model.base:.3f}", f"{fitted.base:.3f}")
    console.print(table)
    losses = Table("log-loss of the outcome", "value", box=box.MARKDOWN)
    losses.add_row(f"knowing nothing: {known}", f"{nothing:.4f}")
    losses.add_row("the model's weights", f"{before:.4f}")
    losses.add_row("the fitted weights", f"{after:.4f}")
    console.print(losses)


if __name__ == "__main__":
    main()
