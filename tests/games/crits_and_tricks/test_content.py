"""Crits & Tricks content: the standard pack's 64 quests and its Barkeep's Challenges each
do what their text says on hand-built tricks, the pack covers every suit, crit and die,
and a designer's mistake is one line naming the file, the entry and the field."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import get_args

import pytest

from tavernkeep.engine.errors import ContentError
from tavernkeep.games.crits_and_tricks.content import (
    CONTENT_DIR,
    DICE,
    MERCENARIES,
    SUITS,
    Barkeep,
    CritsAndTricksPack,
    Deck,
    Measure,
    Quest,
    When,
    load,
)
from tavernkeep.games.crits_and_tricks.history import (
    Play,
    Trick,
    barkeep_winner,
    measure,
    quest_met,
)

STANDARD = (CONTENT_DIR / "standard.toml").read_text(encoding="utf-8")
DOC = (CONTENT_DIR.parent / "CONTENT.md").read_text(encoding="utf-8")

ME = 0
"""The seat whose quests are checked; seats 1-3 are opponents."""


@pytest.fixture(scope="module")
def pack() -> CritsAndTricksPack:
    return load().content


def quest_named(name: str) -> Quest:
    return next(q for q in load().content.quest if q.name == name)


# -- hand-built tricks ---------------------------------------------------------------


def p(
    suit: str,
    die: int,
    value: int,
    seat: int = ME,
    *,
    crits: tuple[str, ...] = (),
    rerolled: bool = False,
    off: bool = False,
) -> Play:
    """A play; `off` marks a card played off the led suit."""
    return Play(seat, 0, suit, not off, die, value, crits, rerolled)


def o(suit: str, die: int, value: int, seat: int = 1, *, off: bool = False) -> Play:
    """An opponent's play."""
    return p(suit, die, value, seat, off=off)


def t(led: str, *plays: Play, winner: int = ME, number: int = 1) -> Trick:
    """A trick led by the first play's seat, checked for being one the rules could deal."""
    numbered = tuple(play._replace(card=i) for i, play in enumerate(plays))
    trick = Trick(number, plays[0].seat, led, numbered, winner)
    check(trick)
    return trick


def check(trick: Trick) -> None:
    assert trick.led in MERCENARIES and 1 <= trick.number <= 6, trick
    seats = [play.seat for play in trick.plays]
    assert len(set(seats)) == len(seats), trick
    assert trick.winner in seats, trick
    for play in trick.plays:
        assert play.die in DICE and 1 <= play.value <= play.die, play
        assert len(play.crits) <= 2, play
        on_suit = play.suit in (trick.led, "Bard")
        assert play.followed == on_suit, play
    assert trick.plays[0].followed, trick
    assert trick.winner == referee(trick), trick


def referee(trick: Trick) -> int:
    """Who takes the trick by the rulebook: eligible followers, the suit's requirement, a
    Paladin's crit in a tie, then the larger die, then the later player. (A check on the
    hand-built tricks, not the rules under test; a Druid trick here never has ties.)"""
    order = {play.seat: i for i, play in enumerate(trick.plays)}
    eligible = [play for play in trick.plays if play.followed]
    if trick.led == "Paladin":
        eligible = [play for play in eligible if play.die == trick.plays[0].die]
    if trick.led == "Druid":
        assert len({play.value for play in eligible}) == len(eligible), trick
        ranked = sorted(eligible, key=lambda play: play.value, reverse=True)
        return ranked[min(1, len(ranked) - 1)].seat

    def score(value: int) -> int:
        if trick.led == "Rogue":
            return -value
        if trick.led == "Wizard":
            return -abs(value - 5)
        return value  # Barbarian, Paladin

    best = max(
        eligible,
        key=lambda play: (score(play.value), "Paladin" in play.crits, play.die, order[play.seat]),
    )
    return best.seat


def rnd(*tricks: Trick) -> list[Trick]:
    """Tricks of one round, numbered 1, 2, ... in order."""
    return [trick._replace(number=i) for i, trick in enumerate(tricks, start=1)]


# A quest's case: (tricks where it is met by ME, tricks where it narrowly is not).
Case = tuple[list[Trick], list[Trick]]

WIN_BARB = t("Barbarian", o("Barbarian", 6, 3), p("Barbarian", 10, 9))
LOSE_BARB = t("Barbarian", o("Barbarian", 20, 15), p("Barbarian", 10, 9), winner=1)
WIN_ROGUE = t("Rogue", o("Rogue", 12, 8), p("Rogue", 6, 2))
LOSE_ROGUE = t("Rogue", o("Rogue", 4, 1), p("Rogue", 6, 2), winner=1)

