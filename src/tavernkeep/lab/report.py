"""`tavernkeep report`: one self-contained HTML page from a results file.

Everything is counted over "seat-games" (one seat in one game): its win is its share of
the victory (1/k of a victory shared by k), or in a co-operative or solo game the team's
win. Each breakdown (by seat, bot, Party Leader, grid cell, card used) is a group-by over
those, done with numpy on whole columns, so a million games report in seconds.
A group is flagged out of balance by the one definition every lab answer uses
(stats.off_balance): its whole 95% interval lies more than the tolerance (2 points
unless told) from the fair share (1 in the number of players), and it rests on at least
MIN_SAMPLE games: at a million games every interval is narrow, and a designer asks what
is off by enough to matter, not what is off at all, nor what four games happened to do.
A tallied card or ability is flagged when nobody ever used it under any kind (a dead
card), or when its users' interval lies that far from the win rate of those who did
not use it, counted at the same bots (a card the heuristic bot favours is not "strong"
because that bot beats the random one). That flag is a correlation and says so, once
above the list: winners use more cards of every kind. Whether a card causes wins is
`tavernkeep ablate`'s question (ablate.py: the same games with the card at a middling
value); its answer, given with `--add` (added.py, beside tune's and ladder's), flags
causes apart from those correlations.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from tavernkeep.engine.errors import TavernkeepError
from tavernkeep.lab.added import Answer, load_answers, pct
from tavernkeep.lab.breakdowns import (
    NEVER,
    Group,
    Ints,
    SeatGames,
    TallyRow,
    as_array,
    by_bot,
    by_fact,
    by_seat,
    by_setting,
    coded,
    length_summary,
    rate_text,
    seat_games,
    tally_rows,
)
from tavernkeep.lab.by_value import sweep_sections
from tavernkeep.lab.results import ResultsError, read_results
from tavernkeep.lab.rows import CELL, SCORE_PART, SEAT_FACT, TALLY, column_name
from tavernkeep.lab.stats import (
    TOLERANCE,
    balance_rule,
    points,
    share_verdict,
    wilson_intervals,
)
from tavernkeep.lab.sweep import SWEEP_COLUMN

SHOWN_FLAGS = 20
"""Flags listed at the top, largest first; the tables mark the rest."""
SEATING, CAUSE, CARD = 0, 1, 2
"""The order of the flags: a seat, bot, label or setting off its share first, then the
cards an added ablation found strong or weak (causes), then the cards whose users win
more or less (correlations), so a cause and a correlation never share a run of the list."""
MAX_ROWS = 60
"""Rows a breakdown shows before saying how many more there are (a grid's many cells)."""


# -- plots ---------------------------------------------------------------------------------


def png(figure: Any) -> str:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    plt.close(figure)
    data = base64.b64encode(buffer.getvalue()).decode()
    return f'<img alt="plot" src="data:image/png;base64,{data}">'


def rate_plot(groups: list[Group], title: str, fair: bool = True) -> str:
    import matplotlib.pyplot as plt

    shown = groups[:MAX_ROWS]
    figure, axes = plt.subplots(figsize=(7, 0.35 * len(shown) + 1.2))
    y = np.arange(len(shown))
    rates = np.array([g.rate for g in shown])
    errors = np.array([[g.rate - g.lo for g in shown], [g.hi - g.rate for g in shown]])
    colours = ["#c0392b" if g.flagged else "#2e86c1" for g in shown]
    axes.barh(y, rates, xerr=errors, color=colours, capsize=3)
    for i, g in enumerate(shown if fair else []):
        axes.plot([g.fair, g.fair], [i - 0.45, i + 0.45], color="black", linewidth=1)
    axes.set_yticks(y, [g.label for g in shown])
    axes.invert_yaxis()
    axes.set_xlabel("win rate (bars: 95% interval" + ("; black tick: fair share)" if fair else ")"))
    axes.set_title(title)
    return png(figure)


def length_plot(turns: Ints) -> str:
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 3))
    counts = np.bincount(turns)
    axes.bar(np.arange(len(counts)), counts / len(turns), width=1.0, color="#2e86c1")
    axes.set_xlabel("turns")
    axes.set_ylabel("share of games")
    axes.set_title("How long do games last?")
    return png(figure)


