"""The look of every table: the lobby and each game's table at fixed positions, read as
the computed style of every element, so a change to the stylesheets that changes what a
person sees fails here.

Each game is set up from a fixed seed with people in every seat (no bots, so nothing
moves on its own but a person's forced pass), one page a seat, and played by clicking the
actions a fixed rule picks; at fixed decisions, and at three screen widths at the last
one, the page of Player 1 (and once a spectator's) is read.

What is compared with `look.json` is, for each kind of element (its tag and classes
under its parent's), the computed styles it was drawn with: a rules change that deals
other cards shows other elements, which is no failure; the same element drawn otherwise
is. Nothing here depends on fonts or layout (lengths are read as computed, before
layout), so the file holds on any machine with a Chromium.

For a change meant to keep the look to the pixel (moving CSS around), two runs compare
whole pages on one machine:

    TAVERNKEEP_LOOK_SAVE=/tmp/look-before pytest -n 0 tests/browser/test_look.py
    (the change)
    TAVERNKEEP_LOOK_SAVE=/tmp/look-after TAVERNKEEP_LOOK_BEFORE=/tmp/look-before \\
        pytest -n 0 tests/browser/test_look.py

The first saves a screenshot and every element's full computed style a scene; the second
fails on any pixel or style that differs, naming the scenes. A change meant to alter the
look rewrites `look.json` with TAVERNKEEP_LOOK_UPDATE=1.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
REFERENCE = HERE / "look.json"
SAVE = os.environ.get("TAVERNKEEP_LOOK_SAVE")
BEFORE = os.environ.get("TAVERNKEEP_LOOK_BEFORE")
UPDATE = os.environ.get("TAVERNKEEP_LOOK_UPDATE") == "1"

DECIDE = "#actions button.action:not([disabled])"
WIDTHS = (1280, 1000, 600)
"""The wide table, and one width past each of the stylesheet's narrower steps."""
HEIGHT = 900

# game: how its table is set up, and after how many decisions Player 1's page is read.
TABLES: dict[str, dict[str, Any]] = {
    "hack-and-slash": {"seats": 3, "seed": 5, "options": {}, "at": (0, 5, 14)},
    "here-to-slay": {"seats": 3, "seed": 54, "options": {"leaders": "random"}, "at": (0, 6, 18)},
    "crits-and-tricks": {"seats": 3, "seed": 12, "options": {}, "at": (0, 6, 16)},
    "side-quest": {"seats": 2, "seed": 3, "options": {"turn_limit": 3}, "at": (0, 6, 18)},
    "rage": {"seats": 1, "seed": 11, "options": {"turn_limit": 4}, "at": (0, 8, 60)},
}

# Runs in every page before its own scripts: the last state version the page was sent,
# and when its document last changed, so a scene is read only once the page is still.
SETTLE_SCRIPT = """
(() => {
  const look = (window.__look = { version: -1, changed: 0 });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        try {
          const message = JSON.parse(event.data);
          if (message.type === "state") look.version = message.version;
        } catch {}
      });
    }
  };
  const touch = () => { look.changed = performance.now(); };
  new MutationObserver(touch).observe(document, {
    subtree: true, childList: true, attributes: true, characterData: true,
  });
  touch();
})();
"""

STILL = """(version) => window.__look.version >= version
  && performance.now() - window.__look.changed > 300"""

BOX_SIDES = [
    f"{box}-{side}" for box in ("margin", "padding") for side in ("top", "right", "bottom", "left")
]

