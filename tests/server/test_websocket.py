"""Playing over the table WebSocket: joining, acting, and every refusal changing nothing."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.server.app import MAX_MESSAGE, RATE_LIMIT, create_app

SHORT = {"round_limit": 2}


@pytest.fixture
def client(sqlite_url: str) -> Any:
    with TestClient(create_app(sqlite_url, bot_delay=0.0, pass_delay=0.05)) as client:
        yield client


@pytest.fixture
def table(client: Any, tk: Any) -> dict[str, Any]:
    """Seats 0 and 1 are people, seat 2 a bot; seat 0 decides first."""
    data = tk.create(client, seats=["human", "human", "bot:random"], options=SHORT, seed=99)
    data["tokens"] = tk.tokens(data)
    return data


def live_room(client: Any, table_id: str) -> Any:
    """The table's room, loaded if nobody is at it (tables leave memory when idle)."""
    tavern = client.app.state.tavern
    return client.portal.call(tavern.get_room, table_id)


def snapshot(client: Any, table_id: str) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """(version, seat 0's view, spectator's view) straight from the live room."""
    room = live_room(client, table_id)
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["actions"] == room.version
    state = room.match.state
    return room.version, room.game.view(state, 0), room.game.view(state, None)


# -- joining --------------------------------------------------------------------------


def test_a_seat_joins_with_its_token_and_gets_welcome_then_state(
    client: Any, tk: Any, table: dict[str, Any]
) -> None:
    with tk.connect(client, table["id"], 0) as sock:
        sock.send({"type": "join", "seat": 0, "token": table["tokens"][0]})
        welcome = sock.expect("welcome")
        assert welcome["seat"] == 0
        assert welcome["table"]["id"] == table["id"]
        assert welcome["log"] == []
        state = sock.expect("state")
        assert state["version"] == 0
        assert state["actor"] == 0
        assert state["result"] is None
        assert state["view"]["seat"] == 0
        assert state["legal"], "the deciding seat is offered its choices"
        for choice in state["legal"]:
            assert set(choice) == {"action", "label", "odds"}
            assert isinstance(choice["label"], str) and choice["label"]
            assert all(0.0 <= p <= 1.0 for p in choice["odds"].values())
        assert {c["action"] for c in state["legal"]} <= {"quest:1", "quest:2", "quest:3", "brag"}
        assert [s["connected"] for s in state["seats"]] == [True, False, True]
        sock.ping()
        sock.quiet()


def test_only_the_deciding_socket_gets_choices_through_a_whole_game(
    client: Any, tk: Any, table: dict[str, Any]
) -> None:
    tid, tokens = table["id"], table["tokens"]
    with (
        tk.join(client, tid, 0, tokens[0]) as zero,
        tk.join(client, tid, 1, tokens[1]) as one,
        tk.join(client, tid) as watcher,
    ):
        final = tk.play_to_end({0: zero, 1: one}, watchers=(watcher,))
        # Sock checks on every state: legal is non-empty exactly when its seat is the actor.
        for sock in (zero, one, watcher):
            states = [m for m in sock.messages if m["type"] == "state"]
            assert any(s["actor"] == 0 for s in states)
            assert any(s["actor"] == 1 for s in states)
            assert any(s["actor"] == 2 for s in states)
        assert any(m["legal"] for m in zero.messages if m["type"] == "state")
        assert any(m["legal"] for m in one.messages if m["type"] == "state")
        assert not any(m["legal"] for m in watcher.messages if m["type"] == "state")
    assert final["actor"] is None
    assert final["result"]["ending"] == "round-limit"
    assert final["view"]["over"] is True
    assert client.get(f"/api/tables/{tid}").json()["status"] == "finished"


def test_events_come_before_the_state_they_led_to(
    client: Any, tk: Any, table: dict[str, Any]
) -> None:
    tid, tokens = table["id"], table["tokens"]
    with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid, 1, tokens[1]) as one:
        tk.play_to_end({0: zero, 1: one})
        messages = [m for m in zero.messages if m["type"] in ("events", "state")]
        for i, msg in enumerate(messages):
            if msg["type"] == "events":
                following = messages[i + 1]
                assert following["type"] == "state"
                assert following["version"] == msg["version"]
                for event in msg["events"]:
                    assert set(event) == {"kind", "text", "data"}
        kinds = [e["kind"] for e in zero.events]
        assert kinds[-1] == "game-over"
        assert "roll" in kinds


