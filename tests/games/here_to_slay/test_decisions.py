"""Every decision shows what it needs (issue 25, item 2): each choice dice decide shows its
exact chance, and the cards and choices say what a person needs to weigh them.

The chances are worked out here again from the dice themselves (every pair of faces), not
with the helpers the rules use, and the positions are laid out by hand (helpers.py): seat
0 leads with The Ember Sage, whose skill touches no roll, unless a test says otherwise.
"""

from __future__ import annotations

import io
import re
import sys
from fractions import Fraction

import pytest
from here_to_slay_helpers import (
    act,
    choose,
    decision,
    dice,
    equip,
    field,
    give,
    new_game,
    set_row,
    slain_by,
)
from rich.console import Console

from tavernkeep.engine.actions import Action
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng
from tavernkeep.games.here_to_slay import GAME, HereToSlayState
from tavernkeep.games.here_to_slay.terminal import render
from tavernkeep.terminal.play import HumanAgent, seat_names
from tavernkeep.terminal.render import odds_text, renderer_for

TOTALS = [a + b for a in range(1, 7) for b in range(1, 7)]
"""Every roll of 2d6, each pair of faces once."""


def at_least(need: int) -> float:
    return float(Fraction(sum(1 for t in TOTALS if t >= need), 36))


def at_most(limit: int) -> float:
    return float(Fraction(sum(1 for t in TOTALS if t <= limit), 36))


def beats(edge: int) -> float:
    """The challenger's chance: its 2d6 + edge equal to or above the other 2d6."""
    return float(Fraction(sum(1 for c in TOTALS for d in TOTALS if c + edge >= d), 36 * 36))


def screen(st: HereToSlayState, seat: int | None) -> str:
    console = Console(record=True, width=200)
    console.print(render(GAME.view(st, seat)))
    return " ".join(console.export_text().split())


