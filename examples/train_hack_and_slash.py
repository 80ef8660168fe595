"""Train an agent for Hack & Slash against bots with MaskablePPO, and seat it.

Needs the train extra: `pip install '.[train]'` (README: CPU torch). Seat 0 learns at a
table of three (`--players N`, game options as `tavernkeep simulate` takes them with
`--option key=value` and `--variant`) against random bots (`--opponents heuristic` for
heuristic bots) for `--minutes`; every `--every` minutes the policy so far is saved and
played in the lab against random bots and against heuristic bots, for win rates with 95%
intervals. The heuristic bot's own rate against random bots, measured first, is the line
to reach. Writes to `--out`: policy.npz, the checkpoints, curve.csv and curve.png, and
the whole model (model.zip), which `--resume` goes on training.

    python examples/train_hack_and_slash.py [--minutes 30] [--out runs/hack-and-slash]
    python examples/train_hack_and_slash.py --resume --minutes 30   # 30 minutes more
    tavernkeep play hack-and-slash --seat human --seat bot:random \\
        --seat bot:policy:runs/hack-and-slash/policy.npz

With `--workers 2` the games are stepped in two spawned processes, which import this
script again: the `if __name__ == "__main__":` at the end keeps them from training too.
"""

from __future__ import annotations

import argparse

from tavernkeep.rl.train import parse_options, train, win_rate

GAME = "hack-and-slash"
COUNTS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def bots(kind: str, count: int) -> str:
    """'two random bots': how the curve and the report name a set of opponents."""
    return f"{COUNTS[count]} {kind} bot{'s' if count > 1 else ''}"


def main() -> None:
    def opponents(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--opponents", choices=["random", "heuristic"], default="random")

    args, keywords = parse_options(
        __doc__ or "", GAME, "runs/hack-and-slash", "win", more=opponents, players=3
    )
    table, seats = keywords["options"], args.players - 1
    randoms, heuristics = ["bot:random"] * seats, ["bot:heuristic"] * seats
    random_bots, heuristic_bots = bots("random", seats), bots("heuristic", seats)
    rate, low, high = win_rate("bot:heuristic", GAME, randoms, args.games, args.seed, 1, table)
    print(f"the heuristic bot wins {rate:.1%} ({low:.1%}-{high:.1%}) against {random_bots}")
    final = train(
        GAME,
        opponents=[f"bot:{args.opponents}"] * seats,
        against={random_bots: randoms, heuristic_bots: heuristics},
        references={f"heuristic bot against {random_bots}": rate, "a fair share": 1 / args.players},
        **keywords,
    )
    print(f"saved {final}; the curve is {args.out / 'curve.png'}")


# Needed, not style: with --workers the games' processes are spawned and import this file;
# unguarded, each would start training itself and the run would die.
if __name__ == "__main__":
    main()
