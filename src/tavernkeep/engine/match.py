"""The match runner: seats any mix of people and bots around one game.

A seat is an `Agent`. At each decision the runner hands the deciding agent an `InfoSet`:
that seat's view, its legal actions and a way to sample states consistent with what it
knows. Bots never receive the true state from the runner; the InfoSet keeps it private
and lets out only what the protocol lets out. Each seat has its own RNG stream derived
from the game seed, so a bot's choices replay exactly and never consume the game's dice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.engine.errors import ConfigError, IllegalAction, RecordError
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Agent, Game, Result
from tavernkeep.engine.records import GameRecord, action_at, open_record, shorten
from tavernkeep.engine.rng import Rng, seat_streams


class InfoSet:
    """What one seat may use to decide. The true state stays behind `_state`."""

    __slots__ = ("_legal", "_state", "game", "rng", "sampled", "seat")

    def __init__(
        self,
        game: Game[Any, Any],
        state: Any,
        seat: int,
        rng: Rng,
        sampled: bool = False,
        legal: list[Action] | None = None,
    ) -> None:
        self.game = game
        self._state = state
        self.seat = seat
        self.rng = rng
        """This seat's own stream, for its random choices."""
        self.sampled = sampled
        """The state is not the true one but a search's sample of it (an imagined game)."""
        self._legal = legal
        """`legal_actions` of `state` where the caller has just listed them (a search's
        rollout), handed over as they are: for one decision, the state unchanged."""

    def view(self) -> dict[str, Any]:
        return self.game.view(self._state, self.seat)

    def observe(self) -> Any:
        """This seat's knowledge in the rules' own terms (`Game.observe`): what a bot reads
        where it needs no words."""
        return self.game.observe(self._state, self.seat)

    def legal_actions(self) -> list[Action]:
        if self._legal is not None:
            return self._legal
        return self.game.legal_actions(self._state)

    def label(self, action: Action) -> str:
        return self.game.label(self._state, action)

    def odds(self, action: Action) -> dict[str, float]:
        return self.game.odds(self._state, action)

    def content(self) -> Any:
        """The pack's cards as the rules use them (public: see `Game.content`)."""
        return self.game.content(self._state)

    def determinize(self, rng: Rng) -> Any:
        """A full state consistent with this seat's view, hidden parts re-sampled."""
        if self.sampled and self.game.secrets_shared:
            # A sample already, of secrets no seat knows more of than another: sampling
            # again would draw from the same odds, at the price of every deck's shuffle.
            return self.game.clone(self._state)
        return self.game.determinize(self._state, self.seat, rng)


EventSink = Callable[[list[Event], Any], None]


