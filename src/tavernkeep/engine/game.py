"""The Game protocol: one rules object per game, over a state the game owns.

Terminal, browser, bots, simulator and RL wrappers all talk to a game only through these
methods, so each of them is written once. A game is a stateless rules object; everything
that changes lives in its state, including the RNG, so a state is a value that clones,
compares and replays.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar, get_args

from pydantic import BaseModel, ValidationError

from tavernkeep.engine import howto
from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.engine.errors import ConfigError, IllegalAction
from tavernkeep.engine.events import Event
from tavernkeep.engine.howto import HowToPlay
from tavernkeep.engine.rng import Rng


class Agent(Protocol):
    """Anything that can take a seat: a bot, a person at a terminal, a websocket. It is
    handed its seat's `InfoSet` (engine/match.py: the view, the legal actions, their
    labels and odds, nothing more) and answers with one of the legal actions.

    Declared here, below `match.py`, because a game names its own bot
    (`Game.heuristic_agent`) and needs no more of a seat than this."""

    name: str

    def choose(self, info: Any) -> Action: ...


Kind = Literal["competitive", "cooperative", "solo"]


@dataclass(frozen=True)
class Result:
    """How a finished game came out.

    Competitive games rank every seat (1 is best; tied seats share a rank and all tied
    winners are in `winners`). Co-operative and solo games set `won` for the whole table.
    `ending` is a short machine word for how the game ended, `reason` the sentence for
    people; `facts` holds numbers a designer may want (rounds played, quests completed).
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    ending: str
    reason: str
    won: bool | None = None
    turns: int = 0
    facts: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "ending": self.ending,
            "reason": self.reason,
            "won": self.won,
            "turns": self.turns,
            "facts": dict(self.facts),
        }


S = TypeVar("S")
C = TypeVar("C", bound=BaseModel)


