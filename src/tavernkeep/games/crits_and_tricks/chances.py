"""What a seat can know of a trick before it decides: who would take it, and the dice's odds.

Every die is rolled in the open and every card on the table is face up, so who would take
the trick if it ended now, and how a re-roll could change that, follow from public facts
alone: the cards played, their dice and values, the crits used, and which seats still
hold cards. Nothing here reads another seat's hand (only how many cards it holds), the
deck or the dice to come.

A chance is counted face by face, exactly (each face of a dN is 1 in N), never sampled,
and cached: the same table is asked about for every card and die of a decision. It
counts only the dice; crits still to come and the players still to play are left out,
which is why a chance is "to take it" only when nobody is left to play after the seat,
and "to be ahead" (of the cards already played) otherwise.

- A follower's card and die, a re-roll, a Druid crit on an opponent, a Bard crit: the
  chance that the seat takes the trick (or is ahead) once the die lands. A card and die
  count the free re-roll as used only if the card is behind; a Bard crit's second
  re-roll only if the first left the seat behind.
- The leader's re-roll, alone on the table: the chance of a better and of a worse value
  by the led suit's rule (higher in a Barbarian or Paladin trick, lower in a Rogue trick,
  closer to 5 in a Wizard trick); in a Druid trick, where the second-highest value wins,
  of a higher and of a lower one.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from tavernkeep.games.crits_and_tricks.state import DICE, CritsAndTricksState
from tavernkeep.games.crits_and_tricks.tricks import (
    BARBARIAN,
    BARD,
    DRUID,
    NEVER,
    PALADIN,
    ROGUE,
    WIZARD,
    Lay,
    winner,
)

TAKE = "to take it"
"""The chance's name when nobody is left to play after the seat: it takes the trick."""
AHEAD = "to be ahead"
"""The chance's name while players are still to play: ahead of the cards played."""
BETTER, WORSE = "better", "worse"
HIGHER, LOWER = "higher", "lower"

Odds = dict[str, float]


def player(seat: int) -> str:
    return f"Player {seat + 1}"


def table_lays(st: CritsAndTricksState) -> tuple[Lay, ...]:
    """The cards on the table as `tricks.winner` reads them (all public)."""
    return tuple(
        Lay(
            c.seat,
            st.card_suit[c.card],
            c.followed,
            DICE[c.die],
            st.dice[c.seat][c.die],
            c.order,
            c.paladin,
        )
        for c in st.table
    )


def still_to_play(st: CritsAndTricksState, seat: int) -> bool:
    """Whether any other seat is still to play to this trick: one that has not played
    and holds a card (how many cards a seat holds is public)."""
    played = {c.seat for c in st.table}
    return any(s != seat and s not in played and st.hands[s] for s in range(st.players))


def chance_name(st: CritsAndTricksState, seat: int) -> str:
    return AHEAD if still_to_play(st, seat) else TAKE


def taker_text(seat: int, taker: int) -> str:
    """'you would take it now' or 'Player 2 would take it now', for `seat`'s reader."""
    who = "you" if taker == seat else player(taker)
    return f"{who} would take it now"


def standing(led: int, lays: tuple[Lay, ...], seat: int) -> str:
    """Who would take the trick, the cards being `lays`; '' when `seat` is alone on it
    (the leader before anyone follows: it takes a trick nobody else is in yet)."""
    if len(lays) < 2:
        return ""
    return taker_text(seat, winner(led, list(lays)))


@lru_cache(maxsize=8192)
def _reroll(led: int, lays: tuple[Lay, ...], index: int, seat: int) -> Fraction:
    """The chance that `seat` takes the trick when the die of `lays[index]` is re-rolled
    (the seat's own die, or an opponent's under a Druid crit)."""
    lay = lays[index]
    wins = 0
    for face in range(1, lay.die + 1):
        trial = list(lays)
        trial[index] = lay._replace(value=face)
        if winner(led, trial) == seat:
            wins += 1
    return Fraction(wins, lay.die)


def _key(led: int, value: int) -> int:
    """How good a value is by the led suit's rule, higher being better (not the Druid's)."""
    if led == ROGUE:
        return -value
    if led == WIZARD:
        return -abs(value - 5)
    return value  # Barbarian, Paladin


@lru_cache(maxsize=1024)
def _alone(led: int, size: int, value: int) -> tuple[Fraction, Fraction]:
    """For a card alone on the table, showing `value` on a d`size`: the chances that a
    re-roll shows a better and a worse value by the led suit's rule (for a Druid trick,
    a higher and a lower one)."""
    if led == DRUID:
        better = sum(1 for face in range(1, size + 1) if face > value)
        worse = sum(1 for face in range(1, size + 1) if face < value)
    else:
        now = _key(led, value)
        better = sum(1 for face in range(1, size + 1) if _key(led, face) > now)
        worse = sum(1 for face in range(1, size + 1) if _key(led, face) < now)
    return Fraction(better, size), Fraction(worse, size)


def _alone_odds(led: int, lay: Lay, twice: bool) -> Odds:
    better, worse = _alone(led, lay.die, lay.value)
    if twice:
        # Re-rolling again whenever the first re-roll is not better than the value now.
        worse = (1 - better) * worse
        better = 1 - (1 - better) ** 2
    if led == DRUID:
        return {HIGHER: float(better), LOWER: float(worse)}
    return {BETTER: float(better), WORSE: float(worse)}


