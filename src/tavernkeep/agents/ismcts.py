"""Information-set Monte Carlo tree search (single observer), for any game.

The bot sees only its `InfoSet`. Each iteration samples one state consistent with what
its seat knows (`info.determinize`), walks the one search tree of its seat down that
sample, adds a node, plays the sample to its end (random or heuristic rollout) and
backs the result up. Hidden cards are re-dealt and the dice re-seeded by every
determinization, so chance is sampled rather than enumerated; an action that is legal
in only some samples competes by its availability count, not by the iterations as a whole.

Competitive games are searched max-n: every node keeps the reward of the seat that
chose the action leading to it, and each seat is assumed to choose for itself. Paranoid
search (everyone else against the searcher) is the usual alternative, but it assumes a
coalition these games do not have: in a Hack & Slash or Here to Slay table of four, an
opponent grabbing a quest hurts everyone, and a paranoid bot plays scared of moves no
opponent would choose for itself. Co-operative and solo games have one team reward.

Rewards, all in [0, 1]:
- competitive: a victory counts 1/k for each of k tied winners (as `simulate` counts
  wins), plus a small margin term (`MARGIN`): the seat's score placed between the
  lowest and the highest score at the table, so that among lost rollouts one that lost
  narrowly is worth a little more;
- co-operative and solo: 1 for the team's victory (`Result.won`), plus `MARGIN` times
  the table's mean score squashed into [0, 1) (Rage's food in the bag), so that a search
  in which every rollout loses still prefers the fuller bag.

**The incumbent.** Where the game has a heuristic bot, it proposes a move before the
search starts, and the search's choice replaces it only when its mean reward beats the
proposal's by more than `CONFIDENCE` standard errors. Dice make a thousand rollouts'
means differ by chance alone. `benchmarks/search_choices.py` asks the search at 81
decisions of Hack & Slash games between heuristic bots and judges each disagreement by
2,000 paired heuristic playouts of both moves (win chance of the deciding seat):

- without the incumbent (`:pure`) the search disagreed 36 times: 13 worse, mostly by a
  few points, 10 better, some by a lot (endgames where the expected points the
  heuristic maximises lose for certain and a long shot can still win). The small
  losses ate the large gains: +0.15 of a win in all;
- with the incumbent: 8 disagreements, 6 better, 1 worse, +0.51 in all;
- with the incumbent and heuristic rollouts one level deep (below): 6 disagreements,
  5 better, none worse, +0.53.

So the search keeps its strength where it is sure and no longer throws away the
heuristic's exact odds where it is not. `bot:mcts:...:pure` turns the incumbent off
(textbook ISMCTS, for comparison).

**Depth.** With heuristic rollouts every seat already plays the heuristic below the
root, so the tree is one level deep (`depth=1`: the root's moves, each judged by its
rollouts). A deeper tree explores the other seats' and later moves, mixing moves no one
would play into the root's means: in the same measurement, heuristic rollouts with the
incumbent and a full tree disagreed 9 times, 4 of them worse (+0.40 in all).
With random rollouts the tree goes as deep as the iterations take it, since the tree is
all that plays better than random.

**Horizon.** A random game of Here to Slay runs for hundreds of actions, and most of a
thousand full rollouts' time goes on turns far from the decision. With a horizon
(`bot:mcts:...:cutN`) each rollout stops after N actions and the game's evaluation
(`Game.evaluator`: each seat's chance of winning from there, fitted on games between
heuristic bots) is backed up in place of a result. A game without an evaluation plays
every rollout to its end.

**Which rollout.** Random, unless the spec or the game (`Game.search_rollout`) asks for
the heuristic. The evaluation judges a position as the heuristic bots would play on from
it; where the random actions before the cut are worse than noise, heuristic ones keep the
two in step. In Side Quest random rollouts made an empty Trade look better than an attack
(its RULES.md, "The search bot"), so its search rolls out with the bot team.

A decision with a single legal action is answered at once, and forced moves inside the
search (a lone pass) are played through without a node of their own. The search stream
is drawn from the seat's own `info.rng`, so a seeded match with an iteration budget
replays exactly; a budget in milliseconds does not, since it depends on the machine.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from tavernkeep.engine.actions import Action
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Agent, Game, Result
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng

EXPLORATION = 0.7
"""UCB1's exploration constant: rewards lie in [0, 1], where sqrt(2) explores too much
for a budget of a thousand iterations spread over up to a few dozen actions."""
CONFIDENCE = 2.0
"""Standard errors by which the search's choice must beat the incumbent's: about the
one-sided 97.5% bar, so that chance alone overrules the incumbent a time in forty."""
FIRST_ITERATIONS = 16
"""Iterations a search runs before it may be stopped early (`ISMCTSBot.stop`): enough that
every root action of most decisions has been tried once, a few milliseconds."""
MARGIN = 0.1
"""Weight of the score term beside the win term: enough to break the ties among lost
(or among won) rollouts, too little to ever prefer a good loss to a win."""


class Node:
    """A node of the tree: the action history that led here from the decision.

    `seat` chose the action that leads here and `reward` is that seat's total, so
    every seat is credited in its own currency (max-n). Children are filed under the
    seat deciding at this node, since in different samples a different seat may be the
    one to decide after the same history (a die roll ends a turn or asks for a rescue).
    """

    __slots__ = ("avail", "children", "reward", "seat", "square", "visits", "wins")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.square = 0.0
        """Sum of the squared rewards, kept for the root's children only: the spread an
        incumbent's challenger is judged by."""
        self.wins = 0.0
        """The victories alone (a share of a tied one; the evaluation's chance where a
        rollout was cut), for the root's children only: what the tutor tells a person."""
        self.children: dict[int, dict[Action, Node]] = {}

    def mean(self) -> float:
        return self.reward / self.visits

    def error(self) -> float:
        """The standard error of `mean` (a root child's only)."""
        n = self.visits
        if n < 2:
            return 1.0
        variance = max(0.0, (self.square - self.reward * self.reward / n) / (n - 1))
        return math.sqrt(variance / n)


