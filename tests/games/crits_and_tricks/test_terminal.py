"""Crits & Tricks at the terminal: what a seat's screen shows, and a game played at the command.

Positions are real games on the standard pack: a seed, then actions chosen at random (seeded)
until the position wanted comes up. The screen is Rich's text export at width 120.
"""

from __future__ import annotations

import io
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.markup import escape

import tavernkeep.games
from tavernkeep.cli import main
from tavernkeep.engine.events import Event
from tavernkeep.games.crits_and_tricks import GAME, CritsAndTricksState
from tavernkeep.games.crits_and_tricks.terminal import render
from tavernkeep.terminal.render import event_line, renderer_for

PACK = GAME.load_pack()


def new_game(seed: int, players: int = 3) -> CritsAndTricksState:
    return GAME.setup(GAME.make_config({"players": players}), seed, PACK)


def screen(view: dict[str, Any]) -> str:
    console = Console(record=True, width=120)
    console.print(render(view))
    return console.export_text()


def flat(text: str) -> str:
    """The screen with runs of spaces and line breaks as one space (wrapped cells rejoin)."""
    return " ".join(text.split())


def top(st: CritsAndTricksState) -> str:
    return st.stack[-1].kind if st.stack else ""


def play_until(
    wanted: Callable[[CritsAndTricksState], bool], players: int = 3, seed: int = 1
) -> CritsAndTricksState:
    """The first position `wanted` in a seeded game of random moves (a few seeds tried)."""
    for tries in range(20):
        st = new_game(seed + tries, players)
        rng = random.Random(seed + tries)
        while GAME.actor(st) is not None:
            if wanted(st):
                return st
            GAME.apply(st, rng.choice(GAME.legal_actions(st)))
        if wanted(st):
            return st
    raise AssertionError("no such position in 20 games")


def waiting_for(kind: str) -> Callable[[CritsAndTricksState], bool]:
    return lambda st: top(st) == kind


def dice_cells(st: CritsAndTricksState, seat: int) -> str:
    view = GAME.view(st, None)
    dice = view["seats"][seat]["dice"]
    return " ".join(f"d{d['die']}:{d['value']}" + ("✗" if d["used"] else "") for d in dice)


# -- what a seat sees -----------------------------------------------------------------


def test_a_seat_sees_its_hand_grouped_and_its_quests_and_not_the_others() -> None:
    st = play_until(lambda s: top(s) == "play" and s.round == 1 and s.trick == 2)
    seat = GAME.actor(st)
    assert seat is not None
    view = GAME.view(st, seat)
    text = flat(screen(view))
    counts: dict[str, int] = {}
    for card in view["seats"][seat]["hand"]:
        counts[card["suit"]] = counts.get(card["suit"], 0) + 1
    for suit, count in counts.items():
        assert f"{suit} ×{count}" in text
    assert f"Your hand ({sum(counts.values())})" in text
    mine = view["seats"][seat]["quests"]
    assert mine, "the seat keeps three quests"
    for quest in mine:
        assert quest["name"] in text and quest["text"] in text
    # A quest another seat holds: its name is nowhere in this seat's view, nor on screen.
    seen = json.dumps(view)
    theirs = [PACK.content.quest[q].name for s in range(3) if s != seat for q in st.quests[s]]
    hidden = [name for name in theirs if name not in seen]
    assert hidden
    for name in hidden:
        assert name not in text
    for s in view["seats"]:  # every seat's quests, as counts
        assert f"Player {s['seat'] + 1}" in text
        assert f"{s['quests_held']} held" in text


def test_the_quest_offer_is_shown_to_the_one_choosing_only() -> None:
    st = new_game(4)
    assert top(st) == "give_up"
    chooser = st.stack[-1].seat
    offered = [PACK.content.quest[q].name for q in st.offered[chooser]]
    text = flat(screen(GAME.view(st, chooser)))
    assert "Quests dealt to you: give up one" in text
    for name in offered:
        assert name in text
    assert f"▶ Player {chooser + 1} (you) chooses a quest to give up" in text
    other = (chooser + 1) % 3
    elsewhere = flat(screen(GAME.view(st, other)))
    assert f"▶ Player {chooser + 1} chooses a quest to give up" in elsewhere
    assert not [name for name in offered if name in elsewhere]


