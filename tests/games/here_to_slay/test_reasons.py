"""The tutor's line of reason for Here to Slay (issue 25): beside each choice, what the
heuristic bot weighs in it, in the cards' words ("58% to roll 7+: DESTROY a Hero").

A line is one short line for every legal action of every position random games reach,
says the same whatever the seat cannot see, and is there for the game's main decisions.
On positions laid out by hand (helpers.py: seat 0 leads with The Ember Sage, whose skill
touches no roll), it says what a person reads, with the chances the rules' own odds give.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from here_to_slay_helpers import act, dice, field, give, new_game, set_row, slain_by

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games.here_to_slay import GAME, HereToSlayState
from tavernkeep.games.here_to_slay.reasons import reason as reason_line

MAIN = {
    ("leader", "leader"),
    ("turn", "draw"),
    ("turn", "play"),
    ("turn", "roll"),
    ("turn", "attack"),
    ("free_roll", "roll"),
    ("challenge", "challenge"),
    ("modifier", "modify"),
    ("modifier", "pass"),
    ("pick", "pick"),
    ("target", "target"),
}
"""(decision, action) kinds the heuristic puts a chance or a value on: each has a line."""
ALWAYS = MAIN - {("modifier", "modify"), ("modifier", "pass")}
"""Of those, the ones with a line every time (a window's roll may have no known purpose)."""
TABLES = [(2, 11), (3, 12), (4, 13), (5, 14), (6, 15)]
"""(players, seed) of the random games walked."""


def reason(st: HereToSlayState, action: Action, seat: int | None = None) -> str:
    actor = GAME.actor(st) if seat is None else seat
    assert actor is not None
    return reason_line(InfoSet(GAME, st, actor, Rng(1)), action)


def positions(players: int, seed: int, actions: int = 260) -> Iterator[HereToSlayState]:
    """Every position of a random game (Match, as tests/agents/test_advice.py's midgame)."""
    match = Match.start(GAME, [RandomBot() for _ in range(players)], seed=seed)
    while GAME.actor(match.state) is not None and match.actions < actions:
        yield match.state
        match.step()


def test_the_main_choices_get_a_reason() -> None:
    """(Every line's form, and its sameness on a table dealt again, in every game:
    tests/agents/test_reasons.py.)"""
    told: Counter[tuple[str, str]] = Counter()
    for players, seed in TABLES:
        for st in positions(players, seed):
            kind = st.stack[-1].kind
            for action in GAME.legal_actions(st):
                line = reason(st, action)
                key = (kind, action.kind)
                if line:
                    told[key] += 1
                else:
                    assert key not in ALWAYS, (action.text, GAME.label(st, action))
    assert set(told) >= MAIN, MAIN - set(told)


# -- what a person reads ---------------------------------------------------------------


def odds(st: HereToSlayState, text: str) -> dict[str, float]:
    seat = GAME.actor(st)
    assert seat is not None
    return InfoSet(GAME, st, seat, Rng(1)).odds(Action.parse(text))


def lines(st: HereToSlayState) -> dict[str, str]:
    return {a.text: reason(st, a) for a in GAME.legal_actions(st)}


def turn_with_sable() -> tuple[HereToSlayState, int]:
    st = new_game()
    (sable, _) = field(st, 0, "Sable Warbrand", "Brannoc the Brawler")
    field(st, 1, "Pim the Apprentice")
    set_row(st, "Grimtooth Ogre", "The Ancient Wyrm", "The Deathless Lich")
    return st, sable


def test_a_hero_roll_says_the_rules_chance_and_what_success_brings() -> None:
    st, sable = turn_with_sable()
    chance = odds(st, f"roll:{sable}")["success"]
    assert f"{chance:.0%}" == "58%"  # 7+ on two dice, no bonus
    assert reason(st, Action("roll", sable)) == "58% to roll 7+: DESTROY a Hero"
    # A Modifier in hand: the rules' second figure, as the odds give it.
    give(st, 0, "Trick of Fate")
    helped = odds(st, f"roll:{sable}")["with your +3"]
    assert reason(st, Action("roll", sable)) == (
        f"58% to roll 7+, {helped:.0%} with your +3: DESTROY a Hero"
    )


def test_a_roll_with_nothing_to_gain_says_so() -> None:
    st, _ = turn_with_sable()
    st.parties[1].clear()  # no Hero left anywhere to DESTROY
    sable = st.parties[0][0]
    assert reason(st, Action("roll", sable)).endswith("DESTROY a Hero (nothing in it for you now)")


def test_an_attack_says_the_slay_the_punishment_and_what_the_monster_is_worth() -> None:
    st, _ = turn_with_sable()
    ogre = st.row[0]
    chances = odds(st, f"attack:{ogre}")
    assert (f"{chances['slay']:.0%}", f"{chances['punishment']:.0%}") == ("42%", "28%")
    assert reason(st, Action("attack", ogre)) == (
        "42% to slay it, your first of three; 28% punished: SACRIFICE a Hero"
    )
    slain_by(st, 0, "Siren of the Black Lake")
    slain_by(st, 0, "Thornback Bear")
    # Two slain: +1 to Hero rolls from the Siren, none to ATTACK; the third wins.
    assert reason(st, Action("attack", ogre)).startswith("42% to slay it, your third: the win;")


def test_a_modifier_says_what_it_does_to_the_roll_and_passing_how_it_stands() -> None:
    st = new_game()
    field(st, 0, "Pim the Apprentice", "Brannoc the Brawler")
    set_row(st, "Grimtooth Ogre", "The Ancient Wyrm", "The Deathless Lich")
    ogre = st.row[0]
    (hex_,) = give(st, 1, "Hex of Weakness")
    dice(st, 4, 5)
    act(st, f"attack:{ogre}")  # 9: slays unless someone answers
    assert GAME.actor(st) == 1
    assert lines(st) == {
        f"modify:{hex_},-4,1": "Player 1's ATTACK on Grimtooth Ogre then is punished "
        "(the slay: their first of three)",
        "pass": "as it stands, Player 1's ATTACK on Grimtooth Ogre slays it (9)",
    }


def test_a_challenge_says_its_chance_and_what_the_card_brings_its_player() -> None:
    st = new_game()
    field(st, 0, "Pim the Apprentice", "Brannoc the Brawler", "Brother Aldous", "Fenn Thistlefoot")
    slain_by(st, 0, "Siren of the Black Lake")
    (hero,) = give(st, 0, "Nib Quickfingers")
    give(st, 1, "Not So Fast!")
    act(st, f"play:{hero}")
    assert GAME.actor(st) == 1
    chance = odds(st, "challenge")["success"]
    assert lines(st) == {
        "challenge": f"{chance:.0%} to stop it: a Thief, Player 1's class 5 of 6; "
        "Player 1 is nearest to winning",
        "pass": "",  # the odds line (none) says it all
    }


def test_a_hero_played_says_its_class_and_its_free_roll() -> None:
    st = new_game()
    field(st, 0, "Pim the Apprentice")
    (same,) = give(st, 0, "Mordaine Ashbrook")  # another Wizard
    (new,) = give(st, 0, "Brannoc the Brawler")  # a Fighter
    told: dict[str, Any] = lines(st)
    # The Ember Sage (a Wizard) and Pim: one class, so a Fighter is the second.
    assert told[f"play:{new}"] == "a Fighter: class 2 of 6; free roll 4+: SEARCH a Challenge card"
    assert told[f"play:{same}"] == "another Wizard; free roll 7+: DRAW 2 cards"


def test_a_player_and_a_card_named_before_a_roll_say_the_rolls_chance() -> None:
    st = new_game()
    (sable,) = field(st, 0, "Sable Warbrand")
    (pim,) = field(st, 1, "Pim the Apprentice")
    field(st, 2, "Brannoc the Brawler")
    act(st, f"roll:{sable}")
    chance = odds(st, "target:2")["on the roll"]
    assert f"{chance:.0%}" == "58%"
    # Two opponents alike (two classes each, no Monster): the first is counted ahead.
    assert lines(st) == {
        "target:2": "58% on the roll; 0 Monsters slain, 2 of 6 classes, 0 cards in hand; "
        "nearest to winning",
        "target:3": "58% on the roll; 0 Monsters slain, 2 of 6 classes, 0 cards in hand",
    }
    act(st, "target:2")
    assert lines(st) == {
        f"pick:{pim}": "58% on the roll; Player 2 (nearest to winning): their only Wizard"
    }
