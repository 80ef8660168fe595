"""Drawing a game in the terminal: the game's own renderer, or a readable generic one.

A game may ship `games/<game>/terminal.py` with `render(view) -> RenderableType`; the
terminal uses it when present, and otherwise shows the view as a tree, so a game is
playable here from the day its rules exist. The same module may draw the pictures its How
to play asks for (`PICTURES`: a picture's name to a function drawing it).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol

from rich.console import RenderableType
from rich.markup import escape
from rich.pretty import Pretty

from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Game, Result

DIE_FACES = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}


class Renderer(Protocol):
    def __call__(self, view: dict[str, Any]) -> RenderableType: ...


def generic_render(view: dict[str, Any]) -> RenderableType:
    return Pretty(view, expand_all=False)


def _terminal_module(game: Game[Any, Any]) -> Any:
    package = type(game).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.terminal")
    except ModuleNotFoundError:
        return None


def renderer_for(game: Game[Any, Any]) -> Renderer:
    module = _terminal_module(game)
    if module is None:
        return generic_render
    render: Renderer = module.render
    return render


def pictures_for(game: Game[Any, Any]) -> dict[str, Callable[[], RenderableType]]:
    """The pictures the game's terminal renderer draws for its How to play, by name."""
    pictures: dict[str, Callable[[], RenderableType]] = getattr(
        _terminal_module(game), "PICTURES", {}
    )
    return pictures


def dice_text(dice: list[int]) -> str:
    return "  ".join(f"{DIE_FACES.get(d, '')}{d}" for d in dice)


GOOD = frozenset({"success", "slay", "quest", "loot"})
BAD = frozenset({"failure", "punished"})
"""Event kinds that are an outcome, coloured as one (a game may use either or neither)."""


def event_line(event: Event) -> str:
    """One line of the game log (Rich markup); dice get their faces, outcomes a colour.

    A roll's outcome is coloured when the event says it (data "success"); a roll still
    open to Modifiers has none yet, and a Modifier's line shows the roll's new total. Any
    other event that says it failed (data "success" false, e.g. a Loot that finds nothing)
    is red whatever its kind, as the browser's log shows it.
    """
    text = escape(event.text)
    data = event.data
    if event.kind == "roll":
        dice = data.get("dice", [])
        if "success" in data:
            colour = "green" if data["success"] else "red"
            return f"  🎲 {dice_text(dice)}   [{colour}]{text}[/]"
        return f"  🎲 {dice_text(dice)}   [bold]{text}[/]"
    if event.kind == "modifier" and "total" in data:
        return f"  ± [yellow]{text}[/]"
    if event.kind == "dice":  # a seat's dice, rolled in the open (Crits & Tricks)
        return f"  🎲 {text}"
    if event.kind == "crit":
        return f"  ± [yellow]{text}[/]"
    if data.get("success") is False:
        return f"  [red]{text}[/]"
    if event.kind in GOOD:
        return f"  [green]{text}[/]"
    if event.kind in BAD:
        return f"  [red]{text}[/]"
    if event.kind in ("game-over", "end-triggered", "extra-round"):
        return f"[bold yellow]{text}[/]"
    if event.kind in ("turn", "round", "trick"):
        return f"[bold]{text}[/]"
    return f"  {text}"


def odds_text(odds: dict[str, float]) -> str:
    return ", ".join(
        f"{value:.0%}" if name == "success" else f"{value:.0%} {name}"
        for name, value in odds.items()
    )


def ending_text(game: Game[Any, Any], result: Result, seat: int | None) -> str:
    """The end of a game for `seat`'s reader (Rich markup): the game's headline, coloured
    as what it is (a victory green, a defeat red, anything between yellow), then why."""
    headline = game.headline(result, seat)
    if result.won is True or (seat is not None and seat in result.winners):
        colour = "green"
    elif result.won is False and result.ending not in game.ending_headlines:
        colour = "red"
    else:
        colour = "yellow"
    return f"[bold {colour}]{escape(headline)}[/]\n{escape(result.reason)}."
