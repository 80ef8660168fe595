"""Content packs: the standard pack loads, and every mistake in a designer's pack is one
line naming the file, the entry and the field."""

from __future__ import annotations

import importlib
import os
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tavernkeep.engine.content import Restated, _model_in
from tavernkeep.engine.errors import ContentError, TavernkeepError
from tavernkeep.engine.toml_lines import line_of, locate
from tavernkeep.games import all_games, get_game
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
        GOOD
        + "[[quest]]\nname = 'Deep'\nchallenge = 1\ngoal = 3\nreward = 1\nextra = "
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


# -- the line of a mistake (issue 40, item 9) -------------------------------------------


def line_holding(text: str, part: str, after: str = "") -> int:
    """The 1-based line of the first line holding `part` after the first holding `after`."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if after in line)
    return next(i for i, line in enumerate(lines) if i >= start and part in line) + 1


def test_a_misspelt_field_names_its_line(tmp_path: Path) -> None:
    text = quest("Rats") + quest("Wolves", rewrd=2) + quest("Riddle")
    path = write(tmp_path, text)
    line = line_holding(text, "rewrd = 2")
    assert load_error(path) == (
        f"{path}: line {line}: quest #2 'Wolves': field 'rewrd': is not a known field; "
        "did you mean 'reward'?"
    )


def test_a_misspelt_table_names_its_header_line(tmp_path: Path) -> None:
    text = GOOD + '\n[[quests]]\nname = "Orc"\n'
    path = write(tmp_path, text)
    assert load_error(path).startswith(
        f"{path}: line {line_holding(text, '[[quests]]')}: field 'quests': is not a known field"
    )


def test_a_wrong_value_names_the_line_of_its_field(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("goal = 7\nexact", "goal = 70\nexact"))
    line = line_holding(path.read_text(), "goal = 70")
    assert load_error(path).startswith(f"{path}: line {line}: quest #3 'Riddle': field 'goal': ")


def test_a_missing_field_names_the_line_of_its_entry(tmp_path: Path) -> None:
    text = quest("Rats") + quest("Wolves", goal=None) + quest("Riddle")
    path = write(tmp_path, text)
    header = line_holding(text, 'name = "Wolves"') - 1  # the [[quest]] above its name
    assert text.splitlines()[header - 1] == "[[quest]]"
    assert load_error(path) == f"{path}: line {header}: quest #2 'Wolves': field 'goal': is missing"


def test_a_whole_pack_check_names_the_line_its_message_names(tmp_path: Path) -> None:
    # The pack's own check finds the duplicate, not pydantic's field path: its message
    # says where ("quest #3 'Rats': field 'name'"), and that is the line.
    text = quest("Rats") + quest("Wolves") + quest("Rats")
    path = write(tmp_path, text)
    third = [i + 1 for i, line in enumerate(text.splitlines()) if line == 'name = "Rats"'][1]
    assert load_error(path).startswith(f"{path}: line {third}: quest #3 'Rats': field 'name': ")


def test_a_table_the_file_lacks_has_no_line(tmp_path: Path) -> None:
    path = write(tmp_path, '[brag]\nname = "Brag"\n')
    assert load_error(path) == f"{path}: field 'quest': is missing"


@pytest.mark.parametrize(
    ("game", "old", "new", "said"),
    [
        # An entry's own check names a field: that field's line.
        (
            "crits-and-tricks",
            "times = 2\nin_a_row = true",
            "times = 1\nin_a_row = true",
            "quest #22 'Sore Loser': field 'in_a_row': needs times of 2 or more",
        ),
        # A step of a list written over several lines: the step's own line.
        (
            "here-to-slay",
            '  { verb = "discard", who = "chosen_opponent" },',
            '  { verb = "discard", who = "chosen_opponent", count = 9 },',
            "hero #15 'Valka Stormblade': effect #2: field 'count': ",
        ),
        # A misspelt key inside an inline table of a list of levels.
        (
            "side-quest",
            "{ monsters = 10, loot = 2, damsels = 1, runes = 1 },",
            "{ monsters = 10, loot = 2, damsel = 1, runes = 1 },",
            "scenario #2 'Webs Under Thornhold': levels #3: field 'damsel': is not a known "
            "field; did you mean 'damsels'?",
        ),
        ("rage", "dawn = 57", "dwan = 57", "field 'dwan': is not a known field"),
    ],
    ids=["entry-check", "multi-line-list", "inline-table", "top-level-key"],
)
def test_every_game_names_the_line_of_a_mistake(
    tmp_path: Path, game: str, old: str, new: str, said: str
) -> None:
    chosen = get_game(game)
    standard = (chosen.content_dir / f"{chosen.load_pack(None).name}.toml").read_text("utf-8")
    assert standard.count(old) >= 1, old
    text = standard.replace(old, new, 1)
    path = write(tmp_path, text)
    with pytest.raises(ContentError) as error:
        chosen.load_pack(str(path))
    line = line_holding(text, new.splitlines()[-1])
    assert str(error.value).startswith(f"{path}: line {line}: {said}"), str(error.value)


def every_place(node: object, place: tuple[int | str, ...] = ()) -> list[tuple[int | str, ...]]:
    if isinstance(node, dict):
        return [
            p
            for key, value in node.items()
            for p in [(*place, key), *every_place(value, (*place, key))]
        ]
    if isinstance(node, list):
        return [
            p
            for i, value in enumerate(node)
            for p in [(*place, i), *every_place(value, (*place, i))]
        ]
    return []


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_every_key_of_every_built_in_pack_is_found_on_its_own_line(game: str) -> None:
    # The line a mistake names is found by reading the file again for positions: every
    # key tomllib reads, at any depth, is on the line it names.
    for path in get_game(game).content_dir.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        located = locate(text)
        for place in every_place(tomllib.loads(text)):
            line = line_of(located, place)
            assert line is not None, (path.name, place)
            if isinstance(place[-1], str):
                assert place[-1] in lines[line - 1], (path.name, place, line)


def test_lines_are_found_past_quotes_comments_and_long_strings() -> None:
    text = (
        "# [[quest]] in a comment is no header\n"  # 1
        '"quoted key" = "a \\"b\\" [c"\n'  # 2
        'story = """\n'  # 3
        "[[quest]] inside a string\n"  # 4
        'goal = 3 is text too"""\n'  # 5
        "[[quest]]  # the first\n"  # 6
        "name = 'a \\ literal'  # 7\n"
        "deck.size = 4\n"  # 8
        "[[quest]]\n"  # 9
        "list = [\n"  # 10
        "  1, # one\n"  # 11
        "  { a = 'x]', b = 2 },\n"  # 12
        "]\n"  # 13
        "[quest.when]\n"  # 14
        "die = 6\n"  # 15
    )
    assert tomllib.loads(text)["quest"][0]["name"] == "a \\ literal"
    located = locate(text)
    assert line_of(located, ("quoted key",)) == 2
    assert line_of(located, ("story",)) == 3
    assert line_of(located, ("quest",)) == 6
    assert line_of(located, ("quest", 0, "name")) == 7
    assert line_of(located, ("quest", 0, "deck", "size")) == 8
    assert line_of(located, ("quest", 1)) == 9
    assert line_of(located, ("quest", 1, "list", 1, "b")) == 12
    assert line_of(located, ("quest", 1, "when", "die")) == 15
    # The deepest part the file holds: a missing field is its entry's line.
    assert line_of(located, ("quest", 1, "goal")) == 9
    assert line_of(located, ("nowhere",)) is None


