"""Thousands of random games of Crits & Tricks, with the invariants checked after every action.

Games vary the player count (2-4) and the options of RULES.md: the suits in play (random
or fixed), shorter rounds and games, and the two-player extra rounds. Each action is a
uniformly random legal one, so crits, Wizard swaps, empty hands and passed leads all
happen. A `Ledger` follows the game from the outside (the actions taken and the events
told) and every check compares the state with it: which dice each seat has used this
round, what each seat held when it played, and what loot was announced.
"""

from __future__ import annotations

import pickle
from collections import Counter
from typing import Any

import pytest

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.events import Event
from tavernkeep.engine.match import Match
from tavernkeep.engine.records import parse_record, replay
from tavernkeep.engine.rng import Rng, derive_seed
from tavernkeep.games.crits_and_tricks import GAME, CritsAndTricksState
from tavernkeep.games.crits_and_tricks.content import SUITS

GAMES = 2000
MAX_ACTIONS = 5_000
PACK = GAME.load_pack()
SIZES = (4, 6, 8, 10, 12, 20)
WIZARD, BARD = 2, 5
WORDS = ("barbarian", "rogue", "wizard", "druid", "paladin")


def options_for(rng: Rng) -> dict[str, Any]:
    players = 2 + rng.below(3)
    options: dict[str, Any] = {"players": players}
    if rng.below(3) == 0:
        suits = list(WORDS)
        rng.shuffle(suits)
        options["suits"] = suits[:3]
    if rng.below(4) == 0:
        options["tricks"] = 1 + rng.below(6)
    if rng.below(4) == 0:
        options["rounds"] = 1 + rng.below(4)
    if players == 2 and rng.below(3) == 0:
        options["extra_rounds"] = rng.below(4)
    return options


class Ledger:
    """What an onlooker who sees every action and event knows of the game so far."""

    def __init__(self, st: CritsAndTricksState) -> None:
        n = st.players
        self.used: list[set[int]] = [set() for _ in range(n)]
        self.turn_die = [0] * n
        """The die each seat played on its latest turn."""
        self.trick_cards: list[int] = []
        self.plays: list[tuple[int, int, int, bool, bool]] = []
        """This trick's plays: (seat, card, led suit, held a led card or Bard, leading)."""
        self.round_plays: dict[int, list[tuple[int, int, int, bool, bool]]] = {}
        """This round's finished tricks' plays, by trick number."""
        self.checked: set[int] = set()
        self.loot = [[0, 0, 0] for _ in range(n)]
        self.scored: list[list[int]] = [[] for _ in range(n)]
        self.barkeep = -1
        self.barkeeps_chosen: list[int] = []
        self.cards_taken = 0

    def before(self, st: CritsAndTricksState, action: Action) -> None:
        """Note what the action is about to do, checking it against the rules."""
        seat = st.stack[-1].seat
        if action.kind == "play":
            card, size = int(action.args[0]), int(action.args[1])
            assert size not in self.used[seat], f"the d{size} was used twice this round"
            self.used[seat].add(size)
            self.turn_die[seat] = size
            suit = st.card_suit[card]
            leading = not st.table
            hand = st.hands[seat]
            if leading:
                led = WORDS.index(str(action.args[2])) if suit == BARD else suit
                assert led != BARD and led in st.suits
                could = True
            else:
                led = st.led
                could = any(st.card_suit[c] in (led, BARD) for c in hand)
                if could:
                    assert suit in (led, BARD), "a seat that could follow suit did not"
            self.plays.append((seat, card, led, could, leading))
            self.trick_cards.append(card)
        elif action.kind == "crit" and st.card_suit[int(action.args[0])] == WIZARD:
            mine = st.table[-1]
            current, taken = SIZES[mine.die], int(action.args[1])
            assert current in self.used[seat] and taken in self.used[seat] and taken != current
            # Only the die played this turn comes back: a second swap frees nothing, so
            # no die is used twice in a round (RULES 11).
            if current == self.turn_die[seat]:
                self.used[seat].discard(current)

    def after(self, st: CritsAndTricksState, events: list[Event]) -> None:
        content = st.content
        for event in events:
            data = event.data
            if event.kind == "round":
                self.used = [set() for _ in range(st.players)]
                self.round_plays = {}
                self.checked = set()
            elif event.kind == "trick":
                winner = int(data["seat"])
                bards = sum(1 for c in self.trick_cards if st.card_suit[c] == BARD)
                self.loot[winner][0] += bards
                self.cards_taken += len(self.trick_cards)
                self.round_plays[int(data["trick"])] = self.plays
                self.trick_cards, self.plays = [], []
            elif event.kind == "quest":
                seat, q = int(data["seat"]), int(data["quest"])
                self.loot[seat][1] += content.quest[q].loot
                self.scored[seat].append(q)
            elif event.kind == "barkeep" and "barkeep" in data:
                chosen = int(data["barkeep"])
                fitting = [b for b, c in enumerate(content.barkeep) if c.min_players <= st.players]
                assert chosen in fitting
                fresh = [b for b in fitting if b not in self.barkeeps_chosen]
                assert chosen in (fresh or fitting), "a used Barkeep's Challenge came back"
                self.barkeep = chosen
                self.barkeeps_chosen.append(chosen)
            elif event.kind == "barkeep" and "seat" in data:
                self.loot[int(data["seat"])][2] += content.barkeep[self.barkeep].loot