def test_every_seats_dice_are_shown_used_ones_marked() -> None:
    st = play_until(lambda s: s.trick >= 3 and top(s) == "play")
    text = screen(GAME.view(st, 0))
    for seat in range(3):
        assert dice_cells(st, seat) in text
    assert "✗" in text  # two tricks in, dice have been used


def test_the_trick_on_the_table_after_a_play() -> None:
    st = play_until(lambda s: len(s.table) == 2 and top(s) == "play")
    view = GAME.view(st, GAME.actor(st))
    text = flat(screen(view))
    assert f"On the table: trick {view['trick']}, led {view['led']}" in text
    for lay in view["table"]:
        row = f"Player {lay['seat'] + 1}"
        assert f"{row} " in text
        assert f"{lay['card']['suit']} │ d{lay['die']} │ {lay['value']}" in text
    assert f"plays to the trick: {view['led']} led" in text


def test_the_decision_line_says_who_decides_what() -> None:
    lines = {
        "barkeep": "chooses the Barkeep's Challenge",
        "reroll": "may re-roll: the d",
        "crit": "may use crits (2 left)",
    }
    for kind, words in lines.items():
        st = play_until(waiting_for(kind))
        seat = st.stack[-1].seat
        text = flat(screen(GAME.view(st, (seat + 1) % 3)))
        assert f"▶ Player {seat + 1} {words}" in text
    st = play_until(lambda s: top(s) == "play" and not s.table)
    seat = st.stack[-1].seat
    assert f"▶ Player {seat + 1} (you) leads trick {st.trick}" in flat(screen(GAME.view(st, seat)))


def test_a_crit_and_a_rogue_crit_are_marked_on_the_table() -> None:
    st = play_until(lambda s: any(c.order > s.players for c in s.table))
    text = flat(screen(GAME.view(st, 0)))
    assert "crits " in text and "last (Rogue)" in text


def test_two_players_see_the_public_quests() -> None:
    st = play_until(lambda s: top(s) == "play", players=2)
    view = GAME.view(st, 1)
    text = flat(screen(view))
    assert view["public_quests"]
    assert "Quests laid out for both" in text
    for quest in view["public_quests"]:
        assert quest["name"] in text


def test_a_finished_round_lists_its_tricks_and_the_end_shows_the_result() -> None:
    st = play_until(lambda s: len(s.tricks) == 3 and top(s) == "play")
    text = flat(screen(GAME.view(st, 0)))
    assert f"Tricks of round {st.round}" in text
    for t in st.tricks:
        assert f"│ {t.number} │ {t.led} │" in text
    st = play_until(lambda s: GAME.actor(s) is None)
    result = GAME.result(st)
    assert result is not None
    text = flat(screen(GAME.view(st, 0)))
    assert f"Game over: {result.reason}." in text
    assert "▶" not in text
    spectator = flat(screen(GAME.view(st, None)))
    assert "Your hand" not in spectator and "(you)" not in spectator


def test_the_terminal_finds_this_renderer_and_logs_every_event() -> None:
    assert renderer_for(GAME) is render
    st = new_game(6)
    rng = random.Random(6)
    kinds: set[str] = set()
    while GAME.actor(st) is not None:
        for event in GAME.apply(st, rng.choice(GAME.legal_actions(st))):
            kinds.add(event.kind)
            assert escape(event.text) in event_line(event)
    assert {"round", "dice", "play", "trick", "game-over"} <= kinds
    assert "🎲" in event_line(Event("dice", "Player 1 rolls d4: 2", {"seat": 0, "dice": [2]}))
    assert event_line(Event("round", "Round 2")).startswith("[bold]")


# -- at the command -------------------------------------------------------------------


def test_a_person_plays_crits_and_tricks_to_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(
        tavernkeep.games.REGISTRY, "crits-and-tricks", "tavernkeep.games.crits_and_tricks:GAME"
    )
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 2000))
    record = tmp_path / "game.json"
    seats = ["--seat", "human", "--seat", "bot:random", "--seat", "bot:random"]
    args = ["play", "crits-and-tricks", *seats, "--seed", "9", "--delay", "0"]
    code = main([*args, "--record", str(record)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Traceback" not in out + err
    assert "Your hand" in out and "Players" in out
    assert "Player 1 (you), your choice:" in out
    data = json.loads(record.read_text())
    assert data["result"] is not None
    reason = data["result"]["reason"]
    assert f"Game over: {reason}." in flat(out)
    assert f"{reason}." in out.splitlines()  # the command's own result line
    assert "Record saved" in out
