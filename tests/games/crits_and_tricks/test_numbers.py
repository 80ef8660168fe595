"""The numbers a person types are the numbers the screen shows (issue 23), and records
written before the actions were numbered that way still replay.

At the terminal a person answers with a choice number or an action's text; the browser
and the records use the same texts. So the Barkeep's Challenge listed as 3 is `barkeep:3`
and the Druid's crit on "Player 2" is `crit:c,2`; version 1 wrote `barkeep:2` and
`crit:c,1`. Card ids (no screen numbers a card), die sizes and the Barbarian's +/-1 to 3
were the numbers shown already.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest
from crits_and_tricks_helpers import act, deal, decision, script, start
from rich.console import Console

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.records import load_record, replay
from tavernkeep.engine.rng import Rng
from tavernkeep.games.crits_and_tricks import GAME, CritsAndTricksState
from tavernkeep.games.crits_and_tricks.tricks import BARBARIAN, DRUID, WIZARD
from tavernkeep.terminal.play import HumanAgent, pick, seat_names
from tavernkeep.terminal.render import renderer_for

PACK = GAME.load_pack()
RECORDS = Path(__file__).parent / "records"
OLD_RECORDS = sorted(RECORDS.glob("version-1-*.json"))
"""Two games as tavernkeep wrote them before the renumbering (version 1): two and four
players on the standard pack, with Barkeep's Challenges chosen, Druid crits on players
other than Player 1 and Barbarian crits of +1 to +3 on the same numbers. If the standard
pack changes, no record of the old one can replay (by design: its digest is checked);
new ones are then written by playing a game and lowering its Barkeep and Druid numbers
by one."""


def at_the_terminal(
    state: CritsAndTricksState, typed: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[Action, list[str]]:
    """A person at the terminal types `typed` at this decision: the action it chose and
    the numbered choices the screen listed ("3. #3 Humble Pie: ...")."""
    seat = GAME.actor(state)
    assert seat is not None
    console = Console(record=True, width=200)
    agent = HumanAgent(console, renderer_for(GAME), seat_names(["human"] * state.players))
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed + "\n"))
    chosen = agent.choose(InfoSet(GAME, state, seat, Rng(1)))
    listed = [line.strip() for line in console.export_text().splitlines()]
    return chosen, [line for line in listed if re.match(r"\d+\. ", line)]


def barkeep_decision(players: int, round_: int = 1, seed: int = 4) -> CritsAndTricksState:
    """A standard game at the Barkeep's decision of `round_`, every other decision
    answered with its first choice."""
    st = GAME.setup(GAME.make_config({"players": players}), seed, PACK)
    while not (st.stack[-1].kind == "barkeep" and st.round == round_):
        GAME.apply(st, GAME.legal_actions(st)[0])
    return st


# -- what the screen shows is what a person types ----------------------------------------------


def test_the_barkeeps_challenge_listed_as_3_is_barkeep_3(monkeypatch: pytest.MonkeyPatch) -> None:
    st = barkeep_decision(players=3)
    third = PACK.content.barkeep[2]
    chosen, listed = at_the_terminal(st, "barkeep:3", monkeypatch)
    assert chosen == pick("3", GAME.legal_actions(st)) == Action("barkeep", 3)
    # The first round lists every challenge of the pack, in its order, from 1.
    assert listed[2].startswith(f"3. {third.name}: {third.text}")
    events = GAME.apply(st, chosen)
    assert f"chooses the Barkeep's Challenge: {third.name}" in events[0].text


@pytest.mark.parametrize(("players", "round_"), [(3, 2), (2, 1), (4, 3)])
def test_each_challenge_on_offer_is_named_with_no_second_number(
    players: int, round_: int
) -> None:
    # Once a challenge is used (or, for two, "Creative" is left out) the list's numbers no
    # longer run with the pack's: a label names its challenge and shows no number, so the
    # one number on the screen is the list's, which its key presses (issue 39).
    st = barkeep_decision(players, round_)
    for action in GAME.legal_actions(st):
        number = int(action.args[0])
        challenge = PACK.content.barkeep[number - 1]
        label = GAME.label(st, action)
        assert label.startswith(f"{challenge.name}: "), action
        assert f"#{number}" not in label


def druid_after_two_plays() -> tuple[CritsAndTricksState, int]:
    """Player 3 to use crits, with a Druid in hand, after Players 1 and 2 played."""
    st = start(3, suits=("barbarian", "wizard", "druid"))
    a, b, c = deal(st, "barbarian barbarian", "barbarian barbarian", "barbarian druid bard")
    act(st, f"play:{a[0]},20", "keep", "done", f"play:{b[0]},12", "keep", "done")
    act(st, f"play:{c[0]},8", "keep")
    assert decision(st) == (2, "crit")
    return st, c[1]


def test_the_druid_crit_on_player_2_is_the_action_naming_2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    st, druid = druid_after_two_plays()
    chosen, listed = at_the_terminal(st, f"crit:{druid},2", monkeypatch)
    shown = next(line for line in listed if "Player 2 re-rolls" in line)
    assert chosen == pick(shown.split(".")[0], GAME.legal_actions(st))
    assert chosen == Action("crit", druid, 2)
    script(st, 3)
    events = GAME.apply(st, chosen)
    assert "Player 3's Druid crit: Player 2 re-rolls the d12: 3" in [e.text for e in events]
    assert GAME.view(st, None)["table"][1]["value"] == 3


def test_every_druid_crit_names_the_player_its_label_names() -> None:
    st, druid = druid_after_two_plays()
    crits = [a for a in GAME.legal_actions(st) if a.kind == "crit" and a.args[0] == druid]
    assert [a.text for a in crits] == [f"crit:{druid},1", f"crit:{druid},2"]
    for action in crits:
        assert f"Player {action.args[1]} re-rolls" in GAME.label(st, action)


# -- records of version 1 -----------------------------------------------------------------------


def test_version_1_texts_are_read_in_the_new_numbers() -> None:
    st = start(4, suits=("barbarian", "wizard", "druid"))
    barbarian, wizard, druid = (st.card_suit.index(suit) for suit in (BARBARIAN, WIZARD, DRUID))
    version_1_and_2 = [
        ("barkeep:0", "barkeep:1"),
        ("barkeep:9", "barkeep:10"),
        (f"crit:{druid},0", f"crit:{druid},1"),  # Player 1
        (f"crit:{druid},3", f"crit:{druid},4"),  # Player 4
        # The same numbers on other cards were never seats.
        (f"crit:{barbarian},1", f"crit:{barbarian},1"),
        (f"crit:{barbarian},-2", f"crit:{barbarian},-2"),
        (f"crit:{wizard},4", f"crit:{wizard},4"),
        (f"crit:{wizard}", f"crit:{wizard}"),
        ("play:3,20", "play:3,20"),
        ("discard:4", "discard:4"),
        ("done", "done"),
        # What cannot be read is left for the replay to report.
        ("crit:x,1", "crit:x,1"),
        ("crit:99,1", "crit:99,1"),
        ("??", "??"),
    ]
    old = [text for text, _ in version_1_and_2]
    read = [GAME.upgrade_text(1, st, text) for text in old]
    assert read == [text for _, text in version_1_and_2]
    # A current text is as it was.
    assert [GAME.upgrade_text(2, st, text) for text in read] == read


@pytest.mark.parametrize("path", OLD_RECORDS, ids=lambda p: p.stem)
def test_the_engine_replays_a_version_1_record_to_its_recorded_result(path: Path) -> None:
    record = load_record(path)
    assert record.version == 1
    result = GAME.result(replay(GAME, record))
    assert result is not None and result.to_json() == record.result
    # Rebuilt as the server does, its texts are the current ones: the Barkeep's and the
    # Druid's numbers moved, nothing else.
    rebuilt, _ = Match.from_record(GAME, record, [RandomBot()] * len(record.seats))
    pairs = zip(rebuilt.record.actions, record.actions, strict=True)
    assert {new.split(":")[0] for new, old in pairs if new != old} == {"barkeep", "crit"}
