"""Here to Slay in the browser: two people, each in a browser of their own, and a bot.

Seed 54 with Party Leaders dealt at random deals Player 1 a Hero (Roderick Bastion), an
Item and two Modifiers, Player 2 a Challenge and a Modifier, and the bot neither, so the
bot, asked in every window like everyone, can only pass during Player 1's first turn.
The test plays that turn from the pages, by clicking what a person clicks: Player 1
plays the Hero from their hand, Player 2 CHALLENGEs it and plays a Modifier on their
challenge roll, Player 1 passes, the Hero joins the Party; Player 1 rolls for it and
plays a Modifier that makes the roll, then equips the Item. Each action is also applied
to the same game set up here from the same seed, which is what the server holds: each
page must show exactly its own hand, and the questions must name the rolls the game
made.
"""

from __future__ import annotations

import re
import time
from typing import Any

from tavernkeep.agents import make_bot
from tavernkeep.engine.actions import PASS, Action
from tavernkeep.engine.match import Match
from tavernkeep.games.here_to_slay import GAME, HereToSlayState

SEED = 54
OPTIONS = {"leaders": "random"}
SEATS = ["human", "human", "bot:heuristic"]
BOT = 2
MAX_DECISIONS = 60

QUESTION = "#game .slay-decision .slay-question"
WAITING = "#game .slay-decision .slay-waiting"


def card_names(state: HereToSlayState, cards: list[int]) -> list[str]:
    return [state.catalog.cards[c].name for c in cards]


def click(page: Any, target: Any) -> str:
    """Click an action on the board; returns it once the page has shown the next state
    (the board is redrawn, so what was clicked leaves the page)."""
    action = str(target.get_attribute("data-action"))
    handle = target.element_handle()
    target.click()
    page.wait_for_function("el => !el.isConnected", arg=handle)
    return action


def check_on_board(ui: Any, page: Any) -> None:
    """Every choice the page offers can be made on the board as well (a card, a roll's
    Modifier, a button of the decision box), not only from the frame's list."""
    offered = page.locator(ui.DECIDE).evaluate_all("els => els.map(e => e.dataset.action)")
    board = page.locator("#game [data-action]").evaluate_all(
        "els => els.map(e => e.dataset.action)"
    )
    assert offered, "no decision on offer"
    assert set(offered) <= set(board), f"not on the board: {set(offered) - set(board)}"


def hand_on_page(page: Any) -> list[int]:
    ids = page.locator("#game .slay-hand .slay-card").evaluate_all(
        "els => els.map(e => Number(e.dataset.card))"
    )
    return [int(i) for i in ids]


def asked_or_back(ui: Any, pages: dict[int, Any], timeout: float = 20.0) -> int | None:
    """The person asked to decide during someone else's turn, or None once it is Player
    1's turn again (or the game is over)."""
    deadline = time.monotonic() + timeout
    a = pages[0]
    while True:
        for seat, page in pages.items():
            if page.locator(ui.DECIDE).count():
                # The board is drawn before the choices, so once a choice is on offer the
                # board shows whose turn it is for that same decision.
                return None if a.locator("#game .slay-turn.mine").count() else seat
        if a.locator(ui.OVER).count():
            return None
        assert time.monotonic() < deadline, "nobody is asked and Player 1's turn did not come"
        a.wait_for_timeout(50)


