"""No real game's secrets reach the wrong seat or a spectator, over the real server.

test_secrets.py proves the server's doors with a toy game whose secrets are spelt to be
found. This file plays the five real games through the websocket server (people choosing
random legal actions, bots in the other seats, a spectator from the start and another who
arrives late, a person who reloads mid-game) and then asks, of every frame each socket
received (welcome, events, state, seats, errors): could its reader have read there
something the table was hiding from them?

What was hidden is not taken from the server, whose views are what is being tested. Once
the game is over its record (seed and every action) is downloaded and replayed with the
engine, and each game's own zones are read off the TRUE state at every version: what lies
face down (decks, hands, private quests, face-down Locations) and what each observer
could see (public zones, their own hand, a card they saw go into another hand).

- A name is secret from an observer at a version until some true state at or before it
  put the name where they could see it; a name several cards share stays secret only
  while no copy was ever seen.
- A card's id (the numbers Here to Slay's, Crits & Tricks' and Side Quest's frames carry)
  names one card, which may go face down again after it was seen (reshuffled, then drawn
  by another seat): a view may carry the id of a card its reader can see now, an event
  that of a card its reader could see before or after it.
- The seed and the RNG's state at every version (it deals every card to come) are secret
  from everyone, always.

A view and the events of an action tell of the version they carry; each entry of a
welcome's log tells of the version it came from (a late joiner may be told nothing a
live reader could not have been). And so that a check which finds nothing because names
are spelt differently cannot pass silently, every state frame must name everything its
view should show, and each person must have been shown secrets of their own (or, where
every secret is everyone's, the table must have seen some card turned face up).
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.engine.records import parse_record, replay_steps
from tavernkeep.games import get_game
from tavernkeep.games.side_quest.cards import card_name
from tavernkeep.server.app import create_app

Observer = int | None
"""A seat, or None for a spectator."""
NEVER = 1 << 62
"""The version at which a token never seen becomes visible: after every version."""
Told = list[tuple[int, dict[str, Any]]]
"""Every event one observer may be told, in order, each with the version it led to."""


# -- what each game hides, read off its true state ------------------------------------


@dataclass(frozen=True)
class Sight:
    """What one true state lets each observer see.

    `shown` is what the observer's view names (each token must appear in its state frame
    at this version); `known` is what it may know without being shown it now (its own
    quests while another seat decides, a card it saw go into another hand); `hidden` is
    everything lying face down, from somebody. Tokens are names as the game spells them,
    or `#kind:id` for the numbers a game's frames carry for its cards.
    """

    shown: dict[Observer, frozenset[str]]
    known: dict[Observer, frozenset[str]] = field(default_factory=dict)
    hidden: frozenset[str] = frozenset()


def everyone(observers: list[Observer], tokens: Iterable[str]) -> dict[Observer, frozenset[str]]:
    same = frozenset(tokens)
    return {o: same for o in observers}


def hack_and_slash_sight(st: Any, observers: list[Observer]) -> Sight:
    # RULES: the row and the score piles are face up; only the draw pile is hidden.
    cards = st.cards
    shown = {cards[0].name} | {cards[c].name for c in st.row if c >= 0}
    shown |= {cards[c].name for pile in st.score_piles for c in pile}
    return Sight(everyone(observers, shown), hidden=frozenset(cards[c].name for c in st.pile))


def here_to_slay_sight(st: Any, observers: list[Observer]) -> Sight:
    cat = st.catalog

    def card(c: int) -> set[str]:
        return {cat.cards[c].name, f"#card:{c}"}

    def monster(m: int) -> set[str]:
        return {cat.monsters[m].name, f"#monster:{m}"}

    public: set[str] = set()
    for c in (*st.discard, *st.playing, *st.equipped.values()):
        public |= card(c)
    for party in st.parties:
        for c in party:
            public |= card(c)
    for m in (*st.row, *(m for slain in st.slain for m in slain)):
        public |= monster(m)
    hidden: set[str] = set()
    for c in (*st.deck, *(c for hand in st.hands for c in hand)):
        hidden |= card(c)
    for m in st.monster_deck:
        hidden |= monster(m)
    top = st.stack[-1] if st.stack else None
    shown: dict[Observer, frozenset[str]] = {}
    known: dict[Observer, frozenset[str]] = {}
    for o in observers:
        mine = set(public)
        if o is not None:
            for c in st.hands[o]:
                mine |= card(c)
            if top is not None and top.kind == "pick" and top.args[0] == "take" and top.seat == o:
                # A look-and-take shows the taker the whole hand it takes from.
                for c in st.hands[top.args[2]]:
                    mine |= card(c)
        shown[o] = frozenset(mine)
        # A card seen going into a hand (pulled, taken, returned, searched, revealed) is
        # remembered by whoever saw it: `known` is a mask of seats, -1 for the table. An
        # entry is only meaningful while its card is in a hand.
        remembered: set[str] = set()
        for s, hand in enumerate(st.hands):
            if s == o:
                continue
            for c in hand:
                mask = st.known.get(c, 0)
                if (mask == -1) if o is None else bool(mask & (1 << o)):
                    remembered |= card(c)
        known[o] = frozenset(remembered)
    return Sight(shown, known, frozenset(hidden))


def crits_and_tricks_sight(st: Any, observers: list[Observer]) -> Sight:
    quests = st.content.quest
    two = st.players == 2

    def card(c: int) -> str:
        # Cards of a suit are alike; a card's id is what tells one from another (and
        # ids map to suits), so the ids in another hand are that hand's secret.
        return f"#card:{c}"

    public = {card(c.card) for c in st.table}
    public |= {card(p.card) for t in st.tricks for p in t.plays}
    public |= {quests[q].name for scored in st.scored for q in scored}
    if two:
        public |= {quests[q].name for q in st.quests[0]}  # laid out for both (RULES 23)
    if st.ending:
        # The quests each seat kept are told once the game is over (result facts).
        public |= {quests[q].name for held in st.held for q in held}
    hidden = {card(c) for c in st.deck} | {card(c) for hand in st.hands for c in hand}
    hidden |= {quests[q].name for q in st.quest_deck}
    if not two:
        hidden |= {quests[q].name for zone in (*st.quests, *st.offered) for q in zone}
    top = st.stack[-1] if st.stack else None
    shown: dict[Observer, frozenset[str]] = {}
    known: dict[Observer, frozenset[str]] = {}
    for o in observers:
        mine = set(public)
        own: set[str] = set()
        if o is not None:
            mine |= {card(c) for c in st.hands[o]}
            if not two:
                mine |= {quests[q].name for q in st.quests[o]}
                own = {quests[q].name for q in st.offered[o]}
                if top is not None and top.kind == "give_up" and top.seat == o:
                    mine |= own
        shown[o] = frozenset(mine)
        known[o] = frozenset(own)
    return Sight(shown, known, frozenset(hidden))


SIDE_QUEST_NAMED = frozenset({"monster", "weapon", "item", "spell"})
"""Kinds whose cards have names of their own: Damsels, Runes, the Portal, Hearts and the
Key are called 'a Damsel' and so on, and the scenario's Boss is no secret (RULES)."""
SIDE_QUEST_UNNUMBERED = frozenset({"key", "boss"})
"""The Key and the Boss lie at the bottom of the Dungeon deck by the rules: where they
are is no secret."""


