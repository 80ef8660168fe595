"""`tavernkeep ladder`: how much skill matters in a game, and how much luck.

A skill ladder climbs from the random bot to the heuristic bot, then to the search bot
(`bot:mcts:N`) at doubling budgets, each rung played against the one below, and stops at
the first rung that does not win clearly more than its share. Its height (the rungs), the
top rung's win rate against the random bot, the first seat's advantage and the share of
outcomes luck decides are what a designer of a dice game asks, and what this answers.

How a rung is played against the one below:
- competitive: the upper rung takes one seat and the lower rung every other one; the upper
  seat moves round the table, every rotation dealt from the same seeds, so no seat is
  favoured. Its win rate (a shared victory counts 1/k) against its fair share 1/players.
- co-operative and solo: each rung plays the whole team on the same seeds, and the seeds
  only one of the two teams won decide: the upper rung's share of them against one half
  (a sign test). A team's outcomes are kept, so a rung plays its seeds once however many
  duels it is in.

A duel stops as soon as it can tell: it is looked at after each quarter of its games, and
"clearly" means Pocock's boundary for four looks (z = 2.361), so stopping early makes a
clear verdict no easier than one 95% test at the end would. It also stops, not clearly
stronger, at the half-way or three-quarter look if the upper rung is not ahead at all
(at or below its share):
a rung no better than the one below is the ladder's usual end, and its duel, every seat a
search at the highest budget yet, is the dearest of the climb. That rule can only end a
duel without a clear verdict, so it never makes "clearly" easier; it costs a little power
(a rung just ahead may be caught behind half-way). The intervals shown are the plain 95%
ones.

What it prints is one figure per match-up, and no rung it has not shown. A duel that ends
without a clear result is "not told apart" (its games, its interval and why it ended),
never a rung, nor "not clearly [stronger]", which reads as a weaker verdict than it is.
The top rung's match-up against random bots is played to every game, for the luck share;
where the top rung is the heuristic bot, that match-up is also the table's first row, so
the row shows all those games (with the verdict where it was reached, `decided_at`) and
the line under the table the same figure: not an early look's 75.0% in the table and the
whole duel's 63.3% under it.

Luck: in the table of the top rung against random bots, how often the random side wins
(`upset`). Read through the simplest model that explains it, in which a share L of games
is decided by chance alone (any seat as likely as another) and the rest by skill (the
stronger side wins), the random seats win L x (players - 1) / players of games, so
L = upset / ((players - 1) / players): 0 when skill decides every game, 1 when the
random bots win as often as chance alone gives them. In a co-operative or solo game, L is
the random team's win rate over the top team's: the share of the strongest team's wins
that a team playing at random also gets.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tavernkeep import build
from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.game import Game
from tavernkeep.engine.rng import random_seed
from tavernkeep.games import get_game
from tavernkeep.lab.simulate import (
    Batch,
    MemoryRows,
    check_batches,
    progress_bar,
    simulate_many,
)
from tavernkeep.lab.stats import wilson_interval

RANDOM = "bot:random"
HEURISTIC = "bot:heuristic"
LOOKS = 4
POCOCK = 2.361
"""Pocock's constant boundary for four equally spaced looks at a two-sided 5% level."""
FUTILE_LOOKS = (1, 2)
"""The looks (from 0) at which a rung not ahead at all ends its duel: from half the games
on, since a quarter is too few to call a rung that is ahead by a few points behind."""