def test_two_people_challenge_and_modify_from_the_browser(server: Any, ui: Any) -> None:
    expect = ui.expect
    created = server.create_table(game="here-to-slay", seats=SEATS, seed=SEED, options=OPTIONS)
    invites = {e["seat"]: e["invite"] for e in created["seats"] if "invite" in e}
    assert sorted(invites) == [0, 1]
    pages = {seat: ui.new_page(server.url(invite)) for seat, invite in invites.items()}

    # The server's game, step for step: same game, same seed, same actions.
    shadow = GAME.setup(GAME.make_config({"players": len(SEATS), **OPTIONS}), SEED)
    cards = shadow.catalog.cards
    hero = next(c for c in shadow.hands[0] if cards[c].kind == "hero")
    item = next(c for c in shadow.hands[0] if cards[c].kind == "item")
    assert any(cards[c].kind == "challenge" for c in shadow.hands[1])
    assert any(cards[c].kind == "modifier" for c in shadow.hands[1])
    assert not any(cards[c].kind in ("challenge", "modifier") for c in shadow.hands[BOT])

    def did(action: str) -> None:
        GAME.apply(shadow, Action.parse(action))
        # Every seat is asked in a window; one that can only pass (the bot, or a person
        # the server answers for) does so by itself, on the server as here.
        while GAME.actor(shadow) is not None and GAME.legal_actions(shadow) == [PASS]:
            GAME.apply(shadow, PASS)
        actor = GAME.actor(shadow)
        assert actor in pages, f"the scripted turn reached seat {actor}"
        ui.wait_turn(pages[actor])
        check_on_board(ui, pages[actor])

    # -- each person sees their own hand, and only the size of the others' -------------
    for seat, page in pages.items():
        ui.wait_connected(page)
        expect(page.locator("#who")).to_have_text(f"you are Player {seat + 1}")
        expect(page.locator("#game .slay-hand .slay-card")).to_have_count(5)
        assert hand_on_page(page) == shadow.hands[seat]
        hand_text = page.locator("#game .slay-hand").inner_text()
        for name in card_names(shadow, shadow.hands[seat]):
            assert name in hand_text
        board = page.locator("#game").inner_text()
        for other in (s for s in range(len(SEATS)) if s != seat):
            for card in shadow.hands[other]:
                expect(page.locator(f'#game [data-card="{card}"]')).to_have_count(0)
            for name in set(card_names(shadow, shadow.hands[other])) - set(
                card_names(shadow, shadow.hands[seat])
            ):
                assert name not in board, f"Player {seat + 1} sees {name} in another hand"
            party = page.locator(f'#game .slay-party[data-seat="{other}"]')
            expect(party.locator(".slay-hand-size")).to_have_text("5 cards in hand")
        # Every seat's Party Leader, dealt at random, and the Monster row.
        for s, leader in enumerate(shadow.leaders):
            info = shadow.catalog.leaders[leader]
            expect(
                page.locator(f'#game .slay-party[data-seat="{s}"] .slay-leader')
            ).to_contain_text(info.name)
        expect(page.locator("#game .slay-monster-row .slay-monster")).to_have_count(3)
    a, b = pages[0], pages[1]
    expect(a.locator("#game .slay-ap")).to_have_attribute("aria-label", "3 action points left")
    expect(b.locator("#game .slay-turn")).to_have_text("Player 1's turn")
    ui.shoot(a, "here-to-slay-first-turn")

    # -- Player 1 plays the Hero by clicking it in their hand -------------------------------
    did(click(a, a.locator(f'#game .slay-hand .slay-card.playable[data-card="{hero}"]')))
    hero_name = cards[hero].name
    expect(b.locator(QUESTION)).to_have_text(f"Player 1 plays {hero_name} — challenge?")
    expect(a.locator(QUESTION)).to_have_text(f"Player 1 plays {hero_name} — challenge?")
    expect(a.locator(WAITING)).to_have_text("Waiting for Player 2: challenge it or not?")
    expect(a.locator("#game .playable")).to_have_count(0)
    ui.shoot(b, "here-to-slay-challenge-asked")

    # -- Player 2 CHALLENGEs it --------------------------------------------------------------
    did(click(b, b.locator('#game .slay-decision .slay-choice[data-action="challenge"]')))
    assert shadow.stack[-1].kind == "modifier" and GAME.actor(shadow) == 1
    challenge, defence = (r[1] + r[2] + r[3] + r[4] for r in shadow.rolls)
    asked = (
        f"Player 2 rolled {challenge} to challenge {hero_name}; Player 1 rolled {defence} "
        f"for {hero_name} against the challenge: play a Modifier?"
    )
    expect(b.locator(QUESTION)).to_have_text(asked)
    expect(a.locator(QUESTION)).to_have_text(asked)
    expect(a.locator(WAITING)).to_have_text("Waiting for Player 2: play a Modifier or pass?")
    expect(b.locator("#game .slay-roll.open")).to_have_count(2)
    ui.shoot(b, "here-to-slay-modifier-asked")

    # -- Player 2 plays a Modifier on their own roll, the best one on offer ------------------
    mods = b.locator('#game .slay-roll[data-roll="0"] .slay-choice[data-action^="modify:"]')
    offered = [str(m) for m in mods.evaluate_all("els => els.map(e => e.dataset.action)")]
    best = max(offered, key=lambda text: int(text.split(":")[1].split(",")[1]))
    did(click(b, b.locator(f'#game .slay-choice[data-action="{best}"]')))
    amount = int(best.split(",")[1])
    expect(b.locator('#game .slay-roll[data-roll="0"] .slay-roll-total')).to_have_text(
        f"= {challenge + amount}"
    )

    # -- Player 1 is asked next (the bot holds no Modifier), and passes ----------------------
    assert GAME.actor(shadow) == 0
    expect(a.locator(QUESTION)).to_contain_text(f"Player 2 rolled {challenge + amount}")
    expect(b.locator(WAITING)).to_have_text("Waiting for Player 1: play a Modifier or pass?")
    did(click(a, a.locator('#game .slay-decision .slay-choice[data-action="pass"]')))
    while shadow.stack[-1].kind == "modifier":  # anyone asked again passes too
        seat = GAME.actor(shadow)
        page = pages[seat]  # type: ignore[index]
        did(click(page, page.locator('#game .slay-decision .slay-choice[data-action="pass"]')))

    # The challenge failed (the seed's dice): the Hero is in Player 1's Party on both pages.
    assert hero in shadow.parties[0], "seed 54's challenge should fail"
    for page in pages.values():
        party = page.locator('#game .slay-party[data-seat="0"]')
        expect(party.locator(f'.slay-heroes [data-card="{hero}"]')).to_contain_text(hero_name)
        expect(party.locator(f'.slay-heroes [data-card="{hero}"]')).to_contain_text(
            cards[hero].hero_class
        )
        expect(page.locator("#log")).to_contain_text("The challenge fails")
        expect(page.locator("#log")).to_contain_text("CHALLENGES Player 1's")

    # -- the free roll, and a Modifier that makes it ------------------------------------------
    expect(a.locator(QUESTION)).to_have_text(
        f"{hero_name} joined your Party: roll for its effect now, free?"
    )
    roll = a.locator('#game .slay-decision .slay-choice[data-action="roll"]')
    expect(roll.locator(".slay-odds")).to_have_text(re.compile(r"^\d+%$"))
    did(click(a, roll))
    rolled = sum(shadow.rolls[-1][1:])
    need = cards[hero].roll
    expect(a.locator(QUESTION)).to_have_text(
        f"Player 1 rolled {rolled} for {hero_name} ({need}+): play a Modifier?"
    )
    expect(b.locator(WAITING)).to_have_text("Waiting for Player 1: play a Modifier or pass?")
    plus = a.locator('#game .slay-roll.open .slay-choice[data-action^="modify:"]').filter(
        has_text="+2"
    )
    expect(plus).to_contain_text(f"→ {rolled + 2}")
    did(click(a, plus))
    while shadow.stack[-1].kind == "modifier":
        seat = GAME.actor(shadow)
        page = pages[seat]  # type: ignore[index]
        did(click(page, page.locator('#game .slay-decision .slay-choice[data-action="pass"]')))
    outcome = "meets" if rolled + 2 >= need else "misses"
    expect(a.locator("#log")).to_contain_text(f"{hero_name}: {rolled + 2} {outcome} {need}+")

    # Whatever the Hero's effect asks of Player 1 (nothing, for seed 54), then the Item.
    while shadow.stack[-1].kind != "turn":
        did(click(a, a.locator("#game .slay-decision .slay-choice").first))
    item_card = a.locator(f'#game .slay-hand .slay-card.playable[data-card="{item}"]')
    expect(item_card).to_contain_text(f"onto {hero_name}")
    did(click(a, item_card))
    for page in pages.values():
        equipped = page.locator(f'#game .slay-party[data-seat="0"] [data-card="{hero}"] .slay-item')
        expect(equipped).to_contain_text(cards[item].name)
    assert hand_on_page(a) == shadow.hands[0]
    expect(a.locator("#game .slay-ap")).to_have_attribute("aria-label", "1 action point left")
    ui.shoot(a, "here-to-slay-item-equipped")

    # -- the turn passes round the table, the bot's included, back to Player 1 ----------------
    did(click(a, a.locator('#game .slay-decision .slay-choice[data-action="end"]')))
    expect(b.locator("#game .slay-turn")).to_have_text("Your turn")
    expect(a.locator("#game .slay-turn")).to_have_text("Player 2's turn")
    assert hand_on_page(b) == shadow.hands[1]
    click(b, b.locator('#game .slay-decision .slay-choice[data-action="end"]'))
    for _ in range(MAX_DECISIONS):
        # The bot's turn: answer whatever it asks of the people (a Modifier on its roll,
        # a card to give up) with the plainest choice, until Player 1's turn comes back.
        seat = asked_or_back(ui, pages)
        if seat is None:
            break
        page = pages[seat]
        check_on_board(ui, page)
        choices = page.locator("#game .slay-choice, #game .playable[role=button]")
        texts = choices.evaluate_all("els => els.map(e => e.dataset.action)")
        pick = next((t for t in ("pass", "skip", "end") if t in texts), texts[0])
        click(page, page.locator(f'#game [data-action="{pick}"]').first)
    else:
        raise AssertionError("Player 1's turn did not come back")
    expect(a.locator("#game .slay-turn-number")).to_have_text("Turn 4")

    # Each page still shows only its own hand; the other sees how many cards it holds.
    for seat, page in pages.items():
        mine = hand_on_page(page)
        other = pages[1 - seat]
        head = other.locator(f'#game .slay-party[data-seat="{seat}"] .slay-hand-size')
        cards_word = "card" if len(mine) == 1 else "cards"
        expect(head).to_have_text(f"{len(mine)} {cards_word} in hand")
        for card in mine:
            expect(other.locator(f'#game [data-card="{card}"]')).to_have_count(0)
    for seat, page in pages.items():
        assert ui.violations(page) == [], f"Player {seat + 1}'s page offered another's decision"
        assert ui.toasts(page) == [], f"Player {seat + 1} was shown errors"


