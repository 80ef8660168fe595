"""Side Quest rules, first level: setup, the game turn, hero actions, Monsters, endings.

Each test lays out a position by hand (helpers.arena) and scripts the dice, so what it
checks is one rule of RULES.md, numbered in the test's docstring.
"""

from __future__ import annotations

import pytest
from side_quest_helpers import (
    arena,
    card,
    dice,
    hero_index,
    location,
    play,
    put,
    special_pack,
    texts,
)

from tavernkeep.engine.actions import Action
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.errors import ConfigError, IllegalAction
from tavernkeep.engine.events import Event
from tavernkeep.games.side_quest import GAME, SideQuestState
from tavernkeep.games.side_quest.content import MONSTER_ABILITIES
from tavernkeep.games.side_quest.dungeon import travel

POCK, AMABEL, IVO, SABLE = (
    "Pock Quickfingers",
    "Sister Amabel",
    "Ivo Twice-Lucky",
    "Sable the Wayfarer",
)
SWORD, AXE, SLING, BOW = "Notched Shortsword", "Woodcutter's Axe", "Leather Sling", "Yew Shortbow"


# -- setup ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_row_has_the_locked_door_and_one_location_more_than_heroes_plus_two(
    players: int,
) -> None:
    """RULES 2-3: 3 Locations plus one per hero after the first, the Locked Door among
    them, all face down until a hero enters."""
    st = GAME.setup(GAME.make_config({"players": players}), 11)
    assert len(st.row) == players + 2
    assert len(set(st.row)) == len(st.row)
    assert any(st.content.location[loc].locked_door for loc in st.row)
    assert not any(st.revealed)
    assert all(loc["name"] is None for loc in GAME.view(st, 0)["locations"])
    assert st.health == [4] * players


def test_the_dungeon_deck_is_level_one_of_the_scenario_with_the_key_at_the_bottom() -> None:
    """RULES 5: the level's monsters and loot, its Runes, the Key at the bottom."""
    st = GAME.setup(GAME.make_config({"players": 2, "scenario": "The Ashen Throne"}), 3)
    kinds = [st.card_kind[c] for c in st.dungeon_deck]
    assert kinds[0] == "key"
    assert kinds.count("monster") == 9
    assert sum(kinds.count(k) for k in ("weapon", "item", "spell")) == 2
    assert kinds.count("rune") == 1
    assert len(st.monster_deck) == 30 - 9
    assert len(st.loot_deck) == 30 - 2


def test_heroes_and_weapons_are_chosen_seat_by_seat_from_those_not_taken() -> None:
    """RULES 1: each seat chooses a hero and a Basic weapon, in seat order."""
    st = GAME.setup(GAME.make_config({"players": 2}), 5)
    assert GAME.actor(st) == 0 and st.stack[-1].kind == "hero"
    pock = hero_index(st, POCK)
    play(st, f"hero:{pock}")
    assert GAME.actor(st) == 0 and st.stack[-1].kind == "weapon"
    sword = card(st, SWORD)
    assert len(GAME.legal_actions(st)) == 6
    play(st, f"weapon:{sword}")
    assert GAME.actor(st) == 1
    assert f"hero:{pock}" not in texts(st)
    play(st, f"hero:{hero_index(st, IVO)}")
    assert f"weapon:{sword}" not in texts(st)
    assert st.equipped[0] == [sword]


def test_random_heroes_are_dealt_with_a_basic_weapon_each() -> None:
    st = GAME.setup(GAME.make_config({"players": 3, "heroes": "random"}), 9)
    assert st.stack[-1].kind == "enter"
    assert len(set(st.hero)) == 3
    for seat in range(3):
        (weapon,) = st.weapons[seat]
        assert st.content.weapon[st.card_ref[weapon]].tier == "basic"


def test_heroes_enter_from_the_leader_and_entering_reveals_the_location() -> None:
    """RULES 3-4: in seat order from the Leader, each hero chooses where it enters."""
    st = GAME.setup(GAME.make_config({"players": 2, "heroes": "random"}), 1)
    leader = st.leader
    assert GAME.actor(st) == leader
    play(st, "enter:3")
    assert st.revealed == [False, False, True, False]
    assert GAME.actor(st) == 1 - leader
    play(st, "enter:3")
    # The first Refresh deals a card over every Location.
    assert all(len(cards) == 1 for cards in st.here)
    assert GAME.actor(st) == leader and st.stack[-1].kind == "turn"


def test_the_opening_names_the_scenario_and_the_row() -> None:
    st = GAME.setup(GAME.make_config({"players": 3}), 2)
    first, row = GAME.opening(st)
    assert first.text.startswith("The Cellar Below the Inn")
    assert row.data == {"locations": 5}


def test_options_are_checked() -> None:
    with pytest.raises(ConfigError, match="1-4 players"):
        GAME.make_config({"players": 5})
    with pytest.raises(ConfigError, match="no scenario named"):
        GAME.setup(GAME.make_config({"scenario": "Nowhere"}), 1)


# -- Refresh ------------------------------------------------------------------------------


def test_refresh_skips_locations_with_a_monster_and_falls_back_to_the_monster_deck() -> None:
    """RULES 6: no card over a Monster; an empty Dungeon deck deals Monster cards, and an
    empty Monster deck is refilled from its discard pile."""
    st = arena([POCK], [SWORD], [0])
    sprout = put(st, "Glowcap Sprout", 2)  # never moves
    st.monster_discard, st.monster_deck = st.monster_deck + st.dungeon_deck[1:], []
    st.dungeon_deck = []
    dice(st, 1)
    play(st, "end")  # the Monster phase, the End phase, then a Refresh
    assert st.here[2] == [sprout]
    for loc in (0, 1):
        (dealt,) = st.here[loc]
        assert st.card_kind[dealt] == "monster"
    assert st.monster_discard == []


