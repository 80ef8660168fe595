"""Side Quest content: the standard pack has the rulebook's counts with cards of our own,
every effect and monster ability is used and documented, and a designer's mistake is one
line naming the file, the entry and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavernkeep.engine.errors import ContentError
from tavernkeep.games.side_quest.content import (
    CONTENT_DIR,
    CONTEXTS,
    EFFECT_NAMES,
    EFFECT_RULES,
    MONSTER_ABILITIES,
    NAMED_EFFECTS,
    ROLLS,
    TARGETS,
    UNTIL_END_PHASE,
    Boss,
    Effect,
    Hero,
    Item,
    Level,
    Location,
    Monster,
    Scenario,
    SideQuestPack,
    Specials,
    Spell,
    Weapon,
    load,
)

STANDARD = (CONTENT_DIR / "standard.toml").read_text(encoding="utf-8")
DOC = (CONTENT_DIR.parent / "CONTENT.md").read_text(encoding="utf-8")

RULEBOOK_EXAMPLES = ("Hunter's Bow", "Sword and Shield", "Goblin Archer", "Werewolf", "Mage")


@pytest.fixture(scope="module")
def pack() -> SideQuestPack:
    return load().content


def average_damage(weapon: Weapon) -> float:
    return weapon.dice * (7 - weapon.hit) / 6 * weapon.damage


# -- the standard pack --------------------------------------------------------------


def test_the_standard_pack_loads_by_default_and_by_name() -> None:
    assert load().name == "standard"
    assert load("standard").digest == load().digest
    assert load().content.pack.strict_composition


def test_the_standard_pack_has_the_rulebooks_counts(pack: SideQuestPack) -> None:
    counts = {section: len(cards) for section, cards in pack.sections()}
    assert counts == {
        "hero": 12,
        "weapon": 12,
        "item": 12,
        "spell": 12,
        "location": 6,
        "monster": 30,
        "boss": 3,
    }
    assert (len(pack.basic_weapons()), len(pack.elite_weapons())) == (6, 6)
    assert len(pack.loot_deck()) == 6 + 12 + 12
    assert [loc.name for loc in pack.location if loc.locked_door] == [pack.locked_door.name]
    assert pack.composition_problems() == []


def test_the_special_cards_have_the_rules_numbers(pack: SideQuestPack) -> None:
    assert pack.specials == Specials()
    specials = Specials()
    assert (specials.damsel_depth, specials.rescue_roll, specials.key_roll) == (3, 4, 3)
    assert (specials.rune_health, specials.rune_bonus) == (2, 1)
    assert (specials.portal_health, specials.portal_spawns, specials.heart_health) == (3, 2, 1)


def test_heroes_differ_and_trade_power_for_limits(pack: SideQuestPack) -> None:
    abilities = {(h.use, tuple(h.effects)) for h in pack.hero}
    assert len(abilities) == 12
    assert {h.use for h in pack.hero} == {"passive", "action", "free"}
    assert {h.item_limit for h in pack.hero} == {1, 2, 3}
    assert {h.spell_limit for h in pack.hero} == {0, 1, 2, 3}
    # The heaviest hitters carry least.
    for name in ("Grusk Redmane", "Tamsin Swiftboots"):
        hero = next(h for h in pack.hero if h.name == name)
        assert hero.item_limit + hero.spell_limit <= 2, name


def test_weapons_cover_hands_and_ranges_and_elite_is_better(pack: SideQuestPack) -> None:
    for tier in (pack.basic_weapons(), pack.elite_weapons()):
        assert {w.hands for w in tier} == {1, 2}
        assert 0 in {w.range for w in tier}
        assert {w.range for w in tier} & {1, 2}
    for elite in pack.elite_weapons():
        rivals = [
            w for w in pack.basic_weapons() if w.hands == elite.hands and w.range <= elite.range
        ]
        assert rivals, elite.name
        assert all(average_damage(elite) > average_damage(w) for w in rivals), elite.name


def test_items_and_spells_are_varied(pack: SideQuestPack) -> None:
    assert {i.use for i in pack.item} == {"passive", "action", "free"}
    assert any(i.consumed for i in pack.item) and not all(i.consumed for i in pack.item)
    rolls = [s.roll for s in pack.spell]
    assert all(3 <= r <= 5 for r in rolls)
    assert {3, 4, 5} <= set(rolls)


def test_locations_change_play_in_every_way(pack: SideQuestPack) -> None:
    assert {loc.when for loc in pack.location} == {"passive", "end_phase", "enter"}
    assert pack.locked_door.effects


def test_monsters_rise_in_danger(pack: SideQuestPack) -> None:
    # Balanced with the bot team (RULES.md, Balance): a Monster of 3 that hits for 2 is
    # the most a hero with a Basic weapon can face early on.
    by_health = {h: [m for m in pack.monster if m.health == h] for h in (1, 2, 3, 4)}
    assert [len(by_health[h]) for h in (1, 2, 3, 4)] == [10, 18, 2, 0]
    assert any(m.range >= 1 for m in by_health[1])
    assert any(m.range == 2 for m in pack.monster)
    assert any(m.move == 3 for m in pack.monster)
    assert any(m.move == 0 for m in pack.monster)
    assert all(m.damage == 2 for m in by_health[3])
    assert all(m.damage == 1 for m in by_health[1])


def test_bosses_take_one_two_and_three_hearts(pack: SideQuestPack) -> None:
    assert sorted(b.hearts for b in pack.boss) == [1, 2, 3]


def test_scenarios_rise_in_difficulty(pack: SideQuestPack) -> None:
    first = pack.scenario[0].levels[0]
    assert (first.monsters, first.loot, first.damsels, first.runes, first.portal) == (
        7,
        3,
        0,
        0,
        0,
    )
    assert sorted(s.boss for s in pack.scenario) == sorted(b.name for b in pack.boss)
    hearts = [pack.boss_named(s.boss).hearts for s in pack.scenario]
    assert hearts == [1, 2, 3]
    monsters = [sum(lv.monsters for lv in s.levels) for s in pack.scenario]
    loot = [sum(lv.loot for lv in s.levels) for s in pack.scenario]
    specials = [sum(lv.damsels + lv.runes + lv.portal for lv in s.levels) for s in pack.scenario]
    assert monsters == sorted(monsters) and len(set(monsters)) == 3
    assert loot == sorted(loot, reverse=True) and len(set(loot)) == 3
    assert specials == sorted(specials) and len(set(specials)) == 3
    hardest = pack.scenario[-1].levels
    assert all(sum(getattr(lv, f) for lv in hardest) for f in ("damsels", "runes", "portal"))


def test_names_are_unique_and_our_own(pack: SideQuestPack) -> None:
    names = [card.name for _, cards in pack.sections() for card in cards]
    assert len(names) == len(set(names))
    for example in (*RULEBOOK_EXAMPLES, "Barrier"):
        assert all(example.lower() not in name.lower() for name in names), example


# -- the vocabulary ------------------------------------------------------------------


def test_the_vocabulary_is_small_and_every_name_has_a_rule(pack: SideQuestPack) -> None:
    assert 15 <= len(EFFECT_NAMES) <= 20
    assert set(NAMED_EFFECTS) == set(EFFECT_NAMES) == set(EFFECT_RULES)
    for name, rule in EFFECT_RULES.items():
        assert rule.targets and set(rule.targets) <= set(TARGETS), name
        assert set(rule.contexts) <= set(CONTEXTS), name
        if "passive" in rule.contexts:
            assert name in UNTIL_END_PHASE | {"seal", "extra_action", "carry"}, name
        if "end_phase" in rule.contexts:
            assert name not in UNTIL_END_PHASE, name


def test_every_named_effect_and_monster_ability_is_used(pack: SideQuestPack) -> None:
    assert pack.named_effects() == set(NAMED_EFFECTS)
    assert pack.monster_abilities() == set(MONSTER_ABILITIES)


def test_content_md_documents_every_name_and_field() -> None:
    words = [*NAMED_EFFECTS, *TARGETS, *ROLLS, *MONSTER_ABILITIES, *CONTEXTS]
    models = (Hero, Weapon, Item, Spell, Location, Monster, Boss, Specials, Level, Scenario)
    for model in (*models, Effect):
        words += list(model.model_fields)
    for word in words:
        assert f"`{word}`" in DOC, word


def test_an_effect_left_without_target_takes_its_default() -> None:
    assert Effect.model_validate({"name": "stun"}).target == "monster_in_range"
    assert Effect.model_validate({"name": "heal"}).target == "self"
    assert Effect.model_validate({"name": "seal"}).target == "location_in_range"
    boost = Effect.model_validate({"name": "boost"})
    assert (boost.amount, boost.target, boost.roll) == (1, "self", "any")


# -- a designer's pack ----------------------------------------------------------------


def write(tmp_path: Path, text: str, name: str = "my.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(path: Path) -> str:
    with pytest.raises(ContentError) as error:
        load(str(path))
    message = str(error.value)
    assert "\n" not in message, message
    assert message.startswith(f"{path}: "), message
    return message


def changed(old: str, new: str, text: str = STANDARD) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new, 1)


def drop(text: str, table: str, name: str) -> str:
    """The text without one card's table."""
    start = text.index(f'[[{table}]]\nname = "{name}"')
    ends = [text.find(mark, start + 1) for mark in ("\n[[", "\n# --")]
    end = min(e for e in ends if e != -1) + 1
    return text[:start] + text[end:]


