"""What the AEC and Gymnasium environments share: one game, its encoding, its rewards.

A `Table` holds a game being played and answers in the numbers an agent uses: the
observation of a seat, the action mask, the index of an action and the rewards at the end.

An observation is the seat's `view` encoded (`Encoding.encode`), the reference that can
show nothing the seat may not see. A game's encoding may also encode straight from the
state for the seat (`encode_state`), skipping the view's dictionaries; it is used only
because tests/rl/test_direct_encoders.py shows it equal, element for element, to the
view-built one on random positions of every seat and player count, and the secrecy test
runs on both. `Table(..., observe="view")` asks for the reference.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol, get_args

import numpy as np
import numpy.typing as npt
from gymnasium.error import ResetNeeded

from tavernkeep.agents.policy import ASINH_BOUND, SCALES, scaled
from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import ConfigError, IllegalAction
from tavernkeep.engine.game import Result
from tavernkeep.games import encoding_of, get_game

Reward = Literal["win", "margin", "shaped"]
REWARDS: tuple[Reward, ...] = get_args(Reward)
Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class Encoding(Protocol):
    """A game's fixed observation layout and action indexing (games/<game>/encoding.py)."""

    size: int
    """Length of every observation vector."""
    actions: Sequence[Action]
    """Every action the game can offer with this pack and player count, by index."""

    def encode(self, view: dict[str, Any], seat: int) -> Vector: ...


Observe = Literal["direct", "view"]

FORFEIT_GAP = 1.0
"""How much worse than the worst game a forfeit (an illegal action in the Gymnasium env)
pays: strictly worse, so that a learner never prefers giving up to playing on and losing."""


class EpisodeOver(ConfigError, ResetNeeded):
    """A step with no game in play: before the first reset, or after the episode ended.
    Both tavernkeep's one-line error and Gymnasium's own `ResetNeeded`, so either catches it."""


def action_index(action: object) -> int:
    """`action` as an index; TypeError, one line, unless it is a whole number (a Python
    int or a numpy integer, also as a 0-d array). `int(0.7)` would quietly play action 0."""
    if type(action) is int:  # the common case, first: this runs at every step
        return action
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise TypeError(f"an action is an integer index into the action space, not {action!r}")
    return int(action)


def config_error(error: ConfigError) -> ConfigError:
    """A game's option error as the Python API says it: the games word some errors for
    the command line (`--variant two_player`), where a Python caller passes a keyword."""
    text = re.sub(r"--variant (\w+)", r"\1=True", str(error))
    return error if text == str(error) else ConfigError(text)