# -- hero actions -------------------------------------------------------------------------


def test_a_hero_has_three_actions_then_only_ends_its_turn() -> None:
    """RULES 7."""
    st = arena([POCK], [SWORD], [0])
    play(st, "move:2", "move:3", "move:2")
    # Pock's ability is free, so it is still offered.
    assert texts(st) == {"end", f"drop:{card(st, SWORD)}", "ability"}


def test_moving_away_from_a_monster_draws_a_grab_attack_with_minus_one() -> None:
    """RULES 10: a Grab Attack is the Monster's attack with -1 on each die."""
    st = arena([POCK], [SWORD], [0])
    put(st, "Bone Rattler", 0)  # hits on 4+
    dice(st, 4)
    play(st, "move:2")
    assert st.health[0] == 4 and st.position[0] == 1
    st = arena([POCK], [SWORD], [0])
    put(st, "Bone Rattler", 0)
    dice(st, 5)
    play(st, "move:2")
    assert st.health[0] == 3


def test_an_overburdened_hero_cannot_move_until_it_drops_something() -> None:
    """RULES 21: Amabel carries one item; a second weapon off her hands is one, a third two."""
    st = arena([AMABEL], [SWORD], [1])
    for name in ("Dawnsteel Blade", "Earthshaker Maul"):
        put(st, name, 1)
    dice(st)
    play(st, f"pickup:{card(st, 'Earthshaker Maul')}")
    play(st, f"equip:{card(st, SWORD)}")  # the Maul is carried: one item
    assert "move:1" in texts(st)
    play(st, f"pickup:{card(st, 'Dawnsteel Blade')}")
    play(st, f"equip:{card(st, 'Earthshaker Maul')}")  # sword and blade carried: two
    assert "move:1" not in texts(st)
    assert GAME.view(st, 0)["heroes"][0]["overburdened"]
    play(st, f"drop:{card(st, SWORD)}")
    assert "move:1" in texts(st)
    assert not GAME.view(st, 0)["heroes"][0]["overburdened"]


def test_an_attack_deals_no_partial_damage() -> None:
    """RULES 11: a target dies only when this attack's damage reaches its health."""
    st = arena([POCK], [SWORD], [0])
    brute = put(st, "Tusked Brute", 0)  # 2 health
    dice(st, 6)
    play(st, "attack:1")
    assert brute in st.here[0]
    dice(st, 6)
    play(st, "attack:1")
    assert brute in st.here[0]
    st = arena([POCK], [AXE], [0])  # 2 damage a hit
    brute = put(st, "Tusked Brute", 0)
    dice(st, 3)
    play(st, "attack:1")
    assert brute not in st.here[0] and brute in st.monster_discard


def test_the_attacker_allocates_each_hit_to_a_target() -> None:
    """RULES 11: two hits, two Monsters with 1 health each: one hit each."""
    st = arena([POCK], ["Iron-shod Staff"], [0])
    rat, sprout = put(st, "Cellar Rat", 0), put(st, "Glowcap Sprout", 0)
    dice(st, 4, 6)
    play(st, "attack:1")
    assert st.stack[-1].kind == "hit"
    assert texts(st) == {f"hit:{rat}", f"hit:{sprout}"}
    play(st, f"hit:{rat}", f"hit:{sprout}")
    assert st.here[0] == []
    assert st.stack[-1].kind == "turn" and st.actions == 2


def test_a_stunned_target_hit_but_not_slain_wakes() -> None:
    """RULES 11 and 24."""
    st = arena([POCK], [SWORD], [0])
    brute = put(st, "Tusked Brute", 0)
    st.stunned.add(brute)
    dice(st, 5)
    play(st, "attack:1")
    assert brute not in st.stunned


def test_weapons_reach_only_as_far_as_their_range() -> None:
    st = arena([POCK], [SLING], [0])
    put(st, "Cellar Rat", 1)
    put(st, "Glowcap Sprout", 2)
    assert "attack:2" in texts(st)
    assert "attack:3" not in texts(st)
    assert "attack:1" not in texts(st)  # nothing there to hit


def test_pick_up_and_loot_wait_for_no_active_monster() -> None:
    """RULES 12-13: a stunned Monster does not stop them."""
    st = arena([POCK], [SWORD], [0])
    blade = put(st, "Dawnsteel Blade", 0)
    rat = put(st, "Cellar Rat", 0)
    assert "loot" not in texts(st) and f"pickup:{blade}" not in texts(st)
    st.stunned.add(rat)
    assert {"loot", f"pickup:{blade}"} <= texts(st)


def test_loot_draws_on_five_or_more_once_a_turn() -> None:
    """RULES 13."""
    st = arena([POCK], [SWORD], [0])
    top = st.loot_deck[-1]
    dice(st, 4)
    play(st, "loot")
    assert "loot" not in texts(st) and st.loot_deck[-1] == top
    st = arena([POCK], [SWORD], [0])
    dice(st, 5)
    play(st, "loot")
    held = st.weapons[0] + st.items[0] + st.spells[0]
    assert top in held or st.stack[-1].kind == "equip"


def test_mighty_boost_gives_up_unused_actions_for_plus_one_on_a_die() -> None:
    """RULES 18: decided after the roll, one action for each +1."""
    st = arena([POCK], [SWORD], [0])
    top = st.loot_deck[-1]
    dice(st, 3)
    play(st, "loot")
    assert st.stack[-1].kind == "boost" and texts(st) == {"boost:0", "keep"}
    play(st, "boost:0")
    assert st.actions == 1 and texts(st) == {"boost:0", "keep"}
    play(st, "boost:0")
    assert st.actions == 0 and top not in st.loot_deck
    assert st.stack[-1].kind in ("turn", "equip")


