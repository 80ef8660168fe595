"""Errors that reach a user as one clear line.

Every error the engine raises on bad input derives from `TavernkeepError`, so the command
line, the server and the tests can catch one type and print `str(error)`: a single line
naming what was wrong. None of them is raised after the state or stored data changed.
"""


class TavernkeepError(Exception):
    """Bad input from a person, a file or a network peer; the message is one line."""


class IllegalAction(TavernkeepError):
    """An action that is not legal now; the state is unchanged."""


class ContentError(TavernkeepError):
    """A content pack that is missing, malformed or inconsistent."""


class RecordError(TavernkeepError):
    """A game record that cannot be read or does not replay."""


class ConfigError(TavernkeepError):
    """A game configuration (players, variants) that the game does not allow."""


class SeatError(TavernkeepError):
    """A seat specification such as 'bot:foo' that names no known agent."""
