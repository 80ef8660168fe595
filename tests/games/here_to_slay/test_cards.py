"""Every card of the standard pack, played on a position laid out by hand with chosen dice.

Each card is its own test case, named after the card: Heroes, Items and Cursed Items,
Magic cards, every option of every Modifier, the Challenge card, the Party Leaders, and
each Monster's requirement, slay and punishment rolls and skill. A case asserts what a
player at the table would notice: which cards moved to which hand, Party or pile, how
many, and who was asked to choose.

The cases are looked up by the names in the pack, so a card added to the pack without a
case here fails (`test_every_card_in_the_pack_has_a_test` says which).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from here_to_slay_helpers import (
    PACK,
    act,
    act_events,
    choose,
    decision,
    dice,
    equip,
    field,
    give,
    new_game,
    on_top,
    set_row,
    slain_by,
    take,
    texts,
)

from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import IllegalAction
from tavernkeep.engine.events import Event
from tavernkeep.games.here_to_slay import GAME, HereToSlayState

CONTENT = PACK.content

PLAIN = ("The Iron Boar", "The Shadow Claw", "The Wild Hawk")
"""Leaders whose skills stay out of the way: seat 0's helps only its CHALLENGE rolls (no
DRAW after Magic), seat 1's is an action on its own turn, seat 2's helps its ATTACKs."""

CLASS_ORDER = ("Bard", "Fighter", "Guardian", "Ranger", "Thief", "Wizard")
CLASS_HERO = {
    "Bard": "Lark the Busker",
    "Fighter": "Sable Warbrand",
    "Guardian": "Brother Aldous",
    "Ranger": "Fenn Thistlefoot",
    "Thief": "Nib Quickfingers",
    "Wizard": "Pim the Apprentice",
}
CLASS_MONSTER = {
    "Bard": "Siren of the Black Lake",
    "Fighter": "Bloodhorn Minotaur",
    "Guardian": "Iron Gargoyle",
    "Ranger": "Thornback Bear",
    "Thief": "The Gilded Mimic",
    "Wizard": "Spellbound Golem",
}
CLASS_LEADER = {
    "Bard": "The Silver Songbird",
    "Fighter": "The Iron Boar",
    "Guardian": "The Stone Warden",
    "Ranger": "The Wild Hawk",
    "Thief": "The Shadow Claw",
    "Wizard": "The Ember Sage",
}

# -- the register of cases ------------------------------------------------------------

Case = Callable[[], None]
CASES: dict[str, Case] = {}
"""Card name -> its test; for a Monster, the test of its skill."""


def case(name: str) -> Callable[[Case], Case]:
    def register(fn: Case) -> Case:
        assert name not in CASES, f"two cases for {name}"
        CASES[name] = fn
        return fn

    return register


def run_case(name: str) -> None:
    if name not in CASES:
        pytest.fail(f"{name!r} is in the pack but has no case in test_cards.py: write one")
    CASES[name]()


# -- small moves ----------------------------------------------------------------------


def split(total: int) -> tuple[int, int]:
    """Two dice that add up to `total` (2-12)."""
    first = max(1, total - 6)
    return first, total - first


def pass_modifiers(st: HereToSlayState) -> None:
    while st.stack and st.stack[-1].kind == "modifier":
        act(st, "pass")


def roll_hero(
    st: HereToSlayState,
    hero: int,
    total: int,
    target: int | None = None,
    aim: int | tuple[int, ...] | None = None,
) -> None:
    """Roll for a Hero of the current seat: choose its player and name the cards it
    takes (`aim`, one or several, in the order asked), then let every Modifier window
    close unused."""
    seat = st.current
    dice(st, *split(total))
    act(st, f"roll:{hero}")
    if target is not None:
        choose(st, target)
    for card in (aim,) if isinstance(aim, int) else aim or ():
        assert decision(st) == (seat, "aim")
        act(st, f"pick:{card}")
    pass_modifiers(st)


def attack(st: HereToSlayState, m: int, total: int) -> None:
    dice(st, *split(total))
    act(st, f"attack:{m}")
    pass_modifiers(st)


def picks(st: HereToSlayState) -> set[str]:
    return set(texts(st))


def pick_texts(*cards: int) -> set[str]:
    return {f"pick:{c}" for c in cards}


def name_of(st: HereToSlayState, card: int) -> str:
    return st.catalog.cards[card].name


def end_turns(st: HereToSlayState, count: int) -> None:
    for _ in range(count):
        act(st, "end")


def of_kind(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


# -- Heroes: SEARCH ---------------------------------------------------------------------

KIND_EXAMPLES = {
    "hero": ("Lark the Busker", "Sable Warbrand"),
    "item": ("Band of Fortune", "Straw Double"),
    "cursed_item": ("Leaden Gauntlet", "Binding Chains"),
    "magic": ("Fireball", "Tempest"),
    "modifier": ("Fickle Fortune", "Hex of Weakness"),
    "challenge": ("Not So Fast!",),
}
"""Cards of each kind put in the discard pile for a SEARCH (distinct names)."""


def search_case(
    hero_name: str, roll: int, kinds: tuple[str, ...], count: int = 1, then_draws: int = 0
) -> HereToSlayState:
    """Every kind of card lies in the discard pile; the Hero offers exactly those of
    `kinds`, its player takes `count` of them into hand, then DRAWs `then_draws`."""
    st = new_game(leaders=PLAIN)
    (hero,) = field(st, 0, hero_name)
    wanted: list[int] = []
    for kind, names in KIND_EXAMPLES.items():
        for n in names:
            card = take(st, n)
            st.discard.append(card)
            if kind in kinds:
                wanted.append(card)
    pile = st.discard[:]
    top = on_top(st, "Arcane Surge", "Gust of Recall", "Raise the Fallen")[:then_draws]
    roll_hero(st, hero, roll)
    taken = []
    for _ in range(count):
        assert decision(st) == (0, "pick")
        assert picks(st) == pick_texts(*(c for c in wanted if c not in taken))
        taken.append(min(c for c in wanted if c not in taken))
        act(st, f"pick:{taken[-1]}")
    assert st.hands[0] == [*taken, *top]
    assert st.discard == [c for c in pile if c not in taken]
    assert decision(st) == (0, "turn") and st.ap == 2
    return st


@case("Corwin Lutehand")
def corwin() -> None:
    search_case("Corwin Lutehand", 7, ("modifier",))


@case("Orrin Chorusborn")
def orrin() -> None:
    search_case("Orrin Chorusborn", 8, ("modifier",), then_draws=1)


@case("Brannoc the Brawler")
def brannoc() -> None:
    search_case("Brannoc the Brawler", 4, ("challenge",))


@case("Brother Aldous")
def aldous() -> None:
    # "an Item card": Items and Cursed Items both.
    search_case("Brother Aldous", 5, ("item", "cursed_item"))


@case("Gideon Oakenshield")
def gideon() -> None:
    search_case("Gideon Oakenshield", 8, ("hero",))


@case("Ysolde of the Wall")
def ysolde() -> None:
    search_case("Ysolde of the Wall", 8, ("challenge",), then_draws=1)


@case("Fenn Thistlefoot")
def fenn() -> None:
    search_case("Fenn Thistlefoot", 5, ("modifier",))


@case("Ash of the Hollow")
def ash() -> None:
    search_case("Ash of the Hollow", 6, ("magic",))


@case("Tove Farstrider")
def tove() -> None:
    search_case("Tove Farstrider", 7, tuple(KIND_EXAMPLES))


@case("Ilsa Greenmantle")
def ilsa() -> None:
    search_case("Ilsa Greenmantle", 8, ("modifier",), then_draws=1)


@case("Nyra Swiftarrow")
def nyra() -> None:
    search_case("Nyra Swiftarrow", 9, tuple(KIND_EXAMPLES), count=2)


@case("Elspeth Inkwell")
def elspeth() -> None:
    search_case("Elspeth Inkwell", 6, ("magic",))


@case("Roderick Bastion")
def roderick() -> None:
    st = new_game(leaders=PLAIN)
    (roderick,) = field(st, 0, "Roderick Bastion")
    lark, fireball = take(st, "Lark the Busker"), take(st, "Fireball")
    st.discard += [fireball, lark]
    roll_hero(st, roderick, 9)
    assert decision(st) == (0, "pick") and picks(st) == pick_texts(lark)
    act(st, f"pick:{lark}")
    assert decision(st) == (0, "play_now") and texts(st) == [f"play:{lark}", "skip"]
    act(st, f"play:{lark}")
    assert st.parties[0] == [roderick, lark] and st.ap == 2, "played at once: no action point"
    assert decision(st) == (0, "free_roll") and st.discard == [fireball]
    # "You may": declining leaves the Hero in hand.
    st = new_game(leaders=PLAIN)
    (roderick,) = field(st, 0, "Roderick Bastion")
    lark = take(st, "Lark the Busker")
    st.discard.append(lark)
    roll_hero(st, roderick, 9)
    act(st, f"pick:{lark}")
    act(st, "skip")
    assert st.hands[0] == [lark] and st.parties[0] == [roderick] and st.ap == 2


@case("Zephyrine Starcaller")
def zephyrine() -> None:
    st = new_game(leaders=PLAIN)
    (zeph,) = field(st, 0, "Zephyrine Starcaller")
    surge, lark = take(st, "Arcane Surge"), take(st, "Lark the Busker")
    st.discard += [lark, surge]
    top = on_top(st, "Fireball", "Tempest")
    roll_hero(st, zeph, 10)
    assert decision(st) == (0, "pick") and picks(st) == pick_texts(surge)
    act(st, f"pick:{surge}")
    assert decision(st) == (0, "play_now") and texts(st) == [f"play:{surge}", "skip"]
    act(st, f"play:{surge}")
    assert st.hands[0] == top, "Arcane Surge played at once: DRAW 2"
    assert st.discard == [lark, surge] and st.ap == 2


# -- Heroes: DRAW and DISCARD -----------------------------------------------------------


@case("Lark the Busker")
def lark() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Lark the Busker")
    top = on_top(st, "Fireball")
    roll_hero(st, hero, 2)
    assert st.hands[0] == top and st.ap == 2 and decision(st) == (0, "turn")


@case("Pim the Apprentice")
def pim() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Pim the Apprentice")
    top = on_top(st, "Fireball")
    roll_hero(st, hero, 5)
    assert st.hands[0] == top and st.ap == 2


@case("Mordaine Ashbrook")
def mordaine() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Mordaine Ashbrook")
    top = on_top(st, "Fireball", "Tempest", "Arcane Surge")
    roll_hero(st, hero, 7)
    assert st.hands[0] == top[:2] and st.deck[-1] == top[2]


def draw_two_discard_one(hero_name: str, roll: int) -> None:
    st = new_game()
    (hero,) = field(st, 0, hero_name)
    (kept,) = give(st, 0, "Gust of Recall")
    top = on_top(st, "Fireball", "Tempest")
    roll_hero(st, hero, roll)
    assert decision(st) == (0, "pick"), "the roller chooses what to discard"
    assert picks(st) == pick_texts(kept, *top), "after drawing both"
    act(st, f"pick:{top[0]}")
    assert st.hands[0] == [kept, top[1]] and st.discard == [top[0]]
    assert decision(st) == (0, "turn")


@case("Pippa Reedsong")
def pippa() -> None:
    draw_two_discard_one("Pippa Reedsong", 6)


@case("Fizzwick the Flustered")
def fizzwick() -> None:
    draw_two_discard_one("Fizzwick the Flustered", 6)


@case("Tamsin Silvertongue")
def tamsin() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Tamsin Silvertongue")
    theirs, mine = on_top(st, "Fireball", "Tempest")
    dice(st, 3, 4)
    act(st, f"roll:{hero}")
    assert decision(st) == (0, "target")
    assert set(texts(st)) == {"target:1", "target:2", "target:3"}, "any player, you too"
    choose(st, 2)
    assert st.hands[2] == [theirs] and st.hands[0] == [mine] and st.hands[1] == []


@case("Vesper Nightchord")
def vesper() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Vesper Nightchord")
    fickle, fireball = give(st, 1, "Fickle Fortune", "Fireball")
    hex_, tempest = give(st, 2, "Hex of Weakness", "Tempest")
    top = on_top(st, "Arcane Surge")
    roll_hero(st, hero, 8)
    assert decision(st) == (1, "pick") and texts(st) == [f"pick:{fickle}"], "only a Modifier"
    act(st, f"pick:{fickle}")
    assert decision(st) == (2, "pick") and texts(st) == [f"pick:{hex_}"]
    act(st, f"pick:{hex_}")
    assert st.hands[1] == [fireball] and st.hands[2] == [tempest]
    assert st.discard == [fickle, hex_] and st.hands[0] == top
    # An opponent without a Modifier is not asked.
    st = new_game()
    (hero,) = field(st, 0, "Vesper Nightchord")
    (fireball,) = give(st, 1, "Fireball")
    (hex_,) = give(st, 2, "Hex of Weakness")
    roll_hero(st, hero, 8)
    assert decision(st) == (2, "pick")
    act(st, f"pick:{hex_}")
    assert st.hands[1] == [fireball] and len(st.hands[0]) == 1


@case("Hobb Two-Fists")
def hobb() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Hobb Two-Fists")
    (fireball,) = give(st, 1, "Fireball")
    (tempest,) = give(st, 2, "Tempest")
    top = on_top(st, "Arcane Surge")
    roll_hero(st, hero, 5, target=1)
    assert st.hands[0] == top
    assert decision(st) == (1, "pick") and texts(st) == [f"pick:{fireball}"]
    act(st, f"pick:{fireball}")
    assert st.hands[1] == [] and st.discard == [fireball] and st.hands[2] == [tempest]


@case("Jory Cutpurse")
def jory() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Jory Cutpurse")
    fireball, tempest = give(st, 2, "Fireball", "Tempest")
    (kept,) = give(st, 1, "Gust of Recall")
    top = on_top(st, "Arcane Surge")
    roll_hero(st, hero, 6, target=2)
    assert decision(st) == (2, "pick"), "the opponent chooses what to discard"
    assert picks(st) == pick_texts(fireball, tempest)
    act(st, f"pick:{tempest}")
    assert st.hands[2] == [fireball] and st.discard == [tempest]
    assert st.hands[0] == top and st.hands[1] == [kept]


@case("Balthus Emberstaff")
def balthus() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Balthus Emberstaff")
    one, two = give(st, 1, "Fireball", "Tempest")
    (three,) = give(st, 2, "Gust of Recall")
    top = on_top(st, "Arcane Surge", "Raise the Fallen")
    roll_hero(st, hero, 10)
    assert decision(st) == (1, "pick") and picks(st) == pick_texts(one, two)
    assert st.hands[0] == [], "each opponent DISCARDS first, then you DRAW"
    act(st, f"pick:{two}")
    assert decision(st) == (2, "pick") and texts(st) == [f"pick:{three}"]
    act(st, f"pick:{three}")
    assert st.hands[1] == [one] and st.hands[2] == [] and st.discard == [two, three]
    assert st.hands[0] == top


@case("Archmage Veyra")
def veyra() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Archmage Veyra")
    (one,) = give(st, 1, "Fireball")
    (two,) = give(st, 2, "Tempest")
    top = on_top(st, "Arcane Surge", "Raise the Fallen", "Gust of Recall")
    roll_hero(st, hero, 11)
    assert st.hands[0] == top, "DRAW 3 first"
    assert decision(st) == (1, "pick")
    act(st, f"pick:{one}")
    assert decision(st) == (2, "pick")
    act(st, f"pick:{two}")
    assert st.hands[1] == st.hands[2] == [] and st.discard == [one, two]


# -- Heroes: bonuses, action points and Monsters ---------------------------------------


@case("Mirabel of the Masks")
def mirabel() -> None:
    st = new_game()
    hero, pim = field(st, 0, "Mirabel of the Masks", "Pim the Apprentice")
    (ogre,) = set_row(st, "Grimtooth Ogre")
    assert GAME.odds(st, Action("roll", pim)) == {"success": 30 / 36}
    roll_hero(st, hero, 7)
    assert GAME.odds(st, Action("roll", pim)) == {"success": 33 / 36}, "+1 on a Hero roll"
    attack(st, ogre, 7)
    assert st.slain[0] == [ogre], "7 + 1 meets the Ogre's 8+"
    end_turns(st, 2)  # the turn passed when the points ran out
    assert decision(st) == (0, "turn")
    assert GAME.odds(st, Action("roll", pim)) == {"success": 30 / 36}, "gone next turn"


@case("Quill the Chronomancer")
def quill() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Quill the Chronomancer")
    roll_hero(st, hero, 10)
    assert st.ap == 4, "3 - 1 for the roll + 2"
    act(st, "end")
    assert decision(st) == (1, "turn") and st.ap == 3


@case("Wren Mossbow")
def wren() -> None:
    st = new_game()
    hero, pim = field(st, 0, "Wren Mossbow", "Pim the Apprentice")
    ogre, bear = set_row(st, "Grimtooth Ogre", "Thornback Bear")
    st.ap = 5  # enough for two ATTACKs after the roll
    roll_hero(st, hero, 5)
    assert GAME.odds(st, Action("roll", pim)) == {"success": 30 / 36}, "Hero rolls: no +2"
    attack(st, ogre, 6)
    assert st.slain[0] == [ogre], "6 + 2 meets 8+"
    assert GAME.odds(st, Action("attack", bear))["slay"] == 15 / 36, "only the next ATTACK"
    attack(st, bear, 6)
    assert bear in st.row and st.slain[0] == [ogre]


@case("Hale Deadeye")
def hale() -> None:
    st = new_game()
    hero, _ = field(st, 0, "Hale Deadeye", "Pim the Apprentice")
    ogre, colossus = set_row(st, "Grimtooth Ogre", "The Bone Colossus")
    dice(st, 4, 6, 4, 4)
    act(st, f"roll:{hero}")
    assert decision(st) == (0, "pick")
    assert texts(st) == [f"pick:{ogre}"], "the Colossus needs 3 Heroes"
    act(st, f"pick:{ogre}")
    pass_modifiers(st)
    assert st.slain[0] == [ogre] and colossus in st.row
    assert st.ap == 2, "the ATTACK costs no action points"


@case("Corran Wolfkin")
def corran() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Corran Wolfkin")
    row = set_row(st, "Grimtooth Ogre", "The Gloom Wisp", "Thornback Bear")
    top = st.monster_deck[-1]
    roll_hero(st, hero, 8)
    assert decision(st) == (0, "pick") and picks(st) == pick_texts(*row)
    act(st, f"pick:{row[0]}")
    assert st.row == [top, row[1], row[2]] and st.monster_deck[0] == row[0]
    assert len(st.monster_deck) == len(CONTENT.monster) - 3


@case("Aurelian the Encore")
def aurelian() -> None:
    st = new_game()
    hero, lark = field(st, 0, "Aurelian the Encore", "Lark the Busker")
    first, second = on_top(st, "Fireball", "Tempest")
    roll_hero(st, lark, 2)
    assert st.hands[0] == [first]
    dice(st, 4, 5, 1, 1)
    act(st, f"roll:{hero}")
    assert decision(st) == (0, "pick") and texts(st) == [f"pick:{lark}"], "not itself"
    act(st, f"pick:{lark}")
    assert st.hands[0] == [first, second], "Lark rolled again, at once"
    assert st.ap == 1, "two paid rolls; the encore's roll is free"


# -- Heroes: DESTROY, SACRIFICE, STEAL, RETURN, PULL --------------------------------


def destroy_case(hero_name: str, roll: int, then_draws: int = 0) -> HereToSlayState:
    st = new_game()
    (hero,) = field(st, 0, hero_name)
    victim, other = field(st, 1, "Nib Quickfingers", "Sly Merrit")
    (safe,) = field(st, 2, "Lark the Busker")
    band = equip(st, victim, "Band of Fortune")
    top = on_top(st, "Fireball")[:then_draws]
    dice(st, *split(roll))
    act(st, f"roll:{hero}")
    assert decision(st) == (0, "target") and set(texts(st)) == {"target:2", "target:3"}
    choose(st, 1)
    assert decision(st) == (0, "aim") and picks(st) == pick_texts(victim, other)
    act(st, f"pick:{victim}")
    pass_modifiers(st)
    assert st.parties[1] == [other] and st.parties[2] == [safe]
    assert victim in st.discard and band in st.discard, "the Item goes along"
    assert victim not in st.equipped
    assert st.hands[0] == top
    return st


@case("Sable Warbrand")
def sable() -> None:
    destroy_case("Sable Warbrand", 7)


@case("Dorn Skullsplitter")
def dorn() -> None:
    destroy_case("Dorn Skullsplitter", 8, then_draws=1)


@case("Valka Stormblade")
def valka() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Valka Stormblade")
    (victim,) = field(st, 1, "Nib Quickfingers")
    fireball, tempest = give(st, 1, "Fireball", "Tempest")
    (kept,) = give(st, 2, "Gust of Recall")
    roll_hero(st, hero, 8, target=1, aim=victim)
    assert st.parties[1] == [] and victim in st.discard
    assert decision(st) == (1, "pick"), "its owner chooses the card to discard"
    assert picks(st) == pick_texts(fireball, tempest)
    act(st, f"pick:{fireball}")
    assert st.hands[1] == [tempest] and st.discard == [victim, fireball]
    assert st.hands[2] == [kept]


@case("Thorgrim Doomhammer")
def thorgrim() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Thorgrim Doomhammer")
    a, b, c = field(st, 1, "Nib Quickfingers", "Sly Merrit", "Jory Cutpurse")
    (safe,) = field(st, 2, "Lark the Busker")
    dice(st, 5, 5)
    act(st, f"roll:{hero}")
    act(st, "target:2")
    assert decision(st) == (0, "aim") and picks(st) == pick_texts(a, b, c)
    act(st, f"pick:{b}")
    assert decision(st) == (0, "aim") and picks(st) == pick_texts(a, c), "the second"
    act(st, f"pick:{c}")
    pass_modifiers(st)
    assert st.parties[1] == [a] and st.discard == [b, c] and st.parties[2] == [safe]


@case("Gretta Ironjaw")
def gretta() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Gretta Ironjaw")
    nib, sly = field(st, 1, "Nib Quickfingers", "Sly Merrit")
    band = equip(st, nib, "Band of Fortune")
    gauntlet = equip(st, sly, "Leaden Gauntlet")
    dice(st, 2, 3)
    act(st, f"roll:{hero}")
    choose(st, 1)
    # The data says `what = "item"`, an Item that is not cursed; the card's text says
    # only "an Item" (Kael and Sly say "(not a Cursed Item)" where they mean it).
    assert decision(st) == (0, "aim") and texts(st) == [f"pick:{band}"]
    act(st, f"pick:{band}")
    pass_modifiers(st)
    assert st.discard == [band] and st.parties[1] == [nib, sly], "the Hero stays"
    assert st.equipped == {sly: gauntlet}


@case("Kael the Unbowed")
def kael() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Kael the Unbowed")
    nib, sly = field(st, 1, "Nib Quickfingers", "Sly Merrit")
    (jory,) = field(st, 2, "Jory Cutpurse")
    band = equip(st, nib, "Band of Fortune")
    copper = equip(st, sly, "Lucky Copper")
    gauntlet = equip(st, jory, "Leaden Gauntlet")
    roll_hero(st, hero, 7)
    assert decision(st) == (1, "pick"), "each opponent chooses their own Item"
    assert picks(st) == pick_texts(band, copper)
    act(st, f"pick:{copper}")
    assert st.discard == [copper] and st.equipped == {nib: band, jory: gauntlet}
    assert st.parties[1] == [nib, sly] and st.parties[2] == [jory]
    assert decision(st) == (0, "turn"), "seat 2 has only a Cursed Item: nothing to do"


@case("Hesta Shieldwall")
def hesta() -> None:
    st = new_game()
    hero, pim = field(st, 0, "Hesta Shieldwall", "Pim the Apprentice")
    band = equip(st, hero, "Band of Fortune")
    gauntlet = equip(st, pim, "Leaden Gauntlet")
    (nib,) = field(st, 1, "Nib Quickfingers")
    roll_hero(st, hero, 4)  # 4 + 2 from the Band meets 6+
    assert decision(st) == (0, "pick") and texts(st) == [f"pick:{gauntlet}"]
    act(st, f"pick:{gauntlet}")
    assert st.hands[0] == [gauntlet] and st.parties[0] == [hero, pim]
    assert st.equipped == {hero: band}
    assert f"play:{gauntlet},{nib}" in texts(st), "to curse someone else later"


def warded_game() -> tuple[HereToSlayState, int, int]:
    """Seat 0 wards Pim with Oswin and ends its turn: seat 1 is to play."""
    st = new_game()
    oswin, pim = field(st, 0, "Oswin the Steadfast", "Pim the Apprentice")
    roll_hero(st, oswin, 6)
    assert decision(st) == (0, "pick") and picks(st) == pick_texts(oswin, pim), "itself too"
    act(st, f"pick:{pim}")
    assert GAME.view(st, 1)["table"][0]["party"][1]["warded"] is True
    act(st, "end")
    return st, oswin, pim


@case("Oswin the Steadfast")
def oswin() -> None:
    for name in ("Corvin Blackglove", "Mara Lanternbearer", "Sable Warbrand"):
        st, oswin, pim = warded_game()
        (hero,) = field(st, 1, name)  # STEAL, RETURN, DESTROY a Hero
        dice(st, 6, 6)
        act(st, f"roll:{hero}")
        choose(st, 0)
        assert texts(st) == [f"pick:{oswin}"], f"{name} cannot choose the warded Hero"
        act(st, f"pick:{oswin}")
        assert st.parties[0] == [pim], f"{name} takes the other one"
    st, oswin, pim = warded_game()
    (fireball,) = give(st, 1, "Fireball")
    act(st, f"play:{fireball}")
    choose(st, 0)
    assert texts(st) == [f"pick:{oswin}"], "nor a Magic card"
    act(st, f"pick:{oswin}")
    assert st.parties[0] == [pim]
    end_turns(st, 2)
    assert decision(st) == (0, "turn") and st.wards == {}, "until your next turn"
    assert GAME.view(st, 1)["table"][0]["party"][0]["warded"] is False


@case("Mara Lanternbearer")
def mara() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Mara Lanternbearer")
    nib, sly = field(st, 1, "Nib Quickfingers", "Sly Merrit")
    band = equip(st, nib, "Band of Fortune")
    roll_hero(st, hero, 7, target=1, aim=nib)
    assert st.parties[1] == [sly] and sorted(st.hands[1]) == sorted([nib, band])
    assert nib not in st.equipped and st.hands[0] == []


@case("Seraphine Dawnward")
def seraphine() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Seraphine Dawnward")
    nib, sly = field(st, 1, "Nib Quickfingers", "Sly Merrit")
    (lark,) = field(st, 2, "Lark the Busker")
    band = equip(st, lark, "Band of Fortune")
    dice(st, 5, 4)
    act(st, f"roll:{hero}")
    assert decision(st) == (0, "aim") and picks(st) == pick_texts(nib, sly)
    act(st, f"pick:{sly}")
    assert decision(st) == (0, "aim") and texts(st) == [f"pick:{lark}"], "each opponent's"
    act(st, f"pick:{lark}")
    pass_modifiers(st)
    assert st.parties[1] == [nib] and st.hands[1] == [sly]
    assert st.parties[2] == [] and sorted(st.hands[2]) == sorted([lark, band])


@case("Nib Quickfingers")
def nib() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Nib Quickfingers")
    (card,) = give(st, 2, "Fireball")
    (kept,) = give(st, 1, "Tempest")
    roll_hero(st, hero, 6, target=2)
    assert st.hands[0] == [card] and st.hands[2] == [] and st.hands[1] == [kept]


@case("Vex Shadowstep")
def vex() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Vex Shadowstep")
    cards = give(st, 1, "Fireball", "Tempest", "Gust of Recall")
    roll_hero(st, hero, 7, target=1)
    assert len(st.hands[0]) == 2 and len(st.hands[1]) == 1
    assert sorted(st.hands[0] + st.hands[1]) == sorted(cards)


@case("Dessa Silkpurse")
def dessa() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Dessa Silkpurse")
    (one,) = give(st, 1, "Fireball")
    (two,) = give(st, 2, "Tempest")
    roll_hero(st, hero, 9)
    assert sorted(st.hands[0]) == sorted([one, two]) and st.hands[1] == st.hands[2] == []


@case("Lira Nightveil")
def lira() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Lira Nightveil")
    fireball, tempest = give(st, 1, "Fireball", "Tempest")
    roll_hero(st, hero, 8, target=1)
    assert decision(st) == (0, "pick") and picks(st) == pick_texts(fireball, tempest)
    shown = GAME.view(st, 0)["decision"]["looking_at"]
    assert {c["id"] for c in shown} == {fireball, tempest}
    act(st, f"pick:{tempest}")
    assert st.hands[0] == [tempest] and st.hands[1] == [fireball]


@case("Sly Merrit")
def sly() -> None:
    st = new_game()
    hero, pim = field(st, 0, "Sly Merrit", "Pim the Apprentice")
    nib, jory = field(st, 1, "Nib Quickfingers", "Jory Cutpurse")
    copper = equip(st, nib, "Lucky Copper")
    gauntlet = equip(st, jory, "Leaden Gauntlet")
    dice(st, 3, 3)
    act(st, f"roll:{hero}")
    choose(st, 1)
    assert texts(st) == [f"pick:{copper}"], "not a Cursed Item"
    act(st, f"pick:{copper}")
    pass_modifiers(st)
    assert decision(st) == (0, "pick"), "which of your Heroes gets it"
    assert picks(st) == {f"pick:{copper},{hero}", f"pick:{copper},{pim}"}
    act(st, f"pick:{copper},{pim}")
    assert st.equipped == {pim: copper, jory: gauntlet}
    assert st.parties[1] == [nib, jory] and st.parties[0] == [hero, pim]


@case("Corvin Blackglove")
def corvin() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Corvin Blackglove")
    nib, sly = field(st, 2, "Nib Quickfingers", "Sly Merrit")
    band = equip(st, nib, "Band of Fortune")
    roll_hero(st, hero, 9, target=2, aim=nib)
    assert st.parties[0] == [hero, nib] and st.equipped == {nib: band}
    assert st.parties[2] == [sly]


@case("Raskin the Unseen")
def raskin() -> None:
    st = new_game()
    (hero,) = field(st, 0, "Raskin the Unseen")
    (nib,) = field(st, 1, "Nib Quickfingers")
    (fireball,) = give(st, 1, "Fireball")
    (sly,) = field(st, 2, "Sly Merrit")
    (tempest,) = give(st, 2, "Tempest")
    roll_hero(st, hero, 10, target=1, aim=nib)
    assert st.parties[0] == [hero, nib] and st.hands[0] == [fireball], "the same player"
    assert st.parties[1] == [] and st.hands[1] == []
    assert st.parties[2] == [sly] and st.hands[2] == [tempest]


# -- Items ------------------------------------------------------------------------------


def mask_case(mask: str, cls: str) -> None:
    """The Hero wearing the mask fills Monster requirements as the mask's class, and no
    longer as its own."""
    i = CLASS_ORDER.index(cls)
    own, companion, lead, *others = (CLASS_ORDER[(i + k) % 6] for k in range(1, 6))
    st = new_game(3, (CLASS_LEADER[lead], *(CLASS_LEADER[o] for o in others)))
    wearer, friend = field(st, 0, CLASS_HERO[own], CLASS_HERO[companion])
    (opponent,) = field(st, 1, CLASS_HERO[lead])
    wanted, was, stays = set_row(
        st, CLASS_MONSTER[cls], CLASS_MONSTER[own], CLASS_MONSTER[companion]
    )
    assert f"attack:{wanted}" not in texts(st) and f"attack:{was}" in texts(st)
    (card,) = give(st, 0, mask)
    plays = {t for t in texts(st) if t.startswith(f"play:{card}")}
    assert plays == {f"play:{card},{wearer}", f"play:{card},{friend}"}, "your own Heroes"
    assert f"play:{card},{opponent}" not in plays
    act(st, f"play:{card},{wearer}")
    assert st.equipped == {wearer: card} and st.ap == 2
    legal = texts(st)
    assert f"attack:{wanted}" in legal and f"attack:{stays}" in legal
    assert f"attack:{was}" not in legal, "instead of its own class"
    assert GAME.view(st, 0)["table"][0]["party"][0]["class"] == cls


@case("Mask of the Minstrel")
def minstrel() -> None:
    mask_case("Mask of the Minstrel", "Bard")


@case("Mask of the Warlord")
def warlord() -> None:
    mask_case("Mask of the Warlord", "Fighter")


@case("Mask of the Sentinel")
def sentinel() -> None:
    mask_case("Mask of the Sentinel", "Guardian")


@case("Mask of the Wilds")
def wilds() -> None:
    mask_case("Mask of the Wilds", "Ranger")


@case("Mask of the Shade")
def shade() -> None:
    mask_case("Mask of the Shade", "Thief")


@case("Mask of the Arcane")
def arcane() -> None:
    mask_case("Mask of the Arcane", "Wizard")


@case("Band of Fortune")
def band() -> None:
    st = new_game()
    pim, mordaine = field(st, 0, "Pim the Apprentice", "Mordaine Ashbrook")
    (nib,) = field(st, 1, "Nib Quickfingers")
    (card,) = give(st, 0, "Band of Fortune")
    assert f"play:{card},{nib}" not in texts(st), "only on your own Heroes"
    act(st, f"play:{card},{pim}")
    assert st.equipped == {pim: card}
    top = on_top(st, "Fireball")
    roll_hero(st, pim, 3)
    assert st.hands[0] == top, "1 + 2 + 2 meets 5+"
    roll_hero(st, mordaine, 6)
    assert st.hands[0] == top, "the Band helps only its own Hero: 6 misses 7+"


@case("Lucky Copper")
def copper() -> None:
    st = new_game()
    pim, mordaine = field(st, 0, "Pim the Apprentice", "Mordaine Ashbrook")
    equip(st, pim, "Lucky Copper")
    equip(st, mordaine, "Lucky Copper")
    first, second, third = on_top(st, "Fireball", "Tempest", "Gust of Recall")
    roll_hero(st, pim, 2)
    assert st.hands[0] == [first], "a failed roll: DRAW a card"
    roll_hero(st, mordaine, 7)
    assert st.hands[0] == [first, second, third], "a success: only the Hero's DRAW 2"


@case("Straw Double")
def straw_double() -> None:
    st = new_game()
    (sable,) = field(st, 0, "Sable Warbrand")
    (nib,) = field(st, 1, "Nib Quickfingers")
    double = equip(st, nib, "Straw Double")
    roll_hero(st, sable, 7, target=1, aim=nib)
    assert st.parties[1] == [nib] and st.discard == [double] and st.equipped == {}
    # Sacrificed (the Ogre's punishment): the same.
    st = new_game()
    lark, pim = field(st, 0, "Lark the Busker", "Pim the Apprentice")
    double = equip(st, lark, "Straw Double")
    (ogre,) = set_row(st, "Grimtooth Ogre")
    attack(st, ogre, 2)
    assert decision(st) == (0, "pick") and picks(st) == pick_texts(lark, pim)
    act(st, f"pick:{lark}")
    assert st.parties[0] == [lark, pim] and st.discard == [double] and st.equipped == {}


@case("Leaden Gauntlet")
def gauntlet() -> None:
    st = new_game()
    (mine,) = field(st, 0, "Lark the Busker")
    (pim,) = field(st, 1, "Pim the Apprentice")
    (card,) = give(st, 0, "Leaden Gauntlet")
    assert {t for t in texts(st) if t.startswith("play:")} == {
        f"play:{card},{mine}",
        f"play:{card},{pim}",
    }, "a Cursed Item goes on any Hero"
    act(st, f"play:{card},{pim}")
    assert st.equipped == {pim: card} and st.parties[1] == [pim]
    end_turns(st, 1)
    assert GAME.odds(st, Action("roll", pim)) == {"success": 21 / 36}, "7+ in effect"
    roll_hero(st, pim, 6)
    assert st.hands[1] == [], "6 - 2 misses 5+"


@case("Binding Chains")
def chains() -> None:
    st = new_game()
    (lark,) = field(st, 0, "Lark the Busker")
    pim, encore = field(st, 1, "Pim the Apprentice", "Aurelian the Encore")
    (card,) = give(st, 0, "Binding Chains")
    act(st, f"play:{card},{pim}")
    assert st.equipped == {pim: card} and f"roll:{lark}" in texts(st)
    end_turns(st, 1)
    assert f"roll:{pim}" not in texts(st) and f"roll:{encore}" in texts(st)
    with pytest.raises(IllegalAction):
        act(st, f"roll:{pim}")
    roll_hero(st, encore, 9)
    assert decision(st) == (1, "turn") and st.hands[1] == [], "no encore for it either"


@case("Hourglass of Ruin")
def hourglass() -> None:
    st = new_game()
    pim, lark = field(st, 0, "Pim the Apprentice", "Lark the Busker")
    glass = equip(st, pim, "Hourglass of Ruin")
    roll_hero(st, pim, 4)
    assert st.parties[0] == [pim, lark] and st.equipped == {pim: glass}, "a failure: stays"
    end_turns(st, 3)
    top = on_top(st, "Fireball")
    roll_hero(st, pim, 5)
    assert st.hands[0] == top, "the effect happens first"
    assert st.parties[0] == [lark] and st.discard == [pim, glass] and st.equipped == {}


# -- Magic ------------------------------------------------------------------------------


def cast(st: HereToSlayState, name: str) -> int:
    (card,) = give(st, 0, name)
    act(st, f"play:{card}")
    return card


@case("Arcane Surge")
def surge() -> None:
    st = new_game(leaders=PLAIN)
    top = on_top(st, "Fireball", "Tempest")
    card = cast(st, "Arcane Surge")
    assert st.hands[0] == top and st.discard == [card] and st.ap == 2


@case("Fireball")
def fireball() -> None:
    st = new_game(leaders=PLAIN)
    nib, sly = field(st, 1, "Nib Quickfingers", "Sly Merrit")
    band = equip(st, sly, "Band of Fortune")
    (lark,) = field(st, 2, "Lark the Busker")
    card = cast(st, "Fireball")
    assert decision(st) == (0, "target") and set(texts(st)) == {"target:2", "target:3"}
    act(st, "target:2")
    assert decision(st) == (0, "pick") and picks(st) == pick_texts(nib, sly)
    act(st, f"pick:{sly}")
    assert st.parties[1] == [nib] and st.discard == [sly, band, card] and st.ap == 2
    assert st.parties[2] == [lark]


@case("Whispered Bargain")
def bargain() -> None:
    st = new_game(leaders=PLAIN)
    (theirs,) = give(st, 2, "Tempest")
    top = on_top(st, "Gust of Recall")
    card = cast(st, "Whispered Bargain")
    choose(st, 2)
    assert st.hands[0] == [theirs, *top] and st.hands[2] == [] and st.discard == [card]


@case("Raise the Fallen")
def raise_the_fallen() -> None:
    st = new_game(leaders=PLAIN)
    lark, fireball = take(st, "Lark the Busker"), take(st, "Fireball")
    st.discard += [lark, fireball]
    card = cast(st, "Raise the Fallen")
    assert decision(st) == (0, "pick") and texts(st) == [f"pick:{lark}"], "a Hero only"
    act(st, f"pick:{lark}")
    assert st.hands[0] == [lark] and st.discard == [fireball, card]


@case("Gust of Recall")
def gust() -> None:
    st = new_game(leaders=PLAIN)
    lark, pim = field(st, 0, "Lark the Busker", "Pim the Apprentice")
    band = equip(st, lark, "Band of Fortune")
    (nib,) = field(st, 1, "Nib Quickfingers")
    (sly,) = field(st, 2, "Sly Merrit")
    card = cast(st, "Gust of Recall")
    assert decision(st) == (0, "target")
    assert set(texts(st)) == {"target:1", "target:2", "target:3"}, "yours too"
    act(st, "target:1")
    assert picks(st) == pick_texts(lark, pim)
    act(st, f"pick:{lark}")
    assert st.parties[0] == [pim] and sorted(st.hands[0]) == sorted([lark, band])
    assert st.parties[1] == [nib] and st.parties[2] == [sly]
    assert st.discard == [card] and st.equipped == {}


@case("Forbidden Ritual")
def ritual() -> None:
    st = new_game(leaders=PLAIN)
    lark, pim = field(st, 0, "Lark the Busker", "Pim the Apprentice")
    (nib,) = field(st, 1, "Nib Quickfingers")
    (sly,) = field(st, 2, "Sly Merrit")
    card = cast(st, "Forbidden Ritual")
    assert decision(st) == (0, "pick") and picks(st) == pick_texts(lark, pim)
    act(st, f"pick:{pim}")
    assert st.parties[0] == [lark] and pim in st.discard
    assert decision(st) == (0, "target")
    act(st, "target:2")
    assert texts(st) == [f"pick:{nib}"]
    act(st, f"pick:{nib}")
    assert st.parties[0] == [lark, nib] and st.parties[1] == [] and st.parties[2] == [sly]
    assert st.discard == [pim, card]
    # The SACRIFICE is the price: with no Hero to give, no Hero is taken.
    st = new_game(leaders=PLAIN)
    (nib,) = field(st, 1, "Nib Quickfingers")
    card = cast(st, "Forbidden Ritual")
    assert st.parties == [[], [nib], []] and st.discard == [card]
    assert decision(st) == (0, "turn")


@case("Tempest")
def tempest() -> None:
    st = new_game(leaders=PLAIN)
    one, two, three = give(st, 1, "Fireball", "Arcane Surge", "Gust of Recall")
    (four,) = give(st, 2, "Raise the Fallen")
    card = cast(st, "Tempest")
    assert decision(st) == (1, "pick") and picks(st) == pick_texts(one, two, three)
    act(st, f"pick:{one}")
    assert decision(st) == (1, "pick") and picks(st) == pick_texts(two, three)
    act(st, f"pick:{three}")
    assert decision(st) == (2, "pick") and texts(st) == [f"pick:{four}"]
    act(st, f"pick:{four}")
    assert st.hands[1] == [two] and st.hands[2] == []
    assert st.discard == [one, three, four, card] and decision(st) == (0, "turn")


@case("Hunter's Moon")
def hunters_moon() -> None:
    st = new_game(leaders=PLAIN)
    field(st, 0, "Lark the Busker", "Pim the Apprentice")
    ogre, colossus = set_row(st, "Grimtooth Ogre", "The Bone Colossus")
    dice(st, 4, 4)
    card = cast(st, "Hunter's Moon")
    assert decision(st) == (0, "pick") and texts(st) == [f"pick:{ogre}"]
    act(st, f"pick:{ogre}")
    pass_modifiers(st)
    assert st.slain[0] == [ogre] and colossus in st.row
    assert st.ap == 2 and st.discard == [card], "one point for the card, none for the ATTACK"


# -- Modifiers: every option --------------------------------------------------------------

PUBLISHED_MODIFIERS = {
    "Blessing of Might": (4,),
    "Hex of Weakness": (-4,),
    "Trick of Fate": (3, -1),
    "Twist of Fate": (1, -3),
    "Fickle Fortune": (2, -2),
}
"""What each Modifier offers, from the card faces (shared/facts)."""

MODIFIER_CASES = [
    pytest.param(m.name, amount, id=f"{m.name} {amount:+d}")
    for m in CONTENT.modifier
    for amount in m.options
]


@pytest.mark.parametrize(("name", "amount"), MODIFIER_CASES)
def test_modifier(name: str, amount: int) -> None:
    """An opponent plays it on a 7+ roll it flips: the total moves by exactly `amount`."""
    assert name in PUBLISHED_MODIFIERS, f"{name!r} has no published options in test_cards.py"
    st = new_game(leaders=PLAIN)
    (mordaine,) = field(st, 0, "Mordaine Ashbrook")
    (card,) = give(st, 1, name)
    rolled = 7 - amount if amount > 0 else 6 - amount
    dice(st, *split(rolled))
    act(st, f"roll:{mordaine}")
    assert decision(st) == (1, "modifier")
    offered = {t for t in texts(st) if t.startswith("modify:")}
    assert offered == {f"modify:{card},{o},1" for o in PUBLISHED_MODIFIERS[name]}
    events = act_events(st, f"modify:{card},{amount},1")
    (played,) = of_kind(events, "modifier")
    assert played.data["total"] == rolled + amount and played.data["amount"] == amount
    assert st.hands[1] == [] and st.discard == [card]
    assert decision(st) == (0, "turn"), "nobody holds another Modifier: the window closes"
    assert len(st.hands[0]) == (2 if amount > 0 else 0), "the Modifier decides the roll"


# -- the Challenge card -------------------------------------------------------------------


@case("Not So Fast!")
def not_so_fast() -> None:
    # A Hero: the challenger rolls first; a tie stops the card and the point stays spent.
    st = new_game()
    (lark,) = give(st, 0, "Lark the Busker")
    (challenge,) = give(st, 1, "Not So Fast!")
    act(st, f"play:{lark}")
    assert decision(st) == (1, "challenge") and texts(st) == ["challenge", "pass"]
    dice(st, 4, 4, 5, 3)
    act(st, "challenge")
    assert st.discard == [challenge, lark] and st.parties[0] == [] and st.hands[1] == []
    assert decision(st) == (0, "turn") and st.ap == 2, "no free roll, no point back"
    # An Item: the player rolls higher and the Item goes on.
    st = new_game()
    (pim,) = field(st, 0, "Pim the Apprentice")
    (band,) = give(st, 0, "Band of Fortune")
    (challenge,) = give(st, 2, "Not So Fast!")
    act(st, f"play:{band},{pim}")
    assert decision(st) == (2, "challenge")
    dice(st, 3, 4, 4, 4)
    act(st, "challenge")
    assert st.equipped == {pim: band} and st.discard == [challenge]
    # A Magic card: stopped before its effect.
    st = new_game()
    (victim,) = field(st, 1, "Nib Quickfingers")
    (fireball,) = give(st, 0, "Fireball")
    (challenge,) = give(st, 1, "Not So Fast!")
    act(st, f"play:{fireball}")
    dice(st, 6, 6, 6, 5)
    act(st, "challenge")
    assert st.parties[1] == [victim] and st.discard == [challenge, fireball]
    assert st.hands[0] == [], "the Ember Sage draws only for a Magic card that is played"


# -- Party Leaders ------------------------------------------------------------------------


@case("The Silver Songbird")
def songbird() -> None:
    st = new_game(3, ("The Silver Songbird", "The Shadow Claw", "The Wild Hawk"))
    pim, _ = field(st, 0, "Pim the Apprentice", "Lark the Busker")
    (ogre,) = set_row(st, "Grimtooth Ogre")
    top = on_top(st, "Fireball")
    roll_hero(st, pim, 4)
    assert st.hands[0] == top, "4 + 1 meets 5+"
    attack(st, ogre, 7)
    assert ogre in st.row and st.slain[0] == [], "no +1 on an ATTACK"


@case("The Iron Boar")
def iron_boar() -> None:
    st = new_game(3, PLAIN)
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 1, "Not So Fast!")
    act(st, f"play:{lark}")
    dice(st, 4, 4, 3, 4)
    act(st, "challenge")
    assert st.parties[0] == [lark], "defending: 7 + 2 beats 8"
    act(st, "skip")
    act(st, "end")
    (pim,) = give(st, 1, "Pim the Apprentice")
    give(st, 0, "Not So Fast!")
    act(st, f"play:{pim}")
    assert decision(st) == (0, "challenge")
    dice(st, 3, 3, 4, 4)
    act(st, "challenge")
    assert pim in st.discard and st.parties[1] == [], "challenging: 6 + 2 ties 8 and wins"


@case("The Stone Warden")
def stone_warden() -> None:
    st = new_game(3, ("The Stone Warden", "The Shadow Claw", "The Wild Hawk"))
    (pim,) = field(st, 0, "Pim the Apprentice")
    (fickle,) = give(st, 0, "Fickle Fortune")
    dice(st, 1, 1)
    act(st, f"roll:{pim}")
    assert picks(st) == {
        f"modify:{fickle},2,1,1",
        f"modify:{fickle},2,1,-1",
        f"modify:{fickle},-2,1,1",
        f"modify:{fickle},-2,1,-1",
        "pass",
    }
    events = act_events(st, f"modify:{fickle},2,1,1")
    assert of_kind(events, "modifier")[0].data["total"] == 5
    assert len(st.hands[0]) == 1, "2 + 2 + 1 meets 5+: Pim draws"


@case("The Wild Hawk")
def wild_hawk() -> None:
    st = new_game(3, ("The Wild Hawk", "The Shadow Claw", "The Ember Sage"))
    pim, _ = field(st, 0, "Pim the Apprentice", "Lark the Busker")
    (ogre,) = set_row(st, "Grimtooth Ogre")
    roll_hero(st, pim, 4)
    assert st.hands[0] == [], "no +1 on a Hero roll"
    attack(st, ogre, 7)
    assert st.slain[0] == [ogre], "7 + 1 meets 8+"


@case("The Shadow Claw")
def shadow_claw() -> None:
    st = new_game(3, ("The Shadow Claw", "The Wild Hawk", "The Ember Sage"))
    (kept,) = give(st, 1, "Tempest")
    (card,) = give(st, 2, "Fireball")
    assert "skill:1" in texts(st)
    act(st, "skill:1")
    assert st.ap == 2 and decision(st) == (0, "target") and texts(st) == ["target:2", "target:3"]
    act(st, "target:3")
    assert st.hands[0] == [card] and st.hands[2] == [] and st.hands[1] == [kept]
    assert "skill:1" not in texts(st), "once per turn"
    act(st, "end")
    assert "skill:1" not in texts(st), "only its owner's"


@case("The Ember Sage")
def ember_sage() -> None:
    st = new_game()
    first, second = on_top(st, "Fireball", "Gust of Recall")
    tempest = cast(st, "Tempest")
    assert st.hands[0] == [first]
    (surge,) = give(st, 0, "Arcane Surge")
    third, fourth, fifth = on_top(st, "Raise the Fallen", "Forbidden Ritual", "Hunter's Moon")
    act(st, f"play:{surge}")
    assert st.hands[0] == [first, third, fourth, fifth], "each time: 2 + 1"
    assert st.discard == [tempest, surge] and st.deck[-1] == second


# -- Monsters: requirement, slay and punishment rolls -------------------------------------


@dataclass(frozen=True)
class MonsterSpec:
    """A Monster's published numbers (shared/facts), with Parties that fall one short
    of its requirement and one that meets it exactly."""

    short: tuple[tuple[str, ...], ...]
    enough: tuple[str, ...]
    slay: int
    punish: int
    punishment: str
    """'sacrifice' (a Hero) or 'discard' (2 cards)."""
    inverted: bool = False
    draws: int = 0
    leader: str = "The Ember Sage"


ONE = ("Lark the Busker",)
TWO = ("Lark the Busker", "Sable Warbrand")
THREE = ("Lark the Busker", "Sable Warbrand", "Nib Quickfingers")
FOUR = (*THREE, "Fenn Thistlefoot")

MONSTERS = {
    "Grimtooth Ogre": MonsterSpec((ONE,), TWO, 8, 5, "sacrifice"),
    "The Bone Colossus": MonsterSpec((TWO,), THREE, 7, 6, "sacrifice"),
    "Cinderwing Wyvern": MonsterSpec(((),), ONE, 10, 6, "sacrifice"),
    "Mirefang Basilisk": MonsterSpec((ONE,), TWO, 9, 6, "sacrifice"),
    "The Hollow King": MonsterSpec((TWO,), THREE, 9, 6, "sacrifice", draws=1),
    "Storm Hydra": MonsterSpec((ONE,), TWO, 10, 7, "sacrifice"),
    "Siren of the Black Lake": MonsterSpec(
        (("Sable Warbrand", "Nib Quickfingers"), ONE), TWO, 8, 4, "discard"
    ),
    "The Gloom Wisp": MonsterSpec(((),), ONE, 5, 8, "sacrifice", inverted=True),
    "Thornback Bear": MonsterSpec(
        (TWO, ("Fenn Thistlefoot",)), ("Fenn Thistlefoot", "Lark the Busker"), 8, 4, "discard"
    ),
    "The Ancient Wyrm": MonsterSpec((THREE,), FOUR, 8, 7, "sacrifice", draws=2),
    "Spellbound Golem": MonsterSpec(
        (TWO, ("Pim the Apprentice",)),
        ("Pim the Apprentice", "Lark the Busker"),
        8,
        4,
        "discard",
        leader="The Iron Boar",
    ),
    "Iron Gargoyle": MonsterSpec(
        (TWO, ("Brother Aldous",)), ("Brother Aldous", "Lark the Busker"), 8, 4, "discard"
    ),
    "The Deathless Lich": MonsterSpec(((),), ONE, 11, 7, "sacrifice"),
    "Bloodhorn Minotaur": MonsterSpec(
        (("Lark the Busker", "Nib Quickfingers"), ("Sable Warbrand",)), TWO, 8, 4, "discard"
    ),
    "The Gilded Mimic": MonsterSpec(
        (TWO, ("Nib Quickfingers",)), ("Nib Quickfingers", "Lark the Busker"), 8, 4, "discard"
    ),
}


def outcome(spec: MonsterSpec, total: int) -> str:
    if spec.inverted:
        return "slay" if total <= spec.slay else "punish" if total >= spec.punish else "nothing"
    return "slay" if total >= spec.slay else "punish" if total <= spec.punish else "nothing"


def boundary_totals(spec: MonsterSpec) -> list[int]:
    """Each range's edge and the total just past it, within 2-12."""
    step = 1 if spec.inverted else -1
    totals = {spec.slay, spec.slay + step, spec.punish, spec.punish - step}
    return sorted(t for t in totals if 2 <= t <= 12)


