"""Reclaiming a seat (issue 24, item 2): a person on a new device gets their seat back
through the table's host, who hands it out again by a new invite. The old credential acts
no more, and the table is told in its log. Only the host key may."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tavernkeep.server.app import create_app

SEATS = ["human", "bot:random", "human"]
SHORT = {"round_limit": 2}


def reissue(client: Any, table_id: str, body: dict[str, Any], status: int = 200) -> Any:
    response = client.post(f"/api/tables/{table_id}/reissue", json=body)
    assert response.status_code == status, response.text
    return response.json()


def test_a_seat_handed_out_again_goes_to_the_new_device_alone(db_url: str, tk: Any) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid, tokens, host = data["id"], tk.tokens(data), data["host"]
        with (
            tk.join(client, tid, 0, tokens[0]) as zero,
            tk.join(client, tid, 2, tokens[2]) as old_device,
            tk.join(client, tid) as watcher,
        ):
            handed = reissue(client, tid, {"host": host, "seat": 2})
            # The old device is told why and let go...
            code, seen = old_device.until_closed()
            assert code == 1008
            assert seen[-1]["message"] == "the table's host handed this seat to a new invite"
            # ...everyone reads it in the log, and the seat waits for its claim.
            for sock in (zero, watcher):
                notice = sock.until(lambda m: m["type"] == "chat")["line"]
                assert notice["kind"] == "notice" and notice["seat"] is None
                assert notice["text"] == "The table's host handed Player 3's seat to a new invite"
                seats = sock.until(lambda m: m["type"] == "seats")["seats"]
                assert seats[2]["claimed"] is False
        # The old credential acts for nobody; the new invite claims the seat once.
        with tk.connect(client, tid, 2) as again:
            again.send({"type": "join", "seat": 2, "token": tokens[2]})
            code, seen = again.until_closed()
            assert code == 1008 and "not valid" in seen[-1]["message"]
        invite = handed["invite"].split("invite=", 1)[1]
        assert handed["invite"].startswith(f"/table/{tid}#seat=2&invite=")
        new_token = tk.claim(client, tid, 2, invite)
        with tk.join(client, tid, 2, new_token) as new_device:
            assert new_device.welcome is not None
            assert new_device.welcome["chat"][-1]["kind"] == "notice"
    # The notice is kept with the table.
    with TestClient(create_app(db_url, bot_delay=0.0)) as client, tk.join(client, tid) as later:
        assert later.welcome is not None
        assert [line["kind"] for line in later.welcome["chat"]] == ["notice"]


def test_only_the_host_key_hands_a_seat_out_and_only_a_persons_seat(
    sqlite_url: str, tk: Any
) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=SEATS, options=SHORT)
        tid, tokens, host = data["id"], tk.tokens(data), data["host"]
        refusals = [
            ({"host": tokens[0], "seat": 2}, "that is not this table's host key"),
            ({"host": "", "seat": 2}, "that is not this table's host key"),
            ({"host": host, "seat": 1}, "Player 2 is a bot's seat"),
            ({"host": host, "seat": 3}, "no such seat at this table"),
        ]
        for body, why in refusals:
            assert reissue(client, tid, body, 400) == {"error": why}
        assert reissue(client, "nosuchtable", {"host": host, "seat": 0}, 404)
        for bad in ({"host": host}, {"host": host, "seat": "2"}, {"host": host, "seat": 2, "x": 1}):
            assert "\n" not in reissue(client, tid, bad, 400)["error"]
        # Nothing changed: both seats' people still hold them.
        for seat in (0, 2):
            with tk.join(client, tid, seat, tokens[seat]) as sock:
                assert sock.welcome is not None and sock.welcome["chat"] == []


def test_a_seat_on_the_hosts_device_is_not_handed_out(sqlite_url: str, tk: Any) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        seats = ["human", "human", "human"]
        data = tk.create(client, seats=seats, device=[0, 1, 2], options=SHORT)
        refused = reissue(client, data["id"], {"host": data["host"], "seat": 1}, 400)
        assert refused == {"error": "Player 2 is played on the host's device"}


def test_a_finished_games_seats_are_not_handed_out(sqlite_url: str, tk: Any) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        data = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as zero:
            tk.play_to_end({0: zero})
        refused = reissue(client, tid, {"host": data["host"], "seat": 0}, 400)
        assert refused == {"error": "the game is over: its seats are not handed out again"}
