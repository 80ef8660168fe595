"""A game's How to play at the terminal: `tavernkeep rules GAME` and `?` at a prompt."""

from __future__ import annotations

import sys
from typing import Any

from rich.console import Console
from rich.markdown import Markdown

from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.game import Game


def rules_markdown(game: Game[Any, Any], section: str | None = None) -> str:
    """The game's How to play, or one section of it, as Markdown; ConfigError naming the
    sections there are when `section` is none of them."""
    how = game.how_to_play()
    if how is None:
        raise ConfigError(f"{game.title} has no How to play yet")
    if section is not None and how.section(section) is None:
        ids = ", ".join(s.id for s in how.sections)
        raise ConfigError(
            f"{game.title}'s rules have no section '{section[:40]}' (sections: {ids})"
        )
    return how.markdown(section)


def show_rules(game: Game[Any, Any], section: str | None, console: Console) -> None:
    """Print the rules; page them when a person reads them at a terminal."""
    text = Markdown(rules_markdown(game, section))
    if console.is_terminal and sys.stdin.isatty():
        with console.pager(styles=True):
            console.print(text)
    else:
        console.print(text)
