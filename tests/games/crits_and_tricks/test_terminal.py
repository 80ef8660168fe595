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
from crits_and_tricks_helpers import act, deal, set_dice, start
from rich.console import Console
from rich.markup import escape

import tavernkeep.games
from tavernkeep.cli import main
from tavernkeep.engine.events import Event
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng
from tavernkeep.games.crits_and_tricks import GAME, CritsAndTricksState
from tavernkeep.games.crits_and_tricks.terminal import SUIT_RULES, TIES, render
from tavernkeep.terminal.play import HumanAgent, seat_names
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


# -- what each suit does, who would take the trick, the chances of each choice ----------


RENDERER = Path(GAME.web_dir() or ".") / "renderer.js"

EXPECTED_RULES = {
    "Barbarian": ("highest value takes it", "+/− 1 to 3 on your die"),
    "Rogue": ("lowest value takes it", "go last in turn order"),
    "Wizard": ("closest to 5 takes it", "swap to a die you used"),
    "Druid": ("second-highest value takes it", "an opponent re-rolls"),
    "Paladin": ("highest on the lead die's size takes it", "win a tie"),
    "Bard": ("wild: stands for the led suit", "re-roll up to twice"),
}
"""Each suit's rule for taking a trick and its crit, as RULES.md 9-17 and HOW_TO_PLAY say."""


def test_the_screen_tells_each_suits_rule_its_crit_the_ties_and_who_takes_it_now() -> None:
    st = play_until(lambda s: len(s.table) == 2 and top(s) == "play")
    seat = GAME.actor(st)
    view = GAME.view(st, seat)
    text = flat(screen(view))
    assert "Suits in play" in text
    for suit in view["suits"]:
        takes, crit = EXPECTED_RULES[suit]
        led = " ◀ led" if suit == view["led"] else ""
        assert f"{suit}{led} │ {takes} │ {crit}" in text, suit
    assert flat(TIES) in text
    assert "Ties: a Paladin crit wins (the last one used), then the larger die" in text
    taker = view["winning"]
    assert taker is not None and taker != seat
    assert f"Player {taker + 1} would take it now." in text
    assert f"Player {taker + 1} │" in text and "taking it" in text
    # The leader of the trick, on the status line.
    assert f"Player {view['leader'] + 1} leads · led {view['led']}" in text


def test_the_terminal_and_the_browser_tell_the_same_suit_rules() -> None:
    assert SUIT_RULES == EXPECTED_RULES
    script = RENDERER.read_text(encoding="utf-8")
    for suit, (takes, crit) in SUIT_RULES.items():
        line = next(line for line in script.splitlines() if line.strip().startswith(f"{suit}:"))
        assert f'takes: "{takes}"' in line and f'crit: "{crit}"' in line, suit
    assert f'"{TIES}"' in script


def at_the_terminal(st: CritsAndTricksState, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The lines a person at the terminal is shown at this decision (who answers 1)."""
    seat = GAME.actor(st)
    assert seat is not None
    console = Console(record=True, width=200)
    agent = HumanAgent(console, renderer_for(GAME), seat_names(["human"] * st.players))
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    agent.choose(InfoSet(GAME, GAME.clone(st), seat, Rng(1)))
    return [line.strip() for line in console.export_text().splitlines()]


def test_the_choices_at_the_terminal_show_who_would_take_it_and_the_chance(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    st = start(2)
    hands = deal(st, "rogue", "rogue bard")
    set_dice(st, 0, d6=2)
    set_dice(st, 1, d4=1, d8=5)
    act(st, f"play:{hands[0][0]},6", "keep")
    listed = at_the_terminal(st, monkeypatch)
    # Rogue led, 2 on a d6: a d8 showing 5 is behind; its re-roll takes it on 1 or 2
    # (a tie goes to the larger die), 2 faces in 8: 25%.
    assert "Play a Rogue with your d8 (5); Player 1 would take it now  (25% to take it)" in (
        " ".join(listed)
    )
    assert any(
        line.endswith("Play a Rogue with your d4 (1); you would take it now  (100% to take it)")
        for line in listed
    )
    act(st, f"play:{hands[1][0]},8")
    listed = at_the_terminal(st, monkeypatch)
    assert "1. Re-roll the d8 (5)  (25% to take it)" in listed
    assert "2. Keep the d8 (5); Player 1 would take it now" in listed
    act(st, "keep")
    listed = at_the_terminal(st, monkeypatch)
    # The Bard crit: 1 - (6/8)^2 = 43.75%, shown as 44%.
    assert any(
        line.endswith("Bard crit: re-roll your d8 (5), and once more if you like  (44% to take it)")
        for line in listed
    )


def test_the_leaders_re_roll_at_the_terminal_shows_better_and_worse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    st = start(3)
    hands = deal(st, "barbarian", "rogue", "druid")
    set_dice(st, 0, d12=9)
    act(st, f"play:{hands[0][0]},12")
    listed = at_the_terminal(st, monkeypatch)
    # 10-12 better (25%), 1-8 worse (67%).
    assert "1. Re-roll the d12 (9)  (25% better, 67% worse)" in listed
    assert "2. Keep the d12 (9)" in listed


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
