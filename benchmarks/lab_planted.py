"""The lab's causal answers on planted cases whose answer is known, and compare's speed
(issue 40's goals).

For each competitive game, a copy of its standard pack with one card made strictly stronger,
one made strictly weaker and, where the game has one, a card nobody can use changed; random
bots play (no choice of theirs reads a card's number, so the only way a number acts is
through the card itself: the answer is known). For each case:

- `ablate --entry CARD` on the planted pack: its holders win more as it is than at its
  kind's median for the stronger card ("strong" once beyond the 2-point tolerance), less
  for the weaker, and "no effect" for the unusable one;
- `compare standard PLANTED`: the touched card's users (the same seats in both) win more
  for the stronger, less for the weaker, and no game goes otherwise for the unusable one.

Then the time `compare` takes for 10,000 paired games (20,000 played) at the lab's usual
table (sweep.default_seats: the game's own bot in every seat but one random), per game.

    python benchmarks/lab_planted.py [--games 3000] [--speed-games 10000] [--workers 2]
                                     [--speed-only]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_load import probe

# (game, field, holder tally kind, the seats, the cases: (what, card, its new number))
CASES: list[tuple[str, str, str, list[str], list[tuple[str, str, int]]]] = [
    (
        "hack-and-slash", "quest.reward", "quest completed", ["bot:random"] * 3,
        [("stronger", "Rats in the Cellar", 12), ("weaker", "Bandit Ambush", 0)],
    ),
    (
        "here-to-slay", "monster.slay_roll", "monster attacked", ["bot:random"] * 3,
        # What 2d6 must reach to slay a Monster (its punishment brought down to 2 or less,
        # so the slay roll may go as low as 3): 3 nearly always, 12 seldom; three win.
        [("stronger", "Grimtooth Ogre", 3), ("weaker", "Grimtooth Ogre", 12)],
    ),
    (
        "crits-and-tricks", "barkeep.loot", "barkeep won", ["bot:random"] * 2,
        [
            ("stronger", "The Regular", 10),
            ("weaker", "Humble Pie", 1),
            # "Creative" asks for three players: at two it is never offered.
            ("unusable", "Creative", 9),
        ],
    ),
]
EXPECTED = {"stronger": "more", "weaker": "less", "unusable": "no game otherwise"}


def command(args: list[str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tavernkeep.cli", *args, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"tavernkeep {' '.join(args)}: {done.stderr.strip()}")
    return dict(json.loads(done.stdout))


def planted(game: str, folder: Path, card: str, field: str, value: int) -> Path:
    from tavernkeep.games import get_game

    text = (get_game(game).content_dir / "standard.toml").read_text(encoding="utf-8")
    at = text.index(f'name = "{card}"')
    found = re.compile(rf"^{field} = .*$", re.M).search(text, at)
    assert found is not None, (card, field)
    text = text[: found.start()] + f"{field} = {value}" + text[found.end() :]
    if field == "slay_roll" and value <= 5:
        # A slay roll must stay above the punishment roll: the Monster punishes on 2 only.
        punish = re.compile(r"^punishment_roll = .*$", re.M).search(text, at)
        assert punish is not None
        text = text[: punish.start()] + "punishment_roll = 2" + text[punish.end() :]
    # Here to Slay's pack holds to the published roll numbers unless told otherwise.
    text = text.replace("strict_composition = true", "strict_composition = false")
    path = folder / f"{game}-{card.replace(' ', '-')}.toml"
    path.write_text(text)
    return path


def compare_reading(result: dict[str, Any], card: str, holder: str) -> tuple[str, str]:
    if result["games_changed"] == 0:
        return "no game otherwise", "0 games went otherwise"
    rows = [
        r
        for r in result["touched"]
        if r["name"] == card and r["kind"] == holder and r["users_win"]["games"]
    ]
    if not rows:
        return "?", "nobody used it in both"
    row = max(rows, key=lambda r: r["users_win"]["games"])
    effect = row["users_win"]
    low, high = effect["ci95"]
    said = f"{effect['mean'] * 100:+.1f} [{low * 100:+.1f}, {high * 100:+.1f}] ({row['kind']})"
    return ("more" if low > 0 else "less" if high < 0 else "not told apart"), said


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3000, help="games a planted case")
    parser.add_argument("--speed-games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--speed-only", action="store_true", help="only compare's speed, not the cases"
    )
    args = parser.parse_args()
    import tavernkeep

    print(
        f"The lab on planted cases: {args.games:,} games a case on random seeds, "
        f"{args.workers} workers; {tavernkeep.build()} build, Python "
        f"{platform.python_version()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, "
        f"host probe {probe():,.0f} hand-written games/s"
    )
    wrong = 0 if args.speed_only else planted_cases(args)
    print()
    print("| compare, default seats | paired games | seconds | goal |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="tavernkeep-speed-") as folder:
        for game, field, _, _, cases in CASES[:2]:
            _, card, value = cases[0]
            pack = planted(game, Path(folder), card, field.partition(".")[2], value)
            started = time.perf_counter()
            result = command(
                ["compare", "standard", str(pack), "--game", game, "-n",
                 str(args.speed_games), "--workers", str(args.workers), "--seed", "1"]
            )  # fmt: skip
            seconds = time.perf_counter() - started
            print(f"| {game} | {result['games']:,} | {seconds:.1f} | < 30 s |")
    if wrong:
        raise SystemExit(f"{wrong} planted case(s) read wrong")


def planted_cases(args: argparse.Namespace) -> int:
    """The planted cases' table; returns how many read the wrong sign."""
    print()
    print(
        "| game | planted | ablate: holders' wins as it is vs the median, points [95%] "
        "| compare with the standard pack: its users' wins, points [95%] | right sign |"
    )
    print("|---|---|---|---|---|")
    wrong = 0
    with tempfile.TemporaryDirectory(prefix="tavernkeep-planted-") as folder:
        for game, field, holder, seats, cases in CASES:
            kind, _, number = field.partition(".")
            seat_args = [a for s in seats for a in ("-s", s)]
            for what, card, value in cases:
                pack = planted(game, Path(folder), card, number, value)
                seed = str(random.SystemRandom().randrange(2**63))
                ablated = command(
                    ["ablate", game, "--field", field, "--holder", holder, "--entry", card,
                     "--pack", str(pack), "-n", str(args.games), "--workers", str(args.workers),
                     "--seed", seed, *seat_args]
                )  # fmt: skip
                entry = ablated["entries"][0]
                verdict = entry["verdict"]
                cause = entry["effects"]["neutral"]["holders_win"]
                # No holder the same in both (nothing moved): the interval is null.
                low, high = (x if x is not None else 0.0 for x in cause["ci95"])
                sign = "more" if low > 0 else "less" if high < 0 else "no effect"
                if verdict == "no effect":
                    ablate_said = "no effect (0 games went otherwise)"
                else:
                    ablate_said = (
                        f"{verdict}: {cause['mean'] * 100:+.1f} [{low * 100:+.1f}, "
                        f"{high * 100:+.1f}] vs the median {ablated['median']}"
                    )
                compared = command(
                    ["compare", "standard", str(pack), "--game", game, "-n", str(args.games),
                     "--workers", str(args.workers), "--seed", seed, *seat_args]
                )  # fmt: skip
                reading, said = compare_reading(compared, card, holder)
                # The right sign: the holders win more with the stronger card (as it is
                # against the median, and against the standard pack), less with the weaker,
                # and nothing moves for the unusable one.
                expected = EXPECTED[what]
                right = reading == expected and (
                    verdict == "no effect" if what == "unusable" else sign == expected
                )
                wrong += not right
                print(
                    f"| {game} | {what}: {kind}[{card}].{number} = {value} | {ablate_said} "
                    f"| {said} | {'yes' if right else 'NO'} |"
                )
    return wrong


if __name__ == "__main__":
    main()
