"""What a bot may know, and how the heuristic bot plays.

`determinize` must keep the cards a seat has seen in another hand where they are (and
re-deal only the rest); the heuristic bot must make the plays a player would call
obviously right, on positions laid out by hand.
"""

from __future__ import annotations

from here_to_slay_helpers import (
    PACK,
    act,
    choose,
    decision,
    dice,
    field,
    give,
    new_game,
    on_top,
    set_row,
    slain_by,
)

from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games.here_to_slay import GAME, HereToSlayState


def samples(st: HereToSlayState, seat: int, count: int = 40) -> list[HereToSlayState]:
    return [GAME.determinize(st, seat, Rng(k)) for k in range(count)]


def test_a_hand_looked_at_stays_known_to_the_looker_only() -> None:
    st = new_game()
    (lira,) = field(st, 0, "Lira Nightveil")
    seen = give(st, 1, "Fireball", "Tempest", "Arcane Surge")
    dice(st, 6, 6)
    act(st, f"roll:{lira}")
    choose(st, 1)
    act(st, f"pick:{seen[0]}")
    # Seat 0 saw Player 2's whole hand: every sample keeps the two cards left there.
    for twin in samples(st, 0):
        assert sorted(twin.hands[1]) == sorted(seen[1:])
    # Seat 2 saw nothing: its samples deal Player 2 other cards.
    assert any(sorted(twin.hands[1]) != sorted(seen[1:]) for twin in samples(st, 2))


def test_a_pulled_card_is_known_to_the_player_it_was_pulled_from() -> None:
    st = new_game()
    (nib,) = field(st, 0, "Nib Quickfingers")
    (card,) = give(st, 1, "Fireball")
    dice(st, 6, 6)
    act(st, f"roll:{nib}")
    choose(st, 1)
    assert card in st.hands[0]
    for twin in samples(st, 1):
        assert card in twin.hands[0]
    assert any(card not in twin.hands[0] for twin in samples(st, 2))


def test_a_hero_returned_to_hand_is_known_to_everyone_until_it_leaves() -> None:
    st = new_game()
    (mara,) = field(st, 0, "Mara Lanternbearer")
    (hero,) = field(st, 1, "Pim the Apprentice")
    dice(st, 6, 6)
    act(st, f"roll:{mara}")
    choose(st, 1)
    act(st, f"pick:{hero}")
    assert hero in st.hands[1]
    for seat in (0, 2):
        for twin in samples(st, seat):
            assert hero in twin.hands[1]


def test_a_drawn_card_waiting_to_be_played_at_once_is_dealt_again_for_the_others() -> None:
    # The pending "play it at once?" names the card: a sample of another seat must name
    # the card dealt in its place, or the searcher would know what was drawn.
    st = new_game()
    slain_by(st, 0, "Thornback Bear")
    field(st, 0, "Pim the Apprentice")
    give(st, 0, "Fireball", "Tempest")
    (band,) = on_top(st, "Band of Fortune")
    act(st, "draw")
    assert decision(st) == (0, "play_now")
    theirs = samples(st, 1)
    assert all(twin.stack[-1].args[0] in twin.hands[0] for twin in theirs)
    assert any(twin.stack[-1].args[0] != band for twin in theirs)
    assert all(twin.stack[-1].args[0] == band for twin in samples(st, 0)), "its drawer's own"


def test_samples_keep_counts_and_every_card_once() -> None:
    st = new_game()
    give(st, 1, "Fireball", "Tempest")
    give(st, 2, "Arcane Surge")
    for twin in samples(st, 0):
        assert [len(h) for h in twin.hands] == [len(h) for h in st.hands]
        everything = twin.deck + [c for h in twin.hands for c in h]
        assert sorted(everything) == sorted(st.deck + [c for h in st.hands for c in h])


# -- the heuristic bot -------------------------------------------------------------------


def choice(st: HereToSlayState) -> Action:
    seat = GAME.actor(st)
    assert seat is not None
    return GAME.heuristic_agent().choose(InfoSet(GAME, st, seat, Rng(1)))


def test_it_attacks_a_monster_it_can_slay() -> None:
    st = new_game()
    field(st, 0, "Pim the Apprentice", "Brannoc the Brawler")
    set_row(st, "Grimtooth Ogre", "The Ancient Wyrm", "The Deathless Lich")
    ogre = st.row[0]
    assert choice(st) == Action("attack", ogre)


