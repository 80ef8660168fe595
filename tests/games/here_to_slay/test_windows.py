"""The reaction windows of Here to Slay: who is asked, in which order, and when they close.

The issue's list: a Modifier that flips a Monster ATTACK, a CHALLENGE modified by a third
player, a CHALLENGE of a card played "immediately", nothing skipped after the first
response, and totals below 2. test_rules.py has the first cases of each; these are the
rest.
"""

from __future__ import annotations

from here_to_slay_helpers import (
    act,
    act_events,
    choose,
    decision,
    dice,
    field,
    give,
    new_game,
    on_top,
    set_row,
    slain_by,
    take,
    texts,
)

from tavernkeep.engine.events import Event
from tavernkeep.games.here_to_slay import GAME, HereToSlayState

FOUR = ("The Ember Sage", "The Shadow Claw", "The Wild Hawk", "The Silver Songbird")
"""Seat 0 gets no bonus on any roll; seat 3's Songbird helps only its own Hero rolls."""


def pass_until_closed(st: HereToSlayState, kind: str) -> list[int]:
    """Pass in the open window of `kind` until it closes; the seats asked, in order."""
    seats = []
    while st.stack and st.stack[-1].kind == kind:
        seats.append(st.stack[-1].seat)
        act(st, "pass")
    return seats


def roller_total(events: list[Event]) -> int:
    """The total of the roll the last Modifier in `events` was played on."""
    return int([e for e in events if e.kind == "modifier"][-1].data["total"])


# -- a CHALLENGE of a card played "immediately" ---------------------------------------


def searched_lark(players: int = 3) -> tuple[HereToSlayState, int, int]:
    """Roderick Bastion finds Lark in the discard pile; seat 0 is offered to play it at
    once."""
    st = new_game(players, FOUR[:players])
    (roderick,) = field(st, 0, "Roderick Bastion")
    lark = take(st, "Lark the Busker")
    st.discard.append(lark)
    dice(st, 6, 6)
    act(st, f"roll:{roderick}")
    act(st, f"pick:{lark}")
    assert decision(st) == (0, "play_now")
    return st, roderick, lark


def test_a_hero_played_at_once_can_be_challenged_and_stopped() -> None:
    st, roderick, lark = searched_lark()
    (challenge,) = give(st, 2, "Not So Fast!")
    act(st, f"play:{lark}")
    assert decision(st) == (2, "challenge") and texts(st) == ["challenge", "pass"]
    assert GAME.view(st, 2)["playing"][0]["id"] == lark
    dice(st, 5, 5, 4, 6)  # the challenger ties: the card is stopped
    act(st, "challenge")
    assert st.parties[0] == [roderick] and st.discard == [challenge, lark]
    assert decision(st) == (0, "turn") and st.ap == 2, "only the roll was paid for"


def test_a_hero_played_at_once_that_survives_its_challenge_enters_with_its_free_roll() -> None:
    st, roderick, lark = searched_lark()
    (challenge,) = give(st, 1, "Not So Fast!")
    act(st, f"play:{lark}")
    assert decision(st) == (1, "challenge")
    dice(st, 1, 2, 3, 3)
    act(st, "challenge")
    assert st.parties[0] == [roderick, lark] and st.discard == [challenge]
    assert decision(st) == (0, "free_roll") and st.ap == 2


def test_every_challenge_holder_is_asked_in_turn_order_for_a_card_played_at_once() -> None:
    st, _, lark = searched_lark(4)
    for seat in (1, 2, 3):
        give(st, seat, "Not So Fast!")
    act(st, f"play:{lark}")
    assert pass_until_closed(st, "challenge") == [1, 2, 3]
    assert lark in st.parties[0]


def test_a_magic_card_played_at_once_can_be_challenged_before_its_effect() -> None:
    st = new_game(3, ("The Iron Boar", "The Shadow Claw", "The Wild Hawk"))
    (zeph,) = field(st, 0, "Zephyrine Starcaller")
    surge = take(st, "Arcane Surge")
    st.discard.append(surge)
    (challenge,) = give(st, 1, "Not So Fast!")
    dice(st, 5, 5, 6, 6, 1, 1)  # Zephyrine, then the challenger, then seat 0
    act(st, f"roll:{zeph}")
    act(st, f"pick:{surge}")
    act(st, f"play:{surge}")
    assert decision(st) == (1, "challenge")
    act(st, "challenge")
    assert st.hands[0] == [], "stopped: Arcane Surge draws nothing"
    assert st.discard == [challenge, surge] and st.ap == 2


