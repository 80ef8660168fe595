"""`tavernkeep levels GAME`: measure a game's difficulty levels (agents/levels.py).

Each level other than normal plays against normal, the game's heuristic bot, at the
game's usual table, on the same seeds:

- competitive: one seat of the level, normal bots in every other seat, the level's seat
  moving round the table (each rotation dealt from the same seeds, so no seat is
  favoured); its win share (a shared victory counts 1/k) beside an even share;
- co-operative and solo: a team of the level on every seed, and a team of normal bots on
  the same seeds; each team's win rate.

A search is offered as hard only where its interval lies above normal's figure, and as
expert only where its interval lies above hard's: a level is a promise a person can feel,
and a search that cannot be told apart from the heuristic is not one. `--write` puts the
measured levels in the game's `levels.toml`, with the command that measured them.
"""

from __future__ import annotations

import datetime
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from tavernkeep import build
from tavernkeep.agents.levels import NORMAL, Levels, levels_file
from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.game import Game
from tavernkeep.engine.rng import random_seed
from tavernkeep.games import get_game
from tavernkeep.lab.simulate import Batch, check_batches, progress_bar, simulate_many
from tavernkeep.lab.stats import wilson_interval


@dataclass(frozen=True)
class Candidate:
    name: str
    bot: str


def usual_players(game: Game[Any, Any]) -> int:
    return int(getattr(game.make_config({}), "players", game.min_players))


def _commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
            cwd=Path(__file__).parent,
        )
    except OSError:
        return "unknown commit"
    return done.stdout.strip() or "unknown commit"


def measure(
    game_name: str,
    candidates: list[Candidate],
    games: int,
    workers: int,
    seed: int | None,
) -> dict[str, Any]:
    """Every candidate's figure against normal, and the levels a game so offers."""
    from tavernkeep.agents.levels import NAMES

    game = get_game(game_name)
    if game.heuristic_agent() is None:
        raise ConfigError(f"levels: {game.title} has no heuristic bot to measure against")
    names = [c.name for c in candidates]
    if names != sorted(names, key=NAMES.index) or "normal" in names:
        raise ConfigError(
            "levels: measure easy, hard and expert, each once (normal is the yardstick)"
        )
    players = usual_players(game)
    team = game.kind != "competitive"
    batch_seed = random_seed() if seed is None else seed
    rows: list[dict[str, Any]] = []
    everyone = [Candidate("normal", NORMAL), *candidates]
    check_batches([Batch(game.name, (c.bot,) * players, {}, None, batch_seed) for c in everyone])
    with progress_bar() as progress:
        for candidate in everyone:
            if not team and candidate.name == "normal":
                rows.append(_row(candidate, 1 / players, 1 / players, 1 / players, 0))
                continue
            task = progress.add_task(
                f"{game.name}: {candidate.name}", total=games * (1 if team else players)
            )
            spec = candidate.bot
            if team:
                batches = [Batch(game.name, (spec,) * players, {}, None, batch_seed)]
            else:
                batches = []
                for seat in range(players):
                    seats = [NORMAL] * players
                    seats[seat] = spec
                    batches.append(Batch(game.name, tuple(seats), {}, None, batch_seed))
            totals = simulate_many(
                batches, games, workers, lambda k, t=task: progress.advance(t, k)
            )
            if team:
                won, played = float(totals[0].won), totals[0].games
            else:
                won = float(sum(t.wins[seat] for seat, t in enumerate(totals)))
                played = sum(t.games for t in totals)
            low, high = wilson_interval(won, played)
            rows.append(_row(candidate, won / played, low, high, played))
    fair = 1 / players
    rows.sort(key=lambda r: NAMES.index(r["name"]))
    offered = offer(rows, fair, team)
    return {
        "lab": "levels",
        "game": game.name,
        "players": players,
        "fair": fair,
        "team": team,
        "seed": batch_seed,
        "build": build(),
        "workers": workers,
        "measured": rows,
        "offered": [r["name"] for r in offered],
        "file": {
            "measured": (
                f"tavernkeep levels {game.name} --games {games} --seed {batch_seed}, "
                f"{build()} build at {_commit()}, {datetime.date.today().isoformat()}"
            ),
            "players": players,
            "fair": round(fair, 4),
            "team": team,
            "level": offered,
        },
    }


def _row(candidate: Candidate, wins: float, low: float, high: float, games: int) -> dict[str, Any]:
    return {
        "name": candidate.name,
        "bot": candidate.bot,
        "wins": round(wins, 4),
        "low": round(low, 4),
        "high": round(high, 4),
        "games": games,
    }


def offer(rows: list[dict[str, Any]], fair: float, team: bool) -> list[dict[str, Any]]:
    """The levels a game offers: easy and normal as measured; hard where its interval is
    above normal's figure, expert where its interval is above hard's."""
    normal = next(r for r in rows if r["name"] == "normal")
    out = []
    below = normal["wins"] if team else fair
    for row in rows:
        if row["name"] in ("easy", "normal"):
            out.append(row)
        elif row["low"] > below:
            out.append(row)
            below = row["high"]
        else:
            break  # expert is offered only above an offered hard
    return out


def write_levels(game: Game[Any, Any], measured: dict[str, Any]) -> Path:
    path = levels_file(game)
    if path is None:
        raise ConfigError(f"levels: {game.title} has no folder to write levels.toml in")
    Levels.model_validate(measured["file"])  # what is written loads
    head = (
        "# The difficulty levels people choose by name (agents/levels.py), measured by the\n"
        "# command in `measured`; re-measure them when the game or its bots change.\n"
    )
    path.write_text(head + tomli_w.dumps(measured["file"]), encoding="utf-8")
    return path


def print_levels(result: dict[str, Any]) -> None:
    fair = result["fair"]
    team = result["team"]
    against = "team win rate" if team else f"win share against normal (even: {fair:.1%})"
    print(
        f"{result['game']} at {result['players']} players, {result['build']} build, "
        f"seed {result['seed']}"
    )
    print(f"| level | bot | {against} | 95% | games | offered |")
    print("|---|---|---|---|---|---|")
    for row in result["measured"]:
        bot = row["bot"]
        offered = "yes" if row["name"] in result["offered"] else "no"
        print(
            f"| {row['name']} | {bot} | {row['wins']:.1%} | {row['low']:.1%}-{row['high']:.1%} "
            f"| {row['games']:,} | {offered} |"
        )


def run_levels(
    game_name: str,
    easy_slips: int,
    hard: str | None,
    expert: str | None,
    games: int,
    workers: int,
    seed: int | None,
    write: bool,
    as_json: bool,
) -> dict[str, Any]:
    candidates = [Candidate("easy", f"{NORMAL}:slip{easy_slips}")]
    if hard:
        candidates.append(Candidate("hard", hard))
    if expert:
        candidates.append(Candidate("expert", expert))
    result = measure(game_name, candidates, games, workers, seed)
    if write:
        result["written"] = str(write_levels(get_game(game_name), result))
    if as_json:
        print(json.dumps(result))
    else:
        print_levels(result)
        if write:
            print(f"written: {result['written']}")
    return result
