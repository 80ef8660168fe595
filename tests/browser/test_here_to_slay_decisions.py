"""Here to Slay in the browser: every decision shows what it needs (issue 25, item 2).

At a live table (seed 54, Party Leaders dealt at random, as in test_here_to_slay.py):
Player 1's hand shows each Hero's class and roll and how a Modifier is played, Player 2's
how a Challenge is; the CHALLENGE and the free roll show their exact chance, and apart
from it what the Modifiers in the deciding hand could make of it.

Then positions laid out by hand are drawn by the game's renderer in a page of the server,
from exactly what the server would send the deciding seat (its view, and each legal
action with its label and odds): a Modifier on a Grimtooth Ogre slayer's roll, an
encore, Hunter's Moon's ATTACK and the choice of a player for a Hero's effect.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tavernkeep.engine.actions import PASS, Action
from tavernkeep.engine.rng import ScriptedRng
from tavernkeep.games.here_to_slay import GAME, HereToSlayState

SEED = 54
OPTIONS = {"leaders": "random"}
SEATS = ["human", "human", "bot:heuristic"]

TOTALS = [a + b for a in range(1, 7) for b in range(1, 7)]


def percent(p: float) -> str:
    """As the page writes a chance (dom.js `percent`)."""
    return f"{int(p * 100 + 0.5)}%"


def at_least(need: int) -> float:
    return float(Fraction(sum(1 for t in TOTALS if t >= need), 36))


def beats(edge: int) -> float:
    return float(Fraction(sum(1 for c in TOTALS for d in TOTALS if c + edge >= d), 36 * 36))


def click(page: Any, target: Any) -> None:
    handle = target.element_handle()
    target.click()
    page.wait_for_function("el => !el.isConnected", arg=handle)


def test_the_hand_the_challenge_and_the_free_roll_show_what_they_need(
    server: Any, ui: Any
) -> None:
    expect = ui.expect
    shadow = GAME.setup(GAME.make_config({"players": len(SEATS), **OPTIONS}), SEED)
    cards = shadow.catalog.cards
    heroes = [c for c in shadow.hands[0] if cards[c].kind == "hero"]
    roderick = next(c for c in heroes if cards[c].name == "Roderick Bastion")
    assert [cards[c].name for c in shadow.hands[0] if cards[c].kind == "modifier"] == [
        "Fickle Fortune",
        "Fickle Fortune",
    ]
    created = server.create_table(game="here-to-slay", seats=SEATS, seed=SEED, options=OPTIONS)
    invites = {e["seat"]: e["invite"] for e in created["seats"] if "invite" in e}
    a, b = (ui.new_page(server.url(invites[seat])) for seat in (0, 1))
    ui.wait_turn(a)

    # -- every Hero in the hand shows its class and roll; Modifiers say how they play --------
    for hero in heroes:
        card = a.locator(f'#game .slay-hand .slay-card[data-card="{hero}"]')
        expect(card.locator(".slay-class")).to_have_text(cards[hero].hero_class)
        expect(card.locator(".slay-need-roll")).to_have_text(f"roll {cards[hero].roll}+")
    for mod in (c for c in shadow.hands[0] if cards[c].kind == "modifier"):
        note = a.locator(f'#game .slay-hand .slay-card[data-card="{mod}"] .slay-card-note')
        expect(note).to_contain_text("Played on any roll once its dice are down")
    challenge_card = next(c for c in shadow.hands[1] if cards[c].kind == "challenge")
    expect(
        b.locator(f'#game .slay-hand .slay-card[data-card="{challenge_card}"] .slay-card-note')
    ).to_contain_text("you both roll 2d6 with your CHALLENGE bonuses")
    ui.shoot(a, "here-to-slay-decisions-hand")

    # -- Player 1 plays Roderick Bastion; Player 2 is asked, with the chance --------------
    click(a, a.locator(f'#game .slay-hand .slay-card.playable[data-card="{roderick}"]'))
    GAME.apply(shadow, Action("play", roderick))
    assert GAME.actor(shadow) == 1
    challenge = b.locator('#game .slay-decision .slay-choice[data-action="challenge"]')
    # Player 1 leads with The Iron Boar (+2); Player 2's Twist of Fate is worth 3 (-3 on
    # Player 1's roll).
    expect(challenge.locator(".slay-choice-label")).to_have_text(
        "CHALLENGE Player 1's Roderick Bastion: your 2d6 against their 2d6 +2, ties yours"
    )
    expect(challenge.locator(".slay-odds")).to_have_text(percent(beats(-2)))
    expect(challenge.locator(".slay-odds-hand")).to_have_text(
        f"{percent(beats(1))} with your +3"
    )
    ui.shoot(b, "here-to-slay-decisions-challenge")
    click(b, b.locator('#game .slay-decision .slay-choice[data-action="pass"]'))

    # -- the free roll: 9+ alone, 5+ with Player 1's two Fickle Fortunes ------------------
    roll = a.locator('#game .slay-decision .slay-choice[data-action="roll"]')
    expect(roll.locator(".slay-choice-label")).to_have_text(
        "Roll for Roderick Bastion's effect now, free (9+)"
    )
    expect(roll.locator(".slay-odds")).to_have_text(percent(at_least(9)))
    expect(roll.locator(".slay-odds-hand")).to_have_text(f"{percent(at_least(5))} with your +4")
    ui.shoot(a, "here-to-slay-decisions-free-roll")


# -- positions laid out by hand, drawn by the renderer ------------------------------------


LEADERS = ("The Ember Sage", "The Shadow Claw", "The Wild Hawk")


def new_game(leaders: tuple[str, ...] = LEADERS) -> HereToSlayState:
    """Three seats with these Party Leaders, every hand emptied into the deck; seats with
    nothing to play are not asked (ask_everyone=false)."""
    st = GAME.setup(GAME.make_config({"players": 3, "ask_everyone": False}), 7)
    names = [leader.name for leader in st.catalog.leaders]
    while st.stack[-1].kind == "leader":
        GAME.apply(st, Action("leader", names.index(leaders[st.stack[-1].seat]) + 1))
    for hand in st.hands:
        st.deck.extend(hand)
        hand.clear()
    return st


def take(st: HereToSlayState, name: str) -> int:
    card = next(c for c in st.deck if st.catalog.cards[c].name == name)
    st.deck.remove(card)
    return card


def give(st: HereToSlayState, seat: int, name: str) -> int:
    card = take(st, name)
    st.hands[seat].append(card)
    return card


def field(st: HereToSlayState, seat: int, name: str) -> int:
    card = take(st, name)
    st.parties[seat].append(card)
    return card


def monster(st: HereToSlayState, name: str) -> int:
    return [m.name for m in st.catalog.monsters].index(name)


def draw_for(ui: Any, page: Any, st: HereToSlayState) -> None:
    """Draw `st` as the server would for its deciding seat, into #probe."""
    seat = GAME.actor(st)
    legal = [
        {"action": a.text, "label": GAME.label(st, a), "odds": GAME.odds(st, a)}
        for a in GAME.legal_actions(st)
    ]
    page.evaluate(
        """async ({view, legal, seat}) => {
          const renderer = await import("/games/here-to-slay/renderer.js");
          if (!document.getElementById("probe-look")) {
            // The game's own look, as a table page loads it.
            const look = document.createElement("link");
            look.id = "probe-look";
            look.rel = "stylesheet";
            look.href = "/games/here-to-slay/style.css";
            await new Promise((done) => {
              look.onload = look.onerror = done;
              document.head.append(look);
            });
          }
          document.getElementById("probe")?.remove();
          const box = document.createElement("div");
          box.id = "probe";
          document.body.append(box);
          renderer.render(box, view, {seat, seatNames: [], legal, onAction: () => {}});
        }""",
        {"view": GAME.view(st, seat), "legal": legal, "seat": seat},
    )