def test_a_drawn_item_played_at_once_can_be_challenged() -> None:
    st = new_game()
    slain_by(st, 0, "Thornback Bear")
    (pim,) = field(st, 0, "Pim the Apprentice")
    (band,) = on_top(st, "Band of Fortune")
    (challenge,) = give(st, 1, "Not So Fast!")
    act(st, "draw")
    act(st, f"play:{band},{pim}")
    assert decision(st) == (1, "challenge")
    dice(st, 6, 6, 1, 1)
    act(st, "challenge")
    assert st.equipped == {} and st.discard == [challenge, band] and st.ap == 2


def test_a_drawn_item_played_at_once_by_the_gilded_mimic_slayer_cannot_be_challenged() -> None:
    st = new_game()
    slain_by(st, 0, "Thornback Bear")
    slain_by(st, 0, "The Gilded Mimic")
    (pim,) = field(st, 0, "Pim the Apprentice")
    (band,) = on_top(st, "Band of Fortune")
    give(st, 1, "Not So Fast!")
    act(st, "draw")
    act(st, f"play:{band},{pim}")
    assert decision(st) == (0, "turn") and st.equipped == {pim: band}


def test_a_drawn_magic_card_played_at_once_can_be_challenged() -> None:
    st = new_game(3, ("The Iron Boar", "The Shadow Claw", "The Wild Hawk"))
    slain_by(st, 0, "Spellbound Golem")
    (nib,) = field(st, 1, "Nib Quickfingers")
    (fireball,) = on_top(st, "Fireball")
    give(st, 2, "Not So Fast!")
    act(st, "draw")
    act(st, f"play:{fireball}")
    assert decision(st) == (2, "challenge")
    dice(st, 6, 6, 1, 1)
    act(st, "challenge")
    assert st.parties[1] == [nib] and fireball in st.discard and st.ap == 2


def played_at_once_off_turn(**options: object) -> tuple[HereToSlayState, int, int]:
    """Tamsin makes seat 1 DRAW an Item; seat 1 slew the Bear, so it may play the Item at
    once on seat 0's turn. Every seat holds a Challenge."""
    st = new_game(4, FOUR, **options)
    slain_by(st, 1, "Thornback Bear")
    (tamsin,) = field(st, 0, "Tamsin Silvertongue")
    (nib,) = field(st, 1, "Nib Quickfingers")
    (band,) = on_top(st, "Band of Fortune")
    for seat in (0, 2, 3):
        give(st, seat, "Not So Fast!")
    dice(st, 4, 4)
    act(st, f"roll:{tamsin}")
    choose(st, 1)
    assert decision(st) == (1, "play_now") and texts(st) == [f"play:{band},{nib}", "skip"]
    act(st, f"play:{band},{nib}")
    return st, nib, band


def test_a_card_played_at_once_on_another_players_turn_cannot_be_challenged() -> None:
    # The rulebook: a Challenge is played "on that player's turn" (RULES 12).
    st, nib, band = played_at_once_off_turn()
    assert st.equipped == {nib: band} and decision(st) == (0, "turn") and st.ap == 2
    assert st.discard == [], "no Challenge was played"


def test_with_challenge_off_turn_it_is_challenged_from_its_left() -> None:
    """The other reading: the window opens left of seat 1 and reaches seat 0 last."""
    st, nib, band = played_at_once_off_turn(challenge_off_turn=True)
    assert pass_until_closed(st, "challenge") == [2, 3, 0]
    assert st.equipped == {nib: band} and decision(st) == (0, "turn") and st.ap == 2


# -- nothing skipped after the first response -----------------------------------------


def test_after_a_modifier_every_other_seat_is_asked_again_in_turn_order() -> None:
    st = new_game(4, FOUR)
    (pim,) = field(st, 0, "Pim the Apprentice")
    for seat in range(4):
        give(st, seat, "Fickle Fortune")
    (might,) = give(st, 1, "Blessing of Might")
    dice(st, 1, 2)
    act(st, f"roll:{pim}")
    assert decision(st) == (0, "modifier"), "the roller first"
    act(st, "pass")
    assert decision(st) == (1, "modifier")
    act(st, f"modify:{might},4,1")
    assert pass_until_closed(st, "modifier") == [1, 2, 3, 0], "seat 0 passed before: again"
    assert len(st.hands[0]) == 2, "7 meets 5+: Pim draws"


