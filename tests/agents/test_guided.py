"""The guided search (`bot:guided:PATH[:budget]`): its guide file, its seat spec, that it
decides from its seat's InfoSet alone, and that PUCT follows the prior with few
iterations and the value with many."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from pydantic import BaseModel

from tavernkeep.agents import make_bot, seat_bot
from tavernkeep.agents.guide import Guide, load_guide, save_guide
from tavernkeep.agents.guided import GuidedBot
from tavernkeep.agents.policy import Policy, save_policy
from tavernkeep.cli import main
from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import SeatError
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Game, Result
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng
from tavernkeep.games import get_game
from tavernkeep.rl.table import Table


def _ismcts_tests() -> Any:
    """tests/agents/test_ismcts.py, whose watched game and door the no-peeking test of
    the search is built on: the guided search must pass the same test."""
    spec = importlib.util.spec_from_file_location(
        "ismcts_tests", Path(__file__).parent / "test_ismcts.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_guide(game: str, players: int, seed: int = 0, hidden: int = 16) -> Guide:
    """A guide of random weights for `game` at a table of `players`."""
    table = Table(game, players=players)
    rng = np.random.default_rng(seed)
    size, actions = table.encoding.size, len(table.actions)

    def layer(outputs: int, inputs: int) -> tuple[Any, Any]:
        weights = rng.normal(0, 0.1, (outputs, inputs)).astype(np.float32)
        return weights, rng.normal(0, 0.1, outputs).astype(np.float32)

    return Guide(
        game=game,
        options=table.config.model_dump(mode="json"),
        pack=None,
        size=size,
        actions=tuple(a.text for a in table.actions),
        trunk=(layer(hidden, size), layer(hidden, hidden)),
        policy=layer(actions, hidden),
        value=layer(1, hidden),
        activation="relu",
        about={"made": "by hand"},
        observation="asinh",
    )


def saved(path: Path, game: str = "crits-and-tricks", players: int = 2) -> Path:
    save_guide(path, random_guide(game, players))
    return path


# --- the guide file ---------------------------------------------------------------------


def test_a_guide_reads_back_as_it_was_written(tmp_path: Path) -> None:
    guide = random_guide("rage", 1)
    save_guide(tmp_path / "g.npz", guide)
    back = load_guide(tmp_path / "g.npz")
    assert (back.game, back.options, back.actions, back.size) == (
        guide.game,
        guide.options,
        guide.actions,
        guide.size,
    )
    assert back.about == {"made": "by hand"} and back.observation == "asinh"
    observation = np.linspace(-1, 1, guide.size, dtype=np.float32)
    legal = [0, 3, 5]
    priors, value = back.evaluate(observation, legal)
    assert priors == pytest.approx(guide.evaluate(observation, legal)[0])
    assert sum(priors) == pytest.approx(1.0) and len(priors) == 3
    assert 0.0 < value < 1.0 and value == pytest.approx(guide.judge(observation))


def _arrays(path: Path) -> dict[str, Any]:
    with np.load(path) as data:
        return dict(data)


def _meta(arrays: dict[str, Any], **changes: Any) -> dict[str, Any]:
    import json

    meta = json.loads(str(arrays["meta"]))
    meta.update(changes)
    return {**arrays, "meta": np.array(json.dumps(meta))}


def _policy_file(path: Path) -> None:
    guide = random_guide("rage", 1)
    save_policy(
        path,
        Policy(
            guide.game,
            guide.options,
            None,
            guide.size,
            guide.actions,
            (*guide.trunk, guide.policy),
            "relu",
            {},
        ),
    )


BROKEN: dict[str, tuple[Any, str]] = {
    "missing": (None, "no such file or directory"),
    "not a zip": (b"PK\x03\x04 not really a zip", "not a readable guide file (an .npz"),
    "a policy file": ("policy", "not a tavernkeep guide file"),
    "a later version": (lambda a: _meta(a, version=2), "guide format version 2; this"),
    "a head missing": (
        lambda a: {k: v for k, v in a.items() if k != "value_w"},
        "not a readable guide file (no 'value_w' in it)",
    ),
    "a trunk that does not fit": (
        lambda a: {**a, "w1": a["w1"][:, :3]},
        "layer 1 does not fit the one before it",
    ),
    "a policy head of another space": (
        lambda a: {**a, "policy_w": a["policy_w"][:5], "policy_b": a["policy_b"][:5]},
        "the policy head scores 5 actions but the file names 12",
    ),
    "a value head of two numbers": (
        lambda a: {**a, "value_w": np.vstack([a["value_w"]] * 2), "value_b": np.zeros(2)},
        "the value head gives 2 numbers, not 1",
    ),
    "a number that is not finite": (
        lambda a: {**a, "b0": np.full_like(a["b0"], np.nan)},
        "layer 0 holds a number that is not finite",
    ),
    "an unknown activation": (lambda a: _meta(a, activation="gelu"), "unknown activation"),
    "an unknown scale": (lambda a: _meta(a, observation="log"), "observations scaled as 'log'"),
    "no trunk": (lambda a: _meta(a, trunk=0), "the network has no trunk layers"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_guide_file_is_one_line(tmp_path: Path, case: str) -> None:
    make, error = BROKEN[case]
    path = tmp_path / "broken.npz"
    if isinstance(make, bytes):
        path.write_bytes(make)
    elif make == "policy":
        _policy_file(path)
    elif make is not None:
        good = saved(tmp_path / "good.npz", "rage", 1)
        np.savez(path, **make(_arrays(good)))
    with pytest.raises(SeatError) as caught:
        make_bot(f"bot:guided:{path}", get_game("rage"))
    assert error in str(caught.value)
    assert "\n" not in str(caught.value)
    assert str(caught.value).startswith(f"bot:guided:{path}")


def test_a_guide_larger_than_the_cap_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = saved(tmp_path / "g.npz", "rage", 1)
    monkeypatch.setattr("tavernkeep.agents.policy.MAX_BYTES", 100)
    with pytest.raises(SeatError, match="bytes is too large for a guide file"):
        load_guide(path)


# --- the seat spec ----------------------------------------------------------------------


def test_the_spec_reads_a_budget_of_iterations_or_milliseconds(tmp_path: Path) -> None:
    path = saved(tmp_path / "g.npz")
    game = get_game("crits-and-tricks")
    bot = make_bot(f"bot:guided:{path}:250", game)
    assert isinstance(bot, GuidedBot)
    assert (bot.iterations, bot.millis) == (250, None)
    assert bot.name == f"bot:guided:{path}:250"
    timed = make_bot(f"bot:guided:{path}:40ms", game)
    assert isinstance(timed, GuidedBot) and (timed.iterations, timed.millis) == (None, 40)
    plain = make_bot(f"bot:guided:{path}", game)
    assert isinstance(plain, GuidedBot) and plain.millis == 100
    assert plain.name == f"bot:guided:{path}:100ms"
    cut = make_bot(f"bot:guided:{path}:cut12:300", game)
    assert isinstance(cut, GuidedBot) and (cut.iterations, cut.horizon) == (300, 12)
    assert cut.name == f"bot:guided:{path}:300:cut12"
    assert make_bot(cut.name, game).name == cut.name
    assert plain.horizon is None


@pytest.mark.parametrize(
    ("tail", "error"),
    [
        ("", "name the guide file, bot:guided:PATH[:budget][:cutN]"),
        ("nowhere.npz:200:cut5", "bot:guided:nowhere.npz: no such file or directory"),
        ("{path}:0", "iterations are 1 to 10,000,000, not 0"),
        ("{path}:0ms", "a time budget is 1 to 600,000 ms, not 0"),
        ("{path}:fast", "'fast' is neither a budget (500 iterations, 200ms) nor a horizon"),
        ("{path}:500:heuristic", "'heuristic' is neither a budget"),
        ("nowhere.npz", "no such file or directory"),
        ("{path}:5:6", "give one budget, not two"),
        ("{path}:cut0", "a horizon is 1 to 100,000 actions, not 0"),
        ("{path}:cut3:cut4", "give one horizon, not two"),
        ("{rage}", "a guide for rage, not crits-and-tricks"),
    ],
)
def test_a_bad_spec_is_one_line(tmp_path: Path, tail: str, error: str) -> None:
    path = saved(tmp_path / "g.npz")
    rage = saved(tmp_path / "rage.npz", "rage", 1)
    spec = "bot:guided:" + tail.format(path=path, rage=rage)
    with pytest.raises(SeatError) as caught:
        make_bot(spec, get_game("crits-and-tricks"))
    assert error in str(caught.value) and "\n" not in str(caught.value)


def test_a_guide_sits_only_at_the_table_it_learnt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = saved(tmp_path / "g.npz")  # two players
    game = get_game("crits-and-tricks")
    with pytest.raises(SeatError, match="trained on crits-and-tricks for 2 players, and this"):
        seat_bot(f"bot:guided:{path}", game, game.make_config({"players": 3}))
    code = main(
        ["simulate", "crits-and-tricks", "--games", "2", "--seat", f"bot:guided:{path}:5"]
        + ["--seat", "bot:random"] * 2
    )
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "cannot play this table" in err and len(err.strip().splitlines()) == 1, err


# --- deciding from the InfoSet alone ----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "actions"), [("here-to-slay", 3, 40), ("crits-and-tricks", 2, 5)]
)
def test_the_guided_search_never_touches_the_true_state(
    tmp_path: Path, name: str, players: int, actions: int
) -> None:
    tests = _ismcts_tests()
    game, state = tests.midgame(name, players, seed=5, actions=actions)
    seat = game.actor(state)
    before = game.clone(state)
    save_guide(tmp_path / "g.npz", random_guide(name, players))
    bot = make_bot(f"bot:guided:{tmp_path / 'g.npz'}:30", game)
    assert isinstance(bot, GuidedBot)
    watched = tests.Watched(game)
    observed: list[tuple[Any, int]] = []
    plain = bot.observe

    def noted(g: Any, st: Any, s: int) -> Any:
        observed.append((st, s))
        return plain(g, st, s)

    bot.observe = noted  # type: ignore[method-assign,assignment]
    action = bot.choose(tests.Door(watched, state, seat, Rng(1)))
    assert action in game.legal_actions(state)
    assert len(watched.samples) == 30
    assert watched.touched and all(s is not state for s in watched.touched)
    # The guide read only samples, and every seat's observation of them, not only the
    # deciding seat's (the value of each seat, max-n).
    assert observed and all(st is not state for st, _ in observed)
    assert {s for _, s in observed} == set(range(players))
    # What the searching seat sees of a sample is what it sees of the game: a sample's
    # secrets are all other seats' (the same observation at the root, every sample).
    encoding: Any = Table(name, players=players).encoding
    truth = encoding.encode_state(state, seat)
    for sample in watched.samples:
        assert np.array_equal(encoding.encode_state(sample, seat), truth)
    others = [s for s in range(players) if s != seat]
    redealt = sum(
        any(
            not np.array_equal(encoding.encode_state(sample, s), encoding.encode_state(state, s))
            for s in others
        )
        for sample in watched.samples
    )
    assert redealt >= 20, "the other seats' observations were not dealt again"
    assert game.view(state, None) == game.view(before, None)


def test_the_same_seed_plays_the_same_game(tmp_path: Path) -> None:
    path = saved(tmp_path / "g.npz")
    game = get_game("crits-and-tricks")

    def play(seed: int) -> list[str]:
        bots = [make_bot(f"bot:guided:{path}:30", game), make_bot("bot:heuristic", game)]
        match = Match.start(game, bots, seed=seed)
        match.run()
        return match.record.actions

    assert play(4) == play(4)


# --- a planted position -----------------------------------------------------------------


class Corridor(Game[Any, Any]):
    """A solo game: choose a door, left or right, then walk a long corridor (every step a
    choice of foot that changes nothing) to its end, where only the right door wins. The
    corridor is long enough that no search below here reaches its end: what a door is
    worth is the guide's value alone."""

    name: ClassVar[str] = "corridor"
    title: ClassVar[str] = "Corridor"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    kind: ClassVar[Any] = "solo"
    config_model: ClassVar[type[BaseModel]] = BaseModel
    content_dir: ClassVar[Path] = Path(".")
    LENGTH = 10_000
    ACTIONS = (
        Action("door", "left"),
        Action("door", "right"),
        Action("foot", 0),
        Action("foot", 1),
    )

    def load_pack(self, source: Any = None) -> Any:
        return None

    def setup(self, config: Any, seed: int, pack: Any = None) -> Any:
        return {"door": None, "steps": 0}

    def actor(self, state: Any) -> int | None:
        return None if state["steps"] >= self.LENGTH else 0

    def legal_actions(self, state: Any) -> list[Action]:
        return list(self.ACTIONS[:2] if state["door"] is None else self.ACTIONS[2:])

    def apply(self, state: Any, action: Action, record: bool = True) -> list[Event]:
        if action.kind == "door":
            state["door"] = action.args[0]
        else:
            state["steps"] += 1
        return []

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        return dict(state)

    def determinize(self, state: Any, seat: int, rng: Rng) -> Any:
        return dict(state)

    def result(self, state: Any) -> Result | None:
        if self.actor(state) is not None:
            return None
        won = state["door"] == "right"
        return Result((float(won),), (0,), (0,) if won else (), "end", "the end", won=won)

    def clone(self, state: Any) -> Any:
        return dict(state)

    def label(self, state: Any, action: Action) -> str:
        return action.text


