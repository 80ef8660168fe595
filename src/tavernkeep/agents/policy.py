"""A trained policy at the table: the seat spec `bot:policy:PATH`.

A policy file (`.npz`, written by `save_policy`; `tavernkeep.rl.train.export` writes one
from a trained MaskablePPO model) holds a small network's weights and what it was trained
on: the game, its options and pack, the observation size and the action space, each
action by its text. The bot encodes its seat's view with the game's encoding (the
view-built reference, so a bot at a table reads nothing its view does not show), runs the
network in numpy and plays the legal action it scores highest. Playing needs no torch:
a person plays a trained agent with the core install, and the lab runs it at numpy speed.

A policy plays only tables whose action space and observation are the ones it learned
(the game, its player count, its pack): `PolicyBot.fits` says which differs, before any
game is played.
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import SeatError, TavernkeepError
from tavernkeep.engine.game import Game
from tavernkeep.games import encoding_of

FORMAT = "tavernkeep-policy"
VERSION = 1
ACTIVATIONS = ("tanh", "relu")
MAX_BYTES = 64 * 1024 * 1024
"""A policy file larger than this is refused unread: these networks are kilobytes."""

Array = npt.NDArray[np.float32]

SCALES = ("asinh", "raw")
"""How an observation reaches a network. "asinh", the inverse hyperbolic sine, is the
envs' default: the encodings hold counts and scores up to a few hundred beside 0/1
flags, which a network learns from badly unscaled, and asinh needs no per-game maximum:
near 0 it is x itself, beyond it the log of 2x, with the sign kept (0 stays 0, 1 is
0.88, 187 is 5.9; symlog's shape, in one numpy call, a fifth of symlog's three, which
cost 15% of an env step), and every float32 lands within ASINH_BOUND. "raw" is each
game's encoding as ENCODING.md lays it out, for an agent that reads the numbers
themselves (examples/learn_hack_and_slash.py)."""
ASINH_BOUND = float(np.arcsinh(np.finfo(np.float32).max))
"""The largest an asinh observation can be: asinh of the largest float32, about 89.4."""


def scaled(observation: Array, scale: str) -> Array:
    """An encoded observation as a network of `scale` (SCALES) reads it."""
    if scale == "raw":
        return observation
    out: Array = np.arcsinh(observation)
    return out


@dataclass(frozen=True)
class Policy:
    """A network from observations to one score an action, and what it was trained on."""

    game: str
    options: dict[str, Any]
    pack: str | None
    size: int
    """The observation's length."""
    actions: tuple[str, ...]
    """The action space, each action's text at its index."""
    layers: tuple[tuple[Array, Array], ...]
    """(weights, bias) of each linear layer, weights shaped (outputs, inputs)."""
    activation: str
    """Between layers (not after the last)."""
    about: dict[str, Any]
    """Whatever the trainer noted (steps, seed, library versions): shown, never used."""
    observation: str = "raw"
    """How the observations it learnt from were scaled (SCALES); a file from before
    scaling holds none and learnt from the raw encoding."""

    def scores(self, observation: Array) -> Array:
        x = observation
        last = len(self.layers) - 1
        for i, (weights, bias) in enumerate(self.layers):
            x = weights @ x + bias
            if i < last:
                x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        return x

    def best(self, observation: Array, indices: list[int]) -> int:
        """Which of the actions at `indices` (the legal ones) the network scores highest,
        as its position in `indices`; of equal scores, the first."""
        # A few legal actions of a dozen or so: Python floats compare faster than numpy
        # indexes by a list, which cost about 4 of a Rage choice's 58 µs (measured).
        values = self.scores(observation).tolist()
        return max(range(len(indices)), key=lambda k: values[indices[k]])


def save_policy(path: str | Path, policy: Policy) -> None:
    """Write `policy` to `path` (an .npz file): the network and a JSON header."""
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "game": policy.game,
        "options": policy.options,
        "pack": policy.pack,
        "size": policy.size,
        "actions": list(policy.actions),
        "activation": policy.activation,
        "layers": len(policy.layers),
        "about": policy.about,
        "observation": policy.observation,
    }
    arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
    for i, (weights, bias) in enumerate(policy.layers):
        arrays[f"w{i}"] = np.asarray(weights, dtype=np.float32)
        arrays[f"b{i}"] = np.asarray(bias, dtype=np.float32)
    with open(path, "wb") as out:
        np.savez(out, **arrays)


