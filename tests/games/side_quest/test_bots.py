"""The Side Quest bot team (`bot:heuristic`): the choices a player watching it would judge.

Positions are laid out by hand (side_quest_helpers.arena) and the bot decides through an
InfoSet, as in a real game: it sees a determinized state, never the true one.
"""

from __future__ import annotations

from side_quest_helpers import arena, dice, play, put

from tavernkeep.agents import make_bot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games.side_quest import GAME, SideQuestState
from tavernkeep.games.side_quest.heuristic import TeamBot

POCK, HILDE = "Pock Quickfingers", "Hilde Stonewall"
SWORD, STAFF, BOW = "Notched Shortsword", "Iron-shod Staff", "Yew Shortbow"


def decide(st: SideQuestState) -> Action:
    seat = GAME.actor(st)
    assert seat is not None
    return TeamBot().choose(InfoSet(GAME, st, seat, Rng(3)))


def test_the_team_wins_the_first_scenario_where_random_heroes_never_do() -> None:
    wins = {"bot:heuristic": 0, "bot:random": 0}
    for spec in wins:
        for seed in range(12):
            bots = [make_bot(spec, GAME), make_bot(spec, GAME)]
            match = Match.start(GAME, bots, seed, {"players": 2}, record_events=False)
            wins[spec] += bool(match.run().won)
    assert wins["bot:random"] == 0
    assert wins["bot:heuristic"] >= 4, wins


def test_a_damsel_about_to_reach_the_skull_is_rescued_before_any_fight() -> None:
    st = arena([POCK], [SWORD], [0])
    damsel = put(st, "a Damsel", 0)
    st.depth[damsel] = st.content.specials.damsel_depth - 1
    put(st, "Cellar Rat", 1)
    put(st, "Dawnsteel Blade", 0)
    assert decide(st) == Action("rescue", damsel)


def test_every_hit_goes_where_it_completes_a_kill() -> None:
    st = arena([POCK], [STAFF], [0])
    rat, rattler = put(st, "Cellar Rat", 0), put(st, "Bone Rattler", 0)
    dice(st, 5, 6)
    play(st, "attack:1")
    while st.stack[-1].kind == "hit":
        GAME.apply(st, decide(st))
    assert rat in st.monster_discard and rattler in st.monster_discard


def test_two_hits_slay_the_monster_that_hurts_most_rather_than_wound_two() -> None:
    st = arena([POCK], [STAFF], [0])
    rat, ogre = put(st, "Cellar Rat", 0), put(st, "Ogre Bruiser", 0)
    dice(st, 5, 6)
    play(st, "attack:1")
    while st.stack[-1].kind == "hit":
        GAME.apply(st, decide(st))
    assert ogre in st.monster_discard and rat in st.here[0]


def test_a_monster_hit_goes_to_the_hero_who_can_best_afford_it() -> None:
    st = arena([POCK, HILDE], [SWORD, STAFF], [0, 0])
    crone = put(st, "Bog Crone", 0)
    # The wound decision of the Crone's attack: Pock on its last health, Hilde at 3.
    st.health = [1, 3]
    st.stack[-1] = Decision(0, "wound", (0, (1, 1), crone, (0, 0)))
    assert decide(st) == Action("wound", 2)
    play(st, "wound:2")
    assert st.health == [1, 3], "Hilde's armor ignores the first point of the attack"
    assert decide(st) == Action("wound", 2)


def test_a_hero_on_its_last_health_does_not_slay_a_monster_that_explodes_beside_it() -> None:
    st = arena([POCK], [SWORD], [0])
    st.health = [1]
    put(st, "Blister Beetle", 0)
    assert decide(st) != Action("attack", 1)


def test_mighty_boost_is_spent_when_it_turns_a_miss_into_a_kill() -> None:
    st = arena([POCK], [SWORD], [0])
    put(st, "Tusked Brute", 1)  # out of the sword's reach: nothing else to do this turn
    put(st, "Cellar Rat", 0)
    dice(st, 2)  # the sword hits on 3+
    play(st, "attack:1")
    assert decide(st) == Action("boost", 0)


def test_mighty_boost_is_kept_when_the_roll_already_stands() -> None:
    st = arena([POCK], [BOW], [0])
    put(st, "Cellar Rat", 0)
    dice(st, 6, 1)  # one hit slays the rat; the other die could only be wasted
    play(st, "attack:1")
    if st.stack[-1].kind == "boost":
        assert decide(st) == Action("keep")
