"""A pack without Python (issue 40, items 6 and 9): `pack export` writes a built-in pack with
its comments, `pack check` validates one, and a mistake is one line that points at the fix."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tavernkeep.games import all_games, get_game

if TYPE_CHECKING:
    from tests.lab.conftest import Run


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_the_standard_pack_is_exported_with_its_comments_and_checks(
    run: Run, tmp_path: Path, game: str
) -> None:
    mine = tmp_path / "mine.toml"
    code, stdout, err = run(["pack", "export", game, "--to", str(mine)])
    assert code == 0, err
    own = get_game(game).load_pack(None).name
    standard = (get_game(game).content_dir / f"{own}.toml").read_text(encoding="utf-8")
    assert mine.read_text(encoding="utf-8") == standard
    assert "#" in standard, "the pack's comments come with it"
    code, stdout, err = run(["pack", "check", str(mine)])
    assert code == 0, err
    assert f"a valid {get_game(game).title} pack" in stdout
    # Written once: a second export does not overwrite a designer's changes.
    code, _, err = run(["pack", "export", game, "--to", str(mine)])
    assert code == 2 and "the file exists already" in err


def mistaken(tmp_path: Path, old: str, new: str) -> Path:
    text = (get_game("hack-and-slash").content_dir / "standard.toml").read_text(encoding="utf-8")
    assert old in text
    pack = tmp_path / "mistaken.toml"
    pack.write_text(text.replace(old, new, 1), encoding="utf-8")
    return pack


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("[[quest]]", "[quest]", "each entry of a list is headed [[quest]] (two brackets)"),
        ("[[quest]]", "[[quests]]", "field 'quests': is not a known field; did you mean 'quest'?"),
        (
            "reward = 1\n",
            "rewrad = 1\n",
            "field 'rewrad': is not a known field; did you mean 'reward'?",
        ),
    ],
)
def test_a_pack_mistake_is_one_line_naming_the_fix(
    run: Run, tmp_path: Path, old: str, new: str, said: str
) -> None:
    code, stdout, err = run(
        ["pack", "check", str(mistaken(tmp_path, old, new)), "-g", "hack-and-slash"]
    )
    assert code == 2
    assert said in err, err
    assert err.count("\n") == 1 and stdout == ""


def test_a_pack_of_another_game_says_whose_it_is(run: Run, tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    assert run(["pack", "export", "hack-and-slash", "--to", str(mine)])[0] == 0
    code, _, err = run(["pack", "check", str(mine), "--game", "here-to-slay"])
    assert code == 2
    assert "this is a Hack & Slash pack; here-to-slay needs its own" in err
    assert "tavernkeep pack export here-to-slay" in err


# -- naming a number (issue 40, item 7) -------------------------------------------------------


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_pack_params_lists_every_number_by_the_path_sweep_and_tune_take(
    run: Run, game: str
) -> None:
    from tavernkeep.lab.sweep import get_number, parse_path, raw_pack
    from tavernkeep.lab.tune import parse_param

    code, stdout, err = run(["pack", "params", game])
    assert code == 0, err
    lines = stdout.splitlines()
    assert lines, "every pack has numbers"
    _, raw = raw_pack(get_game(game), None)
    for line in lines:
        path, _, value = line.rpartition(" = ")
        # Each path, as printed, names the number printed beside it.
        assert get_number(raw, parse_path(path), path) == float(value), line
        assert parse_param(f"{path}={value}..{float(value) + 1:g}", raw).start == float(value)
    assert len(set(lines)) == len(lines)


def test_pack_params_names_an_array_of_one_number_without_its_place(run: Run) -> None:
    code, stdout, err = run(["pack", "params", "here-to-slay"])
    assert code == 0, err
    lines = stdout.splitlines()
    # `bonus = [1]`: one number, named as the pack shows it; `bonus = [1, -1]`: two, by place.
    assert "leader[The Wild Hawk].skill.bonus = 1" in lines
    assert "leader[The Stone Warden].skill.bonus[#1] = 1" in lines
    assert "leader[The Stone Warden].skill.bonus[#2] = -1" in lines
    assert not any(line.startswith("leader[The Wild Hawk].skill.bonus[#") for line in lines)
    assert "monster[Grimtooth Ogre].slay_roll = 8" in lines
    code, stdout, err = run(["pack", "params", "rage"])
    assert stdout.splitlines() == [
        "radius = 7",
        "start[#1] = -4",
        "start[#2] = 7",
        "gate[#1] = 4",
        "gate[#2] = -7",
        "dawn = 57",
    ]


def test_pack_params_reads_a_pack_file_and_lists_ablates_fields(run: Run, planted: Path) -> None:
    code, stdout, err = run(["pack", "params", "hack-and-slash", "--pack", str(planted)])
    assert code == 0, err
    assert "quest[Rats in the Cellar].reward = 40" in stdout.splitlines()
    assert "brag.goal = 4" in stdout.splitlines()
    code, stdout, err = run(["pack", "params", "here-to-slay", "--fields"])
    assert code == 0, err
    fields = stdout.splitlines()
    assert "monster.slay_roll (15 entries)" in fields
    # The three Leaders whose bonus is one number; with [#1], the Stone Warden's first too.
    assert "leader.skill.bonus (3 entries)" in fields
    assert "leader.skill.bonus[#1] (4 entries)" in fields


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_ablate_reaches_every_number_sweep_names_in_an_entry(game: str) -> None:
    """Each number of an entry of a list (`leader[The Wild Hawk].skill.bonus`) is ablated by
    the field without the entry (`leader.skill.bonus`), at the value sweep reads there,
    wherever two entries or more hold it (ablate compares an entry with its kind's
    median); and `--fields` lists exactly those fields."""
    from tavernkeep.lab.ablate import ablate_fields, entries_of
    from tavernkeep.lab.sweep import number_paths, parse_path, raw_pack

    _, raw = raw_pack(get_game(game), None)
    listed = dict(ablate_fields(raw))
    reached = 0
    for path, value in number_paths(raw):
        first, *rest = parse_path(path)
        table = raw.get(first.key)
        if not rest or not isinstance(table, list):
            continue
        field = f"{first.key}.{path[len(str(first)) + 1 :]}"
        if field not in listed:
            continue  # one entry alone holds it: no kind's median to compare with
        if first.number is not None:
            index = first.number - 1
        else:
            names = [e.get("name") for e in table]
            index = names.index(first.name) if first.name is not None else 0
        _, _, entries = entries_of(raw, field)
        assert len(entries) == listed[field]
        assert (index, float(value)) in [(e.index, e.value) for e in entries], path
        reached += 1
    assert reached > 0 or game == "rage"


def test_a_pack_params_mistake_is_one_line(run: Run) -> None:
    code, stdout, err = run(["pack", "params", "hack-and-slash", "--pack", "nowhere"])
    assert code == 2 and stdout == ""
    assert "no built-in pack named 'nowhere'" in err and err.count("\n") == 1


def help_of(command: str, option: str) -> str:
    """An option's help as `--help` shows it (Rich markup rendered: a `[#1]` would vanish)."""
    import typer
    from rich.text import Text

    from tavernkeep.cli import app

    group = typer.main.get_command(app)
    [param] = [p for p in group.commands[command].params if option in p.opts]  # type: ignore[attr-defined]
    return Text.from_markup(str(param.help)).plain