MONSTER_NAMES = [m.name for m in CONTENT.monster]
ROLL_CASES = [
    pytest.param(name, total, id=f"{name} {total} {outcome(MONSTERS[name], total)}")
    for name in MONSTER_NAMES
    if name in MONSTERS
    for total in boundary_totals(MONSTERS[name])
]


def spec_of(name: str) -> MonsterSpec:
    if name not in MONSTERS:
        pytest.fail(f"Monster {name!r} has no published numbers in test_cards.py: add them")
    return MONSTERS[name]


def monster_game(name: str, party: tuple[str, ...]) -> tuple[HereToSlayState, int]:
    spec = spec_of(name)
    st = new_game(3, (spec.leader, "The Shadow Claw", "The Stone Warden"))
    field(st, 0, *party)
    (m,) = set_row(st, name)
    return st, m


@pytest.mark.parametrize("name", MONSTER_NAMES)
def test_monster_requirement(name: str) -> None:
    spec = spec_of(name)
    for short in spec.short:
        st, m = monster_game(name, short)
        assert f"attack:{m}" not in texts(st), f"{short} does not meet the requirement"
    st, m = monster_game(name, spec.enough)
    assert f"attack:{m}" in texts(st)
    st.ap = 1
    assert f"attack:{m}" not in texts(st), "an ATTACK costs two action points"