class CorridorEncoding:
    """[left door taken, right door taken, steps walked / length]."""

    size = 3
    actions = Corridor.ACTIONS

    def encode(self, view: dict[str, Any], seat: int) -> Any:
        return np.array(
            [view["door"] == "left", view["door"] == "right", view["steps"] / Corridor.LENGTH],
            dtype=np.float32,
        )


def corridor_bot(prior_left: float, iterations: int, horizon: int | None = None) -> GuidedBot:
    """A guided bot at the corridor whose prior gives the left door `prior_left` of its
    weight, and whose value says the left door is worth 0.12 and the right 0.88."""
    logit = float(np.log(prior_left / (1 - prior_left)))
    identity = (np.eye(3, dtype=np.float32), np.zeros(3, dtype=np.float32))
    policy = (np.zeros((4, 3), dtype=np.float32), np.array([logit, 0, 0, 0], dtype=np.float32))
    value = (np.array([[-2.0, 2.0, 0.0]], dtype=np.float32), np.zeros(1, dtype=np.float32))
    guide = Guide(
        "corridor",
        {"players": 1},
        None,
        3,
        tuple(a.text for a in Corridor.ACTIONS),
        (identity,),
        policy,
        value,
        "relu",
        {},
        "raw",
    )
    game = Corridor()
    return GuidedBot(
        "bot:guided:corridor",
        guide,
        game,
        iterations,
        encoding=CorridorEncoding(),
        horizon=horizon,
    )


