"""Ratings of bots of known strength (issue 44, item 3): 10,000 rated games of Hack &
Slash among bots whose order is certain by construction, rated as the server rates its
tables (server/skill.py: openskill's Plackett-Luce, the same places and the same shown
band), and whether the ratings (1) order the bots as they are and (2) settle within the
uncertainty they show.

The bots: the game's heuristic bot; the same bot erring on purpose, a uniformly random
legal action instead of its own at each decision with probability p; and the random bot
(p = 1). More errors can only play worse, and the table's win rates and mean places say
so again, measured from the same games. Each game seats the bots at a table of three in a
random order, played as the lab plays (engine `Match`, no events, no record kept), and is
rated as soon as it ends, in the order played.

"Settles within its shown uncertainty": over the last `--window` games (2,000), every
rating a bot showed lies within the band it showed at that moment (rating ± 3 sigma,
skill.py `BAND`) of where it settled (its mean over the window); the table gives the
worst distance as a share of the band (under 1 holds) and how many of the window's games
held. `--storage` rates every game through a SQLite database as `tavernkeep ratings seed`
and the server do (storage/ratings.py), one transaction a game.

    python benchmarks/ratings.py [--games 10000] [--window 2000] [--errors 0,0.5,1]
        [--players 3] [--seed 1] [--storage]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from typing import Any

import tavernkeep
from tavernkeep.agents import make_bot
from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import derive_seed
from tavernkeep.games import get_game
from tavernkeep.server.skill import BAND, BOT, SCALE, Skill, Subject, places, rate, shown

GAME = "hack-and-slash"


class Erring:
    """The heuristic bot, but a random legal action instead with probability `p`, drawn
    from the seat's own stream (so a game replays exactly)."""

    def __init__(self, p: float, heuristic: Any) -> None:
        self.p = p
        self.heuristic = heuristic
        self.name = f"bot:heuristic-erring-{p:g}"

    def choose(self, info: InfoSet) -> Action:
        if self.p > 0 and info.rng.below(1_000_000) < self.p * 1_000_000:
            actions = info.legal_actions()
            return actions[info.rng.below(len(actions))]
        action: Action = self.heuristic.choose(info)
        return action


def bots_of(errors: list[float]) -> list[Any]:
    game = get_game(GAME)
    out: list[Any] = []
    for p in errors:
        if p >= 1:
            out.append(RandomBot())
        elif p <= 0:
            out.append(make_bot("bot:heuristic", game))
        else:
            out.append(Erring(p, make_bot("bot:heuristic", game)))
    return out