RELAXED = changed("strict_composition = true", "strict_composition = false")


def test_a_copy_of_the_standard_pack_loads_from_a_path(tmp_path: Path) -> None:
    loaded = load(str(write(tmp_path, STANDARD)))
    assert loaded.name == str(tmp_path / "my.toml")
    assert loaded.digest == load().digest


def test_leaving_out_specials_keeps_the_defaults(tmp_path: Path) -> None:
    start = STANDARD.index("[specials]")
    end = STANDARD.index("# -- Heroes")
    pack = load(str(write(tmp_path, STANDARD[:start] + STANDARD[end:]))).content
    assert pack.specials == Specials()


def test_a_relaxed_pack_may_differ_from_the_rulebook(tmp_path: Path) -> None:
    text = drop(RELAXED, "monster", "Cave Wyvern")
    pack = load(str(write(tmp_path, text))).content
    assert len(pack.monster) == 29
    assert pack.composition_problems() == ["monster: 29 cards, the rulebook has 30"]
    strict = load_error(write(tmp_path, changed("= false", "= true", text), "strict.toml"))
    assert "monster: 29 cards, the rulebook has 30 (strict_composition is on in [pack])" in strict


SHADOW_STEP = 'roll = 3\neffects = [{ name = "teleport" }]'
WREN = 'spell_limit = 1\nuse = "passive"\neffects = [{ name = "range_plus", amount = 1 }]'
KNUCKLEBONE = 'use = "free"\nconsumed = true\neffects = [{ name = "reroll" }]'
BLADES = 'effects = [{ name = "damage", amount = 1, target = "every_monster_here" }]'
LAST_LEVEL = "{ monsters = 12, loot = 1, damsels = 1, runes = 2, portal = 1 },"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            'effects = [{ name = "armor", amount = 1 }]',
            'effects = [{ name = "armour", amount = 1 }]',
            "hero #1 'Hilde Stonewall': effects #1 'armour': field 'name': Input should be "
            "'heal', 'damage'",
        ),
        (
            'effects = [{ name = "armor", amount = 1 }]',
            'effects = [{ name = "armor", amount = 3 }]',
            "hero #1 'Hilde Stonewall': effects #1 'armor': field 'amount': armor takes 1-2, not 3",
        ),
        (
            'effects = [{ name = "armor", amount = 1 }]',
            'effects = [{ name = "armor", amount = 0 }]',
            "hero #1 'Hilde Stonewall': effects #1 'armor': field 'amount': Input should be "
            "greater than or equal to 1",
        ),
        (
            'effects = [{ name = "armor", amount = 1 }]',
            'effects = [{ name = "armor", amount = "1" }]',
            "hero #1 'Hilde Stonewall': effects #1 'armor': field 'amount': Input should be a "
            "valid integer",
        ),
        (
            SHADOW_STEP,
            'roll = 3\neffects = [{ name = "teleport", amount = 2 }]',
            "spell #7 'Shadow Step': effects #1 'teleport': field 'amount': teleport takes no "
            "amount",
        ),
        (
            WREN,
            WREN.replace("amount = 1", 'amount = 1, target = "hero_here"'),
            "hero #2 'Wren Farsight': effects #1 'range_plus': field 'target': nobody chooses "
            "on a passive card, so not hero_here",
        ),
        (
            'effects = [{ name = "heal", amount = 2, target = "hero_here" }]\n\n[[hero]]',
            'effects = [{ name = "heal", amount = 2, target = "monster_here" }]\n\n[[hero]]',
            "hero #4 'Sister Amabel': effects #1 'heal': field 'target': heal works on self, "
            "hero_here, every_hero_here or any_hero, not monster_here",
        ),
        (
            'effects = [{ name = "carry", amount = 2 }]',
            'effects = [{ name = "carry", amount = 2, roll = "loot" }]',
            "item #3 'Adventurer's Rucksack': effects #1 'carry': field 'roll': carry names no "
            "roll",
        ),
        (
            KNUCKLEBONE,
            'use = "passive"\neffects = [{ name = "reroll" }]',
            "item #2 'Gambler's Knucklebone': effects #1 'reroll': field 'name': reroll cannot "
            "be passive (it can be free)",
        ),
        (
            KNUCKLEBONE,
            'use = "passive"\nconsumed = true\neffects = [{ name = "reroll" }]',
            "item #2 'Gambler's Knucklebone': field 'consumed': a passive item is never used",
        ),
        (
            'effects = [{ name = "evade" }, {',
            'effects = ["evade", {',
            "hero #8 'Corvin Ashveil': effects #1: Input should be a valid dictionary",
        ),
        (
            BLADES,
            BLADES.replace("every_monster_here", "monster_here"),
            "location #6 'Hall of Springing Blades': effects #1 'damage': field 'target': "
            "nobody chooses on a Location, so not monster_here (use every_monster_here)",
        ),
        (
            'when = "passive"\neffects = [{ name = "block", target = "every_monster_here" }]',
            'when = "end_phase"\neffects = [{ name = "block", target = "every_monster_here" }]',
            "location #3 'Sucking Mire': effects #1 'block': field 'name': block cannot be a "
            "Location's end_phase effect",
        ),
        (
            'when = "passive"\neffects = [{ name = "block", target = "every_monster_here" }]',
            'when = "always"\neffects = [{ name = "block", target = "every_monster_here" }]',
            "location #3 'Sucking Mire': field 'when': Input should be 'passive', 'end_phase' "
            "or 'enter'",
        ),
        (
            'name = "Notched Shortsword"\ntier = "basic"\nhands = 1',
            'name = "Notched Shortsword"\ntier = "basic"\nhands = 3',
            "weapon #1 'Notched Shortsword': field 'hands': Input should be 1 or 2",
        ),
        (
            'name = "Galewing Greatbow"\ntier = "elite"\nhands = 2\nrange = 3',
            'name = "Galewing Greatbow"\ntier = "elite"\nhands = 2\nrange = 4',
            "weapon #9 'Galewing Greatbow': field 'range': Input should be less than or equal to 3",
        ),
        (
            'name = "Notched Shortsword"\ntier = "basic"',
            'name = "Notched Shortsword"\ntier = "legendary"',
            "weapon #1 'Notched Shortsword': field 'tier': Input should be 'basic' or 'elite'",
        ),
        (
            '[[weapon]]\nname = "Notched Shortsword"\n',
            '[[weapon]]\nname = "Notched Shortsword"\nweight = 2\n',
            "weapon #1 'Notched Shortsword': field 'weight': is not a known field",
        ),
        (
            'name = "Clockwork Colossus"\nhealth = 3',
            'name = "Clockwork Colossus"\nhealth = 5',
            "monster #29 'Clockwork Colossus': field 'health': Input should be less than or "
            "equal to 4",
        ),
        (
            'name = "Tunnel Grub"\nhealth = 1\nmove = 1\nrange = 0\ndice = 2\nhit = 6',
            'name = "Tunnel Grub"\nhealth = 1\nmove = 1\nrange = 0\ndice = 2\nhit = 1',
            "monster #9 'Tunnel Grub': field 'hit': Input should be greater than or equal to 2",
        ),
        (
            'ability = "bodyguard"',
            'ability = "bodyguard_plus"',
            "monster #18 'Kobold Shieldwall': field 'ability': Input should be 'stun_on_hit'",
        ),
        (
            'name = "Cave Wyvern"',
            'name = "Cellar Rat"',
            "monster #30 'Cellar Rat': field 'name': another card has that name",
        ),
        (
            'name = "Moonlit Shrine"',
            'name = "Frostbind"',
            "location #2 'Frostbind': field 'name': another card has that name",
        ),
        (
            'ability = "rallying"\ntext = "Its',
            'ability = "explodes"\ntext = "Its',
            "boss #3 'Karzhul the Ashen Tyrant': field 'ability': explodes means nothing on a Boss",
        ),
        (
            "hearts = 3",
            "hearts = 4",
            "boss #3 'Karzhul the Ashen Tyrant': field 'hearts': Input should be less than or "
            "equal to 3",
        ),
        (
            "locked_door = true\n",
            "",
            "location: field 'locked_door': no Locked Door; exactly one needs it",
        ),
        (
            'when = "end_phase"\neffects = [{ name = "heal"',
            'locked_door = true\nwhen = "end_phase"\neffects = [{ name = "heal"',
            "location #2 'Moonlit Shrine': field 'locked_door': a second Locked Door (the first "
            "is 'The Barred Gatehouse'); a pack has exactly one",
        ),
        (
            'boss = "Vessa, Widow of Webs"',
            'boss = "Vessa"',
            "scenario #2 'Webs Under Thornhold': field 'boss': no boss named 'Vessa' (bosses: "
            "'Grubmaw the Swollen', 'Vessa, Widow of Webs', 'Karzhul the Ashen Tyrant')",
        ),
        (
            LAST_LEVEL,
            LAST_LEVEL.replace("monsters = 12", "monsters = 31"),
            "scenario #3 'The Ashen Throne': levels #3: field 'monsters': 31 Monsters, the pack "
            "has 30",
        ),
        (
            LAST_LEVEL,
            LAST_LEVEL.replace("loot = 1", "loot = 27"),
            "scenario #3 'The Ashen Throne': field 'levels': 31 Loot cards over the three "
            "levels, the pack's Loot deck has 30",
        ),
        (
            LAST_LEVEL,
            LAST_LEVEL.replace("portal = 1", "portal = 2"),
            "scenario #3 'The Ashen Throne': levels #3: field 'portal': Input should be less "
            "than or equal to 1",
        ),
        (
            LAST_LEVEL,
            LAST_LEVEL.replace("damsels = 1", "damsel = 1"),
            "scenario #3 'The Ashen Throne': levels #3: field 'damsel': is not a known field",
        ),
        (
            "  " + LAST_LEVEL + "\n",
            "",
            "scenario #3 'The Ashen Throne': field 'levels': List should have at least 3 items",
        ),
        (
            'name = "The Ashen Throne"',
            'name = "Webs Under Thornhold"',
            "scenario #3 'Webs Under Thornhold': field 'name': another scenario has that name",
        ),
        (
            "item_limit = 3\nspell_limit = 0",
            "item_limit = 0\nspell_limit = 0",
            "hero #5 'Pock Quickfingers': field 'item_limit': Input should be greater than or "
            "equal to 1",
        ),
        (
            'roll = 5\neffects = [{ name = "damage", amount = 2',
            'roll = 7\neffects = [{ name = "damage", amount = 2',
            "spell #2 'Searing Lance': field 'roll': Input should be less than or equal to 6",
        ),
        (
            "rescue_roll = 4",
            "rescue_roll = 7",
            "'specials': field 'rescue_roll': Input should be less than or equal to 6",
        ),
        (
            'name = "Chipped Stiletto"\ntier = "basic"',
            'name = "Chipped Stiletto"\ntier = "elite"',
            "weapon: field 'tier': 5 Basic and 7 Elite weapons, the rulebook has 6 and 6 "
            "(strict_composition is on in [pack])",
        ),
    ],
)
def test_a_malformed_pack_names_file_entry_and_field(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    message = load_error(write(tmp_path, changed(old, new)))
    assert expected in message, message


def test_four_seats_need_four_basic_weapons(tmp_path: Path) -> None:
    text = RELAXED
    for name in ("Chipped Stiletto", "Leather Sling", "Woodcutter's Axe"):
        text = changed(f'name = "{name}"\ntier = "basic"', f'name = "{name}"\ntier = "elite"', text)
    message = load_error(write(tmp_path, text))
    assert "weapon: field 'tier': 3 Basic weapons; 4 heroes need 4 to choose from" in message


def test_four_seats_need_four_heroes_and_six_locations(tmp_path: Path) -> None:
    pack = load().content
    text = RELAXED
    for hero in pack.hero[3:]:
        text = drop(text, "hero", hero.name)
    message = load_error(write(tmp_path, text))
    assert "field 'hero': List should have at least 4 items" in message
    text = drop(RELAXED, "location", "Sucking Mire")
    message = load_error(write(tmp_path, text, "rooms.toml"))
    assert "field 'location': List should have at least 6 items" in message


def test_files_that_are_not_packs(tmp_path: Path) -> None:
    assert "not valid TOML" in load_error(write(tmp_path, "[[hero]\nname = 1\n"))
    assert "no such pack file" in load_error(tmp_path / "missing.toml")
    with pytest.raises(ContentError, match="no built-in pack named 'deluxe'"):
        load("deluxe")
