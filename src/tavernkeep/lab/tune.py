"""`tavernkeep tune`: search a pack's numbers for the values that best meet balance
targets, and say what to change.

A designer names the numbers that may move (`--param`, the paths `sweep` takes, each
with a range `1..50` or a set of values `2,4,6`) and what balance means (`--target`):
every seat's win rate near its fair share, each label's win rate (a Party Leader, a
quest held) near the others', a game length, a co-operative table's win rate. Each
candidate, a value for every param, is played on the same seeds as every other one
(common random numbers: a difference between candidates is the change's, not the
dice's) and scored by its distance from each target in units of that target's
tolerance, squared and summed, plus, with `--least-change`, how far it moved the pack.

The search is Optuna's TPE sampler (README: why Optuna). Several independent runs
(`--runs`, each its own sampler seed) keep one run's luck from deciding; then the best
candidate of each run is played again on fresh seeds that no trial saw (`--holdout`
games), and those are the figures printed, with 95% intervals: a candidate picked as the
best of many on the same seeds flatters itself on those seeds. Each run's trials live in
an SQLite file in the output folder, so an interrupted tune, run again as it was, picks
up where it stopped. For each run's best it writes the changes as a TOML patch and the
whole pack with them, ready for `--pack`: the pack's own file with only the changed
numbers edited in its text (tomlkit keeps its comments and layout), so a designer's diff
of the two shows the change and nothing else.

What it prints is meant to be acted on: each target in the words a designer gives it
("every seat within 2 points of its fair share"), each candidate's changes (the params it
left at the pack's own value on one line apart), every rate with its 95% interval, and,
for a target missed, which one and by how much ("seat 3 (bot:heuristic) is 6.1 points
under its fair share"), not only that one was.
"""

from __future__ import annotations

import copy
import json
import math
import time
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavernkeep import build
from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.game import Game
from tavernkeep.engine.rng import derive_seed, random_seed
from tavernkeep.games import get_game
from tavernkeep.lab.simulate import Batch, check_batches, progress_bar, simulate, summarize
from tavernkeep.lab.stats import TOLERANCE, Z95, points, tolerance_points
from tavernkeep.lab.sweep import (
    LISTING,
    RANGE,
    Step,
    default_seats,
    get_number,
    listing,
    load_raw,
    locate,
    pack_file_text,
    parse_path,
    set_number,
)

TURNS_TOLERANCE = 0.1
"""A game length's tolerance when none is given: a tenth of the length asked for."""


@dataclass(frozen=True)
class Param:
    """A number the search may move: where it is in the pack, and what it may be."""

    text: str
    path: tuple[Step, ...]
    low: float
    high: float
    integer: bool
    choices: tuple[float, ...] | None
    start: float | None
    """The pack's own value (None: the field is left at its default)."""

    def span(self) -> float:
        return max(self.high - self.low, 1e-9)

    def suggest(self, trial: Any) -> float:
        if self.choices is not None:
            return float(trial.suggest_categorical(self.text, list(self.choices)))
        if self.integer:
            return float(trial.suggest_int(self.text, int(self.low), int(self.high)))
        return float(trial.suggest_float(self.text, self.low, self.high))

    def shown(self, value: float) -> int | float:
        return int(value) if self.integer or value == int(value) else value


def parse_param(text: str, raw: dict[str, Any], listed: str = LISTING) -> Param:
    """`quest[Rats in the Cellar].reward=1..20` (integers, or decimals if either bound
    has a point) or `brag.goal=3,4,5`: one clear error for anything else. The path is
    sweep's (an array of one number named without [#1]); a name not in the pack is an
    error with the closest there is and `listed`, the command that lists them all."""
    path_text, sep, values = text.rpartition("=")
    path_text = path_text.strip()
    if not sep or not path_text or not values.strip():
        raise ConfigError(
            f"--param '{text}': expected PATH=LOW..HIGH or PATH=v1,v2,... "
            "e.g. quest[Rats in the Cellar].reward=1..20"
        )
    path = tuple(parse_path(path_text))
    start = get_number(raw, list(path), path_text, listed)
    found = RANGE.match(values)
    if found:
        low_text, high_text = found.groups()
        low, high = float(low_text), float(high_text)
        if low >= high:
            raise ConfigError(f"--param {path_text}: the range {values.strip()} is empty")
        integer = "." not in low_text and "." not in high_text
        return Param(path_text, path, low, high, integer, None, start)
    try:
        choices = tuple(float(v) for v in values.split(","))
    except ValueError:
        raise ConfigError(
            f"--param {path_text}: '{values.strip()}' is neither LOW..HIGH nor numbers "
            "separated by commas"
        ) from None
    if len(set(choices)) < 2:
        raise ConfigError(f"--param {path_text}: give two values or more to choose from")
    integer = all(c == int(c) for c in choices)
    return Param(path_text, path, min(choices), max(choices), integer, choices, start)


