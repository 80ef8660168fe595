"""The schema of a Here to Slay pack: every card of the main deck, Party Leaders, Monsters.

Card effects are data: a short list of steps, each one of the rulebook's glossary verbs
(DRAW, DISCARD, DESTROY, ...) with who acts, whose cards it takes, which kind of card and
how many; or a `named` effect the rules implement in code when no verb says it. Passive
skills (Party Leaders, slain Monsters, Items) are a trigger plus a bonus or an effect.
CONTENT.md documents every verb, target and trigger with examples.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property
from pathlib import Path
from typing import ClassVar, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from tavernkeep.engine.content import Pack, Restated, check_unique_names, load_pack

CONTENT_DIR = Path(__file__).parent / "content"
GAME_NAME = "here-to-slay"

MIN_ROLL, MAX_ROLL = 2, 12
"""Every roll in the game is 2d6 before Modifiers."""

HeroClass = Literal["Bard", "Fighter", "Guardian", "Ranger", "Thief", "Wizard"]
CLASSES: tuple[str, ...] = get_args(HeroClass)

Verb = Literal[
    "draw",
    "discard",
    "destroy",
    "sacrifice",
    "steal",
    "pull",
    "return",
    "search",
    "challenge",
    "attack",
    "slay",
]
VERBS: tuple[str, ...] = get_args(Verb)

Target = Literal[
    "self",
    "chosen_player",
    "chosen_opponent",
    "each_opponent",
    "each_player",
    "challenger",
]
"""A chosen player is chosen once per effect: every step naming it means the same player."""
TARGETS: tuple[str, ...] = get_args(Target)

CardKind = Literal[
    "card",
    "hero",
    "item",
    "cursed_item",
    "any_item",
    "magic",
    "modifier",
    "challenge",
    "monster",
]
"""`item` is an Item that is not cursed; `any_item` is either kind; `card` is any card."""
CARD_KINDS: tuple[str, ...] = get_args(CardKind)

Trigger = Literal[
    "always",
    "turn_start",
    "action",
    "on_any_roll",
    "on_hero_roll",
    "on_attack_roll",
    "on_challenge_roll",
    "on_successful_hero_roll",
    "on_failed_hero_roll",
    "on_opponent_modifies_your_roll",
    "on_play_magic",
    "on_play_modifier",
    "on_any_modifier",
    "on_challenged",
    "on_hero_destroyed",
    "on_draw_item",
    "on_draw_magic",
    "on_draw_modifier",
]
TRIGGERS: tuple[str, ...] = get_args(Trigger)

ROLL_TRIGGERS = frozenset(
    {
        "on_any_roll",
        "on_hero_roll",
        "on_attack_roll",
        "on_challenge_roll",
        "on_opponent_modifies_your_roll",
        "on_play_modifier",
    }
)
"""Triggers whose `bonus` is added to a roll (for on_play_modifier: to the Modifier)."""
BONUS_TRIGGERS = ROLL_TRIGGERS | {"turn_start"}
"""On turn_start a bonus is extra action points for the turn."""

_PARTY_CARDS = ("hero", "item", "cursed_item", "any_item")
_HAND_CARDS = ("card", "hero", "item", "cursed_item", "any_item", "magic", "modifier", "challenge")
_OPPONENTS = ("chosen_opponent", "each_opponent", "challenger")
_ANYONE = ("self", "chosen_player", "chosen_opponent", "each_opponent", "each_player")


class _VerbRule(BaseModel):
    model_config = ConfigDict(frozen=True)

    kinds: tuple[str, ...]
    """Card kinds the verb may name in `what`; the first is the default."""
    who: tuple[str, ...] = ("self",)
    """Who may perform it."""
    takes_from: tuple[str, ...] = ()
    """Whose Party or hand it takes from; empty when the verb takes from no player."""


VERB_RULES: dict[str, _VerbRule] = {
    "draw": _VerbRule(kinds=("card",), who=(*_ANYONE, "challenger")),
    "discard": _VerbRule(kinds=_HAND_CARDS, who=(*_ANYONE, "challenger")),
    "destroy": _VerbRule(kinds=_PARTY_CARDS, takes_from=_OPPONENTS),
    "sacrifice": _VerbRule(kinds=_PARTY_CARDS, who=(*_ANYONE, "challenger")),
    "steal": _VerbRule(kinds=_PARTY_CARDS, takes_from=_OPPONENTS),
    "pull": _VerbRule(kinds=("card",), takes_from=_OPPONENTS),
    "return": _VerbRule(kinds=_PARTY_CARDS, takes_from=(*_ANYONE, "challenger")),
    "search": _VerbRule(kinds=_HAND_CARDS),
    "challenge": _VerbRule(kinds=("card", "hero", "item", "any_item", "magic")),
    "attack": _VerbRule(kinds=("monster",)),
    "slay": _VerbRule(kinds=("monster",)),
}

NAMED_PATTERN = r"^[a-z][a-z0-9_]*$"

NAMED_EFFECTS: dict[str, str] = {
    # Hero and Magic effects
    "encore": "roll at once for another Hero in your Party, even one rolled for this turn",
    "plus_one_rolls_this_turn": "+1 to each of your rolls until the end of your turn",
    "next_attack_plus_two": "+2 to your next ATTACK roll this turn",
    "ward_hero": "a Hero of yours cannot be destroyed, stolen or returned until your next turn",
    "replace_monster": "put a face-up Monster under the Monster deck; turn up the next one",
    "look_and_take": "look at a chosen opponent's hand and take one card of your choice",
    "two_more_action_points": "gain 2 action points this turn",
    "play_at_once": "play the card the trigger or the previous step gave you, no action point",
    # Item skills
    "decoy": "discard this Item instead when the equipped Hero would be sacrificed or destroyed",
    "effect_cannot_be_used": "nobody may roll for the equipped Hero's effect",
    "discard_after_success": "after the equipped Hero's next successful roll and its effect, "
    "the Hero and this Item go to the discard pile",
    # Monster skills
    "steal_instead_of_destroy": "when you would DESTROY a Hero you may STEAL it instead",
    "reveal_drawn_card": "show the card just drawn to every player",
    "heroes_cannot_be_destroyed": "no Hero in your Party can be destroyed",
    "items_cannot_be_challenged": "no one may CHALLENGE an Item card you play",
}
"""Effects no verb expresses, each implemented by the rules in code. A pack may use only
these names, so a typo is caught at load time rather than in play."""

_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True)


class Step(BaseModel):
    """One step of an effect: a glossary verb, or a named effect the rules implement."""

    model_config = _STRICT

    verb: Verb | None = None
    named: str | None = Field(default=None, min_length=1, max_length=60, pattern=NAMED_PATTERN)
    who: Target = "self"
    from_: Target | None = Field(default=None, alias="from")
    what: CardKind | None = None
    count: int = Field(default=1, ge=1, le=6)
    optional: bool = False
    """'you may': the player may skip this step."""
    cost: bool = False
    """A price paid first: when the player has nothing of the kind to give up, the rest
    of the effect is not done (a SACRIFICE or DISCARD by the player themself)."""

    @model_validator(mode="after")
    def _consistent(self) -> Step:
        if (self.verb is None) == (self.named is None):
            raise ValueError("field 'verb': a step has either a verb or a named effect")
        if self.named is not None:
            if self.named not in NAMED_EFFECTS:
                raise ValueError(
                    f"field 'named': no named effect '{self.named}' "
                    f"(known: {', '.join(sorted(NAMED_EFFECTS))})"
                )
            changed = [
                f for f in ("who", "from_", "what", "count", "cost") if f in self.model_fields_set
            ]
            if changed:
                field = "from" if changed[0] == "from_" else changed[0]
                raise ValueError(f"field '{field}': a named effect takes no {field}")
            return self
        assert self.verb is not None
        if self.cost and (self.verb not in ("sacrifice", "discard") or self.who != "self"):
            raise ValueError(
                "field 'cost': only a SACRIFICE or DISCARD by the player (who = self) is a cost"
            )
        rule = VERB_RULES[self.verb]
        if self.who not in rule.who:
            raise ValueError(
                f"field 'who': {self.verb} is done by {_either(rule.who)}, not {self.who}"
            )
        if rule.takes_from and self.from_ is None:
            raise ValueError(
                f"field 'from': {self.verb} needs whose cards: {_either(rule.takes_from)}"
            )
        if self.from_ is not None and self.from_ not in rule.takes_from:
            if not rule.takes_from:
                raise ValueError(f"field 'from': {self.verb} takes from no player")
            raise ValueError(
                f"field 'from': {self.verb} takes from {_either(rule.takes_from)}, not {self.from_}"
            )
        if self.what is not None and self.what not in rule.kinds:
            raise ValueError(
                f"field 'what': {self.verb} works on {_either(rule.kinds)}, not {self.what}"
            )
        return self

    @cached_property
    def kind(self) -> str:
        """The card kind the step names, with the verb's default filled in. Worked out
        once a step (a step is frozen): the rules and the bot read it about 1,200 times
        a game, and a property recomputed it each time from code the build does not
        compile. Not a field: it is no part of the pack, its digest or its dump."""
        if self.what is not None:
            return self.what
        return VERB_RULES[self.verb].kinds[0] if self.verb is not None else "card"


def _either(options: tuple[str, ...]) -> str:
    return options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]


def _check_options(options: list[int], what: str, plural: str) -> list[int]:
    if any(value == 0 for value in options):
        raise ValueError(f"{what} of 0 changes nothing")
    if len(options) == 2 and options[0] == options[1]:
        raise ValueError(f"the two {plural} are equal ({options[0]:+d}); use one")
    return options


class Skill(BaseModel):
    """A passive skill: when `trigger` holds, add `bonus` or do `effect`."""

    model_config = _STRICT

    trigger: Trigger
    text: str = Field(min_length=1, max_length=200)
    bonus: list[int] = Field(default_factory=list, max_length=2)
    """One bonus, or two the player chooses between (like a two-option Modifier)."""
    effect: list[Step] = Field(default_factory=list, max_length=6, validate_default=True)
    optional: bool = False
    once_per_turn: bool = False
    action_cost: int = Field(default=0, ge=0, le=3, validate_default=True)

    # Cross-field checks are field validators (fields validate in order) so that an error
    # names the field at fault, not the whole skill.
    @field_validator("bonus")
    @classmethod
    def _bonus_options(cls, bonus: list[int], info: ValidationInfo) -> list[int]:
        for value in bonus:
            if not -6 <= value <= 6:
                raise ValueError(f"a bonus of {value:+d} is outside -6..+6")
        trigger = info.data.get("trigger")
        if bonus and trigger is not None and trigger not in BONUS_TRIGGERS:
            raise ValueError(f"a bonus needs a roll trigger or turn_start, not {trigger}")
        return _check_options(bonus, "a bonus", "bonuses")

    @field_validator("effect")
    @classmethod
    def _bonus_or_effect(cls, effect: list[Step], info: ValidationInfo) -> list[Step]:
        if "bonus" in info.data and bool(info.data["bonus"]) == bool(effect):
            raise ValueError("a skill has either a bonus or an effect (not both, not neither)")
        return effect

    @field_validator("action_cost")
    @classmethod
    def _cost(cls, cost: int, info: ValidationInfo) -> int:
        trigger = info.data.get("trigger")
        if trigger == "action" and cost == 0:
            raise ValueError("an 'action' skill costs action points")
        if trigger is not None and trigger != "action" and cost:
            raise ValueError(f"only an 'action' skill costs action points, not {trigger}")
        return cost


class _Card(BaseModel):
    model_config = _STRICT

    name: str = Field(min_length=1, max_length=60)


class _Copies(_Card):
    copies: int = Field(default=1, ge=1, le=20)


class Hero(_Card):
    hero_class: HeroClass = Field(alias="class")
    roll: int = Field(ge=MIN_ROLL, le=MAX_ROLL, description="2d6 needed to use the effect")
    text: str = Field(min_length=1, max_length=200)
    effect: list[Step] = Field(min_length=1, max_length=6)


class Item(_Copies):
    """Equipped to a Hero; a cursed one goes on another player's Hero."""

    kind: Literal["item", "cursed"] = "item"
    text: str = Field(min_length=1, max_length=200)
    counts_as: HeroClass | None = None
    """A mask: the equipped Hero counts as this class instead of its own."""
    skill: Skill | None = None
    """What the Item does to the equipped Hero; hero-roll triggers mean that Hero's rolls."""

    @model_validator(mode="after")
    def _does_something(self) -> Item:
        if self.counts_as is None and self.skill is None:
            raise ValueError("field 'skill': an Item needs a skill or counts_as")
        if self.counts_as is not None and self.kind == "cursed":
            raise ValueError("field 'counts_as': a mask is not a Cursed Item")
        return self