@dataclass(frozen=True)
class Duel:
    """A rung against the one below it."""

    upper: str
    lower: str
    games: int
    """Games played (competitive) or seeds played by both teams (co-operative, solo)."""
    wins: float
    """The upper rung's wins (competitive) or seeds only it won (co-operative, solo)."""
    trials: int
    """What `wins` is out of: games, or seeds only one of the two teams won."""
    fair: float
    clear: bool
    lower_wins: float = 0.0
    """Competitive: the lower rung's seats' wins together (a game may have no winner)."""
    team: bool = False
    """Co-operative or solo: the duel counts seeds, each team playing every one."""
    stopped: str = "all games"
    """Why the duel ended: "clear" (told apart: the upper rung is stronger), "not ahead"
    (cut short at a look where it was not ahead of its share) or "all games"."""
    decided_at: int | None = None
    """Where the verdict was reached, when the games shown go on past it: the top rung's
    duel against random is played to every game, for its one figure (see `climb`)."""

    @property
    def verdict(self) -> str:
        # Not "not clearly [stronger]": a duel without a clear result does not say the
        # upper rung is weaker, only that these games could not tell the two apart.
        return "clearly stronger" if self.clear else "not told apart"

    def to_json(self) -> dict[str, Any]:
        lo, hi = wilson_interval(self.wins, self.trials)
        return {
            "upper": self.upper,
            "lower": self.lower,
            "games": self.games,
            "trials": self.trials,
            "rate": self.wins / self.trials if self.trials else None,
            "ci95": [lo, hi],
            "fair": self.fair,
            "clear": self.clear,
            "verdict": self.verdict,
            "stopped": self.stopped,
            "decided_at": self.decided_at,
        }


class Rows(MemoryRows):
    """A duel's rows, kept in memory in block order (a `RowSink` for `simulate_many`)."""

    def won(self) -> list[bool]:
        return [bool(w) for n in sorted(self.blocks) for w in self.blocks[n]["won"].to_pylist()]


def look_ends(clear: bool, look: int, not_ahead: bool) -> str | None:
    """Whether a duel ends at this look, and why: "clear" (told apart), "not ahead" (from
    half-way on, see FUTILE_LOOKS), or None to play on."""
    if clear:
        return "clear"
    if look in FUTILE_LOOKS and not_ahead:
        return "not ahead"
    return None


