"""The numbers a person types are the numbers the screen shows (issue 23), and records
written before the actions were numbered that way still replay.

At the terminal a person answers with a choice number or an action's text; the browser
and the records use the same texts. So the choice "Choose Player 2" is `target:2`, a
Modifier on the roll headed "Roll 2" is `modify:card,amount,2`, the Party Leader listed
as #4 is `leader:4`, and a seat's first skill (its Party Leader's) is `skill:1`; version 1
wrote `target:1`, `modify:card,amount,1`, `leader:3` and `skill:0`. Card and Monster ids
(`play:`, `roll:`, `attack:`, `pick:`, `steal:`) are numbers no screen shows, and stay.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest
from here_to_slay_helpers import act, dice, field, give, new_game, texts
from rich.console import Console

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.records import load_record, replay
from tavernkeep.engine.rng import Rng
from tavernkeep.games.here_to_slay import GAME, HereToSlayState
from tavernkeep.terminal.play import HumanAgent, pick, seat_names
from tavernkeep.terminal.render import renderer_for

PACK = GAME.load_pack()
RECORDS = Path(__file__).parent / "records"
OLD_RECORDS = sorted(RECORDS.glob("version-1-*.json"))
"""Two games as tavernkeep wrote them before the renumbering (version 1), played by
heuristic and random bots on the standard pack with Leaders chosen: three and four
players, each with the Shadow Claw's skill used, players chosen other than Player 1 and
2, and Modifiers on both rolls of a Challenge. If the standard pack changes, no record of
the old one can replay (by design: its digest is checked); new ones are then written by
playing a game and lowering its target, leader and skill numbers by one, and each
Modifier's roll to its place among the rolls its window was open over, from 0."""
RENUMBERED = {"leader", "target", "modify", "skill"}


def at_the_terminal(
    state: HereToSlayState, typed: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[Action, list[str]]:
    """A person at the terminal types `typed` at this decision: the action it chose and
    every line of the screen ("Roll 2: ...", "3. Choose Player 3")."""
    seat = GAME.actor(state)
    assert seat is not None
    console = Console(record=True, width=200)
    agent = HumanAgent(console, renderer_for(GAME), seat_names(["human"] * state.players))
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed + "\n"))
    chosen = agent.choose(InfoSet(GAME, state, seat, Rng(1)))
    return chosen, [line.strip() for line in console.export_text().splitlines()]


def choices(lines: list[str]) -> list[str]:
    return [line for line in lines if re.match(r"\d+\. ", line)]


def number_of(lines: list[str], shown: str) -> str:
    """The choice number of the listed choice that reads `shown`."""
    (line,) = [line for line in choices(lines) if shown in line]
    return line.split(".")[0]


# -- what the screen shows is what a person types ----------------------------------------------


def test_the_choice_labelled_player_2_is_target_2(monkeypatch: pytest.MonkeyPatch) -> None:
    st = new_game()
    (sable,) = field(st, 0, "Sable Warbrand")  # DESTROY a Hero of a chosen player
    (nib,) = field(st, 1, "Nib Quickfingers")
    field(st, 2, "Lark the Busker")
    act(st, f"roll:{sable}")
    chosen, lines = at_the_terminal(st, "target:2", monkeypatch)
    assert chosen == pick(number_of(lines, "Choose Player 2"), GAME.legal_actions(st))
    assert chosen == Action("target", 2)
    events = GAME.apply(st, chosen)
    assert "Player 1 chooses Player 2" in [e.text for e in events]
    assert texts(st) == [f"pick:{nib}"], "the card to DESTROY is Player 2's"


def test_the_roll_headed_roll_2_is_the_one_modify_2_names(monkeypatch: pytest.MonkeyPatch) -> None:
    st = new_game()
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 1, "Not So Fast!")
    (blessing,) = give(st, 2, "Blessing of Might")
    act(st, f"play:{lark}")
    dice(st, 4, 4, 3, 3)  # the challenger 8, Player 1 6
    act(st, "challenge")
    chosen, lines = at_the_terminal(st, f"modify:{blessing},4,2", monkeypatch)
    heads = [line for line in lines if line.startswith("Roll ")]
    assert heads[0].startswith("Roll 1: Player 2 rolls to CHALLENGE Lark the Busker")
    assert heads[1].startswith("Roll 2: Player 1 rolls to defend Lark the Busker")
    shown = "Play Blessing of Might as +4 on Player 1's roll"
    assert chosen == pick(number_of(lines, shown), GAME.legal_actions(st))
    events = GAME.apply(st, chosen)
    assert "Player 3 plays Blessing of Might (+4) on Player 1's roll: now 10" in [
        e.text for e in events
    ]
    assert lark in st.parties[0], "10 beats the challenger's 8"


