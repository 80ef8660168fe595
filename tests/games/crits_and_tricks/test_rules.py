"""The rules of Crits & Tricks through the Game protocol, on positions laid out by hand.

Each test builds a game on a small pack of its own (helpers.PACK), answers the round's
opening decisions, deals named suits into hands, sets dice values, and scripts re-rolls
with ScriptedRng. The numbers in comments are RULES.md's items.
"""

from __future__ import annotations

from collections import Counter

import pytest
from crits_and_tricks_helpers import (
    BARKEEP_NAMES,
    PACK,
    SIZES,
    SUIT,
    act,
    barkeep_id,
    choose_barkeep,
    deal,
    decision,
    kinds,
    new_game,
    no_quests,
    quest_id,
    script,
    set_dice,
    settle,
    start,
    taken,
    texts,
    turn,
    used,
    value,
)

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import ConfigError, IllegalAction
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games.crits_and_tricks import GAME, CritsAndTricksState

BARBARIAN, ROGUE, WIZARD, DRUID, PALADIN, BARD = range(6)


def finish_trick(st: CritsAndTricksState) -> None:
    """Every seat still to play this trick plays its first legal card on its first die."""
    trick, rnd = st.trick, st.round
    while st.stack and st.trick == trick and st.round == rnd and decision(st)[1] == "play":
        seat = decision(st)[0]
        first = GAME.legal_actions(st)[0]
        turn(st, int(first.args[0]), int(first.args[1]), *(str(a) for a in first.args[2:]))
        if st.stack and decision(st)[0] == seat and decision(st)[1] != "play":
            raise AssertionError(f"unexpected decision {decision(st)}")


def play_out_round(st: CritsAndTricksState) -> None:
    """First legal action everywhere until the round ends (or the game does)."""
    rnd = st.round
    while st.stack and st.round == rnd:
        act(st, texts(st)[0])


# -- the deck and the deal (RULES 1-4) --------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_players_deal_8_cards_from_32_with_8_bards(players: int) -> None:
    st = new_game(players, suits=("rogue", "wizard", "paladin"))
    assert len(st.card_suit) == 32
    assert Counter(st.card_suit) == {ROGUE: 8, WIZARD: 8, PALADIN: 8, BARD: 8}
    assert [len(h) for h in st.hands] == [8] * players
    assert len(st.deck) == 32 - 8 * players and st.discard == []
    assert sorted(st.deck + [c for h in st.hands for c in h]) == list(range(32))


def test_two_players_deal_8_cards_from_18_with_6_bards() -> None:
    st = new_game(2, suits=("barbarian", "druid", "paladin"))
    assert len(st.card_suit) == 18
    assert Counter(st.card_suit) == {BARBARIAN: 4, DRUID: 4, PALADIN: 4, BARD: 6}
    assert [len(h) for h in st.hands] == [8, 8]
    assert len(st.deck) == 2
    assert sorted(st.deck + st.hands[0] + st.hands[1]) == list(range(18))


def test_option_suits_fixes_the_three_suits_in_play_and_the_bard_is_always_in() -> None:
    st = new_game(3, suits=("paladin", "barbarian", "wizard"))
    assert st.suits == (BARBARIAN, WIZARD, PALADIN)
    assert GAME.view(st, None)["suits"] == ["Barbarian", "Wizard", "Paladin", "Bard"]


def test_without_the_option_three_suits_are_drawn_at_random() -> None:
    drawn = set()
    for seed in range(40):
        st = GAME.setup(GAME.make_config({"players": 3}), seed, PACK)
        assert len(st.suits) == 3 and len(set(st.suits)) == 3 and BARD not in st.suits
        assert set(st.card_suit) == {*st.suits, BARD}
        drawn.add(st.suits)
    assert len(drawn) > 3


@pytest.mark.parametrize(
    "suits",
    [["barbarian", "barbarian", "rogue"], ["barbarian", "rogue"], ["bard", "rogue", "druid"]],
)
def test_option_suits_must_name_three_different_mercenary_suits(suits: list[str]) -> None:
    with pytest.raises(ConfigError) as err:
        GAME.setup(GAME.make_config({"players": 3, "suits": suits}), 1, PACK)
    assert "suits" in str(err.value) and "\n" not in str(err.value)


def test_every_round_deals_8_fresh_cards_from_the_whole_deck() -> None:
    st = start(3, tricks=2)
    play_out_round(st)
    assert st.round == 2
    assert [len(h) for h in st.hands] == [8, 8, 8]
    assert st.discard == [] and len(st.deck) == 8
    assert sorted(st.deck + [c for h in st.hands for c in h]) == list(range(32))


# -- the dice (RULES 4, 5) ----------------------------------------------------------------


def test_every_die_is_rolled_at_the_round_start_and_every_view_shows_all_of_them() -> None:
    st = new_game(4)
    for seat in (None, 0, 1, 2, 3):
        view = GAME.view(st, seat)
        for s, entry in enumerate(view["seats"]):
            assert [d["die"] for d in entry["dice"]] == list(SIZES)
            assert [d["value"] for d in entry["dice"]] == st.dice[s]
            assert not any(d["used"] for d in entry["dice"])
    for s in range(4):
        assert all(1 <= v <= size for v, size in zip(st.dice[s], SIZES, strict=True))


def test_a_new_round_rolls_every_die_again_and_frees_them() -> None:
    st = start(3, tricks=1)
    a, b, c = deal(st, "barbarian", "barbarian", "barbarian")
    turn(st, a[0], 20)
    turn(st, b[0], 12)
    script(st, *([1, 2, 3, 4, 5, 6] * 3))
    turn(st, c[0], 4)
    assert st.round == 2
    assert st.dice == [[1, 2, 3, 4, 5, 6]] * 3
    assert st.used == [0, 0, 0]


