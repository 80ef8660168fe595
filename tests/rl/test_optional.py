"""The rl extra stays optional: the core never imports it (runs without the extra too);
the train extra is the CPU build of torch, and the docs name it one way."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_core_imports_no_rl_module() -> None:
    code = (
        "import sys, tavernkeep.cli, tavernkeep.lab.simulate, tavernkeep.server.app\n"
        "from tavernkeep.games import all_games\n"
        "all_games()\n"
        "loaded = [m for m in sys.modules if m.startswith(('tavernkeep.rl', 'pettingzoo', "
        "'gymnasium')) or m.endswith('.encoding')]\n"
        "print(loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_train_extra_is_the_cpu_build_these_machines_hold() -> None:
    """`pip install '.[train]'` took PyPI's newest torch, a CUDA build whose NVIDIA
    libraries made a 5.8 GB environment; the extra pins the CPU build that lies in these
    machines' local wheels (1.4 GB in all, README), the one the tests run on."""
    torch = pytest.importorskip("torch", reason="the train extra is not installed")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    pins = [r for r in extras["train"] if r.replace(" ", "").startswith("torch==")]
    assert pins, f"the train extra leaves torch open: {extras['train']}"
    assert torch.__version__.split("+")[0] == pins[0].split("==")[1]
    assert torch.version.cuda is None, f"torch {torch.__version__} is a CUDA build"
    assert "tavernkeep[train]" in extras["dev"]


def test_the_training_docs_name_one_extra_and_one_install() -> None:
    """Every place that says how to install what training needs says the same command."""
    places = [
        ROOT / "README.md",
        ROOT / "src/tavernkeep/rl/train.py",
        *sorted((ROOT / "examples").glob("train_*.py")),
    ]
    for place in places:
        said = set(re.findall(r"pip install [^`\n]*?\[train\]'?", place.read_text()))
        assert said, f"{place.name} does not say how to install the train extra"
        assert said <= {"pip install '.[train]'"}, f"{place.name}: {said}"