def side_quest_sight(st: Any, observers: list[Observer]) -> Sight:
    content = st.content

    def card(c: int) -> set[str]:
        kind = st.card_kind[c]
        out = set()
        if kind not in SIDE_QUEST_UNNUMBERED:
            out.add(f"#card:{c}")
        if kind in SIDE_QUEST_NAMED:
            out.add(card_name(st, c))
        return out

    public: set[str] = set()
    for zone in (
        *st.here,
        *st.weapons,
        *st.items,
        *st.spells,
        st.monster_discard,
        [c for c in st.box if st.card_kind[c] == "weapon"],  # the Basic weapons on offer
    ):
        for c in zone:
            public |= card(c)
    in_row = set()
    for i, loc in enumerate(st.row):
        if st.revealed[i]:
            public.add(content.location[loc].name)
            in_row.add(loc)
    hidden: set[str] = set()
    for c in (*st.dungeon_deck, *st.monster_deck, *st.loot_deck):
        hidden |= card(c)
    # Face-down Locations, in the row or not dealt to it.
    hidden |= {loc.name for i, loc in enumerate(content.location) if i not in in_row}
    return Sight(everyone(observers, public), hidden=frozenset(hidden))


def rage_sight(st: Any, observers: list[Observer]) -> Sight:
    # Nothing on the map is hidden (RULES): the only secret is the dice to come, which
    # the RNG's state (checked for every game) would give away.
    m = st.map
    public = {s.name for s in m.skeleton} | {h.name for h in m.house}
    return Sight(everyone(observers, public))