def test_a_die_is_used_once_a_round() -> None:
    st = start(3)
    a, b, c = deal(st, "barbarian barbarian", "rogue rogue", "druid druid")
    turn(st, a[0], 20)
    assert used(st, 0) == {20}
    view = GAME.view(st, 2)
    assert [d["used"] for d in view["seats"][0]["dice"]] == [False] * 5 + [True]
    turn(st, b[0], 20)
    turn(st, c[0], 20)
    assert decision(st) == (0, "play")  # seat 0 took the only Barbarian-led trick
    assert all(int(x.args[1]) != 20 for x in GAME.legal_actions(st))
    assert {int(x.args[1]) for x in GAME.legal_actions(st)} == {4, 6, 8, 10, 12}
    with pytest.raises(IllegalAction):
        act(st, f"play:{a[1]},20")


# -- playing a card (RULES 5, 6) ---------------------------------------------------------


def test_identical_cards_are_one_choice_and_each_is_offered_with_every_unused_die() -> None:
    st = start(3)
    a, _, _ = deal(st, "barbarian barbarian rogue", "rogue", "rogue")
    assert texts(st) == [f"play:{a[0]},{s}" for s in SIZES] + [f"play:{a[2]},{s}" for s in SIZES]


def test_a_follower_holding_the_led_suit_or_a_bard_must_play_one_of_them() -> None:
    st = start(3)
    a, b, _c = deal(st, "barbarian", "barbarian bard druid", "druid rogue")
    turn(st, a[0], 20)
    offered = {int(x.args[0]) for x in GAME.legal_actions(st)}
    assert offered == {b[0], b[1]}
    with pytest.raises(IllegalAction):
        act(st, f"play:{b[2]},20")


def test_a_follower_holding_only_a_bard_must_play_it() -> None:
    st = start(3)
    a, b, _ = deal(st, "barbarian", "rogue bard druid", "druid rogue")
    turn(st, a[0], 20)
    assert {int(x.args[0]) for x in GAME.legal_actions(st)} == {b[1]}


def test_a_follower_with_neither_the_led_suit_nor_a_bard_may_play_anything() -> None:
    st = start(3)
    a, b, c = deal(st, "barbarian", "barbarian", "druid rogue")
    turn(st, a[0], 20)
    turn(st, b[0], 20)
    assert {int(x.args[0]) for x in GAME.legal_actions(st)} == {c[0], c[1]}
    act(st, f"play:{c[1]},8")
    assert GAME.view(st, None)["table"][-1]["followed"] is False


def test_a_led_bard_names_one_of_the_three_suits_in_play() -> None:
    st = start(3, suits=("barbarian", "rogue", "druid"))
    a, b, _c = deal(st, "bard", "rogue barbarian", "druid")
    assert texts(st) == [
        f"play:{a[0]},{s},{name}" for s in SIZES for name in ("barbarian", "rogue", "druid")
    ]
    for bad in (f"play:{a[0]},20", f"play:{a[0]},20,wizard", f"play:{a[0]},20,bard"):
        with pytest.raises(IllegalAction):
            act(st, bad)
    turn(st, a[0], 20, "rogue")
    assert st.led == ROGUE
    assert GAME.view(st, 1)["led"] == "Rogue"
    # The Bard stands for a Rogue: the follower holding a Rogue must play it.
    assert {int(x.args[0]) for x in GAME.legal_actions(st)} == {b[0]}


def test_a_bard_follows_any_suit_and_names_nothing() -> None:
    st = start(3)
    a, b, _c = deal(st, "druid", "bard barbarian", "druid")
    turn(st, a[0], 20)
    assert texts(st) == [f"play:{b[0]},{s}" for s in SIZES]
    with pytest.raises(IllegalAction):
        act(st, f"play:{b[0]},20,barbarian")
    turn(st, b[0], 12)
    assert GAME.view(st, None)["table"][1]["followed"] is True


# -- the free re-roll (RULES 7) ------------------------------------------------------------


def test_the_free_reroll_comes_once_right_after_the_play_and_its_result_stands() -> None:
    st = start(3)
    a, _, _ = deal(st, "barbarian rogue", "rogue", "druid")
    set_dice(st, 0, d12=3)
    act(st, f"play:{a[0]},12")
    assert decision(st) == (0, "reroll")
    assert texts(st) == ["reroll", "keep"]
    with pytest.raises(IllegalAction):
        act(st, f"crit:{a[1]}")  # no crit before the re-roll is settled
    script(st, 9)
    act(st, "reroll")
    assert value(st, 0, 12) == 9
    assert GAME.view(st, 1)["table"][0]["value"] == 9
    assert GAME.view(st, 1)["table"][0]["rerolled"] is True
    assert decision(st) == (0, "crit")
    assert "reroll" not in texts(st) and "keep" not in texts(st)


def test_keeping_the_die_leaves_its_value() -> None:
    st = start(3)
    a, _, _ = deal(st, "barbarian", "rogue", "druid")
    set_dice(st, 0, d12=3)
    script(st)  # any roll would fail
    act(st, f"play:{a[0]},12", "keep")
    assert value(st, 0, 12) == 3
    assert st.table[0].rerolled is False


# -- crits (RULES 8-14) ---------------------------------------------------------------------


def test_barbarian_crit_moves_the_die_by_1_to_3_within_its_range() -> None:
    st = start(3)
    a, _, _ = deal(st, "barbarian barbarian barbarian", "rogue", "druid")
    set_dice(st, 0, d4=2, d20=19)
    act(st, f"play:{a[0]},4", "keep")
    crit = a[1]
    assert texts(st) == [f"crit:{crit},-1", f"crit:{crit},1", f"crit:{crit},2", "done"]
    act(st, f"crit:{crit},2")
    assert value(st, 0, 4) == 4
    assert crit not in st.hands[0] and crit in st.discard
    assert texts(st) == [f"crit:{a[2]},{d}" for d in (-3, -2, -1)] + ["done"]
    act(st, f"crit:{a[2]},-3")
    assert value(st, 0, 4) == 1
    assert st.hands[0] == [] and decision(st) == (1, "play")
    st2 = start(3)
    a, _, _ = deal(st2, "barbarian barbarian", "rogue", "druid")
    set_dice(st2, 0, d20=19)
    act(st2, f"play:{a[0]},20", "keep")
    assert texts(st2) == [f"crit:{a[1]},{d}" for d in (-3, -2, -1, 1)] + ["done"]
    with pytest.raises(IllegalAction):
        act(st2, f"crit:{a[1]},2")


