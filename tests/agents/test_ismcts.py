"""The ISMCTS bot: it plans only on re-sampled states, replays for a seed, finishes every
game, reads its seat specs strictly, and plays clearly better than random."""

from __future__ import annotations

from typing import Any

import pytest

from tavernkeep.agents import make_bot
from tavernkeep.agents.ismcts import ISMCTSBot, play_out
from tavernkeep.cli import main
from tavernkeep.engine.actions import Action
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.errors import IllegalAction, SeatError
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Game, Result
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games import all_games, get_game


class Watched(Game[Any, Any]):
    """A game that forwards every call to a real one and notes every state it is handed,
    and every state `determinize` hands out. Only `determinize` may see the true state."""

    def __init__(self, inner: Game[Any, Any]) -> None:
        self.inner = inner
        self.kind = inner.kind  # type: ignore[misc]
        self.secrets_shared = inner.secrets_shared  # type: ignore[misc]
        self.touched: list[Any] = []
        self.samples: list[Any] = []
        self.judged = 0

    def load_pack(self, source: Any = None) -> Any:
        return self.inner.load_pack(source)

    def setup(self, config: Any, seed: int, pack: Any = None) -> Any:
        return self.inner.setup(config, seed, pack)

    def actor(self, state: Any) -> int | None:
        self.touched.append(state)
        return self.inner.actor(state)

    def legal_actions(self, state: Any) -> list[Action]:
        self.touched.append(state)
        return self.inner.legal_actions(state)

    def apply(self, state: Any, action: Action, record: bool = True) -> list[Event]:
        self.touched.append(state)
        return self.inner.apply(state, action, record)

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        self.touched.append(state)
        return self.inner.view(state, seat)

    def observe(self, state: Any, seat: int) -> Any:
        self.touched.append(state)
        return self.inner.observe(state, seat)

    def determinize(self, state: Any, seat: int, rng: Rng) -> Any:
        twin = self.inner.determinize(state, seat, rng)
        # A copy: the search goes on to play the sample itself forward.
        self.samples.append(self.inner.clone(twin))
        return twin

    def result(self, state: Any) -> Result | None:
        self.touched.append(state)
        return self.inner.result(state)

    def clone(self, state: Any) -> Any:
        self.touched.append(state)
        return self.inner.clone(state)

    def label(self, state: Any, action: Action) -> str:
        return self.inner.label(state, action)

    def odds(self, state: Any, action: Action) -> dict[str, float]:
        self.touched.append(state)
        return self.inner.odds(state, action)

    def content(self, state: Any) -> Any:
        return self.inner.content(state)

    def heuristic_agent(self) -> Any:
        return self.inner.heuristic_agent()

    def evaluator(self) -> Any:
        judge = self.inner.evaluator()
        if judge is None:
            return None

        def noted(state: Any) -> list[float]:
            self.touched.append(state)
            self.judged += 1
            return judge(state)

        return noted


class Door(InfoSet):
    """The runner's InfoSet, whose own questions (legal actions, view, observation) go to the real
    game: they are the door a seat is allowed through. Whatever the bot asks of
    `info.game` goes to the watched game."""

    def __init__(self, watched: Watched, state: Any, seat: int, rng: Rng) -> None:
        super().__init__(watched, state, seat, rng)
        self.inner = watched.inner

    def view(self) -> dict[str, Any]:
        return self.inner.view(self._state, self.seat)

    def observe(self) -> Any:
        return self.inner.observe(self._state, self.seat)

    def legal_actions(self) -> list[Action]:
        return self.inner.legal_actions(self._state)

    def label(self, action: Action) -> str:
        return self.inner.label(self._state, action)

    def odds(self, action: Action) -> dict[str, float]:
        return self.inner.odds(self._state, action)


def midgame(name: str, players: int, seed: int, actions: int) -> tuple[Game[Any, Any], Any]:
    """A state some random actions into a game, with a decision of two or more choices."""
    game = get_game(name)
    match = Match.start(game, [make_bot("bot:random", game)] * players, seed=seed)
    while match.actions < actions or len(game.legal_actions(match.state)) < 2:
        match.step()
    return game, match.state