class Magic(_Copies):
    text: str = Field(min_length=1, max_length=200)
    effect: list[Step] = Field(min_length=1, max_length=6)


class Modifier(_Copies):
    options: list[int] = Field(min_length=1, max_length=2)
    """One amount, or two the player chooses between when playing it."""

    @field_validator("options")
    @classmethod
    def _options(cls, options: list[int]) -> list[int]:
        for value in options:
            if not -10 <= value <= 10:
                raise ValueError(f"an option of {value:+d} is outside -10..+10")
        return _check_options(options, "an option", "options")


class Challenge(_Copies):
    text: str = Field(default="CHALLENGE a Hero, Item or Magic card being played.", min_length=1)


class PartyLeader(_Card):
    hero_class: HeroClass = Field(alias="class")
    skill: Skill
    min_players: int = Field(default=2, ge=2, le=6)
    """The Shadow Claw is not used in 2-player games: min_players = 3."""


class Requirement(BaseModel):
    """Heroes needed to ATTACK: `heroes` of any class plus one of each class listed.

    One Hero fills one symbol; a Party Leader fills a class but never a hero.
    """

    model_config = _STRICT

    heroes: int = Field(default=0, ge=0, le=10)
    classes: list[HeroClass] = Field(default_factory=list, max_length=6, validate_default=True)

    @field_validator("classes")
    @classmethod
    def _needs_something(cls, classes: list[str], info: ValidationInfo) -> list[str]:
        if info.data.get("heroes") == 0 and not classes:
            raise ValueError("a Monster needs at least one hero or class")
        return classes