CASES: dict[str, Case] = {
    # -- dice
    "Pebble Toss": (
        [t("Rogue", o("Rogue", 6, 3), p("Rogue", 4, 1))],
        [t("Rogue", o("Rogue", 6, 3), p("Rogue", 6, 1))],
    ),
    "Boxcar Six": (
        [t("Barbarian", o("Barbarian", 4, 4), p("Barbarian", 6, 6))],
        [t("Barbarian", o("Barbarian", 4, 4), p("Barbarian", 6, 5))],
    ),
    "Spider's Pick": (
        [t("Rogue", o("Rogue", 12, 5), p("Rogue", 8, 2))],
        [t("Wizard", o("Wizard", 4, 1), p("Wizard", 8, 4))],
    ),
    "Perfect Ten": (
        [t("Barbarian", o("Barbarian", 12, 9), p("Barbarian", 10, 10))],
        [t("Barbarian", o("Barbarian", 12, 8), p("Barbarian", 10, 9))],
    ),
    "Steady Hand": (
        [t("Wizard", o("Wizard", 12, 9), p("Wizard", 10, 6))],
        [t("Wizard", o("Wizard", 12, 9), p("Wizard", 10, 7))],
    ),
    "Middle Child": (
        [t("Barbarian", o("Barbarian", 6, 6), p("Barbarian", 12, 8))],
        [t("Barbarian", o("Barbarian", 6, 6), p("Barbarian", 12, 9))],
    ),
    "Natural Twenty": (
        [t("Barbarian", o("Barbarian", 12, 12), p("Barbarian", 20, 20))],
        [t("Barbarian", o("Barbarian", 12, 12), p("Barbarian", 20, 19))],
    ),
    "Sleeping Giant": (
        [t("Wizard", o("Wizard", 12, 9), p("Wizard", 20, 5))],
        [t("Wizard", o("Wizard", 12, 9), p("Wizard", 20, 6))],
    ),
    # -- values
    "Four on the Floor": (
        [t("Wizard", o("Wizard", 8, 7), p("Wizard", 6, 4))],
        [t("Wizard", o("Wizard", 8, 5), p("Wizard", 6, 4), winner=1)],
    ),
    "Snake Eye": (
        [t("Rogue", o("Rogue", 6, 3), p("Rogue", 8, 1))],
        [t("Rogue", o("Rogue", 6, 3), p("Rogue", 8, 2))],
    ),
    "Lucky Seven": (
        [t("Barbarian", o("Barbarian", 6, 5), p("Barbarian", 8, 7))],
        [t("Barbarian", o("Barbarian", 6, 5), p("Barbarian", 8, 8))],
    ),
    "Low Roller": (
        [t("Rogue", o("Rogue", 10, 6), p("Rogue", 4, 3))],
        [t("Rogue", o("Rogue", 10, 6), p("Rogue", 4, 4))],
    ),
    "High Roller": (
        [t("Barbarian", o("Barbarian", 12, 11), p("Barbarian", 20, 16))],
        [t("Barbarian", o("Barbarian", 12, 11), p("Barbarian", 20, 15))],
    ),
    "Top Dog": (
        [t("Barbarian", o("Barbarian", 10, 9), p("Barbarian", 12, 12))],
        [t("Druid", o("Druid", 12, 12), p("Druid", 10, 9), o("Druid", 4, 3, 2))],
    ),
    "Underdog": (
        [t("Rogue", o("Rogue", 8, 5), p("Rogue", 4, 2))],
        [t("Barbarian", o("Barbarian", 4, 2), p("Barbarian", 8, 5))],
    ),
    "Scraping By": (
        rnd(WIN_ROGUE, LOSE_BARB, WIN_ROGUE),
        rnd(WIN_BARB, LOSE_BARB, WIN_ROGUE),
    ),
    # -- leading, trick numbers, streaks
    "Bold Opener": (
        [t("Barbarian", p("Barbarian", 20, 17), o("Barbarian", 12, 10))],
        [t("Barbarian", p("Barbarian", 12, 10), o("Barbarian", 20, 17), winner=1)],
    ),
    "Graceful Exit": (
        [t("Barbarian", p("Barbarian", 12, 10), o("Barbarian", 20, 17), winner=1)],
        [t("Barbarian", o("Barbarian", 20, 17), p("Barbarian", 12, 10), winner=1)],
    ),
    "Early Bird": (
        [WIN_BARB._replace(number=1)],
        [WIN_BARB._replace(number=2)],
    ),
    "Last Call": (
        [WIN_BARB._replace(number=6)],
        [WIN_BARB._replace(number=5)],
    ),
    "Closing Argument": (
        [t("Rogue", p("Rogue", 4, 1), o("Rogue", 10, 7), number=6)],
        [t("Rogue", o("Rogue", 10, 7), p("Rogue", 4, 1), number=6)],
    ),
    "Sore Loser": (
        rnd(WIN_ROGUE, LOSE_BARB, t("Rogue", o("Rogue", 4, 2), p("Rogue", 20, 14), winner=1)),
        rnd(LOSE_BARB, WIN_ROGUE, t("Rogue", o("Rogue", 4, 2), p("Rogue", 20, 14), winner=1)),
    ),
    "Double Down": (
        rnd(LOSE_ROGUE, WIN_BARB, WIN_ROGUE),
        rnd(WIN_BARB, LOSE_ROGUE, WIN_ROGUE),
    ),
    "Hat Trick": (
        rnd(WIN_BARB, LOSE_ROGUE, WIN_ROGUE, WIN_BARB),
        rnd(WIN_BARB, LOSE_ROGUE, LOSE_BARB, WIN_ROGUE),
    ),
    "On a Roll": (
        rnd(LOSE_ROGUE, WIN_BARB, WIN_ROGUE, WIN_BARB),
        rnd(WIN_BARB, WIN_ROGUE, LOSE_BARB, WIN_ROGUE),
    ),
    # -- re-rolls, off suit, crits
    "Mulligan": (
        [t("Barbarian", o("Barbarian", 6, 3), p("Barbarian", 10, 9, rerolled=True))],
        [t("Barbarian", o("Barbarian", 6, 3), p("Barbarian", 10, 9))],
    ),
    "Loaded Dice": (
        [t("Barbarian", o("Barbarian", 6, 3), p("Barbarian", 12, 9, rerolled=True))],
        [t("Barbarian", o("Barbarian", 6, 3), p("Barbarian", 10, 9, rerolled=True))],
    ),
    "Off the Books": (
        [t("Barbarian", o("Barbarian", 6, 3), p("Rogue", 20, 11, off=True), winner=1)],
        [t("Barbarian", o("Barbarian", 6, 3), p("Rogue", 12, 11, off=True), winner=1)],
    ),
    "Wrong Crowd": (
        rnd(
            t("Wizard", o("Wizard", 6, 5), p("Druid", 8, 2, off=True), winner=1),
            t("Barbarian", o("Barbarian", 4, 3), p("Rogue", 12, 11, off=True), winner=1),
        ),
        rnd(
            t("Wizard", o("Wizard", 6, 5), p("Wizard", 8, 2), winner=1),
            t("Barbarian", o("Barbarian", 4, 3), p("Rogue", 12, 11, off=True), winner=1),
        ),
    ),
    "Crit Happens": (
        [t("Barbarian", o("Barbarian", 8, 8), p("Barbarian", 10, 9, crits=("Barbarian", "Bard")))],
        [t("Barbarian", o("Barbarian", 8, 8), p("Barbarian", 10, 9, crits=("Barbarian",)))],
    ),
    "Tinkerer": (
        rnd(
            t("Rogue", o("Rogue", 4, 1), p("Rogue", 8, 3, crits=("Druid",)), winner=1),
            t("Barbarian", o("Barbarian", 6, 3), p("Barbarian", 10, 9, crits=("Rogue",))),
        ),
        rnd(
            t("Rogue", o("Rogue", 4, 1), p("Rogue", 8, 3), winner=1),
            t("Barbarian", o("Barbarian", 6, 3), p("Barbarian", 10, 9, crits=("Rogue",))),
        ),
    ),
    "Clutch": (
        [t("Wizard", o("Wizard", 8, 7), p("Wizard", 10, 5, crits=("Wizard",)), number=6)],
        [t("Wizard", o("Wizard", 8, 7), p("Wizard", 10, 5), number=6)],
    ),
    "Pull Every Lever": (
        [t("Druid", o("Druid", 12, 11), p("Druid", 8, 6, crits=("Druid",), rerolled=True))],
        [t("Druid", o("Druid", 12, 11), p("Druid", 8, 6, crits=("Druid",)))],
    ),
    # -- Bards
    "Encore": (
        [t("Rogue", o("Rogue", 8, 4), p("Bard", 6, 2))],
        [t("Rogue", o("Rogue", 8, 1), p("Bard", 6, 2), winner=1)],
    ),
    "Showstopper": (
        [t("Wizard", p("Bard", 10, 5), o("Wizard", 6, 2))],
        [t("Wizard", o("Wizard", 6, 2), p("Bard", 10, 5))],
    ),
    "Duet": (
        rnd(
            t("Rogue", o("Rogue", 8, 4), p("Bard", 6, 2)),
            LOSE_BARB,
            t("Barbarian", o("Barbarian", 6, 5), p("Bard", 12, 10)),
        ),
        rnd(t("Rogue", o("Rogue", 8, 1), p("Bard", 6, 2), winner=1), LOSE_BARB),
    ),
    "Crowd Pleaser": (
        [t("Barbarian", o("Bard", 8, 6), p("Bard", 12, 11), o("Rogue", 4, 4, 2, off=True))],
        [t("Barbarian", o("Barbarian", 8, 6), p("Bard", 12, 11), o("Rogue", 4, 4, 2, off=True))],
    ),
    "Second Verse": (
        [t("Barbarian", o("Barbarian", 8, 6), p("Barbarian", 10, 8, crits=("Bard",)))],
        [t("Barbarian", o("Barbarian", 8, 6), p("Barbarian", 10, 8, crits=("Rogue",)))],
    ),
    "Busker's Tin": (
        [t("Rogue", o("Rogue", 12, 5), p("Bard", 4, 1))],
        [t("Rogue", o("Rogue", 12, 5), p("Bard", 6, 1))],
    ),
    # -- Barbarian
    "Brute Force": (
        [t("Barbarian", o("Barbarian", 12, 12), p("Barbarian", 20, 17))],
        [t("Barbarian", o("Barbarian", 12, 12), p("Barbarian", 20, 16))],
    ),
    "Outmuscled": (
        [t("Barbarian", o("Barbarian", 20, 15), p("Barbarian", 12, 12), winner=1)],
        [t("Barbarian", o("Barbarian", 20, 15), p("Barbarian", 12, 11), winner=1)],
    ),
    "Sharpened Axe": (
        [t("Barbarian", o("Barbarian", 8, 8), p("Barbarian", 10, 9, crits=("Barbarian",)))],
        [
            t(
                "Barbarian",
                o("Barbarian", 8, 8),
                p("Barbarian", 10, 9, crits=("Barbarian",)),
                o("Barbarian", 12, 10, 2),
                winner=2,
            )
        ],
    ),
    "Underestimated": (
        [t("Barbarian", o("Barbarian", 6, 5), p("Barbarian", 8, 8))],
        [t("Barbarian", o("Barbarian", 6, 5), p("Barbarian", 10, 8))],
    ),
    "Lute Smash": (
        [t("Barbarian", o("Barbarian", 6, 5), p("Bard", 12, 10))],
        [t("Paladin", o("Paladin", 12, 5), p("Bard", 12, 10))],
    ),
    # -- Rogue
    "Pickpocket": (
        [t("Rogue", o("Rogue", 6, 2), p("Rogue", 10, 1))],
        [t("Rogue", o("Rogue", 6, 3), p("Rogue", 10, 2))],
    ),
    "Shadowstep": (
        [t("Rogue", o("Rogue", 6, 2), p("Rogue", 10, 1, crits=("Rogue",)))],
        [
            t(
                "Rogue",
                o("Rogue", 6, 2),
                p("Rogue", 10, 3, crits=("Rogue",)),
                winner=1,
            )
        ],
    ),
    "Light Fingers": (
        [t("Rogue", o("Rogue", 6, 4), p("Rogue", 20, 3))],
        [t("Rogue", o("Rogue", 6, 4), p("Rogue", 12, 3))],
    ),
    "Caught Red-Handed": (
        [t("Rogue", o("Rogue", 12, 1), p("Rogue", 4, 2), winner=1)],
        [t("Rogue", o("Rogue", 12, 1), p("Rogue", 4, 3), winner=1)],
    ),
    "Den of Thieves": (
        rnd(WIN_ROGUE, LOSE_BARB, WIN_ROGUE),
        rnd(t("Rogue", o("Rogue", 12, 8), p("Bard", 6, 2)), LOSE_BARB, WIN_ROGUE),
    ),
    # -- Wizard
    "Bullseye": (
        [t("Wizard", o("Wizard", 10, 8), p("Wizard", 12, 5))],
        [t("Wizard", o("Wizard", 10, 8), p("Wizard", 12, 6))],
    ),
    "Sleight of Die": (
        [t("Wizard", o("Wizard", 10, 8), p("Wizard", 12, 5, crits=("Wizard",)))],
        [t("Wizard", o("Wizard", 10, 8), p("Wizard", 12, 5, crits=("Barbarian",)))],
    ),
    "Apprentice's Luck": (
        [t("Wizard", o("Wizard", 12, 9), p("Wizard", 4, 4))],
        [t("Wizard", o("Wizard", 12, 9), p("Wizard", 6, 4))],
    ),
    "Near Miss": (
        [t("Wizard", o("Wizard", 12, 5), p("Wizard", 4, 4), winner=1)],
        [t("Wizard", o("Wizard", 12, 5), p("Wizard", 4, 3), winner=1)],
    ),
    "Spell Slinger": (
        rnd(
            t("Wizard", o("Wizard", 12, 9), p("Wizard", 4, 4)),
            t("Wizard", o("Wizard", 8, 8), p("Wizard", 6, 6)),
        ),
        rnd(
            t("Wizard", o("Wizard", 12, 9), p("Wizard", 4, 4)),
            t("Wizard", o("Wizard", 8, 6), p("Wizard", 6, 2), winner=1),
        ),
    ),
    # -- Druid
    "Silver Medal": (
        [t("Druid", o("Druid", 20, 14), p("Druid", 12, 10), o("Druid", 4, 3, 2))],
        [t("Druid", o("Druid", 20, 14), p("Druid", 12, 9), o("Druid", 4, 3, 2))],
    ),
    "Call of the Wild": (
        [t("Druid", o("Druid", 20, 14), p("Druid", 12, 10, crits=("Druid",)), o("Druid", 4, 3, 2))],
        [
            t(
                "Druid",
                o("Druid", 20, 14),
                p("Druid", 12, 2, crits=("Druid",)),
                o("Druid", 4, 3, 2),
                winner=2,
            )
        ],
    ),
    "Overgrown": (
        [t("Druid", o("Druid", 8, 7), p("Druid", 12, 11), o("Druid", 4, 3, 2), winner=1)],
        [t("Druid", o("Druid", 12, 11), p("Druid", 4, 3), o("Druid", 8, 7, 2), winner=2)],
    ),
    "Seedling": (
        [t("Druid", o("Druid", 20, 14), p("Druid", 6, 6), o("Druid", 4, 3, 2))],
        [t("Druid", o("Druid", 20, 14), p("Druid", 8, 6), o("Druid", 4, 3, 2))],
    ),
    "Grove Keepers": (
        rnd(
            t("Druid", o("Druid", 20, 14), p("Druid", 6, 6), o("Druid", 4, 3, 2)),
            t("Druid", o("Druid", 12, 11), p("Druid", 8, 7), o("Druid", 4, 1, 2)),
        ),
        rnd(
            t("Druid", o("Druid", 20, 14), p("Druid", 6, 6), o("Druid", 4, 3, 2)),
            t("Druid", o("Druid", 12, 11), p("Bard", 8, 7), o("Druid", 4, 1, 2)),
        ),
    ),
    # -- Paladin
    "Oathkeeper": (
        [t("Paladin", p("Paladin", 10, 8), o("Paladin", 10, 6))],
        [t("Paladin", p("Paladin", 10, 6), o("Paladin", 10, 8), winner=1)],
    ),
    "Shield Wall": (
        [t("Paladin", o("Paladin", 10, 8), p("Paladin", 10, 8, crits=("Paladin",)))],
        [
            t(
                "Paladin",
                o("Paladin", 10, 8),
                p("Paladin", 10, 8, crits=("Paladin",)),
                o("Paladin", 10, 9, 2),
                winner=2,
            )
        ],
    ),
    "Holy Order": (
        [t("Paladin", o("Paladin", 8, 3), p("Paladin", 8, 7))],
        [t("Paladin", p("Paladin", 8, 7), o("Paladin", 8, 3))],
    ),
    "Squire's Day": (
        [t("Paladin", p("Paladin", 4, 3), o("Paladin", 12, 11))],
        [t("Paladin", p("Paladin", 4, 4), o("Paladin", 12, 11))],
    ),
    "Crusade": (
        rnd(
            t("Paladin", p("Paladin", 4, 3), o("Paladin", 12, 11)),
            t("Paladin", o("Paladin", 8, 3), p("Paladin", 8, 7)),
        ),
        rnd(
            t("Paladin", p("Paladin", 4, 3), o("Paladin", 12, 11)),
            t("Paladin", o("Paladin", 8, 7), p("Paladin", 8, 3), winner=1),
        ),
    ),
}


