"""One meaning of "out of balance" in every lab answer (issue 40, items 4 and 5): the
terminal's tables and the report flag the same groups, in the same words, tolerances
in points, and nothing is flagged from a handful of games."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from tests.lab.test_report import section, text

from tavernkeep.engine.errors import ConfigError
from tavernkeep.games import all_games
from tavernkeep.lab.stats import MIN_SAMPLE, off_balance, share_verdict, tolerance_points

if TYPE_CHECKING:
    from tests.lab.conftest import Run


def test_a_rate_off_its_share_whose_interval_reaches_the_tolerance_reads_as_such() -> None:
    # The issue's case: 27.7% (26.1-29.3%) against 25%, 2 points allowed. Not "not more
    # than 2 points off": it is 2.7 points off, and these games cannot say it is more.
    said = share_verdict(0.277, 0.261, 0.293, 0.25, 3000, 0.02)
    assert said.startswith("2.7 points above it, but its interval still comes within 2 points")
    assert "not more than" not in said
    assert share_verdict(0.30, 0.29, 0.31, 0.25, 3000, 0.02).startswith(
        "out of balance in its favour, 5.0 points above it"
    )
    assert share_verdict(0.20, 0.19, 0.21, 0.25, 3000, 0.02).startswith(
        "out of balance against it, 5.0 points below it"
    )
    assert share_verdict(0.255, 0.24, 0.265, 0.25, 3000, 0.02).startswith("in balance")
    # A handful of games is too few whatever its interval.
    assert share_verdict(1.0, 0.34, 1.0, 0.25, 4, 0.02).startswith("too few games to tell")
    assert off_balance(0.34, 1.0, 0.25, MIN_SAMPLE - 1, 0.02) == 0
    assert off_balance(0.34, 1.0, 0.25, MIN_SAMPLE, 0.02) == 1


@pytest.mark.parametrize(
    ("given", "fraction", "said"),
    [
        (2.0, 0.02, None),
        (0.0, 0.0, None),
        (12.5, 0.125, None),
        (0.02, None, "for 2 points write 2"),
        (-1.0, None, "give win-rate points from 0 to 100"),
        (150.0, None, "give win-rate points from 0 to 100"),
    ],
)
def test_tolerances_are_points(given: float, fraction: float | None, said: str | None) -> None:
    if said is None:
        assert tolerance_points(given) == pytest.approx(fraction)
    else:
        with pytest.raises(ConfigError, match=re.escape(said)):
            tolerance_points(given)


def test_the_terminal_and_the_report_flag_the_same_leaders(tmp_path: Path, run: Run) -> None:
    # Here to Slay's heuristic picks its Leader, so Leaders stand far apart from 1,500
    # games: the terminal's Leader table and the report's must flag the same ones.
    results = tmp_path / "slay.parquet"
    args = ["simulate", "here-to-slay", "-n", "400", "--seed", "11", "--out", str(results)]
    code, out, err = run(args)
    assert code == 0, err
    flagged_here = {
        m.group(1).strip() for m in re.finditer(r"│ (The [A-Za-z ]+?)\s*│[^\n]*out of balance", out)
    }
    assert flagged_here, out
    assert "out of balance: the whole 95% interval lies more than 2 points" in out
    code, _, err = run(["report", str(results)])
    assert code == 0, err
    page = (tmp_path / "slay.html").read_text(encoding="utf-8")
    leaders = text(section(page, "Win rate by Party Leader"))
    flagged_there = {
        m.group(1)
        for m in re.finditer(r"(The [A-Z][a-z]+ [A-Z][a-z]+) [^A-Z]*?out of balance", leaders)
    }
    assert flagged_here == flagged_there
    # Here to Slay's score is its win: no "mean score" column saying the win rate twice.
    assert "mean score" not in out


def test_a_scored_game_keeps_its_mean_score(run: Run) -> None:
    code, out, err = run(["simulate", "hack-and-slash", "-n", "50", "--seed", "4"])
    assert code == 0, err
    assert "mean score" in out
    # Rates, not wins: a shared victory's fractions never show as "2033.83 wins".
    header = next(line for line in out.splitlines() if "seat" in line and "agent" in line)
    assert "wins" not in header and "win rate" in header


def test_every_success_kind_counts_the_attempts_of_a_kind_the_game_tallies() -> None:
    for game in all_games():
        for success, attempt in game.tally_rates.items():
            assert success in game.tally_kinds and attempt in game.tally_kinds, game.name
