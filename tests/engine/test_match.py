"""The match runner: any mix of agents plays to the end, and its record replays exactly."""

from __future__ import annotations

from typing import Any

import pytest

from tavernkeep.agents import make_bot
from tavernkeep.agents.random_bot import RandomBot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import IllegalAction, TavernkeepError
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.records import parse_record, replay
from tavernkeep.engine.rng import Rng
from tavernkeep.games.hack_and_slash import GAME
from tavernkeep.games.hack_and_slash.heuristic import HeuristicBot


class FirstChoice:
    """Always the first legal action; burns its own RNG to prove it is its own."""

    name = "test:first"

    def __init__(self, burn: int = 0) -> None:
        self.burn = burn

    def choose(self, info: InfoSet) -> Action:
        for _ in range(self.burn):
            info.rng.next64()
        return info.legal_actions()[0]


class LastChoice:
    name = "test:last"

    def choose(self, info: InfoSet) -> Action:
        return info.legal_actions()[-1]


class Watcher:
    """A random bot that checks what the runner hands it."""

    name = "test:watcher"

    def __init__(self) -> None:
        self.decisions = 0

    def choose(self, info: InfoSet) -> Action:
        view = info.view()
        assert view["seat"] == info.seat
        assert view["decision"]["seat"] == info.seat
        actions = info.legal_actions()
        assert actions
        for action in actions:
            assert info.label(action)
        sample = info.determinize(info.rng.fork("sample"))
        assert GAME.view(sample, info.seat) == view
        self.decisions += 1
        return actions[info.rng.below(len(actions))]


def agent(kind: str) -> Any:
    return {
        "random": RandomBot,
        "heuristic": HeuristicBot,
        "first": FirstChoice,
        "last": LastChoice,
        "watcher": Watcher,
    }[kind]()


MIXES = [
    ("random", "random", "random"),
    ("heuristic", "heuristic", "heuristic", "heuristic"),
    ("heuristic", "random", "first", "last", "watcher"),
    ("watcher", "last", "heuristic", "random", "first", "random"),
    ("first", "heuristic"),
    ("last", "last", "last"),
]


@pytest.mark.parametrize("mix", MIXES, ids=lambda mix: "-".join(mix))
def test_any_mix_of_agents_plays_to_the_end_and_replays_exactly(mix: tuple[str, ...]) -> None:
    options = {"two_player": True} if len(mix) == 2 else {}
    for seed in range(25):
        agents = [agent(kind) for kind in mix]
        match = Match.start(GAME, agents, seed, options)
        result = match.run()
        assert GAME.is_over(match.state)
        assert result == GAME.result(match.state)
        assert match.record.result == result.to_json()
        assert len(match.record.actions) == match.actions
        record = parse_record(match.record.to_json())
        state = replay(GAME, record)
        assert GAME.view(state, None) == GAME.view(match.state, None)
        assert GAME.result(state) == result


def test_the_same_seed_and_agents_play_the_same_game() -> None:
    def play(seed: int) -> list[str]:
        match = Match.start(GAME, [RandomBot(), HeuristicBot(), RandomBot()], seed)
        match.run()
        return match.record.actions

    assert play(4) == play(4)
    assert len({tuple(play(seed)) for seed in range(10)}) > 5


def test_a_bots_own_randomness_never_moves_the_games_dice() -> None:
    quiet = Match.start(GAME, [FirstChoice(0) for _ in range(3)], 9)
    noisy = Match.start(GAME, [FirstChoice(50) for _ in range(3)], 9)
    quiet.run()
    noisy.run()
    assert quiet.record.actions == noisy.record.actions
    assert quiet.state == noisy.state


def test_each_seat_gets_its_own_random_stream() -> None:
    match = Match.start(GAME, [RandomBot() for _ in range(4)], 1)
    firsts = {rng.clone().next64() for rng in match.rngs}
    assert len(firsts) == 4


def test_the_runner_reports_events_after_every_step() -> None:
    match = Match.start(GAME, [RandomBot() for _ in range(3)], 2)
    calls = []
    match.run(on_events=lambda events, state: calls.append((len(events), state)))
    assert len(calls) == match.actions
    assert all(count > 0 for count, _ in calls)
    assert all(state is match.state for _, state in calls)


