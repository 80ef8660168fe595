"""`tavernkeep report`: the numbers a designer reads, and the flags."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tavernkeep.engine.game import Result
from tavernkeep.games import get_game
from tavernkeep.lab.rows import TALLY, Rows, column_name
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
    # Whole wins (a shared victory counts 1/k, rounded), said so under the table.
    assert f"seat 1 400 {wins:,.0f} {share[0]:.1%}" in by_seat
    assert "wins are rounded" in by_seat and not re.search(r"\d\.\d\d ", by_seat)
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
    gap = (share[0] - 0.25) * 100
    assert f"against a fair share of 25.0%: out of balance in its favour, {gap:.1f} points" in short
    assert f"the longest {lengths[-1]}" in short
    assert "out of balance: the whole interval more than 2 points off (Flags, below)" in short
    # The page says first what was played.
    assert short.startswith(
        "In short 400 games of Hack &amp; Slash with the standard pack (bot:heuristic in seat 1; "
        "bot:random in seats 2, 3, 4)."
    )
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
    # name, seat-games using it, their share, times a game, users' win rate
    assert "Rats in the Cellar 400 66.7% 3.00 0.0%" in attempted
    assert "Dragon&#x27;s Lair 200 33.3% 1.00 100.0%" in attempted
    completed = text(section(page, "Quests completed"))
    # ... and where a kind counts the successes of another's attempts, the attempts and
    # the success per attempt with its interval: Rats tried 600 times, never done.
    assert re.search(r"Rats in the Cellar 0 0\.0% 0\.00 600 0\.0% \(0\.0% – 0\.6%\)", completed)
    assert re.search(
        r"Dragon&#x27;s Lair 200 33\.3% 1\.00 200 100\.0% \(98\.1% – 100\.0%\)", completed
    )
    # Attempted but never completed is no dead card: it is said under the table.
    assert "Never counted here (though each came up otherwise): Rats in the Cellar." in completed
    flags = text(section(page, "Flags"))
    # A dead card is a name of the pack (Game.tally_names) no kind ever counted.
    never = re.search(r"Never came up in any game: ([^.]*?)(Quests|Seat|…|$)", flags)
    assert never is not None and "The Dragon&#x27;s Hoard" in never.group(1)
    assert "Rats in the Cellar" not in never.group(1)
    assert (
        "Quests attempted: Dragon&#x27;s Lair goes with winning: its 200 users win 100.0%" in flags
    )
    assert "the others at the same bots 0.0%" in flags
    # What a correlation means is said once, above the cards, not on each.
    assert flags.count("says who used them, not what they did") == 1


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
    row = r"Dragon&#x27;s Lair\s+\S+\s+16\.7%\s+0\.50\s+50\.0%\s+\S+ – \S+\s+50\.0%"
    assert re.search(row, attempted)
    assert "Dragon&#x27;s Lair goes" not in text(section(page, "Flags"))


def test_the_tolerance_sets_how_far_off_is_out_of_balance(tmp_path: Path, run: Run) -> None:
    # Seats 1 and 3 win half the games each, 16.7 points over the fair third; seat 2 none.
    results = tmp_path / "favoured.parquet"
    favoured_card_results(results)
    flagged = {}
    for tolerance in ("2", "20"):
        page_file = tmp_path / f"t{tolerance}.html"
        args = ["report", str(results), "--out", str(page_file), "--tolerance", tolerance]
        code, _, err = run(args)
        assert code == 0, err
        flagged[tolerance] = text(section(page_file.read_text(encoding="utf-8"), "Flags"))
    # Tolerances in points, as people say them: 2 means 2 points.
    assert "more than 2 points from the fair share" in flagged["2"]
    for seat in ("Seat seat 1 wins 50.0%", "Seat seat 2 wins 0.0%", "Seat seat 3 wins 50.0%"):
        assert seat in flagged["2"]
    assert "more than 20 points from the fair share" in flagged["20"]
    assert "Seat seat 2 wins 0.0%" in flagged["20"]
    assert "Seat seat 1" not in flagged["20"] and "Seat seat 3" not in flagged["20"]
    # A fraction written the old way is one line pointing at the fix, and no page.
    page_file = tmp_path / "old.html"
    args = ["report", str(results), "--out", str(page_file), "--tolerance", "0.02"]
    code, _, err = run(args)
    assert code == 2 and not page_file.exists()
    assert err.strip().endswith(
        "--tolerance 0.02: tolerances are in win-rate points (2 = 2 points); for 2 points write 2"
    )


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
    assert short.startswith(
        f"In short {len(rows)} games of Rage with the standard pack (bot:heuristic in seat 1). "
        f"The table wins {won:.1%} of games ("
    )
    assert "Is the first seat favoured?" not in short


# -- the lab's answers added with --add ----------------------------------------------------


def write_json(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def effect(mean: float, lo: float, hi: float, games: int) -> dict[str, Any]:
    return {"mean": mean, "ci95": [lo, hi], "games": games}


def ablation(game: str = "hack-and-slash") -> dict[str, Any]:
    """An ablation of quest.reward as `ablate --json` prints it: a strong quest, a weak
    one, a neutral one that winners happen to complete, one at the median, one unknown."""

    def entry(
        name: str, value: int, verdict: str, correlation: float | None, neutral: Any
    ) -> dict[str, Any]:
        effects = {"step": {"value": value + 1, "holders_win": effect(0.01, -0.02, 0.04, 90),
                            "turns": effect(-0.5, -1.0, 0.0, 400)}}  # fmt: skip
        if neutral is not None:
            effects["neutral"] = {"value": 2, "holders_win": neutral,
                                  "turns": effect(1.5, 0.5, 2.5, 400)}  # fmt: skip
        rates = (None, None) if correlation is None else (0.3 + correlation, 0.3)
        return {"name": name, "value": value, "held_in": 90, "holders_win_rate": rates[0],
                "others_win_rate": rates[1], "correlation": correlation, "effects": effects,
                "verdict": verdict}  # fmt: skip

    return {
        "lab": "ablate", "game": game, "field": "quest.reward", "holder": "quest completed",
        "median": 2, "step": 1, "seats": ["bot:heuristic"] * 4, "pack": "standard",
        "games": 400, "seed": 7, "tolerance": 0.02, "workers": 2, "build": "pure Python",
        "elapsed_seconds": 3.0,
        "entries": [
            entry("Rats in the Cellar", 40, "strong", 0.5, effect(0.42, 0.30, 0.54, 90)),
            entry("Bandit Ambush", 1, "weak", -0.05, effect(-0.10, -0.15, -0.05, 90)),
            entry("The Cursed Crypt", 4, "neutral", 0.26, effect(0.0, -0.01, 0.01, 90)),
            entry("Goblin Toll Bridge", 2, "neutral", 0.01, None),
            entry("The Dragon's Hoard", 8, "unknown", None, effect(0.1, -0.2, 0.4, 5)),
        ],
    }  # fmt: skip


def tuning() -> dict[str, Any]:
    """A tune as `tune --json` prints it: the first candidate meets the target, the
    second does not."""

    def figures(rates: list[tuple[float, float, float]]) -> dict[str, Any]:
        seats = [{"agent": "bot:heuristic", "win_rate": r, "ci95": [lo, hi]} for r, lo, hi in rates]
        return {"seats": seats, "team": None, "mean_turns": 21.5, "labels": {},
                "gaps": {"every seat within 4 points of its fair share": 0.1}}  # fmt: skip

    rats = "quest[Rats in the Cellar].reward"
    brag = "brag.goal"  # searched, but left where the pack has it by both candidates
    return {
        "lab": "tune", "game": "hack-and-slash", "seats": ["bot:heuristic"] * 3,
        "pack": "standard", "params": [rats, brag],
        "targets": ["every seat within 4 points of its fair share"], "trials_per_run": 10,
        "trials_played_now": 10, "runs": 2, "games_per_trial": 800, "held_out_games": 1500,
        "seed": 4, "workers": 1, "build": "pure Python", "out": "tune", "elapsed_seconds": 9.0,
        "as_it_is": figures([(0.41, 0.38, 0.44), (0.30, 0.28, 0.33), (0.29, 0.26, 0.31)]),
        "best": [
            {"rank": 1, "run": 2, "values": {rats: 6, brag: 4}, "from": {rats: 40, brag: 4},
             "changed": [rats], "search_score": 0.2,
             "held_out": figures([(0.34, 0.31, 0.36), (0.33, 0.31, 0.35), (0.33, 0.31, 0.36)]),
             "meets_targets": True, "patch": "tune/best-1.patch.toml",
             "pack_file": "tune/best-1.toml"},
            {"rank": 2, "run": 1, "values": {rats: 25, brag: 4}, "from": {rats: 40, brag: 4},
             "search_score": 3.1,
             "held_out": figures([(0.39, 0.36, 0.41), (0.31, 0.29, 0.33), (0.30, 0.28, 0.32)]),
             "meets_targets": False, "patch": "tune/best-2.patch.toml",
             "pack_file": "tune/best-2.toml"},
        ],
    }  # fmt: skip


def ladder_result() -> dict[str, Any]:
    """A ladder as `ladder --json` prints it: three rungs at three players; at two, the
    heuristic bot is not clearly better than random, and the first seat was not measured."""

    def step(upper: str, lower: str, rate: float, lo: float, hi: float, clear: bool) -> Any:
        return {"upper": upper, "lower": lower, "games": 120, "rate": rate, "ci95": [lo, hi],
                "fair": 1 / 3, "clear": clear}  # fmt: skip

    return {
        "lab": "ladder", "game": "hack-and-slash", "kind": "competitive", "seed": 1,
        "games": 200, "workers": 2, "build": "pure Python", "elapsed_seconds": 12.3,
        "tables": [
            {"players": 3, "rungs": 3, "top": "bot:mcts:64", "ceiling": False,
             "steps": [step("bot:heuristic", "bot:random", 0.61, 0.5, 0.7, True),
                       step("bot:mcts:64", "bot:heuristic", 0.45, 0.36, 0.54, True),
                       step("bot:mcts:128", "bot:mcts:64", 0.35, 0.27, 0.44, False)],
             "top_vs_random": {"games": 200, "rate": 0.8, "ci95": [0.7, 0.9], "fair": 1 / 3},
             "first_seat": {"agent": "bot:heuristic", "games": 2000, "rate": 0.40,
                            "ci95": [0.38, 0.42], "fair": 1 / 3},
             "luck": {"upset": 0.05, "upset_ci95": [0.03, 0.08], "share": 0.2,
                      "share_ci95": [0.12, 0.3]}},
            {"players": 2, "rungs": 1, "top": "bot:random", "ceiling": False,
             "steps": [step("bot:heuristic", "bot:random", 0.52, 0.43, 0.61, False)],
             "top_vs_random": None, "first_seat": None, "luck": None},
        ],
    }  # fmt: skip


def flag_items(page: str) -> list[str]:
    """The Flags list, an item at a time, as read."""
    return [text(item) for item in re.findall(r"<li>(.*?)</li>", section(page, "Flags"))]


def test_an_added_ablation_is_its_own_section_with_causal_flags_apart_from_correlations(
    tmp_path: Path, run: Run
) -> None:
    results = tmp_path / "made.parquet"
    constructed_results(results)
    added = write_json(tmp_path / "ablate.json", ablation())
    page_file = tmp_path / "made.html"
    code, _, err = run(["report", str(results), "--out", str(page_file), "--add", str(added)])
    assert code == 0, err
    page = page_file.read_text(encoding="utf-8")
    question = "Which cards cause wins, and which only go with them?"
    assert f"<h2>{question}</h2><h3>Paired ablation of quest.reward</h3>" in page
    ablated = text(section(page, "Paired ablation of quest.reward"))
    assert "the same 400 seeds (seed 7) played with each quest as it is and again" in ablated
    assert "its reward at the median of its kind, 2" in ablated
    assert "is what the card causes" in ablated
    # name, value, verdict, the paired effect [interval] in points, the step, the turns,
    # the games someone held it, then the correlation, labelled as one.
    assert (
        "Rats in the Cellar 40 strong +42.0 [+30.0, +54.0] +1.0 [-2.0, +4.0] +1.5 [+0.5, +2.5] "
        "90 +50.0 points (80.0% vs 30.0%)" in ablated
    )
    assert "Bandit Ambush 1 weak -10.0 [-15.0, -5.0]" in ablated
    assert "The Cursed Crypt 4 neutral +0.0 [-1.0, +1.0]" in ablated
    assert "Goblin Toll Bridge 2 neutral it is the median" in ablated
    assert "used by winners (a correlation): holders vs others" in ablated
    # The Flags: the ablation's strong and weak cards as causes, a run of their own, and
    # the tallies' card flags still correlations, each its own item.
    items = flag_items(page)
    causal = [i for i, item in enumerate(items) if "(paired, causal)" in item]
    related = [i for i, item in enumerate(items) if " goes with winning: its " in item]
    assert len(causal) == 2 and related
    assert max(causal) < min(related)
    assert items[causal[0]].startswith(
        "strong card (paired, causal): Rats in the Cellar : +42.0 points for its holders "
        "[+30.0, +54.0]"
    )
    assert items[causal[1]].startswith("weak card (paired, causal): Bandit Ambush : -10.0 points")
    assert not any("goes with" in items[i] for i in causal)
    assert not any("causal" in items[i] for i in related)
    assert "The Cursed Crypt" not in " ".join(items[i] for i in causal)  # neutral: no flag
    short = text(section(page, "In short"))
    assert (
        "Ablation of quest.reward: 1 of 5 quest entries is causally strong (Rats in the "
        "Cellar), 1 weak (Bandit Ambush); 2 neutral, 1 unknown." in short
    )
    assert "a correlation, not a cause" in short  # the tallies' sentence is unchanged


def test_added_tune_and_ladder_answer_their_questions_in_the_order_given(
    tmp_path: Path, run: Run
) -> None:
    results = tmp_path / "made.parquet"
    constructed_results(results)
    tune = write_json(tmp_path / "tune.json", tuning())
    ladder = write_json(tmp_path / "ladder.json", ladder_result())
    page_file = tmp_path / "made.html"
    args = ["report", str(results), "--out", str(page_file), "--add", str(tune)]
    code, _, err = run([*args, "--add", str(ladder)])
    assert code == 0, err
    page = page_file.read_text(encoding="utf-8")
    tuned = "<h2>What should change to meet the targets?</h2><h3>Tuning quest[Rats"
    skill = "<h2>How much does skill matter?</h2><h3>Skill ladder</h3>"
    assert tuned in page and skill in page and page.index(tuned) < page.index(skill)
    assert "tune.json</code>, <code>ladder.json" in page  # the intro names both

    tune_text = text(section(page, "Tuning quest[Rats in the Cellar].reward, brag.goal"))
    assert "Targets: every seat within 4 points of its fair share." in tune_text
    assert "1,500 fresh games" in tune_text
    assert "as it is – 41.0% (38.0% – 44.0%) 30.0% (28.0% – 33.0%)" in tune_text
    assert (
        "#1 (run 2) quest[Rats in the Cellar].reward: 40 → 6 34.0% (31.0% – 36.0%) "
        "33.0% (31.0% – 35.0%) 33.0% (31.0% – 36.0%) 21.5 yes tune/best-1.patch.toml "
        "tune/best-1.toml" in tune_text
    )
    assert "#2 (run 1) quest[Rats in the Cellar].reward: 40 → 25" in tune_text
    # Only what a candidate changed is listed: brag.goal stays 4 in both.
    assert "brag.goal" not in tune_text.split("meets every target")[1]
    assert re.search(r"#2 .* 21\.5 no tune/best-2\.patch\.toml", tune_text)

    ladder_text = text(section(page, "Skill ladder"))
    assert "3 players rung against games" in ladder_text
    assert "bot:heuristic bot:random 120 61.0% 50.0% – 70.0% 33.3% clearly stronger" in ladder_text
    assert "bot:mcts:128 bot:mcts:64 120 35.0% 27.0% – 44.0% 33.3% not told apart" in ladder_text
    assert "3 rungs: bot:random and each rung clearly stronger" in ladder_text
    assert "the top rung is bot:mcts:64" in ladder_text
    assert "it wins 80.0% (70.0% – 90.0%) of 200 games, where chance gives 33.3%" in ladder_text
    assert (
        "Is the first seat favoured? With bot:heuristic at every seat, the first wins 40.0% "
        "(38.0% – 42.0%) of 2,000 games against a fair share of 33.3%: out of balance in its "
        "favour, 6.7 points above it." in ladder_text
    )
    assert "Luck decides about 20.0% of outcomes (12.0% – 30.0%)" in ladder_text
    assert "1 rung: no bot wins clearly more than bot:random" in ladder_text
    assert "This ladder did not measure it." in ladder_text

    short = text(section(page, "In short"))
    assert (
        "Tuning: the best candidate meets every target on 1,500 held-out games: "
        "quest[Rats in the Cellar].reward 40 → 6." in short
    )
    assert (
        "Skill: 3 rungs at 3 players: the top rung wins 80.0% against random, and luck "
        "decides about 20% of outcomes; 1 rung at 2 players: no bot wins clearly more than "
        "random." in short
    )


def test_a_co_operative_ladder_says_no_seats_compete() -> None:
    from tavernkeep.lab.added import first_seat_text

    assert "No seats compete" in first_seat_text(None, team=True, tolerance=0.02)


def test_a_real_ablation_tells_the_planted_cause_from_the_tallies_correlations(
    tmp_path: Path, run: Run, planted: Path
) -> None:
    seats = ["-s", "bot:random"] * 3
    results = tmp_path / "planted.parquet"
    game = ["hack-and-slash", "--pack", str(planted), *seats, "--seed", "3"]
    code, _, err = run(["simulate", *game, "-n", "1000", "--out", str(results)])
    assert code == 0, err
    field = ["--field", "quest.reward", "--holder", "quest completed"]
    code, stdout, err = run(["ablate", *game, *field, "-n", "120", "--json"])
    assert code == 0, err
    added = tmp_path / "ablate.json"
    added.write_text(stdout, encoding="utf-8")
    code, _, err = run(["report", str(results), "--add", str(added)])
    assert code == 0, err
    page = (tmp_path / "planted.html").read_text(encoding="utf-8")
    rats = next(e for e in json.loads(stdout)["entries"] if e["name"] == "Rats in the Cellar")
    assert rats["verdict"] == "strong"
    mean = rats["effects"]["neutral"]["holders_win"]["mean"]
    items = flag_items(page)
    assert any(
        item.startswith(f"strong card (paired, causal): Rats in the Cellar : {mean * 100:+.1f}")
        for item in items
    )
    # The tallies say the same quest goes with winning: a correlation, its own flag.
    assert any(
        item.startswith("Quests completed: Rats in the Cellar goes with winning: its")
        for item in items
    )
    flags = text(section(page, "Flags"))
    assert flags.index("Causes, from an added ablation") < flags.index("A correlation: it says")
    ablated = text(section(page, "Paired ablation of quest.reward"))
    assert f"Rats in the Cellar 40 strong {mean * 100:+.1f}" in ablated
    assert "causally strong (Rats in the Cellar" in text(section(page, "In short"))


@pytest.mark.parametrize(
    ("name", "content", "said"),
    [
        ("absent.json", None, "no such file"),
        ("broken.json", "{not json", "not JSON at line 1"),
        ("list.json", "[1, 2]", 'it has no "lab" key'),
        ("nolab.json", '{"game": "hack-and-slash"}', 'it has no "lab" key'),
        ("sweep.json", '{"lab": "sweep", "game": "hack-and-slash"}', 'its "lab" is "sweep"'),
        ("rage.json", json.dumps(ablation("rage")), 'ablate of "rage", but the results are '
         'of "hack-and-slash"'),
        ("short.json", '{"lab": "tune", "game": "hack-and-slash"}', 'tune output without'),
    ],
)  # fmt: skip
def test_a_bad_added_file_is_one_line_naming_it_and_no_page(
    tmp_path: Path, run: Run, name: str, content: str | None, said: str
) -> None:
    results = tmp_path / "made.parquet"
    constructed_results(results)
    good = write_json(tmp_path / "good.json", ladder_result())
    bad = tmp_path / name
    if content is not None:
        bad.write_text(content, encoding="utf-8")
    page_file = tmp_path / "x.html"
    args = ["report", str(results), "--out", str(page_file), "--add", str(good)]
    code, stdout, err = run([*args, "--add", str(bad)])
    assert code == 2
    assert err.count("\n") == 1 and said in err and str(bad) in err
    assert stdout == ""
    assert not page_file.exists()


def test_a_tune_that_meets_no_target_says_so_and_names_the_nearest() -> None:
    from tavernkeep.lab.added import tune_short

    missed = tuning()
    for best in missed["best"]:
        best["meets_targets"] = False
    assert tune_short(missed) == (
        "Tuning: no candidate of 2 meets every target on 1,500 held-out games; the nearest "
        "changes quest[Rats in the Cellar].reward 40 → 6."
    )


def test_a_sweep_reports_one_column_per_value_its_entry_first(tmp_path: Path, run: Run) -> None:
    results = tmp_path / "sweep.parquet"
    swept = "quest[The Dragon's Hoard].reward"
    args = ["sweep", "hack-and-slash", "--set", f"{swept}=2,30", "-n", "300", "--seed", "5"]
    code, _, err = run([*args, "--out", str(results)])
    assert code == 0, err
    code, _, err = run(["report", str(results)])
    assert code == 0, err
    page = (tmp_path / "sweep.html").read_text(encoding="utf-8")
    short = text(section(page, "In short"))
    assert (
        "Each value of quest[The Dragon&#x27;s Hoard].reward (2, 30) played the same seeds" in short
    )
    # The values are never pooled: no section over all 600 games by seat.
    assert "<h3>Win rate by seat</h3>" not in page
    # The swept quest's own figures lead, a column a value, counted from the rows.
    headings = re.findall(r"<h3>(.*?)</h3>", page)
    assert headings[0] == "The Dragon&#x27;s Hoard, at each value"
    rows = pq.read_table(results).to_pylist()
    completed = column_name(TALLY, "quest completed")
    done = [
        sum(
            sum(dict(seat).get("The Dragon's Hoard", 0) for seat in r[completed])
            for r in rows
            if r["sweep_value"] == value
        )
        for value in (2.0, 30.0)
    ]
    own = text(section(page, "The Dragon&#x27;s Hoard, at each value"))
    assert f"Quests completed: times a game {done[0] / 300:.2f} {done[1] / 300:.2f}" in own
    assert "Quests completed: success per attempt" in own
    # Each seat a row, each value a column, every cell a rate with its interval and count.
    seats = text(section(page, "Win rate by seat, at each value"))
    assert seats.startswith("Win rate by seat, at each value seat 2 30 seat 1 ")
    first = [
        sum(r["win_share"][0] for r in rows if r["sweep_value"] == value) / 300
        for value in (2.0, 30.0)
    ]
    assert re.search(
        rf"seat 1 {first[0]:.1%} \(\S+ – \S+\) of 300( out of balance)? {first[1]:.1%} \(", seats
    )
    assert "Game length and endings, at each value" in page


def test_in_short_names_what_the_pack_changed(tmp_path: Path, run: Run, planted: Path) -> None:
    results = tmp_path / "planted.parquet"
    args = ["simulate", "hack-and-slash", "--pack", str(planted), "-n", "20", "--seed", "1"]
    code, _, err = run([*args, "--out", str(results)])
    assert code == 0, err
    code, _, err = run(["report", str(results)])
    assert code == 0, err
    short = text(section((tmp_path / "planted.html").read_text(encoding="utf-8"), "In short"))
    assert (
        f"with the {planted} pack (bot:heuristic in seat 1; bot:random in seats 2, 3). It "
        "changes 1 thing from the standard pack: quest[Rats in the Cellar].reward: 1 → 40." in short
    )
    # Read where the pack file is gone, the report says so rather than guess.
    planted.unlink()
    code, _, err = run(["report", str(results)])
    assert code == 0, err
    short = text(section((tmp_path / "planted.html").read_text(encoding="utf-8"), "In short"))
    assert f"(The pack file {planted} is not at hand: what it changes is not shown.)" in short
