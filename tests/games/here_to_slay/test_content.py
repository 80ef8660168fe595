"""Here to Slay content: the standard pack is the published base game card for card in
number, every effect is built from known verbs or named effects, and a designer's
mistake is one line naming the file, the entry and the field."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tavernkeep.engine.errors import ContentError
from tavernkeep.games.here_to_slay.content import (
    CARD_KINDS,
    CLASSES,
    CONTENT_DIR,
    NAMED_EFFECTS,
    TARGETS,
    TRIGGERS,
    VERBS,
    HereToSlayPack,
    load,
)

STANDARD = (CONTENT_DIR / "standard.toml").read_text(encoding="utf-8")

HERO_ROLLS = {
    "Bard": [2, 6, 7, 7, 7, 8, 8, 9],
    "Fighter": [4, 5, 5, 7, 7, 8, 8, 10],
    "Guardian": [5, 6, 6, 7, 8, 8, 9, 9],
    "Ranger": [5, 5, 6, 7, 8, 8, 9, 10],
    "Thief": [6, 6, 6, 7, 8, 9, 9, 10],
    "Wizard": [5, 6, 6, 7, 10, 10, 10, 11],
}

# (any heroes, required classes, slay roll, inverted, punishment roll, punishment, draws on slay)
MONSTER_TABLE = [
    (2, (), 8, False, 5, "sacrifice", 0),
    (3, (), 7, False, 6, "sacrifice", 0),
    (1, (), 10, False, 6, "sacrifice", 0),
    (2, (), 9, False, 6, "sacrifice", 0),
    (3, (), 9, False, 6, "sacrifice", 1),
    (2, (), 10, False, 7, "sacrifice", 0),
    (1, ("Bard",), 8, False, 4, "discard 2", 0),
    (1, (), 5, True, 8, "sacrifice", 0),
    (1, ("Ranger",), 8, False, 4, "discard 2", 0),
    (4, (), 8, False, 7, "sacrifice", 2),
    (1, ("Wizard",), 8, False, 4, "discard 2", 0),
    (1, ("Guardian",), 8, False, 4, "discard 2", 0),
    (1, (), 11, False, 7, "sacrifice", 0),
    (1, ("Fighter",), 8, False, 4, "discard 2", 0),
    (1, ("Thief",), 8, False, 4, "discard 2", 0),
]


@pytest.fixture(scope="module")
def pack() -> HereToSlayPack:
    return load().content


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


def changed(old: str, new: str) -> str:
    assert STANDARD.count(old) >= 1, old
    return STANDARD.replace(old, new, 1)


# -- the standard pack --------------------------------------------------------------


def test_the_standard_pack_loads_by_default_and_by_name() -> None:
    assert load().name == "standard"
    assert load("standard").digest == load().digest
    assert load().content.pack.strict_composition


def test_the_main_deck_has_115_cards_of_the_published_types(pack: HereToSlayPack) -> None:
    by_type = {
        "hero": len(pack.hero),
        "item": sum(i.copies for i in pack.item if i.kind == "item"),
        "cursed": sum(i.copies for i in pack.item if i.kind == "cursed"),
        "magic": sum(m.copies for m in pack.magic),
        "modifier": sum(m.copies for m in pack.modifier),
        "challenge": sum(c.copies for c in pack.challenge),
    }
    assert by_type == {
        "hero": 48,
        "item": 11,
        "cursed": 4,
        "magic": 13,
        "modifier": 25,
        "challenge": 14,
    }
    assert pack.main_deck_size == 115
    assert pack.main_deck_size + len(pack.leader) + len(pack.monster) == 136


def test_each_class_has_eight_heroes_with_the_published_roll_requirements(
    pack: HereToSlayPack,
) -> None:
    for cls in CLASSES:
        rolls = sorted(h.roll for h in pack.hero if h.hero_class == cls)
        assert rolls == HERO_ROLLS[cls], cls


def test_items_are_six_masks_two_rings_two_coins_and_a_decoy(pack: HereToSlayPack) -> None:
    items = [i for i in pack.item if i.kind == "item"]
    assert sorted(i.counts_as for i in items if i.counts_as) == sorted(CLASSES)
    assert all(i.copies == 1 for i in items if i.counts_as)
    rings = [i for i in items if i.skill and i.skill.trigger == "on_hero_roll"]
    assert [(i.skill.bonus, i.copies) for i in rings if i.skill] == [([2], 2)]
    coins = [i for i in items if i.skill and i.skill.trigger == "on_failed_hero_roll"]
    assert [(i.skill.effect[0].verb, i.copies) for i in coins if i.skill] == [("draw", 2)]
    decoys = [i for i in items if i.skill and i.skill.effect and i.skill.effect[0].named]
    assert [(i.skill.effect[0].named, i.copies) for i in decoys if i.skill] == [("decoy", 1)]


def test_cursed_items_are_two_minus_two_one_blocker_and_one_doom(pack: HereToSlayPack) -> None:
    kinds: Counter[str] = Counter()
    for item in pack.item:
        if item.kind == "cursed":
            assert item.skill is not None and item.counts_as is None
            key = str(item.skill.bonus) if item.skill.bonus else str(item.skill.effect[0].named)
            kinds[key] += item.copies
    assert kinds == {"[-2]": 2, "effect_cannot_be_used": 1, "discard_after_success": 1}


def test_magic_is_eight_spells_of_one_or_two_copies(pack: HereToSlayPack) -> None:
    assert len(pack.magic) == 8
    assert all(m.copies in (1, 2) for m in pack.magic)
    assert sum(m.copies for m in pack.magic) == 13


def test_modifiers_have_exactly_the_published_options(pack: HereToSlayPack) -> None:
    options: Counter[tuple[int, ...]] = Counter()
    for modifier in pack.modifier:
        options[tuple(sorted(modifier.options, reverse=True))] += modifier.copies
    assert options == {(4,): 4, (-4,): 4, (3, -1): 4, (1, -3): 4, (2, -2): 9}


def test_one_party_leader_per_class_with_the_published_skill_kinds(pack: HereToSlayPack) -> None:
    leaders = {leader.hero_class: leader for leader in pack.leader}
    assert sorted(leaders) == sorted(CLASSES)
    bard, wizard, ranger = leaders["Bard"].skill, leaders["Wizard"].skill, leaders["Ranger"].skill
    fighter, guardian, thief = (
        leaders["Fighter"].skill,
        leaders["Guardian"].skill,
        leaders["Thief"],
    )
    assert (bard.trigger, bard.bonus) == ("on_hero_roll", [1])
    assert wizard.trigger == "on_play_magic" and wizard.effect[0].verb == "draw"
    assert (ranger.trigger, ranger.bonus) == ("on_attack_roll", [1])
    assert (fighter.trigger, fighter.bonus) == ("on_challenge_roll", [2])
    assert (guardian.trigger, sorted(guardian.bonus)) == ("on_play_modifier", [-1, 1])
    assert thief.name == "The Shadow Claw" and thief.min_players == 3
    assert thief.skill.trigger == "action" and thief.skill.action_cost == 1
    assert thief.skill.once_per_turn and thief.skill.effect[0].verb == "pull"
    assert all(leader.min_players == 2 for leader in pack.leader if leader is not thief)


def test_monsters_match_the_published_table(pack: HereToSlayPack) -> None:
    rows = []
    for m in pack.monster:
        punishment = m.punishment[0]
        cost = "sacrifice" if punishment.verb == "sacrifice" else f"discard {punishment.count}"
        assert punishment.kind == ("hero" if cost == "sacrifice" else "card")
        rows.append(
            (
                m.requirement.heroes,
                tuple(m.requirement.classes),
                m.slay_roll,
                m.inverted,
                m.punishment_roll,
                cost,
                m.draw_on_slay,
            )
        )
    assert Counter(rows) == Counter(MONSTER_TABLE)


def test_monster_skills_are_the_published_kinds(pack: HereToSlayPack) -> None:
    kinds = Counter(
        (m.skill.trigger, tuple(m.skill.bonus), tuple(s.verb or s.named for s in m.skill.effect))
        for m in pack.monster
    )
    assert kinds == Counter(
        {
            ("on_opponent_modifies_your_roll", (1,), ()): 1,
            ("on_any_roll", (1,), ()): 1,
            ("on_successful_hero_roll", (), ("draw",)): 1,
            ("on_challenged", (), ("discard",)): 1,
            ("always", (), ("steal_instead_of_destroy",)): 1,
            ("on_any_modifier", (), ("draw",)): 1,
            ("on_hero_roll", (1,), ()): 1,
            ("on_hero_destroyed", (), ("draw",)): 1,
            ("on_draw_item", (), ("play_at_once",)): 1,
            ("turn_start", (1,), ()): 1,
            ("on_draw_magic", (), ("play_at_once",)): 1,
            ("on_draw_modifier", (), ("reveal_drawn_card", "draw")): 1,
            ("always", (), ("heroes_cannot_be_destroyed",)): 1,
            ("on_challenge_roll", (1,), ()): 1,
            ("always", (), ("items_cannot_be_challenged",)): 1,
        }
    )
    inverted = [m for m in pack.monster if m.inverted]
    assert len(inverted) == 1
    wisp = inverted[0]
    assert wisp.slays(5) and wisp.slays(2) and not wisp.slays(6)
    assert wisp.punishes(8) and not wisp.punishes(7)


def test_every_effect_uses_known_verbs_targets_kinds_or_a_named_effect(
    pack: HereToSlayPack,
) -> None:
    steps = pack.effect_steps()
    assert len(steps) > 48 + 8
    for card, step in steps:
        if step.named is not None:
            assert step.verb is None and step.named in NAMED_EFFECTS, card
            continue
        assert step.verb in VERBS, card
        assert step.who in TARGETS, card
        assert step.from_ is None or step.from_ in TARGETS, card
        assert step.kind in CARD_KINDS, card
    for hero in pack.hero:
        assert hero.effect and hero.text
    for item in pack.item:
        assert item.skill is None or item.skill.trigger in TRIGGERS


def test_every_named_effect_is_used_and_documented(pack: HereToSlayPack) -> None:
    assert pack.named_effects() == set(NAMED_EFFECTS)
    doc = (CONTENT_DIR.parent / "CONTENT.md").read_text(encoding="utf-8")
    for word in [*VERBS, *TARGETS, *TRIGGERS, *CARD_KINDS, *NAMED_EFFECTS]:
        assert f"`{word}`" in doc, word


def test_card_names_are_our_own_and_unique(pack: HereToSlayPack) -> None:
    names = [card.name for _, cards in pack.sections() for card in cards]
    assert len(names) == len(set(names))


# -- a designer's pack ----------------------------------------------------------------

SMALL = """
[pack]
name = "Tiny"