def test_hand_built_positions_show_their_rolls(server: Any, ui: Any) -> None:
    expect = ui.expect
    page = ui.new_page(server.url("/"))

    # -- a Modifier on the roll of a Grimtooth Ogre slayer: the Ogre answers it with +1 ----
    st = new_game()
    ogre = monster(st, "Grimtooth Ogre")
    (st.monster_deck if ogre in st.monster_deck else st.row).remove(ogre)
    st.slain[0].append(ogre)
    pippa = field(st, 0, "Pippa Reedsong")  # 6+
    hex_card = give(st, 1, "Hex of Weakness")
    st.rng = ScriptedRng([4, 5], seed=1)
    GAME.apply(st, Action("roll", pippa))
    assert GAME.actor(st) == 1
    draw_for(ui, page, st)
    button = page.locator(f'#probe .slay-choice[data-action="modify:{hex_card},-4,1"]')
    expect(button.locator(".slay-choice-label")).to_have_text(
        "Hex of Weakness −4 (+1 theirs) → 6"
    )
    expect(button.locator(".slay-choice-note")).to_have_text("meets 6+")
    expect(button).to_have_attribute(
        "title",
        "Play Hex of Weakness as -4 on Player 1's roll: 9 → 6 (+1 from their Grimtooth Ogre), "
        "meets 6+",
    )
    ui.shoot(page, "here-to-slay-decisions-ogre")

    # -- an encore is a roll: its Hero offers it with the chance ------------------------------
    st = new_game()
    aurelian = field(st, 0, "Aurelian the Encore")
    pippa = field(st, 0, "Pippa Reedsong")
    give(st, 0, "Fickle Fortune")
    st.rng = ScriptedRng([6, 6], seed=1)
    GAME.apply(st, Action("roll", aurelian))
    while st.stack[-1].kind == "modifier":  # seat 0 holds a Modifier: asked, it passes
        GAME.apply(st, PASS)
    assert st.stack[-1].kind == "pick" and st.stack[-1].args[0] == "encore"
    draw_for(ui, page, st)
    expect(page.locator("#probe .slay-question")).to_have_text(
        "You choose a Hero to roll for at once (encore), free."
    )
    hero = page.locator(f'#probe .slay-party [data-card="{pippa}"] > .slay-card-play')
    expect(hero).to_contain_text("Encore: roll for Pippa Reedsong (6+), free")
    expect(hero.locator(".slay-odds")).to_have_text(percent(at_least(6)))
    expect(hero.locator(".slay-odds-hand")).to_have_text(f"{percent(at_least(4))} with your +2")

    # -- Hunter's Moon's ATTACK shows slay and punishment on the Monster --------------------
    st = new_game()
    field(st, 0, "Lark the Busker")
    field(st, 0, "Pim the Apprentice")
    ogre = monster(st, "Grimtooth Ogre")
    if ogre not in st.row:
        st.monster_deck.remove(ogre)
        st.monster_deck.append(st.row[0])
        st.row[0] = ogre
    moon = give(st, 0, "Hunter's Moon")
    GAME.apply(st, Action("play", moon))
    assert st.stack[-1].kind == "pick" and st.stack[-1].args[0] == "attack"
    draw_for(ui, page, st)
    card = page.locator(f'#probe .slay-monster[data-monster="{ogre}"] .slay-card-play')
    expect(card).to_contain_text("ATTACK Grimtooth Ogre: 8+ slays, 5- punishes (no action point)")
    expect(card.locator(".slay-odds")).to_have_text("42% slay · 28% punishment")
    ui.shoot(page, "here-to-slay-decisions-hunters-moon")

    # -- choosing a player names the effect it is for ---------------------------------------
    st = new_game()
    sable = field(st, 0, "Sable Warbrand")
    field(st, 1, "Lark the Busker")
    field(st, 2, "Pim the Apprentice")
    GAME.apply(st, Action("roll", sable))
    assert st.stack[-1].kind == "target"
    draw_for(ui, page, st)
    expect(page.locator("#probe .slay-question")).to_have_text(
        "Choose a player for the effect of Sable Warbrand: DESTROY a Hero card."
    )
