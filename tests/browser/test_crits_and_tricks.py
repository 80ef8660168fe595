"""Crits & Tricks in the browser: one person (Player 1) plays a whole three-player game
against two random bots, only by clicking what the page shows: a quest to give up, the
Barkeep's Challenge, a card of the hand and then a die (and the suit a led Bard names),
Re-roll or Keep, a crit or the end of the turn.

At each of the person's decisions the page is read as they see it (their hand, their
quests or the four dealt, every seat's six dice, who would take the trick now, all of
the page's text) and every legal action is checked to be reachable on the board. Once the
game is over its record is replayed here, and each reading is compared with the state the
server was in at that decision: the hand and dice shown are the seat's, the quests are
its own, and no other seat's secret quest (kept or dealt) is ever named on the page.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tavernkeep.engine.actions import Action
from tavernkeep.engine.records import GameRecord, replay_steps
from tavernkeep.games.crits_and_tricks import GAME
from tavernkeep.games.crits_and_tricks.content import SUITS
from tavernkeep.games.crits_and_tricks.state import DICE, CritsAndTricksState
from tavernkeep.games.crits_and_tricks.tricks import Lay, winner

NAME = "crits-and-tricks"
SEED = 5
SEATS = ["human", "bot:random", "bot:random"]
MAX_DECISIONS = 200
CRIT_CHANCE = 0.4
"""How often the person uses a crit when offered one (and re-rolls when asked)."""

DECISION = "#game .ct-decision"

# Everything a person reads on the board at a decision, as data (run in the page).
READ_PAGE = """() => {
  const all = (sel) => [...document.querySelectorAll(sel)];
  const text = (sel) => all(sel).map((e) => e.textContent.replace(/\\s+/g, ' ').trim());
  const decision = document.querySelector('#game .ct-decision');
  const kind = decision ? ([...decision.classList].find((c) => c.startsWith('kind-')) || '')
    .slice(5) : '';
  const seat0 = '#game .ct-seat[data-seat="0"]';
  // The page's own text: not a rule's tip left showing where the pointer rests (the How
  // to play's examples name quests of the pack, anyone's or no one's).
  const tip = document.getElementById('rule-tip');
  const tipShown = Boolean(tip && !tip.hidden);
  if (tipShown) tip.hidden = true;
  const body = document.body.innerText;
  if (tipShown) tip.hidden = false;
  return {
    kind,
    question: text('#game .ct-question').join(''),
    legal: all('#actions button.action').map((e) => e.dataset.action),
    hand: all('#game .ct-hand .ct-card').map((e) => e.dataset.suit),
    hand_size: text(seat0 + ' .ct-hand-size').join(''),
    dice: all(seat0 + ' .ct-dice .ct-die').map((e) => ({
      die: Number(e.dataset.die), value: Number(e.dataset.value),
      used: e.classList.contains('ct-used'),
      label: e.querySelector('.die').getAttribute('aria-label'),
      shown: e.querySelector('.die').textContent.trim(),
    })),
    seat_dice: all('#game .ct-seat').map((s) => s.querySelectorAll('.ct-die').length),
    quests: text('#game .ct-mine .ct-quest-name'),
    offer: text('#game .ct-offer .ct-quest-name'),
    taking: all('#game .ct-played.taking').map((e) => Number(e.dataset.seat)),
    table: all('#game .ct-played').map((e) => Number(e.dataset.seat)),
    body,
  };
}"""

# Every play the board offers: each lit card of the hand, then each suit a led Bard may
# name, then the dice; clicks are local to the page (nothing is sent) until a die.
PLAYS_ON_BOARD = """() => {
  const found = new Set();
  const cards = () => [...document.querySelectorAll('#game .ct-hand .ct-card.playable')];
  const suits = [...new Set(cards().map((c) => c.dataset.suit))];
  for (const suit of suits) {
    cards().find((c) => c.dataset.suit === suit).click();
    const names = [...document.querySelectorAll('#game .ct-name-suit .ct-name')]
      .map((b) => b.dataset.name);
    const collect = () => document.querySelectorAll('#game .ct-pick-die [data-action]')
      .forEach((d) => found.add(d.dataset.action));
    if (names.length) {
      for (const name of names) {
        document.querySelector(`#game .ct-name-suit .ct-name[data-name="${name}"]`).click();
        collect();
      }
    } else {
      collect();
    }
  }
  return {suits, actions: [...found]};
}"""


# -- the server ----------------------------------------------------------------------------


@pytest.fixture
def ct_server(start_server: Callable[[str], Any], sqlite_url: str) -> Iterator[Any]:
    server = start_server(sqlite_url)
    games = {g["name"]: g for g in server.get("/api/games")}
    assert NAME in games, f"the server does not list {NAME}"
    assert games[NAME]["renderer"] is True, "games/crits_and_tricks/web/renderer.js is missing"
    yield server


# -- playing by clicking -------------------------------------------------------------------


def click_and_wait(page: Any, target: Any) -> None:
    """Click something that sends an action; return once the board has been redrawn for
    the next state (what was clicked has left the page)."""
    handle = target.element_handle()
    target.click()
    page.wait_for_function("el => !el.isConnected", arg=handle)


def take_decision(ui: Any, page: Any, seen: dict[str, Any], rng: random.Random) -> str:
    """Make the decision on offer by clicking on the board; returns the action sent."""
    kind = seen["kind"]
    decision = page.locator(DECISION)
    if kind == "give_up":
        quests = page.locator("#game .ct-offer .ct-quest.playable")
        target = quests.nth(rng.randrange(quests.count()))
    elif kind == "barkeep":
        options = page.locator("#game .ct-barkeep-options .ct-challenge.playable")
        target = options.nth(rng.randrange(options.count()))
    elif kind == "play":
        cards = page.locator("#game .ct-hand .ct-card.playable")
        suits = sorted(set(cards.evaluate_all("els => els.map(e => e.dataset.suit)")))
        suit = rng.choice(suits)
        page.locator(f'#game .ct-hand .ct-card.playable[data-suit="{suit}"]').first.click()
        ui.expect(page.locator("#game .ct-hand .ct-card.picked").first).to_have_attribute(
            "data-suit", suit
        )
        names = page.locator("#game .ct-name-suit .ct-name")
        if names.count():
            names.nth(rng.randrange(names.count())).click()
        dice = page.locator("#game .ct-pick-die .ct-die.playable")
        target = dice.nth(rng.randrange(dice.count()))
    elif kind in ("reroll", "bard"):
        pick = "reroll" if rng.random() < CRIT_CHANCE else "keep"
        target = decision.locator(f'.ct-choice[data-action="{pick}"]')
    elif kind == "crit":
        crits = decision.locator(".ct-choice.ct-crit")
        if crits.count() and rng.random() < CRIT_CHANCE:
            target = crits.nth(rng.randrange(crits.count()))
        else:
            target = decision.locator('.ct-choice.ct-done[data-action="done"]')
    else:
        raise AssertionError(f"a decision the test does not know: {kind!r}")
    action = str(target.get_attribute("data-action"))
    click_and_wait(page, target)
    return action


def check_reachable(page: Any, seen: dict[str, Any]) -> None:
    """Every legal action of the frame's list can be made on the board."""
    legal = set(seen["legal"])
    assert legal, "no decision on offer"
    if seen["kind"] == "play":
        offered = page.evaluate(PLAYS_ON_BOARD)
        assert set(offered["actions"]) == legal, (
            f"plays on the board {sorted(offered['actions'])} != legal {sorted(legal)}"
        )
    else:
        board = page.locator("#game [data-action]").evaluate_all(
            "els => els.map(e => e.dataset.action)"
        )
        assert legal <= set(board), f"not on the board: {legal - set(board)}"