class Monster(_Card):
    requirement: Requirement
    slay_roll: int = Field(ge=MIN_ROLL, le=MAX_ROLL)
    inverted: bool = False
    """False: slay_roll or more slays, punishment_roll or less punishes. True: the reverse."""
    punishment_roll: int = Field(ge=MIN_ROLL, le=MAX_ROLL)
    punishment: list[Step] = Field(min_length=1, max_length=3)
    draw_on_slay: int = Field(default=0, ge=0, le=5)
    skill: Skill

    @field_validator("punishment_roll")
    @classmethod
    def _apart(cls, punishment: int, info: ValidationInfo) -> int:
        slay = info.data.get("slay_roll")
        inverted = info.data.get("inverted", False)
        if slay is None:
            return punishment
        if not inverted and punishment >= slay:
            raise ValueError(
                f"punishment on {punishment}- overlaps slaying on {slay}+ (must be below it)"
            )
        if inverted and punishment <= slay:
            raise ValueError(
                f"inverted: punishment on {punishment}+ overlaps slaying on {slay}- "
                "(must be above it)"
            )
        return punishment

    @property
    def slay_text(self) -> str:
        return f"{self.slay_roll}-" if self.inverted else f"{self.slay_roll}+"

    @property
    def punishment_text(self) -> str:
        return f"{self.punishment_roll}+" if self.inverted else f"{self.punishment_roll}-"

    def slays(self, total: int) -> bool:
        return total <= self.slay_roll if self.inverted else total >= self.slay_roll

    def punishes(self, total: int) -> bool:
        if self.inverted:
            return total >= self.punishment_roll
        return total <= self.punishment_roll


