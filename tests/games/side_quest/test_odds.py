"""Side Quest: every decision the dice decide shows its exact chances, and every choice
says what it will do (issue 25, item 2).

The chances are checked against numbers worked out here by hand (one die) or against the
rules themselves: every way the dice can land is scripted, the action is played, and what
came of it is counted (an attack's damage, with Mighty Boost explored every way it can be
given; a move's Grab Attacks, the health the hero is left with).
"""

from __future__ import annotations

import io
import sys
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from itertools import product

import pytest
from side_quest_helpers import arena, card, dice, location, play, put, special_pack

from tavernkeep.cli import main
from tavernkeep.engine.actions import Action
from tavernkeep.engine.events import Event
from tavernkeep.engine.rng import Rng
from tavernkeep.games.side_quest import GAME, SideQuestState
from tavernkeep.games.side_quest.state import NONE

POCK, IVO, HILDE, CORVIN = (
    "Pock Quickfingers",
    "Ivo Twice-Lucky",
    "Hilde Stonewall",
    "Corvin Ashveil",
)
GRUSK, HOLLIS, OZRIC, AMABEL = (
    "Grusk Redmane",
    "Captain Hollis",
    "Ozric Emberquill",
    "Sister Amabel",
)
SWORD, STAFF, STILETTO, SLING = (
    "Notched Shortsword",
    "Iron-shod Staff",
    "Chipped Stiletto",
    "Leather Sling",
)


def give(st: SideQuestState, seat: int, name: str) -> int:
    """Put the named card straight into the hero's equipment (a weapon: held too)."""
    c = int(put(st, name, 0))
    st.here[0].remove(c)
    kind = st.card_kind[c]
    if kind == "weapon":
        st.weapons[seat].append(c)
        st.equipped[seat].append(c)
    elif kind == "spell":
        st.spells[seat].append(c)
    else:
        st.items[seat].append(c)
    return c


def odds(st: SideQuestState, text: str) -> dict[str, float]:
    return GAME.odds(st, Action.parse(text))


def label(st: SideQuestState, text: str) -> str:
    return GAME.label(st, Action.parse(text))


def close(got: Mapping[str, float], want: Mapping[str, Fraction | float]) -> None:
    assert list(got) == list(want), (got, want)
    for name, p in want.items():
        assert got[name] == pytest.approx(float(p), abs=1e-12), (name, got, want)


def die(need: int) -> Fraction:
    """The chance one d6 shows `need` or more, by hand."""
    return Fraction(max(0, min(6, 7 - need)), 6)


# -- one die: Loot, Rescue, the Key, spells --------------------------------------------------


def test_loot_shows_its_chance_and_with_mighty_boost_the_actions_left() -> None:
    st = arena([POCK], [SWORD], [0])
    # 3 actions: the Loot spends one, two can lift a 3 or a 4 to the 5 it needs.
    close(odds(st, "loot"), {"success": die(5), "with boost": die(3)})
    assert label(st, "loot") == "Loot (5+ on a die draws a Loot card)"
    st.actions = 1
    close(odds(st, "loot"), {"success": die(5)})


def test_the_dowsing_rod_lifts_the_loot_chance_it_shows() -> None:
    st = arena([POCK], [SWORD], [0])
    give(st, 0, "Hazel Dowsing Rod")
    close(odds(st, "loot"), {"success": die(4), "with boost": die(2)})
    assert label(st, "loot") == "Loot (4+ on a die with your +1 draws a Loot card)"


def test_an_empty_loot_deck_is_said_beside_the_loot() -> None:
    st = arena([POCK], [SWORD], [0])
    st.loot_deck.clear()
    assert label(st, "loot") == "Loot (5+ on a die, but the Loot deck is empty)"