@pytest.mark.parametrize(("name", "total"), ROLL_CASES)
def test_monster_roll(name: str, total: int) -> None:
    spec = MONSTERS[name]
    st, m = monster_game(name, spec.enough)
    hand = give(st, 0, "Fireball", "Tempest", "Gust of Recall")
    party = st.parties[0][:]
    replacement = st.monster_deck[-1]
    top = on_top(st, "Arcane Surge", "Raise the Fallen")
    attack(st, m, total)
    assert st.ap == 1
    result = outcome(spec, total)
    if result == "slay":
        assert st.slain[0] == [m] and st.row == [replacement]
        assert st.hands[0] == hand + top[: spec.draws], f"draws {spec.draws} on slay"
        assert st.parties[0] == party
    elif result == "nothing":
        assert st.row == [m] and st.parties[0] == party and st.hands[0] == hand
        assert decision(st) == (0, "turn")
    elif spec.punishment == "sacrifice":
        assert st.row == [m] and st.slain[0] == []
        assert decision(st) == (0, "pick") and picks(st) == pick_texts(*party)
        act(st, f"pick:{party[-1]}")
        assert st.parties[0] == party[:-1] and st.discard == [party[-1]]
        assert st.hands[0] == hand
    else:
        assert st.row == [m] and st.slain[0] == []
        for _ in range(2):
            assert decision(st) == (0, "pick")
            act(st, f"pick:{st.hands[0][0]}")
        assert st.hands[0] == hand[2:] and st.discard == hand[:2]
        assert st.parties[0] == party


