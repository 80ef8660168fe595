"""The training examples run end to end: a policy, its checkpoints and the learning curve."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="the train extra is not installed")

from tavernkeep.agents.policy import load_policy

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    ("script", "game", "curves"),
    [
        ("train_rage.py", "rage", {"the village"}),
        ("train_hack_and_slash.py", "hack-and-slash", {"two random bots", "two heuristic bots"}),
    ],
)
def test_an_example_trains_saves_and_plots(
    tmp_path: Path, script: str, game: str, curves: set[str]
) -> None:
    out = tmp_path / "run"
    args = ["--minutes", "0.05", "--every", "0.03", "--games", "10", "--envs", "2"]
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert load_policy(out / "policy.npz").game == game
    rows = (out / "curve.csv").read_text().splitlines()
    assert rows[0] == "steps,minutes,against,rate,low,high"
    assert {row.split(",")[2] for row in rows[1:]} == curves
    assert (out / "curve.png").read_bytes()[:4] == b"\x89PNG"
    assert "saved" in done.stdout


def test_an_example_refuses_a_bad_argument_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_rage.py"), "--minutes", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "--minutes and --every must be above 0" in done.stderr