# -- the standard pack ---------------------------------------------------------------


def test_the_standard_pack_loads_by_default_and_by_name() -> None:
    assert load().name == "standard"
    assert load("standard").digest == load().digest


def test_64_quests_and_ten_barkeeps_challenges_one_of_them_creative(
    pack: CritsAndTricksPack,
) -> None:
    assert len(pack.quest) == 64
    assert len(pack.barkeep) >= 8
    two_player_exempt = [b.name for b in pack.barkeep if b.min_players > 2]
    assert two_player_exempt == ["Creative"]
    assert [b.min_players for b in pack.barkeep if b.name == "Creative"] == [3]


def test_names_and_texts_are_unique(pack: CritsAndTricksPack) -> None:
    for cards in (pack.quest, pack.barkeep):
        names = [card.name for card in cards]
        texts = [card.text for card in cards]
        assert len(set(names)) == len(names)
        assert len(set(texts)) == len(texts)
    assert not {q.name for q in pack.quest} & {b.name for b in pack.barkeep}


def test_loot_is_scaled_one_to_five_and_two_to_five(pack: CritsAndTricksPack) -> None:
    loot = Counter(q.loot for q in pack.quest)
    assert set(loot) <= {1, 2, 3, 4, 5}
    assert loot[1] > 0 and loot[4] + loot[5] > 0
    assert all(2 <= b.loot <= 5 for b in pack.barkeep)