# -- Monsters: skills -----------------------------------------------------------------


@case("Grimtooth Ogre")
def ogre_skill() -> None:
    st = new_game()
    slain_by(st, 0, "Grimtooth Ogre")
    (pim,) = field(st, 0, "Pim the Apprentice")
    (fickle,) = give(st, 0, "Fickle Fortune")
    (hex_,) = give(st, 1, "Hex of Weakness")
    dice(st, 3, 3)
    act(st, f"roll:{pim}")
    act(st, "pass")
    events = act_events(st, f"modify:{hex_},-4,1")
    assert of_kind(events, "modifier")[0].data["total"] == 3, "6 - 4 + 1"
    assert decision(st) == (0, "modifier")
    events = act_events(st, f"modify:{fickle},2,1")
    assert of_kind(events, "modifier")[0].data["total"] == 5, "your own Modifier: no +1"
    assert len(st.hands[0]) == 1, "5 meets 5+: Pim draws"


@case("The Bone Colossus")
def colossus_skill() -> None:
    st = new_game()
    slain_by(st, 0, "The Bone Colossus")
    pim, _ = field(st, 0, "Pim the Apprentice", "Lark the Busker")
    (ogre,) = set_row(st, "Grimtooth Ogre")
    roll_hero(st, pim, 4)
    assert len(st.hands[0]) == 1, "Hero roll: 4 + 1"
    attack(st, ogre, 7)
    assert st.slain[0][-1] == ogre, "ATTACK roll: 7 + 1"
    st = new_game()
    slain_by(st, 0, "The Bone Colossus")
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 1, "Not So Fast!")
    act(st, f"play:{lark}")
    dice(st, 4, 4, 4, 4)
    act(st, "challenge")
    assert st.parties[0] == [lark], "CHALLENGE roll: 8 + 1 beats the challenger's 8"


