"""Crits & Tricks: tricks won by dice, crits, quests and the Barkeep, for 2-4.

The protocol over `CritsAndTricksState`. A round: deal, roll every die, quests (kept in
secret, or laid out for two), the Barkeep's Challenge, then up to six tricks. A turn in a
trick: a card and an unused die, the free re-roll, up to two crits. Who takes a trick is
`tricks.winner`; what quests and the Barkeep read is `history`. Every reading the rulebook
leaves open is in RULES.md.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.errors import ConfigError, IllegalAction
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Game, Result
from tavernkeep.engine.records import shift_arguments
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import new_tally, tally_facts
from tavernkeep.games.crits_and_tricks import chances, evaluation, observer, tricks
from tavernkeep.games.crits_and_tricks.config import CritsAndTricksConfig
from tavernkeep.games.crits_and_tricks.content import (
    MERCENARIES,
    SUITS,
    CritsAndTricksPack,
    Quest,
    load,
)
from tavernkeep.games.crits_and_tricks.heuristic import HeuristicBot
from tavernkeep.games.crits_and_tricks.history import (
    Play,
    Trick,
    barkeep_winner,
    measure,
    quest_met,
)
from tavernkeep.games.crits_and_tricks.observer import Seen
from tavernkeep.games.crits_and_tricks.state import DICE, NONE, CritsAndTricksState, Current
from tavernkeep.games.crits_and_tricks.tricks import BARBARIAN, BARD, DRUID, PALADIN, ROGUE, WIZARD

__all__ = ["CritsAndTricks", "CritsAndTricksState"]

Events = list[Event] | None

QUESTS_DEALT, QUESTS_KEPT, PUBLIC_QUESTS = 4, 3, 6
CRITS_A_TURN = 2
BARD_REROLLS = 2
SUIT_WORDS = tuple(s.lower() for s in SUITS)
REROLL, KEEP, DONE = Action("reroll"), Action("keep"), Action("done")
BARKEEP_FROM_VERSION_1 = shift_arguments({"barkeep": (0,)})
LOOT_SOURCES = ("bards", "quests", "barkeep")
"""Where loot comes from, in the order of `loot_from`."""


def player(seat: int) -> str:
    return f"Player {seat + 1}"


# An action's text is what a person types, so its numbers are the ones the screen shows
# (issue 23): the Druid's crit names its target as the player's name does ("Player 2" is
# `crit:c,2`), and a Barkeep's Challenge is numbered by its place in the pack from 1, as
# the first round lists them to choose from ("Humble Pie" is `barkeep:3`). The state and
# the view count seats and challenges from 0, as positions. Card ids (no screen numbers a
# card), die sizes (d8 is 8) and the Barbarian's +/-1 to 3 are the numbers they were.


def seat_number(seat: int) -> int:
    return seat + 1


def numbered_seat(number: int) -> int:
    return number - 1


def challenge_number(challenge: int) -> int:
    return challenge + 1


def numbered_challenge(number: int) -> int:
    return number - 1


def say(ev: Events, kind: str, text: str, **data: object) -> None:
    if ev is not None:
        ev.append(Event(kind, text, dict(data)))


def quest_suits(quest: Quest) -> set[str]:
    """The suits a quest names: it is dealt only in games where all of them are in play."""
    when = quest.when
    named = {when.suit, when.led, when.crit}
    return {s for s in named if s is not None and s != "any"}


class CritsAndTricks(Game[CritsAndTricksState, CritsAndTricksConfig]):
    name = "crits-and-tricks"
    title = "Crits & Tricks"
    min_players = 2
    max_players = 4
    kind = "competitive"
    config_model = CritsAndTricksConfig
    content_dir: ClassVar[Path] = Path(__file__).parent / "content"
    summary = "trick-taking where each card's value is a die you pair with it"
    seat_facts: ClassVar[dict[str, str]] = {"quests_held": "quest held"}
    score_parts: ClassVar[dict[str, str]] = {
        "loot_from_bards": "Bards taken in tricks",
        "loot_from_quests": "quests",
        "loot_from_barkeep": "the Barkeep's Challenge",
    }
    # Quests kept are secret until scored, so only completions are counted; the quests a
    # seat held are the seat fact "quests_held", told once the game is over.
    tally_kinds: ClassVar[dict[str, str]] = {
        "quest completed": "Quests completed",
        "crit used": "Crits used",
        "trick taken": "Tricks taken, by the die that took them",
        "barkeep chosen": "Barkeep's Challenges chosen",
        "barkeep won": "Barkeep's Challenges won",
    }
    tally_rates: ClassVar[dict[str, str]] = {"barkeep won": "barkeep chosen"}

    def load_pack(self, source: str | Path | None = None) -> Pack[CritsAndTricksPack]:
        return load(source)

    def opening(self, state: CritsAndTricksState) -> list[Event]:
        events: list[Event] = []
        round_events(state, events)
        return events

    def content(self, state: CritsAndTricksState) -> CritsAndTricksPack:
        return state.content

    def tally_names(self, content: Any) -> dict[str, list[str]]:
        barkeeps = [b.name for b in content.barkeep]
        return {
            "quest completed": [q.name for q in content.quest],
            "barkeep chosen": barkeeps,
            "barkeep won": barkeeps,
        }

    def heuristic_agent(self) -> HeuristicBot:
        return HeuristicBot()

    def evaluator(self) -> Callable[[CritsAndTricksState], list[float]]:
        return evaluation.chances

    # -- setup ---------------------------------------------------------------------

    def setup(
        self, config: CritsAndTricksConfig, seed: int, pack: Pack[Any] | None = None
    ) -> CritsAndTricksState:
        content: CritsAndTricksPack = (pack or self.load_pack()).content
        n = config.players
        rng = Rng(seed)
        if config.suits:
            if len(set(config.suits)) != 3:
                raise ConfigError(
                    f"{self.title}: option 'suits' names three different suits "
                    f"(of {', '.join(s.lower() for s in MERCENARIES)})"
                )
            suits = tuple(sorted(SUIT_WORDS.index(s) for s in config.suits))
        else:
            pool = list(range(len(MERCENARIES)))
            rng.shuffle(pool)
            suits = tuple(sorted(pool[:3]))
        deck = content.deck
        copies = deck.two_player_copies if n == 2 else deck.copies
        bards = deck.two_player_bards if n == 2 else deck.bards
        card_suit = tuple([s for s in suits for _ in range(copies)] + [BARD] * bards)
        if len(card_suit) < n * deck.hand:
            raise ConfigError(
                f"{self.title}: a deck of {len(card_suit)} cards cannot deal {deck.hand} "
                f"to each of {n} players"
            )
        live = {SUITS[s] for s in (*suits, BARD)}
        st = CritsAndTricksState(
            content=content,
            playable=tuple(
                q for q, quest in enumerate(content.quest) if quest_suits(quest) <= live
            ),
            config=config,
            card_suit=card_suit,
            suits=suits,
            rng=rng,
            round=0,
            trick=0,
            deck=[],
            discard=list(range(len(card_suit))),
            hands=[[] for _ in range(n)],
            dice=[[0] * len(DICE) for _ in range(n)],
            used=[0] * n,
            leader=0,
            led=NONE,
            table=[],
            tricks=[],
            tricks_played=0,
            won=[[] for _ in range(n)],
            loot=[0] * n,
            loot_from=[[0, 0, 0] for _ in range(n)],
            quest_deck=[],
            quest_discard=[],
            quests=[[] for _ in range(1 if n == 2 else n)],
            offered=[[] for _ in range(n)],
            scored=[[] for _ in range(n)],
            held=[[] for _ in range(n)],
            barkeep=NONE,
            barkeep_used=[],
            crits_left=0,
            paladins=0,
            stack=[Decision(0, "round")],
            ending="",
            tally=new_tally(),
        )
        advance(st, None)
        return st

    # -- the protocol --------------------------------------------------------------

    def actor(self, state: CritsAndTricksState) -> int | None:
        return state.stack[-1].seat if state.stack else None

    def legal_actions(self, state: CritsAndTricksState) -> list[Action]:
        if not state.stack:
            return []
        top = state.stack[-1]
        kind = top.kind
        if kind == "play":
            return play_actions(state, top.seat)
        if kind == "crit":
            return crit_actions(state, top.seat)
        if kind == "reroll" or kind == "bard":
            return [REROLL, KEEP]
        if kind == "give_up":
            return [Action("discard", q) for q in state.offered[top.seat]]
        if kind == "barkeep":
            return [Action("barkeep", challenge_number(b)) for b in barkeep_options(state)]
        raise AssertionError(f"no decision '{kind}'")

    def apply(
        self, state: CritsAndTricksState, action: Action, record: bool = True
    ) -> list[Event]:
        if not state.stack:
            raise IllegalAction(f"'{action.text}' is not legal: the game is over")
        if not self._is_legal(state, action):
            options = ", ".join(a.text for a in self.legal_actions(state))
            raise IllegalAction(f"'{action.text}' is not legal now; choose one of: {options}")
        return self.apply_legal(state, action, record)

    def apply_legal(
        self, state: CritsAndTricksState, action: Action, record: bool = True
    ) -> list[Event]:
        # `_is_legal` was a tenth of a search's time: the search's actions come from
        # `legal_actions` of this state (Game.apply_legal).
        ev: list[Event] | None = [] if record else None
        top = state.stack.pop()
        seat = top.seat
        kind = top.kind
        if kind == "play":
            play(state, seat, action, ev)
        elif kind == "reroll":
            if action == REROLL:
                reroll_own(state, seat, "re-rolls", ev)
                state.table[-1].rerolled = True
            open_crits(state, seat)
        elif kind == "bard":
            if action == REROLL:
                reroll_own(state, seat, "re-rolls again (Bard crit)", ev)
            open_crits(state, seat)
        elif kind == "crit":
            if action == DONE:
                state.stack.append(Decision(seat, "next"))
            else:
                crit(state, seat, action, ev)
        elif kind == "give_up":
            quest = int(action.args[0])
            kept = [q for q in state.offered[seat] if q != quest]
            state.quests[seat] = kept
            state.held[seat].extend(kept)
            state.offered[seat] = []
            say(ev, "quests", f"{player(seat)} keeps {len(kept)} quests", seat=seat)
        elif kind == "barkeep":
            chosen = numbered_challenge(int(action.args[0]))
            state.barkeep = chosen
            state.barkeep_used.append(chosen)
            challenge = state.content.barkeep[chosen]
            state.tally[seat, "barkeep chosen", challenge.name] += 1
            say(
                ev,
                "barkeep",
                f"{player(seat)} chooses the Barkeep's Challenge: {challenge.name} "
                f"({challenge.text})",
                seat=seat,
                barkeep=chosen,
            )
        advance(state, ev)
        return ev if ev is not None else []

    def _is_legal(self, state: CritsAndTricksState, action: Action) -> bool:
        """`action in legal_actions(state)`, checked directly for plays: apply checks
        every action a simulation plays, and the list of plays is the longest."""
        top = state.stack[-1]
        kind = top.kind
        if kind == "crit" and action == DONE:
            return True  # ending a turn's crits is always offered
        if kind in ("reroll", "bard") and action in (REROLL, KEEP):
            return True
        if kind != "play" or action.kind != "play":
            return action in self.legal_actions(state)
        args = action.args
        if not 2 <= len(args) <= 3 or type(args[0]) is not int or type(args[1]) is not int:
            return False
        card, size = args[0], args[1]
        seat = top.seat
        hand = state.hands[seat]
        if card not in hand or size not in DICE or state.used[seat] >> DICE.index(size) & 1:
            return False
        suit = state.card_suit[card]
        # Only the first card of each suit in hand is offered (identical copies).
        if next(c for c in hand if state.card_suit[c] == suit) != card:
            return False
        leading = not state.table
        if leading and suit == BARD:
            return len(args) == 3 and args[2] in [SUIT_WORDS[s] for s in state.suits]
        if len(args) != 2:
            return False
        if leading or suit == state.led or suit == BARD:
            return True
        return not any(state.card_suit[c] in (state.led, BARD) for c in hand)

    def view(self, state: CritsAndTricksState, seat: int | None) -> dict[str, Any]:
        content = state.content

        def card(c: int) -> dict[str, Any]:
            return {"id": c, "suit": SUITS[state.card_suit[c]]}

        def quest(q: int) -> dict[str, Any]:
            info = content.quest[q]
            return {"id": q, "name": info.name, "text": info.text, "loot": info.loot}

        two = state.players == 2
        seats = []
        for s in range(state.players):
            seats.append(
                {
                    "seat": s,
                    "dice": [
                        {
                            "die": size,
                            "value": state.dice[s][i],
                            "used": bool(state.used[s] >> i & 1),
                        }
                        for i, size in enumerate(DICE)
                    ],
                    "hand_size": len(state.hands[s]),
                    "hand": [card(c) for c in state.hands[s]] if s == seat else None,
                    "quests": (
                        [quest(q) for q in state.quests[s]] if s == seat and not two else None
                    ),
                    "quests_held": 0 if two else len(state.quests[s]),
                    "scored": [quest(q) for q in state.scored[s]],
                    "loot": state.loot[s],
                    "loot_from": dict(zip(LOOT_SOURCES, state.loot_from[s], strict=True)),
                    "tricks_won": sum(1 for t in state.tricks if t.winner == s),
                }
            )
        decision: dict[str, Any] | None = None
        if state.stack:
            top = state.stack[-1]
            decision = top.to_json()
            if top.kind == "give_up" and top.seat == seat:
                decision["offered"] = [quest(q) for q in state.offered[seat]]
            if top.kind == "crit":
                decision["crits_left"] = state.crits_left
        barkeep = content.barkeep[state.barkeep] if state.barkeep != NONE else None
        result = self.result(state)
        return {
            "game": self.name,
            "seat": seat,
            "players": state.players,
            "round": state.round,
            "rounds": state.config.rounds,
            "trick": state.trick,
            "tricks_per_round": state.config.tricks,
            # Who would take the trick if it ended now (public: every card and die is).
            "winning": winning(state),
            "suits": [SUITS[s] for s in (*state.suits, BARD)],
            "leader": state.leader,
            "led": SUITS[state.led] if state.led != NONE else None,
            "table": [
                {
                    "seat": c.seat,
                    "card": card(c.card),
                    "followed": c.followed,
                    "die": DICE[c.die],
                    "value": state.dice[c.seat][c.die],
                    "rerolled": c.rerolled,
                    "crits": [SUITS[k] for k in c.crits],
                    "paladin": c.paladin != NONE,
                    "last": c.order > state.players,
                }
                for c in state.table
            ],
            "tricks": [trick_json(t) for t in state.tricks],
            "seats": seats,
            "public_quests": [quest(q) for q in state.quests[0]] if two else None,
            "barkeep": (
                {"id": state.barkeep, "name": barkeep.name, "text": barkeep.text,
                 "loot": barkeep.loot}
                if barkeep is not None
                else None
            ),
            "decision": decision,
            "deck": len(state.deck),
            "ending": state.ending or None,
            "result": result.to_json() if result else None,
        }

    def observe(self, state: CritsAndTricksState, seat: int) -> Seen:
        return observer.observe(state, seat)

    decision_kinds = ("give_up", "barkeep", "play", "reroll", "bard", "crit")

    def decision(self, state: CritsAndTricksState) -> str | None:
        return state.stack[-1].kind if state.stack else None

    def reveals(
        self, state: CritsAndTricksState, action: Action, after: CritsAndTricksState
    ) -> bool:
        # Hidden: the dice to come, the other hands, the decks and the others' quests.
        # A seat's own turn (a card played with a die, crits, keeping a roll) reads only
        # its own hand and the dice on the table; the hidden parts are read when a die is
        # rolled, a trick is taken (whose quests it completes: the others' are checked) or
        # a round is dealt, and each of those moves the stream or the tricks played.
        return (
            after.rng != state.rng
            or after.tricks_played != state.tricks_played
            or after.round != state.round
        )

    def determinize(self, state: CritsAndTricksState, seat: int, rng: Rng) -> CritsAndTricksState:
        """Re-deal what `seat` cannot see: the other hands with the undealt cards, and the
        other seats' quests (and quest offers) with the quest deck."""
        twin = state.clone()
        others = [s for s in range(twin.players) if s != seat]
        hidden = twin.deck[:]
        for s in others:
            hidden.extend(twin.hands[s])
        # Sorted before they are shuffled, here and below: the sample is a function of what
        # `seat` knows and the stream alone, never of the true order (the tutor's leak test).
        hidden.sort()
        rng.shuffle(hidden)
        for s in others:
            size = len(twin.hands[s])
            twin.hands[s] = hidden[len(hidden) - size :]
            del hidden[len(hidden) - size :]
        twin.deck = hidden
        if twin.players > 2:
            pool = twin.quest_deck[:]
            for s in others:
                pool.extend(twin.quests[s])
                pool.extend(twin.offered[s])
            pool.sort()
            rng.shuffle(pool)
            for s in others:
                for zone in (twin.quests, twin.offered):
                    size = len(zone[s])
                    zone[s] = pool[len(pool) - size :]
                    del pool[len(pool) - size :]
            twin.quest_deck = pool
        twin.rng = Rng(rng.next64())
        return twin

    def result(self, state: CritsAndTricksState) -> Result | None:
        if not state.ending:
            return None
        loot = state.loot
        best = max(loot)
        winners = tuple(s for s in range(state.players) if loot[s] == best)
        ranks = tuple(1 + sum(1 for other in loot if other > mine) for mine in loot)
        names = " and ".join(player(s) for s in winners)
        verb = "win" if len(winners) > 1 else "wins"
        return Result(
            scores=tuple(float(x) for x in loot),
            ranks=ranks,
            winners=winners,
            ending=state.ending,
            reason=f"{names} {verb} with {best} loot",
            turns=state.tricks_played,
            facts={
                "loot_from_bards": [f[0] for f in state.loot_from],
                "loot_from_quests": [f[1] for f in state.loot_from],
                "loot_from_barkeep": [f[2] for f in state.loot_from],
                "quests_scored": [len(s) for s in state.scored],
                "quests_held": [
                    sorted({state.content.quest[q].name for q in h}) for h in state.held
                ],
                "suits": [SUITS[s] for s in state.suits],
                "tally": tally_facts(state.tally, state.players, self.tally_kinds),
            },
        )

    def clone(self, state: CritsAndTricksState) -> CritsAndTricksState:
        return state.clone()

    def label(self, state: CritsAndTricksState, action: Action) -> str:
        kind, args = action.kind, action.args
        if kind == "play":
            suit = SUITS[state.card_suit[int(args[0])]]
            seat = state.stack[-1].seat
            size = int(args[1])
            value = state.dice[seat][DICE.index(size)]
            named = f" as a {str(args[2]).capitalize()}" if len(args) > 2 else ""
            note = chances.play_note(state, seat, int(args[0]), size)
            return f"Play a {suit}{named} with your d{size} ({value})" + (
                f"; {note}" if note else ""
            )
        if kind == "reroll" or kind == "keep":
            seat = state.stack[-1].seat
            mine = state.table[-1]
            die = f"d{DICE[mine.die]} ({state.dice[seat][mine.die]})"
            if kind == "reroll":
                return f"Re-roll the {die}"
            note = chances.keep_note(state, seat)
            return f"Keep the {die}" + (f"; {note}" if note else "")
        if kind == "done":
            note = chances.keep_note(state, state.stack[-1].seat)
            return "No more crits: end your turn" + (f"; {note}" if note else "")
        if kind == "discard":
            q = state.content.quest[int(args[0])]
            return f"Give up the quest {q.name}: {q.text} ({q.loot} loot)"
        if kind == "barkeep":
            # By its name alone: the list a person chooses from numbers its choices (the
            # keys 1, 2, ...), and the pack's number beside them read as another key
            # (issue 39). The action's text keeps the pack's number.
            b = state.content.barkeep[numbered_challenge(int(args[0]))]
            note = chances.barkeep_note(state, state.stack[-1].seat, b.measure)
            return f"{b.name}: {b.text} ({b.loot} loot)" + (f"; {note}" if note else "")
        if kind == "crit":
            return crit_label(state, action)
        return action.text

    def odds(self, state: CritsAndTricksState, action: Action) -> dict[str, float]:
        """The dice's chances behind a choice, from the public table (`chances`): a
        follower's card and die, a re-roll, a Druid crit, a Bard crit."""
        if not state.stack:
            return {}
        seat = state.stack[-1].seat
        kind, args = action.kind, action.args
        if kind == "play":
            return chances.play_odds(state, seat, int(args[0]), int(args[1]))
        if kind == "reroll":
            return chances.reroll_odds(state, seat)
        if kind == "crit":
            suit = state.card_suit[int(args[0])]
            if suit == DRUID:
                return chances.druid_odds(state, seat, numbered_seat(int(args[1])))
            if suit == BARD:
                return chances.reroll_odds(state, seat, twice=True)
        return {}

    def upgrade_text(self, version: int, state: CritsAndTricksState, text: str) -> str:
        """`text`, from a `version` record, as this version writes it. Version 1 counted
        the Barkeep's Challenges from 0 (`barkeep:0` is `barkeep:1` now), and its
        `crit:7,1` was a Barbarian's +1 or a Druid's crit on seat 1 (now `crit:7,2`,
        Player 2), whichever card 7 is: a card's suit comes from the setup (the suits
        drawn, the player count, the pack), so `state`, the game just before the action,
        is read (any point of the game serves: only the cards' suits are)."""
        if version >= 2:
            return text
        text = BARKEEP_FROM_VERSION_1(text)
        try:
            action = Action.parse(text)
        except IllegalAction:
            return text  # left for the replay to report by its number
        args = action.args
        if action.kind != "crit" or len(args) != 2:
            return text
        card, target = args[0], args[1]
        if not isinstance(card, int) or not isinstance(target, int):
            return text
        if not 0 <= card < len(state.card_suit) or state.card_suit[card] != DRUID:
            return text
        return Action("crit", card, seat_number(target)).text