def decide(bot: GuidedBot) -> tuple[Action, dict[str, int]]:
    game = Corridor()
    state = game.setup(None, 0)
    info = InfoSet(game, state, 0, Rng(3))
    root = bot.search(info, Rng(4))
    visits = {a.text: n.visits for a, n in root.children[0].items()}
    return bot.choose(InfoSet(game, state, 0, Rng(3))), visits


def test_with_few_iterations_the_search_follows_the_prior() -> None:
    chosen, visits = decide(corridor_bot(0.95, iterations=4))
    assert chosen.text == "door:left"
    assert visits == {"door:left": 3, "door:right": 0}
    # The prior decides, not the order of the actions: turned round, so is the choice.
    chosen, _ = decide(corridor_bot(0.05, iterations=4))
    assert chosen.text == "door:right"


def test_with_enough_iterations_the_search_follows_the_value() -> None:
    chosen, visits = decide(corridor_bot(0.95, iterations=200))
    assert chosen.text == "door:right"
    assert visits["door:right"] > 150 > visits["door:left"] >= 3


def test_a_search_cut_at_a_horizon_judges_where_its_random_walk_stopped() -> None:
    # A few random steps down the corridor change nothing the value reads: the value
    # still decides, now judged at the walk's end.
    chosen, visits = decide(corridor_bot(0.95, iterations=200, horizon=5))
    assert chosen.text == "door:right" and visits["door:right"] > 150


def test_the_server_seats_no_guided_search(tmp_path: Path) -> None:
    # A stranger's seat spec must make the server read no file and think no longer than
    # its search pool allows: a guide is a file, and the guided search is not the pool's.
    from fastapi.testclient import TestClient

    from tavernkeep.server.app import create_app

    guide = saved(tmp_path / "g.npz", "crits-and-tricks", 3)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite'}", bot_delay=0.0)) as client:
        for spec in (f"bot:guided:{guide}", f"bot:guided:{guide}:600000ms", "bot:guided:/etc/x"):
            refused = client.post(
                "/api/tables",
                json={"game": "crits-and-tricks", "seats": ["human", spec, "bot:random"]},
            )
            assert refused.status_code == 400, refused.text
            assert refused.json()["error"] == f"this server seats no guided search ('{spec}')"
        stand_in = client.post(
            "/api/tables",
            json={
                "game": "crits-and-tricks",
                "seats": ["human", "bot:random", "bot:random"],
                "settings": {"stand_in": "bot:guided:g.npz"},
            },
        )
        assert stand_in.status_code == 400
        assert "seats no guided search" in stand_in.json()["error"]
