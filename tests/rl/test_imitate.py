"""Learning from a teacher (`tavernkeep.rl.imitate`): the labels are the teacher's choices
on the positions of the games actually played, and `fit` teaches them to a policy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tavernkeep.agents import make_bot
from tavernkeep.agents.ismcts import win_share
from tavernkeep.agents.policy import PolicyBot, load_policy
from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.games import get_game
from tavernkeep.rl.imitate import fit, label_games
from tavernkeep.rl.table import Table

HNS = "hack-and-slash"
RANDOMS = ["bot:random", "bot:random"]


def brag_policy(path: Path) -> str:
    """A policy file that brags whenever it may (the hand-made one of test_policy.py)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "policies", Path(__file__).parent / "test_policy.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made: str = module.hand_made(path, prefer="brag")
    return made


class Watched:
    """Seat 0 of a reference Match: asks the teacher (as label_games does, on the same
    stream) and writes its choice down, then plays the student's choice, or the
    teacher's where there is no student."""

    name = "watched"

    def __init__(self, teacher: Any, student: Any | None) -> None:
        self.teacher, self.student = teacher, student
        self.taught: list[str] = []

    def choose(self, info: InfoSet) -> Action:
        action: Action = self.teacher.choose(info)
        self.taught.append(action.text)
        if self.student is not None:
            action = self.student.choose(info)
        return action


def reference(
    game: str, teacher: str, seeds: range, opponents: list[str], student: Any = None
) -> tuple[list[str], float]:
    """Each seed's game played through Match, the engine's own loop: the teacher's choices
    at seat 0 and seat 0's wins."""
    rules = get_game(game)
    config = rules.make_config({"players": 1 + len(opponents)})
    pack = rules.load_pack(None)
    taught: list[str] = []
    wins = 0.0
    for seed in seeds:
        watched = Watched(make_bot(teacher, rules), student)
        bots = [make_bot(spec, rules) for spec in opponents]
        match = Match(rules, [watched, *bots], seed, config, pack, record_events=False)
        result = match.run()
        taught += watched.taught
        wins += win_share(result, 0)
    return taught, wins


def texts(game: str, indices: np.ndarray, players: int) -> list[str]:
    table = Table(game, players=players)
    return [table.actions[i].text for i in indices]


def test_the_teacher_labels_its_own_games_with_the_moves_it_plays() -> None:
    labels = label_games("rage", "bot:heuristic", range(3))
    taught, wins = reference("rage", "bot:heuristic", range(3), [])
    assert texts("rage", labels.actions, 1) == taught
    assert labels.games == 3 and labels.wins == wins
    # Each label is legal where it was given, and the observation is the seat's.
    assert labels.masks[np.arange(len(labels)), labels.actions].all()
    table = Table("rage")
    table.reset(0)
    assert np.array_equal(labels.observations[0], table.observe(0))


def test_a_students_games_are_played_by_the_student_and_labelled_by_the_teacher(
    tmp_path: Path,
) -> None:
    spec = brag_policy(tmp_path / "brag.npz")
    student = load_policy(spec.removeprefix("bot:policy:"))
    labels = label_games(HNS, "bot:heuristic", range(6), RANDOMS, student=student)
    rules = get_game(HNS)
    taught, wins = reference(
        HNS, "bot:heuristic", range(6), RANDOMS, PolicyBot(spec, student, rules)
    )
    # The positions are the student's games (its decisions, its wins), the labels what
    # the heuristic would have done in each, which is not always to brag.
    assert texts(HNS, labels.actions, 3) == taught
    assert labels.wins == wins
    assert set(taught) - {"brag"}
    # Played in two processes, the same labels in the same order.
    split = label_games(HNS, "bot:heuristic", range(6), RANDOMS, student=student, workers=2)
    assert np.array_equal(split.actions, labels.actions)
    assert np.array_equal(split.observations, labels.observations)
    assert np.array_equal(split.masks, labels.masks)


def test_no_seeds_is_one_line() -> None:
    with pytest.raises(ConfigError, match="no seeds"):
        label_games(HNS, "bot:heuristic", range(0), RANDOMS)


def test_fit_teaches_a_policy_the_teachers_choices(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="the train extra is not installed")
    import torch
    from sb3_contrib import MaskablePPO

    from tavernkeep.rl.train import learner_env, policy_of

    # The teacher brags whenever it may (and else picks by its random weights): a rule a
    # small network learns from a few hundred decisions.
    teacher = brag_policy(tmp_path / "brag.npz")
    labels = label_games(HNS, teacher, range(40), RANDOMS)
    env = learner_env(HNS, num_envs=1, opponents=RANDOMS)
    model = MaskablePPO("MlpPolicy", env, seed=2, device="cpu", policy_kwargs={"net_arch": [32]})

    def agreement() -> float:
        policy = policy_of(model, env)
        scores = np.array([policy.scores(o) for o in labels.observations])
        chosen = np.where(labels.masks, scores, -np.inf).argmax(axis=1)
        return float((chosen == labels.actions).mean())

    before = agreement()
    optimizer = torch.optim.Adam(model.policy.parameters(), lr=1e-2)
    loss = fit(model.policy, labels, epochs=60, seed=0, optimizer=optimizer)
    env.close()
    after = agreement()
    assert after >= 0.95 and after > before + 0.2
    assert loss < 0.2  # the last pass's mean cross-entropy, from about 2 untrained
