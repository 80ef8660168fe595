"""Makes helpers.py importable as `side_quest_helpers` by the test modules here.

pytest runs with --import-mode=importlib, which puts no test directory on sys.path, so a
test module cannot import a sibling by name. This conftest runs before the modules of its
directory are collected and loads helpers.py once under a fixed name (as
tests/games/crits_and_tricks/conftest.py does).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HELPERS = "side_quest_helpers"


def _load_helpers() -> None:
    if HELPERS in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(HELPERS, Path(__file__).parent / "helpers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[HELPERS] = module
    spec.loader.exec_module(module)


_load_helpers()
