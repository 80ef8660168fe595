"""The `tavernkeep` command: what a person types and what they see.

Most cases run `main()` in this process (fast); a few run the real command in a
subprocess, the way a person would, including one fed through stdin.
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

BOTS = ["--seat", "bot:heuristic", "--seat", "bot:random", "--seat", "bot:random"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def command(args: list[str], stdin: str = "", cwd: Path | None = None) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "tavernkeep.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "120", "PYTHONIOENCODING": "utf-8"},
        check=False,
    )


def assert_one_line_error(code: int, err: str) -> str:
    assert code == 2
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, err
    assert "error" in lines[0]
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished all-bot game, played and saved by the command itself."""
    path = tmp_path_factory.mktemp("records") / "game.json"
    code = main(
        ["play", "hack-and-slash", *BOTS, "--seed", "7", "--delay", "0", "--record", str(path)]
    )
    assert code == 0
    return path


# -- commands that work --------------------------------------------------------------


def test_games_lists_hack_and_slash_with_its_player_counts() -> None:
    done = command(["games"])
    assert done.returncode == 0, done.stderr
    assert "hack-and-slash" in done.stdout
    assert "Hack & Slash" in done.stdout
    assert "3-6" in done.stdout
    assert done.stderr == ""


def test_odds_prints_the_exact_chance(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["odds", "3d6>=12"], capsys)
    assert code == 0
    assert "0.3750" in out
    assert "81/216" in out
    assert err == ""


