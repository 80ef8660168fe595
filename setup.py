"""The compiled build of the hot paths (everything else is in pyproject.toml).

A regular install (`pip install .`) compiles the modules simulations live in with mypyc
(the same type-checked Python, as C extensions; mypy comes with the build's requirements):
simulations run 1.5-2.7x faster. Where no C compiler or Python headers are found, or the
compiler fails, it says so in one line and installs pure Python, which runs anywhere;
`tavernkeep simulate` names the build it runs. An editable install (`pip install -e .`)
stays pure Python: compiled modules beside the sources would shadow every edit.
TAVERNKEEP_COMPILE=1 insists on compiling (a failure is an error), =0 never compiles.

Start from a clean `build/` folder (`rm -rf build`) after changing a compiled module:
setuptools reuses what it finds there, including modules compiled by an earlier build.
"""

import os
import shutil
import sys
import sysconfig
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HOT_PATHS = [
    "src/tavernkeep/engine/rng.py",
    "src/tavernkeep/engine/actions.py",
    "src/tavernkeep/engine/decisions.py",
    "src/tavernkeep/engine/match.py",
    "src/tavernkeep/engine/tally.py",
    "src/tavernkeep/agents/random_bot.py",
    "src/tavernkeep/games/hack_and_slash/rules.py",
    "src/tavernkeep/games/hack_and_slash/heuristic.py",
    "src/tavernkeep/games/here_to_slay/state.py",
    "src/tavernkeep/games/here_to_slay/cards.py",
    "src/tavernkeep/games/here_to_slay/table.py",
    "src/tavernkeep/games/here_to_slay/rolls.py",
    "src/tavernkeep/games/here_to_slay/effects.py",
    "src/tavernkeep/games/here_to_slay/turn.py",
    "src/tavernkeep/games/here_to_slay/rules.py",
    "src/tavernkeep/games/here_to_slay/heuristic.py",
    "src/tavernkeep/games/crits_and_tricks/state.py",
    "src/tavernkeep/games/crits_and_tricks/tricks.py",
    "src/tavernkeep/games/crits_and_tricks/history.py",
    "src/tavernkeep/games/crits_and_tricks/rules.py",
    "src/tavernkeep/games/crits_and_tricks/observer.py",
    "src/tavernkeep/games/crits_and_tricks/heuristic.py",
    "src/tavernkeep/games/rage/state.py",
    "src/tavernkeep/games/rage/turn.py",
    "src/tavernkeep/games/rage/rules.py",
    "src/tavernkeep/games/rage/heuristic.py",
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

FLAG = os.environ.get("TAVERNKEEP_COMPILE")


def say(line: str) -> None:
    print(f"tavernkeep: {line}", file=sys.stderr)


def building() -> bool:
    """Whether setuptools was asked to build (a wheel, an install), not an editable
    install or the metadata pip asks for first: mypyc does its work when called, so it
    is called only for a build."""
    return any(arg in ("bdist_wheel", "build", "build_ext", "install") for arg in sys.argv[1:])


def compiler_missing() -> str | None:
    """Why this machine cannot compile C extensions for this Python, or None."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(cc.split()[0]) is None:
        return f"no C compiler ({cc.split()[0]}) found"
    if not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
        return "no Python headers (Python.h) found"
    return None


class OptionalBuildExt(build_ext):
    """Compile the extensions; should the compiler fail, install pure Python instead
    (unless TAVERNKEEP_COMPILE=1 asked for the compiled build)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any compiler failure: the pure build still works
            if FLAG == "1":
                raise
            for ext in self.extensions:
                built = self.get_ext_fullpath(ext.name)
                if os.path.exists(built):
                    os.remove(built)
            say(f"the compiler failed ({type(exc).__name__}); installing pure Python")


def extensions() -> list[Any]:
    if FLAG == "0" or not building():
        return []
    missing = compiler_missing()
    if missing is not None and FLAG != "1":
        say(f"{missing}; installing pure Python (simulations 1.5-2.7x slower)")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if FLAG == "1":
            raise
        say("mypyc (part of mypy) is not installed; installing pure Python")
        return []
    say("compiling the hot paths with mypyc (a few minutes, once)")
    try:
        return list(mypycify(HOT_PATHS, opt_level="3"))
    except (Exception, SystemExit) as exc:  # mypyc's own check failed (a newer pydantic?)
        if FLAG == "1":
            raise
        say(f"mypyc could not compile ({type(exc).__name__}); installing pure Python")
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
