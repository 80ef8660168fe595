"""The rules of Here to Slay, driven by chosen dice on positions laid out by hand.

A test sets up a real game, lets each seat choose a named Party Leader, then moves named
cards into hands, Parties and the Monster row, and scripts the dice with ScriptedRng.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from here_to_slay_helpers import (
    act,
    card_ids,
    choose,
    decision,
    dice,
    equip,
    field,
    give,
    monster,
    new_game,
    set_row,
    slain_by,
    take,
    texts,
)

from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import IllegalAction
from tavernkeep.games.here_to_slay import GAME

# -- setup ------------------------------------------------------------------------------


def test_leaders_are_chosen_in_reverse_turn_order_and_the_last_chooser_goes_first() -> None:
    st = GAME.setup(GAME.make_config({"players": 3}), 1)
    order = []
    while st.stack[-1].kind == "leader":
        order.append(st.stack[-1].seat)
        act(st, GAME.legal_actions(st)[0].text)
    assert order == [2, 1, 0]
    assert decision(st) == (0, "turn")
    assert st.ap == 3
    assert [len(h) for h in st.hands] == [5, 5, 5]
    assert len(st.row) == 3


def test_the_shadow_claw_is_not_offered_in_a_two_player_game() -> None:
    st = GAME.setup(GAME.make_config({"players": 2}), 1)
    # leader:N is the pack's Leader #N, counted from 1.
    offered = [st.catalog.leaders[int(a.args[0]) - 1].name for a in GAME.legal_actions(st)]
    assert "The Shadow Claw" not in offered and len(offered) == 5


def test_random_leaders_are_dealt_without_a_decision() -> None:
    st = GAME.setup(GAME.make_config({"players": 6, "leaders": "random"}), 3)
    assert sorted(st.leaders) == list(range(6))
    assert decision(st) == (0, "turn")


# -- turns and action points ------------------------------------------------------------


def test_three_action_points_then_the_turn_passes() -> None:
    st = new_game()
    act(st, "draw")
    act(st, "draw")
    assert st.ap == 1 and len(st.hands[0]) == 2
    act(st, "draw")
    assert decision(st) == (1, "turn") and st.ap == 3


def test_discard_and_draw_five_costs_three_and_works_with_an_empty_hand() -> None:
    st = new_game()
    assert "redraw" in texts(st)
    act(st, "redraw")
    assert len(st.hands[0]) == 5
    assert decision(st) == (1, "turn")
    act(st, "draw")
    assert "redraw" not in texts(st)


def test_ending_the_turn_early_loses_the_points() -> None:
    st = new_game()
    act(st, "draw")
    act(st, "end")
    assert decision(st) == (1, "turn") and st.ap == 3


def test_a_hero_is_rolled_for_once_a_turn_and_the_free_roll_counts() -> None:
    st = new_game()
    (lark,) = give(st, 0, "Lark the Busker")
    dice(st, 1, 1)
    act(st, f"play:{lark}")
    assert decision(st) == (0, "free_roll")
    assert st.ap == 2
    act(st, "roll")
    assert st.ap == 2, "the free roll costs nothing"
    assert f"roll:{lark}" not in texts(st)
    assert len(st.hands[0]) == 1, "2+ succeeds: Lark draws a card"


def test_declining_the_free_roll_leaves_the_paid_roll() -> None:
    st = new_game()
    (lark,) = give(st, 0, "Lark the Busker")
    act(st, f"play:{lark}")
    act(st, "skip")
    assert f"roll:{lark}" in texts(st)
    dice(st, 3, 3)
    act(st, f"roll:{lark}")
    assert st.ap == 1 and f"roll:{lark}" not in texts(st)


def test_two_more_action_points() -> None:
    st = new_game()
    (quill,) = field(st, 0, "Quill the Chronomancer")
    dice(st, 5, 5)
    act(st, f"roll:{quill}")
    assert st.ap == 4


# -- the Challenge window ---------------------------------------------------------------


def test_every_seat_holding_a_challenge_is_asked_in_turn_order() -> None:
    st = new_game(4, ("The Ember Sage", "The Shadow Claw", "The Wild Hawk", "The Silver Songbird"))
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 1, "Not So Fast!")
    give(st, 3, "Not So Fast!")
    act(st, f"play:{lark}")
    assert decision(st) == (1, "challenge")
    act(st, "pass")
    assert decision(st) == (3, "challenge"), "seat 2 holds no Challenge and is not asked"
    act(st, "pass")
    assert decision(st) == (0, "free_roll")
    assert lark in st.parties[0]


def test_ties_go_to_the_challenger() -> None:
    st = new_game()
    (lark,) = give(st, 0, "Lark the Busker")
    (challenge,) = give(st, 2, "Not So Fast!")
    act(st, f"play:{lark}")
    assert decision(st) == (2, "challenge")
    # The exact chance is shown beside the choice: 2d6 against 2d6, ties to the challenger.
    assert GAME.odds(st, Action("challenge")) == {"success": 721 / 1296}
    dice(st, 3, 4, 4, 3)  # the challenger rolls first
    act(st, "challenge")
    assert lark in st.discard and challenge in st.discard
    assert decision(st) == (0, "turn") and st.ap == 2, "the action point stays spent"


def test_only_one_challenge_a_card() -> None:
    st = new_game()
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 1, "Not So Fast!")
    give(st, 2, "Not So Fast!")
    act(st, f"play:{lark}")
    dice(st, 1, 1, 6, 6)
    act(st, "challenge")
    assert decision(st) == (0, "free_roll"), "seat 2 is not asked after seat 1 challenged"
    assert len(st.hands[2]) == 1


def test_a_third_player_can_modify_a_challenge_roll() -> None:
    st = new_game()
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 1, "Not So Fast!")
    (blessing,) = give(st, 2, "Blessing of Might")
    act(st, f"play:{lark}")
    dice(st, 4, 4, 3, 3)
    act(st, "challenge")
    assert decision(st) == (2, "modifier")
    assert f"modify:{blessing},4,2" in texts(st), "either roll may be modified"
    act(st, f"modify:{blessing},4,2")
    # Nobody holds another Modifier, so the window closes at once.
    assert lark in st.parties[0], "3+3+4 = 10 beats the challenger's 8"
    assert decision(st) == (0, "free_roll")


def test_items_of_a_gilded_mimic_slayer_cannot_be_challenged() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Lark the Busker")
    (band,) = give(st, 0, "Band of Fortune")
    give(st, 1, "Not So Fast!")
    st.slain[0].append(monster(st, "The Gilded Mimic"))
    st.monster_deck.remove(st.slain[0][0]) if st.slain[0][0] in st.monster_deck else st.row.remove(
        st.slain[0][0]
    )
    act(st, f"play:{band},{hero}")
    assert st.equipped[hero] == band and decision(st) == (0, "turn")


# -- the Modifier window ------------------------------------------------------------------


def test_a_modifier_flips_an_attack_and_the_window_closes_only_after_all_pass() -> None:
    st = new_game()
    field(st, 0, "Lark the Busker", "Pim the Apprentice")
    (ogre,) = set_row(st, "Grimtooth Ogre")
    first, second = give(st, 0, "Fickle Fortune", "Fickle Fortune")
    (hex_,) = give(st, 1, "Hex of Weakness")
    give(st, 2, "Fickle Fortune")
    dice(st, 3, 4)
    act(st, f"attack:{ogre}")
    assert st.ap == 1
    assert decision(st) == (0, "modifier")
    act(st, f"modify:{first},2,1")  # 9: slays
    assert decision(st) == (0, "modifier"), "the player may play another at once"
    act(st, "pass")
    act(st, f"modify:{hex_},-4,1")  # 5: punishes
    assert decision(st) == (2, "modifier"), "seat 1 has no Modifier left and passes"
    act(st, "pass")
    assert decision(st) == (0, "modifier"), "seat 0 passed before the Hex: asked again"
    act(st, f"modify:{second},2,1")  # 7: nothing happens
    assert decision(st) == (2, "modifier"), "seats 0 and 1 have nothing left to play"
    act(st, "pass")
    assert decision(st) == (0, "turn")
    assert ogre in st.row and len(st.parties[0]) == 2


def test_an_attack_below_two_is_a_plain_number_and_punishes() -> None:
    st = new_game()
    heroes = field(st, 0, "Lark the Busker", "Pim the Apprentice")
    (ogre,) = set_row(st, "Grimtooth Ogre")
    (hex_,) = give(st, 1, "Hex of Weakness")
    give(st, 2, "Fickle Fortune")
    dice(st, 1, 1)
    act(st, f"attack:{ogre}")
    act(st, f"modify:{hex_},-4,1")
    assert GAME.view(st, 0)["rolls"][0]["total"] == -2
    act(st, "pass")  # seat 2
    assert decision(st) == (0, "pick")
    act(st, f"pick:{heroes[0]}")
    assert heroes[0] in st.discard and st.parties[0] == [heroes[1]]


def test_an_inverted_monster_is_slain_by_a_low_roll() -> None:
    st = new_game()
    field(st, 0, "Lark the Busker")
    (wisp,) = set_row(st, "The Gloom Wisp")
    dice(st, 1, 2)
    act(st, f"attack:{wisp}")
    assert st.slain[0] == [wisp]


def test_between_the_ranges_nothing_happens_and_the_points_stay_spent() -> None:
    st = new_game()
    field(st, 0, "Lark the Busker", "Pim the Apprentice")
    (ogre,) = set_row(st, "Grimtooth Ogre")
    dice(st, 3, 3)
    act(st, f"attack:{ogre}")
    assert ogre in st.row and len(st.parties[0]) == 2 and st.ap == 1


def test_party_requirements() -> None:
    st = new_game()
    row = set_row(st, "Grimtooth Ogre", "Spellbound Golem", "Siren of the Black Lake")
    attacks = [a.text for a in GAME.legal_actions(st) if a.kind == "attack"]
    assert attacks == [], "no Heroes: nothing to attack"
    field(st, 0, "Lark the Busker")
    attacks = [a.text for a in GAME.legal_actions(st) if a.kind == "attack"]
    # The Wizard Leader fills the Golem's Wizard; Lark fills its one Hero. The Siren
    # needs a Bard and another Hero: Lark cannot be both.
    assert attacks == [f"attack:{row[1]}"]


def test_slaying_turns_up_a_new_monster_and_gives_the_skill() -> None:
    st = new_game()
    field(st, 0, "Lark the Busker", "Pim the Apprentice")
    (ogre,) = set_row(st, "Grimtooth Ogre")
    dice(st, 6, 6)
    act(st, f"attack:{ogre}")
    assert st.slain[0] == [ogre] and len(st.row) == 1 and st.row[0] != ogre


# -- items ------------------------------------------------------------------------------


def test_items_go_on_your_own_heroes_one_each_and_add_their_bonus() -> None:
    st = new_game()
    (mine,) = field(st, 0, "Pim the Apprentice")
    (theirs,) = field(st, 1, "Nib Quickfingers")
    band, gauntlet = give(st, 0, "Band of Fortune", "Leaden Gauntlet")
    legal = texts(st)
    assert f"play:{band},{mine}" in legal and f"play:{band},{theirs}" not in legal
    assert f"play:{gauntlet},{theirs}" in legal
    act(st, f"play:{band},{mine}")
    assert st.equipped == {mine: band}
    assert f"play:{gauntlet},{mine}" not in texts(st), "one Item a Hero"
    assert GAME.odds(st, Action("roll", mine)) == {"success": 35 / 36}  # 3+ on 2d6
    dice(st, 1, 2)
    act(st, f"roll:{mine}")
    assert len(st.hands[0]) == 2, "1+2+2 = 5 meets 5+: Pim draws"


def test_a_destroyed_hero_takes_its_item_and_a_decoy_goes_instead() -> None:
    st = new_game()
    fighter, other = field(st, 0, "Sable Warbrand", "Pim the Apprentice")
    victim, guarded = field(st, 1, "Nib Quickfingers", "Sly Merrit")
    band = equip(st, victim, "Band of Fortune")
    decoy = equip(st, guarded, "Straw Double")
    dice(st, 6, 6)
    act(st, f"roll:{fighter}")
    choose(st, 1)
    act(st, f"pick:{victim}")
    assert victim in st.discard and band in st.discard and victim not in st.equipped
    field_again = [h for h in st.parties[1]]
    assert field_again == [guarded]
    (fireball,) = give(st, 0, "Fireball")
    act(st, f"play:{fireball}")
    choose(st, 1)
    act(st, f"pick:{guarded}")
    assert guarded in st.parties[1] and decoy in st.discard and guarded not in st.equipped
    assert other in st.parties[0]


def test_steal_a_hero_with_its_item() -> None:
    st = new_game()
    (thief,) = field(st, 0, "Corvin Blackglove")
    (victim,) = field(st, 2, "Nib Quickfingers")
    band = equip(st, victim, "Band of Fortune")
    dice(st, 6, 6)
    act(st, f"roll:{thief}")
    choose(st, 2)
    act(st, f"pick:{victim}")
    assert victim in st.parties[0] and st.equipped[victim] == band


def test_look_and_take_shows_the_hand_to_the_taker_only() -> None:
    st = new_game()
    (lira,) = field(st, 0, "Lira Nightveil")
    (hidden,) = give(st, 1, "Fireball")
    dice(st, 6, 6)
    act(st, f"roll:{lira}")
    choose(st, 1)
    assert [c["id"] for c in GAME.view(st, 0)["decision"]["looking_at"]] == [hidden]
    assert "looking_at" not in GAME.view(st, 2)["decision"]
    act(st, f"pick:{hidden}")
    assert hidden in st.hands[0] and not st.hands[1]


def test_cursed_hourglass_discards_hero_and_item_after_success() -> None:
    st = new_game()
    (pim,) = field(st, 0, "Pim the Apprentice")
    glass = equip(st, pim, "Hourglass of Ruin")
    dice(st, 6, 6)
    act(st, f"roll:{pim}")
    assert len(st.hands[0]) == 1, "the effect happens first"
    assert pim in st.discard and glass in st.discard


def test_binding_chains_stop_rolls() -> None:
    st = new_game()
    (pim,) = field(st, 0, "Pim the Apprentice")
    equip(st, pim, "Binding Chains")
    assert f"roll:{pim}" not in texts(st)


# -- winning ----------------------------------------------------------------------------


def test_the_third_monster_wins_at_once() -> None:
    st = new_game()
    field(st, 0, "Lark the Busker", "Pim the Apprentice")
    ogre, bear, wisp = set_row(st, "Grimtooth Ogre", "Thornback Bear", "The Gloom Wisp")
    st.row.remove(bear)
    st.row.remove(wisp)
    st.slain[0] += [bear, wisp]
    dice(st, 6, 6)
    act(st, f"attack:{ogre}")
    result = GAME.result(st)
    assert result is not None and result.winners == (0,) and result.ending == "three-monsters"
    assert GAME.actor(st) is None and GAME.legal_actions(st) == []


def test_six_classes_win_at_the_end_of_your_own_turn() -> None:
    st = new_game()
    # The Wizard Leader is the sixth class.
    field(st, 0, "Lark the Busker", "Brannoc the Brawler", "Brother Aldous", "Fenn Thistlefoot")
    field(st, 1, "Nib Quickfingers", "Pim the Apprentice")
    (thief,) = field(st, 0, "Sly Merrit")
    act(st, "end")
    result = GAME.result(st)
    assert result is not None and result.winners == (0,) and result.ending == "full-party"
    assert thief in st.parties[0]


def test_a_mask_counts_as_its_class_for_the_full_party() -> None:
    st = new_game()
    heroes = field(
        st, 0, "Lark the Busker", "Brannoc the Brawler", "Brother Aldous", "Fenn Thistlefoot"
    )
    (fifth,) = field(st, 0, "Pim the Apprentice")
    act(st, "end")
    assert GAME.result(st) is None, "two Wizards and no Thief"
    st2 = new_game()
    field(st2, 0, "Lark the Busker", "Brannoc the Brawler", "Brother Aldous", "Fenn Thistlefoot")
    (pim,) = field(st2, 0, "Pim the Apprentice")
    equip(st2, pim, "Mask of the Shade")
    act(st2, "end")
    result = GAME.result(st2)
    assert result is not None and result.ending == "full-party"
    assert heroes and fifth


def test_the_turn_limit_ends_with_no_winner() -> None:
    st = new_game(turn_limit=2)
    act(st, "end")
    act(st, "end")
    result = GAME.result(st)
    assert result is not None and result.ending == "turn-limit" and result.winners == ()


# -- the protocol -----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["attack:0", "play:3", "roll:5", "pass", "leader:1", "pick:2"])
def test_an_illegal_action_changes_nothing(text: str) -> None:
    st = new_game()
    give(st, 1, "Fireball")
    before = GAME.clone(st)
    with pytest.raises(IllegalAction):
        act(st, text)
    assert st == before


def test_views_hide_other_hands_and_the_deck() -> None:
    st = new_game()
    (secret,) = give(st, 1, "Fireball")
    give(st, 0, "Lark the Busker")
    view = GAME.view(st, 0)
    assert view["table"][1]["hand"] is None and view["table"][1]["hand_size"] == 1
    assert isinstance(view["deck"], int)
    assert view["table"][0]["hand"][0]["name"] == "Lark the Busker"
    assert GAME.view(st, None)["table"][0]["hand"] is None
    assert "Fireball" not in str(view) and secret not in st.hands[0]


def test_a_drawn_card_is_named_to_its_drawer_only() -> None:
    st = new_game()
    events = GAME.apply(st, Action("draw"))
    (draw,) = [e for e in events if e.kind == "draw"]
    drawn = st.catalog.cards[st.hands[0][0]].name
    assert drawn in draw.for_seat(0).text  # type: ignore[union-attr]
    seen = draw.for_seat(1)
    assert seen is not None and drawn not in seen.text and "card" not in seen.data


def test_hand_limit_discards_at_the_end_of_the_turn() -> None:
    st = new_game(hand_limit=2)
    give(st, 0, "Fireball", "Lark the Busker", "Pim the Apprentice", "Not So Fast!")
    act(st, "end")
    assert decision(st) == (0, "pick")
    act(st, GAME.legal_actions(st)[0].text)
    act(st, GAME.legal_actions(st)[0].text)
    assert len(st.hands[0]) == 2 and decision(st) == (1, "turn")


def test_odds_for_attacks() -> None:
    st = new_game()
    field(st, 0, "Lark the Busker", "Pim the Apprentice")
    (ogre,) = set_row(st, "Grimtooth Ogre")
    odds = GAME.odds(st, Action("attack", ogre))
    assert odds == {"slay": 15 / 36, "punishment": 10 / 36}
    assert card_ids(st, "Not So Fast!")


# -- named effects and skills -------------------------------------------------------------


def test_encore_rolls_another_hero_even_one_already_rolled() -> None:
    st = new_game()
    encore, pim = field(st, 0, "Aurelian the Encore", "Pim the Apprentice")
    st.deck += [take(st, "Raise the Fallen"), take(st, "Raise the Fallen")]
    dice(st, 3, 3)
    act(st, f"roll:{pim}")
    assert len(st.hands[0]) == 1
    dice(st, 6, 6, 4, 4)
    act(st, f"roll:{encore}")
    assert texts(st) == [f"pick:{pim}"], "not itself"
    act(st, f"pick:{pim}")
    assert len(st.hands[0]) == 2


def test_a_warded_hero_cannot_be_destroyed_until_its_owners_next_turn() -> None:
    st = new_game()
    (oswin,) = field(st, 0, "Oswin the Steadfast")
    dice(st, 6, 6)
    act(st, f"roll:{oswin}")
    act(st, f"pick:{oswin}")
    assert st.wards == {oswin: 0}
    act(st, "end")
    (sable,) = field(st, 1, "Sable Warbrand")
    dice(st, 6, 6)
    act(st, f"roll:{sable}")
    choose(st, 0)
    assert oswin in st.parties[0], "nothing to destroy: the step does nothing"
    act(st, "end")
    act(st, "end")
    assert decision(st) == (0, "turn") and st.wards == {}


def test_replace_monster_puts_it_under_the_deck() -> None:
    st = new_game()
    (corran,) = field(st, 0, "Corran Wolfkin")
    row = set_row(st, "Grimtooth Ogre", "The Gloom Wisp", "Thornback Bear")
    top = st.monster_deck[-1]
    dice(st, 6, 6)
    act(st, f"roll:{corran}")
    act(st, f"pick:{row[1]}")
    assert st.row == [row[0], top, row[2]] and st.monster_deck[0] == row[1]


def test_search_and_play_at_once_costs_no_action_point() -> None:
    st = new_game()
    (roderick,) = field(st, 0, "Roderick Bastion")
    lark = card_ids(st, "Lark the Busker")[0]
    st.deck.remove(lark)
    st.discard.append(lark)
    dice(st, 6, 6)
    act(st, f"roll:{roderick}")
    act(st, f"pick:{lark}")
    assert decision(st) == (0, "play_now") and texts(st) == [f"play:{lark}", "skip"]
    act(st, f"play:{lark}")
    assert lark in st.parties[0] and st.ap == 2
    assert decision(st) == (0, "free_roll")


def test_the_hollow_king_may_steal_instead_of_destroying() -> None:
    st = new_game()
    slain_by(st, 0, "The Hollow King")
    (sable,) = field(st, 0, "Sable Warbrand")
    (victim,) = field(st, 1, "Nib Quickfingers")
    dice(st, 6, 6)
    act(st, f"roll:{sable}")
    choose(st, 1)
    act(st, f"pick:{victim}")  # aimed before the roll; destroy or steal is chosen after
    assert set(texts(st)) == {f"pick:{victim}", f"steal:{victim}"}
    act(st, f"steal:{victim}")
    assert victim in st.parties[0]


def test_the_deathless_lich_protects_heroes_from_destruction() -> None:
    st = new_game()
    slain_by(st, 1, "The Deathless Lich")
    (sable,) = field(st, 0, "Sable Warbrand")
    (victim,) = field(st, 1, "Nib Quickfingers")
    dice(st, 6, 6)
    act(st, f"roll:{sable}")
    choose(st, 1)
    assert victim in st.parties[1] and decision(st) == (0, "turn")


def test_the_ogre_adds_one_when_an_opponent_modifies_your_roll() -> None:
    st = new_game()
    slain_by(st, 0, "Grimtooth Ogre")
    (pim,) = field(st, 0, "Pim the Apprentice")
    (hex_,) = give(st, 1, "Hex of Weakness")
    give(st, 2, "Fickle Fortune")
    dice(st, 3, 3)
    act(st, f"roll:{pim}")
    act(st, f"modify:{hex_},-4,1")
    assert st.rolls[-1][3:] == [1, -4] and st.total(st.rolls[-1]) == 3


def test_the_stone_warden_adds_one_either_way_to_each_modifier() -> None:
    st = new_game(3, ("The Stone Warden", "The Shadow Claw", "The Wild Hawk"))
    (pim,) = field(st, 0, "Pim the Apprentice")
    (might,) = give(st, 0, "Blessing of Might")
    give(st, 2, "Fickle Fortune")
    dice(st, 1, 1)
    act(st, f"roll:{pim}")
    assert set(texts(st)) == {f"modify:{might},4,1,1", f"modify:{might},4,1,-1", "pass"}
    act(st, f"modify:{might},4,1,1")
    assert st.total(st.rolls[-1]) == 7


def test_the_ancient_wyrm_gives_an_action_point_each_turn() -> None:
    st = new_game()
    slain_by(st, 1, "The Ancient Wyrm")
    act(st, "end")
    assert decision(st) == (1, "turn") and st.ap == 4


def test_the_basilisk_makes_the_challenger_discard() -> None:
    st = new_game()
    slain_by(st, 0, "Mirefang Basilisk")
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 1, "Not So Fast!", "Fireball")
    act(st, f"play:{lark}")
    dice(st, 1, 1, 6, 6)
    act(st, "challenge")
    assert decision(st) == (1, "pick")
    act(st, texts(st)[0])
    assert st.hands[1] == [] and lark in st.parties[0]


def test_the_shadow_claw_pulls_once_a_turn_for_one_action_point() -> None:
    st = new_game()
    act(st, "end")
    give(st, 0, "Fireball")
    assert "skill:1" in texts(st)
    act(st, "skill:1")  # seat 0, the only one holding a card, is chosen without a question
    assert len(st.hands[1]) == 1 and st.ap == 2
    assert "skill:1" not in texts(st)


def test_the_ember_sage_draws_after_a_magic_card() -> None:
    st = new_game()
    (surge,) = give(st, 0, "Arcane Surge")
    act(st, f"play:{surge}")
    assert len(st.hands[0]) == 3 and surge in st.discard


def test_without_reshuffle_no_draw_is_offered_once_both_piles_are_empty() -> None:
    st = new_game(reshuffle=False)
    st.hands[1].extend(st.deck)
    st.deck.clear()
    assert "draw" not in texts(st)
    st2 = new_game()
    st2.discard.extend(st2.deck)
    st2.deck.clear()
    act(st2, "draw")
    assert len(st2.hands[0]) == 1 and len(st2.discard) == 0, "reshuffled, then drawn"


def test_a_pulled_card_is_named_only_to_the_two_players() -> None:
    st = new_game()
    (nib,) = field(st, 0, "Nib Quickfingers")
    (secret,) = give(st, 1, "Fireball")
    give(st, 2, "Tempest")
    dice(st, 6, 6)
    events = []
    events += GAME.apply(st, Action("roll", nib))
    events += GAME.apply(st, Action("target", 2))
    (pull,) = [e for e in events if e.kind == "pull"]
    assert "Fireball" in pull.for_seat(0).text and "Fireball" in pull.for_seat(1).text  # type: ignore[union-attr]
    assert "Fireball" not in pull.for_seat(2).text  # type: ignore[union-attr]
    assert st.hands[0] == [secret]


def test_the_hero_to_destroy_is_chosen_before_the_roll_for_all_to_see() -> None:
    st = new_game()
    (sable,) = field(st, 0, "Sable Warbrand")
    first, second = field(st, 1, "Nib Quickfingers", "Sly Merrit")
    give(st, 1, "Hex of Weakness")
    dice(st, 4, 4)
    act(st, f"roll:{sable}")
    choose(st, 1)
    assert decision(st) == (0, "aim")
    assert texts(st) == [f"pick:{first}", f"pick:{second}"]
    act(st, f"pick:{second}")
    assert decision(st) == (1, "modifier"), "seat 1 decides knowing what is aimed at"
    assert GAME.view(st, 1)["hero_rolls"] == [
        {"seat": 0, "hero": sable, "target": 1, "aimed": second, "aims": [second]}
    ]
    act(st, "pass")
    assert second in st.discard and first in st.parties[1], "8 meets 7+: the aimed Hero goes"


def test_a_hero_with_two_targets_names_both_before_the_window() -> None:
    st = new_game()
    (thorgrim,) = field(st, 0, "Thorgrim Doomhammer")
    a, b, c = field(st, 1, "Nib Quickfingers", "Sly Merrit", "Jory Cutpurse")
    field(st, 2, "Lark the Busker")
    give(st, 1, "Hex of Weakness")
    dice(st, 5, 5)
    act(st, f"roll:{thorgrim}")
    choose(st, 1)
    assert decision(st) == (0, "aim") and texts(st) == [f"pick:{a}", f"pick:{b}", f"pick:{c}"]
    act(st, f"pick:{b}")
    assert decision(st) == (0, "aim"), "the second Hero is named before the roll too"
    assert texts(st) == [f"pick:{a}", f"pick:{c}"]
    act(st, f"pick:{c}")
    assert decision(st) == (1, "modifier"), "seat 1 decides knowing both"
    (pending,) = GAME.view(st, 1)["hero_rolls"]
    assert pending["target"] == 1 and pending["aims"] == [b, c]
    act(st, "pass")
    assert st.parties[1] == [a] and st.discard == [b, c]
    assert decision(st) == (0, "turn"), "nothing is left to choose after the roll"


def test_a_hero_that_takes_from_each_opponent_names_every_card_before_the_window() -> None:
    st = new_game()
    (seraphine,) = field(st, 0, "Seraphine Dawnward")
    nib, sly = field(st, 1, "Nib Quickfingers", "Sly Merrit")
    (lark,) = field(st, 2, "Lark the Busker")
    give(st, 2, "Hex of Weakness")
    dice(st, 5, 4)
    act(st, f"roll:{seraphine}")
    assert decision(st) == (0, "aim") and texts(st) == [f"pick:{nib}", f"pick:{sly}"]
    act(st, f"pick:{sly}")
    assert decision(st) == (0, "aim") and texts(st) == [f"pick:{lark}"]
    act(st, f"pick:{lark}")
    assert decision(st) == (2, "modifier")
    assert GAME.view(st, 2)["hero_rolls"][0]["aims"] == [sly, lark]
    act(st, "pass")
    assert st.parties[1] == [nib] and st.hands[1] == [sly] and st.parties[2] == []
    assert lark in st.hands[2] and decision(st) == (0, "turn")


def test_a_hero_aimed_at_a_hero_that_is_gone_lets_its_roller_choose_again() -> None:
    st = new_game()
    (thorgrim,) = field(st, 0, "Thorgrim Doomhammer")
    a, b, c = field(st, 1, "Nib Quickfingers", "Sly Merrit", "Jory Cutpurse")
    give(st, 1, "Hex of Weakness")
    dice(st, 5, 5)
    act(st, f"roll:{thorgrim}")
    choose(st, 1)
    act(st, f"pick:{b}")
    act(st, f"pick:{c}")
    assert decision(st) == (1, "modifier")
    st.parties[1].remove(b)  # gone before the window closed (returned, say)
    st.hands[1].append(b)
    act(st, "pass")
    assert st.discard == [c], "the Hero still there goes"
    assert decision(st) == (0, "pick") and texts(st) == [f"pick:{a}"]


def test_the_hollow_king_may_steal_one_of_two_heroes_and_destroy_or_steal_the_other() -> None:
    st = new_game()
    slain_by(st, 0, "The Hollow King")
    (thorgrim,) = field(st, 0, "Thorgrim Doomhammer")
    a, b = field(st, 1, "Nib Quickfingers", "Sly Merrit")
    dice(st, 6, 6)
    act(st, f"roll:{thorgrim}")
    act(st, f"pick:{a}")
    act(st, f"pick:{b}")
    assert set(texts(st)) == {f"pick:{a}", f"steal:{a}"}
    act(st, f"steal:{a}")
    assert set(texts(st)) == {f"pick:{b}", f"steal:{b}"}, "the second is still a DESTROY"
    act(st, f"pick:{b}")
    assert st.parties[0] == [thorgrim, a] and st.discard == [b]


def test_the_shadow_claw_is_offered_only_when_an_opponent_holds_a_card() -> None:
    st = new_game(3, ("The Shadow Claw", "The Wild Hawk", "The Ember Sage"))
    give(st, 0, "Fireball")
    assert "skill:1" not in texts(st), "its own hand is no one to PULL from"
    (tempest,) = give(st, 2, "Tempest")
    assert "skill:1" in texts(st)
    act(st, "skill:1")
    assert decision(st) == (0, "turn"), "the only opponent holding a card: no question"
    assert tempest in st.hands[0] and st.ap == 2


def test_the_shadow_claw_chooses_among_the_opponents_holding_cards() -> None:
    st = new_game(4, ("The Shadow Claw", "The Wild Hawk", "The Ember Sage", "The Iron Boar"))
    give(st, 1, "Fireball")
    (tempest,) = give(st, 3, "Tempest")
    act(st, "skill:1")
    assert decision(st) == (0, "target") and texts(st) == ["target:2", "target:4"]
    choose(st, 3)
    assert st.hands[0] == [tempest]


def test_a_hero_effect_chooses_only_among_players_it_can_reach() -> None:
    st = new_game()
    (nib,) = field(st, 0, "Nib Quickfingers")
    (sable,) = field(st, 0, "Sable Warbrand")
    (fireball,) = give(st, 2, "Fireball")
    (lark,) = field(st, 1, "Lark the Busker")
    dice(st, 3, 3, 4, 4)
    act(st, f"roll:{nib}")
    assert decision(st) == (0, "turn") and st.hands[0] == [fireball], "only seat 2 holds cards"
    act(st, f"roll:{sable}")
    assert decision(st) == (0, "aim") and texts(st) == [f"pick:{lark}"], "only seat 1 has Heroes"
    act(st, f"pick:{lark}")
    assert lark in st.discard


TINY_PACK = """
[pack]
name = "Tiny"