def check_live(seen: dict[str, Any]) -> None:
    """What must hold on the page at any of the person's decisions."""
    dice = seen["dice"]
    assert [d["die"] for d in dice] == list(DICE), f"the six dice: {dice}"
    for d in dice:
        assert 1 <= d["value"] <= d["die"], d
        assert d["shown"] == str(d["value"]), d
        assert d["label"].startswith(f"d{d['die']} showing {d['value']}"), d
    assert seen["seat_dice"] == [6, 6, 6], "every seat's six dice are public"
    size = int(re.match(r"(\d+) card", seen["hand_size"])[1])  # type: ignore[index]
    assert len(seen["hand"]) == size, (seen["hand"], seen["hand_size"])
    assert seen["question"], "the decision is asked in words"
    if seen["kind"] == "give_up":
        assert len(seen["offer"]) == 4 and not seen["quests"]
    else:
        assert not seen["offer"]


# -- the server's state, replayed ---------------------------------------------------------


def decisions_of_seat0(record: GameRecord) -> Iterator[tuple[CritsAndTricksState, str]]:
    """The state before each of Player 1's actions, and the action."""
    steps = replay_steps(GAME, record, record_events=False)
    _, _, _, state = next(steps)
    for text in record.actions:
        before = GAME.actor(state) == 0
        if before:
            snapshot = GAME.clone(state)
        _, action, _, state = next(steps)
        assert action is not None and action.text == text
        if before:
            yield snapshot, text


