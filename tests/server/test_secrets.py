"""Hidden information never leaves the server toward the wrong seat.

Secret Draw (hidden_game.py) names seat s's cards `SECRET-s-<n>`, so a leak is found by
searching the raw text of every frame a socket received, whatever path it took: views,
events, the welcome log, choices and their labels, summaries.
"""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.cli import main as cli_main
from tavernkeep.engine.records import parse_record, replay
from tavernkeep.games import get_game
from tavernkeep.server.app import create_app


def drawing_chooser(seed: int) -> Any:
    """Draw on a seat's first turn (so there are secrets to leak), then play at random."""
    rng = random.Random(seed)
    seen: set[int] = set()

    def choose(seat: int, state: dict[str, Any]) -> str:
        actions = [c["action"] for c in state["legal"]]
        if seat not in seen and "draw" in actions:
            seen.add(seat)
            return "draw"
        return rng.choice(actions)

    return choose


def assert_no_leak(raw: list[str], seat: int | None, players: int, marker: Any) -> None:
    text = "\n".join(raw)
    for other in range(players):
        if other != seat:
            assert marker(other) not in text, f"seat {other}'s secret reached seat {seat}"
    if seat is not None:
        assert marker(seat) in text, f"seat {seat} never saw its own cards"


def assert_record_refused(client: Any, table_id: str) -> None:
    response = client.get(f"/api/tables/{table_id}/record")
    assert response.status_code == 409
    assert set(response.json()) == {"error"}


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("players", [2, 3])
def test_no_secret_reaches_another_seat_or_a_spectator(
    sqlite_url: str,
    tk: Any,
    hidden_game: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    seed: int,
    players: int,
) -> None:
    marker = hidden_game.marker
    raws: dict[int | None, list[str]] = {s: [] for s in [*range(players), None]}
    http: list[str] = []
    choose = drawing_chooser(seed)
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        data = tk.create(
            client,
            game=hidden_game.NAME,
            seats=["human"] * players,
            options={"rounds": 4},
            seed=seed,
        )
        tid, tokens = data["id"], tk.tokens(data)
        with ExitStack() as stack:
            early_watcher = stack.enter_context(tk.join(client, tid))
            socks = {
                s: stack.enter_context(tk.join(client, tid, s, tokens[s])) for s in range(players)
            }
            tk.play_to_end(socks, choose, stop_after=players + 1)
            assert_record_refused(client, tid)
            http += [client.get("/api/tables").text, client.get(f"/api/tables/{tid}").text]
            # Seat 0 reloads its page and a late spectator arrives: both get the log.
            first_zero = socks[0]
            first_zero.settle()
            with tk.join(client, tid, 0, tokens[0]) as zero:
                first_zero.settle()
                first_zero.ws.close()
                mine = [e["text"] for e in zero.welcome["log"]]
                assert any(t.startswith(f"You drew {marker(0)}") for t in mine)
                socks[0] = zero
                with tk.join(client, tid) as late_watcher:
                    assert_record_refused(client, tid)
                    final = tk.play_to_end(socks, choose, watchers=(late_watcher, early_watcher))
                    raws[None] += late_watcher.raw
                raws[0] += first_zero.raw + zero.raw
            raws[None] += early_watcher.raw
            for seat in range(1, players):
                raws[seat] += socks[seat].raw
        http += [client.get("/api/tables").text, client.get(f"/api/tables/{tid}").text]
        record_response = client.get(f"/api/tables/{tid}/record")

    for seat, raw in raws.items():
        assert_no_leak(raw, seat, players, marker)
    assert "SECRET-" not in "".join(http)
    # The public twin of a draw reaches everyone else.
    spectator_events = [
        e["text"] for m in map(json.loads, raws[None]) if m["type"] == "events" for e in m["events"]
    ]
    assert "Player 1 drew a card" in spectator_events
    assert final["result"] is not None

    # Over now: the record (whose seed reveals every card) may be downloaded, and replays.
    assert record_response.status_code == 200
    record = parse_record(record_response.text)
    game = get_game(hidden_game.NAME)
    result = game.result(replay(game, record))
    assert result is not None and result.to_json() == final["result"] == record.result
    path = tmp_path / "secret.json"
    path.write_text(record_response.text, encoding="utf-8")
    capsys.readouterr()
    assert cli_main(["replay", str(path), "--check"]) == 0
    assert capsys.readouterr().out.startswith("OK")