def test_a_second_modifier_reopens_the_window_for_those_who_answered_the_first() -> None:
    st = new_game(4, FOUR)
    (pim,) = field(st, 0, "Pim the Apprentice")
    for seat in range(4):
        give(st, seat, "Fickle Fortune")
    (might,) = give(st, 1, "Blessing of Might")
    (hex_,) = give(st, 3, "Hex of Weakness")
    dice(st, 1, 2)
    act(st, f"roll:{pim}")
    act(st, "pass")  # seat 0
    act(st, f"modify:{might},4,1")  # seat 1: 7
    act(st, "pass")  # seat 1
    act(st, "pass")  # seat 2
    assert decision(st) == (3, "modifier")
    act(st, f"modify:{hex_},-4,1")  # seat 3: 3
    assert pass_until_closed(st, "modifier") == [3, 0, 1, 2]
    assert len(st.hands[0]) == 1, "3 misses 5+: nothing drawn"


def test_a_seat_that_gains_a_modifier_during_the_window_is_asked() -> None:
    """Seat 0 holds no Modifier when it rolls, so it is passed over; the Storm Hydra
    makes it DRAW one when seat 1 plays a Modifier, and it is asked before the close."""
    st = new_game()
    slain_by(st, 0, "Storm Hydra")
    (pim,) = field(st, 0, "Pim the Apprentice")
    (hex_,) = give(st, 1, "Hex of Weakness")
    give(st, 2, "Fickle Fortune")
    drawn, then = on_top(st, "Blessing of Might", "Fireball")
    dice(st, 4, 4)
    act(st, f"roll:{pim}")
    assert decision(st) == (1, "modifier"), "seat 0 holds no Modifier yet"
    act(st, f"modify:{hex_},-4,1")
    assert st.hands[0] == [drawn]
    assert decision(st) == (2, "modifier"), "seat 1 has nothing left"
    act(st, "pass")
    assert decision(st) == (0, "modifier") and f"modify:{drawn},4,1" in texts(st)
    act(st, f"modify:{drawn},4,1")
    assert st.hands[0][0] == then, "the Hydra again"
    assert pass_until_closed(st, "modifier") == [2]
    assert len(st.hands[0]) == 2, "8 - 4 + 4 meets 5+: Pim draws"


def test_the_challenge_roll_window_starts_with_the_challenger_and_asks_again() -> None:
    st = new_game(4, FOUR)
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 2, "Not So Fast!")
    for seat in range(4):
        give(st, seat, "Fickle Fortune")
    (hex_,) = give(st, 3, "Hex of Weakness")
    act(st, f"play:{lark}")
    assert decision(st) == (2, "challenge")
    dice(st, 3, 3, 4, 4)  # challenger 6, player 8
    act(st, "challenge")
    assert decision(st) == (2, "modifier"), "the challenger first"
    act(st, "pass")
    assert decision(st) == (3, "modifier")
    assert f"modify:{hex_},-4,1" in texts(st) and f"modify:{hex_},-4,2" in texts(st)
    events = act_events(st, f"modify:{hex_},-4,2")  # the player's roll: 8 - 4 = 4
    assert roller_total(events) == 4
    assert pass_until_closed(st, "modifier") == [3, 0, 1, 2], "the challenger again too"
    assert lark in st.discard and st.parties[0] == [], "6 beats 4: the challenge succeeds"


def test_each_challenge_holder_is_asked_once_from_the_left_of_the_player() -> None:
    st = new_game(4, FOUR)
    act(st, "end")
    act(st, "end")
    assert decision(st) == (2, "turn")
    (lark,) = give(st, 2, "Lark the Busker")
    for seat in (0, 1, 3):
        give(st, seat, "Not So Fast!")
    act(st, f"play:{lark}")
    assert pass_until_closed(st, "challenge") == [3, 0, 1]
    assert st.parties[2] == [lark] and decision(st) == (2, "free_roll")


def test_a_challenge_after_earlier_passes_closes_the_window() -> None:
    st = new_game(4, FOUR)
    (lark,) = give(st, 0, "Lark the Busker")
    for seat in (1, 2, 3):
        give(st, seat, "Not So Fast!")
    act(st, f"play:{lark}")
    act(st, "pass")  # seat 1
    assert decision(st) == (2, "challenge")
    dice(st, 6, 6, 1, 1)
    act(st, "challenge")
    assert lark in st.discard and decision(st) == (0, "turn")
    assert len(st.hands[3]) == 1 and len(st.hands[1]) == 1, "seat 3 is not asked"