@dataclass(frozen=True)
class Target:
    """What balance means, and how near is near enough."""

    kind: str
    """fair: every seat's win rate at its fair share; label: a seat label's win rates
    (every Party Leader, say) at one another's; turns: a mean game length; team: a
    co-operative or solo table's win rate."""
    tolerance: float
    goal: float = 0.0
    fact: str = ""

    def gap(self, summary: dict[str, Any]) -> float:
        """How far a candidate's figures stand from this target (0: on it)."""
        if self.kind == "fair":
            fair = float(summary["fair_share"])
            return max(abs(float(s["win_rate"]) - fair) for s in summary["seats"])
        if self.kind == "label":
            rates = [float(r["win_rate"]) for r in summary["groups"][self.fact]["rows"]]
            # Within the tolerance of one another: the best and the worst label's gap.
            return max(rates) - min(rates) if len(rates) > 1 else 0.0
        if self.kind == "turns":
            return abs(float(summary["mean_turns"]) - self.goal)
        return abs(float(summary["team"]["win_rate"]) - self.goal)

    def words(self) -> str:
        """The target as a designer says it: a win rate's tolerance in points, as
        `--tolerance` and the report give theirs."""
        if self.kind == "fair":
            return f"every seat within {points(self.tolerance)} of its fair share"
        if self.kind == "label":
            return (
                f"every {self.fact} label's win rate within {points(self.tolerance)} "
                "of each other's"
            )
        if self.kind == "turns":
            return f"a mean game of {self.goal:g} turns, within {self.tolerance:g} turns"
        return f"the table wins {percent(self.goal)} of games, within {points(self.tolerance)}"

    def miss(self, summary: dict[str, Any]) -> str | None:
        """None when the figures meet this target; else who misses it and by how much,
        so the designer knows what to look at, not only that something is off."""
        if self.gap(summary) <= self.tolerance:
            return None
        if self.kind == "fair":
            fair = float(summary["fair_share"])
            worst, seat = max(
                enumerate(summary["seats"]), key=lambda s: abs(float(s[1]["win_rate"]) - fair)
            )
            rate = float(seat["win_rate"])
            side = "over" if rate > fair else "under"
            return (
                f"seat {worst + 1} ({seat['agent']}) is {abs(rate - fair) * 100:.1f} points "
                f"{side} its fair share ({rate:.1%} against {fair:.1%})"
            )
        if self.kind == "label":
            rows = sorted(summary["groups"][self.fact]["rows"], key=lambda r: -float(r["win_rate"]))
            best, worst = rows[0], rows[-1]
            return (
                f"{best['label']} wins {float(best['win_rate']):.1%} and {worst['label']} "
                f"{float(worst['win_rate']):.1%}: {self.gap(summary) * 100:.1f} points apart"
            )
        if self.kind == "turns":
            mean = float(summary["mean_turns"])
            side = "over" if mean > self.goal else "short of"
            return (
                f"the mean game is {mean:.1f} turns, {abs(mean - self.goal):.1f} "
                f"{side} {self.goal:g}"
            )
        rate = float(summary["team"]["win_rate"])
        side = "over" if rate > self.goal else "under"
        return (
            f"the table wins {rate:.1%}, {abs(rate - self.goal) * 100:.1f} points "
            f"{side} {percent(self.goal)}"
        )


def percent(rate: float) -> str:
    """A goal as given: 0.5 is "50%", 0.455 "45.5%" (not rounded to a goal not asked)."""
    return f"{round(rate * 100, 6):g}%"


