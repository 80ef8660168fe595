"""Optional compiled build of the hot paths (everything else is in pyproject.toml).

With TAVERNKEEP_COMPILE=1, the modules that simulations live in are compiled with mypyc
(the same type-checked Python, as C extensions): random-bot simulation runs about 1.5x
faster. Without it, tavernkeep is pure Python and installs anywhere. Build it as a regular
(not editable) install, so that compiled modules never shadow sources you edit:

    pip install setuptools wheel mypy '.[dev]'
    TAVERNKEEP_COMPILE=1 pip install --no-build-isolation --force-reinstall --no-deps .

Start from a clean `build/` folder (`rm -rf build`): setuptools reuses what it finds there,
including modules compiled by an earlier build.
"""

import os

from setuptools import setup

HOT_PATHS = [
    "src/tavernkeep/engine/rng.py",
    "src/tavernkeep/engine/match.py",
    "src/tavernkeep/engine/tally.py",
    "src/tavernkeep/agents/random_bot.py",
    "src/tavernkeep/games/hack_and_slash/rules.py",
    "src/tavernkeep/games/here_to_slay/state.py",
    "src/tavernkeep/games/here_to_slay/cards.py",
    "src/tavernkeep/games/here_to_slay/table.py",
    "src/tavernkeep/games/here_to_slay/rolls.py",
    "src/tavernkeep/games/here_to_slay/effects.py",
    "src/tavernkeep/games/here_to_slay/turn.py",
    "src/tavernkeep/games/here_to_slay/rules.py",
    "src/tavernkeep/games/crits_and_tricks/state.py",
    "src/tavernkeep/games/crits_and_tricks/tricks.py",
    "src/tavernkeep/games/crits_and_tricks/history.py",
    "src/tavernkeep/games/crits_and_tricks/rules.py",
    "src/tavernkeep/games/rage/state.py",
    "src/tavernkeep/games/rage/turn.py",
    "src/tavernkeep/games/rage/rules.py",
    "src/tavernkeep/games/side_quest/state.py",
    "src/tavernkeep/games/side_quest/cards.py",
    "src/tavernkeep/games/side_quest/combat.py",
    "src/tavernkeep/games/side_quest/dungeon.py",
    "src/tavernkeep/games/side_quest/effects.py",
    "src/tavernkeep/games/side_quest/heroes.py",
    "src/tavernkeep/games/side_quest/locations.py",
    "src/tavernkeep/games/side_quest/monsters.py",
    "src/tavernkeep/games/side_quest/rolls.py",
    "src/tavernkeep/games/side_quest/turn.py",
    "src/tavernkeep/games/side_quest/rules.py",
    "src/tavernkeep/games/side_quest/heuristic.py",
]

ext_modules = []
if os.environ.get("TAVERNKEEP_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(HOT_PATHS, opt_level="3")

setup(ext_modules=ext_modules)
