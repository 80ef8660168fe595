"""Issue 23 in Side Quest: the action text a person types uses the numbers the screen shows.

The terminal numbers the Locations 1 to N, left to right, and the heroes Player 1 to P;
the browser and every label do too. So `move:2` is the Location the screen numbers 2,
`wound:2`, `give:c,2` and a hero's `target:2` are Player 2's hero, a Location's `target:2`
is Location 2; a card is named by its id (`pickup:61`, a Monster's `target:12`), a die of a
roll by its place (`boost:0`), which no screen numbers. Records written before (version 1)
counted Locations and seats from 0: they are read into these numbers and replay the same.
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from side_quest_helpers import arena, card, dice, play, put, texts

from tavernkeep.cli import main
from tavernkeep.engine.actions import Action
from tavernkeep.engine.records import parse_record, replay, replay_steps
from tavernkeep.engine.rng import Rng
from tavernkeep.games.side_quest import GAME, SideQuestState
from tavernkeep.games.side_quest.terminal import render
from tavernkeep.terminal.play import pick

POCK, AMABEL, IVO = "Pock Quickfingers", "Sister Amabel", "Ivo Twice-Lucky"
SWORD, SLING = "Notched Shortsword", "Leather Sling"
LOCATION_KINDS = ("enter", "move", "attack", "push", "step")


WIDTH = 250
"""Wide enough that no cell of the screen's tables wraps."""


def screen(st: SideQuestState, seat: int) -> str:
    out = io.StringIO()
    Console(file=out, width=WIDTH, color_system=None).print(render(GAME.view(st, seat)))
    return out.getvalue()


def words(st: SideQuestState, seat: int) -> str:
    """The terminal's screen for `seat`, as plain words."""
    return " ".join(screen(st, seat).split())


def hero_rows(st: SideQuestState, seat: int) -> list[str]:
    """The first cell of each hero's row in the screen's table of heroes: its name, then
    "Player N" and the rest of its marks, then its text."""
    lines = screen(st, seat).splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "Heroes") + 2
    rows: list[str] = []
    cell: list[str] = []
    for line in lines[start:]:
        if line.startswith(("├", "╰")):
            rows.append(" ".join(" ".join(cell).split()))
            cell = []
            if line.startswith("╰"):
                return rows[1:]  # after the header
        else:
            cell.append(line.split("│")[1])
    raise AssertionError("no end to the table of heroes")


def test_the_location_the_terminal_numbers_2_is_the_one_move_2_goes_to() -> None:
    st = arena([POCK], [SWORD], [0])
    assert "1 · face down" in words(st, 0) and "2 · face down" in words(st, 0)
    labels = {a.text: GAME.label(st, a) for a in GAME.legal_actions(st)}
    assert labels["move:2"] == "Move to the face-down Location 2"
    GAME.apply(st, pick("move:2", GAME.legal_actions(st)))
    assert st.position[0] == 1  # the second Location from the left
    (pock,) = hero_rows(st, 0)
    assert "Pock Quickfingers Player 1 (you) · Leader · at Location 2 " in pock
    assert "move:1" in texts(st) and "move:3" in texts(st)


def test_wound_2_is_the_hit_player_2_takes() -> None:
    st = arena([POCK, IVO], [SWORD, SLING], [0, 0])
    put(st, "Ogre Bruiser", 0)
    dice(st, 6, 6)
    play(st, "end", "end")  # Ivo's turn ends too; the Ogre hits twice
    assert st.stack[-1].kind == "wound"
    rows = hero_rows(st, 0)
    assert f"{POCK} Player 1 (you) · Leader" in rows[0] and f"{IVO} Player 2 · at" in rows[1]
    labels = {a.text: GAME.label(st, a) for a in GAME.legal_actions(st)}
    assert labels == {
        "wound:1": "Pock Quickfingers takes the hit (4 → 2 health)",
        "wound:2": "Ivo Twice-Lucky takes the hit (4 → 2 health)",
    }
    play(st, "wound:2")
    assert st.health[0] == 4 and st.health[1] < 4


def test_give_c_2_gives_to_player_2() -> None:
    st = arena([POCK, IVO], [SWORD, SLING], [0, 0])
    sword, sling = card(st, SWORD), card(st, SLING)
    play(st, "trade")
    assert texts(st) == {f"give:{sword},2", f"give:{sling},1", "done"}
    assert GAME.label(st, Action("give", sword, 2)) == f"Give {SWORD} to {IVO}"
    play(st, f"give:{sword},2")
    assert sword in st.weapons[1] and sword not in st.weapons[0]


