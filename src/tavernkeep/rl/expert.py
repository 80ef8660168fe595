"""Expert iteration: the search labels positions, a guide learns them, the guided search
labels the next round (Anthony, Tian and Barber 2017; AlphaZero's loop).

Round 0's expert is `bot:mcts:N:pure` (the ISMCTS search at N iterations, without the
heuristic's incumbent: its visit counts are then its own choice); each later round's is
`bot:guided:GUIDE:N`, the search guided by the guide the round before learnt. In every
labelled game one seat searches (the seat moves round the table from game to game, so the
guide sees every seat's position) and the others are `opponents` (the game's heuristic bot
by default). At each of the searching seat's decisions the row holds its observation, its
legal mask and the search's visit distribution over the actions (the policy target); at
the other seats' decisions, their observation alone (a value target, no policy target);
at the game's end each row gets the outcome for its seat, in the search's own currency
(`agents.ismcts.rewards_for`). The value target is that outcome, averaged (`VALUE_MIX`)
with the search's own estimate at the root where the seat searched: the mean reward of all
its visits. One game's outcome is a coin toss of noise beside a few hundred iterations'
estimate, and the first rounds have a few thousand rows to learn from (the mixed target is
KataGo's and others' remedy). The expert plays its most visited action.

`fit` trains a small network (a trunk of two ReLU layers and two heads) with torch: the
cross-entropy of the policy head's softmax over the legal actions against the visit
distribution, plus the squared error of the value head's logistic against the outcome.
The network goes on learning from round to round, on every label so far; each round
ends in a guide file (agents/guide.py), which numpy plays with no torch.

Every game is dealt from the seed, the expert searches on iteration budgets from the
seats' own streams and torch runs one thread from the seed: the same seed and arguments
give the same guides. Games are played in `workers` spawned processes, as imitation's are.

    python -m tavernkeep.rl.expert GAME [--players P] [--rounds 2] [--games 40]
        [--budget 400] [--cut H] [--opponent bot:heuristic] [--epochs 20]
        [--hidden 128] [--workers 2] [--seed 1] [--out runs/guide-GAME]
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tavernkeep.agents import seat_bot
from tavernkeep.agents.guide import Guide, save_guide
from tavernkeep.agents.guided import GuidedBot, robust
from tavernkeep.agents.ismcts import ISMCTSBot, rewards_for, win_share
from tavernkeep.engine.errors import ConfigError, SeatError
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng, seat_streams
from tavernkeep.rl.table import Table

VALUE_MIX = 0.5
"""The search's root estimate's share of a searched row's value target (the outcome's is
the rest)."""
HIDDEN = 128
"""The trunk's width: a forward pass of two such layers costs a few tens of microseconds
in numpy, small beside a search iteration's rules."""


@dataclass
class Examples:
    """Labelled positions: rows of equal-length arrays."""

    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]
    visits: npt.NDArray[np.float32]
    """The search's visit distribution over the action space (rows sum to 1), or all 0
    where the row is another seat's decision (no policy target)."""
    searched: npt.NDArray[np.bool_]
    values: npt.NDArray[np.float32]
    """The outcome of the row's seat, in [0, 1]."""
    games: int
    wins: float
    """The searching seat's wins (a shared win counts its share)."""

    def __len__(self) -> int:
        return len(self.values)

    def __add__(self, other: Examples) -> Examples:
        return Examples(
            np.concatenate([self.observations, other.observations]),
            np.concatenate([self.masks, other.masks]),
            np.concatenate([self.visits, other.visits]),
            np.concatenate([self.searched, other.searched]),
            np.concatenate([self.values, other.values]),
            self.games + other.games,
            self.wins + other.wins,
        )


@dataclass(frozen=True)
class Job:
    """What one process plays: these games, this expert, these opponents."""

    game: str
    expert: str
    opponents: tuple[str, ...]
    seeds: tuple[int, ...]
    options: tuple[tuple[str, Any], ...] = ()


def _seats(table: Table, expert: str, opponents: Sequence[str]) -> tuple[Any, list[Any]]:
    """The expert (a search: `bot:mcts...` or `bot:guided...`) and the opponents, each
    checked against the table as any table checks a bot."""
    game, config, pack = table.game, table.config, table.pack
    bot = seat_bot(expert, game, config, pack)
    if not isinstance(bot, ISMCTSBot | GuidedBot):
        raise SeatError(f"{expert}: an expert is a search, bot:mcts or bot:guided")
    return bot, [seat_bot(spec, game, config, pack) for spec in opponents]