def test_corvins_rescue_shows_his_plus_one() -> None:
    st = arena([CORVIN], [SWORD], [0])
    damsel = put(st, "a Damsel", 0)
    st.actions = 1
    close(odds(st, f"rescue:{damsel}"), {"success": die(3)})
    assert label(st, f"rescue:{damsel}") == (
        "Rescue a Damsel (3+ on a die with your +1; her thanks: a Loot card)"
    )
    st = arena([POCK], [SWORD], [0])
    damsel = put(st, "a Damsel", 0)
    close(odds(st, f"rescue:{damsel}"), {"success": die(4), "with boost": die(2)})
    assert label(st, f"rescue:{damsel}") == "Rescue a Damsel (4+ on a die; her thanks: a Loot card)"


def test_the_dungeon_key_shows_its_chance() -> None:
    st = arena([POCK], [SWORD], [0])
    location(st, 0, "The Barred Gatehouse")
    key = give(st, 0, "the Dungeon Key")
    close(odds(st, f"key:{key}"), {"success": die(3), "with boost": die(1)})
    st.actions = 1
    close(odds(st, f"key:{key}"), {"success": die(3)})
    assert label(st, f"key:{key}") == "Use the Dungeon Key (3+ on a die opens the Locked Door)"


def test_a_spell_shows_its_chance_with_ozrics_and_the_wands_bonus() -> None:
    st = arena([POCK], [SLING], [0])
    dart = give(st, 0, "Ember Dart")
    put(st, "Cellar Rat", 1)
    close(odds(st, f"cast:{dart}"), {"success": die(3), "with boost": die(1)})
    st = arena([OZRIC], [SLING], [0])
    dart = give(st, 0, "Ember Dart")
    give(st, 0, "Chalk-bone Wand")
    put(st, "Cellar Rat", 1)
    st.actions = 1
    close(odds(st, f"cast:{dart}"), {"success": die(1)})
    assert label(st, f"cast:{dart}").endswith("within your range. (any die with your +2)")
    lance = give(st, 0, "Searing Lance")
    close(odds(st, f"cast:{lance}"), {"success": die(3)})
    assert label(st, f"cast:{lance}").endswith("(3+ on a die with your +2)")


def test_pocks_free_loot_keeps_every_action_for_mighty_boost() -> None:
    st = arena([POCK], [SWORD], [0])
    # Free: all 3 actions stay, so a 2, 3 or 4 can be lifted to 5.
    close(odds(st, "ability"), {"success": die(5), "with boost": die(2)})


def test_a_card_that_re_rolls_counts_in_the_chance_with_help() -> None:
    st = arena([IVO], [SWORD], [0])
    knuckle = give(st, 0, "Gambler's Knucklebone")
    helped = die(3)  # after the Loot, 2 actions lift a 3 to the 5 it needs
    # Ivo's ability and the Knucklebone: three rolls, the last boosted.
    close(
        odds(st, "loot"),
        {"success": die(5), "with boost and re-roll": 1 - (1 - helped) ** 3},
    )
    st.actions = 1
    close(odds(st, "loot"), {"success": die(5), "with re-roll": 1 - (1 - die(5)) ** 3})
    # The roll fails: Ivo re-rolls with his ability, the Knucklebone is still there.
    st.actions = 3
    dice(st, 1)
    play(st, "loot")
    assert {a.text for a in GAME.legal_actions(st)} == {"reroll:-1", f"reroll:{knuckle}", "keep"}
    close(
        odds(st, "reroll:-1"), {"success": die(5), "with boost and re-roll": 1 - (1 - helped) ** 2}
    )
    close(odds(st, f"reroll:{knuckle}"), odds(st, "reroll:-1"))
    assert label(st, "reroll:-1") == "Re-roll every die with your ability"
    assert label(st, f"reroll:{knuckle}") == (
        "Re-roll every die with Gambler's Knucklebone (then discarded)"
    )
    assert label(st, "keep") == "Let the roll stand: it fails"
    assert odds(st, "keep") == {}


# -- attacks, against the rules themselves -----------------------------------------------