def at_the_terminal(st: HereToSlayState, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The lines a person at the terminal sees for this decision (choosing 'end' or
    whatever the first choice is, which is not applied)."""
    seat = GAME.actor(st)
    assert seat is not None
    console = Console(record=True, width=250)
    agent = HumanAgent(console, renderer_for(GAME), seat_names(["human"] * st.players))
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    agent.choose(InfoSet(GAME, st, seat, Rng(1)))
    return [" ".join(line.split()) for line in console.export_text().splitlines()]


def legal(st: HereToSlayState, kind: str) -> list[Action]:
    return [a for a in GAME.legal_actions(st) if a.kind == kind]


# -- the cards in a hand ---------------------------------------------------------------


def test_a_hero_in_hand_shows_its_class_and_roll_in_the_view_and_the_terminal() -> None:
    st = new_game()
    pippa, lark = give(st, 0, "Pippa Reedsong", "Lark the Busker")
    hand = {c["id"]: c for c in GAME.view(st, 0)["table"][0]["hand"]}
    assert (hand[pippa]["class"], hand[pippa]["roll"]) == ("Bard", 6)
    assert (hand[lark]["class"], hand[lark]["roll"]) == ("Bard", 2)
    text = screen(st, 0)
    assert "Pippa Reedsong │ hero · Bard · roll 6+ │ DRAW 2 cards, then DISCARD a card." in text
    assert "Lark the Busker │ hero · Bard · roll 2+ │" in text


def test_a_masked_hero_keeps_its_printed_roll_and_shows_the_masks_class() -> None:
    st = new_game()
    (lark,) = field(st, 0, "Lark the Busker")
    equip(st, lark, "Mask of the Shade")
    (hero,) = GAME.view(st, 0)["table"][0]["party"]
    assert (hero["class"], hero["printed_class"], hero["roll"]) == ("Thief", "Bard", 2)


def test_modifiers_and_challenges_in_hand_say_how_they_are_played() -> None:
    # Seat 3 leads with The Iron Boar: its CHALLENGE rolls get +2, and its hand says so.
    st = new_game(4)
    give(st, 3, "Not So Fast!", "Trick of Fate")
    hand = {c["name"]: c for c in GAME.view(st, 3)["table"][3]["hand"]}
    assert "equal or higher for you stops the card" in hand["Not So Fast!"]["note"]
    assert "Played on any roll once its dice are down" in hand["Trick of Fate"]["note"]
    assert hand["Trick of Fate"]["text"] == "+3 or -1"
    text = screen(st, 3)
    assert "Trick of Fate │ modifier │ +3 or -1 │" in text
    assert "Played on any roll once its dice are down, yours or another's" in text
    assert "you both roll 2d6 with your CHALLENGE bonuses" in text
    assert "Your CHALLENGE rolls: +2." in text
    # The others see neither card, nor the bonus line of a hand they cannot see.
    assert "Trick of Fate" not in screen(st, 0) and "Your CHALLENGE rolls" not in screen(st, 0)


# -- a Hero's roll ---------------------------------------------------------------------


def test_a_paid_roll_shows_its_chance_and_what_the_modifiers_in_hand_make_of_it() -> None:
    st = new_game()
    (pippa,) = field(st, 0, "Pippa Reedsong")  # 6+
    roll = Action("roll", pippa)
    assert GAME.label(st, roll) == "Roll for Pippa Reedsong (6+, 1 action point)"
    assert GAME.odds(st, roll) == {"success": at_least(6)}
    give(st, 0, "Hex of Weakness")  # -4 only: no help to one's own roll
    assert GAME.odds(st, roll) == {"success": at_least(6)}
    give(st, 0, "Fickle Fortune")  # +2 or -2
    assert GAME.odds(st, roll) == {"success": at_least(6), "with your +2": at_least(4)}
    give(st, 0, "Trick of Fate")  # +3 or -1: +5 in all
    assert GAME.odds(st, roll) == {"success": at_least(6), "with your +5": at_least(1)}
    assert odds_text(GAME.odds(st, roll)) == "72%, 100% with your +5"


def test_the_modifiers_in_another_hand_are_never_counted() -> None:
    st = new_game()
    (pippa,) = field(st, 0, "Pippa Reedsong")
    give(st, 1, "Blessing of Might")
    give(st, 2, "Hex of Weakness")
    assert GAME.odds(st, Action("roll", pippa)) == {"success": at_least(6)}


def test_the_stone_warden_adds_one_to_each_modifier_in_the_chance() -> None:
    warden = ("The Stone Warden", "The Shadow Claw", "The Wild Hawk")
    st = new_game(leaders=warden)
    (aurelian,) = field(st, 0, "Aurelian the Encore")  # 9+
    give(st, 0, "Fickle Fortune", "Fickle Fortune")  # (+2 +1) twice
    odds = GAME.odds(st, Action("roll", aurelian))
    assert odds == {"success": at_least(9), "with your +6": at_least(3)}


def test_bonuses_the_rules_add_are_in_the_chance_and_the_hand_helps_on_top() -> None:
    songbird = ("The Silver Songbird", "The Shadow Claw", "The Wild Hawk")
    st = new_game(leaders=songbird)  # +1 to seat 0's Hero rolls
    (aurelian,) = field(st, 0, "Aurelian the Encore")  # 9+
    equip(st, aurelian, "Leaden Gauntlet")  # -2 on its rolls: 10+ in all
    give(st, 0, "Twist of Fate")  # +1 or -3
    odds = GAME.odds(st, Action("roll", aurelian))
    assert odds == {"success": at_least(10), "with your +1": at_least(9)}


def test_the_free_roll_names_its_need_and_shows_the_same_chances(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    st = new_game()
    (corwin,) = give(st, 0, "Corwin Lutehand")  # 7+
    give(st, 0, "Fickle Fortune")
    act(st, f"play:{corwin}")
    assert decision(st) == (0, "free_roll")
    roll = Action("roll")
    assert GAME.label(st, roll) == "Roll for Corwin Lutehand's effect now, free (7+)"
    assert GAME.odds(st, roll) == {"success": at_least(7), "with your +2": at_least(5)}
    lines = at_the_terminal(st, monkeypatch)
    assert "1. Roll for Corwin Lutehand's effect now, free (7+) (58%, 83% with your +2)" in lines


def test_an_encore_is_a_roll_and_shows_its_chance(monkeypatch: pytest.MonkeyPatch) -> None:
    st = new_game()
    aurelian, pippa = field(st, 0, "Aurelian the Encore", "Pippa Reedsong")
    dice(st, 6, 6)
    act(st, f"roll:{aurelian}")
    assert decision(st) == (0, "pick") and st.stack[-1].args[0] == "encore"
    (encore,) = legal(st, "pick")
    assert int(encore.args[0]) == pippa
    assert GAME.label(st, encore) == "Encore: roll for Pippa Reedsong (6+), free"
    assert GAME.odds(st, encore) == {"success": at_least(6)}
    lines = at_the_terminal(st, monkeypatch)
    assert "▶ Player 1 to choose a Hero to roll for at once (encore) (you)" in lines
    assert "1. Encore: roll for Pippa Reedsong (6+), free (72%)" in lines


# -- an ATTACK ---------------------------------------------------------------------------


def test_an_attack_shows_slay_and_punishment_with_and_without_the_hand() -> None:
    st = new_game()
    field(st, 0, "Lark the Busker", "Pim the Apprentice")
    (ogre,) = set_row(st, "Grimtooth Ogre")  # 8+ slays, 5- punishes
    attack = Action("attack", ogre)
    assert GAME.label(st, attack) == (
        "ATTACK Grimtooth Ogre: 8+ slays, 5- punishes (2 action points)"
    )
    give(st, 0, "Trick of Fate")  # +3
    assert GAME.odds(st, attack) == {
        "slay": at_least(8),
        "punishment": at_most(5),
        "slay with your +3": at_least(5),
        "punishment with your +3": at_most(2),
    }
    assert odds_text(GAME.odds(st, attack)) == (
        "42% slay, 28% punishment, 83% slay with your +3, 3% punishment with your +3"
    )


def test_against_the_gloom_wisp_only_modifiers_down_help() -> None:
    st = new_game()
    field(st, 0, "Lark the Busker")
    (wisp,) = set_row(st, "The Gloom Wisp")  # 5- slays, 8+ punishes
    attack = Action("attack", wisp)
    give(st, 0, "Blessing of Might")  # +4 only: no help down
    assert GAME.odds(st, attack) == {"slay": at_most(5), "punishment": at_least(8)}
    give(st, 0, "Hex of Weakness")  # -4
    assert GAME.odds(st, attack) == {
        "slay": at_most(5),
        "punishment": at_least(8),
        "slay with your -4": at_most(9),
        "punishment with your -4": at_least(12),
    }


def test_an_attack_played_from_a_magic_card_shows_its_odds() -> None:
    st = new_game()
    field(st, 0, "Lark the Busker", "Pim the Apprentice")
    set_row(st, "Grimtooth Ogre")
    (moon,) = give(st, 0, "Hunter's Moon")
    act(st, f"play:{moon}")
    assert decision(st) == (0, "pick") and st.stack[-1].args[0] == "attack"
    (attack,) = legal(st, "pick")
    assert GAME.label(st, attack) == (
        "ATTACK Grimtooth Ogre: 8+ slays, 5- punishes (no action point)"
    )
    assert GAME.odds(st, attack) == {"slay": at_least(8), "punishment": at_most(5)}


def test_the_wild_hawks_bonus_is_in_an_attacks_chance() -> None:
    st = new_game()  # seat 2 leads with The Wild Hawk: +1 to its ATTACK rolls
    st.current = 2
    st.stack[-1] = Decision(2, "turn")
    field(st, 2, "Lark the Busker", "Pim the Apprentice")
    (ogre,) = set_row(st, "Grimtooth Ogre")
    assert GAME.odds(st, Action("attack", ogre)) == {
        "slay": at_least(7),
        "punishment": at_most(4),
    }


# -- a Challenge -----------------------------------------------------------------------


def test_a_challenge_names_the_card_and_both_rolls_and_counts_the_hand() -> None:
    st = new_game(4)  # seat 3: The Iron Boar, +2 on its CHALLENGE rolls
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 3, "Not So Fast!")
    act(st, f"play:{lark}")
    assert decision(st) == (3, "challenge")
    challenge = Action("challenge")
    assert GAME.label(st, challenge) == (
        "CHALLENGE Player 1's Lark the Busker: your 2d6 +2 against their 2d6, ties yours"
    )
    assert GAME.odds(st, challenge) == {"success": beats(2)}
    # Twist of Fate: +1 on one's own roll, or -3 on theirs: worth 3.
    give(st, 3, "Twist of Fate")
    assert GAME.odds(st, challenge) == {"success": beats(2), "with your +3": beats(5)}


def test_a_challenge_counts_the_ogre_that_answers_a_modifier_and_the_basilisk() -> None:
    st = new_game()
    slain_by(st, 0, "Grimtooth Ogre")  # +1 to Player 1's roll for each opponent's Modifier
    slain_by(st, 0, "Mirefang Basilisk")  # a challenger of Player 1 DISCARDS a card
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 2, "Not So Fast!", "Twist of Fate")
    act(st, f"play:{lark}")
    assert decision(st) == (2, "challenge")
    challenge = Action("challenge")
    # -3 on Player 1's roll is answered by +1: worth 2, more than +1 on one's own.
    assert GAME.odds(st, challenge) == {"success": beats(0), "with your +2": beats(2)}
    assert GAME.label(st, challenge) == (
        "CHALLENGE Player 1's Lark the Busker: your 2d6 against their 2d6, ties yours "
        "(Player 1's Mirefang Basilisk: Each time someone CHALLENGES you, they DISCARD a card.)"
    )


def test_a_challenge_to_an_item_names_its_hero() -> None:
    st = new_game()
    (lark,) = field(st, 0, "Lark the Busker")
    (band,) = give(st, 0, "Band of Fortune")
    give(st, 1, "Not So Fast!")
    act(st, f"play:{band},{lark}")
    assert decision(st) == (1, "challenge")
    assert GAME.label(st, Action("challenge")).startswith(
        "CHALLENGE Player 1's Band of Fortune onto Lark the Busker: your 2d6 against"
    )


# -- a Modifier on a roll ----------------------------------------------------------------


def test_a_modifier_says_the_total_it_makes_and_what_that_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    st = new_game()
    (pippa,) = field(st, 0, "Pippa Reedsong")  # 6+
    give(st, 1, "Trick of Fate")
    dice(st, 2, 3)
    act(st, f"roll:{pippa}")
    assert decision(st) == (1, "modifier")
    labels = {a.text: GAME.label(st, a) for a in legal(st, "modify")}
    card = next(iter(labels)).split(":")[1].split(",")[0]
    assert labels[f"modify:{card},3,1"] == (
        "Play Trick of Fate as +3 on Player 1's roll: 5 → 8, meets 6+"
    )
    assert labels[f"modify:{card},-1,1"] == (
        "Play Trick of Fate as -1 on Player 1's roll: 5 → 4, misses 6+"
    )
    lines = at_the_terminal(st, monkeypatch)
    roll = next(line for line in lines if line.startswith("Roll 1: "))
    assert roll.endswith("2+3 = 5 (misses 6+)"), roll


def test_a_modifier_on_an_ogre_slayers_roll_counts_its_answer() -> None:
    st = new_game()
    slain_by(st, 0, "Grimtooth Ogre")
    (pippa,) = field(st, 0, "Pippa Reedsong")  # 6+
    (hex_card,) = give(st, 1, "Hex of Weakness")
    dice(st, 4, 5)
    act(st, f"roll:{pippa}")
    assert decision(st) == (1, "modifier")
    assert GAME.view(st, 1)["rolls"][0]["opponent_modifier_bonus"] == 1
    modify = Action("modify", hex_card, -4, 1)
    assert GAME.label(st, modify) == (
        "Play Hex of Weakness as -4 on Player 1's roll: 9 → 6 (+1 from their Grimtooth Ogre), "
        "meets 6+"
    )
    said = [e.text for e in GAME.apply(st, modify) if e.kind in ("modifier", "success")]
    assert said == [
        "Player 2 plays Hex of Weakness (-4) on Player 1's roll: now 6",
        "Pippa Reedsong: 6 meets 6+",
    ], "the label said what the rules do"


def test_a_modifier_in_a_challenge_says_who_wins_then() -> None:
    st = new_game()
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 2, "Not So Fast!", "Blessing of Might")
    act(st, f"play:{lark}")
    dice(st, 2, 2, 3, 3)  # the challenger rolls first: 4 against 6
    act(st, "challenge")
    assert decision(st) == (2, "modifier")
    labels = [GAME.label(st, a) for a in legal(st, "modify")]
    assert labels == [
        # Player 3 is deciding and challenged: the challenger's roll is theirs.
        "Play Blessing of Might as +4 on your roll: 4 → 8, the challenge succeeds",
        "Play Blessing of Might as +4 on Player 1's roll: 6 → 10, the challenge fails",
    ]


# -- other choices -----------------------------------------------------------------------


def test_a_cursed_item_says_whose_hero_it_goes_on() -> None:
    st = new_game()
    (lark,) = field(st, 1, "Lark the Busker")
    field(st, 0, "Pim the Apprentice")
    (gauntlet,) = give(st, 0, "Leaden Gauntlet")
    labels = {GAME.label(st, a) for a in legal(st, "play")}
    assert "Play Leaden Gauntlet onto Player 2's Lark the Busker (1 action point)" in labels
    assert "Play Leaden Gauntlet onto your Pim the Apprentice (1 action point)" in labels
    assert GAME.odds(st, Action("play", gauntlet, lark)) == {}


def test_choosing_a_player_says_for_which_effect(monkeypatch: pytest.MonkeyPatch) -> None:
    st = new_game()
    (sable,) = field(st, 0, "Sable Warbrand")  # DESTROY a Hero card, chosen before the roll
    field(st, 1, "Lark the Busker")
    field(st, 2, "Pim the Apprentice")
    act(st, f"roll:{sable}")
    assert decision(st) == (0, "target")
    about = {"name": "Sable Warbrand", "text": "DESTROY a Hero card."}
    assert GAME.view(st, 0)["decision"]["about"] == about
    assert GAME.view(st, 1)["decision"]["about"] == about, "the Hero is in a Party: public"
    lines = at_the_terminal(st, monkeypatch)
    wanted = "▶ Player 1 to choose a player for Sable Warbrand: DESTROY a Hero card. (you)"
    assert wanted in lines
    # The roll to come, beside each player it could take from.
    chance = GAME.odds(st, Action("target", 2))["on the roll"]
    choices = [line for line in lines if line.startswith("1. Choose Player 2")]
    assert choices and f"{chance:.0%} on the roll" in choices[0], choices


def test_choosing_a_player_for_a_magic_card_or_a_skill_names_it() -> None:
    st = new_game()
    field(st, 1, "Lark the Busker")
    field(st, 2, "Pim the Apprentice")
    (fireball,) = give(st, 0, "Fireball")
    act(st, f"play:{fireball}")
    assert decision(st) == (0, "target")
    assert GAME.view(st, 0)["decision"]["about"] == {
        "name": "Fireball",
        "text": "DESTROY a Hero card.",
    }
    choose(st, 1)
    # The Shadow Claw's PULL, seat 1's skill, names its Party Leader.
    st2 = new_game()
    st2.current = 1
    st2.stack[-1] = Decision(1, "turn")
    give(st2, 0, "Lark the Busker")
    give(st2, 2, "Pim the Apprentice")
    act(st2, "skill:1")
    assert decision(st2) == (1, "target")
    about = GAME.view(st2, 1)["decision"]["about"]
    assert about["name"] == "The Shadow Claw" and "PULL a card" in about["text"]


def test_every_roll_choice_over_random_games_has_its_chance() -> None:
    """Over random games: every choice that rolls shows a chance, and so does a player or a
    card aimed at before a Hero's roll (the roll's chance, "on the roll"); no other does."""
    rolls_seen: set[str] = set()
    for seed in range(8):
        st = GAME.setup(GAME.make_config({"players": 2 + seed % 5}), seed, GAME.load_pack())
        rng = Rng(seed)
        while GAME.actor(st) is not None:
            top = st.stack[-1]
            actions = GAME.legal_actions(st)
            for action in actions:
                odds = GAME.odds(st, action)
                verb = top.args[0] if top.kind == "pick" else ""
                rolls = action.kind in ("roll", "attack", "challenge") or verb in (
                    "encore",
                    "attack",
                )
                aims = len(st.stack) > 1 and st.stack[-2].kind == "hero_roll"
                aims = aims and (action.kind == "target" or top.kind == "aim")
                if aims:
                    rolls_seen.add("aim")
                    assert "on the roll" in odds, odds
                    continue
                assert bool(odds) == rolls, (action, GAME.label(st, action), odds)
                assert all(0.0 <= p <= 1.0 for p in odds.values())
                if rolls:
                    rolls_seen.add(verb or action.kind)
                    assert re.search(r"\d+\+|\d+-|2d6", GAME.label(st, action)), action
            GAME.apply(st, actions[rng.below(len(actions))], False)
    assert {"roll", "attack", "challenge", "aim"} <= rolls_seen


def test_the_dice_section_of_how_to_play_says_what_the_screen_shows() -> None:
    how = GAME.how_to_play()
    assert how is not None
    dice_section = " ".join(how.markdown("dice").split())
    st = new_game()
    (corwin,) = field(st, 0, "Corwin Lutehand")  # 7+
    give(st, 0, "Trick of Fate")
    shown = odds_text(GAME.odds(st, Action("roll", corwin)))
    assert shown == "58%, 92% with your +3"
    assert f'"{shown}" for a 7+ Hero and a Trick of Fate' in dice_section.replace("**", "")
