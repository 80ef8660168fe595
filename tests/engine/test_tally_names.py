"""Every name a game's tally counts is among the names it declares for that kind, so a
report's "never used" is the pack's dead card, not a name it failed to expect."""

from __future__ import annotations

from typing import Any

import pytest

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.match import Match
from tavernkeep.games import all_games, get_game

GAMES = [game.name for game in all_games()]


@pytest.mark.parametrize("name", GAMES)
def test_counted_names_are_declared_names(name: str) -> None:
    game = get_game(name)
    config: Any = game.make_config({})
    players = getattr(config, "players", 1)
    pack = game.load_pack(None)
    declared = game.tally_names(pack.content)
    assert declared, f"{name} declares no names for any tally kind"
    assert set(declared) <= set(game.tally_kinds)
    counted: dict[str, set[str]] = {kind: set() for kind in declared}
    for seed in range(40 if name in ("hack-and-slash", "rage") else 8):
        match = Match(game, [RandomBot() for _ in range(players)], seed, config, pack)
        result = match.run()
        for seat in result.facts["tally"]:
            for kind in declared:
                counted[kind].update(seat[kind])
    for kind, names in declared.items():
        assert counted[kind] <= set(names), f"{name} {kind}: {counted[kind] - set(names)}"
    # The declared names are the pack's, so the random games cover some of each.
    assert any(counted[kind] for kind in declared)