def dealt(events: list[Event]) -> int | None:
    """The damage an attack's roll dealt, once it stands (its "hits" event)."""
    return next((sum(e.data["hits"]) for e in events if e.kind == "hits"), None)


def most_dealt(st: SideQuestState) -> int:
    """The most damage the roll in the boost window can come to, trying every Mighty
    Boost the rules offer (and letting it stand at every point)."""
    best = 0
    for action in GAME.legal_actions(st):
        if action.kind == "reroll":
            continue
        twin = GAME.clone(st)
        got = dealt(GAME.apply(twin, action))
        best = max(best, got if got is not None else most_dealt(twin))
    return best


def attack_by_the_rules(
    st: SideQuestState, action: str, count: int
) -> tuple[Counter[int], Counter[int]]:
    """For every way the `count` dice of the attack can land: the damage as rolled, and at
    most with Mighty Boost (each counted once per ordered roll)."""
    rolled: Counter[int] = Counter()
    boosted: Counter[int] = Counter()
    for faces in product(range(1, 7), repeat=count):
        twin = GAME.clone(st)
        dice(twin, *faces)
        events = GAME.apply(twin, Action.parse(action))
        got = dealt(events)
        if got is None:  # the boost window
            rolled[dealt(GAME.apply(GAME.clone(twin), Action("keep"))) or 0] += 1
            boosted[most_dealt(twin)] += 1
        else:
            rolled[got] += 1
            boosted[got] += 1
    return rolled, boosted


def at_least(spread: Counter[int], total: int) -> Fraction:
    return Fraction(sum(n for t, n in spread.items() if t >= total), sum(spread.values()))


def test_an_attack_shows_the_chance_of_each_damage_with_every_bonus_and_mighty_boost() -> None:
    """Grusk (+1 damage a hit) beside Captain Hollis (+1 on each attack die) attacks with
    a Chipped Stiletto (2d 5+ dmg1) and a Stormcall Javelin (1d 3+ dmg2): dice of 4+ for 2
    and of 2+ for 3. A Cellar Rat, an Ogre Bruiser and a Deep Troll stand there (1, 2 and
    3 health): any damage from 1 to 6 slays some of them."""
    st = arena([GRUSK, HOLLIS], [STILETTO, SWORD], [0, 0])
    give(st, 0, "Stormcall Javelin")
    for name in ("Cellar Rat", "Ogre Bruiser", "Deep Troll"):
        put(st, name, 0)
    got = odds(st, "attack:1")
    rolled, boosted = attack_by_the_rules(st, "attack:1", 3)
    # The dice deal 2, 3, 4, 5 or 7: the least of them reaching each of 1 to 6.
    shown = [2, 3, 4, 5, 7]
    want: dict[str, Fraction | float] = {f"{t}+ damage": at_least(rolled, t) for t in shown}
    want |= {f"{t}+ with boost": at_least(boosted, t) for t in shown}
    close(got, want)
    assert got["3+ damage"] == pytest.approx(float(die(2) + die(4) ** 2 * (1 - die(2))))
    assert label(st, "attack:1") == (
        "Attack the face-down Location 1 with Chipped Stiletto and Stormcall Javelin"
    )


def test_only_the_weapons_that_reach_roll_and_only_damage_that_slays_is_shown() -> None:
    st = arena([POCK], [STAFF], [0])
    give(st, 0, SLING)
    st.equipped[0] = [card(st, SLING)]
    put(st, "Cellar Rat", 1)
    st.actions = 1
    close(odds(st, "attack:2"), {"1+ damage": die(4)})
    assert label(st, "attack:2") == "Attack the face-down Location 2 with Leather Sling"
    st = arena([POCK], [STAFF], [0])
    put(st, "Cellar Rat", 0)  # one health: "2+" would say nothing more
    close(
        odds(st, "attack:1"),
        {"1+ damage": 1 - (1 - die(4)) ** 2, "1+ with boost": Fraction(35, 36)},
    )
    # Two Monsters of 2 health: 2 damage slays one, 4 both; the Staff deals at most 2.
    st = arena([POCK], [STAFF], [0])
    put(st, "Ogre Bruiser", 0)
    put(st, "Tusked Brute", 0)
    close(odds(st, "attack:1"), {"2+ damage": die(4) ** 2, "2+ with boost": Fraction(22, 36)})
    # A Sling's one hit cannot slay a Monster of 2 health: said once, at 0%.
    st = arena([POCK], [SLING], [0])
    put(st, "Ogre Bruiser", 0)
    assert odds(st, "attack:1") == {"2+ damage": 0.0}


