"""The rating model (server/skill.py, issue 44, item 3): how a finished game's result
becomes the places it rates, which tables may be rated, and how a rating is shown. No
server here: the rules alone."""

from __future__ import annotations

import pytest

from tavernkeep.engine.errors import ConfigError
from tavernkeep.server.skill import (
    ACCOUNT,
    BOT,
    GAME,
    THE_GAME,
    Placing,
    Skill,
    Subject,
    bot_label,
    check_rated_table,
    outcome,
    places,
    rate,
    rated_subjects,
    shown,
)

BEA, CY = Subject(ACCOUNT, "bea-id"), Subject(ACCOUNT, "cy-id")
HEURISTIC, RANDOM = Subject(BOT, "bot:heuristic"), Subject(BOT, "bot:random")
THE = Subject(GAME, THE_GAME)


def ranks_of(placings: list[Placing]) -> dict[Subject, int]:
    out: dict[Subject, int] = {}
    for placing in placings:
        for member in placing.members:
            out[member] = min(placing.rank, out.get(member, placing.rank))
    return out


def test_a_competitive_result_places_each_seat_by_its_rank_ties_shared() -> None:
    result = {"ranks": [2, 1, 2], "won": None}
    placings = places(result, [BEA, CY, RANDOM], set())
    assert [(p.members, p.rank) for p in placings] == [((BEA,), 2), ((CY,), 1), ((RANDOM,), 2)]
    assert outcome(placings, CY) == (1, 3, True)
    assert outcome(placings, BEA) == (2, 3, False)
    # A place is 1 + the seats strictly ahead, as the games rank: behind two who shared
    # the victory is third, not second; ranks with a gap (1, 3, 3) close it.
    behind_a_shared_win = places({"ranks": [1, 1, 3]}, [BEA, CY, RANDOM], set())
    assert [p.rank for p in behind_a_shared_win] == [1, 1, 3]
    assert outcome(behind_a_shared_win, RANDOM) == (3, 3, False)
    assert [p.rank for p in places({"ranks": [3, 1, 3]}, [BEA, CY, RANDOM], set())] == [2, 1, 2]
    # A result that is no result of these seats rates nothing.
    assert places({"ranks": [1, 2]}, [BEA, CY, RANDOM], set()) == []
    assert places({"ranks": [1, 1]}, [BEA, CY], set()) == []  # a draw of two tells nothing


def test_a_seat_a_stand_in_played_for_comes_last() -> None:
    # Bea won with the search playing for her: she is placed behind everyone.
    placings = places({"ranks": [1, 2, 3]}, [BEA, CY, RANDOM], {0})
    assert ranks_of(placings) == {CY: 1, RANDOM: 2, BEA: 3}
    assert outcome(placings, BEA) == (3, 3, False)
    # Two forfeits keep their own order between them, behind the rest.
    placings = places({"ranks": [2, 1, 3]}, [BEA, CY, RANDOM], {0, 1})
    assert ranks_of(placings) == {RANDOM: 1, CY: 2, BEA: 3}


def test_a_cooperative_or_solo_table_plays_the_game() -> None:
    won = places({"ranks": [1, 1], "won": True}, [BEA, HEURISTIC], set())
    assert [(p.members, p.rank) for p in won] == [((BEA, HEURISTIC), 1), ((THE,), 2)]
    lost = places({"ranks": [1], "won": False}, [BEA], set())
    assert ranks_of(lost) == {THE: 1, BEA: 2}
    after = rate(won, {})
    assert after[BEA].mu > 25 > after[THE].mu and after[BEA].games == 1
    # A leaver is behind even the game, whatever the team did.
    placings = places({"ranks": [1, 1], "won": True}, [BEA, CY], {1})
    assert ranks_of(placings) == {BEA: 1, THE: 2, CY: 3}
    alone = places({"ranks": [1], "won": True}, [BEA], {0})
    assert ranks_of(alone) == {THE: 1, BEA: 3}