def test_rogue_crit_makes_the_card_last_in_turn_order() -> None:
    def trick(crit: bool) -> int:
        st = start(3)
        a, b, c = deal(st, "barbarian rogue", "barbarian", "barbarian")
        for seat in range(3):
            set_dice(st, seat, d12=10)
        act(st, f"play:{a[0]},12", "keep")
        if crit:
            act(st, f"crit:{a[1]}")
            assert GAME.view(st, 2)["table"][0]["last"] is True
        else:
            act(st, "done")
        turn(st, b[0], 12)
        return taken(turn(st, c[0], 12))

    assert trick(crit=False) == 2
    assert trick(crit=True) == 0


def test_the_latest_rogue_crit_is_last() -> None:
    st = start(3, suits=("barbarian", "rogue", "wizard"))
    a, b, c = deal(st, "barbarian rogue", "barbarian", "barbarian rogue")
    for seat in range(3):
        set_dice(st, seat, d12=10)
    act(st, f"play:{a[0]},12", "keep", f"crit:{a[1]}")
    turn(st, b[0], 12)
    assert taken(act(st, f"play:{c[0]},12", "keep", f"crit:{c[1]}")) == 2


def test_wizard_crit_is_not_offered_without_a_used_die() -> None:
    st = start(3, suits=("barbarian", "wizard", "druid"))
    a, _, _ = deal(st, "barbarian wizard", "druid", "druid")
    act(st, f"play:{a[0]},20", "keep")
    assert texts(st) == ["done"]


def test_wizard_crit_swaps_to_a_used_die_and_frees_the_played_one_keeping_values() -> None:
    st = start(3, suits=("barbarian", "wizard", "druid"))
    a, b, c = deal(st, "barbarian barbarian wizard barbarian", "druid druid", "druid druid")
    set_dice(st, 0, d4=2, d20=3, d8=7)
    turn(st, a[0], 20)
    turn(st, b[0], 20)
    turn(st, c[0], 20)
    assert st.tricks[-1].winner == 0 and decision(st) == (0, "play")
    act(st, f"play:{a[1]},4", "keep")
    assert [t for t in texts(st) if t.startswith(f"crit:{a[2]},")] == [f"crit:{a[2]},20"]
    act(st, f"crit:{a[2]},20", "done")
    view = GAME.view(st, 1)
    assert (view["table"][0]["die"], view["table"][0]["value"]) == (20, 3)
    assert used(st, 0) == {20}
    assert value(st, 0, 4) == 2 and value(st, 0, 20) == 3
    turn(st, b[1], 12)
    turn(st, c[1], 12)
    record = st.tricks[-1]
    assert (record.plays[0].die, record.plays[0].value, record.plays[0].crits) == (
        20,
        3,
        ("Wizard",),
    )
    # The d4 came back unused, with its 2, for a later trick; the d20 is still spent.
    assert decision(st) == (0, "play")
    assert f"play:{a[3]},4" in texts(st) and f"play:{a[3]},20" not in texts(st)


def test_druid_crit_rerolls_an_opponent_who_already_played_and_they_keep_it() -> None:
    st = start(3, suits=("barbarian", "wizard", "druid"))
    a, b, c = deal(st, "barbarian druid", "barbarian druid", "barbarian druid")
    set_dice(st, 0, d20=18)
    act(st, f"play:{a[0]},20", "keep")
    assert texts(st) == ["done"]  # nobody has played yet: no Druid target
    act(st, "done")
    act(st, f"play:{b[0]},12", "keep")
    # Player 1 only: not Player 3, who has not played, nor Player 2 themself.
    assert texts(st) == [f"crit:{b[1]},1", "done"]
    for other in (3, 2, 0):
        with pytest.raises(IllegalAction):
            act(st, f"crit:{b[1]},{other}")
    script(st, 4)
    act(st, f"crit:{b[1]},1")
    assert value(st, 0, 20) == 4
    assert GAME.view(st, 2)["table"][0]["value"] == 4
    act(st, f"play:{c[0]},8", "keep")
    assert texts(st) == [f"crit:{c[1]},1", f"crit:{c[1]},2", "done"]


def test_paladin_crit_wins_a_tie_over_a_larger_die_and_a_later_seat() -> None:
    st = start(3, suits=("barbarian", "rogue", "paladin"))
    a, b, c = deal(st, "barbarian paladin", "barbarian", "barbarian")
    set_dice(st, 0, d12=9)
    set_dice(st, 1, d20=9)
    set_dice(st, 2, d12=9)
    act(st, f"play:{a[0]},12", "keep", f"crit:{a[1]}")
    assert GAME.view(st, 1)["table"][0]["paladin"] is True
    turn(st, b[0], 20)
    assert taken(turn(st, c[0], 12)) == 0


def test_the_last_paladin_crit_used_wins_the_tie() -> None:
    st = start(3, suits=("barbarian", "rogue", "paladin"))
    a, b, c = deal(st, "barbarian paladin", "barbarian paladin", "barbarian")
    set_dice(st, 0, d12=9)
    set_dice(st, 1, d12=9)
    set_dice(st, 2, d20=9)
    act(st, f"play:{a[0]},12", "keep", f"crit:{a[1]}")
    act(st, f"play:{b[0]},12", "keep", f"crit:{b[1]}")
    assert taken(turn(st, c[0], 20)) == 1