def test_a_finished_table_still_welcomes_with_the_whole_log(
    client: Any, tk: Any, table: dict[str, Any]
) -> None:
    tid, tokens = table["id"], table["tokens"]
    with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid, 1, tokens[1]) as one:
        final = tk.play_to_end({0: zero, 1: one})
        log = zero.events
    with tk.join(client, tid, 0, tokens[0]) as again:
        assert again.welcome["log"] == log
        assert again.state["version"] == final["version"]
        assert again.state["result"] == final["result"]
        again.act("brag", final["version"])
        assert "over" in again.expect("error")["message"]
        assert snapshot(client, tid)[0] == final["version"]


def test_two_seats_in_two_sockets_each_act_only_for_itself(
    client: Any, tk: Any, table: dict[str, Any]
) -> None:
    tid, tokens = table["id"], table["tokens"]
    with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid, 1, tokens[1]) as one:
        zero.until_state(lambda s: s["actor"] == 0)
        one.settle()
        zero.settle()
        before = snapshot(client, tid)
        # Seat 1 cannot act in seat 0's place, even with a legal action of seat 0's.
        one.act(zero.state["legal"][0]["action"], 0)
        assert "not your decision" in one.expect("error")["message"]
        one.ping()
        zero.ping()
        assert snapshot(client, tid) == before
        # Seat 0 acts; when seat 1 decides, seat 0 cannot.
        first = zero.state["legal"][0]["action"]
        zero.act(first, 0)
        st = zero.until_state(lambda s: s["actor"] == 1)
        mine = one.until_state(lambda s: s["version"] == st["version"] and bool(s["legal"]))
        before = snapshot(client, tid)
        zero.act(mine["legal"][0]["action"], st["version"])
        assert "not your decision" in zero.expect("error")["message"]
        zero.ping()
        assert snapshot(client, tid) == before
        one.act(mine["legal"][0]["action"], st["version"])
        zero.until_state(lambda s: s["version"] > st["version"])
        assert snapshot(client, tid)[0] > st["version"]


def test_spectators_see_views_and_events_but_cannot_act(
    client: Any, tk: Any, table: dict[str, Any]
) -> None:
    tid, tokens = table["id"], table["tokens"]
    with tk.join(client, tid) as watcher, tk.join(client, tid, 0, tokens[0]) as zero:
        assert watcher.welcome["seat"] is None
        watcher.until(lambda m: m["type"] == "seats" and m["seats"][0]["connected"])
        watcher.settle()
        zero.settle()
        assert watcher.state["view"]["seat"] is None
        assert watcher.state["legal"] == []
        before = snapshot(client, tid)
        for action in ("brag", "quest:1", zero.state["legal"][0]["action"]):
            watcher.act(action, 0)
            assert "spectator" in watcher.expect("error")["message"]
        watcher.ping()
        zero.ping()
        assert snapshot(client, tid) == before
        # The spectator follows the play.
        zero.act(zero.state["legal"][0]["action"], 0)
        seen = watcher.until(lambda m: m["type"] == "events")
        assert seen["version"] == 1
        st = watcher.until_state(lambda s: s["version"] >= 1)
        assert st["view"]["seat"] is None
        assert watcher.events


# -- refusals that close the socket ----------------------------------------------------


def test_unknown_table_is_an_error_and_a_close(client: Any, tk: Any) -> None:
    with tk.connect(client, "no-such-table") as sock:
        code, seen = sock.until_closed()
    assert code == 1008
    assert [m["type"] for m in seen] == ["error"]


