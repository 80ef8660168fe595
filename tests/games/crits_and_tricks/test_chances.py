"""What each decision of Crits & Tricks tells a seat: who would take the trick after a
choice (its label), and the dice's exact chances (its odds).

Positions are laid out by hand (helpers.py); each expected chance is counted here face by
face, in the comments, from the rules (RULES.md 15-18), not from the code under test. A
second check plays the choice through the game itself, every face scripted in turn, on
positions of random games, and a third re-deals what the seat cannot see and finds the
same labels and odds.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from crits_and_tricks_helpers import (
    act,
    deal,
    decision,
    make_pack,
    new_game,
    set_dice,
    start,
    texts,
)

from tavernkeep.engine.actions import Action
from tavernkeep.engine.rng import Rng, ScriptedRng
from tavernkeep.games.crits_and_tricks import GAME, CritsAndTricksState
from tavernkeep.games.crits_and_tricks.rules import winning
from tavernkeep.games.crits_and_tricks.state import DICE

BARBARIAN, ROGUE, WIZARD, DRUID, PALADIN, BARD = range(6)


def label(st: CritsAndTricksState, text: str) -> str:
    return GAME.label(st, Action.parse(text))


def odds(st: CritsAndTricksState, text: str) -> dict[str, float]:
    return GAME.odds(st, Action.parse(text))


# -- following: a card and a die ------------------------------------------------------------


def barbarian_follow() -> tuple[CritsAndTricksState, list[list[int]]]:
    """Player 1 led a Barbarian with 9 on the d12; Player 2 to follow, Player 3 after."""
    st = start(3)
    hands = deal(st, "barbarian", "barbarian rogue", "druid")
    set_dice(st, 0, d12=9)
    set_dice(st, 1, d4=4, d6=6, d8=5, d10=10, d12=9, d20=3)
    act(st, f"play:{hands[0][0]},12", "keep")
    assert decision(st) == (1, "play")
    return st, hands


def test_each_card_and_die_to_follow_shows_who_would_take_it_and_its_chance() -> None:
    st, hands = barbarian_follow()
    card = hands[1][0]
    # Player 3 still holds a card: the chance is to be ahead of the cards played.
    # d20 (3) is behind the 9; its free re-roll is ahead on 9-20 (a tie goes to the larger
    # die, the d20): 12 faces of 20.
    assert label(st, f"play:{card},20") == (
        "Play a Barbarian with your d20 (3); Player 1 would take it now"
    )
    assert odds(st, f"play:{card},20") == {"to be ahead": 12 / 20}
    # d10 (10) beats the 9 now: sure, no re-roll needed.
    assert label(st, f"play:{card},10").endswith("; you would take it now")
    assert odds(st, f"play:{card},10") == {"to be ahead": 1.0}
    # d12 (9) ties the 9 on a d12 of the same size: the later card takes it.
    assert label(st, f"play:{card},12").endswith("; you would take it now")
    # d8 (5), d6 (6), d4 (4): no face of theirs reaches 9.
    for size in (8, 6, 4):
        assert label(st, f"play:{card},{size}").endswith("; Player 1 would take it now")
        assert odds(st, f"play:{card},{size}") == {"to be ahead": 0.0}


def test_an_off_suit_card_says_it_cannot_win_and_the_leader_is_told_nothing() -> None:
    st = start(3)
    hands = deal(st, "barbarian", "rogue", "druid")
    set_dice(st, 0, d20=2)
    lead = f"play:{hands[0][0]},20"
    assert label(st, lead) == "Play a Barbarian with your d20 (2)"
    assert odds(st, lead) == {}
    act(st, lead, "keep")
    follow = f"play:{hands[1][0]},20"
    assert label(st, follow).endswith("; off suit, cannot win")
    assert odds(st, follow) == {}


def test_the_last_to_play_is_told_its_chance_to_take_it() -> None:
    st = start(2)
    hands = deal(st, "rogue", "rogue bard")
    set_dice(st, 0, d6=2)
    set_dice(st, 1, d8=5)
    act(st, f"play:{hands[0][0]},6", "keep")
    # Rogue: the lowest takes it. A d8 re-roll takes it on a 1, or on a 2, the tie going
    # to the larger die: 2 faces of 8.
    assert odds(st, f"play:{hands[1][0]},8") == {"to take it": 2 / 8}
    act(st, f"play:{hands[1][0]},8")
    assert decision(st) == (1, "reroll")
    assert label(st, "reroll") == "Re-roll the d8 (5)"
    assert odds(st, "reroll") == {"to take it": 2 / 8}
    assert label(st, "keep") == "Keep the d8 (5); Player 1 would take it now"
    assert odds(st, "keep") == {}
    act(st, "keep")
    # The Bard crit re-rolls, then once more if the first leaves the seat behind:
    # 1 - (6/8)^2 = 28/64.
    bard = f"crit:{hands[1][1]}"
    assert label(st, bard) == "Bard crit: re-roll your d8 (5), and once more if you like"
    assert odds(st, bard) == {"to take it": 1 - (6 / 8) ** 2}
    assert label(st, "done") == "No more crits: end your turn; Player 1 would take it now"


def test_the_re_roll_after_a_follow_is_the_chance_to_be_ahead() -> None:
    st, hands = barbarian_follow()
    act(st, f"play:{hands[1][0]},20")
    assert odds(st, "reroll") == {"to be ahead": 12 / 20}
    assert label(st, "keep") == "Keep the d20 (3); Player 1 would take it now"


# -- the leader's re-roll -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("suit", "size", "shown", "expected"),
    [
        # 9 on a d12: better 10-12 (3), worse 1-8 (8).
        ("barbarian", 12, 9, {"better": 3 / 12, "worse": 8 / 12}),
        # 3 on a d8, lowest wins: better 1-2 (2), worse 4-8 (5).
        ("rogue", 8, 3, {"better": 2 / 8, "worse": 5 / 8}),
        # 7 on a d10, closest to 5: better 4, 5, 6 (3); as close 3, 7; worse 1, 2, 8-10 (5).
        ("wizard", 10, 7, {"better": 3 / 10, "worse": 5 / 10}),
        # 4 on a d6, the second-highest wins: higher 5-6 (2), lower 1-3 (3).
        ("druid", 6, 4, {"higher": 2 / 6, "lower": 3 / 6}),
        # 5 on a d20 in a Paladin trick: higher is better, 6-20 (15), worse 1-4 (4).
        ("paladin", 20, 5, {"better": 15 / 20, "worse": 4 / 20}),
    ],
)
def test_the_leaders_re_roll_shows_better_and_worse_by_the_led_suit(
    suit: str, size: int, shown: int, expected: dict[str, float]
) -> None:
    others = [s for s in ("barbarian", "rogue", "wizard", "druid", "paladin") if s != suit]
    st = start(3, suits=(suit, *others[:2]))
    hands = deal(st, suit, "bard", "bard")
    set_dice(st, 0, **{f"d{size}": shown})
    act(st, f"play:{hands[0][0]},{size}")
    assert label(st, "reroll") == f"Re-roll the d{size} ({shown})"
    assert odds(st, "reroll") == pytest.approx(expected)
    assert label(st, "keep") == f"Keep the d{size} ({shown})"  # alone: nobody to beat yet


def test_the_leaders_bard_crit_counts_a_second_re_roll_unless_the_first_is_better() -> None:
    st = start(3)
    hands = deal(st, "barbarian bard", "rogue", "druid")
    set_dice(st, 0, d12=9)
    act(st, f"play:{hands[0][0]},12", "keep")
    # Better 3/12 a roll: 1 - (9/12)^2; worse only if the first is not better and the
    # second is worse: 9/12 x 8/12.
    assert odds(st, f"crit:{hands[0][1]}") == pytest.approx(
        {"better": 1 - (9 / 12) ** 2, "worse": 9 / 12 * 8 / 12}
    )


# -- crits ----------------------------------------------------------------------------------


def test_a_druid_crit_shows_the_chance_after_the_opponents_re_roll() -> None:
    st = start(3)
    hands = deal(st, "barbarian", "barbarian druid", "rogue")
    set_dice(st, 0, d20=15)
    set_dice(st, 1, d12=12)
    act(st, f"play:{hands[0][0]},20", "keep")
    act(st, f"play:{hands[1][0]},12", "keep")
    assert label(st, "done") == "No more crits: end your turn; Player 1 would take it now"
    druid = f"crit:{hands[1][1]},1"
    assert label(st, druid) == "Druid crit: Player 1 re-rolls their d20 (15)"
    # Player 2's 12 is ahead when the d20 shows 1-11 (a 12 ties, and the d20 takes a tie).
    assert odds(st, druid) == {"to be ahead": 11 / 20}


def test_a_sure_crit_says_who_would_take_the_trick_after_it() -> None:
    st = start(2, suits=("barbarian", "rogue", "paladin"))
    hands = deal(st, "barbarian", "barbarian barbarian paladin rogue")
    set_dice(st, 0, d10=8)
    set_dice(st, 1, d12=7)
    act(st, f"play:{hands[0][0]},10", "keep")
    act(st, f"play:{hands[1][0]},12", "keep")
    crit = hands[1][1]
    # 7 + 1 = 8 ties the 8; the d12 is larger than the d10 and takes the tie.
    assert label(st, f"crit:{crit},1") == (
        "Barbarian crit: +1 to your d12 (7 → 8); you would take it now"
    )
    assert label(st, f"crit:{crit},-1").endswith("; Player 1 would take it now")
    assert odds(st, f"crit:{crit},1") == {}
    # A Paladin crit wins a tie, and 7 against 8 is none.
    assert label(st, f"crit:{hands[1][2]}") == (
        "Paladin crit: you win a tie; Player 1 would take it now"
    )


def test_a_paladin_crit_that_wins_a_tie_says_so() -> None:
    st = start(2, suits=("barbarian", "rogue", "paladin"))
    hands = deal(st, "barbarian", "barbarian paladin")
    set_dice(st, 0, d12=9)
    set_dice(st, 1, d10=9)
    act(st, f"play:{hands[0][0]},12", "keep")
    act(st, f"play:{hands[1][0]},10", "keep")
    # 9 and 9: the larger die, the d12, takes the tie, unless a Paladin crit.
    assert label(st, "done").endswith("; Player 1 would take it now")
    assert label(st, f"crit:{hands[1][1]}").endswith("; you would take it now")


def test_a_rogue_crit_that_goes_last_after_an_earlier_one_says_so() -> None:
    st = start(3)
    hands = deal(st, "barbarian rogue", "barbarian rogue", "druid")
    set_dice(st, 0, d12=9)
    set_dice(st, 1, d12=9)
    act(st, f"play:{hands[0][0]},12", "keep", f"crit:{hands[0][1]}")
    act(st, f"play:{hands[1][0]},12", "keep")
    # Player 1's Rogue crit put its 9 last in turn order; Player 2's own goes later still.
    assert label(st, "done").endswith("; Player 1 would take it now")
    assert label(st, f"crit:{hands[1][1]}") == (
        "Rogue crit: go last in turn order (you win a tie on order); you would take it now"
    )


def test_a_wizard_crit_says_who_would_take_the_trick_with_the_die_it_swaps_to() -> None:
    st = start(2, suits=("barbarian", "wizard", "druid"))
    hands = deal(st, "barbarian", "barbarian wizard")
    set_dice(st, 0, d20=15)
    set_dice(st, 1, d4=2, d20=18)
    st.used[1] |= 1 << DICE.index(20)  # the d20 was used in an earlier trick
    act(st, f"play:{hands[0][0]},20", "keep")
    act(st, f"play:{hands[1][0]},4", "keep")
    assert label(st, f"crit:{hands[1][1]},20") == (
        "Wizard crit: swap to your used d20 (18), freeing this die; you would take it now"
    )


# -- the Barkeep's Challenge ---------------------------------------------------------------


def test_the_challenges_that_count_values_show_the_dice_as_they_stand() -> None:
    pack = make_pack(
        barkeeps={
            "Most Tricks": {"loot": 3, "measure": "tricks_won"},
            "High Stakes": {"loot": 2, "measure": "highest_value"},
            "Lightweight": {"loot": 3, "measure": "total_value", "best": "fewest"},
        }
    )
    st = new_game(3, pack=pack)
    while decision(st)[1] == "give_up":
        act(st, texts(st)[0])
    seat, kind = decision(st)
    assert kind == "barkeep"
    values = {0: [1, 2, 3, 4, 5, 19], 1: [4, 6, 8, 10, 12, 20], 2: [1, 1, 1, 1, 1, 1]}
    for s, dice in values.items():
        st.dice[s] = dice[:]
    mine = values[seat]
    others = [s for s in range(3) if s != seat]
    best = max(max(values[s]) for s in others)
    low = min(sum(values[s]) for s in others)
    high_by = " and ".join(f"Player {s + 1}" for s in others if max(values[s]) == best)
    low_by = " and ".join(f"Player {s + 1}" for s in others if sum(values[s]) == low)
    assert label(st, "barkeep:2") == (
        f"High Stakes: High Stakes (2 loot); dice now: your highest {max(mine)}, "
        f"the others' {best} ({high_by})"
    )
    assert label(st, "barkeep:3") == (
        f"Lightweight: Lightweight (3 loot); dice now: your total {sum(mine)}, "
        f"the others' lowest {low} ({low_by})"
    )
    assert label(st, "barkeep:1") == "Most Tricks: Most Tricks (3 loot)"
    assert all(odds(st, t) == {} for t in texts(st))


# -- the odds are the game's own dice, and tell nothing hidden ---------------------------------


def outcome(st: CritsAndTricksState, seat: int, texts_: list[str], faces: list[int]) -> bool:
    """Whether `seat` takes the trick (or is ahead of the cards played) once `texts_` are
    played on a copy with the dice scripted to `faces`."""
    twin = GAME.clone(st)
    twin.rng = ScriptedRng([*faces, *[1] * 200])  # a new round rolls its dice after
    trick = twin.trick
    for text in texts_:
        for event in GAME.apply(twin, Action.parse(text)):
            if event.kind == "trick" and event.data["trick"] == trick:
                return bool(event.data["seat"] == seat)
    return winning(twin) == seat


def rolled(st: CritsAndTricksState, seat: int, text: str, size: int) -> Fraction:
    """The share of the faces of a d`size` on which `text` leaves `seat` taking the trick."""
    return Fraction(sum(outcome(st, seat, [text], [f]) for f in range(1, size + 1)), size)


def expected(st: CritsAndTricksState, action: Action) -> Fraction | None:
    """The chance of `action` played through the game, face by face; None where the
    game gives no chance of taking the trick (a leader, an off-suit card, a sure crit)."""
    seat = st.stack[-1].seat
    if action.kind == "play":
        if not st.table:
            return None
        suit = st.card_suit[int(action.args[0])]
        if suit not in (st.led, BARD):
            return None
        if outcome(st, seat, [action.text], []):
            return Fraction(1)
        size = int(action.args[1])
        twin = GAME.clone(st)
        GAME.apply(twin, action)
        return rolled(twin, seat, "reroll", size)
    if len(st.table) < 2 or not any(c.seat == seat for c in st.table):
        return None
    mine = st.table[-1]
    size = DICE[mine.die]
    if action.kind == "reroll":
        return rolled(st, seat, "reroll", size)
    if action.kind != "crit":
        return None
    suit = st.card_suit[int(action.args[0])]
    if suit == DRUID:
        target = int(action.args[1]) - 1
        theirs = next(c for c in st.table if c.seat == target)
        return rolled(st, seat, action.text, DICE[theirs.die])
    if suit == BARD:
        total = Fraction(0)
        for first in range(1, size + 1):
            if outcome(st, seat, [action.text], [first]):
                total += 1
            else:
                again = sum(
                    outcome(st, seat, [action.text, "reroll"], [first, f])
                    for f in range(1, size + 1)
                )
                total += Fraction(again, size)
        return total / size
    return None


def test_every_chance_is_the_share_of_faces_the_game_itself_gives() -> None:
    checked = 0
    for seed in range(20):
        st = GAME.setup(GAME.make_config({"players": 2 + seed % 3}), seed)
        rng = random.Random(seed)
        while GAME.actor(st) is not None:
            for action in GAME.legal_actions(st):
                want = expected(st, action)
                got = GAME.odds(st, action)
                if want is None:
                    assert set(got) <= {"better", "worse", "higher", "lower"}, (action, got)
                    continue
                assert len(got) == 1, got
                assert next(iter(got.values())) == pytest.approx(float(want)), (seed, action.text)
                checked += 1
            GAME.apply(st, rng.choice(GAME.legal_actions(st)), False)
    assert checked > 500, checked


def test_labels_and_odds_are_the_same_whatever_the_seat_cannot_see() -> None:
    # Another hand, the deck and the dice to come re-dealt: nothing the seat is told moves.
    rng = Rng(7)
    compared = 0
    for seed in range(60):
        st = GAME.setup(GAME.make_config({"players": 2 + seed % 3}), seed)
        moves = random.Random(seed)
        while GAME.actor(st) is not None:
            seat = GAME.actor(st)
            assert seat is not None
            twin = GAME.determinize(st, seat, rng)
            for action in GAME.legal_actions(st):
                assert GAME.label(twin, action) == GAME.label(st, action)
                chances = GAME.odds(st, action)
                assert GAME.odds(twin, action) == chances
                assert all(0.0 <= p <= 1.0 for p in chances.values())
                assert sum(chances.values()) <= 1.0 + 1e-9
                compared += 1
            GAME.apply(st, moves.choice(GAME.legal_actions(st)), False)
    assert compared > 5000