def test_an_attack_re_rolled_shows_the_new_rolls_chances() -> None:
    st = arena([IVO], [STAFF], [0])
    put(st, "Ogre Bruiser", 0)
    dice(st, 1, 1)
    play(st, "attack:1")
    assert label(st, "keep") == "Let the roll stand: no hit"
    rolled, boosted = attack_by_the_rules_after(st)
    # The Ogre has 2 health: one hit would only wake it, so only 2+ is shown.
    close(
        odds(st, "reroll:-1"),
        {"2+ damage": at_least(rolled, 2), "2+ with boost": at_least(boosted, 2)},
    )


def attack_by_the_rules_after(st: SideQuestState) -> tuple[Counter[int], Counter[int]]:
    """Like attack_by_the_rules, for Ivo's re-roll of every die in the window."""
    rolled: Counter[int] = Counter()
    boosted: Counter[int] = Counter()
    for faces in product(range(1, 7), repeat=2):
        twin = GAME.clone(st)
        dice(twin, *faces)
        got = dealt(GAME.apply(twin, Action("reroll", -1)))
        if got is None:
            rolled[dealt(GAME.apply(GAME.clone(twin), Action("keep"))) or 0] += 1
            boosted[most_dealt(twin)] += 1
        else:
            rolled[got] += 1
            boosted[got] += 1
    return rolled, boosted


# -- moving away: the Grab Attacks ------------------------------------------------------------


def grabs_by_the_rules(st: SideQuestState, count: int) -> dict[str, Fraction | float]:
    """The hero of seat 0 moves to Location 2 for every way the `count` dice of the Grab
    Attacks can land: how often it is left unhurt, with each damage, fallen, stunned."""
    health = st.health[0]
    spread: Counter[str] = Counter()
    for faces in product(range(1, 7), repeat=count):
        twin = GAME.clone(st)
        dice(twin, *faces)
        GAME.apply(twin, Action("move", 2))
        if twin.ending == "hero-fell":
            spread["fall"] += 1
            continue
        lost = health - twin.health[0]
        spread["unhurt" if lost == 0 else f"{lost} damage"] += 1
        spread["stunned"] += twin.hero_stun[0] != NONE
    names = ["unhurt", *(f"{k} damage" for k in range(1, health)), "fall", "stunned"]
    return {name: Fraction(spread[name], 6**count) for name in names if spread[name]}


def test_a_move_shows_what_the_grab_attacks_may_cost_by_the_rules() -> None:
    """Pock leaves an Ogre Bruiser (2d 5+ dmg2), a Cave Weaver (1d 4+, stuns on a hit)
    and a rallying Cult Acolyte (1d 5+), with a Dark Rune on the row: -1 on each grabbing
    die, +1 for the Rune, +1 from the Acolyte for the other two."""
    st = arena([POCK], [SWORD], [0], pack=special_pack())
    for name in ("Ogre Bruiser", "Cave Weaver", "Cult Acolyte"):
        put(st, name, 0)
    put(st, "a Dark Rune", 2)
    want = grabs_by_the_rules(st, 4)
    assert list(want) == ["unhurt", "1 damage", "2 damage", "3 damage", "fall", "stunned"]
    close(odds(st, "move:2"), want)
    assert label(st, "move:2") == (
        "Move to the face-down Location 2 "
        "(Grab Attacks by Ogre Bruiser, Cave Weaver and Cult Acolyte)"
    )


