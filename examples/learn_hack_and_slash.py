"""A tabular agent learns Hack & Slash against two random bots, through `gym_env`.

Nothing heavy: the agent keeps a table of how games went after each kind of choice
(a quest of this challenge, goal and reward, sent from a guild of this size; a rescue
of this die against this shortfall; a quit), read off the observation vector whose
layout is in src/tavernkeep/games/hack_and_slash/ENCODING.md. It picks the choice with
the best average outcome (exploring at random at first, less and less) and prints its
win rate as it learns. Three players: a random player wins about one game in three.

    python examples/learn_hack_and_slash.py [--episodes N] [--report N]
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

from tavernkeep.rl import gym_env

PLAYERS = 3
SEATS = 2  # where the per-seat block starts: after the two decision flags
TABLE = SEATS + 4 * PLAYERS  # Tavern, stand-ins, draw pile, round
BRAG = TABLE + 4  # challenge, goal, exact
QUESTS = BRAG + 3  # three slots of (present, challenge, goal, exact, reward, adventurer)
ATTEMPT = QUESTS + 18  # present, slot x4, adventurers, dice 1..6, total

Key = tuple[object, ...]


def choice_key(obs: np.ndarray, action: int) -> Key:
    """What the agent remembers a choice by: the choice, in the game's own terms."""
    guild = min(int(obs[SEATS]), 9)  # my adventurers (seat block 0 is me)
    if action < 3:  # quest:slot
        card = obs[QUESTS + 6 * action + 1 : QUESTS + 6 * action + 6]
        return ("quest", guild, *card.astype(int).tolist())
    if action == 3:  # brag
        return ("brag", guild)
    slot = int(np.argmax(obs[ATTEMPT + 1 : ATTEMPT + 5]))
    goal = obs[BRAG + 1] if slot == 3 else obs[QUESTS + 6 * slot + 2]
    short = int(goal - obs[ATTEMPT + 12])  # how far the roll fell short
    if action == 4:  # quit
        return ("quit", guild, short)
    return ("rescue", guild, short, action - 4)  # rescue:value re-rolls a die showing value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=4000)
    parser.add_argument("--report", type=int, default=400, help="episodes between reports")
    args = parser.parse_args()
    # The raw encoding (ENCODING.md's numbers), not the networks' default asinh scale:
    # this agent reads counts and rolls off the vector.
    env = gym_env("hack-and-slash", opponents=["bot:random"] * (PLAYERS - 1), observation="raw")
    total: defaultdict[Key, float] = defaultdict(float)
    tries: defaultdict[Key, int] = defaultdict(int)
    rng = np.random.default_rng(0)
    wins: list[bool] = []
    for episode in range(1, args.episodes + 1):
        obs, info = env.reset(seed=episode)
        chosen: list[Key] = []
        done, reward = False, 0.0
        epsilon = max(0.02, 1.0 - episode / (0.6 * args.episodes))
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            keys = [choice_key(obs, int(a)) for a in legal]
            if rng.random() < epsilon:
                pick = int(rng.integers(len(legal)))
            else:
                # Untried choices look good (optimism), so each gets tried.
                values = [total[k] / tries[k] if tries[k] else 1.0 for k in keys]
                pick = int(np.argmax(values))
            chosen.append(keys[pick])
            obs, reward, done, _, info = env.step(int(legal[pick]))
        for key in chosen:  # every choice of the game shares its outcome (+1 win, -1 loss)
            total[key] += reward
            tries[key] += 1
        wins.append(reward > 0)
        if episode % args.report == 0:
            rate = np.mean(wins[-args.report :])
            print(
                f"episode {episode:5d}  exploring {epsilon:4.0%}  "
                f"win rate {rate:6.1%}  choices known {len(tries)}"
            )


if __name__ == "__main__":
    main()
