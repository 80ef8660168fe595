"""Browser tests: a real `tavernkeep serve` process played through headless Chromium.

The server runs as a subprocess on a free port of 127.0.0.1 (bots at 0.05 s), the browser
is the system Chromium driven by Playwright's sync API (Playwright never downloads a
browser here). Tests use only what a person sees and does: the pages' text, their buttons
and cards, the download link.

The whole folder is skipped, with the reason, when playwright or Chromium is missing; in
CI (CI=true) a missing browser fails instead, so a machine without one cannot pass quietly.
Set TAVERNKEEP_CHROMIUM to use a Chromium elsewhere than /usr/bin/chromium, and
TAVERNKEEP_TEST_POSTGRES_URL for the PostgreSQL variants (the server's tables are
dropped before each use).

Test modules cannot import this file (pytest runs with --import-mode=importlib): they get
everything through the `ui`, `server`, `start_server` and `postgres_url` fixtures.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

HERE = Path(__file__).parent
ARTIFACTS = HERE / "artifacts"
CHROMIUM = os.environ.get("TAVERNKEEP_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-gpu",
    "--disable-component-update",
    "--no-first-run",
]
PG_ENV = "TAVERNKEEP_TEST_POSTGRES_URL"
BOT_DELAY = "0.05"
PASS_DELAY = "0.2"
STARTUP_S = 30.0
TIMEOUT_MS = 15_000
"""Playwright's default wait: generous, since a failing wait is the failure message."""
VIEWPORT = {"width": 1280, "height": 900}

DECIDE = "#actions button.action:not([disabled])"
"""An action button a person can press now: the page's sign that it is their decision."""
OVER = "#banner h2"


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install playwright)"
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return None


MISSING = _missing()


@pytest.fixture(scope="session", autouse=True)
def _browser_available() -> None:
    if MISSING is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"the browser tests cannot run in CI: {MISSING}", pytrace=False)
    pytest.skip(f"browser tests need playwright and Chromium: {MISSING}")


# -- the server --------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http(method: str, url: str, body: Any = None, timeout: float = 5.0) -> tuple[int, Any]:
    """(status, JSON body or text) of one request; never raises for an HTTP status."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as exc:
        status, raw = exc.code, exc.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode(errors="replace")


class LiveServer:
    """`tavernkeep serve` as a subprocess; `kill()` is SIGKILL, `restart()` reuses the
    port and the database, so pages that were open reconnect to the same address."""

    def __init__(self, database_url: str, logs: Path) -> None:
        self.database_url = database_url
        self.logs_dir = logs
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self.starts += 1
        self.log = self.logs_dir / f"server-{self.port}-{self.starts}.log"
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tavernkeep.cli",
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--database-url",
                    self.database_url,
                    "--bot-delay",
                    BOT_DELAY,
                    # People's passes, and the lobby tests' many tables, at a test's pace.
                    "--pass-delay",
                    PASS_DELAY,
                    "--tables-per-minute",
                    "600",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        deadline = time.monotonic() + STARTUP_S
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited at start:\n{self.output()}")
            try:
                if http("GET", self.base + "/api/games", timeout=1.0)[0] == 200:
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"the server did not answer in {STARTUP_S} s:\n{self.output()}"
                )
            time.sleep(0.05)

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as when a machine loses power."""
        assert self.proc is not None and self.proc.poll() is None, "not running"
        self.proc.send_signal(signal.SIGKILL)
        assert self.proc.wait(timeout=10) == -signal.SIGKILL

    def restart(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.kill()
        self.start()

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    # the HTTP API, for what a test sets up or checks behind the page's back
    def get(self, path: str) -> Any:
        status, body = http("GET", self.base + path)
        assert status == 200, f"GET {path}: {status} {body}"
        return body

    def create_table(self, **body: Any) -> dict[str, Any]:
        body.setdefault("game", "hack-and-slash")
        status, created = http("POST", self.base + "/api/tables", body)
        assert status == 201, f"POST /api/tables: {status} {created}"
        return dict(created)

    def url(self, path: str) -> str:
        return self.base + path


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[[str], LiveServer]]:
    """Start servers on given database URLs; every one is stopped at teardown."""
    servers: list[LiveServer] = []
    logs = tmp_path / "logs"
    logs.mkdir(exist_ok=True)

    def start(database_url: str) -> LiveServer:
        srv = LiveServer(database_url, logs)
        servers.append(srv)
        srv.start()
        return srv

    yield start
    for srv in servers:
        srv.stop()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tavernkeep.db'}"


@pytest.fixture
def server(start_server: Callable[[str], LiveServer], sqlite_url: str) -> LiveServer:
    return start_server(sqlite_url)


