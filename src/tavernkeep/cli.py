"""`tavernkeep`: the one command, with a sub-command per job.

Every error a user can cause (a bad option, an unknown game or seat, a malformed pack or
record) ends as one line on stderr and exit code 2; nothing is half-written.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import sys
import threading
from pathlib import Path
from typing import Annotated, Any

import typer

from tavernkeep.engine.errors import ConfigError, TavernkeepError

try:  # Typer 0.2x bundles its own copy of click; older Typer uses click itself.
    from typer._click import exceptions as click_exceptions
except ImportError:  # pragma: no cover - depends on the installed Typer
    from click import exceptions as click_exceptions  # type: ignore[no-redef]

MAX_SEED = 2**63 - 1

app = typer.Typer(
    name="tavernkeep",
    help="Play, simulate and study dice-driven fantasy tabletop games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

SeatOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--seat",
        "-s",
        help="A seat, in turn order: human, bot:random, bot:heuristic, bot:mcts[:500|:200ms]"
        "[:heuristic] or bot:policy:PATH (a trained policy). Repeat per player.",
    ),
]
SeedOpt = Annotated[
    int | None,
    typer.Option(help="Seed for a reproducible game (random if not given).", min=0, max=MAX_SEED),
]
PackOpt = Annotated[
    str | None,
    typer.Option(
        "--pack",
        "--map",
        help="Content pack (Rage: the map): a built-in name or a path to a .toml file.",
    ),
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option as key=value, e.g. round_limit=50."),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out", help="Also write every game as a row of this Parquet file (results.parquet)."
    ),
]
RayOpt = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="[ADDRESS]",
        help="Play the games as Ray tasks: on the cluster at ADDRESS, or on a Ray started "
        "here when no address follows (needs pip install 'tavernkeep\\[ray]').",
    ),
]
WorkersOpt = Annotated[int, typer.Option(help="Worker processes.", min=1)]
TolOpt = Annotated[
    float,
    typer.Option(
        "--tolerance",
        help="Win-rate points (2 = 2 points) a seat, label or card may be off its fair "
        "share, with its whole 95% interval, before it is called out of balance.",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
VariantOpt = Annotated[
    list[str] | None,
    typer.Option("--variant", help="Turn on a variant flag, e.g. two_player."),
]

# Every example the lab commands' --help gives, under the game whose standard pack holds
# it: tests/lab/test_pack.py tries each on that pack, so no example names a card, field
# or label the pack lacks (a designer copies them).
Examples = dict[str, tuple[str, ...]]
SWEEP_EXAMPLES: Examples = {
    "hack-and-slash": (
        "quest[The Dragon's Hoard].reward=6,8,10",
        "brag.goal=2..5",
        "round_limit=10,20",
        "players=3,4,5",
    ),
    "here-to-slay": ("leader[The Wild Hawk].skill.bonus=1..3",),
}
TUNE_PARAM_EXAMPLES: Examples = {
    "hack-and-slash": ("quest[Rats in the Cellar].reward=1..20", "brag.goal=3,4,5"),
    "here-to-slay": ("monster[Grimtooth Ogre].slay_roll=6..10",),
}
TUNE_TARGET_EXAMPLES: Examples = {"here-to-slay": ("label:leader",)}
ABLATE_FIELD_EXAMPLES: Examples = {
    "hack-and-slash": ("quest.reward",),
    "here-to-slay": ("monster.slay_roll", "leader.skill.bonus"),
}
ABLATE_HOLDER_EXAMPLES: Examples = {
    "hack-and-slash": ("quest completed",),
    "here-to-slay": ("leader", "monster slain"),
}


def for_games(examples: Examples) -> str:
    """Examples as help shows them: `in hack-and-slash a, b or c; in here-to-slay d`, each
    quoted where a shell would split or glob it."""

    def shown(text: str) -> str:
        return f'"{text}"' if any(c in text for c in " '[") else text

    def listed(texts: tuple[str, ...]) -> str:
        words = [shown(t) for t in texts]
        return " or ".join(words) if len(words) < 3 else f"{', '.join(words[:-1])} or {words[-1]}"

    return "; ".join(f"in {game} {listed(texts)}" for game, texts in examples.items())


def option_value(value: str) -> Any:
    """One option value typed: true/false, an integer, else text."""
    low = value.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    with contextlib.suppress(ValueError):
        return int(low)
    return value.strip()


def parse_options(options: list[str] | None, variants: list[str] | None) -> dict[str, Any]:
    """`key=value` strings into typed options; `key=a,b,c` gives a list (Crits & Tricks'
    `suits=wizard,druid,paladin`)."""
    parsed: dict[str, Any] = {}
    for item in options or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"option '{item}' is not key=value")
        parts = value.split(",")
        typed: Any = [option_value(p) for p in parts] if len(parts) > 1 else option_value(value)
        parsed[key.strip()] = typed
    for flag in variants or []:
        parsed[flag.strip().replace("-", "_")] = True
    if "players" in parsed:
        raise ConfigError("the player count comes from the seats: give one --seat per player")
    return parsed


@app.command()
def games() -> None:
    """List the games with their player counts."""
    from rich.console import Console

    from tavernkeep.games import all_games
    from tavernkeep.terminal.tables import Column, fitted

    rows = []
    for game in all_games():
        players = game.players_text()
        if game.players_note:
            players += f" ({game.players_note})"
        rows.append([game.name, game.title, players, game.kind, game.summary])
    console = Console()
    columns = [
        Column("game"),
        Column("title", prose=True),
        Column("players"),
        Column("kind"),
        Column("about", prose=True),
    ]
    console.print(fitted(columns, rows, console.width))


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="The game, e.g. hack-and-slash.")],
    section: Annotated[
        str | None,
        typer.Option(help="Only this section, e.g. dice (the sections are listed if not)."),
    ] = None,
) -> None:
    """How to play a game: its rules for players, in our own words (paged)."""
    from rich.console import Console

    from tavernkeep.games import get_game
    from tavernkeep.terminal.rules import rules_markdown, show_rules

    chosen = get_game(game)
    rules_markdown(chosen, section)  # a bad section is a one-line error before anything
    show_rules(chosen, section, Console())


pack_app = typer.Typer(
    help="A game's content pack as a file of your own: export the standard pack, check one, "
    "list its numbers.",
    no_args_is_help=True,
)
app.add_typer(pack_app, name="pack")


@pack_app.command("export")
def pack_export(
    game: Annotated[str, typer.Argument(help="The game, e.g. hack-and-slash.")],
    to: Annotated[
        Path | None,
        typer.Option("--to", help="The file to write (default: print it)."),
    ] = None,
    name: Annotated[
        str | None, typer.Option("--pack", help="The built-in pack (default: the game's own).")
    ] = None,
) -> None:
    """A built-in pack's TOML, comments and all: a copy of your own to change, then play
    (`--pack FILE`), check (`pack check`) or measure (`compare standard FILE`)."""
    from tavernkeep.engine.content import resolve_pack_path
    from tavernkeep.engine.errors import ConfigError
    from tavernkeep.games import get_game

    chosen = get_game(game)
    # The game's own pack by default: Rage's is its map, "village".
    name = name or chosen.load_pack(None).name
    _, path = resolve_pack_path(name, chosen.content_dir)
    text = path.read_text(encoding="utf-8")
    if to is None:
        typer.echo(text, nl=False)
        return
    if to.exists():
        raise ConfigError(f"--to {to}: the file exists already; name a new one")
    if not to.parent.is_dir():
        raise ConfigError(f"--to {to}: no such folder '{to.parent}'")
    to.write_text(text, encoding="utf-8")
    typer.echo(f"{chosen.title}'s {name} pack written to {to}")


@pack_app.command("check")
def pack_check(
    file: Annotated[Path, typer.Argument(help="The pack file, e.g. mine.toml.")],
    game: Annotated[
        str | None,
        typer.Option("--game", "-g", help="Its game (found from the file if not given)."),
    ] = None,
) -> None:
    """Validate a pack file as a game loads it: one line naming the first mistake and its
    line, or what the pack holds, after a warning line for each card whose text says a
    number its fields do not hold."""
    from tavernkeep.lab.compare import checked_pack

    chosen, pack = checked_pack(str(file), game)
    # Warnings on stderr, as every other warning: stdout stays the one line that says
    # the pack is valid, and a valid pack exits 0 whatever its text says.
    for warning in pack.warnings:
        typer.echo(f"warning: {warning}", err=True)
    count = len(pack.warnings)
    warned = f", {count} warning{'' if count == 1 else 's'}" if count else ""
    typer.echo(f"{file}: a valid {chosen.title} pack ({pack.name}){warned}")


@pack_app.command("params")
def pack_params(
    game: Annotated[str, typer.Argument(help="The game, e.g. hack-and-slash.")],
    name: Annotated[
        str | None,
        typer.Option("--pack", help="A built-in pack or a .toml file (default: the game's own)."),
    ] = None,
    fields: Annotated[
        bool,
        typer.Option(
            "--fields", help="Instead, every KIND.FIELD ablate --field takes, and its entries."
        ),
    ] = False,
) -> None:
    """Every number of a pack, one a line, as sweep --set and tune --param name it, with
    its value in the pack (or ablate's fields, with --fields)."""
    from tavernkeep.games import get_game
    from tavernkeep.lab.ablate import ablate_fields
    from tavernkeep.lab.sweep import number_paths, raw_pack

    _, raw = raw_pack(get_game(game), name)
    if fields:
        for field, held in ablate_fields(raw):
            typer.echo(f"{field} ({held} entries)")
        return
    for path, value in number_paths(raw):
        typer.echo(f"{path} = {value}")


ratings_app = typer.Typer(
    help="Ratings of people and bots (the server's leaderboards): rate bots among themselves.",
    no_args_is_help=True,
)
app.add_typer(ratings_app, name="ratings")


@ratings_app.command("seed")
def ratings_seed(
    game: Annotated[str, typer.Argument(help="The game, e.g. hack-and-slash.")],
    games: Annotated[int, typer.Option(help="Rated bot games to play.", min=1)] = 20,
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            help="A bot to rate; repeat for each (default: the lobby's bots, the search "
            "thinking its 300 ms a decision).",
        ),
    ] = None,
    players: Annotated[
        int | None, typer.Option(help="Seats at each table (default: the game's usual).", min=1)
    ] = None,
    seed: SeedOpt = None,
    database_url: Annotated[
        str, typer.Option(help="The server's database: sqlite:///file.db or postgresql://...")
    ] = "sqlite:///tavernkeep.db",
) -> None:
    """Play rated games among bots and rate them into a server's database, on the scale
    its rated tables rate people on; then print the game's leaderboard."""
    from tavernkeep.server.bot_ratings import seed_ratings
    from tavernkeep.server.skill import bot_label, shown
    from tavernkeep.server.storage import Storage

    storage = Storage(database_url)
    every = max(1, games // 10)

    def progress(done: int) -> None:
        if done % every == 0 or done == games:
            typer.echo(f"played {done:,} of {games:,} rated games", err=True)

    try:
        board = seed_ratings(storage, game, games, bot, players, seed, progress)
    finally:
        storage.close()
    typer.echo("| # | who | rating | rated games |")
    typer.echo("|---|---|---|---|")
    for place, entry in enumerate(board, start=1):
        if entry.kind == "bot":
            who = f"{bot_label(entry.subject)} ({entry.subject})"
        elif entry.kind == "account":
            who = entry.name or "a person"
        else:
            who = "the game itself"
        rating = shown(entry.mu, entry.sigma)
        band = f"{rating['rating']:,} ± {rating['plus_minus']:,}"
        typer.echo(f"| {place} | {who} | {band} | {entry.games:,} |")


def default_seats(name: str) -> list[str]:
    """You, and bots for the rest of the game's usual table: in a competitive game two
    heuristic bots and a random one (Hack & Slash's four), in a co-operative game the
    bot team beside you, in a solo game nobody."""
    from tavernkeep.games import get_game

    game = get_game(name)
    players = int(getattr(game.make_config({}), "players", game.min_players))
    if game.kind == "competitive":
        return ["human", *["bot:heuristic"] * (players - 2), "bot:random"]
    return ["human", *["bot:heuristic"] * (players - 1)]


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="The game, e.g. hack-and-slash.")] = "hack-and-slash",
    seat: SeatOpt = None,
    seed: SeedOpt = None,
    record: Annotated[
        str | None,
        typer.Option(metavar="FILE", help="Save the game record (JSON) here, even if you quit."),
    ] = None,
    pack: PackOpt = None,
    option: OptionOpt = None,
    variant: VariantOpt = None,
    delay: Annotated[
        float, typer.Option(help="Seconds to pause after each bot move.", min=0.0)
    ] = 0.6,
    advice: Annotated[
        bool,
        typer.Option(
            help="The tutor: beside each choice, the search's chance to win with it, "
            "worked out from what your seat can see (about half a second a decision)."
        ),
    ] = False,
) -> None:
    """Play a game in the terminal, against bots or friends at one keyboard."""
    from tavernkeep.terminal.play import play_game

    if record is not None and not record.strip():
        raise ConfigError("--record needs a file name, e.g. --record game.json")
    seats = seat or default_seats(game)
    where = Path(record) if record is not None else None
    play_game(game, seats, seed, parse_options(option, variant), pack, where, delay, advice)


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A game record (JSON) to replay.")],
    check: Annotated[
        bool, typer.Option(help="Only verify that it replays to the recorded result.")
    ] = False,
    delay: Annotated[
        float | None,
        typer.Option(
            help="Step automatically with this pause (seconds) instead of waiting for Enter.",
            min=0.0,
        ),
    ] = None,
    pack: Annotated[
        str | None,
        typer.Option(
            "--pack",
            "--map",
            help="The pack the game was played with, if not a built-in one: a record may "
            "name a built-in pack, never a file to read.",
        ),
    ] = None,
) -> None:
    """Step through a recorded game, or check that it replays exactly."""
    from tavernkeep.terminal.replay import check_record, show_replay

    if check:
        check_record(record, pack)
    else:
        show_replay(record, delay, pack)


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="The game, e.g. hack-and-slash.")],
    seat: SeatOpt = None,
    games_: Annotated[int, typer.Option("--games", "-n", help="How many games.", min=1)] = 1000,
    workers: WorkersOpt = 1,
    seed: SeedOpt = None,
    pack: PackOpt = None,
    option: OptionOpt = None,
    variant: VariantOpt = None,
    json_: JsonOpt = False,
    out: OutOpt = None,
    ray: RayOpt = None,
    tolerance: TolOpt = 2.0,
) -> None:
    """Play many bot games in parallel and report win rates with 95% intervals.

    A game that names options to balance across (Side Quest: scenario and heroes) is
    played in every combination the command leaves open, and reported as one table.
    With --out every game is also written as a row of a Parquet file (see `report`)."""
    from tavernkeep.games import get_game
    from tavernkeep.lab.grid import open_axes, run_grid
    from tavernkeep.lab.simulate import run_simulation
    from tavernkeep.lab.stats import tolerance_points

    tol = tolerance_points(tolerance)
    options = parse_options(option, variant)
    chosen = get_game(game)
    if out is not None:
        from tavernkeep.lab.results import check_destination

        check_destination(out)
    axes = open_axes(chosen, options, bool(seat))
    if axes:
        run_grid(chosen, axes, seat, games_, workers, seed, options, pack, json_, out, ray)
        return
    seats = seat or ["bot:heuristic", "bot:random", "bot:random"]
    run_simulation(game, seats, games_, workers, seed, options, pack, json_, out, ray, tol)


