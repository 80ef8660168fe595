"""`tavernkeep play`: a game at the terminal, people and bots around one table."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.prompt import Prompt

from tavernkeep.agents import check_seat, make_bot
from tavernkeep.agents.advice import advise
from tavernkeep.engine.actions import PASS, Action
from tavernkeep.engine.errors import IllegalAction, RecordError, TavernkeepError
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Agent, Game
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.records import destination_problem
from tavernkeep.engine.rng import Rng, random_seed
from tavernkeep.games import get_game
from tavernkeep.terminal.render import (
    Renderer,
    ending_text,
    event_line,
    odds_text,
    renderer_for,
)
from tavernkeep.terminal.rules import show_rules


class HumanAgent:
    """A person at the keyboard: sees the table, picks a numbered choice."""

    name = "human"

    def __init__(
        self, console: Console, render: Renderer, seat_names: list[str], advice: bool = False
    ) -> None:
        self.console = console
        self.render = render
        self.seat_names = seat_names
        self.advice = advice
        """Show the tutor's chance to win beside each choice (`play --advice`)."""
        self.wins: dict[Action, tuple[float, str]] = {}
        """The tutor's chance to win and line of why for the decision being asked, by
        choice."""

    def choose(self, info: InfoSet) -> Action:
        console = self.console
        actions = info.legal_actions()
        if actions == [PASS]:
            # A reaction window asks every seat, so that nobody learns who holds what;
            # with nothing to play, the only answer is given for the person.
            console.print(f"  {self.seat_names[info.seat]} passes (nothing to play)")
            return PASS
        console.print(self.render(info.view()))
        self.wins = {}
        if self.advice:
            # The search from this seat's view alone, with a stream of its own: thinking
            # for the person draws nothing from the table's dice.
            self.wins = {a.action: (a.win, a.reason) for a in advise(info, Rng(random_seed()))}
            console.print("[magenta]Advice: each choice's chance to win, by the search[/]")
        self.show_choices(info, actions)
        while True:
            answer = Prompt.ask("number or action (? for the rules)", console=console).strip()
            if answer.startswith("?"):
                # The rules, all or a section ("? dice"), then the same choice again.
                try:
                    show_rules(info.game, answer[1:].strip() or None, console)
                except TavernkeepError as exc:
                    console.print(f"[red]{exc}[/]")
                    continue
                self.show_choices(info, actions)
                continue
            try:
                return pick(answer, actions)
            except IllegalAction as exc:
                console.print(f"[red]{exc}[/]")

    def show_choices(self, info: InfoSet, actions: list[Action]) -> None:
        self.console.print(f"[bold cyan]{self.seat_names[info.seat]}, your choice:[/]")
        for number, action in enumerate(actions, start=1):
            chance = odds_text(info.odds(action))
            shown = f"  [cyan]{number}[/]. {info.label(action)}"
            shown += f"  [green]({chance})[/]" if chance else ""
            if action in self.wins:
                win, why = self.wins[action]
                shown += f"  [magenta]win {win:.0%}[/]"
                if why:
                    shown += f"\n      [magenta italic]{escape(why)}[/]"
            self.console.print(shown)


def pick(answer: str, actions: list[Action]) -> Action:
    """A typed answer: a choice number, or an action's text such as 'quest:1'."""
    shown = answer if len(answer) <= 40 else answer[:40] + "..."
    choose = f"type a number from 1 to {len(actions)}"
    if answer.isascii() and answer.isdigit():
        # No list has a choice of more than a few digits; Python will not even read one
        # of 4,300, so a longer answer is refused before it is read as a number.
        number = int(answer) if len(answer) <= 9 else 0
        if 1 <= number <= len(actions):
            return actions[number - 1]
        raise IllegalAction(f"'{shown}' is not a choice: {choose}")
    try:
        action = Action.parse(answer)
    except IllegalAction:
        raise IllegalAction(f"'{shown}' is not a choice: {choose}") from None
    if action not in actions:
        raise IllegalAction(f"'{shown}' is not legal now: {choose}")
    return action


def seat_names(seats: list[str]) -> list[str]:
    humans = seats.count("human")
    names = []
    for seat, spec in enumerate(seats):
        who = ("you" if humans == 1 else "human") if spec == "human" else spec
        names.append(f"Player {seat + 1} ({who})")
    return names


def build_agents(
    game: Game[Any, Any],
    seats: list[str],
    console: Console,
    render: Renderer,
    advice: bool = False,
    options: dict[str, Any] | None = None,
    pack: str | None = None,
) -> list[Agent]:
    # The table's config and pack, so that a trained policy is checked against them too.
    config = game.make_config({"players": len(seats), **(options or {})})
    loaded = game.load_pack(pack)
    for spec in seats:
        check_seat(spec, game, config, loaded)
    names = seat_names(seats)
    return [
        HumanAgent(console, render, names, advice) if spec == "human" else make_bot(spec, game)
        for spec in seats
    ]


def play_game(
    game_name: str,
    seats: list[str],
    seed: int | None,
    options: dict[str, Any],
    pack: str | None,
    record_path: Path | None,
    delay: float,
    advice: bool = False,
) -> None:
    game = get_game(game_name)
    if record_path is not None:
        # Say so now, not after an hour of play.
        problem = destination_problem(record_path)
        if problem is not None:
            raise RecordError(f"cannot write the record to {record_path}: {problem}")
    console = Console(highlight=False)
    render = renderer_for(game)
    agents = build_agents(game, seats, console, render, advice, options, pack)
    seed = random_seed() if seed is None else seed
    match = Match.start(game, agents, seed, options, pack, seats=seats)
    humans = [s for s, spec in enumerate(seats) if spec == "human"]
    # With one person at the table the log is theirs; with several, a spectator's.
    viewer = humans[0] if len(humans) == 1 else None
    console.print(
        f"[bold]{game.title}[/]: {', '.join(seat_names(seats))}. Seed {seed} "
        f"(replay with --seed {seed})."
    )

    def show(events: list[Event], state: Any) -> None:
        for event in events:
            seen = event.for_seat(viewer)
            if seen is not None:
                console.print(event_line(seen))
        actor = game.actor(state)
        if delay and actor is not None and seats[actor] != "human" and events:
            time.sleep(delay)

    show(match.opening, match.state)
    try:
        result = match.run(on_events=show)
    except (KeyboardInterrupt, EOFError):
        console.print("\n[yellow]Game stopped.[/]")
        if record_path is not None:
            match.record.save(record_path)
            console.print(f"The game so far is saved in {record_path}.")
        return
    console.print(render(game.view(match.state, viewer)))
    console.print(ending_text(game, result, viewer))
    if record_path is not None:
        match.record.save(record_path)
        console.print(f"Record saved in {record_path} (tavernkeep replay {record_path}).")
