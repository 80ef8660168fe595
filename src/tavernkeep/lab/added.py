"""The lab's answers on the balance report: `tavernkeep report RESULTS --add FILE`.

`ablate`, `tune` and `ladder` print their answer as JSON with `--json`, its "lab" key
naming the command. The report takes each such file as it is and gives it a section
titled by the question a designer asks of it, one sentence in "In short", and for an
ablation its strong and weak cards among the Flags: as causes (the same seeds played with
the card and with a middling stand-in), apart from the results' own card flags, which say
only who used a card (a correlation).

Every file is read and checked (readable, JSON, a known lab, the results' game) and
rendered before the page is written, so a bad one is one line naming it and no page.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tavernkeep.lab.results import ResultsError
from tavernkeep.lab.stats import share_verdict

ABLATE_QUESTION = "Which cards cause wins, and which only go with them?"
TUNE_QUESTION = "What should change to meet the targets?"
LADDER_QUESTION = "How much does skill matter?"
CORRELATION = "used by winners (a correlation)"
"""The words the report's own card flags use: the ablation's column says the same of the
same kind of figure, so a reader sees the two are one thing."""
NAMED = 5
"""Cards named in a sentence of "In short" before "…"."""


@dataclass(frozen=True)
class Added:
    """One file given with --add: where it came from, which lab wrote it, and its JSON."""

    path: Path
    lab: str
    data: dict[str, Any]


@dataclass(frozen=True)
class Answer:
    """What an added file puts on the page."""

    question: str
    heading: str
    body: str
    short: str
    """Its sentence in "In short"."""
    causes: list[tuple[float, str]] = field(default_factory=list)
    """Causal flags: how far off each is (win-rate share, for the largest first) and its
    text."""


# -- reading and checking ------------------------------------------------------------------


def read_added(path: Path) -> Added:
    """The file's JSON and its lab, or one line saying what is wrong with it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ResultsError(f"{path}: no such file (--add takes a lab's --json output)") from None
    except IsADirectoryError:
        raise ResultsError(f"{path}: is a folder; --add takes a lab's --json output") from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ResultsError(f"{path}: cannot be read ({reason})") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        where = f" at line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise ResultsError(f"{path}: not JSON{where}; --add takes a lab's --json output") from None
    lab = data.get("lab") if isinstance(data, dict) else None
    if not isinstance(lab, str) or lab not in ANSWERS:
        said = f'its "lab" is {json.dumps(lab)}' if lab is not None else 'it has no "lab" key'
        raise ResultsError(
            f"{path}: {said}; --add takes what ablate, tune or ladder printed with --json"
        )
    return Added(path, str(lab), data)


def check_game(added: Added, game: str) -> None:
    """An answer about another game would sit on the page as if it were about this one."""
    theirs = added.data.get("game")
    if theirs != game:
        raise ResultsError(
            f"{added.path}: {added.lab} of {json.dumps(theirs)}, but the results are of "
            f"{json.dumps(game)}"
        )