@app.command()
def report(
    results: Annotated[Path, typer.Argument(help="A results file from simulate or sweep --out.")],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="The HTML file to write (default: beside the results)."),
    ] = None,
    tolerance: TolOpt = 2.0,
    add: Annotated[
        list[Path] | None,
        typer.Option(
            "--add",
            help="A lab's answer to add: the JSON that ablate, tune or ladder printed with "
            "--json, for the same game. Repeat for more.",
        ),
    ] = None,
) -> None:
    """Write an HTML balance report (plots, intervals, flags, tallies) from a results file,
    with a section for each lab answer given with --add."""
    from tavernkeep.lab.report import write_report
    from tavernkeep.lab.stats import tolerance_points

    target = out or results.with_suffix(".html")
    write_report(results, target, tolerance_points(tolerance), add or [])
    typer.echo(f"report written to {target}")


@app.command()
def sweep(
    game: Annotated[str, typer.Argument(help="The game, e.g. hack-and-slash.")],
    set_: Annotated[
        list[str],
        typer.Option(
            "--set",
            help="What to vary and its values, v1,v2,... or every integer LOW..HIGH: a "
            "number in the pack (tavernkeep pack params GAME lists them) or a game option, "
            f"e.g. {for_games(SWEEP_EXAMPLES)}. One --set a sweep.",
        ),
    ],
    seat: SeatOpt = None,
    games_: Annotated[
        int, typer.Option("--games", "-n", help="How many games for each value.", min=1)
    ] = 1000,
    workers: WorkersOpt = 1,
    seed: SeedOpt = None,
    pack: PackOpt = None,
    option: OptionOpt = None,
    variant: VariantOpt = None,
    json_: JsonOpt = False,
    out: OutOpt = None,
    ray: RayOpt = None,
) -> None:
    """Play the same games with each value of one content number or option, and show how
    balance moves: win rates with 95% intervals, game length and endings for each value."""
    from tavernkeep.engine.errors import ConfigError
    from tavernkeep.lab.sweep import run_sweep

    if len(set_) != 1:
        # Never the last one quietly: a grid of two settings is two sweeps' worth of games.
        raise ConfigError(
            f"sweep takes one --set, not {len(set_)}: sweep one setting at a time "
            "(or compare two packs with tavernkeep compare)"
        )
    if out is not None:
        from tavernkeep.lab.results import check_destination

        check_destination(out)
    run_sweep(
        game,
        set_[0],
        seat,
        games_,
        workers,
        seed,
        parse_options(option, variant),
        pack,
        json_,
        out,
        ray,
    )