def test_mighty_boost_is_not_offered_where_it_cannot_change_the_outcome() -> None:
    st = arena([POCK], [SWORD], [0])
    dice(st, 2)  # 5+ needs 3 more, with 2 actions left
    play(st, "loot")
    assert st.stack[-1].kind == "turn"
    rat = put(st, "Cellar Rat", 0)
    dice(st, 2)  # the sword hits on 3+
    play(st, "attack:1")
    assert texts(st) == {"boost:0", "keep"}
    play(st, "keep")
    assert rat in st.here[0] and st.actions == 1


def test_a_boosted_attack_die_hits() -> None:
    st = arena([POCK], [SWORD], [0])
    rat = put(st, "Cellar Rat", 0)
    dice(st, 2)
    play(st, "attack:1", "boost:0")
    assert rat in st.monster_discard and st.actions == 1


def test_trade_moves_equipment_between_heroes_there_for_one_action() -> None:
    """RULES 15 and 12: all for one action of the trader; the heroes may re-equip."""
    st = arena([POCK, IVO], [SWORD, "Chipped Stiletto"], [0, 1])
    assert "trade" not in texts(st)
    st.position[1] = 0
    sword, stiletto = card(st, SWORD), card(st, "Chipped Stiletto")
    play(st, "trade")
    assert texts(st) == {f"give:{sword},2", f"give:{stiletto},1", "done"}
    play(st, f"give:{sword},2")
    assert texts(st) == {f"give:{stiletto},1", "done"}  # each card moves once a trade
    play(st, "done")
    assert st.equipped[0] == [] and st.weapons[1] == [stiletto, sword]
    assert GAME.actor(st) == 1 and st.stack[-1].kind == "equip"
    play(st, f"equip:{min(sword, stiletto)},{max(sword, stiletto)}")
    assert GAME.actor(st) == 0 and st.actions == 2


def test_illegal_actions_leave_the_state_untouched() -> None:
    st = arena([POCK], [SWORD], [0])
    twin = st.clone()
    with pytest.raises(IllegalAction):
        GAME.apply(st, Action("move", 4))
    assert st == twin


# -- the Monster phase ----------------------------------------------------------------------


def test_a_monster_moves_toward_the_nearest_hero_and_attacks_once_in_range() -> None:
    """RULES 22: Ash Hound moves 3, range 0."""
    st = arena([POCK], [SWORD], [2])
    hound = put(st, "Ash Hound", 0)
    dice(st, 6)
    play(st, "end")
    assert hound in st.here[2]
    assert st.health[0] == 3


def test_a_monster_stops_as_soon_as_a_hero_is_in_range() -> None:
    """RULES 22: Spitting Lizard moves 2, range 1: one step puts a hero in range."""
    st = arena([POCK], [SWORD], [2])
    lizard = put(st, "Spitting Lizard", 0)
    dice(st, 1)
    play(st, "end")
    assert lizard in st.here[1]


def test_equally_near_heroes_on_both_sides_a_die_decides() -> None:
    """RULES 22: 1-3 left, 4-6 right."""
    st = arena([POCK, IVO], [SWORD, "Chipped Stiletto"], [0, 2])
    hound = put(st, "Tusked Brute", 1)  # moves 1, range 0
    play(st, "end")
    dice(st, 5, 1)  # right, then a miss
    play(st, "end")
    assert hound in st.here[2]


def test_wounds_are_allocated_hit_by_hit() -> None:
    st = arena([POCK, IVO], [SWORD, "Chipped Stiletto"], [0, 0])
    put(st, "Ogre Bruiser", 0)
    play(st, "end")
    dice(st, 6, 6)
    play(st, "end")
    assert st.stack[-1].kind == "wound" and GAME.actor(st) == 0
    assert texts(st) == {"wound:1", "wound:2"}
    play(st, "wound:2", "wound:1")
    assert st.health == [2, 2]


def test_a_hero_at_zero_health_loses_the_game() -> None:
    """RULES 23 and 32: hero-fell."""
    st = arena([POCK], [SWORD], [0])
    st.health[0] = 2
    put(st, "Ogre Bruiser", 0)
    dice(st, 6, 1)
    play(st, "end")
    assert GAME.actor(st) is None
    result = GAME.result(st)
    assert result is not None and result.ending == "hero-fell" and result.won is False


def test_a_stunned_monster_skips_its_activation_and_is_restored_in_the_end_phase() -> None:
    """RULES 24."""
    st = arena([POCK], [SWORD], [0])
    ogre = put(st, "Ogre Bruiser", 0)
    st.stunned.add(ogre)
    dice(st)
    play(st, "end")
    assert st.health[0] == 4 and ogre not in st.stunned


def test_the_end_phase_passes_the_leader_card_and_the_turn_limit_ends_the_game() -> None:
    """RULES 9 and 32."""
    st = arena([POCK, IVO], [SWORD, "Chipped Stiletto"], [0, 1], turn_limit=2)
    st.dungeon_deck = st.dungeon_deck[:1]
    st.monster_deck = []
    play(st, "end", "end")
    assert st.leader == 1 and GAME.actor(st) == 1
    play(st, "end", "end")
    result = GAME.result(st)
    assert result is not None and result.ending == "turn-limit"


# -- Damsels, Runes and the Portal ------------------------------------------------------------


def test_a_damsel_is_lost_after_three_end_phases() -> None:
    """RULES 26 and 32: damsel-lost."""
    st = arena([POCK], [SWORD], [0], pack=special_pack())
    put(st, "a Damsel", 2)
    st.dungeon_deck, st.monster_deck = st.dungeon_deck[:1], []
    play(st, "end", "end")
    assert GAME.actor(st) == 0
    play(st, "end")
    result = GAME.result(st)
    assert result is not None and result.ending == "damsel-lost"