Rewards = Callable[[Result], list[float]]


def rewards_for(game: Game[Any, Any], players: int) -> Rewards:
    """How a finished rollout pays each seat (see the module's docstring)."""
    if game.kind == "competitive":

        def competitive(result: Result) -> list[float]:
            pay = [0.0] * players
            winners = result.winners
            if winners:
                share = (1.0 - MARGIN) / len(winners)
                for seat in winners:
                    pay[seat] = share
            scores = result.scores
            low, high = min(scores), max(scores)
            if high > low:
                scale = MARGIN / (high - low)
                for seat in range(players):
                    pay[seat] += (scores[seat] - low) * scale
            else:
                half = MARGIN / 2
                for seat in range(players):
                    pay[seat] += half
            return pay

        return competitive

    def team(result: Result) -> list[float]:
        mean = max(0.0, sum(result.scores) / len(result.scores))
        value = (1.0 - MARGIN) * bool(result.won) + MARGIN * mean / (1.0 + mean)
        return [value] * players

    return team


def win_share(result: Result, seat: int) -> float:
    """The part of a victory `seat` had in a finished game: 1 for a team's victory, 1/k
    for one of k tied winners, else 0."""
    if result.won is not None:
        return 1.0 if result.won else 0.0
    winners = result.winners
    return 1.0 / len(winners) if seat in winners else 0.0


def unchecked(game: Game[Any, Any]) -> Callable[[Any, Action, bool], list[Event]]:
    """`game.apply_legal`, or `game.apply` itself where the game keeps the default: a
    call fewer an action where there is no check to skip (Hack & Slash, Rage)."""
    if type(game).apply_legal is Game.apply_legal:
        return game.apply
    return game.apply_legal