def test_a_paladin_trick_reads_the_lead_die_after_a_wizard_swap() -> None:
    def trick(swap: bool) -> int:
        st = start(3, suits=("wizard", "druid", "paladin"))
        a, b, c = deal(st, "druid paladin wizard", "wizard paladin", "wizard paladin")
        set_dice(st, 0, d12=2, d4=1)
        set_dice(st, 1, d4=4)
        set_dice(st, 2, d12=12)
        turn(st, a[0], 12)
        turn(st, b[0], 20)
        assert taken(turn(st, c[0], 20)) == 0  # the lone Druid
        # Seat 0 leads a Paladin on the d4 (1); its Wizard may swap it to the used d12 (2).
        act(st, f"play:{a[1]},4", "keep")
        act(st, f"crit:{a[2]},12" if swap else "done")
        turn(st, b[1], 4)  # 4 on a d4
        return taken(turn(st, c[1], 12))  # 12 on a d12

    assert trick(swap=False) == 1  # d4s compete: 4 beats 1
    assert trick(swap=True) == 2  # d12s compete: 12 beats 2


def test_bard_crit_rerolls_then_may_reroll_once_more_and_the_last_result_stands() -> None:
    st = start(3)
    a, _, _ = deal(st, "barbarian bard bard", "rogue", "druid")
    set_dice(st, 0, d20=5)
    act(st, f"play:{a[0]},20", "keep")
    script(st, 12, 17, 2)
    act(st, f"crit:{a[1]}")
    assert value(st, 0, 20) == 12
    assert decision(st) == (0, "bard") and texts(st) == ["reroll", "keep"]
    act(st, "reroll")
    assert value(st, 0, 20) == 17
    assert decision(st) == (0, "crit")  # one crit left this turn
    act(st, f"crit:{a[2]}", "keep")
    assert value(st, 0, 20) == 2
    assert decision(st) == (1, "play")  # two crits used: the turn is over
    assert st.rng.script == []


def test_at_most_two_crits_a_turn_and_spent_cards_are_gone_for_the_round() -> None:
    st = start(3)
    a, _, _ = deal(st, "barbarian barbarian barbarian barbarian", "rogue", "druid")
    set_dice(st, 0, d20=10)
    act(st, f"play:{a[0]},20", "keep", f"crit:{a[1]},1")
    with pytest.raises(IllegalAction):
        act(st, f"crit:{a[1]},1")  # spent
    act(st, f"crit:{a[2]},1")
    assert value(st, 0, 20) == 12
    assert decision(st) == (1, "play")
    assert st.hands[0] == [a[3]]
    assert sorted(st.discard) == sorted(a[:3])
    assert st.table[0].crits == [BARBARIAN, BARBARIAN]
    assert GAME.view(st, 0)["seats"][0]["hand_size"] == 1


def test_crits_renew_each_turn() -> None:
    st = start(3)
    a, b, c = deal(st, "barbarian barbarian barbarian barbarian barbarian", "rogue", "druid")
    set_dice(st, 0, d20=10, d12=5)
    act(st, f"play:{a[0]},20", "keep", f"crit:{a[1]},1", f"crit:{a[2]},1")
    turn(st, b[0], 20)
    turn(st, c[0], 20)
    assert decision(st) == (0, "play")
    act(st, f"play:{a[3]},12", "keep")
    assert f"crit:{a[4]},1" in texts(st)


# -- empty hands, leading and the round (RULES 20, 21) ---------------------------------------


def test_an_empty_hand_sits_out_the_rest_of_the_round() -> None:
    st = start(3)
    a, b, c = deal(st, "barbarian barbarian", "barbarian", "barbarian barbarian")
    set_dice(st, 0, d20=20)
    turn(st, a[0], 20)
    turn(st, b[0], 20)
    turn(st, c[0], 12)
    assert st.tricks[-1].winner == 0 and st.hands[1] == []
    turn(st, a[1], 12)
    assert decision(st) == (2, "play")  # seat 1 is skipped
    events = turn(st, c[1], 10)
    assert [e.data["trick"] for e in events if e.kind == "trick"] == [2]
    assert "round" in kinds(events)  # every hand is empty: the round is over after 2 tricks
    assert st.round == 2 and st.trick == 1


def test_emptying_a_hand_with_crits_also_sits_out() -> None:
    st = start(3)
    a, b, c = deal(st, "barbarian barbarian", "barbarian rogue", "barbarian barbarian")
    set_dice(st, 0, d20=20)
    turn(st, a[0], 20)
    act(st, f"play:{b[0]},20", "keep", f"crit:{b[1]}")
    assert decision(st) == (2, "play")
    turn(st, c[0], 12)
    turn(st, a[1], 12)
    assert decision(st) == (2, "play")


def test_an_empty_handed_leader_passes_the_lead_to_the_next_player_with_cards() -> None:
    st = start(3)
    a, b, c = deal(st, "barbarian barbarian", "barbarian", "barbarian barbarian")
    set_dice(st, 1, d20=20)
    set_dice(st, 0, d4=1)
    turn(st, a[0], 4)
    turn(st, b[0], 20)
    turn(st, c[0], 4)
    assert st.tricks[-1].winner == 1 and st.hands[1] == []
    assert decision(st) == (2, "play") and st.leader == 2


def test_the_winner_of_a_trick_leads_the_next() -> None:
    st = start(3)
    a, b, c = deal(st, "rogue rogue", "rogue rogue", "rogue rogue")
    set_dice(st, 0, d20=15)
    set_dice(st, 1, d20=10)
    set_dice(st, 2, d20=1)
    turn(st, a[0], 20)
    turn(st, b[0], 20)
    turn(st, c[0], 20)
    assert st.tricks[-1].winner == 2  # Rogue: lowest
    assert decision(st) == (2, "play") and st.leader == 2 and st.trick == 2
    turn(st, c[1], 4)
    assert decision(st) == (0, "play")