def test_a_rescued_damsel_leaves_play_and_gives_a_loot_card() -> None:
    """RULES 16: 4+ on one die, with no active Monster over her."""
    st = arena([POCK], [SWORD], [0], pack=special_pack())
    damsel = put(st, "a Damsel", 0)
    top = st.loot_deck[-1]
    dice(st, 3, 4)
    play(st, f"rescue:{damsel}", "keep")
    assert damsel in st.here[0]
    play(st, f"rescue:{damsel}")
    assert damsel in st.removed and damsel not in st.depth
    assert top not in st.loot_deck


def test_the_portal_spawns_monsters_that_activate_at_once() -> None:
    """RULES 27: two Monster cards at the start of each Monster phase."""
    st = arena([POCK], [SWORD], [0], pack=special_pack())
    portal = put(st, "the Dark Portal", 2)
    st.monster_deck = [card(st, "Glowcap Sprout"), card(st, "Tunnel Grub")]
    st.dungeon_deck = st.dungeon_deck[:1]
    grub, sprout = st.monster_deck[1], st.monster_deck[0]
    dice(st)  # the Grub walks toward the hero, out of range; the Sprout never moves
    play(st, "end")
    assert st.here[2] == [portal, sprout]
    assert st.here[1] == [grub]


def test_no_monster_spawns_on_a_damsel_the_portal_shares_a_location_with() -> None:
    """RULES 27 and 48: Monsters 'do not spawn on' a Damsel; the Portal's spawn is held
    while she hangs over its Location, so no Monster covers her."""
    st = arena([POCK], [SWORD], [0], pack=special_pack())
    portal = put(st, "the Dark Portal", 2)
    damsel = put(st, "a Damsel", 2)
    st.monster_deck = [card(st, "Glowcap Sprout"), card(st, "Tunnel Grub")]
    st.dungeon_deck = st.dungeon_deck[:1]
    dice(st)  # nothing spawns, so no Monster rolls a die
    events = play(st, "end")
    assert st.here[2] == [portal, damsel]
    assert not [e for e in events if e.kind == "spawn"]
    held = [e.text for e in events if e.kind == "spawn_held"]
    assert held == ["No Monster is called up by the Dark Portal: a Damsel hangs there"]


def test_a_portal_by_a_damsel_spawns_beside_her_as_a_variant() -> None:
    """RULES 48, `spawn_on_damsel=beside`: the spawn comes out in the nearest Location
    without a Damsel; equally near on both sides, a die decides (1-3 left)."""
    beside = {"spawn_on_damsel": "beside"}
    st = arena([POCK, AMABEL], [SWORD, SLING], [3, 3], pack=special_pack(), variants=beside)
    portal = put(st, "the Dark Portal", 1)
    damsel = put(st, "a Damsel", 1)
    sprout, bloater = card(st, "Glowcap Sprout"), card(st, "Fungal Bloater")
    st.monster_deck = [sprout, bloater]  # neither moves, nor reaches the heroes on 3
    st.dungeon_deck = st.dungeon_deck[:1]
    dice(st, 2)
    events = play(st, "end", "end")
    assert st.here[1] == [portal, damsel]
    assert st.here[0] == [bloater, sprout]
    spawned = [e.text for e in events if e.kind == "spawn"]
    assert spawned == [
        f"{name} is called up by the Dark Portal, beside the Damsel"
        for name in ("Fungal Bloater", "Glowcap Sprout")
    ]


def test_a_rune_adds_to_every_monster_attack_die() -> None:
    """RULES 28: with a Rune standing, a Bone Rattler (4+) hits on a 3."""
    st = arena([POCK], [SWORD], [0], scenario="The Ashen Throne")
    put(st, "a Dark Rune", 2)
    put(st, "Bone Rattler", 0)
    dice(st, 3)
    play(st, "end")
    assert st.health[0] == 3


def test_a_rune_is_a_target_and_is_removed_when_slain() -> None:
    st = arena([POCK], [AXE], [0], scenario="The Ashen Throne")
    rune = put(st, "a Dark Rune", 0)
    dice(st, 3)
    play(st, "attack:1")
    assert rune in st.removed


# -- the Key, travel and the Boss ---------------------------------------------------------------


def at_the_door(st: SideQuestState, seat: int = 0) -> int:
    door = next(i for i, loc in enumerate(st.row) if st.content.location[loc].locked_door)
    st.position[seat] = door
    st.revealed[door] = True
    return door


def test_the_key_is_picked_up_and_opens_the_locked_door_on_three_or_more() -> None:
    """RULES 12, 17 and 31: the Key is an item while carried; success ends the level,
    the heroes keep health and equipment and enter the next level's row."""
    st = arena([POCK, IVO], [SWORD, "Chipped Stiletto"], [0, 0])
    door = at_the_door(st)
    key = put(st, "the Dungeon Key", door)
    st.health[1] = 2
    play(st, f"pickup:{key}")
    assert st.items[0] == [key]
    dice(st, 2)
    play(st, f"key:{key}")
    assert st.stack[-1].kind == "boost"
    play(st, "keep")
    assert st.level == 1 and st.actions == 1
    dice(st, 3)
    play(st, f"key:{key}")
    assert st.level == 2 and st.level_turns == 0
    assert st.items[0] == []
    assert st.health == [4, 2] and st.weapons[0] == [card(st, SWORD)]
    assert st.position == [-1, -1] and not any(st.revealed)
    assert st.dungeon_deck[0] == key
    # A free trade first, then each hero enters, from the Leader.
    assert st.stack[-1].kind == "trade" and GAME.actor(st) == 0
    play(st, "done", "enter:2", "enter:3")
    assert st.stack[-1].kind == "turn"