def searched(game: Game[Any, Any], state: Any, spec: str, seed: int = 1) -> Watched:
    """Run one decision of `spec` on the true `state` through a watched game."""
    watched = Watched(game)
    seat = game.actor(state)
    assert seat is not None
    bot = make_bot(spec, game)
    # The InfoSet holds the true state, as the match runner's does; the bot may see it
    # only through the watched game's determinize.
    action = bot.choose(Door(watched, state, seat, Rng(seed)))
    assert action in game.legal_actions(state)
    return watched


def test_the_search_never_touches_the_true_state_in_here_to_slay() -> None:
    game, state = midgame("here-to-slay", 3, seed=5, actions=40)
    seat = game.actor(state)
    before = game.clone(state)
    watched = searched(game, state, "bot:mcts:30")
    assert watched.touched, "the search played nothing"
    assert all(s is not state for s in watched.touched)
    assert len(watched.samples) == 30
    others = [s for s in range(state.players) if s != seat]
    # Its own hand as it is; the other hands and the decks dealt again, differently
    # from the truth in most samples (a sample may match by chance, not all of them).
    for sample in watched.samples:
        assert sample.hands[seat] == state.hands[seat]
        assert sample.rng != state.rng
    redealt = sum(
        any(sorted(sample.hands[s]) != sorted(state.hands[s]) for s in others)
        for sample in watched.samples
    )
    assert redealt >= 25
    reordered = sum(sample.deck != state.deck for sample in watched.samples)
    assert reordered >= 25
    monsters = sum(sample.monster_deck != state.monster_deck for sample in watched.samples)
    assert len(state.monster_deck) < 2 or monsters >= 20
    # Searching leaves the true state as it was.
    assert game.view(state, None) == game.view(before, None)


def test_the_search_never_touches_the_true_state_in_hack_and_slash() -> None:
    game, state = midgame("hack-and-slash", 4, seed=3, actions=6)
    watched = searched(game, state, "bot:mcts:40:heuristic")
    assert watched.touched
    assert all(s is not state for s in watched.touched)
    # The draw pile's order and the dice to come are what is hidden: both re-sampled.
    assert all(sorted(s.pile) == sorted(state.pile) for s in watched.samples)
    assert sum(s.pile != state.pile for s in watched.samples) >= 38
    assert all(s.rng != state.rng for s in watched.samples)


def test_side_quest_search_deals_once_an_iteration_and_never_touches_the_true_state() -> None:
    game, state = midgame("side-quest", 2, seed=2, actions=12)
    before = game.clone(state)
    watched = searched(game, state, "bot:mcts:30")
    assert watched.touched
    assert all(s is not state for s in watched.touched)
    # One deal an iteration, and one for the bot team's own proposal at the decision:
    # playing the imagined games, the bot team plays on the iteration's deal as it lies
    # (the decks are every hero's secret alike), never on the true decks.
    assert len(watched.samples) == 30 + 1
    assert sum(s.loot_deck != state.loot_deck for s in watched.samples) >= 25
    assert game.view(state, None) == game.view(before, None)


def test_a_search_cut_at_a_horizon_judges_samples_only() -> None:
    game, state = midgame("here-to-slay", 2, seed=7, actions=30)
    before = game.clone(state)
    watched = searched(game, state, "bot:mcts:40:cut5")
    assert len(watched.samples) == 40
    # A random game of Here to Slay runs for hundreds of actions: cut after 5, nearly
    # every rollout ends in the game's evaluation, and only ever of a sample.
    assert 30 <= watched.judged <= 40
    assert all(s is not state for s in watched.touched)
    assert game.view(state, None) == game.view(before, None)


def test_the_same_seed_plays_the_same_game() -> None:
    game = get_game("hack-and-slash")

    def play(seed: int) -> list[str]:
        bots = [make_bot("bot:mcts:40", game), make_bot("bot:mcts:40", game)]
        bots.append(make_bot("bot:heuristic", game))
        match = Match.start(game, bots, seed=seed)
        match.run()
        return match.record.actions

    first = play(11)
    assert first == play(11)
    assert first != play(12)


