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
