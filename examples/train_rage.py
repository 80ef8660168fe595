"""Train an agent for Rage (solo) with MaskablePPO, and seat it as `bot:policy:PATH`.

Needs the train extra: `pip install -e '.[train]'`. Trains for `--minutes` on a batch of
games (in worker processes with `--workers`; here the learner, not the games, is the
bottleneck, so they add little), rewarded by default with the game's own estimate of the
night's chances at every step besides the win at the end (`--reward shaped`: a random
walk never wins, so a win alone would teach nothing), and every `--every` minutes saves
the policy so far and plays it in the lab for its win rate with a 95% interval. The
planning bot's own win rate, measured first in the same way, is the line to beat. Writes
to `--out`: policy.npz (the final policy), policy-STEPS.npz (the checkpoints), curve.csv
and curve.png.

    python examples/train_rage.py [--minutes 30] [--every 3] [--games 400] [--out runs/rage]
    tavernkeep simulate rage --seat bot:policy:runs/rage/policy.npz --games 2000
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tavernkeep.rl.train import train, win_rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="of training (30)")
    parser.add_argument("--every", type=float, default=3.0, help="minutes between checkpoints")
    parser.add_argument("--games", type=int, default=400, help="lab games a checkpoint (400)")
    parser.add_argument(
        "--reward",
        choices=["win", "shaped"],
        default="shaped",
        help="win: +1/-1 at the end; shaped: and the change in the game's own estimate of "
        "the chances at every step (shaped)",
    )
    parser.add_argument("--envs", type=int, default=32, help="games stepped together (32)")
    parser.add_argument("--workers", type=int, default=0, help="processes stepping them (0)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("runs/rage"))
    args = parser.parse_args()
    if not (args.minutes > 0 and args.every > 0 and args.games >= 1 and args.envs >= 1):
        parser.error("--minutes and --every must be above 0, --games and --envs 1 or more")
    planner, low, high = win_rate("bot:heuristic", "rage", [], args.games, args.seed)
    print(f"the planning bot wins {planner:.1%} ({low:.1%}-{high:.1%})", flush=True)
    final = train(
        "rage",
        opponents=[],
        against={"the village": []},
        references={"planning bot": planner},
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