def check(st: CritsAndTricksState, ledger: Ledger) -> None:
    n = st.players
    cards = len(st.card_suit)
    # Every card in exactly one zone; `won` only records what was taken.
    zones = Counter(st.deck + st.discard)
    for hand in st.hands:
        zones.update(hand)
    assert zones == Counter(range(cards)), "a card is in no zone or in two"
    assert len(st.hands[0]) <= st.content.deck.hand
    assert sum(len(w) for w in st.won) == ledger.cards_taken
    assert {c.card for c in st.table} <= set(st.discard)
    # Dice: what each seat has used this round, swaps included.
    for s in range(n):
        mask = {size for i, size in enumerate(SIZES) if st.used[s] >> i & 1}
        assert mask == ledger.used[s], f"seat {s} used {mask}, the ledger says {ledger.used[s]}"
        shown = {p.die for t in st.tricks for p in t.plays if p.seat == s}
        shown |= {SIZES[c.die] for c in st.table if c.seat == s}
        assert mask <= shown, "a die is marked used that no card of this round shows"
        assert all(1 <= v <= size for v, size in zip(st.dice[s], SIZES, strict=True))
    # Follow suit in every finished trick of the round, from what the seat held then.
    for trick in st.tricks:
        if trick.number in ledger.checked:
            continue
        noted = ledger.round_plays[trick.number]
        assert [(p.seat, p.card) for p in trick.plays] == [(s, c) for s, c, *_ in noted]
        for play, (_, _, led, could, leading) in zip(trick.plays, noted, strict=True):
            assert SUITS[led] == trick.led
            suit = SUITS.index(play.suit)
            assert play.followed == (leading or suit in (led, BARD))
            if could:
                assert play.followed, "a seat that could follow suit did not"
        assert any(p.seat == trick.winner and p.followed for p in trick.plays)
        ledger.checked.add(trick.number)
    # Loot: the parts add up, and each part is what the events paid.
    for s in range(n):
        assert sum(st.loot_from[s]) == st.loot[s]
        assert st.loot_from[s] == ledger.loot[s], f"seat {s}: {st.loot_from[s]} vs {ledger.loot[s]}"
        assert st.scored[s] == ledger.scored[s]
    scored = [q for s in st.scored for q in s]
    assert len(scored) == len(set(scored)), "a quest was scored twice in one game"
    # Who decides, and that they have something to decide.
    actor = GAME.actor(st)
    if st.ending:
        assert actor is None and not st.stack and GAME.legal_actions(st) == []
        return
    assert actor is not None
    actions = GAME.legal_actions(st)
    assert actions, "a seat is asked with nothing to choose"
    kind = st.stack[-1].kind
    if kind == "play":
        assert st.hands[actor], "a seat with an empty hand is asked to play"
        assert all(c.seat != actor for c in st.table)
        assert (actor == st.leader) == (not st.table)
    elif kind == "crit":
        assert st.hands[actor] and st.crits_left > 0
        assert st.table[-1].seat == actor and len(st.table[-1].crits) < 2
    elif kind in ("reroll", "bard"):
        assert st.table[-1].seat == actor
        assert actions == [Action("reroll"), Action("keep")]
    elif kind == "give_up":
        assert n > 2 and len(st.offered[actor]) == 4
    else:
        assert kind == "barkeep"