def taker(state: CritsAndTricksState) -> int:
    lays = [
        Lay(
            c.seat,
            state.card_suit[c.card],
            c.followed,
            DICE[c.die],
            state.dice[c.seat][c.die],
            c.order,
            c.paladin,
        )
        for c in state.table
    ]
    return winner(state.led, lays)


def compare(state: CritsAndTricksState, seen: dict[str, Any], number: int) -> None:
    where = f"decision #{number} ({seen['kind']})"
    quests = state.content.quest
    legal = {a.text for a in GAME.legal_actions(state)}
    assert set(seen["legal"]) == legal, f"{where}: the page offered another decision"
    assert state.stack[-1].kind == seen["kind"], where
    hand = [SUITS[state.card_suit[c]] for c in state.hands[0]]
    assert Counter(seen["hand"]) == Counter(hand), f"{where}: the hand {seen['hand']} != {hand}"
    dice = [(size, state.dice[0][i], bool(state.used[0] >> i & 1)) for i, size in enumerate(DICE)]
    assert [(d["die"], d["value"], d["used"]) for d in seen["dice"]] == dice, where
    if seen["kind"] == "give_up":
        assert seen["offer"] == [quests[q].name for q in state.offered[0]], where
    else:
        assert seen["quests"] == [quests[q].name for q in state.quests[0]], where
    # No other seat's secret quest, kept or dealt, is named anywhere on the page.
    mine = {quests[q].name for q in [*state.quests[0], *state.offered[0]]}
    for seat in (1, 2):
        for q in [*state.quests[seat], *state.offered[seat]]:
            name = quests[q].name
            assert name not in mine
            assert name not in seen["body"], f"{where}: Player {seat + 1}'s quest {name!r} shows"
    if seen["kind"] == "crit":
        left = state.crits_left
        assert f"({left} crit{'' if left == 1 else 's'} left this turn)" in seen["question"], where
    # Who would take the trick, as the page says, is who the rules say.
    if state.table:
        assert seen["taking"] == [taker(state)], f"{where}: taking {seen['taking']}"
    assert seen["table"] == [c.seat for c in state.table], where


# -- the test -------------------------------------------------------------------------------