def test_a_window_opened_while_others_wait_names_its_roll_by_its_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A random game (seed 108, five players): inside a Challenge's window a card played
    # at once ATTACKs, so its window is over the third roll on the table alone. The
    # screen heads it Roll 3, and Roll 3 is the number its Modifier names.
    st = GAME.setup(GAME.make_config({"players": 5}), 108, PACK)
    rng = Rng(108)
    for _ in range(1283):
        actions = GAME.legal_actions(st)
        GAME.apply(st, actions[rng.below(len(actions))], False)
    assert st.stack[-1].kind == "modifier" and st.stack[-1].args[0] == 1
    assert len(st.rolls) == 3
    modify = [a for a in GAME.legal_actions(st) if a.kind == "modify"]
    assert modify and {a.args[2] for a in modify} == {3}
    chosen, lines = at_the_terminal(st, modify[0].text, monkeypatch)
    attacker = f"Player {st.rolls[2][0] + 1}"
    assert next(line for line in lines if line.startswith("Roll 3: ")).startswith(
        f"Roll 3: {attacker} rolls to ATTACK"
    )
    assert f"on {attacker}'s roll: " in GAME.label(st, chosen)


def test_the_party_leader_listed_as_4_is_leader_4(monkeypatch: pytest.MonkeyPatch) -> None:
    st = GAME.setup(GAME.make_config({"players": 3}), 5, PACK)
    leaders = st.catalog.leaders
    chosen, lines = at_the_terminal(st, "leader:4", monkeypatch)
    # The first to choose is offered every Leader of the pack, in its order, from 1.
    assert [line.split(" (")[0] for line in choices(lines)] == [
        f"{n}. {leader.name}" for n, leader in enumerate(leaders, start=1)
    ]
    assert chosen == pick("4", GAME.legal_actions(st)) == Action("leader", 4)
    events = GAME.apply(st, chosen)
    assert events[0].text == f"Player 3 chooses {leaders[3].name}"


@pytest.mark.parametrize("players", [2, 3])
def test_each_leader_on_offer_is_named_with_no_second_number(players: int) -> None:
    # Once a Leader is taken (or, for two, the Shadow Claw left out) the list's numbers no
    # longer run with the pack's: a label names its Leader and shows no number, so the
    # one number on the screen is the list's, which its key presses (issue 39).
    st = GAME.setup(GAME.make_config({"players": players}), 5, PACK)
    GAME.apply(st, GAME.legal_actions(st)[0])
    for action in GAME.legal_actions(st):
        number = int(action.args[0])
        leader = st.catalog.leaders[number - 1]
        label = GAME.label(st, action)
        assert label.startswith(f"{leader.name} ("), action
        assert f"#{number}" not in label


def test_a_seats_first_skill_is_skill_1_its_party_leaders() -> None:
    st = new_game(3, ("The Shadow Claw", "The Wild Hawk", "The Ember Sage"))
    (tempest,) = give(st, 2, "Tempest")
    assert "skill:1" in texts(st) and "skill:0" not in texts(st)
    assert GAME.label(st, Action("skill", 1)).startswith("Use: Once per turn, for 1 action")
    act(st, "skill:1")
    assert st.hands[0] == [tempest] and st.ap == 2


MONSTER_SKILL_PACK = """
[pack]
name = "Two skills"

[[hero]]
name = "Scout"
class = "Ranger"
roll = 6
text = "DRAW a card."
effect = [{ verb = "draw" }]

[[modifier]]
name = "Nudge"
options = [1, -1]
copies = 12

[[leader]]
name = "Puller"
class = "Thief"

[leader.skill]
trigger = "action"
action_cost = 1
text = "PULL a card."
effect = [{ verb = "pull", from = "chosen_opponent" }]

[[leader]]
name = "Plain"
class = "Fighter"
skill = { trigger = "on_any_roll", text = "+1 to all your rolls.", bonus = [1] }

[[monster]]
name = "Cat"
requirement = { heroes = 1 }
slay_roll = 8
punishment_roll = 4
punishment = [{ verb = "discard" }]
skill = { trigger = "action", action_cost = 1, text = "DRAW a card.", effect = [{ verb = "draw" }] }

[[monster]]
name = "Rat"
requirement = { heroes = 1 }
slay_roll = 8
punishment_roll = 4
punishment = [{ verb = "discard" }]
skill = { trigger = "on_any_roll", text = "+1", bonus = [1] }

[[monster]]
name = "Bat"
requirement = { heroes = 1 }
slay_roll = 8
punishment_roll = 4
punishment = [{ verb = "discard" }]
skill = { trigger = "on_any_roll", text = "+1", bonus = [1] }
"""


