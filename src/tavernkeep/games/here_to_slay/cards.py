"""The cards of one pack as plain numbers: built once per pack, shared by every state.

A state holds integers: main-deck card instances (each copy its own id), Party Leader
ids and Monster ids. The tuples here turn an id into what the card is. Effects are
numbered too, so a decision frame can name the effect it is running with one int.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields
from typing import Any

from tavernkeep.games.here_to_slay.content import (
    HereToSlayPack,
    Monster,
    PartyLeader,
    Skill,
    Step,
)

HERO, ITEM, CURSED, MAGIC, MODIFIER, CHALLENGE = (
    "hero",
    "item",
    "cursed_item",
    "magic",
    "modifier",
    "challenge",
)

PLAYABLE = frozenset({HERO, ITEM, CURSED, MAGIC})
"""Kinds played from a hand for an action point (and open to a Challenge)."""

TARGETING = frozenset({"chosen_opponent", "chosen_player"})
DRAWN_KINDS = {"on_draw_item": "any_item", "on_draw_magic": "magic", "on_draw_modifier": "modifier"}
"""The skill triggers set off by drawing a card, and the kind of card each is about."""
AIMED_FROM = frozenset({"chosen_opponent", "chosen_player", "each_opponent", "each_player"})
"""Whose Party a step can take from for its card to be named before a Hero's roll: the
chosen player's, each opponent's or each player's (RULES 16); a step on the roller's own
Party names its card after the roll, and a Hero has no challenger."""


def _by_constructor(obj: Any) -> tuple[type, tuple[Any, ...]]:
    """Pickle a frozen dataclass by calling its constructor: when mypyc compiles this
    module, unpickling field by field would hit the frozen class's guard."""
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj))


SkillEntry = tuple[Skill, int, frozenset[str]]
"""A skill as the rules use it: the skill, its effect id, its standing named effects."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the main deck (one copy of it)."""

    name: str
    kind: str
    text: str = ""
    hero_class: str = ""
    roll: int = 0
    effect: int = -1
    """Effect id of a Hero or Magic card; -1 for the rest."""
    counts_as: str = ""
    """A mask's class."""
    skill: Skill | None = None
    skill_effect: int = -1
    named: frozenset[str] = frozenset()
    """Named effects of an Item's standing ('always') skill: decoy, effect_cannot_be_used."""
    options: tuple[int, ...] = ()
    """A Modifier's amounts."""

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return _by_constructor(self)


@dataclass(frozen=True, slots=True)
class Catalog:
    cards: tuple[Card, ...]
    leaders: tuple[PartyLeader, ...]
    monsters: tuple[Monster, ...]
    effects: tuple[tuple[Step, ...], ...]
    targets: tuple[str, ...]
    """For each effect: '' when no step names a chosen player, else the widest choice
    ('chosen_player' lets the player choose themselves)."""
    aims: tuple[tuple[int, ...], ...]
    """For each effect: the steps whose cards a Hero's roller names before rolling, every
    DESTROY, STEAL or RETURN from other players' Parties (RULES 16)."""
    drawn_kinds: tuple[str, ...]
    """For each effect: the kind of card whose drawing sets it off (a skill's effect with
    an on_draw trigger, 'any_item', 'magic' or 'modifier'), else 'card'. A card played
    at once by such an effect must be of that kind."""
    leader_effect: tuple[int, ...]
    monster_effect: tuple[int, ...]
    punishment: tuple[int, ...]
    leader_named: tuple[frozenset[str], ...]
    monster_named: tuple[frozenset[str], ...]
    modifiers: frozenset[int]
    """Ids of the Modifier cards: windows skip a seat whose hand has none."""
    challenges: frozenset[int]
    leader_skills: tuple[tuple[SkillEntry, ...], ...]
    """Each Leader's skill as a one-entry tuple, ready to be a seat's whole skill list."""
    monster_skills: tuple[SkillEntry, ...]
    leader_acts: tuple[bool, ...]
    """Whether a Leader's skill is an 'action' skill, used for action points."""
    monster_acts: tuple[bool, ...]

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return _by_constructor(self)


def matches(card: Card, what: str) -> bool:
    """Whether a card is of the kind a step names (`what`)."""
    kind = card.kind
    if what == "card" or what == kind:
        return True
    return what == "any_item" and kind in (ITEM, CURSED)