[[hero]]
name = "Maybe Drawer"
class = "Bard"
roll = 2
text = "You may DRAW 2 cards."
effect = [{ verb = "draw", count = 2, optional = true }]

[[hero]]
name = "Second Thoughts"
class = "Bard"
roll = 2
text = "You may DRAW 2 cards."
effect = [{ verb = "draw", count = 2, optional = true }]

[[challenge]]
name = "Not So Fast!"
copies = 20

[[leader]]
name = "Once Drawer"
class = "Bard"

[leader.skill]
trigger = "on_successful_hero_roll"
once_per_turn = true
text = "Once a turn, DRAW."
effect = [{ verb = "draw" }]

[[leader]]
name = "Plain"
class = "Fighter"
skill = { trigger = "on_any_roll", text = "+1 to all your rolls.", bonus = [1] }

[[monster]]
name = "Rat"
requirement = { heroes = 1 }
slay_roll = 6
punishment_roll = 3
punishment = [{ verb = "discard" }]
skill = { trigger = "on_any_roll", text = "+1", bonus = [1] }

[[monster]]
name = "Bat"
requirement = { heroes = 1 }
slay_roll = 6
punishment_roll = 3
punishment = [{ verb = "discard" }]
skill = { trigger = "on_any_roll", text = "+1", bonus = [1] }