def test_a_bot_at_two_seats_is_rated_once_for_the_game() -> None:
    placings = places({"ranks": [1, 2, 3]}, [HEURISTIC, BEA, HEURISTIC], set())
    after = rate(placings, {HEURISTIC: Skill(30.0, 2.0, 40)})
    assert after[HEURISTIC].games == 41  # one game, not two
    first = rate([Placing((HEURISTIC,), 1), Placing((BEA,), 2)], {HEURISTIC: Skill(30.0, 2.0)})
    last = rate([Placing((BEA,), 1), Placing((HEURISTIC,), 2)], {HEURISTIC: Skill(30.0, 2.0)})
    # Its seats' first and last: the mean of the two ratings it would have had.
    assert after[HEURISTIC].mu == pytest.approx(
        (first[HEURISTIC].mu + last[HEURISTIC].mu) / 2, abs=0.05
    )
    assert outcome(placings, HEURISTIC) == (1, 3, True)


def test_winning_raises_a_rating_and_every_game_narrows_it() -> None:
    after = rate([Placing((BEA,), 1), Placing((CY,), 2)], {})
    assert after[BEA].mu > 25 > after[CY].mu
    assert after[BEA].sigma < 25 / 3 and after[CY].sigma < 25 / 3
    # Beating a strong player moves a rating more than beating a newcomer.
    strong = rate([Placing((BEA,), 1), Placing((CY,), 2)], {CY: Skill(35.0, 3.0)})
    assert strong[BEA].mu > after[BEA].mu


def test_a_table_is_rated_only_when_every_person_is_their_own_account() -> None:
    assert rated_subjects(["human", "bot:random", "human"], {0: "a", 2: "b"}) == [
        Subject(ACCOUNT, "a"),
        Subject(BOT, "bot:random"),
        Subject(ACCOUNT, "b"),
    ]
    assert rated_subjects(["human", "human"], {0: "a", 1: "a"}) is None  # one in two seats
    assert rated_subjects(["human", "human"], {0: "a", 1: None}) is None  # one not signed in
    assert rated_subjects(["human", "human"], {0: "a"}) is None
    assert rated_subjects(["bot:random", "bot:heuristic"], {}) is None  # no person


def test_a_rated_table_is_refused_where_it_could_be_gamed() -> None:
    people = ["human", "human", "bot:random"]
    check_rated_table(people, [], None, None, "acc")
    check_rated_table(people, [], None, False, "acc")
    for args, said in [
        ((people, [], None, None, None), "sign in"),
        ((["bot:random", "bot:heuristic"], [], None, None, "acc"), "person's seat"),
        ((people, [0], None, None, "acc"), "host's device"),
        ((people, [], 12, None, "acc"), "seed blank"),
        ((people, [], None, True, "acc"), "no tutor"),
    ]:
        with pytest.raises(ConfigError, match=said) as refused:
            check_rated_table(*args)
        assert "\n" not in str(refused.value)


def test_a_rating_is_shown_with_its_band() -> None:
    assert shown(25.0, 25 / 3) == {"rating": 1500, "plus_minus": 1500, "ordinal": 0}
    assert shown(30.0, 2.0) == {"rating": 1800, "plus_minus": 360, "ordinal": 1440}
    assert bot_label("bot:heuristic") == "Heuristic bot"
    assert bot_label("bot:random") == "Random bot"
    assert bot_label("bot:mcts:300ms") == "Search bot (300 ms)"
    assert bot_label("bot:mcts:2000:heuristic") == "Search bot (2,000 iterations, heuristic)"
    assert bot_label("bot:normal") == "Normal bot"  # a level
    assert bot_label("bot:heuristic:slip40") == "Heuristic bot (slip40)"
    # A trained policy's path on the server is nobody's business: its file's stem only.
    assert bot_label("bot:policy:/srv/secret/models/slay.pt") == "Trained policy (slay)"