def test_a_card_choosing_a_hero_or_a_location_names_it_by_its_number() -> None:
    """Sister Amabel heals a hero here: `target:2` is Player 2. The Grapnel moves its
    holder: `target:3` is Location 3. A Monster is named by its card id, as before."""
    st = arena([AMABEL, POCK], [SWORD, SLING], [0, 0])
    st.health[1] = 1
    play(st, "ability")
    assert texts(st) == {"target:1", "target:2"}
    assert GAME.label(st, Action("target", 2)) == f"Choose {POCK} (1 → 3 health)"
    assert "▶ Sister Amabel (you) chooses a hero for the card" in words(st, 0)
    play(st, "target:2")
    assert st.health[1] == 3

    st = arena([POCK], [SWORD], [1])
    rope = put(st, "Grapnel and Rope", 1)
    play(st, f"pickup:{rope}", f"use:{rope}")
    assert texts(st) == {"target:1", "target:3"}
    assert GAME.label(st, Action("target", 3)) == "Choose the face-down Location 3"
    play(st, "target:3")
    assert st.position[0] == 2

    st = arena([AMABEL], [SLING], [0])
    frost = put(st, "Frostbind", 0)
    play(st, f"pickup:{frost}")
    rat, sprout = put(st, "Cellar Rat", 0), put(st, "Glowcap Sprout", 1)
    dice(st, 6)
    play(st, f"cast:{frost}")
    assert texts(st) == {f"target:{rat}", f"target:{sprout}"}
    assert "▶ Sister Amabel (you) chooses a Monster for the card" in words(st, 0)
    assert GAME.label(st, Action("target", rat)) == "Choose Cellar Rat"


def check_labels(st: SideQuestState) -> None:
    """Every legal action that names a Location or a hero says, in its label, the one the
    screen numbers as the action does: the Location's name ends the label or is followed
    by what the action does (" with Leather Sling", " (Grab Attack by Cellar Rat)")."""
    view = GAME.view(st, GAME.actor(st))
    chooses = (view["decision"] or {}).get("chooses")
    for action in GAME.legal_actions(st):
        kind, label = action.kind, GAME.label(st, action)
        if kind in LOCATION_KINDS or (kind == "target" and chooses == "location"):
            number = int(action.args[0])
            loc = view["locations"][number - 1]
            assert loc["index"] + 1 == number
            named = loc["name"] if loc["revealed"] else f"the face-down Location {number}"
            assert re.search(f"{re.escape(named)}($| \\(| with )", label), (action, label)
        elif kind == "wound" or (kind == "target" and chooses == "hero"):
            hero = view["heroes"][int(action.args[0]) - 1]
            assert hero["seat"] + 1 == int(action.args[0])
            assert hero["hero"] in label, (action, label)
        elif kind == "give":
            hero = view["heroes"][int(action.args[1]) - 1]
            assert label.endswith(f" to {hero['hero']}"), (action, label)


def random_game(seed: int, players: int) -> tuple[SideQuestState, list[str]]:
    """A game of random choices, its labels checked at every decision; the final state and
    its action texts."""
    st = GAME.setup(GAME.make_config({"players": players, "turn_limit": 12}), seed)
    rng = Rng(seed)
    actions: list[str] = []
    while GAME.actor(st) is not None:
        check_labels(st)
        legal = GAME.legal_actions(st)
        choice = legal[rng.below(len(legal))]
        actions.append(choice.text)
        GAME.apply(st, choice, record=False)
    return st, actions


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_label_names_what_the_screen_numbers_as_its_action_does(players: int) -> None:
    for seed in range(12):
        random_game(100 * players + seed, players)


# -- version-1 records --------------------------------------------------------------------


def as_version_1(seed: int, players: int, actions: list[str]) -> tuple[list[str], set[str]]:
    """The texts a version-1 tavernkeep wrote for these actions (Locations and seats from
    0), and what the game's `target`s chose. What a `target` names depends on the card
    being used, so this replays the game."""
    st = GAME.setup(GAME.make_config({"players": players, "turn_limit": 12}), seed)
    old: list[str] = []
    chosen: set[str] = set()
    for text in actions:
        action = Action.parse(text)
        kind, args = action.kind, list(action.args)
        if kind in (*LOCATION_KINDS, "wound"):
            args[0] = int(args[0]) - 1
        elif kind == "give":
            args[1] = int(args[1]) - 1
        elif kind == "target":
            what = GAME.view(st, GAME.actor(st))["decision"]["chooses"]
            chosen.add(what)
            if what != "monster":  # a card id, which never moved
                args[0] = int(args[0]) - 1
        old.append(Action(kind, *args).text)
        GAME.apply(st, action, record=False)
    return old, chosen