# -- the numbers each game's frames carry for its cards --------------------------------


def no_ids(_: dict[str, Any]) -> Iterator[str]:
    return iter(())


def here_to_slay_dict_ids(d: dict[str, Any]) -> Iterator[str]:
    if isinstance(d.get("id"), int):
        if "kind" in d and "name" in d and "text" in d:
            yield f"#card:{d['id']}"  # a card's face
        elif "slay" in d and "name" in d:
            yield f"#monster:{d['id']}"  # a Monster's face


def here_to_slay_event_ids(data: dict[str, Any]) -> Iterator[str]:
    for key in ("card", "used", "hero"):
        value = data.get(key)
        if isinstance(value, int) and value >= 0:
            yield f"#card:{value}"
    monster = data.get("monster")
    if isinstance(monster, int) and monster >= 0:
        yield f"#monster:{monster}"
    for m in data.get("monsters", ()) if isinstance(data.get("monsters"), list) else ():
        if isinstance(m, int):
            yield f"#monster:{m}"


def crits_and_tricks_dict_ids(d: dict[str, Any]) -> Iterator[str]:
    if set(d) == {"id", "suit"} and isinstance(d["id"], int):
        yield f"#card:{d['id']}"  # a card in a hand or on the table
    elif "suit" in d and isinstance(d.get("card"), int):
        yield f"#card:{d['card']}"  # a play in a trick's history


def card_event_ids(data: dict[str, Any]) -> Iterator[str]:
    value = data.get("card")
    if isinstance(value, int) and value >= 0:
        yield f"#card:{value}"


def side_quest_dict_ids(d: dict[str, Any]) -> Iterator[str]:
    if isinstance(d.get("id"), int) and "kind" in d and "name" in d:
        yield f"#card:{d['id']}"


@dataclass(frozen=True)
class Secrets:
    sight: Callable[[Any, list[Observer]], Sight]
    dict_ids: Callable[[dict[str, Any]], Iterator[str]] = no_ids
    """The card ids a dict of a frame names (a card's face, a play)."""
    event_ids: Callable[[dict[str, Any]], Iterator[str]] = no_ids
    """The card ids an event's data names."""
    own_secrets: bool = False
    """Whether a seat holds secrets of its own (a hand, quests) to be shown to it."""


SECRETS: dict[str, Secrets] = {
    "hack-and-slash": Secrets(hack_and_slash_sight),
    "here-to-slay": Secrets(
        here_to_slay_sight, here_to_slay_dict_ids, here_to_slay_event_ids, own_secrets=True
    ),
    "crits-and-tricks": Secrets(
        crits_and_tricks_sight, crits_and_tricks_dict_ids, card_event_ids, own_secrets=True
    ),
    "side-quest": Secrets(side_quest_sight, side_quest_dict_ids, card_event_ids),
    "rage": Secrets(rage_sight),
}


# -- the truth, rebuilt from the record ------------------------------------------------


def rng_marks(number: int) -> set[str]:
    """How a 64-bit number could be spelt in a frame: decimal and hex."""
    return {str(number), format(number, "x")}