# -- a card's text against its numbers (issue 40, item 9) -----------------------------


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_no_built_in_pack_warns(game: str) -> None:
    chosen = get_game(game)
    for path in chosen.content_dir.glob("*.toml"):
        assert chosen.load_pack(path.stem).warnings == (), path.name


def restated(game: str) -> tuple[Restated, ...]:
    module = importlib.import_module(type(get_game(game).load_pack(None).content).__module__)
    claims: tuple[Restated, ...] = getattr(module, "RESTATED", ())
    return claims


def field_model(model: Any, name: str) -> Any:
    """The model (of a list's items, an optional's) a field named as the TOML names it holds,
    or the field's annotation where it holds none; KeyError where there is no such field."""
    for field_name, info in model.model_fields.items():
        if name in (field_name, info.alias):
            return _model_in(info.annotation) or info.annotation
    raise KeyError(f"{model.__name__} has no field '{name}'")


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_every_restated_path_is_a_field_of_its_entries(game: str) -> None:
    # A declaration naming no field would compare nothing, silently: each step of its
    # field and text paths is a field of its entries' model.
    pack_model = type(get_game(game).load_pack(None).content)
    for claim in restated(game):
        for kind in claim.kinds:
            for path in (claim.field, claim.text):
                node = field_model(pack_model, kind)
                for step in path.split("."):
                    name, _, filtered = step.partition("[")
                    node = field_model(node, name)
                    if filtered:
                        field_model(node, filtered.split("=")[0])


