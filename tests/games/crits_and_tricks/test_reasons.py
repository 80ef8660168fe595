"""The tutor's line of reason for Crits & Tricks (issue 25): beside each choice, what the
heuristic bot weighs in it ("about 72% to take it: Player 3 could beat your 12; for 1
Bard").

A line is one short line for every legal action of every position random games reach,
says the same whatever the seat cannot see, and is there for the game's main decisions.
On positions laid out by hand (helpers.py: a small pack of the tests' own, no quests held
unless a test deals them), it says what a person reads, with the chances the rules' own
odds give where the dice alone decide.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from crits_and_tricks_helpers import act, deal, new_game, set_dice, start

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games.crits_and_tricks import GAME, CritsAndTricksState
from tavernkeep.games.crits_and_tricks.reasons import reason as reason_line

BOT = GAME.heuristic_agent()
MAIN = {
    ("give_up", "discard"),
    ("barkeep", "barkeep"),
    ("play", "play"),
    ("reroll", "reroll"),
    ("reroll", "keep"),
    ("bard", "reroll"),
    ("bard", "keep"),
    ("crit", "crit"),
    ("crit", "done"),
}
"""(decision, action) kinds the heuristic puts a chance or a value on: every one of them,
every time, gets a line."""
TABLES = [(2, 21), (3, 22), (4, 23), (3, 24), (4, 25)]
"""(players, seed) of the random games walked."""


def reason(st: CritsAndTricksState, action: Action, seat: int | None = None) -> str:
    actor = GAME.actor(st) if seat is None else seat
    assert actor is not None
    return reason_line(InfoSet(GAME, st, actor, Rng(1)), action)


def positions(players: int, seed: int, actions: int = 400) -> Iterator[CritsAndTricksState]:
    """Every position of a random game (Match, as tests/agents/test_advice.py's midgame)."""
    match = Match.start(GAME, [RandomBot() for _ in range(players)], seed=seed)
    while GAME.actor(match.state) is not None and match.actions < actions:
        yield match.state
        match.step()


def test_the_main_choices_get_a_reason() -> None:
    """(Every line's form, and its sameness on a table dealt again, in every game:
    tests/agents/test_reasons.py.)"""
    told: Counter[tuple[str, str]] = Counter()
    for players, seed in TABLES:
        for st in positions(players, seed):
            kind = st.stack[-1].kind
            for action in GAME.legal_actions(st):
                line = reason(st, action)
                key = (kind, action.kind)
                if line:
                    told[key] += 1
                else:
                    assert key not in MAIN, (action.text, GAME.label(st, action))
    assert set(told) >= MAIN, MAIN - set(told)


# -- what a person reads ---------------------------------------------------------------


def all_dice(st: CritsAndTricksState, seat: int, value: int) -> None:
    set_dice(st, seat, d4=min(value, 4), d6=min(value, 6), d8=min(value, 8),
             d10=min(value, 10), d12=min(value, 12), d20=min(value, 20))


def odds(st: CritsAndTricksState, text: str) -> dict[str, float]:
    seat = GAME.actor(st)
    assert seat is not None
    return InfoSet(GAME, st, seat, Rng(1)).odds(Action.parse(text))


def test_a_card_behind_says_the_rules_chance_of_its_free_reroll() -> None:
    st = start(3)
    deal(st, "barbarian barbarian", "rogue rogue", "barbarian barbarian")
    all_dice(st, 0, 1)
    set_dice(st, 0, d20=12)
    all_dice(st, 1, 1)
    all_dice(st, 2, 1)
    set_dice(st, 2, d20=5)
    act(st, f"play:{st.hands[0][0]},20", "keep", "done")
    act(st, f"play:{st.hands[1][0]},4", "keep", "done")
    # Last to play, 12 or more on a d20 takes it (a tie goes to the later card): 9 in 20.
    play = f"play:{st.hands[2][0]},20"
    assert odds(st, play) == {"to take it": 0.45}
    assert reason(st, Action.parse(play)) == "behind; the free re-roll: 45% to take it"


def test_a_lead_says_who_could_beat_it() -> None:
    st = start(3)
    (mine, _, _) = deal(st, "barbarian barbarian", "rogue rogue", "rogue rogue")
    all_dice(st, 0, 3)
    set_dice(st, 0, d20=19)
    for seat in (1, 2):
        all_dice(st, seat, 2)
        set_dice(st, seat, d20=15)
    card = mine[0]
    # Only the 19 beats every die the others hold; the 19 suits the Barbarian kept too.
    assert reason(st, Action("play", card, 20)) == (
        "takes it: no die left to play beats it; spends a 19 your Barbarian could use"
    )
    assert re.fullmatch(
        r"about \d+% to take it: 2 players could beat your 3", reason(st, Action("play", card, 4))
    )


def test_a_crit_says_the_chance_it_makes_and_the_card_it_costs() -> None:
    st = start(3)
    deal(
        st,
        "barbarian barbarian barbarian barbarian rogue rogue rogue rogue",
        "barbarian barbarian",
        "barbarian barbarian",
    )
    all_dice(st, 0, 1)
    set_dice(st, 0, d20=10)
    for seat in (1, 2):
        all_dice(st, seat, 1)
        set_dice(st, seat, d20=12)  # each could beat (or tie, and win late) a 12, not a 13
    act(st, f"play:{st.hands[0][0]},20", "keep")
    crit = next(c for c in st.hands[0] if st.card_suit[c] == 0)
    now = reason(st, Action("done"))
    found = re.fullmatch(r"as it stands, about (\d+)% to take it: 2 players could beat your 10",
                         now)
    assert found, now
    assert reason(st, Action("crit", crit, 3)) == (
        f"100% to take it, from {found[1]}%; costs a spare card"
    )
    assert reason(st, Action("crit", crit, 1)).startswith(f"about {found[1]}% to take it")


def test_a_quest_given_up_says_its_worth_and_the_bot_gives_up_the_least() -> None:
    st = new_game(3)
    assert st.stack[-1].kind == "give_up"
    seat = GAME.actor(st)
    assert seat is not None
    worth = {}
    for action in GAME.legal_actions(st):
        found = re.fullmatch(
            r"(\d+) loot at a rough \d+% chance to meet it: worth about (\d+\.\d) loot kept",
            reason(st, action),
        )
        assert found, reason(st, action)
        loot = st.content.quest[int(action.args[0])].loot
        assert int(found[1]) == loot
        worth[action] = float(found[2])
    given_up = BOT.choose(InfoSet(GAME, st, seat, Rng(1)))
    assert worth[given_up] == min(worth.values())