@pytest.mark.parametrize(
    "hello",
    [
        "wrong token",
        "token of another seat",
        "token of another table",
        "token for a bot seat",
        "seat out of range",
        "negative seat",
        "seat as text",
        "seat as bool",
        "token without seat",
        "seat without token",
        "token not text",
        "huge token",
        "first message not a join",
        "first message an action",
        "first message not json",
        "first message a json array",
        "first message without type",
        "first message binary",
        "first message oversized",
    ],
)
def test_bad_first_messages_give_an_error_and_close(
    client: Any, tk: Any, table: dict[str, Any], hello: str
) -> None:
    tid, tokens = table["id"], table["tokens"]
    other = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT)
    messages: dict[str, Any] = {
        "wrong token": {"type": "join", "seat": 0, "token": "A" * 22},
        "token of another seat": {"type": "join", "seat": 0, "token": tokens[1]},
        "token of another table": {"type": "join", "seat": 0, "token": tk.tokens(other)[0]},
        "token for a bot seat": {"type": "join", "seat": 2, "token": tokens[0]},
        "seat out of range": {"type": "join", "seat": 3, "token": tokens[0]},
        "negative seat": {"type": "join", "seat": -3, "token": tokens[0]},
        "seat as text": {"type": "join", "seat": "0", "token": tokens[0]},
        "seat as bool": {"type": "join", "seat": False, "token": tokens[0]},
        "token without seat": {"type": "join", "token": tokens[0]},
        "seat without token": {"type": "join", "seat": 0},
        "token not text": {"type": "join", "seat": 0, "token": 12345},
        "huge token": {"type": "join", "seat": 0, "token": tokens[0] * 10},
        "first message not a join": {"type": "ping"},
        "first message an action": {"type": "action", "action": "brag", "version": 0},
        "first message not json": "join me",
        "first message a json array": "[1, 2]",
        "first message without type": {"seat": 0, "token": tokens[0]},
        "first message binary": b'{"type": "join"}',
        "first message oversized": {"type": "join", "pad": "x" * MAX_MESSAGE},
    }
    with tk.connect(client, tid) as sock:
        message = messages[hello]
        if isinstance(message, bytes):
            sock.ws.send_bytes(message)
        else:
            sock.send(message)
        code, seen = sock.until_closed()
    assert code == 1008
    assert [m["type"] for m in seen] == ["error"]
    # The refusal never echoes a token back.
    assert all(t not in seen[0]["message"] for t in tokens.values())
    assert client.get(f"/api/tables/{tid}").json()["seats"][0]["connected"] is False
    assert snapshot(client, tid)[0] == 0


# -- refusals that change nothing ---------------------------------------------------------


def bad_messages(version: int) -> dict[str, Any]:
    return {
        "malformed json": '{"type": "action", "action": ',
        "json array": "[]",
        "json string": '"ping"',
        "no type": {"action": "brag", "version": version},
        "type not text": {"type": 7},
        "unknown type": {"type": "teleport"},
        "second join": {"type": "join"},
        "unknown action": {"type": "action", "action": "fly:1", "version": version},
        "action not parsable": {"type": "action", "action": "Quest 1!", "version": version},
        "action not legal": {"type": "action", "action": "quest:9", "version": version},
        "rescue when questing": {"type": "action", "action": "rescue:6", "version": version},
        "action not text": {"type": "action", "action": {"kind": "brag"}, "version": version},
        "action missing": {"type": "action", "version": version},
        "action too long": {"type": "action", "action": "a" * 300, "version": version},
        "stale version": {"type": "action", "action": "brag", "version": version - 1},
        "future version": {"type": "action", "action": "brag", "version": version + 1},
        "version as text": {"type": "action", "action": "brag", "version": str(version)},
        "oversized": {"type": "ping", "pad": "x" * (MAX_MESSAGE + 1)},
        # 2,100 characters but 4,200 bytes: the limit is in bytes.
        "oversized in bytes, not characters": json.dumps(
            {"type": "ping", "pad": "é" * 2100}, ensure_ascii=False
        ),
    }


def reach_a_quest_decision_after_the_start(sock: Any) -> dict[str, Any]:
    """Play seat 0 (others are bots) until it chooses a quest at a version > 0, so that
    a stale version exists and 'rescue'/'quit' are not legal."""
    while True:
        st = sock.until_state(lambda s: s["actor"] == 0 and s["result"] is None)
        if st["version"] > 0 and st["view"]["decision"]["kind"] == "quest":
            return st
        legal = [c["action"] for c in st["legal"]]
        sock.act("quit" if "quit" in legal else legal[0], st["version"])
        sock.until_state(lambda s, v=st["version"]: s["version"] > v)


@pytest.mark.parametrize("kind", [*bad_messages(1), "binary frame"])
def test_refused_messages_give_an_error_and_change_nothing(client: Any, tk: Any, kind: str) -> None:
    data = tk.create(client, seats=["human", "bot:random", "bot:random"], options=SHORT, seed=5)
    tid, token = data["id"], tk.tokens(data)[0]
    with tk.join(client, tid, 0, token) as zero, tk.join(client, tid) as watcher:
        st = reach_a_quest_decision_after_the_start(zero)
        watcher.until_state(lambda s: s["version"] == st["version"])
        zero.settle()
        watcher.settle()
        before = snapshot(client, tid)
        legal_before = zero.state["legal"]
        if kind == "binary frame":
            zero.ws.send_bytes(json.dumps({"type": "ping"}).encode())
        else:
            zero.send(bad_messages(st["version"])[kind])
        zero.expect("error")
        # Nothing was queued after the error (no events, no state), on any socket.
        zero.ping()
        watcher.ping()
        assert snapshot(client, tid) == before
        # The socket stays open and seat 0 still decides, with the same choices.
        zero.act(legal_before[0]["action"], st["version"])
        after = zero.until_state(lambda s: s["version"] > st["version"])
        assert after["version"] > st["version"]


