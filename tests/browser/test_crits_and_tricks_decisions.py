"""Crits & Tricks in the browser: every decision shows what a person needs to decide it.

Two people play the first trick of a two-player table, each in a browser of their own,
and the test follows the game in a shadow (the same seed, the same actions) to know what
each page must say. Player 1 chooses the Barkeep's Challenge (those that count the values
played show the dice as they stand), leads (the leader's dice carry no chance: nothing is
on the table), and is shown the chance that a re-roll is better or worse. Player 2
follows: under each die of the play picker, its chance to take the trick; then the
re-roll's chance, and who would take the trick if they keep or end their turn. Under the
trick, each suit in play says how it takes a trick and its crit, the led one marked.
"""

from __future__ import annotations

import math
from typing import Any

from tavernkeep.engine.actions import Action
from tavernkeep.games.crits_and_tricks import GAME, CritsAndTricksState
from tavernkeep.games.crits_and_tricks.content import SUITS
from tavernkeep.games.crits_and_tricks.terminal import SUIT_RULES, TIES
from tavernkeep.games.crits_and_tricks.tricks import BARD

NAME = "crits-and-tricks"
SEED = 25
"""Player 1 leads a Rogue; Player 2 can follow, with dice behind it and ahead of it."""
DECISION = "#game .ct-decision"


def percent(p: float) -> str:
    """As the page writes a chance (static/dom.js, `percent`)."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{math.floor(p * 100 + 0.5)}%"


def odds_text(odds: dict[str, float]) -> str:
    """As the page writes a choice's odds (static/dom.js, `oddsText`)."""
    return " · ".join(
        percent(p) if name == "success" else f"{percent(p)} {name}" for name, p in odds.items()
    )


def check_buttons(page: Any, shadow: CritsAndTricksState) -> None:
    """Each choice button of the decision box shows its label (the note apart, under
    it) and its odds, as the game gives them for the shadow's position."""
    buttons = page.locator(f"{DECISION} .ct-choice[data-action]").evaluate_all(
        """els => els.map(e => ({
             action: e.dataset.action,
             label: e.querySelector('.ct-choice-label').textContent,
             note: (e.querySelector('.ct-choice-note') || {textContent: ''}).textContent,
             odds: (e.querySelector('.ct-odds') || {textContent: ''}).textContent,
           }))"""
    )
    assert buttons
    for button in buttons:
        action = Action.parse(button["action"])
        label = GAME.label(shadow, action)
        main, _, note = label.partition("; ")
        assert (button["label"], button["note"]) == (main, note), (label, button)
        assert button["odds"] == odds_text(GAME.odds(shadow, action)), button


def check_suit_rules(ui: Any, page: Any, shadow: CritsAndTricksState) -> None:
    rules = page.locator("#game .ct-suit-rules .ct-rule")
    suits = [SUITS[s] for s in (*shadow.suits, BARD)]
    ui.expect(rules).to_have_count(len(suits))
    for index, suit in enumerate(suits):
        takes, crit = SUIT_RULES[suit]
        rule = rules.nth(index)
        ui.expect(rule).to_have_attribute("data-suit", suit)
        ui.expect(rule.locator(".ct-rule-takes")).to_have_text(takes)
        ui.expect(rule.locator(".ct-rule-crit")).to_have_text(f"crit: {crit}")
    led = [SUITS[shadow.led]] if shadow.table else []
    marked = page.locator("#game .ct-suit-rules .ct-rule.led")
    assert marked.evaluate_all("els => els.map(e => e.dataset.suit)") == led
    ui.expect(page.locator("#game .ct-suit-rules .ct-ties")).to_have_text(TIES)


def send(page: Any, target: Any, shadow: CritsAndTricksState) -> None:
    """Click what sends an action, wait for the page to take it, and play it in the shadow."""
    action = Action.parse(str(target.get_attribute("data-action")))
    handle = target.element_handle()
    target.click()
    page.wait_for_function("el => !el.isConnected", arg=handle)
    GAME.apply(shadow, action)


def pick_card(ui: Any, page: Any, shadow: CritsAndTricksState, action: Action) -> None:
    """Step one of a play: click a card of the action's suit in the hand."""
    suit = SUITS[shadow.card_suit[int(action.args[0])]]
    page.locator(f'#game .ct-hand .ct-card.playable[data-suit="{suit}"]').first.click()
    ui.expect(page.locator("#game .ct-hand .ct-card.picked").first).to_have_attribute(
        "data-suit", suit
    )