@app.command()
def tune(
    game: Annotated[str, typer.Argument(help="The game, e.g. hack-and-slash.")],
    param: Annotated[
        list[str],
        typer.Option(
            "--param",
            "-p",
            help="A number the search may move, as sweep names it (tavernkeep pack params "
            "GAME lists them), with a range or values, e.g. "
            f"{for_games(TUNE_PARAM_EXAMPLES)}. Repeat for more.",
        ),
    ],
    target: Annotated[
        list[str],
        typer.Option(
            "--target",
            "-t",
            help="What balance means: fair[:TOL] (every seat's fair share), "
            "label:NAME[:TOL] (a seat fact's labels level with each other, e.g. "
            f"{for_games(TUNE_TARGET_EXAMPLES)}), turns=N[:TOL], team=P[:TOL]. Repeat.",
        ),
    ],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            help="A folder for the search's trials (run again to resume) and the best "
            "candidates' patches and packs.",
        ),
    ] = Path("tune"),
    seat: SeatOpt = None,
    trials: Annotated[int, typer.Option(help="Candidates tried in each run.", min=1)] = 40,
    games_: Annotated[
        int, typer.Option("--games", "-n", help="Games a candidate, on the same seeds.", min=1)
    ] = 2000,
    runs: Annotated[int, typer.Option(help="Independent runs of the search.", min=1)] = 2,
    holdout: Annotated[
        int, typer.Option(help="Fresh games to check each run's best on.", min=1)
    ] = 10000,
    least_change: Annotated[
        float,
        typer.Option(
            "--least-change",
            help="Weight against moving the pack: 0 ignores it; 1 weighs each param's whole "
            "range as one tolerance missed.",
            min=0.0,
        ),
    ] = 0.0,
    workers: WorkersOpt = 1,
    seed: SeedOpt = None,
    pack: PackOpt = None,
    option: OptionOpt = None,
    variant: VariantOpt = None,
    json_: JsonOpt = False,
    ray: RayOpt = None,
) -> None:
    """Search the pack's numbers for the values that best meet balance targets, check the
    best on fresh games, and write each as a TOML patch and a ready pack."""
    from tavernkeep.lab.tune import run_tune

    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out}: is a file, not a folder")
    run_tune(
        game,
        param,
        target,
        seat,
        trials,
        games_,
        runs,
        holdout,
        workers,
        seed,
        parse_options(option, variant),
        pack,
        least_change,
        out,
        json_,
        ray,
    )


