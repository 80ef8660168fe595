"""The tally a designer reads: what each seat attempted, completed and rescued, by quest.

Random games are played with events on, and the tally in the result must say exactly what
the events say happened; games played with events off must count the same.
"""

from __future__ import annotations

from collections import Counter

from tavernkeep.engine.events import Event
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import counts_of
from tavernkeep.games.hack_and_slash import GAME, HackAndSlashState

GAMES = 200


def play(seed: int, players: int, record: bool = True) -> tuple[HackAndSlashState, list[Event]]:
    state = GAME.setup(GAME.make_config({"players": players}), seed)
    events = list(GAME.opening(state))
    rng = Rng(seed + 1)
    while GAME.actor(state) is not None:
        events += GAME.apply(state, rng.choice(GAME.legal_actions(state)), record=record)
    return state, events


def counted_from_events(events: list[Event]) -> Counter[tuple[int, str, str]]:
    """What the log says each seat did, in the tally's terms."""
    counted: Counter[tuple[int, str, str]] = Counter()
    quest = ""
    rescued = False
    for e in events:
        seat = e.data.get("seat", -1)
        if e.kind == "quest":
            quest, rescued = e.data["quest"], False
            counted[seat, "quest attempted", quest] += 1
        elif e.kind == "rescue":
            rescued = True
            counted[seat, "rescue sent", quest] += 1
        elif e.kind == "roll" and e.data["success"]:
            counted[seat, "quest completed", quest] += 1
            if rescued:
                counted[seat, "rescue succeeded", quest] += 1
    return counted


def test_the_tally_says_what_the_events_say() -> None:
    pack = GAME.load_pack().content
    names = {pack.brag.name} | {q.name for q in pack.quest}
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        players = 3 + seed % 4
        state, events = play(seed, players)
        result = GAME.result(state)
        assert result is not None
        tally = result.facts["tally"]
        assert len(tally) == players
        assert all(set(seat) == set(GAME.tally_kinds) for seat in tally)
        counted = counts_of(tally)
        assert counted == counted_from_events(events)
        assert {name for (_, _, name) in counted} <= names
        seen.update(kind for (_, kind, _) in counted)
    # Every kind comes up somewhere in a couple of hundred games.
    assert set(seen) == set(GAME.tally_kinds)