def test_the_key_needs_the_locked_door_and_no_damsel_out() -> None:
    st = arena([POCK], [SWORD], [0], pack=special_pack())
    door = at_the_door(st)
    key = put(st, "the Dungeon Key", door)
    play(st, f"pickup:{key}")
    assert f"key:{key}" in texts(st)
    put(st, "a Damsel", (door + 1) % len(st.row))
    assert f"key:{key}" not in texts(st)
    st.depth.clear()
    st.position[0] = (door + 1) % len(st.row)
    assert f"key:{key}" not in texts(st)


def boss_level(heroes: int = 1) -> SideQuestState:
    names = [POCK, IVO, AMABEL, SABLE][:heroes]
    weapons = [AXE, SWORD, "Chipped Stiletto", SLING][:heroes]
    st = arena(names, weapons, [0] * heroes)
    travel(st, None)
    travel(st, None)
    return st


def test_the_boss_level_has_the_boss_at_the_bottom_and_no_locked_door() -> None:
    """RULES 2 and 5: with fewer than 4 heroes, no Locked Door on the Boss level."""
    st = boss_level()
    assert st.level == 3
    assert st.card_kind[st.dungeon_deck[0]] == "boss"
    assert [st.card_kind[c] for c in st.dungeon_deck].count("heart") == 1
    assert not any(st.content.location[loc].locked_door for loc in st.row)
    four = boss_level(4)
    assert len(four.row) == 6


def test_the_boss_is_only_stunned_while_a_heart_stands_then_slaying_it_wins() -> None:
    """RULES 29 and 32: Grubmaw has 1 Heart; the Heart is a target only with the Boss
    stunned; then 1 damage slays the Boss."""
    st = boss_level()
    st.stack = [Decision(0, "end_phase"), Decision(0, "monsters"), Decision(0, "turn")]
    st.position[0], st.actions = 0, 3
    boss = put(st, "Grubmaw the Swollen", 0)
    heart = put(st, "a Dungeon Heart", 0)
    assert set(texts(st)) >= {"attack:1"}
    dice(st, 3)  # the axe: one hit of 2
    play(st, "attack:1")
    assert boss in st.here[0] and boss in st.stunned
    dice(st, 3)
    play(st, "attack:1", f"hit:{heart}")
    assert heart in st.removed
    dice(st, 3)
    play(st, "attack:1")
    result = GAME.result(st)
    assert result is not None and result.ending == "boss-slain" and result.won is True
    assert GAME.actor(st) is None


# -- Monster abilities ------------------------------------------------------------------------


def test_a_grasping_monster_grabs_without_the_minus_one() -> None:
    st = arena([POCK], [SWORD], [0])
    put(st, "Mire Leech", 0)  # 4+, grasping
    dice(st, 4)
    play(st, "move:2")
    assert st.health[0] == 3


def test_a_rallying_monster_lifts_the_others_in_its_location() -> None:
    st = arena([POCK], [SWORD], [0])
    put(st, "Bone Rattler", 0)  # 4+
    put(st, "Cult Acolyte", 0)  # 5+, rallying
    dice(st, 3, 5)  # the Rattler's 3 +1 hits; the Acolyte's own 5 hits
    play(st, "end")
    assert st.health[0] == 2


def test_a_hero_hit_by_a_stun_on_hit_monster_loses_its_next_turn() -> None:
    """RULES 24: restored in the End phase after the turn it lost."""
    st = arena([POCK, IVO], [SWORD, "Chipped Stiletto"], [0, 2])
    put(st, "Cave Weaver", 0)  # 4+, stun_on_hit
    st.dungeon_deck, st.monster_deck = st.dungeon_deck[:1], []
    dice(st, 6)
    play(st, "end", "end")
    assert st.health[0] == 3 and st.hero_stun[0] == 1
    # Turn 2: Ivo leads; Pock's turn is skipped, straight to the Monster phase.
    assert GAME.actor(st) == 1
    dice(st, 1)
    play(st, "end")
    assert st.hero_stun[0] == -1
    assert GAME.actor(st) == 0 and st.stack[-1].kind == "turn"


def test_a_bodyguard_covers_the_other_monsters_and_a_shielded_one_resists_from_afar() -> None:
    st = arena([POCK], [SLING], [0])
    guard = put(st, "Kobold Shieldwall", 0)  # bodyguard
    rat = put(st, "Cellar Rat", 0)
    dice(st, 6)
    play(st, "attack:1")
    assert rat in st.here[0] and guard in st.here[0]
    gargoyle = put(st, "Stone Gargoyle", 1)  # shielded
    assert "attack:2" not in texts(st)
    st.position[0] = 1
    assert "attack:2" in texts(st)
    assert gargoyle in st.here[1]


def test_an_exploding_monster_hurts_every_hero_there_when_slain() -> None:
    st = arena([POCK, IVO], [SWORD, "Chipped Stiletto"], [0, 0])
    beetle = put(st, "Blister Beetle", 0)  # explodes
    dice(st, 3)
    play(st, "attack:1")
    assert beetle in st.monster_discard and st.health == [3, 3]


def test_a_summoner_calls_up_a_monster_card_each_monster_phase() -> None:
    st = arena([POCK], [SWORD], [0])
    crone = put(st, "Bog Crone", 2)  # summoner, range 1, move 1
    sprout = card(st, "Glowcap Sprout")
    st.monster_deck = [sprout]
    st.dungeon_deck = st.dungeon_deck[:1]
    dice(st, 1)  # the Crone moves to 1 and attacks: a miss
    play(st, "end")
    assert st.here[2] == [sprout] and st.here[1] == [crone]


