"""The schema of a Side Quest pack: heroes, weapons, items, spells, locations, monsters,
bosses, the special cards' numbers and the scenarios.

Every card is data. What a hero's ability, an item, a spell or a location does is a short
list of effects, each one name from a small vocabulary (NAMED_EFFECTS) with an amount, a
target and, for rolls, which roll; the rules implement each name once. Monsters and
Bosses are numbers plus at most one ability from MONSTER_ABILITIES. A name outside the
vocabulary, a target an effect cannot take, or an effect on a card that cannot carry it
is a load error. CONTENT.md documents every field, effect, target and ability.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from tavernkeep.engine.content import Pack, Restated, check_unique_names, load_pack

CONTENT_DIR = Path(__file__).parent / "content"
GAME_NAME = "side-quest"

HERO_HEALTH = 4
"""A Health Card starts with its 4 hearts upright; no healing goes above it."""
DUNGEON_HEARTS = 3
"""Dungeon Heart cards in the box: no Boss has more Hearts than this."""
MAX_HEROES = 4
ROW_LOCATIONS = 6
"""3 Locations plus one per hero after the first: 4 heroes need 6 (RULES.md 2)."""

_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True)

# -- the effect vocabulary ---------------------------------------------------------------

EffectName = Literal[
    "heal",
    "damage",
    "stun",
    "push",
    "block",
    "seal",
    "extra_action",
    "free_move",
    "teleport",
    "evade",
    "free_loot",
    "draw_loot",
    "reroll",
    "boost",
    "range_plus",
    "damage_plus",
    "armor",
    "carry",
]
EFFECT_NAMES: tuple[str, ...] = get_args(EffectName)

NAMED_EFFECTS: dict[str, str] = {
    "heal": "the target hero(es) regain `amount` health (1-4), never above 4",
    "damage": "`amount` damage (1-3) to each target Monster, as one hit: a Monster whose "
    "health is at most `amount` is slain; any other takes nothing (no partial damage) but "
    "is woken if stunned",
    "stun": "each target Monster is stunned: it skips its next activation and is restored "
    "in the End phase",
    "push": "the target Monster moves to a Location next to its own, the user's choice (no wrap)",
    "block": "the target Monsters do not move at their next activation (on a passive "
    "Location: Monsters in it never move); they still attack a hero in range",
    "seal": "nothing is dealt to the target Location at the next Refresh (on a passive "
    "Location: never); Monsters may still walk in",
    "extra_action": "the hero gains `amount` actions (1-2) this turn; passive: at the start "
    "of each of its turns",
    "free_move": "the hero moves up to `amount` times (1-3) to an adjacent Location at no "
    "action; no Grab Attacks; not while Overburdened",
    "teleport": "the hero moves to any revealed Location at no action; no Grab Attacks; "
    "not while Overburdened",
    "evade": "Monsters make no Grab Attacks when the target hero leaves their Location",
    "free_loot": "the target hero makes a Loot roll (one die, 5+ draws a Loot card) that "
    "costs no action and does not count as its Loot of the turn; only with no active "
    "Monster in its Location",
    "draw_loot": "the hero draws `amount` cards (1-2) from the Loot deck, no roll, Monsters or not",
    "reroll": "right after a roll of kind `roll` the hero made, it re-rolls every die of it; "
    "the new result stands",
    "boost": "+`amount` (1-2) to each die of the target hero's rolls of kind `roll`",
    "range_plus": "+`amount` (1-2) to the range of each weapon the target hero has equipped",
    "damage_plus": "each successful die of the target hero's attacks deals +`amount` (1-2) damage",
    "armor": "of the damage one Monster or Boss attack (a Grab Attack, an explodes, too) "
    "gives the target hero, the first `amount` points (1-2) are ignored",
    "carry": "+`amount` (1-3) to the hero's item limit",
}
"""What each effect does; CONTENT.md says the same at length, UNTIL_END_PHASE how long."""

Target = Literal[
    "self",
    "hero_here",
    "any_hero",
    "every_hero_here",
    "monster_here",
    "monster_in_range",
    "every_monster_here",
    "every_monster_in_range",
    "here",
    "location_in_range",
]
TARGETS: dict[str, str] = {
    "self": "the hero whose card it is (on a Location's enter effect: the hero who entered)",
    "hero_here": "one hero in the user's Location, the user's choice (itself included)",
    "any_hero": "one hero anywhere in the dungeon, the user's choice",
    "every_hero_here": "every hero in the Location (the user's, or the Location card's own)",
    "monster_here": "one Monster in the user's Location, the user's choice",
    "monster_in_range": "one Monster in a Location within the user's range, its choice",
    "every_monster_here": "every Monster in the Location (the user's, or the Location card's)",
    "every_monster_in_range": "every Monster in one Location within the user's range, the "
    "user choosing the Location",
    "here": "the Location itself (the user's, or the Location card)",
    "location_in_range": "one Location within the user's range, the user's choice",
}
"""A hero's range is the greatest range of its equipped weapons, plus any range_plus (0
with no weapon). A Monster target is one of the pack's Monsters: never the Boss
(rulebook), a Dark Rune, the Dark Portal, a Dungeon Heart or a Damsel."""

CHOSEN_TARGETS = frozenset(
    {
        "hero_here",
        "any_hero",
        "monster_here",
        "monster_in_range",
        "every_monster_in_range",
        "location_in_range",
    }
)
"""Targets somebody must choose: only a card that is used (not passive, not a Location)."""

RollKind = Literal["any", "attack", "spell", "loot", "rescue", "key"]
ROLLS: dict[str, str] = {
    "any": "every roll the hero makes",
    "attack": "the dice of its weapons in an Attack",
    "spell": "the die to cast a Spell",
    "loot": "the die of a Loot (a free Loot too)",
    "rescue": "the die to rescue a Damsel",
    "key": "the die to use the Dungeon Key",
}

Context = Literal["passive", "action", "free", "spell", "enter", "end_phase"]
CONTEXTS: dict[str, str] = {
    "passive": "passive",
    "action": "an action",
    "free": "free",
    "spell": "a spell",
    "enter": "a Location's enter effect",
    "end_phase": "a Location's end_phase effect",
}
_USED = ("action", "free", "spell")
_TRIGGERED = ("enter", "end_phase")
_HEROES = ("self", "hero_here", "every_hero_here")
_MONSTERS = ("monster_in_range", "monster_here", "every_monster_here", "every_monster_in_range")


class EffectRule(BaseModel):
    """What one named effect accepts."""

    model_config = ConfigDict(frozen=True)

    targets: tuple[str, ...] = ("self",)
    """The targets it may take; the first is the default."""
    amount: tuple[int, int] | None = None
    """Lowest and highest amount; None when the effect takes no amount."""
    contexts: tuple[str, ...]
    """The cards that may carry it: a hero's or item's use, a spell, a Location's when."""
    roll: bool = False
    """It names which rolls it works on (`roll`)."""