def endings_plot(endings: list[tuple[str, int]], games: int) -> str:
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 0.4 * len(endings) + 1))
    axes.barh([e for e, _ in endings], [c / games for _, c in endings], color="#7d3c98")
    axes.invert_yaxis()
    axes.set_xlabel("share of games")
    axes.set_title("How do games end?")
    return png(figure)


# -- the page ------------------------------------------------------------------------------


def wins_text(wins: float) -> str:
    """Wins as whole games: a shared victory leaves fractions (1/k to each of k winners),
    and "813.83 wins" reads as a typo; the table says so under it."""
    return f"{wins:,.0f}"


def group_table(
    groups: list[Group], heading: str, fair: bool = True, unit: str = "seat-games"
) -> str:
    head = f"<tr><th>{html.escape(heading)}</th><th>{unit}</th><th>wins</th>"
    head += "<th>win rate</th><th>95% interval</th>"
    head += "<th>fair share</th><th></th></tr>" if fair else "</tr>"
    body = []
    for g in groups[:MAX_ROWS]:
        row = (
            f"<td>{html.escape(g.label)}</td><td>{g.trials:,}</td><td>{wins_text(g.wins)}</td>"
            f"<td>{pct(g.rate)}</td><td>{pct(g.lo)} – {pct(g.hi)}</td>"
        )
        if fair:
            mark = '<span class="flag">out of balance</span>' if g.flagged else ""
            row += f"<td>{pct(g.fair)}</td><td>{mark}</td>"
        body.append(f"<tr{' class=off' if g.flagged else ''}>{row}</tr>")
    more = len(groups) - MAX_ROWS
    tail = f"<p>… and {more:,} more rows.</p>" if more > 0 else ""
    if any(g.wins != round(g.wins) for g in groups):
        tail += "<p>A victory shared by k seats counts 1/k to each; wins are rounded.</p>"
    return f"<table>{head}{''.join(body)}</table>{tail}"


STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60em; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
/* A wide table (a tune's candidates, a sweep's values) scrolls in its own box rather
   than running off the page. */
