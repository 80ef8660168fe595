"""Side Quest in the browser: every decision shows, on the thing it is about, what a
person needs to decide it (issue 25, item 2).

Positions are laid out by hand with the rules (the Side Quest tests' helpers), then
drawn in a page of the live server by the game's own renderer with the server's
`legal: [{action, label, odds}]`, and read as a person reads them: the chances of an
attack on its Location's chip, a move's Grab Attacks on the chip of where it goes, a
rescue's on the Damsel, a cast's on the spell, a re-roll's on the card or ability that
re-rolls, and what a hit, a wound or a card's target will do on what it is given to.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from tavernkeep.engine.rng import Rng
from tavernkeep.games.side_quest import GAME, SideQuestState

HELPERS = "side_quest_helpers"


def _helpers() -> Any:
    """tests/games/side_quest/helpers.py, loaded once under the name its conftest uses."""
    if HELPERS not in sys.modules:
        path = Path(__file__).parents[1] / "games" / "side_quest" / "helpers.py"
        spec = importlib.util.spec_from_file_location(HELPERS, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[HELPERS] = module
        spec.loader.exec_module(module)
    return sys.modules[HELPERS]


sq = _helpers()
POCK, IVO, HILDE, CORVIN = (
    "Pock Quickfingers",
    "Ivo Twice-Lucky",
    "Hilde Stonewall",
    "Corvin Ashveil",
)
SWORD, STAFF, SLING = "Notched Shortsword", "Iron-shod Staff", "Leather Sling"

# Draws a view with the renderer alone and reads each place an action shows: the chips
# (their words, what the choice does, its chances), the notes on cards that are choices,
# and the buttons of the decision box.
DRAW = """async ({view, legal, seat, keep}) => {
  const { render } = await import('/games/side-quest/renderer.js');
  const text = (node) => (node ? node.textContent.replace(/\\s+/g, ' ').trim() : '');
  document.querySelectorAll('.sq-shown').forEach((e) => e.remove());
  const box = document.createElement('div');
  box.className = 'sq-shown';
  document.body.prepend(box);
  render(box, view, { seat, legal, seatNames: [], onAction: () => {} });
  const read = {
    chips: [...box.querySelectorAll('.sq-act')].map((e) => ({
      action: e.dataset.action,
      text: text(e.querySelector('.sq-act-text')),
      detail: text(e.querySelector('.sq-act-detail')),
      odds: text(e.querySelector('.sq-odds')),
    })),
    notes: [...box.querySelectorAll('.sq-card-note')].map((e) => ({
      action: e.closest('[data-action]') ? e.closest('[data-action]').dataset.action : null,
      text: text(e.querySelector('.sq-note-text')),
      odds: text(e.querySelector('.sq-odds')),
    })),
    buttons: [...box.querySelectorAll('.sq-choices button')].map((e) => ({
      action: e.dataset.action,
      text: text(e.querySelector('.sq-choice-label')),
      odds: text(e.querySelector('.sq-odds')),
    })),
  };
  if (!keep) box.remove();
  return read;
}"""
SHOW = """async () => {
  // The game's own look, as the table page loads it, for a screenshot of the board.
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = '/games/side-quest/style.css';
  const loaded = new Promise((done) => { link.onload = done; link.onerror = done; });
  document.head.append(link);
  await loaded;
}"""


def draw(page: Any, st: SideQuestState, keep: bool = False) -> dict[str, Any]:
    """Draw `st` as its deciding seat sees it and read it; `keep` leaves it on the page."""
    seat = GAME.actor(st)
    legal = [
        {"action": a.text, "label": GAME.label(st, a), "odds": GAME.odds(st, a)}
        for a in GAME.legal_actions(st)
    ]
    read: dict[str, Any] = page.evaluate(
        DRAW, {"view": GAME.view(st, seat), "legal": legal, "seat": seat, "keep": keep}
    )
    return read


def chip(read: dict[str, Any], action: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [c for c in read["chips"] if c["action"] == action]
    assert len(found) >= 1, (action, read["chips"])
    return found[0]


def note(read: dict[str, Any], action: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [n for n in read["notes"] if n["action"] == action]
    assert len(found) == 1, (action, read["notes"])
    return found[0]


def give(st: SideQuestState, seat: int, name: str) -> int:
    c = int(sq.put(st, name, 0))
    st.here[0].remove(c)
    kind = st.card_kind[c]
    if kind == "weapon":
        st.weapons[seat].append(c)
        st.equipped[seat].append(c)
    else:
        (st.spells if kind == "spell" else st.items)[seat].append(c)
    return c


def test_each_roll_shows_its_chances_where_it_is_chosen(server: Any, ui: Any) -> None:
    page = ui.new_page(server.url("/"))

    # Pock, an Iron-shod Staff (2d 4+), beside an Ogre Bruiser (2 health, 2d 5+ dmg2).
    st = sq.arena([POCK], [STAFF], [0])
    sq.put(st, "Ogre Bruiser", 0)
    read = draw(page, st)
    attack = chip(read, "attack:1")
    assert (attack["text"], attack["odds"]) == ("Attack", "25% 2+ damage · 61% 2+ with boost")
    move = chip(read, "move:2")
    assert (move["text"], move["odds"]) == ("Move here", "69% unhurt · 28% 2 damage · 3% fall")

    # Corvin (+1 to rescue) by a Damsel, a Dowsing Rod in his pack (+1 to Loot).
    st = sq.arena([CORVIN], [SWORD], [0], pack=sq.special_pack())
    give(st, 0, "Hazel Dowsing Rod")
    damsel = sq.put(st, "a Damsel", 0)
    read = draw(page, st)
    rescue = note(read, f"rescue:{damsel}")
    assert rescue == {
        "action": f"rescue:{damsel}",
        "text": "3+ on a die with your +1; her thanks: a Loot card",
        "odds": "67% · 100% with boost",
    }
    loot = chip(read, "loot")
    assert (loot["text"], loot["odds"]) == ("Loot", "50% · 83% with boost")

    # Ozric (+1 to spells) with Searing Lance (5+), one action left.
    st = sq.arena(["Ozric Emberquill"], [SLING], [0])
    lance = give(st, 0, "Searing Lance")
    sq.put(st, "Cellar Rat", 1)
    st.actions = 1
    cast = chip(draw(page, st), f"cast:{lance}")
    assert (cast["text"], cast["odds"]) == ("cast", "50%")

    # Ivo's failed Loot: his ability re-rolls, the 1 cannot be boosted to 5 with 2 actions.
    st = sq.arena([IVO], [SWORD], [0])
    sq.dice(st, 1)
    sq.play(st, "loot")
    read = draw(page, st)
    reroll = chip(read, "reroll:-1")
    assert (reroll["text"], reroll["odds"]) == ("Re-roll (ability)", "33% · 67% with boost")
    keep = [b for b in read["buttons"] if b["action"] == "keep"]
    assert [b["text"] for b in keep] == ["Let the roll stand: it fails"]
    assert ui.js_errors == []


def test_hits_wounds_and_targets_say_what_they_will_do(server: Any, ui: Any) -> None:
    page = ui.new_page(server.url("/"))

    # Two hits to give: the Rat falls to one, the Ogre needs both.
    st = sq.arena([POCK], [STAFF], [0])
    rat, ogre = sq.put(st, "Cellar Rat", 0), sq.put(st, "Ogre Bruiser", 0)
    sq.dice(st, 5, 6)
    sq.play(st, "attack:1")
    read = draw(page, st)
    assert note(read, f"hit:{rat}")["text"] == "1/1 damage: slain"
    assert note(read, f"hit:{ogre}")["text"] == "1/2 damage"
    sq.play(st, f"hit:{ogre}")
    assert note(draw(page, st), f"hit:{ogre}")["text"] == "2/2 damage: slain"

    # The Ogre hits Pock (2 health) and Hilde (armor 1) twice, for 2 a hit.
    st = sq.arena([POCK, HILDE], [SWORD, SLING], [0, 0])
    sq.put(st, "Ogre Bruiser", 0)
    st.health[0] = 2
    sq.dice(st, 6, 6)
    sq.play(st, "end", "end")
    read = draw(page, st)
    assert chip(read, "wound:1") | {"odds": ""} == {
        "action": "wound:1",
        "text": "Takes the hit",
        "detail": "2 → 0 health: falls, and the heroes lose",
        "odds": "",
    }
    assert chip(read, "wound:2")["detail"] == "4 → 3 health, armor ignores 1"

    # An Ember Dart: the Rat falls to it, the Ogre shrugs it off.
    st = sq.arena(["Sister Amabel"], [SLING], [0])
    dart = give(st, 0, "Ember Dart")
    rat, ogre = sq.put(st, "Cellar Rat", 0), sq.put(st, "Ogre Bruiser", 1)
    sq.dice(st, 6)
    sq.play(st, f"cast:{dart}")
    read = draw(page, st)
    assert note(read, f"target:{rat}")["text"] == "slain"
    assert note(read, f"target:{ogre}")["text"] == "2 health: unharmed"
    # Her own ability heals a hero here: each hero says what it would be left with.
    st = sq.arena(["Sister Amabel", POCK], [SLING, SWORD], [0, 0])
    st.health[1] = 1
    sq.play(st, "ability")
    read = draw(page, st)
    assert chip(read, "target:2")["detail"] == "1 → 3 health"
    assert chip(read, "target:1")["detail"] == "4 → 4 health"
    assert ui.js_errors == []


def test_a_board_with_chances_on_its_chips_is_drawn_for_people_to_look_at(
    server: Any, ui: Any
) -> None:
    """Kept as artifacts/side-quest-decisions-*.png: a turn (the attack's, the move's and
    the Loot's chances on their chips) and a hit to give (a note on each target)."""
    page = ui.new_page(server.url("/"))
    page.evaluate(SHOW)
    st = sq.arena(["Sister Amabel", HILDE], [STAFF, SLING], [0, 1])
    sq.put(st, "Ogre Bruiser", 0)
    sq.put(st, "Cellar Rat", 1)
    give(st, 0, "Ember Dart")
    draw(page, st, keep=True)
    ui.shoot(page, "side-quest-decisions-turn")
    sq.put(st, "Tusked Brute", 0)
    sq.dice(st, 5, 6)
    sq.play(st, "attack:1")
    draw(page, st, keep=True)
    ui.shoot(page, "side-quest-decisions-hits")
    assert ui.js_errors == []


def test_every_action_of_a_game_draws_and_names_its_chances(server: Any, ui: Any) -> None:
    """Every position of a few games at random: each action that has chances shows them,
    as the shared `oddsText` words them, on some place of the board or in the box."""
    page = ui.new_page(server.url("/"))
    rng = Rng(3)
    checked = 0
    for seed in range(3):
        st = GAME.setup(GAME.make_config({"players": 2, "heroes": "random", "turn_limit": 4}), seed)
        while GAME.actor(st) is not None:
            legal = GAME.legal_actions(st)
            if any(GAME.odds(st, a) for a in legal):
                read = draw(page, st)
                shown = {c["action"]: c["odds"] for c in read["chips"]}
                shown |= {n["action"]: n["odds"] for n in read["notes"] if n["odds"]}
                shown |= {b["action"]: b["odds"] for b in read["buttons"]}
                for action in legal:
                    if GAME.odds(st, action):
                        where = (action.text, GAME.label(st, action), read)
                        assert shown.get(action.text), where
                        checked += 1
            choices = [a for a in legal if a.kind != "drop"] or legal
            GAME.apply(st, rng.choice(choices), record=False)
    assert checked > 20
    assert ui.js_errors == []