@app.command()
def ablate(
    game: Annotated[str, typer.Argument(help="The game, e.g. hack-and-slash.")],
    field: Annotated[
        str,
        typer.Option(
            "--field",
            help="The kind of entry and its number, as sweep names it in an entry "
            "(tavernkeep pack params GAME --fields lists them), e.g. "
            f"{for_games(ABLATE_FIELD_EXAMPLES)}.",
        ),
    ],
    holder: Annotated[
        str | None,
        typer.Option(
            "--holder",
            help="Who holds an entry in a game: a tally kind or a seat fact of the game, "
            f"e.g. {for_games(ABLATE_HOLDER_EXAMPLES)}.",
        ),
    ] = None,
    step: Annotated[float, typer.Option(help="The number's step up to try.")] = 1.0,
    entry: Annotated[
        list[str] | None,
        typer.Option(
            "--entry",
            help="Ablate only this entry, by name (repeat for several); every one if not given.",
        ),
    ] = None,
    seat: SeatOpt = None,
    games_: Annotated[
        int, typer.Option("--games", "-n", help="Games a variant, on the same seeds.", min=2)
    ] = 2000,
    tolerance: Annotated[
        float,
        typer.Option(
            "--tolerance",
            help="Win-rate points (2 = 2 points): an effect whose interval lies within "
            "this of none is no effect.",
        ),
    ] = 2.0,
    workers: WorkersOpt = 1,
    seed: SeedOpt = None,
    pack: PackOpt = None,
    option: OptionOpt = None,
    variant: VariantOpt = None,
    json_: JsonOpt = False,
    ray: RayOpt = None,
) -> None:
    """For each entry of a kind, play the same games with its number at the kind's median
    and one step up: what the entry itself does for the seats that hold it in both (a
    cause, paired game by game), beside how its holders won (a correlation, labelled so)."""
    from tavernkeep.lab.ablate import run_ablate
    from tavernkeep.lab.stats import tolerance_points

    run_ablate(
        game,
        field,
        holder,
        step,
        seat,
        games_,
        workers,
        seed,
        parse_options(option, variant),
        pack,
        tolerance_points(tolerance),
        json_,
        ray,
        only=list(entry or []),
    )