EFFECT_RULES: dict[str, EffectRule] = {
    "heal": EffectRule(
        targets=(*_HEROES, "any_hero"), amount=(1, HERO_HEALTH), contexts=(*_USED, *_TRIGGERED)
    ),
    "damage": EffectRule(targets=_MONSTERS, amount=(1, 3), contexts=(*_USED, *_TRIGGERED)),
    "stun": EffectRule(targets=_MONSTERS, contexts=(*_USED, *_TRIGGERED)),
    "push": EffectRule(targets=("monster_in_range", "monster_here"), contexts=_USED),
    "block": EffectRule(
        targets=("every_monster_in_range", "every_monster_here"),
        contexts=("passive", *_USED, "enter"),
    ),
    "seal": EffectRule(
        targets=("location_in_range", "here"), contexts=("passive", *_USED, "enter")
    ),
    "extra_action": EffectRule(amount=(1, 2), contexts=("passive", *_USED)),
    "free_move": EffectRule(amount=(1, 3), contexts=_USED),
    "teleport": EffectRule(contexts=_USED),
    "evade": EffectRule(targets=("self", "every_hero_here"), contexts=("passive", *_USED, "enter")),
    "free_loot": EffectRule(targets=("self", "every_hero_here"), contexts=(*_USED, *_TRIGGERED)),
    "draw_loot": EffectRule(amount=(1, 2), contexts=_USED),
    "reroll": EffectRule(contexts=("free",), roll=True),
    "boost": EffectRule(
        targets=_HEROES, amount=(1, 2), contexts=("passive", *_USED, "enter"), roll=True
    ),
    "range_plus": EffectRule(targets=_HEROES, amount=(1, 2), contexts=("passive", *_USED, "enter")),
    "damage_plus": EffectRule(
        targets=("self", "hero_here"), amount=(1, 2), contexts=("passive", *_USED)
    ),
    "armor": EffectRule(targets=_HEROES, amount=(1, 2), contexts=("passive", *_USED, "enter")),
    "carry": EffectRule(amount=(1, 3), contexts=("passive",)),
}