# -- the flow of a round ------------------------------------------------------------------


def advance(st: CritsAndTricksState, ev: Events) -> None:
    """Work off the frames no one decides until a seat must decide or the game is over."""
    stack = st.stack
    while stack and not st.ending:
        kind = stack[-1].kind
        if kind == "round":
            stack.pop()
            start_round(st, ev)
        elif kind == "trick":
            stack.pop()
            start_trick(st, ev)
        elif kind == "next":
            stack.pop()
            next_turn(st, ev)
        elif kind == "crit":
            seat = stack[-1].seat
            if st.crits_left <= 0 or not st.hands[seat]:
                stack.pop()
                stack.append(Decision(seat, "next"))
            else:
                return
        else:
            return


def start_round(st: CritsAndTricksState, ev: Events) -> None:
    n = st.players
    st.round += 1
    st.trick = 1
    st.tricks = []
    content = st.content
    # Every mercenary card back, shuffled, and a hand dealt to each (RULES).
    st.deck = st.deck + st.discard + [c for h in st.hands for c in h]
    st.discard = []
    st.hands = [[] for _ in range(n)]
    st.deck.sort()
    st.rng.shuffle(st.deck)
    for s in range(n):
        st.hands[s] = [st.deck.pop() for _ in range(content.deck.hand)]
    for s in range(n):
        st.dice[s] = [st.rng.die(size) for size in DICE]
        st.used[s] = 0
    first = (st.round - 1) % n
    st.leader = first
    round_events(st, ev)
    # Quests: those not scored this game, naming only suits in play, shuffled (RULES).
    gone = {q for s in st.scored for q in s}
    playable = st.playable
    if n == 2:
        # Two players: last round's quests are discarded, six new ones come out (RULES
        # 23); only when the deck runs dry do the discarded ones come back.
        fresh = [q for q in playable if q not in gone and q not in st.quest_discard]
        if len(fresh) < PUBLIC_QUESTS:
            st.quest_discard = []
            fresh = [q for q in playable if q not in gone]
        st.quest_deck = fresh
    else:
        st.quest_deck = [q for q in playable if q not in gone]
    st.rng.shuffle(st.quest_deck)
    st.stack.append(Decision(first, "trick"))
    chooser = min((st.loot[(first + k) % n], k) for k in range(n))[1]
    st.stack.append(Decision((first + chooser) % n, "barkeep"))
    if n == 2:
        st.quests[0] = [st.quest_deck.pop() for _ in range(min(PUBLIC_QUESTS, len(st.quest_deck)))]
        say(ev, "quests", "Six quests are laid out for both players")
    else:
        for k in reversed(range(n)):
            s = (first + k) % n
            st.quests[s] = []
            st.offered[s] = [
                st.quest_deck.pop() for _ in range(min(QUESTS_DEALT, len(st.quest_deck)))
            ]
            if len(st.offered[s]) > QUESTS_KEPT:
                st.stack.append(Decision(s, "give_up"))
            else:
                st.quests[s], st.offered[s] = st.offered[s], []