def test_a_slain_monsters_skill_is_numbered_after_the_leaders(tmp_path: Path) -> None:
    # A seat's skills are listed as its Party shows them: the Leader, then each Monster
    # slain, in the order slain; skill:2 is the first Monster's.
    path = tmp_path / "two-skills.toml"
    path.write_text(MONSTER_SKILL_PACK, encoding="utf-8")
    pack = GAME.load_pack(str(path))
    st = GAME.setup(GAME.make_config({"players": 2, "ask_everyone": False}), 3, pack)
    act(st, "leader:2")  # seat 1: Plain
    act(st, "leader:1")  # seat 0: Puller
    cat_ = [m.name for m in st.catalog.monsters].index("Cat")
    (st.row if cat_ in st.row else st.monster_deck).remove(cat_)
    st.slain[0].append(cat_)
    assert {"skill:1", "skill:2"} <= set(texts(st))
    assert GAME.label(st, Action("skill", 1)) == "Use: PULL a card."
    assert GAME.label(st, Action("skill", 2)) == "Use: DRAW a card."
    held = len(st.hands[0])
    act(st, "skill:2")
    assert len(st.hands[0]) == held + 1 and st.ap == 2, "the Cat's DRAW, not the PULL"


def test_every_label_names_what_its_number_names() -> None:
    """Over random games: each choice of a player says that player's number, and each
    Modifier says the player whose roll sits at the number it names."""
    seen: set[str] = set()
    for seed in range(12):
        st = GAME.setup(GAME.make_config({"players": 2 + seed % 5}), seed, PACK)
        rng = Rng(seed)
        while GAME.actor(st) is not None:
            actions = GAME.legal_actions(st)
            view = GAME.view(st, GAME.actor(st))
            for action in actions:
                label = GAME.label(st, action)
                if action.kind == "target":
                    assert label == f"Choose Player {action.args[0]}"
                    seen.add("target")
                elif action.kind == "modify":
                    roll = view["rolls"][int(action.args[2]) - 1]
                    mine = roll["seat"] == GAME.actor(st)
                    whose = "your" if mine else f"Player {roll['seat'] + 1}'s"
                    assert f" on {whose} roll" in label, (label, view)
                    seen.add("modify")
            GAME.apply(st, actions[rng.below(len(actions))], False)
    assert seen == {"target", "modify"}


# -- records of version 1 -----------------------------------------------------------------------


def test_version_1_texts_are_read_in_the_new_numbers() -> None:
    st = new_game()
    version_1_and_2 = [
        ("target:0", "target:1"),
        ("target:2", "target:3"),
        ("leader:0", "leader:1"),
        ("leader:5", "leader:6"),
        ("skill:0", "skill:1"),
        ("skill:1", "skill:2"),
        # Card and Monster ids were never shown, so never renumbered.
        ("play:3", "play:3"),
        ("play:40,12", "play:40,12"),
        ("roll:12", "roll:12"),
        ("attack:0", "attack:0"),
        ("pick:0", "pick:0"),
        ("pick:41,7", "pick:41,7"),
        ("steal:9", "steal:9"),
        ("draw", "draw"),
        ("pass", "pass"),
        # What cannot be read is left for the replay to report.
        ("target:x", "target:x"),
        ("??", "??"),
    ]
    old = [text for text, _ in version_1_and_2]
    read = [GAME.upgrade_text(1, st, text) for text in old]
    assert read == [text for _, text in version_1_and_2]
    # A current text is as it was.
    assert [GAME.upgrade_text(2, st, text) for text in read] == read


def test_a_version_1_modifier_names_its_roll_among_the_open_ones() -> None:
    # Version 1 counted a Modifier's roll from 0 among the rolls its window was open
    # over; the screen numbers every roll on the table from 1. Only the state tells
    # which rolls those were.
    st = new_game()
    st.rolls = [[1, 4, 4, 0, 0], [0, 3, 3, 0, 0]]
    st.stack.append(Decision(2, "modifier", (2, 0)))  # a Challenge: both rolls open
    assert GAME.upgrade_text(1, st, "modify:80,4,0") == "modify:80,4,1"
    assert GAME.upgrade_text(1, st, "modify:80,4,1,-1") == "modify:80,4,2,-1"
    # An ATTACK rolled while the Challenge's rolls wait (a Magic card played at once
    # in their window): its window is over the third roll only.
    st.rolls.append([2, 5, 5, 1, 0])
    st.stack.append(Decision(2, "modifier", (1, 0)))
    assert GAME.upgrade_text(1, st, "modify:80,4,0") == "modify:80,4,3"
    assert GAME.upgrade_text(1, st, "modify:x,4,0") == "modify:x,4,0"


@pytest.mark.parametrize("path", OLD_RECORDS, ids=lambda p: p.stem)
def test_the_engine_replays_a_version_1_record_to_its_recorded_result(path: Path) -> None:
    record = load_record(path)
    assert record.version == 1
    result = GAME.result(replay(GAME, record))
    assert result is not None and result.to_json() == record.result
    # Rebuilt as the server does, its texts are the current ones: the players, Leaders,
    # skills and rolls moved, nothing else.
    rebuilt, _ = Match.from_record(GAME, record, [RandomBot()] * len(record.seats))
    assert rebuilt.record.version == 2
    pairs = list(zip(rebuilt.record.actions, record.actions, strict=True))
    assert {new.split(":")[0] for new, old in pairs if new != old} == RENUMBERED
    assert GAME.result(rebuilt.state) == result
