"""`tavernkeep sweep`: a content number or option varied, balance read for each value."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow.parquet as pq
import pytest

if TYPE_CHECKING:
    from tests.lab.conftest import Run

SEATS = ["-s", "bot:heuristic", "-s", "bot:random", "-s", "bot:random"]


def test_a_richer_quest_raises_every_score_and_the_bot_that_values_it_wins_more(
    tmp_path: Path, run: Run
) -> None:
    out = tmp_path / "sweep.parquet"
    args = ["sweep", "hack-and-slash", "--set", "quest[Rats in the Cellar].reward=1,30"]
    # 600 games a value: the heuristic's edge from a richer quest is a few points, and
    # 300 games (the first version) showed it for some seeds and not others.
    args += ["-n", "600", "--seed", "5", *SEATS, "--json"]
    code, stdout, err = run([*args, "--out", str(out)])
    assert code == 0, err
    low, high = json.loads(stdout)["values"]
    assert (low["value"], high["value"]) == (1, 30)
    for before, after in zip(low["seats"], high["seats"], strict=True):
        assert after["mean_score"] > before["mean_score"] + 0.5
    assert high["seats"][0]["win_rate"] > low["seats"][0]["win_rate"]
    rows = pq.read_table(out).to_pylist()
    assert [r["sweep_value"] for r in rows] == [1.0] * 600 + [30.0] * 600
    # The same games for each value: the same seeds.
    assert [r["game_seed"] for r in rows[:600]] == [r["game_seed"] for r in rows[600:]]


def test_a_round_limit_swept_as_an_option_ends_games_by_the_limit(
    run: Run,
) -> None:
    args = ["sweep", "hack-and-slash", "--set", "round_limit=3,40", "-n", "200", "--seed", "2"]
    code, table, err = run([*args, *SEATS])
    assert code == 0, err
    assert "round_limit swept, 200 games a value" in table
    code, stdout, err = run([*args, *SEATS, "--json"])
    short, long = json.loads(stdout)["values"]
    assert short["endings"].get("round-limit", 0) > 150
    assert long["endings"].get("round-limit", 0) < 20
    assert short["turns"]["mean"] < long["turns"]["mean"]


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("quest[Nowhere].reward=1,2", "no quest named 'Nowhere'"),
        ("quest[#99].reward=1", "there is no quest #99 (the pack has 20)"),
        ("quest[Rats in the Cellar].name=1", "holds 'Rats in the Cellar', not a number"),
        ("dragon[X].reward=1", "no 'dragon' in the pack"),
        ("brag.goal=four", "'four' is not a number"),
        ("brag.goal=99", "with brag.goal=99: 'brag': field 'goal': Input should be less than"),
        ("quest[Rats in the Cellar].reward=-5", "reward"),
        ("colour=1,2", "not a game option"),
        ("brag.goal", "expected PARAM=v1,v2"),
        ("quest[Rats.reward=1", "without a closing ']'"),
    ],
)
def test_bad_settings_are_one_line_errors(run: Run, setting: str, message: str) -> None:
    code, out, err = run(["sweep", "hack-and-slash", "--set", setting, "-n", "2"])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_a_number_at_the_top_of_the_pack_is_swept_by_its_name(run: Run) -> None:
    # Rage's night is `dawn` at the top of its map, as the README's designers' dial: a
    # shorter night leaves less time to gather the food, so games end sooner.
    args = ["sweep", "rage", "--set", "dawn=20,57", "-n", "30", "--seed", "4", "--json"]
    code, stdout, err = run(args)
    assert code == 0, err
    short, long = json.loads(stdout)["values"]
    assert (short["value"], long["value"]) == (20, 57)
    assert short["turns"]["max"] <= 20 < long["turns"]["max"]


def test_a_number_in_an_array_is_swept_by_its_place(run: Run, tmp_path: Path) -> None:
    # The Wild Hawk's skill holds a list of bonuses (`bonus = [1]`): [#1] is its first. A
    # Leader who adds three to her ATTACK rolls wins more than one who adds one.
    param = "leader[The Wild Hawk].skill.bonus[#1]=1,3"
    out = tmp_path / "hawk.parquet"
    args = ["sweep", "here-to-slay", "--set", param, "-n", "300", "--seed", "2"]
    args += ["--option", "leaders=random", "-s", "bot:heuristic", "-s", "bot:heuristic"]
    code, _, err = run([*args, "--workers", "2", "--out", str(out)])
    assert code == 0, err
    rows = pq.read_table(out, columns=["sweep_value", "fact_leader", "win_share"]).to_pylist()
    rate = {}
    for value in (1, 3):
        held = [
            share
            for row in rows
            if row["sweep_value"] == value
            for leaders, share in zip(row["fact_leader"], row["win_share"], strict=True)
            if "The Wild Hawk" in leaders
        ]
        assert len(held) > 50
        rate[value] = sum(held) / len(held)
    assert rate[3] > rate[1] + 0.1


def test_a_second_set_is_refused_not_dropped(run: Run) -> None:
    """Issue 40, item 3: two --set were one sweep of the last; now one line, no game."""
    code, stdout, err = run(
        ["sweep", "hack-and-slash", "--set", "round_limit=1,2", "--set", "box=10,20"]
    )
    assert code == 2
    assert "sweep takes one --set, not 2" in err
    assert err.count("\n") == 1 and stdout == ""


def test_a_sweep_shows_the_swept_cards_own_figures_first(run: Run) -> None:
    """Issue 40, item 3: sweeping a quest's reward shows, for each value, that quest's own
    attempts and completions and how its users won, with intervals, before the seats."""
    args = ["sweep", "hack-and-slash", "--set", "quest[The Dragon's Hoard].reward=1,20"]
    args += ["-n", "400", "--seed", "5", "--workers", "2"]
    code, stdout, err = run([*args, "--json"])
    assert code == 0, err
    result = json.loads(stdout)
    assert result["entry"] == "The Dragon's Hoard"
    low, high = ({f["kind"]: f for f in step["entry"]} for step in result["values"])
    for kind in ("quest attempted", "quest completed"):
        assert kind in low and kind in high
        for figures in (low[kind], high[kind]):
            lo, hi = figures["ci95"]
            assert lo <= figures["users_win"] <= hi
    # Worth 20, the heuristic bots go for it more, and its completers win more.
    assert high["quest attempted"]["users_a_game"] > low["quest attempted"]["users_a_game"]
    assert high["quest completed"]["users_win"] > low["quest completed"]["users_win"]
    code, stdout, err = run(args)
    assert code == 0, err
    text = stdout.split("seat 1")[0]
    assert "The Dragon's Hoard, value by value" in text and "quest completed" in text


# -- naming a number (issue 40, item 7) -------------------------------------------------------


def test_an_array_of_one_number_is_named_as_the_pack_shows_it(run: Run) -> None:
    """`bonus = [1]`: `leader[The Wild Hawk].skill.bonus` names the one number, no [#1]."""
    from tavernkeep.games import get_game
    from tavernkeep.lab.sweep import sweep_batches

    game = get_game("here-to-slay")
    param = "leader[The Wild Hawk].skill.bonus"
    typed, batches = sweep_batches(game, param, ["1", "3"], None, 1, {}, None)
    assert typed == [1, 3]
    for value, batch in zip(typed, batches, strict=True):
        assert batch.loaded is not None
        [hawk] = [le for le in batch.loaded.content.leader if le.name == "The Wild Hawk"]
        assert list(hawk.skill.bonus) == [value]
    args = ["sweep", "here-to-slay", "--set", f"{param}=1..3", "-n", "2", "--seed", "3", "--json"]
    code, stdout, err = run(args)
    assert code == 0, err
    result = json.loads(stdout)
    assert [v["value"] for v in result["values"]] == [1, 2, 3]
    assert result["entry"] == "The Wild Hawk"


def test_a_range_sweeps_every_whole_number_in_it(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "goal.parquet"
    args = ["sweep", "hack-and-slash", "--set", "brag.goal=3..5", "-n", "5", "--seed", "1"]
    code, stdout, err = run([*args, *SEATS, "--json", "--out", str(out)])
    assert code == 0, err
    assert [v["value"] for v in json.loads(stdout)["values"]] == [3, 4, 5]
    rows = pq.read_table(out, columns=["sweep_value"]).to_pylist()
    assert [r["sweep_value"] for r in rows] == [3.0] * 5 + [4.0] * 5 + [5.0] * 5
    # An option takes a range as well.
    code, stdout, err = run(["sweep", "hack-and-slash", "--set", "round_limit=2..3", "-n", "2"])
    assert code == 0, err


LISTED = "(tavernkeep pack params hack-and-slash lists every number)"


@pytest.mark.parametrize(
    ("game", "setting", "message"),
    [
        (
            "hack-and-slash",
            "quest[The Dragons Hoard].reward=1,2",
            f"no quest named 'The Dragons Hoard'; did you mean 'The Dragon's Hoard'? {LISTED}",
        ),
        (
            "hack-and-slash",
            "quests[The Dragon's Hoard].reward=1,2",
            f"no 'quests' in the pack; did you mean 'quest'? {LISTED}",
        ),
        (
            "hack-and-slash",
            "quest[The Dragon's Hoard].rewrd=1,2",
            "field 'rewrd': is not a known field; did you mean 'reward'?",
        ),
        (
            "hack-and-slash",
            "round_limt=10,20",
            f"--set round_limt: not a game option nor a number in the pack; did you mean "
            f"'round_limit'? {LISTED}",
        ),
        (
            "hack-and-slash",
            "quest[Nowhere].reward=1,2",
            "(names: Rats in the Cellar, Escort the Cheese Merchant, ",
        ),
        (
            "hack-and-slash",
            "quest.reward=1,2",
            "'quest' holds 20 entries: say which, quest[#1] to [#20] or quest[Name]",
        ),
        (
            "here-to-slay",
            "leader[The Wild Hawk].skil.bonus=1,2",
            "no 'skil' in leader[The Wild Hawk]; did you mean 'skill'? (tavernkeep pack "
            "params here-to-slay lists every number)",
        ),
        (
            "here-to-slay",
            "leader[The Stone Warden].skill.bonus=1,2",
            "'leader[The Stone Warden].skill.bonus' holds 2 numbers (1, -1): say which, "
            "leader[The Stone Warden].skill.bonus[#1] to [#2]",
        ),
        ("rage", "start=1,2", "'start' holds 2 numbers (-4, 7): say which, start[#1] to [#2]"),
        ("rage", "dawnn=20,30", "did you mean 'dawn'? (tavernkeep pack params rage lists"),
        ("hack-and-slash", "brag.goal=5..2", "--set brag.goal: the range 5..2 is empty"),
        (
            "hack-and-slash",
            "brag.goal=1..100",
            "the range 1..100 is 100 values, each a batch of every game; a sweep takes at most 50",
        ),
        (
            "hack-and-slash",
            "brag.goal=0.5..2",
            "a sweep's range LOW..HIGH is of whole numbers; list decimals with commas",
        ),
    ],
)
def test_a_name_not_in_the_pack_is_one_line_with_the_closest_one(
    run: Run, game: str, setting: str, message: str
) -> None:
    code, out, err = run(["sweep", game, "--set", setting, "-n", "2"])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_the_listing_the_error_names_is_of_the_pack_swept(run: Run, planted: Path) -> None:
    setting = "quests[Rats in the Cellar].reward=1,2"
    code, _, err = run(["sweep", "hack-and-slash", "--set", setting, "--pack", str(planted)])
    assert code == 2
    assert f"(tavernkeep pack params hack-and-slash --pack {planted} lists every number)" in err
