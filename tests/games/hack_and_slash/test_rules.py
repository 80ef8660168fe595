"""Every rule of Hack & Slash, driven by chosen dice.

Each test builds a game on a small pack of its own (so a retuned standard pack changes
nothing here), lays out the face-up quests and the draw pile by hand, and replaces the
game's RNG with a ScriptedRng holding exactly the dice the test wants rolled.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from typing import Any

import pytest

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.engine.errors import ConfigError, IllegalAction
from tavernkeep.engine.events import Event
from tavernkeep.engine.rng import Rng, ScriptedRng
from tavernkeep.games.hack_and_slash import GAME, HackAndSlashState
from tavernkeep.games.hack_and_slash.content import BragCard, HackAndSlashPack, QuestCard

EMPTY = -1

QUESTS: dict[str, dict[str, Any]] = {
    "One Die": {"challenge": 1, "goal": 3, "reward": 1},
    "Two Dice": {"challenge": 2, "goal": 7, "reward": 2},
    "Three Dice": {"challenge": 3, "goal": 12, "reward": 5},
    "Exact Seven": {"challenge": 2, "goal": 7, "exact": True, "reward": 4},
    "Recruits": {"challenge": 1, "goal": 2, "reward": 1, "adventurer": True},
    "Other Die": {"challenge": 1, "goal": 3, "reward": 1},
    "Long Road": {"challenge": 2, "goal": 6, "reward": 3},
}
ROW = ("One Die", "Two Dice", "Three Dice")


def make_pack(
    quests: dict[str, dict[str, Any]] | None = None, brag: dict[str, Any] | None = None
) -> Pack[HackAndSlashPack]:
    content = HackAndSlashPack(
        brag=BragCard(**(brag or {})),
        quest=[QuestCard(name=name, **fields) for name, fields in (quests or QUESTS).items()],
    )
    return Pack(game=GAME.name, name="rules-test", digest="rules-test", content=content)


PACK = make_pack()


def new_game(
    players: int = 3,
    dice: tuple[int, ...] | list[int] = (),
    row: tuple[str | None, ...] = ROW,
    pile: tuple[str, ...] | None = None,
    pack: Pack[HackAndSlashPack] = PACK,
    **options: Any,
) -> HackAndSlashState:
    """A fresh game with the named quests face up and `pile` as the draw pile (top last).

    Without `pile`, every card not in the row is in the pile, in pack order (so the top
    card, revealed first, is the last one of the pack that is not face up).
    """
    config = GAME.make_config({"players": players, **options})
    state = GAME.setup(config, 1, pack)
    names = [card.name for card in state.cards]
    state.row = [EMPTY if name is None else names.index(name) for name in row]
    if pile is None:
        state.pile = [i for i in range(1, len(names)) if i not in state.row]
    else:
        state.pile = [names.index(name) for name in pile]
    state.rng = ScriptedRng(list(dice))
    return state


def play(state: HackAndSlashState, *texts: str) -> list[Event]:
    events: list[Event] = []
    for text in texts:
        events += GAME.apply(state, Action.parse(text))
    return events


def name_of(state: HackAndSlashState, card: int) -> str | None:
    return None if card == EMPTY else state.cards[card].name


def row_names(state: HackAndSlashState) -> list[str | None]:
    return [name_of(state, card) for card in state.row]


def texts(events: list[Event]) -> str:
    return "\n".join(event.text for event in events)


def legal(state: HackAndSlashState) -> list[str]:
    return [action.text for action in GAME.legal_actions(state)]


def one_line(error: BaseException) -> str:
    message = str(error)
    assert message
    assert "\n" not in message
    return message


def meeples(state: HackAndSlashState) -> int:
    return sum(state.parties) + state.on_card + state.tavern


# -- setup and players ---------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_three_to_six_players_each_start_with_eight_and_the_rest_in_the_tavern(
    players: int,
) -> None:
    state = GAME.setup(GAME.make_config({"players": players}), 3, PACK)
    assert state.parties == [8] * players
    assert state.tavern == 50 - 8 * players
    assert state.stand_ins == 0
    assert state.scores == [0] * players
    assert GAME.actor(state) == 0
    view = GAME.view(state, None)
    assert view["players"] == players
    assert view["tavern"] == 50 - 8 * players


def test_setup_shows_three_quests_and_keeps_the_rest_face_down() -> None:
    state = GAME.setup(GAME.make_config({"players": 4}), 3, PACK)
    assert len(state.row) == 3
    assert len(state.pile) == len(QUESTS) - 3
    assert sorted(state.row + state.pile) == list(range(1, len(QUESTS) + 1))
    assert 0 not in state.row + state.pile  # the Brag has its own place
    view = GAME.view(state, None)
    assert view["draw_pile"] == len(QUESTS) - 3
    assert view["brag"]["name"] == "Brag at the Tavern"


def test_the_shuffle_depends_on_the_seed() -> None:
    config = GAME.make_config({"players": 3})
    layouts = {
        tuple(GAME.setup(config, seed, PACK).row + GAME.setup(config, seed, PACK).pile)
        for seed in range(20)
    }
    assert len(layouts) > 10
    again = GAME.setup(config, 5, PACK)
    assert again == GAME.setup(config, 5, PACK)


def test_two_players_only_with_the_variant() -> None:
    with pytest.raises(ConfigError) as error:
        GAME.make_config({"players": 2})
    assert "two_player" in one_line(error.value)
    state = GAME.setup(GAME.make_config({"players": 2, "two_player": True}), 1, PACK)
    assert state.parties == [8, 8]
    assert state.tavern == 34


@pytest.mark.parametrize("players", [0, 1, 7, 12])
def test_other_player_counts_are_refused_in_one_line(players: int) -> None:
    with pytest.raises(ConfigError) as error:
        GAME.make_config({"players": players, "two_player": True})
    assert str(players) in one_line(error.value)


@pytest.mark.parametrize(
    "options",
    [{"colour": "red"}, {"round_limit": -1}, {"empty_tavern": "maybe"}, {"players": "many"}],
)
def test_bad_options_are_refused_in_one_line(options: dict[str, Any]) -> None:
    with pytest.raises(ConfigError) as error:
        GAME.make_config(options)
    one_line(error.value)


def test_an_unknown_option_is_named_with_the_known_ones() -> None:
    with pytest.raises(ConfigError) as error:
        GAME.make_config({"colour": "red"})
    message = one_line(error.value)
    assert "colour" in message
    assert "round_limit" in message


# -- the Brag at the Tavern ------------------------------------------------------------


def test_brag_is_always_available_even_with_every_slot_empty() -> None:
    state = new_game(row=(None, None, None), pile=())
    assert legal(state) == ["brag"]
    state = new_game()
    assert "brag" in legal(state)


def test_brag_success_gives_an_adventurer_but_no_points_and_stays() -> None:
    state = new_game(dice=[4])
    pile, row = state.pile[:], state.row[:]
    events = play(state, "brag")
    assert state.parties == [9, 8, 8]
    assert state.tavern == 26 - 1
    assert state.scores == [0, 0, 0]
    assert state.score_piles == [[], [], []]
    assert state.row == row and state.pile == pile
    assert GAME.actor(state) == 1
    assert "brag" in legal(state)
    assert "gains an adventurer" in texts(events)


def test_brag_needs_four_or_more_and_a_failure_is_an_ordinary_failure() -> None:
    state = new_game(dice=[3])
    play(state, "brag")
    assert GAME.actor(state) == 0
    assert legal(state) == ["quit", "rescue:3"]
    play(state, "quit")
    assert state.parties == [7, 8, 8]
    assert state.tavern == 27


def test_a_rescued_brag_brings_the_rescuer_home_and_still_gives_one_adventurer() -> None:
    state = new_game(dice=[2, 5])
    play(state, "brag", "rescue:2")
    assert state.parties == [9, 8, 8]
    assert state.tavern == 25
    assert state.score_piles == [[], [], []]


# -- taking a quest ------------------------------------------------------------------


def test_a_quest_needs_enough_adventurers_at_home() -> None:
    state = new_game()
    state.parties[0] = 2
    state.tavern += 6
    assert legal(state) == ["quest:1", "quest:2", "brag"]
    before = GAME.clone(state)
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, Action("quest", 3))
    message = one_line(error.value)
    assert "Three Dice" in message and "3 adventurers" in message
    assert state == before


@pytest.mark.parametrize(("slot", "sent"), [(0, 1), (1, 2), (2, 3)])
def test_as_many_dice_are_rolled_as_adventurers_are_sent(slot: int, sent: int) -> None:
    state = new_game(dice=[1, 1, 1, 6, 6])
    events = play(state, f"quest:{slot + 1}")
    rolls = [event for event in events if event.kind == "roll"]
    assert len(rolls) == 1
    assert len(rolls[0].data["dice"]) == sent
    assert rolls[0].data["dice"] == [1] * sent
    # Exactly that many dice came off the script.
    assert isinstance(state.rng, ScriptedRng)
    assert len(state.rng.script) == 5 - sent
    # All failed; the dice on the card are shown while the player decides.
    view = GAME.view(state, 0)
    assert view["attempt"]["adventurers"] == sent
    assert view["attempt"]["dice"] == [1] * sent
    assert view["parties"][0] == 8 - sent


@pytest.mark.parametrize(
    ("dice", "success"), [([3], True), ([6], True), ([2], False), ([1], False)]
)
def test_a_plus_goal_is_met_by_the_number_or_more(dice: list[int], success: bool) -> None:
    state = new_game(dice=dice)
    play(state, "quest:1")  # One Die, 3+
    assert (state.scores[0] == 1) is success
    assert (GAME.actor(state) == 1) is success


@pytest.mark.parametrize(
    ("dice", "success"),
    [([3, 4], True), ([1, 6], True), ([3, 3], False), ([4, 4], False), ([6, 6], False)],
)
def test_an_exact_goal_is_met_only_by_that_number(dice: list[int], success: bool) -> None:
    state = new_game(dice=dice, row=("One Die", "Exact Seven", "Three Dice"))
    play(state, "quest:2")  # Exact Seven
    assert (state.scores[0] == 4) is success


def test_one_die_is_told_as_its_face_not_as_a_sum() -> None:
    """'rolled 2 against 3+', not 'rolled 2 = 2 against 3+' (issue 39, item 6)."""
    state = new_game(dice=[2])
    log = texts(play(state, "quest:1"))  # One Die, 3+
    assert "rolled 2 against 3+: failure" in log
    assert "= 2" not in log


def test_success_brings_the_party_home_scores_the_card_and_reveals_the_next() -> None:
    state = new_game(dice=[3, 5], pile=("Other Die", "Long Road"))
    events = play(state, "quest:2")  # Two Dice, 7+, 2 points
    assert state.parties == [8, 8, 8]
    assert state.tavern == 26
    assert state.scores == [2, 0, 0]
    assert [name_of(state, c) for c in state.score_piles[0]] == ["Two Dice"]
    assert row_names(state) == ["One Die", "Long Road", "Three Dice"]
    assert [name_of(state, c) for c in state.pile] == ["Other Die"]
    assert state.ending == ""
    assert GAME.actor(state) == 1
    log = texts(events)
    assert "rolled 3+5 = 8 against 7+: success" in log
    assert "completes Two Dice for 2 points" in log
    assert "revealed: Long Road" in log
    view = GAME.view(state, None)
    assert view["score_piles"][0] == ["Two Dice"]
    assert view["scores"] == [2, 0, 0]


def test_a_quest_that_says_so_adds_an_adventurer_from_the_tavern() -> None:
    state = new_game(dice=[2], row=("Recruits", "Two Dice", "Three Dice"))
    play(state, "quest:1")
    assert state.parties == [9, 8, 8]
    assert state.tavern == 25
    assert state.scores == [1, 0, 0]


def test_a_quest_that_does_not_say_so_adds_no_adventurer() -> None:
    state = new_game(dice=[6])
    play(state, "quest:1")
    assert state.parties == [8, 8, 8]
    assert state.tavern == 26


def test_a_failure_then_quit_sends_the_party_to_the_tavern_and_the_quest_stays() -> None:
    state = new_game(dice=[2, 3])
    play(state, "quest:2")
    assert GAME.view(state, None)["decision"] == {"seat": 0, "kind": "rescue"}
    events = play(state, "quit")
    assert state.parties == [6, 8, 8]
    assert state.tavern == 28
    assert state.scores == [0, 0, 0]
    assert row_names(state) == list(ROW)
    assert GAME.actor(state) == 1
    assert "go to the Tavern" in texts(events)


def test_rescue_offers_each_value_showing_once() -> None:
    state = new_game(dice=[3, 1, 3])
    play(state, "quest:3")
    assert legal(state) == ["quit", "rescue:1", "rescue:3"]


def test_a_successful_rescue_rerolls_the_chosen_die_and_brings_everyone_home() -> None:
    state = new_game(dice=[5, 1, 2])
    play(state, "quest:2")  # 5+1 = 6 against 7+
    assert state.parties[0] == 6
    events = play(state, "rescue:1")  # the 1 becomes a 2: 7
    assert state.parties == [8, 8, 8]
    assert state.tavern == 26
    assert state.scores == [2, 0, 0]
    assert "Two Dice" not in row_names(state)
    assert "re-rolls a 1: 2" in texts(events)
    assert "rolled 5+2 = 7 against 7+: success" in texts(events)


def test_the_rescue_rerolls_the_die_the_player_chose_not_the_lowest() -> None:
    state = new_game(dice=[5, 1, 6])
    play(state, "quest:2", "rescue:5")  # the 5 becomes a 6: 6+1 = 7
    assert state.scores == [2, 0, 0]
    state = new_game(dice=[5, 1, 1])
    play(state, "quest:2", "rescue:5")  # the 5 becomes a 1: 1+1 = 2
    assert state.scores == [0, 0, 0]


def test_a_failed_rescue_sends_everyone_including_the_rescuer_to_the_tavern() -> None:
    state = new_game(dice=[2, 2, 1])
    events = play(state, "quest:2", "rescue:2")
    assert state.parties == [5, 8, 8]
    assert state.tavern == 29
    assert state.scores == [0, 0, 0]
    assert row_names(state) == list(ROW)
    # One rescue per attempt: the turn is over.
    assert GAME.actor(state) == 1
    assert legal(state)[-1] == "brag"
    assert "rescuer and all" in texts(events)


def test_a_rescue_checks_the_same_exact_goal() -> None:
    state = new_game(dice=[6, 6, 1], row=("One Die", "Exact Seven", "Three Dice"))
    play(state, "quest:2", "rescue:6")  # 6+1 = 7 exactly
    assert state.scores == [4, 0, 0]


def test_the_last_adventurer_at_home_may_be_the_rescuer() -> None:
    state = new_game(dice=[1, 1, 1])
    state.parties[0] = 3
    state.tavern += 5
    play(state, "quest:2")
    assert legal(state) == ["quit", "rescue:1"]
    play(state, "rescue:1")
    assert state.parties[0] == 0
    assert state.tavern == 26 + 5 + 3


def test_no_rescue_is_offered_when_nobody_is_at_home() -> None:
    state = new_game(dice=[1, 2])
    state.parties[0] = 2
    state.tavern += 6
    events = play(state, "quest:2")
    # The only outcome was to quit, applied without asking.
    assert GAME.actor(state) == 1
    assert state.parties[0] == 0
    assert state.tavern == 26 + 6 + 2
    assert "no one is left to rescue" in texts(events)


def test_the_turn_passes_to_the_left_and_wraps_to_the_first_player() -> None:
    state = new_game(players=4, dice=[4, 4, 4, 4])
    seen = []
    for _ in range(4):
        seen.append(GAME.actor(state))
        play(state, "brag")
    assert seen == [0, 1, 2, 3]
    assert GAME.actor(state) == 0
    assert state.round == 2
    assert state.turns == [2, 1, 1, 1]


# -- the end of the game ---------------------------------------------------------------


def test_a_player_with_no_adventurers_passes_and_the_game_ends_with_equal_turns() -> None:
    state = new_game(dice=[4, 4])
    state.parties[1] = 0
    state.tavern += 8
    events = play(state, "brag")
    # Player 2 had to pass; the end is triggered but Player 3 still plays.
    assert GAME.actor(state) == 2
    assert state.ending == "guild-empty"
    assert "Player 2 has no adventurers and must pass" in texts(events)
    assert GAME.result(state) is None
    play(state, "brag")
    assert GAME.actor(state) is None
    assert GAME.legal_actions(state) == []
    assert state.turns == [1, 1, 1]
    result = GAME.result(state)
    assert result is not None
    assert result.ending == "guild-empty"
    assert result.turns == 3


def test_running_out_mid_round_ends_the_game_after_the_next_round() -> None:
    state = new_game(dice=[1, 4, 4, 4, 4])
    state.parties[0] = 1
    state.tavern += 7
    play(state, "brag")  # fails with no one at home: Player 1 has nobody left
    assert state.parties[0] == 0
    assert state.ending == ""  # only the start of a turn with no one triggers the end
    play(state, "brag", "brag")
    # Round 2: Player 1 passes, the others still play.
    assert GAME.actor(state) == 1
    assert state.ending == "guild-empty"
    play(state, "brag", "brag")
    assert GAME.actor(state) is None
    assert state.turns == [2, 2, 2]


def test_when_the_last_player_passes_the_game_ends_at_once() -> None:
    state = new_game(dice=[4, 4])
    state.parties[2] = 0
    state.tavern += 8
    play(state, "brag", "brag")
    assert GAME.actor(state) is None
    assert state.turns == [1, 1, 1]
    assert GAME.result(state) is not None


def test_a_player_too_small_for_every_quest_passes_and_triggers_the_end() -> None:
    # Only a pack whose Brag needs two adventurers can leave someone stuck with one.
    pack = make_pack(brag={"challenge": 2, "goal": 4})
    state = new_game(dice=[6, 6, 6, 6], pack=pack, row=("Two Dice", "Three Dice", "Long Road"))
    state.parties[1] = 1
    state.tavern += 7
    events = play(state, "brag")
    assert GAME.actor(state) == 2
    assert state.ending == "guild-empty"
    assert "too few adventurers" in texts(events)
    play(state, "brag")
    assert GAME.actor(state) is None
    assert state.turns == [1, 1, 1]


def test_an_empty_draw_pile_leaves_the_slot_empty_and_ends_the_game_at_round_end() -> None:
    state = new_game(dice=[6, 4, 4], pile=())
    events = play(state, "quest:1")
    assert row_names(state) == [None, "Two Dice", "Three Dice"]
    assert state.ending == "quests-exhausted"
    assert "The end is near" in texts(events)
    assert GAME.view(state, None)["quests"][0] is None
    # The round goes on; the empty slot cannot be chosen.
    assert GAME.actor(state) == 1
    assert legal(state) == ["quest:2", "quest:3", "brag"]
    before = GAME.clone(state)
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, Action("quest", 1))
    assert "empty" in one_line(error.value)
    assert state == before
    play(state, "brag", "brag")
    result = GAME.result(state)
    assert result is not None
    assert result.ending == "quests-exhausted"
    assert state.turns == [1, 1, 1]


def test_revealing_the_last_card_does_not_end_the_game() -> None:
    state = new_game(dice=[6], pile=("Long Road",))
    play(state, "quest:1")
    assert row_names(state) == ["Long Road", "Two Dice", "Three Dice"]
    assert state.pile == []
    assert state.ending == ""


def test_every_quest_can_be_claimed_leaving_only_the_brag() -> None:
    pack = make_pack({name: QUESTS[name] for name in ("One Die", "Other Die", "Recruits")})
    state = new_game(dice=[6, 6, 6], pack=pack, row=("One Die", "Other Die", "Recruits"))
    play(state, "quest:1", "quest:2", "quest:3")
    assert state.row == [EMPTY, EMPTY, EMPTY]
    result = GAME.result(state)
    assert result is not None
    assert result.ending == "quests-exhausted"


def test_the_first_end_triggered_is_the_one_reported() -> None:
    state = new_game(dice=[6, 4], pile=())
    state.parties[2] = 0
    state.tavern += 8
    play(state, "quest:1", "brag")  # the pile runs out, then Player 3 must pass
    result = GAME.result(state)
    assert result is not None
    assert result.ending == "quests-exhausted"


# -- winning -------------------------------------------------------------------------


def test_the_highest_score_wins() -> None:
    state = new_game(dice=[1, 1, 4, 4], round_limit=1)
    play(state, "quest:2", "quit", "brag", "quest:1")
    result = GAME.result(state)
    assert result is not None
    assert result.scores == (0.0, 0.0, 1.0)
    assert state.parties == [6, 9, 8]
    assert result.winners == (2,)
    assert result.ranks == (3, 2, 1)
    assert "Player 3 wins with 1 point" in result.reason
    assert result.ending == "round-limit"


def test_a_tied_score_goes_to_the_most_adventurers() -> None:
    # Player 1 scores 1 with 8 at home; Player 2 scores 1 and recruits: 9 at home.
    state = new_game(dice=[6, 2, 1], pile=("Recruits",), round_limit=1)
    play(state, "quest:1", "quest:1", "brag", "quit")
    result = GAME.result(state)
    assert result is not None
    assert result.scores == (1.0, 1.0, 0.0)
    assert state.parties == [8, 9, 7]
    assert result.winners == (1,)
    assert result.ranks == (2, 1, 3)


def test_still_tied_the_victory_is_shared_and_the_rank_too() -> None:
    state = new_game(dice=[6, 6, 1], pile=("Other Die",), round_limit=1)
    play(state, "quest:1", "quest:1", "brag", "quit")
    result = GAME.result(state)
    assert result is not None
    assert state.parties == [8, 8, 7]
    assert result.winners == (0, 1)
    assert result.ranks == (1, 1, 3)
    assert "Player 1 and Player 2 share the victory" in result.reason
    assert GAME.view(state, None)["result"]["winners"] == [0, 1]


# -- the Tavern running dry ----------------------------------------------------------


def test_an_empty_tavern_gives_a_stand_in_token() -> None:
    state = new_game(dice=[6], box=24)
    assert state.tavern == 0
    events = play(state, "brag")
    assert state.parties == [9, 8, 8]
    assert state.stand_ins == 1
    assert GAME.view(state, None)["stand_ins"] == 1
    assert meeples(state) == 24 + state.stand_ins
    assert "gains an adventurer" in texts(events)


def test_a_box_too_small_for_the_guilds_starts_with_stand_ins() -> None:
    state = new_game(box=20)
    assert state.tavern == 0
    assert state.stand_ins == 4
    assert state.parties == [8, 8, 8]


def test_no_gain_option_loses_the_gain_when_the_tavern_is_empty() -> None:
    state = new_game(
        dice=[6, 2], box=24, empty_tavern="no-gain", row=("Recruits", "Two Dice", "Three Dice")
    )
    events = play(state, "brag")
    assert state.parties == [8, 8, 8]
    assert state.stand_ins == 0
    assert "gains no adventurer" in texts(events)
    play(state, "quest:1")  # Recruits: the points, but no adventurer
    assert state.parties == [8, 8, 8]
    assert state.scores == [0, 1, 0]


def test_meeples_that_quit_refill_the_tavern_for_later_gains() -> None:
    state = new_game(dice=[1, 6], box=24)
    play(state, "brag", "quit", "brag")
    assert state.tavern == 0
    assert state.stand_ins == 0
    assert state.parties == [7, 9, 8]


# -- the round limit -------------------------------------------------------------------


def test_the_game_ends_after_the_round_limit() -> None:
    state = new_game(dice=[6] * 6, round_limit=2)
    play(state, *["brag"] * 5)
    assert GAME.actor(state) == 2
    play(state, "brag")
    assert GAME.actor(state) is None
    assert state.turns == [2, 2, 2]
    result = GAME.result(state)
    assert result is not None
    assert result.ending == "round-limit"


def test_the_default_round_limit_is_one_hundred_rounds() -> None:
    state = new_game(dice=[6] * 300)
    play(state, *["brag"] * 299)
    assert GAME.actor(state) == 2
    play(state, "brag")
    assert GAME.actor(state) is None
    assert state.turns == [100, 100, 100]


def test_round_limit_zero_removes_the_cap() -> None:
    state = new_game(dice=[6] * 310, round_limit=0)
    play(state, *["brag"] * 310)
    assert GAME.actor(state) is not None
    assert state.round == 104


def test_an_end_triggered_in_the_last_round_is_reported_before_the_limit() -> None:
    state = new_game(dice=[4, 4], round_limit=1)
    state.parties[1] = 0
    state.tavern += 8
    play(state, "brag", "brag")
    result = GAME.result(state)
    assert result is not None
    assert result.ending == "guild-empty"


# -- illegal actions ---------------------------------------------------------------------


def quest_decision() -> HackAndSlashState:
    state = new_game(dice=[1, 1], row=("One Die", None, "Three Dice"))
    state.parties[0] = 2
    state.tavern += 6
    return state


def rescue_decision() -> HackAndSlashState:
    state = new_game(dice=[2, 3, 6])
    play(state, "quest:2")
    assert legal(state) == ["quit", "rescue:2", "rescue:3"]
    return state


def finished_game() -> HackAndSlashState:
    state = new_game(dice=[6, 6, 6], round_limit=1)
    play(state, "brag", "brag", "brag")
    assert GAME.actor(state) is None
    return state


ILLEGAL_IN_A_QUEST_DECISION = [
    Action("quit"),
    Action("rescue", 1),
    Action("quest", 2),  # an empty slot
    Action("quest", 3),  # needs 3, the party has 2
    Action("quest", 4),
    Action("quest", 0),
    Action("quest"),
    Action("quest", 0, 1),
    Action("quest", "0"),
    Action("quest", "zero"),
    Action("brag", 1),
    Action("dance"),
]
ILLEGAL_IN_A_RESCUE_DECISION = [
    Action("rescue", 6),
    Action("rescue", 1),
    Action("rescue", "2"),
    Action("rescue"),
    Action("rescue", 2, 3),
    Action("quit", 2),
    Action("quest", 1),
    Action("brag"),
    Action("dance"),
]


@pytest.mark.parametrize(
    ("build", "action"),
    [(quest_decision, a) for a in ILLEGAL_IN_A_QUEST_DECISION]
    + [(rescue_decision, a) for a in ILLEGAL_IN_A_RESCUE_DECISION]
    + [(finished_game, a) for a in (Action("brag"), Action("quest", 1), Action("quit"))],
    ids=lambda x: getattr(x, "text", getattr(x, "__name__", "")),
)
def test_an_illegal_action_is_refused_in_one_line_and_changes_nothing(
    build: Any, action: Action
) -> None:
    state = build()
    assert action not in GAME.legal_actions(state)
    before = GAME.clone(state)
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, action)
    one_line(error.value)
    assert state == before
    with pytest.raises(IllegalAction) as error:
        GAME.check_legal(state, action)
    one_line(error.value)
    assert state == before


def test_after_the_game_the_error_says_it_is_over() -> None:
    state = finished_game()
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, Action("brag"))
    assert "over" in one_line(error.value)


def test_every_legal_action_is_accepted() -> None:
    for build in (quest_decision, rescue_decision):
        for action in GAME.legal_actions(build()):
            state = build()
            state.rng = ScriptedRng([6, 6, 6])
            GAME.apply(state, action)


# -- what a seat sees ----------------------------------------------------------------------


def walk(node: Any) -> list[str]:
    """Every key and string value in a JSON tree."""
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            found.append(str(key))
            found += walk(value)
    elif isinstance(node, list):
        for value in node:
            found += walk(value)
    elif isinstance(node, str):
        found.append(node)
    return found


def test_the_view_is_json_without_the_rng_or_the_draw_pile_order() -> None:
    state = GAME.setup(GAME.make_config({"players": 4}), 11, PACK)
    hidden = [state.cards[c].name for c in state.pile]
    for seat in (None, 0, 1, 2, 3):
        view = GAME.view(state, seat)
        text = json.dumps(view)
        assert json.loads(text) == view
        words = walk(view)
        assert not any("rng" in word.lower() for word in words)
        assert str(state.rng.state) not in text
        assert view["draw_pile"] == len(state.pile)
        for name in hidden:
            assert name not in text


def test_every_seat_sees_the_same_table() -> None:
    state = new_game(dice=[1, 2])
    play(state, "quest:2")
    views = [GAME.view(state, seat) for seat in (None, 0, 1, 2)]
    for view in views:
        view.pop("seat")
    assert all(view == views[0] for view in views)


def test_determinize_keeps_the_view_and_resamples_the_pile_and_the_dice() -> None:
    state = GAME.setup(GAME.make_config({"players": 3}), 2, PACK)
    play(state, "brag")
    original = GAME.clone(state)
    orders = set()
    streams = set()
    for seed in range(12):
        twin = GAME.determinize(state, 1, Rng(seed))
        assert GAME.view(twin, 1) == GAME.view(state, 1)
        assert sorted(twin.pile) == sorted(state.pile)
        orders.add(tuple(twin.pile))
        streams.add(tuple(twin.rng.dice(5, 6)))
    assert len(orders) > 6
    assert len(streams) > 6
    assert state == original


def test_determinize_replaces_even_a_scripted_rng() -> None:
    state = new_game(dice=[6])
    twin = GAME.determinize(state, 0, Rng(3))
    assert not isinstance(twin.rng, ScriptedRng)
    assert isinstance(state.rng, ScriptedRng) and state.rng.script == [6]


# -- labels, odds and events -----------------------------------------------------------------


def brute_force(n_dice: int, goal: int, exact: bool, rescue: bool) -> Fraction:
    def meets(total: int) -> bool:
        return total == goal if exact else total >= goal

    hits = Fraction(0)
    rolls = list(itertools.product(range(1, 7), repeat=n_dice))
    for roll in rolls:
        if meets(sum(roll)):
            hits += 1
        elif rescue:
            hits += max(
                Fraction(sum(1 for face in range(1, 7) if meets(sum(roll) - die + face)), 6)
                for die in roll
            )
    return hits / len(rolls)


def test_odds_of_a_two_dice_seven_plus_quest() -> None:
    state = new_game()
    odds = GAME.odds(state, Action("quest", 2))
    assert odds["success"] == pytest.approx(21 / 36)
    assert odds["with rescue"] == pytest.approx(float(brute_force(2, 7, False, True)))
    assert odds["success"] < odds["with rescue"] < 1


def test_odds_of_every_card_match_brute_force() -> None:
    state = new_game(row=("Exact Seven", "Recruits", "Three Dice"))
    for action, (n, goal, exact) in zip(
        GAME.legal_actions(state),
        [(2, 7, True), (1, 2, False), (3, 12, False), (1, 4, False)],
        strict=True,
    ):
        odds = GAME.odds(state, action)
        assert odds["success"] == pytest.approx(float(brute_force(n, goal, exact, False)))
        assert odds["with rescue"] == pytest.approx(float(brute_force(n, goal, exact, True)))


def test_no_rescue_odds_when_no_one_would_be_left_to_rescue() -> None:
    state = new_game()
    state.parties[0] = 2
    state.tavern += 6
    assert set(GAME.odds(state, Action("quest", 2))) == {"success"}
    assert set(GAME.odds(state, Action("quest", 1))) == {"success", "with rescue"}


def test_odds_of_each_rescue_choice() -> None:
    state = new_game(dice=[1, 5])
    play(state, "quest:2")  # 6 against 7+
    assert GAME.odds(state, Action("rescue", 1))["success"] == pytest.approx(5 / 6)
    assert GAME.odds(state, Action("rescue", 5))["success"] == pytest.approx(1 / 6)
    assert GAME.odds(state, Action("quit")) == {}


def test_labels_say_what_each_choice_costs_and_pays() -> None:
    state = new_game(row=("Recruits", "Two Dice", "Exact Seven"))
    labels = [GAME.label(state, action) for action in GAME.legal_actions(state)]
    recruits, two, exact, brag = labels
    assert "Recruits" in recruits and "1 adventurer" in recruits
    assert "2+" in recruits and "1 point" in recruits and "an adventurer" in recruits
    assert "Two Dice" in two and "2 adventurers" in two and "7+" in two and "2 points" in two
    assert "Exact Seven" in exact and "7+" not in exact and "4 points" in exact
    assert "Brag at the Tavern" in brag and "never scored" in brag and "4+" in brag
    state.rng = ScriptedRng([2, 3])
    play(state, "quest:2")
    quit_label, rescue2, rescue3 = (GAME.label(state, a) for a in GAME.legal_actions(state))
    assert "2 adventurers" in quit_label and "Tavern" in quit_label
    assert "re-roll a 2" in rescue2 and "re-roll a 3" in rescue3


def test_events_can_be_skipped_without_changing_the_game() -> None:
    loud = new_game(dice=[1, 2, 6, 4, 4])
    quiet = new_game(dice=[1, 2, 6, 4, 4])
    for text in ("quest:2", "rescue:1", "brag", "brag"):
        assert GAME.apply(loud, Action.parse(text))
        assert GAME.apply(quiet, Action.parse(text), record=False) == []
    assert loud == quiet


def test_the_game_over_event_carries_the_result() -> None:
    state = new_game(dice=[6, 6, 6], round_limit=1)
    events = play(state, "brag", "brag", "brag")
    over = [event for event in events if event.kind == "game-over"]
    assert len(over) == 1
    result = GAME.result(state)
    assert result is not None
    assert over[0].data == result.to_json()
    assert over[0].text == result.reason