def test_a_decision_with_one_legal_action_is_answered_without_searching() -> None:
    game = get_game("here-to-slay")
    match = Match.start(game, [make_bot("bot:random", game)] * 2, seed=2)
    while len(game.legal_actions(match.state)) != 1:
        match.step()
    seat = game.actor(match.state)
    assert seat is not None
    bot = make_bot("bot:mcts:50", game)
    assert isinstance(bot, ISMCTSBot)
    watched = Watched(game)
    action = bot.choose(InfoSet(watched, match.state, seat, Rng(1)))
    assert action == game.legal_actions(match.state)[0]
    assert watched.samples == []


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_an_action_from_the_legal_list_plays_alike_checked_or_not(game: Game[Any, Any]) -> None:
    """The search plays its own actions by `apply_legal`, which may skip the game's check:
    the same events and the same game as `apply`, action for action."""
    for seed in range(3):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        config = game.make_config({"players": players})
        checked, unchecked = game.setup(config, seed), game.setup(config, seed)
        rng = Rng(seed)
        while game.actor(checked) is not None:
            actions = game.legal_actions(checked)
            assert actions == game.legal_actions(unchecked)
            action = actions[rng.below(len(actions))]
            said = [e.text for e in game.apply(checked, action)]
            assert said == [e.text for e in game.apply_legal(unchecked, action)]
        assert game.actor(unchecked) is None
        assert game.result(checked) == game.result(unchecked)
        assert game.view(checked, None) == game.view(unchecked, None)


def test_a_rollout_bot_is_handed_the_list_and_its_answer_is_still_checked() -> None:
    game = get_game("hack-and-slash")
    match = Match.start(game, [make_bot("bot:random", game)] * 3, seed=4)
    while len(game.legal_actions(match.state)) < 2:
        match.step()
    listed = game.legal_actions(match.state)
    seat = game.actor(match.state)
    assert seat is not None
    info = InfoSet(game, match.state, seat, Rng(1), sampled=True, legal=listed)
    assert info.legal_actions() is listed

    class Cheat:
        name = "cheat"

        def choose(self, info: InfoSet) -> Action:
            return Action("quest", 99)

    with pytest.raises(IllegalAction):
        play_out(game, game.clone(match.state), Cheat(), Rng(1))


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_game_finishes_with_a_search_seat(game: Game[Any, Any]) -> None:
    players = max(game.min_players, 1 if game.kind != "competitive" else 2)
    if game.name == "hack-and-slash":
        players = 3
    seats = ["bot:mcts:4"] + ["bot:random"] * (players - 1)
    match = Match.start(game, [make_bot(s, game) for s in seats], seed=1)
    result = match.run()
    assert game.is_over(match.state)
    assert len(result.scores) == players


def test_heuristic_rollouts_finish_a_cooperative_game() -> None:
    game = get_game("side-quest")
    match = Match.start(game, [make_bot("bot:mcts:1:heuristic", game)], seed=4)
    result = match.run()
    assert result.won is not None


@pytest.mark.parametrize(
    ("spec", "budget"),
    [
        ("bot:mcts", (1000, None)),
        ("bot:mcts:500", (500, None)),
        ("bot:mcts:200ms", (None, 200)),
        ("bot:mcts:500:heuristic", (500, None)),
        ("bot:mcts:heuristic:500", (500, None)),
        ("bot:mcts:random", (1000, None)),
        ("bot:mcts:pure:300", (300, None)),
        ("bot:mcts:200ms:heuristic:pure", (None, 200)),
        ("bot:mcts:cut40:500", (500, None)),
        ("bot:mcts:full:500", (500, None)),
    ],
)
def test_seat_specs_name_a_budget_and_a_rollout(
    spec: str, budget: tuple[int | None, int | None]
) -> None:
    # Here to Slay has both a heuristic bot and an evaluation to cut rollouts with.
    bot = make_bot(spec, get_game("here-to-slay"))
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.millis) == budget
    assert (bot.rollout is not None) == ("heuristic" in spec)
    assert (bot.incumbent is None) == ("pure" in spec)
    # Heuristic rollouts search the root's moves only (see ismcts's docstring).
    assert bot.depth == (1 if "heuristic" in spec else None)
    # Here to Slay can evaluate a position: rollouts are cut unless `full` is asked for.
    assert bot.horizon == (40 if "cut40" in spec else None if "full" in spec else 20)
    # The canonical name a table shows says every part that changes the play, and
    # reads back as the same bot.
    again = make_bot(bot.name, get_game("here-to-slay"))
    assert isinstance(again, ISMCTSBot)
    assert again.name == bot.name
    assert (again.horizon, again.incumbent is None, again.depth) == (
        bot.horizon,
        bot.incumbent is None,
        bot.depth,
    )
    # A game that cannot evaluate plays every rollout to its end.
    if "cut40" not in spec:
        plain = make_bot(spec, get_game("hack-and-slash"))
        assert isinstance(plain, ISMCTSBot)
        assert plain.horizon is None and "full" not in plain.name


