"""tavernkeep: an engine, server and lab for dice-driven fantasy tabletop games."""

__version__ = "0.1.0"