@case("Cinderwing Wyvern")
def wyvern_skill() -> None:
    st = new_game()
    slain_by(st, 0, "Cinderwing Wyvern")
    pim, mordaine = field(st, 0, "Pim the Apprentice", "Mordaine Ashbrook")
    top = on_top(st, "Fireball", "Tempest")
    roll_hero(st, mordaine, 6)
    assert st.hands[0] == [], "a failed roll: nothing"
    roll_hero(st, pim, 5)
    assert st.hands[0] == top, "Pim's DRAW, then the Wyvern's"


@case("Mirefang Basilisk")
def basilisk_skill() -> None:
    st = new_game()
    slain_by(st, 0, "Mirefang Basilisk")
    (lark,) = give(st, 0, "Lark the Busker")
    challenge, fireball, tempest = give(st, 1, "Not So Fast!", "Fireball", "Tempest")
    act(st, f"play:{lark}")
    dice(st, 1, 1, 6, 6)
    act(st, "challenge")
    assert decision(st) == (1, "pick"), "the challenger discards"
    assert picks(st) == pick_texts(fireball, tempest)
    act(st, f"pick:{tempest}")
    assert st.hands[1] == [fireball] and st.discard == [challenge, tempest]
    assert st.parties[0] == [lark]


@case("The Hollow King")
def hollow_king_skill() -> None:
    st = new_game()
    slain_by(st, 0, "The Hollow King")
    (sable,) = field(st, 0, "Sable Warbrand")
    (nib,) = field(st, 1, "Nib Quickfingers")
    band = equip(st, nib, "Band of Fortune")
    roll_hero(st, sable, 7, target=1, aim=nib)
    assert decision(st) == (0, "pick"), "you may"
    assert picks(st) == {f"pick:{nib}", f"steal:{nib}"}
    act(st, f"steal:{nib}")
    assert st.parties[0] == [sable, nib] and st.equipped == {nib: band}
    assert st.discard == []