[[hero]]
name = "Hedge Knight"
class = "Fighter"
roll = 6
text = "DESTROY a Hero card."
effect = [{ verb = "destroy", what = "hero", from = "chosen_opponent" }]

[[leader]]
name = "Captain A"
class = "Fighter"
skill = { trigger = "on_attack_roll", text = "+1 to ATTACK.", bonus = [1] }

[[leader]]
name = "Captain B"
class = "Bard"
skill = { trigger = "on_play_magic", text = "DRAW.", effect = [{ verb = "draw" }] }

[[monster]]
name = "Rat King"
requirement = { heroes = 1 }
slay_roll = 7
punishment_roll = 4
punishment = [{ verb = "discard" }]
skill = { trigger = "on_any_roll", text = "+1.", bonus = [1] }

[[monster]]
name = "Rat Queen"
requirement = { classes = ["Fighter"] }
slay_roll = 8
punishment_roll = 5
punishment = [{ verb = "sacrifice", what = "hero" }]
skill = { trigger = "turn_start", text = "+1 action point.", bonus = [1] }

[[monster]]
name = "Rat Jester"
requirement = { heroes = 2 }
slay_roll = 4
inverted = true
punishment_roll = 10
punishment = [{ verb = "sacrifice", what = "hero" }]
draw_on_slay = 1
skill = { trigger = "on_hero_destroyed", text = "DRAW.", effect = [{ verb = "draw" }] }
"""


def test_a_small_pack_loads_when_strict_composition_is_off(tmp_path: Path) -> None:
    pack = load(str(write(tmp_path, SMALL))).content
    assert pack.main_deck_size == 1
    assert len(pack.composition_problems()) > 0


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            'effect = [{ verb = "draw" }]',
            'effect = [{ verb = "teleport" }]',
            "hero #1 'Lark the Busker': effect #1: field 'verb': Input should be 'draw'",
        ),
        (
            'class = "Bard"',
            'class = "Paladin"',
            "hero #1 'Lark the Busker': field 'class': Input should be 'Bard'",
        ),
        (
            "roll = 11",
            "roll = 13",
            "hero #48 'Archmage Veyra': field 'roll': Input should be less than or equal to 12",
        ),
        (
            "options = [3, -1]",
            "options = [2, 2]",
            "modifier #3 'Trick of Fate': field 'options': the two options are equal",
        ),
        (
            'effect = [{ named = "encore" }]',
            'effect = [{ named = "encore_twice" }]',
            "hero #8 'Aurelian the Encore': effect #1: field 'named': no named effect",
        ),
        (
            '{ verb = "pull", from = "chosen_opponent" }',
            '{ verb = "pull" }',
            "hero #33 'Nib Quickfingers': effect #1: field 'from': pull needs whose cards",
        ),
        (
            '{ verb = "destroy", what = "item", from = "chosen_opponent" }',
            '{ verb = "destroy", what = "item", from = "self" }',
            "hero #10 'Gretta Ironjaw': effect #1: field 'from': destroy takes from",
        ),
        (
            '{ verb = "search", what = "challenge" }',
            '{ verb = "search", what = "monster" }',
            "hero #9 'Brannoc the Brawler': effect #1: field 'what': search works on",
        ),
        (
            "slay_roll = 11",
            "slay_roll = 6",
            "monster #13 'The Deathless Lich': field 'punishment_roll': punishment on 7-",
        ),
        (
            'name = "Pim the Apprentice"',
            'name = "Lark the Busker"',
            "hero #41 'Lark the Busker': field 'name': another card has that name",
        ),
        (
            "roll = 2\n",
            "roll = 3\n",
            "hero: field 'roll': the Bard roll requirements are [3, 6,",
        ),
        (
            "copies = 9",
            "copies = 8",
            "modifier: field 'options': ",
        ),
        (
            "copies = 14",
            "copies = 13",
            "challenge: field 'copies': 13 Challenges, published 14",
        ),
        (
            'text = "+1 to your Hero effect rolls.", bonus = [1]',
            'text = "+1 to your Hero effect rolls.", bonus = [1], effect = [{ verb = "draw" }]',
            "leader #1 'The Silver Songbird': 'skill': field 'effect': a skill has either",
        ),
        (
            '{ verb = "search", what = "modifier" }, { verb = "draw" }]',
            '{ verb = "search", what = "modifier" }, { verb = "draw", cost = true }]',
            "hero #6 'Orrin Chorusborn': effect #2: field 'cost': only a SACRIFICE or DISCARD",
        ),
        (
            "[[leader]]\n",
            "[[leader]]\nrole = 1\n",
            "leader #1 'The Silver Songbird': field 'role': is not a known field",
        ),
    ],
)
def test_a_malformed_pack_names_file_entry_and_field(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    message = load_error(write(tmp_path, changed(old, new)))
    assert expected in message, message


def test_composition_errors_say_strict_composition_is_on(tmp_path: Path) -> None:
    message = load_error(write(tmp_path, changed("copies = 14", "copies = 13")))
    assert "strict_composition is on in [pack]" in message


def test_a_missing_monster_breaks_strict_composition_but_not_a_relaxed_pack(
    tmp_path: Path,
) -> None:
    lich = STANDARD.index('[[monster]]\nname = "The Deathless Lich"')
    end = STANDARD.index("[[monster]]", lich + 1)
    fewer = STANDARD[:lich] + STANDARD[end:]
    assert "monster: 14 Monsters, published 15" in load_error(write(tmp_path, fewer))
    relaxed = fewer.replace("strict_composition = true", "strict_composition = false")
    assert len(load(str(write(tmp_path, relaxed, "relaxed.toml"))).content.monster) == 14


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("requirement = { heroes = 1 }", "requirement = { heroes = 0 }", "field 'classes'"),
        ("bonus = [1] }", "bonus = [1, 1] }", "field 'bonus': the two bonuses are equal"),
        ('trigger = "on_any_roll"', 'trigger = "on_draw_item"', "field 'bonus': a bonus needs"),
        (
            'punishment = [{ verb = "discard" }]',
            'punishment = [{ verb = "discard", who = "someone" }]',
            "monster #1 'Rat King': punishment #1: field 'who': Input should be 'self'",
        ),
        (
            'effect = [{ verb = "draw" }] }',
            'effect = [{ verb = "draw" }], action_cost = 1 }',
            "field 'action_cost': only an 'action' skill",
        ),
    ],
)
def test_skill_and_monster_mistakes_in_a_small_pack(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    assert old in SMALL, old
    message = load_error(write(tmp_path, SMALL.replace(old, new, 1)))
    assert expected in message, message