@app.command()
def compare(
    base: Annotated[
        str,
        typer.Argument(
            help="The pack as it was: a built-in name or a .toml file (or a .parquet results file)."
        ),
    ],
    changed: Annotated[
        str,
        typer.Argument(help="The pack as changed (or a .parquet results file of the same seeds)."),
    ],
    game: Annotated[
        str | None,
        typer.Option(
            "--game", "-g", help="The game of the packs (found from the packs if not given)."
        ),
    ] = None,
    seat: SeatOpt = None,
    games_: Annotated[
        int, typer.Option("--games", "-n", help="Games each pack, on the same seeds.", min=2)
    ] = 2000,
    workers: WorkersOpt = 1,
    seed: SeedOpt = None,
    option: OptionOpt = None,
    variant: VariantOpt = None,
    html: Annotated[
        Path | None, typer.Option("--html", help="Also write the comparison as an HTML page.")
    ] = None,
    json_: JsonOpt = False,
    ray: RayOpt = None,
) -> None:
    """What a change to a pack did: both packs played on the same seeds (or two results
    files read), and every difference stated with its 95% interval: what changed, each
    seat's win rate, the game's length, and the cards the change touched first."""
    from tavernkeep.engine.records import destination_problem
    from tavernkeep.lab.compare import is_results, pack_game, run_compare
    from tavernkeep.lab.results import ResultsError

    if html is not None:
        # Checked before any game is played: an hour's comparison is not lost at the end.
        where = "a folder" if html.is_dir() else destination_problem(html)
        if where is not None:
            raise ResultsError(f"--html {html}: cannot write the page there: {where}")
    name = game
    if name is None and not is_results(base):
        name = pack_game(changed)
    run_compare(
        name,
        base,
        changed,
        seat,
        games_,
        workers,
        seed,
        parse_options(option, variant),
        json_,
        html,
        ray,
    )


