"""Expert iteration (`tavernkeep.rl.expert`): the search's labels, a round that ends in a
guide every game can seat, the same guide from the same seed, and its command line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="the train extra is not installed")

from tavernkeep.agents import make_bot
from tavernkeep.agents.guide import load_guide
from tavernkeep.agents.guided import GuidedBot
from tavernkeep.engine.errors import ConfigError, SeatError
from tavernkeep.engine.match import Match
from tavernkeep.games import all_games, get_game
from tavernkeep.rl.expert import expert_iteration, label, main
from tavernkeep.rl.table import Table


def test_the_labels_are_the_searching_seats_visits_and_every_seats_outcome() -> None:
    examples = label("crits-and-tricks", "bot:mcts:20:pure", range(6, 8), players=2)
    table = Table("crits-and-tricks", players=2)
    assert examples.games == 2 and len(examples) > 20
    assert examples.observations.shape == (len(examples), table.encoding.size)
    searched = examples.searched
    # Both seats' decisions are rows; only the searching seat's hold a policy target.
    assert 0 < searched.sum() < len(examples)
    rows = examples.visits[searched]
    assert np.allclose(rows.sum(axis=1), 1.0)
    # Visits fall on legal actions only, and more than one is tried at most decisions.
    assert not (rows[~examples.masks[searched]]).any()
    assert ((rows > 0).sum(axis=1) > 1).mean() > 0.5
    assert not examples.visits[~searched].any()
    # Values in the search's currency, [0, 1]. Another seat's rows hold its outcome, one
    # for each game; a searched row's is that outcome averaged with the search's own
    # estimate there, which moves from decision to decision.
    assert ((examples.values >= 0) & (examples.values <= 1)).all()
    assert len(set(examples.values[~searched].tolist())) <= 2
    assert len(set(examples.values[searched].tolist())) > 10
    assert 0 <= examples.wins <= 2


def test_labelling_refuses_a_bot_that_does_not_search() -> None:
    with pytest.raises(SeatError, match="an expert is a search"):
        label("rage", "bot:heuristic", range(1))
    with pytest.raises(ConfigError, match="2 seats take 1 opponents, not 2"):
        label("crits-and-tricks", "bot:mcts:5", range(1), ["bot:random"] * 2, players=2)


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_one_round_makes_a_guide_that_plays_a_whole_game(tmp_path: Path, game: str) -> None:
    # Each game's smallest table (Hack & Slash's two is a variant of its own).
    players = {"rage": 1, "hack-and-slash": 3}.get(game, 2)
    rounds = expert_iteration(
        game, tmp_path, rounds=1, games=1, budget=4, epochs=1, hidden=8, players=players
    )
    assert [r.number for r in rounds] == [0] and rounds[0].rows > 0
    guide = load_guide(tmp_path / "guide.npz")
    assert guide.game == game and guide.options["players"] == players
    assert (tmp_path / "guide-0.npz").exists()
    g = get_game(game)
    bot = make_bot(f"bot:guided:{tmp_path / 'guide.npz'}:8", g)
    assert isinstance(bot, GuidedBot)
    others = [make_bot("bot:random", g) for _ in range(players - 1)]
    match = Match.start(g, [bot, *others], seed=2, options={"players": players})
    result = match.run()
    assert len(result.scores) == players


def test_the_same_seed_learns_the_same_guide(tmp_path: Path) -> None:
    def run(folder: Path) -> list[np.ndarray]:
        expert_iteration(
            "rage", folder, rounds=2, games=1, budget=4, epochs=2, hidden=8, cut=3, players=1
        )
        guide = load_guide(folder / "guide.npz")
        # Round 1's expert was the search guided by round 0's guide, cut at 3 actions.
        assert guide.about["round"] == 1
        assert guide.about["expert"] == f"bot:guided:{folder / 'guide-0.npz'}:4:cut3"
        return [w for layer in (*guide.trunk, guide.policy, guide.value) for w in layer]

    first, second = run(tmp_path / "a"), run(tmp_path / "b")
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


def test_the_command_line_trains_and_its_mistakes_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    main(["rage", "--rounds", "1", "--games", "1", "--budget", "4", "--epochs", "1",
          "--hidden", "8", "--workers", "0", "--out", str(out)])  # fmt: skip
    said = capsys.readouterr().out
    assert "round 0: bot:mcts:4:pure labelled" in said and (out / "guide.npz").exists()
    for argv, error in [
        (["no-such-game"], "no-such-game"),
        (["rage", "--rounds", "0"], "rounds, games, budget, epochs and hidden are 1 or more"),
        (["rage", "--cut", "0"], "a cut is 1 action or more, not 0"),
        (["crits-and-tricks", "--players", "9"], "players"),
    ]:
        with pytest.raises(SystemExit) as ended:
            # Small, so that a mistake let through ends in seconds, not a run.
            main([*argv, "--games", "1", "--budget", "1", "--workers", "0", "--out", str(tmp_path)])
        assert ended.value.code == 2
        said = capsys.readouterr()
        err = said.err
        assert error in err and len(err.strip().splitlines()) == 1, err
        assert said.out == ""  # checked before the run says it has begun