[[monster]]
name = "Cat"
requirement = { heroes = 1 }
slay_roll = 6
punishment_roll = 3
punishment = [{ verb = "discard" }]
skill = { trigger = "on_any_roll", text = "+1", bonus = [1] }
"""


def test_optional_steps_ask_first_and_once_per_turn_skills_fire_once(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY_PACK, encoding="utf-8")
    pack = GAME.load_pack(str(path))
    st = GAME.setup(GAME.make_config({"players": 2, "ask_everyone": False}), 3, pack)
    act(st, "leader:2")  # seat 1 chooses first
    act(st, "leader:1")
    for hand in st.hands:
        st.deck.extend(hand)
        hand.clear()
    first, second = take(st, "Maybe Drawer"), take(st, "Second Thoughts")
    st.parties[0] += [first, second]
    dice(st, 3, 3, 3, 3)
    act(st, f"roll:{first}")
    assert decision(st) == (0, "may_step") and texts(st) == ["use", "skip"]
    # The question names what it offers, to the table and on the button.
    assert GAME.view(st, 1)["decision"]["offer"] == "DRAW 2 cards"
    assert GAME.label(st, Action("use")) == "Yes: DRAW 2 cards"
    act(st, "use")
    assert len(st.hands[0]) == 3, "2 from the Hero, then 1 from the Leader"
    act(st, f"roll:{second}")
    act(st, "skip")
    assert len(st.hands[0]) == 3, "skipped, and the Leader's skill is spent this turn"


def test_the_challenge_odds_count_the_iron_boars_bonus() -> None:
    st = new_game(4)  # seat 3 leads with The Iron Boar: +2 to CHALLENGE rolls
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 3, "Not So Fast!")
    act(st, f"play:{lark}")
    assert decision(st) == (3, "challenge")
    twice = [a + b for a in range(1, 7) for b in range(1, 7)]
    expected = sum(1 for c in twice for d in twice if c + 2 >= d) / 1296
    assert GAME.odds(st, Action("challenge")) == {"success": expected}
    assert expected > 0.75