@pytest.mark.parametrize(
    ("spec", "name", "heuristic_rollouts"),
    [
        ("bot:mcts", "bot:mcts:1000:heuristic:cut20", True),
        ("bot:mcts:300ms", "bot:mcts:300ms:heuristic:cut20", True),
        ("bot:mcts:500:heuristic", "bot:mcts:500:heuristic:cut20", True),
        ("bot:mcts:500:random", "bot:mcts:500:random:cut20", False),
        ("bot:mcts:500:random:full", "bot:mcts:500:random:full", False),
    ],
)
def test_side_quest_searches_with_its_heuristic_unless_told_random(
    spec: str, name: str, heuristic_rollouts: bool
) -> None:
    # Side Quest's random play teaches the search to trade its turns away (its RULES.md,
    # "The search bot"), so its `bot:mcts` rolls out with the bot team; the name a
    # table shows says which, and reads back as the same bot.
    game = get_game("side-quest")
    bot = make_bot(spec, game)
    assert isinstance(bot, ISMCTSBot)
    assert bot.name == name
    assert (bot.rollout is not None, bot.depth) == (
        heuristic_rollouts,
        1 if heuristic_rollouts else None,
    )
    again = make_bot(bot.name, game)
    assert isinstance(again, ISMCTSBot)
    assert (again.name, again.rollout is not None) == (name, heuristic_rollouts)
    # Every other game keeps random rollouts unless a spec asks for the heuristic.
    rage = make_bot(spec.replace(":heuristic", ""), get_game("rage"))
    assert isinstance(rage, ISMCTSBot)
    assert rage.rollout is None and ":random" not in rage.name


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("bot:mcts:abc", "'abc' is neither a budget"),
        ("bot:mcts:0", "iterations are 1 to"),
        ("bot:mcts:0ms", "a time budget is 1 to"),
        ("bot:mcts:5:7", "one budget, not two"),
        ("bot:mcts:random:heuristic", "one rollout, not two"),
        ("bot:mcts:pure:5:pure", "'pure' is given twice"),
        ("bot:mcts:-5", "'-5' is neither a budget"),
        ("bot:mcts:5s", "'5s' is neither a budget"),
        ("bot:mtcs", "unknown seat 'bot:mtcs'"),
        ("bot:random:5", "takes no parameters"),
        ("bot:mcts:cut0", "a horizon is 1 to"),
        ("bot:mcts:cut5:cut6", "one horizon, not two"),
        ("bot:mcts:full:cut6", "one horizon, not two"),
        ("bot:mcts:cut", "'cut' is neither a budget"),
    ],
)
def test_bad_seat_specs_are_one_clear_error(spec: str, says: str) -> None:
    with pytest.raises(SeatError) as caught:
        make_bot(spec, get_game("here-to-slay"))
    assert says in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_horizon_needs_a_game_that_can_evaluate_a_position() -> None:
    # Hack & Slash's rollouts are short enough to play out: it offers no evaluation.
    with pytest.raises(SeatError) as caught:
        make_bot("bot:mcts:500:cut20", get_game("hack-and-slash"))
    assert "Hack & Slash cannot evaluate a position" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_command_plays_and_refuses_search_seats(capsys: pytest.CaptureFixture[str]) -> None:
    seats = ["--seat", "bot:mcts:20", "--seat", "bot:random", "--seat", "bot:random"]
    code = main(["simulate", "hack-and-slash", "--games", "4", "--seed", "1", *seats])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "bot:mcts:20" in out
    seats[1] = "bot:mcts:lots"
    code = main(["simulate", "hack-and-slash", "--games", "4", *seats])
    out, err = capsys.readouterr()
    assert code == 2
    assert "'lots' is neither a budget" in err
    assert len(err.strip().splitlines()) == 1


