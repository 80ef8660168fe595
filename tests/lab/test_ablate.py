"""`tavernkeep ablate`: what a card does for its holders (a cause, paired game by game),
told apart from who holds it (a correlation)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.lab.conftest import Run

HEURISTICS = ["-s", "bot:heuristic"] * 4
HUMAN_SEAT = ["-s", "bot:random", "-s", "bot:random", "-s", "human"]


def test_the_planted_quest_is_a_cause_and_winners_company_is_only_a_correlation(
    run: Run, planted: Path
) -> None:
    args = ["ablate", "hack-and-slash", "--field", "quest.reward", "--holder", "quest completed"]
    args += ["--pack", str(planted), *HEURISTICS, "-n", "400", "--seed", "3"]
    code, stdout, err = run([*args, "--json"])
    assert code == 0, err
    assert "NaN" not in stdout  # strict JSON: an entry nobody held has null rates
    result = json.loads(stdout)
    rows = {row["name"]: row for row in result["entries"]}
    rats = rows["Rats in the Cellar"]
    assert rats["value"] == 40
    assert rats["verdict"] == "strong"
    effect = rats["effects"]["neutral"]["holders_win"]
    assert effect["ci95"][0] > 0.3  # its holders win far more with it than with a median one
    assert result["entries"][0]["name"] == "Rats in the Cellar"  # the strongest first
    # Winners complete more quests of every kind: quests whose holders win more often
    # than the rest, and yet are no cause of it on the paired games.
    company = [
        row for row in result["entries"]
        if (row["correlation"] or 0) > result["tolerance"] and row["verdict"] != "strong"
    ]  # fmt: skip
    assert company
    # The table says which is which: the verdict from the paired games, the correlation
    # apart and named for what it is.
    code, stdout, err = run(args)
    assert code == 0, err
    text = " ".join(stdout.split())
    assert "strong" in text
    assert "correlation: how the seats that held it won beside the rest" in text
    assert "which says who held it, not what it did" in text


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--field", "quest", "--holder", "quest completed"], "expected KIND.FIELD"),
        (["--field", "monster.reward", "--holder", "quest completed"], "no list of 'monster'"),
        (["--field", "quest.reward"], "say who holds a card with --holder"),
        (["--field", "quest.reward", "--holder", "quest kept"], "not a tally kind"),
        (["--field", "quest.colour", "--holder", "quest completed"], "fewer than two"),
        (["--field", "quest.reward", "--holder", "quest completed", *HUMAN_SEAT], "bots only"),
    ],
)
def test_a_bad_field_or_holder_is_one_line_before_any_game(
    run: Run, args: list[str], said: str
) -> None:
    code, stdout, err = run(["ablate", "hack-and-slash", *args])
    assert code == 2
    assert said in err
    assert err.count("\n") == 1
    assert stdout == ""


def test_a_stand_in_the_pack_refused_is_no_verdict_and_json_has_no_nan() -> None:
    """An entry off the median whose stand-in could not be played is "unknown", not
    "neutral" (which is for an entry already at the median); rates nobody had are null."""
    from tavernkeep.lab.ablate import plain, verdict

    assert verdict(None, 0.02, at_median=True) == "neutral"
    assert verdict(None, 0.02, at_median=False) == "unknown"
    assert json.dumps(plain({"rate": float("nan"), "rows": [1.5, float("nan")]})) == (
        '{"rate": null, "rows": [1.5, null]}'
    )


def test_the_same_seeds_give_the_same_ablation_on_any_number_of_workers(
    run: Run, planted: Path
) -> None:
    args = ["ablate", "hack-and-slash", "--field", "quest.reward", "--holder", "quest completed"]
    args += ["--pack", str(planted), "-n", "60", "--seed", "8", "--json"]
    entries = []
    for workers in ("1", "2"):
        code, stdout, err = run([*args, "--workers", workers])
        assert code == 0, err
        entries.append(json.loads(stdout)["entries"])
    assert entries[0] == entries[1]
