"""Guided search: ISMCTS with PUCT selection, a learned prior and a learned value.

The search of agents/ismcts.py tries every action of a node before it prefers any, and
judges each new node by playing its sample on at random (or by the heuristic) to a cut.
This one asks a guide (agents/guide.py, learnt by expert iteration, rl/expert.py) instead,
as AlphaZero and expert iteration (Anthony, Tian and Barber 2017) do: its policy head says
which actions are worth trying, its value head what a position is worth, with no rollout.

It is the same single-observer search in every other respect. It decides from its seat's
`InfoSet` alone: each iteration samples one state consistent with what the seat knows
(`info.determinize`) and walks the one tree of its seat down that sample, nodes filed
under the seat deciding there, max-n rewards (each node keeps the reward of the seat that
chose the action leading to it). A sample may guide, never peek: the prior and the value
for a node are computed from the deciding seat's observation of the *sample* (what that
seat would see, were the sample the game), never from the true state, which the search
never holds.

**Selection (PUCT).** At a node where `seat` decides, among the actions legal in this
sample, the one with the largest

    Q(a) + c * P(a) * sqrt(A(a)) / (1 + n(a))

where Q is the mean reward of `seat` below the action, n its visits, P its prior and A
its availability (the iterations that passed the node with the action legal: the parent's
visit count where every sample offers the same actions, and ISMCTS's correction where
some do not). An action not yet visited counts the node's own value for `seat` as its Q
(first-play urgency at the parent's estimate, not at 0 or 1: a zero would make the prior
alone order the untried moves of a losing position and a one would try them all first).

**Expansion and evaluation.** A node is evaluated the first time an iteration reaches it
with a decision to make: the prior for the deciding seat's legal actions from that seat's
observation of the sample, and the value for every seat, each from its own observation
(in co-operative and solo games one value, the team's). That value is backed up in place
of a rollout. With a horizon (`bot:guided:PATH:cutN`) the sample is first played on at
random for up to N actions, and the value is read where that stops: a guide's value learnt
from a few thousand positions judges worse than a few random actions and a judgement
(agents/ismcts.py, "Horizon"), which costs iterations, so the cut is for a guide still
learning. An action legal in this sample that the node has no prior for (a card the
sample dealt and earlier samples did not) gets one from this sample's observation. A game
over is paid as `rewards_for` pays it, the value head's own currency.

A decision with one legal action is answered at once, forced moves inside the search are
played through without a node, the robust child (most visits; the better mean, then the
legal order, break ties) is the answer, and the search stream is drawn from the seat's own
`info.rng`, so a seeded match with an iteration budget replays exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from tavernkeep.agents.guide import Guide
from tavernkeep.agents.ismcts import Rewards, budget_spent, rewards_for, unchecked
from tavernkeep.agents.policy import Array, check_fits, own_encoding, scaled
from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import SeatError
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng

PUCT = 1.0
"""The exploration constant c. AlphaZero's 1.25 is for values in [-1, 1]; ours lie in
[0, 1], half the span, and a prior near certainty should still be overruled by a value
that differs by a few tenths within a hundred or so visits."""


class GuidedNode:
    """A node: the action history that led here from the decision.

    `seat` chose the action leading here and `reward` sums that seat's rewards (max-n);
    `prior` is that action's prior where the seat chose it. `values` is the guide's
    judgement of the first sample evaluated here, a value a seat (first-play urgency for
    the children). Children are filed under the seat deciding here, as in ISMCTS.
    """

    __slots__ = ("avail", "children", "prior", "reward", "seat", "values", "visits")

    def __init__(self, seat: int, prior: float = 1.0) -> None:
        self.seat = seat
        self.prior = prior
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.values: list[float] | None = None
        self.children: dict[int, dict[Action, GuidedNode]] = {}

    def mean(self) -> float:
        return self.reward / self.visits


class GuidedBot:
    """PUCT search guided by `guide`, with a budget of iterations or of milliseconds.

    `game` is the game the guide was trained on (checked, as a policy's is), the seats of
    its table those the guide's options name. `exploration` is PUCT's c. `encoding` is
    the game's encoding where `encoding_of` does not know the game (a test's own game):
    then nothing is checked. `horizon` plays each leaf's sample on at random for that
    many actions before the value judges it (None: the value judges the leaf).
    """

    def __init__(
        self,
        name: str,
        guide: Guide,
        game: Game[Any, Any],
        iterations: int | None = None,
        millis: int | None = None,
        exploration: float = PUCT,
        encoding: Any = None,
        horizon: int | None = None,
    ) -> None:
        if (iterations is None) == (millis is None):
            raise ValueError("give one budget: iterations or milliseconds")
        self.name = name
        self.guide = guide
        self.iterations = iterations
        self.millis = millis
        self.exploration = exploration
        self.horizon = horizon
        self.encoding = encoding or own_encoding(name, guide, game, "guide")
        self.index = {(a.kind, a.args): i for i, a in enumerate(self.encoding.actions)}
        self.players: int = int(guide.options.get("players", 1))
        self.team = game.kind != "competitive"
        # Straight from the state where the game's encoding can (tests/rl/
        # test_direct_encoders.py shows it equal to the view-built one), else the view.
        self._direct: Callable[[Any, int], Array] | None = getattr(
            self.encoding, "encode_state", None
        )
        self.last_iterations = 0
        """Iterations the last searched decision ran (the benchmark reads it)."""
        self.cap_millis: int | None = None
        """A time limit on any budget, as `ISMCTSBot.cap_millis`."""
        self.stop: Callable[[], bool] | None = None
        """Asked between iterations, once `FIRST_ITERATIONS` have run, as `ISMCTSBot.stop`."""

    def fits(self, game: Game[Any, Any], config: Any, pack: Any) -> None:
        """SeatError, naming the difference, unless a table of `config` and `pack` has
        the player count, observation and action space the guide was trained on."""
        check_fits(self.name, self.guide, game, config, pack)

    def observe(self, game: Game[Any, Any], state: Any, seat: int) -> Array:
        """`seat`'s observation of `state` (a sample), scaled as the guide learnt it."""
        if self._direct is not None:
            encoded = self._direct(state, seat)
        else:
            encoded = self.encoding.encode(game.view(state, seat), seat)
        return scaled(encoded, self.guide.observation)

    def indices(self, actions: list[Action]) -> list[int]:
        out = []
        for action in actions:
            found = self.index.get((action.kind, action.args))
            if found is None:
                raise SeatError(f"{self.name}: '{action.text}' is not in its action space")
            out.append(found)
        return out

    def choose(self, info: InfoSet) -> Action:
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        root = self.search(info, Rng(info.rng.next64()))
        return robust(root, info.seat, actions)

    def search(self, info: InfoSet, rng: Rng) -> GuidedNode:
        """Run the budget; returns the root, whose children hold the statistics."""
        game = info.game
        actor, legal, result = game.actor, game.legal_actions, game.result
        apply = unchecked(game)
        guide, observe, indices = self.guide, self.observe, self.indices
        sqrt = math.sqrt
        c = self.exploration
        players, team = self.players, self.team
        horizon, below = self.horizon, rng.below
        pay: Rewards = rewards_for(game, players)
        root = GuidedNode(info.seat)
        spent = budget_spent(self.iterations, self.millis, self.cap_millis, self.stop)
        done = 0

        def widen(
            node: GuidedNode, st: Any, seat: int, acts: list[Action], leaf: bool
        ) -> list[float]:
            """Evaluate the sample `st` at `node`: priors for `seat`'s legal actions the
            node has none for; at a `leaf`, every seat's value too, to back up (and kept as
            the node's estimate, where it has none yet)."""
            priors, value = guide.evaluate(observe(game, st, seat), indices(acts))
            kids = node.children.setdefault(seat, {})
            for a, p in zip(acts, priors, strict=True):
                if a not in kids:
                    kids[a] = GuidedNode(seat, p)
            if not leaf:
                return []
            if horizon:
                # Played on at random to the cut (counting down), then judged where it
                # stopped, by every seat's view of it; a game over is paid as it ended.
                left, at = horizon, actor(st)
                while left and at is not None:
                    moves = legal(st)
                    apply(st, moves[below(len(moves))] if len(moves) > 1 else moves[0], False)
                    left -= 1
                    at = actor(st)
                if at is None:
                    outcome = result(st)
                    assert outcome is not None
                    values = pay(outcome)
                elif team:
                    values = [guide.judge(observe(game, st, at))] * players
                else:
                    values = [guide.judge(observe(game, st, s)) for s in range(players)]
            elif team:
                values = [value] * players
            else:
                values = [
                    value if s == seat else guide.judge(observe(game, st, s))
                    for s in range(players)
                ]
            if node.values is None:
                node.values = values
            return values

        while not spent(done):
            done += 1
            st = info.determinize(rng)
            node = root
            path = [root]
            rewards: list[float]
            while True:
                seat = actor(st)
                if seat is None:
                    outcome = result(st)
                    assert outcome is not None
                    rewards = pay(outcome)
                    break
                acts = legal(st)
                if len(acts) == 1:
                    apply(st, acts[0], False)
                    continue
                kids = node.children.get(seat)
                if kids is None:
                    # A leaf: the guide judges it, in place of a rollout.
                    rewards = widen(node, st, seat, acts, True)
                    break
                if any(a not in kids for a in acts):
                    widen(node, st, seat, acts, False)
                fpu = node.values[seat] if node.values is not None else 0.5
                best_value = -math.inf
                chosen = kids[acts[0]]
                chosen_action = acts[0]
                for a in acts:
                    child = kids[a]
                    child.avail += 1
                    n = child.visits
                    q = child.reward / n if n else fpu
                    value = q + c * child.prior * sqrt(child.avail) / (1 + n)
                    if value > best_value:
                        best_value, chosen, chosen_action = value, child, a
                apply(st, chosen_action, False)
                path.append(chosen)
                node = chosen
            for n_ in path[1:]:
                n_.visits += 1
                n_.reward += rewards[n_.seat]
        self.last_iterations = done
        root.visits = done
        return root


def robust(root: Any, seat: int, actions: list[Action]) -> Action:
    """The robust child of a search's root among `actions`: the most visited; the better
    mean breaks a tie and the order of `actions` a tie of both (reproducible). Any node
    with `children`, `visits` and `reward` (an ISMCTS root too)."""
    kids = root.children.get(seat, {})
    best, most, best_mean = actions[0], -1, -1.0
    for action in actions:
        child = kids.get(action)
        if child is None or child.visits == 0:
            continue
        mean = child.reward / child.visits
        if child.visits > most or (child.visits == most and mean > best_mean):
            best, most, best_mean = action, child.visits, mean
    return best
