"""What the command shows must be whole and true.

Game ids, bot names and numbers are what a person types or copies: no table may cut them,
at any terminal width or piped. The numbers on the screen are the numbers the action text
uses. A check that fails names what differs; an ending is headed as what it is.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tavernkeep.cli import main
from tavernkeep.engine.game import Result
from tavernkeep.games import all_games, get_game

BOTS = ["--seat", "bot:heuristic", "--seat", "bot:random", "--seat", "bot:random"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def piped(args: list[str]) -> Any:
    """The command piped into another program: no terminal, no COLUMNS."""
    return subprocess.run(
        [sys.executable, "-m", "tavernkeep.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"},
        check=False,
    )


def whole(token: str, out: str) -> bool:
    """`token` appears unbroken, not as the start or end of a longer word."""
    return re.search(rf"(?<![\w-]){re.escape(token)}(?![\w-])", out) is not None


def whole_number(number: str, out: str) -> bool:
    """`number` appears with all its digits: "2.1%" is not found inside "52.1%"."""
    return re.search(rf"(?<![\d.]){re.escape(number)}(?![\d.])", out) is not None


def at_width(
    columns: int | None,
    argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> str:
    if columns is None:
        done = piped(argv)
        assert done.returncode == 0, done.stderr
        return str(done.stdout)
    monkeypatch.setenv("COLUMNS", str(columns))
    code, out, err = run(argv, capsys)
    assert code == 0, err
    for line in out.splitlines():
        assert len(line) <= columns, line
    return out


WIDTHS = [pytest.param(80, id="80-columns"), pytest.param(40, id="40-columns"), None]


# -- tables keep ids and numbers whole ----------------------------------------------------


@pytest.mark.parametrize("columns", WIDTHS)
def test_games_shows_every_game_id_and_player_count_whole(
    columns: int | None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = at_width(columns, ["games"], monkeypatch, capsys)
    assert "…" not in out
    for game in all_games():
        assert whole(game.name, out), game.name
        assert whole_number(game.players_text(), out), game.players_text()
        assert whole(game.kind, out)


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The figures of a small sweep, as its JSON gives them."""
    done = piped([*SWEEP, "--json"])
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


SWEEP = [
    "sweep",
    "hack-and-slash",
    "--set",
    "quest[#1].reward=1,3",
    "--games",
    "30",
    "--seed",
    "1",
    *BOTS,
]