def budget_spent(
    iterations: int | None,
    millis: int | None,
    cap_millis: int | None,
    stop: Callable[[], bool] | None,
) -> Callable[[int], bool]:
    """Whether a search that has run `done` iterations has spent its budget: its
    iterations, its milliseconds from now (a server's `cap_millis` caps either budget),
    or a `stop` that says so once `FIRST_ITERATIONS` have run. Every search bot's loop
    asks it before each iteration (this one's and agents/guided.py's)."""
    if cap_millis is not None:
        millis = cap_millis if millis is None else min(millis, cap_millis)
    deadline = time.perf_counter() + millis / 1000.0 if millis is not None else None

    def spent(done: int) -> bool:
        if iterations is not None and done >= iterations:
            return True
        if deadline is not None and time.perf_counter() >= deadline:
            return True
        return stop is not None and done >= FIRST_ITERATIONS and stop()

    return spent


def play_out(
    game: Game[Any, Any], state: Any, bot: Agent, rng: Rng, actions: int = -1
) -> None:
    """Play `state` with `bot` in every seat (a forced move without asking): to its end,
    or for at most `actions` actions when that is not negative. `state` is a sample
    (`InfoSet.sampled`): where the game's secrets are every seat's alike, the bot plays on
    it without sampling it again."""
    actor, legal, apply, play = game.actor, game.legal_actions, game.apply, unchecked(game)
    # Counting down from -1 never reaches 0: no limit.
    while actions and (seat := actor(state)) is not None:
        acts = legal(state)
        if len(acts) == 1:
            play(state, acts[0], False)
        else:
            # The bot is handed the list just made, where it would list the actions again
            # (6% of a Side Quest decision), and its answer is checked against that list
            # rather than by the game's `apply` working the offers out once more; an
            # answer not in it goes to `apply`, which refuses it as any bot's.
            choice = bot.choose(InfoSet(game, state, seat, rng, sampled=True, legal=acts))
            (play if choice in acts else apply)(state, choice, False)
        actions -= 1


