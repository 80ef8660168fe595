"""Every kind of decision of every game, reached many times and checked (issue 38, item 4),
in the spirit of OpenSpiel's `random_sim_test` and TAG's forward-model tester.

Random play meets some decisions once in hundreds of games (Side Quest's push, Here to
Slay's look into a hand), and the defects that matter live there. So the games are walked
toward the kinds seen least: a fresh game now and then, played with a look one step
ahead that prefers choices leading to a rare kind; and, once a kind has been met, walks
started again from a few states before it, dealt anew from the deciding seat's view
(`Game.determinize`), so each start has other hidden cards and other dice. At each
decision met, while its kind has been checked fewer than `CHECKED` times:

- every legal action applies, and the game's take-back answer (`Game.reveals`) never
  raises;
- a decision offered back shows nothing in sampled deals: 1,000 for the first two of each
  (kind, action) met, `DEALS` for each after (engine/takeback.py: the rule is the game's
  answer; sampling is its test);
- `determinize` keeps what every seat sees: for each seat, a deal drawn from its view
  has its view and `observe` unchanged (so no view holds a secret of another seat that
  its deal would draw again), the spectator's view, the decision and the deciding seat's
  legal actions too;
- a clone played the same way stays equal, in every seat's view;
- a fresh game's record, written out and read back, replays to the same end.

It prints a table of how often each kind was reached and checked, and fails on a kind of
`Game.decision_kinds` never reached `REACHED` times, or a kind met that the game does not
declare. A new game takes part by being in the registry.

A run draws its games from a seed printed with the table (TAVERNKEEP_WALK_SEED repeats it).
A longer run sets TAVERNKEEP_WALK_REACHED, _CHECKED, _DEALS (1000: every decision offered
back judged on a thousand deals) and _SECONDS.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

import pytest

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import ConfigError
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import Match
from tavernkeep.engine.records import parse_record, replay
from tavernkeep.engine.rng import Rng, random_seed
from tavernkeep.engine.takeback import may_take_back
from tavernkeep.games import game_names, get_game


def setting(name: str, default: int) -> int:
    """A number of the walk, which TAVERNKEEP_WALK_<NAME> changes for a longer run."""
    return int(os.environ.get(f"TAVERNKEEP_WALK_{name}", default))


REACHED = setting("REACHED", 200)
"""Each declared kind must be reached at least this often."""
CHECKED = setting("CHECKED", 300)
"""Visits of a kind that are checked in full; past it a kind is only walked through."""
FIRST_DEALS = 1000
"""Deals sampled for the first `FIRST` decisions offered back of each (kind, action)."""
FIRST = 2
DEALS = setting("DEALS", 10)
"""Deals sampled for each one after those: many positions, each a few deals."""
WALK = 40
"""Decisions played from a restart before starting again."""
AHEAD = 8
"""Actions tried one step ahead when choosing where to go."""
SECONDS = setting("SECONDS", 150)
"""The most a game's walk runs; it stops earlier once every kind is covered."""


@dataclass
class Coverage:
    reached: Counter[str] = field(default_factory=Counter)
    checked: Counter[str] = field(default_factory=Counter)
    offered: Counter[str] = field(default_factory=Counter)
    """Decisions offered back (take-back), by kind."""
    games: int = 0
    restarts: int = 0
    records: int = 0

    def table(self, game: Game[Any, Any], seed: int, seconds: float) -> str:
        kinds = sorted(set(game.decision_kinds) | set(self.reached))
        width = max(len(k) for k in kinds)
        lines = [
            f"{game.name}: walk seed {seed}, {self.games} games from the deal, "
            f"{self.restarts} restarts, {self.records} records replayed, {seconds:.0f} s",
            f"  {'decision':<{width}}  {'reached':>8}  {'checked':>8}  {'offered back':>12}",
        ]
        for k in kinds:
            mark = "" if k in game.decision_kinds else "  (not declared)"
            lines.append(
                f"  {k:<{width}}  {self.reached[k]:>8,}  {self.checked[k]:>8,}  "
                f"{self.offered[k]:>12,}{mark}"
            )
        return "\n".join(lines)


