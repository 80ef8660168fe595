"""Here to Slay at the terminal: what a seat's screen shows, and a game played at the command.

Positions are real games: a seed, random Party Leaders, then actions chosen by a fixed
policy until the position wanted comes up. The screen is Rich's text export at width 120.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from tavernkeep.engine.actions import Action
from tavernkeep.games.here_to_slay import GAME, HereToSlayState
from tavernkeep.games.here_to_slay.terminal import render
from tavernkeep.terminal.render import event_line, odds_text, renderer_for

PACK = GAME.load_pack()
EAGER = ("modify", "roll", "play", "attack", "challenge", "use", "pick", "target")
"""What the policy prefers, so rolls, Modifiers and Challenges come up early."""


def new_game(seed: int) -> HereToSlayState:
    return GAME.setup(GAME.make_config({"players": 3, "leaders": "random"}), seed, PACK)


def screen(view: dict[str, Any]) -> str:
    console = Console(record=True, width=120)
    console.print(render(view))
    return console.export_text()


def play_until(wanted: Callable[[HereToSlayState], bool]) -> HereToSlayState:
    """The first position `wanted` over a few seeded games played by an eager policy."""
    for seed in range(30):
        st = new_game(seed)
        rng = random.Random(seed)
        for _ in range(2000):
            if GAME.actor(st) is None:
                break
            if wanted(st):
                return st
            actions = GAME.legal_actions(st)
            eager = [a for a in actions if a.kind in EAGER]
            GAME.apply(st, rng.choice(eager or actions))
    raise AssertionError("no such position in 30 games")


def names_in(view: dict[str, Any]) -> str:
    return json.dumps(view)


# -- what a seat sees -----------------------------------------------------------------


def test_a_seat_sees_its_own_hand_and_not_the_others() -> None:
    st = new_game(11)
    view = GAME.view(st, 0)
    text = screen(view)
    mine = [c["name"] for c in view["table"][0]["hand"]]
    assert mine
    for name in mine:
        assert name in text
    # A card held by another seat only: its name is nowhere in seat 0's view.
    theirs = [GAME.catalog(PACK.content).cards[c].name for s in (1, 2) for c in st.hands[s]]
    hidden = [name for name in theirs if name not in names_in(view)]
    assert hidden
    for name in hidden:
        assert name not in text
    assert "(you)" in text
    assert "5 cards" in text  # the other seats' hands, as counts


def test_a_spectator_sees_no_hand_at_all() -> None:
    st = new_game(11)
    text = screen(GAME.view(st, None))
    cat = GAME.catalog(PACK.content)
    held = {cat.cards[c].name for hand in st.hands for c in hand}
    assert not [name for name in held if name in text]
    assert "Your hand" not in text and "(you)" not in text


def test_the_monster_row_shows_names_requirements_and_rolls() -> None:
    st = new_game(4)
    view = GAME.view(st, 0)
    text = screen(view)
    assert len(view["monsters"]) == 3
    for monster in view["monsters"]:
        assert monster["name"] in text
        assert monster["slay"] in text and monster["punishment"] in text
        if monster["heroes"] > 1:
            assert f"{monster['heroes']} Heroes" in text
        for cls in monster["classes"]:
            assert cls in text
    for seat in view["table"]:
        assert seat["leader"]["name"] in text


def test_a_modified_roll_shows_dice_bonus_modifiers_and_total() -> None:
    st = play_until(lambda s: any(r[4] for r in s.rolls))
    view = GAME.view(st, GAME.actor(st))
    text = screen(view)
    roll = next(r for r in view["rolls"] if r["modifiers"])
    d1, d2 = roll["dice"]
    assert roll["total"] == d1 + d2 + roll["bonus"] + roll["modifiers"]
    bonus = f" {roll['bonus']:+d}" if roll["bonus"] else ""
    assert f"{d1}+{d2}{bonus} (modifiers {roll['modifiers']:+d}) = {roll['total']}" in text
    assert "Modifier window: Player" in text


def test_a_hero_roll_names_its_hero_and_the_roll_it_needs() -> None:
    st = play_until(lambda s: any(f.kind == "hero_result" for f in s.stack))
    view = GAME.view(st, 0)
    text = screen(view)
    pending = view["hero_rolls"][-1]
    hero = next(h for s in view["table"] for h in s["party"] if h["id"] == pending["hero"])
    assert f"Player {pending['seat'] + 1} rolls for {hero['name']} ({hero['roll']}+)" in text


def test_a_hero_roll_with_two_targets_shows_both() -> None:
    def aimed_twice(st: HereToSlayState) -> bool:
        if not any(f.kind == "hero_result" for f in st.stack):
            return False
        return len(GAME.view(st, None)["hero_rolls"][-1].get("aims", [])) > 1

    st = play_until(aimed_twice)
    view = GAME.view(st, None)
    text = " ".join(screen(view).split())
    first, second = view["hero_rolls"][-1]["aims"][:2]
    names = {h["id"]: h["name"] for s in view["table"] for h in s["party"]}
    assert f"aimed at {names[first]} and {names[second]}" in text


def test_a_card_to_play_at_once_is_not_named_to_the_others() -> None:
    def drawn_to_play(st: HereToSlayState) -> bool:
        top = st.stack[-1] if st.stack else None
        return top is not None and top.kind == "play_now" and st.known.get(top.args[0]) is None

    st = play_until(drawn_to_play)
    top = st.stack[-1]
    name = GAME.catalog(PACK.content).cards[top.args[0]].name
    owner = " ".join(screen(GAME.view(st, top.seat)).split())
    other = " ".join(screen(GAME.view(st, (top.seat + 1) % st.players)).split())
    assert f"may play {name} at once" in owner
    assert "may play the card just drawn at once" in other and f"play {name}" not in other


def test_a_challenge_window_says_who_may_challenge_what() -> None:
    st = play_until(lambda s: bool(s.stack) and s.stack[-1].kind == "challenge")
    seat = GAME.actor(st)
    assert seat is not None
    view = GAME.view(st, seat)
    text = " ".join(screen(view).split())
    card = GAME.catalog(PACK.content).cards[st.playing[-1]].name
    assert f"Player {seat + 1} may CHALLENGE " in text
    assert f"Being played: {card}" in text
    if view["decision"].get("player") is not None:
        # The view names who plays the card: the screen says it.
        player = st.stack[-1].args[0]
        assert f"may CHALLENGE Player {player + 1}'s {card}" in text


def test_the_end_of_a_game_shows_its_result() -> None:
    st = new_game(2)
    rng = random.Random(2)
    while GAME.actor(st) is not None:
        GAME.apply(st, rng.choice(GAME.legal_actions(st)))
    result = GAME.result(st)
    assert result is not None
    text = " ".join(screen(GAME.view(st, 0)).split())
    assert f"Game over: {result.reason}." in text
    assert "▶" not in text


def test_the_terminal_finds_this_renderer_and_logs_rolls_with_faces() -> None:
    assert renderer_for(GAME) is render
    st = new_game(5)
    found: list[str] = []
    rng = random.Random(5)
    while GAME.actor(st) is not None and len(found) < 10:
        actions = GAME.legal_actions(st)
        eager = [a for a in actions if a.kind in EAGER]
        for event in GAME.apply(st, rng.choice(eager or actions)):
            if event.kind in ("roll", "modifier"):
                found.append(event_line(event))
                data = event.data
                if event.kind == "roll":
                    assert str(data["total"]) in found[-1]
                    assert all(str(d) in found[-1] for d in data["dice"])
                else:
                    assert f"now {data['total']}" in found[-1]
    assert any("±" in line for line in found) and any("🎲" in line for line in found)


def test_odds_of_an_attack_read_as_words() -> None:
    assert odds_text({"slay": 0.25, "punishment": 0.5}) == "25% slay, 50% punishment"
    assert odds_text({"success": 0.75}) == "75%"


# -- at the command -------------------------------------------------------------------


def command(args: list[str], stdin: str) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "tavernkeep.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "120", "PYTHONIOENCODING": "utf-8"},
        check=False,
    )


def a_hero_nobody_can_challenge() -> tuple[int, Action]:
    """A seed where seat 0 opens with a Hero in hand and no other seat holds a Challenge,
    so playing the Hero leads straight to its free roll; and the action to play it."""
    cards = GAME.catalog(PACK.content).cards
    for seed in range(200):
        st = new_game(seed)
        if st.stack[-1].kind != "turn" or st.stack[-1].seat != 0:
            continue
        if any(cards[c].kind == "challenge" for s in (1, 2) for c in st.hands[s]):
            continue
        for action in GAME.legal_actions(st):
            if action.kind == "play" and cards[int(action.args[0])].kind == "hero":
                return seed, action
    raise AssertionError("no such seed")


def play_args(seed: int, record: Path, *extra: str) -> list[str]:
    return [
        "play",
        "here-to-slay",
        "--seat",
        "human",
        "--seat",
        "bot:random",
        "--seat",
        "bot:random",
        "--seed",
        str(seed),
        "--delay",
        "0",
        "--option",
        "leaders=random",
        "--record",
        str(record),
        *extra,
    ]


def test_a_person_plays_here_to_slay_to_the_end_seeing_the_odds(tmp_path: Path) -> None:
    seed, play = a_hero_nobody_can_challenge()
    record = tmp_path / "game.json"
    # Play the Hero, roll for it free; then "1" to everything until the turn limit.
    stdin = f"{play.text}\nroll\n" + "1\n" * 400
    done = command(play_args(seed, record, "--option", "turn_limit=6"), stdin)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Traceback" not in out + done.stderr
    assert "Your hand" in out and "Monsters" in out
    # The exact chance beside the roll, before it is chosen.
    assert re.search(r"Roll for [^\n]+'s effect now, free \(\d+\+\)\s+\(\d+%", out), out[:4000]
    assert re.search(r"🎲 \S+\s+\S+\s+Player 1 rolls \d\+\d", out)
    data = json.loads(record.read_text())
    # The Hero, the Challenge window (every other seat asked, each passing), the free roll.
    assert data["actions"][:4] == [play.text, "pass", "pass", "roll"]
    assert data["result"] is not None
    assert data["result"]["reason"] in " ".join(out.split())


def test_a_person_who_stops_keeps_the_game_so_far(tmp_path: Path) -> None:
    record = tmp_path / "stopped.json"
    done = command(play_args(3, record), "1\n")
    assert done.returncode == 0, done.stderr
    assert "Game stopped" in done.stdout
    data = json.loads(record.read_text())
    assert len(data["actions"]) >= 1
    assert data["result"] is None