UNTIL_END_PHASE = frozenset({"block", "evade", "boost", "range_plus", "damage_plus", "armor"})
"""Effects that hold for a while: when a card is used (or a Location entered) until the End
phase of that game turn, so through the Monster phase; on a passive card for as long as it
is in play. Every other effect happens at once, except seal (until the next Refresh) and,
on a passive card, extra_action (every turn) and carry (always)."""


def _either(options: tuple[str, ...] | list[str]) -> str:
    return options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]


class Effect(BaseModel):
    """One named effect: what happens, how much, to whom, on which rolls."""

    model_config = _STRICT

    name: EffectName
    amount: int = Field(default=1, ge=1, le=HERO_HEALTH)
    """How much; an effect without an amount (stun, teleport, ...) leaves it out."""
    target: Target
    """Left out: the effect's default target (the first in EFFECT_RULES)."""
    roll: RollKind = "any"
    """Only boost and reroll: which of the hero's rolls they work on."""

    @model_validator(mode="before")
    @classmethod
    def _default_target(cls, data: Any) -> Any:
        if isinstance(data, dict) and "target" not in data:
            name = data.get("name")
            rule = EFFECT_RULES.get(name) if isinstance(name, str) else None
            data = {**data, "target": rule.targets[0] if rule is not None else "self"}
        return data

    @model_validator(mode="after")
    def _fits_its_name(self) -> Effect:
        rule = EFFECT_RULES[self.name]
        if rule.amount is None:
            if "amount" in self.model_fields_set:
                raise ValueError(f"field 'amount': {self.name} takes no amount")
        else:
            low, high = rule.amount
            if not low <= self.amount <= high:
                span = f"only {low}" if low == high else f"{low}-{high}"
                raise ValueError(f"field 'amount': {self.name} takes {span}, not {self.amount}")
        if self.target not in rule.targets:
            raise ValueError(
                f"field 'target': {self.name} works on {_either(rule.targets)}, not {self.target}"
            )
        if "roll" in self.model_fields_set and not rule.roll:
            raise ValueError(f"field 'roll': {self.name} names no roll (only boost and reroll do)")
        return self


def _check_effects(effects: list[Effect], context: str, location: bool) -> None:
    """Each effect fits the card carrying it: a passive card, a used one, a Location."""
    for number, effect in enumerate(effects, start=1):
        where = f"effects #{number} '{effect.name}'"
        rule = EFFECT_RULES[effect.name]
        if context not in rule.contexts:
            can = _either([CONTEXTS[c] for c in rule.contexts])
            raise ValueError(
                f"{where}: field 'name': {effect.name} cannot be {CONTEXTS[context]} "
                f"(it can be {can})"
            )
        if location:
            unchosen = ("self", "every_hero_here", "every_monster_here", "here")
            allowed = [
                t for t in rule.targets if t in unchosen and (t != "self" or context == "enter")
            ]
            if not allowed:
                raise ValueError(
                    f"{where}: field 'name': {effect.name} cannot be on a Location "
                    f"(it works on {_either(rule.targets)})"
                )
            if effect.target not in allowed:
                raise ValueError(
                    f"{where}: field 'target': nobody chooses on a Location, so not "
                    f"{effect.target} (use {_either(allowed)})"
                )
        elif context == "passive" and effect.target in CHOSEN_TARGETS:
            raise ValueError(
                f"{where}: field 'target': nobody chooses on a passive card, so not {effect.target}"
            )