def parse_target(text: str, game: Game[Any, Any]) -> Target:
    """`fair`, `fair:3`, `label:leader`, `label:leader:2`, `turns=40`, `turns=40:4`,
    `team=0.5`, `team=0.5:3`: a win rate's tolerance in points as people say them (3 is
    3 points, as `--tolerance` everywhere), a game length's in turns."""
    word = text.strip()

    def tolerance(raw: str, kind: str) -> float:
        try:
            value = float(raw)
        except ValueError:
            raise ConfigError(f"--target {word}: the tolerance '{raw}' is not a number") from None
        if value <= 0:
            raise ConfigError(f"--target {word}: the tolerance must be above 0")
        if kind == "turns":
            return value
        return tolerance_points(value, f"--target {word}")

    if word.startswith("turns=") or word.startswith("team="):
        kind, _, rest = word.partition("=")
        goal_text, _, tol_text = rest.partition(":")
        try:
            goal = float(goal_text)
        except ValueError:
            raise ConfigError(f"--target {word}: '{goal_text}' is not a number") from None
        if kind == "team":
            if game.kind == "competitive":
                raise ConfigError(f"--target {word}: {game.name} is competitive; use fair or label")
            if not 0 <= goal <= 1:
                raise ConfigError(f"--target {word}: a win rate is between 0 and 1")
            tol = tolerance(tol_text, kind) if tol_text else TOLERANCE
        else:
            if goal <= 0:
                raise ConfigError(f"--target {word}: a game lasts more than 0 turns")
            tol = tolerance(tol_text, kind) if tol_text else TURNS_TOLERANCE * goal
        return Target(kind, tol, goal)
    kind, _, rest = word.partition(":")
    if kind == "fair":
        if game.kind != "competitive":
            raise ConfigError(f"--target fair: {game.name} is not competitive; use team=P")
        tol = tolerance(rest, kind) if rest else TOLERANCE
        return Target("fair", tol)
    if kind == "label":
        fact, _, tol_text = rest.partition(":")
        if fact not in game.seat_facts:
            known = ", ".join(game.seat_facts) or "none in this game"
            raise ConfigError(f"--target {word}: no seat label '{fact}' (labels: {known})")
        tol = tolerance(tol_text, kind) if tol_text else TOLERANCE
        return Target("label", tol, fact=fact)
    raise ConfigError(
        f"--target '{word}': expected fair[:TOL], label:NAME[:TOL], turns=N[:TOL] or team=P[:TOL]"
    )


@dataclass
class Tuning:
    """One tune's setting: the game, its table, the pack and what may move."""

    game: Game[Any, Any]
    seats: tuple[str, ...]
    options: dict[str, Any]
    pack_name: str
    raw: dict[str, Any]
    text: str
    """The pack file's own text, comments and all: the whole pack written is this, edited."""
    params: list[Param]
    targets: list[Target]
    least_change: float
    workers: int
    ray: str | None = None

    def pack_with(self, values: dict[str, float]) -> tuple[dict[str, Any], Any]:
        raw = copy.deepcopy(self.raw)
        for param in self.params:
            set_number(raw, list(param.path), param.shown(values[param.text]), param.text)
        changes = ", ".join(f"{p.text}={p.shown(values[p.text])}" for p in self.params)
        return raw, load_raw(self.game, raw, f"{self.pack_name} with {changes}")

    def changed(self, values: dict[str, float]) -> list[Param]:
        """The params a candidate moves off the pack's own value (a field the pack
        leaves at its default counts as moved: its default is the game's, not the
        file's, and the candidate writes it)."""
        return [
            p for p in self.params if p.start is None or p.shown(values[p.text]) != p.shown(p.start)
        ]

    def pack_file_with(self, values: dict[str, float]) -> str:
        """The whole pack as a file: the pack's own text with only the changed numbers
        edited, through tomlkit, whose document is the dicts and lists `set_number`
        walks and which writes back every comment, blank line and inline table as it
        was (tomli_w, from raw data, would drop the comments that explain the numbers)."""
        import tomlkit

        doc = tomlkit.parse(self.text)
        for param in self.changed(values):
            value: float = param.shown(values[param.text])
            node, key = locate(doc, list(param.path), param.text)
            old = node[key] if isinstance(key, int) else node.get(key)
            if isinstance(old, float):
                # A decimal field stays one (`0.5` tuned to 1 reads `1.0`), as a
                # designer wrote it.
                value = float(value)
            set_number(doc, list(param.path), value, param.text)
        return tomlkit.dumps(doc)

    def play(self, values: dict[str, float], seed: int, games: int) -> dict[str, Any]:
        """A candidate's summary (`simulate --json`'s figures) over `games` games."""
        _, pack = self.pack_with(values)
        return self.summary(
            Batch(self.game.name, self.seats, self.options, None, seed, pack), games
        )

    def summary(self, batch: Batch, games: int) -> dict[str, Any]:
        """`simulate --json`'s figures, and the mean game length's 95% interval (a turns
        target's figure deserves its interval as much as a win rate does)."""
        tally = simulate(batch, games, self.workers, ray=self.ray)
        summary = summarize(batch, tally, self.workers, 0.0)
        summary["mean_turns_ci95"] = mean_interval(tally.lengths)
        return summary

    def change(self, values: dict[str, float]) -> float:
        """How far the candidate moved the pack: each param's move over its range."""
        total = 0.0
        for param in self.params:
            start = param.start if param.start is not None else param.low
            total += abs(values[param.text] - start) / param.span()
        return total

    def score(self, values: dict[str, float], summary: dict[str, Any]) -> float:
        """Each target's gap in units of its tolerance, squared and summed, plus the
        moves from the pack with `--least-change`: lower is better."""
        misses = sum((t.gap(summary) / t.tolerance) ** 2 for t in self.targets)
        return misses + self.least_change * self.change(values)

    def meets(self, summary: dict[str, Any]) -> bool:
        return all(t.miss(summary) is None for t in self.targets)

    def misses(self, summary: dict[str, Any]) -> list[dict[str, str]]:
        """Each target missed, in its words, and who misses it by how much."""
        return [
            {"target": t.words(), "said": said}
            for t in self.targets
            if (said := t.miss(summary)) is not None
        ]