def check_view(st: CritsAndTricksState, seat: int | None) -> None:
    view = GAME.view(st, seat)
    two = st.players == 2
    hidden_cards = {c for s, hand in enumerate(st.hands) if s != seat for c in hand}
    hidden_quests = set()
    if not two:
        for s in range(st.players):
            if s != seat:
                hidden_quests |= set(st.quests[s]) | set(st.offered[s])
    seen_cards = {entry["card"]["id"] for entry in view["table"]}
    seen_cards |= {p["card"] for t in view["tricks"] for p in t["plays"]}
    seen_quests = {q["id"] for entry in view["seats"] for q in entry["scored"]}
    for entry in view["seats"]:
        s = entry["seat"]
        assert entry["hand_size"] == len(st.hands[s])
        if s == seat:
            assert [c["id"] for c in entry["hand"]] == st.hands[s]
            seen_cards |= {c["id"] for c in entry["hand"]}
            if not two:
                assert [q["id"] for q in entry["quests"]] == st.quests[s]
                seen_quests |= {q["id"] for q in entry["quests"]}
        else:
            assert entry["hand"] is None and entry["quests"] is None
        assert [d["value"] for d in entry["dice"]] == st.dice[s]
    decision = view["decision"] or {}
    if "offered" in decision:
        assert decision["seat"] == seat
        seen_quests |= {q["id"] for q in decision["offered"]}
    if view["public_quests"] is not None:
        seen_quests |= {q["id"] for q in view["public_quests"]}
    assert not seen_cards & hidden_cards, "a view shows a card of another seat's hand"
    assert not seen_quests & hidden_quests, "a view shows another seat's private quest"


def play_one(seed: int) -> tuple[int, str]:
    rng = Rng(derive_seed(seed, "crits-and-tricks-property"))
    options = options_for(rng)
    config = GAME.make_config(options)
    st = GAME.setup(config, seed, PACK)
    ledger = Ledger(st)
    ledger.after(st, [Event("round", "")])
    check(st, ledger)
    for _ in range(MAX_ACTIONS):
        if GAME.actor(st) is None:
            break
        viewer = rng.below(st.players + 1)
        check_view(st, viewer if viewer < st.players else None)
        actions = GAME.legal_actions(st)
        action = actions[rng.below(len(actions))]
        private = st.stack[-1].kind == "give_up"
        ledger.before(st, action)
        events = GAME.apply(st, action)
        if private:
            # Giving up a quest tells nobody which one.
            assert all(set(e.data) <= {"seat"} for e in events if e.seats is None)
        ledger.after(st, events)
        check(st, ledger)
    else:
        raise AssertionError(f"seed {seed}: no end after {MAX_ACTIONS} actions")
    result = GAME.result(st)
    assert result is not None
    best = max(st.loot)
    assert result.winners == tuple(s for s in range(st.players) if st.loot[s] == best)
    tied = len(result.winners) > 1
    assert result.ending == ("tied" if tied else "most-loot")
    if st.players == 2 and tied:
        assert st.round == config.rounds + config.extra_rounds
    elif st.players == 2:
        assert config.rounds <= st.round <= config.rounds + config.extra_rounds
    else:
        assert st.round == config.rounds
    return st.players, result.ending