def named_suits(when: When) -> set[str]:
    return {s for s in (when.suit, when.led, when.crit) if s is not None and s != "any"}


def test_every_suit_crit_and_die_is_asked_for(pack: CritsAndTricksPack) -> None:
    whens = [q.when for q in pack.quest]
    assert set().union(*(named_suits(w) for w in whens)) == set(SUITS)
    assert {w.led for w in whens} >= set(MERCENARIES)
    assert {w.crit for w in whens} >= {*SUITS, "any"}
    assert {w.die for w in whens} >= set(DICE)
    assert {w.result for w in whens} == {"win", "lose", "play"}


def test_each_mercenary_suit_is_named_by_five_quests_and_most_name_none(
    pack: CritsAndTricksPack,
) -> None:
    named = Counter(s for q in pack.quest for s in named_suits(q.when) if s in MERCENARIES)
    assert named == {suit: 5 for suit in MERCENARIES}
    # Three suits are in play: the two left out kill at most 10 quests, so 54 are dealt.
    assert sum(1 for q in pack.quest if not named_suits(q.when) & set(MERCENARIES)) == 39


def test_no_quest_asks_for_something_near_impossible(pack: CritsAndTricksPack) -> None:
    for q in pack.quest:
        w = q.when
        # Each die is used once a round: twice needs a Wizard's crit.
        assert not (w.die is not None and q.times > 1), q.name
        # With two players there are never three Bards, nor a middle value.
        assert w.bards is None or w.bards <= 2, q.name
        assert not (w.highest is False and w.lowest is False), q.name
        if w.result == "win":
            assert w.followed is not False, q.name
            assert not (w.led == "Barbarian" and w.lowest), q.name
            assert not (w.led == "Rogue" and w.highest), q.name


