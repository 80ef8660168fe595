"""Hack & Slash written by hand, with no engine: the honest speed baseline.

This is what a competent programmer would write to simulate the game as fast as plain
Python allows: cards as parallel lists of ints, the table as a few lists and locals, the
`random` module for dice and choices, and no events, records, views, actions or bots.
It plays the same rules as `tavernkeep.games.hack_and_slash` with its defaults (see its
RULES.md): the same quest data, the Brag at the Tavern, one rescue per failed attempt,
the Tavern and stand-in tokens, both end triggers (a player with too few adventurers at
the start of a turn, the draw pile running dry), equal turns for everyone, the round
limit and the tie-break on adventurers. Its players choose as `bot:random` does:
uniformly among the legal quests, then uniformly among quitting and each distinct die
value to re-roll in a rescue.

It draws from a different random stream than the engine, so single games differ, but
the distribution of outcomes is the same: `--games N` prints mean turns, scores and
endings to compare with `tavernkeep simulate`.

    python benchmarks/handwritten_hack_and_slash.py [--seconds S] [--games N]
"""

from __future__ import annotations

import argparse
import random
import time
import tomllib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

STANDARD = (
    Path(__file__).resolve().parent.parent
    / "src/tavernkeep/games/hack_and_slash/content/standard.toml"
)
PLAYERS = 4
ADVENTURERS = 8
BOX = 50
ROUND_LIMIT = 100
SLOTS = 3
BRAG_SLOT = SLOTS


class Cards(NamedTuple):
    """Card i's fields, one list per field; card 0 is the Brag at the Tavern."""

    challenge: list[int]
    goal: list[int]
    exact: list[bool]
    reward: list[int]
    gains: list[bool]
    """Success adds an adventurer."""


class Outcome(NamedTuple):
    scores: list[int]
    parties: list[int]
    winners: list[int]
    ending: str
    turns: int


def load_cards(path: Path = STANDARD) -> Cards:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    brag = data.get("brag", {})
    cards = Cards([], [], [], [], [])
    # The Brag's defaults are the pack schema's: 1 adventurer, 4+.
    rows = [
        {
            "challenge": brag.get("challenge", 1),
            "goal": brag.get("goal", 4),
            "exact": brag.get("exact", False),
            "reward": 0,
            "adventurer": True,
        },
        *data["quest"],
    ]
    for row in rows:
        cards.challenge.append(row["challenge"])
        cards.goal.append(row["goal"])
        cards.exact.append(row.get("exact", False))
        cards.reward.append(row.get("reward", 0))
        cards.gains.append(row.get("adventurer", False))
    return cards


def play(
    cards: Cards,
    rand: Callable[[], float] = random.random,
    shuffle: Callable[[list[int]], None] = random.shuffle,
    players: int = PLAYERS,
) -> Outcome:
    """One game; `rand` and `shuffle` are the `random` module's unless given."""
    challenge, goal, exact, reward, gains = cards
    pile = list(range(1, len(challenge)))
    shuffle(pile)
    row = [pile.pop() for _ in range(SLOTS)]
    parties = [ADVENTURERS] * players
    tavern = max(0, BOX - players * ADVENTURERS)
    stand_ins = max(0, players * ADVENTURERS - BOX)
    scores = [0] * players
    brag_need = challenge[0]
    ending = ""
    turns = 0
    round_ = 1
    while True:
        for seat in range(players):
            turns += 1
            party = parties[seat]
            # "If you have no meeples at the start of your turn, you must pass" (and a
            # party too small for any face-up quest is stuck the same way).
            cheapest = brag_need
            for card in row:
                if card >= 0 and challenge[card] < cheapest:
                    cheapest = challenge[card]
            if party < cheapest:
                ending = ending or "guild-empty"
                continue
            options = [s for s in range(SLOTS) if row[s] >= 0 and challenge[row[s]] <= party]
            if brag_need <= party:
                options.append(BRAG_SLOT)
            slot = options[int(rand() * len(options))]
            card = 0 if slot == BRAG_SLOT else row[slot]
            need = challenge[card]
            dice = [int(rand() * 6) + 1 for _ in range(need)]
            total = sum(dice)
            party -= need
            on_card = need
            target = goal[card]
            success = total == target if exact[card] else total >= target
            if not success and party > 0:
                # Quit, or rescue by re-rolling one die of a chosen value.
                values = list(set(dice))
                pick = int(rand() * (len(values) + 1))
                if pick < len(values):
                    party -= 1
                    on_card += 1
                    total += int(rand() * 6) + 1 - values[pick]
                    success = total == target if exact[card] else total >= target
            if success:
                party += on_card
                if gains[card]:
                    party += 1
                    if tavern > 0:
                        tavern -= 1
                    else:
                        stand_ins += 1
                if slot != BRAG_SLOT:
                    scores[seat] += reward[card]
                    if pile:
                        row[slot] = pile.pop()
                    else:
                        row[slot] = -1
                        ending = ending or "quests-exhausted"
            else:
                tavern += on_card
            parties[seat] = party
        # The first player would take their next turn: everyone has had equal turns.
        if not ending and ROUND_LIMIT and round_ >= ROUND_LIMIT:
            ending = "round-limit"
        if ending:
            break
        round_ += 1
    # Highest score wins; ties go to the most adventurers; still tied, they share.
    keys = list(zip(scores, parties, strict=True))
    best = max(keys)
    winners = [s for s in range(players) if keys[s] == best]
    return Outcome(scores, parties, winners, ending, turns)


def games_per_second(seconds: float, cards: Cards | None = None) -> tuple[float, int]:
    """Games/s of `play` over about `seconds` of wall time, and how many games ran."""
    cards = cards or load_cards()
    games = 0
    start = time.perf_counter()
    while True:
        for _ in range(500):
            play(cards)
        games += 500
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time to run (default 3)")
    parser.add_argument("--games", type=int, default=0, help="also print stats of N games")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    random.seed(args.seed)
    cards = load_cards()
    rate, games = games_per_second(args.seconds, cards)
    print(f"hand-written Hack & Slash, {PLAYERS} players: {rate:,.0f} games/s ({games:,} games)")
    if args.games:
        wins = [0.0] * PLAYERS
        scores = [0] * PLAYERS
        endings: Counter[str] = Counter()
        turns = 0
        for _ in range(args.games):
            out = play(cards)
            for seat in out.winners:
                wins[seat] += 1 / len(out.winners)
            scores = [a + b for a, b in zip(scores, out.scores, strict=True)]
            endings[out.ending] += 1
            turns += out.turns
        n = args.games
        print(f"{n:,} games: mean turns {turns / n:.2f}")
        print("win rate by seat: " + ", ".join(f"{w / n:.1%}" for w in wins))
        print("mean score by seat: " + ", ".join(f"{s / n:.2f}" for s in scores))
        print("endings: " + ", ".join(f"{k}: {v:,}" for k, v in sorted(endings.items())))


if __name__ == "__main__":
    main()
