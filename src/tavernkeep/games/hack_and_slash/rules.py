"""Hack & Slash: push-your-luck questing with a guild of adventurers.

A turn is one decision, or two: choose a quest (one of three face-up cards or the Brag
at the Tavern), send that many adventurers, roll that many dice; on a failure with
adventurers left at home, choose between quitting and sending one rescuer to re-roll one
die. Every rule below cites the rulebook's own words where they decide it; readings the
rulebook leaves open are in RULES.md, not here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Derived, Pack, load_pack
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.errors import IllegalAction
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Game, Result
from tavernkeep.engine.odds import meet_chance, meet_chance_with_rescue
from tavernkeep.engine.records import shift_arguments
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import Tally, new_tally, tally_facts
from tavernkeep.games.hack_and_slash.config import HackAndSlashConfig
from tavernkeep.games.hack_and_slash.content import (
    DIE_SIDES,
    MAX_DICE,
    HackAndSlashPack,
    QuestCard,
)
from tavernkeep.games.hack_and_slash.heuristic import HeuristicBot

SLOTS = 3
"""Face-up quests beside the Brag."""
BRAG_SLOT = SLOTS
"""The Brag at the Tavern sits in its own slot and is card 0 of `state.cards`."""
EMPTY = -1

QUEST_ACTIONS = tuple(Action("quest", slot + 1) for slot in range(SLOTS))
"""`quest:1`..`quest:3`: the quests by the numbers the table shows people (the terminal's
slot column, the browser's cards from the left). A state and a view count slots from 0,
as positions in the row; the action text is what a person types, so it counts as they do."""
FROM_VERSION_1 = shift_arguments({"quest": (0,)})
"""Version-1 records counted quest slots from 0: `quest:0` was the quest shown as 1."""
BRAG = Action("brag")
QUIT = Action("quit")
RESCUE_ACTIONS = {value: Action("rescue", value) for value in range(1, DIE_SIDES + 1)}

MAX_SEATS = 6
"""HackAndSlashConfig allows at most 6 players."""
# Decision frames are immutable, so each seat's frames are built once and shared by every
# state: building a NamedTuple on every turn was a visible share of a simulation's time.
QUEST_FRAMES = tuple(Decision(seat, "quest") for seat in range(MAX_SEATS))
RESCUE_FRAMES = tuple(Decision(seat, "rescue") for seat in range(MAX_SEATS))
RESCUE_CHOICES: dict[tuple[int, ...], tuple[Action, ...]] = {}
"""Quit, then a rescue for each value showing, by the dice on the card. Filled as dice
come up (at most 6 + 36 + 216 rolls): sorting the distinct values at every failure was
a visible share of a simulation."""

ENDINGS = {
    "guild-empty": "a player began a turn with no adventurers",
    "quests-exhausted": "the quest draw pile ran out",
    "round-limit": "the round limit was reached",
}


@dataclass(slots=True)
class HackAndSlashState:
    cards: tuple[QuestCard, ...] = field(compare=False, repr=False)
    """Card 0 is the Brag; 1.. are the pack's quests. Indices are what the state holds."""
    config: HackAndSlashConfig = field(compare=False, repr=False)
    rng: Rng
    parties: list[int]
    tavern: int
    stand_ins: int
    """Tokens standing in for meeples once the Tavern ran dry (the rulebook's 'other tokens')."""
    row: list[int]
    """Face-up quests by slot; EMPTY once the draw pile can no longer refill a slot."""
    pile: list[int]
    """The draw pile, top card last."""
    score_piles: list[list[int]]
    scores: list[int]
    turns: list[int]
    current: int
    round: int
    ending: str
    """'' until an end is triggered; then the game ends when the first player is next."""
    over: bool
    slot: int
    """The slot of the quest being attempted, EMPTY between attempts."""
    on_card: int
    """Adventurers on the quest card being attempted (the rescuer included)."""
    dice: list[int]
    stack: list[Decision]
    tally: Tally

    def clone(self) -> HackAndSlashState:
        twin = HackAndSlashState.__new__(HackAndSlashState)
        twin.cards = self.cards
        twin.config = self.config
        twin.rng = self.rng.clone()
        twin.parties = self.parties[:]
        twin.tavern = self.tavern
        twin.stand_ins = self.stand_ins
        twin.row = self.row[:]
        twin.pile = self.pile[:]
        twin.score_piles = [pile[:] for pile in self.score_piles]
        twin.scores = self.scores[:]
        twin.turns = self.turns[:]
        twin.current = self.current
        twin.round = self.round
        twin.ending = self.ending
        twin.over = self.over
        twin.slot = self.slot
        twin.on_card = self.on_card
        twin.dice = self.dice[:]
        twin.stack = self.stack[:]
        twin.tally = self.tally.copy()
        return twin

    @property
    def adventurers_total(self) -> int:
        """Every meeple and stand-in: parties, the quest card and the Tavern."""
        return sum(self.parties) + self.on_card + self.tavern


Events = list[Event] | None


def _player(seat: int) -> str:
    return f"Player {seat + 1}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def meets(total: int, card: QuestCard) -> bool:
    return total == card.goal if card.exact else total >= card.goal


def card_face(card: QuestCard) -> dict[str, Any]:
    """A card as a view shows it."""
    return {
        "name": card.name,
        "challenge": card.challenge,
        "goal": card.goal,
        "exact": card.exact,
        "goal_text": card.goal_text,
        "reward": card.reward,
        "adventurer": card.adventurer,
    }


CARDS: Derived[HackAndSlashPack, tuple[QuestCard, ...]] = Derived(
    lambda content: (content.brag.as_quest(), *content.quest)
)
"""A pack's cards: card 0 is the Brag as a quest, then the pack's quests. Simulations set
up thousands of games on one pack, and building the Brag's QuestCard validates a pydantic
model; cards are frozen, so every state of a pack shares one tuple."""
FACES: Derived[tuple[QuestCard, ...], list[dict[str, Any]]] = Derived(
    lambda cards: [card_face(card) for card in cards]
)
"""Each card's face, built once a pack: a view shows five, and the RL adapter builds a
view at every step. A view copies the faces it shows."""


class HackAndSlash(Game[HackAndSlashState, HackAndSlashConfig]):
    name = "hack-and-slash"
    title = "Hack & Slash"
    min_players = 3
    max_players = 6
    kind = "competitive"
    # Only the draw pile's order and the dice to come are hidden, from everyone alike.
    secrets_shared = True
    config_model = HackAndSlashConfig
    content_dir: ClassVar[Path] = Path(__file__).parent / "content"
    summary = "push-your-luck quest dice"
    players_note = "2 with the Two players variant"
    players_variant = "two_player"
    tally_kinds: ClassVar[dict[str, str]] = {
        "quest attempted": "Quests attempted",
        "quest completed": "Quests completed",
        "rescue sent": "Rescues sent",
        "rescue succeeded": "Rescues that saved the quest",
    }
    tally_rates: ClassVar[dict[str, str]] = {
        "quest completed": "quest attempted",
        "rescue succeeded": "rescue sent",
    }

    def tally_names(self, content: Any) -> dict[str, list[str]]:
        quests = [content.brag.name, *(q.name for q in content.quest)]
        return {kind: quests for kind in self.tally_kinds}

    def heuristic_agent(self) -> HeuristicBot:
        return HeuristicBot()

    def load_pack(self, source: str | Path | None = None) -> Pack[HackAndSlashPack]:
        return load_pack(self.name, HackAndSlashPack, source, self.content_dir)

    # -- setup ---------------------------------------------------------------------

    def setup(
        self, config: HackAndSlashConfig, seed: int, pack: Pack[Any] | None = None
    ) -> HackAndSlashState:
        content: HackAndSlashPack = (pack or self.load_pack()).content
        n = config.players
        assert n <= MAX_SEATS, "raise MAX_SEATS with the player limit"
        rng = Rng(seed)
        cards = CARDS(content)
        pile = list(range(1, len(cards)))
        rng.shuffle(pile)
        row = [pile.pop() for _ in range(SLOTS)]
        in_guilds = n * config.adventurers
        state = HackAndSlashState(
            cards=cards,
            config=config,
            rng=rng,
            parties=[config.adventurers] * n,
            tavern=max(0, config.box - in_guilds),
            stand_ins=max(0, in_guilds - config.box),
            row=row,
            pile=pile,
            score_piles=[[] for _ in range(n)],
            scores=[0] * n,
            turns=[0] * n,
            current=0,
            round=1,
            ending="",
            over=False,
            slot=EMPTY,
            on_card=0,
            dice=[],
            stack=[],
            tally=new_tally(),
        )
        self._start_turn(state, None)
        return state

    # -- the protocol --------------------------------------------------------------

    def actor(self, state: HackAndSlashState) -> int | None:
        stack = state.stack
        return stack[-1].seat if stack else None

    def legal_actions(self, state: HackAndSlashState) -> list[Action]:
        stack = state.stack
        if not stack:
            return []
        if stack[-1].kind == "rescue":
            dice = tuple(state.dice)
            choices = RESCUE_CHOICES.get(dice)
            if choices is None:
                choices = (QUIT, *[RESCUE_ACTIONS[v] for v in sorted(set(dice))])
                RESCUE_CHOICES[dice] = choices
            return list(choices)
        party = state.parties[state.current]
        row = state.row
        if party >= MAX_DICE and EMPTY not in row:
            # No card asks for more than MAX_DICE adventurers (the pack schema sees to it),
            # so this common case needs no card looked at.
            return [*QUEST_ACTIONS, BRAG]
        cards = state.cards
        actions = []
        # A plain loop: for three slots it is faster than a comprehension.
        for slot in range(SLOTS):
            card = row[slot]
            if card != EMPTY and cards[card].challenge <= party:
                actions.append(QUEST_ACTIONS[slot])
        if cards[0].challenge <= party:
            actions.append(BRAG)
        return actions

    def apply(
        self, state: HackAndSlashState, action: Action, record: bool = True
    ) -> list[Event]:
        stack = state.stack
        if not stack:
            raise IllegalAction(f"'{action.text}' is not legal: the game is over")
        ev: Events = [] if record else None
        if stack[-1].kind == "quest":
            self._attempt(state, self._chosen_slot(state, action), ev)
        elif action.kind == "quit" and not action.args:
            if ev is not None:
                ev.append(self._quit_event(state, "quit in shame"))
            self._quit(state, ev)
        elif action.kind == "rescue" and len(action.args) == 1 and action.args[0] in state.dice:
            self._rescue(state, int(action.args[0]), ev)
        else:
            raise IllegalAction(
                f"'{action.text}' is not legal now: quit, or rescue by re-rolling one of "
                f"the dice showing {', '.join(str(d) for d in sorted(set(state.dice)))}"
            )
        return ev if ev is not None else []

    def view(self, state: HackAndSlashState, seat: int | None) -> dict[str, Any]:
        return self._view(state, seat, True)

    def observe(self, state: HackAndSlashState, seat: int) -> dict[str, Any]:
        """The view as the heuristic bot reads it: the decision, the quests, the parties
        and the attempt, the cards' faces shared rather than copied (the bot only reads
        them), and nothing else: no score piles, no result."""
        return self._view(state, seat, False)

    def _view(self, state: HackAndSlashState, seat: int | None, whole: bool) -> dict[str, Any]:
        cards = state.cards
        faces = FACES(cards)
        attempt = None
        if state.slot != EMPTY:
            card = self._slot_card(state, state.slot)
            attempt = {
                "seat": state.current,
                "slot": state.slot,
                # Copies, so that a caller changing a view never changes the next one.
                "quest": dict(faces[card]) if whole else faces[card],
                "adventurers": state.on_card,
                "dice": list(state.dice),
                "total": sum(state.dice),
            }
        top = state.stack[-1] if state.stack else None
        if not whole:
            return {
                "seat": seat,
                "decision": {"kind": top.kind, "seat": top.seat} if top else None,
                "brag": faces[0],
                "quests": [None if card == EMPTY else faces[card] for card in state.row],
                "parties": list(state.parties),
                "attempt": attempt,
                "ending": state.ending or None,
            }
        result = self.result(state)
        return {
            "game": self.name,
            "seat": seat,
            "players": len(state.parties),
            "current": state.current,
            "round": state.round,
            "decision": top.to_json() if top else None,
            "brag": dict(faces[0]),
            "quests": [None if card == EMPTY else dict(faces[card]) for card in state.row],
            "draw_pile": len(state.pile),
            "parties": list(state.parties),
            "tavern": state.tavern,
            "stand_ins": state.stand_ins,
            "scores": list(state.scores),
            "score_piles": [[cards[c].name for c in pile] for pile in state.score_piles],
            "turns": list(state.turns),
            "attempt": attempt,
            "ending": state.ending or None,
            "over": state.over,
            "result": result.to_json() if result else None,
        }

    decision_kinds = ("quest", "rescue")

    def decision(self, state: HackAndSlashState) -> str | None:
        return state.stack[-1].kind if state.stack else None

    def reveals(
        self, state: HackAndSlashState, action: Action, after: HackAndSlashState
    ) -> bool:
        # Hidden: the dice to come and the draw pile's order, which the rules only ever
        # draw from the top. A decision that rolled or drew moved one of them; one that
        # did neither ran on what every seat sees.
        return after.rng != state.rng or after.pile != state.pile

    def determinize(self, state: HackAndSlashState, seat: int, rng: Rng) -> HackAndSlashState:
        # Only the order of the draw pile and the dice to come are hidden. The pile is
        # sorted before it is shuffled, so the sample is a function of what the seat knows
        # and the stream alone, never of the true order (engine/game.py, `determinize`).
        twin = state.clone()
        twin.pile.sort()
        rng.shuffle(twin.pile)
        twin.rng = Rng(rng.next64())
        return twin

    def result(self, state: HackAndSlashState) -> Result | None:
        if not state.over:
            return None
        # Highest score wins; ties go to the most adventurers; still tied, they share.
        keys = list(zip(state.scores, state.parties, strict=True))
        ranked = sorted(keys, reverse=True)
        best = ranked[0]
        winners = tuple([s for s, key in enumerate(keys) if key == best])
        # A seat's rank is 1 + the number of seats strictly ahead of it, which is where
        # its key first appears in the ranking.
        ranks = tuple([ranked.index(key) + 1 for key in keys])
        names = " and ".join([_player(s) for s in winners])
        points = _plural(best[0], "point")
        if len(winners) == 1:
            reason = f"{names} wins with {points}"
        else:
            reason = (
                f"{names} share the victory with {points} and "
                f"{_plural(best[1], 'adventurer')}"
            )
        return Result(
            scores=tuple(map(float, state.scores)),
            ranks=ranks,
            winners=winners,
            ending=state.ending,
            reason=f"{reason}; the game ended because {ENDINGS[state.ending]}",
            turns=sum(state.turns),
            facts={
                "rounds": state.turns[0],
                "quests_completed": sum(map(len, state.score_piles)),
                "adventurers": list(state.parties),
                "stand_ins": state.stand_ins,
                "tally": tally_facts(state.tally, len(state.parties), self.tally_kinds),
            },
        )

    def clone(self, state: HackAndSlashState) -> HackAndSlashState:
        return state.clone()

    def upgrade_text(self, version: int, state: HackAndSlashState, text: str) -> str:
        return FROM_VERSION_1(text) if version < 2 else text

    def label(self, state: HackAndSlashState, action: Action) -> str:
        if action.kind == "quest" or action.kind == "brag":
            slot = BRAG_SLOT if action.kind == "brag" else int(action.args[0]) - 1
            card = state.cards[self._slot_card(state, slot)]
            send = f"send {_plural(card.challenge, 'adventurer')}, roll {card.goal_text}"
            if slot == BRAG_SLOT:
                return f"{card.name}: {send} to gain an adventurer (never scored)"
            prize = _plural(card.reward, "point")
            if card.adventurer:
                prize += " and an adventurer"
            return f"{card.name}: {send} for {prize}"
        if action.kind == "quit":
            return f"Quit in shame: {_plural(state.on_card, 'adventurer')} go to the Tavern"
        if action.kind == "rescue":
            return f"Rescue: commit one more adventurer and re-roll a {action.args[0]}"
        return action.text

    def odds(self, state: HackAndSlashState, action: Action) -> dict[str, float]:
        if action.kind == "quest" or action.kind == "brag":
            slot = BRAG_SLOT if action.kind == "brag" else int(action.args[0]) - 1
            card = state.cards[self._slot_card(state, slot)]
            chances = {"success": meet_chance(card.challenge, card.goal, card.exact)}
            if state.parties[state.current] > card.challenge:
                chances["with rescue"] = meet_chance_with_rescue(
                    card.challenge, card.goal, card.exact
                )
            return chances
        if action.kind == "rescue" and state.slot != EMPTY:
            card = state.cards[self._slot_card(state, state.slot)]
            rest = sum(state.dice) - int(action.args[0])
            hits = sum(1 for face in range(1, DIE_SIDES + 1) if meets(rest + face, card))
            return {"success": hits / DIE_SIDES}
        return {}

    # -- the rules -----------------------------------------------------------------

    @staticmethod
    def _slot_card(state: HackAndSlashState, slot: int) -> int:
        return 0 if slot == BRAG_SLOT else state.row[slot]

    def _chosen_slot(self, state: HackAndSlashState, action: Action) -> int:
        """The slot a 'quest' decision names, checked before anything changes."""
        party = state.parties[state.current]
        kind, args = action.kind, action.args
        if kind == "quest" and len(args) == 1 and type(args[0]) is int and 1 <= args[0] <= SLOTS:
            slot = args[0] - 1
            card_index = state.row[slot]
            if card_index == EMPTY:
                raise IllegalAction(f"'{action.text}' is not legal: quest slot {args[0]} is empty")
        elif kind == "brag" and not args:
            slot = BRAG_SLOT
            card_index = 0
        else:
            raise IllegalAction(
                f"'{action.text}' is not legal now: choose a quest (quest:1-{SLOTS}) or brag"
            )
        card = state.cards[card_index]
        if card.challenge > party:
            raise IllegalAction(
                f"'{action.text}' is not legal: {card.name} needs "
                f"{_plural(card.challenge, 'adventurer')} and the party has {party}"
            )
        return slot

    def _attempt(self, state: HackAndSlashState, slot: int, ev: Events) -> None:
        seat = state.current
        card = state.cards[0 if slot == BRAG_SLOT else state.row[slot]]
        sent = card.challenge
        state.parties[seat] -= sent
        state.on_card = sent
        state.slot = slot
        state.dice = dice = state.rng.dice(sent, DIE_SIDES)
        total = sum(dice)
        success = total == card.goal if card.exact else total >= card.goal  # meets(), inline
        state.tally[seat, "quest attempted", card.name] += 1
        if ev is not None:
            ev.append(
                Event(
                    "quest",
                    f"{_player(seat)} sends {_plural(card.challenge, 'adventurer')} on "
                    f"{card.name} ({card.goal_text})",
                    {"seat": seat, "slot": slot, "quest": card.name},
                )
            )
            ev.append(self._roll_event(seat, dice, card, success))
        if success:
            self._succeed(state, ev)
        elif state.parties[seat] > 0:
            state.stack[-1] = RESCUE_FRAMES[seat]
        else:
            # No one is left at home to send as a rescuer, so the only choice is to quit.
            if ev is not None:
                ev.append(self._quit_event(state, "must quit: no one is left to rescue them"))
            self._quit(state, ev)

    def _rescue(self, state: HackAndSlashState, value: int, ev: Events) -> None:
        seat = state.current
        slot = state.slot
        card = state.cards[0 if slot == BRAG_SLOT else state.row[slot]]
        state.parties[seat] -= 1
        state.on_card += 1
        dice = state.dice
        index = dice.index(value)
        dice[index] = state.rng.die(DIE_SIDES)
        total = sum(dice)
        success = total == card.goal if card.exact else total >= card.goal  # meets(), inline
        state.tally[seat, "rescue sent", card.name] += 1
        if success:
            state.tally[seat, "rescue succeeded", card.name] += 1
        if ev is not None:
            ev.append(
                Event(
                    "rescue",
                    f"{_player(seat)} sends a rescuer and re-rolls a {value}: {dice[index]}",
                    {"seat": seat, "old": value, "new": dice[index]},
                )
            )
            ev.append(self._roll_event(seat, dice, card, success))
        if success:
            self._succeed(state, ev)
        else:
            if ev is not None:
                ev.append(self._quit_event(state, "failed again and quit, rescuer and all"))
            self._quit(state, ev)

    def _succeed(self, state: HackAndSlashState, ev: Events) -> None:
        seat = state.current
        slot = state.slot
        card_index = 0 if slot == BRAG_SLOT else state.row[slot]
        card = state.cards[card_index]
        state.parties[seat] += state.on_card
        state.on_card = 0
        # The Brag counts too, though never scored: how often it pays is worth seeing.
        state.tally[seat, "quest completed", card.name] += 1
        if card.adventurer:
            self._gain_adventurer(state, seat, ev)
        if slot != BRAG_SLOT:
            # The Brag is never taken; any other quest goes to the score pile.
            state.score_piles[seat].append(card_index)
            state.scores[seat] += card.reward
            if ev is not None:
                ev.append(
                    Event(
                        "score",
                        f"{_player(seat)} completes {card.name} for "
                        f"{_plural(card.reward, 'point')}",
                        {"seat": seat, "quest": card.name, "reward": card.reward},
                    )
                )
            if state.pile:
                state.row[slot] = new = state.pile.pop()
                if ev is not None:
                    ev.append(
                        Event(
                            "reveal",
                            f"A new quest is revealed: {state.cards[new].name}",
                            {"slot": slot, "quest": state.cards[new].name},
                        )
                    )
            else:
                state.row[slot] = EMPTY
                self._trigger_end(state, "quests-exhausted", ev)
        self._end_turn(state, ev)

    def _gain_adventurer(self, state: HackAndSlashState, seat: int, ev: Events) -> None:
        if state.tavern > 0:
            state.tavern -= 1
        elif state.config.empty_tavern == "stand-in":
            state.stand_ins += 1
        else:
            if ev is not None:
                ev.append(
                    Event(
                        "no-gain",
                        f"The Tavern is empty: {_player(seat)} gains no adventurer",
                        {"seat": seat},
                    )
                )
            return
        state.parties[seat] += 1
        if ev is not None:
            ev.append(
                Event("gain", f"{_player(seat)} gains an adventurer", {"seat": seat})
            )

    def _quit(self, state: HackAndSlashState, ev: Events) -> None:
        state.tavern += state.on_card
        state.on_card = 0
        self._end_turn(state, ev)

    def _quit_event(self, state: HackAndSlashState, how: str) -> Event:
        seat = state.current
        return Event(
            "quit",
            f"{_player(seat)}'s {_plural(state.on_card, 'adventurer')} {how}: "
            "they go to the Tavern",
            {"seat": seat, "adventurers": state.on_card},
        )

    @staticmethod
    def _roll_event(seat: int, dice: list[int], card: QuestCard, success: bool) -> Event:
        total = sum(dice)
        # "rolled 3+5 = 8", but one die is "rolled 4", not "rolled 4 = 4".
        shown = "+".join(str(d) for d in dice) + (f" = {total}" if len(dice) > 1 else "")
        outcome = "success" if success else "failure"
        return Event(
            "roll",
            f"{_player(seat)} rolled {shown} against {card.goal_text}: {outcome}",
            {"seat": seat, "dice": list(dice), "total": total, "success": success},
        )

    def _trigger_end(self, state: HackAndSlashState, ending: str, ev: Events) -> None:
        if state.ending:
            return
        state.ending = ending
        if ev is not None:
            ev.append(
                Event(
                    "end-triggered",
                    f"The end is near: {ENDINGS[ending]}; the game ends when "
                    f"{_player(0)} would take the next turn",
                    {"ending": ending},
                )
            )

    @staticmethod
    def _cheapest(state: HackAndSlashState) -> int:
        """The fewest adventurers any face-up quest (the Brag included) needs."""
        cards = state.cards
        return min([cards[0].challenge] + [cards[c].challenge for c in state.row if c != EMPTY])

    def _end_turn(self, state: HackAndSlashState, ev: Events) -> None:
        """Pass the dice to the left and begin that seat's turn, unless the game is over."""
        state.stack.pop()
        state.slot = EMPTY
        state.dice = []
        seat = state.current + 1
        parties = state.parties
        if ev is None and seat < len(parties) and parties[seat] >= state.cards[0].challenge:
            # The common case written out, as _next_seat and _start_turn would play it
            # without their calls: the round goes on, the next seat can afford the Brag
            # (so it has a quest to take) and no events are wanted. Simulations come
            # here some twenty times a game.
            state.current = seat
            state.turns[seat] += 1
            state.stack.append(QUEST_FRAMES[seat])
            return
        self._next_seat(state, ev)
        if not state.over:
            self._start_turn(state, ev)

    def _next_seat(self, state: HackAndSlashState, ev: Events) -> None:
        n = len(state.parties)
        state.current = (state.current + 1) % n
        if state.current != 0:
            return
        # The first player would take their next turn: every player has had equal turns.
        if not state.ending:
            limit = state.config.round_limit
            if limit and state.round >= limit:
                self._trigger_end(state, "round-limit", ev)
        if state.ending:
            state.over = True
            if ev is not None:
                result = self.result(state)
                assert result is not None
                ev.append(Event("game-over", result.reason, result.to_json()))
        else:
            state.round += 1

    def _start_turn(self, state: HackAndSlashState, ev: Events) -> None:
        """Begin the current seat's turn, passing for any seat that cannot quest."""
        brag = state.cards[0].challenge
        while True:
            seat = state.current
            state.turns[seat] += 1
            party = state.parties[seat]
            # The Brag is always face-up, so a party that can take it need not search the
            # row: the cheapest quest is never dearer than the Brag.
            if ev is not None:
                # A passed turn is a turn of this round too: heading it keeps the log's
                # last round the round the table (and the result) shows at the end.
                ev.append(
                    Event(
                        "turn",
                        f"{_player(seat)}'s turn (round {state.round})",
                        {"seat": seat, "round": state.round},
                    )
                )
            if party >= brag or party >= self._cheapest(state):
                state.stack.append(QUEST_FRAMES[seat])
                return
            # "If you have no meeples at the start of your turn, you must pass."
            if ev is not None:
                why = "no adventurers" if party == 0 else "too few adventurers for any quest"
                ev.append(
                    Event("pass", f"{_player(seat)} has {why} and must pass", {"seat": seat})
                )
            self._trigger_end(state, "guild-empty", ev)
            self._next_seat(state, ev)
            if state.over:
                return
