"""tavernkeep: an engine, server and lab for dice-driven fantasy tabletop games."""

__version__ = "0.1.0"


def build() -> str:
    """Which build runs: "compiled" where the hot paths are the C extensions setup.py
    builds with mypyc (1.5-2.7x faster simulations), else "pure Python"."""
    from tavernkeep.engine import rng

    return "pure Python" if rng.__file__.endswith(".py") else "compiled"
