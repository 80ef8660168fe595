"""A game's How to play at the terminal: `tavernkeep rules GAME` and `?` at a prompt."""

from __future__ import annotations

import sys
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.padding import Padding

from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.game import Game
from tavernkeep.engine.howto import block_markdown
from tavernkeep.terminal.render import pictures_for


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


def rules_renderables(game: Game[Any, Any], section: str | None = None) -> list[RenderableType]:
    """The rules as a terminal prints them: the text, and each picture drawn by the game's
    terminal renderer where the text asks for it, its caption and notes under it."""
    rules_markdown(game, section)  # the section is checked, as for the Markdown
    how = game.how_to_play()
    assert how is not None
    pictures = pictures_for(game)
    out: list[RenderableType] = []
    for part in how.parts(section):
        if isinstance(part, str):
            out.append(Markdown(part))
            continue
        draw = pictures.get(part.name)
        if draw is not None:
            out.append(Padding(draw(), (1, 0, 0, 4)))
        out.append(Padding(Markdown(block_markdown(part)), (0, 0, 1, 4)))
    return out


def show_rules(game: Game[Any, Any], section: str | None, console: Console) -> None:
    """Print the rules; page them when a person reads them at a terminal."""
    text = Group(*rules_renderables(game, section))
    if console.is_terminal and sys.stdin.isatty():
        with console.pager(styles=True):
            console.print(text)
    else:
        console.print(text)