class Table:
    """One game at one table, with its fixed action space and observation size."""

    def __init__(
        self,
        game: str,
        reward: str = "win",
        pack: str | Path | None = None,
        observe: str = "direct",
        observation: str = "asinh",
        **options: Any,
    ) -> None:
        if observation not in SCALES:
            raise ConfigError(
                f"observation must be {' or '.join(repr(s) for s in SCALES)}, not {observation!r}"
            )
        self.observation = observation
        """How observations are scaled (agents.policy.SCALES), and so the bounds of their
        space (`low`, `high`): a policy learnt here records it."""
        self.low, self.high = (
            (-ASINH_BOUND, ASINH_BOUND) if observation == "asinh" else (-np.inf, np.inf)
        )
        if reward not in REWARDS:
            raise ConfigError(f"reward must be 'win', 'margin' or 'shaped', not {reward!r}")
        if observe not in ("direct", "view"):
            raise ConfigError(f"observe must be 'direct' or 'view', not {observe!r}")
        self.game = get_game(game)
        self.reward: Reward = reward  # narrowed by the check above
        try:
            self.config = self.game.make_config(options)
        except ConfigError as bad:
            raise config_error(bad) from None
        self.pack = self.game.load_pack(pack)
        self.players: int = getattr(self.config, "players", 1)
        self.encoding: Encoding = encoding_of(self.game, self.config, self.pack)
        direct = getattr(self.encoding, "encode_state", None) if observe == "direct" else None
        self._direct: Callable[[Any, int], Vector] | None = direct
        self.observe_by: Observe = "view" if direct is None else "direct"
        # `shaped` is `win` at the end plus, at every step, the change in a potential, how
        # well the seat stands: potential-based shaping (Ng, Harada and Russell, 1999),
        # which leaves the best policy what it was while a learner that never wins by
        # chance still learns what moves it towards a win. The potential is the encoding's
        # own (`potential(state, seat)`, where a game has a better guide for learners, as
        # Rage's planner's score) or else the game's estimate of the seat's chances
        # (`Game.evaluator`).
        self.potential: Callable[[Any, int], float] | None = None
        if reward == "shaped":
            self.potential = getattr(self.encoding, "potential", None)
            evaluator = self.game.evaluator()
            if self.potential is None and evaluator is not None:
                self.potential = lambda state, seat: evaluator(state)[seat]
            if self.potential is None:
                raise ConfigError(
                    f"reward 'shaped' needs the game's evaluator, and {self.game.title} has none"
                )
        self.actions = list(self.encoding.actions)
        # Keyed by (kind, args), plain tuples, so that a lookup hashes in C: the game's
        # own Action objects are not the ones listed here, and Action's __hash__ and
        # __eq__ are Python calls, paid a few times every step.
        self.index = {(a.kind, a.args): i for i, a in enumerate(self.actions)}
        if len(self.index) != len(self.actions):
            raise ConfigError(f"{game}: the action indexing lists an action twice")
        self.state: Any = None
        self._legal: list[Action] | None = None
        self._indices: list[int] | None = None

    def reset(self, seed: int) -> None:
        self.state = self.game.setup(self.config, seed, self.pack)
        self._legal = self._indices = None

    def actor(self) -> int | None:
        return self.game.actor(self.state)

    def legal(self) -> list[Action]:
        if self._legal is None:
            self._legal = self.game.legal_actions(self.state)
        return self._legal

    def index_of(self, action: Action) -> int:
        found = self.index.get((action.kind, action.args))
        if found is None:
            raise IllegalAction(
                f"{self.game.name}: action '{action.text}' is not in the fixed action "
                f"space of this pack and player count ({len(self.actions)} actions)"
            )
        return found

    def legal_indices(self) -> list[int]:
        """The indices of the legal actions; IllegalAction names one the space lacks."""
        if self._indices is None:
            get = self.index.get
            found = [get((action.kind, action.args), -1) for action in self.legal()]
            if -1 in found:
                for action in self.legal():
                    self.index_of(action)
            self._indices = found
        return self._indices

    def mask(self, seat: int) -> Mask:
        """1 for each legal action when `seat` decides now, else all 0."""
        # A bytearray set in a loop and viewed as an array: faster than numpy's fancy
        # indexing for the few legal actions of a step (the array stays writable).
        mask = bytearray(len(self.actions))
        if self.actor() == seat:
            for i in self.legal_indices():
                mask[i] = 1
        return np.frombuffer(mask, dtype=np.int8)

    def encoded(self, seat: int) -> Vector:
        """The seat's observation as its game's encoding lays it out (ENCODING.md)."""
        if self._direct is not None:
            return self._direct(self.state, seat)
        return self.encoding.encode(self.game.view(self.state, seat), seat)

    def observe(self, seat: int) -> Vector:
        """The observation an agent gets: the encoding, scaled (`observation`)."""
        return scaled(self.encoded(seat), self.observation)

    def play(self, index: int) -> None:
        """Apply the action at `index` for the deciding seat; IllegalAction if not legal."""
        if not 0 <= index < len(self.actions):
            raise IllegalAction(f"action index {index} is outside 0..{len(self.actions) - 1}")
        action = self.actions[index]
        if index not in self.legal_indices():
            raise IllegalAction(f"'{action.text}' (index {index}) is not legal now")
        self.apply(action)

    def apply(self, action: Action) -> None:
        self.game.apply(self.state, action, record=False)
        self._legal = self._indices = None

    def result(self) -> Result | None:
        return self.game.result(self.state)

    def text(self, seat: int | None) -> str:
        """The table as the terminal draws it for `seat` (None: a spectator, who sees no
        secret), in plain text, and who acts or how the game ended."""
        import io

        from rich.console import Console

        from tavernkeep.terminal.render import renderer_for

        out = io.StringIO()
        # No colour and a fixed width: the same text whatever terminal runs the env.
        console = Console(file=out, width=100, color_system=None, legacy_windows=False)
        console.print(renderer_for(self.game)(self.game.view(self.state, seat)))
        result, actor = self.result(), self.actor()
        if result is not None:
            console.print(f"Over: {result.reason}")
        elif actor is not None:
            console.print(f"Player {actor + 1} to act")
        return out.getvalue()

    def rewards(self, result: Result) -> list[float]:
        """Each seat's reward for a finished game.

        Co-operative and solo: +1 to every seat for a win, -1 for a loss. Competitive:
        'win' gives the winners +1 shared among them and every other seat -1; 'margin'
        gives each seat its score minus the best score among the other seats.
        """
        seats = range(len(result.scores))
        if self.game.kind != "competitive":
            value = 1.0 if result.won else -1.0
            return [value for _ in seats]
        if self.reward == "margin":
            out = []
            for seat in seats:
                others = [result.scores[s] for s in seats if s != seat]
                out.append(float(result.scores[seat] - max(others)) if others else 0.0)
            return out
        share = 1.0 / len(result.winners) if result.winners else 0.0
        return [share if seat in result.winners else -1.0 for seat in seats]

    def worst(self) -> float:
        """The lowest reward a finished game can give a seat in this reward mode: a loss
        (-1), or in 'margin' the lowest score margin the game's rules and pack allow."""
        if self.game.kind != "competitive" or self.reward != "margin":
            return -1.0
        floor = MARGIN_FLOORS.get(self.game.name)
        if floor is None:
            raise ConfigError(
                f"reward 'margin' needs the lowest margin {self.game.title} allows "
                "(tavernkeep.rl.table.MARGIN_FLOORS), and none is known"
            )
        return min(-1.0, floor(self.config, self.pack.content))

    def forfeit(self) -> float:
        """What an illegal action pays in the Gymnasium env: worse than the worst game."""
        return self.worst() - FORFEIT_GAP