# -- monster abilities --------------------------------------------------------------------

MonsterAbility = Literal[
    "stun_on_hit",
    "grasping",
    "rallying",
    "bodyguard",
    "shielded",
    "summoner",
    "explodes",
    "unstoppable",
]
MONSTER_ABILITIES: dict[str, str] = {
    "stun_on_hit": "a hero that takes damage from its attack is stunned: it takes no "
    "actions in its next turn and is restored in the End phase after that turn",
    "grasping": "its Grab Attacks take no -1",
    "rallying": "+1 on each attack die of every other Monster and the Boss in its Location",
    "bodyguard": "while it is active, the other Monsters in its Location can be given no "
    "attack hits, nor be the one Monster a hero's card chooses; effects on every "
    "Monster of the Location still reach them",
    "shielded": "hits and card damage from a hero in another Location do nothing to it",
    "summoner": "at the start of each Monster phase, one card from the Monster deck is "
    "dealt onto its Location (like a Dark Portal's spawn: never onto a Damsel)",
    "explodes": "when it is slain, every hero in its Location takes 1 damage (armor applies)",
    "unstoppable": "heroes' stun, block and push effects do nothing to it",
}
"""A Monster or Boss has at most one; the rules implement each name once."""
MONSTER_ONLY_ABILITIES = frozenset({"explodes", "unstoppable"})
"""Slaying a Boss wins at once, and no card's stun, block or push reaches a Boss anyway."""


# -- cards ---------------------------------------------------------------------------------

Use = Literal["passive", "action", "free"]
"""passive: always on; action: costs one action; free: costs none. A used card (action or
free) is used at most once a turn, on its holder's own turn."""


class _Card(BaseModel):
    model_config = _STRICT

    name: str = Field(min_length=1, max_length=60)


class Hero(_Card):
    text: str = Field(min_length=1, max_length=200)
    """The ability's wording."""
    item_limit: int = Field(ge=1, le=3)
    spell_limit: int = Field(ge=0, le=3)
    use: Use
    effects: list[Effect] = Field(min_length=1, max_length=3)

    @model_validator(mode="after")
    def _effects_fit(self) -> Hero:
        _check_effects(self.effects, self.use, location=False)
        return self


class Weapon(_Card):
    tier: Literal["basic", "elite"]
    """A hero starts with a Basic weapon; Elite weapons are shuffled into the Loot deck."""
    hands: Literal[1, 2]
    range: int = Field(ge=0, le=3)
    """0: its own Location only; 1: an adjacent one too; and so on."""
    dice: int = Field(ge=1, le=3)
    hit: int = Field(ge=2, le=6)
    """Each die showing this or more is a success."""
    damage: int = Field(ge=1, le=3)
    """Damage each success deals."""
    text: str = Field(default="", max_length=200)


class Item(_Card):
    text: str = Field(min_length=1, max_length=200)
    use: Use
    consumed: bool = False
    """Discarded once used."""
    effects: list[Effect] = Field(min_length=1, max_length=3)

    @model_validator(mode="after")
    def _effects_fit(self) -> Item:
        if self.consumed and self.use == "passive":
            raise ValueError("field 'consumed': a passive item is never used, so never used up")
        _check_effects(self.effects, self.use, location=False)
        return self