def answer(added: Added, tolerance: float) -> Answer:
    """The file's section, sentence and flags. A file edited by hand or written by another
    version may lack a figure or hold the wrong kind: one line naming it, not a
    traceback, and (this runs before the page is written) no page."""
    try:
        return ANSWERS[added.lab](added.data, tolerance)
    except KeyError as exc:
        raise ResultsError(
            f"{added.path}: {added.lab} output without {json.dumps(exc.args[0])} where the "
            "report needs it"
        ) from None
    except (TypeError, ValueError, IndexError, AttributeError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ResultsError(
            f"{added.path}: {added.lab} output this version cannot read ({first})"
        ) from None


# -- words and numbers ---------------------------------------------------------------------


def esc(value: Any) -> str:
    return html.escape(str(value))


def pct(x: float | None) -> str:
    """A rate; a figure nobody had (JSON null, or NaN) is a dash."""
    return "–" if x is None or x != x else f"{x:.1%}"


def span(pair: list[float | None] | None) -> str:
    return "–" if not pair else f"{pct(pair[0])} – {pct(pair[1])}"


def signed(x: float | None, scale: float) -> str:
    return "–" if x is None or x != x else f"{x * scale:+.1f}"


def paired_text(effect: dict[str, Any] | None, scale: float) -> str:
    """A paired effect and its 95% interval: "+42.1 [+38.0, +46.2]" (scale 100: points),
    the interval on a line of its own that the table's narrow columns do not break."""
    if effect is None or effect.get("mean") is None:
        return "–"
    lo, hi = effect["ci95"]
    interval = f"[{signed(lo, scale)}, {signed(hi, scale)}]"
    return f"{signed(effect['mean'], scale)}<br><span class=ci>{interval}</span>"


def rate_cell(rate: float | None, pair: list[float | None] | None) -> str:
    """A win rate over its interval: "41.0% (38.0% – 44.0%)", in two lines."""
    return f"{pct(rate)}<br><span class=ci>({span(pair)})</span>"


def listed(names: list[str]) -> str:
    shown = ", ".join(esc(n) for n in names[:NAMED])
    return shown + (", …" if len(names) > NAMED else "")


def table(head: list[str], rows: list[tuple[str, list[str]]]) -> str:
    """An HTML table: header cells, then rows of (row class, cells), cells already HTML."""
    top = "".join(f"<th>{h}</th>" for h in head)
    body = "".join(
        f"<tr{f' class={kind}' if kind else ''}>"
        + "".join(f"<td>{c}</td>" for c in cells)
        + "</tr>"
        for kind, cells in rows
    )
    return f"<table><tr>{top}</tr>{body}</table>"


# -- ablate --------------------------------------------------------------------------------


def ablate_answer(data: dict[str, Any], tolerance: float) -> Answer:
    field_ = str(data["field"])
    kind, _, number = field_.partition(".")
    median, step, games = data["median"], data["step"], int(data["games"])
    entries: list[dict[str, Any]] = data["entries"]
    lead = (
        f"<p>Paired: the same {games:,} seeds (seed {esc(data.get('seed'))}) played with "
        f"each {esc(kind)} as it is and again with its {esc(number)} at the median of its "
        f"kind, {esc(median)}, a neutral stand-in; the difference in its holders' win rate "
        f"(the seats with {esc(data.get('holder'))} in both games of a seed: they hold it "
        "either way, so the seats are matched as the games are) is what the card "
        "causes. No effect: not one game went otherwise. Strong or weak: its 95% "
        f"interval lies more than {float(data['tolerance']) * 100:g} points above or below "
        "no effect. The last column is not a cause: it says who held the card.</p>"
    )
    head = [
        "name",
        esc(number),
        "verdict (paired)",
        f"holders' win vs the median {esc(median)}, points [95%]",
        f"{esc(number)} +{esc(step)}: holders' win, points",
        "turns vs the median",
        "games held",
        f"{CORRELATION}: holders vs others",
    ]
    rows = [ablate_row(e, median) for e in entries]
    causes = [c for c in (cause(e, data) for e in entries) if c is not None]
    heading = f"Paired ablation of {field_}"
    return Answer(ABLATE_QUESTION, heading, lead + table(head, rows), ablate_short(data), causes)


def ablate_row(entry: dict[str, Any], median: Any) -> tuple[str, list[str]]:
    effects = entry.get("effects") or {}
    neutral, stepped = effects.get("neutral"), effects.get("step")
    # No stand-in was played for an entry already at the median (it is its own), or for
    # one whose stand-in the pack's checks refused: say which.
    missing = "it is the median" if entry["value"] == median else "not played"
    verdict = str(entry["verdict"])
    off = verdict in ("strong", "weak")
    correlation = entry.get("correlation")
    related = (
        "–"
        if correlation is None
        else f"{signed(correlation, 100)} points<br><span class=ci>"
        f"({pct(entry.get('holders_win_rate'))} vs {pct(entry.get('others_win_rate'))})</span>"
    )
    cells = [
        esc(entry["name"]),
        esc(entry["value"]),
        f"<span class=flag>{esc(verdict)}</span>" if off else esc(verdict),
        paired_text(neutral["holders_win"], 100) if neutral else missing,
        paired_text(stepped and stepped["holders_win"], 100),
        paired_text(neutral["turns"], 1) if neutral else missing,
        f"{int(entry.get('held_in') or 0):,}",
        related,
    ]
    return ("off" if off else "", cells)


def cause(entry: dict[str, Any], data: dict[str, Any]) -> tuple[float, str] | None:
    """A strong or weak card's flag: what the paired games say it does for its holders."""
    verdict = entry["verdict"]
    neutral = (entry.get("effects") or {}).get("neutral")
    if verdict not in ("strong", "weak") or neutral is None:
        return None
    effect = neutral["holders_win"]
    lo, hi = effect["ci95"]
    text = (
        f"{verdict} card (paired, causal): <b>{esc(entry['name'])}</b>: "
        f"{signed(effect['mean'], 100)} points for its holders [{signed(lo, 100)}, "
        f"{signed(hi, 100)}] — {esc(data['field'])} {esc(entry['value'])} against the "
        f"median stand-in {esc(data['median'])}, on the same {int(data['games']):,} seeds"
    )
    return abs(float(effect["mean"])), text


def ablate_short(data: dict[str, Any]) -> str:
    entries: list[dict[str, Any]] = data["entries"]
    by: dict[str, list[str]] = {}
    for e in entries:
        by.setdefault(str(e["verdict"]), []).append(str(e["name"]))
    strong, weak = by.get("strong", []), by.get("weak", [])
    kind = str(data["field"]).partition(".")[0]
    sentence = (
        f"Ablation of {esc(data['field'])}: {len(strong)} of {len(entries)} {esc(kind)} "
        f"entries {'is' if len(strong) == 1 else 'are'} causally strong"
        + (f" ({listed(strong)})" if strong else "")
        + f", {len(weak)} weak"
        + (f" ({listed(weak)})" if weak else "")
    )
    rest = [f"{len(by[v])} {v}" for v in ("neutral", "no effect", "unknown") if by.get(v)]
    return sentence + (f"; {', '.join(rest)}." if rest else ".")


# -- tune ----------------------------------------------------------------------------------


def tune_answer(data: dict[str, Any], tolerance: float) -> Answer:
    targets = "; ".join(esc(t) for t in data["targets"])
    runs = int(data["runs"])
    lead = (
        f"<p>Targets: {targets}. {runs} run{'s' if runs != 1 else ''} of "
        f"{int(data['trials_per_run']):,} candidates, {int(data['games_per_trial']):,} games "
        "each on the same seeds; each run's best then played on "
        f"{int(data['held_out_games']):,} fresh games no candidate was chosen on (a best of "
        "many flatters itself on the seeds it was picked on): those are the figures here, "
        "beside the pack as it is on the same fresh games.</p>"
    )
    as_it_is: dict[str, Any] = data["as_it_is"]
    seats = [f"seat {i + 1} ({esc(s['agent'])})" for i, s in enumerate(as_it_is["seats"])]
    team = as_it_is.get("team") is not None
    facts = list((as_it_is.get("labels") or {}).keys())
    head = ["candidate", "changes (from → to)", *seats, "mean turns"]
    head += ["the table wins"] if team else []
    head += [esc(f) for f in facts]
    head += ["meets every target", "the patch, the whole pack"]
    rows = [("", ["as it is", "–", *figure_cells(as_it_is, team, facts), "–", "–"])]
    for best in data["best"]:
        meets = bool(best["meets_targets"])
        files = f"<code>{esc(best['patch'])}</code><br><code>{esc(best['pack_file'])}</code>"
        cells = [
            f"#{esc(best['rank'])} (run {esc(best['run'])})",
            changes(best),
            *figure_cells(best["held_out"], team, facts),
            "yes" if meets else "<span class=flag>no</span>",
            files,
        ]
        rows.append(("" if meets else "off", cells))
    heading = f"Tuning {', '.join(str(p) for p in data['params'])}"
    return Answer(TUNE_QUESTION, heading, lead + table(head, rows), tune_short(data))


def moves(best: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Each number the candidate moves, and only those (tune's "changed"; an older
    answer without it, every value that differs from the pack's): its name, the pack's
    value (or "default": the pack left it unset) and the candidate's."""
    was: dict[str, Any] = best.get("from") or {}
    moved = best.get("changed")
    return [
        (esc(name), "default" if was.get(name) is None else esc(was[name]), esc(value))
        for name, value in best["values"].items()
        if (name in moved if moved is not None else was.get(name) != value)
    ]


def changes(best: dict[str, Any]) -> str:
    found = moves(best)
    if not found:
        return "none: the pack as it is"
    return "<br>".join(f"{name}: {old} → {new}" for name, old, new in found)


def figure_cells(figures: dict[str, Any], team: bool, facts: list[str]) -> list[str]:
    """A candidate's held-out figures: each seat's win rate, the length, the team, labels."""
    cells = [rate_cell(s["win_rate"], s["ci95"]) for s in figures["seats"]]
    cells.append(f"{float(figures['mean_turns']):.1f}")
    if team:
        won = figures.get("team") or {}
        cells.append(rate_cell(won.get("win_rate"), won.get("ci95")))
    labels = figures.get("labels") or {}
    for fact in facts:
        cells.append(
            ", ".join(f"{esc(r['label'])} {pct(r['win_rate'])}" for r in labels.get(fact, []))
        )
    return cells


def tune_short(data: dict[str, Any]) -> str:
    best: list[dict[str, Any]] = data["best"]
    held = int(data["held_out_games"])
    meeting = [b for b in best if b["meets_targets"]]
    if not best:
        return "Tuning: no candidate to show."
    if not meeting:
        return (
            f"Tuning: no candidate of {len(best)} meets every target on {held:,} held-out "
            f"games; the nearest changes {plain_changes(best[0])}."
        )
    first = meeting[0]
    who = "the best candidate" if first is best[0] else f"candidate #{esc(first['rank'])}"
    return f"Tuning: {who} meets every target on {held:,} held-out games: {plain_changes(first)}."


def plain_changes(best: dict[str, Any]) -> str:
    found = moves(best)
    if not found:
        return "nothing (the pack as it is)"
    return ", ".join(f"{name} {old} → {new}" for name, old, new in found)


# -- ladder --------------------------------------------------------------------------------


def ladder_answer(data: dict[str, Any], tolerance: float) -> Answer:
    team = data["kind"] != "competitive"
    how = (
        "Each rung plays the whole team on the same seeds as the rung below; of the seeds "
        "only one of the two teams won, the share the upper rung won, against one half."
        if team
        else "Each rung takes one seat, moved round the table, against the rung below in "
        "every other seat: its win rate against its fair share, 1 in the number of players."
    )
    lead = (
        f"<p>A skill ladder from bot:random up: each rung against the one below, up to the "
        f"first that does not win clearly more (clear: the whole 95% interval above fair). "
        f"{how} Seed {esc(data.get('seed'))}, up to {int(data['games']):,} games a step.</p>"
    )
    body = lead + "".join(ladder_table(t, team, tolerance) for t in data["tables"])
    short = "Skill: " + "; ".join(ladder_short(t) for t in data["tables"]) + "."
    return Answer(LADDER_QUESTION, "Skill ladder", body, short)


def players_text(players: int) -> str:
    return f"{players} player{'' if players == 1 else 's'}"


def ladder_table(t: dict[str, Any], team: bool, tolerance: float) -> str:
    head = [
        "rung",
        "against",
        "seeds" if team else "games",
        "seeds only one team won: the rung's share" if team else "the rung's win rate",
        "95% interval",
        "fair",
        "verdict",
    ]
    # A step that is not clear is where the ladder ends, not a fault: no row is marked.
    # Its words are the ladder's own ("not told apart": never a rung on a few games).
    rows = [
        (
            "",
            [
                esc(s["upper"]),
                esc(s["lower"]),
                f"{int(s['games']):,}",
                pct(s["rate"]),
                span(s["ci95"]),
                pct(s["fair"]),
                esc(s.get("verdict") or ("clearly stronger" if s["clear"] else "not told apart")),
            ],
        )
        for s in t["steps"]
    ]
    parts = [
        f"<h4>{players_text(int(t['players']))}</h4>",
        table(head, rows),
        f"<p>{rungs_text(t, team)}</p>",
        f"<p>{first_seat_text(t.get('first_seat'), team, tolerance)}</p>",
        f"<p>{luck_text(t.get('luck'), team)}</p>",
    ]
    return "".join(parts)


def rungs_text(t: dict[str, Any], team: bool) -> str:
    """How high the ladder goes, and how its top rung does against random."""
    top = t.get("top_vs_random")
    if top is None:
        return (
            f"{int(t['rungs'])} rung: no bot wins clearly more than bot:random, so there is "
            "no top rung to set against it."
        )
    climbing = " (still climbing at the highest budget asked for)" if t.get("ceiling") else ""
    return (
        f"{int(t['rungs'])} rungs: bot:random and each rung clearly stronger than the one "
        f"below it; the top rung is <b>{esc(t['top'])}</b>{climbing}. {top_text(top, team)}"
    )


def top_text(top: dict[str, Any], team: bool) -> str:
    if team:
        return (
            f"The top rung's team wins {pct(top['rate'])} ({span(top['ci95'])}) of "
            f"{int(top['games']):,} seeds; bot:random's team {pct(top.get('random_rate'))} "
            f"({span(top.get('random_ci95'))})."
        )
    return (
        f"Against bot:random in every other seat it wins {pct(top['rate'])} "
        f"({span(top['ci95'])}) of {int(top['games']):,} games, where chance gives "
        f"{pct(top.get('fair'))}."
    )


def first_seat_text(seat: dict[str, Any] | None, team: bool, tolerance: float) -> str:
    """The report's own test of the first seat: favoured only beyond the tolerance."""
    asked = "<b>Is the first seat favoured?</b> "
    if team:
        return asked + "No seats compete here: the table wins or loses together."
    if seat is None:
        return asked + "This ladder did not measure it."
    rate, fair = float(seat["rate"]), float(seat["fair"])
    lo, hi = seat["ci95"]
    verdict = share_verdict(rate, lo, hi, fair, int(seat["games"]), tolerance)
    return asked + (
        f"With {esc(seat['agent'])} at every seat, the first wins {pct(rate)} "
        f"({span(seat['ci95'])}) of {int(seat['games']):,} games against a fair share of "
        f"{pct(fair)}: {verdict}."
    )


def luck_text(luck: dict[str, Any] | None, team: bool) -> str:
    asked = "<b>How much is luck?</b> "
    if luck is None:
        return asked + "Not measured: there is no top rung above bot:random."
    upset = (
        "bot:random's team won a seed the top team lost"
        if team
        else "the bot:random seats won, against the top rung,"
    )
    return asked + (
        f"Luck decides about {pct(luck['share'])} of outcomes ({span(luck['share_ci95'])}): "
        "0% would mean skill decides every game, 100% that bot:random wins as often as "
        f"chance alone would give it. In these games {upset} {pct(luck['upset'])} "
        f"({span(luck.get('upset_ci95'))}) of the time."
    )


def ladder_short(t: dict[str, Any]) -> str:
    """One table's clause: "3 rungs at 4 players: the top rung wins 61.0% against random,
    and luck decides about 20% of outcomes" (several tables share the sentence)."""
    rungs = int(t["rungs"])
    text = f"{rungs} rung{'' if rungs == 1 else 's'} at {players_text(int(t['players']))}"
    top = t.get("top_vs_random")
    if top is None:
        return text + ": no bot wins clearly more than random"
    text += f": the top rung wins {pct(top['rate'])} against random"
    luck = t.get("luck")
    if luck is not None:
        text += f", and luck decides about {float(luck['share']):.0%} of outcomes"
    return text


ANSWERS: dict[str, Callable[[dict[str, Any], float], Answer]] = {
    "ablate": ablate_answer,
    "tune": tune_answer,
    "ladder": ladder_answer,
}
"""Each lab's section, by the "lab" key its --json output carries."""


def load_answers(paths: Sequence[Path], game: str, pack: str, tolerance: float) -> list[Answer]:
    """Every --add file read, checked against the results' game and rendered, in the order
    given: all of it before the page is built, so a bad file stops the report unwritten."""
    found = [read_added(path) for path in paths]
    for added in found:
        check_game(added, game)
    return [with_pack_note(answer(added, tolerance), added, pack) for added in found]


def with_pack_note(said: Answer, added: Added, pack: str) -> Answer:
    """An answer about another pack of the same game is worth adding (the pack as it was
    beside a tuned one), but the page says so: its figures are not those of the results."""
    theirs = added.data.get("pack")
    if theirs is None or str(theirs) == pack:
        return said
    note = (
        f"<p>This {esc(added.lab)} played the pack <code>{esc(theirs)}</code>; the results "
        f"above, <code>{esc(pack)}</code>.</p>"
    )
    return replace(said, body=note + said.body)
