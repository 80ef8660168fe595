"""Game records: saved and loaded intact, replayed exactly, and refused in one clear line
when they are damaged, belong to another game, or were played with other cards."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tavernkeep.agents import make_bot
from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.errors import RecordError, TavernkeepError
from tavernkeep.engine.match import Match
from tavernkeep.engine.records import (
    GameRecord,
    action_at,
    load_record,
    pack_from_data,
    parse_record,
    replay,
    replay_steps,
)
from tavernkeep.games import get_game
from tavernkeep.games.hack_and_slash import GAME

SEATS = ["bot:heuristic", "bot:random", "bot:random"]

PACK = """
[[quest]]
name = "Rats"
challenge = 1
goal = 3
reward = 1

[[quest]]
name = "Wolves"
challenge = 2
goal = 7
reward = 2

[[quest]]
name = "Troll"
challenge = 3
goal = 12
reward = 5

[[quest]]
name = "Ghost"
challenge = 1
goal = 5
reward = 2
"""


def finished(seed: int = 3, pack: str | None = None) -> Match:
    agents = [make_bot(spec, GAME) for spec in SEATS]
    match = Match.start(GAME, agents, seed, pack=pack, seats=SEATS)
    match.run()
    return match


def one_line(error: BaseException) -> str:
    message = str(error)
    assert message
    assert "\n" not in message, message
    assert isinstance(error, TavernkeepError)
    return message


def record_error(record: GameRecord) -> str:
    with pytest.raises(RecordError) as error:
        replay(GAME, record)
    return one_line(error.value)


def load_error(path: Path) -> str:
    with pytest.raises(RecordError) as error:
        load_record(path)
    return one_line(error.value)


def changed(record: GameRecord, **fields: Any) -> GameRecord:
    return record.model_copy(update=fields, deep=True)


# -- saving and loading --------------------------------------------------------------


def test_a_saved_record_loads_back_the_same(tmp_path: Path) -> None:
    match = finished()
    path = tmp_path / "game.json"
    match.record.save(path)
    loaded = load_record(path)
    assert loaded == match.record
    assert loaded.result == GAME.result(match.state).to_json()  # type: ignore[union-attr]
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "tavernkeep-record"
    assert data["game"] == "hack-and-slash"
    assert data["seats"] == SEATS
    assert data["seed"] == 3
    assert data["actions"] == match.record.actions


def test_saving_again_replaces_the_old_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    finished(seed=1).record.save(path)
    second = finished(seed=2).record
    second.save(path)
    assert load_record(path) == second


def test_a_loaded_record_replays_to_the_same_state(tmp_path: Path) -> None:
    match = finished(seed=11)
    path = tmp_path / "game.json"
    match.record.save(path)
    state = replay(GAME, load_record(path))
    assert state == match.state
    assert GAME.result(state).to_json() == match.record.result  # type: ignore[union-attr]


def test_replay_steps_show_every_position_in_order() -> None:
    match = finished(seed=5)
    steps = list(replay_steps(GAME, match.record))
    assert [index for index, *_ in steps] == list(range(len(match.record.actions) + 1))
    assert steps[0][1] is None and steps[0][2] == []
    assert [action.text for _, action, _, _ in steps[1:]] == match.record.actions  # type: ignore[union-attr]
    assert all(events for _, _, events, _ in steps[1:])
    assert GAME.is_over(steps[-1][3])


def test_an_unfinished_record_replays_to_an_unfinished_game() -> None:
    match = finished(seed=5)
    short = changed(match.record, actions=match.record.actions[:3], result=None)
    state = replay(GAME, short)
    assert not GAME.is_over(state)
    assert GAME.result(state) is None


# -- damaged files ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{not json", "not valid JSON"),
        ("", "not valid JSON"),
        ('{"game": "hack-and-slash", "seed": 1, "seats": []', "not valid JSON"),
        ("[1, 2, 3]", "JSON object"),
        ('"hack-and-slash"', "JSON object"),
    ],
)
def test_a_file_that_is_not_a_record_is_one_line(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(text, encoding="utf-8")
    message = load_error(path)
    assert str(path) in message
    assert expected in message


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"game": None}, "game"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"seed": "seven"}, "seed"),
        ({"seats": "bot:random"}, "seats"),
        ({"actions": [1, 2]}, "actions"),
        ({"format": "chess-pgn"}, "format"),
        ({"version": 0}, "version"),
        ({"winner": 1}, "winner"),
    ],
)
def test_a_record_of_the_wrong_shape_names_the_field(
    tmp_path: Path, change: dict[str, Any], field: str
) -> None:
    data = json.loads(finished().record.to_json())
    for key, value in change.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    message = load_error(path)
    assert str(path) in message
    assert f"'{field}" in message


def test_a_missing_record_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "gone.json"
    assert "no such record" in load_error(path)


def test_a_folder_or_a_binary_file_is_not_a_record(tmp_path: Path) -> None:
    assert str(tmp_path) in load_error(tmp_path)
    binary = tmp_path / "game.json"
    binary.write_bytes(b"\xff\xfe\x00\x00\x81")
    assert str(binary) in load_error(binary)


# -- records that do not replay -------------------------------------------------------------


def test_a_record_of_another_game_is_refused() -> None:
    message = record_error(changed(finished().record, game="chess"))
    assert "chess" in message


def test_an_illegal_action_names_its_number() -> None:
    record = finished().record
    actions = record.actions[:]
    actions[3] = "quest:7"
    message = record_error(changed(record, actions=actions))
    assert "action #4" in message
    assert "quest:7" in message


def test_an_unreadable_action_names_its_number() -> None:
    record = finished().record
    actions = record.actions[:]
    actions[0] = "??"
    assert "action #1" in record_error(changed(record, actions=actions))


def test_an_action_after_the_end_names_its_number() -> None:
    record = finished().record
    message = record_error(changed(record, actions=[*record.actions, "brag"]))
    assert f"action #{len(record.actions) + 1}" in message


def test_replay_steps_keep_the_positions_before_the_bad_action() -> None:
    record = finished().record
    actions = record.actions[:]
    actions[2] = "quest:9"
    seen = []
    with pytest.raises(RecordError):
        for index, _, _, _ in replay_steps(GAME, changed(record, actions=actions)):
            seen.append(index)
    assert seen == [0, 1, 2]


def test_a_record_with_the_wrong_number_of_seats_is_refused() -> None:
    record = finished().record
    message = record_error(changed(record, seats=record.seats[:2]))
    assert "seats" in message


def test_a_record_with_an_impossible_config_is_refused() -> None:
    record = finished().record
    config = dict(record.config, players=9)
    assert "set up" in record_error(changed(record, config=config))


def test_a_record_whose_pack_is_gone_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(PACK, encoding="utf-8")
    record = finished(pack=str(path)).record
    path.unlink()
    with pytest.raises(RecordError) as error:
        replay(GAME, record, pack=str(path))
    message = one_line(error.value)
    assert "set up" in message
    assert str(path) in message


def test_a_changed_pack_is_caught_by_its_digest(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(PACK, encoding="utf-8")
    match = finished(pack=str(path))
    saved = tmp_path / "game.json"
    match.record.save(saved)
    assert match.record.pack == str(path)
    assert replay(GAME, load_record(saved), pack=str(path)) == match.state
    # A comment changes no card: still the same game.
    path.write_text("# tuned later\n" + PACK, encoding="utf-8")
    assert replay(GAME, load_record(saved), pack=str(path)) == match.state
    # A changed reward is another game.
    path.write_text(PACK.replace("reward = 5", "reward = 6"), encoding="utf-8")
    with pytest.raises(RecordError) as error:
        replay(GAME, load_record(saved), pack=str(path))
    message = one_line(error.value)
    assert "digest" in message
    assert str(path) in message


def test_a_parsed_record_equals_its_text_form() -> None:
    record = finished(seed=8).record
    assert parse_record(record.to_json()) == record
    with pytest.raises(RecordError) as error:
        parse_record("{}", "upload")
    assert one_line(error.value).startswith("upload:")


# -- record versions: old records keep replaying ----------------------------------------------


def test_a_new_record_is_version_2() -> None:
    assert json.loads(finished().record.to_json())["version"] == 2


def test_a_version_1_text_is_read_in_its_own_numbering() -> None:
    state = finished().state
    old = ["quest:0", "rescue:5", "quest:2", "brag", "quit", "quest:1"]
    assert [action_at(GAME, 1, state, text) for text in old] == [
        "quest:1",
        "rescue:5",
        "quest:3",
        "brag",
        "quit",
        "quest:2",
    ]
    # Nothing to change for a current record, nor for a game whose numbers stayed.
    assert [action_at(GAME, 2, state, text) for text in old] == old
    rage = get_game("rage")
    assert action_at(rage, 1, None, "step:3") == "step:3"
    # What cannot be read is left for the replay to report by its number.
    assert [action_at(GAME, 1, state, t) for t in ("??", "quest:x")] == ["??", "quest:x"]


def test_a_version_1_record_replays_to_its_recorded_result(tmp_path: Path) -> None:
    match = finished(seed=12)
    data = json.loads(match.record.to_json())
    # The same game as written before the renumbering: quests counted from 0.
    data["version"] = 1
    data["actions"] = [
        f"quest:{int(a.split(':')[1]) - 1}" if a.startswith("quest:") else a
        for a in data["actions"]
    ]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded = load_record(path)
    # Kept as written, and read in its own numbering as it replays.
    assert loaded.version == 1
    assert replay(GAME, loaded) == match.state
    rebuilt, _ = Match.from_record(GAME, loaded, [RandomBot()] * len(loaded.seats))
    assert rebuilt.record.version == 2
    assert rebuilt.record.actions == match.record.actions


def test_a_record_from_a_newer_tavernkeep_says_so(tmp_path: Path) -> None:
    data = json.loads(finished().record.to_json())
    data["version"] = 3
    path = tmp_path / "new.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    message = load_error(path)
    assert "version" in message and "newer" in message


# -- a record is untrusted: it names a pack, it does not choose a file to read ---------------


@pytest.mark.parametrize("named", ["/etc/passwd", "mine.toml", "../standard", "sub/standard"])
def test_a_record_cannot_name_a_file_as_its_pack(named: str) -> None:
    message = record_error(changed(finished().record, pack=named))
    assert named in message
    assert "--pack" in message


def test_a_pack_the_person_names_replays_a_record_played_with_it(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(PACK, encoding="utf-8")
    match = finished(pack=str(path))
    assert replay(GAME, match.record, pack=str(path)) == match.state
    steps = list(replay_steps(GAME, match.record, pack=str(path)))
    assert steps[-1][3] == match.state


# -- a designer's pack, held by the record (a table opened from the workbench) ---------------

OLD_KEYS = {
    "format", "version", "game", "pack", "pack_digest", "config", "seed", "seats", "actions",
    "result",
}


def designed(seed: int = 5) -> Match:
    """A game played with a pack made from data, as a server's table from the workbench."""
    pack = pack_from_data(GAME, tomllib.loads(PACK), "my quests", "standard")
    agents = [make_bot(spec, GAME) for spec in SEATS]
    match = Match(GAME, agents, seed, GAME.make_config({"players": 3}), pack, SEATS)
    match.run()
    return match


