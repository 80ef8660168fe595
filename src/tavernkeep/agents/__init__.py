"""Bots that play any game through the Game protocol, and the seat specs that name them.

A seat spec is what a person types: `human`, a level (`bot:easy`, `bot:normal`,
`bot:hard`, `bot:expert`: agents/levels.py, each what a game's `levels.toml` measured),
`bot:random`, `bot:heuristic`, a trained
policy, `bot:policy:PATH` (agents/policy.py), a search guided by a trained guide,
`bot:guided:PATH[:budget][:cutN]` (agents/guided.py; the budget and the horizon as
`bot:mcts`'s, `GUIDED_BUDGET` where none is given, and no horizon: the guide's value
judges each new position as it is), or a search bot, `bot:mcts` with an
optional budget, rollout, horizon and `pure` in any order: `bot:mcts:500` (iterations a
decision), `bot:mcts:200ms` (milliseconds a decision), `bot:mcts:500:heuristic`
(rollouts played by the game's heuristic bot; `:random`, by the random bot; where the
spec says neither, the game's `search_rollout`), `bot:mcts:500:cut40` (each rollout cut
after 40 actions and the position judged by the game's `evaluator`; where a game has
one, `DEFAULT_HORIZON` is the default and `full` plays every rollout to its end),
`bot:mcts:500:pure` (no incumbent: the search's own choice even where the game's
heuristic proposes another and the search cannot tell them apart). Games supply their
own heuristic (`Game.heuristic_agent`) and evaluation (`Game.evaluator`) because good
play is game knowledge; everything else here is game-agnostic.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from tavernkeep.agents.guide import load_guide
from tavernkeep.agents.guided import GuidedBot
from tavernkeep.agents.ismcts import ISMCTSBot
from tavernkeep.agents.levels import level_of
from tavernkeep.agents.policy import PolicyBot, load_policy
from tavernkeep.agents.random_bot import RandomBot, SlippingBot
from tavernkeep.engine.errors import SeatError
from tavernkeep.engine.game import Agent, Game

BOTS = ("random", "heuristic", "mcts")

MCTS_ITERATIONS = 1000
"""`bot:mcts`'s budget: the strength benchmark's figure, and reproducible for a seed."""
LOBBY_MCTS = "bot:mcts:300ms"
"""The search bot the lobby offers: a time budget, so a browser table waits about a third
of a second a decision in every game (an iteration budget would be instant in Hack &
Slash and take seconds in Here to Slay)."""
GUIDED_BUDGET = "100ms"
"""`bot:guided:PATH`'s budget where the spec names none: the time the guided search is
meant to beat `bot:mcts` at a second with (issue 42)."""
MAX_ITERATIONS = 10_000_000
MAX_MILLIS = 600_000
"""A typo such as an extra zero should be an error, not a bot that thinks for a day."""
ROLLOUTS = ("random", "heuristic")

_BUDGET = re.compile(r"(\d+)(ms)?\Z")
_CUT = re.compile(r"cut(\d+)\Z")
_SLIP = re.compile(r"slip(\d+)\Z")
MAX_HORIZON = 100_000
DEFAULT_HORIZON = 20
"""Actions a rollout plays before the game's evaluation judges it, where the game has
one: a few turns, about two tricks of Crits & Tricks. A full random rollout of Here to
Slay runs for hundreds of actions that say little about the decision, and one of Side
Quest or Rage almost never wins, so its result says nothing at all (see
benchmarks/README.md, "Search strength")."""


def make_bot(spec: str, game: Game[Any, Any]) -> Agent:
    """The bot a spec names: 'bot:random', 'bot:heuristic', 'bot:mcts[:budget][:rollout]'
    or 'bot:policy:PATH' (a trained policy's file, agents/policy.py)."""
    kind, _, rest = spec.partition(":")
    name, _, params = rest.partition(":")
    if kind == "bot" and name == "policy":
        if not params:
            raise SeatError(f"seat '{spec}': name the policy file, bot:policy:PATH")
        return PolicyBot(spec, load_policy(params), game)
    if kind == "bot" and name == "guided":
        return _guided(spec, params, game)
    level = level_of(spec, game)
    if level is not None:
        return make_bot(level.bot, game)
    if kind != "bot" or name not in BOTS:
        raise SeatError(
            f"unknown seat '{spec}': expected human, a level (bot:easy, bot:normal, bot:hard, "
            "bot:expert), bot:random, bot:heuristic, bot:mcts, bot:policy:PATH or "
            "bot:guided:PATH"
        )
    if name == "mcts":
        return _mcts(spec, params, game)
    if name == "heuristic" and params.startswith("slip"):
        return _slipping(spec, params, game)
    if params:
        raise SeatError(f"seat '{spec}': bot:{name} takes no parameters")
    if name == "random":
        return RandomBot()
    agent = game.heuristic_agent()
    if agent is None:
        raise SeatError(f"seat '{spec}': {game.title} has no heuristic bot yet")
    return agent


def _slipping(spec: str, params: str, game: Game[Any, Any]) -> SlippingBot:
    """`bot:heuristic:slipN`: the heuristic bot taking a random action at N% of its
    decisions (1-99), the `easy` level's bot (agents/levels.py)."""
    slip = _SLIP.match(params)
    if slip is None or not 1 <= int(slip.group(1)) <= 99:
        raise SeatError(f"seat '{spec}': slips are a whole percent, 1 to 99, e.g. slip40")
    agent = game.heuristic_agent()
    if agent is None:
        raise SeatError(f"seat '{spec}': {game.title} has no heuristic bot yet")
    return SlippingBot(spec, agent, int(slip.group(1)))


def _budget(spec: str, text: str) -> tuple[int | None, int | None]:
    """(iterations, milliseconds) of a budget part that `_BUDGET` matches, such as '500'
    or '200ms', one of the two None; SeatError, one line, if it is out of range."""
    budget = _BUDGET.match(text)
    assert budget is not None
    amount = int(budget.group(1))
    if budget.group(2):
        if not 1 <= amount <= MAX_MILLIS:
            raise SeatError(f"seat '{spec}': a time budget is 1 to {MAX_MILLIS:,} ms, not {amount}")
        return None, amount
    if not 1 <= amount <= MAX_ITERATIONS:
        raise SeatError(f"seat '{spec}': iterations are 1 to {MAX_ITERATIONS:,}, not {amount}")
    return amount, None


def _guided(spec: str, params: str, game: Game[Any, Any]) -> GuidedBot:
    """`bot:guided:PATH[:budget][:cutN]`. A path may hold a colon itself, so the path is
    the longest run of leading parts that names a file, and what follows it must be a
    budget, a horizon or both: a part that is neither (`:heuristic`, which is `bot:mcts`'s)
    is named as the mistake, not as a file missing. Where no file is there, a budget and a
    horizon at the end are still read as such, and the file is what is missing."""
    if not params:
        raise SeatError(f"seat '{spec}': name the guide file, bot:guided:PATH[:budget][:cutN]")
    parts = params.split(":")
    path, rest = params, []
    for end in range(len(parts), 0, -1):
        if os.path.isfile(":".join(parts[:end])):
            path, rest = ":".join(parts[:end]), parts[end:]
            break
    else:
        # No file: the budget and horizon at the end (two parts at most) are still read
        # as such, so that the error names the file that is missing, not the spec's tail.
        end = len(parts)
        while end > max(1, len(parts) - 2) and (
            _BUDGET.match(parts[end - 1]) or _CUT.match(parts[end - 1])
        ):
            end -= 1
        path, rest = ":".join(parts[:end]), parts[end:]
    if not path:
        raise SeatError(f"seat '{spec}': name the guide file, bot:guided:PATH[:budget][:cutN]")
    budget, horizon = GUIDED_BUDGET, None
    budget_seen = False
    for part in rest:
        if _BUDGET.match(part):
            if budget_seen:
                raise SeatError(f"seat '{spec}': give one budget, not two")
            budget, budget_seen = part, True
        elif (cut := _CUT.match(part)) is not None:
            if horizon is not None:
                raise SeatError(f"seat '{spec}': give one horizon, not two")
            horizon = int(cut.group(1))
            if not 1 <= horizon <= MAX_HORIZON:
                raise SeatError(
                    f"seat '{spec}': a horizon is 1 to {MAX_HORIZON:,} actions, not {horizon}"
                )
        else:
            raise SeatError(
                f"seat '{spec}': '{part}' is neither a budget (500 iterations, 200ms) nor a "
                "horizon (cut10)"
            )
    iterations, millis = _budget(spec, budget)
    guide = load_guide(path)
    name = f"bot:guided:{path}:{budget}" + (f":cut{horizon}" if horizon is not None else "")
    return GuidedBot(name, guide, game, iterations, millis, horizon=horizon)


def _mcts(spec: str, params: str, game: Game[Any, Any]) -> ISMCTSBot:
    iterations: int | None = None
    millis: int | None = None
    rollout: str = game.search_rollout
    horizon: int | None = None
    judges = game.evaluator() is not None
    budget_seen = rollout_seen = pure = full = False
    for part in params.split(":") if params else []:
        if _BUDGET.match(part) is not None:
            if budget_seen:
                raise SeatError(f"seat '{spec}': give one budget, not two")
            budget_seen = True
            iterations, millis = _budget(spec, part)
        elif part in ROLLOUTS:
            if rollout_seen:
                raise SeatError(f"seat '{spec}': give one rollout, not two")
            rollout_seen = True
            rollout = part
        elif (cut := _CUT.match(part)) is not None:
            if horizon is not None or full:
                raise SeatError(f"seat '{spec}': give one horizon, not two")
            horizon = int(cut.group(1))
            if not 1 <= horizon <= MAX_HORIZON:
                raise SeatError(
                    f"seat '{spec}': a horizon is 1 to {MAX_HORIZON:,} actions, not {horizon}"
                )
            if not judges:
                raise SeatError(
                    f"seat '{spec}': {game.title} cannot evaluate a position to cut rollouts at"
                )
        elif part == "full":
            if horizon is not None or full:
                raise SeatError(f"seat '{spec}': give one horizon, not two")
            full = True
        elif part == "pure":
            if pure:
                raise SeatError(f"seat '{spec}': 'pure' is given twice")
            pure = True
        else:
            raise SeatError(
                f"seat '{spec}': '{part}' is neither a budget (500 iterations, 200ms), "
                "a rollout (random, heuristic), a horizon (cut20, full) nor 'pure'"
            )
    if millis is None and iterations is None:
        iterations = MCTS_ITERATIONS
    if horizon is None and not full and judges:
        horizon = DEFAULT_HORIZON
    heuristic: Callable[[], Agent] | None = None
    if game.heuristic_agent() is not None:

        def fresh() -> Agent:
            agent = game.heuristic_agent()
            assert agent is not None
            return agent

        heuristic = fresh
    if rollout == "heuristic" and heuristic is None:
        raise SeatError(f"seat '{spec}': {game.title} has no heuristic bot to play rollouts")
    budget_text = f"{millis}ms" if millis is not None else str(iterations)
    canonical = (
        f"bot:mcts:{budget_text}"
        # Heuristic rollouts are named always, random ones where the game's default
        # differs: the name reads back as the same bot, and says what a table compares.
        + (f":{rollout}" if rollout == "heuristic" or rollout != game.search_rollout else "")
        + (f":cut{horizon}" if horizon is not None else "")
        # Where the default would cut, the name says it does not, so it reads back alike.
        + (":full" if full and judges else "")
        + (":pure" if pure else "")
    )
    return ISMCTSBot(
        canonical,
        iterations=iterations,
        millis=millis,
        rollout=heuristic if rollout == "heuristic" else None,
        incumbent=None if pure else heuristic,
        # Heuristic rollouts already play every seat's later moves: one level of tree
        # (see ismcts's docstring, "Depth").
        depth=1 if rollout == "heuristic" else None,
        horizon=horizon,
    )


def seat_bot(spec: str, game: Game[Any, Any], config: Any, pack: Any = None) -> Agent:
    """The bot `spec` names, to sit at a table of `config` and `pack` (None: the built-in
    pack): SeatError, one line, if it is a trained policy or guide made for another game,
    player count or pack. The one check of a policy against its table, wherever one is seated:
    `check_seat` (play, simulate, the lab, serve), the RL envs and imitation."""
    bot = make_bot(spec, game)
    if isinstance(bot, PolicyBot | GuidedBot):
        bot.fits(game, config, pack if pack is not None else game.load_pack(None))
    return bot


def check_seat(spec: str, game: Game[Any, Any], config: Any = None, pack: Any = None) -> None:
    """Raise SeatError unless `spec` names a seat this game can fill: with the table's
    `config` and `pack`, a trained policy must also fit its observation and actions."""
    if spec == "human":
        return
    if config is None:
        make_bot(spec, game)
        return
    seat_bot(spec, game, config, pack)