# Read as computed, before layout (CSS Typed OM), so that no font or screen size shows.
STYLE_PROPERTIES = [
    *(
        f"{side}-{part}"
        for side in ("border-top", "border-right", "border-bottom", "border-left")
        for part in ("color", "style", "width")
    ),
    *BOX_SIDES,
    "align-items", "align-self", "background-color", "background-image", "background-position",
    "background-size", "border-bottom-left-radius", "border-bottom-right-radius",
    "border-top-left-radius", "border-top-right-radius", "bottom", "box-shadow", "color",
    "column-gap", "content", "cursor", "display", "fill", "fill-opacity", "filter",
    "flex-basis", "flex-direction", "flex-grow", "flex-shrink", "flex-wrap", "font-family",
    "font-size", "font-style", "font-variant-numeric", "font-weight", "grid-column",
    "grid-row", "grid-template-areas", "grid-template-columns", "grid-template-rows", "height",
    "justify-content", "left", "letter-spacing", "line-height", "max-height", "max-width",
    "min-height", "min-width", "object-fit", "opacity", "outline-color", "outline-offset",
    "outline-style", "outline-width", "overflow-x", "overflow-y", "pointer-events",
    "position", "right", "row-gap", "stroke", "stroke-dasharray", "stroke-opacity",
    "stroke-width", "text-align", "text-decoration-line", "text-shadow", "text-transform",
    "top", "transform", "transition-duration", "visibility", "white-space", "width",
    "z-index",
]

# What getComputedStyle gives as laid out (in pixels of this screen and these fonts), not
# as computed: left out of a pseudo-element's styles, which only getComputedStyle reads.
LAID_OUT = [
    *BOX_SIDES,
    "width", "height", "top", "right", "bottom", "left", "transform",
    "grid-template-columns", "grid-template-rows",
]

# Every element of the page, in document order: its kind (tag and classes under its
# parent's) and the styles it and its ::before and ::after are drawn with. `full` reads
# every property as the screen shows it (for a before/after run on one machine); else the
# listed ones, before layout.
READ_STYLES = """([properties, laidOut, full]) => {
  const kind = (el) => el ? el.tagName.toLowerCase() + [...el.classList].sort()
    .map((c) => "." + c).join("") : "";
  const read = (style) => {
    const out = [];
    // Custom properties are only the means (and come in no fixed order): what they
    // paint shows in the properties that use them.
    const names = full
      ? [...style].filter((p) => !p.startsWith("--"))
      : properties.filter((p) => !laidOut.includes(p));
    for (const p of names) out.push(p + ":" + style.getPropertyValue(p));
    return out.join(";");
  };
  const typed = (el) => {
    const map = el.computedStyleMap();
    return properties.map((p) => {
      try {
        return p + ":" + String(map.get(p));
      } catch {
        return p + ":?";
      }
    }).join(";");
  };
  const rows = [];
  for (const el of document.querySelectorAll("body, body *")) {
    const parts = [full ? read(getComputedStyle(el)) : typed(el)];
    for (const pseudo of ["::before", "::after"]) {
      const style = getComputedStyle(el, pseudo);
      if (style.content && style.content !== "none" && style.content !== "normal") {
        parts.push(pseudo + "{" + read(style) + "}");
      }
    }
    rows.push([kind(el.parentElement) + " > " + kind(el), parts.join("|")]);
  }
  return rows;
}"""


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


