"""Rated tables, the leaderboards and people's pages (issue 44, items 3 and 4): a table
opened rated is rated at its end when every person at it is signed in, one seat an
account; bots are rated on the same scale, as their specs, and a co-operative table plays
the game itself; nothing is rated from a table closed early; and what anyone may read of
a person is their name, ratings and rated games' results, nothing more.

The people sign in with test_accounts.py's software passkeys (`Device`).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.pool import NullPool

from tavernkeep.cli import main
from tavernkeep.server.limits import Limits
from tavernkeep.server.skill import ACCOUNT, BOT, Placing, Subject
from tavernkeep.server.storage import Account, Passkey, Storage, normalise_url


def _accounts_helpers() -> Any:
    """test_accounts.py's passkeys and devices, loaded under a name of their own (test
    modules cannot import one another by name here)."""
    name = "tavernkeep_tests_accounts_helpers"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, Path(__file__).parent / "test_accounts.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


helpers = _accounts_helpers()
Device, app_client, rows, execute = (
    helpers.Device,
    helpers.app_client,
    helpers.rows,
    helpers.execute,
)
SEATS = ["human", "human", "bot:random"]
SHORT = {"round_limit": 2}
RATED = {"rated": True}


@pytest.fixture(autouse=True)
def quick_players(monkeypatch: pytest.MonkeyPatch) -> None:
    # A test plays faster than a person: a Side Quest seat beside an instant bot sent more
    # than the 20 messages a second a socket may (app.RATE_LIMIT), one game in ten.
    from tavernkeep.server import app as server_app

    monkeypatch.setattr(server_app, "RATE_LIMIT", 10_000)


def rated_table(device: Any, seats: list[str] = SEATS, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "hack-and-slash")
    body.setdefault("options", SHORT)
    body.setdefault("settings", RATED)
    created: dict[str, Any] = device.post("/api/tables", 201, json={"seats": seats, **body})
    return created


def claim(device: Any, tk: Any, created: dict[str, Any], seat: int) -> str:
    invite = tk.invites(created)[seat]
    answer = device.post(
        f"/api/tables/{created['id']}/claim", json={"seat": seat, "invite": invite}
    )
    return str(answer["token"])


def play_out(client: Any, tk: Any, table_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    socks = {}
    with tk.join(client, table_id, 0, tokens[0]) as first:
        socks[0] = first
        if 1 in tokens:
            with tk.join(client, table_id, 1, tokens[1]) as second:
                socks[1] = second
                return tk.play_to_end(socks)
        return tk.play_to_end(socks)


def two_people(client: Any) -> tuple[Any, Any]:
    bea, cy = Device(client), Device(client)
    bea.register("Bea")
    cy.register("Cy")
    return bea, cy


def handle_of(device: Any) -> str:
    return str(device.account()["handle"])


def account_ids(url: str) -> set[str]:
    return {r.id for r in rows(url, "SELECT id FROM accounts")}


# -- a rated table, start to end --------------------------------------------------------------


def test_two_people_finish_a_rated_table_and_are_on_the_leaderboard(db_url: str, tk: Any) -> None:
    with app_client(db_url) as client:
        bea, cy = two_people(client)
        for _ in range(20):
            created = rated_table(bea)
            tid = created["id"]
            tokens = {0: claim(bea, tk, created, 0), 1: claim(cy, tk, created, 1)}
            summary = client.get(f"/api/tables/{tid}").json()
            assert summary["settings"]["rated"] is True and summary["settings"]["advice"] is False
            final = play_out(client, tk, tid, tokens)
            ranks = final["result"]["ranks"]
            if len(set(ranks)) > 1:
                break
            # Two rounds of random play can end with every seat on no fame: a game where
            # nobody is ahead of anybody tells no rating anything, and rates nobody.
            assert client.get("/api/leaderboard/hack-and-slash").json()["entries"] == []
        else:
            raise AssertionError("twenty rated games in a row ended all even")
        board = client.get("/api/leaderboard/hack-and-slash").json()
        assert board["title"] == "Hack & Slash" and board["kind"] == "competitive"
        entries = board["entries"]
        assert [e["place"] for e in entries] == [1, 2, 3]
        people = {e["name"]: e for e in entries if e["kind"] == "person"}
        bots = [e for e in entries if e["kind"] == "bot"]
        assert set(people) == {"Bea", "Cy"} and [b["label"] for b in bots] == ["Random bot"]
        for entry in entries:
            assert entry["games"] == 1
            assert 0 < entry["plus_minus"] < 1500  # one game narrows the band
        # Ordered by the band's lower end; the seat placed first by the game rates highest.
        assert [e["ordinal"] for e in entries] == sorted(
            (e["ordinal"] for e in entries), reverse=True
        )
        best = {0: people["Bea"], 1: people["Cy"], 2: bots[0]}[ranks.index(1)]
        assert best["place"] == 1 and best["rating"] > 1500
        # Each person's page: their rated game, with the place the result gave them.
        for device, seat, name in ((bea, 0, "Bea"), (cy, 1, "Cy")):
            page = Device(client).get(f"/api/people/{handle_of(device)}")  # anyone reads it
            assert page["name"] == name and page["handle"] == handle_of(device)
            assert [r["game"] for r in page["ratings"]] == ["hack-and-slash"]
            (game,) = page["games"]
            assert game["place"] == ranks[seat] and game["of"] == 3
            assert game["won"] == (ranks[seat] == 1)
            assert game["rating"] == people[name]["rating"]
        stored = rows(db_url, "SELECT table_id, kind FROM rating_history ORDER BY kind")
        assert [(r.table_id, r.kind) for r in stored] == [(tid, "account")] * 2 + [(tid, "bot")]


def test_a_cooperative_table_is_rated_against_the_game(db_url: str, tk: Any) -> None:
    with app_client(db_url) as client:
        bea = Device(client)
        bea.register("Bea")
        created = rated_table(bea, ["human", "bot:random"], game="side-quest", options={})
        final = play_out(client, tk, created["id"], {0: claim(bea, tk, created, 0)})
        won = final["result"]["won"]
        entries = client.get("/api/leaderboard/side-quest").json()["entries"]
        labels = {e.get("label") or e["name"]: e for e in entries}
        assert set(labels) == {"Bea", "Random bot", "Side Quest itself"}
        assert labels["Side Quest itself"]["kind"] == "game"
        # The team shares its fate; the game has the other.
        assert labels["Bea"]["rating"] == labels["Random bot"]["rating"]
        assert (labels["Bea"]["rating"] > labels["Side Quest itself"]["rating"]) == won
        (game,) = Device(client).get(f"/api/people/{handle_of(bea)}")["games"]
        assert game["won"] == won and game["of"] == 2


def test_a_seat_a_stand_in_played_for_is_placed_last(sqlite_url: str, tk: Any) -> None:
    with app_client(sqlite_url) as client:
        bea, cy = two_people(client)
        created = rated_table(bea)
        tid = created["id"]
        tokens = {0: claim(bea, tk, created, 0), 1: claim(cy, tk, created, 1)}
        with (
            tk.join(client, tid, 0, tokens[0]) as first,
            tk.join(client, tid, 1, tokens[1]) as second,
        ):
            tk.play_to_end({0: first, 1: second}, stop_after=1)
            # One of Bea's decisions was a stand-in's (as when she left, or ran out of time).
            execute(
                sqlite_url, "UPDATE actions SET stand_in = 0 WHERE table_id = :t AND idx = 0", t=tid
            )
            tk.play_to_end({0: first, 1: second})
        (game,) = Device(client).get(f"/api/people/{handle_of(bea)}")["games"]
        assert (game["place"], game["of"], game["won"]) == (3, 3, False)


def test_the_seats_a_stand_in_played_come_last_whatever_the_result(db_url: str, tk: Any) -> None:
    # The same as above with the result fixed: Bea first by the game, a stand-in played
    # one of her decisions, so she is last and Cy first, in the transaction that rates it.
    with app_client(db_url) as client:
        bea, cy = two_people(client)
        created = rated_table(bea)
        tid = created["id"]
        claim(bea, tk, created, 0)
        claim(cy, tk, created, 1)
    execute(db_url, "INSERT INTO actions VALUES (:t, 0, 'quest:1', 0)", t=tid)
    storage = Storage(db_url)
    try:
        with storage.engine.begin() as conn:
            storage.ratings.rate_finished(conn, tid, {"ranks": [1, 2, 3], "won": None})
    finally:
        storage.close()
    placed = rows(
        db_url,
        "SELECT h.place, a.name FROM rating_history h JOIN accounts a ON a.id = h.subject",
    )
    assert sorted((r.name, r.place) for r in placed) == [("Bea", 3), ("Cy", 1)]
    bot = rows(db_url, "SELECT place FROM rating_history WHERE kind = 'bot'")
    assert [r.place for r in bot] == [2]


# -- which tables may be rated -----------------------------------------------------------------


def test_a_rated_table_is_opened_signed_in_and_cannot_be_gamed(sqlite_url: str, tk: Any) -> None:
    with app_client(sqlite_url) as client:
        bea = Device(client)
        anonymous = client.post(
            "/api/tables", json={"game": "hack-and-slash", "seats": SEATS, "settings": RATED}
        )
        assert anonymous.status_code == 400 and "sign in" in anonymous.json()["error"]
        bea.register("Bea")
        for body, said in [
            ({"seed": 12}, "seed blank"),
            ({"device": [0, 1]}, "host's device"),
            ({"settings": {"rated": True, "advice": True}}, "no tutor"),
        ]:
            refused = bea.request(
                "POST",
                "/api/tables",
                json={"game": "hack-and-slash", "seats": SEATS, "settings": RATED, **body},
            )
            assert refused.status_code == 400 and said in refused.json()["error"], body
            assert "\n" not in refused.json()["error"]
        bots_only = bea.request(
            "POST",
            "/api/tables",
            json={"game": "hack-and-slash", "seats": ["bot:random"] * 3, "settings": RATED},
        )
        assert bots_only.status_code == 400
        # The lobby lists it as rated: whoever joins must sign in.
        created = rated_table(bea, open=[1])
        listed = {t["id"]: t for t in client.get("/api/tables").json()}
        assert listed[created["id"]]["rated"] is True
        assert rows(sqlite_url, "SELECT COUNT(*) AS n FROM tables")[0].n == 1


def test_one_account_takes_one_seat_of_a_rated_table(db_url: str, tk: Any) -> None:
    with app_client(db_url) as client:
        bea, cy = two_people(client)
        created = rated_table(bea, ["human", "human", "human"], options={})
        tid, invites = created["id"], tk.invites(created)
        # Not signed in: told to sign in, and the invite is still good for its person.
        anonymous = client.post(f"/api/tables/{tid}/claim", json={"seat": 0, "invite": invites[0]})
        assert anonymous.status_code == 400 and "sign in" in anonymous.json()["error"]
        claim(bea, tk, created, 0)
        # Bea again, at another seat: refused with one line, the seat still free.
        again = bea.request(
            "POST", f"/api/tables/{tid}/claim", json={"seat": 1, "invite": invites[1]}
        )
        assert again.status_code == 400
        assert again.json()["error"] == (
            "your account holds Player 1's seat at this rated table already: one seat a person"
        )
        # Bea's phone is Bea too.
        phone = Device(client, bea.passkeys.copy())
        phone.sign_in()
        assert (
            phone.request(
                "POST", f"/api/tables/{tid}/claim", json={"seat": 2, "invite": invites[2]}
            ).status_code
            == 400
        )
        claim(cy, tk, created, 1)
        owners = rows(
            db_url,
            "SELECT seat, account_id FROM seat_keys WHERE table_id = :t ORDER BY seat",
            t=tid,
        )
        assert [r.account_id is not None for r in owners] == [True, True, False]
        assert len({r.account_id for r in owners if r.account_id}) == 2


def test_one_account_joins_a_rated_tables_open_seats_once(sqlite_url: str, tk: Any) -> None:
    with app_client(sqlite_url) as client:
        bea, cy = two_people(client)
        created = rated_table(bea, ["human", "human", "human"], open=[1, 2], options={})
        tid = created["id"]
        assert client.post(f"/api/tables/{tid}/join").status_code == 400  # not signed in
        cy.post(f"/api/tables/{tid}/join")
        refused = cy.request("POST", f"/api/tables/{tid}/join")
        assert refused.status_code == 400 and "one seat a person" in refused.json()["error"]
        # Storage itself refuses a second seat to one account, however the two claims come.
        storage = Storage(sqlite_url)
        try:
            cy_id = rows(
                sqlite_url, "SELECT account_id FROM seat_keys WHERE account_id IS NOT NULL"
            )[0]
            assert storage.claim_open(tid, "c" * 64, cy_id.account_id, sole=True) is None
            assert storage.claim_open(tid, "c" * 64, cy_id.account_id, sole=False) == 2
        finally:
            storage.close()


def test_nothing_is_rated_from_a_table_closed_early(sqlite_url: str, tk: Any) -> None:
    with app_client(sqlite_url) as client:
        bea, cy = two_people(client)
        created = rated_table(bea)
        tid = created["id"]
        tokens = {0: claim(bea, tk, created, 0), 1: claim(cy, tk, created, 1)}
        with (
            tk.join(client, tid, 0, tokens[0]) as first,
            tk.join(client, tid, 1, tokens[1]) as second,
        ):
            tk.play_to_end({0: first, 1: second}, stop_after=2)
        closed = client.post(f"/api/tables/{tid}/close", json={"host": created["host"]})
        assert closed.status_code == 200
        # Archived when left idle: no result either.
        other = rated_table(bea)
        claim(bea, tk, other, 0)
        claim(cy, tk, other, 1)
        storage = Storage(sqlite_url)
        try:
            assert storage.end(other["id"], "archived")
        finally:
            storage.close()
        assert rows(sqlite_url, "SELECT * FROM ratings") == []
        assert rows(sqlite_url, "SELECT * FROM rating_history") == []
        assert client.get("/api/leaderboard/hack-and-slash").json()["entries"] == []


def test_a_table_whose_people_are_not_their_own_accounts_is_not_rated(
    sqlite_url: str, tk: Any
) -> None:
    with app_client(sqlite_url) as client:
        bea, cy = two_people(client)
        # One account in two seats, made behind the server's back: never rated.
        created = rated_table(bea)
        tokens = {0: claim(bea, tk, created, 0), 1: claim(cy, tk, created, 1)}
        execute(
            sqlite_url,
            "UPDATE seat_keys SET account_id = (SELECT account_id FROM seat_keys "
            "WHERE table_id = :t AND seat = 0) WHERE table_id = :t AND seat = 1",
            t=created["id"],
        )
        play_out(client, tk, created["id"], tokens)
        # A person whose account was deleted mid-game: the table is not rated either.
        dan = Device(client)
        dan.register("Dan")
        later = rated_table(bea)
        tokens = {0: claim(bea, tk, later, 0), 1: claim(dan, tk, later, 1)}
        dan.request("DELETE", "/api/account")
        play_out(client, tk, later["id"], tokens)
        # An unrated table of signed-in people is not rated.
        plain = rated_table(bea, settings={})
        tokens = {0: claim(bea, tk, plain, 0), 1: claim(cy, tk, plain, 1)}
        play_out(client, tk, plain["id"], tokens)
        assert rows(sqlite_url, "SELECT * FROM rating_history") == []
        statuses = rows(sqlite_url, "SELECT status FROM tables")
        assert [r.status for r in statuses] == ["finished"] * 3


def test_a_rating_that_fails_leaves_the_last_move_committed(
    db_url: str, tk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tavernkeep.server.storage import ratings as stored_ratings

    def broken(*_: Any) -> Any:
        raise RuntimeError("the rating broke")

    monkeypatch.setattr(stored_ratings, "rate", broken)
    with app_client(db_url) as client:
        bea, cy = two_people(client)
        created = rated_table(bea)
        tokens = {0: claim(bea, tk, created, 0), 1: claim(cy, tk, created, 1)}
        final = play_out(client, tk, created["id"], tokens)
        assert final["result"] is not None
        assert [r.status for r in rows(db_url, "SELECT status FROM tables")] == ["finished"]
        assert rows(db_url, "SELECT * FROM ratings") == []


def test_a_rated_rematch_keeps_its_people_and_is_rated(sqlite_url: str, tk: Any) -> None:
    with app_client(sqlite_url) as client:
        bea, cy = two_people(client)
        created = rated_table(bea)
        tokens = {0: claim(bea, tk, created, 0), 1: claim(cy, tk, created, 1)}
        play_out(client, tk, created["id"], tokens)
        again = client.post(f"/api/tables/{created['id']}/rematch", json={"host": created["host"]})
        rematch = again.json()["id"]
        assert (
            client.post(f"/api/tables/{rematch}/start", json={"host": created["host"]}).status_code
            == 200
        )
        play_out(client, tk, rematch, tokens)
        page = Device(client).get(f"/api/people/{handle_of(cy)}")
        assert len(page["games"]) == 2 and page["ratings"][0]["games"] == 2


# -- what anyone may read ---------------------------------------------------------------------


def test_the_leaderboard_and_a_persons_page_show_only_what_is_public(db_url: str, tk: Any) -> None:
    with app_client(db_url) as client:
        bea, cy = two_people(client)
        rated = rated_table(bea)
        tokens = {0: claim(bea, tk, rated, 0), 1: claim(cy, tk, rated, 1)}
        play_out(client, tk, rated["id"], tokens)
        # Bea also sits at an unrated table, still under way.
        unrated = rated_table(bea, settings={})
        claim(bea, tk, unrated, 0)
        anyone = Device(client)
        board = anyone.get("/api/leaderboard/hack-and-slash")
        page = anyone.get(f"/api/people/{handle_of(bea)}")
        text = json.dumps([board, page])
        secrets = [*account_ids(db_url), rated["id"], unrated["id"]]
        secrets += [p["id"] for p in bea.account()["passkeys"]]
        for secret in secrets:
            assert secret not in text
        person = next(e for e in board["entries"] if e["kind"] == "person")
        assert set(person) == {
            "place",
            "kind",
            "name",
            "handle",
            "rating",
            "plus_minus",
            "ordinal",
            "games",
        }
        assert set(page) == {"name", "handle", "start", "ratings", "games"}
        assert {k for g in page["games"] for k in g} == {
            "game",
            "title",
            "at",
            "place",
            "of",
            "won",
            "rating",
            "plus_minus",
            "ordinal",
        }
        assert len(page["games"]) == 1  # the rated one; nothing of the unrated table
        # A handle nobody has, or one that is no handle, is no person.
        assert anyone.request("GET", "/api/people/nobody-here").status_code == 404
        assert anyone.request("GET", "/api/people/" + "x" * 40).status_code == 404
        assert (
            anyone.request("GET", f"/api/people/{sorted(account_ids(db_url))[0]}").status_code
            == 404
        )
        assert anyone.request("GET", "/api/leaderboard/chess").status_code == 404
        # The pages themselves.
        assert 'src="/static/leaderboard.js"' in client.get("/leaderboard").text
        assert 'src="/static/person.js"' in client.get(f"/people/{handle_of(bea)}").text


def test_a_deleted_account_leaves_the_leaderboard(sqlite_url: str, tk: Any) -> None:
    with app_client(sqlite_url) as client:
        bea, cy = two_people(client)
        created = rated_table(bea)
        tokens = {0: claim(bea, tk, created, 0), 1: claim(cy, tk, created, 1)}
        play_out(client, tk, created["id"], tokens)
        handle = handle_of(cy)
        mine = cy.get("/api/account/data")
        assert mine["handle"] == handle
        assert [r["game"] for r in mine["ratings"]] == ["hack-and-slash"]
        assert len(mine["rated_games"]) == 1
        cy.request("DELETE", "/api/account")
        assert Device(client).request("GET", f"/api/people/{handle}").status_code == 404
        names = [
            e.get("name") for e in client.get("/api/leaderboard/hack-and-slash").json()["entries"]
        ]
        assert "Cy" not in names and "Bea" in names
        assert rows(sqlite_url, "SELECT * FROM ratings WHERE kind = 'account'") != []
        assert len(rows(sqlite_url, "SELECT * FROM rating_history WHERE kind = 'account'")) == 1


# -- bounds -----------------------------------------------------------------------------------


def test_passkey_answers_are_bounded_per_address(sqlite_url: str) -> None:
    limits = Limits(
        account_burst=2, accounts_per_hour=0.0, sign_in_burst=3, sign_ins_per_minute=0.0
    )
    with app_client(sqlite_url, limits=limits) as client:
        device = Device(client)
        for _ in range(2):
            answer = device.request("POST", "/api/account/register/finish", json={"credential": {}})
            assert answer.status_code == 400
        refused = device.request("POST", "/api/account/register/finish", json={"credential": {}})
        assert refused.status_code == 429 and "too many new accounts" in refused.json()["error"]
        for _ in range(3):
            answer = device.request("POST", "/api/account/sign-in/finish", json={"credential": {}})
            assert answer.status_code == 400
        refused = device.request("POST", "/api/account/sign-in/finish", json={"credential": {}})
        assert refused.status_code == 429 and "too many sign-ins" in refused.json()["error"]


# -- storage, and bots rated among themselves ------------------------------------------------------


def test_ratings_are_kept_per_game_and_subject(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        passkey = Passkey("key", "acc", "pub", 0, "a browser", 1.0)
        storage.create_account(Account("acc", "Bea", 1.0), passkey, "session", 2e9)
        handle = storage.account("acc").handle  # type: ignore[union-attr]
        assert handle and handle != "acc"
        bea, bot = Subject(ACCOUNT, "acc"), Subject(BOT, "bot:heuristic")
        for index in range(3):
            storage.ratings.record(
                "rage", [Placing((bea,), 1), Placing((bot,), 2)], f"t{index}", index
            )
        storage.ratings.record("hack-and-slash", [Placing((bot,), 1), Placing((bea,), 2)], "t9", 9)
        board = storage.leaderboard("rage", 10)
        assert [(s.kind, s.games, s.name) for s in board] == [
            ("account", 3, "Bea"),
            ("bot", 3, None),
        ]
        person = storage.person(handle, 10)
        assert person is not None and [r.game for r in person.ratings] == ["hack-and-slash", "rage"]
        assert [g.at for g in person.games] == [0, 1, 2, 9]
        assert storage.person("acc", 10) is None  # the id finds nobody
        storage.delete_account("acc")
        assert storage.person(handle, 10) is None
        assert [s.kind for s in storage.leaderboard("rage", 10)] == ["bot"]
    finally:
        storage.close()


def test_a_schema_6_database_gains_ratings_and_handles(db_url: str) -> None:
    storage = Storage(db_url)
    passkey = Passkey("key", "acc", "pub", 0, "a browser", 1.0)
    storage.create_account(Account("acc", "Bea", 1.0), passkey, "session", 2e9)
    storage.close()
    engine = sa.create_engine(normalise_url(db_url), poolclass=NullPool)
    with engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE rating_history"))
        conn.execute(sa.text("DROP TABLE ratings"))
        conn.execute(sa.text("DROP INDEX ix_accounts_handle"))
        conn.execute(sa.text("ALTER TABLE accounts DROP COLUMN handle"))
        conn.execute(sa.text("UPDATE meta SET value = '6' WHERE key = 'schema'"))
    storage = Storage(db_url)
    try:
        found = storage.account("acc")
        assert found is not None and found.handle and len(found.handle) >= 12
        assert storage.person(found.handle, 10) is not None
        with engine.connect() as conn:
            inspected = sa.inspect(conn)
            assert {"ratings", "rating_history"} <= set(inspected.get_table_names())
            assert "ix_accounts_handle" in {i["name"] for i in inspected.get_indexes("accounts")}
    finally:
        storage.close()
        engine.dispose()


def test_bots_are_rated_among_themselves_into_a_servers_database(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["ratings", "seed", "hack-and-slash", "--games", "60", "--seed", "3"]
    bots = ["--bot", "bot:random", "--bot", "bot:heuristic", "--database-url", sqlite_url]
    assert main([*args, *bots]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "| # | who | rating | rated games |"
    assert out[2].startswith("| 1 | Heuristic bot (bot:heuristic) |")
    assert out[3].startswith("| 2 | Random bot (bot:random) |")
    played = "SELECT COUNT(DISTINCT table_id) AS n FROM rating_history"
    assert rows(sqlite_url, played)[0].n == 60
    # The server shows them on its leaderboard, on the scale its people are rated on.
    with app_client(sqlite_url) as client:
        entries = client.get("/api/leaderboard/hack-and-slash").json()["entries"]
        assert [e["label"] for e in entries] == ["Heuristic bot", "Random bot"]
    # A mistake is one line, before any game is played.
    for wrong, said in [
        (["--bot", "human"], "only bots"),
        (["--bot", "bot:nonsense"], "unknown seat"),
        (["--players", "9"], "players"),
    ]:
        assert (
            main(["ratings", "seed", "hack-and-slash", *wrong, "--database-url", sqlite_url]) == 2
        )
        err = capsys.readouterr().err.strip()
        assert said in err and "\n" not in err
    assert rows(sqlite_url, played)[0].n == 60
