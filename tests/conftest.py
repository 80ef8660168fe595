"""Shared by every test: how the suite splits across the two workers (pytest-xdist).

The server and browser tests start servers, drive Chromium and share one PostgreSQL
database, so they run one after another on one worker (the "server" group); the engine,
game and command-line tests are pure and spread over the rest. `pytest -n 0` runs
everything in one process, where the grouping mark is simply unused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

SHARED = ("server", "browser")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        parts = Path(item.path).relative_to(here).parts
        if parts and parts[0] in SHARED:
            item.add_marker(pytest.mark.xdist_group("server"))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Every game's decision coverage (tests/games/test_every_decision.py), after the run:
    the tests hand their tables over as a `coverage` property, which pytest-xdist brings
    back from its workers."""
    tables = [
        value
        for key in ("passed", "failed")
        for report in terminalreporter.stats.get(key, [])
        for name, value in getattr(report, "user_properties", [])
        if name == "coverage" and report.when == "call"
    ]
    if tables:
        terminalreporter.section("decisions reached")
        for table in tables:
            terminalreporter.write_line(table)