def test_a_full_game_against_two_bots_by_clicking(ct_server: Any, ui: Any) -> None:
    expect = ui.expect
    created = ct_server.create_table(game=NAME, seats=SEATS, seed=SEED)
    invite = next(e["invite"] for e in created["seats"] if e["seat"] == 0)
    page = ui.new_page(ct_server.url(invite))
    ui.wait_connected(page)
    expect(page.locator("#game-title")).to_have_text("Crits & Tricks")
    expect(page.locator("#game .ct")).to_be_visible()
    # Quest and challenge names must not be words the page shows anyway.
    content = GAME.load_pack().content
    names = [q.name for q in content.quest]
    assert not set(names) & {b.name for b in content.barkeep}

    rng = random.Random(SEED)
    seen_all: list[dict[str, Any]] = []
    kinds: Counter[str] = Counter()
    shots: set[str] = set()
    for _ in range(MAX_DECISIONS):
        if not ui.wait_turn(page):
            break
        expect(page.locator(DECISION)).to_have_class(re.compile(r"\basked\b"))
        seen = page.evaluate(READ_PAGE)
        check_live(seen)
        check_reachable(page, seen)
        kinds[seen["kind"]] += 1
        if seen["kind"] not in shots and seen["kind"] in ("keep", "play", "crit"):
            shots.add(seen["kind"])
            ui.shoot(page, f"crits-and-tricks-{seen['kind']}")
        seen_all.append(seen)
        take_decision(ui, page, seen, rng)
    else:
        raise AssertionError(f"the game did not end within {MAX_DECISIONS} decisions")

    # -- the end ------------------------------------------------------------------------------
    expect(page.locator(ui.OVER)).to_be_visible()
    reason = page.locator("#banner .result-reason").inner_text()
    expect(page.locator("#game .ct-question.ct-result")).to_contain_text(reason)
    expect(page.locator("#game .playable")).to_have_count(0)
    ui.shoot(page, "crits-and-tricks-over")
    # The person met every kind of decision a seat is asked (the Barkeep when least loot).
    for kind in ("give_up", "play", "reroll", "crit"):
        assert kinds[kind], f"no '{kind}' decision came up: {dict(kinds)}"
    assert kinds["give_up"] == 3 and kinds["play"] >= 3, dict(kinds)

    record = GameRecord.model_validate(ct_server.get(f"/api/tables/{created['id']}/record"))
    assert record.result is not None
    final = None
    for number, ((state, action), seen) in enumerate(
        zip(decisions_of_seat0(record), seen_all, strict=True), start=1
    ):
        compare(state, seen, number)
        GAME.check_legal(state, Action.parse(action))
        final = state
    assert final is not None
    loot = [int(s) for s in record.result["scores"]]
    for seat, value in enumerate(loot):
        expect(page.locator(f'#game .ct-seat[data-seat="{seat}"] .ct-loot-total')).to_have_text(
            str(value)
        )
    assert ui.violations(page) == [], "the page offered a decision that was not Player 1's"
    assert ui.toasts(page) == [], "the person was shown errors"


def test_two_players_see_the_public_quests_and_every_die(ct_server: Any, ui: Any) -> None:
    expect = ui.expect
    seed = 11
    created = ct_server.create_table(game=NAME, seats=["human", "bot:random"], seed=seed)
    invite = next(e["invite"] for e in created["seats"] if e["seat"] == 0)
    # Nothing has been decided yet: the server's game is this one, as set up.
    shadow = GAME.setup(GAME.make_config({"players": 2}), seed)
    assert GAME.actor(shadow) == 0 and shadow.stack[-1].kind == "barkeep"
    page = ui.new_page(ct_server.url(invite))
    ui.wait_connected(page)
    assert ui.wait_turn(page)
    quests = shadow.content.quest
    public = page.locator("#game .ct-public .ct-quest-name")
    expect(public).to_have_text([quests[q].name for q in shadow.quests[0]])
    expect(page.locator("#game .ct-mine")).to_have_count(0)
    expect(page.locator("#game .ct-quests-held")).to_have_count(0)
    for seat in (0, 1):
        dice = page.locator(f'#game .ct-seat[data-seat="{seat}"] .ct-die')
        values = dice.evaluate_all("els => els.map(e => Number(e.dataset.value))")
        assert values == shadow.dice[seat]
    expect(page.locator("#game .ct-hand .ct-card")).to_have_count(len(shadow.hands[0]))
    # The Barkeep's Challenge is chosen on the board; "Creative" is not offered for two.
    options = page.locator("#game .ct-barkeep-options .ct-challenge.playable")
    expect(options).to_have_count(len(GAME.legal_actions(shadow)))
    expect(options.filter(has_text="Creative")).to_have_count(0)
    # Nobody has loot yet: not "you have the least loot" (issue 39, item 8).
    expect(page.locator("#game")).to_contain_text(
        "You choose this round's Barkeep's Challenge (all tied at 0 loot, first in turn order)."
    )
    expect(page.locator("#game")).not_to_contain_text("You have the least loot")
    # One numbering on the screen (issue 39): each card shows its place in the list, the
    # number its key presses, and names its challenge; with "Creative" (the pack's first)
    # left out, card 1 is the pack's second, `barkeep:2`.
    challenges = shadow.content.barkeep
    for index in range(options.count()):
        card = options.nth(index)
        number = int(str(card.get_attribute("data-action")).removeprefix("barkeep:"))
        assert card.locator(".ct-challenge-number").inner_text().strip() == str(index + 1)
        expect(card.locator(".ct-challenge-name")).to_contain_text(challenges[number - 1].name)
        key = page.locator(f'{ui.DECIDE}[data-action="barkeep:{number}"] .key')
        if key.count():
            assert key.inner_text().strip() == str(index + 1)
    assert options.first.get_attribute("data-action") == "barkeep:2"
    click_and_wait(page, options.first)
    expect(page.locator("#game .ct-barkeep .ct-challenge-name")).to_have_text(
        shadow.content.barkeep[int(GAME.legal_actions(shadow)[0].args[0]) - 1].name
    )
    ui.shoot(page, "crits-and-tricks-two-players")
    assert ui.violations(page) == []
    assert ui.toasts(page) == []