def test_every_quest_has_a_hand_built_case(pack: CritsAndTricksPack) -> None:
    assert sorted(CASES) == sorted(q.name for q in pack.quest)


@pytest.mark.parametrize("name", list(CASES))
def test_quest_is_met_and_narrowly_missed(name: str) -> None:
    quest = quest_named(name)
    met, missed = CASES[name]
    assert quest_met(quest, met, ME), "not met"
    assert not quest_met(quest, missed, ME), "met by the near miss"


def test_a_streak_pays_only_on_the_trick_that_completes_it() -> None:
    double_down = quest_named("Double Down")
    assert not quest_met(double_down, rnd(WIN_BARB), ME)
    assert quest_met(double_down, rnd(WIN_BARB, WIN_ROGUE), ME)
    assert not quest_met(double_down, rnd(WIN_BARB, WIN_ROGUE, LOSE_BARB), ME)
    hat_trick = quest_named("Hat Trick")
    assert not quest_met(hat_trick, rnd(WIN_BARB, WIN_ROGUE, LOSE_BARB), ME)
    assert not quest_met(hat_trick, [], ME)


def test_the_other_seat_meets_a_quest_with_its_own_play() -> None:
    lose = quest_named("Graceful Exit")
    trick = t("Barbarian", o("Barbarian", 12, 10), p("Barbarian", 20, 17))
    assert quest_met(lose, [trick], 1)
    assert not quest_met(lose, [trick], ME)


