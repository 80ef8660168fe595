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
    ("script", "game", "curves", "how"),
    [
        # Rage learns from the planning bot by default, and by reinforcement when asked.
        ("train_rage.py", "rage", {"the village"}, ["--round", "2"]),
        ("train_rage.py", "rage", {"the village"}, ["--teacher", "none"]),
        (
            "train_hack_and_slash.py",
            "hack-and-slash",
            {"two random bots", "two heuristic bots"},
            [],
        ),
        (
            "train_hack_and_slash.py",
            "hack-and-slash",
            {"two random bots", "two heuristic bots"},
            ["--teacher", "bot:heuristic", "--round", "5", "--workers", "1"],
        ),
    ],
)
def test_an_example_trains_saves_and_plots(
    tmp_path: Path, script: str, game: str, curves: set[str], how: list[str]
) -> None:
    out = tmp_path / "run"
    args = ["--minutes", "0.05", "--every", "0.03", "--games", "10", "--envs", "2", *how]
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


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--minutes", "0"], "--minutes and --every must be above 0"),
        (["--round", "0"], "--round 1 or more"),
        (["--teacher", "human"], "--teacher: a bot such as bot:heuristic, or none, not human"),
        (["--teacher", "bot:wizard"], "--teacher: unknown seat 'bot:wizard'"),
    ],
)
def test_an_example_refuses_a_bad_argument_in_one_line(args: list[str], said: str) -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_rage.py"), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert said in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("train_rage.py: error:")


def test_the_curve_names_each_reference_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from matplotlib.figure import Figure

    from tavernkeep.rl.train import Point, plot

    drawn: list[Figure] = []
    monkeypatch.setattr(Figure, "savefig", lambda figure, *a, **k: drawn.append(figure))
    # An imitation run's first checkpoint comes minutes in, not at minute 0.
    points = [
        Point(100, 3.0, "the village", 0.3, 0.25, 0.35),
        Point(200, 6.0, "the village", 0.5, 0.45, 0.55),
    ]
    plot(points, {"planning bot": 0.422}, "a run", tmp_path / "curve.png")
    legend = drawn[0].axes[0].get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == [
        "policy against the village",
        "planning bot: 42.2%",
    ]