class Spell(_Card):
    text: str = Field(min_length=1, max_length=200)
    roll: int = Field(ge=2, le=6)
    """Casting is an action and a roll of one die: this or more and the effects happen."""
    effects: list[Effect] = Field(min_length=1, max_length=3)

    @model_validator(mode="after")
    def _effects_fit(self) -> Spell:
        _check_effects(self.effects, "spell", location=False)
        return self


class Location(_Card):
    text: str = Field(min_length=1, max_length=200)
    locked_door: bool = False
    when: Literal["passive", "end_phase", "enter"]
    """passive: while it is revealed; end_phase: every End phase once revealed; enter: each
    time a hero enters it (its first entering, which reveals it, included)."""
    effects: list[Effect] = Field(min_length=1, max_length=3)

    @model_validator(mode="after")
    def _effects_fit(self) -> Location:
        _check_effects(self.effects, self.when, location=True)
        return self


class _Fighter(_Card):
    move: int = Field(ge=0, le=3)
    range: int = Field(ge=0, le=2)
    dice: int = Field(ge=1, le=3)
    hit: int = Field(ge=2, le=6)
    damage: int = Field(ge=1, le=2)
    ability: MonsterAbility | None = None
    text: str = Field(default="", max_length=200)


class Monster(_Fighter):
    health: int = Field(ge=1, le=4)
    """Damage one attack must deal to slay it (no partial damage)."""


class Boss(_Fighter):
    hearts: int = Field(ge=1, le=DUNGEON_HEARTS)
    """Dungeon Hearts shuffled into the last level; once they are all destroyed, the Boss
    has this much health."""

    @field_validator("ability")
    @classmethod
    def _boss_ability(cls, ability: str | None) -> str | None:
        if ability in MONSTER_ONLY_ABILITIES:
            raise ValueError(
                f"{ability} means nothing on a Boss (slaying it wins; no card's stun, "
                "block or push reaches it)"
            )
        return ability


class Specials(BaseModel):
    """The numbers of the Damsels, Dark Runes, Dark Portal, Dungeon Hearts and Key."""

    model_config = _STRICT

    damsel_depth: int = Field(default=3, ge=1, le=6)
    """End phases until a Damsel reaches the skull (rulebook: after 3 turns)."""
    rescue_roll: int = Field(default=4, ge=2, le=6)
    rune_health: int = Field(default=2, ge=1, le=4)
    rune_bonus: int = Field(default=1, ge=1, le=2)
    """Added to each attack die of every Monster while a Rune stands."""
    portal_health: int = Field(default=3, ge=1, le=6)
    portal_spawns: int = Field(default=2, ge=1, le=3)
    """Monster cards it spawns at the start of each Monster phase."""
    heart_health: int = Field(default=1, ge=1, le=3)
    key_roll: int = Field(default=3, ge=2, le=6)


class Level(BaseModel):
    """One Dungeon deck: these cards shuffled, the Key (levels 1-2) or Boss (3) below."""

    model_config = _STRICT

    monsters: int = Field(ge=0, le=60)
    loot: int = Field(ge=0, le=60)
    damsels: int = Field(default=0, ge=0, le=3)
    runes: int = Field(default=0, ge=0, le=3)
    portal: int = Field(default=0, ge=0, le=1)


class Scenario(BaseModel):
    model_config = _STRICT

    name: str = Field(min_length=1, max_length=60)
    text: str = Field(min_length=1, max_length=300)
    boss: str = Field(min_length=1, max_length=60)
    """The Boss at the bottom of level 3's deck, with its Dungeon Hearts shuffled in."""
    levels: list[Level] = Field(min_length=3, max_length=3)


class PackHeader(BaseModel):
    model_config = _STRICT

    name: str = Field(min_length=1, max_length=60)
    strict_composition: bool = False
    """On: the pack must have exactly the rulebook's counts (see Rulebook)."""


