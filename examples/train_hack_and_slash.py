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
from pathlib import Path

from tavernkeep.rl.train import train, win_rate

GAME = "hack-and-slash"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="of training (30)")
    parser.add_argument("--every", type=float, default=3.0, help="minutes between checkpoints")
    parser.add_argument("--games", type=int, default=400, help="lab games a checkpoint (400)")
    parser.add_argument("--opponents", choices=["random", "heuristic"], default="random")
    parser.add_argument(
        "--reward",
        choices=["win", "shaped"],
        default="win",
        help="win: +1/-1 at the end; shaped: and the change in the game's own estimate of "
        "the chances at every step (win)",
    )
    parser.add_argument("--envs", type=int, default=32, help="games stepped together (32)")
    parser.add_argument("--workers", type=int, default=0, help="processes stepping them (0)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("runs/hack-and-slash"))
    args = parser.parse_args()
    if not (args.minutes > 0 and args.every > 0 and args.games >= 1 and args.envs >= 1):
        parser.error("--minutes and --every must be above 0, --games and --envs 1 or more")
    randoms, heuristics = ["bot:random"] * 2, ["bot:heuristic"] * 2
    rate, low, high = win_rate("bot:heuristic", GAME, randoms, args.games, args.seed)
    print(f"the heuristic bot wins {rate:.1%} ({low:.1%}-{high:.1%}) against two random bots")
    final = train(
        GAME,
        opponents=[f"bot:{args.opponents}"] * 2,
        against={"two random bots": randoms, "two heuristic bots": heuristics},
        references={"heuristic bot against two random bots": rate, "a fair share": 1 / 3},
        folder=args.out,
        minutes=args.minutes,
        every=args.every,
        games=args.games,
        envs=args.envs,
        workers=args.workers,
        seed=args.seed,
        reward=args.reward,
    )
    print(f"saved {final}; the curve is {args.out / 'curve.png'}")


if __name__ == "__main__":
    main()