def random_options(game: Game[Any, Any], rnd: random.Random) -> dict[str, Any]:
    """A table of any size the game takes, with its variants drawn now and then: each
    yes-or-no or one-of option of its config changed one time in four. A draw the game
    refuses (a size only a variant allows) is drawn again."""
    for _ in range(20):
        options: dict[str, Any] = {"players": rnd.randint(game.min_players, game.max_players)}
        for name, info in game.config_model.model_fields.items():
            if name == "players" or rnd.random() >= 0.25:
                continue
            if info.annotation is bool:
                options[name] = rnd.random() < 0.5
            elif get_origin(info.annotation) is Literal:
                options[name] = rnd.choice(get_args(info.annotation))
        try:
            game.make_config(options)
            return options
        except ConfigError:
            continue
    return {}


class Walk:
    """The walk of one game: where it has been, and the checks at each decision."""

    def __init__(self, game: Game[Any, Any], seed: int) -> None:
        self.game = game
        self.seed = seed
        self.rnd = random.Random(seed)
        self.rng = Rng(seed)
        self.cover = Coverage()
        self.launches: dict[str, list[tuple[Any, int]]] = {}
        """For each kind met, states a few decisions before it, to start again from."""
        self.sampled: Counter[tuple[str, str]] = Counter()
        """Decisions offered back so far, by (kind, action kind)."""
        self.players = game.min_players
        """Seats at the table walked now."""

    # -- where to go ---------------------------------------------------------------

    def run(self, seconds: float) -> None:
        start = time.monotonic()
        while time.monotonic() - start < seconds and not self.covered():
            rare = self.rare_launch()
            if rare is not None and self.rnd.random() < 0.75:
                self.cover.restarts += 1
                self.walk(rare, WALK, None)
            else:
                self.fresh_game()

    def covered(self) -> bool:
        return all(self.cover.reached[k] >= REACHED for k in self.game.decision_kinds) and all(
            self.cover.checked[k] >= min(CHECKED, self.cover.reached[k])
            for k in self.cover.reached
        )

    def rare_launch(self) -> Any | None:
        """A state dealt anew a few decisions before the kind met least, if any is short."""
        short = [
            k
            for k in self.launches
            if self.cover.reached[k] < REACHED or self.cover.checked[k] < CHECKED
        ]
        if not short:
            return None
        kind = min(short, key=lambda k: self.cover.reached[k])
        launch, self.players = self.rnd.choice(self.launches[kind])
        seat = self.game.actor(launch)
        assert seat is not None
        return self.game.determinize(self.game.clone(launch), seat, self.rng)

    def fresh_game(self) -> None:
        game = self.game
        options = random_options(game, self.rnd)
        self.players = players = int(options.get("players", game.min_players))
        match = Match.start(game, [RandomBot()] * players, self.rng.next64() >> 1, options)
        self.cover.games += 1
        self.walk(match.state, 100_000, match)
        if game.actor(match.state) is None:
            self.check_record(match)

    def walk(self, state: Any, steps: int, match: Match | None) -> None:
        game = self.game
        before: deque[Any] = deque(maxlen=4)
        for _ in range(steps):
            kind = game.decision(state)
            if kind is None:
                return
            seat = game.actor(state)
            assert seat is not None, f"{game.name}: a decision '{kind}' without a seat"
            self.cover.reached[kind] += 1
            if self.cover.reached[kind] <= REACHED and before:
                keep = self.launches.setdefault(kind, [])
                if len(keep) < 60:
                    keep.extend((game.clone(s), self.players) for s in before)
            legal = game.legal_actions(state)
            assert legal, f"{game.name}: a decision '{kind}' with no choice"
            checking = self.cover.checked[kind] < CHECKED
            if checking:
                self.cover.checked[kind] += 1
                self.check(state, seat, kind, legal)
            action = self.choose(state, legal)
            before.append(game.clone(state))
            twin = game.clone(state) if checking else None
            if match is not None:
                match.play(seat, action)
            else:
                game.apply(state, action, False)
            if twin is not None:
                game.apply(twin, action, True)
                self.same_everywhere(twin, state, f"a clone played '{action.text}' at '{kind}'")

    def choose(self, state: Any, legal: list[Action]) -> Action:
        """A random choice, or one step ahead toward the kind met least."""
        if len(legal) == 1 or self.rnd.random() < 0.5:
            return self.rnd.choice(legal)
        tried = self.rnd.sample(legal, min(AHEAD, len(legal)))
        best: list[Action] = []
        least = None
        for action in tried:
            after = self.game.clone(state)
            self.game.apply(after, action, False)
            kind = self.game.decision(after)
            seen = self.cover.reached[kind] if kind is not None else 10**9
            if least is None or seen < least:
                least, best = seen, [action]
            elif seen == least:
                best.append(action)
        return self.rnd.choice(best)

    # -- what is checked -----------------------------------------------------------

    def check(self, state: Any, seat: int, kind: str, legal: list[Action]) -> None:
        game = self.game
        where = f"{game.name} (walk seed {self.seed}), decision '{kind}'"
        for action in legal:
            after = game.clone(state)
            try:
                game.apply(after, action, True)
            except Exception as exc:
                raise AssertionError(f"{where}: the legal '{action.text}' fails: {exc}") from exc
            game.reveals(state, action, after)  # never raises: a fault would be a bug here
            if may_take_back(game, state, seat, action, after):
                self.cover.offered[kind] += 1
                pair = (kind, action.kind)
                self.sampled[pair] += 1
                deals = FIRST_DEALS if self.sampled[pair] <= FIRST else DEALS
                shown = shows_something(game, state, seat, action, self.rng, deals)
                assert shown is None, (
                    f"{where}: '{action.text}' is offered back, but it shows {shown}"
                )
        for viewer in range(self.players):
            deal = game.determinize(game.clone(state), viewer, self.rng)
            told = f"{where}: a deal drawn for seat {viewer}"
            assert game.view(deal, viewer) == game.view(state, viewer), f"{told} changes its view"
            assert game.observe(deal, viewer) == game.observe(state, viewer), (
                f"{told} changes what it observes"
            )
            assert game.view(deal, None) == game.view(state, None), (
                f"{told} changes what a spectator sees"
            )
            assert game.decision(deal) == kind and game.actor(deal) == seat, (
                f"{told} changes the decision"
            )
            if viewer == seat:
                assert game.legal_actions(deal) == legal, f"{told} changes its choices"

    def same_everywhere(self, a: Any, b: Any, what: str) -> None:
        game = self.game
        for viewer in [None, *range(self.players)]:
            assert game.view(a, viewer) == game.view(b, viewer), (
                f"{game.name} (walk seed {self.seed}): {what} differs for seat {viewer}"
            )

    def check_record(self, match: Match) -> None:
        game = self.game
        record = parse_record(match.record.to_json())
        assert json.loads(record.to_json()) == json.loads(match.record.to_json())
        final = replay(game, record)
        self.same_everywhere(final, match.state, "a game replayed from its record")
        result = game.result(final)
        assert result is not None and result.to_json() == match.record.result
        self.cover.records += 1


