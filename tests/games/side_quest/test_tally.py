"""The tally a designer reads: heroes played, cards used, loot found, what was slain and
what hurt the heroes.

Random games are played with events on, and the tally in the result must say exactly what
the events say each hero did; games played with events off must count the same.
"""

from __future__ import annotations

from collections import Counter

from side_quest_helpers import arena, dice, play, put

from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.events import Event
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import counts_of
from tavernkeep.games.side_quest import GAME, SideQuestState
from tavernkeep.games.side_quest.cards import card_name
from tavernkeep.games.side_quest.dungeon import travel

GAMES = 200
PACK = GAME.load_pack()
SLAIN = {"monster": "monster slain", "boss": "boss slain"}
DUNGEON_CARDS = {"rune": "Dark Rune", "portal": "Dark Portal", "heart": "Dungeon Heart"}


def random_game(seed: int, players: int, record: bool = True) -> tuple[SideQuestState, list[Event]]:
    state = GAME.setup(GAME.make_config({"players": players}), seed, PACK)
    events = list(GAME.opening(state))
    rng = Rng(seed + 1)
    while GAME.actor(state) is not None:
        events += GAME.apply(state, rng.choice(GAME.legal_actions(state)), record=record)
    return state, events


def counted_from_events(
    state: SideQuestState, events: list[Event]
) -> Counter[tuple[int, str, str]]:
    """What the log says each hero did, in the tally's terms."""
    heroes = [state.content.hero[h].name for h in state.hero]
    counted: Counter[tuple[int, str, str]] = Counter()
    for e in events:
        d = e.data
        if e.kind == "hero":
            counted[d["seat"], "hero played", heroes[d["seat"]]] += 1
        elif e.kind == "use":
            used = e.text.split(" uses ", 1)[1]
            if used == f"{heroes[d['seat']]}'s ability":
                counted[d["seat"], "ability used", heroes[d["seat"]]] += 1
            else:
                counted[d["seat"], "item used", used] += 1
        elif e.kind == "reroll":
            ability = f" re-rolls with {heroes[d['seat']]}'s ability:" in e.text
            counted[d["seat"], "ability used" if ability else "item used", d["using"]] += 1
        elif e.kind == "cast" and "roll" in d:
            spell = e.text.split(" casts ", 1)[1].rsplit(": ", 1)[0]
            counted[d["seat"], "spell cast", spell] += 1
        elif e.kind == "loot" and d["success"]:
            counted[d["seat"], "loot found", card_name(state, d["card"])] += 1
        elif e.kind == "slay" and "seat" in d:
            kind = state.card_kind[d["card"]]
            if kind in SLAIN:
                counted[d["seat"], SLAIN[kind], card_name(state, d["card"])] += 1
            else:
                counted[d["seat"], "dungeon card destroyed", DUNGEON_CARDS[kind]] += 1
        elif e.kind == "wound":
            counted[d["seat"], "damage taken", card_name(state, d["card"])] += d["damage"]
        elif e.kind == "ending" and d["ending"] == "hero-fell":
            for seat, health in enumerate(state.health):
                if health == 0:
                    counted[seat, "hero fallen", heroes[seat]] += 1
    return counted


def test_the_tally_says_what_the_events_say() -> None:
    content = PACK.content
    names = (
        {h.name for h in content.hero}
        | {c.name for c in (*content.monster, *content.boss, *content.loot_deck())}
        | set(DUNGEON_CARDS.values())
    )
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        players = 1 + seed % 4
        state, events = random_game(seed, players)
        result = GAME.result(state)
        assert result is not None
        tally = result.facts["tally"]
        assert len(tally) == players
        assert all(set(seat) == set(GAME.tally_kinds) for seat in tally)
        counted = counts_of(tally)
        assert counted == counted_from_events(state, events), seed
        assert {name for (_, _, name) in counted} <= names
        seen.update(kind for (_, kind, _) in counted)
    # Random heroes never reach the Boss: the fight below counts those kinds.
    assert set(seen) == set(GAME.tally_kinds) - {"boss slain", "dungeon card destroyed"}


def test_the_boss_fight_counts_the_heart_and_the_boss() -> None:
    """Grubmaw has 1 Heart: stunned first, the Heart destroyed, then the Boss slain."""
    st = arena(["Pock Quickfingers"], ["Woodcutter's Axe"], [0])
    travel(st, None)
    travel(st, None)
    st.stack = [Decision(0, "end_phase"), Decision(0, "monsters"), Decision(0, "turn")]
    st.position[0], st.actions = 0, 3
    put(st, "Grubmaw the Swollen", 0)
    heart = put(st, "a Dungeon Heart", 0)
    dice(st, 3)  # the axe: one hit of 2
    play(st, "attack:1")
    dice(st, 3)
    play(st, "attack:1", f"hit:{heart}")
    dice(st, 3)
    play(st, "attack:1")
    result = GAME.result(st)
    assert result is not None and result.won
    pock = result.facts["tally"][0]
    assert pock["dungeon card destroyed"] == {"Dungeon Heart": 1}
    assert pock["boss slain"] == {"Grubmaw the Swollen": 1}
    assert pock["hero played"] == {"Pock Quickfingers": 1}


def test_dealt_heroes_are_counted_too() -> None:
    config = GAME.make_config({"players": 3, "heroes": "random"})
    state = GAME.setup(config, 11, PACK)
    played = {seat: name for (seat, kind, name) in state.tally if kind == "hero played"}
    assert played == {seat: state.content.hero[h].name for seat, h in enumerate(state.hero)}