def test_a_message_of_exactly_the_limit_is_accepted(
    client: Any, tk: Any, table: dict[str, Any]
) -> None:
    with tk.join(client, table["id"], 0, table["tokens"][0]) as zero:
        base = json.dumps({"type": "ping", "pad": ""})
        text = json.dumps({"type": "ping", "pad": "x" * (MAX_MESSAGE - len(base))})
        assert len(text.encode()) == MAX_MESSAGE
        zero.send(text)
        zero.expect("pong")


def test_a_double_click_acts_once(client: Any, tk: Any, table: dict[str, Any]) -> None:
    tid, tokens = table["id"], table["tokens"]
    with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid, 0, tokens[0]) as twin:
        action = zero.state["legal"][0]["action"]
        zero.act(action, 0)
        zero.act(action, 0)
        twin.act(action, 0)
        assert "moved on" in twin.until(lambda m: m["type"] == "error")["message"]
        assert "moved on" in zero.until(lambda m: m["type"] == "error")["message"]
        zero.ping()
        twin.ping()
        # Seat 1, a person, or seat 0 again (a rescue) decides next: no bot moved.
        room = live_room(client, tid)
        assert room.match.record.actions == [action]
        assert room.version == 1


def test_an_action_without_version_is_taken_against_the_current_state(
    client: Any, tk: Any, table: dict[str, Any]
) -> None:
    with tk.join(client, table["id"], 0, table["tokens"][0]) as zero:
        zero.act(zero.state["legal"][0]["action"])
        assert zero.until_state(lambda s: s["version"] >= 1)["version"] >= 1


def test_a_flood_closes_the_socket(client: Any, tk: Any, table: dict[str, Any]) -> None:
    tid, tokens = table["id"], table["tokens"]
    with tk.join(client, tid, 0, tokens[0]) as zero:
        for _ in range(RATE_LIMIT + 5):
            zero.send({"type": "ping"})
        code, seen = zero.until_closed()
    assert code == 1008
    kinds = [m["type"] for m in seen]
    assert kinds == ["pong"] * RATE_LIMIT + ["error"], kinds
    assert "too many" in seen[-1]["message"]
    # The table is untouched and the seat can come back.
    assert snapshot(client, tid)[0] == 0
    with tk.join(client, tid, 0, tokens[0]) as again:
        assert again.state["legal"]


def test_a_steady_stream_within_the_limit_is_fine(
    client: Any, tk: Any, table: dict[str, Any]
) -> None:
    with tk.join(client, table["id"], 0, table["tokens"][0]) as zero:
        for _ in range(RATE_LIMIT * 3 // 2):
            zero.ping()
            time.sleep(1.15 / RATE_LIMIT)


def test_reconnecting_with_the_same_token_restores_the_table(
    client: Any, tk: Any, table: dict[str, Any]
) -> None:
    tid, tokens = table["id"], table["tokens"]
    with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid, 1, tokens[1]) as one:
        for _ in range(3):
            st = zero.until_state(lambda s: s["actor"] in (0, 1) and s["result"] is None)
            sock = zero if st["actor"] == 0 else one
            mine = sock.until_state(lambda s, v=st["version"]: s["version"] == v and s["legal"])
            sock.act(mine["legal"][-1]["action"], mine["version"])
            zero.until_state(lambda s, v=st["version"]: s["version"] > v)
        st = zero.until_state(lambda s: s["actor"] in (0, 1))
        one.until_state(lambda s: s["version"] == st["version"])
        zero.settle()
        log = zero.welcome["log"] + zero.events
        last = zero.state
    assert last["version"] > 0
    with tk.join(client, tid, 0, tokens[0]) as again:
        assert again.welcome["log"] == log
        assert again.welcome["table"]["actions"] == last["version"]
        assert again.state["version"] == last["version"]
        assert again.state["view"] == last["view"]
        assert again.state["legal"] == last["legal"]
        assert again.state["actor"] == last["actor"]