def test_a_card_a_suit_and_a_die_show_their_rule_when_pointed_at(ct_server: Any, ui: Any) -> None:
    """Everything on the board a person may ask about names a section of the How to play
    (`data-rule`): a card of the hand shows "Mercenary suits" when pointed at and "?"
    opens the drawer there; a die of a seat shows "Dice", and a click on it (it plays
    nothing) opens that rule; a Bard and a quest dealt show theirs."""
    expect = ui.expect
    created = ct_server.create_table(game=NAME, seats=SEATS, seed=SEED)
    invite = next(e["invite"] for e in created["seats"] if e["seat"] == 0)
    page = ui.new_page(ct_server.url(invite))
    ui.wait_connected(page)
    assert ui.wait_turn(page)
    rules = page.evaluate(f"() => fetch('/api/games/{NAME}/rules').then((r) => r.json())")
    sections = {s["id"]: s["title"] for s in rules["sections"]}
    marked = set(
        page.locator("#game [data-rule]").evaluate_all("els => els.map((e) => e.dataset.rule)")
    )
    assert marked <= set(sections), f"no such section: {marked - set(sections)}"
    # Each kind of thing on the board: suits and Bards (cards, chips), dice, the trick,
    # the hand and seats, the quests dealt, the Barkeep, the rounds.
    kinds = {"suits", "bards", "dice", "turn", "table", "quests", "barkeep", "goal"}
    assert kinds <= marked, f"nothing on the board names {kinds - marked}"

    tip = page.get_by_role("tooltip")
    drawer = page.get_by_role("dialog", name="How to play Crits & Tricks")
    page.locator('#game .ct-hand .ct-card:not([data-suit="Bard"])').first.hover()
    expect(tip).to_be_visible()
    expect(tip.locator(".rule-tip-title")).to_have_text(sections["suits"])
    expect(tip).to_contain_text("its own rule for taking a trick")
    page.keyboard.press("?")
    expect(drawer).to_be_visible()
    expect(drawer.locator('[data-section="suits"] > h3')).to_be_in_viewport()
    # The board moved over for the drawer: whatever is now under the pointer may show its
    # own tip, until the person turns to the drawer.
    drawer.hover()
    expect(tip).to_be_hidden()
    drawer.get_by_role("button", name="Close the rules").click()
    expect(drawer).to_be_hidden()

    die = page.locator('#game .ct-seat[data-seat="1"] .ct-die').first
    die.hover()
    expect(tip.locator(".rule-tip-title")).to_have_text(sections["dice"])
    die.click()
    expect(drawer).to_be_visible()
    expect(drawer.locator('[data-section="dice"] > h3')).to_be_in_viewport()
    drawer.get_by_role("button", name="Close the rules").click()
    # A Bard is its own rule; a quest dealt, the quests'.
    page.locator("#game .ct-in-play .ct-s-bard").hover()
    expect(tip.locator(".rule-tip-title")).to_have_text(sections["bards"])
    page.locator("#game .ct-offer .ct-quest").first.hover()
    expect(tip.locator(".rule-tip-title")).to_have_text(sections["quests"])
    # Moving away hides the tip; the game goes on.
    page.locator("#game .ct-question").hover()
    expect(tip).to_be_hidden()
    take_decision(ui, page, page.evaluate(READ_PAGE), random.Random(SEED))
    assert ui.wait_turn(page)
    assert ui.toasts(page) == []