@dataclass
class Ledger:
    """Who could see what, and from which version, over one replayed game."""

    first_seen: dict[Observer, dict[str, int]]
    visible: dict[Observer, list[frozenset[str]]]
    """By version: what each observer could see (shown or known) in that true state."""
    shown: dict[Observer, list[frozenset[str]]]
    """By version: what each observer's view must name."""
    log: dict[Observer, Told]
    """Every event each observer may see, in order, with the version it led to (the
    opening's are version 0): the log a welcome holds is a prefix of it."""
    universe: set[str]
    """Every token some state held face down: only these can leak."""
    never: set[str]
    """The seed and every state of the RNG: secret from everyone, always."""
    decisions: set[str]
    """The kinds of decision the game reached (its stack's top frames)."""

    @classmethod
    def replay(cls, game_name: str, record_text: str, observers: list[Observer]) -> Ledger:
        game = get_game(game_name)
        record = parse_record(record_text)
        secrets = SECRETS[game_name]
        first_seen: dict[Observer, dict[str, int]] = {o: {} for o in observers}
        visible: dict[Observer, list[frozenset[str]]] = {o: [] for o in observers}
        shown: dict[Observer, list[frozenset[str]]] = {o: [] for o in observers}
        log: dict[Observer, Told] = {o: [] for o in observers}
        universe: set[str] = set()
        never = rng_marks(record.seed)
        decisions: set[str] = set()
        for version, _, events, state in replay_steps(game, record):
            if version == 0:
                events = game.opening(state)
            sight = secrets.sight(state, observers)
            universe |= sight.hidden
            never |= rng_marks(state.rng.state)
            if state.stack:
                decisions.add(state.stack[-1].kind)
            for o in observers:
                now = sight.shown[o] | sight.known.get(o, frozenset())
                shown[o].append(sight.shown[o])
                visible[o].append(now)
                seen = first_seen[o]
                for token in now:
                    seen.setdefault(token, version)
                for event in events:
                    told = event.for_seat(o)
                    if told is not None:
                        # As JSON carries it: tuples become lists.
                        log[o].append((version, json.loads(json.dumps(told.to_json()))))
        return cls(first_seen, visible, shown, log, universe, never, decisions)

    def secret(self, observer: Observer, token: str, version: int, part: str) -> bool:
        """Whether `token`, read by `observer` in a `part` of a frame telling of `version`,
        names what was hidden from it then.

        A name is hidden until a true state at or before `version` showed it (a name
        several cards share, until any copy was seen). A card's id is stricter: it names
        one card, and a card seen once may go back face down (reshuffled, then drawn by
        another seat), so a view may give the id only of a card its reader can see now,
        and an event only of a card its reader could see before it or after it.
        """
        if token not in self.universe:
            return False
        if not token.startswith("#") or part == "other":
            return self.first_seen[observer].get(token, NEVER) > version
        visible = self.visible[observer]
        if part == "view":
            return token not in visible[version]
        return token not in visible[version] and (version == 0 or token not in visible[version - 1])

    def names(self) -> set[str]:
        tokens = set(self.universe)
        for lists in self.shown.values():
            for tokens_at in lists:
                tokens |= tokens_at
        return {t for t in tokens if not t.startswith("#")}


# -- reading frames --------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    version: int
    kind: str
    message: dict[str, Any]


def frames(raw: list[str]) -> list[Frame]:
    """Every frame a socket received, each with the version whose truth it may tell:
    its own for states and events, the next state's for a welcome (its log runs up to
    it), the last state's for the rest (seats, errors, pongs carry no game)."""
    messages = [json.loads(text) for text in raw]
    out = []
    version = 0
    for i, msg in enumerate(messages):
        kind = msg["type"]
        if kind in ("state", "events"):
            version = msg["version"]
            out.append(Frame(version, kind, msg))
        elif kind == "welcome":
            following = next(m for m in messages[i:] if m["type"] == "state")
            out.append(Frame(following["version"], kind, msg))
        else:
            out.append(Frame(version, kind, msg))
    return out


@dataclass(frozen=True)
class Part:
    """A piece of a frame that tells of one version: a view, one event, or the rest."""

    version: int
    kind: str
    """"view", "event" or "other" (a welcome's table summary, seats, errors)."""
    path: str
    node: Any


def parts(frame: Frame, told: Told, problems: list[str]) -> Iterator[Part]:
    """A frame's parts. A welcome's log should be the prefix of `told` (all the reader
    may be told, with versions) of its length, and each entry then tells of the version
    it came from: a late joiner is told nothing about version 3 that it could not have
    been told live. A log that differs is a problem of its own, and its entries are
    judged at the welcome's version."""
    msg, v = frame.message, frame.version
    if frame.kind == "state":
        yield Part(v, "view", "state", msg)
    elif frame.kind == "events":
        mine = [e for version, e in told if version == v]
        if msg["events"] != mine:
            problems.append(f"the events at version {v} are not what the engine told: {mine}")
        for i, event in enumerate(msg["events"]):
            yield Part(v, "event", f"events[{i}]", event)
    elif frame.kind == "welcome":
        log = msg["log"]
        # Compared by kind and text: an event's data may share a list with the state
        # (Crits & Tricks' dice), so a log sent later shows it as it is by then.
        for i, event in enumerate(log):
            version, expected = told[i] if i < len(told) else (v, None)
            same = expected is not None and (expected["kind"], expected["text"]) == (
                event["kind"],
                event["text"],
            )
            if not same:
                problems.append(f"welcome.log[{i}] is {event['text']!r}, not {expected!r}")
                version = v
            yield Part(version, "event", f"welcome.log[{i}]", event)
        yield Part(v, "other", "welcome", {k: x for k, x in msg.items() if k != "log"})
    else:
        yield Part(v, "other", frame.kind, msg)