def round_events(st: CritsAndTricksState, ev: Events) -> None:
    """A round begins: who leads, and every seat's dice (public)."""
    say(ev, "round", f"Round {st.round}: {player(st.leader)} leads the first trick",
        round=st.round)
    for s in range(st.players):
        values = ", ".join(f"d{size}: {v}" for size, v in zip(DICE, st.dice[s], strict=True))
        # A copy: the seat's dice change as the round goes (re-rolls, crits), and a log
        # sent later must still show this roll.
        say(ev, "dice", f"{player(s)} rolls {values}", seat=s, dice=list(st.dice[s]))


def barkeep_options(st: CritsAndTricksState) -> list[int]:
    n = st.players
    fitting = [b for b, c in enumerate(st.content.barkeep) if c.min_players <= n]
    fresh = [b for b in fitting if b not in st.barkeep_used]
    return fresh or fitting


def start_trick(st: CritsAndTricksState, ev: Events) -> None:
    n = st.players
    st.table = []
    st.led = NONE
    st.paladins = 0
    leader = next(((st.leader + k) % n for k in range(n) if st.hands[(st.leader + k) % n]), NONE)
    if leader == NONE or st.trick > st.config.tricks:
        end_round(st, ev)
        return
    st.leader = leader
    st.stack.append(Decision(leader, "play"))


