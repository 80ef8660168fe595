"""Packs with a planted change whose answer is known, for the lab's tests."""

from __future__ import annotations

from pathlib import Path


def plant(tmp_path: Path, game: str, changes: dict[tuple[str, str], int]) -> Path:
    """The game's standard pack with `changes`: (entry name, field) -> its new number."""
    import re

    from tavernkeep.games import get_game

    text = (get_game(game).content_dir / "standard.toml").read_text(encoding="utf-8")
    for (name, field), value in changes.items():
        at = text.index(f'name = "{name}"')
        found = re.compile(rf"^{field} = .*$", re.M).search(text, at)
        assert found is not None, (name, field)
        text = text[: found.start()] + f"{field} = {value}" + text[found.end() :]
    pack = tmp_path / f"{game}-planted.toml"
    pack.write_text(text, encoding="utf-8")
    return pack
