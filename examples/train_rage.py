"""Train an agent for Rage (solo), and seat it as `bot:policy:PATH`.

Needs the train extra: `pip install -e '.[train]'`. By default the agent learns from the
planning bot by imitation (`--teacher bot:heuristic`, `tavernkeep.rl.imitate`): first
from the planner's own nights, then, round after round, from nights the agent plays
itself and the planner says what it would have done at each decision (DAgger). Each
round ends in a checkpoint: the policy so far is saved and played in the lab for its win
rate with a 95% interval, and the checkpoint that won most is the final policy. The
planning bot's own win rate, measured first in the same way, is the line to beat.
Writes to `--out`: policy.npz (the final policy), policy-STEPS.npz (the checkpoints),
curve.csv and curve.png.

`--teacher none` trains by reinforcement alone (MaskablePPO on a batch of games, in
worker processes with `--workers`), rewarded by default with the planner's own score of
the night at every step besides the win at the end (`--reward shaped`: a random walk
never wins, so a win alone would teach nothing). In 30 minutes that learns to live
through the night and gather food, but not to leave the village.

    python examples/train_rage.py [--minutes 30] [--games 400] [--out runs/rage]
    tavernkeep simulate rage --seat bot:policy:runs/rage/policy.npz --games 2000
"""

from __future__ import annotations

from tavernkeep.rl.train import parse_options, train, win_rate


def main() -> None:
    args, options = parse_options(
        __doc__ or "", "rage", "runs/rage", reward="shaped", teacher="bot:heuristic"
    )
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