def tokens_of(part: Part, secrets: Secrets, reader: Reader) -> dict[str, str]:
    """Every token a part of a frame names, each with where it was first found (a path
    into the message, and the text that names it)."""
    found: dict[str, str] = {}

    def walk(node: Any, path: str) -> None:
        if isinstance(node, str):
            for name in reader.found(node):
                found.setdefault(name, f"{path} = {node[:120]!r}")
        elif isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, f"{path}[{i}]")
        elif isinstance(node, dict):
            for token in secrets.dict_ids(node):
                found.setdefault(token, path)
            for key, value in node.items():
                walk(key, f"{path}.<key>")
                walk(value, f"{path}.{key}")

    walk(part.node, part.path)
    if part.kind == "event":
        for token in secrets.event_ids(part.node.get("data") or {}):
            found.setdefault(token, f"{part.path}.data = {part.node.get('text', '')!r}")
    return found


NUMBERS = re.compile(r"[0-9a-f]{12,}")
"""Runs long enough to be an RNG state or a seed: a frame's other numbers (versions,
dice, ids, timestamps' parts) are far shorter."""


class Reader:
    """Finds the names of one game in frames' strings, each distinct string once."""

    def __init__(self, names: set[str], covers: set[str]) -> None:
        # A name inside a longer text a player may read (a card text naming another
        # card, a name within a name) is that text, not the name on its own.
        self.names = sorted(names)
        self.longer = {n: [c for c in covers | names if n in c and c != n] for n in names}
        self.cache: dict[str, frozenset[str]] = {}

    def found(self, text: str) -> frozenset[str]:
        hit = self.cache.get(text)
        if hit is None:
            hit = frozenset(n for n in self.names if n in text and self._bare(n, text))
            self.cache[text] = hit
        return hit

    def _bare(self, name: str, text: str) -> bool:
        covered: set[int] = set()
        for cover in self.longer[name]:
            start = text.find(cover)
            while start >= 0:
                covered.update(range(start, start + len(cover)))
                start = text.find(cover, start + 1)
        start = text.find(name)
        while start >= 0:
            if not set(range(start, start + len(name))) <= covered:
                return True
            start = text.find(name, start + 1)
        return False


@cache
def pack_strings(game_name: str) -> frozenset[str]:
    """Every string of the game's standard pack: what anyone may read in its rules."""
    out: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            out.add(node)
        elif isinstance(node, (list, tuple)):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)

    walk(get_game(game_name).load_pack().content.model_dump())
    return frozenset(out)


@dataclass
class Seen:
    """What one socket was told, checked against the ledger."""

    leaks: dict[str, str] = field(default_factory=dict)
    """Each secret token read, with the first frame and place it was read in."""
    missing: list[str] = field(default_factory=list)
    untold: list[str] = field(default_factory=list)
    """Events that differ from those the engine told this reader."""
    revealed: set[str] = field(default_factory=set)
    """Tokens hidden from this reader at the start and later read in its frames."""
    own: set[str] = field(default_factory=set)
    """Tokens read in its frames while another observer of the table could not see them."""


def check_socket(
    raw: list[str],
    observer: Observer,
    ledger: Ledger,
    reader: Reader,
    secrets: Secrets,
    others: list[Observer],
) -> Seen:
    seen = Seen()
    told = ledger.log[observer]
    for frame in frames(raw):
        shown: set[str] = set()
        for part in parts(frame, told, seen.untold):
            tokens = tokens_of(part, secrets, reader)
            shown |= tokens.keys()
            where = f"{frame.kind} frame at version {frame.version}"
            if part.version != frame.version:
                where += f" (of version {part.version})"
            for token, place in tokens.items():
                if ledger.secret(observer, token, part.version, part.kind):
                    seen.leaks.setdefault(token, f"{where}: {token!r} at {place}")
                elif token in ledger.universe:
                    if ledger.first_seen[observer].get(token, 0) > 0:
                        seen.revealed.add(token)
                    if any(ledger.secret(o, token, part.version, part.kind) for o in others):
                        seen.own.add(token)
        for run in NUMBERS.findall(json.dumps(frame.message)):
            if run in ledger.never:
                seen.leaks.setdefault(
                    run, f"{frame.kind} frame at version {frame.version}: the RNG's state "
                    f"or the seed, {run}"
                )
        if frame.kind == "state":
            missing = ledger.shown[observer][frame.version] - shown
            if missing:
                seen.missing.append(
                    f"state frame at version {frame.version}: {sorted(missing)[:5]}"
                )
    return seen


