"""Learning from a teacher: a bot's decisions as the examples a network learns from.

A learner rewarded only at the end of a game may never win by chance, and then learns
nothing from the win: so it was with Rage, where 30 minutes of MaskablePPO taught a policy
to live through the night but never to leave it. Imitation starts from a bot that already
plays well. `label_games` plays games and writes down, at each of seat 0's decisions, the
observation, the mask and the action the teacher (a seat spec, e.g. "bot:heuristic")
chooses there. With a `student` policy, the student's choices are the ones played and the
teacher only labels them: the positions are then those the student reaches, mistakes
included, and the teacher says what it would do in each (DAgger: Ross, Gordon and
Bagnell, 2011). A student that learned from the teacher's games alone drifts, a small
mistake at a time, into positions the teacher never showed it; labelling the student's
own games is what corrects that. `fit` trains a MaskablePPO policy's action head on the
labels: the cross-entropy of the teacher's action among the legal ones.

The teacher decides with what its seat may see (an `InfoSet`, as at any table), so the
labels carry nothing the student could not have known.
"""

from __future__ import annotations

import multiprocessing
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from tavernkeep.agents import seat_bot
from tavernkeep.agents.ismcts import win_share
from tavernkeep.agents.policy import Policy, scaled
from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.game import Agent
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import seat_streams
from tavernkeep.rl.table import Table


@dataclass
class Labels:
    """Seat 0's decisions, each with the teacher's action: rows of equal-length arrays."""

    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.int64]
    games: int
    wins: float
    """The games' wins for seat 0 (a shared win counts its share): the played policy's."""

    def __len__(self) -> int:
        return len(self.actions)

    def __add__(self, other: Labels) -> Labels:
        return Labels(
            np.concatenate([self.observations, other.observations]),
            np.concatenate([self.masks, other.masks]),
            np.concatenate([self.actions, other.actions]),
            self.games + other.games,
            self.wins + other.wins,
        )


@dataclass(frozen=True)
class Lesson:
    """What one process plays: these games, this teacher, maybe a student."""

    game: str
    teacher: str
    opponents: tuple[str, ...]
    seeds: tuple[int, ...]
    student: Policy | None
    options: tuple[tuple[str, Any], ...] = ()


def _seat(table: Table, teacher: str, opponents: tuple[str, ...]) -> tuple[Agent, list[Agent]]:
    """The teacher and the opponents, each checked against the table as any table checks
    a bot: a policy trained for another game or player count is refused here, in one line."""
    game, config, pack = table.game, table.config, table.pack
    return seat_bot(teacher, game, config, pack), [
        seat_bot(spec, game, config, pack) for spec in opponents
    ]


def _play(lesson: Lesson) -> Labels:
    table = Table(lesson.game, **dict(lesson.options))
    teacher, bots = _seat(table, lesson.teacher, lesson.opponents)
    observations: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.int8]] = []
    actions: list[int] = []
    wins = 0.0
    for seed in lesson.seeds:
        table.reset(seed)
        rngs = seat_streams(seed, table.players)
        while (seat := table.actor()) is not None:
            info = InfoSet(table.game, table.state, seat, rngs[seat])
            if seat > 0:
                table.apply(bots[seat - 1].choose(info))
                continue
            observation, mask = table.observe(0), table.mask(0)
            chosen = teacher.choose(info)
            observations.append(observation)
            masks.append(mask)
            actions.append(table.index_of(chosen))
            if lesson.student is not None:
                # As `bot:policy` plays it at a table (PolicyBot), from the same numbers,
                # scaled as the student learnt them (a file may be older than scaling).
                seen = scaled(table.encoded(0), lesson.student.observation)
                chosen = table.legal()[lesson.student.best(seen, table.legal_indices())]
            table.apply(chosen)
        result = table.result()
        assert result is not None
        wins += win_share(result, 0)
    size = table.encoding.size
    return Labels(
        np.array(observations, dtype=np.float32).reshape(-1, size),
        np.array(masks, dtype=np.int8).reshape(-1, len(table.actions)).astype(bool),
        np.array(actions, dtype=np.int64),
        len(lesson.seeds),
        wins,
    )


def label_games(
    game: str,
    teacher: str,
    seeds: range,
    opponents: list[str] | None = None,
    student: Policy | None = None,
    workers: int = 0,
    **options: Any,
) -> Labels:
    """Play a game from each seed, seat 0 by `student` (else by `teacher`), the others by
    `opponents`, and label each of seat 0's decisions with the teacher's action. With
    `workers`, the games are dealt among that many spawned processes (the teacher's
    thinking is most of the time); the labels come back in the same order either way."""
    if not seeds:
        raise ConfigError("label_games: no seeds, so no games to label")
    options.setdefault("players", 1 + len(opponents or []))
    # The seats checked here once, before any process starts: one error, not a worker's.
    _seat(Table(game, **options), teacher, tuple(opponents or ()))
    # Runs of consecutive seeds, a few a process so that none waits long on another:
    # joined in order, the labels are in the seeds' order whatever the processes.
    size = -(-len(seeds) // (max(1, workers) * 4))
    lessons = [
        Lesson(
            game,
            teacher,
            tuple(opponents or ()),
            tuple(seeds[start : start + size]),
            student,
            tuple(sorted(options.items())),
        )
        for start in range(0, len(seeds), size)
    ]
    if workers <= 0:
        parts = [_play(lesson) for lesson in lessons]
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_play, lessons, chunksize=1)
    labels = parts[0]
    for part in parts[1:]:
        labels = labels + part
    return labels


def fit(policy: Any, labels: Labels, epochs: int, seed: int, optimizer: Any) -> float:
    """Train a MaskablePPO policy (`model.policy`) to choose the teacher's actions: the
    cross-entropy over the legal actions, in minibatches of 1,024, `epochs` passes over
    the labels in an order drawn from `seed`. Returns the last pass's mean loss."""
    import torch

    observations = torch.as_tensor(labels.observations)
    actions = torch.as_tensor(labels.actions)
    order = np.random.default_rng(seed)
    mean = 0.0
    for _ in range(epochs):
        total, batches = 0.0, 0
        shuffled = order.permutation(len(labels))
        for start in range(0, len(shuffled), 1024):
            rows = shuffled[start : start + 1024]
            chances = policy.get_distribution(observations[rows], action_masks=labels.masks[rows])
            loss = -chances.log_prob(actions[rows]).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.item())
            batches += 1
        mean = total / max(1, batches)
    return mean