def test_the_end_of_a_game_of_bots_as_a_spectator_sees_it(server: Any, ui: Any) -> None:
    expect = ui.expect
    # A short turn limit ends a game of random bots in a few seconds.
    created = server.create_table(
        game="here-to-slay",
        seats=["bot:random", "bot:random"],
        seed=7,
        options={"leaders": "random", "turn_limit": 6},
    )
    watcher = ui.new_page(server.url(created["spectate"]))
    ui.wait_connected(watcher)
    expect(watcher.locator(ui.OVER)).to_be_visible(timeout=30_000)
    reason = watcher.locator("#banner .result-reason").inner_text()
    expect(watcher.locator("#game .slay-result")).to_have_text(reason)
    expect(watcher.locator("#game .slay-turn")).to_have_text("The game is over")
    expect(watcher.locator(QUESTION)).to_have_text(reason)
    # A spectator holds no hand, sees both hands' sizes and is offered nothing.
    expect(watcher.locator("#game .slay-hand")).to_have_count(0)
    expect(watcher.locator("#game .slay-hand-size")).to_have_count(2)
    expect(watcher.locator("#game .playable")).to_have_count(0)
    expect(watcher.locator("#game .slay-discard .slay-heading")).to_contain_text("Discard pile")
    ui.shoot(watcher, "here-to-slay-over")
    assert ui.violations(watcher) == []