class Rulebook:
    """The rulebook's component counts, checked when strict_composition is on."""

    HEROES = 12
    BASIC_WEAPONS = 6
    ELITE_WEAPONS = 6
    ITEMS = 12
    SPELLS = 12
    LOCATIONS = 6
    MONSTERS = 30
    BOSSES = 3
    COUNTS: ClassVar[dict[str, int]] = {
        "hero": HEROES,
        "item": ITEMS,
        "spell": SPELLS,
        "location": LOCATIONS,
        "monster": MONSTERS,
        "boss": BOSSES,
    }


class SideQuestPack(BaseModel):
    model_config = _STRICT

    pack: PackHeader
    specials: Specials = Field(default_factory=Specials)
    hero: list[Hero] = Field(min_length=MAX_HEROES, description="one for each of 4 seats")
    weapon: list[Weapon] = Field(min_length=MAX_HEROES)
    item: list[Item] = Field(default_factory=list)
    spell: list[Spell] = Field(default_factory=list)
    location: list[Location] = Field(min_length=ROW_LOCATIONS)
    monster: list[Monster] = Field(min_length=1)
    boss: list[Boss] = Field(min_length=1)
    scenario: list[Scenario] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_names(self) -> SideQuestPack:
        check_unique_names(
            (section, [card.name for card in cards]) for section, cards in self.sections()
        )
        scenarios: set[str] = set()
        for number, scenario in enumerate(self.scenario, start=1):
            if scenario.name in scenarios:
                raise ValueError(
                    f"scenario #{number} '{scenario.name}': field 'name': "
                    "another scenario has that name"
                )
            scenarios.add(scenario.name)
        return self

    @model_validator(mode="after")
    def _playable(self) -> SideQuestPack:
        basic = len(self.basic_weapons())
        if basic < MAX_HEROES:
            raise ValueError(
                f"weapon: field 'tier': {basic} Basic weapons; 4 heroes need 4 to choose from"
            )
        doors = [(n, loc) for n, loc in enumerate(self.location, start=1) if loc.locked_door]
        if not doors:
            raise ValueError("location: field 'locked_door': no Locked Door; exactly one needs it")
        if len(doors) > 1:
            number, second = doors[1]
            raise ValueError(
                f"location #{number} '{second.name}': field 'locked_door': a second Locked "
                f"Door (the first is '{doors[0][1].name}'); a pack has exactly one"
            )
        return self

    @model_validator(mode="after")
    def _scenarios_possible(self) -> SideQuestPack:
        bosses = [b.name for b in self.boss]
        loot = len(self.loot_deck())
        for number, scenario in enumerate(self.scenario, start=1):
            where = f"scenario #{number} '{scenario.name}'"
            if scenario.boss not in bosses:
                raise ValueError(
                    f"{where}: field 'boss': no boss named '{scenario.boss}' "
                    f"(bosses: {', '.join(repr(b) for b in bosses)})"
                )
            for depth, level in enumerate(scenario.levels, start=1):
                if level.monsters > len(self.monster):
                    raise ValueError(
                        f"{where}: levels #{depth}: field 'monsters': {level.monsters} "
                        f"Monsters, the pack has {len(self.monster)}"
                    )
                if level.loot > loot:
                    raise ValueError(
                        f"{where}: levels #{depth}: field 'loot': {level.loot} Loot cards, "
                        f"the pack's Loot deck has {loot}"
                    )
            # Heroes keep the loot they pick up, so the three levels together may not ask
            # for more than the Loot deck holds.
            total = sum(level.loot for level in scenario.levels)
            if total > loot:
                raise ValueError(
                    f"{where}: field 'levels': {total} Loot cards over the three levels, "
                    f"the pack's Loot deck has {loot}"
                )
        return self

    @model_validator(mode="after")
    def _composition(self) -> SideQuestPack:
        if self.pack.strict_composition:
            for problem in self.composition_problems():
                raise ValueError(f"{problem} (strict_composition is on in [pack])")
        return self

    def sections(self) -> list[tuple[str, list[_Card]]]:
        return [
            ("hero", list(self.hero)),
            ("weapon", list(self.weapon)),
            ("item", list(self.item)),
            ("spell", list(self.spell)),
            ("location", list(self.location)),
            ("monster", list(self.monster)),
            ("boss", list(self.boss)),
        ]

    def composition_problems(self) -> list[str]:
        """How this pack differs from the rulebook's counts; empty when it matches."""
        problems: list[str] = []
        for section, cards in self.sections():
            want = Rulebook.COUNTS.get(section)
            if want is not None and len(cards) != want:
                problems.append(f"{section}: {len(cards)} cards, the rulebook has {want}")
        basic, elite = len(self.basic_weapons()), len(self.elite_weapons())
        if (basic, elite) != (Rulebook.BASIC_WEAPONS, Rulebook.ELITE_WEAPONS):
            problems.append(
                f"weapon: field 'tier': {basic} Basic and {elite} Elite weapons, the rulebook "
                f"has {Rulebook.BASIC_WEAPONS} and {Rulebook.ELITE_WEAPONS}"
            )
        return problems

    # -- views the rules use -------------------------------------------------------------

    def basic_weapons(self) -> list[Weapon]:
        return [w for w in self.weapon if w.tier == "basic"]

    def elite_weapons(self) -> list[Weapon]:
        return [w for w in self.weapon if w.tier == "elite"]

    def loot_deck(self) -> list[Weapon | Item | Spell]:
        """The Loot deck's cards: Elite weapons, items and spells (rulebook)."""
        return [*self.elite_weapons(), *self.item, *self.spell]

    @property
    def locked_door(self) -> Location:
        return next(loc for loc in self.location if loc.locked_door)

    def boss_named(self, name: str) -> Boss:
        return next(b for b in self.boss if b.name == name)

    def effect_uses(self) -> list[tuple[str, str, Effect]]:
        """(card, context, effect) for every effect of every card: for checks and docs."""
        uses: list[tuple[str, str, Effect]] = []
        for hero in self.hero:
            uses += [(hero.name, hero.use, e) for e in hero.effects]
        for item in self.item:
            uses += [(item.name, item.use, e) for e in item.effects]
        for spell in self.spell:
            uses += [(spell.name, "spell", e) for e in spell.effects]
        for location in self.location:
            uses += [(location.name, location.when, e) for e in location.effects]
        return uses

    def named_effects(self) -> set[str]:
        return {effect.name for _, _, effect in self.effect_uses()}

    def monster_abilities(self) -> set[str]:
        fighters: list[_Fighter] = [*self.monster, *self.boss]
        return {f.ability for f in fighters if f.ability is not None}