def test_a_seat_sees_its_own_cards_and_only_the_count_of_others(
    sqlite_url: str, tk: Any, hidden_game: Any
) -> None:
    marker = hidden_game.marker
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        data = tk.create(client, game=hidden_game.NAME, seats=["human", "human"], seed=11)
        tid, tokens = data["id"], tk.tokens(data)
        with (
            tk.join(client, tid, 0, tokens[0]) as zero,
            tk.join(client, tid, 1, tokens[1]) as one,
            tk.join(client, tid) as watcher,
        ):
            zero.settle()
            view = zero.state["view"]
            assert len(view["hand"]) == 1 and view["hand"][0].startswith(marker(0))
            assert view["hand_counts"] == [1, 1]
            assert watcher.state["view"]["hand"] is None
            zero.act("draw", 0)
            drew = zero.until(lambda m: m["type"] == "events")["events"]
            assert drew[0]["text"].startswith(f"You drew {marker(0)}")
            assert drew[0]["data"]["card"].startswith(marker(0))
            theirs = one.until(lambda m: m["type"] == "events")["events"]
            assert theirs[0] == {
                "kind": "draw",
                "text": "Player 1 drew a card",
                "data": {"seat": 0},
            }
            watched = watcher.until(lambda m: m["type"] == "events")["events"]
            assert watched[0] == theirs[0]
            st = one.until_state(lambda s: s["version"] == 1)
            assert st["view"]["hand_counts"] == [2, 1]
            assert all(c.startswith(marker(1)) for c in st["view"]["hand"])
            # Seat 1's choices name its cards only on its own socket.
            one.act("draw", 1)
            st = one.until_state(lambda s: s["version"] == 2)
            zero_st = zero.until_state(lambda s: s["version"] == 2)
            labels = [c["label"] for c in zero_st["legal"]]
            assert any(marker(0) in label for label in labels)  # "Discard SECRET-0-..."
            assert st["legal"] == []
            for sock, seat in ((zero, 0), (one, 1), (watcher, None)):
                sock.settle()
                text = "\n".join(sock.raw)
                for other in (0, 1):
                    if other != seat:
                        assert marker(other) not in text


def test_bots_secrets_stay_hidden_and_the_record_waits_for_the_end(
    db_url: str, tk: Any, hidden_game: Any
) -> None:
    marker = hidden_game.marker
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(
            client,
            game=hidden_game.NAME,
            seats=["human", "bot:random", "bot:random"],
            options={"rounds": 3},
            seed=8,
        )
        tid, token = data["id"], tk.tokens(data)[0]
        with tk.join(client, tid, 0, token) as zero, tk.join(client, tid) as watcher:
            for _ in range(2):
                st = zero.until_state(lambda s: s["actor"] == 0)
                assert_record_refused(client, tid)
                zero.act("draw", st["version"])
                zero.until_state(lambda s, v=st["version"]: s["version"] > v)
            tk.play_to_end({0: zero}, watchers=(watcher,))
            assert_no_leak(zero.raw, 0, 3, marker)
            assert_no_leak(watcher.raw, None, 3, marker)
        assert client.get(f"/api/tables/{tid}/record").status_code == 200


def test_a_restart_replays_the_log_without_leaking(db_url: str, tk: Any, hidden_game: Any) -> None:
    marker = hidden_game.marker
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        data = tk.create(
            client,
            game=hidden_game.NAME,
            seats=["human", "human"],
            options={"rounds": 3},
            seed=4,
        )
        tid, tokens = data["id"], tk.tokens(data)
        with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid, 1, tokens[1]) as one:
            tk.play_to_end({0: zero, 1: one}, lambda s, st: "draw", stop_after=3)
            zero.settle()
            one.settle()
            before = {0: zero.welcome["log"] + zero.events, 1: one.welcome["log"] + one.events}
            views = {0: zero.state["view"], 1: one.state["view"]}
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        assert_record_refused(client, tid)
        for seat in (0, 1):
            with tk.join(client, tid, seat, tokens[seat]) as sock:
                assert sock.welcome["log"] == before[seat]
                assert sock.state["view"] == views[seat]
                assert_no_leak(sock.raw, seat, 2, marker)
        with tk.join(client, tid) as watcher:
            assert "SECRET-" not in "".join(watcher.raw)
