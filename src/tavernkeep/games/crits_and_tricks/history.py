"""What happened in a round, as quests and the Barkeep read it.

A finished trick is a `Trick` of `Play`s; the rules append one after each trick. Quests
(`quest_met`) and Barkeep's Challenges (`measure`) are pure functions of those records,
so they are tested without playing a game and a designer's new condition is checked the
same way as the standard ones.
"""

from __future__ import annotations

from typing import NamedTuple

from tavernkeep.games.crits_and_tricks.content import Barkeep, Quest, When

BARD = "Bard"


class Play(NamedTuple):
    seat: int
    card: int
    suit: str
    """The suit printed on the card."""
    followed: bool
    """Of the led suit, or a Bard (which always follows); the leader's card is."""
    die: int
    """The die's size (4, 6, 8, 10, 12, 20) at the end of the turn (a Wizard may swap it)."""
    value: int
    """The die's value at the end of the trick (after re-rolls, crits, a Druid's re-roll)."""
    crits: tuple[str, ...]
    """The suits of the cards the seat used for their crits on this turn."""
    rerolled: bool
    """The seat used its free re-roll on this turn."""


class Trick(NamedTuple):
    number: int
    """1-6 within the round."""
    leader: int
    led: str
    """The suit led (a led Bard counts as the suit it named)."""
    plays: tuple[Play, ...]
    """In the order they were played."""
    winner: int


def play_meets(when: When, trick: Trick, play: Play) -> bool:
    """Whether one seat's play in one trick is what `when` asks for."""
    won = trick.winner == play.seat
    if when.result == "win" and not won:
        return False
    if when.result == "lose" and won:
        return False
    if when.suit is not None and play.suit != when.suit:
        return False
    if when.led is not None and trick.led != when.led:
        return False
    if when.leading is not None and (trick.leader == play.seat) != when.leading:
        return False
    if when.followed is not None and play.followed != when.followed:
        return False
    if when.die is not None and play.die != when.die:
        return False
    if when.value is not None and play.value != when.value:
        return False
    if when.min_value is not None and play.value < when.min_value:
        return False
    if when.max_value is not None and play.value > when.max_value:
        return False
    if when.crit is not None and (
        not play.crits or (when.crit != "any" and when.crit not in play.crits)
    ):
        return False
    if when.crits is not None and len(play.crits) < when.crits:
        return False
    if when.rerolled is not None and play.rerolled != when.rerolled:
        return False
    if when.trick is not None and trick.number != when.trick:
        return False
    if when.bards is not None and sum(p.suit == BARD for p in trick.plays) < when.bards:
        return False
    if when.highest is not None:
        top = max(p.value for p in trick.plays)
        if (play.value == top) != when.highest:
            return False
    if when.lowest is not None:
        bottom = min(p.value for p in trick.plays)
        if (play.value == bottom) != when.lowest:
            return False
    return True


def seat_meets(when: When, trick: Trick, seat: int) -> bool:
    play = next((p for p in trick.plays if p.seat == seat), None)
    return play is not None and play_meets(when, trick, play)


def quest_met(quest: Quest, tricks: list[Trick], seat: int) -> bool:
    """Whether the round's last trick completes `quest` for `seat`: it meets the
    condition, and with `times`, enough of the round's tricks have (in a row, if asked)."""
    if not tricks or not seat_meets(quest.when, tricks[-1], seat):
        return False
    if quest.times == 1:
        return True
    if quest.in_a_row:
        recent = tricks[-quest.times :]
        return len(recent) == quest.times and all(
            seat_meets(quest.when, t, seat) for t in recent
        )
    return sum(1 for t in tricks if seat_meets(quest.when, t, seat)) >= quest.times


def measure(challenge: Barkeep, tricks: list[Trick], seat: int, cards_left: int) -> int:
    """What a Barkeep's Challenge counts for `seat` over the round's tricks."""
    mine = [(t, p) for t in tricks for p in t.plays if p.seat == seat]
    won = [(t, p) for t, p in mine if t.winner == seat]
    kind = challenge.measure
    if kind == "tricks_won":
        return len(won)
    if kind == "bards_won":
        return sum(sum(q.suit == BARD for q in t.plays) for t, _ in won)
    if kind == "crits_used":
        return sum(len(p.crits) for _, p in mine)
    if kind == "rerolls":
        return sum(p.rerolled for _, p in mine)
    if kind == "cards_left":
        return cards_left
    if kind == "highest_value":
        return max((p.value for _, p in mine), default=0)
    if kind == "total_value":
        return sum(p.value for _, p in mine)
    if kind == "suits_won":
        return len({t.led for t, _ in won})
    if kind == "dice_won":
        return len({p.die for _, p in won})
    if kind == "off_suit_played":
        return sum(not p.followed for _, p in mine)
    raise AssertionError(f"no measure '{kind}'")


def barkeep_winner(scores: list[int], best: str) -> int:
    """The one seat that best meets the challenge; -1 on a tie (RULES)."""
    target = max(scores) if best == "most" else min(scores)
    best_seats = [s for s, v in enumerate(scores) if v == target]
    return best_seats[0] if len(best_seats) == 1 else -1
