"""A guide for the search: one small network with a policy head and a value head.

A guide file (`.npz`, written by `save_guide`; `tavernkeep.rl.expert` trains one by expert
iteration) holds a shared trunk of linear layers and two heads on it: the policy head
scores every action of the game's action space (as a policy file's network does), and the
value head says what the seat whose observation it reads can expect from the position,
in the search's own currency (`agents.ismcts.rewards_for`: a win's share and a little of
the score margin, in [0, 1]), through a logistic. `bot:guided:PATH` (agents/guided.py)
searches with it: the policy's scores, softmaxed over the legal actions, are the prior of
PUCT's selection, and the value judges a position the search reaches without playing it
out. Playing needs numpy only, as a policy file does.

The file is a policy file's cousin: the same JSON header (game, options, pack, observation
size, actions by their text, activation, the observation's scale), the same size cap and
the same one-line `SeatError`s when it is missing, malformed or made for another table
(agents/policy.py's helpers, shared rather than copied).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from tavernkeep.agents.policy import (
    ACTIVATIONS,
    Array,
    as_floats,
    check_layers,
    file_key,
    npz_file,
    scale_of,
)
from tavernkeep.engine.errors import SeatError

FORMAT = "tavernkeep-guide"
VERSION = 1
SPEC = "bot:guided"

Layer = tuple[Array, Array]


@dataclass(frozen=True)
class Guide:
    """A trunk and two heads, and the table they were trained at."""

    game: str
    options: dict[str, Any]
    pack: str | None
    size: int
    """The observation's length."""
    actions: tuple[str, ...]
    """The action space, each action's text at its index."""
    trunk: tuple[Layer, ...]
    """(weights, bias) of each shared layer, weights shaped (outputs, inputs), each
    followed by the activation."""
    policy: Layer
    """From the trunk's output to one score an action."""
    value: Layer
    """From the trunk's output to one number, squashed by a logistic into (0, 1)."""
    activation: str
    about: dict[str, Any]
    """Whatever the trainer noted (rounds, labels, seed): shown, never used."""
    observation: str = "asinh"
    """How the observations it learnt from were scaled (agents.policy.SCALES)."""

    def hidden(self, observation: Array) -> Array:
        x = observation
        relu = self.activation == "relu"
        for weights, bias in self.trunk:
            x = weights @ x + bias
            x = np.maximum(x, 0.0) if relu else np.tanh(x)
        return x

    def judge(self, observation: Array) -> float:
        """The value head alone: the observing seat's expected reward, in (0, 1)."""
        weights, bias = self.value
        z = float((weights @ self.hidden(observation) + bias)[0])
        return _logistic(z)

    def evaluate(self, observation: Array, indices: list[int]) -> tuple[list[float], float]:
        """The prior over the actions at `indices` (the legal ones: the policy head's
        scores softmaxed over them alone, in their order) and the value head's judgement."""
        h = self.hidden(observation)
        weights, bias = self.policy
        # Only the legal rows: a Crits & Tricks action space has 959 actions, a decision
        # a handful, and the other rows' products would be thrown away.
        scores = (weights[indices] @ h + bias[indices]).tolist()
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        vw, vb = self.value
        z = float((vw @ h + vb)[0])
        return [e / total for e in exps], _logistic(z)


def _logistic(z: float) -> float:
    # Written for both signs, so that a large |z| neither overflows nor loses its tail.
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def save_guide(path: str | Path, guide: Guide) -> None:
    """Write `guide` to `path` (an .npz file): the network and a JSON header."""
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "game": guide.game,
        "options": guide.options,
        "pack": guide.pack,
        "size": guide.size,
        "actions": list(guide.actions),
        "activation": guide.activation,
        "trunk": len(guide.trunk),
        "about": guide.about,
        "observation": guide.observation,
    }
    arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
    for i, (weights, bias) in enumerate(guide.trunk):
        arrays[f"w{i}"] = np.asarray(weights, dtype=np.float32)
        arrays[f"b{i}"] = np.asarray(bias, dtype=np.float32)
    for head, (weights, bias) in (("policy", guide.policy), ("value", guide.value)):
        arrays[f"{head}_w"] = np.asarray(weights, dtype=np.float32)
        arrays[f"{head}_b"] = np.asarray(bias, dtype=np.float32)
    with open(path, "wb") as out:
        np.savez(out, **arrays)


def load_guide(path: str | Path) -> Guide:
    """The guide in `path`; SeatError, one line, if it is missing or not a guide."""
    return _load(*file_key(path, SPEC))


@lru_cache(maxsize=16)
def _load(real: str, mtime: int, size: int, shown: str) -> Guide:
    # Cached by file and modification time, as policy files are: a lab's games read a
    # guide once, and one trained again is read again.
    where = f"{SPEC}:{shown}"
    opened = npz_file(real, size, where, FORMAT, VERSION, "guide", "tavernkeep.rl.expert")
    with opened as (meta, data):
        trunk = tuple(
            (as_floats(data[f"w{i}"]), as_floats(data[f"b{i}"])) for i in range(int(meta["trunk"]))
        )
        guide = Guide(
            game=str(meta["game"]),
            options=dict(meta["options"]),
            pack=None if meta["pack"] is None else str(meta["pack"]),
            size=int(meta["size"]),
            actions=tuple(str(a) for a in meta["actions"]),
            trunk=trunk,
            policy=(as_floats(data["policy_w"]), as_floats(data["policy_b"])),
            value=(as_floats(data["value_w"]), as_floats(data["value_b"])),
            activation=str(meta["activation"]),
            about=dict(meta.get("about") or {}),
            observation=scale_of(meta, where),
        )
    check_guide(guide, where)
    return guide


def check_guide(guide: Guide, where: str) -> None:
    """SeatError, one line, unless the guide's layers fit together and its heads give
    one score an action it names and one value."""
    if guide.activation not in ACTIVATIONS:
        raise SeatError(f"{where}: unknown activation {guide.activation!r}")
    if not guide.trunk:
        raise SeatError(f"{where}: the network has no trunk layers")
    width = check_layers(guide.trunk, guide.size, where)
    scores = check_layers((guide.policy,), width, where, "the policy head's layer")
    if scores != len(guide.actions):
        raise SeatError(
            f"{where}: the policy head scores {scores} actions but the file names "
            f"{len(guide.actions)}"
        )
    if check_layers((guide.value,), width, where, "the value head's layer") != 1:
        raise SeatError(f"{where}: the value head gives {guide.value[1].shape[0]} numbers, not 1")
