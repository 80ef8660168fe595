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
whole pack with them, ready for `--pack`.
"""

from __future__ import annotations

import copy
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavernkeep import build
from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.game import Game
from tavernkeep.engine.rng import derive_seed, random_seed
from tavernkeep.games import get_game
from tavernkeep.lab.simulate import Batch, check_batches, progress_bar, simulate, summarize
from tavernkeep.lab.stats import TOLERANCE
from tavernkeep.lab.sweep import (
    Step,
    default_seats,
    get_number,
    load_raw,
    parse_path,
    raw_pack,
    set_number,
)

RANGE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)\s*$")
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


def parse_param(text: str, raw: dict[str, Any]) -> Param:
    """`quest[Rats in the Cellar].reward=1..20` (integers, or decimals if either bound
    has a point) or `brag.goal=3,4,5`: one clear error for anything else."""
    path_text, sep, values = text.rpartition("=")
    path_text = path_text.strip()
    if not sep or not path_text or not values.strip():
        raise ConfigError(
            f"--param '{text}': expected PATH=LOW..HIGH or PATH=v1,v2,... "
            "e.g. quest[Rats in the Cellar].reward=1..20"
        )
    path = tuple(parse_path(path_text))
    start = get_number(raw, list(path), path_text)
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
        if self.kind == "fair":
            return f"every seat within {self.tolerance:.0%} of its fair share"
        if self.kind == "label":
            return f"every {self.fact} label's win rate within {self.tolerance:.0%} of each other's"
        if self.kind == "turns":
            return f"a mean game of {self.goal:g} turns, within {self.tolerance:g}"
        return f"the table wins {self.goal:.0%} of games, within {self.tolerance:.0%}"


def parse_target(text: str, game: Game[Any, Any]) -> Target:
    """`fair`, `fair:0.03`, `label:leader`, `label:leader:0.02`, `turns=40`,
    `turns=40:4`, `team=0.5`, `team=0.5:0.03`."""
    word = text.strip()

    def tolerance(raw: str, kind: str) -> float:
        try:
            value = float(raw)
        except ValueError:
            raise ConfigError(f"--target {word}: the tolerance '{raw}' is not a number") from None
        if value <= 0 or (kind != "turns" and value >= 1):
            raise ConfigError(
                f"--target {word}: the tolerance must be above 0 (a win rate's, below 1)"
            )
        return value

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

    def play(self, values: dict[str, float], seed: int, games: int) -> dict[str, Any]:
        """A candidate's summary (`simulate --json`'s figures) over `games` games."""
        _, pack = self.pack_with(values)
        batch = Batch(self.game.name, self.seats, self.options, None, seed, pack)
        tally = simulate(batch, games, self.workers, ray=self.ray)
        return summarize(batch, tally, self.workers, 0.0)

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
        return all(t.gap(summary) <= t.tolerance for t in self.targets)


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
    pack_name, raw = raw_pack(game, pack)
    parsed = [parse_param(text, raw) for text in params]
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
        base_batch = Batch(game.name, table, options, pack, fresh)
        base_summary = summarize(
            base_batch, simulate(base_batch, holdout, workers, ray=ray), workers, 0.0
        )
        progress.advance(check)
        candidates = []
        for run, values, value in bests:
            summary = tuning.play(values, fresh, holdout)
            progress.advance(check)
            candidates.append((run, values, value, summary))
    candidates.sort(key=lambda c: tuning.score(c[1], c[3]))
    import tomli_w

    results = []
    for rank, (run, values, value, summary) in enumerate(candidates, start=1):
        raw_best, _ = tuning.pack_with(values)
        patch = out / f"best-{rank}.patch.toml"
        whole = out / f"best-{rank}.toml"
        write_patch(patch, tuning, values, summary)
        whole.write_text(tomli_w.dumps(raw_best), encoding="utf-8")
        results.append(
            {
                "rank": rank,
                "run": run,
                "values": {p.text: p.shown(values[p.text]) for p in parsed},
                "from": {p.text: p.shown(p.start) if p.start is not None else None for p in parsed},
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
        "labels": {
            t.fact: [
                {"label": r["label"], "win_rate": r["win_rate"], "ci95": r["ci95"]}
                for r in summary["groups"][t.fact]["rows"]
            ]
            for t in tuning.targets
            if t.kind == "label"
        },
        "gaps": {t.words(): t.gap(summary) for t in tuning.targets},
    }


def write_patch(
    path: Path, tuning: Tuning, values: dict[str, float], summary: dict[str, Any]
) -> None:
    """The changes as TOML a designer reads: each number, from what to what."""
    import tomli_w

    lines = {
        "tune": {
            "game": tuning.game.name,
            "pack": tuning.pack_name,
            "targets": [t.words() for t in tuning.targets],
            "held_out_meets_targets": tuning.meets(summary),
        },
        "change": [
            {
                "param": p.text,
                **({"from": p.shown(p.start)} if p.start is not None else {}),
                "to": p.shown(values[p.text]),
            }
            for p in tuning.params
        ],
    }
    path.write_text(tomli_w.dumps(lines), encoding="utf-8")


def print_tune(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape

    console = Console()
    console.print(
        f"[bold]{escape(result['game'])}[/]: {result['runs']} run(s) of "
        f"{result['trials_per_run']} trials, {result['games_per_trial']:,} games a trial on "
        f"the same seeds; held out: {result['held_out_games']:,} fresh games a candidate; "
        f"seed {result['seed']}, {result['workers']} worker(s), {result['build']} build, "
        f"{result['elapsed_seconds']:.1f} s"
    )
    console.print("targets: " + "; ".join(escape(t) for t in result["targets"]))

    def line(name: str, fig: dict[str, Any]) -> None:
        seats = ", ".join(
            f"{s['win_rate']:.1%} ({s['ci95'][0]:.1%}-{s['ci95'][1]:.1%})" for s in fig["seats"]
        )
        team = fig["team"]
        extra = f"; the table wins {team['win_rate']:.1%}" if team else ""
        console.print(f"{escape(name)}: seats {seats}; {fig['mean_turns']:.1f} turns{extra}")
        for fact, rows in fig["labels"].items():
            cells = ", ".join(f"{escape(r['label'])} {r['win_rate']:.1%}" for r in rows)
            console.print(f"  {escape(fact)}: {cells}")

    line("the pack as it is (held-out games)", result["as_it_is"])
    for best in result["best"]:
        changes = ", ".join(
            f"{escape(k)}: {best['from'][k] if best['from'][k] is not None else 'default'} -> {v}"
            for k, v in best["values"].items()
        )
        verdict = "meets every target" if best["meets_targets"] else "misses a target"
        console.print(f"[bold]#{best['rank']}[/] (run {best['run']}) {changes}: {verdict}")
        line("  held-out games", best["held_out"])
        console.print(f"  {escape(best['patch'])}; the whole pack: {escape(best['pack_file'])}")