def test_play_with_bots_writes_a_record_that_checks(
    recorded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(recorded.read_text(encoding="utf-8"))
    assert data["game"] == "hack-and-slash"
    assert data["seed"] == 7
    assert data["seats"] == ["bot:heuristic", "bot:random", "bot:random"]
    assert data["actions"]
    assert data["result"]["winners"]
    code, out, err = run(["replay", str(recorded), "--check"], capsys)
    assert code == 0, err
    assert out.startswith("OK")
    assert data["result"]["reason"] in out


def test_the_same_seed_plays_the_same_game(
    recorded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    again = tmp_path / "again.json"
    code = main(
        ["play", "hack-and-slash", *BOTS, "--seed", "7", "--delay", "0", "--record", str(again)]
    )
    capsys.readouterr()
    assert code == 0
    assert json.loads(again.read_text()) == json.loads(recorded.read_text())


def test_replay_shows_the_game_to_its_end(
    recorded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["replay", str(recorded), "--delay", "0"], capsys)
    assert code == 0, err
    data = json.loads(recorded.read_text())
    assert f"#{len(data['actions'])} {data['actions'][-1]}" in out
    assert data["result"]["reason"] in " ".join(out.split())


@pytest.mark.parametrize("tamper", ["result", "action", "extra action", "seed"])
def test_a_tampered_record_fails_the_check(
    recorded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], tamper: str
) -> None:
    data = json.loads(recorded.read_text())
    if tamper == "result":
        data["result"]["scores"][0] += 1
    elif tamper == "action":
        # Send the first player on a different quest: the game takes another course.
        first = data["actions"][0]
        data["actions"][0] = next(
            a for a in ("quest:1", "quest:2", "quest:3", "brag") if a != first
        )
    elif tamper == "extra action":
        data["actions"].append("brag")
    else:
        data["seed"] += 1
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    code, out, err = run(["replay", str(path), "--check"], capsys)
    assert_one_line_error(code, err)
    assert "OK" not in out


def test_simulate_prints_one_json_object_the_same_for_any_number_of_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = [
        "simulate",
        "hack-and-slash",
        "--games",
        "200",
        "--seed",
        "5",
        "--json",
        *BOTS,
        "--seat",
        "bot:random",
    ]
    reports = []
    for workers in ("1", "2"):
        code, out, err = run([*args, "--workers", workers], capsys)
        assert code == 0, err
        lines = out.strip().split("\n")
        assert len(lines) == 1
        report = json.loads(lines[0])
        assert report["workers"] == int(workers)
        reports.append(report)
    one, two = reports
    for key in ("game", "games", "seed", "seats", "mean_turns", "endings"):
        assert key in one
    assert one["game"] == "hack-and-slash"
    assert one["games"] == 200
    assert one["seed"] == 5
    assert [s["agent"] for s in one["seats"]] == [
        "bot:heuristic",
        "bot:random",
        "bot:random",
        "bot:random",
    ]
    for seat, row in enumerate(one["seats"]):
        assert row["seat"] == seat
        assert {"wins", "win_rate", "ci95"} <= set(row)
        low, high = row["ci95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1
    assert sum(row["wins"] for row in one["seats"]) == pytest.approx(200)
    assert sum(one["endings"].values()) == 200
    assert one["seats"][0]["win_rate"] > 0.25  # the heuristic beats random play
    for report in reports:
        del report["elapsed_seconds"], report["workers"]
    assert one == two


def test_simulate_reports_here_to_slay_by_party_leader_and_game_length(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["simulate", "here-to-slay", "--games", "60", "--seed", "3", "--json"]
    seats = ["--seat", "bot:heuristic", "--seat", "bot:random", "--seat", "bot:random"]
    code, out, err = run([*args, *seats, "--option", "leaders=random", "--workers", "2"], capsys)
    assert code == 0, err
    report = json.loads(out)
    leaders = report["groups"]["leader"]
    assert leaders["heading"] == "Party Leader"
    # Three seats a game, each under one Leader; the wins under them are all the wins.
    assert sum(row["seats"] for row in leaders["rows"]) == 3 * 60
    assert sum(row["wins"] for row in leaders["rows"]) == pytest.approx(60)
    for row in leaders["rows"]:
        # The report's one definition: the whole interval more than 2 points off the
        # fair share, from at least 100 seat-games (a Leader here has about 30).
        low, high = row["ci95"]
        off = low > 1 / 3 + 0.02 or high < 1 / 3 - 0.02
        assert row["out_of_balance"] == (off and row["seats"] >= 100)
    assert set(report["endings"]) <= {"three-monsters", "full-party", "turn-limit"}
    turns = report["turns"]
    assert turns["median"] <= turns["p90"] <= turns["p99"] <= turns["max"]
    assert turns["mean"] == pytest.approx(report["mean_turns"])
    # The same games with one worker: the same report, Leader rows included.
    code, again, err = run([*args, *seats, "--option", "leaders=random"], capsys)
    assert code == 0, err
    second = json.loads(again)
    assert second["groups"] == report["groups"] and second["turns"] == report["turns"]

    code, table, err = run(["simulate", "here-to-slay", "--games", "20", *seats], capsys)
    assert code == 0, err
    assert "Party Leader" in table and "longest" in table


def test_simulate_reports_crits_and_tricks_by_quest_held_and_where_loot_came_from(
    capsys: pytest.CaptureFixture[str],
) -> None:
    seats = ["--seat", "bot:heuristic", "--seat", "bot:random", "--seat", "bot:random"]
    code, out, err = run(
        ["simulate", "crits-and-tricks", "--games", "40", "--seed", "2", "--json", *seats],
        capsys,
    )
    assert code == 0, err
    report = json.loads(out)
    rows = report["groups"]["quests_held"]["rows"]
    # Each seat keeps 3 quests a round for 3 rounds: 9 quest-seats a seat a game, at most.
    assert 0 < sum(row["seats"] for row in rows) <= 40 * 3 * 9
    assert all(row["wins"] <= row["seats"] for row in rows)
    parts = report["score_parts"]
    assert set(parts) == {"loot_from_bards", "loot_from_quests", "loot_from_barkeep"}
    assert sum(p["share"] for p in parts.values()) == pytest.approx(1)
    mean_score = sum(seat["mean_score"] for seat in report["seats"]) / 3
    assert sum(p["mean_per_seat"] for p in parts.values()) == pytest.approx(mean_score)
    assert report["seats"][0]["win_rate"] > 0.5  # the heuristic bot against two random ones


def test_a_list_option_is_given_with_commas(capsys: pytest.CaptureFixture[str]) -> None:
    seats = ["--seat", "bot:random", "--seat", "bot:random"]
    args = ["simulate", "crits-and-tricks", "--games", "3", "--seed", "1", *seats]
    code, out, err = run([*args, "--json", "--option", "suits=wizard,druid,paladin"], capsys)
    assert code == 0, err
    assert json.loads(out)["options"] == {"suits": ["wizard", "druid", "paladin"]}
    code, out, err = run([*args, "--option", "suits=wizard,wizard,paladin"], capsys)
    assert code == 2 and "three different suits" in err and "Traceback" not in err
    code, out, err = run([*args, "--option", "suits=wizard,elf,paladin"], capsys)
    assert code == 2 and "suits" in err and len(err.strip().splitlines()) == 1


def test_simulate_prints_a_table_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        ["simulate", "hack-and-slash", "--games", "20", "--seed", "1", *BOTS], capsys
    )
    assert code == 0, err
    assert "bot:heuristic" in out and "win rate" in out


def test_play_reprompts_a_person_after_an_invalid_choice(tmp_path: Path) -> None:
    record = tmp_path / "human.json"
    # 99 is no choice; then the Brag; "1" answers any rescue question with "quit".
    done = command(
        [
            "play",
            "hack-and-slash",
            "--seat",
            "human",
            "--seat",
            "bot:random",
            "--seat",
            "bot:random",
            "--seed",
            "7",
            "--delay",
            "0",
            "--option",
            "round_limit=1",
            "--record",
            str(record),
        ],
        stdin="99\nbrag\n1\n1\n1\n",
    )
    assert done.returncode == 0, done.stderr
    assert "'99' is not a choice" in done.stdout
    assert "Player 1 sends 1 adventurer on Brag at the Tavern" in done.stdout
    data = json.loads(record.read_text())
    assert data["actions"][0] == "brag"
    assert data["result"] is not None


def test_play_in_process_reads_a_persons_typed_action(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:

    monkeypatch.setattr(sys, "stdin", io.StringIO("brag:1\nquest:1\n1\n1\n1\n"))
    record = tmp_path / "typed.json"
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
            str(record),
        ],
        capsys,
    )
    assert code == 0, err
    assert "'brag:1' is not legal now" in out
    assert json.loads(record.read_text())["actions"][0] == "quest:1"


def test_a_person_who_stops_keeps_the_game_so_far(tmp_path: Path) -> None:
    record = tmp_path / "stopped.json"
    done = command(
        [
            "play",
            "hack-and-slash",
            "--seat",
            "human",
            "--seat",
            "bot:random",
            "--seat",
            "bot:random",
            "--seed",
            "2",
            "--delay",
            "0",
            "--record",
            str(record),
        ],
        stdin="",
    )
    assert done.returncode == 0, done.stderr
    assert "stopped" in done.stdout
    data = json.loads(record.read_text())
    assert data["actions"] == []
    assert data["result"] is None


# -- mistakes: one line on stderr, exit code 2 ----------------------------------------------


@pytest.fixture
def bad_pack(tmp_path: Path) -> str:
    path = tmp_path / "bad.toml"
    path.write_text('[[quest]]\nname = "Only"\nchallenge = 1\ngoal = 9\n', encoding="utf-8")
    return str(path)


@pytest.fixture
def corrupt_record(tmp_path: Path) -> str:
    path = tmp_path / "corrupt.json"
    path.write_text('{"format": "tavernkeep-record", "game": ', encoding="utf-8")
    return str(path)


MISTAKES = [
    pytest.param(
        ["simulate", "hack-and-slash", "--games", "2", "--variant", "round_limit"],
        "round_limit",
        id="variant-on-a-number-option",
    ),
    pytest.param(
        ["simulate", "hack-and-slash", "--games", "2", "--option", "adventurers=yes"],
        "adventurers",
        id="yes-for-a-number-option",
    ),
    pytest.param(
        ["frobnicate"],
        "frobnicate",
        id="unknown-command",
    ),
    pytest.param(
        ["simulate", "hack-and-slash", "--frobnicate"],
        "frobnicate",
        id="unknown-option",
    ),
    pytest.param(
        ["simulate", "hack-and-slash", "--games", "0"],
        "games",
        id="zero-games",
    ),
    pytest.param(
        ["simulate", "hack-and-slash", "--workers", "0"],
        "workers",
        id="zero-workers",
    ),
    pytest.param(
        ["simulate"],
        "GAME",
        id="missing-argument",
    ),
    pytest.param(["simulate", "chess", "--games", "2"], "chess", id="unknown-game"),
    pytest.param(["play", "chess", "--delay", "0"], "chess", id="unknown-game-play"),
    pytest.param(
        [
            "simulate",
            "hack-and-slash",
            "--games",
            "2",
            "--seat",
            "bot:foo",
            "--seat",
            "bot:random",
            "--seat",
            "bot:random",
        ],
        "bot:foo",
        id="unknown-seat",
    ),
    pytest.param(
        [
            "play",
            "hack-and-slash",
            "--delay",
            "0",
            "--seat",
            "bot:foo",
            "--seat",
            "bot:random",
            "--seat",
            "bot:random",
        ],
        "bot:foo",
        id="unknown-seat-play",
    ),
    pytest.param(
        [
            "simulate",
            "hack-and-slash",
            "--games",
            "2",
            "--seat",
            "human",
            "--seat",
            "bot:random",
            "--seat",
            "bot:random",
        ],
        "bots only",
        id="human-in-simulate",
    ),
    pytest.param(
        ["simulate", "hack-and-slash", "--games", "2", "--option", "nonsense"],
        "nonsense",
        id="option-not-key-value",
    ),
    pytest.param(
        ["simulate", "hack-and-slash", "--games", "2", "--option", "players=3"],
        "seat",
        id="option-players",
    ),
    pytest.param(
        ["simulate", "hack-and-slash", "--games", "2", "--option", "colour=red"],
        "colour",
        id="unknown-game-option",
    ),
    pytest.param(
        ["simulate", "hack-and-slash", "--games", "2", "--option", "round_limit=soon"],
        "round_limit",
        id="option-wrong-type",
    ),
    pytest.param(
        [
            "simulate",
            "hack-and-slash",
            "--games",
            "2",
            "--seat",
            "bot:random",
            "--seat",
            "bot:random",
        ],
        "two_player",
        id="two-seats-no-variant",
    ),
    pytest.param(
        ["play", "hack-and-slash", "--delay", "0"] + ["--seat", "bot:random"] * 7,
        "7",
        id="seven-seats",
    ),
    pytest.param(
        ["simulate", "hack-and-slash", "--games", "2", "--pack", "BAD_PACK"],
        "quest",
        id="malformed-pack",
    ),
    pytest.param(
        ["play", "hack-and-slash", "--delay", "0", *BOTS, "--pack", "BAD_PACK"],
        "quest",
        id="malformed-pack-play",
    ),
    pytest.param(
        ["simulate", "hack-and-slash", "--games", "2", "--pack", "expansion"],
        "expansion",
        id="unknown-built-in-pack",
    ),
    pytest.param(["replay", "CORRUPT"], "JSON", id="corrupt-record"),
    pytest.param(["replay", "CORRUPT", "--check"], "JSON", id="corrupt-record-check"),
    pytest.param(["replay", "/no/such/record.json", "--check"], "no such", id="missing-record"),
    pytest.param(["odds", "3d6"], "3d6", id="odds-without-goal"),
    pytest.param(["odds", "2d8>=9", "--rescue"], "rescue", id="odds-rescue-not-d6"),
]


@pytest.mark.parametrize(("argv", "named"), MISTAKES)
def test_a_mistake_is_one_line_on_stderr_and_exit_code_2(
    argv: list[str],
    named: str,
    bad_pack: str,
    corrupt_record: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [bad_pack if a == "BAD_PACK" else corrupt_record if a == "CORRUPT" else a for a in argv]
    code, _out, err = run(argv, capsys)
    line = assert_one_line_error(code, err)
    assert named.lower() in line.lower()


def test_an_unknown_command_in_a_real_terminal_is_one_line() -> None:
    done = command(["frobnicate"])
    assert_one_line_error(done.returncode, done.stderr)


def test_no_arguments_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([], capsys)
    assert code == 0
    assert "Usage" in out + err
    assert "Traceback" not in err


def test_a_seed_too_large_to_record_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(
        ["play", "hack-and-slash", *BOTS, "--delay", "0", "--seed", str(2**64)], capsys
    )
    assert_one_line_error(code, err)


def test_a_record_path_in_a_missing_folder_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "no-such-folder" / "game.json"
    code, _out, err = run(
        ["play", "hack-and-slash", *BOTS, "--delay", "0", "--seed", "1", "--record", str(target)],
        capsys,
    )
    assert_one_line_error(code, err)


def test_two_players_play_with_the_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for flag in ("two_player", "two-player"):
        record = tmp_path / f"{flag}.json"
        code, _out, err = run(
            [
                "play",
                "hack-and-slash",
                "--seat",
                "bot:heuristic",
                "--seat",
                "bot:random",
                "--variant",
                flag,
                "--seed",
                "4",
                "--delay",
                "0",
                "--record",
                str(record),
            ],
            capsys,
        )
        assert code == 0, err
        data = json.loads(record.read_text())
        assert data["config"]["players"] == 2
        assert data["config"]["two_player"] is True
        assert data["result"] is not None


def test_a_superscript_digit_is_reprompted_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:

    monkeypatch.setattr(sys, "stdin", io.StringIO("²\nbrag\n1\n1\n1\n"))
    record = tmp_path / "typed.json"
    code, _out, err = run(
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
            str(record),
        ],
        capsys,
    )
    assert code == 0, err
    assert json.loads(record.read_text())["actions"][0] == "brag"


def test_simulate_side_quest_plays_its_grid_of_scenarios_and_heroes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["simulate", "side-quest", "--games", "3", "--seed", "4", "--json"]
    code, out, err = run([*args, "--workers", "2"], capsys)
    assert code == 0, err
    grid = json.loads(out)
    assert grid["grid"] == ["scenario", "players"]
    cells = {(c["cell"]["scenario"], c["cell"]["players"]): c for c in grid["cells"]}
    assert len(cells) == 3 * 4  # three scenarios, one to four heroes
    for (_, players), cell in cells.items():
        assert cell["seats"] == ["bot:heuristic"] * players
        assert sum(cell["endings"].values()) == 3
        low, high = cell["ci95"]
        assert 0 <= low <= cell["win_rate"] <= high <= 1
    # A cell's figures are its own: played alone, the same games.
    name, players = next(iter(cells))
    alone = [*args, "--option", f"scenario={name}"]
    alone += ["--seat", "bot:heuristic"] * players
    code, out, err = run(alone, capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["endings"] == cells[(name, players)]["endings"]
    # Fixing the scenario leaves the heroes open: a row of four cells.
    code, out, err = run([*args, "--option", f"scenario={name}"], capsys)
    assert code == 0, err
    assert len(json.loads(out)["cells"]) == 4


def test_simulate_rage_reports_each_ending_for_each_bot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(["simulate", "rage", "--games", "4", "--seed", "2"], capsys)
    assert code == 0, err
    assert "bot:heuristic" in out and "bot:random" in out
    assert "how the games ended" in out
    args = ["simulate", "rage", "--games", "20", "--seed", "2", "--json", "--workers", "2"]
    code, out, err = run(args, capsys)
    grid = json.loads(out)
    assert [c["cell"]["bot"] for c in grid["cells"]] == ["bot:heuristic", "bot:random"]
    planner, random_bot = grid["cells"]
    assert planner["win_rate"] > random_bot["win_rate"]
    for cell in grid["cells"]:
        assert sum(cell["endings"].values()) == 20
        assert set(cell["endings"]) <= {"died", "survived", "won", "knighted", "wanders", "dawn"}


def test_play_without_seats_seats_you_at_the_games_usual_table() -> None:
    from tavernkeep.cli import default_seats

    assert default_seats("hack-and-slash") == [
        "human",
        "bot:heuristic",
        "bot:heuristic",
        "bot:random",
    ]
    assert default_seats("side-quest") == ["human", "bot:heuristic"]  # the bot team
    assert default_seats("rage") == ["human"]  # a solo game


def test_a_solo_game_refuses_a_second_seat_in_plain_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(["play", "rage", "--seat", "human", "--seat", "bot:random"], capsys)
    assert code == 2
    assert "Rage takes 1 player, not 2" in err


def test_rules_prints_how_to_play_and_one_section_on_its_own(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(["rules", "hack-and-slash"], capsys)
    assert code == 0, err
    assert "How to play Hack & Slash" in out
    from tavernkeep.games import get_game

    how = get_game("hack-and-slash").how_to_play()
    assert how is not None
    for section in how.sections:
        assert section.title in out
    assert "{#" not in out, "section ids are for links, not for reading"
    code, dice, err = run(["rules", "hack-and-slash", "--section", "dice"], capsys)
    assert code == 0, err
    assert "How to play Hack & Slash" not in dice and len(dice) < len(out) / 3


def test_rules_of_a_section_that_is_not_one_is_a_line_naming_the_sections(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(["rules", "hack-and-slash", "--section", "nope"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "no section 'nope' (sections: goal, table, turn," in err


def test_a_question_mark_at_the_prompt_shows_the_rules_then_asks_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("? dice\n? nope\nquest:1\n1\n1\n1\n"))
    record = tmp_path / "asked.json"
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
            str(record),
        ],
        capsys,
    )
    assert code == 0, err
    dice = run(["rules", "hack-and-slash", "--section", "dice"], capsys)[1]
    assert dice.strip().splitlines()[0] in out
    assert "no section 'nope'" in out
    # The same choice was asked again after each, and the game went on from it.
    assert out.count("Player 1 (you), your choice:") >= 3
    assert json.loads(record.read_text())["actions"][0] == "quest:1"


def test_play_with_advice_shows_each_choices_chance_and_why_and_plays_the_same_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    records = []
    for advice in ([], ["--advice"]):
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n1\n1\n1\n1\n"))
        record = tmp_path / f"advised{len(advice)}.json"
        argv = ["play", "hack-and-slash", "--seat", "human", *BOTS[2:], "--seed", "3"]
        argv += ["--delay", "0", "--option", "round_limit=1", "--record", str(record)]
        code, out, err = run([*argv, *advice], capsys)
        assert code == 0, err
        advised = re.findall(r"win \d+%", out)
        assert bool(advised) == bool(advice), out[-800:]
        # And under each quest, the heuristic's line of why: its chance, prize and risk.
        why = re.findall(r"\d+% to complete it.*, for .+; \d+ adventurers? at stake", out)
        assert bool(why) == bool(advice), out[-800:]
        records.append(json.loads(record.read_text()))
    # The tutor thinks with a stream of its own: the game is the same with it or without.
    assert records[0]["actions"] == records[1]["actions"]
    assert records[0]["result"] == records[1]["result"]