class Passerby:
    """A person who plays nothing: ends each turn and passes or skips whatever is asked,
    else takes the first choice. The test's page plays it by clicking; the shadow game
    here plays it as an agent."""

    name = "human"

    def __init__(self) -> None:
        self.asked: list[list[str]] = []
        """The choices of each decision it was asked (a lone pass is answered for it)."""

    def choose(self, info: Any) -> Action:
        actions = info.legal_actions()
        if actions == [PASS]:
            return PASS
        self.asked.append([a.text for a in actions])
        return Action.parse(passerby_choice(self.asked[-1]))


def passerby_choice(offered: list[str]) -> str:
    return next((text for text in offered if text in ("pass", "skip", "end")), offered[0])


def test_a_roll_names_every_target_it_takes_from_each_opponent(server: Any, ui: Any) -> None:
    """Seed 54 at four, Leaders dealt: on turn 4 Player 4 rolls for Seraphine Dawnward
    (RETURN a Hero from each opponent's Party), which names a Hero of Player 2 and one of
    Player 3 before its Modifier window and chooses no player. Player 1, a person holding
    a Modifier, is asked in that window: the roll on their board names both Heroes."""
    expect = ui.expect
    seats = ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]
    # The server's game, played here by the same bots and the same person.
    person = Passerby()
    agents = [person] + [make_bot("bot:heuristic", GAME) for _ in seats[1:]]
    shadow = Match.start(GAME, agents, SEED, OPTIONS)
    while True:
        st = shadow.state
        asked = GAME.actor(st) == 0 and st.stack[-1].kind == "modifier"
        rolls = GAME.view(st, 0)["hero_rolls"] if asked else []
        if rolls and len(rolls[0]["aims"]) > 1 and GAME.legal_actions(st) != [PASS]:
            break
        shadow.step()
    view = GAME.view(st, 0)
    (aim,) = view["hero_rolls"]
    assert aim["target"] is None and len(aim["aims"]) == 2, "each opponent, no chosen player"
    owners = {h["id"]: (s["seat"], h["name"]) for s in view["table"] for h in s["party"]}
    targets = [f"Player {owners[c][0] + 1}'s {owners[c][1]}" for c in aim["aims"]]
    assert targets[0].startswith("Player 2's") and targets[1].startswith("Player 3's")
    roller = GAME.catalog(GAME.load_pack().content).cards[aim["hero"]].name
    assert roller == "Seraphine Dawnward"

    created = server.create_table(game="here-to-slay", seats=seats, seed=SEED, options=OPTIONS)
    (invite,) = [e["invite"] for e in created["seats"] if "invite" in e]
    page = ui.new_page(server.url(invite))
    ui.wait_connected(page)
    for asked in person.asked:
        assert ui.wait_turn(page)
        assert [o["action"] for o in ui.offered(page)] == asked
        ui.take_turn(page, action=passerby_choice(asked))
    assert ui.wait_turn(page)
    assert [o["action"] for o in ui.offered(page)] == [a.text for a in GAME.legal_actions(st)]

    # The roll names both Heroes, each with its owner, in the owner's colour...
    roll = page.locator("#game .slay-roll.open")
    expect(roll.locator(".slay-roll-who")).to_contain_text(f"for {roller} (9+)")
    chips = roll.locator(".slay-roll-aims .slay-aim")
    expect(chips).to_have_text(targets)
    expect(chips.nth(0)).to_have_class(re.compile(r"\bseat-1\b"))
    expect(chips.nth(1)).to_have_class(re.compile(r"\bseat-2\b"))
    # ...the question says so, and each Hero carries the mark on its Party.
    expect(page.locator(QUESTION)).to_contain_text(f"at {targets[0]} and {targets[1]}")
    for card in aim["aims"]:
        seat = owners[card][0]
        party = page.locator(f'#game .slay-party[data-seat="{seat}"]')
        hero = party.locator(f'.slay-heroes [data-card="{card}"]')
        expect(hero.locator(".slay-mark.aimed")).to_have_text("targeted")
    ui.shoot(page, "here-to-slay-two-targets")
    assert ui.violations(page) == [] and ui.toasts(page) == []