def _label(job: Job) -> Examples:
    table = Table(job.game, **dict(job.options))
    expert, bots = _seats(table, job.expert, job.opponents)
    players, space = table.players, len(table.actions)
    pay = rewards_for(table.game, players)
    observations: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.int8]] = []
    visits: list[npt.NDArray[np.float32]] = []
    searched: list[bool] = []
    values: list[float] = []
    wins = 0.0
    mix = VALUE_MIX
    for seed in job.seeds:
        table.reset(seed)
        rngs = seat_streams(seed, players)
        searcher = seed % players
        # The other seats by the opponents in order, beginning after the searcher.
        others = {(searcher + 1 + k) % players: bot for k, bot in enumerate(bots)}
        seats: list[int] = []
        estimates: list[float | None] = []
        while (seat := table.actor()) is not None:
            legal = table.legal()
            if len(legal) == 1:
                table.apply(legal[0])
                continue
            info = InfoSet(table.game, table.state, seat, rngs[seat])
            observations.append(table.observe(seat))
            masks.append(table.mask(seat))
            seats.append(seat)
            target = np.zeros(space, dtype=np.float32)
            if seat == searcher:
                root = expert.search(info, Rng(info.rng.next64()))
                kids = root.children.get(seat, {})
                for action, index in zip(legal, table.legal_indices(), strict=True):
                    child = kids.get(action)
                    target[index] = child.visits if child is not None else 0
                total = float(target.sum())
                if total > 0:
                    target /= total
                    reward = sum(child.reward for child in kids.values())
                    estimates.append(reward / sum(child.visits for child in kids.values()))
                else:
                    estimates.append(None)
                chosen = robust(root, seat, legal)
                searched.append(total > 0)
            else:
                chosen = others[seat].choose(info)
                searched.append(False)
                estimates.append(None)
            visits.append(target)
            table.apply(chosen)
        result = table.result()
        assert result is not None
        rewards = pay(result)
        values.extend(
            rewards[s] if q is None else (1 - mix) * rewards[s] + mix * q
            for s, q in zip(seats, estimates, strict=True)
        )
        wins += win_share(result, searcher)
    size = table.encoding.size
    return Examples(
        np.array(observations, dtype=np.float32).reshape(-1, size),
        np.array(masks, dtype=np.int8).reshape(-1, space).astype(bool),
        np.array(visits, dtype=np.float32).reshape(-1, space),
        np.array(searched, dtype=bool),
        np.array(values, dtype=np.float32),
        len(job.seeds),
        wins,
    )


def label(
    game: str,
    expert: str,
    seeds: range,
    opponents: Sequence[str] | None = None,
    workers: int = 0,
    **options: Any,
) -> Examples:
    """Play a game from each seed, one seat searched by `expert` (the seed's remainder by
    the player count) and the others by `opponents` (None: the game's heuristic bot, else
    the random bot, in every other seat), and label every decision (see the module's
    docstring). With `workers`, the games are dealt among that many spawned processes;
    the rows come back in the seeds' order either way."""
    if not seeds:
        raise ConfigError("expert iteration: no seeds, so no games to label")
    table = Table(game, **options)
    if opponents is None:
        other = "bot:heuristic" if table.game.heuristic_agent() is not None else "bot:random"
        opponents = [other] * (table.players - 1)
    if len(opponents) != table.players - 1:
        raise ConfigError(
            f"expert iteration: {table.players} seats take {table.players - 1} opponents, "
            f"not {len(opponents)}"
        )
    # The seats checked here once, before any process starts: one error, not a worker's.
    _seats(table, expert, opponents)
    size = -(-len(seeds) // (max(1, workers) * 4))
    jobs = [
        Job(
            game,
            expert,
            tuple(opponents),
            tuple(seeds[start : start + size]),
            tuple(sorted(options.items())),
        )
        for start in range(0, len(seeds), size)
    ]
    if workers <= 0:
        parts = [_label(job) for job in jobs]
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_label, jobs, chunksize=1)
    examples = parts[0]
    for part in parts[1:]:
        examples = examples + part
    return examples