def test_it_goes_for_the_third_monster_over_anything_else() -> None:
    st = new_game()
    field(st, 0, "Pim the Apprentice", "Brannoc the Brawler")
    slain_by(st, 0, "Siren of the Black Lake")
    slain_by(st, 0, "Thornback Bear")
    give(st, 0, "Arcane Surge", "Lark the Busker")
    set_row(st, "The Deathless Lich", "The Ancient Wyrm", "Storm Hydra")
    hydra = st.row[2]  # 10+ slays: the only one its two Heroes can take on
    assert choice(st) == Action("attack", hydra)


def test_it_plays_a_hero_of_a_class_it_lacks() -> None:
    st = new_game()
    field(st, 0, "Pim the Apprentice")
    (same,) = give(st, 0, "Mordaine Ashbrook")  # another Wizard
    (new,) = give(st, 0, "Brannoc the Brawler")  # a Fighter
    set_row(st, "The Ancient Wyrm", "The Bone Colossus", "The Hollow King")
    assert choice(st) == Action("play", new)
    assert same in st.hands[0]


def test_it_curses_an_opponent_never_itself() -> None:
    st = new_game()
    (mine,) = field(st, 0, "Pim the Apprentice")
    (theirs,) = field(st, 1, "Sable Warbrand")
    (chains,) = give(st, 0, "Binding Chains")
    set_row(st, "The Ancient Wyrm", "The Bone Colossus", "The Hollow King")
    st.deck.clear()  # nothing to draw: the Curse is the play left
    st.discard.clear()
    picked = choice(st)
    assert picked.kind == "play" and picked.args[0] == chains
    assert picked.args[1] == theirs != mine


def test_it_plays_the_smallest_modifier_that_saves_its_own_attack() -> None:
    st = new_game()
    field(st, 0, "Pim the Apprentice", "Brannoc the Brawler")
    set_row(st, "Grimtooth Ogre", "The Ancient Wyrm", "The Deathless Lich")
    ogre = st.row[0]
    might, fickle = give(st, 0, "Blessing of Might", "Fickle Fortune")
    dice(st, 3, 3)  # 6: one short of nothing, two short of 8 to slay
    act(st, f"attack:{ogre}")
    assert choice(st) == Action("modify", fickle, 2, 1)
    assert might in st.hands[0]


def test_it_spoils_an_opponents_attack() -> None:
    st = new_game()
    field(st, 0, "Pim the Apprentice", "Brannoc the Brawler")
    set_row(st, "Grimtooth Ogre", "The Ancient Wyrm", "The Deathless Lich")
    ogre = st.row[0]
    (hex_,) = give(st, 1, "Hex of Weakness")
    dice(st, 4, 5)
    act(st, f"attack:{ogre}")  # 9: slays unless someone answers
    assert GAME.actor(st) == 1
    assert choice(st) == Action("modify", hex_, -4, 1)


def test_it_keeps_its_modifier_when_the_attack_fails_anyway() -> None:
    st = new_game()
    field(st, 0, "Pim the Apprentice", "Brannoc the Brawler")
    set_row(st, "Grimtooth Ogre", "The Ancient Wyrm", "The Deathless Lich")
    ogre = st.row[0]
    give(st, 1, "Hex of Weakness")
    dice(st, 1, 2)
    act(st, f"attack:{ogre}")  # 3: the Ogre punishes; a Hex would change nothing
    assert GAME.actor(st) == 1
    assert choice(st) == Action("pass")


def test_it_challenges_a_hero_that_would_complete_the_leaders_party() -> None:
    st = new_game()
    field(st, 0, "Pim the Apprentice", "Brannoc the Brawler", "Brother Aldous", "Fenn Thistlefoot")
    slain_by(st, 0, "Siren of the Black Lake")
    (hero,) = give(st, 0, "Nib Quickfingers")  # a Thief: a sixth class with the Leader's
    give(st, 1, "Not So Fast!")
    act(st, f"play:{hero}")
    assert GAME.actor(st) == 1
    assert choice(st) == Action("challenge")


def test_it_wins_most_games_against_random_bots() -> None:
    wins = 0
    games = 60
    for seed in range(games):
        agents = [GAME.heuristic_agent()] + [RandomBot()] * 3
        match = Match(GAME, agents, seed, GAME.make_config({"players": 4}), PACK)
        result = match.run()
        wins += 0 in result.winners
    # Its fair share is 25%; over 5,000 games it wins far more (README).
    assert wins >= games * 0.7