class PackHeader(BaseModel):
    model_config = _STRICT

    name: str = Field(min_length=1, max_length=60)
    strict_composition: bool = False
    """On: the pack must have exactly the published composition (see Published)."""


class Published:
    """The base game's composition (facts file), checked when strict_composition is on."""

    HERO_ROLLS: ClassVar[dict[str, list[int]]] = {
        "Bard": [2, 6, 7, 7, 7, 8, 8, 9],
        "Fighter": [4, 5, 5, 7, 7, 8, 8, 10],
        "Guardian": [5, 6, 6, 7, 8, 8, 9, 9],
        "Ranger": [5, 5, 6, 7, 8, 8, 9, 10],
        "Thief": [6, 6, 6, 7, 8, 9, 9, 10],
        "Wizard": [5, 6, 6, 7, 10, 10, 10, 11],
    }
    ITEMS = 11
    MASKS = 6
    CURSED_ITEMS = 4
    MAGIC = 13
    SPELLS = 8
    MAGIC_COPIES = (1, 2)
    MODIFIERS: ClassVar[dict[tuple[int, ...], int]] = {
        (4,): 4,
        (-4,): 4,
        (-1, 3): 4,
        (-3, 1): 4,
        (-2, 2): 9,
    }
    CHALLENGES = 14
    MAIN_DECK = 115
    LEADERS = 6
    MONSTERS = 15


