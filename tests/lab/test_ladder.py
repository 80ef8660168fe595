"""`tavernkeep ladder`: how many rungs of skill a game has, the top one against random,
the first seat's advantage and the share of outcomes luck decides."""

from __future__ import annotations

import itertools
import json
import re
from typing import TYPE_CHECKING, Any

import pytest

from tavernkeep.lab.ladder import print_ladder

if TYPE_CHECKING:
    from tests.lab.conftest import Run

SMALL = ["--games", "48", "--start", "2", "--top", "4", "--seed", "3", "--json"]


def ladder(run: Run, *args: str) -> dict[str, Any]:
    code, stdout, err = run(["ladder", *args])
    assert code == 0, err
    result: dict[str, Any] = json.loads(stdout)
    return result


def printed(result: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> str:
    """What `ladder` prints for this result, on a terminal wide enough for its table."""
    print_ladder(result)
    return capsys.readouterr().out


def test_hack_and_slash_climbs_from_random_and_stops_at_the_first_unclear_rung(
    run: Run, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    result = ladder(run, "hack-and-slash", *SMALL, "--seat-games", "400")
    (table,) = result["tables"]
    assert table["players"] == 4
    steps = table["steps"]
    # The heuristic bot is the first rung above random, and it wins clearly more than a
    # quarter of the games against three random bots.
    assert (steps[0]["upper"], steps[0]["lower"]) == ("bot:heuristic", "bot:random")
    assert steps[0]["clear"] and steps[0]["ci95"][0] > steps[0]["fair"] == 0.25
    # Each rung is played against the one below, and the climb stops at the first rung
    # that is not clearly stronger (or at --top, still climbing).
    for below, above in itertools.pairwise(steps):
        assert above["lower"] == below["upper"]
    assert all(s["clear"] for s in steps[:-1])
    assert table["ceiling"] == steps[-1]["clear"]
    assert table["rungs"] == 1 + sum(s["clear"] for s in steps)
    clear = [s["upper"] for s in steps if s["clear"]]
    assert table["top"] == clear[-1]
    # The top rung against random bots wins more than its share, and the random seats'
    # wins read as luck: the share of games chance alone would explain.
    top = table["top_vs_random"]
    assert top["rate"] > top["fair"]
    luck = table["luck"]
    assert luck["share"] == pytest.approx(min(1.0, luck["upset"] / 0.75))
    assert 0 <= luck["share_ci95"][0] <= luck["share"] <= luck["share_ci95"][1] <= 1
    seat = table["first_seat"]
    assert (seat["agent"], seat["games"], seat["fair"]) == ("bot:heuristic", 400, 0.25)
    assert seat["ci95"][0] <= seat["rate"] <= seat["ci95"][1]
    # The top rung here is the heuristic, whose match-up against random is the first row:
    # one figure for it, over every game the two played, in the row and under the table.
    assert table["top"] == "bot:heuristic"
    first = steps[0]
    assert top["duel"] == first
    assert (top["games"], top["rate"], top["ci95"]) == (48, first["rate"], first["ci95"])
    assert first["games"] == 48 and first["decided_at"] < 48
    # The duel that ends the climb is not told apart, and no rung.
    last = steps[-1]
    assert (last["upper"], last["clear"], last["verdict"]) == (
        "bot:mcts:2",
        False,
        "not told apart",
    )
    assert last["stopped"] == "not ahead" and last["games"] == 24

    monkeypatch.setenv("COLUMNS", "200")
    said = printed(result, capsys)
    assert "2 rungs (bot:random, bot:heuristic), top bot:heuristic" in said
    row = re.search(r"bot:heuristic +│ bot:random +│ +48 │ +(\d+\.\d%) │ +(\S+ - \S+) │", said)
    under = re.search(
        r"top rung against random: bot:heuristic wins (\S+) \((\S+ - \S+)\) of 48 games", said
    )
    assert row and under, said
    assert row.groups() == under.groups() == (f"{100 * first['rate']:.1f}%", row[2])
    assert "the table's first row: clear after 12 games" in said
    mcts = re.search(r"bot:mcts:2 +│ bot:heuristic +│ +24 │.*│ (not told apart) +│", said)
    assert mcts, said
    assert "bot:mcts:2 is not told apart from bot:heuristic" in said
    assert "cut short after 24 games, not ahead of its share" in said
    assert "not clearly" not in said


def test_the_same_seed_climbs_the_same_ladder_whatever_the_workers(run: Run) -> None:
    one = ladder(run, "crits-and-tricks", *SMALL, "--seat-games", "60", "--workers", "1")
    two = ladder(run, "crits-and-tricks", *SMALL, "--seat-games", "60", "--workers", "2")
    assert one["tables"] == two["tables"]


def test_a_team_game_compares_the_teams_seed_by_seed(
    run: Run, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    result = ladder(
        run, "side-quest", "--games", "16", "--start", "1", "--top", "1", "--seed", "5", "--json"
    )
    assert result["kind"] == "cooperative"
    (table,) = result["tables"]
    # No seat competes with another: no first seat to favour.
    assert table["first_seat"] is None
    heuristic, search = table["steps"]
    assert (heuristic["upper"], heuristic["lower"]) == ("bot:heuristic", "bot:random")
    # The rate is over the seeds only one team won, against an even split.
    assert heuristic["fair"] == 0.5 and heuristic["clear"]
    # A search of one iteration plays as its incumbent, the heuristic bot: no seed goes
    # otherwise, and the duel ends half-way (8 of 16 seeds), not ahead.
    assert (search["upper"], search["games"], search["rate"]) == ("bot:mcts:1", 8, None)
    assert not search["clear"] and table["top"] == "bot:heuristic"
    top, luck = table["top_vs_random"], table["luck"]
    assert top["games"] == 16 and top["rate"] >= top["random_rate"]
    assert luck["share"] == pytest.approx(min(1.0, top["random_rate"] / top["rate"]))
    # The heuristic against random is one match-up: the row shows its 16 seeds, counted
    # as every duel is (the seeds only one team won), and so does the line under it; the
    # teams' own win rates are the luck share's, and say so.
    assert top["duel"] == heuristic and heuristic["games"] == 16
    monkeypatch.setenv("COLUMNS", "200")
    said = printed(result, capsys)
    share = f"{100 * heuristic['rate']:.1f}%"
    assert re.search(rf"bot:heuristic +│ bot:random +│ +16 │ +{re.escape(share)} │", said), said
    assert (
        f"top rung against random: bot:heuristic's team won {share} "
        f"({100 * heuristic['ci95'][0]:.1f}% - {100 * heuristic['ci95'][1]:.1f}%) "
        f"of the {heuristic['trials']} seeds only one team won (of 16)"
    ) in said
    assert f"the top rung's team {100 * top['rate']:.1f}%" in said
    # No seed went otherwise between the search of one iteration and the heuristic: no
    # rate, no interval, not told apart, and why.
    assert re.search(r"bot:mcts:1 +│ bot:heuristic +│ +8 │ +- │ +- │ 50.0% │ not told apart", said)
    assert "the two teams won and lost the same seeds, all 8 of them" in said


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["hack-and-slash", "--start", "20", "--top", "10"], "--top 10 is below --start 20"),
        (["hack-and-slash", "--players", "9"], "players"),
        (["hack-and-slash", "--pack", "no-such-pack"], "no-such-pack"),
        (["no-such-game"], "no-such-game"),
    ],
)
def test_a_bad_ladder_is_one_line_before_any_game(run: Run, args: list[str], said: str) -> None:
    code, stdout, err = run(["ladder", *args])
    assert code == 2
    assert said in err
    assert err.count("\n") == 1
    assert stdout == ""