def test_a_summoner_over_a_damsel_calls_up_nothing() -> None:
    """RULES 48: a summoner standing over a Damsel (Monsters may move over her) calls up
    no Monster onto her; the card stays in the Monster deck."""
    st = arena([POCK], [SWORD], [0], pack=special_pack())
    damsel = put(st, "a Damsel", 2)
    crone = put(st, "Bog Crone", 2)  # summoner, range 1, move 1
    sprout = card(st, "Glowcap Sprout")
    st.monster_deck = [sprout]
    st.dungeon_deck = st.dungeon_deck[:1]
    dice(st, 1)  # the Crone moves to 1 and attacks: a miss
    events = play(st, "end")
    assert st.here[2] == [damsel] and st.here[1] == [crone]
    assert st.monster_deck == [sprout]
    held = [e.text for e in events if e.kind == "spawn_held"]
    assert held == ["No Monster is called up by Bog Crone: a Damsel hangs there"]


# -- passive effects of heroes, items and Locations ----------------------------------------------


def test_tamsin_has_four_actions() -> None:
    st2 = arena([POCK, "Tamsin Swiftboots"], [SWORD, SLING], [0, 0])
    play(st2, "end")
    assert st2.actions == 4 and GAME.actor(st2) == 1


def test_hilde_ignores_the_first_point_of_each_monster_attack() -> None:
    st = arena(["Hilde Stonewall"], [SWORD], [0])
    put(st, "Ogre Bruiser", 0)  # 2 dice, 4+, 2 damage
    dice(st, 6, 6)
    play(st, "end")
    assert st.health[0] == 1


def test_armor_counts_per_attack_when_heroes_share_the_hits() -> None:
    st = arena(["Hilde Stonewall", POCK], [SWORD, SLING], [0, 0])
    put(st, "Ogre Bruiser", 0)
    play(st, "end")
    dice(st, 6, 6)
    play(st, "end", "wound:1", "wound:1")
    assert st.health == [1, 4]


def test_wren_and_the_spyglass_reach_farther() -> None:
    st = arena(["Wren Farsight"], [SLING], [0])
    put(st, "Glowcap Sprout", 2)
    assert "attack:3" in texts(st)
    st = arena([POCK], [SWORD], [0])
    put(st, "Glowcap Sprout", 1)
    assert "attack:2" not in texts(st)
    glass = put(st, "Brass Spyglass", 0)
    play(st, f"pickup:{glass}")
    assert "attack:2" in texts(st)


def test_grusk_deals_one_more_damage_a_hit() -> None:
    st = arena(["Grusk Redmane"], [SWORD], [0])
    brute = put(st, "Tusked Brute", 0)  # 2 health
    dice(st, 3)
    play(st, "attack:1")
    assert brute in st.monster_discard


def test_corvin_is_never_grabbed_and_rescues_with_plus_one() -> None:
    st = arena(["Corvin Ashveil"], [SWORD], [0], pack=special_pack())
    damsel = put(st, "a Damsel", 1)
    put(st, "Ogre Bruiser", 0)
    dice(st)  # no Grab Attack is rolled
    play(st, "move:2")
    dice(st, 3)
    play(st, f"rescue:{damsel}")
    assert damsel in st.removed


def test_hollis_lifts_the_attack_dice_of_every_hero_there() -> None:
    st = arena([POCK, "Captain Hollis"], [SWORD, SLING], [0, 0])
    rat = put(st, "Cellar Rat", 0)
    dice(st, 2)
    play(st, "attack:1")
    assert rat in st.monster_discard
    st.position[1] = 1
    rat = put(st, "Glowcap Sprout", 0)
    dice(st, 2)
    play(st, "attack:1", "keep")
    assert rat in st.here[0]


def test_the_rucksack_raises_the_item_limit() -> None:
    st = arena([AMABEL], [SWORD], [0])
    for name in ("Adventurer's Rucksack", "Smoke Pellets", "Firepot"):
        put(st, name, 0)
    play(st, f"pickup:{card(st, 'Smoke Pellets')}", f"pickup:{card(st, 'Firepot')}")
    assert "move:2" not in texts(st)
    play(st, f"pickup:{card(st, 'Adventurer' + chr(39) + 's Rucksack')}")
    assert not GAME.view(st, 0)["heroes"][0]["overburdened"]


def test_the_dowsing_rod_lifts_loot_rolls() -> None:
    st = arena([POCK], [SWORD], [0])
    rod = put(st, "Hazel Dowsing Rod", 0)
    play(st, f"pickup:{rod}")
    top = st.loot_deck[-1]
    dice(st, 4)
    play(st, "loot")
    assert top not in st.loot_deck


def test_monsters_in_the_sucking_mire_never_move() -> None:
    st = arena([POCK], [SWORD], [0])
    location(st, 2, "Sucking Mire")
    hound = put(st, "Ash Hound", 2)
    play(st, "end")
    assert hound in st.here[2]


def test_the_moonlit_shrine_heals_the_heroes_there_in_the_end_phase() -> None:
    st = arena([POCK], [SWORD], [0])
    location(st, 0, "Moonlit Shrine")
    st.health[0] = 2
    play(st, "end")
    assert st.health[0] == 3


def test_the_springing_blades_hurt_the_monsters_as_a_hero_enters() -> None:
    st = arena([POCK], [SWORD], [0])
    location(st, 1, "Hall of Springing Blades")
    rat, brute = put(st, "Cellar Rat", 1), put(st, "Tusked Brute", 1)
    play(st, "move:2")
    assert rat in st.monster_discard and brute in st.here[1]


def test_the_glittering_hoard_gives_a_free_loot_roll_in_the_end_phase() -> None:
    st = arena([POCK], [SWORD], [0])
    location(st, 0, "Glittering Hoard")
    top = st.loot_deck[-1]
    dice(st, 6)
    play(st, "end")
    assert top not in st.loot_deck