def test_armor_counts_once_per_grab_attack_in_the_chances() -> None:
    """Hilde (armor 1, 3 health) leaves an Ogre Bruiser and a Cave Weaver: the Weaver's
    one point is always ignored (so it never stuns her), the Ogre's 2 or 4 cost 1 or 3."""
    st = arena([HILDE], [SWORD], [0])
    st.health[0] = 3
    put(st, "Ogre Bruiser", 0)
    put(st, "Cave Weaver", 0)
    want = grabs_by_the_rules(st, 3)
    assert list(want) == ["unhurt", "1 damage", "fall"]
    close(odds(st, "move:2"), want)


def test_no_grab_no_chance_and_corvin_is_never_grabbed() -> None:
    st = arena([POCK], [SWORD], [0])
    assert odds(st, "move:2") == {} and label(st, "move:2") == "Move to the face-down Location 2"
    put(st, "Cellar Rat", 0)
    close(odds(st, "move:2"), {"unhurt": Fraction(5, 6), "1 damage": Fraction(1, 6)})
    st.stunned.add(card(st, "Cellar Rat"))
    assert odds(st, "move:2") == {}
    st = arena([CORVIN], [SWORD], [0])
    put(st, "Ogre Bruiser", 0)
    assert odds(st, "move:2") == {} and label(st, "move:2") == "Move to the face-down Location 2"


# -- what each choice will do ---------------------------------------------------------------


def test_each_hit_says_the_damage_its_target_will_have_had_and_whether_it_falls() -> None:
    st = arena([POCK], [STAFF], [0])
    rat, ogre = put(st, "Cellar Rat", 0), put(st, "Ogre Bruiser", 0)
    dice(st, 5, 6)
    play(st, "attack:1")
    assert label(st, f"hit:{rat}") == "Give the hit to Cellar Rat (1/1 damage: slain)"
    assert label(st, f"hit:{ogre}") == "Give the hit to Ogre Bruiser (1/2 damage)"
    play(st, f"hit:{ogre}")
    assert label(st, f"hit:{ogre}") == "Give the hit to Ogre Bruiser (2/2 damage: slain)"
    assert label(st, f"hit:{rat}") == "Give the hit to Cellar Rat (1/1 damage: slain)"


def test_each_hero_who_may_take_a_hit_says_the_health_it_leaves() -> None:
    st = arena([POCK, HILDE], [SWORD, SLING], [0, 0])
    put(st, "Ogre Bruiser", 0)
    st.health[0] = 2
    dice(st, 6, 6)
    play(st, "end", "end")  # the Ogre hits twice, for 2 each
    assert (
        label(st, "wound:1")
        == "Pock Quickfingers takes the hit (2 → 0 health: falls, and the heroes lose)"
    )
    assert label(st, "wound:2") == "Hilde Stonewall takes the hit (4 → 3 health, armor ignores 1)"
    play(st, "wound:2")
    # Her armor has ignored its point of this attack: the second hit costs her 2.
    assert label(st, "wound:2") == "Hilde Stonewall takes the hit (3 → 1 health)"


def test_mighty_boost_and_letting_the_roll_stand_say_what_they_come_to() -> None:
    st = arena([POCK], [STAFF], [0])
    put(st, "Ogre Bruiser", 0)
    st.actions = 4  # 3 left after the attack: the 3 and the 2 can both be lifted
    dice(st, 3, 2)
    play(st, "attack:1")
    assert (
        label(st, "boost:0") == "Mighty Boost: give up an action for +1 on the 3 (needs 4): it hits"
    )
    assert label(st, "boost:1") == (
        "Mighty Boost: give up an action for +1 on the 2 (needs 4): 1 more and it hits"
    )
    assert label(st, "keep") == "Let the roll stand: no hit"
    play(st, "boost:0")
    assert label(st, "keep") == "Let the roll stand: 1 hit (1 damage)"


