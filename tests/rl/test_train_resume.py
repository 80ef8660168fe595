"""A reinforcement run saves its whole model, and `--resume` goes on training it: the step
count, the optimiser's state and the learning curve continued, at the same table."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="the train extra is not installed")

from tavernkeep.agents.policy import load_policy

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_hack_and_slash.py"
# A table of four with a game option: what a resumed run must be trained at again.
TABLE = ["--players", "4", "--option", "round_limit=30"]
TINY = ["--minutes", "0.02", "--every", "0.01", "--games", "4", "--envs", "2"]


def run(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *TINY, "--out", str(out), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def steps_in(out: Path) -> list[int]:
    with open(out / "curve.csv", newline="") as rows:
        return [int(row["steps"]) for row in csv.DictReader(rows)]


def test_a_run_is_saved_and_resumed_where_it_stopped(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = run(out, *TABLE)
    assert first.returncode == 0, first.stderr
    saved = json.loads((out / "model.json").read_text())
    stopped = saved["steps"]
    assert stopped > 0
    assert saved["options"]["players"] == 4 and saved["options"]["round_limit"] == 30
    # sb3's own save, the optimiser's state included (what a resumed run learns on with).
    assert "policy.optimizer.pth" in zipfile.ZipFile(out / "model.zip").namelist()
    assert "against three random bots" in first.stdout
    assert load_policy(out / "policy.npz").about["steps"] == stopped
    curve = steps_in(out)

    again = run(out, *TABLE, "--resume")
    assert again.returncode == 0, again.stderr
    assert f"resuming {out / 'model.zip'} at {stopped:,} steps" in again.stdout
    resumed = json.loads((out / "model.json").read_text())["steps"]
    assert resumed > stopped
    # The count goes on from where it stopped, not from 0: the new checkpoints are named
    # past it, and the curve is the first run's with the new points after it.
    printed = [
        int(n.replace(",", "")) for n in re.findall(r"([\d,]+) steps  against", again.stdout)
    ]
    assert printed and min(printed) > stopped
    assert (out / f"policy-{resumed}.npz").exists()
    after = steps_in(out)
    assert after[: len(curve)] == curve
    assert after[len(curve) :] and min(after[len(curve) :]) > stopped
    assert after == sorted(after)
    policy = load_policy(out / "policy.npz")
    assert (policy.game, policy.about["steps"]) == ("hack-and-slash", resumed)
    assert policy.options["players"] == 4


def test_a_saved_model_is_neither_overwritten_nor_resumed_at_another_table(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    assert run(out, *TABLE).returncode == 0
    before = (out / "model.zip").read_bytes()
    for args, said in [
        (TABLE, f"{out} holds a trained model (model.zip): --resume goes on training it"),
        (
            ["--resume", "--players", "3", "--option", "round_limit=30"],
            "players=4 where this run has 3: give the --players, --option and --variant",
        ),
        (
            ["--resume", "--players", "4"],
            "round_limit=30 where this run has 100",
        ),
        ([*TABLE, "--resume", "--teacher", "bot:heuristic"], "--resume goes on with reinforcement"),
    ]:
        done = run(out, *args)
        assert done.returncode == 2, args
        [line] = done.stderr.splitlines()
        assert line.startswith("train_hack_and_slash.py: error: ")
        assert said in line
        assert done.stdout == ""  # before any work
    assert (out / "model.zip").read_bytes() == before


def test_resume_needs_a_saved_model(tmp_path: Path) -> None:
    done = run(tmp_path / "empty", "--resume")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"train_hack_and_slash.py: error: --resume: {tmp_path / 'empty'} holds no model.zip "
        "to go on from (a run by reinforcement saves one)"
    )