class ISMCTSBot:
    """Single-observer ISMCTS with a budget of iterations or of milliseconds a decision.

    `rollout` is None for uniformly random rollouts, or a factory of the game's
    heuristic bot: a fresh one each rollout, since a heuristic may remember its game
    (Rage's planner keeps its plan), and a rollout is a game of its own. `incumbent`
    is a factory of the bot whose move the search must beat to replace, `confidence` by
    how many standard errors, and `depth` how many levels of actions the tree may hold
    (None: no limit). `horizon` cuts each rollout after that many actions and asks the
    game's `evaluator` what the position is worth (None: rollouts play to the end).
    """

    def __init__(
        self,
        name: str,
        iterations: int | None = None,
        millis: int | None = None,
        rollout: Callable[[], Agent] | None = None,
        exploration: float = EXPLORATION,
        incumbent: Callable[[], Agent] | None = None,
        confidence: float = CONFIDENCE,
        depth: int | None = None,
        horizon: int | None = None,
    ) -> None:
        if (iterations is None) == (millis is None):
            raise ValueError("give one budget: iterations or milliseconds")
        self.name = name
        self.iterations = iterations
        self.millis = millis
        self.rollout = rollout
        self.exploration = exploration
        self.incumbent = incumbent
        self.confidence = confidence
        self.depth = depth
        self.horizon = horizon
        self.last_iterations = 0
        """Iterations the last searched decision ran (the benchmark reads it)."""
        self.cap_millis: int | None = None
        """A server's time limit on any budget: an iteration budget stops there too, since
        iterations cost what the game makes them cost (server/search.py)."""
        self.stop: Callable[[], bool] | None = None
        """Asked between iterations, once `FIRST_ITERATIONS` have run: True ends the search
        there, with what it has found (a server's pool hands the worker to a search a
        person waits on: server/search.py)."""

    def choose(self, info: InfoSet) -> Action:
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        rng = Rng(info.rng.next64())
        # The incumbent decides first, from the same InfoSet a seat is given; it may
        # draw from the seat's stream, which keeps a seeded match reproducible.
        favourite = self.incumbent().choose(info) if self.incumbent is not None else None
        root = self.search(info, rng)
        kids = root.children.get(info.seat, {})
        best, most = actions[0], -1
        best_mean = -1.0
        # The most visited action (the robust child); the better mean breaks a tie and
        # the order of the legal actions a tie of both, so the choice is reproducible.
        for action in actions:
            child = kids.get(action)
            if child is None:
                continue
            mean = child.mean()
            if child.visits > most or (child.visits == most and mean > best_mean):
                best, most, best_mean = action, child.visits, mean
        if favourite is None or favourite == best:
            return best
        # The incumbent keeps the move unless the search's choice is better by more than
        # `confidence` standard errors (see the module's docstring). A move the search
        # never tried has no evidence against it.
        champion, challenger = kids.get(favourite), kids.get(best)
        if champion is None or challenger is None:
            return favourite
        edge = challenger.mean() - champion.mean()
        if edge > self.confidence * math.hypot(challenger.error(), champion.error()):
            return best
        return favourite

    def search(self, info: InfoSet, rng: Rng) -> Node:
        """Run the budget; returns the root, whose children hold the statistics."""
        game = info.game
        actor, legal, result = game.actor, game.legal_actions, game.result
        # Every action the search plays itself comes from `legal_actions` of the state it
        # is applied to, so the game need not check it again (a tenth of the time in Here
        # to Slay and Crits & Tricks).
        apply = unchecked(game)
        evaluate = game.evaluator() if self.horizon is not None else None
        if self.horizon is not None and evaluate is None:
            raise ValueError(f"{game.title} cannot evaluate a position: no horizon")
        below = rng.below
        log, sqrt = math.log, math.sqrt
        c = self.exploration
        rollout = self.rollout
        pay: Rewards | None = None
        root = Node(info.seat)
        depth = self.depth if self.depth is not None else 1 << 30
        horizon = self.horizon if self.horizon is not None else -1
        spent = budget_spent(self.iterations, self.millis, self.cap_millis, self.stop)
        done = 0
        while not spent(done):
            done += 1
            st = info.determinize(rng)
            node = root
            path = [root]
            # Selection and expansion: down the tree while every action is known.
            while (seat := actor(st)) is not None:
                acts = legal(st)
                if len(acts) == 1:
                    apply(st, acts[0], False)
                    continue
                if len(path) > depth:
                    break
                kids = node.children.get(seat)
                if kids is None:
                    kids = node.children[seat] = {}
                untried = None
                for a in acts:
                    child = kids.get(a)
                    if child is None:
                        if untried is None:
                            untried = [a]
                        else:
                            untried.append(a)
                    else:
                        child.avail += 1
                if untried is not None:
                    a = untried[below(len(untried))] if len(untried) > 1 else untried[0]
                    child = kids[a] = Node(seat)
                    # Availability counts from the iterations in which this action
                    # could be chosen: this one included.
                    child.avail = 1
                    apply(st, a, False)
                    path.append(child)
                    break
                best_value = -1.0
                chosen = acts[0]
                for a in acts:
                    child = kids[a]
                    value = child.reward / child.visits + c * sqrt(
                        log(child.avail) / child.visits
                    )
                    if value > best_value:
                        best_value, chosen = value, a
                node = kids[chosen]
                apply(st, chosen, False)
                path.append(node)
            # Rollout: to the end of the sampled game, or `horizon` actions (counting
            # down from -1 never reaches 0).
            if rollout is None:
                left = horizon
                while left and actor(st) is not None:
                    acts = legal(st)
                    n = len(acts)
                    apply(st, acts[below(n)] if n > 1 else acts[0], False)
                    left -= 1
            else:
                play_out(game, st, rollout(), rng, horizon)
            outcome = result(st)
            if outcome is not None:
                if pay is None:
                    pay = rewards_for(game, len(outcome.scores))
                rewards = pay(outcome)
            else:
                # Cut at the horizon: the game's own estimate of the position.
                assert evaluate is not None
                rewards = evaluate(st)
            if len(path) > 1:
                first = path[1]
                first.square += rewards[first.seat] ** 2
                seat = first.seat
                first.wins += rewards[seat] if outcome is None else win_share(outcome, seat)
            for n_ in path[1:]:
                n_.visits += 1
                n_.reward += rewards[n_.seat]
        self.last_iterations = done
        root.visits = done
        return root