def test_an_agent_offering_an_illegal_action_is_stopped_and_nothing_changes() -> None:
    class Cheat:
        name = "test:cheat"

        def choose(self, info: InfoSet) -> Action:
            return Action("quest", 7)

    match = Match.start(GAME, [Cheat(), RandomBot(), RandomBot()], 3)
    before = GAME.clone(match.state)
    with pytest.raises(IllegalAction):
        match.step()
    assert match.state == before
    assert match.record.actions == []
    assert match.actions == 0


def test_stepping_a_finished_match_is_refused() -> None:
    match = Match.start(GAME, [RandomBot() for _ in range(3)], 3)
    match.run()
    with pytest.raises(IllegalAction):
        match.step()


def test_a_simulation_match_keeps_no_record() -> None:
    config = GAME.make_config({"players": 3})
    agents = [make_bot("bot:random", GAME) for _ in range(3)]
    match = Match(GAME, agents, 6, config, GAME.load_pack(), keep_record=False, record_events=False)
    result = match.run()
    assert match.record.actions == []
    assert match.record.result is None
    kept = Match.start(GAME, [make_bot("bot:random", GAME) for _ in range(3)], 6)
    assert kept.run() == result


def test_seat_names_are_recorded() -> None:
    match = Match.start(GAME, [RandomBot() for _ in range(3)], 1, seats=["human", "a", "b"])
    assert match.record.seats == ["human", "a", "b"]
    plain = Match.start(GAME, [RandomBot(), HeuristicBot(), RandomBot()], 1)
    assert plain.record.seats == ["bot:random", "bot:heuristic", "bot:random"]


def test_a_player_count_that_disagrees_with_the_agents_is_refused_up_front() -> None:
    with pytest.raises(TavernkeepError):
        match = Match.start(GAME, [RandomBot() for _ in range(3)], 1, {"players": 4})
        match.run()


def test_a_sample_of_shared_secrets_is_played_as_it_is_and_others_are_sampled_again() -> None:
    # Side Quest's secrets (decks, face-down Locations) are every hero's alike: a bot in a
    # search's imagined game plays on the sample it is handed, the decks as they lie.
    from tavernkeep.games import get_game

    quest = get_game("side-quest")
    assert quest.secrets_shared
    match = Match.start(quest, [make_bot("bot:heuristic", quest)] * 2, seed=3)
    for _ in range(30):
        match.step()
    state = match.state
    seat = quest.actor(state)
    assert seat is not None
    rng = Rng(5)
    sample = InfoSet(quest, state, seat, rng, sampled=True).determinize(rng)
    assert sample is not state
    assert (sample.monster_deck, sample.loot_deck, sample.row) == (
        state.monster_deck,
        state.loot_deck,
        state.row,
    )
    assert rng.state == Rng(5).state
    # The true state, not marked as a sample, is sampled again: the decks are re-dealt.
    again = InfoSet(quest, state, seat, rng).determinize(rng)
    assert (again.monster_deck, again.loot_deck) != (state.monster_deck, state.loot_deck)
    # Here to Slay's hands are secret from the other seats: a sample made for one seat
    # is not what another may know, so a bot there is always dealt a fresh sample.
    slay = get_game("here-to-slay")
    assert not slay.secrets_shared
    table = Match.start(slay, [RandomBot()] * 3, seed=3)
    who = slay.actor(table.state)
    assert who is not None
    other = (who + 1) % 3
    hands = {
        tuple(
            sorted(
                InfoSet(slay, table.state, who, Rng(k), sampled=True)
                .determinize(Rng(k))
                .hands[other]
            )
        )
        for k in range(8)
    }
    assert len(hands) > 1


def test_a_stored_action_thousands_long_is_reported_in_one_short_line() -> None:
    # A server restart replays stored actions through from_record: a corrupt row must
    # not turn into an error line of thousands of characters.
    start = Match.start(GAME, [RandomBot()] * 3, seed=5)
    record = start.record.model_copy(update={"actions": ["quest:" + "9" * 5000]})
    with pytest.raises(TavernkeepError) as refused:
        Match.from_record(GAME, record, [RandomBot()] * 3)
    message = str(refused.value)
    assert "action #1" in message and "\n" not in message
    assert len(message) < 200