class Looks:
    """What the scenes showed: the styles of each kind of element, and for a saved run its
    screenshots and full styles."""

    def __init__(self) -> None:
        self.kinds: dict[str, set[str]] = {}
        self.scenes: list[str] = []
        self.seen_in: dict[tuple[str, str], tuple[str, str]] = {}
        """(kind, digest): the first scene that drew it and its styles, so that a failure
        can say where and how an element was drawn otherwise."""

    def read(self, page: Any, scene: str, widths: tuple[int, ...] = (WIDTHS[0],)) -> None:
        # Nothing hovered or focused, and nothing on its way back from a hover (a button
        # that came up under the pointer after a click): the same page for every run.
        page.mouse.move(0, HEIGHT - 1)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        for width in widths:
            name = scene if width == WIDTHS[0] else f"{scene}-{width}"
            page.set_viewport_size({"width": width, "height": HEIGHT})
            page.wait_for_function(
                "document.getAnimations().every((a) => !(a instanceof CSSTransition))"
            )
            for kind, styles in page.evaluate(READ_STYLES, [STYLE_PROPERTIES, LAID_OUT, False]):
                self.kinds.setdefault(kind, set()).add(digest(styles))
                self.seen_in.setdefault((kind, digest(styles)), (name, styles))
            if SAVE:
                self.save(page, name)
            self.scenes.append(name)
        page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT})

    def save(self, page: Any, name: str) -> None:
        folder = Path(SAVE or "")
        folder.mkdir(parents=True, exist_ok=True)
        rows = page.evaluate(READ_STYLES, [STYLE_PROPERTIES, LAID_OUT, True])
        lines = [f"{kind} {digest(styles)}" for kind, styles in rows]
        (folder / f"{name}.styles").write_text("\n".join(lines) + "\n")
        # As tall as the page, so the fixed background is painted behind all of it.
        width = page.viewport_size["width"]
        height = int(page.evaluate("document.documentElement.scrollHeight"))
        page.set_viewport_size({"width": width, "height": max(height, HEIGHT)})
        # A table's id is new on every run (and its letters differ in width).
        page.evaluate(
            """() => { const id = document.getElementById("table-id");
                       if (id) id.textContent = "table 0000000000"; }"""
        )
        page.screenshot(path=str(folder / f"{name}.png"), animations="disabled", caret="hide")
        page.set_viewport_size({"width": width, "height": HEIGHT})