class HereToSlayPack(BaseModel):
    model_config = _STRICT

    pack: PackHeader
    hero: list[Hero] = Field(min_length=1)
    item: list[Item] = Field(default_factory=list)
    magic: list[Magic] = Field(default_factory=list)
    modifier: list[Modifier] = Field(default_factory=list)
    challenge: list[Challenge] = Field(default_factory=list)
    leader: list[PartyLeader] = Field(min_length=2)
    monster: list[Monster] = Field(min_length=3, description="three are face up at a time")

    @model_validator(mode="after")
    def _unique_names(self) -> HereToSlayPack:
        check_unique_names(
            (section, [card.name for card in cards]) for section, cards in self.sections()
        )
        return self

    @model_validator(mode="after")
    def _composition(self) -> HereToSlayPack:
        if self.pack.strict_composition:
            for problem in self.composition_problems():
                raise ValueError(f"{problem} (strict_composition is on in [pack])")
        return self

    def sections(self) -> list[tuple[str, list[_Card]]]:
        return [
            ("hero", list(self.hero)),
            ("item", list(self.item)),
            ("magic", list(self.magic)),
            ("modifier", list(self.modifier)),
            ("challenge", list(self.challenge)),
            ("leader", list(self.leader)),
            ("monster", list(self.monster)),
        ]

    def composition_problems(self) -> list[str]:
        """How this pack differs from the published base game; empty when it matches."""
        p = Published
        problems: list[str] = []
        for cls in CLASSES:
            rolls = sorted(h.roll for h in self.hero if h.hero_class == cls)
            if rolls != p.HERO_ROLLS[cls]:
                problems.append(
                    f"hero: field 'roll': the {cls} roll requirements are {_nums(rolls)}, "
                    f"published {_nums(p.HERO_ROLLS[cls])}"
                )
        items = sum(i.copies for i in self.item if i.kind == "item")
        if items != p.ITEMS:
            problems.append(f"item: field 'copies': {items} Items, published {p.ITEMS}")
        masks = sorted(i.counts_as for i in self.item for _ in range(i.copies) if i.counts_as)
        if masks != sorted(CLASSES):
            problems.append(
                f"item: field 'counts_as': masks for {', '.join(masks) or 'no class'}, "
                "published one per class"
            )
        cursed = sum(i.copies for i in self.item if i.kind == "cursed")
        if cursed != p.CURSED_ITEMS:
            problems.append(
                f"item: field 'kind': {cursed} Cursed Items, published {p.CURSED_ITEMS}"
            )
        magic = sum(m.copies for m in self.magic)
        if len(self.magic) != p.SPELLS or magic != p.MAGIC:
            problems.append(
                f"magic: field 'copies': {len(self.magic)} spells in {magic} cards, "
                f"published {p.SPELLS} in {p.MAGIC}"
            )
        for spell in self.magic:
            if spell.copies not in p.MAGIC_COPIES:
                problems.append(
                    f"magic '{spell.name}': field 'copies': {spell.copies}, published 1 or 2"
                )
        modifiers: Counter[tuple[int, ...]] = Counter()
        for modifier in self.modifier:
            modifiers[tuple(sorted(modifier.options))] += modifier.copies
        if dict(modifiers) != p.MODIFIERS:
            problems.append(
                f"modifier: field 'options': {_modifiers(modifiers)}, "
                f"published {_modifiers(Counter(p.MODIFIERS))}"
            )
        challenges = sum(c.copies for c in self.challenge)
        if challenges != p.CHALLENGES:
            problems.append(
                f"challenge: field 'copies': {challenges} Challenges, published {p.CHALLENGES}"
            )
        leaders = sorted(leader.hero_class for leader in self.leader)
        if leaders != sorted(CLASSES):
            problems.append(
                f"leader: field 'class': leaders for {', '.join(leaders)}, published one per class"
            )
        if len(self.monster) != p.MONSTERS:
            problems.append(f"monster: {len(self.monster)} Monsters, published {p.MONSTERS}")
        return problems

    @property
    def main_deck_size(self) -> int:
        return (
            len(self.hero)
            + sum(c.copies for c in self.item)
            + sum(c.copies for c in self.magic)
            + sum(c.copies for c in self.modifier)
            + sum(c.copies for c in self.challenge)
        )

    def effect_steps(self) -> list[tuple[str, Step]]:
        """Every step of every card and skill, with the card's name: for checks and docs."""
        steps: list[tuple[str, Step]] = []
        for hero in self.hero:
            steps += [(hero.name, s) for s in hero.effect]
        for spell in self.magic:
            steps += [(spell.name, s) for s in spell.effect]
        for item in self.item:
            if item.skill is not None:
                steps += [(item.name, s) for s in item.skill.effect]
        for leader in self.leader:
            steps += [(leader.name, s) for s in leader.skill.effect]
        for monster in self.monster:
            steps += [(monster.name, s) for s in monster.punishment + monster.skill.effect]
        return steps

    def named_effects(self) -> set[str]:
        return {step.named for _, step in self.effect_steps() if step.named is not None}