def test_a_seat_cannot_act_while_a_bot_decides(sqlite_url: str, tk: Any) -> None:
    # Bots that think for a minute: the bot's decision stays open for the whole test.
    with TestClient(create_app(sqlite_url, bot_delay=60.0)) as client:
        data = tk.create(client, seats=["bot:random", "human", "bot:random"], options=SHORT)
        tid, token = data["id"], tk.tokens(data)[1]
        with tk.join(client, tid, 1, token) as one:
            assert one.state["actor"] == 0
            assert one.state["legal"] == []
            before = snapshot(client, tid)
            for action in ("brag", "quest:1", "quest:2"):
                one.act(action, 0)
                assert "not your decision" in one.expect("error")["message"]
            one.ping()
            assert snapshot(client, tid) == before


# -- resources a client can make the server hold -------------------------------------------


def test_asking_about_unknown_tables_does_not_grow_the_server(client: Any, tk: Any) -> None:
    tavern = client.app.state.tavern
    for i in range(100):
        assert client.get(f"/api/tables/made-up-{i}").status_code == 404
    for i in range(20):
        with tk.connect(client, f"made-up-ws-{i}") as sock:
            assert sock.until_closed()[0] == 1008
    # Nothing the tavern holds may have grown with the made-up ids: its own containers
    # and those of every part it is made of (tables, keeping, clocks, ...), one level down.
    parts = [tavern, *(v for v in vars(tavern).values() if hasattr(v, "__dict__"))]
    held = [
        v
        for part in parts
        for v in vars(part).values()
        if isinstance(v, (dict, list, set))
    ]
    assert len(held) > 5  # the parts' containers are seen, not only the front door's
    assert all(len(v) <= 10 for v in held)


def test_a_client_that_stops_reading_is_not_queued_for_without_bound(
    client: Any, tk: Any, table: dict[str, Any]
) -> None:
    from tavernkeep.server.app import MAX_OUTBOX
    from tavernkeep.server.rooms import Connection

    room = live_room(client, table["id"])

    def stall_and_broadcast() -> int:
        # A connection whose sender never drains its outbox: what a socket whose peer
        # stopped reading looks like once the transport's buffers are full.
        stalled = Connection(None, lambda text: None)
        room.connections.add(stalled)
        try:
            for _ in range(MAX_OUTBOX + 200):
                room.broadcast(None)
            return stalled.outbox.qsize()
        finally:
            room.connections.discard(stalled)

    queued = client.portal.call(stall_and_broadcast)
    assert queued <= MAX_OUTBOX + 1


def test_a_person_with_nothing_to_play_passes_by_itself_in_a_reaction_window(
    client: Any, tk: Any, helpers: Any
) -> None:
    # Here to Slay asks every seat in its Challenge and Modifier windows, so that nobody
    # learns who holds what; a person who can only pass is answered for by the server.
    # Seed 5: Player 1 holds a Hero, Player 2 (a person, not even connected) holds no
    # Challenge and no Modifier card.
    data = tk.create(
        client,
        game="here-to-slay",
        seats=["human", "human", "bot:random"],
        options={"leaders": "random"},
        seed=5,
    )
    tid, tokens = data["id"], tk.tokens(data)
    with tk.join(client, tid, 0, tokens[0]) as zero:
        st = zero.until_state(lambda s: s["actor"] == 0 and bool(s["legal"]))
        hero = next(
            c for c in st["view"]["table"][0]["hand"] if c["kind"] == "hero"
        )
        zero.act(f"play:{hero['id']}", st["version"])
        # Player 2 is asked whether to challenge, can only pass, and does so unattended.
        zero.until_state(lambda s: s["version"] >= st["version"] + 2)
        actions = helpers.stored_actions(client.app.state.tavern.storage.url, tid)
        assert actions[st["version"] : st["version"] + 2] == [f"play:{hero['id']}", "pass"]


def test_a_new_tables_log_begins_with_what_the_game_starts_with(client: Any, tk: Any) -> None:
    # Crits & Tricks rolls every die in the open before the first decision; a spectator's
    # welcome log shows it.
    data = tk.create(client, game="crits-and-tricks", seats=["human", "bot:random"], seed=3)
    with tk.connect(client, data["id"]) as sock:
        sock.send({"type": "join"})
        welcome = sock.expect("welcome")
    texts = [event["text"] for event in welcome["log"]]
    assert texts[0] == "Round 1: Player 1 leads the first trick"
    assert texts[1].startswith("Player 1 rolls d4: ")
    assert texts[2].startswith("Player 2 rolls d4: ")
