"""The lab's tests run the command in this process and read what it printed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tavernkeep.cli import main
from tavernkeep.games import get_game

Run = Callable[[list[str]], tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    """`tavernkeep ARGS...`: its exit code, what it printed and what it said on stderr."""

    def command(argv: list[str]) -> tuple[int, str, str]:
        code = main(argv)
        out, err = capsys.readouterr()
        return code, out, err

    return command


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    """The standard Hack & Slash pack with the first quest's reward far too high (40): the
    first seat, first to reach it, wins a third of the games among four equal bots."""
    standard = get_game("hack-and-slash").content_dir / "standard.toml"
    text = standard.read_text(encoding="utf-8")
    at = text.index('name = "Rats in the Cellar"')
    reward = text.index("reward = 1\n", at)
    pack = tmp_path / "planted.toml"
    pack.write_text(text[:reward] + "reward = 40\n" + text[reward + len("reward = 1\n") :])
    return pack
