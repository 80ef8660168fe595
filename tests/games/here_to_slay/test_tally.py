"""The tally a designer reads: cards played, Heroes rolled for, Monsters fought, Heroes lost.

Random games are played with events on, and the tally in the result must say exactly what
the events say each seat did; games played with events off must count the same.
"""

from __future__ import annotations

from collections import Counter

from tavernkeep.engine.events import Event
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import counts_of
from tavernkeep.games.here_to_slay import GAME, HereToSlayState
from tavernkeep.games.here_to_slay.cards import HERO

GAMES = 120
PACK = GAME.load_pack()


def play(seed: int, players: int, record: bool = True) -> tuple[HereToSlayState, list[Event]]:
    state = GAME.setup(GAME.make_config({"players": players}), seed, PACK)
    events = list(GAME.opening(state))
    rng = Rng(seed + 1)
    while GAME.actor(state) is not None:
        events += GAME.apply(state, rng.choice(GAME.legal_actions(state)), record=record)
    return state, events


def counted_from_events(
    state: HereToSlayState, events: list[Event]
) -> Counter[tuple[int, str, str]]:
    """What the log says each seat did, in the tally's terms."""
    cards, monsters = state.catalog.cards, state.catalog.monsters
    counted: Counter[tuple[int, str, str]] = Counter()
    played_by: dict[int, int] = {}
    for e in events:
        d = e.data
        if e.kind == "play" or e.kind == "modifier":
            counted[d["seat"], "card played", cards[d["card"]].name] += 1
            played_by[d["card"]] = d["seat"]
        elif e.kind == "challenge":
            counted[d["seat"], "card played", cards[d["used"]].name] += 1
            counted[played_by[d["card"]], "card challenged", cards[d["card"]].name] += 1
        elif e.kind == "hero-roll":
            counted[d["seat"], "hero rolled", cards[d["hero"]].name] += 1
        elif e.kind == "success":
            counted[d["seat"], "hero ability used", cards[d["hero"]].name] += 1
        elif e.kind == "attack":
            counted[d["seat"], "monster attacked", monsters[d["monster"]].name] += 1
        elif e.kind == "slay":
            counted[d["seat"], "monster slain", monsters[d["monster"]].name] += 1
        elif e.kind in ("destroy", "sacrifice", "curse") and cards[d["card"]].kind == HERO:
            counted[d["seat"], "hero lost", cards[d["card"]].name] += 1
        elif e.kind == "steal" and cards[d["card"]].kind == HERO:
            counted[d["victim"], "hero lost", cards[d["card"]].name] += 1
    return counted


def test_the_tally_says_what_the_events_say() -> None:
    content = PACK.content
    names = {c.name for c in GAME.catalog(content).cards} | {
        m.name for m in GAME.catalog(content).monsters
    }
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        players = 2 + seed % 5
        state, events = play(seed, players)
        result = GAME.result(state)
        assert result is not None
        tally = result.facts["tally"]
        assert len(tally) == players
        assert all(set(seat) == set(GAME.tally_kinds) for seat in tally)
        counted = counts_of(tally)
        assert counted == counted_from_events(state, events), seed
        assert {name for (_, _, name) in counted} <= names
        seen.update(kind for (_, kind, _) in counted)
    assert set(seen) == set(GAME.tally_kinds)