def load_policy(path: str | Path) -> Policy:
    """The policy in `path`; SeatError, one line, if it is missing or not a policy."""
    return _load(*file_key(path, "bot:policy"))


def file_key(path: str | Path, spec: str) -> tuple[str, int, int, str]:
    """What a network file is cached by: its real path, modification time and size, and
    the path as given (for messages); SeatError, one line, naming `spec:path`, if it
    cannot be read."""
    try:
        stat = os.stat(path)
    except OSError as missing:
        reason = (missing.strerror or "cannot be read").lower()
        raise SeatError(f"{spec}:{path}: {reason}") from None
    return os.path.realpath(path), stat.st_mtime_ns, stat.st_size, str(path)


@contextmanager
def npz_file(
    real: str, size: int, where: str, kind: str, version: int, noun: str, writer: str
) -> Iterator[tuple[dict[str, Any], Any]]:
    """The JSON header and the arrays of a network file (a policy's or a guide's), its
    format and version checked. Whatever goes wrong reading it, in here or in the
    caller's body, ends as one SeatError line: `where` names the file, `noun` what it
    should be, `writer` what writes one."""
    if size > MAX_BYTES:
        raise SeatError(f"{where}: {size:,} bytes is too large for a {noun} file")
    try:
        with np.load(real, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if not isinstance(meta, dict) or meta.get("format") != kind:
                raise SeatError(f"{where}: not a tavernkeep {noun} file")
            if meta.get("version") != version:
                raise SeatError(
                    f"{where}: {noun} format version {meta.get('version')!r}; "
                    f"this tavernkeep reads version {version}"
                )
            yield meta, data
    except SeatError:
        raise
    except KeyError as missing:
        # numpy names a missing array "NAME is not a file in the archive": the name alone.
        key = str(missing.args[0] if missing.args else missing)
        key = key.removesuffix(" is not a file in the archive")
        raise SeatError(f"{where}: not a readable {noun} file (no '{key}' in it)") from None
    except (OSError, ValueError, TypeError, EOFError, zipfile.BadZipFile):
        # numpy's own reasons (a zip's, a pickle's) would only confuse: say what it is not.
        raise SeatError(
            f"{where}: not a readable {noun} file (an .npz that {writer} wrote)"
        ) from None


def scale_of(meta: dict[str, Any], where: str) -> str:
    """The observation scale a file's header names (SCALES); a file from before scaling
    names none and learnt from the raw encoding."""
    scale = meta.get("observation", "raw")
    if scale not in SCALES:
        raise SeatError(
            f"{where}: observations scaled as {scale!r}, not one of {', '.join(SCALES)}"
        )
    return str(scale)


@lru_cache(maxsize=16)
def _load(real: str, mtime: int, size: int, shown: str) -> Policy:
    # Cached by file and modification time: a lab's thousands of games, or a server's
    # tables, read a policy once; a policy trained again is read again.
    where = f"bot:policy:{shown}"
    opened = npz_file(real, size, where, FORMAT, VERSION, "policy", "tavernkeep.rl.train")
    with opened as (meta, data):
        layers = tuple(
            (as_floats(data[f"w{i}"]), as_floats(data[f"b{i}"])) for i in range(int(meta["layers"]))
        )
        policy = Policy(
            game=str(meta["game"]),
            options=dict(meta["options"]),
            pack=None if meta["pack"] is None else str(meta["pack"]),
            size=int(meta["size"]),
            actions=tuple(str(a) for a in meta["actions"]),
            layers=layers,
            activation=str(meta["activation"]),
            about=dict(meta.get("about") or {}),
            observation=scale_of(meta, where),
        )
    _check_shapes(policy, where)
    return policy


def as_floats(array: Any) -> Array:
    return np.array(array, dtype=np.float32)


def check_layers(
    layers: tuple[tuple[Array, Array], ...], inputs: int, where: str, name: str = "layer"
) -> int:
    """SeatError unless each (weights, bias) takes the outputs of the one before it (the
    first, `inputs`) and holds finite numbers only; returns the last layer's outputs."""
    for i, (weights, bias) in enumerate(layers):
        if weights.ndim != 2 or weights.shape[1] != inputs or bias.shape != (weights.shape[0],):
            raise SeatError(f"{where}: {name} {i} does not fit the one before it")
        if not (np.isfinite(weights).all() and np.isfinite(bias).all()):
            raise SeatError(f"{where}: {name} {i} holds a number that is not finite")
        inputs = weights.shape[0]
    return inputs


def _check_shapes(policy: Policy, where: str) -> None:
    if policy.activation not in ACTIVATIONS:
        raise SeatError(f"{where}: unknown activation {policy.activation!r}")
    if not policy.layers:
        raise SeatError(f"{where}: the network has no layers")
    inputs = check_layers(policy.layers, policy.size, where)
    if inputs != len(policy.actions):
        raise SeatError(
            f"{where}: the network scores {inputs} actions but names {len(policy.actions)}"
        )


class Trained(Protocol):
    """What a network file says it learnt at: the table a `fits` check compares."""

    @property
    def game(self) -> str: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def pack(self) -> str | None: ...
    @property
    def size(self) -> int: ...
    @property
    def actions(self) -> tuple[str, ...]: ...


def own_encoding(name: str, trained: Trained, game: Game[Any, Any], noun: str) -> Any:
    """The encoding of the table `trained` learnt at, checked against what it holds:
    SeatError, one line, if it is another game's or that table cannot be set."""
    if trained.game != game.name:
        raise SeatError(f"{name}: a {noun} for {trained.game}, not {game.name}")
    try:
        config = game.make_config(dict(trained.options))
        pack = game.load_pack(trained.pack)
    except TavernkeepError as bad:
        raise SeatError(f"{name}: the table it was trained at cannot be set: {bad}") from None
    encoding = encoding_of(game, config, pack)
    check_encoding(name, trained, encoding, "its own options")
    return encoding


def check_encoding(name: str, trained: Trained, encoding: Any, table: str) -> None:
    """SeatError unless `encoding` has the observation size and actions `trained` has."""
    texts = tuple(action.text for action in encoding.actions)
    if encoding.size != trained.size or texts != trained.actions:
        options = ", ".join(f"{k}={v}" for k, v in sorted(trained.options.items()))
        raise SeatError(
            f"{name} cannot play {table}: it was trained on "
            f"{trained.game} ({options or 'default options'}, pack "
            f"{trained.pack or 'built-in'}), whose observation ({trained.size}) "
            f"and actions ({len(trained.actions)}) differ from this table's "
            f"({encoding.size} and {len(texts)})"
        )


def check_fits(name: str, trained: Trained, game: Game[Any, Any], config: Any, pack: Any) -> None:
    """SeatError, naming the difference, unless a table of `config` and `pack` has the
    player count, observation and action space `trained` learnt at."""
    # The player count is named first, as the difference a person chose: the sizes
    # it changes are what the encoding check below would report instead.
    seats = getattr(config, "players", None)
    players = trained.options.get("players")
    if players is not None and seats is not None and players != seats:
        raise SeatError(
            f"{name} cannot play this table: it was trained on {trained.game} "
            f"for {players} player{'' if players == 1 else 's'}, and this table seats "
            f"{seats}"
        )
    check_encoding(name, trained, encoding_of(game, config, pack), "this table")


class PolicyBot:
    """Plays the legal action a trained policy scores highest, from its seat's view."""

    def __init__(self, spec: str, policy: Policy, game: Game[Any, Any]) -> None:
        self.name = spec
        self.policy = policy
        self.encoding = own_encoding(spec, policy, game, "policy")
        self.index = {(a.kind, a.args): i for i, a in enumerate(self.encoding.actions)}

    def fits(self, game: Game[Any, Any], config: Any, pack: Any) -> None:
        """SeatError, naming the difference, unless a table of `config` and `pack` has
        the player count, observation and action space this policy was trained on."""
        check_fits(self.name, self.policy, game, config, pack)

    def choose(self, info: Any) -> Action:
        legal: list[Action] = info.legal_actions()
        indices = []
        for action in legal:
            found = self.index.get((action.kind, action.args))
            if found is None:
                raise SeatError(f"{self.name}: '{action.text}' is not in its action space")
            indices.append(found)
        # Scaled as the observations it learnt from were (Policy.observation).
        observation = scaled(self.encoding.encode(info.view(), info.seat), self.policy.observation)
        return legal[self.policy.best(observation, indices)]