def _nums(values: list[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _modifiers(counts: Counter[tuple[int, ...]]) -> str:
    parts = [
        f"{'/'.join(f'{v:+d}' for v in sorted(options, reverse=True))} x{n}"
        for options, n in sorted(counts.items())
    ]
    return ", ".join(parts) or "none"


_SKILLED = ("item", "leader", "monster")


def _restated() -> tuple[Restated, ...]:
    """The numbers a card's text restates, for a warning where the two disagree: a
    signed number is a skill's bonus ("+1 to your ATTACK rolls."), a count after a verb
    in capitals its step's count ("DRAW 2 cards", "DESTROY 2 Hero cards"), "for 1
    action point" an action skill's cost. An Item's own text restates its skill too."""
    claims = [
        Restated(_SKILLED, r"[+-]\d+\b", "skill.bonus", text="skill.text"),
        Restated(("item",), r"[+-]\d+\b", "skill.bonus"),
        Restated(_SKILLED, r"for (\d+) action points?", "skill.action_cost", text="skill.text"),
    ]
    for verb in VERBS:
        said = rf"\b{verb.upper()}(?:E?S)? (?:the discard pile for )?(\d+)\b"
        step = f"effect[verb={verb}].count"
        claims += [
            Restated(("hero", "magic"), said, step),
            Restated(_SKILLED, said, f"skill.{step}", text="skill.text"),
            Restated(("item",), said, f"skill.{step}"),
        ]
    return tuple(claims)


RESTATED = _restated()


def load(source: str | Path | None = None) -> Pack[HereToSlayPack]:
    """The standard pack, a built-in pack by name, or a designer's .toml file by path."""
    return load_pack(GAME_NAME, HereToSlayPack, source, CONTENT_DIR, RESTATED)