def test_a_record_holds_a_designers_pack_and_replays_without_its_file(tmp_path: Path) -> None:
    match = designed()
    record = match.record
    assert (record.pack, record.pack_base) == ("my quests", "standard")
    assert record.pack_data == tomllib.loads(PACK)
    assert record.pack_digest == GAME.load_pack(_written(tmp_path)).digest
    path = tmp_path / "game.json"
    record.save(path)
    loaded = load_record(path)
    assert loaded == record
    assert replay(GAME, loaded) == match.state
    assert GAME.result(replay(GAME, loaded)).to_json() == record.result  # type: ignore[union-attr]


def _written(tmp_path: Path) -> str:
    path = tmp_path / "quests.toml"
    path.write_text(PACK, encoding="utf-8")
    return str(path)


def test_a_record_from_before_held_packs_loads_and_is_written_as_it_was() -> None:
    match = finished(seed=8)
    text = match.record.to_json()
    assert set(json.loads(text)) == OLD_KEYS, "no new field where there is nothing to say"
    old = parse_record(text)
    assert old.pack_data is None and old.pack_base is None
    assert replay(GAME, old) == match.state
    assert old.to_json() == text


def test_a_held_pack_that_is_not_its_digests_is_one_line() -> None:
    record = designed().record
    data = tomllib.loads(PACK.replace("reward = 5", "reward = 6"))
    message = record_error(changed(record, pack_data=data))
    assert message.startswith("the pack the record holds ('my quests') is not the pack it was")
    assert record.pack_digest in message


