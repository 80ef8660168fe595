"""Content packs: the standard pack loads, and every mistake in a designer's pack is one
line naming the file, the entry and the field."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tavernkeep.engine.errors import ContentError, TavernkeepError
from tavernkeep.games.hack_and_slash import GAME

GOOD = """
# a small pack for tests
[brag]
name = "Brag at the Tavern"
challenge = 1
goal = 4

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
adventurer = true

[[quest]]
name = "Riddle"
challenge = 2
goal = 7
exact = true
reward = 4
"""


def quest(name: str, **fields: object) -> str:
    lines = ["[[quest]]", f'name = "{name}"']
    values = {"challenge": 1, "goal": 3, "reward": 1, **fields}
    for key, value in values.items():
        if value is None:
            continue
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, str):
            text = f'"{value}"'
        else:
            text = str(value)
        lines.append(f"{key} = {text}")
    return "\n".join(lines) + "\n\n"


def write(tmp_path: Path, text: str | bytes, name: str = "my.toml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def load_error(source: str | Path) -> str:
    with pytest.raises(ContentError) as error:
        GAME.load_pack(str(source))
    message = str(error.value)
    assert message
    assert "\n" not in message, message
    assert isinstance(error.value, TavernkeepError)
    return message


# -- packs that load ---------------------------------------------------------------


def test_the_standard_pack_has_the_brag_and_twenty_quests() -> None:
    pack = GAME.load_pack()
    assert pack.name == "standard"
    assert pack.game == GAME.name
    assert pack.content.brag.name == "Brag at the Tavern"
    assert len(pack.content.quest) == 20
    assert GAME.load_pack("standard").digest == pack.digest


def test_a_designer_pack_loads_from_a_path(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    pack = GAME.load_pack(str(path))
    assert pack.name == str(path)
    assert [q.name for q in pack.content.quest] == ["Rats", "Wolves", "Riddle"]
    wolves = pack.content.quest[1]
    assert (wolves.challenge, wolves.goal, wolves.reward, wolves.adventurer) == (2, 7, 2, True)
    assert pack.content.quest[2].exact is True
    assert GAME.load_pack(path).digest == pack.digest


def test_a_pack_is_read_once_until_its_file_changes(tmp_path: Path) -> None:
    """A server opens table after table on one pack: it is loaded once and shared (its
    derived faces with it); a designer saving a change gets the change at the next load."""
    path = write(tmp_path, GOOD)
    first = GAME.load_pack(str(path))
    assert GAME.load_pack(str(path)) is first
    assert GAME.load_pack() is GAME.load_pack("standard")
    retuned = GOOD.replace("reward = 4", "reward = 5")
    path.write_text(retuned)
    os.utime(path, ns=(first_ns := path.stat().st_mtime_ns, first_ns + 1_000_000))
    again = GAME.load_pack(str(path))
    assert again is not first and again.content.quest[2].reward == 5
    path.write_text("not toml [")
    with pytest.raises(ContentError, match="not valid TOML"):
        GAME.load_pack(str(path))


def test_a_pack_without_a_brag_table_gets_the_rulebook_brag(tmp_path: Path) -> None:
    text = quest("A") + quest("B") + quest("C")
    pack = GAME.load_pack(str(write(tmp_path, text)))
    assert pack.content.brag.name == "Brag at the Tavern"


def test_the_digest_follows_the_cards_not_the_comments(tmp_path: Path) -> None:
    base = GAME.load_pack(str(write(tmp_path, GOOD, "a.toml"))).digest
    commented = GOOD.replace("# a small pack for tests", "# reworded\n# more notes")
    assert GAME.load_pack(str(write(tmp_path, commented, "b.toml"))).digest == base
    retuned = GOOD.replace("reward = 4", "reward = 5")
    assert GAME.load_pack(str(write(tmp_path, retuned, "c.toml"))).digest != base


def test_a_pack_changes_the_game_it_sets_up(tmp_path: Path) -> None:
    pack = GAME.load_pack(str(write(tmp_path, GOOD)))
    state = GAME.setup(GAME.make_config({"players": 3}), 4, pack)
    view = GAME.view(state, None)
    assert sorted(q["name"] for q in view["quests"]) == ["Rats", "Riddle", "Wolves"]
    assert view["draw_pile"] == 0


# -- packs that do not -------------------------------------------------------------


def test_bad_toml_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[[quest]]\nname = "Rats\nchallenge = 1\n')
    message = load_error(path)
    assert str(path) in message
    assert "TOML" in message


def test_a_missing_field_names_the_entry_and_the_field(tmp_path: Path) -> None:
    path = write(tmp_path, quest("Rats") + quest("Wolves", goal=None) + quest("Riddle"))
    message = load_error(path)
    assert str(path) in message
    assert "quest #2 'Wolves'" in message
    assert "field 'goal'" in message
    assert "missing" in message


def test_a_missing_name_names_the_entry_by_number(tmp_path: Path) -> None:
    text = quest("Rats") + quest("Wolves") + "[[quest]]\nchallenge = 1\ngoal = 3\n"
    message = load_error(write(tmp_path, text))
    assert "quest #3" in message
    assert "field 'name'" in message


@pytest.mark.parametrize(
    ("field", "toml"),
    [("challenge", '"two"'), ("goal", "[1, 2]"), ("reward", "{ points = 1 }"), ("exact", "3")],
)
def test_a_wrong_type_names_the_entry_and_the_field(tmp_path: Path, field: str, toml: str) -> None:
    # quest() leaves the field out (None); the raw TOML value is added to the same table.
    wolves = quest("Wolves", **{field: None}) + f"{field} = {toml}\n\n"
    text = quest("Rats") + wolves + quest("Riddle")
    message = load_error(write(tmp_path, text))
    assert "quest #2 'Wolves'" in message
    assert f"field '{field}'" in message


def test_a_goal_no_roll_can_meet_names_the_entry_and_the_goal(tmp_path: Path) -> None:
    path = write(tmp_path, quest("Rats") + quest("Too High", goal=7) + quest("Riddle"))
    message = load_error(path)
    assert str(path) in message
    assert "quest #2 'Too High'" in message
    assert "goal 7" in message


def test_an_unreachable_goal_is_reported_as_the_readme_shows(tmp_path: Path) -> None:
    path = write(tmp_path, quest("Rats") + quest("Too High", goal=7) + quest("Riddle"))
    assert "quest #2 'Too High': field 'goal': goal 7" in load_error(path)


def test_an_exact_goal_below_the_dice_is_unreachable(tmp_path: Path) -> None:
    text = quest("Rats") + quest("Wolves") + quest("Tiny", challenge=3, goal=2, exact=True)
    message = load_error(write(tmp_path, text))
    assert "quest #3 'Tiny'" in message
    assert "goal" in message


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"challenge": 4, "goal": 10}, "challenge"),
        ({"challenge": 0}, "challenge"),
        ({"goal": 0}, "goal"),
        ({"reward": -1}, "reward"),
    ],
)
def test_numbers_out_of_range_name_the_field(
    tmp_path: Path, fields: dict[str, int], field: str
) -> None:
    text = quest("Rats") + quest("Wolves", **fields) + quest("Riddle")
    message = load_error(write(tmp_path, text))
    assert "quest #2 'Wolves'" in message
    assert f"field '{field}'" in message


def test_duplicate_names_are_refused_naming_the_name(tmp_path: Path) -> None:
    path = write(tmp_path, quest("Rats") + quest("Wolves") + quest("Rats"))
    message = load_error(path)
    assert str(path) in message
    assert "'Rats'" in message


def test_a_quest_named_like_the_brag_is_refused(tmp_path: Path) -> None:
    text = quest("Rats") + quest("Brag at the Tavern") + quest("Riddle")
    assert "Brag at the Tavern" in load_error(write(tmp_path, text))


def test_duplicate_names_name_the_entry_and_the_field(tmp_path: Path) -> None:
    path = write(tmp_path, quest("Rats") + quest("Wolves") + quest("Rats"))
    message = load_error(path)
    assert "quest #3" in message
    assert "field 'name'" in message


def test_an_unknown_field_is_named(tmp_path: Path) -> None:
    path = write(tmp_path, quest("Rats") + quest("Wolves", colour="red") + quest("Riddle"))
    message = load_error(path)
    assert "quest #2 'Wolves'" in message
    assert "field 'colour'" in message
    assert "not a known field" in message


def test_an_unknown_table_is_named(tmp_path: Path) -> None:
    text = GOOD + '\n[[monster]]\nname = "Orc"\n'
    message = load_error(write(tmp_path, text))
    assert "field 'monster'" in message


def test_too_few_quests_are_refused(tmp_path: Path) -> None:
    message = load_error(write(tmp_path, quest("Rats") + quest("Wolves")))
    assert "field 'quest'" in message
    assert "3" in message


def test_a_pack_with_no_quests_is_refused(tmp_path: Path) -> None:
    message = load_error(write(tmp_path, '[brag]\nname = "Brag"\n'))
    assert "field 'quest'" in message
    assert "missing" in message


def test_a_bad_brag_names_the_brag_and_the_field(tmp_path: Path) -> None:
    text = "[brag]\nchallenge = 1\ngoal = 4\nreward = 2\n\n" + quest("A") + quest("B") + quest("C")
    message = load_error(write(tmp_path, text))
    assert "'brag'" in message
    assert "field 'reward'" in message


def test_several_problems_are_counted_in_the_one_line(tmp_path: Path) -> None:
    text = quest("Rats", challenge="x") + quest("Wolves", goal="y") + quest("Riddle")
    message = load_error(write(tmp_path, text))
    assert "quest #1 'Rats'" in message
    assert "1 more" in message


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    message = load_error(path)
    assert str(path) in message
    assert "no such" in message


def test_an_unknown_built_in_pack_lists_the_built_in_ones() -> None:
    message = load_error("expansion")
    assert "'expansion'" in message
    assert "standard" in message


def test_a_folder_is_not_a_pack(tmp_path: Path) -> None:
    folder = tmp_path / "pack.toml"
    folder.mkdir()
    assert str(folder) in load_error(folder)


def test_a_binary_file_is_not_a_pack(tmp_path: Path) -> None:
    path = write(tmp_path, b"\xff\xfe\x00\x81 not utf-8")
    assert str(path) in load_error(path)


def test_a_path_through_a_file_is_a_content_error(tmp_path: Path) -> None:
    file = write(tmp_path, GOOD, "plain.toml")
    load_error(file / "inner.toml")


def test_a_boolean_is_not_taken_for_a_number(tmp_path: Path) -> None:
    text = quest("Rats") + quest("Wolves", reward=True) + quest("Riddle")
    message = load_error(write(tmp_path, text))
    assert "field 'reward'" in message


def test_derived_content_is_built_once_an_object_and_lets_old_objects_go() -> None:
    from tavernkeep.engine.content import Derived

    built: list[int] = []

    def build(content: list[int]) -> int:
        built.append(id(content))
        return sum(content)

    derived = Derived(build, keep=2)
    a, b, c = [1, 2], [1, 2], [3]
    assert derived(a) == 3 and derived(a) == 3
    assert len(built) == 1
    # Equal content in another object is built for itself: only identity says the
    # content is the one seen before.
    assert derived(b) == 3 and len(built) == 2
    derived(c)
    # Only the last two asked about are kept: the first is built again.
    derived(a)
    assert built == [id(a), id(b), id(c), id(a)]


@pytest.mark.parametrize(
    "text",
    [
        "x = " + "[" * 5000 + "]" * 5000,
        "x = " + "{a = " * 5000 + "}" * 5000,
        GOOD + "[[quest]]\nname = 'Deep'\nchallenge = 1\ngoal = 3\nreward = 1\nextra = "
        + "[" * 900
        + "]" * 900,
    ],
    ids=["arrays", "inline-tables", "deep-field-in-a-quest"],
)
def test_a_pack_nested_thousands_deep_is_one_line_naming_the_file(
    tmp_path: Path, text: str
) -> None:
    path = write(tmp_path, text + "\n")
    assert str(path) in load_error(path)


def test_a_number_of_thousands_of_digits_in_a_pack_is_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, quest("Rats", reward=int("9" * 100)).replace("9" * 100, "9" * 5000))
    message = load_error(path)
    assert str(path) in message and len(message) < 300


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_device_is_not_read_as_a_pack() -> None:
    # Read as a file, /dev/zero never ends: it must be refused, not read.
    message = load_error("/dev/zero")
    assert "/dev/zero" in message and "not a regular file" in message