def test_a_round_is_six_tricks_when_every_hand_lasts() -> None:
    st = start(3)
    events = []
    while st.round == 1:
        # No crits: each hand of 8 lasts the six tricks.
        events += act(st, "done" if decision(st)[1] == "crit" else texts(st)[0])
    assert [e.data["trick"] for e in events if e.kind == "trick"] == [1, 2, 3, 4, 5, 6]
    assert [len(h) for h in st.hands] == [8, 8, 8]  # dealt again for round 2
    assert st.tricks == [] and st.trick == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_first_leader_rotates_each_round(players: int) -> None:
    st = new_game(players, rounds=5, tricks=1)
    firsts: dict[int, int] = {}
    while st.stack and st.round <= 5:
        settle(st)
        if not st.stack:
            break
        firsts.setdefault(st.round, decision(st)[0])
        assert decision(st)[1] == "play" and st.leader == firsts[st.round]
        no_quests(st)
        play_out_round(st)
    assert firsts == {r: (r - 1) % players for r in range(1, 6)}


# -- quests with 3-4 players (RULES 22, 24, 25) -------------------------------------------


def test_quests_are_dealt_4_and_kept_3_asked_seat_by_seat_from_the_first_leader() -> None:
    st = new_game(3, rounds=2, tricks=1)
    asked = []
    while decision(st)[1] == "give_up":
        seat = decision(st)[0]
        asked.append(seat)
        offered = st.offered[seat][:]
        assert len(offered) == 4
        assert texts(st) == [f"discard:{q}" for q in offered]
        act(st, f"discard:{offered[2]}")
        assert sorted(st.quests[seat]) == sorted(offered[:2] + offered[3:])
        assert st.offered[seat] == []
    assert asked == [0, 1, 2]
    assert decision(st)[1] == "barkeep"
    act(st, texts(st)[0])
    play_out_round(st)
    assert st.round == 2
    asked = []
    while decision(st)[1] == "give_up":
        asked.append(decision(st)[0])
        act(st, texts(st)[0])
    assert asked == [1, 2, 0]


def test_the_discarded_quest_and_the_offer_are_hidden_from_the_others() -> None:
    st = new_game(3)
    offered = st.offered[0][:]
    view0 = GAME.view(st, 0)
    assert [q["id"] for q in view0["decision"]["offered"]] == offered
    for other in (1, 2, None):
        view = GAME.view(st, other)
        assert "offered" not in view["decision"]
        assert all(entry["quests"] is None for entry in view["seats"] if entry["seat"] != other)
    twin = GAME.clone(st)
    events = act(st, f"discard:{offered[0]}")
    twin_events = act(twin, f"discard:{offered[1]}")
    assert st.quests[0] != twin.quests[0]
    for other in (1, 2, None):
        assert GAME.view(st, other) == GAME.view(twin, other)
        seen = [e.for_seat(other) for e in events]
        twin_seen = [e.for_seat(other) for e in twin_events]
        assert [(e.kind, e.text, e.data) for e in seen if e] == [
            (e.kind, e.text, e.data) for e in twin_seen if e
        ]
    view0 = GAME.view(st, 0)
    assert [q["id"] for q in view0["seats"][0]["quests"]] == st.quests[0]
    assert GAME.view(st, 1)["seats"][0]["quests"] is None
    assert GAME.view(st, 1)["seats"][0]["quests_held"] == 3


def test_a_private_quest_pays_right_after_the_trick_that_meets_it() -> None:
    st = start(3)
    st.quests[0] = [quest_id("Leader's Luck"), quest_id("Sore Loser")]
    st.quests[1] = [quest_id("Leader's Luck"), quest_id("Sore Loser")]
    a, b, c = deal(st, "barbarian barbarian", "barbarian", "rogue")
    set_dice(st, 0, d20=20)
    turn(st, a[0], 20)
    turn(st, b[0], 12)
    assert st.loot == [0, 0, 0]
    events = turn(st, c[0], 12)
    assert st.tricks[-1].winner == 0
    assert "quest" in kinds(events)
    assert st.loot == [1, 1, 0]
    assert st.loot_from[0] == [0, 1, 0] and st.loot_from[1] == [0, 1, 0]
    assert st.scored[0] == [quest_id("Leader's Luck")]
    assert st.scored[1] == [quest_id("Sore Loser")]
    assert st.quests[0] == [quest_id("Sore Loser")]
    assert st.quests[1] == [quest_id("Leader's Luck")]
    assert decision(st) == (0, "play")  # paid before the next trick is led
    assert [q["id"] for q in GAME.view(st, 2)["seats"][0]["scored"]] == [quest_id("Leader's Luck")]


def test_a_quest_over_several_tricks_pays_after_the_one_that_completes_it() -> None:
    st = start(3)
    st.quests[0] = [quest_id("Double Up")]
    a, b, c = deal(st, "barbarian barbarian", "rogue rogue", "rogue rogue")
    turn(st, a[0], 20)
    turn(st, b[0], 20)
    turn(st, c[0], 20)
    assert st.loot[0] == 0
    turn(st, a[1], 12)
    turn(st, b[1], 12)
    turn(st, c[1], 12)
    assert st.loot[0] == 3 and st.scored[0] == [quest_id("Double Up")]