# -- cards a hero uses: abilities, items, spells ---------------------------------------------


def test_a_spell_is_cast_on_its_roll_and_the_action_is_spent_either_way() -> None:
    """RULES 14: once a turn; Ember Dart, 3+: 1 damage to a Monster within range."""
    st = arena([AMABEL], [SLING], [0])
    dart = put(st, "Ember Dart", 0)
    play(st, f"pickup:{dart}")
    rat = put(st, "Cellar Rat", 1)
    dice(st, 1)
    play(st, f"cast:{dart}")
    assert rat in st.here[1] and st.actions == 1
    assert f"cast:{dart}" not in texts(st)
    st2 = arena([AMABEL], [SLING], [0])
    dart = put(st2, "Ember Dart", 0)
    play(st2, f"pickup:{dart}")
    rat = put(st2, "Cellar Rat", 1)
    dice(st2, 3)
    play(st2, f"cast:{dart}")
    assert rat in st2.monster_discard


def test_a_spell_aims_at_one_monster_of_the_casters_choice() -> None:
    st = arena([AMABEL], [SLING], [0])
    frost = put(st, "Frostbind", 0)
    play(st, f"pickup:{frost}")
    rat, sprout = put(st, "Cellar Rat", 0), put(st, "Glowcap Sprout", 1)
    dice(st, 6)
    play(st, f"cast:{frost}")
    assert texts(st) == {f"target:{rat}", f"target:{sprout}"}
    play(st, f"target:{sprout}")
    assert st.stunned == {sprout}


def test_no_spell_is_offered_with_nothing_to_aim_at() -> None:
    st = arena([AMABEL], [SWORD], [0])
    dart = put(st, "Ember Dart", 0)
    play(st, f"pickup:{dart}")
    assert f"cast:{dart}" not in texts(st)


def test_amabel_heals_a_hero_here_once_a_turn() -> None:
    st = arena([AMABEL, POCK], [SWORD, SLING], [0, 0])
    st.health[1] = 1
    play(st, "ability", "target:2")  # Player 2
    assert st.health[1] == 3 and st.actions == 2
    assert "ability" not in texts(st)


def test_a_consumed_item_is_discarded_and_a_lasting_one_holds_until_the_end_phase() -> None:
    st = arena([POCK], [SWORD], [0])
    tonic, draught = put(st, "Flask of Red Tonic", 0), put(st, "Ironbark Draught", 0)
    play(st, f"pickup:{tonic}", f"pickup:{draught}")
    st.health[0] = 1
    play(st, f"use:{tonic}", f"use:{draught}")
    assert st.health[0] == 3 and {tonic, draught} <= set(st.removed)
    assert st.actions == 1  # both free; two pick-ups spent two actions
    put(st, "Ogre Bruiser", 0)
    dice(st, 6, 6)
    play(st, "end")
    assert st.health[0] == 3 - 2  # 2 + 2 damage, the first 2 ignored
    assert st.temporary == []


def test_sable_steps_to_any_revealed_location_without_grab_attacks() -> None:
    st = arena([SABLE], [SWORD], [0])
    assert "ability" not in texts(st)  # no other Location revealed
    st.revealed[2] = True
    put(st, "Ogre Bruiser", 0)
    dice(st)
    play(st, "ability")
    assert st.position[0] == 2 and st.actions == 2


def test_ivo_re_rolls_every_die_of_a_roll_once_a_turn() -> None:
    st = arena([IVO], [SWORD], [0])
    rat = put(st, "Cellar Rat", 0)
    dice(st, 1, 4)
    play(st, "attack:1")
    assert texts(st) == {"reroll:-1", "boost:0", "keep"}
    play(st, "reroll:-1")
    assert rat in st.monster_discard
    put(st, "Glowcap Sprout", 0)
    dice(st, 1)
    play(st, "attack:1")
    assert st.stack[-1].kind == "turn"  # used this turn; 1 needs 2 more, with 1 action


def test_the_grapnel_moves_without_grab_attacks() -> None:
    st = arena([POCK], [SWORD], [1])
    rope = put(st, "Grapnel and Rope", 1)
    play(st, f"pickup:{rope}")
    put(st, "Ogre Bruiser", 1)
    dice(st)
    play(st, f"use:{rope}", "target:3")  # Location 3
    assert st.position[0] == 2 and st.actions == 2 and st.health[0] == 4


def test_wall_of_brambles_holds_monsters_through_their_next_activation() -> None:
    st = arena([AMABEL], [SLING], [0])
    wall = put(st, "Wall of Brambles", 0)
    play(st, f"pickup:{wall}")
    hound = put(st, "Ash Hound", 1)
    st.position[0] = 0
    dice(st, 3, 1)  # the spell, then the Hound's attack from its place (range 0: none)
    play(st, f"cast:{wall}")
    assert hound in st.blocked
    play(st, "end")
    assert hound in st.here[1] and not st.blocked


def test_a_sealed_location_is_not_dealt_to_at_the_next_refresh() -> None:
    st = arena([AMABEL], [SWORD], [0])
    sigil = put(st, "Sealing Sigil", 0)
    play(st, f"pickup:{sigil}")
    dice(st, 4)
    play(st, f"cast:{sigil}")  # range 0: only its own Location, no choice
    play(st, "end")
    assert st.here[0] == [] and all(st.here[loc] for loc in (1, 2))
    assert st.sealed == set()


def test_howling_gale_pushes_a_monster_to_a_location_next_to_its_own() -> None:
    st = arena([AMABEL], [SWORD], [1])
    gale = put(st, "Howling Gale", 1)
    play(st, f"pickup:{gale}")
    ogre = put(st, "Ogre Bruiser", 1)
    dice(st, 5)
    play(st, f"cast:{gale}")
    assert texts(st) == {"push:1", "push:3"}
    play(st, "push:3")
    assert ogre in st.here[2]