def record_of(seed: int, players: int, actions: list[str]) -> dict[str, Any]:
    """The record of these actions as this version writes it, with its result."""
    st = GAME.setup(GAME.make_config({"players": players, "turn_limit": 12}), seed)
    for text in actions:
        GAME.apply(st, Action.parse(text), record=False)
    result = GAME.result(st)
    return {
        "format": "tavernkeep-record",
        "version": 2,
        "game": "side-quest",
        "config": {"players": players, "turn_limit": 12},
        "seed": seed,
        "seats": ["bot:random"] * players,
        "actions": actions,
        "result": result.to_json() if result is not None else None,
    }


def games_choosing_everything() -> list[tuple[int, int, list[str]]]:
    """Random games (seed, players, actions) that between them take every renumbered kind
    of action, and a `target` of each of a Location, a hero and a Monster, each game taking
    one at least."""
    # A free move of more than one step (`step`) and a push are too rare in random games:
    # test_a_version_1_text_is_read_into_the_numbers_shown reads those.
    wanted = {"enter", "move", "attack", "wound", "give"}
    wanted |= {"target:location", "target:hero", "target:monster"}
    games: list[tuple[int, int, list[str]]] = []
    for seed in range(400):
        players = 2 + seed % 3
        st = GAME.setup(GAME.make_config({"players": players, "turn_limit": 12}), seed)
        rng = Rng(seed)
        taken: set[str] = set()
        actions: list[str] = []
        while GAME.actor(st) is not None:
            legal = GAME.legal_actions(st)
            choice = legal[rng.below(len(legal))]
            taken.add(choice.kind)
            if choice.kind == "target":
                taken.add(f"target:{GAME.view(st, GAME.actor(st))['decision']['chooses']}")
            actions.append(choice.text)
            GAME.apply(st, choice, record=False)
        # A game to keep: it takes something still wanted beyond what every game takes.
        if taken & (wanted - {"enter", "move", "attack"}):
            games.append((seed, players, actions))
            wanted -= taken
        if not wanted:
            return games
    raise AssertionError(f"no random game of 400 takes {wanted}")


def test_a_version_1_text_is_read_into_the_numbers_shown() -> None:
    st = GAME.setup(GAME.make_config({"players": 2}), 1)
    old = ["enter:0", "enter:3", "move:1", "attack:0", "push:2", "step:1", "wound:1"]
    old += ["give:61,0", "hit:5", "boost:0", "pickup:61", "hero:3", "reroll:-1", "end"]
    assert [GAME.upgrade_text(1, st, text) for text in old] == [
        *("enter:1", "enter:4", "move:2", "attack:1", "push:3", "step:2", "wound:2"),
        *("give:61,1", "hit:5", "boost:0", "pickup:61", "hero:3", "reroll:-1", "end"),
    ]
    assert GAME.upgrade_text(2, st, "move:1") == "move:1"  # already as shown
    assert GAME.upgrade_text(1, st, "move:x") == "move:x"  # left for the replay to report


def test_version_1_records_replay_to_the_same_games() -> None:
    """Games with every kind of numbered action (a `target` naming a Location, a hero and
    a Monster among them), written as version 1 wrote them, replay as tavernkeep reads a
    record into the same actions, as written now, and the same results."""
    chosen: set[str] = set()
    for seed, players, actions in games_choosing_everything():
        old, targets = as_version_1(seed, players, actions)
        chosen |= targets
        assert old != actions
        now = record_of(seed, players, actions)
        record = parse_record(json.dumps({**now, "version": 1, "actions": old}))
        assert record.version == 1  # kept as written, read in its own numbering
        texts_now = [action.text for _, action, _, _ in replay_steps(GAME, record) if action]
        assert texts_now == actions
        result = GAME.result(replay(GAME, record))
        assert result is not None and result.to_json() == now["result"]
    assert chosen == {"location", "hero", "monster"}


# -- at the command -------------------------------------------------------------------------


def test_a_person_types_the_numbers_the_screen_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the prompt a person types `enter:2`, then `move:3`: the hero enters the Location
    the screen numbers 2 and moves to the one it numbers 3; the record keeps those texts."""
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    typed = "enter:2\nmove:3\nend\n" + "1\n" * 200
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    record = tmp_path / "game.json"
    args = ["play", "side-quest", "--seat", "human", "--seed", "3", "--delay", "0"]
    options = ["--option", "heroes=random", "--option", "turn_limit=1"]
    code = main([*args, *options, "--record", str(record)])
    out, err = capsys.readouterr()
    assert code == 0, err
    # Each part: a decision's numbered choices, what followed, and the next screen.
    parts = [" ".join(part.split()) for part in out.split("your choice:")]
    assert "Enter the face-down Location 2" in parts[1]
    assert "Player 1 (you) · Leader · at Location 2" in parts[1]
    assert "Move to the face-down Location 3" in parts[2]
    assert "Player 1 (you) · Leader · at Location 3" in parts[2]
    assert json.loads(record.read_text())["actions"][:2] == ["enter:2", "move:3"]