def test_content_md_documents_every_field_and_measure() -> None:
    fields = [
        *When.model_fields,
        *Quest.model_fields,
        *Barkeep.model_fields,
        "copies",
        "two_player_copies",
        "bards",
        "two_player_bards",
        "hand",
    ]
    for word in [*fields, *get_args(Measure)]:
        assert f"`{word}`" in DOC, word


# -- Barkeep's Challenges ------------------------------------------------------------

# Seats 0-2 over four tricks; every seat uses a die size at most once.
ROUND = rnd(
    t(
        "Barbarian",
        p("Barbarian", 20, 18, 0, crits=("Barbarian",), rerolled=True),
        p("Bard", 6, 5, 1),
        p("Bard", 12, 11, 2),
        winner=0,
    ),
    t(
        "Rogue",
        p("Rogue", 4, 2, 0),
        p("Rogue", 8, 1, 1, crits=("Rogue",)),
        p("Wizard", 10, 3, 2, rerolled=True, off=True),
        winner=1,
    ),
    t(
        "Wizard",
        p("Wizard", 10, 5, 1),
        p("Wizard", 4, 4, 2, crits=("Wizard", "Bard")),
        p("Bard", 12, 9, 0, rerolled=True),
        winner=1,
    ),
    t(
        "Druid",
        p("Druid", 12, 10, 1),
        p("Druid", 20, 19, 2),
        p("Druid", 6, 6, 0),
        winner=1,
    ),
)
CARDS_LEFT = [0, 1, 3]

# measure: the count for seats 0, 1, 2 over ROUND
EXPECTED = {
    "tricks_won": [1, 3, 0],
    "bards_won": [2, 1, 0],
    "crits_used": [1, 1, 2],
    "rerolls": [2, 0, 1],
    "cards_left": [0, 1, 3],
    "highest_value": [18, 10, 19],
    "total_value": [35, 21, 37],
    "suits_won": [1, 3, 0],
    "dice_won": [1, 3, 0],
    "off_suit_played": [0, 0, 1],
}


def mirrored_round() -> list[Trick]:
    """Each seat leads once and plays the same three roles with the same dice."""
    tricks = []
    for lead in range(3):
        a, b, c = lead, (lead + 1) % 3, (lead + 2) % 3
        tricks.append(
            t(
                "Barbarian",
                p("Barbarian", 20, 15, a, crits=("Barbarian",), rerolled=True),
                p("Bard", 8, 6, b),
                p("Rogue", 4, 2, c, off=True),
                winner=a,
            )
        )
    return rnd(*tricks)