def test_a_held_pack_that_is_no_pack_is_one_line() -> None:
    record = designed().record
    data = tomllib.loads(PACK)
    data["quest"][2]["reward"] = "five"
    message = record_error(changed(record, pack_data=data))
    assert "my quests: quest #3 'Troll': field 'reward'" in message
    data["quest"][2]["reward"] = None  # a null, which no TOML file holds
    assert "my quests: not a pack" in record_error(changed(record, pack_data=data))


def test_a_held_pack_comes_with_its_digest() -> None:
    data = json.loads(designed().record.to_json())
    data["pack_digest"] = ""
    with pytest.raises(RecordError) as error:
        parse_record(json.dumps(data), "upload")
    assert "pack_data: a pack the record holds comes with its pack_digest" in one_line(
        error.value
    )


# -- hostile files ---------------------------------------------------------------------------


def test_a_record_nested_thousands_deep_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"game": ' + "[" * 5000 + "]" * 5000 + "}", encoding="utf-8")
    assert str(path) in load_error(path)


def test_a_config_nested_hundreds_deep_is_one_line(tmp_path: Path) -> None:
    # Shallow enough for the JSON reader, deep enough to trouble what reads it next.
    data = json.loads(finished().record.to_json())
    data["config"] = {"players": 3, "x": json.loads("[" * 900 + "]" * 900)}
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    try:
        record = load_record(path)
    except RecordError as error:
        one_line(error)
        return
    record_error(record)


def test_a_number_of_thousands_of_digits_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_text('{"game": "hack-and-slash", "seed": ' + "9" * 5000 + "}", encoding="utf-8")
    message = load_error(path)
    assert str(path) in message and len(message) < 300
    actions = finished().record.actions[:]
    actions[1] = "quest:" + "9" * 5000
    message = record_error(changed(finished().record, actions=actions))
    assert "action #2" in message and len(message) < 300


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_device_is_not_read_as_a_record() -> None:
    assert "/dev/zero" in load_error(Path("/dev/zero"))
