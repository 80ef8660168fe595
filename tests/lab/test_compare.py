"""`tavernkeep compare` (issue 40, item 2): what a designer's change did, both packs on the
same seeds, every difference with its interval; planted changes whose answer is known."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from tests.lab.planting import plant

if TYPE_CHECKING:
    from tests.lab.conftest import Run

RANDOM_HS = ["-s", "bot:random", "-s", "bot:random", "-s", "bot:random"]


def compared(run: Run, args: list[str]) -> dict[str, Any]:
    seed = str(random.SystemRandom().randrange(2**63))
    code, stdout, err = run(["compare", *args, "--seed", seed, "--json"])
    assert code == 0, err
    assert "NaN" not in stdout
    return {**json.loads(stdout), "asked_seed": seed}


def touched(result: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(row for row in result["touched"] if row["kind"] == kind)


def test_a_stronger_card_pays_its_users_and_says_what_changed(run: Run, tmp_path: Path) -> None:
    """The Rats in the Cellar made worth 40: the seats that complete it either way win
    more, every difference has its interval, and the change is named as the pack says it."""
    changed = plant(tmp_path, "hack-and-slash", {("Rats in the Cellar", "reward"): 40})
    result = compared(run, ["standard", str(changed), "--game", "hack-and-slash", *RANDOM_HS])
    assert [c["text"] for c in result["changes"]] == ["quest[Rats in the Cellar].reward: 1 → 40"]
    completed = touched(result, "quest completed")
    assert completed["name"] == "Rats in the Cellar"
    assert completed["users_win"]["ci95"][0] > 0.1, (completed, result["asked_seed"])
    # Random bots read no reward: the same quests are completed, by the same seats.
    assert completed["uses"]["mean"] == 0
    assert result["games_changed"] > 0
    for seat in result["seats"]:
        low, high = seat["difference"]["ci95"]
        assert low <= seat["difference"]["mean"] <= high


def test_a_weaker_card_costs_its_users(run: Run, tmp_path: Path) -> None:
    changed = plant(tmp_path, "hack-and-slash", {("Bandit Ambush", "reward"): 0})
    result = compared(run, ["standard", str(changed), "--game", "hack-and-slash", *RANDOM_HS])
    completed = touched(result, "quest completed")
    assert completed["users_win"]["ci95"][1] < 0, (completed, result["asked_seed"])


def test_a_change_to_a_card_nobody_can_use_is_no_difference(run: Run, tmp_path: Path) -> None:
    """Crits & Tricks for two never offers "Creative": changing its loot changes no game."""
    changed = plant(tmp_path, "crits-and-tricks", {("Creative", "loot"): 9})
    args = ["standard", str(changed), "--game", "crits-and-tricks", "-n", "300"]
    result = compared(run, [*args, "-s", "bot:random", "-s", "bot:random"])
    assert result["games_changed"] == 0
    assert all(seat["difference"]["mean"] == 0 for seat in result["seats"])
    assert result["turns"]["difference"]["mean"] == 0
    assert result["moved"] == []
    code, stdout, _ = run(["compare", *args, "-s", "bot:random", "-s", "bot:random"])
    assert code == 0
    assert "No game of the 300 went otherwise: the change made no difference." in " ".join(
        stdout.split()
    )


def test_two_results_files_of_the_same_seeds_are_compared_and_the_page_written(
    run: Run, tmp_path: Path
) -> None:
    changed = plant(tmp_path, "hack-and-slash", {("Rats in the Cellar", "reward"): 40})
    files = []
    for name, pack in (("base", "standard"), ("changed", str(changed))):
        out = tmp_path / f"{name}.parquet"
        code, _, err = run(
            ["simulate", "hack-and-slash", "--pack", pack, *RANDOM_HS, "-n", "300",
             "--seed", "12", "--out", str(out)]
        )  # fmt: skip
        assert code == 0, err
        files.append(str(out))
    page = tmp_path / "compare.html"
    code, stdout, err = run(["compare", *files, "--html", str(page), "--json"])
    assert code == 0, err
    result = json.loads(stdout)
    assert result["games"] == 300 and result["games_changed"] > 0
    text = page.read_text(encoding="utf-8")
    assert "<h2>Seats</h2>" in text and "difference [95%]" in text
    assert "games went otherwise" in text


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["standard", "standard"], "'standard' is a built-in pack name: say whose with --game"),
        (["a.parquet", "b.toml"], "give two packs to play, or two results files"),
        (["standard", "nowhere.toml", "--game", "hack-and-slash"], "nowhere.toml"),
        (["x.parquet", "y.parquet"], "no such results file"),
        (["standard", "standard", "--game", "chess"], "chess"),
    ],
)
def test_a_bad_comparison_is_one_line_before_any_game(run: Run, args: list[str], said: str) -> None:
    code, stdout, err = run(["compare", *args])
    assert code == 2, err
    assert said in err
    assert err.count("\n") == 1
    assert stdout == ""