@pytest.mark.parametrize("game", ["crits-and-tricks", "here-to-slay", "side-quest"])
def test_a_game_whose_cards_restate_numbers_checks_them_on_its_own_pack(game: str) -> None:
    # The declarations read the standard pack's own phrasing: each game's phrases are
    # found in its pack (no warning there: test_no_built_in_pack_warns).
    pack = get_game(game).load_pack(None)
    data = pack.content.model_dump(by_alias=True)
    texts = [
        entry[claim.text.split(".")[0]]
        for claim in restated(game)
        for kind in claim.kinds
        for entry in data.get(kind) or []
    ]
    assert restated(game) and texts


PLANTED = [
    (
        "crits-and-tricks",
        'text = "Take a trick with your d6 showing 6."\nloot = 2\nwhen = { die = 6, value = 6 }',
        'text = "Take a trick with your d6 showing 6."\nloot = 2\nwhen = { die = 6, value = 5 }',
        "when = { die = 6, value = 5 }",
        "quest #2 'Boxcar Six': its text says 'showing 6' but its when.value is 5",
    ),
    (
        "crits-and-tricks",
        'text = "Take three tricks in one round."\nloot = 3\nwhen = {}\ntimes = 3',
        'text = "Take three tricks in one round."\nloot = 3\nwhen = {}\ntimes = 2',
        "times = 2",
        "quest #24 'Hat Trick': its text says 'three tricks' but its times is 2",
    ),
    (
        "here-to-slay",
        'text = "+1 to your ATTACK rolls.", bonus = [1] }',
        'text = "+1 to your ATTACK rolls.", bonus = [2] }',
        "bonus = [2] }",
        "leader #4 'The Wild Hawk': its skill.text says '+1' but its skill.bonus is [2]",
    ),
    (
        "here-to-slay",
        'effect = [{ verb = "draw", count = 3 }, { verb = "discard", who = "each_opponent" }]',
        'effect = [{ verb = "draw", count = 2 }, { verb = "discard", who = "each_opponent" }]',
        '{ verb = "draw", count = 2 }',
        "hero #48 'Archmage Veyra': its text says 'DRAW 3' but its effect[verb=draw].count is 2",
    ),
    (
        "side-quest",
        'text = "5+: 2 damage to a Monster within your range."\nroll = 5',
        'text = "5+: 2 damage to a Monster within your range."\nroll = 4',
        "roll = 4",
        "spell #2 'Searing Lance': its text says '5+' but its roll is 4",
    ),
    (
        "side-quest",
        'effects = [{ name = "heal", amount = 2 }]',
        'effects = [{ name = "heal", amount = 3 }]',
        'effects = [{ name = "heal", amount = 3 }]',
        "item #1 'Flask of Red Tonic': its text says 'regain 2 health' but its "
        "effects[name=heal].amount is 3",
    ),
]


@pytest.mark.parametrize(
    ("game", "old", "new", "at", "said"),
    PLANTED,
    ids=["c&t-value", "c&t-times", "hts-bonus", "hts-count", "sq-roll", "sq-heal"],
)
def test_a_text_that_contradicts_its_numbers_is_one_warning(
    tmp_path: Path, game: str, old: str, new: str, at: str, said: str
) -> None:
    chosen = get_game(game)
    standard = (chosen.content_dir / "standard.toml").read_text(encoding="utf-8")
    assert standard.count(old) == 1, old
    text = standard.replace(old, new)
    path = write(tmp_path, text)
    pack = chosen.load_pack(str(path))  # a warning never stops a pack loading
    # The line of the number at fault, in the planted entry (its first line is `new`'s).
    line = line_holding(text, at, after=new.splitlines()[0])
    assert pack.warnings == (f"{path}: line {line}: {said}",)


def test_a_number_the_entry_lacks_is_not_set(tmp_path: Path) -> None:
    # "showing 6" with no value at all: the text claims what the rules never check.
    game = get_game("crits-and-tricks")
    standard = (game.content_dir / "standard.toml").read_text(encoding="utf-8")
    text = standard.replace("when = { die = 6, value = 6 }", "when = { die = 6 }")
    path = write(tmp_path, text)
    (warning,) = game.load_pack(str(path)).warnings
    assert warning.endswith(
        "quest #2 'Boxcar Six': its text says 'showing 6' but its when.value is not set"
    )


def test_a_restated_declaration_is_checked_when_made() -> None:
    with pytest.raises(ValueError, match="one group"):
        Restated(("quest",), r"(\d+) or (\d+)", "times")
    with pytest.raises(ValueError, match="not a field path"):
        Restated(("quest",), r"(\d+)", "when..die")