@case("Storm Hydra")
def hydra_skill() -> None:
    st = new_game()
    slain_by(st, 0, "Storm Hydra")
    (pim,) = field(st, 0, "Pim the Apprentice")
    (fickle,) = give(st, 0, "Fickle Fortune")
    (hex_,) = give(st, 1, "Hex of Weakness")
    first, second, third = on_top(st, "Fireball", "Tempest", "Gust of Recall")
    dice(st, 4, 4)
    act(st, f"roll:{pim}")
    act(st, "pass")
    act(st, f"modify:{hex_},-4,1")
    assert st.hands[0] == [fickle, first], "an opponent's Modifier: you DRAW"
    assert st.hands[1] == []
    act(st, f"modify:{fickle},2,1")
    # Your own Modifier: you DRAW; nobody holds another, so the window closes and
    # 4 + 4 - 4 + 2 = 6 meets Pim's 5+.
    assert st.hands[0] == [first, second, third] and st.hands[1] == []


@case("Siren of the Black Lake")
def siren_skill() -> None:
    st = new_game()
    slain_by(st, 0, "Siren of the Black Lake")
    pim, _ = field(st, 0, "Pim the Apprentice", "Lark the Busker")
    (ogre,) = set_row(st, "Grimtooth Ogre")
    roll_hero(st, pim, 4)
    assert len(st.hands[0]) == 1, "4 + 1 meets 5+"
    attack(st, ogre, 7)
    assert ogre in st.row, "no +1 on an ATTACK"