def next_turn(st: CritsAndTricksState, ev: Events) -> None:
    n = st.players
    played = {c.seat for c in st.table}
    for k in range(1, n):
        s = (st.leader + k) % n
        if s not in played and st.hands[s]:
            st.stack.append(Decision(s, "play"))
            return
    take_trick(st, ev)


def play_actions(st: CritsAndTricksState, seat: int) -> list[Action]:
    hand = st.hands[seat]
    suit_of = st.card_suit
    leading = not st.table
    if not leading:
        # Follow suit when able; a Bard always follows (RULES).
        following = [c for c in hand if suit_of[c] == st.led or suit_of[c] == BARD]
        if following:
            hand = following
    firsts: dict[int, int] = {}
    for c in hand:
        firsts.setdefault(suit_of[c], c)
    used = st.used[seat]
    dice = [size for i, size in enumerate(DICE) if not used >> i & 1]
    out: list[Action] = []
    for suit, c in sorted(firsts.items()):
        for size in dice:
            if leading and suit == BARD:
                out.extend(play_of(c, size, s) for s in st.suits)
            else:
                out.append(play_of(c, size, NONE))
    return out


_PLAYS: dict[tuple[int, int, int], Action] = {}


def play_of(card: int, size: int, named: int) -> Action:
    """`play:card,size[,suit]`, built once: plays are listed at every turn of a game."""
    key = (card, size, named)
    found = _PLAYS.get(key)
    if found is None:
        if named == NONE:
            found = Action("play", card, size)
        else:
            found = Action("play", card, size, SUIT_WORDS[named])
        _PLAYS[key] = found
    return found