@pytest.mark.parametrize("columns", WIDTHS)
def test_sweep_shows_every_value_rate_and_interval_whole(
    columns: int | None,
    swept: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = at_width(columns, SWEEP, monkeypatch, capsys)
    assert "…" not in out
    assert "quest[#1].reward" in out  # what was swept, as the person typed it
    for step in swept["values"]:
        assert whole(str(step["value"]), out)
        for seat in step["seats"]:
            lo, hi = seat["ci95"]
            for number in (seat["win_rate"], lo, hi):
                assert whole_number(f"{number:.1%}", out), (f"{number:.1%}", out)
            assert whole(seat["agent"], out)
        for ending in step["endings"]:
            assert whole(ending, out)


@pytest.mark.parametrize("columns", WIDTHS)
def test_simulate_shows_every_agent_and_interval_whole(
    columns: int | None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["simulate", "hack-and-slash", "--games", "30", "--seed", "2", *BOTS]
    done = piped([*args, "--json"])
    report = json.loads(done.stdout)
    out = at_width(columns, args, monkeypatch, capsys)
    assert "…" not in out
    for seat in report["seats"]:
        lo, hi = seat["ci95"]
        assert whole(seat["agent"], out)
        assert whole_number(f"{lo:.1%}", out) and whole_number(f"{hi:.1%}", out)


def test_simulate_says_which_build_plays_the_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A figure means little without its build: the tests' editable install is pure
    Python, and the header and the report say so (CI's compiled install says compiled:
    .ci/run)."""
    import tavernkeep

    assert tavernkeep.build() == "pure Python"
    args = ["simulate", "hack-and-slash", "--games", "10", "--seed", "2", *BOTS]
    report = json.loads(piped([*args, "--json"]).stdout)
    assert report["build"] == "pure Python"
    out = at_width(200, args, monkeypatch, capsys)
    assert "1 worker(s), pure Python build," in out.splitlines()[0]


# -- replay --check names what differs -------------------------------------------------


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "game.json"
    args = ["play", "hack-and-slash", *BOTS, "--seed", "7", "--delay", "0"]
    assert main([*args, "--record", str(path)]) == 0
    return path


def test_a_check_that_fails_names_what_differs_not_the_same_thing_twice(
    recorded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(recorded.read_text(encoding="utf-8"))
    true_scores = list(data["result"]["scores"])
    data["result"]["scores"][0] += 1
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _out, err = run(["replay", str(path), "--check"], capsys)
    assert code == 2
    line = err.strip()
    assert "\n" not in line
    assert "scores" in line
    assert json.dumps(data["result"]["scores"]) in line
    assert json.dumps(true_scores) in line
    reason = data["result"]["reason"]
    assert line.count(reason) <= 1


# -- the numbers a person sees are the numbers the action text uses --------------------------


def test_typing_quest_1_sends_the_party_on_the_quest_shown_as_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quest:1\n1\n1\n1\n1\n"))
    path = tmp_path / "typed.json"
    code, out, err = run(
        [
            "play",
            "hack-and-slash",
            "--seat",
            "human",
            *BOTS[2:],
            "--seed",
            "3",
            "--delay",
            "0",
            "--option",
            "round_limit=1",
            "--record",
            str(path),
        ],
        capsys,
    )
    assert code == 0, err
    shown = re.search(r"│ 1\s+│ (.+?)\s+│", out)
    assert shown is not None, out
    first = shown.group(1)
    sent = re.search(r"Player 1 sends \d+ adventurers? on (.+?) \(", out)
    assert sent is not None
    assert sent.group(1) == first
    assert json.loads(path.read_text(encoding="utf-8"))["actions"][0] == "quest:1"


# -- an ending is headed as what it is -------------------------------------------------


def rage_result(ending: str, won: bool) -> Result:
    return Result(
        scores=(3.0,), ranks=(1,), winners=(0,) if won else (), ending=ending,
        reason=f"You {'win' if won else 'do not win'}: {ending}", won=won,
    )


def test_surviving_rage_without_enough_food_is_not_headed_defeat() -> None:
    from tavernkeep.terminal.render import ending_text

    rage = get_game("rage")
    survived = ending_text(rage, rage_result("survived", False), 0)
    assert "Defeat" not in survived and "Victory" not in survived
    assert "survived" in survived.lower()
    assert "Defeat" in ending_text(rage, rage_result("died", False), 0)
    assert "Victory" in ending_text(rage, rage_result("won", True), 0)


def test_a_competitive_ending_is_headed_for_the_person_who_reads_it() -> None:
    from tavernkeep.terminal.render import ending_text

    game = get_game("hack-and-slash")
    result = Result(
        scores=(2.0, 5.0, 1.0), ranks=(2, 1, 3), winners=(1,), ending="guild-empty",
        reason="Player 2 wins with 5 points",
    )
    assert "You win" in ending_text(game, result, 1)
    assert "Player 2 wins" in ending_text(game, result, 0)
    assert "Player 2 wins" in ending_text(game, result, None)


def test_the_end_of_a_rage_night_is_headed_as_the_engine_heads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "night.json"
    args = ["play", "rage", "--seat", "bot:heuristic", "--seed", "5", "--delay", "0"]
    code, out, err = run([*args, "--record", str(path)], capsys)
    assert code == 0, err
    data = json.loads(path.read_text(encoding="utf-8"))["result"]
    rage = get_game("rage")
    headline = rage.headline(Result(**data), None)
    assert headline in [line.strip() for line in out.splitlines()], out[-800:]
    if data["ending"] == "survived":
        assert "Defeat" not in out
