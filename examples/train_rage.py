"""Train an agent for Rage (solo), and seat it as `bot:policy:PATH`.

Needs the train extra: `pip install '.[train]'` (README: CPU torch). By default the
agent learns from the planning bot by imitation (`--teacher bot:heuristic`,
`tavernkeep.rl.imitate`): first from the planner's own nights, then, round after
round, from nights the agent plays itself and the planner says what it would have done
at each decision (DAgger). Each round ends in a checkpoint: the policy so far is saved
and played in the lab for its win rate with a 95% interval, and the checkpoint that won
most is the final policy. The planning bot's own win rate, measured first in the same
way, is the line to beat. Writes to `--out`: policy.npz (the final policy),
policy-STEPS.npz (the checkpoints), curve.csv and curve.png.

`--teacher none` trains by reinforcement alone (MaskablePPO on a batch of games, in
worker processes with `--workers`), rewarded by default with the planner's own score of
the night at every step besides the win at the end (`--reward shaped`: a random walk
never wins, so a win alone would teach nothing). In 30 minutes that learns to live
through the night and gather food, but not to leave the village. Such a run also saves
the whole model (model.zip), which `--resume` goes on training; an imitation run cannot
be resumed. Game options as `tavernkeep simulate` takes them: `--option turn_limit=40`.

    python examples/train_rage.py [--minutes 30] [--games 400] [--out runs/rage]
    python examples/train_rage.py --teacher none --workers 2 --out runs/rage-rl
    python examples/train_rage.py --teacher none --out runs/rage-rl --resume  # 30 min more
    tavernkeep simulate rage --seat bot:policy:runs/rage/policy.npz --games 2000

With `--workers` the games (or a teacher's) are played in spawned processes, which import
this script again: the `if __name__ == "__main__":` at the end keeps them from training.
"""

from __future__ import annotations

from tavernkeep.rl.train import parse_options, train, win_rate


def main() -> None:
    args, keywords = parse_options(
        __doc__ or "", "rage", "runs/rage", reward="shaped", teacher="bot:heuristic"
    )
    table = keywords["options"]
    planner, low, high = win_rate("bot:heuristic", "rage", [], args.games, args.seed, 1, table)
    print(f"the planning bot wins {planner:.1%} ({low:.1%}-{high:.1%})", flush=True)
    final = train(
        "rage",
        opponents=[],
        against={"the village": []},
        references={"planning bot": planner},
        **keywords,
    )
    print(f"saved {final}; the curve is {args.out / 'curve.png'}")


# Needed, not style: with --workers the games' processes are spawned and import this file;
# unguarded, each would start training itself and the run would die.
if __name__ == "__main__":
    main()
