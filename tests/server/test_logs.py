"""Secrets never reach a log: seat tokens (and database passwords).

The uvicorn subprocess's own logs are checked in test_process.py.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.cli import main as cli_main
from tavernkeep.server.app import create_app


def test_no_token_is_logged_or_stored_in_clear(
    tmp_path: Path,
    tk: Any,
    caplog: pytest.LogCaptureFixture,
    capfd: pytest.CaptureFixture[str],
) -> None:
    caplog.set_level(logging.DEBUG)
    db = tmp_path / "tavernkeep.db"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0)) as client:
        data = tk.create(
            client, seats=["human", "bot:heuristic", "human"], options={"round_limit": 2}
        )
        tid, tokens = data["id"], tk.tokens(data)
        other = tk.create(client, seats=["human", "human", "human"], options={"round_limit": 1})
        tokens.update({10 + s: t for s, t in tk.tokens(other).items()})
        # Refused joins (wrong seat, wrong table, no seat) must not log what they were given.
        for hello in (
            {"type": "join", "seat": 1, "token": tokens[0]},
            {"type": "join", "seat": 2, "token": tokens[0]},
            {"type": "join", "seat": 0, "token": tokens[10]},
            {"type": "join", "token": tokens[2]},
        ):
            with tk.connect(client, tid) as sock:
                sock.send(hello)
                code, seen = sock.until_closed()
                assert code == 1008 and seen[0]["type"] == "error"
        with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid, 2, tokens[2]) as two:
            # A bad message on the way.
            two.send("{not json")
            two.expect("error")
            tk.play_to_end({0: zero, 2: two}, stop_after=2)
        with tk.join(client, tid, 0, tokens[0]) as zero, tk.join(client, tid, 2, tokens[2]) as two:
            tk.play_to_end({0: zero, 2: two})
        client.get(f"/api/tables/{tid}/record")
        client.get("/api/tables")

    assert caplog.records, "nothing was logged at all: is capture working?"
    logged = caplog.text + "".join(str(r.args) for r in caplog.records)
    out, err = capfd.readouterr()
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("tavernkeep.db*"))
    assert stored, "the database was not found"
    for token in tokens.values():
        assert token not in logged
        assert token not in out and token not in err
        # Only SHA-256 hashes of tokens are kept.
        assert token.encode() not in stored


def serve_banner(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    """Run `tavernkeep serve` up to the point where uvicorn would start."""
    from types import SimpleNamespace

    import tavernkeep.server.app as app_module

    storage = SimpleNamespace(me="0123abcd", shared=url.startswith("postgresql"))
    web = SimpleNamespace(state=SimpleNamespace(tavern=SimpleNamespace(storage=storage)))
    monkeypatch.setattr(app_module, "create_app", lambda *a, **k: web)
    monkeypatch.setattr(app_module, "run", lambda *a, **k: None)
    assert cli_main(["serve", "--port", "8123", "--database-url", url]) == 0


PASSWORD = "hunter2-pw-9f3c"


def test_the_start_banner_does_not_print_the_database_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_banner(monkeypatch, f"postgresql://tavernkeep:{PASSWORD}@127.0.0.1:5432/tavernkeep")
    out, err = capsys.readouterr()
    assert "127.0.0.1:8123" in out
    assert "server process 0123abcd" in out  # which of several processes this is
    assert PASSWORD not in out + err


def test_a_database_error_does_not_print_the_password(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Port 1 on loopback: nothing listens there, so the connection is refused at once.
    url = f"postgresql://tavernkeep:{PASSWORD}@127.0.0.1:1/tavernkeep?connect_timeout=2"
    assert cli_main(["serve", "--port", "8124", "--database-url", url]) == 2
    out, err = capsys.readouterr()
    assert "cannot" in err
    assert PASSWORD not in out + err
