"""Shared by every test: how the suite splits across the two workers (pytest-xdist).

The server and browser tests start servers, drive Chromium and share one PostgreSQL
database, so they run one after another on one worker (the "server" group); the engine,
game and command-line tests are pure and spread over the rest. `pytest -n 0` runs
everything in one process, where the grouping mark is simply unused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = ("server", "browser")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        parts = Path(item.path).relative_to(here).parts
        if parts and parts[0] in SHARED:
            item.add_marker(pytest.mark.xdist_group("server"))