@app.command()
def ladder(
    game: Annotated[str, typer.Argument(help="The game, e.g. here-to-slay.")],
    players: Annotated[
        list[int] | None,
        typer.Option(
            "--players", help="A table size to climb at (repeatable; default the usual).", min=1
        ),
    ] = None,
    games_: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            help="Most games (seeds, in a team game) a rung plays against the one below.",
            min=8,
        ),
    ] = 200,
    start: Annotated[
        int, typer.Option(help="The search's first rung, in iterations a decision.", min=1)
    ] = 50,
    top: Annotated[
        int, typer.Option(help="The search's highest rung, in iterations a decision.", min=1)
    ] = 800,
    seat_games: Annotated[
        int,
        typer.Option(
            help="Games of heuristic bots for the first seat's advantage (0: skip).", min=0
        ),
    ] = 2000,
    workers: WorkersOpt = 1,
    seed: SeedOpt = None,
    pack: PackOpt = None,
    option: OptionOpt = None,
    variant: VariantOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Climb the skill ladder (random, heuristic, the search at doubling budgets, each
    against the rung below, until one is not clearly stronger): how many rungs, the top
    one against random, the first seat's advantage and how much luck decides."""
    from tavernkeep.lab.ladder import run_ladder

    run_ladder(
        game,
        players,
        games_,
        start,
        top,
        seat_games,
        workers,
        seed,
        parse_options(option, variant),
        pack,
        json_,
    )


@app.command()
def levels(
    game: Annotated[str, typer.Argument(help="The game, e.g. crits-and-tricks.")],
    easy: Annotated[
        int,
        typer.Option(
            help="The easy bot's slips: the % of decisions it takes at random.", min=1, max=99
        ),
    ] = 40,
    hard: Annotated[
        str | None, typer.Option(help="A search to offer as hard, e.g. bot:mcts:200.")
    ] = None,
    expert: Annotated[
        str | None, typer.Option(help="A search to offer as expert, e.g. bot:mcts:1000.")
    ] = None,
    games_: Annotated[
        int,
        typer.Option(
            "--games", "-n", help="Games a level plays (a rotation each, competitive).", min=8
        ),
    ] = 1000,
    workers: WorkersOpt = 1,
    seed: SeedOpt = None,
    write: Annotated[
        bool, typer.Option(help="Write the levels offered into the game's levels.toml.")
    ] = False,
    json_: JsonOpt = False,
) -> None:
    """Measure a game's difficulty levels against normal (its heuristic bot): easy (normal
    slipping), and hard and expert searches, each offered only where clearly stronger."""
    from tavernkeep.lab.levels import run_levels

    run_levels(game, easy, hard, expert, games_, workers, seed, write, json_)


@app.command()
def odds(
    expression: Annotated[str, typer.Argument(help="Dice and a goal, e.g. '3d6>=12' or '2d6==7'.")],
    rescue: Annotated[
        bool, typer.Option(help="Also show the chance with one rescue re-roll of the best die.")
    ] = False,
) -> None:
    """Print the exact chance that a roll meets a goal."""
    from tavernkeep.engine.odds import OddsError, format_odds

    try:
        typer.echo(format_odds(expression, rescue))
    except OddsError as exc:
        raise ConfigError(str(exc)) from None


