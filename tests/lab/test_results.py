"""`simulate --out`: one row per game, the same file whoever plays the games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow.parquet as pq
import pytest

if TYPE_CHECKING:
    from tests.lab.conftest import Run

SEATS = ["--seat", "bot:heuristic", "--seat", "bot:random", "--seat", "bot:random"]


def simulate(tmp_path: Path, name: str, run: Run, *extra: str) -> Path:
    out = tmp_path / name
    args = ["simulate", "hack-and-slash", "-n", "240", "--seed", "11", "--json", *SEATS]
    code, stdout, err = run([*args, "--out", str(out), *extra])
    assert code == 0, err
    assert json.loads(stdout)["out"] == str(out)
    return out


def test_the_file_is_the_same_for_one_worker_or_two(tmp_path: Path, run: Run) -> None:
    one = simulate(tmp_path, "one.parquet", run)
    two = simulate(tmp_path, "two.parquet", run, "--workers", "2")
    assert one.read_bytes() == two.read_bytes()
    rows = pq.read_table(one).to_pylist()
    assert [r["game_index"] for r in rows] == list(range(240))
    assert {r["batch_seed"] for r in rows} == {11}
    assert len({r["game_seed"] for r in rows}) == 240


def test_rows_add_up_to_the_printed_report(tmp_path: Path, run: Run) -> None:
    out = tmp_path / "r.parquet"
    args = ["simulate", "hack-and-slash", "-n", "200", "--seed", "4", "--json", *SEATS]
    code, stdout, err = run([*args, "--out", str(out)])
    assert code == 0, err
    report = json.loads(stdout)
    rows = pq.read_table(out).to_pylist()
    assert len(rows) == 200
    for seat in report["seats"]:
        wins = sum(r["win_share"][seat["seat"]] for r in rows)
        assert wins == pytest.approx(seat["wins"])
    assert sum(r["turns"] for r in rows) / 200 == pytest.approx(report["mean_turns"])
    endings: dict[str, int] = {}
    for r in rows:
        endings[r["ending"]] = endings.get(r["ending"], 0) + 1
    assert endings == report["endings"]
    first = rows[0]
    assert first["seats"] == ["bot:heuristic", "bot:random", "bot:random"]
    assert first["game"] == "hack-and-slash" and first["pack"] == "standard"
    assert json.loads(first["options"]) == {}
    assert len(first["scores"]) == len(first["ranks"]) == 3
    # The winners hold rank 1 and share the victory.
    assert all(first["ranks"][w] == 1 for w in first["winners"])
    assert sum(first["win_share"]) == pytest.approx(1.0)
    # The designer tallies: each seat's quests attempted, one map a seat.
    attempted = first["tally_quest_attempted"]
    assert len(attempted) == 3 and all(isinstance(m, list) for m in attempted)
    assert sum(n for seat in attempted for _, n in seat) >= 1


def test_a_grid_writes_its_cells_as_columns(tmp_path: Path, run: Run) -> None:
    out = tmp_path / "grid.parquet"
    code, _, err = run(["simulate", "rage", "-n", "3", "--seed", "2", "--out", str(out)])
    assert code == 0, err
    rows = pq.read_table(out).to_pylist()
    assert [r["cell_bot"] for r in rows] == ["bot:heuristic"] * 3 + ["bot:random"] * 3
    assert all(r["won"] in (True, False) for r in rows)


def test_ray_plays_the_same_games(tmp_path: Path, run: Run) -> None:
    ray = pytest.importorskip(
        "ray", reason="Ray is an optional extra: pip install 'tavernkeep[ray]'"
    )
    local = simulate(tmp_path, "local.parquet", run)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        # A bare --ray: the Ray already started here (else a new local one).
        on_ray = simulate(tmp_path, "ray.parquet", run, "--ray")
    finally:
        ray.shutdown()
    assert on_ray.read_bytes() == local.read_bytes()


def test_ray_missing_is_one_line(tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)
    out = tmp_path / "r.parquet"
    args = ["simulate", "hack-and-slash", "-n", "5", "--ray", "--out", str(out)]
    code, _, err = run(args)
    assert code == 2
    assert err.strip() == (
        "tavernkeep: error: --ray needs Ray, which is not installed: pip install 'tavernkeep[ray]'"
    )
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("results.csv", "results are written as Parquet"),
        ("missing/r.parquet", "no such folder"),
        (".", "is a folder"),
    ],
)
def test_a_bad_out_is_refused_before_any_game(
    tmp_path: Path, run: Run, name: str, message: str
) -> None:
    args = ["simulate", "hack-and-slash", "-n", "5", "--out", str(tmp_path / name)]
    code, out, err = run(args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_an_out_nobody_can_write_is_refused_before_any_game(run: Run, command: str) -> None:
    # /proc refuses new files even to root; before, the games were played and then lost.
    target = "/proc/tavernkeep-results.parquet"
    args = [command, "hack-and-slash", "-n", "5", "--out", target]
    if command == "sweep":
        args += ["--set", "brag.goal=3,4"]
    code, out, err = run(args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and target in err and "Traceback" not in err