def test_a_cards_target_says_what_the_card_does_to_it() -> None:
    st = arena([AMABEL], [SLING], [0])
    lance = give(st, 0, "Ember Dart")
    rat, ogre = put(st, "Cellar Rat", 0), put(st, "Ogre Bruiser", 1)
    dice(st, 6)
    play(st, f"cast:{lance}")
    assert label(st, f"target:{rat}") == "Choose Cellar Rat (slain)"
    assert label(st, f"target:{ogre}") == "Choose Ogre Bruiser (2 health: unharmed)"
    st = arena([AMABEL], [SLING], [0])
    pot = give(st, 0, "Firepot")
    put(st, "Cellar Rat", 1)
    put(st, "Ogre Bruiser", 1)
    put(st, "Glowcap Sprout", 0)
    play(st, f"use:{pot}")
    assert label(st, "target:2") == "Choose the face-down Location 2 (slays 1 of 2 Monsters)"
    assert label(st, "target:1") == "Choose the face-down Location 1 (slays 1 of 1 Monster)"


def test_heroes_and_weapons_to_choose_show_their_numbers() -> None:
    st = GAME.setup(GAME.make_config({"players": 1}), 1)
    hilde = next(
        a for a in GAME.legal_actions(st) if label(st, a.text).startswith(f"Choose {HILDE}")
    )
    assert label(st, hilde.text).endswith("ignore the first point. (items 2, spells 0)")
    play(st, hilde.text)
    labels = {label(st, a.text) for a in GAME.legal_actions(st)}
    shortsword = "Notched Shortsword (one hand, range 0, 1 die hitting on 3+, 1 damage a hit)"
    assert f"Take {shortsword}" in labels
    assert "Take Yew Shortbow (2 hands, range 2, 2 dice hitting on 5+, 1 damage a hit)" in labels


# -- never more than a seat may see --------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_labels_and_chances_are_the_same_on_any_deal_the_seat_cannot_tell_apart(seed: int) -> None:
    """What the decks hold and the face-down Locations are re-dealt (determinize): no
    label or chance changes, so none of them tells anything of them."""
    options = {"players": 1 + seed % 4, "heroes": "random", "turn_limit": 8}
    st = GAME.setup(GAME.make_config(options), 900 + seed)
    rng = Rng(seed)
    while GAME.actor(st) is not None:
        seat = GAME.actor(st)
        assert seat is not None
        twin = GAME.determinize(st, seat, Rng(rng.next64()))
        for action in GAME.legal_actions(st):
            assert GAME.label(twin, action) == GAME.label(st, action)
            assert GAME.odds(twin, action) == GAME.odds(st, action)
        legal = GAME.legal_actions(st)
        choices = [a for a in legal if a.kind != "drop"] or legal
        GAME.apply(st, rng.choice(choices), record=False)


# -- the terminal ------------------------------------------------------------------------------


def test_the_terminal_prints_each_chance_beside_its_choice(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At `tavernkeep play`, each numbered choice the dice decide ends with its chances:
    Sable (no bonus to Loot, a Leather Sling, at the Barred Gatehouse: range 2) may
    attack a Cave Weaver (2 health) two Locations away, or Loot."""
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setattr(sys, "stdin", io.StringIO("enter:1\nend\n" + "1\n" * 300))
    args = ["play", "side-quest", "--seat", "human", "--seed", "1", "--delay", "0"]
    code = main([*args, "--option", "heroes=random", "--option", "turn_limit=1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = [" ".join(line.split()) for line in out.splitlines()]
    assert "▶ Sable the Wayfarer (you) to act: 3 actions left" in lines
    # One die of 4+ (the Sling), lifted by up to 2 actions; 1 damage cannot slay her.
    assert "2. Attack the face-down Location 3 with Leather Sling (0% 2+ damage)" in lines
    assert "4. Loot (5+ on a die draws a Loot card) (33%, 67% with boost)" in lines
