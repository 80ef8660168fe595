"""`tavernkeep report`: one self-contained HTML page from a results file.

Everything is counted over "seat-games" (one seat in one game): its win is its share of
the victory (1/k of a victory shared by k), or in a co-operative or solo game the team's
win. Each breakdown (by seat, bot, Party Leader, grid cell, card used) is a group-by over
those, done with numpy on whole columns, so a million games report in seconds.
A group is flagged out of balance when its 95% interval lies wholly outside the fair
share (1 in the number of players) give or take TOLERANCE: at a million games every
interval is narrow, and a designer asks what is off by enough to matter, not what is
off at all. A tallied card or ability is flagged when nobody ever used it, or when its
users' interval lies that far from the win rate of those who did not use it, counted
at the same bots (a card the heuristic bot favours is not "strong" because that bot
beats the random one). That flag is a correlation and says so: winners use more cards
of every kind. Whether a card causes wins is `tavernkeep ablate`'s question (ablate.py:
the same games with the card at a middling value); its answer, given with `--add`
(added.py, beside tune's and ladder's), flags causes apart from those correlations.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from tavernkeep.lab.added import CORRELATION, Answer, load_answers
from tavernkeep.lab.results import ResultsError, read_results
from tavernkeep.lab.rows import CELL, SCORE_PART, SEAT_FACT, TALLY, column_name
from tavernkeep.lab.stats import TOLERANCE, wilson_intervals
from tavernkeep.lab.sweep import SWEEP_COLUMN

Floats = np.ndarray[Any, np.dtype[np.float64]]
Ints = np.ndarray[Any, np.dtype[np.int64]]
SHOWN_FLAGS = 20
"""Flags listed at the top, largest first; the tables mark the rest."""
SEATING, CAUSE, CARD = 0, 1, 2
"""The order of the flags: a seat, bot, label or setting off its share first, then the
cards an added ablation found strong or weak (causes), then the cards whose users win
more or less (correlations), so a cause and a correlation never share a run of the list."""
MAX_ROWS = 60
"""Rows a breakdown shows before saying how many more there are (a grid's many cells)."""


@dataclass
class SeatGames:
    """The results file flattened to one entry per seat in each game."""

    games: int
    game: Ints
    """The row (game) of each seat-game."""
    seat: Ints
    spec: list[str]
    spec_code: Ints
    win: Floats
    fair: Floats
    team: bool
    turns: Ints = field(default_factory=lambda: np.zeros(0, np.int64))


@dataclass
class Group:
    label: str
    trials: int
    wins: float
    rate: float
    lo: float
    hi: float
    fair: float
    flagged: bool


def as_array(table: pa.Table, name: str) -> Any:
    return table.column(name).combine_chunks()


def seat_games(table: pa.Table, meta: dict[str, Any], path: Path) -> SeatGames:
    seats = as_array(table, "seats")
    offsets = np.asarray(seats.offsets, dtype=np.int64)
    players = np.diff(offsets)
    n = table.num_rows
    game = np.repeat(np.arange(n, dtype=np.int64), players)
    seat = np.arange(len(game), dtype=np.int64) - offsets[:-1][game]
    spec_code, spec = coded(seats.flatten())
    team = meta.get("kind", "competitive") != "competitive"
    if team:
        won = np.asarray(as_array(table, "won").fill_null(False), dtype=float)
        win = won[game]
    else:
        share = as_array(table, "win_share").flatten()
        win = np.asarray(share.fill_null(0.0), dtype=float)
    if len(win) != len(game):
        raise ResultsError(f"{path}: win_share does not hold one number a seat")
    turns = np.asarray(as_array(table, "turns"), dtype=np.int64)
    fair = 1.0 / players[game]
    return SeatGames(n, game, seat, spec, spec_code, win, fair, team, turns)


def group_by(
    codes: Ints,
    labels: list[str],
    win: Floats,
    fair: Floats,
    flag: bool = True,
    tolerance: float = TOLERANCE,
) -> list[Group]:
    """Win rates with intervals for each code; `flag` marks intervals off the fair share
    by more than `tolerance`."""
    size = len(labels)
    trials = np.bincount(codes, minlength=size)
    wins = np.bincount(codes, weights=win, minlength=size)
    fairs = np.bincount(codes, weights=fair, minlength=size) / np.maximum(trials, 1)
    lo, hi = wilson_intervals(wins, trials)
    groups = []
    for i, label in enumerate(labels):
        if trials[i] == 0:
            continue
        rate = wins[i] / trials[i]
        off = bool(flag and (lo[i] > fairs[i] + tolerance or hi[i] < fairs[i] - tolerance))
        groups.append(
            Group(label, int(trials[i]), float(wins[i]), rate, lo[i], hi[i], fairs[i], off)
        )
    return groups


def coded(values: Any) -> tuple[Ints, list[str]]:
    """A code for each value and the label of each code. Text columns are read already
    dictionary-encoded; row groups' dictionaries may repeat a label, so codes are
    renumbered over the distinct labels."""
    encoded = values if pa.types.is_dictionary(values.type) else pc.dictionary_encode(values)
    names = [str(v) for v in encoded.dictionary.to_pylist()]
    labels, renumber = np.unique(np.array(names, dtype=object), return_inverse=True)
    indices = np.asarray(encoded.indices.fill_null(0), dtype=np.int64)
    codes = renumber.astype(np.int64)[indices] if len(names) else indices
    return codes, [str(x) for x in labels]


# -- the sections ------------------------------------------------------------------------


def by_seat(sg: SeatGames, tolerance: float) -> list[Group]:
    seats = int(sg.seat.max()) + 1
    labels = [f"seat {i + 1}" for i in range(seats)]
    return group_by(sg.seat, labels, sg.win, sg.fair, tolerance=tolerance)


def by_bot(sg: SeatGames, tolerance: float) -> list[Group]:
    return group_by(sg.spec_code, sg.spec, sg.win, sg.fair, tolerance=tolerance)


def by_fact(table: pa.Table, sg: SeatGames, column: str, tolerance: float) -> list[Group]:
    per_seat = as_array(table, column).flatten()  # one list of labels a seat-game
    labels = per_seat.flatten()
    parent = np.asarray(pc.list_parent_indices(per_seat), dtype=np.int64)
    codes, names = coded(labels)
    return group_by(
        codes, names, sg.win[parent], sg.fair[parent], flag=not sg.team, tolerance=tolerance
    )


def by_setting(table: pa.Table, sg: SeatGames, column: str, tolerance: float) -> list[Group]:
    """Per value of a grid or sweep column (or the options): the team's win rate, or in
    a competitive game each seat's."""
    codes, names = coded(as_array(table, column))
    if sg.team:
        # The team wins or loses a game as one: count games, not seats.
        won = np.asarray(as_array(table, "won").fill_null(False), dtype=float)
        return group_by(codes, names, won, np.zeros(len(won)), flag=False)
    per = codes[sg.game]
    seats = int(sg.seat.max()) + 1
    combined = per * seats + sg.seat
    labels = [f"{name}, seat {s + 1}" for name in names for s in range(seats)]
    return group_by(combined, labels, sg.win, sg.fair, tolerance=tolerance)


@dataclass
class TallyRow:
    name: str
    users: int
    share: float
    uses_per_game: float
    rate: float
    lo: float
    hi: float
    others: float
    flagged: str


def map_entries(maps: Any) -> tuple[Any, Any, Ints]:
    """The names, counts and owning map of every entry of a map array; `list_flatten`
    has no kernel for maps, and a map's children are not cut to a sliced array."""
    offsets = np.asarray(maps.offsets, dtype=np.int64)
    start, stop = int(offsets[0]), int(offsets[-1])
    keys = maps.keys.slice(start, stop - start)
    items = maps.items.slice(start, stop - start)
    parent = np.repeat(np.arange(len(maps), dtype=np.int64), np.diff(offsets))
    return keys, items, parent


def tally_rows(
    table: pa.Table, sg: SeatGames, column: str, known: list[str], tolerance: float = TOLERANCE
) -> list[TallyRow]:
    """One row a name of a tally kind: how many seat-games used it, how often, and the win
    rate of its users beside that of everyone else at the same bots: the others' rate at
    each bot, weighted by how many of the users that bot played."""
    maps = as_array(table, column).flatten()  # one {name: count} a seat-game
    if len(maps) != len(sg.win):
        raise ResultsError(f"{column}: does not hold one tally a seat")
    keys, items, parent = map_entries(maps)
    counts = np.asarray(items.fill_null(0), dtype=np.int64)
    used = counts > 0
    keys = keys.filter(pa.array(used))
    parent, counts = parent[used], counts[used]
    codes, names = coded(keys) if len(keys) else (np.zeros(0, np.int64), [])
    index = {name: i for i, name in enumerate(names)}
    every = names + [k for k in known if k not in index]
    size = len(every)
    users = np.bincount(codes, minlength=size)
    uses = np.bincount(codes, weights=counts, minlength=size)
    user_wins = np.bincount(codes, weights=sg.win[parent], minlength=size)
    lo, hi = wilson_intervals(user_wins, users)
    # The same by (name, bot): the others at a bot are that bot's seat-games less its users.
    bots = len(sg.spec)
    pair = codes * bots + sg.spec_code[parent]
    pair_users = np.bincount(pair, minlength=size * bots).reshape(size, bots)
    pair_wins = np.bincount(pair, weights=sg.win[parent], minlength=size * bots).reshape(
        size, bots
    )
    bot_games = np.bincount(sg.spec_code, minlength=bots)
    bot_wins = np.bincount(sg.spec_code, weights=sg.win, minlength=bots)
    rest_games = bot_games[None, :] - pair_users
    with np.errstate(invalid="ignore", divide="ignore"):
        rest_rate = (bot_wins[None, :] - pair_wins) / rest_games
    seat_games = len(sg.win)
    rows = []
    for i, name in enumerate(every):
        weights = pair_users[i] * (rest_games[i] > 0)
        others = (
            float((weights * np.nan_to_num(rest_rate[i])).sum() / weights.sum())
            if weights.sum()
            else float("nan")
        )
        if users[i] == 0:
            flag = "never used"
        elif weights.sum() and lo[i] > others + tolerance:
            flag = CORRELATION
        elif weights.sum() and hi[i] < others - tolerance:
            flag = "used by losers (a correlation)"
        else:
            flag = ""
        rows.append(
            TallyRow(
                name,
                int(users[i]),
                users[i] / seat_games,
                uses[i] / sg.games,
                user_wins[i] / users[i] if users[i] else float("nan"),
                float(lo[i]),
                float(hi[i]),
                others,
                flag,
            )
        )
    rows.sort(key=lambda r: (-r.users, r.name))
    return rows


def length_summary(turns: Ints) -> dict[str, float]:
    ordered = np.sort(turns)
    games = len(ordered)

    def quantile(q: float) -> int:
        # The smallest length that at least q of the games do not exceed.
        return int(ordered[max(0, int(np.ceil(q * games)) - 1)])

    return {
        "mean": float(ordered.mean()),
        "median": quantile(0.5),
        "p90": quantile(0.9),
        "p99": quantile(0.99),
        "max": int(ordered[-1]),
    }


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


def points(x: float) -> str:
    return f"{x * 100:g} win-rate point{'' if x == 0.01 else 's'}"


def pct(x: float) -> str:
    return "–" if x != x else f"{x:.1%}"


def wins_text(wins: float) -> str:
    """Whole wins as a count; shared victories leave fractions, shown to two places."""
    return f"{wins:,.0f}" if wins == round(wins) else f"{wins:,.2f}"


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
    return f"<table>{head}{''.join(body)}</table>{tail}"


STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60em; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
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
    """The page's answer in plain words, before any table: is the first seat favoured
    (`first`, the seat table's first row) or how often the table wins (`team`: its rate
    and interval), how long games last and how they end, how much is out of balance, and
    a sentence from each lab's answer added to the page."""
    lines = []
    if team is not None:
        rate, lo, hi = team
        lines.append(f"The table wins {pct(rate)} of games ({pct(lo)} – {pct(hi)}).")
    elif first is not None:
        if first.lo > first.fair + tolerance:
            verdict = "favoured"
        elif first.hi < first.fair - tolerance:
            verdict = "at a disadvantage"
        else:
            verdict = f"not more than {points(tolerance)} off its fair share"
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
    cards = sum(1 for rank, _, text in flags if rank == CARD and ", never:" not in text)
    if off:
        lines.append(
            f"{off} seat, bot, label or setting{' is' if off == 1 else 's are'} out of "
            f"balance by more than {points(tolerance)} (Flags, below)."
        )
    else:
        lines.append(f"No seat, bot, label or setting is off by more than {points(tolerance)}.")
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
    if sg.team:
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
        if column not in table.column_names:
            continue
        groups = by_fact(table, sg, column, tolerance)
        note_flags(groups, str(heading))
        asked = f"Does any {heading} win more than the others?"
        section(
            f"Win rate by {heading}",
            rate_plot(groups, asked, not sg.team) + group_table(groups, heading, not sg.team),
            asked,
        )

    settings = [c for c in table.column_names if c.startswith(CELL) or c == SWEEP_COLUMN]
    if not settings and len(coded(as_array(table, "options"))[1]) > 1:
        settings = ["options"]
    for column in settings:
        name = str(meta.get("sweep")) if column == SWEEP_COLUMN else column.removeprefix(CELL)
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

    kinds = dict(meta.get("tally_kinds") or {})
    dead_cards = 0
    # The names the pack could count under each kind (the game's `tally_names`): one
    # never counted is a dead card. A kind with none declared lists what was counted.
    declared: dict[str, list[str]] = dict(meta.get("tally_names") or {})
    for kind, heading in kinds.items():
        column = column_name(TALLY, kind)
        if column not in table.column_names:
            continue
        rows_ = tally_rows(table, sg, column, sorted(declared.get(kind, [])), tolerance)
        dead = [r.name for r in rows_ if r.flagged == "never used"]
        dead_cards += len(dead)
        if dead:
            # A dead card is as loud a flag as a broken one; a kind's dead cards share a line.
            listed = ", ".join(f"<b>{html.escape(name)}</b>" for name in dead)
            flags.append((CARD, 1.0, f"{html.escape(str(heading))}, never: {listed}"))
        for r in rows_:
            if r.flagged and r.flagged != "never used":
                flags.append(
                    (
                        CARD,
                        abs(r.rate - r.others),
                        f"{html.escape(str(heading))}: <b>{html.escape(r.name)}</b> — those "
                        f"who did win {pct(r.rate)} ({pct(r.lo)} – {pct(r.hi)}), the others "
                        f"at the same bots {pct(r.others)}: {html.escape(r.flagged)}, which "
                        "says who used it, not what it did (<code>tavernkeep ablate</code> "
                        "plays it against a stand-in on the same games)",
                    )
                )
        body = "".join(
            f"<tr{' class=off' if r.flagged else ''}><td>{html.escape(r.name)}</td>"
            f"<td>{pct(r.share)}</td><td>{r.uses_per_game:.3f}</td><td>{pct(r.rate)}</td>"
            f"<td>{pct(r.lo) if r.users else '–'} – {pct(r.hi) if r.users else '–'}</td>"
            f"<td>{pct(r.others)}</td><td><span class=flag>{r.flagged}</span></td></tr>"
            for r in rows_
        )
        section(
            str(heading),
            "<table><tr><th>name</th><th>seat-games using it</th><th>uses a game</th>"
            "<th>users' win rate</th><th>95% interval</th><th>others' win rate (same bots)</th>"
            "<th></th></tr>"
            f"{body}</table>",
            f"{heading}: does using one go with winning? (a correlation)",
        )

    for a in answers:
        flags.extend((CAUSE, gap, text) for gap, text in a.causes)
        section(a.heading, a.body, a.question)

    flags.sort(key=lambda f: (f[0], -f[1]))
    more = len(flags) - SHOWN_FLAGS
    causes = (
        " A card flagged <i>paired, causal</i> comes from an added ablation: the same seeds "
        "played with the card and with a middling stand-in, beyond that ablation's own "
        "tolerance. A card flagged <i>a correlation</i> comes from these games' tallies: "
        "who used it, not what it did."
        if any(rank == CAUSE for rank, _, _ in flags)
        else ""
    )
    flag_html = (
        f"<p>Off by more than {points(tolerance)} (the whole 95% interval), largest first."
        f"{causes}</p>"
        + "<ul>"
        + "".join(f"<li>{text}</li>" for _, _, text in flags[:SHOWN_FLAGS])
        + (f"<li>… and {more} more, marked in the tables below</li>" if more > 0 else "")
        + "</ul>"
        if flags
        else f"<p>Nothing out of balance: every interval comes within {points(tolerance)} of "
        "its fair share.</p>"
    )
    summary = in_short(games, first, team, lengths, endings, flags, tolerance, dead_cards, answers)
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