def label(p: float) -> str:
    if p >= 1:
        return "random bot (p = 1)"
    if p <= 0:
        return "heuristic bot (p = 0)"
    return f"heuristic erring, p = {p:g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--window", type=int, default=2_000, help="the last games judged")
    parser.add_argument("--errors", default="0,0.5,1", help="each bot's error probability")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--storage", action="store_true", help="rate through SQLite")
    args = parser.parse_args()
    try:
        errors = sorted(float(p) for p in args.errors.split(","))
    except ValueError:
        parser.error("--errors: probabilities such as 0,0.5,1")
    if len(errors) < 2 or len(set(errors)) != len(errors) or not all(0 <= p <= 1 for p in errors):
        parser.error("--errors: two or more different probabilities from 0 to 1")
    if not 3 <= args.players <= min(6, len(errors)) and args.players != len(errors):
        parser.error(f"--players: 3 to {min(6, len(errors))} (a table of the bots)")
    if not 0 < args.window < args.games:
        parser.error("--window: fewer games than --games")

    from bot_games import probe  # benchmarks/, beside this file

    print(
        f"ratings: {args.games:,} rated {GAME} games among {len(errors)} bots, "
        f"{args.players} a table; {tavernkeep.build()} build, Python "
        f"{platform.python_version()}, {os.cpu_count()} cores, load "
        f"{os.getloadavg()[0]:.1f}, host probe {probe():,.0f} hand-written games/s",
        flush=True,
    )
    game = get_game(GAME)
    config = game.make_config({"players": args.players})
    pack = game.load_pack(None)
    bots = bots_of(errors)
    subjects = [Subject(BOT, label(p)) for p in errors]
    now: dict[Subject, Skill] = {}
    trail: dict[Subject, list[tuple[int, float, float]]] = {s: [] for s in subjects}
    wins = dict.fromkeys(subjects, 0.0)
    place_sum = dict.fromkeys(subjects, 0)
    seated_count = dict.fromkeys(subjects, 0)
    draw = random.Random(args.seed)
    storage = None
    folder = tempfile.TemporaryDirectory()
    if args.storage:
        from tavernkeep.server.storage import Storage

        storage = Storage(f"sqlite:///{os.path.join(folder.name, 'ratings.db')}")
    began = time.perf_counter()
    rating_time = 0.0
    for index in range(args.games):
        chosen = draw.sample(range(len(bots)), args.players)
        match = Match(
            game,
            [bots[i] for i in chosen],
            derive_seed(args.seed, index),
            config,
            pack,
            [subjects[i].id for i in chosen],
            record_events=False,
            keep_record=False,
        )
        result = match.run()
        seated = [subjects[i] for i in chosen]
        for seat, subject in enumerate(seated):
            seated_count[subject] += 1
            place_sum[subject] += result.ranks[seat]
            if seat in result.winners:
                wins[subject] += 1 / len(result.winners)
        started = time.perf_counter()
        placings = places(result.to_json(), seated, set())
        if not placings:
            continue  # every seat tied: a game that tells the bots apart in nothing
        if storage is not None:
            after = storage.ratings.record(GAME, placings, f"bench-{index}", float(index))
        else:
            after = rate(placings, now)
        now.update(after)
        rating_time += time.perf_counter() - started
        for subject, skill in after.items():
            trail[subject].append((index, skill.mu, skill.sigma))
    took = time.perf_counter() - began
    if storage is not None:
        board = {s.subject: (s.mu, s.sigma) for s in storage.leaderboard(GAME, 100)}
        assert all(
            abs(board[s.id][0] - now[s].mu) < 1e-9 for s in subjects
        ), "storage kept what was rated"
        storage.close()
    folder.cleanup()

    start_window = args.games - args.window
    rows = []
    for p, subject in zip(errors, subjects, strict=True):
        final = now[subject]
        window = [(mu, sigma) for i, mu, sigma in trail[subject] if i >= start_window]
        settled = statistics.fmean(mu for mu, _ in window)
        worst = max(abs(mu - settled) / (BAND * sigma) for mu, sigma in window)
        held = sum(abs(mu - settled) <= BAND * sigma for mu, sigma in window)
        rows.append(
            {
                "p": p,
                "bot": label(p),
                "win": wins[subject] / seated_count[subject],
                "place": place_sum[subject] / seated_count[subject],
                "shown": shown(final.mu, final.sigma),
                "settled": round(SCALE * settled),
                "games": final.games,
                "worst": worst,
                "held": held,
                "window": len(window),
            }
        )
    # The known order: fewer errors first; the measured win rates must agree.
    by_errors = [r["bot"] for r in rows]
    by_rating = [r["bot"] for r in sorted(rows, key=lambda r: -r["shown"]["rating"])]
    by_settled = [r["bot"] for r in sorted(rows, key=lambda r: -r["settled"])]
    by_wins = [r["bot"] for r in sorted(rows, key=lambda r: -r["win"])]
    ordered = by_rating == by_errors and by_settled == by_errors
    settles = all(r["worst"] <= 1.0 for r in rows)

    print()
    print(
        "| bot | win rate | mean place | rating shown at the end | settled (mean of the "
        f"last {args.window:,}) | rated games | worst distance, share of the band | "
        f"last {args.window:,} within the band |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        band = f"{r['shown']['rating']:,} ± {r['shown']['plus_minus']:,}"
        print(
            f"| {r['bot']} | {r['win']:.3f} | {r['place']:.2f} | {band} | {r['settled']:,} | "
            f"{r['games']:,} | {r['worst']:.2f} | {r['held']:,} of {r['window']:,} |"
        )
    print()
    print(
        f"{args.games:,} games in {took:.1f} s ({args.games / took:,.0f} games/s; rating "
        f"{rating_time:.1f} s of it{', through SQLite' if args.storage else ''})"
    )
    print(
        f"order by error rate {'=' if by_wins == by_errors else '!='} order by win rate; "
        f"ratings order the bots correctly: {'yes' if ordered else 'NO'}; every bot settles "
        f"within its shown band: {'yes' if settles else 'NO'}"
    )
    sys.exit(0 if ordered and settles and by_wins == by_errors else 1)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