@pytest.fixture
def postgres_url() -> str:
    """TAVERNKEEP_TEST_POSTGRES_URL with the server's tables dropped (the server creates
    them afresh); skipped when the variable is unset."""
    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"no PostgreSQL: set {PG_ENV} (see tests/server/pg_setup.sh)")
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    from tavernkeep.server.storage import metadata, normalise_url

    engine = create_engine(normalise_url(url), poolclass=NullPool)
    try:
        # Every table the server keeps, in the order their keys allow.
        with engine.begin() as conn:
            metadata.drop_all(conn)
    finally:
        engine.dispose()
    return url


# -- the browser -------------------------------------------------------------------------

# Runs in every page before its own scripts: records, for the test to read, every toast a
# person was shown and every moment the page offered a decision that was not its seat's.
WATCH_SCRIPT = """
(() => {
  const tk = (window.__tk = { toasts: [], violations: [] });
  const seen = new WeakSet();
  const text = (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent.trim());
  const check = () => {
    for (const node of document.querySelectorAll(".toast")) {
      if (!seen.has(node)) {
        seen.add(node);
        tk.toasts.push(node.textContent.replace(/×$/, "").trim());
      }
    }
    const offered = document.querySelectorAll("#actions button.action, #game .playable");
    if (offered.length && !document.querySelector("#seats li.mine.deciding")) {
      tk.violations.push({
        offered: [...offered].map((e) => e.dataset.action || e.getAttribute("title") || ""),
        who: text("#who").join(""),
        deciding: text("#seats li.deciding"),
        prompt: text("#prompt").join(""),
      });
    }
  };
  new MutationObserver(check).observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["class"],
  });
})();
"""


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class UI:
    """Opening pages and doing, on a table page, what a person does."""

    DECIDE = DECIDE
    OVER = OVER

    def __init__(self, browser: Browser, downloads: Path) -> None:
        from playwright.sync_api import expect

        self.expect = expect
        self.browser = browser
        self.downloads = downloads
        self.contexts: list[BrowserContext] = []
        self.js_errors: list[str] = []

    # pages
    def new_context(self, reduced_motion: bool = True) -> BrowserContext:
        """A browser profile of its own (its own localStorage): one person.

        With `reduced_motion` the dice land at once (the table honours the setting), which
        keeps games fast; without it every roll tumbles for 0.6 s as most people see it."""
        context = self.browser.new_context(
            viewport=VIEWPORT,  # type: ignore[arg-type]
            reduced_motion="reduce" if reduced_motion else "no-preference",
            accept_downloads=True,
        )
        context.set_default_timeout(TIMEOUT_MS)
        context.add_init_script(WATCH_SCRIPT)
        context.on("page", self._watch)
        self.contexts.append(context)
        return context

    def new_page(self, url: str | None = None, reduced_motion: bool = True) -> Page:
        page = self.new_context(reduced_motion).new_page()
        if url is not None:
            page.goto(url)
        return page

    def _watch(self, page: Page) -> None:
        page.on("pageerror", lambda exc: self.js_errors.append(f"{page.url}: {exc}"))

        def console(message: Any) -> None:
            # table.js reports a message it could not show, or a renderer that threw.
            if message.type == "error" and re.match(
                r"could not show|renderer failed|picture failed|rule tip failed", message.text
            ):
                self.js_errors.append(f"{page.url}: console: {message.text}")

        page.on("console", console)

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    def shoot(self, page: Page, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        # The whole page in one viewport as tall as the page: a full-page shot of a
        # smaller viewport paints the fixed wood background (and the sticky top bar)
        # only where the viewport was, which a person never sees.
        height = int(page.evaluate("document.documentElement.scrollHeight"))
        page.set_viewport_size({"width": VIEWPORT["width"], "height": max(height, 200)})
        try:
            page.screenshot(path=str(path))
        finally:
            page.set_viewport_size(VIEWPORT)  # type: ignore[arg-type]
        return path

    # reading the table page
    def toasts(self, page: Page) -> list[str]:
        return list(page.evaluate("() => window.__tk.toasts"))

    def violations(self, page: Page) -> list[dict[str, Any]]:
        return list(page.evaluate("() => window.__tk.violations"))

    def wait_connected(self, page: Page, timeout: float = TIMEOUT_MS) -> None:
        self.expect(page.locator("#conn")).to_have_text("connected", timeout=timeout)

    def wait_turn(self, page: Page, timeout: float = TIMEOUT_MS) -> bool:
        """Wait until this page offers a decision (True) or shows the result (False)."""
        page.locator(f"{OVER}, {DECIDE}").first.wait_for(state="visible", timeout=timeout)
        return page.locator(OVER).count() == 0

    def offered(self, page: Page) -> list[dict[str, Any]]:
        """The decision on offer: each button's action, label and first odds figure."""
        offered: list[dict[str, Any]] = page.locator(DECIDE).evaluate_all(
            """els => els.map(e => ({
                 action: e.dataset.action,
                 label: e.querySelector('.action-label').textContent,
                 odds: (e.querySelector('.action-odds') || {textContent: ''}).textContent,
               }))"""
        )
        for entry in offered:
            match = re.search(r"(\d+)%", entry["odds"])
            entry["chance"] = int(match[1]) if match else 50
        return offered

    def visible_state(self, page: Page) -> dict[str, Any]:
        """Everything a person reads on a Hack & Slash table page, as text."""
        state: dict[str, Any] = page.evaluate(
            """() => {
              const t = (sel) => [...document.querySelectorAll(sel)]
                .map((e) => e.textContent.replace(/\\s+/g, ' ').trim());
              const dice = (sel) => [...document.querySelectorAll(sel)]
                .map((e) => e.getAttribute('aria-label'));
              return {
                title: t('#game-title'), who: t('#who'), round: t('#game .hs-round'),
                turn: t('#game .hs-turn'), last_round: t('#game .hs-last-round'),
                scores: t('#game .guild-score'), home: t('#game .guild-count'),
                away: t('#game .guild-away'), score_piles: t('#game .score-pile'),
                tavern: t('#game .hs-tavern h3'), draw_pile: t('#game .hs-draw-count'),
                cards: t('#game .quest-card'), card_dice: dice('#game .die'),
                tray: t('#dice-tray .dice-caption'), tray_dice: dice('#dice-tray .die'),
                seats: t('#seats li'), prompt: t('#prompt'),
                actions: t('#actions button.action'), log: t('#log li'),
              };
            }"""
        )
        return state

    # acting
    def choose(self, offered: list[dict[str, Any]]) -> str:
        """A quick game: always try a rescue, else take the longest shot on offer (a
        guild that fails often runs out of adventurers, which ends the game)."""
        rescues = [o for o in offered if o["action"].startswith("rescue:")]
        if rescues:
            return str(rescues[0]["action"])
        return str(min(offered, key=lambda o: (o["chance"], o["action"]))["action"])

    def take_turn(self, page: Page, by: str = "button", action: str | None = None) -> str:
        """Make one decision: click its action button (`by="button"`), or its quest card or
        the die on the card (`by="card"`; a quit has no card, so it is a button), or press
        its number key (`by="key"`). Returns the action, once the page has taken it."""
        offered = self.offered(page)
        assert offered, "no decision on offer"
        action = action or self.choose(offered)
        target = page.locator(f'{DECIDE}[data-action="{action}"]')
        if by == "key":
            index = [o["action"] for o in offered].index(action)
            assert index < 9, "only the first nine choices have a key"
            handle = target.element_handle()
            page.keyboard.press(str(index + 1))
            page.wait_for_function("el => !el.isConnected", arg=handle)
            return action
        if by == "card":
            if action == "brag":
                target = page.locator("#game .hs-side .quest-card.playable")
            elif action.startswith("quest:"):
                # `quest:N` is the slot shown as N, the N-th card.
                slot = int(action.split(":")[1])
                target = page.locator(f"#game .hs-quests > :nth-child({slot}).playable")
            elif action.startswith("rescue:"):
                value = action.split(":")[1]
                target = page.locator(
                    f'#game .on-card-dice .die.playable[aria-label="die showing {value}"]'
                ).first
        handle = target.element_handle()
        target.click()
        # An accepted click replaces what was clicked: the buttons at once (they turn
        # into disabled ones while the action is on its way), a card with the next state.
        page.wait_for_function("el => !el.isConnected", arg=handle)
        return action

    def play_to_end(
        self,
        page: Page,
        max_turns: int = 80,
        on_turn: Callable[[int], None] | None = None,
        by: Callable[[int], str] = lambda turn: "card" if turn % 2 else "button",
    ) -> list[str]:
        """Play this page's seat until the result shows; `on_turn(n)` runs before the
        n-th decision (screenshots, checks)."""
        taken = []
        for turn in range(max_turns):
            if not self.wait_turn(page):
                return taken
            if on_turn is not None:
                on_turn(turn)
                if not self.wait_turn(page):
                    return taken
            taken.append(self.take_turn(page, by(turn)))
        raise AssertionError(f"the game did not end within {max_turns} decisions")

    def download_record(self, page: Page) -> tuple[Path, Any]:
        link = page.get_by_role("link", name="Download the game record")
        with page.expect_download() as info:
            link.click()
        download = info.value
        path = self.downloads / download.suggested_filename
        download.save_as(path)
        return path, download


@pytest.fixture
def ui(browser: Browser, tmp_path: Path) -> Iterator[UI]:
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    helper = UI(browser, downloads)
    try:
        yield helper
    finally:
        helper.close()
    assert not helper.js_errors, f"script errors on the pages: {helper.js_errors}"


def replay_check(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """`tavernkeep replay PATH --check`: its exit code must be 0; returns what it printed."""
    from tavernkeep.cli import main

    capsys.readouterr()
    code = main(["replay", str(path), "--check"])
    out = capsys.readouterr()
    assert code == 0, f"replay --check exited {code}: {out.out}{out.err}"
    return out.out


@pytest.fixture
def check_replay(capsys: pytest.CaptureFixture[str]) -> Callable[[Path], str]:
    return lambda path: replay_check(path, capsys)