def _own(st: CritsAndTricksState, seat: int) -> tuple[tuple[Lay, ...], int]:
    """The lays on the table and the index of `seat`'s own (the last played)."""
    lays = table_lays(st)
    index = next(i for i, lay in enumerate(lays) if lay.seat == seat)
    return lays, index


# -- the decisions --------------------------------------------------------------------------


def play_lays(st: CritsAndTricksState, seat: int, card: int, size: int) -> tuple[Lay, ...]:
    """The table once `seat` plays `card` on its d`size` (a follower's play)."""
    suit = st.card_suit[card]
    followed = suit == st.led or suit == BARD
    die = DICE.index(size)
    mine = Lay(seat, suit, followed, size, st.dice[seat][die], len(st.table), NEVER)
    return (*table_lays(st), mine)


def play_note(st: CritsAndTricksState, seat: int, card: int, size: int) -> str:
    """For a follower's card and die: off suit, or who would take the trick once played."""
    if not st.table:
        return ""
    suit = st.card_suit[card]
    if suit != st.led and suit != BARD:
        return "off suit, cannot win"
    return standing(st.led, play_lays(st, seat, card, size), seat)


def play_odds(st: CritsAndTricksState, seat: int, card: int, size: int) -> Odds:
    """A follower's card and die: the chance to take the trick (or to be ahead), using the
    free re-roll only if the card is behind once played. None for the leader or off suit."""
    if not st.table:
        return {}
    suit = st.card_suit[card]
    if suit != st.led and suit != BARD:
        return {}
    lays = play_lays(st, seat, card, size)
    if winner(st.led, list(lays)) == seat:
        chance = Fraction(1)
    else:
        chance = _reroll(st.led, lays, len(lays) - 1, seat)
    return {chance_name(st, seat): float(chance)}


def reroll_odds(st: CritsAndTricksState, seat: int, twice: bool = False) -> Odds:
    """The seat's own re-roll (`twice`: the Bard crit's, with a second one if wanted)."""
    lays, index = _own(st, seat)
    if len(lays) == 1:
        return _alone_odds(st.led, lays[index], twice)
    if not lays[index].followed:
        return {chance_name(st, seat): 0.0}
    chance = _reroll(st.led, lays, index, seat)
    if twice:
        chance = 1 - (1 - chance) ** 2
    return {chance_name(st, seat): float(chance)}


def druid_odds(st: CritsAndTricksState, seat: int, target: int) -> Odds:
    """A Druid crit on `target`, who re-rolls the die it played to this trick."""
    lays = table_lays(st)
    index = next(i for i, lay in enumerate(lays) if lay.seat == target)
    return {chance_name(st, seat): float(_reroll(st.led, lays, index, seat))}


def keep_note(st: CritsAndTricksState, seat: int) -> str:
    """Keeping the die (or ending the turn): who would take the trick as it stands."""
    return standing(st.led, table_lays(st), seat)


def crit_note(st: CritsAndTricksState, seat: int, suit: int, arg: int) -> str:
    """After a crit whose outcome is sure (Barbarian, Rogue, Wizard, Paladin): who would
    take the trick. `arg` is the Barbarian's change or the Wizard's die size."""
    lays, index = _own(st, seat)
    if len(lays) < 2:
        return ""
    mine = lays[index]
    if suit == BARBARIAN:
        mine = mine._replace(value=mine.value + arg)
    elif suit == ROGUE:
        # As the rules order it: after everyone, and after every crit so far.
        crits = sum(len(c.crits) for c in st.table) + 1
        mine = mine._replace(order=st.players + 1 + crits)
    elif suit == WIZARD:
        mine = mine._replace(die=arg, value=st.dice[seat][DICE.index(arg)])
    elif suit == PALADIN:
        mine = mine._replace(paladin=st.paladins + 1)
    else:
        return ""
    after = list(lays)
    after[index] = mine
    return standing(st.led, tuple(after), seat)


# -- the Barkeep's Challenge ------------------------------------------------------------------


def _names(seats: list[int]) -> str:
    return " and ".join(player(s) for s in seats)


def barkeep_note(st: CritsAndTricksState, seat: int, measure: str) -> str:
    """The dice's word on a challenge that counts values played: every die is played
    once a round, one a trick, so the dice as they show now are what each seat would
    play if nobody re-rolled or used a crit. '' for the other challenges."""
    others = [s for s in range(st.players) if s != seat]
    if not others:
        return ""
    if measure == "highest_value":
        mine = max(st.dice[seat])
        best = max(max(st.dice[s]) for s in others)
        who = [s for s in others if max(st.dice[s]) == best]
        return f"dice now: your highest {mine}, the others' {best} ({_names(who)})"
    if measure == "total_value":
        mine = sum(st.dice[seat])
        low = min(sum(st.dice[s]) for s in others)
        who = [s for s in others if sum(st.dice[s]) == low]
        return f"dice now: your total {mine}, the others' lowest {low} ({_names(who)})"
    return ""