class Game(ABC, Generic[S, C]):
    """A game's rules. Subclasses declare their nature up front, then the protocol."""

    name: ClassVar[str]
    """Registry name, e.g. 'hack-and-slash'."""
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    kind: ClassVar[Kind]
    config_model: ClassVar[type[BaseModel]]
    content_dir: ClassVar[Path]
    """Folder of the game's built-in packs; `standard.toml` is the default."""
    summary: ClassVar[str] = ""
    players_note: ClassVar[str] = ""
    """How a variant stretches the player count, in a player's words: '2 with the Two
    players variant'."""
    players_variant: ClassVar[str | None] = None
    """The yes-or-no option that opens `players_note`'s counts (Hack & Slash's `two_player`):
    the lobby turns it on for such a count."""
    search_rollout: ClassVar[Literal["random", "heuristic"]] = "random"
    """How `bot:mcts` plays its rollouts where the spec does not say: "heuristic" in a
    game whose random play teaches the search the wrong lesson (Side Quest: see its
    RULES.md, "The search bot"). The spec's `:random` or `:heuristic` overrides it."""
    secrets_shared: ClassVar[bool] = False
    """True where every secret of a state is hidden from every seat alike (decks,
    face-down cards), never one seat's hand from another's: a state sampled for one seat
    is then a sample for every seat, and a bot deciding inside a search's imagined game
    plays on that sample as it is (`InfoSet.sampled`) instead of sampling it again."""
    seat_facts: ClassVar[dict[str, str]] = {}
    """Facts of `Result.facts` that label each seat (a list, one label a seat), with the
    heading a report gives them: `simulate` breaks win rates down by each, e.g.
    {"leader": "Party Leader"}. A seat may hold several labels (a list): the quests it
    held, each counted once for that seat."""
    score_parts: ClassVar[dict[str, str]] = {}
    """Facts of `Result.facts` that split each seat's score by where it came from (a
    number a seat), with their headings: `simulate` reports the mean and share of each."""
    tally_kinds: ClassVar[dict[str, str]] = {}
    """The events a designer counts, each kind with its heading, e.g. {"card played":
    "Cards played", "quest completed": "Quests completed"}. `Result.facts["tally"]` holds
    one dict a seat, {kind: {name: count}}, names being the pack's (a card's, a quest's):
    `simulate` reports per name how often it was used and the win rate of those who used
    it. Counted during `apply` whether events are built or not (engine/tally.py), and only
    what every seat saw happen."""
    tally_rates: ClassVar[dict[str, str]] = {}
    """Tally kinds that count the successes of another kind's attempts, {success kind:
    attempt kind}, e.g. {"quest completed": "quest attempted"}: the report gives each
    name's success per attempt with its interval (how hard a quest is, apart from how
    often it is tried)."""
    ending_headlines: ClassVar[dict[str, str]] = {}
    """A short headline for each ending (`Result.ending`) that "Victory!" or "Defeat."
    would head wrongly: in a co-operative or solo game, an ending that is neither, e.g.
    Rage's {"survived": "You survived, without enough food"}. Every front-end heads a
    finished game with `headline`, which reads this first."""
    report_grid: ClassVar[tuple[str, ...]] = ()
    """Options (one or two; "players" among them if it varies) a designer balances
    across: `simulate` run without fixing them plays every combination with the game's
    bot in every seat and prints one table, e.g. ("scenario", "players"). "bot" varies
    the seats' bot: the game's heuristic bot and the random bot."""

    reaction_kinds: ClassVar[dict[str, str]] = {}
    """Kinds of decision (`decision`) a person may choose to pass on until they have another
    kind to make (their turn), with the words a page names them by, e.g. Here to Slay's
    {"modifier": "Modifiers"}: windows that ask every seat in turn, where a person with a
    card they will not play would otherwise click "Pass" round after round. The server
    passes for them after the same pause as for a seat with nothing to play, so the table
    cannot tell the two apart."""

    decision_kinds: ClassVar[tuple[str, ...]] = ("decision",)
    """Every kind of decision the game asks with its standard pack, as `decision` names
    them: tests/games/test_every_decision.py reaches each of them many times in every
    game and fails on a kind it never meets."""

    # -- configuration and content -------------------------------------------------

    def make_config(self, options: Mapping[str, Any] | None = None) -> C:
        """Validate options (players, variant flags) into the game's config model."""
        try:
            return self.config_model.model_validate(dict(options or {}))  # type: ignore[return-value]
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            msg = err["msg"].removeprefix("Value error, ")
            if err["type"] == "extra_forbidden":
                known = ", ".join(self.config_model.model_fields)
                msg = f"no such option (options: {known})"
            elif err["loc"] == ("players",) and isinstance(err.get("input"), int):
                # The count comes from the seats, so say it in those terms.
                note = f" ({self.players_note})" if self.players_note else ""
                raise ConfigError(
                    f"{self.title} takes {self.players_text()} "
                    f"player{'' if self.max_players == 1 else 's'}{note}, "
                    f"not {err['input']}"
                ) from None
            prefix = f"{self.title}: option '{where}'" if where else self.title
            raise ConfigError(f"{prefix}: {msg}") from None

    @abstractmethod
    def load_pack(self, source: str | Path | None = None) -> Pack[Any]:
        """The content pack: None or a built-in name ('standard'), or a path to a TOML file."""

    # -- the protocol --------------------------------------------------------------

    @abstractmethod
    def setup(self, config: C, seed: int, pack: Pack[Any] | None = None) -> S:
        """A new game. All its randomness comes from an Rng seeded with `seed`."""

    @abstractmethod
    def actor(self, state: S) -> int | None:
        """The one seat that must decide now; None when the game is over."""

    @abstractmethod
    def legal_actions(self, state: S) -> list[Action]:
        """Every legal choice for the actor (empty when the game is over)."""

    @abstractmethod
    def apply(self, state: S, action: Action, record: bool = True) -> list[Event]:
        """Advance the state. Raises IllegalAction, state untouched, if not legal.

        With `record=False` no events are built: simulations pay only for the rules.
        """

    def apply_legal(self, state: S, action: Action, record: bool = True) -> list[Event]:
        """`apply` of an action known to be legal: one taken from `legal_actions` of this
        very state. A game whose `apply` spends real time checking the action (working
        out the offers again) skips the check here; the search applies every action of
        its tree and its random rollouts this way. Anything else calls `apply`."""
        return self.apply(state, action, record)

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator), JSON-ready. The only door out."""

    def decision(self, state: S) -> str | None:
        """The kind of decision open now, one of `decision_kinds` (None once the game is
        over): fine enough that decisions played out differently have kinds of their own
        (Here to Slay's taking a card from a hand one looks at is not discarding one of
        one's own). By default a game has one kind of decision."""
        return None if self.actor(state) is None else "decision"

    def observe(self, state: S, seat: int) -> Any:
        """What `seat` knows, for a bot to read: the view's facts in the rules' own terms
        (ids, suits as numbers), without the words and nesting a person's view carries,
        so a bot deciding a hundred thousand times pays for nothing it does not read.
        It must be a function of what `seat` may see: equal on every `determinize`d twin
        (tests/engine/test_views.py checks it for every game). The view by default."""
        return self.view(state, seat)

    @abstractmethod
    def determinize(self, state: S, seat: int, rng: Rng) -> S:
        """A state consistent with `seat`'s view: hidden parts and the RNG re-sampled.

        The sample must be a function of what `seat` can see and `rng` alone: sort what
        is shuffled, never shuffle it in its true order, so that the search and the tutor
        (agents/advice.py) give the same answer whatever the seat cannot see."""

    def reveals(self, state: S, action: Action, after: S) -> bool:
        """Whether `action`, chosen by the seat deciding in `state`, may have shown that
        seat anything it could not see before, in any deal it cannot tell from this one: a
        die rolled, a card drawn, a hidden card or a hidden fact told by how the action
        turned out (a quest someone completes, a hand that holds nothing to discard).
        `after` is the state the action led to (a copy the caller applied it to).

        The take-back rule offers a decision back only where this says False
        (engine/takeback.py), so it must be sound, not likely: False only where the rules
        guarantee it. A game says it in its own terms (which of its parts are hidden, and
        which steps read them); tests/games/test_every_decision.py holds every game's
        answer against 1,000 deals at every kind of decision. By default everything may
        reveal, and nothing is offered back."""
        return True

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def clone(self, state: S) -> S:
        """An independent copy; fast, since search and simulation live on it."""

    @abstractmethod
    def label(self, state: S, action: Action) -> str:
        """A human label for a legal action in this state."""

    def odds(self, state: S, action: Action) -> dict[str, float]:
        """Exact chances behind a dice decision, e.g. {'success': 0.58}; {} if none."""
        return {}

    def opening(self, state: S) -> list[Event]:
        """Events that tell what a new game starts with (a round's dice, the Monsters
        face up), from the state `setup` returned: setup itself reports nothing, so a log
        begins with these. Each event carries its own visibility, as `apply`'s do."""
        return []

    def content(self, state: S) -> Any:
        """The cards (quests, monsters, ...) of the pack `state` is played with, as the
        rules use them. Public: every player may read every card, so a bot may value a
        card by what it does rather than by its name. None when a game keeps none."""
        return None

    def grid_values(self, option: str, content: Any) -> list[Any]:
        """The values of an option of `report_grid`, for a pack's content: every player
        count, or each choice of a Literal option. A game overrides it for options whose
        values come from its pack (a scenario's name)."""
        if option == "players":
            return list(range(self.min_players, self.max_players + 1))
        if option == "bot":
            # The game's own bot against the baseline every game has.
            return ["bot:heuristic", "bot:random"] if self.heuristic_agent() else ["bot:random"]
        field = self.config_model.model_fields[option]
        return list(get_args(field.annotation))

    def tally_names(self, content: Any) -> dict[str, list[str]]:
        """For each tally kind whose names come from the pack, every name it could count
        with this pack's content (every quest a "quest completed" could name), so a
        report can say which were never used: the dead card. Kinds left out list only
        what was counted."""
        return {}

    def web_dir(self) -> Path | None:
        """The game's own browser files: `web/` in the folder of its rules module, with
        `renderer.js` (how a table draws it; without one the generic renderer does) and
        `style.css` (its own look, over the shared stylesheet's components). The server
        serves them at /games/{name}/, so a game's browser client lives in its folder
        too. None for a game whose module has no file."""
        where = getattr(sys.modules.get(type(self).__module__), "__file__", None)
        return Path(where).parent / "web" if where else None

    def how_to_play(self, screen: str = "terminal") -> HowToPlay | None:
        """The game's rules for players, in our own words: `HOW_TO_PLAY.md` in the folder
        of its rules module (engine/howto.py says what it may hold), read once, as the
        `screen` ("terminal" or "browser") shows it. Every front-end shows it; None for a
        game without one."""
        where = getattr(sys.modules.get(type(self).__module__), "__file__", None)
        return howto.load(Path(where).parent, screen) if where else None

    def heuristic_agent(self) -> Agent | None:
        """The game's own rule-of-thumb bot ('bot:heuristic'), if it has one."""
        return None

    def evaluator(self) -> Callable[[S], list[float]] | None:
        """The game's estimate of an unfinished position, if it has one: a function of a
        full state giving each seat's expected reward in [0, 1], in the currency of the
        search (`agents/ismcts.py`): a competitive seat's chance of winning, a team's
        chance of its victory in every seat. A search cut short at a horizon
        (`bot:mcts`, `bot:mcts:...:cutN`) asks it instead of playing the rollout to the
        end; a game without one has every rollout played out."""
        return None

    # -- helpers every front-end uses ------------------------------------------------

    def is_over(self, state: S) -> bool:
        return self.actor(state) is None

    def parse_action(self, state: S, text: str) -> Action:
        """Read an action typed or sent by a seat, and check that it is legal now."""
        action = Action.parse(text)
        self.check_legal(state, action)
        return action

    def check_legal(self, state: S, action: Action) -> None:
        if action not in self.legal_actions(state):
            actor = self.actor(state)
            if actor is None:
                raise IllegalAction(f"'{action.text}' is not legal: the game is over")
            options = ", ".join(a.text for a in self.legal_actions(state))
            raise IllegalAction(f"'{action.text}' is not legal now; choose one of: {options}")

    def upgrade_text(self, version: int, state: S, text: str) -> str:
        """An action's text from a record of an older `version` (engine/records.py,
        RECORD_VERSION), as this version writes it; `state` is the game just before the
        action. Where a game came to number an argument as its screens do, the old number
        moves here, read with the state where the text alone cannot say what it named (a
        Crits & Tricks crit names a seat or a nudge by its card's suit). By default the
        texts never changed."""
        return text

    def headline(self, result: Result, seat: int | None = None) -> str:
        """The heading of a finished game, for `seat`'s reader (None: a spectator): the
        game's own for its ending if it names one, else the table's victory or defeat in
        a co-operative or solo game, else who won."""
        named = self.ending_headlines.get(result.ending)
        if named:
            return named
        if result.won is True:
            return "Victory!"
        if result.won is False:
            return "Defeat."
        winners = result.winners
        if seat is not None and seat in winners:
            return "You share the victory!" if len(winners) > 1 else "You win!"
        names = " and ".join(f"Player {s + 1}" for s in winners)
        if len(winners) == 1:
            return f"{names} wins"
        if winners:
            return f"{names} share the victory"
        return "The game is over"

    def players_text(self) -> str:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}-{self.max_players}"