def build(content: HereToSlayPack) -> Catalog:
    effects: list[tuple[Step, ...]] = []

    def number(steps: list[Step]) -> int:
        if not steps:
            return -1
        effects.append(tuple(steps))
        return len(effects) - 1

    def standing(skill: Skill | None) -> frozenset[str]:
        if skill is None or skill.trigger != "always":
            return frozenset()
        return frozenset(s.named for s in skill.effect if s.named is not None)

    cards: list[Card] = []
    for hero in content.hero:
        cards.append(
            Card(
                hero.name,
                HERO,
                hero.text,
                hero_class=hero.hero_class,
                roll=hero.roll,
                effect=number(hero.effect),
            )
        )
    for item in content.item:
        kind = CURSED if item.kind == "cursed" else ITEM
        skill_effect = number(item.skill.effect) if item.skill is not None else -1
        for _ in range(item.copies):
            cards.append(
                Card(
                    item.name,
                    kind,
                    item.text,
                    counts_as=item.counts_as or "",
                    skill=item.skill,
                    skill_effect=skill_effect,
                    named=standing(item.skill),
                )
            )
    for magic in content.magic:
        effect = number(magic.effect)
        cards.extend(
            Card(magic.name, MAGIC, magic.text, effect=effect) for _ in range(magic.copies)
        )
    for modifier in content.modifier:
        text = " or ".join(f"{v:+d}" for v in modifier.options)
        cards.extend(
            Card(modifier.name, MODIFIER, text, options=tuple(modifier.options))
            for _ in range(modifier.copies)
        )
    for challenge in content.challenge:
        cards.extend(
            Card(challenge.name, CHALLENGE, challenge.text) for _ in range(challenge.copies)
        )

    leader_effect = tuple(number(leader.skill.effect) for leader in content.leader)
    monster_effect = tuple(number(monster.skill.effect) for monster in content.monster)
    punishment = tuple(number(monster.punishment) for monster in content.monster)

    drawn_kinds = ["card"] * len(effects)
    skill_effects: list[tuple[Skill | None, int]] = [(c.skill, c.skill_effect) for c in cards]
    skill_effects.extend(zip([ld.skill for ld in content.leader], leader_effect, strict=True))
    skill_effects.extend(zip([m.skill for m in content.monster], monster_effect, strict=True))
    for skill, eid in skill_effects:
        if skill is not None and eid >= 0 and skill.trigger in DRAWN_KINDS:
            drawn_kinds[eid] = DRAWN_KINDS[skill.trigger]

    targets: list[str] = []
    for steps in effects:
        named = Counter([s.who for s in steps] + [s.from_ for s in steps if s.from_ is not None])
        if named["chosen_player"]:
            targets.append("chosen_player")
        elif named["chosen_opponent"] or any(s.named == "look_and_take" for s in steps):
            targets.append("chosen_opponent")
        else:
            targets.append("")
    aims = tuple(
        tuple(
            i
            for i, s in enumerate(steps)
            if s.verb in ("destroy", "steal", "return") and s.from_ in AIMED_FROM
        )
        for steps in effects
    )
    return Catalog(
        cards=tuple(cards),
        leaders=tuple(content.leader),
        monsters=tuple(content.monster),
        effects=tuple(effects),
        targets=tuple(targets),
        aims=aims,
        drawn_kinds=tuple(drawn_kinds),
        leader_effect=leader_effect,
        monster_effect=monster_effect,
        punishment=punishment,
        leader_named=tuple(standing(leader.skill) for leader in content.leader),
        monster_named=tuple(standing(monster.skill) for monster in content.monster),
        modifiers=frozenset(i for i, card in enumerate(cards) if card.kind == MODIFIER),
        challenges=frozenset(i for i, card in enumerate(cards) if card.kind == CHALLENGE),
        leader_skills=tuple(
            ((leader.skill, eid, standing(leader.skill)),)
            for leader, eid in zip(content.leader, leader_effect, strict=True)
        ),
        monster_skills=tuple(
            (monster.skill, eid, standing(monster.skill))
            for monster, eid in zip(content.monster, monster_effect, strict=True)
        ),
        leader_acts=tuple(leader.skill.trigger == "action" for leader in content.leader),
        monster_acts=tuple(monster.skill.trigger == "action" for monster in content.monster),
    )
