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
import struct
from collections.abc import MutableSequence, Sequence
from functools import lru_cache
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


_SEATS = 0x5EA7_5EA7_5EA7_5EA7


def seat_streams(seed: int, count: int) -> list[Rng]:
    """Each seat's own stream for a game seeded `seed`, for its bot's choices: the first
    `count` numbers of a SplitMix64 started at `seed` xor a constant (never the game's
    own stream), each the seed of one seat's stream. A SplitMix64 number is its state put
    through a bijective mix, so the seats' streams start as far apart as `derive_seed`'s
    would, for a fraction of the cost: a hash a seat was 3-4% of a short game's time."""
    source = Rng(seed ^ _SEATS)
    return [Rng(source.next64()) for _ in range(count)]


@lru_cache(maxsize=256)
def _lanes(count: int) -> tuple[int, int, int, struct.Struct]:
    """Constants for `_next64s`: one 128-bit lane for each of `count` numbers."""
    ones = sum(1 << (128 * k) for k in range(count))
    steps = sum(((k + 1) * _GOLDEN) << (128 * k) for k in range(count))
    return ones, _MASK * ones, steps, struct.Struct(f"<{2 * count}Q")


def _next64s(state: int, count: int) -> tuple[int, ...]:
    """The next `count` numbers of a SplitMix64 at `state`, computed all at once.

    The k-th number depends only on state + k * GOLDEN, so each number gets a 128-bit lane
    of one big integer and every step of the mix below is one operation on all the lanes:
    the mask keeps each lane's low 64 bits, and the high 64 take the overflow of the
    multiplications so it never reaches the next lane. For the 19 numbers of a 20-card
    shuffle this is three times faster than computing them one by one.
    """
    ones, mask, steps, unpack = _lanes(count)
    x = (state * ones + steps) & mask
    x = ((x ^ ((x >> 30) & mask)) * 0xBF58476D1CE4E5B9) & mask
    x = ((x ^ ((x >> 27) & mask)) * 0x94D049BB133111EB) & mask
    x ^= (x >> 31) & mask
    return unpack.unpack(x.to_bytes(16 * count, "little"))[::2]


def random_seed() -> int:
    """A fresh seed for a game the user did not seed; it is printed and recorded."""
    return secrets.randbits(63)


class Rng:
    """SplitMix64: small, fast, and a value that copies as one integer."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    # die, below and dice each repeat next64's three lines instead of calling it,
    # and spell _GOLDEN and _MASK as literals: in Python a call costs a third of the
    # arithmetic and a literal loads faster than a global, and these are the innermost
    # lines of every simulation. The numbers are the same either way. A subclass that
    # changes where numbers come from (ScriptedRng) must override each method it changes.

    def next64(self) -> int:
        s = self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """Uniform in [0, n). The modulo bias is under n / 2**64: nothing a game can feel."""
        s = self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return (s ^ (s >> 31)) % n

    def die(self, sides: int) -> int:
        """One die with `sides` faces: 1..sides."""
        s = self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return (s ^ (s >> 31)) % sides + 1

    def dice(self, count: int, sides: int = 6) -> list[int]:
        rolled: list[int] = []
        state = self.state
        while len(rolled) < count:  # for a die or three, cheaper than building a range
            s = state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
            s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
            rolled.append((s ^ (s >> 31)) % sides + 1)
        self.state = state
        return rolled

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        swaps = len(items) - 1
        if swaps < 1:
            return
        numbers = _next64s(self.state, swaps)
        self.state = (self.state + swaps * _GOLDEN) & _MASK
        for i, number in zip(range(swaps, 0, -1), numbers, strict=True):
            j = number % (i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def fork(self, *labels: object) -> Rng:
        """An independent stream for another consumer (a bot, a search), this one untouched."""
        return Rng(derive_seed(self.state, *labels))

    def clone(self) -> Rng:
        return Rng(self.state)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Pickle by constructor, which also works when the class is compiled (setup.py):
        # states travel to worker processes and search trees with their RNG.
        return (Rng, (self.state,))

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

    def dice(self, count: int, sides: int = 6) -> list[int]:
        return [self.die(sides) for _ in range(count)]

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

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_scripted, (self.script, self.state))


def _scripted(values: list[int], state: int) -> ScriptedRng:
    """Unpickle a ScriptedRng at the point of its script and stream where it was."""
    twin = ScriptedRng(values)
    twin.state = state
    return twin