def play(st: CritsAndTricksState, seat: int, action: Action, ev: Events) -> None:
    card, size = int(action.args[0]), int(action.args[1])
    die = DICE.index(size)
    suit = st.card_suit[card]
    leading = not st.table
    if leading:
        st.led = SUIT_WORDS.index(str(action.args[2])) if suit == BARD else suit
    followed = leading or suit == st.led or suit == BARD
    st.hands[seat].remove(card)
    st.discard.append(card)
    st.used[seat] |= 1 << die
    st.table.append(Current(seat, card, followed, die, die, order=len(st.table)))
    value = st.dice[seat][die]
    named = f" (as a {SUITS[st.led]})" if leading and suit == BARD else ""
    say(
        ev,
        "play",
        f"{player(seat)} plays a {SUITS[suit]}{named} with the d{size}: {value}",
        seat=seat,
        card=card,
        suit=SUITS[suit],
        die=size,
        value=value,
    )
    st.crits_left = CRITS_A_TURN
    st.stack.append(Decision(seat, "reroll"))


def reroll_own(st: CritsAndTricksState, seat: int, what: str, ev: Events) -> None:
    die = st.table[-1].die
    st.dice[seat][die] = st.rng.die(DICE[die])
    value = st.dice[seat][die]
    say(ev, "reroll", f"{player(seat)} {what}: the d{DICE[die]} shows {value}", seat=seat,
        value=value)


