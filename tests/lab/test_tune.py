"""`tavernkeep tune`: a pack's numbers searched until balance targets are met."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tavernkeep.games import get_game
from tavernkeep.lab.tune import parse_target

if TYPE_CHECKING:
    from tests.lab.conftest import Run

HEURISTICS = ["-s", "bot:heuristic"] * 4
RATS = "quest[Rats in the Cellar].reward"
TWO_RANDOM = ["-s", "bot:random"] * 2


def tune_args(pack: Path, out: Path, *more: str) -> list[str]:
    return [
        "tune", "hack-and-slash", "-p", f"{RATS}=1..50", "-t", "fair:0.04",
        "--pack", str(pack), *HEURISTICS, "--out", str(out), "--trials", "10",
        "--games", "800", "--runs", "1", "--holdout", "1500", "--seed", "4", "--json", *more,
    ]  # fmt: skip


def test_tune_brings_a_planted_reward_back_and_writes_the_patch(
    tmp_path: Path, run: Run, planted: Path
) -> None:
    pack = planted
    out = tmp_path / "tune"
    code, stdout, err = run(tune_args(pack, out))
    assert code == 0, err
    result = json.loads(stdout)
    # As it is, the first seat is far from its fair share on fresh games.
    first = result["as_it_is"]["seats"][0]["win_rate"]
    assert first > 0.25 + 0.04
    best = result["best"][0]
    assert best["meets_targets"]
    assert best["from"][RATS] == 40
    assert best["values"][RATS] <= 10
    assert all(abs(s["win_rate"] - 0.25) <= 0.04 for s in best["held_out"]["seats"])
    patch = tomllib.loads(Path(best["patch"]).read_text(encoding="utf-8"))
    assert patch["change"] == [{"param": RATS, "from": 40, "to": best["values"][RATS]}]
    # The whole pack is ready to play: the same command takes it.
    whole = tomllib.loads(Path(best["pack_file"]).read_text(encoding="utf-8"))
    rats = next(q for q in whole["quest"] if q["name"] == "Rats in the Cellar")
    assert rats["reward"] == best["values"][RATS]
    code, _, err = run(["simulate", "hack-and-slash", "-n", "5", "--pack", best["pack_file"]])
    assert code == 0, err


def test_an_interrupted_tune_resumes_and_a_changed_one_is_refused(
    tmp_path: Path, run: Run, planted: Path
) -> None:
    pack = planted
    out = tmp_path / "tune"
    code, stdout, err = run(tune_args(pack, out))
    assert code == 0, err
    first = json.loads(stdout)
    assert first["trials_played_now"] == 10
    # Run again as it was: the trials are in the folder, only the check is played.
    code, stdout, err = run(tune_args(pack, out))
    assert code == 0, err
    again = json.loads(stdout)
    assert again["trials_played_now"] == 0
    assert again["best"][0]["values"] == first["best"][0]["values"]
    # Without --seed, the search in the folder goes on with the seed it was started with.
    unseeded = tune_args(pack, out)
    at = unseeded.index("--seed")
    del unseeded[at : at + 2]
    code, stdout, err = run(unseeded)
    assert code == 0, err
    assert json.loads(stdout)["seed"] == 4
    assert json.loads(stdout)["trials_played_now"] == 0
    # Another setting in the same folder would mix two searches: one line, exit 2.
    code, _, err = run(tune_args(pack, out, "--games", "900"))
    assert code == 2
    assert "holds a tune of another setting" in err
    assert err.count("\n") == 1


def test_the_same_seeds_give_the_same_tune_on_any_number_of_workers(
    tmp_path: Path, run: Run, planted: Path
) -> None:
    pack = planted
    results = []
    for workers in ("1", "2"):
        args = tune_args(pack, tmp_path / f"tune-{workers}", "--workers", workers)
        args[args.index("--trials") + 1] = "4"
        code, stdout, err = run(args)
        assert code == 0, err
        result = json.loads(stdout)
        results.append((result["best"][0]["values"], result["best"][0]["held_out"]))
    assert results[0] == results[1]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["-p", "quest[Rats in the Cellar].reward", "-t", "fair"], "expected PATH=LOW..HIGH"),
        (["-p", "quest[Rats in the Cellar].reward=5..5", "-t", "fair"], "the range 5..5 is empty"),
        (["-p", "quest[Nobody].reward=1..5", "-t", "fair"], "no quest named 'Nobody'"),
        (["-p", "quest[Rats in the Cellar].reward=1..500", "-t", "fair"], "less than or equal"),
        (["-p", "brag.goal=3,x", "-t", "fair"], "neither LOW..HIGH nor numbers"),
        (["-p", "brag.goal=3..5", "-t", "fiar"], "expected fair[:TOL]"),
        (["-p", "brag.goal=3..5", "-t", "team=0.5"], "is competitive"),
        (["-p", "brag.goal=3..5", "-t", "label:leader"], "no seat label 'leader'"),
        (["-p", "brag.goal=3..5", "-t", "fair:2"], "the tolerance must be above 0"),
        (["-p", "brag.goal=3..5", "-t", "turns=-3"], "more than 0 turns"),
        (["-p", "brag.goal=3..5", "-t", "fair", *TWO_RANDOM, "-s", "human"], "bots only"),
        (["-p", "brag.goal=3..5", "-t", "fair", *TWO_RANDOM, "-s", "bot:nob"], "bot:nob"),
    ],
)
def test_a_bad_param_or_target_is_one_line_before_any_game(
    tmp_path: Path, run: Run, args: list[str], said: str
) -> None:
    out = tmp_path / "tune"
    code, stdout, err = run(["tune", "hack-and-slash", *args, "--out", str(out)])
    assert code == 2
    assert said in err
    assert err.count("\n") == 1
    assert stdout == ""
    assert not (out / "tune.db").exists()


def test_a_label_target_is_the_gap_between_the_best_and_the_worst_label() -> None:
    # "Every Party Leader within 2 points of each other": 23% and 20.5% are 2.5 apart,
    # a miss, though each is within 2 points of their middle.
    game = get_game("here-to-slay")
    target = parse_target("label:leader:0.02", game)
    rows = [
        {"label": "The Wild Hawk", "win_rate": 0.23},
        {"label": "The Iron Boar", "win_rate": 0.205},
    ]
    summary = {"groups": {"leader": {"rows": rows}}}
    assert target.gap(summary) == pytest.approx(0.025)
    assert not target.gap(summary) <= target.tolerance
    assert target.words() == "every leader label's win rate within 2% of each other's"