_EFFECTS = ("hero", "item", "spell", "location")
RESTATED: tuple[Restated, ...] = (
    # A card's text is what players read; its numbers are what the rules use. Each
    # phrase names one number, so the two drifting apart is a warning at load. "Tamsin
    # has 4 actions a turn" is left out: 4 is the 3 every hero has plus her `amount`.
    Restated(("spell",), r"^(\d+)\+", "roll"),
    Restated(("weapon",), r"\b(one|two|three) dice\b", "dice"),
    Restated(_EFFECTS, r"regains? (\d+) health", "effects[name=heal].amount"),
    Restated(_EFFECTS, r"\b(\d+) damage to\b", "effects[name=damage].amount"),
    Restated(_EFFECTS, r"deals? (\d+) more damage", "effects[name=damage_plus].amount"),
    Restated(_EFFECTS, r"ignores? the first (\d+) damage", "effects[name=armor].amount"),
    Restated(_EFFECTS, r"gains? (\d+) actions?", "effects[name=extra_action].amount"),
    Restated(_EFFECTS, r"\+(\d+) to your item limit", "effects[name=carry].amount"),
    Restated(
        _EFFECTS, r"\+(\d+) (?:to [^.]*?rolls|on each attack die)", "effects[name=boost].amount"
    ),
)


def load(source: str | Path | None = None) -> Pack[SideQuestPack]:
    """The standard pack, a built-in pack by name, or a designer's .toml file by path."""
    return load_pack(GAME_NAME, SideQuestPack, source, CONTENT_DIR, RESTATED)