@app.command()
def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    database_url: Annotated[
        str,
        typer.Option(
            help="sqlite:///file.db (default, created on first start) or postgresql://..."
        ),
    ] = "sqlite:///tavernkeep.db",
    bot_delay: Annotated[
        float,
        typer.Option(
            help="Seconds a bot waits before it acts (a quarter of it before a pass).", min=0.0
        ),
    ] = 0.8,
    pass_delay: Annotated[
        float,
        typer.Option(
            help="Median seconds before passing for a person with nothing to play, until "
            "their own passes say how long they take (PROTOCOL.md).",
            min=0.0,
        ),
    ] = 2.0,
    max_search_ms: Annotated[
        int, typer.Option(help="The most a table's search bot may think a decision.", min=1)
    ] = 2000,
    max_search_iterations: Annotated[
        int, typer.Option(help="The most iterations a table's search bot may run.", min=1)
    ] = 5000,
    search_workers: Annotated[
        int | None,
        typer.Option(help="Processes that run search bots (default: the cores less one).", min=1),
    ] = None,
    search_seconds_a_minute: Annotated[
        float,
        typer.Option(
            help="Search time one address's tables may use a minute before their searches "
            "are cut to 100 ms a decision (PROTOCOL.md).",
            min=0.0,
        ),
    ] = 30.0,
    tables_per_minute: Annotated[
        float, typer.Option(help="New tables one address may open a minute.", min=0.0)
    ] = 10.0,
    max_open_tables: Annotated[
        int, typer.Option(help="Unfinished tables the server keeps at once.", min=1)
    ] = 1000,
    sockets_per_client: Annotated[
        int, typer.Option(help="WebSockets one address may hold open.", min=1)
    ] = 64,
    header_timeout: Annotated[
        float,
        typer.Option(help="Seconds a connection has to send its request's headers.", min=0.1),
    ] = 10.0,
    archive_after_days: Annotated[
        float,
        typer.Option(
            help="Days an unfinished table with nobody at it may go without a move "
            "before it is archived out of the open list.",
            min=0.001,
        ),
    ] = 14.0,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes to start on this host, sharing the port (needs "
            "PostgreSQL; more processes and hosts may join the same database).",
            min=1,
            max=64,
        ),
    ] = 1,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            help="A trained policy's file that tables may seat, as bot:policy:PATH "
            "(repeatable); no other policy is read.",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            envvar="TAVERNKEEP_PUBLIC_URL",
            help="The address people open, as https://host[:port], when it is not "
            "http://HOST:PORT (behind a proxy that serves TLS): passkeys and the session "
            "cookie are bound to it.",
        ),
    ] = None,
    accounts_per_hour: Annotated[
        float, typer.Option(help="Passkey accounts one address may create an hour.", min=0.0)
    ] = 6.0,
    sign_ins_per_minute: Annotated[
        float, typer.Option(help="Passkey sign-ins one address may begin a minute.", min=0.0)
    ] = 10.0,
    designer_key: Annotated[
        str | None,
        typer.Option(
            envvar="TAVERNKEEP_DESIGNER_KEY",
            help="The key that opens the designer's workbench (/workbench) to browsers on "
            "other machines (at least 12 characters; the environment variable keeps it out "
            "of the process list). Without it the workbench is this machine's alone.",
            show_default=False,
        ),
    ] = None,
    reuse_port: Annotated[bool, typer.Option(hidden=True)] = False,
) -> None:
    """Start the web app: lobby, tables and live play in the browser."""
    from tavernkeep.agents.policy import load_policy
    from tavernkeep.server.app import create_app, run
    from tavernkeep.server.origins import public_origin
    from tavernkeep.server.rooms import Limits
    from tavernkeep.server.search import SearchLimits, default_workers
    from tavernkeep.server.storage import Storage, normalise_url, safe_url
    from tavernkeep.server.workers import supervise

    if workers > 1 and not normalise_url(database_url).startswith("postgresql"):
        raise ConfigError(
            f"--workers {workers} needs PostgreSQL (--database-url postgresql://...): "
            "a SQLite database is one server process's"
        )
    # The server reads only the policy files its operator names, each checked now: a
    # stranger's table cannot name a file on the server's disk.
    policies = tuple(f"bot:policy:{path}" for path in policy or [])
    for path in policy or []:
        load_policy(path)
    public_origin(public_url)  # a bad --public-url is one line here, not one a process
    if designer_key is not None and len(designer_key.strip()) < 12:
        raise ConfigError("--designer-key: a key of at least 12 characters, not a guessable one")
    if not reuse_port:
        # The address first: a busy port must not leave a new database file behind.
        check_listening(host, port)
    if workers > 1:
        # The database first, here: a bad URL is one line, not N processes started again
        # and again; and a new database is made once, before they start.
        Storage(database_url).close()
        # Each process is `serve` again, on the same port (SO_REUSEPORT: the kernel
        # spreads new connections among them), kept running by this one.
        params = dict(ctx.params)
        params.pop("workers")
        params["reuse_port"] = True
        if params.pop("designer_key", None) is not None:
            # To each process through its environment, never its command line.
            os.environ["TAVERNKEEP_DESIGNER_KEY"] = str(designer_key)
        args = [sys.executable, "-m", "tavernkeep.cli", "serve"]
        for name, value in params.items():
            flag = "--" + name.replace("_", "-")
            if isinstance(value, bool):
                args += [flag] if value else []
            elif isinstance(value, (list, tuple)):  # a repeatable option: () if not given
                for each in value:
                    args += [flag, str(each)]
            elif value is not None:
                args += [flag, str(value)]
        typer.echo(
            f"tavernkeep: {workers} processes at http://{host}:{port}/  "
            f"(database {safe_url(database_url)})"
        )
        raise typer.Exit(supervise(args, workers))
    limits = Limits(
        search=SearchLimits(max_search_ms, max_search_iterations, search_seconds_a_minute),
        search_workers=search_workers or default_workers(),
        tables_per_minute=tables_per_minute,
        open_tables=max_open_tables,
        sockets_per_client=sockets_per_client,
        archive_after=archive_after_days * 86400.0,
        accounts_per_hour=accounts_per_hour,
        sign_ins_per_minute=sign_ins_per_minute,
        policies=policies,
    )
    web = create_app(
        database_url,
        bot_delay,
        limits,
        pass_delay,
        warm_search=True,
        public_url=public_url,
        designer_key=designer_key,
    )
    storage = web.state.tavern.storage
    # Among several processes, each says which it is: the id the database knows it by.
    among = f", server process {storage.me}" if storage.shared else ""
    typer.echo(f"tavernkeep: http://{host}:{port}/  (database {safe_url(database_url)}{among})")
    run(web, host, port, header_timeout, reuse_port)