def test_a_quest_over_several_tricks_counts_only_this_rounds_tricks() -> None:
    st = start(3, tricks=2)
    a, b, c = deal(st, "barbarian barbarian", "rogue rogue", "rogue rogue")
    for i, size in enumerate((20, 12)):
        turn(st, a[i], size)
        turn(st, b[i], size)
        assert taken(turn(st, c[i], size)) == 0
    assert st.round == 2
    settle(st)
    no_quests(st)
    st.quests[0] = [quest_id("Double Up")]
    a, b, c = deal(st, "barbarian barbarian", "barbarian", "rogue rogue")
    set_dice(st, 0, d20=20)
    set_dice(st, 1, d4=1)
    assert decision(st) == (1, "play")  # round 2 is led by seat 1
    turn(st, b[0], 4)
    turn(st, c[0], 4)
    assert taken(turn(st, a[0], 20)) == 0
    assert st.scored[0] == []  # round 1's last trick does not count
    turn(st, a[1], 12)
    events = turn(st, c[1], 12)
    assert st.scored[0] == [quest_id("Double Up")] and "quest" in kinds(events)


def test_quests_naming_a_suit_not_in_play_are_never_dealt() -> None:
    out = {quest_id(n) for n in ("Wizard Win", "Paladin Win")}
    for seed in range(15):
        st = new_game(3, suits=("barbarian", "rogue", "druid"), seed=seed)
        dealt = {q for o in st.offered for q in o}
        assert len(dealt) == 12
        assert not dealt & out and not set(st.quest_deck) & out
    st = new_game(2, suits=("wizard", "rogue", "paladin"))
    assert not set(st.quests[0]) & {quest_id("Barbarian Win"), quest_id("Druid Win")}


# -- quests with 2 players (RULES 23) ----------------------------------------------------


def test_two_players_see_six_public_quests_and_the_one_who_meets_one_scores_it() -> None:
    st = new_game(2, suits=("barbarian", "rogue", "druid"))
    assert len(st.quests) == 1 and len(st.quests[0]) == 6
    assert decision(st)[1] == "barkeep"  # no private quests to choose
    for seat in (0, 1, None):
        view = GAME.view(st, seat)
        assert [q["id"] for q in view["public_quests"]] == st.quests[0]
        assert all(e["quests"] is None and e["quests_held"] == 0 for e in view["seats"])
    settle(st, "Steady Hand")
    st.quest_deck.extend(st.quests[0])
    st.quests[0] = [quest_id("Leader's Luck"), quest_id("Sore Loser"), quest_id("Bard Haul")]
    a, b = deal(st, "barbarian barbarian", "rogue rogue")
    turn(st, a[0], 20)
    events = turn(st, b[0], 20)
    assert st.tricks[-1].winner == 0
    assert st.scored == [[quest_id("Leader's Luck")], [quest_id("Sore Loser")]]
    assert st.loot == [1, 1]
    assert st.quests[0] == [quest_id("Bard Haul")]
    assert kinds(events).count("quest") == 2


def test_two_players_a_quest_both_meet_in_one_trick_is_discarded() -> None:
    st = start(2)
    st.quests[0] = [quest_id("Show Up"), quest_id("Bard Haul")]
    a, b = deal(st, "barbarian barbarian", "rogue rogue")
    turn(st, a[0], 20)
    events = turn(st, b[0], 20)
    assert "quest-tied" in kinds(events)
    assert st.quests[0] == [quest_id("Bard Haul")]
    assert st.scored == [[], []] and st.loot == [0, 0]


def test_two_players_unscored_quests_are_discarded_and_six_new_ones_laid_out() -> None:
    came_back = {}
    for seed in range(8):
        st = new_game(2, tricks=1, seed=seed)
        first = st.quests[0][:]
        settle(st)
        play_out_round(st)
        assert st.round == 2 and len(st.quests[0]) == 6
        back = sorted(set(first) & set(st.quests[0]))
        if back:
            came_back[seed] = back
    assert not came_back, f"round 1's quests laid out again in round 2 (seed: ids): {came_back}"


# -- the Barkeep's Challenge (RULES 26, 27) -------------------------------------------------


def test_the_barkeep_is_chosen_after_the_quests_by_the_first_leader_when_loot_is_even() -> None:
    st = new_game(3)
    while decision(st)[1] == "give_up":
        act(st, texts(st)[0])
    assert decision(st) == (0, "barkeep")
    assert texts(st) == [f"barkeep:{b}" for b in range(1, len(BARKEEP_NAMES) + 1)]
    events = act(st, choose_barkeep("Careful"))
    assert "Careful" in events[0].text
    assert GAME.view(st, 2)["barkeep"]["name"] == "Careful"
    assert decision(st) == (0, "play")


@pytest.mark.parametrize(("loot", "chooser"), [([5, 2, 2], 1), ([2, 5, 2], 2), ([1, 4, 3], 0)])
def test_the_least_loot_player_chooses_ties_from_the_first_leader(
    loot: list[int], chooser: int
) -> None:
    st = start(3, tricks=1, barkeep="Steady Hand")
    a, b, c = deal(st, "barbarian", "barbarian", "barbarian")
    st.loot = loot[:]
    turn(st, a[0], 20)
    turn(st, b[0], 20)
    turn(st, c[0], 20)
    assert st.round == 2 and st.loot == loot  # no Bard, no quest, the Barkeep tied
    while decision(st)[1] == "give_up":
        act(st, texts(st)[0])
    assert decision(st) == (chooser, "barkeep")


def test_a_used_barkeep_challenge_is_not_offered_again() -> None:
    st = start(3, tricks=1, barkeep="Careful")
    play_out_round(st)
    while decision(st)[1] == "give_up":
        act(st, texts(st)[0])
    assert choose_barkeep("Careful") not in texts(st)
    assert len(texts(st)) == len(BARKEEP_NAMES) - 1


def test_creative_is_left_out_with_two_players() -> None:
    st = new_game(2)
    assert decision(st)[1] == "barkeep"
    assert choose_barkeep("Creative") not in texts(st)
    assert len(texts(st)) == len(BARKEEP_NAMES) - 1
    st3 = new_game(3)
    while decision(st3)[1] == "give_up":
        act(st3, texts(st3)[0])
    assert choose_barkeep("Creative") in texts(st3)