@dataclass
class Table:
    """One player count's ladder: the batches it plays and the teams' outcomes it keeps."""

    game: Game[Any, Any]
    players: int
    options: dict[str, Any]
    pack: str | None
    seed: int
    games: int
    workers: int
    progress: Any

    def __post_init__(self) -> None:
        self.teams: dict[str, list[bool]] = {}
        self.competitive = self.game.kind == "competitive"

    def batch(self, seats: tuple[str, ...]) -> Batch:
        return Batch(self.game.name, seats, self.options, self.pack, self.seed)

    def rotations(self, upper: str, lower: str) -> list[Batch]:
        """The upper rung in each seat in turn, the lower rung in the others."""
        out = []
        for seat in range(self.players):
            seats = [lower] * self.players
            seats[seat] = upper
            out.append(self.batch(tuple(seats)))
        return out

    def team(self, spec: str, games: int, task: Any) -> list[bool]:
        """Whether `spec`'s team won each of the first `games` seeds, playing only those
        it has not played yet."""
        known = self.teams.setdefault(spec, [])
        if len(known) < games:
            rows = Rows()
            simulate_many(
                [self.batch((spec,) * self.players)],
                games - len(known),
                self.workers,
                lambda k: self.progress.advance(task, k),
                rows,
                first=len(known),
            )
            known.extend(rows.won())
        return known[:games]

    def duel(self, upper: str, lower: str, early: bool = True) -> Duel:
        """The upper rung against the lower, a quarter of the games at a time, stopping
        (when `early`) at the first look that tells."""
        task = self.progress.add_task(
            f"{self.game.name}, {self.players} players: {upper} against {lower}",
            total=self.games * (1 if self.competitive else 2),
        )
        looks = LOOKS if early else 1
        if self.competitive:
            per_look = max(1, self.games // (looks * self.players))
            batches = self.rotations(upper, lower)
            wins = Fraction(0)
            lower_wins = Fraction(0)
            played = 0
            stopped = "all games"
            for look in range(looks):
                tallies = simulate_many(
                    batches,
                    per_look,
                    self.workers,
                    lambda k: self.progress.advance(task, k),
                    first=look * per_look,
                )
                wins += sum((t.wins[seat] for seat, t in enumerate(tallies)), Fraction(0))
                lower_wins += sum((sum(t.wins) for t in tallies), Fraction(0))
                played += per_look * self.players
                fair = 1 / self.players
                lo, _ = wilson_interval(float(wins), played, POCOCK)
                ended = look_ends(lo > fair, look, wins <= fair * played)
                if ended:
                    stopped = ended
                    break
            self.progress.remove_task(task)
            lower_wins -= wins
            return Duel(
                upper,
                lower,
                played,
                float(wins),
                played,
                fair,
                lo > fair,
                float(lower_wins),
                stopped=stopped,
            )
        seeds = 0
        stopped = "all games"
        for look in range(looks):
            seeds = self.games * (look + 1) // looks
            mine = self.team(upper, seeds, task)
            theirs = self.team(lower, seeds, task)
            only_mine = sum(1 for a, b in zip(mine, theirs, strict=True) if a and not b)
            split = sum(1 for a, b in zip(mine, theirs, strict=True) if a != b)
            lo, _ = wilson_interval(only_mine, split, POCOCK)
            ended = look_ends(bool(split) and lo > 0.5, look, only_mine <= split / 2)
            if ended:
                stopped = ended
                break
        self.progress.remove_task(task)
        clear = bool(split) and lo > 0.5
        return Duel(upper, lower, seeds, only_mine, split, 0.5, clear, team=True, stopped=stopped)

    def first_seat(self, games: int) -> dict[str, Any] | None:
        """The first seat's win rate at a table of heuristic bots, against its fair share."""
        if not self.competitive or games <= 0:
            return None
        task = self.progress.add_task(
            f"{self.game.name}, {self.players} players: the first seat", total=games
        )
        (tally,) = simulate_many(
            [self.batch((HEURISTIC,) * self.players)],
            games,
            self.workers,
            lambda k: self.progress.advance(task, k),
        )
        self.progress.remove_task(task)
        lo, hi = wilson_interval(float(tally.wins[0]), games)
        return {
            "agent": HEURISTIC,
            "games": games,
            "rate": float(tally.wins[0]) / games,
            "ci95": [lo, hi],
            "fair": 1 / self.players,
        }

    def against_random(self, top: str) -> tuple[Duel, dict[str, Any], dict[str, Any]]:
        """The top rung against random bots, played to every game (no verdict hangs on
        it, and luck is read from it): the duel, the top side's figures and what luck
        gives the random side."""
        if self.competitive:
            duel = self.duel(top, RANDOM, early=False)
            lo, hi = wilson_interval(duel.wins, duel.trials)
            top_side = {
                "games": duel.games,
                "rate": duel.wins / duel.trials,
                "ci95": [lo, hi],
                "fair": duel.fair,
            }
            chance = (self.players - 1) / self.players
            upset = duel.lower_wins / duel.games
            u_lo, u_hi = wilson_interval(duel.lower_wins, duel.games)
            luck = {
                "upset": upset,
                "upset_ci95": [u_lo, u_hi],
                "share": min(1.0, upset / chance),
                "share_ci95": [min(1.0, u_lo / chance), min(1.0, u_hi / chance)],
            }
            return duel, top_side, luck
        task = self.progress.add_task(
            f"{self.game.name}, {self.players} players: {top} and {RANDOM}",
            total=2 * self.games,
        )
        mine = self.team(top, self.games, task)
        theirs = self.team(RANDOM, self.games, task)
        self.progress.remove_task(task)
        n = self.games
        top_lo, top_hi = wilson_interval(sum(mine), n)
        rnd_lo, rnd_hi = wilson_interval(sum(theirs), n)
        upsets = sum(1 for a, b in zip(mine, theirs, strict=True) if b and not a)
        up_lo, up_hi = wilson_interval(upsets, n)
        top_rate, random_rate = sum(mine) / n, sum(theirs) / n
        # The match-up's figure, as a duel counts it: of the seeds only one team won, the
        # top team's share (the teams' own win rates below feed the luck share).
        only_mine = sum(1 for a, b in zip(mine, theirs, strict=True) if a and not b)
        split = sum(1 for a, b in zip(mine, theirs, strict=True) if a != b)
        lo, _ = wilson_interval(only_mine, split, POCOCK)
        duel = Duel(top, RANDOM, n, only_mine, split, 0.5, bool(split) and lo > 0.5, team=True)
        top_side = {
            "games": n,
            "rate": top_rate,
            "ci95": [top_lo, top_hi],
            "random_rate": random_rate,
            "random_ci95": [rnd_lo, rnd_hi],
        }

        def ratio(a: float, b: float) -> float:
            return min(1.0, a / b) if b > 0 else 1.0

        luck = {
            "upset": upsets / n,
            "upset_ci95": [up_lo, up_hi],
            "share": ratio(random_rate, top_rate),
            "share_ci95": [ratio(rnd_lo, top_hi), ratio(rnd_hi, top_lo)],
        }
        return duel, top_side, luck


def rungs_above(start: int, top: int) -> list[str]:
    """The ladder's rungs from the heuristic up: the search at start, 2 x start, ... top."""
    specs = [HEURISTIC]
    budget = start
    while budget <= top:
        specs.append(f"bot:mcts:{budget}")
        budget *= 2
    return specs


def climb(table: Table, start: int, top: int, seat_games: int) -> dict[str, Any]:
    """One player count's ladder, top rung against random, first seat and luck."""
    steps: list[Duel] = []
    below = RANDOM
    for spec in rungs_above(start, top):
        duel = table.duel(spec, below)
        steps.append(duel)
        if not duel.clear:
            break
        below = spec
    rungs = 1 + sum(1 for d in steps if d.clear)
    top_side: dict[str, Any] | None = None
    luck: dict[str, Any] | None = None
    if below != RANDOM:
        full, top_side, luck = table.against_random(below)
        if below == steps[0].upper:
            # The top rung is the first (the heuristic): its duel against random is the
            # table's first row, on the first of the same seeds. One match-up, one
            # figure: the row shows every game the two played, with the verdict as it
            # was reached (decided_at), and the line under the table the same.
            first = steps[0]
            full = dataclasses.replace(
                full,
                clear=first.clear,
                stopped=first.stopped,
                decided_at=first.games if first.games < full.games else None,
            )
            steps[0] = full
        top_side["duel"] = full.to_json()
    return {
        "players": table.players,
        "steps": [d.to_json() for d in steps],
        "rungs": rungs,
        "top": below,
        # Every rung up to the highest budget asked for was clearly stronger: the ladder
        # may go on above it.
        "ceiling": bool(steps) and steps[-1].clear,
        "top_vs_random": top_side,
        "first_seat": table.first_seat(seat_games),
        "luck": luck,
    }


def run_ladder(
    game_name: str,
    players: list[int] | None,
    games: int,
    start: int,
    top: int,
    seat_games: int,
    workers: int,
    seed: int | None,
    options: dict[str, Any],
    pack: str | None,
    as_json: bool,
) -> dict[str, Any]:
    game = get_game(game_name)
    if top < start:
        raise ConfigError(f"ladder: --top {top} is below --start {start}")
    counts = players or [int(getattr(game.make_config({}), "players", game.min_players))]
    batch_seed = random_seed() if seed is None else seed
    # Every table and bot checked before a game is played.
    check_batches(
        [
            Batch(game.name, (spec,) * count, options, pack, batch_seed)
            for count in counts
            for spec in (RANDOM, *rungs_above(start, top))
        ]
    )
    started = time.perf_counter()
    tables = []
    with progress_bar() as progress:
        for count in counts:
            table = Table(game, count, options, pack, batch_seed, games, workers, progress)
            tables.append(climb(table, start, top, seat_games))
    result = {
        "lab": "ladder",
        "game": game.name,
        "kind": game.kind,
        "seed": batch_seed,
        "games": games,
        "start": start,
        "top": top,
        "workers": workers,
        "build": build(),
        "tables": tables,
        "elapsed_seconds": round(time.perf_counter() - started, 3),
    }
    if as_json:
        print(json.dumps(result))
    else:
        print_ladder(result)
    return result


def pct(x: float | None) -> str:
    """A rate as the ladder's table prints it; a rate with no games is a dash."""
    return "-" if x is None else f"{100 * x:.1f}%"


def interval(pair: list[float] | None) -> str:
    return "-" if pair is None else f"{pct(pair[0])} - {pct(pair[1])}"


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def print_ladder(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape

    from tavernkeep.terminal.tables import Column, fitted

    console = Console()
    team = result["kind"] != "competitive"
    unit = "seed" if team else "game"
    for t in result["tables"]:
        steps = t["steps"]
        rungs = [RANDOM, *(s["upper"] for s in steps if s["clear"])]
        console.print(
            f"[bold]{escape(result['game'])}, {plural(t['players'], 'player')}[/bold]: "
            f"{plural(t['rungs'], 'rung')} ({escape(', '.join(rungs))}), "
            f"top {escape(t['top'])}" + (" (still climbing at --top)" if t["ceiling"] else "")
        )
        rows = [
            [
                escape(s["upper"]),
                escape(s["lower"]),
                f"{s['games']:,}",
                pct(s["rate"]),
                # No game went otherwise: no rate, and no interval to pretend one.
                interval(s["ci95"] if s["rate"] is not None else None),
                pct(s["fair"]),
                # Not "not clearly": an unclear duel says nothing of which is stronger.
                s["verdict"],
            ]
            for s in steps
        ]
        columns = [
            Column("bot"),
            Column("against"),
            Column("seeds" if team else "games", right=True),
            Column("of the seeds only\none team won" if team else "win rate", right=True),
            Column("95% interval", right=True),
            Column("fair", right=True),
            Column("verdict"),
        ]
        console.print(fitted(columns, rows, console.width))
        last = steps[-1]
        if not last["clear"]:
            # The duel that ends the climb is no rung: say what it showed and why it
            # stopped, so a duel cut short at 24 games is not read as a finding.
            shown = (
                ""
                if last["rate"] is None
                else f"{pct(last['rate'])} ({interval(last['ci95'])}) against a fair "
                f"{pct(last['fair'])}; "
            )
            console.print(
                f"{escape(last['upper'])} is not told apart from {escape(last['lower'])}: "
                f"{shown}{escape(duel_ended(last, team))}"
            )
        top = t["top_vs_random"]
        if top is not None:
            duel = top["duel"]
            if team:
                figure = (
                    f"'s team won {pct(duel['rate'])} ({interval(duel['ci95'])}) of the "
                    f"{duel['trials']:,} seeds only one team won (of {duel['games']:,}), "
                    "against an even split"
                )
            else:
                figure = (
                    f" wins {pct(duel['rate'])} ({interval(duel['ci95'])}) of "
                    f"{duel['games']:,} games against a fair {pct(duel['fair'])}"
                )
            row = ""
            if duel["upper"] == steps[0]["upper"]:
                decided = steps[0].get("decided_at")
                row = " (the table's first row" + (
                    f": clear after {plural(decided, unit)}, played on to all for this figure)"
                    if decided
                    else ")"
                )
            console.print(f"top rung against random: {escape(duel['upper'])}{figure}{row}")
        luck = t["luck"]
        if luck is not None and top is not None:
            if team:
                won = (
                    f"bot:random's team wins {pct(top['random_rate'])} "
                    f"({interval(top['random_ci95'])}) of the {top['games']:,} seeds, the "
                    f"top rung's team {pct(top['rate'])} ({interval(top['ci95'])})"
                )
            else:
                won = (
                    f"the bot:random seats win {pct(luck['upset'])} "
                    f"({interval(luck['upset_ci95'])}) of the {top['games']:,} games against "
                    f"the top rung"
                )
            console.print(
                f"luck decides about {pct(luck['share'])} of outcomes "
                f"({interval(luck['share_ci95'])}): {won}"
            )
        seat = t["first_seat"]
        if seat is not None:
            console.print(
                f"first seat ({escape(seat['agent'])} at every seat): wins {pct(seat['rate'])} "
                f"({interval(seat['ci95'])}) of {seat['games']:,} games against a fair "
                f"{pct(seat['fair'])}"
            )
    console.print(f"seed {result['seed']}, {result['elapsed_seconds']:.1f} s")


def duel_ended(step: dict[str, Any], team: bool) -> str:
    """How an unclear duel ended, from its JSON: nothing to count, cut short (the
    `FUTILE_LOOKS` rule) or every game played."""
    unit = "seed" if team else "game"
    games = int(step["games"])
    if step["rate"] is None:
        return f"the two teams won and lost the same seeds, all {games:,} of them"
    if step.get("stopped") == "not ahead":
        share = "an even split" if team else "its share"
        return f"cut short after {plural(games, unit)}, not ahead of {share}"
    return f"all {plural(games, unit)} played"
