"""`tavernkeep report`: the numbers a designer reads, and the flags."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.parquet as pq

from tavernkeep.engine.game import Result
from tavernkeep.games import get_game
from tavernkeep.lab.rows import Rows
from tavernkeep.lab.simulate import Batch, results_file

if TYPE_CHECKING:
    from tests.lab.conftest import Run


def text(page: str) -> str:
    """The page without its embedded plots and tags, for reading numbers."""
    page = re.sub(r"data:image/png;base64,[^\"']+", "", page)
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def section(page: str, heading: str) -> str:
    """A section by its breakdown's name (under its question) or its own title."""
    named = page.find(f"<h3>{heading}</h3>")
    start = named if named != -1 else page.index(f"<h2>{heading}</h2>")
    end = page.find("<h2>", start + 1)
    return page[start : end if end != -1 else len(page)]


def test_heuristic_against_random_is_flagged_with_the_rates_from_the_rows(
    tmp_path: Path, run: Run
) -> None:
    results = tmp_path / "r.parquet"
    seats = ["-s", "bot:heuristic", "-s", "bot:random", "-s", "bot:random", "-s", "bot:random"]
    args = ["simulate", "hack-and-slash", "-n", "400", "--seed", "9", *seats]
    code, _, err = run([*args, "--out", str(results)])
    assert code == 0, err
    code, out, err = run(["report", str(results)])
    assert code == 0, err
    page_file = tmp_path / "r.html"
    assert out.strip() == f"report written to {page_file}"
    page = page_file.read_text(encoding="utf-8")
    assert page.count("data:image/png;base64,") >= 4  # the plots travel inside the page

    # The win rates, computed here from the rows alone.
    rows = pq.read_table(results).to_pylist()
    share = [sum(r["win_share"][s] for r in rows) / 400 for s in range(4)]
    random_rate = sum(share[1:]) / 3
    by_seat = text(section(page, "Win rate by seat"))
    wins = sum(r["win_share"][0] for r in rows)
    shown = f"{wins:,.0f}" if wins == round(wins) else f"{wins:,.2f}"
    assert f"seat 1 400 {shown} {share[0]:.1%}" in by_seat
    by_bot = text(section(page, "Win rate by bot"))
    assert "bot:random 1,200" in by_bot and f"{random_rate:.1%}" in by_bot

    flags = text(section(page, "Flags"))
    assert f"Seat seat 1 wins {share[0]:.1%}" in flags and "above the fair share 25.0%" in flags
    # The flags list the largest first (quests completed lead here); the tables mark all.
    assert re.search(rf"bot:random 1,200 \S+ {random_rate:.1%} .*out of balance", by_bot)

    lengths = sorted(r["turns"] for r in rows)
    assert f"longest {lengths[-1]}" in text(section(page, "Game length"))
    # The page opens with its answer in plain words, each section with its question.
    short = text(section(page, "In short"))
    assert f"Is the first seat favoured? It wins {share[0]:.1%}" in short
    assert "against a fair share of 25.0%: favoured." in short
    assert f"the longest {lengths[-1]}" in short
    assert "out of balance by more than 2 win-rate points (Flags, below)" in short
    assert "<h2>Is any seat favoured?</h2><h3>Win rate by seat</h3>" in page
    assert "<h2>How long do games last?</h2>" in page
    ended = text(section(page, "How the games ended"))
    for ending in {r["ending"] for r in rows}:
        count = sum(r["ending"] == ending for r in rows)
        assert f"{ending} {count:,} {count / 400:.1%}" in ended


def constructed_results(path: Path) -> None:
    """200 games of three seats where seat 1 always attempts and completes the Dragon's
    Lair and wins; the others only attempt Rats in the Cellar, never completing it."""
    game = get_game("hack-and-slash")
    batch = Batch(game.name, ("bot:random",) * 3, {}, None, 1)
    rows = Rows(game, pack="standard", options={}, seats=batch.seats, batch_seed=1)
    for i in range(200):
        tally = [
            {"quest attempted": {"Dragon's Lair": 1}, "quest completed": {"Dragon's Lair": 1}},
            {"quest attempted": {"Rats in the Cellar": 2}},
            {"quest attempted": {"Rats in the Cellar": 1}},
        ]
        result = Result(
            scores=(9.0, 1.0, 0.0),
            ranks=(1, 2, 3),
            winners=(0,),
            ending="guild-empty",
            reason="",
            turns=10 + i % 5,
            facts={"tally": tally},
        )
        rows.add(i, i, result, 20)
    with results_file(path, [batch], 200) as writer:
        assert writer is not None
        writer.add(0, rows.table())


def test_the_tally_tables_give_use_and_win_rates_and_flag_strong_and_dead_quests(
    tmp_path: Path, run: Run
) -> None:
    results = tmp_path / "made.parquet"
    constructed_results(results)
    page_file = tmp_path / "made-report.html"
    code, _, err = run(["report", str(results), "--out", str(page_file)])
    assert code == 0, err
    page = page_file.read_text(encoding="utf-8")
    attempted = text(section(page, "Quests attempted"))
    # name, share of seat-games using it, uses a game, users' win rate, others' win rate
    assert re.search(r"Rats in the Cellar\s+66\.7%\s+3\.000\s+0\.0%", attempted)
    assert re.search(r"Dragon&#x27;s Lair\s+33\.3%\s+1\.000\s+100\.0%", attempted)
    completed = text(section(page, "Quests completed"))
    assert re.search(r"Rats in the Cellar\s+0\.0%\s+0\.000.*never used", completed)
    flags = text(section(page, "Flags"))
    # Every quest of the pack is expected (Game.tally_names): the ones never completed
    # share one line, Rats in the Cellar among them.
    never = re.search(r"Quests completed, never: ([^.]*?)(Quests|Seat|…|$)", flags)
    assert never is not None and "Rats in the Cellar" in never.group(1)
    assert "Dragon&#x27;s Lair" not in never.group(1)
    assert "Quests attempted: Dragon&#x27;s Lair — those who did win 100.0%" in flags
    assert "the others at the same bots 0.0%: used by winners (a correlation)" in flags
    assert "says who used it, not what it did" in flags