def test_when_every_challenge_was_used_all_come_back() -> None:
    st = new_game(2)
    fitting = [b for b in range(len(BARKEEP_NAMES)) if BARKEEP_NAMES[b] != "Creative"]
    st.barkeep_used = fitting[:]
    assert texts(st) == [f"barkeep:{b + 1}" for b in fitting]


def test_the_barkeep_pays_the_single_best_at_the_round_end() -> None:
    st = start(3, tricks=2, barkeep="Most Tricks")
    a, b, c = deal(st, "rogue rogue", "rogue rogue", "rogue rogue")
    set_dice(st, 1, d20=1, d12=1)
    turn(st, a[0], 20)
    turn(st, b[0], 20)
    turn(st, c[0], 20)
    assert st.loot == [0, 0, 0]  # not before the round's end
    assert decision(st) == (1, "play")
    turn(st, b[1], 12)
    turn(st, c[1], 12)
    events = turn(st, a[1], 12)
    assert st.round == 2
    assert st.loot == [0, 3, 0] and st.loot_from[1] == [0, 0, 3]
    assert any(e.kind == "barkeep" and "Player 2" in e.text for e in events)


def test_a_tied_barkeep_pays_nobody() -> None:
    st = start(3, tricks=2, barkeep="Most Tricks")
    a, b, c = deal(st, "rogue rogue", "rogue rogue", "rogue rogue")
    set_dice(st, 1, d20=1)
    set_dice(st, 0, d12=1)
    turn(st, a[0], 20)
    turn(st, b[0], 20)
    turn(st, c[0], 20)
    turn(st, b[1], 12)
    turn(st, c[1], 12)
    events = turn(st, a[1], 12)
    assert [t.winner for t in st.tricks] == [] and st.round == 2
    assert st.loot == [0, 0, 0]
    assert any(e.kind == "barkeep" and "nobody" in e.text for e in events)


def test_each_bard_in_a_trick_taken_is_one_loot() -> None:
    st = start(3)
    a, b, c = deal(st, "barbarian", "bard", "bard")
    set_dice(st, 0, d20=20)
    turn(st, a[0], 20)
    turn(st, b[0], 4)
    events = turn(st, c[0], 4)
    assert st.loot == [2, 0, 0] and st.loot_from[0] == [2, 0, 0]
    assert sorted(st.won[0]) == sorted(a + b + c)
    assert "loot" in kinds(events)


# -- the end of the game (RULES 28) -------------------------------------------------------------


def play_to_last_trick(st: CritsAndTricksState) -> None:
    """First legal actions until the last round's only trick is being led (tricks=1)."""
    while not (st.round == st.config.rounds and decision(st)[1] == "play"):
        act(st, texts(st)[0])


def last_trick(st: CritsAndTricksState, loot: list[int]) -> list[str]:
    """Lay out a last trick with no Bard and no quest, with `loot` before it; play it."""
    no_quests(st)
    hands = ["rogue"] * st.players
    dealt = deal(st, *hands)
    st.loot = loot[:]
    st.loot_from = [[0, x, 0] for x in loot]
    st.barkeep = barkeep_id("Steady Hand")  # nobody re-rolls: a tie, nobody paid
    events = []
    while st.stack and st.round == st.config.rounds and decision(st)[1] == "play":
        seat = decision(st)[0]
        events += turn(st, dealt[seat][0], 20)
    return kinds(events)


def test_the_game_ends_after_three_rounds_with_most_loot_winning() -> None:
    st = new_game(3, tricks=1)
    play_to_last_trick(st)
    assert st.round == 3
    seen = last_trick(st, [2, 5, 1])
    assert "game-over" in seen
    assert GAME.actor(st) is None and GAME.legal_actions(st) == []
    result = GAME.result(st)
    assert result is not None
    assert result.winners == (1,) and result.ending == "most-loot"
    assert result.ranks == (2, 1, 3)


def test_with_three_or_four_players_a_tie_is_shared() -> None:
    st = new_game(4, tricks=1)
    play_to_last_trick(st)
    last_trick(st, [4, 1, 4, 0])
    result = GAME.result(st)
    assert result is not None
    assert result.winners == (0, 2) and result.ending == "tied"


def test_with_two_players_a_tie_plays_another_round() -> None:
    st = new_game(2, tricks=1, extra_rounds=1)
    play_to_last_trick(st)
    seen = last_trick(st, [3, 3])
    assert "extra-round" in seen and "game-over" not in seen
    assert st.round == 4 and GAME.actor(st) is not None
    settle(st)
    no_quests(st)
    # Round 4 ties again: with extra_rounds=1 the tie stands.
    dealt = deal(st, "rogue", "rogue")
    st.loot = [3, 3]
    st.barkeep = barkeep_id("Steady Hand")
    while st.stack and decision(st)[1] == "play":
        turn(st, dealt[decision(st)[0]][0], 20)
    result = GAME.result(st)
    assert result is not None and result.ending == "tied" and result.winners == (0, 1)
    assert st.round == 4


def test_with_two_players_no_tie_ends_after_three_rounds() -> None:
    st = new_game(2, tricks=1)
    play_to_last_trick(st)
    last_trick(st, [3, 4])
    result = GAME.result(st)
    assert result is not None and result.winners == (1,) and st.round == 3


# -- illegal actions ---------------------------------------------------------------------


def check_refused(st: CritsAndTricksState, text: str) -> None:
    before = GAME.clone(st)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, Action.parse(text))
    message = str(err.value)
    assert message and "\n" not in message
    assert st == before and st.rng == before.rng and st.stack == before.stack