class Match:
    """One game being played. Holds its record as it grows, so nothing is lost if a
    person quits mid-game: the caller can still save `match.record`.

    Simulations pass `keep_record=False` and `record_events=False`: they pay only for
    the rules and the bots.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        agents: Sequence[Agent],
        seed: int,
        config: BaseModel,
        pack: Pack[Any],
        seats: Sequence[str] | None = None,
        record_events: bool = True,
        keep_record: bool = True,
    ) -> None:
        players = getattr(config, "players", len(agents))
        if players != len(agents):
            raise ConfigError(f"{len(agents)} seats were given for {players} players")
        self.game = game
        self.config = config
        self.pack = pack
        self.agents = list(agents)
        self.record_events = record_events
        self.keep_record = keep_record
        self.state = game.setup(config, seed, pack)
        self.opening: list[Event] = game.opening(self.state) if record_events else []
        """What the game starts with, as events: the first lines of its log."""
        self.rngs = seat_streams(seed, len(agents))
        self.actions = 0
        self.seed = seed
        self._seats = list(seats) if seats is not None else [a.name for a in agents]
        # Validating a pydantic GameRecord costs as much as a third of a short game, so
        # a match that keeps no record builds one only if someone asks for it.
        self._record = self._new_record() if keep_record else None

    def _new_record(self) -> GameRecord:
        return GameRecord(
            game=self.game.name,
            pack=self.pack.name,
            pack_digest=self.pack.digest,
            config=self.config.model_dump(),
            seed=self.seed,
            seats=self._seats,
            # A designer's pack, not a built-in one: the record holds it, to replay.
            pack_data=self.pack.data,
            pack_base=self.pack.base if self.pack.data is not None else None,
        )

    @property
    def record(self) -> GameRecord:
        """The game so far as a record; without `keep_record`, only its header."""
        if self._record is None:
            self._record = self._new_record()
        return self._record

    @classmethod
    def start(
        cls,
        game: Game[Any, Any],
        agents: Sequence[Agent],
        seed: int,
        options: dict[str, Any] | None = None,
        pack: str | Path | None = None,
        seats: Sequence[str] | None = None,
        record_events: bool = True,
    ) -> Match:
        """A new match from user input: options are validated, the pack is loaded."""
        options = dict(options or {})
        options.setdefault("players", len(agents))
        config = game.make_config(options)
        return cls(game, agents, seed, config, game.load_pack(pack), seats, record_events)

    @classmethod
    def from_record(
        cls, game: Game[Any, Any], record: GameRecord, agents: Sequence[Agent]
    ) -> tuple[Match, list[Event]]:
        """Rebuild a match from its record (a server restart), with every event so far.

        Raises RecordError if the record does not replay; nothing is half-built then.
        """
        config, pack = open_record(game, record)
        match = cls(game, agents, record.seed, config, pack, record.seats)
        events: list[Event] = list(match.opening)
        # Played as this version writes its actions: the match's own record is current.
        for index, written in enumerate(record.actions, start=1):
            text = action_at(game, record.version, match.state, written)
            try:
                action = Action.parse(text)
                seat = game.actor(match.state)
                if seat is None:
                    raise IllegalAction("the game is over")
                events.extend(match.play(seat, action))
            except IllegalAction as exc:
                raise RecordError(
                    f"action #{index} '{shorten(text)}' does not replay: {exc}"
                ) from None
        return match, events

    def ask(self) -> tuple[int, Action]:
        """The deciding seat and the action its agent chooses (not yet applied)."""
        seat = self.game.actor(self.state)
        if seat is None:
            raise IllegalAction("the game is over")
        return seat, self.agents[seat].choose(InfoSet(self.game, self.state, seat, self.rngs[seat]))

    def play(self, seat: int, action: Action) -> list[Event]:
        """Apply `seat`'s action. Out of turn or not legal: IllegalAction, nothing changed."""
        actor = self.game.actor(self.state)
        if actor != seat:
            raise IllegalAction(
                "the game is over" if actor is None else f"it is Player {actor + 1}'s decision"
            )
        events = self.game.apply(self.state, action, self.record_events)
        self.actions += 1
        if self.keep_record:
            self._keep(action)
        return events

    def _keep(self, action: Action) -> None:
        """Add an applied action to the record, and the result once the game is over."""
        record = self.record
        record.actions.append(action.text)
        if self.game.actor(self.state) is None:
            result = self.game.result(self.state)
            record.result = result.to_json() if result else None

    def step(self) -> list[Event]:
        """Ask the deciding seat and apply its choice. An agent offering an illegal
        action is a bug in that agent, so it propagates as IllegalAction."""
        seat, action = self.ask()
        return self.play(seat, action)

    def run(self, on_events: EventSink | None = None, max_actions: int = 1_000_000) -> Result:
        game, state = self.game, self.state
        actor, apply, agents = game.actor, game.apply, self.agents
        record_events, keep_record = self.record_events, self.keep_record
        # This is step() written out, with one InfoSet per seat for the whole run (the
        # state is changed in place, never replaced): simulations live in this loop, and
        # the calls and objects that step() makes for every action add up there.
        infos = [InfoSet(game, state, seat, rng) for seat, rng in enumerate(self.rngs)]
        # A game whose `apply` checks an action by working out the offers again (Game.
        # apply_legal) has them worked out here once, for the seat and the check alike:
        # an action the seat picked from that very list needs no second look.
        listed = type(game).apply_legal is not Game.apply_legal
        legal_actions, apply_legal = game.legal_actions, game.apply_legal
        done = self.actions
        while (seat := actor(state)) is not None:
            if done >= max_actions:
                raise RuntimeError(f"{game.name}: no end after {max_actions} actions")
            info = infos[seat]
            if listed:
                legal = legal_actions(state)
                info._legal = legal
                action = agents[seat].choose(info)
                info._legal = None
                if any(action is offered for offered in legal):
                    events = apply_legal(state, action, record_events)
                else:
                    events = apply(state, action, record_events)
            else:
                action = agents[seat].choose(info)
                events = apply(state, action, record_events)
            done += 1
            self.actions = done
            if keep_record:
                self._keep(action)
            if on_events is not None:
                on_events(events, state)
        result = game.result(state)
        assert result is not None
        return result
