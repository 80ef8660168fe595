"""The training examples run end to end: a policy, its checkpoints and the learning curve;
a mistake on their command line is one line, before any work."""

from __future__ import annotations

import re
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
        # In two worker processes, which import the script: it trains only under its
        # `if __name__ == "__main__":` (unguarded, the workers ran it again and the run
        # died with a connection reset).
        (
            "train_hack_and_slash.py",
            "hack-and-slash",
            {"two random bots", "two heuristic bots"},
            ["--workers", "2"],
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
    # An imitation run counts the teacher's labelled decisions, not env steps.
    # (Rage imitates its planning bot unless told --teacher none.)
    imitates = "none" not in how and (game == "rage" or "--teacher" in how)
    unit = "labels" if imitates else "steps"
    assert re.search(rf"min +[\d,]+ {unit}  against", done.stdout), done.stdout


@pytest.mark.parametrize(
    ("script", "args", "said"),
    [
        ("train_rage.py", ["--minutes", "0"], "--minutes and --every must be above 0"),
        ("train_rage.py", ["--round", "0"], "--round 1 or more"),
        (
            "train_rage.py",
            ["--teacher", "human"],
            "--teacher: a bot such as bot:heuristic, or none, not human",
        ),
        ("train_rage.py", ["--teacher", "bot:wizard"], "--teacher: unknown seat 'bot:wizard'"),
        ("train_rage.py", ["--players", "2"], "Rage takes 1 player, not 2"),
        (
            "train_rage.py",
            ["--option", "turn_limit=0"],
            "Rage: option 'turn_limit': Input should be greater than or equal to 1",
        ),
        (
            "train_hack_and_slash.py",
            ["--players", "9"],
            "Hack & Slash takes 3-6 players (2 with the Two players variant), not 9",
        ),
        ("train_hack_and_slash.py", ["--players", "many"], "--players: invalid int value"),
        (
            "train_hack_and_slash.py",
            ["--option", "nope=1"],
            "Hack & Slash: option 'nope': no such option",
        ),
        ("train_hack_and_slash.py", ["--option", "round_limit"], "is not key=value"),
        (
            "train_hack_and_slash.py",
            ["--option", "players=4"],
            "--option players: the player count is --players",
        ),
        ("train_hack_and_slash.py", ["--variant", "wizard"], "option 'wizard': no such option"),
    ],
)
def test_an_example_refuses_a_bad_argument_in_one_line(
    tmp_path: Path, script: str, args: list[str], said: str
) -> None:
    out = tmp_path / "run"
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    # One line, and before any work: no reference games measured, nothing written.
    [line] = done.stderr.splitlines()
    assert line.startswith(f"{script}: error: ")
    assert said in line
    assert done.stdout == ""
    assert not out.exists()


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
