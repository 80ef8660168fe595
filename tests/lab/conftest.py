"""The lab's tests run the command in this process and read what it printed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tavernkeep.cli import main

Run = Callable[[list[str]], tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    """`tavernkeep ARGS...`: its exit code, what it printed and what it said on stderr."""

    def command(argv: list[str]) -> tuple[int, str, str]:
        code = main(argv)
        out, err = capsys.readouterr()
        return code, out, err

    return command
