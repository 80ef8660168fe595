"""Bad input to the command: one line on stderr, exit code 2, before any game is played.

Each case is a mistake a person really makes (an empty or unwritable --record, a negative
delay, a busy port, an unreachable cluster, a database in a missing folder) or a file
that is hostile or broken (a record nested thousands deep, an action number of thousands
of digits, a record naming /etc/passwd as its pack). Nothing may be played, written or
crashed before the error, and nothing stored may change.
"""

from __future__ import annotations

import io
import json
import os
import resource
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tavernkeep.cli import main

BOTS = ["--seat", "bot:heuristic", "--seat", "bot:random", "--seat", "bot:random"]
PLAY = ["play", "hack-and-slash", *BOTS, "--seed", "7", "--delay", "0"]
HUGE = "9" * 5000
"""More digits than Python will turn into an int (4,300)."""
DEEP = 5000


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def command(args: list[str], timeout: float = 120, memory: int | None = None) -> Any:
    """The real command in a subprocess, as a person runs it (piped, 120 columns)."""

    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(
        [sys.executable, "-m", "tavernkeep.cli", *args],
        input="",
        capture_output=True,
        text=True,
        timeout=timeout,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "120", "PYTHONIOENCODING": "utf-8"},
        check=False,
        preexec_fn=limit,
    )


def one_line_error(code: int, err: str) -> str:
    assert code == 2, err
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, err
    assert "error" in lines[0]
    assert "Traceback" not in err
    return lines[0]


def nothing_played(out: str) -> None:
    assert "Hack & Slash" not in out
    assert "Player 1" not in out


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "game.json"
    assert main([*PLAY, "--record", str(path)]) == 0
    return path


def tampered(record: Path, tmp_path: Path, **fields: Any) -> Path:
    data = json.loads(record.read_text(encoding="utf-8"))
    data.update(fields)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


# -- --record: checked before the game, never lost after it ----------------------------------


def test_an_empty_record_path_is_one_line_before_the_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run([*PLAY, "--record", ""], capsys)
    line = one_line_error(code, err)
    assert "--record" in line
    nothing_played(out)


def test_a_record_path_that_is_a_folder_is_one_line_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run([*PLAY, "--record", str(tmp_path)], capsys)
    line = one_line_error(code, err)
    assert str(tmp_path) in line and "folder" in line
    nothing_played(out)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_record_path_nobody_can_write_is_one_line_before_the_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # /proc refuses new files even to root, so this holds whoever runs the tests.
    target = "/proc/tavernkeep-game.json"
    code, out, err = run([*PLAY, "--record", target], capsys)
    line = one_line_error(code, err)
    assert target in line
    nothing_played(out)


def test_checking_the_record_path_leaves_no_file_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The destination is checked, then the seats: the bad seat stops the game, and the
    # check must not have left its trace in the folder.
    bad = ["play", "hack-and-slash", "--seat", "bot:foo", *BOTS[2:], "--delay", "0"]
    code, _out, err = run([*bad, "--record", str(tmp_path / "game.json")], capsys)
    one_line_error(code, err)
    assert list(tmp_path.iterdir()) == []


def test_a_record_still_saves_where_it_was_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "game.json"
    code, _out, err = run([*PLAY, "--record", str(target)], capsys)
    assert code == 0, err
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


# -- replay --delay -----------------------------------------------------------------------


def test_a_negative_replay_delay_is_one_line(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["replay", str(record), "--delay", "-3"], capsys)
    line = one_line_error(code, err)
    assert "delay" in line
    assert "#1" not in out  # not one action was shown


# -- serve: the port, the host and the database are checked before the server starts -------