@case("The Gloom Wisp")
def wisp_skill() -> None:
    st = new_game()
    slain_by(st, 1, "The Gloom Wisp")
    (sable,) = field(st, 0, "Sable Warbrand")
    nib, sly = field(st, 1, "Nib Quickfingers", "Sly Merrit")
    double = equip(st, sly, "Straw Double")
    top = on_top(st, "Tempest")
    roll_hero(st, sable, 7, target=1, aim=nib)
    assert nib in st.discard and st.hands[1] == top, "destroyed: its owner draws"
    (fireball,) = give(st, 0, "Fireball")
    act(st, f"play:{fireball}")
    choose(st, 1)
    act(st, f"pick:{sly}")
    assert st.parties[1] == [sly] and double in st.discard
    assert st.hands[1] == top, "the Straw Double went instead: nothing was destroyed"


@case("Thornback Bear")
def bear_skill() -> None:
    st = new_game()
    slain_by(st, 0, "Thornback Bear")
    (pim,) = field(st, 0, "Pim the Apprentice")
    (band,) = on_top(st, "Band of Fortune")
    act(st, "draw")
    assert decision(st) == (0, "play_now") and texts(st) == [f"play:{band},{pim}", "skip"]
    act(st, f"play:{band},{pim}")
    assert st.equipped == {pim: band} and st.ap == 2, "played at once: no action point"
    (fireball,) = on_top(st, "Fireball")
    act(st, "draw")
    assert decision(st) == (0, "turn") and st.hands[0] == [fireball], "only Items"


