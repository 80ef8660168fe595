"""Every file the server or a game serves from its folder is installed with a regular
`pip install .`: package-data lists them by pattern, and a new folder of modules (the
table page's parts in static/table/) is left out of the wheel unless a pattern names it,
which an editable install never shows."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVED = (".js", ".css", ".html")


def test_every_served_file_is_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]
    missing = []
    for package, globs in patterns.items():
        if package == "*":
            continue
        folder = ROOT / "src" / Path(*package.split("."))
        matched = {path for pattern in globs for path in folder.glob(pattern)}
        for path in folder.rglob("*"):
            if path.suffix in SERVED and "__pycache__" not in path.parts and path not in matched:
                missing.append(str(path.relative_to(ROOT)))
    assert not missing, f"not installed by pyproject.toml's package-data: {missing}"