# The lowest score margin (a seat's score less the best other seat's) each competitive
# game can end with, from its rules and pack: every score there only grows from 0, so
# the margin is never below minus everything the game could pay one seat. Generous, not
# tight: a forfeit must pay less than any real game, and a bound any real game reaches
# would not be one. A new competitive game adds its own to play reward 'margin' in
# `gym_env` (tests/rl/test_forfeit.py checks each against random games).
def _hack_and_slash_floor(config: Any, content: Any) -> float:
    # Each quest card is scored once, by one seat; the Brag is never scored.
    return -float(sum(card.reward for card in content.quest))


def _here_to_slay_floor(config: Any, content: Any) -> float:
    return -1.0  # the winner scores 1, every other seat 0


def _crits_and_tricks_floor(config: Any, content: Any) -> float:
    # A round pays its Bards (taken in tricks) and one Barkeep's Challenge; a quest is
    # paid once in a game; rounds are the config's, plus the tie-break rounds of two.
    rounds = config.rounds + config.extra_rounds
    bards = max(content.deck.bards, content.deck.two_player_bards)
    barkeep = max((challenge.loot for challenge in content.barkeep), default=0)
    quests = sum(quest.loot for quest in content.quest)
    return -float(rounds * (bards + barkeep) + quests)


MARGIN_FLOORS: dict[str, Callable[[Any, Any], float]] = {
    "hack-and-slash": _hack_and_slash_floor,
    "here-to-slay": _here_to_slay_floor,
    "crits-and-tricks": _crits_and_tricks_floor,
}