def open_crits(st: CritsAndTricksState, seat: int) -> None:
    st.stack.append(Decision(seat, "crit"))


def crit_actions(st: CritsAndTricksState, seat: int) -> list[Action]:
    mine = st.table[-1]
    die = mine.die
    size = DICE[die]
    value = st.dice[seat][die]
    firsts: dict[int, int] = {}
    for c in st.hands[seat]:
        firsts.setdefault(st.card_suit[c], c)
    out: list[Action] = []
    for suit, c in sorted(firsts.items()):
        if suit == BARBARIAN:
            out.extend(
                Action("crit", c, d) for d in (-3, -2, -1, 1, 2, 3) if 1 <= value + d <= size
            )
        elif suit == WIZARD:
            # A die used earlier this round, with the value it shows (RULES).
            out.extend(
                Action("crit", c, DICE[i])
                for i in range(len(DICE))
                if i != die and st.used[seat] >> i & 1
            )
        elif suit == DRUID:
            out.extend(
                Action("crit", c, seat_number(other.seat))
                for other in st.table
                if other.seat != seat
            )
        else:  # Rogue, Paladin, Bard
            out.append(Action("crit", c))
    out.append(DONE)
    return out


def crit(st: CritsAndTricksState, seat: int, action: Action, ev: Events) -> None:
    card = int(action.args[0])
    suit = st.card_suit[card]
    mine = st.table[-1]
    st.hands[seat].remove(card)
    st.discard.append(card)
    st.crits_left -= 1
    mine.crits.append(suit)
    die = mine.die
    name = SUITS[suit]
    st.tally[seat, "crit used", name] += 1
    if suit == BARBARIAN:
        delta = int(action.args[1])
        st.dice[seat][die] += delta
        say(ev, "crit", f"{player(seat)}'s Barbarian crit: {delta:+d}, now "
            f"{st.dice[seat][die]}", seat=seat, suit=name)
    elif suit == ROGUE:
        mine.order = st.players + 1 + sum(len(c.crits) for c in st.table)
        say(ev, "crit", f"{player(seat)}'s Rogue crit: goes last in turn order", seat=seat,
            suit=name)
    elif suit == WIZARD:
        other = DICE.index(int(action.args[1]))
        # The die played this turn goes back unused, keeping its value; the used one takes
        # its place. A second swap frees nothing: each die is used once a round (RULES 11).
        if die == mine.played:
            st.used[seat] &= ~(1 << die)
        mine.die = other
        say(ev, "crit", f"{player(seat)}'s Wizard crit: swaps to the d{DICE[other]} "
            f"({st.dice[seat][other]})", seat=seat, suit=name)
    elif suit == DRUID:
        target = numbered_seat(int(action.args[1]))
        theirs = next(c for c in st.table if c.seat == target)
        st.dice[target][theirs.die] = st.rng.die(DICE[theirs.die])
        say(ev, "crit", f"{player(seat)}'s Druid crit: {player(target)} re-rolls the "
            f"d{DICE[theirs.die]}: {st.dice[target][theirs.die]}", seat=seat, suit=name)
    elif suit == PALADIN:
        st.paladins += 1
        mine.paladin = st.paladins
        say(ev, "crit", f"{player(seat)}'s Paladin crit: wins a tie", seat=seat, suit=name)
    else:  # Bard: a re-roll now, and one more if wanted
        reroll_own(st, seat, "re-rolls (Bard crit)", ev)
        st.stack.append(Decision(seat, "bard"))
        return
    st.stack.append(Decision(seat, "crit"))