def settle(server: Any, table_id: str, pages: dict[int, Any]) -> int | None:
    """Wait until a person holds the decision (their seat) or the game is over (None),
    with every page showing the server's latest state and done drawing it."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        summary = server.get(f"/api/tables/{table_id}")
        version = summary["actions"]
        for page in pages.values():
            page.wait_for_function(STILL, arg=version)
        deciding = [seat for seat, page in pages.items() if page.locator(DECIDE).count()]
        # A person with only a pass is passed for by the server after a pause: until the
        # table stands still, wait on.
        if server.get(f"/api/tables/{table_id}")["actions"] != version:
            continue
        if summary["status"] == "finished":
            return None
        if deciding:
            return deciding[0]
        time.sleep(0.1)
    raise AssertionError(f"{table_id}: the table did not settle")


def play_and_read(server: Any, ui: Any, looks: Looks, game: str) -> None:
    table = TABLES[game]
    created = server.create_table(
        game=game, seats=["human"] * table["seats"], seed=table["seed"], options=table["options"]
    )
    pages: dict[int, Any] = {}
    for entry in created["seats"]:
        context = ui.new_context()
        context.add_init_script(SETTLE_SCRIPT)
        pages[entry["seat"]] = context.new_page()
        pages[entry["seat"]].goto(server.url(entry["invite"]))
    last = max(table["at"])
    for step in range(last + 1):
        seat = settle(server, created["id"], pages)
        if step in table["at"] or seat is None:
            final = step == last or seat is None
            looks.read(pages[0], f"{game}-{step}", WIDTHS if final else (WIDTHS[0],))
            if final:
                break
        assert seat is not None
        page = pages[seat]
        # A fixed pick that is not always the first choice, so the tables move along
        # (and Rage's village is sneaked through until dawn, not left at once).
        buttons = page.locator(f'{DECIDE}:not([data-action="escape"])')
        target = buttons.nth((step * 7 + 3) % buttons.count())
        handle = target.element_handle()
        target.click()
        page.wait_for_function("el => !el.isConnected", arg=handle)
    context = ui.new_context()
    context.add_init_script(SETTLE_SCRIPT)
    spectator = context.new_page()
    spectator.goto(server.url(created["spectate"] + "#watch"))
    version = server.get(f"/api/tables/{created['id']}")["actions"]
    # Every table here has a chosen deal, which the seats panel says once it is drawn:
    # read the page after that, not while its panel is still coming (a CI run caught it).
    spectator.locator("#table-rules li").first.wait_for()
    spectator.wait_for_function(STILL, arg=version)
    looks.read(spectator, f"{game}-watch")


def compare_saved(before: Path, after: Path, scenes: list[str]) -> list[str]:
    """Scenes whose screenshot or styles differ between two saved runs."""
    import numpy as np
    from PIL import Image

    differences = []
    for scene in scenes:
        old, new = Image.open(before / f"{scene}.png"), Image.open(after / f"{scene}.png")
        if old.size != new.size:
            differences.append(f"{scene}: {old.size} px then {new.size} px")
        else:
            changed = np.any(
                np.asarray(old.convert("RGBA")) != np.asarray(new.convert("RGBA")), axis=2
            )
            if changed.any():
                differences.append(f"{scene}: {int(changed.sum())} pixels differ")
        # Each line is an element's kind and the digest of its styles; a change may well
        # add classes (the kind), but no element may be drawn otherwise.
        old_styles = [line.rsplit(" ", 1)[-1] for line in (before / f"{scene}.styles").open()]
        new_styles = [line.rsplit(" ", 1)[-1] for line in (after / f"{scene}.styles").open()]
        if old_styles != new_styles:
            otherwise = sum(a != b for a, b in zip(old_styles, new_styles, strict=False))
            otherwise += abs(len(old_styles) - len(new_styles))
            differences.append(f"{scene}: {otherwise} elements styled otherwise")
    return differences


@pytest.fixture
def looks(server: Any, ui: Any) -> Looks:
    looks = Looks()
    # The lobby first, while it lists no open tables (their ages would differ each run).
    for game in [None, *TABLES]:
        page = ui.new_page(server.url("/" if game is None else f"/?game={game}"))
        page.locator("#seat-rows select").first.wait_for()
        page.wait_for_load_state("networkidle")
        looks.read(page, f"lobby-{game or 'first'}", WIDTHS if game is None else (WIDTHS[0],))
        page.close()
    return looks


def test_every_table_looks_as_it_did(server: Any, ui: Any, looks: Looks) -> None:
    for game in TABLES:
        play_and_read(server, ui, looks, game)
    if SAVE and BEFORE:
        differences = compare_saved(Path(BEFORE), Path(SAVE), looks.scenes)
        assert not differences, "the pages changed:\n" + "\n".join(differences)
    seen = {kind: sorted(styles) for kind, styles in sorted(looks.kinds.items())}
    chromium = ui.browser.version
    if UPDATE or not REFERENCE.exists():
        REFERENCE.write_text(json.dumps({"chromium": chromium, "kinds": seen}, indent=0) + "\n")
        if not UPDATE:
            pytest.fail(f"{REFERENCE.name} was missing: written now, commit it")
        return
    reference = json.loads(REFERENCE.read_text())
    known: dict[str, list[str]] = reference["kinds"]
    # A kind of element the reference never saw (another deal) is no change of look.
    changed = [
        kind for kind, styles in seen.items() if not set(styles) <= set(known.get(kind, styles))
    ]
    # Where and how: the scene and the styles of each new drawing of the first few kinds,
    # so a change that shows only now and then can be told from the log alone.
    shown = [
        f"{kind} in {looks.seen_in[kind, d][0]}: {looks.seen_in[kind, d][1]}"
        for kind in changed[:3]
        for d in sorted(set(seen[kind]) - set(known.get(kind, [])))
    ]
    assert not changed, (
        f"{len(changed)} kinds of element are drawn otherwise than {REFERENCE.name} says "
        f"(written with Chromium {reference['chromium']}, this is {chromium}); "
        "TAVERNKEEP_LOOK_UPDATE=1 rewrites it when the change is meant: "
        + ", ".join(changed[:20])
        + "\n"
        + "\n".join(shown)
    )