def test_the_firepot_hurts_every_monster_of_one_location_in_range() -> None:
    st = arena([POCK], [SLING], [1])
    pot = put(st, "Firepot", 1)
    play(st, f"pickup:{pot}")
    rat, brute = put(st, "Cellar Rat", 0), put(st, "Tusked Brute", 0)
    sprout = put(st, "Glowcap Sprout", 2)
    play(st, f"use:{pot}")
    assert texts(st) == {"target:1", "target:3"}  # Locations 1 and 3
    play(st, "target:1")
    assert rat in st.monster_discard and brute in st.here[0] and sprout in st.here[2]
    assert pot in st.removed and st.actions == 1


def test_smoke_pellets_stun_every_monster_here_but_not_an_unstoppable_one() -> None:
    st = arena([POCK], [SWORD], [0])
    pellets = put(st, "Smoke Pellets", 0)
    play(st, f"pickup:{pellets}")
    rat, knight = put(st, "Cellar Rat", 0), put(st, "Barrow Knight", 0)
    play(st, f"use:{pellets}")
    assert st.stunned == {rat}
    assert knight not in st.stunned


def test_quicksilver_and_quickening_give_actions() -> None:
    st = arena([AMABEL], [SWORD], [0])
    vial, quick = put(st, "Quicksilver Vial", 0), put(st, "Quickening", 0)
    play(st, f"pickup:{vial}", f"pickup:{quick}")
    play(st, f"use:{vial}")
    assert st.actions == 3
    dice(st, 4)
    play(st, f"cast:{quick}")
    assert st.actions == 4


def test_stoneskin_armors_every_hero_here_until_the_end_phase() -> None:
    st = arena([AMABEL, POCK], [SWORD, SLING], [0, 0])
    chant = put(st, "Stoneskin Chant", 0)
    play(st, f"pickup:{chant}")
    dice(st, 4)
    play(st, f"cast:{chant}")
    assert sorted(s for s, name, _ in st.temporary if name == "armor") == [0, 1]


def test_beckon_treasure_draws_a_loot_card_without_a_roll_for_it() -> None:
    st = arena([AMABEL], [SWORD], [0])
    beckon = put(st, "Beckon Treasure", 0)
    play(st, f"pickup:{beckon}")
    top = st.loot_deck[-1]
    dice(st, 4)
    play(st, f"cast:{beckon}")
    assert top not in st.loot_deck


def test_pocks_free_loot_is_not_his_loot_of_the_turn_and_waits_for_no_monster() -> None:
    st = arena([POCK], [SWORD], [0])
    dice(st, 1, 6)
    play(st, "loot", "ability")
    assert st.actions == 2 and st.looted and len(st.loot_deck) == 30 - 3 - 1
    st = arena([POCK], [SWORD], [0])
    put(st, "Cellar Rat", 0)
    assert "ability" not in texts(st)


# -- what the view shows -------------------------------------------------------------------


def test_a_monsters_and_the_bosss_ability_come_with_the_packs_wording() -> None:
    st = arena([POCK], [SWORD], [0])
    put(st, "Cult Acolyte", 1)  # rallying
    put(st, "Cellar Rat", 1)  # no ability
    acolyte, rat = GAME.view(st, 0)["locations"][1]["cards"]
    assert acolyte["ability"] == "rallying"
    assert acolyte["ability_text"] == MONSTER_ABILITIES["rallying"]
    assert rat["ability"] is None and rat["ability_text"] is None
    boss = GAME.view(boss_level(), 0)["boss"]
    assert boss["ability"] and boss["ability_text"] == MONSTER_ABILITIES[boss["ability"]]


def test_a_revealed_location_says_whether_it_is_the_locked_door() -> None:
    st = arena([POCK], [SWORD], [0])
    location(st, 0, "The Barred Gatehouse")
    location(st, 1, "Glittering Hoard")
    door, hoard, *hidden = GAME.view(st, 0)["locations"]
    assert door["locked_door"] is True and hoard["locked_door"] is False
    # A face-down Location tells nothing, not even whether it is the Door.
    assert hidden and all(loc["locked_door"] is None for loc in hidden)


def test_the_turn_shown_never_passes_the_turn_limit() -> None:
    st = arena([POCK], [SWORD], [0], turn_limit=2)
    assert GAME.view(st, 0)["turn"] == 1
    play(st, "end")
    assert GAME.view(st, 0)["turn"] == 2
    play(st, "end")
    view = GAME.view(st, 0)
    assert view["ending"] == "turn-limit"
    assert view["turn"] == view["turn_limit"] == 2


def loot_events(events: list[Event]) -> list[Event]:
    return [e for e in events if e.kind == "loot"]


def test_a_loot_that_finds_nothing_says_it_failed_and_one_that_finds_a_card_succeeded() -> None:
    st = arena([POCK], [SWORD], [0])
    dice(st, 1)  # no Mighty Boost lifts a 1 to a 5: the roll stands at once
    (miss,) = loot_events(play(st, "loot"))
    assert miss.data["success"] is False and "finds nothing" in miss.text
    st = arena([POCK], [SWORD], [0])
    dice(st, 6)
    (hit,) = loot_events(play(st, "loot"))
    assert hit.data["success"] is True and "card" in hit.data


def test_a_free_loot_of_a_location_that_finds_nothing_says_it_failed() -> None:
    st = arena([POCK], [SWORD], [0])
    location(st, 0, "Glittering Hoard")
    dice(st, 1)
    (miss,) = loot_events(play(st, "end"))
    assert miss.data["success"] is False and "finds nothing" in miss.text