# -- totals below 2 (and above 12) ----------------------------------------------------


def test_a_hero_roll_below_two_fails_even_a_two_plus_hero() -> None:
    st = new_game()
    (lark,) = field(st, 0, "Lark the Busker")
    (hex_,) = give(st, 1, "Hex of Weakness")
    dice(st, 1, 2)
    act(st, f"roll:{lark}")
    events = act_events(st, f"modify:{hex_},-4,1")
    assert roller_total(events) == -1
    assert decision(st) == (0, "turn") and st.hands[0] == [], "-1 misses 2+"


def test_the_inverted_monster_is_slain_by_a_total_below_two_and_punishes_above_twelve() -> None:
    st = new_game()
    (lark,) = field(st, 0, "Lark the Busker")
    (wisp,) = set_row(st, "The Gloom Wisp")
    (hex_,) = give(st, 1, "Hex of Weakness")
    dice(st, 1, 1)
    act(st, f"attack:{wisp}")
    act(st, f"modify:{hex_},-4,1")
    assert st.slain[0] == [wisp], "-2 is 5 or less"
    st = new_game()
    (lark,) = field(st, 0, "Lark the Busker")
    (wisp,) = set_row(st, "The Gloom Wisp")
    (might,) = give(st, 1, "Blessing of Might")
    dice(st, 6, 6)
    act(st, f"attack:{wisp}")
    act(st, f"modify:{might},4,1")
    assert decision(st) == (0, "pick") and texts(st) == [f"pick:{lark}"], "16 is 8 or more"
    act(st, f"pick:{lark}")
    assert st.parties[0] == [] and wisp in st.row


def test_a_modifier_flips_the_inverted_monster_from_punishment_to_slain() -> None:
    st = new_game()
    (lark,) = field(st, 0, "Lark the Busker")
    (wisp,) = set_row(st, "The Gloom Wisp")
    (hex_,) = give(st, 0, "Hex of Weakness")
    dice(st, 4, 4)
    act(st, f"attack:{wisp}")
    act(st, f"modify:{hex_},-4,1")
    assert st.slain[0] == [wisp] and st.parties[0] == [lark]


def test_challenge_totals_below_two_are_compared_as_numbers() -> None:
    st = new_game()
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 1, "Not So Fast!")
    hex_a, hex_b = give(st, 2, "Hex of Weakness", "Hex of Weakness")
    act(st, f"play:{lark}")
    dice(st, 1, 1, 1, 2)
    act(st, "challenge")
    assert decision(st) == (2, "modifier")
    act(st, f"modify:{hex_a},-4,1")  # challenger: -2
    act(st, f"modify:{hex_b},-4,2")  # player: -1; nobody holds another Modifier
    assert st.parties[0] == [lark], "-1 beats -2: the card is played"
    assert decision(st) == (0, "free_roll")


def test_a_challenge_tie_below_two_goes_to_the_challenger() -> None:
    st = new_game()
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 1, "Not So Fast!")
    hex_a, hex_b = give(st, 2, "Hex of Weakness", "Hex of Weakness")
    act(st, f"play:{lark}")
    dice(st, 1, 2, 2, 1)
    act(st, "challenge")
    act(st, f"modify:{hex_a},-4,1")
    act(st, f"modify:{hex_b},-4,2")
    pass_until_closed(st, "modifier")
    assert lark in st.discard and st.parties[0] == [], "-1 ties -1"


# -- asking every seat (the default) --------------------------------------------------


def test_by_default_every_seat_is_asked_even_with_nothing_to_play() -> None:
    # Skipping a seat with no Challenge or Modifier would tell the table what it holds.
    st = new_game(4, FOUR, ask_everyone=True)
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 2, "Not So Fast!")
    act(st, f"play:{lark}")
    assert decision(st) == (1, "challenge") and texts(st) == ["pass"]
    act(st, "pass")
    assert decision(st) == (2, "challenge") and texts(st) == ["challenge", "pass"]
    act(st, "pass")
    assert decision(st) == (3, "challenge") and texts(st) == ["pass"]
    act(st, "pass")
    assert decision(st) == (0, "free_roll")
    dice(st, 3, 3)
    act(st, "roll")
    # Nobody holds a Modifier, and all four are asked, from the roller round the table.
    assert pass_until_closed(st, "modifier") == [0, 1, 2, 3]
    assert lark in st.parties[0] and len(st.hands[0]) == 1, "Lark's DRAW happened"