.wide { overflow-x: auto; max-width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2em 0.8em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
tr.off td { background: #fdecea; }
.flag { color: #c0392b; font-weight: bold; }
.ci { white-space: nowrap; }
img { max-width: 100%; }
"""


def wanted(names: list[str]) -> list[str]:
    """The columns a report reads: a million games' scores, ranks and seeds stay on disk."""
    keep = ("game", "options", "seats", "win_share", "won", "turns", "ending", SWEEP_COLUMN)
    prefixes = (SEAT_FACT, SCORE_PART, TALLY, CELL)
    return [n for n in names if n in keep or n.startswith(prefixes)]


def in_short(
    played: str,
    games: int,
    first: Group | None,
    team: tuple[float, float, float] | None,
    lengths: dict[str, Any],
    endings: list[tuple[str, int]],
    flags: list[tuple[int, float, str]],
    tolerance: float,
    dead_cards: int,
    answers: Sequence[Answer] = (),
) -> str:
    """The page's answer in plain words, before any table: what was played and what it
    changed (`played`), is the first seat favoured
    (`first`, the seat table's first row) or how often the table wins (`team`: its rate
    and interval), how long games last and how they end, how much is out of balance, and
    a sentence from each lab's answer added to the page."""
    lines = [played]
    if team is not None:
        rate, lo, hi = team
        lines.append(f"The table wins {pct(rate)} of games ({pct(lo)} – {pct(hi)}).")
    elif first is not None:
        verdict = share_verdict(first.rate, first.lo, first.hi, first.fair, first.trials, tolerance)
        lines.append(
            f"Is the first seat favoured? It wins {pct(first.rate)} ({pct(first.lo)} – "
            f"{pct(first.hi)}) against a fair share of {pct(first.fair)}: {verdict}."
        )
    if endings:
        ending, count = endings[0]
        lines.append(
            f"Games last {lengths['mean']:.1f} turns on average (half within "
            f"{lengths['median']}, the longest {lengths['max']}); most end by "
            f"{html.escape(ending)} ({pct(count / games)})."
        )
    off = sum(1 for rank, _, _ in flags if rank == SEATING)
    cards = sum(1 for rank, _, text in flags if rank == CARD and not text.startswith(NEVER))
    if off:
        lines.append(
            f"{off} seat, bot, label or setting{' is' if off == 1 else 's are'} out of "
            f"balance: the whole interval more than {points(tolerance)} off (Flags, below)."
        )
    else:
        lines.append(
            f"No seat, bot, label or setting is out of balance (more than {points(tolerance)} "
            "off, by its whole interval)."
        )
    if cards:
        which = (
            "entry (a card, a quest, a place) goes"
            if cards == 1
            else "entries (cards, quests, places) go"
        )
        lines.append(
            f"{cards} tallied {which} "
            "with winning or losing more than chance explains: a correlation, not a cause "
            "(tavernkeep ablate tells which are causes)."
        )
    if dead_cards:
        lines.append(
            f"{dead_cards} tallied entr{'y' if dead_cards == 1 else 'ies'} never came up "
            "(Flags, below)."
        )
    lines.extend(a.short for a in answers)
    return "<p>" + " ".join(lines) + "</p>"


def tally_sections(
    table: pa.Table,
    meta: dict[str, Any],
    sg: SeatGames,
    tolerance: float,
    section: Any,
    flags: list[tuple[int, float, str]],
) -> int:
    """A section a tally kind, its correlation flags, and the dead cards (a name the pack
    could count that no kind ever counted: a card never played, a quest never tried).
    A name one kind never counted is no dead card when another did (a card played but
    never challenged is simply never challenged): it shows as 0 in that kind's table.
    Returns how many dead cards there are."""
    kinds = dict(meta.get("tally_kinds") or {})
    # The names the pack could count under each kind (the game's `tally_names`). A kind
    # with none declared lists what was counted.
    declared: dict[str, list[str]] = dict(meta.get("tally_names") or {})
    rates: dict[str, str] = dict(meta.get("tally_rates") or {})
    rows_by_kind: dict[str, list[TallyRow]] = {}
    for kind in kinds:
        column = column_name(TALLY, kind)
        if column in table.column_names:
            known = sorted(declared.get(kind, []))
            rows_by_kind[kind] = tally_rows(table, sg, column, known, tolerance)
    counted = {r.name for rows in rows_by_kind.values() for r in rows if r.users}
    possible = {name for names in declared.values() for name in names}
    dead = sorted(possible - counted)
    if dead:
        # A dead card is as loud a flag as a broken one; they share one line.
        listed = ", ".join(f"<b>{html.escape(name)}</b>" for name in dead)
        flags.append((CARD, 1.0, f"{NEVER}: {listed}"))
    for kind, rows_ in rows_by_kind.items():
        heading = str(kinds[kind])
        for r in rows_:
            if r.flagged:
                flags.append(
                    (
                        CARD,
                        abs(r.rate - r.others),
                        f"{html.escape(heading)}: <b>{html.escape(r.name)}</b> {r.flagged}: "
                        f"its {r.users:,} users win {pct(r.rate)} ({pct(r.lo)} – "
                        f"{pct(r.hi)}), the others at the same bots {pct(r.others)}",
                    )
                )
        attempts = rows_by_kind.get(rates.get(kind, ""))
        tried = {r.name: r.uses for r in attempts or []}
        per_try = attempts is not None
        body = []
        for r in rows_:
            cells = [
                html.escape(r.name),
                f"{r.users:,}",
                pct(r.share),
                f"{r.uses_per_game:.2f}",
                pct(r.rate) if r.users else "–",
                f"{pct(r.lo)} – {pct(r.hi)}" if r.users else "–",
                pct(r.others),
                f"<span class=flag>{r.flagged}</span>" if r.flagged else "",
            ]
            if per_try:
                tries = tried.get(r.name, 0)
                cells[4:4] = [f"{tries:,}", rate_text(r.uses, tries)]
            off = " class=off" if r.flagged else ""
            body.append(f"<tr{off}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        head = [
            "name",
            "seat-games using it",
            "share of seat-games",
            "times a game",
            *(["attempts", "success per attempt (95%)"] if per_try else []),
            "users' win rate",
            "95% interval",
            "others' win rate (same bots)",
            "",
        ]
        never = [r.name for r in rows_ if not r.users and r.name not in dead]
        note = (
            f"<p>Never counted here (though each came up otherwise): "
            f"{', '.join(html.escape(n) for n in never)}.</p>"
            if never
            else ""
        )
        section(
            heading,
            "<table><tr>"
            + "".join(f"<th>{h}</th>" for h in head)
            + f"</tr>{''.join(body)}</table>{note}",
            f"{heading}: does using one go with winning? (a correlation)",
        )
    return len(dead)


FLAG_LEADS = {
    SEATING: "Seats, bots, labels and settings, largest gap first:",
    CAUSE: "Causes, from an added ablation: the same seeds played with the card and with "
    "a middling stand-in, beyond that ablation's own tolerance:",
    CARD: "Tallied entries that go with winning or losing. A correlation: it says who "
    "used them, not what they did (winners use more cards of every kind); "
    "<code>tavernkeep ablate</code> plays each against a stand-in on the same games to "
    "tell a cause:",
}


def flags_html(flags: list[tuple[int, float, str]], tolerance: float) -> str:
    """The flags, each kind under the one sentence that says what it means (said once,
    not on every card), largest first, SHOWN_FLAGS in all."""
    rule = f"<p>{html.escape(balance_rule(tolerance)).capitalize()}.</p>"
    if not flags:
        return rule + "<p>Nothing is out of balance.</p>"
    flags = sorted(flags, key=lambda f: (f[0], -f[1]))
    shown = flags[:SHOWN_FLAGS]
    parts = [rule]
    for rank, lead in FLAG_LEADS.items():
        items = [text for r, _, text in shown if r == rank]
        if items:
            parts.append(f"<p>{lead}</p><ul>" + "".join(f"<li>{t}</li>" for t in items) + "</ul>")
    more = len(flags) - SHOWN_FLAGS
    if more > 0:
        parts.append(f"<p>… and {more} more, marked in the tables below.</p>")
    return "".join(parts)


def played_text(meta: dict[str, Any], games: int, title: str) -> str:
    """What the games were, first in "In short": the pack and what it changes from the
    standard one (where its file is still at hand), the swept number and its values,
    and who sat where. A designer reads a report to learn what a change did."""
    pack = str(meta.get("pack", "standard"))
    batches = list(meta.get("batches") or [])
    seats = list(batches[0].get("seats", [])) if batches else []
    by_bot: dict[str, list[int]] = {}
    for i, spec in enumerate(seats):
        by_bot.setdefault(str(spec), []).append(i + 1)
    who = "; ".join(
        f"{html.escape(spec)} in seat{'s' if len(at) > 1 else ''} " + ", ".join(map(str, at))
        for spec, at in by_bot.items()
    )
    text = f"{games:,} games of {html.escape(title)} with the {html.escape(pack)} pack"
    text += f" ({who})." if who else "."
    changes = pack_difference(str(meta.get("game", "")), pack)
    if changes is not None:
        text += " " + changes
    if meta.get("sweep"):
        values = [b.get(SWEEP_COLUMN) for b in batches if SWEEP_COLUMN in b]
        shown = ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in values)
        text += (
            f" Each value of <b>{html.escape(str(meta['sweep']))}</b> ({html.escape(shown)}) "
            "played the same seeds; the tables below give each value its own column."
        )
    return text


def pack_difference(game_name: str, pack: str) -> str | None:
    """A sentence naming what a pack file changes from its game's standard pack; None
    for the standard pack itself. A file no longer at hand is said to be so."""
    if pack == "standard" or not game_name:
        return None
    import tomllib

    from tavernkeep.games import get_game
    from tavernkeep.lab.compare import change_text, pack_changes
    from tavernkeep.lab.sweep import raw_pack

    try:
        game = get_game(game_name)
        _, standard = raw_pack(game, None)
        changed = tomllib.loads(Path(pack).read_text(encoding="utf-8"))
    except (OSError, ValueError, TavernkeepError):
        return f"(The pack file {html.escape(pack)} is not at hand: what it changes is not shown.)"
    found = pack_changes(standard, changed)
    if not found:
        return "It changes nothing from the standard pack."
    listed = "; ".join(html.escape(change_text(c)) for c in found[:5])
    more = f"; and {len(found) - 5} more" if len(found) > 5 else ""
    return (
        f"It changes {len(found)} thing{'s' if len(found) > 1 else ''} from the standard "
        f"pack: {listed}{more}."
    )


def pooled_sections(
    table: pa.Table,
    meta: dict[str, Any],
    sg: SeatGames,
    tolerance: float,
    section: Callable[[str, str, str], None],
    flags: list[tuple[int, float, str]],
) -> tuple[list[tuple[str, int]], int]:
    """Game length, endings, where the score came from and the tallies, over every game
    of the file; returns the endings, most common first, and how many dead cards."""
    games = sg.games
    lengths = length_summary(sg.turns)
    section(
        "Game length",
        length_plot(sg.turns)
        + f"<p>In turns: mean {lengths['mean']:.1f}, median {lengths['median']}, "
        f"90% {lengths['p90']}, 99% {lengths['p99']}, longest {lengths['max']}.</p>",
        "How long do games last?",
    )
    codes, names = coded(as_array(table, "ending"))
    tallied = np.bincount(codes, minlength=len(names))
    endings = sorted(
        ((n, int(c)) for n, c in zip(names, tallied, strict=True) if c), key=lambda e: -e[1]
    )
    rows = "".join(
        f"<tr><td>{html.escape(e)}</td><td>{c:,}</td><td>{pct(c / games)}</td></tr>"
        for e, c in endings
    )
    section(
        "How the games ended",
        endings_plot(endings, games)
        + f"<table><tr><th>ending</th><th>games</th><th>share</th></tr>{rows}</table>",
        "How do games end?",
    )

    score_parts = dict(meta.get("score_parts") or {})
    if score_parts:
        means = {}
        for part, heading in score_parts.items():
            column = column_name(SCORE_PART, part)
            if column in table.column_names:
                values = as_array(table, column).flatten()
                means[str(heading)] = float(pc.sum(values).as_py() or 0) / max(len(values), 1)
        whole = sum(means.values()) or 1.0
        rows = "".join(
            f"<tr><td>{html.escape(h)}</td><td>{m:.2f}</td><td>{pct(m / whole)}</td></tr>"
            for h, m in means.items()
        )
        section(
            "Where the score came from",
            f"<table><tr><th>score from</th><th>mean a seat</th><th>share</th></tr>{rows}</table>",
            "Where do the points come from?",
        )

    dead_cards = tally_sections(table, meta, sg, tolerance, section, flags)
    return endings, dead_cards


def swept_name(meta: dict[str, Any]) -> str | None:
    """The entry a sweep's number belongs to, where the pack still says (see
    sweep.swept_entry)."""
    from tavernkeep.games import get_game
    from tavernkeep.lab.sweep import swept_entry

    pack = str(meta.get("pack", "standard"))
    try:
        game = get_game(str(meta.get("game")))
        return swept_entry(game, None if pack == "standard" else pack, str(meta["sweep"]))
    except (OSError, ValueError, KeyError, TavernkeepError):
        return None


def build_report(path: Path, tolerance: float = TOLERANCE, added: Sequence[Path] = ()) -> str:
    """The page; `added`: JSON files that ablate, tune or ladder printed (--add), each a
    section, a sentence in "In short" and (an ablation) causal flags."""
    table, meta = read_results(path, wanted)
    game = str(meta.get("game") or table.column("game")[0].as_py())
    answers = load_answers(added, game, str(meta.get("pack", "standard")), tolerance)
    sg = seat_games(table, meta, path)
    title = str(meta.get("title") or game)
    games = sg.games
    parts: list[str] = []
    flags: list[tuple[int, float, str]] = []
    """Each flag with its rank (seats, bots and labels before cards) and how far off it is
    (its gap in win-rate points), to list the largest first."""

    def section(heading: str, body: str, question: str) -> None:
        """A section titled by the question a designer asks of it, its breakdown named
        under it."""
        body = body.replace("<table>", '<div class="wide"><table>')
        body = body.replace("</table>", "</table></div>")
        parts.append(f"<h2>{html.escape(question)}</h2><h3>{html.escape(heading)}</h3>{body}")

    def note_flags(groups: list[Group], what: str) -> None:
        for g in groups:
            if g.flagged:
                side = "above" if g.lo > g.fair else "below"
                flags.append(
                    (
                        SEATING,
                        abs(g.rate - g.fair),
                        f"{what} <b>{html.escape(g.label)}</b> wins {pct(g.rate)} "
                        f"({pct(g.lo)} – {pct(g.hi)}), {side} the fair share {pct(g.fair)}",
                    )
                )

    seeds = sorted({b.get("seed") for b in meta.get("batches", [])} - {None})
    intro = (
        f"<p>{games:,} games from <code>{html.escape(path.name)}</code>; "
        f"pack {html.escape(str(meta.get('pack', 'standard')))}; "
        f"seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds[:6]))}"
        f"{' …' if len(seeds) > 6 else ''}.</p>"
    )
    if answers:
        sources = ", ".join(f"<code>{html.escape(p.name)}</code>" for p in added)
        intro += f"<p>With the lab's answers from {sources}: their sections close the page.</p>"
    first: Group | None = None
    team: tuple[float, float, float] | None = None
    # A sweep's games are several runs in one file: its breakdowns come one column a
    # value (by_value.py), never pooled over the values.
    swept = SWEEP_COLUMN in table.column_names and bool(meta.get("sweep"))
    if swept:
        sweep_sections(table, meta, path, tolerance, swept_name(meta), section, note_flags)
    elif sg.team:
        won = float(np.asarray(as_array(table, "won").fill_null(False)).sum())
        lo, hi = wilson_intervals(np.array([won]), np.array([games]))
        team = (won / games, float(lo[0]), float(hi[0]))
        intro += (
            f"<p>The team won {int(won):,} of {games:,} games: <b>{pct(won / games)}</b> "
            f"({pct(lo[0])} – {pct(hi[0])}).</p>"
        )
    else:
        seats = by_seat(sg, tolerance)
        first = seats[0]
        note_flags(seats, "Seat")
        section(
            "Win rate by seat",
            rate_plot(seats, "Is any seat favoured?") + group_table(seats, "seat"),
            "Is any seat favoured?",
        )
        bots = by_bot(sg, tolerance)
        note_flags(bots, "Bot")
        section(
            "Win rate by bot",
            rate_plot(bots, "Which bot wins, and by how much?") + group_table(bots, "bot"),
            "Which bot wins, and by how much?",
        )

    for fact, heading in dict(meta.get("seat_facts") or {}).items():
        column = column_name(SEAT_FACT, fact)
        if swept or column not in table.column_names:
            continue
        groups = by_fact(table, sg, column, tolerance)
        note_flags(groups, str(heading))
        asked = f"Does any {heading} win more than the others?"
        section(
            f"Win rate by {heading}",
            rate_plot(groups, asked, not sg.team) + group_table(groups, heading, not sg.team),
            asked,
        )

    settings = [c for c in table.column_names if c.startswith(CELL)]
    if not settings and not swept and len(coded(as_array(table, "options"))[1]) > 1:
        settings = ["options"]
    for column in settings:
        name = column.removeprefix(CELL)
        groups = by_setting(table, sg, column, tolerance)
        note_flags(groups, name)
        heading = "team" if sg.team else "seat"
        asked = f"How does the {heading}'s win rate move with {name}?"
        section(
            f"Win rate by {name}",
            rate_plot(groups, asked, not sg.team)
            + group_table(groups, name, not sg.team, "games" if sg.team else "seat-games"),
            asked,
        )

    lengths = length_summary(sg.turns)
    endings: list[tuple[str, int]] = []
    dead_cards = 0
    if not swept:
        endings, dead_cards = pooled_sections(table, meta, sg, tolerance, section, flags)
    for a in answers:
        flags.extend((CAUSE, gap, text) for gap, text in a.causes)
        section(a.heading, a.body, a.question)

    flag_html = flags_html(flags, tolerance)
    summary = in_short(
        played_text(meta, games, title),
        games,
        first,
        team,
        lengths,
        endings,
        flags,
        tolerance,
        dead_cards,
        answers,
    )
    about = html.escape(json.dumps({k: meta[k] for k in ("game", "pack") if k in meta}))
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)} balance"
        f" report</title><style>{STYLE}</style></head><body data-run='{about}'>"
        f"<h1>{html.escape(title)}: balance report</h1>{intro}"
        f"<h2>In short</h2>{summary}<h2>Flags</h2>{flag_html}{''.join(parts)}</body></html>"
    )


def write_report(
    results: Path, out: Path, tolerance: float = TOLERANCE, added: Sequence[Path] = ()
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    if out.is_dir():
        raise ResultsError(f"{out}: is a folder; --out takes a file name")
    if not out.parent.is_dir():
        raise ResultsError(f"{out}: no such folder '{out.parent}'")
    page = build_report(results, tolerance, added)  # every input checked before a write
    out.write_text(page, encoding="utf-8")
