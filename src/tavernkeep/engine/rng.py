"""Seeded randomness that lives inside a game state.

Games draw every shuffle and every die from an `Rng` stored in their state, so that
`(game, config, seed, actions)` replays exactly. The generator is SplitMix64 written out
in Python rather than `random.Random` for three reasons: its whole state is one integer,
so cloning a game state for search costs nothing; its sequence is defined here and never
changes with the Python version, so records replay forever; and streams for bots and
search are derived by hashing labels, never by sharing the game's stream.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def derive_seed(seed: int, *labels: object) -> int:
    """A 63-bit seed derived from `seed` and labels, e.g. (batch_seed, game_index).

    Hashing keeps derived streams independent of each other and of the parent.
    """
    text = repr((seed, *labels)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def random_seed() -> int:
    """A fresh seed for a game the user did not seed; it is printed and recorded."""
    return secrets.randbits(63)


class Rng:
    """SplitMix64: small, fast, and a value that copies as one integer."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        s = (self.state + _GOLDEN) & _MASK
        self.state = s
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """Uniform in [0, n). The modulo bias is under n / 2**64: nothing a game can feel."""
        return self.next64() % n

    def die(self, sides: int) -> int:
        """One die with `sides` faces: 1..sides."""
        return self.next64() % sides + 1

    def dice(self, count: int, sides: int = 6) -> list[int]:
        return [self.die(sides) for _ in range(count)]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def fork(self, *labels: object) -> Rng:
        """An independent stream for another consumer (a bot, a search), this one untouched."""
        return Rng(derive_seed(self.state, *labels))

    def clone(self) -> Rng:
        twin = Rng.__new__(Rng)
        twin.state = self.state
        return twin

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return f"Rng(state={self.state})"


class ScriptedRng(Rng):
    """A test hook: dice come from a script of chosen values, shuffles from a seed.

    Put one in a state (`state.rng = ScriptedRng([6, 6, 1])`) to drive a rule with fixed
    dice. Running out of scripted values, or a value that does not fit the die, is an
    error, so a test cannot silently roll something it did not choose.
    """

    __slots__ = ("script",)

    def __init__(self, values: Sequence[int], seed: int = 0) -> None:
        super().__init__(seed)
        self.script = list(values)

    def die(self, sides: int) -> int:
        if not self.script:
            raise AssertionError("ScriptedRng: the script of dice ran out")
        value = self.script.pop(0)
        if not 1 <= value <= sides:
            raise AssertionError(f"ScriptedRng: {value} cannot be rolled on a d{sides}")
        return value

    def clone(self) -> ScriptedRng:
        twin = ScriptedRng(self.script, 0)
        twin.state = self.state
        return twin

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ScriptedRng)
            and other.state == self.state
            and other.script == self.script
        )

    def __hash__(self) -> int:
        return hash((self.state, tuple(self.script)))