# challenge: what its text says it counts, and the seat that takes it over ROUND
CHALLENGES = {
    "Creative": ("suits_won", "most", 1),
    "The Regular": ("tricks_won", "most", 1),
    "Humble Pie": ("tricks_won", "fewest", 2),
    "Patron of the Arts": ("bards_won", "most", 0),
    "Show-Off": ("crits_used", "most", 2),
    "Dice Fiend": ("rerolls", "most", 0),
    "Penny Pincher": ("cards_left", "most", 2),
    "High Stakes": ("highest_value", "most", 2),
    "Lightweight": ("total_value", "fewest", 1),
    "Rebel Yell": ("off_suit_played", "most", 2),
}


def test_every_challenge_has_a_case(pack: CritsAndTricksPack) -> None:
    assert sorted(CHALLENGES) == sorted(b.name for b in pack.barkeep)


@pytest.mark.parametrize("name", list(CHALLENGES))
def test_barkeep_challenge_measures_and_picks_one_seat(name: str) -> None:
    challenge = next(b for b in load().content.barkeep if b.name == name)
    kind, best, winner = CHALLENGES[name]
    assert (challenge.measure, challenge.best) == (kind, best)
    scores = [measure(challenge, ROUND, seat, CARDS_LEFT[seat]) for seat in range(3)]
    assert scores == EXPECTED[kind]
    assert barkeep_winner(scores, best) == winner
    tied = [measure(challenge, mirrored_round(), seat, 2) for seat in range(3)]
    assert len(set(tied)) == 1
    assert barkeep_winner(tied, best) == -1


def test_the_barkeep_winner_needs_to_be_alone_at_the_top() -> None:
    assert barkeep_winner([3, 3, 1], "most") == -1
    assert barkeep_winner([3, 3, 1], "fewest") == 2
    assert barkeep_winner([0, 2], "most") == 1
    assert barkeep_winner([0, 0, 0, 1], "fewest") == -1


def test_the_sample_round_gives_different_seats_the_challenges() -> None:
    winners = set()
    for challenge in load().content.barkeep:
        scores = [measure(challenge, ROUND, seat, CARDS_LEFT[seat]) for seat in range(3)]
        winners.add(barkeep_winner(scores, challenge.best))
    assert winners == {0, 1, 2}


def test_measures_of_a_seat_that_played_nothing_are_zero() -> None:
    assert sorted(EXPECTED) == sorted(get_args(Measure))
    for kind in get_args(Measure):
        challenge = Barkeep(name="x", text="x", loot=2, measure=kind)
        assert measure(challenge, ROUND, 3, 0) == 0, kind


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


def changed(old: str, new: str) -> str:
    assert STANDARD.count(old) == 1, old
    return STANDARD.replace(old, new, 1)


