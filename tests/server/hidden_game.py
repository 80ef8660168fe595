"""Secret Draw: a tiny hidden-information game, registered only by the server tests.

Each seat has its own deck of cards named `SECRET-<seat>-<value>` (values 1-9),
shuffled by the game's RNG, and is dealt one card. On a turn a seat draws a card,
discards one of its cards, or passes; after `rounds` turns each, the highest hand total
wins. A seat's cards are named only to that seat: the view shows your own hand and the
others' counts, and a draw is the private event "You drew SECRET-0-7" whose public twin
is "Player 1 drew a card". So the text `SECRET-1-` reaching seat 0 or a spectator is a
leak, whatever path it took.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.engine.errors import ContentError
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Game, Result
from tavernkeep.engine.rng import Rng

NAME = "hidden-test"
MARKER = "SECRET-"


def card_name(seat: int, value: int) -> str:
    return f"{MARKER}{seat}-{value}"


def card_value(card: str) -> int:
    return int(card.rsplit("-", 1)[1])


def marker(seat: int) -> str:
    """Text found in every one of `seat`'s card names, and nowhere else."""
    return f"{MARKER}{seat}-"


class SecretDrawConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    players: int = Field(default=2, ge=2, le=3)
    rounds: int = Field(default=3, ge=1, le=8, description="turns each seat takes")


class SecretDrawContent(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    values: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9)


@dataclass(slots=True)
class SecretDrawState:
    rng: Rng
    decks: list[list[str]]
    """Each seat's own face-down deck, top card last."""
    hands: list[list[str]]
    current: int
    turns: int
    rounds: int
    over: bool

    def clone(self) -> SecretDrawState:
        return SecretDrawState(
            rng=self.rng.clone(),
            decks=[d[:] for d in self.decks],
            hands=[h[:] for h in self.hands],
            current=self.current,
            turns=self.turns,
            rounds=self.rounds,
            over=self.over,
        )


DRAW = Action("draw")
PASS = Action("pass")


def _player(seat: int) -> str:
    return f"Player {seat + 1}"


class SecretDraw(Game[SecretDrawState, SecretDrawConfig]):
    name = NAME
    title = "Secret Draw (test)"
    min_players = 2
    max_players = 3
    kind = "competitive"
    config_model = SecretDrawConfig
    content_dir: ClassVar[Path] = Path(__file__).parent
    summary = "draw secret cards; highest hand wins"

    def load_pack(self, source: str | Path | None = None) -> Pack[SecretDrawContent]:
        if source not in (None, "standard"):
            raise ContentError(f"no built-in pack named '{source}' (built-in packs: standard)")
        return Pack(self.name, "standard", "0", SecretDrawContent())

    def setup(
        self, config: SecretDrawConfig, seed: int, pack: Pack[Any] | None = None
    ) -> SecretDrawState:
        content: SecretDrawContent = (pack or self.load_pack()).content
        rng = Rng(seed)
        decks = []
        for seat in range(config.players):
            deck = [card_name(seat, v) for v in content.values]
            rng.shuffle(deck)
            decks.append(deck)
        hands = [[deck.pop()] for deck in decks]
        return SecretDrawState(rng, decks, hands, 0, 0, config.rounds, False)

    def actor(self, state: SecretDrawState) -> int | None:
        return None if state.over else state.current

    def legal_actions(self, state: SecretDrawState) -> list[Action]:
        if state.over:
            return []
        seat = state.current
        actions = []
        if state.decks[seat]:
            actions.append(DRAW)
        if len(state.hands[seat]) > 1:
            actions.extend(Action("discard", i) for i in range(len(state.hands[seat])))
        actions.append(PASS)
        return actions

    def apply(self, state: SecretDrawState, action: Action, record: bool = True) -> list[Event]:
        self.check_legal(state, action)
        seat = state.current
        events: list[Event] = []
        if action == DRAW:
            card = state.decks[seat].pop()
            state.hands[seat].append(card)
            events.append(
                Event(
                    "draw",
                    f"You drew {card}",
                    {"seat": seat, "card": card},
                    seats=frozenset({seat}),
                    public=Event("draw", f"{_player(seat)} drew a card", {"seat": seat}),
                )
            )
        elif action.kind == "discard":
            card = state.hands[seat].pop(int(action.args[0]))
            events.append(
                Event(
                    "discard",
                    f"You discarded {card}",
                    {"seat": seat, "card": card},
                    seats=frozenset({seat}),
                    public=Event("discard", f"{_player(seat)} discarded a card", {"seat": seat}),
                )
            )
        else:
            events.append(Event("pass", f"{_player(seat)} passes", {"seat": seat}))
        state.turns += 1
        state.current = (seat + 1) % len(state.hands)
        if state.turns >= state.rounds * len(state.hands):
            state.over = True
            result = self.result(state)
            assert result is not None
            events.append(Event("game-over", result.reason, result.to_json()))
        else:
            events.append(
                Event("turn", f"{_player(state.current)}'s turn", {"seat": state.current})
            )
        return events if record else []

    def view(self, state: SecretDrawState, seat: int | None) -> dict[str, Any]:
        result = self.result(state)
        return {
            "game": self.name,
            "seat": seat,
            "current": state.current,
            "turns": state.turns,
            "hand": list(state.hands[seat]) if seat is not None else None,
            "hand_counts": [len(h) for h in state.hands],
            "deck_counts": [len(d) for d in state.decks],
            "over": state.over,
            "result": result.to_json() if result else None,
        }

    def determinize(self, state: SecretDrawState, seat: int, rng: Rng) -> SecretDrawState:
        twin = state.clone()
        for other in range(len(twin.hands)):
            if other == seat:
                continue
            pool = twin.hands[other] + twin.decks[other]
            rng.shuffle(pool)
            count = len(twin.hands[other])
            twin.hands[other], twin.decks[other] = pool[:count], pool[count:]
        # Our own deck order is hidden from us too.
        rng.shuffle(twin.decks[seat])
        twin.rng = Rng(rng.next64())
        return twin

    def result(self, state: SecretDrawState) -> Result | None:
        if not state.over:
            return None
        totals = [sum(card_value(c) for c in hand) for hand in state.hands]
        best = max(totals)
        winners = tuple(s for s, t in enumerate(totals) if t == best)
        ranks = tuple(1 + sum(1 for o in totals if o > t) for t in totals)
        names = " and ".join(_player(s) for s in winners)
        return Result(
            scores=tuple(float(t) for t in totals),
            ranks=ranks,
            winners=winners,
            ending="rounds",
            reason=f"{names} wins with {best} points",
            turns=state.turns,
        )

    def clone(self, state: SecretDrawState) -> SecretDrawState:
        return state.clone()

    def label(self, state: SecretDrawState, action: Action) -> str:
        if action == DRAW:
            return "Draw a secret card"
        if action.kind == "discard":
            return f"Discard {state.hands[state.current][int(action.args[0])]}"
        return "Pass"


GAME = SecretDraw()