def test_illegal_actions_are_refused_with_one_line_and_change_nothing() -> None:
    st = new_game(3)
    for text in ("discard:99", "play:0,20", "barkeep:0", "keep", "done"):
        check_refused(st, text)
    settle(st)
    a, b, _c = deal(st, "barbarian barbarian rogue", "barbarian druid", "druid")
    for text in (
        f"play:{b[0]},20",  # not this seat's card
        f"play:{a[0]},7",  # no such die
        f"play:{a[0]}",
        f"play:{a[0]},20,rogue",  # only a led Bard names a suit
        "play:99,20",
        "reroll",
        f"crit:{a[2]}",
        "discard:0",
        "barkeep:0",
    ):
        check_refused(st, text)
    act(st, f"play:{a[0]},20")
    for text in ("done", f"play:{a[1]},12", f"crit:{a[2]}"):
        check_refused(st, text)
    act(st, "keep")
    for text in ("reroll", "keep", f"crit:{a[1]},4", f"crit:{a[2]},1", f"crit:{b[0]}"):
        check_refused(st, text)
    act(st, "done")
    for text in (f"play:{b[1]},12", f"play:{a[1]},12", f"play:{b[0]},20,barbarian"):
        check_refused(st, text)


def test_nothing_is_legal_once_the_game_is_over() -> None:
    st = new_game(3, rounds=1, tricks=1)
    while st.stack:
        act(st, texts(st)[0])
    for text in ("done", "play:0,20", "keep"):
        check_refused(st, text)


# -- views ------------------------------------------------------------------------------


def test_a_view_shows_its_own_hand_and_quests_and_never_another_seats() -> None:
    st = new_game(4)
    settle(st)
    for seat in (None, 0, 1, 2, 3):
        view = GAME.view(st, seat)
        for entry in view["seats"]:
            s = entry["seat"]
            assert entry["hand_size"] == len(st.hands[s])
            assert entry["quests_held"] == len(st.quests[s])
            if s == seat:
                assert [c["id"] for c in entry["hand"]] == st.hands[s]
                assert [q["id"] for q in entry["quests"]] == st.quests[s]
            else:
                assert entry["hand"] is None and entry["quests"] is None
        assert isinstance(view["deck"], int)
        assert "rng" not in view and "quest_deck" not in view


def test_a_spectator_and_both_players_see_the_same_table() -> None:
    st = start(2)
    a, _b = deal(st, "barbarian rogue", "barbarian")
    act(st, f"play:{a[0]},20", "keep")
    tables = [GAME.view(st, s)["table"] for s in (None, 0, 1)]
    assert tables[0] == tables[1] == tables[2]
    assert tables[0][0]["card"] == {"id": a[0], "suit": "Barbarian"}


def test_the_card_played_to_a_trick_leaves_the_hand_for_the_discard() -> None:
    st = start(3)
    a, _, _ = deal(st, "barbarian rogue", "barbarian", "druid")
    act(st, f"play:{a[0]},20")
    assert a[0] not in st.hands[0] and a[0] in st.discard
    assert sorted(st.deck + st.discard + [c for h in st.hands for c in h]) == list(range(32))


def test_ids_of_suits_match_the_rules() -> None:
    assert SUIT == {"barbarian": 0, "rogue": 1, "wizard": 2, "druid": 3, "paladin": 4, "bard": 5}


def test_a_second_wizard_crit_in_a_turn_frees_no_die_a_second_time() -> None:
    # d20 in trick 1, d12 in trick 2; in trick 3 the d4 is played, swapped to the d20
    # (the d4 comes back), then to the d12: the d20 stays used, so no die serves twice.
    st = start(3, suits=("barbarian", "wizard", "druid"))
    hands = deal(
        st,
        "barbarian barbarian barbarian wizard wizard",
        "druid druid druid",
        "druid druid druid",
    )
    a, b, c = hands
    set_dice(st, 0, d20=20, d12=12, d4=1)
    for trick, size in enumerate((20, 12)):
        turn(st, a[trick], size)
        turn(st, b[trick], size)
        turn(st, c[trick], size)
        assert st.tricks[-1].winner == 0
    act(st, f"play:{a[2]},4", "keep", f"crit:{a[3]},20")
    assert used(st, 0) == {20, 12}, "the d4 played this turn is free again"
    act(st, f"crit:{a[4]},12")
    assert used(st, 0) == {20, 12}, "the d20 was used in trick 1: it stays used"
    assert GAME.view(st, 1)["table"][-1]["die"] == 12  # the card now shows the d12


def test_the_opening_tells_who_leads_round_one_and_every_seats_dice() -> None:
    # Setup reports nothing, so a game's log begins with its opening events.
    match = Match(GAME, [RandomBot()] * 3, 4, GAME.make_config({"players": 3}), PACK)
    kinds_ = [e.kind for e in match.opening]
    assert kinds_ == ["round", "dice", "dice", "dice"]
    assert match.opening[0].text == "Round 1: Player 1 leads the first trick"
    for seat, event in enumerate(match.opening[1:]):
        assert event.data["dice"] == match.state.dice[seat]
    quiet = Match(
        GAME, [RandomBot()] * 3, 4, GAME.make_config({"players": 3}), PACK, record_events=False
    )
    assert quiet.opening == []


def test_a_logged_roll_keeps_the_dice_it_rolled_after_they_change() -> None:
    # A welcome log sent later carries the round's opening rolls: their data must still be
    # the dice the text names, not the seat's dice as they are by then (re-rolls, crits).
    from tavernkeep.games.crits_and_tricks import GAME

    bot = RandomBot()
    for seed in range(5):
        state = GAME.setup(GAME.make_config({"players": 3}), seed)
        rolls = [e for e in GAME.opening(state) if e.kind == "dice"]
        rng = Rng(seed)
        while GAME.actor(state) is not None:
            seat = GAME.actor(state)
            assert seat is not None
            for event in GAME.apply(state, bot.choose(InfoSet(GAME, state, seat, rng))):
                if event.kind == "dice":
                    rolls.append(event)
        for event in rolls:
            shown = event.text.split(" rolls ")[1].split(", ")
            named = [int(part.split(": ")[1]) for part in shown]
            assert list(event.data["dice"]) == named, event.text