def mean_interval(lengths: Counter[int]) -> list[float]:
    """The 95% interval of a mean game length from the games' lengths (the normal
    approximation: a mean over thousands of games is as near normal as it needs)."""
    games = sum(lengths.values())
    mean = sum(t * c for t, c in lengths.items()) / games
    if games < 2:
        return [mean, mean]
    variance = sum(c * (t - mean) ** 2 for t, c in lengths.items()) / (games - 1)
    half = Z95 * math.sqrt(variance / games)
    return [mean - half, mean + half]


def run_tune(
    game_name: str,
    params: list[str],
    targets: list[str],
    seats: list[str] | None,
    trials: int,
    games: int,
    runs: int,
    holdout: int,
    workers: int,
    seed: int | None,
    options: dict[str, Any],
    pack: str | None,
    least_change: float,
    out: Path,
    as_json: bool,
    ray: str | None = None,
) -> dict[str, Any]:
    import optuna

    game = get_game(game_name)
    if not params:
        raise ConfigError("tune needs at least one --param, e.g. quest[Name].reward=1..20")
    if not targets:
        raise ConfigError("tune needs at least one --target, e.g. fair or turns=30")
    # One read of the file: its data to search, its text to write the best packs from.
    pack_name, file_text = pack_file_text(game, pack)
    raw = tomllib.loads(file_text)
    parsed = [parse_param(text, raw, listing(game.name, pack)) for text in params]
    names = [p.text for p in parsed]
    if len(set(names)) != len(names):
        raise ConfigError("--param: a number is named twice")
    wanted = [parse_target(text, game) for text in targets]
    table = tuple(seats or default_seats(game))
    batch_seed = random_seed() if seed is None else seed
    tuning = Tuning(
        game,
        table,
        options,
        pack_name,
        raw,
        file_text,
        parsed,
        wanted,
        least_change,
        workers,
        ray,
    )
    # Every candidate's values are checked the way a pack is (the range's ends), and the
    # seats and options as simulate checks them: a mistake is one error now, before the
    # folder holds anything, not a failed trial later.
    for end in ("low", "high"):
        _, loaded = tuning.pack_with({p.text: getattr(p, end) for p in parsed})
        check_batches([Batch(game.name, table, options, None, batch_seed, loaded)])
    out.mkdir(parents=True, exist_ok=True)
    storage = f"sqlite:///{(out / 'tune.db').resolve()}"
    if seed is None and (out / "tune.db").exists():
        # Run again without --seed: the search in the folder goes on with its own seed.
        for held in optuna.get_all_study_summaries(storage):
            known = held.user_attrs.get("setting")
            if known:
                batch_seed = int(json.loads(known)["seed"])
                break
    setting = json.dumps(
        {
            "game": game.name,
            "params": params,
            "targets": targets,
            "seats": table,
            "options": options,
            "pack": pack_name,
            "games": games,
            "seed": batch_seed,
            "least_change": least_change,
        },
        sort_keys=True,
    )
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    started = time.perf_counter()
    bests: list[tuple[int, dict[str, float], float]] = []
    played_now = 0
    with progress_bar() as progress:
        task = progress.add_task(f"{game.name}: tuning", total=trials * runs)
        for run in range(runs):
            study = optuna.create_study(
                study_name=f"run-{run + 1}",
                storage=storage,
                load_if_exists=True,
                direction="minimize",
                sampler=optuna.samplers.TPESampler(
                    seed=derive_seed(batch_seed, "tune", run) % 2**32
                ),
            )
            known = study.user_attrs.get("setting")
            if known is None:
                study.set_user_attr("setting", setting)
            elif known != setting:
                raise ConfigError(
                    f"{out}: holds a tune of another setting; give another --out or the "
                    "same command as before"
                )
            done = sum(1 for t in study.trials if t.state.name == "COMPLETE")
            progress.advance(task, min(done, trials))

            def objective(trial: Any) -> float:
                values = {p.text: p.suggest(trial) for p in parsed}
                return tuning.score(values, tuning.play(values, batch_seed, games))

            played_now += max(0, trials - done)
            if done < trials:
                study.optimize(
                    objective, n_trials=trials - done, callbacks=[lambda *_: progress.advance(task)]
                )
            best = study.best_trial
            assert best.value is not None  # a completed trial has its value
            bests.append(
                (run + 1, {p.text: float(best.params[p.text]) for p in parsed}, float(best.value))
            )
        # The held-out check: each run's best, and the pack as it is, on fresh seeds.
        fresh = derive_seed(batch_seed, "held-out")
        check = progress.add_task(f"{game.name}: held-out check", total=len(bests) + 1)
        base_summary = tuning.summary(Batch(game.name, table, options, pack, fresh), holdout)
        progress.advance(check)
        candidates = []
        for run, values, value in bests:
            summary = tuning.play(values, fresh, holdout)
            progress.advance(check)
            candidates.append((run, values, value, summary))
    candidates.sort(key=lambda c: tuning.score(c[1], c[3]))
    results = []
    for rank, (run, values, value, summary) in enumerate(candidates, start=1):
        raw_best, _ = tuning.pack_with(values)
        patch = out / f"best-{rank}.patch.toml"
        whole = out / f"best-{rank}.toml"
        write_patch(patch, tuning, values, summary)
        written = tuning.pack_file_with(values)
        # The file must be the pack the candidate was played with, not a near copy.
        assert tomllib.loads(written) == raw_best, f"{whole}: not the pack played"
        whole.write_text(written, encoding="utf-8")
        results.append(
            {
                "rank": rank,
                "run": run,
                "values": {p.text: p.shown(values[p.text]) for p in parsed},
                "from": {p.text: p.shown(p.start) if p.start is not None else None for p in parsed},
                # The params it moves off the pack's own value: the others it leaves be.
                "changed": [p.text for p in tuning.changed(values)],
                "search_score": value,
                "held_out": figures(tuning, summary),
                "meets_targets": tuning.meets(summary),
                "patch": str(patch),
                "pack_file": str(whole),
            }
        )
    result = {
        "lab": "tune",  # which lab answered: `report --add` reads it
        "game": game.name,
        "seats": list(table),
        "pack": pack_name,
        "params": names,
        "targets": [t.words() for t in wanted],
        "trials_per_run": trials,
        "trials_played_now": played_now,
        "runs": runs,
        "games_per_trial": games,
        "held_out_games": holdout,
        "seed": batch_seed,
        "workers": workers,
        "build": build(),
        "as_it_is": figures(tuning, base_summary),
        "best": results,
        "out": str(out),
        "elapsed_seconds": round(time.perf_counter() - started, 3),
    }
    if as_json:
        print(json.dumps(result))
    else:
        print_tune(result)
    return result


