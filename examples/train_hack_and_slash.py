"""Train an agent for Hack & Slash against two bots with MaskablePPO, and seat it.

Needs the train extra: `pip install -e '.[train]'`. Seat 0 learns at a table of three
against two random bots (`--opponents heuristic` for two heuristic bots) for `--minutes`;
every `--every` minutes the policy so far is saved and played in the lab against two random
bots and against two heuristic bots, for win rates with 95% intervals. The heuristic bot's
own rate against two random bots, measured first, is the line to reach. Writes to `--out`:
policy.npz, the checkpoints, curve.csv and curve.png.

    python examples/train_hack_and_slash.py [--minutes 30] [--out runs/hack-and-slash]
    tavernkeep play hack-and-slash --seat human --seat bot:random \\
        --seat bot:policy:runs/hack-and-slash/policy.npz
"""

from __future__ import annotations

import argparse

from tavernkeep.rl.train import parse_options, train, win_rate

GAME = "hack-and-slash"


def main() -> None:
    def opponents(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--opponents", choices=["random", "heuristic"], default="random")

    args, options = parse_options(__doc__ or "", GAME, "runs/hack-and-slash", "win", more=opponents)
    randoms, heuristics = ["bot:random"] * 2, ["bot:heuristic"] * 2
    rate, low, high = win_rate("bot:heuristic", GAME, randoms, args.games, args.seed)
    print(f"the heuristic bot wins {rate:.1%} ({low:.1%}-{high:.1%}) against two random bots")
    final = train(
        GAME,
        opponents=[f"bot:{args.opponents}"] * 2,
        against={"two random bots": randoms, "two heuristic bots": heuristics},
        references={"heuristic bot against two random bots": rate, "a fair share": 1 / 3},
        **options,
    )
    print(f"saved {final}; the curve is {args.out / 'curve.png'}")


if __name__ == "__main__":
    main()