@case("The Ancient Wyrm")
def wyrm_skill() -> None:
    st = new_game()
    slain_by(st, 0, "The Ancient Wyrm")
    act(st, "end")
    assert decision(st) == (1, "turn") and st.ap == 3, "only its slayer's turns"
    end_turns(st, 2)
    assert decision(st) == (0, "turn") and st.ap == 4


@case("Spellbound Golem")
def golem_skill() -> None:
    st = new_game(leaders=PLAIN)
    slain_by(st, 0, "Spellbound Golem")
    surge, first, second = on_top(st, "Arcane Surge", "Lark the Busker", "Sable Warbrand")
    act(st, "draw")
    assert decision(st) == (0, "play_now") and texts(st) == [f"play:{surge}", "skip"]
    act(st, f"play:{surge}")
    assert st.hands[0] == [first, second] and st.discard == [surge] and st.ap == 2
    st = new_game(leaders=PLAIN)
    slain_by(st, 0, "Spellbound Golem")
    (surge,) = on_top(st, "Arcane Surge")
    act(st, "draw")
    act(st, "skip")
    assert st.hands[0] == [surge] and decision(st) == (0, "turn")


@case("Iron Gargoyle")
def gargoyle_skill() -> None:
    st = new_game()
    slain_by(st, 0, "Iron Gargoyle")
    fickle, fireball = on_top(st, "Fickle Fortune", "Fireball")
    events = act_events(st, "draw")
    assert decision(st) == (0, "may") and texts(st) == ["use", "skip"], "you may"
    events = act_events(st, "use")
    (reveal,) = of_kind(events, "reveal")
    assert reveal.for_seat(2) is reveal and "Fickle Fortune" in reveal.text, "shown to all"
    assert st.hands[0] == [fickle, fireball] and st.ap == 2
    st = new_game()
    slain_by(st, 0, "Iron Gargoyle")
    (fickle,) = on_top(st, "Fickle Fortune")
    act(st, "draw")
    act(st, "skip")
    assert st.hands[0] == [fickle]


@case("The Deathless Lich")
def lich_skill() -> None:
    st = new_game()
    slain_by(st, 1, "The Deathless Lich")
    (sable,) = field(st, 0, "Sable Warbrand")
    (nib,) = field(st, 1, "Nib Quickfingers")
    (jory,) = field(st, 2, "Jory Cutpurse")
    dice(st, 6, 6)
    act(st, f"roll:{sable}")
    assert decision(st) == (0, "aim") and texts(st) == [f"pick:{jory}"], "seat 1 is no choice"
    act(st, f"pick:{jory}")
    assert st.parties[2] == [] and st.parties[1] == [nib], "only the slayer's Heroes"
    (fireball,) = give(st, 0, "Fireball")
    act(st, f"play:{fireball}")
    assert decision(st) == (0, "turn") and st.parties[1] == [nib], "nothing to destroy"


@case("Bloodhorn Minotaur")
def minotaur_skill() -> None:
    st = new_game()
    slain_by(st, 0, "Bloodhorn Minotaur")
    (lark,) = give(st, 0, "Lark the Busker")
    give(st, 1, "Not So Fast!")
    act(st, f"play:{lark}")
    dice(st, 4, 4, 4, 4)
    act(st, "challenge")
    assert st.parties[0] == [lark], "8 + 1 beats 8"
    act(st, "skip")
    (pim,) = field(st, 0, "Pim the Apprentice")
    (ogre,) = set_row(st, "Grimtooth Ogre")
    attack(st, ogre, 7)
    assert ogre in st.row, "no +1 on an ATTACK"
    assert pim in st.parties[0]


@case("The Gilded Mimic")
def mimic_skill() -> None:
    st = new_game()
    slain_by(st, 0, "The Gilded Mimic")
    (pim,) = field(st, 0, "Pim the Apprentice")
    band, lark = give(st, 0, "Band of Fortune", "Lark the Busker")
    give(st, 1, "Not So Fast!")
    act(st, f"play:{band},{pim}")
    assert decision(st) == (0, "turn") and st.equipped == {pim: band}, "not asked"
    act(st, f"play:{lark}")
    assert decision(st) == (1, "challenge"), "a Hero can still be challenged"


# -- one case per card, looked up by name ----------------------------------------------

HERO_NAMES = [h.name for h in CONTENT.hero]
ITEM_NAMES = [i.name for i in CONTENT.item]
MAGIC_NAMES = [m.name for m in CONTENT.magic]
CHALLENGE_NAMES = [c.name for c in CONTENT.challenge]
LEADER_NAMES = [leader.name for leader in CONTENT.leader]


@pytest.mark.parametrize("name", HERO_NAMES)
def test_hero(name: str) -> None:
    run_case(name)


@pytest.mark.parametrize("name", ITEM_NAMES)
def test_item(name: str) -> None:
    run_case(name)


@pytest.mark.parametrize("name", MAGIC_NAMES)
def test_magic(name: str) -> None:
    run_case(name)


@pytest.mark.parametrize("name", CHALLENGE_NAMES)
def test_challenge(name: str) -> None:
    run_case(name)


@pytest.mark.parametrize("name", LEADER_NAMES)
def test_party_leader(name: str) -> None:
    run_case(name)


@pytest.mark.parametrize("name", MONSTER_NAMES)
def test_monster_skill(name: str) -> None:
    run_case(name)


@pytest.mark.parametrize("name", [h.name for h in CONTENT.hero if h.roll > 2])
def test_a_hero_roll_one_short_does_nothing(name: str) -> None:
    """One below the requirement: the Hero counts as rolled and no card moves."""
    st = new_game()
    (hero,) = field(st, 0, name)
    one, two = [h for h in ("Nib Quickfingers", "Sly Merrit", "Jory Cutpurse") if h != name][:2]
    field(st, 1, one)
    field(st, 2, two)
    give(st, 1, "Fireball")
    give(st, 2, "Tempest")
    st.discard.append(take(st, "Lark the Busker"))
    need = st.catalog.cards[hero].roll
    dice(st, *split(need - 1))
    act(st, f"roll:{hero}")
    while decision(st)[1] in ("target", "aim"):
        act(st, texts(st)[0])
    zones = (st.deck[:], st.discard[:], [h[:] for h in st.hands], [p[:] for p in st.parties])
    pass_modifiers(st)
    assert decision(st) == (0, "turn") and st.ap == 2
    assert (st.deck, st.discard, st.hands, st.parties) == zones
    assert f"roll:{hero}" not in texts(st), "once a turn, even after a failure"


def test_every_card_in_the_pack_has_a_test() -> None:
    """A designer adding a card is told to test it; a case for a card that left the pack
    is stale."""
    with_cases = set(HERO_NAMES + ITEM_NAMES + MAGIC_NAMES + CHALLENGE_NAMES + LEADER_NAMES)
    with_cases |= set(MONSTER_NAMES)
    assert sorted(with_cases - set(CASES)) == [], "cards with no case in test_cards.py"
    assert sorted(set(CASES) - with_cases) == [], "cases for cards not in the pack"
    assert set(MONSTERS) == set(MONSTER_NAMES), "every Monster needs its published numbers"
    published = {m.name: tuple(m.options) for m in CONTENT.modifier}
    assert published == PUBLISHED_MODIFIERS, "every Modifier needs its options listed"