def figures(tuning: Tuning, summary: dict[str, Any]) -> dict[str, Any]:
    """What the held-out games say of a candidate against each target."""
    return {
        "seats": [
            {"agent": s["agent"], "win_rate": s["win_rate"], "ci95": s["ci95"]}
            for s in summary["seats"]
        ],
        "team": summary["team"],
        "mean_turns": summary["mean_turns"],
        "mean_turns_ci95": summary["mean_turns_ci95"],
        "labels": {
            t.fact: [
                {"label": r["label"], "win_rate": r["win_rate"], "ci95": r["ci95"]}
                for r in summary["groups"][t.fact]["rows"]
            ]
            for t in tuning.targets
            if t.kind == "label"
        },
        "gaps": {t.words(): t.gap(summary) for t in tuning.targets},
        "missed": tuning.misses(summary),
    }


def write_patch(
    path: Path, tuning: Tuning, values: dict[str, float], summary: dict[str, Any]
) -> None:
    """The changes as TOML a designer reads: each number it moves, from what to what;
    the params it leaves at the pack's own value are named apart, not as a change."""
    import tomli_w

    moved = tuning.changed(values)
    lines = {
        "tune": {
            "game": tuning.game.name,
            "pack": tuning.pack_name,
            "targets": [t.words() for t in tuning.targets],
            "held_out_meets_targets": tuning.meets(summary),
            "unchanged": [p.text for p in tuning.params if p not in moved],
        },
        "change": [
            {
                "param": p.text,
                **({"from": p.shown(p.start)} if p.start is not None else {}),
                "to": p.shown(values[p.text]),
            }
            for p in moved
        ],
    }
    path.write_text(tomli_w.dumps(lines), encoding="utf-8")