def shows_something(
    game: Game[Any, Any], state: Any, seat: int, action: Action, rng: Rng, deals: int
) -> str | None:
    """What `action` shows `seat` in one of `deals` deals drawn from its view that it does
    not show in the true state (events told to it, or its view after), or None."""

    def seen(s: Any) -> tuple[Any, Any]:
        events = game.apply(s, action, True)
        told = [e.to_json() for ev in events if (e := ev.for_seat(seat)) is not None]
        return told, game.view(s, seat)

    truth = seen(game.clone(state))
    for _ in range(deals):
        other = seen(game.determinize(game.clone(state), seat, rng))
        if other[0] != truth[0]:
            return f"other events in a deal: {other[0]} instead of {truth[0]}"
        if other[1] != truth[1]:
            return "another view in a deal"
    return None


def walk_seed() -> int:
    chosen = os.environ.get("TAVERNKEEP_WALK_SEED")
    return int(chosen) if chosen else random_seed()


@pytest.mark.parametrize("name", game_names())
def test_every_decision_is_reached_and_holds(
    name: str, record_property: Any
) -> None:
    game = get_game(name)
    seed = walk_seed()
    walk = Walk(game, seed)
    start = time.monotonic()
    walk.run(SECONDS)
    table = walk.cover.table(game, seed, time.monotonic() - start)
    print(table)
    record_property("coverage", table)
    undeclared = set(walk.cover.reached) - set(game.decision_kinds)
    assert not undeclared, f"{name}: decisions not in decision_kinds: {sorted(undeclared)}\n{table}"
    short = [k for k in game.decision_kinds if walk.cover.reached[k] < REACHED]
    assert not short, f"{name}: reached fewer than {REACHED} times: {short}\n{table}"