# -- playing a table through the server -------------------------------------------------


@dataclass(frozen=True)
class Table:
    game: str
    seats: tuple[str, ...]
    options: dict[str, Any]
    seed: int
    reaches: frozenset[str] = frozenset()
    """Decisions the game must reach at this seed, for the paths it is here to cover."""
    reload_after: int = 20
    """People's decisions (passes included) before one reloads and a spectator arrives:
    late enough that the log they are welcomed with holds other seats' private events."""

    @property
    def id(self) -> str:
        return f"{self.game}-{'+'.join(s.removeprefix('bot:') for s in self.seats)}-{self.seed}"


TABLES = [
    # Three, then four players: a person and bots; the quest draw pile is the secret.
    Table("hack-and-slash", ("human", "bot:random", "bot:heuristic"), {"round_limit": 4}, 0),
    Table("hack-and-slash", ("bot:heuristic", "human", "bot:random"), {"round_limit": 4}, 1),
    Table(
        "hack-and-slash",
        ("bot:random", "bot:random", "human", "bot:heuristic"),
        {"round_limit": 3},
        2,
    ),
    # Hands against hands: two people (each the other's opponent) and a bot, or two alone.
    Table("here-to-slay", ("human", "human", "bot:random"), {"turn_limit": 12}, 0),
    Table("here-to-slay", ("human", "human"), {"turn_limit": 12}, 2),
    # Longer games, for the Monsters whose skills act on a card just drawn and still in
    # its drawer's hand: here a bot slays Thornback Bear and is asked, after each card it
    # draws, whether to play it at once ...
    Table(
        "here-to-slay",
        ("human", "bot:heuristic", "human", "bot:heuristic"),
        {"turn_limit": 30},
        22,
        frozenset({"play_now"}),
    ),
    # ... and here one person slays Spellbound Golem (play a drawn Magic card at once) and
    # the other Iron Gargoyle (reveal a drawn Modifier to draw again).
    Table(
        "here-to-slay",
        ("human", "bot:heuristic", "human", "bot:heuristic"),
        {"turn_limit": 30},
        27,
        frozenset({"play_now", "may"}),
    ),
    # Private quests with three or four; with two the quests are laid out, hands are not.
    Table("crits-and-tricks", ("human", "human", "bot:random"), {"rounds": 1}, 0),
    Table(
        "crits-and-tricks", ("bot:heuristic", "human", "bot:random", "human"), {"rounds": 1}, 1
    ),
    Table("crits-and-tricks", ("human", "human"), {"rounds": 1, "tricks": 4}, 2),
    # Co-operative: the decks and the face-down Locations are every hero's secret.
    Table("side-quest", ("human", "bot:heuristic"), {"turn_limit": 6}, 0),
    Table("side-quest", ("bot:random", "human"), {"turn_limit": 6}, 1),
    Table("side-quest", ("human", "bot:heuristic", "bot:random"), {"turn_limit": 5}, 2),
    # Solo: nothing on the map is hidden, so the dice to come (the RNG) are the secret.
    Table("rage", ("human",), {"turn_limit": 15}, 0),
    Table("rage", ("human",), {"turn_limit": 10}, 1),
]


def table_seed(table: Table) -> int:
    """A seed long enough that its digits would stand out in a frame."""
    return random.Random(f"{table.game}/{table.seed}").getrandbits(62) | 1 << 61


BURST = 15
"""Actions a person's socket sends in any one second: the server closes a socket that
sends more than 20 messages a second (app.RATE_LIMIT), and a ping or two ride along."""