@app.command()
def workbench(
    ctx: typer.Context,
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    database_url: Annotated[
        str, typer.Option(help="sqlite:///file.db (default) or postgresql://...")
    ] = "sqlite:///tavernkeep.db",
    browser: Annotated[
        bool, typer.Option("--browser/--no-browser", help="Open the workbench in the browser.")
    ] = True,
) -> None:
    """The designer's workbench in your browser: packs as forms, and what a change does.
    Serves on 127.0.0.1, for this machine alone (serve --designer-key opens a server's)."""
    url = f"http://127.0.0.1:{port}/workbench"
    if browser:
        threading.Thread(target=open_when_up, args=(url, port), daemon=True).start()
    typer.echo(f"tavernkeep: the workbench at {url}")
    serve(ctx, host="127.0.0.1", port=port, database_url=database_url, designer_key=None)


def open_when_up(url: str, port: int, seconds: float = 30.0) -> None:
    """Open `url` in the browser once the server answers on `port` (nothing if it never
    does: its own error is the one line said)."""
    import time
    import webbrowser

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            webbrowser.open(url)
            return
        time.sleep(0.2)

def check_listening(host: str, port: int) -> None:
    """ConfigError in one line if a server could not listen on host:port (no such host,
    the port in use): uvicorn would say so in six lines of log and exit 3. The port is
    bound and let go at once, so uvicorn takes it a moment later."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else "not a host name"
        raise ConfigError(f"cannot listen on {host}:{port}: no such address ({reason})") from None
    with socket.socket(family, kind, proto) as probe:
        # As uvicorn binds: a port left in TIME_WAIT by a server just stopped is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                reason = "the port is in use (another server runs there; try --port)"
            else:
                reason = exc.strerror or type(exc).__name__
            raise ConfigError(f"cannot listen on {host}:{port}: {reason}") from None


def ray_address(args: list[str]) -> list[str]:
    """`--ray` may stand alone (a Ray started here) or take an address; click options
    cannot take an optional value, so a bare `--ray` is spelled out as `--ray=local`.
    What follows is an address only if it looks like one (host:port, ray://..., auto),
    so `simulate --ray hack-and-slash` still names the game."""
    out: list[str] = []
    for i, arg in enumerate(args):
        if arg == "--ray":
            following = args[i + 1] if i + 1 < len(args) else ""
            if not (":" in following or following in ("auto", "local")):
                out.append("--ray=local")
                continue
        out.append(arg)
    return out


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning every user error into one line and exit 2."""
    command = typer.main.get_command(app)
    args = ray_address(sys.argv[1:] if argv is None else argv)
    try:
        command.main(args=args, prog_name="tavernkeep", standalone_mode=False)
    except click_exceptions.NoArgsIsHelpError:
        return 0
    except click_exceptions.ClickException as exc:
        # Usage errors and bad parameters: the one line click would bury under usage.
        ctx = getattr(exc, "ctx", None)
        where = ctx.command_path if ctx is not None else "tavernkeep"
        print(f"{where}: error: {exc.format_message()}", file=sys.stderr)
        return 2
    except typer.Abort:
        print("tavernkeep: aborted", file=sys.stderr)
        return 130
    except TavernkeepError as exc:
        print(f"tavernkeep: error: {exc}", file=sys.stderr)
        return 2
    except typer.Exit as exc:
        return int(exc.exit_code)
    return 0


if __name__ == "__main__":
    sys.exit(main())