def crit_label(st: CritsAndTricksState, action: Action) -> str:
    suit = st.card_suit[int(action.args[0])]
    seat = st.stack[-1].seat
    mine = st.table[-1]
    now = st.dice[seat][mine.die]
    arg = int(action.args[1]) if len(action.args) > 1 else 0
    if suit == BARBARIAN:
        text = f"Barbarian crit: {arg:+d} to your d{DICE[mine.die]} ({now} → {now + arg})"
    elif suit == ROGUE:
        text = "Rogue crit: go last in turn order (you win a tie on order)"
    elif suit == WIZARD:
        value = st.dice[seat][DICE.index(arg)]
        text = f"Wizard crit: swap to your used d{arg} ({value}), freeing this die"
    elif suit == DRUID:
        target = numbered_seat(arg)
        theirs = next(c for c in st.table if c.seat == target)
        shown = st.dice[target][theirs.die]
        return f"Druid crit: {player(target)} re-rolls their d{DICE[theirs.die]} ({shown})"
    elif suit == PALADIN:
        text = "Paladin crit: you win a tie"
    else:
        return f"Bard crit: re-roll your d{DICE[mine.die]} ({now}), and once more if you like"
    # A crit whose outcome is sure says who would take the trick after it.
    note = chances.crit_note(st, seat, suit, arg)
    return text + (f"; {note}" if note else "")


