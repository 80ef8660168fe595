"""The tally a designer reads: quests completed, crits used, tricks taken, the Barkeep.

Random games are played with events on, and the tally in the result must say exactly what
the events say each seat did; games played with events off must count the same.
"""

from __future__ import annotations

from collections import Counter

from tavernkeep.engine.events import Event
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import counts_of
from tavernkeep.games.crits_and_tricks import GAME, CritsAndTricksState
from tavernkeep.games.crits_and_tricks.content import SUITS

GAMES = 150
PACK = GAME.load_pack()


def play(seed: int, players: int, record: bool = True) -> tuple[CritsAndTricksState, list[Event]]:
    state = GAME.setup(GAME.make_config({"players": players}), seed, PACK)
    events = list(GAME.opening(state))
    rng = Rng(seed + 1)
    while GAME.actor(state) is not None:
        events += GAME.apply(state, rng.choice(GAME.legal_actions(state)), record=record)
    return state, events


def counted_from_events(events: list[Event]) -> Counter[tuple[int, str, str]]:
    """What the log says each seat did, in the tally's terms."""
    content = PACK.content
    counted: Counter[tuple[int, str, str]] = Counter()
    barkeep = ""
    for e in events:
        d = e.data
        if e.kind == "quest" and "quest" in d:
            counted[d["seat"], "quest completed", content.quest[d["quest"]].name] += 1
        elif e.kind == "crit":
            counted[d["seat"], "crit used", d["suit"]] += 1
        elif e.kind == "reroll" and " re-rolls (Bard crit):" in e.text:
            # A Bard's crit is told as its first re-roll ("re-rolls again" is the second).
            counted[d["seat"], "crit used", "Bard"] += 1
        elif e.kind == "trick":
            counted[d["seat"], "trick taken", f"d{d['die']}"] += 1
        elif e.kind == "barkeep" and "barkeep" in d:
            barkeep = content.barkeep[d["barkeep"]].name
            counted[d["seat"], "barkeep chosen", barkeep] += 1
        elif e.kind == "barkeep" and "seat" in d:
            counted[d["seat"], "barkeep won", barkeep] += 1
    return counted


def test_the_tally_says_what_the_events_say() -> None:
    content = PACK.content
    names = (
        {q.name for q in content.quest}
        | {b.name for b in content.barkeep}
        | set(SUITS)
        | {f"d{size}" for size in (4, 6, 8, 10, 12, 20)}
    )
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        players = 2 + seed % 3
        state, events = play(seed, players)
        result = GAME.result(state)
        assert result is not None
        tally = result.facts["tally"]
        assert len(tally) == players
        assert all(set(seat) == set(GAME.tally_kinds) for seat in tally)
        counted = counts_of(tally)
        assert counted == counted_from_events(events), seed
        assert {name for (_, _, name) in counted} <= names
        seen.update(kind for (_, kind, _) in counted)
    assert set(seen) == set(GAME.tally_kinds)