def test_a_copy_of_the_standard_pack_loads_from_a_path(tmp_path: Path) -> None:
    loaded = load(str(write(tmp_path, STANDARD)))
    assert loaded.name == str(tmp_path / "my.toml")
    assert loaded.digest == load().digest


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "when = { die = 4 }",
            "when = { die = 4, value = 5 }",
            "quest #1 'Pebble Toss': field 'when': field 'value': a d4 never shows 5",
        ),
        (
            "when = { die = 10, value = 10 }",
            "when = { die = 10, min_value = 11 }",
            "quest #4 'Perfect Ten': field 'when': field 'min_value': a d10 never shows 11",
        ),
        (
            "when = { die = 12, min_value = 5, max_value = 8 }",
            "when = { die = 12, min_value = 9, max_value = 8 }",
            "quest #6 'Middle Child': field 'when': field 'min_value': 9 is above max_value 8",
        ),
        (
            "when = { die = 10, min_value = 4, max_value = 6 }",
            "when = { die = 10, value = 7, min_value = 4, max_value = 6 }",
            "quest #5 'Steady Hand': field 'when': field 'value': 7 is outside min_value",
        ),
        (
            "when = { value = 7 }",
            "when = { value = 21 }",
            "quest #11 'Lucky Seven': 'when': field 'value': Input should be less than or",
        ),
        (
            "when = { die = 6, value = 6 }",
            "when = { die = 7, value = 6 }",
            "quest #2 'Boxcar Six': 'when': field 'die': Input should be 4, 6, 8, 10, 12 or 20",
        ),
        (
            'times = 2\nin_a_row = true\n\n[[quest]]\nname = "Hat Trick"',
            'times = 1\nin_a_row = true\n\n[[quest]]\nname = "Hat Trick"',
            "quest #23 'Double Down': field 'in_a_row': needs times of 2 or more",
        ),
        (
            "when = { trick = 6 }",
            "when = { trick = 6 }\ntimes = 2",
            "quest #20 'Last Call': field 'times': a quest for one trick number is met once",
        ),
        (
            'when = { suit = "Bard", leading = true }',
            'when = { led = "Bard", leading = true }',
            "quest #35 'Showstopper': field 'when': field 'led': a led Bard counts as the suit",
        ),
        (
            'when = { result = "play", followed = false }\ntimes = 2',
            "when = { followed = false }\ntimes = 2",
            "quest #29 'Wrong Crowd': field 'when': field 'followed': only a card of the led",
        ),
        (
            'when = { result = "play", followed = false, die = 20 }',
            'when = { result = "play", followed = false, suit = "Bard" }',
            "quest #28 'Off the Books': field 'when': field 'followed': a Bard always follows",
        ),
        (
            "when = { leading = true }",
            "when = { leading = true, followed = false }",
            "quest #17 'Bold Opener': field 'when': field 'followed': the leader's card is",
        ),
        (
            'when = { suit = "Rogue" }',
            'when = { suit = "Thief" }',
            "quest #49 'Den of Thieves': 'when': field 'suit': Input should be 'Barbarian'",
        ),
        (
            'when = { crit = "Druid" }',
            'when = { crit = "all" }',
            "quest #56 'Call of the Wild': 'when': field 'crit': Input should be 'Barbarian'",
        ),
        (
            "when = { crits = 2 }",
            "when = { crits = 3 }",
            "quest #30 'Crit Happens': 'when': field 'crits': Input should be less than or",
        ),
        (
            "when = { value = 7 }",
            'when = { value = 7, colour = "red" }',
            "quest #11 'Lucky Seven': 'when': field 'colour': is not a known field",
        ),
        (
            'name = "Lucky Seven"\n',
            'name = "Lucky Seven"\nrare = true\n',
            "quest #11 'Lucky Seven': field 'rare': is not a known field",
        ),
        (
            'text = "Take a trick with a die showing 7."\n',
            "",
            "quest #11 'Lucky Seven': field 'text': is missing",
        ),
        (
            "loot = 5\n",
            "loot = 0\n",
            "quest #25 'On a Roll': field 'loot': Input should be greater than or equal to 1",
        ),
        (
            "loot = 5\n",
            'loot = "5"\n',
            "quest #25 'On a Roll': field 'loot': Input should be a valid integer",
        ),
        (
            'name = "Snake Eye"',
            'name = "Lucky Seven"',
            "quest #11 'Lucky Seven': field 'name': another card has that name",
        ),
        (
            'name = "Rebel Yell"',
            'name = "Creative"',
            "barkeep #10 'Creative': field 'name': another card has that name",
        ),
        (
            'measure = "rerolls"',
            'measure = "re_rolls"',
            "barkeep #6 'Dice Fiend': field 'measure': Input should be 'tricks_won'",
        ),
        (
            'best = "fewest"\n\n[[barkeep]]\nname = "Patron',
            'best = "least"\n\n[[barkeep]]\nname = "Patron',
            "barkeep #3 'Humble Pie': field 'best': Input should be 'most' or 'fewest'",
        ),
        (
            "min_players = 3",
            "min_players = 5",
            "barkeep #1 'Creative': field 'min_players': Input should be less than or equal",
        ),
        (
            'name = "Creative"\n',
            'name = "Creative"\nplayers = 3\n',
            "barkeep #1 'Creative': field 'players': is not a known field",
        ),
    ],
)
def test_a_malformed_pack_names_file_entry_and_field(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    message = load_error(write(tmp_path, changed(old, new)))
    assert expected in message, message


@pytest.mark.parametrize(
    ("deck", "expected"),
    [
        ("[deck]\nhand = 5\n", "'deck': field 'hand': Input should be greater than or equal to 6"),
        ("[deck]\ncopies = 13\n", "'deck': field 'copies': Input should be less than or equal"),
        ("[deck]\ncards = 40\n", "'deck': field 'cards': is not a known field"),
    ],
)
def test_deck_mistakes_name_the_field(tmp_path: Path, deck: str, expected: str) -> None:
    message = load_error(write(tmp_path, deck + STANDARD))
    assert expected in message, message


def test_a_deck_table_changes_the_deck(tmp_path: Path) -> None:
    deck = load(str(write(tmp_path, "[deck]\ncopies = 9\nhand = 7\n" + STANDARD))).content.deck
    assert (deck.copies, deck.hand, deck.bards) == (9, 7, 8)
    assert load().content.deck == Deck()


def test_too_few_quests_or_challenges_is_an_error(tmp_path: Path) -> None:
    cut = STANDARD.index('[[quest]]\nname = "Snake Eye"')
    first_barkeep = STANDARD.index("[[barkeep]]")
    few_quests = STANDARD[:cut] + STANDARD[first_barkeep:]
    assert "field 'quest': List should have at least 12 items" in load_error(
        write(tmp_path, few_quests)
    )
    second = STANDARD.index("[[barkeep]]", first_barkeep + 1)
    assert "field 'barkeep': List should have at least 3 items" in load_error(
        write(tmp_path, STANDARD[:second], "few.toml")
    )


def test_files_that_are_not_packs(tmp_path: Path) -> None:
    assert "not valid TOML" in load_error(write(tmp_path, "[[quest]\nname = 1\n"))
    assert "no such pack file" in load_error(tmp_path / "missing.toml")
    with pytest.raises(ContentError, match="no built-in pack named 'deluxe'"):
        load("deluxe")
