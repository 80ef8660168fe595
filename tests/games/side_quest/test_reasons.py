"""The tutor's line for each choice of Side Quest (reasons.py, agents/advice.py):
what the team's heuristic weighs in it, in a line, from what the seat sees.

Random and heuristic games hold every line to its form (a short single line, never an
error, the main choices never silent, the same on any deal the seat cannot tell apart);
positions laid out by hand hold the words to the game's own numbers: an attack states
the chance its odds give, a move its Grab Attacks', a weapon the damage it deals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from side_quest_helpers import arena, card, put

from tavernkeep.agents import make_bot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games.side_quest import GAME, SideQuestState
from tavernkeep.games.side_quest.reasons import reason as reason_line

LONGEST = 120
"""A line beside a choice: the reasons aim for 110 characters; none may run far past."""
MAIN = {
    "attack",
    "move",
    "loot",
    "rescue",
    "key",
    "pickup",
    "drop",
    "cast",
    "use",
    "ability",
    "reroll",
    "hero",
    "weapon",
    "equip",
    "enter",
    "wound",
}
"""The choices with odds or a value in the heuristic: each always gets a line."""
POCK, HILDE = "Pock Quickfingers", "Hilde Stonewall"
STAFF, SWORD, SLING, AXE = (
    "Iron-shod Staff",
    "Notched Shortsword",
    "Leather Sling",
    "Woodcutter's Axe",
)


def reason(st: SideQuestState, text: str, seat: int = 0) -> str:
    return reason_line(InfoSet(GAME, st, seat, Rng(1)), Action.parse(text))


def odds(st: SideQuestState, text: str) -> dict[str, float]:
    return GAME.odds(st, Action.parse(text))


def positions() -> Iterator[tuple[SideQuestState, int]]:
    """Decisions of random games (every table size) and of the heuristic team's, each
    with the seat deciding: the main choices all come up among them."""
    for bot, seeds, every in (("bot:random", (1, 2), 2), ("bot:heuristic", (3,), 3)):
        for seed in seeds:
            for players in range(GAME.min_players, GAME.max_players + 1):
                agents = [make_bot(bot, GAME) for _ in range(players)]
                match = Match.start(GAME, agents, seed=seed, record_events=False)
                while (seat := GAME.actor(match.state)) is not None and match.actions < 250:
                    if match.actions % every == 0:
                        yield match.state, seat
                    match.step()


def test_every_choice_gets_a_short_line_the_same_on_any_deal_the_seat_cannot_tell() -> None:
    said: Counter[str] = Counter()
    for st, seat in positions():
        info = InfoSet(GAME, st, seat, Rng(1))
        # The same table dealt again where the seat cannot see: the decks, the face-down
        # Locations, the dice to come.
        other = InfoSet(GAME, GAME.determinize(st, seat, Rng(99)), seat, Rng(1))
        for action in info.legal_actions():
            line = reason_line(info, action)
            assert isinstance(line, str) and "\n" not in line, (action.text, line)
            assert len(line) <= LONGEST, line
            assert line == reason_line(other, action), action.text
            if action.kind in MAIN:
                assert line, f"{action.text} ({info.label(action)}) got no line"
            said[action.kind] += 1
    # Each main kind of choice was met, so that the checks above had something to check.
    met = {"attack", "move", "loot", "pickup", "drop", "cast", "use", "ability"}
    assert met | {"hero", "weapon", "equip", "enter", "wound"} <= set(said), said


def test_an_attack_states_its_odds_chance_to_slay_and_what_the_kill_spares() -> None:
    """Pock's Staff (2d 4+ dmg1) against an Ogre Bruiser (2 health, 2d 5+ dmg2) beside
    him: both dice must hit; the Ogre would strike this Monster phase for 2 x 1/3 x 2."""
    st = arena([POCK], [STAFF], [0])
    put(st, "Ogre Bruiser", 0)
    chances = odds(st, "attack:1")
    slay, boosted = chances["2+ damage"], chances["2+ with boost"]
    assert (f"{slay:.0%}", f"{boosted:.0%}") == ("25%", "61%")
    assert reason(st, "attack:1") == (
        f"{slay:.0%} ({boosted:.0%} with boost) to slay Ogre Bruiser: "
        "it strikes this Monster phase (~1.3 damage)"
    )
    # A Sling's one hit of 1 cannot slay it: said so, not a 0% chance.
    st = arena([POCK], [SLING], [0])
    put(st, "Ogre Bruiser", 0)
    assert reason(st, "attack:1") == (
        "no kill: Ogre Bruiser has 2 health, more than these dice can deal"
    )


def test_a_move_states_its_grab_attacks_odds_and_who_strikes_where_it_ends() -> None:
    st = arena([POCK], [STAFF], [0])
    put(st, "Ogre Bruiser", 0)
    put(st, "Cellar Rat", 1)
    grabs = odds(st, "move:2")
    hurt, fall = 1 - grabs["unhurt"], grabs["fall"]
    # The Rat stands where Pock would go (his Staff reaches it), and with Pock there it
    # and the Ogre beside it both go for him.
    assert reason(st, "move:2") == (
        f"Grab Attacks: {hurt:.0%} to hurt you, {fall:.0%} to fell you; "
        "there: Cellar Rat in reach; 2 Monsters strike you"
    )
    assert reason(st, "end") == ""  # nothing to weigh: the label says it


def test_a_roll_states_its_chance_and_its_prize() -> None:
    st = arena([POCK, HILDE], [STAFF, SWORD], [1, 2])
    damsel = put(st, "a Damsel", 1)
    st.depth[damsel] = 2  # one step from the skull
    rescue = odds(st, f"rescue:{damsel}")
    assert reason(st, f"rescue:{damsel}") == (
        f"{rescue['success']:.0%} ({rescue['with boost']:.0%} with boost) to rescue her; "
        "one step from the skull: lost this End phase, and the game with her"
    )
    loot = odds(st, "loot")
    assert reason(st, "loot") == (
        f"{loot['success']:.0%} ({loot['with boost']:.0%} with boost) to draw a Loot card; "
        f"{len(st.loot_deck)} cards left in the deck"
    )


def test_a_weapon_is_weighed_by_the_damage_it_deals_in_hand() -> None:
    """An Axe (2h 1d 3+ dmg2: 4/3 damage an attack) beside Pock's Shortsword (1h 1d 3+
    dmg1: 2/3); the Axe takes both hands."""
    st = arena([POCK], [SWORD], [0])
    axe = put(st, AXE, 0)
    assert reason(st, f"pickup:{axe}") == (
        "held: 1.3 damage an attack, range 0 (now 0.7 damage an attack, range 0)"
    )
    assert reason(st, f"drop:{card(st, SWORD)}") == "you are not Overburdened: nothing to gain"