def print_tune(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape

    console = Console()
    runs, workers = result["runs"], result["workers"]
    console.print(
        f"[bold]{escape(result['game'])}[/]: {runs} run{'s' if runs != 1 else ''} of "
        f"{result['trials_per_run']} trials, {result['games_per_trial']:,} games a trial on "
        f"the same seeds; held out: {result['held_out_games']:,} fresh games a candidate; "
        f"seed {result['seed']}, {workers} worker{'s' if workers != 1 else ''}, "
        f"{result['build']} build, {result['elapsed_seconds']:.1f} s"
    )
    console.print("targets: " + "; ".join(escape(t) for t in result["targets"]))

    def rate(figure: dict[str, Any]) -> str:
        lo, hi = figure["ci95"]
        return f"{figure['win_rate']:.1%} ({lo:.1%}-{hi:.1%})"

    def held(name: str, fig: dict[str, Any]) -> None:
        """The held-out figures, every rate with its 95% interval, then each target
        missed and by whom."""
        seats = ", ".join(rate(s) for s in fig["seats"])
        lo, hi = fig["mean_turns_ci95"]
        turns = f"{fig['mean_turns']:.1f} turns ({lo:.1f}-{hi:.1f})"
        team = f"; the table wins {rate(fig['team'])}" if fig["team"] else ""
        console.print(f"{escape(name)}: seats {seats}; {turns}{team}")
        for fact, rows in fig["labels"].items():
            cells = ", ".join(f"{escape(r['label'])} {rate(r)}" for r in rows)
            console.print(f"  {escape(fact)}: {cells}")
        for missed in fig["missed"]:
            console.print(f"  missed: {escape(missed['target'])} — {escape(missed['said'])}")

    def was(best: dict[str, Any], name: str) -> str:
        start = best["from"][name]
        return "default" if start is None else str(start)

    held("the pack as it is (held-out games)", result["as_it_is"])
    targets = len(result["targets"])
    for best in result["best"]:
        missed = best["held_out"]["missed"]
        if not missed:
            verdict = "meets every target"
        elif targets == 1:
            verdict = "misses its target"
        else:
            verdict = f"misses {len(missed)} of {targets} targets"
        console.print(f"[bold]#{best['rank']}[/] (run {best['run']}): {verdict}")
        moved = best["changed"]
        if moved:
            changes = ", ".join(
                f"{escape(k)} {escape(was(best, k))} -> {best['values'][k]}" for k in moved
            )
            console.print(f"  changes: {changes}")
        else:
            console.print("  changes: none (the pack as it is was the best this run found)")
        kept = [k for k in best["values"] if k not in moved]
        if kept:
            console.print(
                "  unchanged: " + ", ".join(f"{escape(k)} ({was(best, k)})" for k in kept)
            )
        held("  held-out games", best["held_out"])
        console.print(f"  {escape(best['patch'])}; the whole pack: {escape(best['pack_file'])}")