def take_trick(st: CritsAndTricksState, ev: Events) -> None:
    winner = tricks.winner(st.led, lays(st))
    record = Trick(
        st.trick,
        st.leader,
        SUITS[st.led],
        tuple(
            Play(
                c.seat,
                c.card,
                SUITS[st.card_suit[c.card]],
                c.followed,
                DICE[c.die],
                st.dice[c.seat][c.die],
                tuple(SUITS[k] for k in c.crits),
                c.rerolled,
            )
            for c in st.table
        ),
        winner,
    )
    st.tricks.append(record)
    st.tricks_played += 1
    taker = next(c for c in st.table if c.seat == winner)
    st.tally[winner, "trick taken", f"d{DICE[taker.die]}"] += 1
    cards = [c.card for c in st.table]
    st.won[winner].extend(cards)
    bards = sum(1 for c in cards if st.card_suit[c] == BARD)
    say(ev, "trick", f"{player(winner)} takes trick {st.trick}", seat=winner, trick=st.trick,
        die=DICE[taker.die])
    if bards:
        gain(st, winner, bards, 0)
        what = "a Bard" if bards == 1 else f"{bards} Bards"
        say(ev, "loot", f"{player(winner)} collects {what}: +{bards} loot", seat=winner)
    score_quests(st, ev)
    st.trick += 1
    st.leader = winner
    st.table = []
    st.stack.append(Decision(winner, "trick"))


def gain(st: CritsAndTricksState, seat: int, loot: int, source: int) -> None:
    st.loot[seat] += loot
    st.loot_from[seat][source] += loot


def score_quests(st: CritsAndTricksState, ev: Events) -> None:
    """Quests pay after the trick that meets them; with two players a quest both meet in
    the same trick is discarded (rulebook)."""
    quests = st.content.quest
    if st.players == 2:
        for q in st.quests[0][:]:
            met = [s for s in range(2) if quest_met(quests[q], st.tricks, s)]
            if not met:
                continue
            st.quests[0].remove(q)
            if len(met) == 2:
                st.quest_discard.append(q)
                say(ev, "quest-tied", f"Both meet {quests[q].name}: it is discarded", quest=q)
            else:
                award(st, met[0], q, ev)
        return
    for s in range(st.players):
        for q in st.quests[s][:]:
            if quest_met(quests[q], st.tricks, s):
                st.quests[s].remove(q)
                award(st, s, q, ev)


def award(st: CritsAndTricksState, seat: int, q: int, ev: Events) -> None:
    quest = st.content.quest[q]
    gain(st, seat, quest.loot, 1)
    st.scored[seat].append(q)
    st.tally[seat, "quest completed", quest.name] += 1
    if st.players == 2:
        st.held[seat].append(q)
    say(
        ev,
        "quest",
        f"{player(seat)} completes {quest.name} ({quest.text}): +{quest.loot} loot",
        seat=seat,
        quest=q,
    )


def end_round(st: CritsAndTricksState, ev: Events) -> None:
    n = st.players
    if st.barkeep != NONE:
        challenge = st.content.barkeep[st.barkeep]
        scores = [measure(challenge, st.tricks, s, len(st.hands[s])) for s in range(n)]
        winner = barkeep_winner(scores, challenge.best)
        if winner == NONE:
            say(ev, "barkeep", f"{challenge.name}: a tie, so nobody is paid", scores=scores)
        else:
            gain(st, winner, challenge.loot, 2)
            st.tally[winner, "barkeep won", challenge.name] += 1
            say(
                ev,
                "barkeep",
                f"{player(winner)} wins the Barkeep's Challenge {challenge.name}: "
                f"+{challenge.loot} loot",
                seat=winner,
                scores=scores,
            )
    st.barkeep = NONE
    # Unscored quests go back to be dealt again next round with 3-4 players (RULES 22);
    # with 2 they are discarded (RULES 23).
    if n == 2:
        st.quest_discard.extend(st.quests[0])
    st.quests = [[] for _ in st.quests]
    st.offered = [[] for _ in st.offered]
    rounds = st.config.rounds
    tied = st.loot.count(max(st.loot)) > 1
    extra = n == 2 and tied and st.round < rounds + st.config.extra_rounds
    if st.round >= rounds and not extra:
        st.ending = "tied" if tied else "most-loot"
        st.stack.clear()
        say(ev, "game-over", f"The game is over after {st.round} rounds", loot=st.loot)
        return
    if st.round >= rounds:
        say(ev, "extra-round", "A tie: another round is played")
    st.stack.append(Decision(0, "round"))


def lays(st: CritsAndTricksState) -> list[tricks.Lay]:
    return [
        tricks.Lay(
            c.seat,
            st.card_suit[c.card],
            c.followed,
            DICE[c.die],
            st.dice[c.seat][c.die],
            c.order,
            c.paladin,
        )
        for c in st.table
    ]


def winning(st: CritsAndTricksState) -> int | None:
    return tricks.winner(st.led, lays(st)) if st.table else None


def trick_json(t: Trick) -> dict[str, Any]:
    return {
        "number": t.number,
        "leader": t.leader,
        "led": t.led,
        "winner": t.winner,
        "plays": [p._asdict() for p in t.plays],
    }
