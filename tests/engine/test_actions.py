"""Actions: the text form records store and people type, the JSON form browsers send."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import IllegalAction, TavernkeepError

words = st.from_regex(r"[a-z][a-z0-9_\-]{0,10}", fullmatch=True)
args = st.lists(st.one_of(st.integers(-(10**12), 10**12), words), max_size=4)


@pytest.mark.parametrize(
    ("text", "kind", "arguments"),
    [
        ("brag", "brag", ()),
        ("quit", "quit", ()),
        ("quest:2", "quest", (2,)),
        ("rescue:5", "rescue", (5,)),
        ("move:-3,north,x_1", "move", (-3, "north", "x_1")),
        ("play-card:hero-7", "play-card", ("hero-7",)),
    ],
)
def test_text_form_reads_and_writes_the_same(text: str, kind: str, arguments: tuple) -> None:
    action = Action.parse(text)
    assert action.kind == kind
    assert action.args == arguments
    assert action.text == text
    assert str(action) == text
    assert Action(kind, *arguments) == action
    assert Action.parse(action.text) == action


def test_spaces_around_the_text_and_its_arguments_are_forgiven() -> None:
    assert Action.parse("  quest:1 \n") == Action("quest", 1)
    assert Action.parse("move: 1 , north") == Action("move", 1, "north")


def test_integer_arguments_come_back_as_integers() -> None:
    assert Action.parse("quest:01").args == (1,)
    assert Action.parse("quest:1") != Action("quest", "1")


@given(kind=words, arguments=args)
def test_any_action_round_trips_through_text_and_json(kind: str, arguments: list) -> None:
    action = Action(kind, *arguments)
    assert Action.parse(action.text) == action
    assert Action.from_json(action.to_json()) == action
    assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action
    assert Action.from_json(action.text) == action
    assert hash(Action.parse(action.text)) == hash(action)


def test_json_form_is_kind_and_args() -> None:
    assert Action("quest", 2).to_json() == {"kind": "quest", "args": [2]}
    assert Action("quit").to_json() == {"kind": "quit", "args": []}
    assert Action.from_json({"kind": "quit"}) == Action("quit")


def test_equal_actions_are_one_set_member() -> None:
    assert len({Action("quest", 1), Action.parse("quest:1"), Action("quest", 2)}) == 2
    assert Action("quest", 1) != "quest:1"
    assert repr(Action("quest", 1)) == "Action('quest:1')"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "Quest",
        "QUEST:1",
        "1quest",
        ":1",
        "quest:1:2",
        "quest:1,",
        "quest:,1",
        "quest:a b",
        "quest:1.5",
        "quest:+1",
        "quest;1",
        "quest 1",
        "brag\nquit",
        "quest:1\nbrag",
        "quest:" + "x" * 500 + " y",
        "qu\x00est",
    ],
)
def test_unreadable_text_is_an_illegal_action_in_one_line(text: str) -> None:
    with pytest.raises(IllegalAction) as error:
        Action.parse(text)
    message = str(error.value)
    assert "\n" not in message
    assert len(message) < 200
    assert isinstance(error.value, TavernkeepError)


@pytest.mark.parametrize(
    "data",
    [
        5,
        None,
        [],
        ["quest", 1],
        {},
        {"kind": 5},
        {"kind": "quest", "args": [True]},
        {"kind": "quest", "args": [1.5]},
        {"kind": "quest", "args": [None]},
        {"kind": "quest", "args": "1"},
        {"kind": "quest", "args": [[1]]},
        {"kind": "quest", "args": ["a b"]},
        {"kind": "Quest\nbrag"},
        {"kind": "quest", "args": ["x" * 300 + " y"]},
        "not an action",
    ],
)
def test_malformed_json_is_an_illegal_action_in_one_line(data: object) -> None:
    with pytest.raises(IllegalAction) as error:
        Action.from_json(data)
    message = str(error.value)
    assert "\n" not in message
    assert len(message) < 200


@pytest.mark.parametrize(
    "text",
    ["quest:" + "9" * 5000, "quest:" + "9" * 19, "move:1,-" + "1" * 4400],
    ids=["5000-digits", "19-digits", "negative-4400-digits"],
)
def test_a_number_too_long_for_any_action_is_one_short_line(text: str) -> None:
    with pytest.raises(IllegalAction) as error:
        Action.parse(text)
    message = str(error.value)
    assert "\n" not in message and len(message) < 200
    assert "too long" in message


def test_a_json_number_too_long_for_any_action_is_one_short_line() -> None:
    # JSON readers that accept big integers hand them over as ints.
    with pytest.raises(IllegalAction) as error:
        Action.from_json({"kind": "quest", "args": [10**5000]})
    message = str(error.value)
    assert "\n" not in message and len(message) < 200


def test_eighteen_digits_are_still_a_number() -> None:
    assert Action.parse("x:" + "9" * 18).args == (10**18 - 1,)


@given(words, args)
def test_an_action_survives_pickling_and_copying(kind: str, arguments: list[int | str]) -> None:
    # Search workers send actions between processes; the compiled build's Action has no
    # instance dict, so it pickles as the call that makes it (Action.__reduce__).
    import copy
    import pickle

    action = Action(kind, *arguments)
    for again in (pickle.loads(pickle.dumps(action)), copy.deepcopy(action), copy.copy(action)):
        assert again == action and hash(again) == hash(action) and again.text == action.text
