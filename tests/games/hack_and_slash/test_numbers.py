"""The numbers a person sees are the numbers the action text uses, and the log and the
end screen tell the same round.

The screen (terminal and browser) numbers the face-up quests 1 to 3 beside the Brag, so
`quest:1` is the quest shown as 1. The log heads every turn with its round, a turn passed
for want of adventurers too, so the last round in the log is the round the end shows.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from rich.console import Console

from tavernkeep.agents import make_bot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import IllegalAction
from tavernkeep.engine.events import Event
from tavernkeep.engine.match import Match
from tavernkeep.engine.rng import ScriptedRng
from tavernkeep.games.hack_and_slash import GAME, HackAndSlashState
from tavernkeep.games.hack_and_slash.encoding import HackAndSlashEncoding
from tavernkeep.games.hack_and_slash.terminal import render


def new_state(seed: int = 3) -> HackAndSlashState:
    return GAME.setup(GAME.make_config({"players": 3}), seed)


def shown_slots(view: dict[str, Any]) -> dict[str, str]:
    """The quests as the terminal draws them: the number in the slot column -> name."""
    console = Console(width=160, force_terminal=False)
    with console.capture() as capture:
        console.print(render(view))
    slots = {}
    for line in capture.get().splitlines():
        match = re.match(r"│ (\d|Brag)\s+│ (.+?)\s+│", line)
        if match:
            slots[match.group(1)] = match.group(2)
    return slots


def test_the_quests_are_offered_by_the_numbers_on_the_screen() -> None:
    state = new_state()
    assert [a.text for a in GAME.legal_actions(state)] == ["quest:1", "quest:2", "quest:3", "brag"]


@pytest.mark.parametrize("number", [1, 2, 3])
def test_quest_n_attempts_the_quest_shown_as_n(number: int) -> None:
    state = new_state()
    slots = shown_slots(GAME.view(state, 0))
    action = Action("quest", number)
    assert GAME.label(state, action).startswith(slots[str(number)] + ":")
    events = GAME.apply(state, action)
    assert events[0].data["quest"] == slots[str(number)]
    assert f"on {slots[str(number)]} (" in events[0].text


@pytest.mark.parametrize("text", ["quest:0", "quest:4"])
def test_a_quest_number_off_the_screen_names_the_numbers_there_are(text: str) -> None:
    state = new_state()
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, Action.parse(text))
    assert "quest:1-3" in str(error.value)


def test_the_learning_encoding_lists_the_quests_by_the_same_numbers() -> None:
    encoding = HackAndSlashEncoding(players=3)
    assert [a.text for a in encoding.actions[:4]] == ["quest:1", "quest:2", "quest:3", "brag"]


def test_the_log_heads_every_turn_with_the_round_the_end_screen_shows() -> None:
    disagreed = []
    for seed in range(600):
        agents = [make_bot("bot:random", GAME) for _ in range(3)]
        match = Match.start(GAME, agents, seed)
        rounds: list[int] = []

        def heads(events: list[Event], state: Any, rounds: list[int] = rounds) -> None:
            rounds.extend(e.data["round"] for e in events if e.kind == "turn")

        result = match.run(on_events=heads)
        shown = GAME.view(match.state, None)["round"]
        if rounds[-1] != shown or result.facts["rounds"] != shown:
            disagreed.append((seed, rounds[-1], shown))
    assert disagreed == []


def test_a_passed_turn_is_headed_by_its_round() -> None:
    state = new_state()
    state.parties[1] = 0
    state.rng = ScriptedRng([6, 6, 6])  # Player 1's Brag succeeds; Player 2 must pass
    events = GAME.apply(state, Action("brag"))
    kinds = [(e.kind, e.data.get("seat")) for e in events if e.kind in ("turn", "pass")]
    assert ("turn", 1) in kinds and kinds.index(("turn", 1)) < kinds.index(("pass", 1))