def test_each_decision_shows_who_would_take_the_trick_and_the_dice_chances(
    server: Any, ui: Any
) -> None:
    expect = ui.expect
    created = server.create_table(game=NAME, seats=["human", "human"], seed=SEED)
    invites = {e["seat"]: e["invite"] for e in created["seats"]}
    pages = {seat: ui.new_page(server.url(invites[seat])) for seat in (0, 1)}
    for page in pages.values():
        ui.wait_connected(page)
    shadow = GAME.setup(GAME.make_config({"players": 2}), SEED)
    first = pages[0]

    # -- Player 1 chooses the Barkeep's Challenge ----------------------------------------
    assert ui.wait_turn(first) and shadow.stack[-1].kind == "barkeep"
    options = first.locator("#game .ct-barkeep-options .ct-challenge.playable")
    expect(options).to_have_count(len(GAME.legal_actions(shadow)))
    noted = 0
    for index in range(options.count()):
        card = options.nth(index)
        action = Action.parse(str(card.get_attribute("data-action")))
        _, _, note = GAME.label(shadow, action).partition("; ")
        shown = card.locator(".ct-challenge-note")
        if note:
            expect(shown).to_have_text(note)
            assert note.startswith("dice now: your ")
            noted += 1
        else:
            expect(shown).to_have_count(0)
    assert noted == 2, "High Stakes and Lightweight count values played"
    check_suit_rules(ui, first, shadow)
    send(first, options.first, shadow)

    # -- Player 1 leads: nothing to beat yet, so no chance under the dice ------------------
    assert ui.wait_turn(first) and shadow.stack[-1].kind == "play"
    lead = next(a for a in GAME.legal_actions(shadow) if shadow.card_suit[int(a.args[0])] != BARD)
    pick_card(ui, first, shadow, lead)
    dice = first.locator("#game .ct-pick-die .ct-die.playable")
    expect(dice.first).to_be_visible()
    expect(first.locator("#game .ct-pick-die .ct-die-odds")).to_have_count(0)
    expect(first.locator("#game .ct-die-key")).to_have_count(0)
    send(first, first.locator(f'#game .ct-pick-die [data-action="{lead.text}"]'), shadow)

    # The leader's re-roll: the chance of a better and of a worse value.
    assert ui.wait_turn(first) and shadow.stack[-1].kind == "reroll"
    chances = GAME.odds(shadow, Action("reroll"))
    assert set(chances) == {"better", "worse"} or set(chances) == {"higher", "lower"}
    check_buttons(first, shadow)
    expect(first.locator(f'{DECISION} .ct-choice[data-action="reroll"] .ct-odds')).to_have_text(
        odds_text(chances)
    )
    send(first, first.locator(f'{DECISION} .ct-choice[data-action="keep"]'), shadow)
    if shadow.stack[-1].kind == "crit":
        assert ui.wait_turn(first)
        check_buttons(first, shadow)
        send(first, first.locator(f'{DECISION} .ct-choice[data-action="done"]'), shadow)

    # -- Player 2 follows: under each die, its chance to take the trick ---------------------
    second = pages[1]
    assert ui.wait_turn(second)
    assert shadow.stack[-1].kind == "play" and shadow.stack[-1].seat == 1
    check_suit_rules(ui, second, shadow)
    plays = GAME.legal_actions(shadow)
    chance = {a.text: GAME.odds(shadow, a) for a in plays}
    assert all(set(c) == {"to take it"} for c in chance.values()), "the last to play"
    behind = next(a for a in plays if 0 < chance[a.text]["to take it"] < 1)
    named = [a for a in plays if a.args[0] == behind.args[0]]
    pick_card(ui, second, shadow, behind)
    shown = second.locator("#game .ct-pick-die .ct-die.playable")
    expect(shown).to_have_count(len(named))
    for action in named:
        die = second.locator(f'#game .ct-pick-die [data-action="{action.text}"]')
        label = GAME.label(shadow, action)
        expect(die.locator(".ct-die-odds")).to_have_text(percent(chance[action.text]["to take it"]))
        title = str(die.get_attribute("title"))
        assert title == f"{label} · {odds_text(chance[action.text])}", title
    expect(second.locator("#game .ct-die-key")).to_contain_text(
        "Under each die: its chance to take the trick, using your free re-roll if it is behind"
    )
    ui.shoot(second, "crits-and-tricks-follow")
    send(second, second.locator(f'#game .ct-pick-die [data-action="{behind.text}"]'), shadow)

    # The re-roll's chance to take it; keeping, who would take it.
    assert ui.wait_turn(second) and shadow.stack[-1].kind == "reroll"
    check_buttons(second, shadow)
    keep = second.locator(f'{DECISION} .ct-choice[data-action="keep"] .ct-choice-note')
    expect(keep).to_have_text("Player 1 would take it now")
    expect(second.locator(f"{DECISION} .ct-hint")).to_contain_text("would take it now")
    assert GAME.odds(shadow, Action("reroll")) == {"to take it": chance[behind.text]["to take it"]}
    send(second, second.locator(f'{DECISION} .ct-choice[data-action="keep"]'), shadow)
    if shadow.stack and shadow.stack[-1].kind == "crit":
        assert ui.wait_turn(second)
        check_buttons(second, shadow)
        done = second.locator(f'{DECISION} .ct-choice[data-action="done"] .ct-choice-note')
        expect(done).to_have_text("Player 1 would take it now")
    ui.shoot(second, "crits-and-tricks-decisions")
    for page in pages.values():
        assert ui.toasts(page) == []