def test_a_card_on_the_board_shows_its_rule_when_pointed_at(server: Any, ui: Any) -> None:
    """Every `data-rule` on the board names a section of the How to play. Pointing at a
    Monster shows "Monsters" and its first lines, and "Read the rule" opens the drawer
    there; "?" while pointing at a Party Leader opens "Party Leaders"; a Hero in the hand
    shows "Heroes"."""
    expect = ui.expect
    created = server.create_table(game="here-to-slay", seats=SEATS, seed=SEED, options=OPTIONS)
    page = ui.new_page(server.url(created["seats"][0]["invite"]))
    ui.wait_connected(page)
    assert ui.wait_turn(page)
    rules = server.get("/api/games/here-to-slay/rules")
    sections = {s["id"]: s["title"] for s in rules["sections"]}
    marked = page.locator("#game [data-rule]").evaluate_all("els => els.map(e => e.dataset.rule)")
    assert set(marked) <= set(sections), f"no such section: {set(marked) - set(sections)}"
    # Seed 54 deals Player 1 a Hero, an Item and two Modifiers: each kind of thing on
    # this board carries the rule that explains it.
    wanted = {"goal", "table", "turn", "leaders", "heroes", "items", "modifiers", "monsters"}
    assert wanted <= set(marked), f"not marked: {wanted - set(marked)}"

    tip = page.get_by_role("tooltip")
    page.locator("#game .slay-monster-row .slay-monster").first.hover()
    expect(tip).to_be_visible()
    expect(tip.locator(".rule-tip-title")).to_have_text("Monsters")
    expect(tip).to_contain_text("a slay range, a punishment range")
    page.keyboard.press("?")
    drawer = page.get_by_role("dialog", name="How to play Here to Slay")
    expect(drawer).to_be_visible()
    expect(drawer.locator('[data-section="monsters"] h3')).to_be_in_viewport()
    expect(tip).to_be_hidden()
    drawer.get_by_role("button", name="Close the rules").click()
    expect(drawer).to_be_hidden()

    page.locator("#game .slay-hand .slay-card.kind-hero").first.hover()
    expect(tip.locator(".rule-tip-title")).to_have_text("Heroes")
    page.locator('#game .slay-party[data-seat="0"] .slay-leader').hover()
    expect(tip.locator(".rule-tip-title")).to_have_text("Party Leaders")
    page.keyboard.press("?")
    expect(drawer).to_be_visible()
    expect(drawer.locator('[data-section="leaders"] h3')).to_be_in_viewport()
    drawer.get_by_role("button", name="Close the rules").click()
    # Moving away hides the tip; the board is as it was and the game goes on.
    page.locator("#game .slay-status").hover()
    expect(tip).to_be_hidden()
    ui.take_turn(page)
    assert ui.violations(page) == [] and ui.toasts(page) == []
