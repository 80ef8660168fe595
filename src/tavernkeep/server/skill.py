"""Ratings on one scale for people and bots (issue 44, item 3): the model, how a finished
game's result becomes the places it rates, which tables may be rated, and how a rating is
shown to a person.

- **The model** is openskill's Plackett-Luce (a Weng-Lin model: free-for-all, teams and
  ties alike), one rating a game for each subject, with the library's own defaults
  (mu 25, sigma 25/3, beta 25/6, tau 25/300: the last keeps sigma from shrinking to
  nothing, so a rating still moves after a thousand games).
- **Subjects** are an account (by its id, which is never shown), a bot (by its seat spec,
  `bot:heuristic`, `bot:mcts:300ms`: one rating a game a spec, whether it met people or
  bots), and, in a co-operative or solo game, the game itself: the table's team plays the
  game, which wins when the team loses. So Side Quest and Rage are rated too, and the
  game's own rating reads as its difficulty.
- **Places** come from the game's result (engine `Result`): a competitive game's ranks
  (ties shared); a co-operative or solo game's `won`, the team first or the game first.
  A seat a stand-in bot played for (its person left, or ran out of time) is placed last,
  behind even the game: a person gains nothing by leaving a game they are losing, or by
  letting the search play for them.
- **Shown** as people read a rating: `SCALE` x mu (1,500 to begin with) "±" `SCALE` x
  `BAND` x sigma, the band in which the rating lies with near certainty (3 sigma: 1,500 ±
  1,500 for a newcomer). Leaderboards order by the band's lower edge, openskill's
  ordinal (mu - 3 sigma): a place is what the games say a player is at least.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from tavernkeep.engine.errors import ConfigError

MU = 25.0
SIGMA = 25.0 / 3.0
SCALE = 60.0
"""Display points a unit of mu: a newcomer shows 1,500."""
BAND = 3.0
"""Sigmas either side of a rating that its "±" shows, and below it that a leaderboard
orders by (openskill's ordinal)."""

ACCOUNT, BOT, GAME = "account", "bot", "game"
THE_GAME = "the game"
"""The subject id of a co-operative or solo game's own rating (kind `GAME`)."""


@dataclass(frozen=True, order=True)
class Subject:
    """Whose rating: an account (its id), a bot (its seat spec) or the game itself."""

    kind: str
    id: str


@dataclass(frozen=True)
class Skill:
    """A rating as the model keeps it, and how many rated games it comes from."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0


@dataclass(frozen=True)
class Placing:
    """One place of a rated game: the subjects who share it (a team, or one seat) and its
    rank (1 is first; equal ranks are a tie)."""

    members: tuple[Subject, ...]
    rank: int


def model() -> PlackettLuce:
    """The one model every game is rated with (its defaults: see the module's doc)."""
    return PlackettLuce(mu=MU, sigma=SIGMA)


def shown(mu: float, sigma: float) -> dict[str, int]:
    """A rating as a page shows it: the rating, its "±", and the band's lower edge that
    leaderboards order by."""
    return {
        "rating": round(SCALE * mu),
        "plus_minus": round(SCALE * BAND * sigma),
        "ordinal": round(SCALE * (mu - BAND * sigma)),
    }


def bot_label(spec: str) -> str:
    """A bot's name on a leaderboard, from its seat spec: "Heuristic bot", "Search bot
    (300 ms)". A trained policy is named by its file's stem alone: the server's paths are
    nobody's business."""
    _, _, rest = spec.partition(":")
    name, _, params = rest.partition(":")
    if name == "random":
        return "Random bot"
    if name == "heuristic" and not params:
        return "Heuristic bot"
    if name == "mcts":
        parts = []
        for part in params.split(":") if params else []:
            if part.endswith("ms") and part[:-2].isdigit():
                parts.append(f"{int(part[:-2]):,} ms")
            elif part.isdigit():
                parts.append(f"{int(part):,} iterations")
            else:
                parts.append(part)
        return "Search bot" + (f" ({', '.join(parts)})" if parts else "")
    if name == "policy":
        stem = params.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
        return f"Trained policy ({stem})" if stem else "Trained policy"
    # A level (`bot:normal`) or another bot: its name, and what its spec says of it.
    said = f" ({params.replace(':', ', ')})" if params else ""
    return f"{name.capitalize()} bot{said}" if name else spec


# -- which tables are rated ------------------------------------------------------------------


def check_rated_table(
    seats: Sequence[str],
    device: Sequence[int],
    seed: int | None,
    advice: bool | None,
    account: str | None,
) -> None:
    """ConfigError, one line, unless a table opened with these may be rated: opened by a
    person signed in, with at least one person's seat, each to be claimed by its own
    person signed in (no seat on the host's device), a deal nobody chose, and no tutor."""
    if account is None:
        raise ConfigError("rated: sign in to open a rated table (ratings are kept for accounts)")
    if "human" not in seats:
        raise ConfigError(
            "rated: a rated table needs a person's seat (bots are rated among themselves "
            "by `tavernkeep ratings seed`)"
        )
    if device:
        raise ConfigError(
            "rated: no seat of a rated table is played on the host's device: each person "
            "takes their own, signed in"
        )
    if seed is not None:
        raise ConfigError("rated: a rated table deals at random: leave the seed blank")
    if advice:
        raise ConfigError("rated: a rated table has no tutor: the ratings are the people's own")


def rated_subjects(
    seats: Sequence[str], accounts: Mapping[int, str | None]
) -> list[Subject] | None:
    """The subject of each seat of a rated table as it ended, or None if it may not be
    rated: a person's seat that no account holds, one account at two seats, or no person
    at all."""
    out: list[Subject] = []
    held: set[str] = set()
    for seat, spec in enumerate(seats):
        if spec != "human":
            out.append(Subject(BOT, spec))
            continue
        account = accounts.get(seat)
        if not account or account in held:
            return None
        held.add(account)
        out.append(Subject(ACCOUNT, account))
    return out if held else None


def places(
    result: Mapping[str, Any], seats: Sequence[Subject], forfeits: set[int]
) -> list[Placing]:
    """The places a finished game rates, from its result (`Result.to_json`), each seat's
    subject and the seats a stand-in played for (`forfeits`, placed last). Nothing (an
    empty list) where fewer than two places could be told apart."""
    if result.get("won") is not None:
        # Co-operative or solo: the team against the game; a forfeit behind them both.
        team = tuple(s for seat, s in enumerate(seats) if seat not in forfeits)
        game = Subject(GAME, THE_GAME)
        won = bool(result["won"])
        out = []
        if team:
            out.append(Placing(team, 1 if won else 2))
        out.append(Placing((game,), 2 if won and team else 1))
        out += [Placing((seats[s],), 3) for s in sorted(forfeits) if s < len(seats)]
        return out if len(out) > 1 else []
    ranks = list(result.get("ranks") or [])
    if len(ranks) != len(seats):
        return []
    # Forfeits after everyone else, in their own order; then each seat's place is 1 + the
    # seats strictly ahead of it, as the games rank (1, 1, 3): a person third behind two
    # who shared the victory reads "3rd of 3" on their page, as the table told them.
    keys = [(seat in forfeits, int(rank)) for seat, rank in enumerate(ranks)]
    ordered = sorted(keys)
    out = [Placing((seats[seat],), ordered.index(key) + 1) for seat, key in enumerate(keys)]
    return out if len(set(keys)) > 1 else []


def rate(placings: Sequence[Placing], now: Mapping[Subject, Skill]) -> dict[Subject, Skill]:
    """Every subject's rating after the game, from `now` (a subject not in it starts
    afresh). A subject at several places (one bot spec in two seats) is rated once for the
    game: the mean of its seats' new ratings."""
    if len(placings) < 2:
        return {}
    rating = model()
    teams = [
        [
            rating.rating(mu=now.get(s, Skill()).mu, sigma=now.get(s, Skill()).sigma)
            for s in placing.members
        ]
        for placing in placings
    ]
    after = rating.rate(teams, ranks=[float(p.rank) for p in placings])
    gathered: dict[Subject, list[tuple[float, float]]] = {}
    for placing, team in zip(placings, after, strict=True):
        for subject, new in zip(placing.members, team, strict=True):
            gathered.setdefault(subject, []).append((float(new.mu), float(new.sigma)))
    return {
        subject: Skill(
            sum(mu for mu, _ in seen) / len(seen),
            sum(sigma for _, sigma in seen) / len(seen),
            now.get(subject, Skill()).games + 1,
        )
        for subject, seen in gathered.items()
    }


def outcome(placings: Sequence[Placing], subject: Subject) -> tuple[int, int, bool]:
    """A subject's (place, of, won) in a rated game: its best place, how many places the
    game had (seats; in a co-operative game, the team and the game), and whether it came
    first."""
    first = min(p.rank for p in placings)
    best = min(p.rank for p in placings if subject in p.members)
    return best, len(placings), best == first