def test_not_results_files_are_one_line_errors(tmp_path: Path, run: Run) -> None:
    corrupt = tmp_path / "corrupt.parquet"
    corrupt.write_bytes(b"PAR1 this is not really parquet")
    plain = tmp_path / "plain.parquet"
    pq.write_table(pa.table({"x": [1, 2, 3]}), plain)
    cases = {
        tmp_path / "absent.parquet": "no such results file",
        corrupt: "not a readable Parquet file",
        plain: "not results written by simulate --out",
        tmp_path: "is a folder",
    }
    for path, message in cases.items():
        code, _, err = run(["report", str(path), "--out", str(tmp_path / "x.html")])
        assert code == 2, path
        assert err.count("\n") == 1 and message in err and str(path) in err
        assert not (tmp_path / "x.html").exists()


def favoured_card_results(path: Path) -> None:
    """1,000 games: the heuristic seat wins every other game and plays the Dragon's Lair in
    half of its games, winning as often with it as without; the random seats never play it
    and never win."""
    game = get_game("hack-and-slash")
    seats = ("bot:heuristic", "bot:random", "bot:random")
    batch = Batch(game.name, seats, {}, None, 1)
    rows = Rows(game, pack="standard", options={}, seats=seats, batch_seed=1)
    for i in range(1000):
        played = {"quest attempted": {"Dragon's Lair": 1}} if i % 4 < 2 else {}
        tally = [played, {"quest attempted": {"Rats in the Cellar": 1}}, {}]
        heuristic_wins = i % 2 == 0
        result = Result(
            scores=(5.0, 1.0, 0.0) if heuristic_wins else (0.0, 1.0, 5.0),
            ranks=(1, 2, 3) if heuristic_wins else (3, 2, 1),
            winners=(0,) if heuristic_wins else (2,),
            ending="guild-empty",
            reason="",
            turns=10,
            facts={"tally": tally},
        )
        rows.add(i, i, result, 20)
    with results_file(path, [batch], 1000) as writer:
        assert writer is not None
        writer.add(0, rows.table())


def test_a_card_one_bot_favours_is_compared_with_that_bots_other_games(
    tmp_path: Path, run: Run
) -> None:
    # Against every other seat-game the Dragon's Lair's users win 50% to the others' 20%;
    # against the heuristic seat's games without it, the same 50%: not a strong card.
    results = tmp_path / "favoured.parquet"
    favoured_card_results(results)
    page_file = tmp_path / "favoured.html"
    code, _, err = run(["report", str(results), "--out", str(page_file)])
    assert code == 0, err
    page = page_file.read_text(encoding="utf-8")
    attempted = text(section(page, "Quests attempted"))
    row = r"Dragon&#x27;s Lair\s+16\.7%\s+0\.500\s+50\.0%\s+\S+ – \S+\s+50\.0%"
    assert re.search(row, attempted)
    assert "Dragon&#x27;s Lair —" not in text(section(page, "Flags"))


def test_the_tolerance_sets_how_far_off_is_out_of_balance(tmp_path: Path, run: Run) -> None:
    # Seats 1 and 3 win half the games each, 16.7 points over the fair third; seat 2 none.
    results = tmp_path / "favoured.parquet"
    favoured_card_results(results)
    flagged = {}
    for tolerance in ("0.02", "0.2"):
        page_file = tmp_path / f"t{tolerance}.html"
        args = ["report", str(results), "--out", str(page_file), "--tolerance", tolerance]
        code, _, err = run(args)
        assert code == 0, err
        flagged[tolerance] = text(section(page_file.read_text(encoding="utf-8"), "Flags"))
    assert "Off by more than 2 win-rate points" in flagged["0.02"]
    for seat in ("Seat seat 1 wins 50.0%", "Seat seat 2 wins 0.0%", "Seat seat 3 wins 50.0%"):
        assert seat in flagged["0.02"]
    assert "Off by more than 20 win-rate points" in flagged["0.2"]
    assert "Seat seat 2 wins 0.0%" in flagged["0.2"]
    assert "Seat seat 1" not in flagged["0.2"] and "Seat seat 3" not in flagged["0.2"]


def test_a_co_operative_report_opens_with_how_often_the_table_wins(
    tmp_path: Path, run: Run
) -> None:
    results = tmp_path / "rage.parquet"
    code, _, err = run(["simulate", "rage", "-n", "40", "--seed", "2", "--out", str(results)])
    assert code == 0, err
    code, _, err = run(["report", str(results)])
    assert code == 0, err
    page = (tmp_path / "rage.html").read_text(encoding="utf-8")
    rows = pq.read_table(results).to_pylist()
    won = sum(bool(r["won"]) for r in rows) / len(rows)  # every row: a grid's cells too
    short = text(section(page, "In short"))
    assert short.startswith(f"In short The table wins {won:.1%} of games (")
    assert "Is the first seat favoured?" not in short
