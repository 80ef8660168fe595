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

from tavernkeep.rl.train import parse_options, train, win_rate


def main() -> None:
    args, options = parse_options(__doc__ or "", "runs/rage", reward="shaped")
    planner, low, high = win_rate("bot:heuristic", "rage", [], args.games, args.seed)
    print(f"the planning bot wins {planner:.1%} ({low:.1%}-{high:.1%})", flush=True)
    final = train(
        "rage",
        opponents=[],
        against={"the village": []},
        references={"planning bot": planner},
        **options,
    )
    print(f"saved {final}; the curve is {args.out / 'curve.png'}")


if __name__ == "__main__":
    main()