class Network:
    """The torch network a guide is trained as: a trunk of ReLU layers and two heads."""

    def __init__(self, size: int, actions: int, hidden: int, seed: int) -> None:
        import torch
        from torch import nn

        torch.manual_seed(seed)
        self.trunk = nn.Sequential(
            nn.Linear(size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.policy = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)
        self.parameters = [
            *self.trunk.parameters(),
            *self.policy.parameters(),
            *self.value.parameters(),
        ]
        self.optimizer = torch.optim.Adam(self.parameters, lr=1e-3)

    def guide(self, table: Table, about: dict[str, Any]) -> Guide:
        """The network as a guide file holds it, for `table`'s game and options."""
        from torch import nn

        def layer(linear: nn.Linear) -> tuple[Any, Any]:
            return (
                linear.weight.detach().cpu().numpy().astype(np.float32),
                linear.bias.detach().cpu().numpy().astype(np.float32),
            )

        linears = [m for m in self.trunk if isinstance(m, nn.Linear)]
        return Guide(
            game=table.game.name,
            options=table.config.model_dump(mode="json"),
            # Expert iteration trains at the built-in pack's tables only.
            pack=None,
            size=table.encoding.size,
            actions=tuple(action.text for action in table.actions),
            trunk=tuple(layer(linear) for linear in linears),
            policy=layer(self.policy),
            value=layer(self.value),
            activation="relu",
            about=dict(about),
            observation=table.observation,
        )


def _losses(network: Network, examples: Examples, rows: Any) -> tuple[Any, Any]:
    """The policy and value losses of `network` on `rows` of `examples` (torch tensors):
    the cross-entropy of the policy head's softmax over the legal actions against the
    visit distribution (searched rows only), and the value head's squared error."""
    import torch

    observations = torch.as_tensor(examples.observations[rows])
    masks = torch.as_tensor(examples.masks[rows])
    chosen = torch.as_tensor(examples.searched[rows])
    hidden = network.trunk(observations)
    logits = network.policy(hidden).masked_fill(~masks, -1e9)
    if bool(chosen.any()):
        logp = torch.log_softmax(logits[chosen], dim=1)
        # The visit distribution is 0 off the legal actions, where logp is -1e9: their
        # products are 0, not a penalty.
        visits = torch.as_tensor(examples.visits[rows])[chosen]
        policy_loss = -(visits * logp).sum(dim=1).mean()
    else:
        policy_loss = torch.zeros(())
    predicted = torch.sigmoid(network.value(hidden)).squeeze(1)
    value_loss = ((predicted - torch.as_tensor(examples.values[rows])) ** 2).mean()
    return policy_loss, value_loss


def held_out(network: Network, examples: Examples) -> tuple[float, float]:
    """The losses of `network` on `examples` it has not learnt from (a round's fresh
    labels before it fits them): what it learnt, rather than what it remembers."""
    import torch

    with torch.no_grad():
        policy_loss, value_loss = _losses(network, examples, np.arange(len(examples)))
    return float(policy_loss.item()), float(value_loss.item())


def fit(network: Network, examples: Examples, epochs: int, seed: int) -> tuple[float, float]:
    """Train `network` on `examples`: `epochs` passes in minibatches of 256, in an order
    drawn from `seed`. Returns the last pass's mean policy and value losses."""
    order = np.random.default_rng(seed)
    policy_loss = value_loss = 0.0
    for _ in range(epochs):
        totals = [0.0, 0.0]
        batches = 0
        shuffled = order.permutation(len(examples))
        for start in range(0, len(shuffled), 256):
            p_loss, v_loss = _losses(network, examples, shuffled[start : start + 256])
            loss: Any = p_loss + v_loss  # torch's backward is untyped
            network.optimizer.zero_grad()
            loss.backward()
            network.optimizer.step()
            totals[0] += float(p_loss.item())
            totals[1] += float(v_loss.item())
            batches += 1
        policy_loss, value_loss = totals[0] / batches, totals[1] / batches
    return policy_loss, value_loss


@dataclass(frozen=True)
class Round:
    """What one round of expert iteration did."""

    number: int
    expert: str
    games: int
    rows: int
    wins: float
    """The expert's wins in its labelled games (a shared win counts its share)."""
    label_seconds: float
    fit_seconds: float
    policy_loss: float
    value_loss: float
    held_out: tuple[float, float] | None
    """The policy and value losses, before fitting, of the network so far on this round's
    fresh labels (none in round 0)."""
    guide: Path


def planned_table(
    game: str,
    rounds: int,
    games: int,
    budget: int,
    epochs: int,
    hidden: int,
    cut: int | None,
    **options: Any,
) -> Table:
    """The table a run of expert iteration plays, once its numbers are checked:
    ConfigError, one line, for a number below 1 or a game or option that is not one."""
    if rounds < 1 or games < 1 or budget < 1 or epochs < 1 or hidden < 1:
        raise ConfigError(
            "expert iteration: rounds, games, budget, epochs and hidden are 1 or more"
        )
    if cut is not None and cut < 1:
        # Checked now, not when round 1's expert is seated after round 0's work.
        raise ConfigError(f"expert iteration: a cut is 1 action or more, not {cut}")
    return Table(game, **options)


def expert_iteration(
    game: str,
    folder: Path,
    rounds: int = 2,
    games: int = 40,
    budget: int = 400,
    opponents: Sequence[str] | None = None,
    epochs: int = 20,
    hidden: int = HIDDEN,
    workers: int = 0,
    seed: int = 1,
    cut: int | None = None,
    report: Callable[[Round], None] | None = None,
    **options: Any,
) -> list[Round]:
    """Run `rounds` rounds of expert iteration on `game` at tables of `options`, `games`
    labelled games a round and the expert searching `budget` iterations a decision; write
    guide-R.npz for each round and guide.npz (the last) to `folder`. With `cut`, the guided
    experts play each leaf on for that many random actions before the value judges it
    (`bot:guided:PATH:N:cutH`). `report` is told of each round as it ends (a run of a
    few rounds takes many minutes). Returns the rounds."""
    table = planned_table(game, rounds, games, budget, epochs, hidden, cut, **options)
    import torch

    # One thread: the network is small, and the labelling processes want the cores.
    torch.set_num_threads(1)
    folder.mkdir(parents=True, exist_ok=True)
    network = Network(table.encoding.size, len(table.actions), hidden, seed)
    examples: Examples | None = None
    done: list[Round] = []
    expert = f"bot:mcts:{budget}:pure"
    first = (seed + 1) * 1_000_003
    for number in range(rounds):
        started = time.monotonic()
        fresh = label(game, expert, range(first, first + games), opponents, workers, **options)
        first += games
        labelled = time.monotonic()
        unseen = held_out(network, fresh) if examples is not None else None
        examples = fresh if examples is None else examples + fresh
        policy_loss, value_loss = fit(network, examples, epochs, seed + number)
        fitted = time.monotonic()
        path = folder / f"guide-{number}.npz"
        about = {"round": number, "expert": expert, "rows": len(examples), "seed": seed}
        save_guide(path, network.guide(table, about))
        done.append(
            Round(
                number,
                expert,
                fresh.games,
                len(fresh),
                fresh.wins,
                labelled - started,
                fitted - labelled,
                policy_loss,
                value_loss,
                unseen,
                path,
            )
        )
        save_guide(folder / "guide.npz", network.guide(table, about))
        if report is not None:
            report(done[-1])
        expert = f"bot:guided:{path}:{budget}" + (f":cut{cut}" if cut is not None else "")
    return done


def main(argv: list[str] | None = None) -> None:
    from tavernkeep.cli import parse_options as table_options
    from tavernkeep.rl.train import OneLineParser

    parser = OneLineParser(
        prog="python -m tavernkeep.rl.expert",
        description="Train a guide for bot:guided by expert iteration.",
    )
    parser.add_argument("game")
    parser.add_argument("--players", type=int, help="at the table (the game's default)")
    parser.add_argument("--rounds", type=int, default=2, help="of labelling and fitting (2)")
    parser.add_argument("--games", type=int, default=40, help="labelled games a round (40)")
    parser.add_argument("--budget", type=int, default=400, help="the expert's iterations (400)")
    parser.add_argument(
        "--opponent",
        action="append",
        help="a bot in each other seat, in order (default: the heuristic bot)",
    )
    parser.add_argument(
        "--cut",
        type=int,
        help="the guided experts' horizon: random actions before the value judges (none)",
    )
    parser.add_argument("--epochs", type=int, default=20, help="passes over the labels (20)")
    parser.add_argument("--hidden", type=int, default=HIDDEN, help=f"trunk width ({HIDDEN})")
    parser.add_argument("--workers", type=int, default=2, help="labelling processes (2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    try:
        options = table_options(args.option, args.variant)
        if args.players is not None:
            options["players"] = args.players
        out = args.out or Path(f"runs/guide-{args.game}")
        # The plan is checked before the run says it has begun: a mistake is one line.
        planned_table(
            args.game, args.rounds, args.games, args.budget, args.epochs, args.hidden,
            args.cut, **options,
        )  # fmt: skip
        print(f"expert iteration on {args.game}, writing to {out}", flush=True)

        def say(r: Round) -> None:
            unseen = (
                f", on its fresh labels before {r.held_out[0]:.3f} and {r.held_out[1]:.4f}"
                if r.held_out is not None
                else ""
            )
            print(
                f"round {r.number}: {r.expert} labelled {r.rows:,} positions in {r.games} games "
                f"({r.label_seconds:.0f} s, the expert won {r.wins / r.games:.1%}); fit "
                f"{r.fit_seconds:.0f} s, losses {r.policy_loss:.3f} (policy) "
                f"{r.value_loss:.4f} (value){unseen}; {r.guide}",
                flush=True,
            )

        expert_iteration(
            args.game,
            out,
            args.rounds,
            args.games,
            args.budget,
            args.opponent,
            args.epochs,
            args.hidden,
            args.workers,
            args.seed,
            args.cut,
            say,
            **options,
        )
    except (ConfigError, SeatError) as exc:
        parser.error(str(exc))


if __name__ == "__main__":
    main()
