"""The tally a designer reads: houses entered, the skeletons that spotted, rushed,
wounded and fell to the player, and the way out.

Random games are played with events on, and the tally in the result must say exactly what
the events say happened; games played with events off must count the same.
"""

from __future__ import annotations

from collections import Counter

from tavernkeep.engine.events import Event
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import counts_of
from tavernkeep.games.rage import GAME, RageState

GAMES = 300
PACK = GAME.load_pack()


def play(seed: int, record: bool = True) -> tuple[RageState, list[Event]]:
    state = GAME.setup(GAME.make_config({}), seed, PACK)
    events = list(GAME.opening(state))
    rng = Rng(seed + 1)
    while GAME.actor(state) is not None:
        events += GAME.apply(state, rng.choice(GAME.legal_actions(state)), record=record)
    return state, events


def counted_from_events(state: RageState, events: list[Event]) -> Counter[tuple[int, str, str]]:
    """What the log says happened, in the tally's terms."""
    m = state.map
    counted: Counter[tuple[int, str, str]] = Counter()
    for e, after in zip(events, [*events[1:], None], strict=True):
        d = e.data
        if e.kind == "house":
            counted[0, "house entered", m.house[d["house"]].name] += 1
        elif e.kind == "rage-check" and d["lost"]:
            counted[0, "rage check lost", m.skeleton[d["skeleton"]].name] += 1
        elif e.kind == "spotted":
            counted[0, "spotted by", m.skeleton[d["skeleton"]].name] += 1
        elif e.kind == "backstab":
            counted[0, "skeleton backstabbed", m.skeleton[d["skeleton"]].name] += 1
        elif e.kind == "combat" and not d["won"]:
            counted[0, "wounded by", m.skeleton[d["skeleton"]].name] += 1
        elif e.kind == "combat" and after is not None and "a skeleton destroyed" in after.text:
            # The winning blow: the next thing said is the rage a destroyed skeleton brings.
            counted[0, "skeleton destroyed in combat", m.skeleton[d["skeleton"]].name] += 1
        elif e.kind == "escape":
            way = "front gate" if "front gate" in e.text else "gap in the walls"
            counted[0, "escaped through", way] += 1
    return counted


def test_the_tally_says_what_the_events_say() -> None:
    content = PACK.content
    names = (
        {h.name for h in content.house}
        | {s.name for s in content.skeleton}
        | {"front gate", "gap in the walls"}
    )
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        state, events = play(seed)
        result = GAME.result(state)
        assert result is not None
        tally = result.facts["tally"]
        assert len(tally) == 1
        assert set(tally[0]) == set(GAME.tally_kinds)
        counted = counts_of(tally)
        assert counted == counted_from_events(state, events), seed
        assert {name for (_, _, name) in counted} <= names
        # The tally agrees with the game's own ledger.
        assert sum(tally[0]["house entered"].values()) == result.facts["houses"]
        assert sum(tally[0]["wounded by"].values()) == result.facts["wounds"]
        destroyed = Counter(tally[0]["skeleton backstabbed"])
        destroyed.update(tally[0]["skeleton destroyed in combat"])
        assert sum(destroyed.values()) == result.facts["kills"]
        assert all(n == 1 for n in destroyed.values())  # a skeleton falls once
        seen.update(kind for (_, kind, _) in counted)
    assert set(seen) == set(GAME.tally_kinds)
