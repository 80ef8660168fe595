"""The Crits & Tricks heuristic bot, on positions laid out by hand, and against random bots.

The dice are public, so the bot can see that a later player holds a die that beats its
card: these tests put it in positions where one choice is plainly right.
"""

from __future__ import annotations

from crits_and_tricks_helpers import act, deal, set_dice, start

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games.crits_and_tricks import GAME, CritsAndTricksState


def choice(st: CritsAndTricksState) -> Action:
    seat = GAME.actor(st)
    assert seat is not None
    return GAME.heuristic_agent().choose(InfoSet(GAME, st, seat, Rng(1)))


def all_dice(st: CritsAndTricksState, seat: int, value: int) -> None:
    set_dice(st, seat, d4=min(value, 4), d6=min(value, 6), d8=min(value, 8),
             d10=min(value, 10), d12=min(value, 12), d20=min(value, 20))


def test_it_takes_a_barbarian_trick_with_the_die_that_beats_everyone_left() -> None:
    st = start(3)
    (mine, _, _) = deal(st, "barbarian barbarian", "rogue rogue", "rogue rogue")
    all_dice(st, 0, 3)
    set_dice(st, 0, d20=19)
    for seat in (1, 2):
        all_dice(st, seat, 2)
        set_dice(st, seat, d20=15)  # only the 19 beats what they hold
    picked = choice(st)
    assert picked.kind == "play" and picked.args[:2] == (mine[0], 20)


def test_it_follows_with_a_cheap_die_when_it_cannot_win() -> None:
    st = start(3)
    (_, mine, _) = deal(st, "barbarian barbarian", "barbarian barbarian", "rogue rogue")
    set_dice(st, 0, d20=20)
    all_dice(st, 1, 1)
    set_dice(st, 1, d20=18, d12=11)  # high dice it will want later
    all_dice(st, 2, 1)
    act(st, "play:" + f"{st.hands[0][0]},20", "keep", "done")
    picked = choice(st)
    assert picked.kind == "play" and picked.args[0] == mine[0]
    assert picked.args[1] not in (20, 12), "no high die thrown under a 20"


def test_it_leads_a_rogue_with_its_one() -> None:
    st = start(3)
    deal(st, "rogue barbarian", "druid druid", "druid druid")
    all_dice(st, 0, 9)
    set_dice(st, 0, d20=1)
    all_dice(st, 1, 6)
    all_dice(st, 2, 6)
    picked = choice(st)
    rogue = next(c for c in st.hands[0] if st.card_suit[c] == 1)
    assert picked.kind == "play" and picked.args[:2] == (rogue, 20)


def test_it_spends_a_spare_card_on_the_barbarian_crit_that_wins_the_trick() -> None:
    st = start(3)
    deal(
        st,
        "barbarian barbarian barbarian barbarian rogue rogue rogue rogue",
        "barbarian barbarian",
        "barbarian barbarian",
    )
    all_dice(st, 0, 1)
    set_dice(st, 0, d20=10)
    for seat in (1, 2):
        all_dice(st, seat, 1)
        set_dice(st, seat, d20=12)  # each could beat (or tie, and win late) a 12, not a 13
    act(st, f"play:{st.hands[0][0]},20", "keep")
    crit = next(c for c in st.hands[0] if st.card_suit[c] == 0)
    assert choice(st) == Action("crit", crit, 3)


def test_it_keeps_its_cards_when_no_crit_changes_the_trick() -> None:
    st = start(3)
    deal(st, "barbarian barbarian barbarian", "rogue rogue", "rogue rogue")
    all_dice(st, 0, 1)
    set_dice(st, 0, d20=20)
    all_dice(st, 1, 1)
    all_dice(st, 2, 1)
    act(st, f"play:{st.hands[0][0]},20", "keep")
    assert choice(st) == Action("done")


def test_it_beats_random_bots() -> None:
    wins = 0.0
    games = 30
    pack = GAME.load_pack()
    for seed in range(games):
        agents = [GAME.heuristic_agent(), RandomBot(), RandomBot()]
        result = Match(GAME, agents, seed, GAME.make_config({"players": 3}), pack).run()
        wins += (0 in result.winners) / len(result.winners)
    # Its fair share is a third; over 5,000 games it wins far more (RULES.md).
    assert wins >= games * 0.75


def test_a_dice_rank_says_what_beats_says_for_every_die() -> None:
    """The bot compares ranks (`rank`, one best die a seat) where the rule is `beats`
    (any die of the seat): the two agree for every suit led, every lead size and every
    pair of dice, a Barbarian's crit's raised values included."""
    from tavernkeep.games.crits_and_tricks.heuristic import DICE, beats, rank
    from tavernkeep.games.crits_and_tricks.tricks import BARBARIAN, PALADIN, ROGUE, WIZARD

    for led in (BARBARIAN, ROGUE, WIZARD, PALADIN):
        for lead_size in DICE:
            for my_size in DICE:
                for my_value in range(1, my_size + 7):
                    mine = (my_value, my_size)
                    for size in DICE:
                        for value in range(1, size + 1):
                            theirs = (value, size)
                            assert beats(led, lead_size, mine, theirs) == (
                                rank(led, lead_size, theirs) >= rank(led, lead_size, mine, True)
                            ), (led, lead_size, mine, theirs)
