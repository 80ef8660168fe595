"""The rl extra stays optional: the core never imports it (runs without the extra too)."""

from __future__ import annotations

import subprocess
import sys


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