def test_the_search_beats_random_play_at_hack_and_slash() -> None:
    """One search seat among two random seats, moved round the table, in games cut to two
    rounds (so that each is cheap): its fair share is a third. At 200 iterations it won
    64% of 90 such games (the heuristic bot: 61%)."""
    game = get_game("hack-and-slash")
    wins = 0.0
    games = 60
    for index in range(games):
        seats = [make_bot("bot:random", game) for _ in range(3)]
        mine = index % 3
        seats[mine] = make_bot("bot:mcts:200", game)
        match = Match.start(game, seats, seed=100 + index, options={"round_limit": 2})
        result = match.run()
        if mine in result.winners:
            wins += 1 / len(result.winners)
    # At the fair share, 30 wins of 60 is 2.7 standard deviations above the 20 expected:
    # chance alone gets there about once in 300 tries.
    assert wins >= 30, wins


def test_a_time_budget_searches_until_its_time_is_up() -> None:
    game, state = midgame("hack-and-slash", 3, seed=8, actions=3)
    seat = game.actor(state)
    assert seat is not None
    bot = make_bot("bot:mcts:30ms", game)
    assert isinstance(bot, ISMCTSBot)
    action = bot.choose(InfoSet(game, state, seat, Rng(1)))
    assert action in game.legal_actions(state)
    # A budget of time, not of iterations: it ran as many as fitted (some, at least).
    assert bot.last_iterations > 1


def last_turn_behind(game: Game[Any, Any]) -> Any:
    """Hack & Slash, four players, the last turn of the game: Player 4 has 3 points,
    Player 1 has 5 and more adventurers (so wins a tie). The row offers Goblin Toll Bridge
    (2 points, 89% with a rescue), Arm-Wrestle the Blacksmith (3 points, 31%) and Rats in
    the Cellar (1 point). Only the Blacksmith can still win."""
    state = game.setup(game.make_config({"players": 4}), 5)
    by_name = {card.name: index for index, card in enumerate(state.cards)}
    state.row = [by_name[n] for n in ("Goblin Toll Bridge", "Arm-Wrestle the Blacksmith")]
    state.row.append(by_name["Rats in the Cellar"])
    state.pile = [c for c in state.pile if c not in state.row]
    state.scores = [5, 1, 2, 3]
    state.parties = [8, 4, 4, 5]
    state.turns = [6, 6, 6, 5]
    state.current = 3
    state.round = 6
    state.ending = "quests-exhausted"
    state.stack = [Decision(3, "quest")]
    return state


def test_the_search_overrules_the_heuristic_when_only_a_long_shot_can_win() -> None:
    game = get_game("hack-and-slash")
    state = last_turn_behind(game)
    goblin, blacksmith = Action("quest", 1), Action("quest", 2)
    assert goblin in game.legal_actions(state) and blacksmith in game.legal_actions(state)
    # The heuristic takes the best expected points: a tie it loses on adventurers.
    heuristic = make_bot("bot:heuristic", game)
    assert heuristic.choose(InfoSet(game, state, 3, Rng(1))) == goblin
    for spec in ("bot:mcts:1000", "bot:mcts:300:heuristic"):
        bot = make_bot(spec, game)
        assert bot.choose(InfoSet(game, game.clone(state), 3, Rng(2))) == blacksmith, spec


def test_the_heuristic_move_stands_until_the_search_is_sure_of_a_better_one() -> None:
    """With three iterations nothing is sure: the search keeps the heuristic's move at
    every decision, where the pure search (no incumbent) strays from it."""
    game = get_game("hack-and-slash")
    heuristic = make_bot("bot:heuristic", game)
    decisions = kept = strayed = 0
    for seed in range(6):
        match = Match.start(game, [heuristic] * 4, seed=seed)
        while (seat := game.actor(match.state)) is not None:
            if len(game.legal_actions(match.state)) > 1:
                decisions += 1
                proposal = heuristic.choose(InfoSet(game, match.state, seat, Rng(seed)))
                guided = make_bot("bot:mcts:3", game)
                pure = make_bot("bot:mcts:3:pure", game)
                kept += guided.choose(InfoSet(game, match.state, seat, Rng(7))) == proposal
                strayed += pure.choose(InfoSet(game, match.state, seat, Rng(7))) != proposal
            match.step()
    assert kept == decisions
    assert strayed > 5