def test_serve_on_a_busy_port_is_one_line_and_stores_nothing(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        database = tmp_path / "tables.db"
        done = command(
            ["serve", "--port", str(port), "--database-url", f"sqlite:///{database}"],
            timeout=60,
        )
    line = one_line_error(done.returncode, done.stderr)
    assert str(port) in line and "in use" in line
    assert not database.exists()


def test_serve_on_a_host_that_does_not_exist_is_one_line(tmp_path: Path) -> None:
    database = tmp_path / "tables.db"
    done = command(
        [
            "serve",
            "--host",
            "no-such-host.invalid",
            "--port",
            str(free_port()),
            "--database-url",
            f"sqlite:///{database}",
        ],
        timeout=60,
    )
    line = one_line_error(done.returncode, done.stderr)
    assert "no-such-host.invalid" in line
    assert not database.exists()


def test_serve_with_a_database_in_a_missing_folder_says_what_is_wrong() -> None:
    url = "sqlite:////nonexistent/dir/x.db"
    done = command(["serve", "--port", str(free_port()), "--database-url", url], timeout=60)
    line = one_line_error(done.returncode, done.stderr)
    assert "/nonexistent/dir/x.db" in line
    assert "OperationalError" not in line
    assert "cannot be opened or created" in line


def test_several_server_processes_on_sqlite_is_one_line_and_stores_nothing(
    tmp_path: Path,
) -> None:
    database = tmp_path / "tables.db"
    done = command(
        [
            "serve",
            "--workers",
            "3",
            "--port",
            str(free_port()),
            "--database-url",
            f"sqlite:///{database}",
        ],
        timeout=60,
    )
    line = one_line_error(done.returncode, done.stderr)
    assert "--workers 3 needs PostgreSQL" in line
    assert not database.exists()


def test_several_server_processes_on_an_unreachable_database_is_one_line_at_once() -> None:
    # Port 1 on loopback: nothing listens, so each connection is refused at once. The
    # processes are never started, to fail and be started again for ever.
    url = "postgresql://nobody:secret@127.0.0.1:1/none?connect_timeout=2"
    done = command(
        ["serve", "--workers", "2", "--port", str(free_port()), "--database-url", url], timeout=60
    )
    line = one_line_error(done.returncode, done.stderr)
    assert "cannot open database" in line and "secret" not in line


# -- simulate --ray to nowhere ---------------------------------------------------------------


def test_simulate_on_an_unreachable_ray_cluster_is_one_line_at_once() -> None:
    pytest.importorskip("ray")  # without it the one line says to install it
    address = f"127.0.0.1:{free_port()}"  # nothing listens there
    done = command(["simulate", "hack-and-slash", "--games", "2", "--ray", address], timeout=60)
    line = one_line_error(done.returncode, done.stderr)
    assert address in line
    assert done.stdout == ""


# -- records and packs nested thousands deep ------------------------------------------------


def test_a_record_nested_thousands_deep_is_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"game": ' + "[" * DEEP + "]" * DEEP + "}", encoding="utf-8")
    for check in ([], ["--check"]):
        code, _out, err = run(["replay", str(path), *check], capsys)
        assert str(path) in one_line_error(code, err)


@pytest.mark.parametrize(
    "nested",
    ["x = " + "[" * DEEP + "]" * DEEP, "x = " + "{a = " * DEEP + "}" * DEEP],
    ids=["arrays", "tables"],
)
def test_a_pack_nested_thousands_deep_is_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], nested: str
) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(nested + "\n", encoding="utf-8")
    for argv in (
        ["simulate", "hack-and-slash", "--games", "2", "--pack", str(path)],
        [*PLAY, "--pack", str(path)],
    ):
        code, out, err = run(argv, capsys)
        assert str(path) in one_line_error(code, err)
        nothing_played(out)


# -- numbers of thousands of digits ------------------------------------------------------