# -- a drawn card stays in its drawer's hand, unseen, until it is played -----------------

OTHERS = (1, 2, None)
"""The other seats of a three-player game, and a spectator."""


def drawing(monster: str, card: str) -> tuple[HereToSlayState, int, int]:
    """Seat 0 slew `monster` and has Pim in its Party; `card` is on top of the deck.
    Every seat is asked in every window (the default)."""
    st = new_game(3, FOUR[:3], ask_everyone=True)
    slain_by(st, 0, monster)
    (pim,) = field(st, 0, "Pim the Apprentice")
    (top,) = on_top(st, card)
    return st, pim, top


def shown_to_others(st: HereToSlayState, text: str) -> list[object]:
    """Seat 0 does `text`: what seats 1 and 2 and a spectator are shown of it, each its
    view and the events as it sees them."""
    events = act_events(st, text)
    return [(GAME.view(st, s), [e.for_seat(s) for e in events]) for s in OTHERS]


def test_a_card_drawn_for_the_bear_is_named_to_its_drawer_alone_until_played() -> None:
    st, pim, band = drawing("Thornback Bear", "Band of Fortune")
    act(st, "draw")
    assert decision(st) == (0, "play_now") and texts(st) == [f"play:{band},{pim}", "skip"]
    assert GAME.view(st, 0)["decision"]["card"]["id"] == band
    for seat in OTHERS:
        assert "card" not in GAME.view(st, seat)["decision"], "only its drawer knows it"
    act(st, f"play:{band},{pim}")
    assert decision(st) == (1, "challenge") and GAME.view(st, 1)["playing"][0]["id"] == band


def test_declining_the_bear_tells_no_one_whether_an_item_was_drawn() -> None:
    st, _, band = drawing("Thornback Bear", "Band of Fortune")
    seen = [shown_to_others(st, "draw")]
    assert decision(st) == (0, "play_now") and "skip" in texts(st)
    seen.append(shown_to_others(st, "skip"))
    other, _, _ = drawing("Thornback Bear", "Fireball")
    unseen = [shown_to_others(other, "draw")]
    assert decision(other) == (0, "play_now") and texts(other) == ["pass"], "asked all the same"
    unseen.append(shown_to_others(other, "pass"))
    assert seen == unseen
    assert decision(st) == decision(other) == (0, "turn") and band in st.hands[0]


def test_declining_the_golem_tells_no_one_whether_a_magic_card_was_drawn() -> None:
    st, _, fireball = drawing("Spellbound Golem", "Fireball")
    seen = [shown_to_others(st, "draw")]
    assert decision(st) == (0, "play_now") and texts(st) == [f"play:{fireball}", "skip"]
    seen.append(shown_to_others(st, "skip"))
    other, _, _ = drawing("Spellbound Golem", "Sable Warbrand")
    unseen = [shown_to_others(other, "draw")]
    assert decision(other) == (0, "play_now") and texts(other) == ["pass"], "not a Magic card"
    unseen.append(shown_to_others(other, "pass"))
    assert seen == unseen


def test_declining_the_iron_gargoyle_tells_no_one_whether_a_modifier_was_drawn() -> None:
    st, _, fickle = drawing("Iron Gargoyle", "Fickle Fortune")
    seen = [shown_to_others(st, "draw")]
    assert decision(st) == (0, "may") and texts(st) == ["use", "skip"]
    seen.append(shown_to_others(st, "skip"))
    other, _, _ = drawing("Iron Gargoyle", "Fireball")
    unseen = [shown_to_others(other, "draw")]
    assert decision(other) == (0, "may") and texts(other) == ["pass"], "asked all the same"
    unseen.append(shown_to_others(other, "pass"))
    assert seen == unseen
    assert st.hands[0] == [fickle] and fickle not in st.known, "never revealed"


def test_without_asking_everyone_only_a_card_of_the_kind_is_asked_about() -> None:
    # ask_everyone=false trades this secret for fewer decisions, as for the windows.
    st = new_game(3, FOUR[:3])
    slain_by(st, 0, "Iron Gargoyle")
    on_top(st, "Fireball")
    act(st, "draw")
    assert decision(st) == (0, "turn")