def random_chooser(seed: int) -> Callable[[int, dict[str, Any]], str]:
    """A person choosing at random among their legal actions, no faster than the server
    lets one socket send."""
    rng = random.Random(seed)
    sent: dict[int, deque[float]] = {}

    def choose(seat: int, state: dict[str, Any]) -> str:
        times = sent.setdefault(seat, deque(maxlen=BURST))
        if len(times) == BURST:
            time.sleep(max(0.0, times[0] + 1.05 - time.monotonic()))
        times.append(time.monotonic())
        return str(rng.choice(state["legal"])["action"])

    return choose


PLAY_LIMIT = 5000
"""Person decisions (their passes included) before a game is called stuck."""


def play(client: Any, tk: Any, table: Table, seed: int) -> tuple[list[tuple[Observer, Any]], str]:
    """Play the table through to its end; every socket it used, and the record."""
    data = tk.create(
        client, game=table.game, seats=list(table.seats), options=table.options, seed=seed
    )
    tid = data["id"]
    tokens = tk.tokens(data)
    people = sorted(tokens)
    choose = random_chooser(seed)
    used: list[tuple[Observer, Any]] = []
    with ExitStack() as stack:
        early = stack.enter_context(tk.join(client, tid))
        socks = {s: stack.enter_context(tk.join(client, tid, s, tokens[s])) for s in people}
        used += [(None, early), *((s, sock) for s, sock in socks.items())]
        tk.play_to_end(socks, choose, max_actions=PLAY_LIMIT, stop_after=table.reload_after)
        # Mid-game a person reloads the page and a spectator arrives: each is welcomed
        # with the log so far, as their seat may see it.
        first = people[0]
        socks[first].settle()
        again = stack.enter_context(tk.join(client, tid, first, tokens[first]))
        socks[first].settle()
        socks[first].ws.close()
        socks[first] = again
        late = stack.enter_context(tk.join(client, tid))
        used += [(first, again), (None, late)]
        tk.play_to_end(socks, choose, watchers=(early, late), max_actions=PLAY_LIMIT)
    response = client.get(f"/api/tables/{tid}/record")
    assert response.status_code == 200, response.text
    return used, response.text


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.id)
def test_no_frame_names_a_secret_of_its_reader(sqlite_url: str, tk: Any, table: Table) -> None:
    seed = table_seed(table)
    with TestClient(create_app(sqlite_url, bot_delay=0.0, pass_delay=0.01)) as client:
        used, record = play(client, tk, table, seed)

    people = [s for s, spec in enumerate(table.seats) if spec == "human"]
    observers: list[Observer] = [*range(len(table.seats)), None]
    ledger = Ledger.replay(table.game, record, observers)
    secrets = SECRETS[table.game]
    reader = Reader(ledger.names(), set(pack_strings(table.game)))
    problems: list[str] = []
    shown_own: dict[Observer, set[str]] = {}
    revealed: dict[Observer, set[str]] = {}
    for observer, sock in used:
        # Whom this reader's secrets are kept from: the other people and the spectator.
        others = [o for o in [*people, None] if o != observer]
        seen = check_socket(sock.raw, observer, ledger, reader, secrets, others)
        who = "the spectator" if observer is None else f"seat {observer}"
        problems += [f"{who} was shown a secret: {leak}" for leak in seen.leaks.values()]
        problems += [f"{who}'s view lacks what it shows: {m}" for m in seen.missing[:3]]
        problems += [f"{who}'s log differs from the engine's: {u}" for u in seen.untold[:3]]
        shown_own.setdefault(observer, set()).update(seen.own)
        revealed.setdefault(observer, set()).update(seen.revealed)
    context = f"{table.game}, seed {seed} ({table.id})"
    assert not problems, f"{context}:\n" + "\n".join(problems[:20])
    assert table.reaches <= ledger.decisions, (
        f"{context} no longer reaches {sorted(table.reaches - ledger.decisions)}: the game or "
        "its bots changed, so choose a seed that does (it is what this table is here for)"
    )

    # The check found what it was looking for: each person read secrets of their own,
    # or, where every secret is the table's, everyone saw hidden cards turned up.
    if secrets.own_secrets:
        for seat in people:
            assert shown_own[seat], f"{context}: seat {seat} was never shown its own secrets"
    elif ledger.universe:
        for observer, tokens in revealed.items():
            assert tokens, f"{context}: {observer} never saw a hidden card turned up"