@pytest.mark.parametrize("block", range(4))
def test_random_games_keep_every_invariant(block: int) -> None:
    players: Counter[int] = Counter()
    endings: Counter[str] = Counter()
    for seed in range(block * GAMES // 4, (block + 1) * GAMES // 4):
        n, ending = play_one(seed)
        players[n] += 1
        endings[ending] += 1
    assert set(players) == {2, 3, 4}
    assert endings["most-loot"] and endings["tied"]


def random_state(seed: int, rng: Rng) -> CritsAndTricksState:
    st = GAME.setup(GAME.make_config({"players": 2 + seed % 3}), seed, PACK)
    for _ in range(rng.below(200)):
        if GAME.actor(st) is None:
            break
        actions = GAME.legal_actions(st)
        GAME.apply(st, actions[rng.below(len(actions))], False)
    return st


def test_determinize_keeps_what_the_seat_sees() -> None:
    rng = Rng(5)
    changed = 0
    for seed in range(300):
        st = random_state(seed, rng)
        seat = rng.below(st.players)
        twin = GAME.determinize(st, seat, Rng(seed))
        assert GAME.view(twin, seat) == GAME.view(st, seat)
        assert twin.hands[seat] == st.hands[seat]
        assert sorted(twin.deck + [c for h in twin.hands for c in h]) == sorted(
            st.deck + [c for h in st.hands for c in h]
        )
        assert [len(h) for h in twin.hands] == [len(h) for h in st.hands]
        if st.players > 2:
            assert twin.quests[seat] == st.quests[seat]
            assert twin.offered[seat] == st.offered[seat]
        changed += twin.hands != st.hands
        assert GAME.legal_actions(twin) == GAME.legal_actions(st) or GAME.actor(st) != seat
    assert changed > 100, "determinize never re-deals the hidden hands"


def test_clone_is_equal_and_independent() -> None:
    st = GAME.setup(GAME.make_config({"players": 4}), 11, PACK)
    rng = Rng(3)
    for _ in range(150):
        if GAME.actor(st) is None:
            break
        twin = GAME.clone(st)
        assert twin == st and twin.stack == st.stack and twin.table == st.table
        actions = GAME.legal_actions(st)
        GAME.apply(twin, actions[rng.below(len(actions))], False)
        GAME.apply(st, actions[rng.below(len(actions))], False)


def test_records_replay_to_the_same_game_and_states_pickle() -> None:
    for seed in range(24):
        agents = [RandomBot() for _ in range(2 + seed % 3)]
        match = Match.start(GAME, agents, seed)
        result = match.run()
        record = parse_record(match.record.model_dump_json())
        assert record.result is not None
        again = replay(GAME, record)
        assert again == match.state
        assert GAME.result(again) == result
        assert pickle.loads(pickle.dumps(match.state)) == match.state


def test_a_half_played_state_pickles_and_replays_from_its_actions() -> None:
    rng = Rng(9)
    config = GAME.make_config({"players": 3})
    st = GAME.setup(config, 9, PACK)
    texts = []
    for _ in range(120):
        if GAME.actor(st) is None:
            break
        actions = GAME.legal_actions(st)
        action = actions[rng.below(len(actions))]
        texts.append(action.text)
        GAME.apply(st, action, False)
        twin = pickle.loads(pickle.dumps(st))
        assert twin == st and twin.stack == st.stack and twin.table == st.table
    again = GAME.setup(config, 9, PACK)
    for text in texts:
        GAME.apply(again, GAME.parse_action(again, text))
    assert again == st


def test_labels_name_every_legal_action() -> None:
    rng = Rng(21)
    for seed in range(30):
        st = GAME.setup(GAME.make_config({"players": 2 + seed % 3}), seed, PACK)
        while GAME.actor(st) is not None:
            actions = GAME.legal_actions(st)
            for action in actions:
                label = GAME.label(st, action)
                assert label and "\n" not in label
            GAME.apply(st, actions[rng.below(len(actions))], False)
