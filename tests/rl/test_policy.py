"""A trained policy at the table: `bot:policy:PATH` in simulate, play, serve and the lab.

The policy file is numpy's: playing one needs no torch. One test trains a tiny policy
with MaskablePPO (the train extra) end to end; the rest use policies written here by hand.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from tavernkeep.agents import check_seat, make_bot
from tavernkeep.agents.policy import Policy, PolicyBot, load_policy, save_policy
from tavernkeep.cli import main
from tavernkeep.engine.errors import SeatError
from tavernkeep.engine.match import Match
from tavernkeep.games import encoding_of, get_game
from tavernkeep.server.app import create_app
from tavernkeep.server.rooms import Limits

HNS = "hack-and-slash"


def hand_made(path: Path, game: str = HNS, players: int = 3, prefer: str | None = None) -> str:
    """A policy file for `game` with random weights; with `prefer`, one that scores that
    action far above every other, so its choices can be told."""
    rules = get_game(game)
    options = {"players": players} if game != "rage" else {}
    encoding = encoding_of(rules, rules.make_config(options), rules.load_pack(None))
    rng = np.random.default_rng(1)
    hidden = 8
    layers = [
        (
            rng.normal(size=(hidden, encoding.size)).astype(np.float32) * 0.1,
            np.zeros(hidden, np.float32),
        ),
        (
            rng.normal(size=(len(encoding.actions), hidden)).astype(np.float32),
            np.zeros(len(encoding.actions), np.float32),
        ),
    ]
    if prefer is not None:
        texts = [a.text for a in encoding.actions]
        layers[1][1][texts.index(prefer)] = 1000.0
    policy = Policy(
        game=game,
        options=rules.make_config(options).model_dump(mode="json"),
        pack=None,
        size=encoding.size,
        actions=tuple(a.text for a in encoding.actions),
        layers=tuple(layers),
        activation="tanh",
        about={"made": "by hand, in a test"},
    )
    save_policy(path, policy)
    return f"bot:policy:{path}"


def test_a_policy_plays_whole_games_and_picks_what_it_scores_highest(tmp_path: Path) -> None:
    spec = hand_made(tmp_path / "brag.npz", prefer="brag")
    game = get_game(HNS)
    bot = make_bot(spec, game)
    assert isinstance(bot, PolicyBot) and bot.name == spec
    match = Match.start(
        game, [bot, make_bot("bot:random", game), make_bot("bot:random", game)], 5, {}, None
    )
    chosen = []
    original = bot.choose

    def watch(info: Any) -> Any:
        action = original(info)
        chosen.append((action, info.legal_actions()))
        return action

    bot.choose = watch  # type: ignore[method-assign]
    assert match.run() is not None
    # Whenever bragging was legal, the policy bragged; else it chose among the legal.
    assert chosen
    for action, legal in chosen:
        assert action in legal
        if any(a.text == "brag" for a in legal):
            assert action.text == "brag"


def test_simulate_seats_a_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = hand_made(tmp_path / "p.npz")
    seats = ["--seat", spec, "--seat", "bot:random", "--seat", "bot:random"]
    argv = ["simulate", HNS, "--games", "40", "--seed", "2", "--workers", "2", "--json"]
    code = main([*argv, *seats])
    out, err = capsys.readouterr()
    assert code == 0, err
    report = json.loads(out)
    assert report["games"] == 40
    assert report["seats"][0]["agent"] == spec


@pytest.mark.parametrize(
    ("make", "seats", "error"),
    [
        (None, 3, "no such file or directory"),
        ("garbage", 3, "not a readable policy file"),
        ("rage", 3, "a policy for rage, not hack-and-slash"),
        ("three", 4, "cannot play this table: it was trained on hack-and-slash"),
    ],
)
def test_a_policy_that_cannot_play_is_one_line_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: str | None, seats: int, error: str
) -> None:
    path = tmp_path / "policy.npz"
    if make == "garbage":
        path.write_bytes(b"PK\x03\x04 not really a zip")
    elif make == "rage":
        hand_made(path, game="rage")
    elif make == "three":
        hand_made(path, players=3)
    argv = ["simulate", HNS, "--games", "5", "--seat", f"bot:policy:{path}"]
    argv += ["--seat", "bot:random"] * (seats - 1)
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2
    assert error in err and len(err.strip().splitlines()) == 1, err
    assert out == ""


def test_a_policy_file_that_lies_about_its_shapes_is_refused(tmp_path: Path) -> None:
    spec = hand_made(tmp_path / "p.npz")
    with np.load(tmp_path / "p.npz") as data:
        arrays = dict(data)
    arrays["w1"] = arrays["w1"][:, :3]
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(SeatError, match="layer 1 does not fit the one before it"):
        load_policy(tmp_path / "bad.npz")
    assert isinstance(make_bot(spec, get_game(HNS)), PolicyBot)
    with pytest.raises(SeatError, match="name the policy file"):
        make_bot("bot:policy:", get_game(HNS))


def test_the_server_seats_only_the_policies_its_operator_named(tmp_path: Path) -> None:
    offered = hand_made(tmp_path / "offered.npz")
    other = hand_made(tmp_path / "other.npz")
    limits = Limits(policies=(offered,))
    with TestClient(
        create_app(f"sqlite:///{tmp_path / 'db.sqlite'}", bot_delay=0.0, limits=limits)
    ) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
        assert offered in games[HNS]["bots"]
        assert offered not in games["rage"]["bots"]

        def create(seats: list[str]) -> Any:
            return client.post("/api/tables", json={"game": HNS, "seats": seats, "seed": 4})

        refused = create(["human", other, "bot:random"])
        assert refused.status_code == 400
        assert refused.json()["error"] == (
            f"this server seats no policy '{other}' (it offers: {offered})"
        )
        refused = create(["human", "bot:policy:/etc/passwd", "bot:random"])
        assert refused.status_code == 400 and "/etc/passwd' (it offers" in refused.text
        # A bot table with the policy plays to its end.
        made = create([offered, "bot:random", "bot:random"])
        assert made.status_code == 201, made.text
        data = made.json()
        deadline = time.monotonic() + 30
        while (status := client.get(f"/api/tables/{data['id']}").json()["status"]) != "finished":
            assert time.monotonic() < deadline, status
            time.sleep(0.05)


def test_check_seat_without_the_table_says_nothing_of_fit(tmp_path: Path) -> None:
    spec = hand_made(tmp_path / "p.npz", players=3)
    game = get_game(HNS)
    check_seat(spec, game)
    with pytest.raises(SeatError, match="cannot play this table"):
        check_seat(spec, game, game.make_config({"players": 5}), game.load_pack(None))


def test_a_policy_trained_here_plays_in_simulate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sb3_contrib", reason="the train extra is not installed")
    from sb3_contrib import MaskablePPO

    from tavernkeep.rl.train import export, learner_env

    env = learner_env("rage", num_envs=2)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        seed=3,
        policy_kwargs={"net_arch": [16]},
        device="cpu",
    )
    model.learn(total_timesteps=128)
    path = export(model, env, tmp_path / "rage.npz", about={"steps": 128})
    env.close()
    policy = load_policy(path)
    assert policy.game == "rage" and policy.about == {"steps": 128}
    # The file plays as the model does: the same choice on the same observation.
    table = env.games.table
    table.reset(11)
    observation = table.observe(0)
    mask = table.mask(0).astype(bool)
    ours = np.where(mask, policy.scores(observation), -np.inf).argmax()
    theirs, _ = model.predict(observation, action_masks=mask, deterministic=True)
    assert ours == int(theirs)
    code = main(
        ["simulate", "rage", "--games", "10", "--seed", "1", "--seat", f"bot:policy:{path}"]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "bot:policy:" in out