def test_every_example_in_the_labs_help_names_something_in_its_standard_pack() -> None:
    """A designer copies the help's examples: each is shown, and each works on the standard
    pack of the game it is given for."""
    from tavernkeep import cli
    from tavernkeep.lab.ablate import entries_of, holder_column
    from tavernkeep.lab.sweep import load_raw, raw_pack, set_number, split_set, sweep_batches
    from tavernkeep.lab.tune import parse_param, parse_target

    cases: list[tuple[str, str, cli.Examples]] = [
        ("sweep", "--set", cli.SWEEP_EXAMPLES),
        ("tune", "--param", cli.TUNE_PARAM_EXAMPLES),
        ("tune", "--target", cli.TUNE_TARGET_EXAMPLES),
        ("ablate", "--field", cli.ABLATE_FIELD_EXAMPLES),
        ("ablate", "--holder", cli.ABLATE_HOLDER_EXAMPLES),
    ]
    for command, option, examples in cases:
        shown = help_of(command, option)
        for game_name, texts in examples.items():
            assert f"in {game_name} " in shown
            for text in texts:
                assert text in shown, (command, option, text)
                game = get_game(game_name)
                _, raw = raw_pack(game, None)
                if option == "--set":
                    param, values = split_set(text)
                    _, batches = sweep_batches(game, param, values, None, 1, {}, None)
                    assert len(batches) == len(values) >= 2
                elif option == "--param":
                    tuned = parse_param(text, raw)
                    assert tuned.start is not None
                    for end in (tuned.low, tuned.high):
                        set_number(raw, list(tuned.path), tuned.shown(end), tuned.text)
                        load_raw(game, raw, text)
                elif option == "--target":
                    parse_target(text, game)
                elif option == "--field":
                    assert len(entries_of(raw, text)[2]) >= 2
                else:
                    holder_column(game, text, "--holder")


def test_a_pack_mistake_names_its_line(run: Run, tmp_path: Path) -> None:
    pack = mistaken(tmp_path, "reward = 1\n", "rewrad = 1\n")
    line = pack.read_text(encoding="utf-8").splitlines().index("rewrad = 1") + 1
    code, stdout, err = run(["pack", "check", str(pack), "-g", "hack-and-slash"])
    assert code == 2 and stdout == ""
    assert err == (
        f"tavernkeep: error: {pack}: line {line}: quest #1 'Rats in the Cellar': field "
        "'rewrad': is not a known field; did you mean 'reward'?\n"
    )


def test_a_card_whose_text_contradicts_its_numbers_is_a_warning(run: Run, tmp_path: Path) -> None:
    # The Wild Hawk's text says +1 to ATTACK rolls; its bonus says 2. The pack is valid
    # (it plays, at +2) but reads wrong: one warning line, on stderr, and exit 0.
    text = (get_game("here-to-slay").content_dir / "standard.toml").read_text(encoding="utf-8")
    old = 'text = "+1 to your ATTACK rolls.", bonus = [1] }'
    assert text.count(old) == 1
    pack = tmp_path / "hawk.toml"
    pack.write_text(text.replace(old, old.replace("[1]", "[2]")), encoding="utf-8")
    line = next(i for i, s in enumerate(text.splitlines()) if old in s) + 1
    code, stdout, err = run(["pack", "check", str(pack)])
    assert code == 0, err
    assert err == (
        f"warning: {pack}: line {line}: leader #4 'The Wild Hawk': its skill.text says '+1' "
        "but its skill.bonus is [2]\n"
    )
    assert stdout == f"{pack}: a valid Here to Slay pack ({pack}), 1 warning\n"


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_a_standard_pack_checks_without_a_warning(run: Run, tmp_path: Path, game: str) -> None:
    mine = tmp_path / "mine.toml"
    assert run(["pack", "export", game, "--to", str(mine)])[0] == 0
    code, stdout, err = run(["pack", "check", str(mine)])
    assert code == 0 and err == "", err
    assert stdout.endswith(f"a valid {get_game(game).title} pack ({mine})\n")