def test_an_action_number_of_thousands_of_digits_in_a_record_is_one_line(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(record.read_text(encoding="utf-8"))
    path = tampered(record, tmp_path, actions=[f"quest:{HUGE}", *data["actions"][1:]])
    for check in ([], ["--check"]):
        code, _out, err = run(["replay", str(path), *check], capsys)
        line = one_line_error(code, err)
        assert "action #1" in line
        assert len(line) < 300


def test_a_seed_of_thousands_of_digits_in_a_record_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "seed.json"
    path.write_text(
        '{"game": "hack-and-slash", "seed": ' + HUGE + ', "seats": []}', encoding="utf-8"
    )
    code, _out, err = run(["replay", str(path), "--check"], capsys)
    line = one_line_error(code, err)
    assert str(path) in line
    assert len(line) < 300


@pytest.mark.parametrize("typed", [HUGE, f"quest:{HUGE}"], ids=["number", "action"])
def test_a_person_typing_thousands_of_digits_is_told_and_asked_again(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    typed: str,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{typed}\nbrag\n1\n1\n1\n"))
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
    assert "is not a choice" in out
    assert HUGE not in out  # told in a line, not echoed back five thousand digits long
    assert json.loads(path.read_text(encoding="utf-8"))["actions"][0] == "brag"


# -- a record may not make the program read a file the user did not name --------------------


PACK = """
[[quest]]
name = "Rats"
challenge = 1
goal = 3
reward = 1

[[quest]]
name = "Wolves"
challenge = 2
goal = 7
reward = 2

[[quest]]
name = "Troll"
challenge = 3
goal = 12
reward = 5

[[quest]]
name = "Ghost"
challenge = 1
goal = 5
reward = 2
"""


@pytest.mark.parametrize("named", ["/etc/passwd", "/etc/hostname", "../../etc/passwd.toml"])
def test_a_records_pack_field_cannot_make_replay_read_a_file(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], named: str
) -> None:
    path = tampered(record, tmp_path, pack=named)
    for check in ([], ["--check"]):
        code, out, err = run(["replay", str(path), *check], capsys)
        line = one_line_error(code, err)
        assert named in line and "--pack" in line
        assert "root:" not in out + err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_record_naming_dev_zero_as_its_pack_is_one_line_at_once(
    record: Path, tmp_path: Path
) -> None:
    path = tampered(record, tmp_path, pack="/dev/zero")
    # Before, /dev/zero was read until memory ran out: cap memory so a relapse fails fast.
    done = command(["replay", str(path), "--check"], timeout=60, memory=2 * 1024**3)
    assert "/dev/zero" in one_line_error(done.returncode, done.stderr)


def test_a_pack_named_with_pack_replays_a_record_played_with_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = tmp_path / "mine.toml"
    pack.write_text(PACK, encoding="utf-8")
    path = tmp_path / "game.json"
    code, _out, err = run([*PLAY, "--pack", str(pack), "--record", str(path)], capsys)
    assert code == 0, err
    # Named on the command line it is read; named only by the record it is not.
    code, out, err = run(["replay", str(path), "--check", "--pack", str(pack)], capsys)
    assert code == 0, err
    assert out.startswith("OK")
    code, out, err = run(["replay", str(path), "--delay", "0", "--pack", str(pack)], capsys)
    assert code == 0, err
    code, _out, err = run(["replay", str(path), "--check"], capsys)
    assert "--pack" in one_line_error(code, err)
    # Another pack than the one played with is caught by the record's digest.
    other = tmp_path / "other.toml"
    other.write_text(PACK.replace("reward = 5", "reward = 6"), encoding="utf-8")
    code, _out, err = run(["replay", str(path), "--check", "--pack", str(other)], capsys)
    assert "digest" in one_line_error(code, err)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_pack_that_is_not_a_regular_file_is_one_line(tmp_path: Path) -> None:
    done = command(
        ["simulate", "hack-and-slash", "--games", "2", "--pack", "/dev/zero"],
        timeout=60,
        memory=2 * 1024**3,
    )
    assert "/dev/zero" in one_line_error(done.returncode, done.stderr)
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    done = command(["simulate", "hack-and-slash", "--games", "2", "--pack", str(fifo)], timeout=60)
    assert str(fifo) in one_line_error(done.returncode, done.stderr)


def test_a_record_of_a_game_with_a_name_thousands_long_is_one_short_line(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tampered(record, tmp_path, game="x" * 5000)
    for check in ([], ["--check"]):
        code, _out, err = run(["replay", str(path), *check], capsys)
        line = one_line_error(code, err)
        assert "unknown game" in line and len(line) < 300


def test_serve_with_a_policy_that_is_not_one_is_one_line_and_stores_nothing(
    tmp_path: Path,
) -> None:
    database = tmp_path / "tables.db"
    fake = tmp_path / "policy.npz"
    fake.write_text("not a policy")
    for policy, said in ((tmp_path / "missing.npz", "no such file"), (fake, "not a readable")):
        done = command(
            [
                "serve",
                "--port",
                str(free_port()),
                "--database-url",
                f"sqlite:///{database}",
                "--policy",
                str(policy),
            ],
            timeout=60,
        )
        line = one_line_error(done.returncode, done.stderr)
        assert f"bot:policy:{policy}" in line and said in line
    assert not database.exists()


def test_play_with_a_policy_for_another_table_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tavernkeep.agents.policy import Policy, save_policy
    from tavernkeep.games import encoding_of, get_game

    game = get_game("hack-and-slash")
    config = game.make_config({"players": 5})  # the table below has four
    encoding = encoding_of(game, config, game.load_pack(None))
    size, count = encoding.size, len(encoding.actions)
    layer = (np.zeros((count, size), np.float32), np.zeros(count, np.float32))
    path = tmp_path / "five.npz"
    save_policy(
        path,
        Policy(
            "hack-and-slash",
            config.model_dump(mode="json"),
            None,
            size,
            tuple(a.text for a in encoding.actions),
            (layer,),
            "tanh",
            {},
        ),
    )
    code, out, err = run([*PLAY[:2], "--seat", f"bot:policy:{path}", *PLAY[2:]], capsys)
    assert code == 2 and out == ""
    line = one_line_error(code, err)
    assert "cannot play this table: it was trained on hack-and-slash" in line
