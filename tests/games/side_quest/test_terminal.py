"""Side Quest at the terminal: what the screen shows, and that it never fails to draw.

Positions are real games (random, or eager for the Boss level) or laid out by hand with
the shared helpers; the screen is what Rich prints at width 100, as plain text.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from side_quest_helpers import arena, card, dice, location, play, put, special_pack

from tavernkeep.cli import main
from tavernkeep.engine.rng import Rng
from tavernkeep.games.side_quest import GAME, SideQuestState
from tavernkeep.games.side_quest.dungeon import travel
from tavernkeep.games.side_quest.terminal import HEROES_LEGEND, depth_gauge, render
from tavernkeep.terminal.render import event_line, renderer_for

WIDTH = 100
SCENARIOS = ("The Cellar Below the Inn", "Webs Under Thornhold", "The Ashen Throne")
EAGER = ("key", "rescue", "boost", "attack", "hit", "pickup", "loot")
"""What a purposeful player reaches for first, so that games last and reach the Boss."""
POCK, IVO, HILDE = "Pock Quickfingers", "Ivo Twice-Lucky", "Hilde Stonewall"
SWORD, STAFF, BOW = "Notched Shortsword", "Iron-shod Staff", "Yew Shortbow"


def screen(view: dict[str, Any], width: int = WIDTH) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, legacy_windows=False).print(render(view))
    return out.getvalue()


def flat(text: str) -> str:
    """The screen with runs of spaces and line breaks as one space (wrapped cells rejoin)."""
    return " ".join(text.split())


def below(text: str) -> str:
    """What is printed under the tables: the decision pending, or the game's end."""
    tail = flat(text.split("╯")[-1])
    assert tail.startswith(HEROES_LEGEND)
    return tail.removeprefix(HEROES_LEGEND).strip()


def table(text: str, title: str) -> list[list[str]]:
    """The rows of the table under `title` on the screen, each a list of its cells' text
    (a wrapped cell rejoined); the header is row 0."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == title) + 2
    rows: list[list[str]] = []
    cells: list[list[str]] = []
    for line in lines[start:]:
        if line.startswith(("├", "╰")):
            rows.append([flat(" ".join(cell)) for cell in cells])
            cells = []
            if line.startswith("╰"):
                return rows
            continue
        parts = line.split("│")[1:-1]
        cells = cells or [[] for _ in parts]
        for cell, part in zip(cells, parts, strict=True):
            cell.append(part)
    raise AssertionError(f"no end to the table {title}")


def dungeon(view: dict[str, Any]) -> list[list[str]]:
    """The dungeon row: [headers, effects, cards, heroes], one cell per Location."""
    return table(screen(view), "The dungeon, left to right")


def heroes(view: dict[str, Any]) -> list[list[str]]:
    """The heroes' table: one row per hero after the header, its cells hero, health,
    in hand, carried and spells."""
    return table(screen(view), "Heroes")


def new_game(index: int, boss_level: bool = False, turn_limit: int = 8) -> SideQuestState:
    options = {
        "players": 1 + index % 4,
        "scenario": SCENARIOS[index % 3],
        "heroes": "random" if index % 2 or boss_level else "choose",
        "turn_limit": turn_limit,
    }
    st = GAME.setup(GAME.make_config(options), 500 + index)
    if boss_level:
        # Straight down to level 3, as if the Key had opened the Door twice.
        travel(st, None)
        travel(st, None)
    return st


def positions(st: SideQuestState, seed: int, eager: bool = False) -> Iterator[SideQuestState]:
    """The position before each action of a seeded game, and the end."""
    rng = Rng(seed)
    while GAME.actor(st) is not None:
        yield st
        legal = GAME.legal_actions(st)
        # Random play would drop its weapons half the time; make dropping rarer.
        choices = [a for a in legal if a.kind != "drop"] if rng.below(8) else legal
        if eager and rng.below(4):
            for kind in EAGER:
                wanted = [a for a in choices if a.kind == kind]
                if wanted:
                    choices = wanted
                    break
        GAME.apply(st, rng.choice(choices or legal), record=False)
    yield st


# -- every position draws ---------------------------------------------------------------


def check_screen(st: SideQuestState, seat: int | None) -> str:
    view = GAME.view(st, seat)
    text = screen(view)
    assert max(cell_len(line) for line in text.splitlines()) <= WIDTH
    words = flat(text)
    assert f"Level {view['level']} of 3" in words
    for loc in view["locations"]:
        assert f"{loc['index'] + 1} · " in words
    for hero in view["heroes"]:
        if hero["hero"]:
            assert hero["hero"] in words
    if view["result"] is not None:
        assert f"Game over: {view['result']['reason']}." in below(text)
        assert "▶" not in below(text)
    else:
        decider = view["decision"]["seat"]
        who = view["heroes"][decider]["hero"] or f"Player {decider + 1}"
        assert below(text).startswith(f"▶ {who}")
    return words


@pytest.mark.parametrize("block", range(4))
def test_every_position_of_random_games_draws(block: int) -> None:
    """200 random games of 1-4 heroes (half of them on the Boss level): every position is
    drawn, for a seat in turn or a spectator; every 16th, and the end, is printed whole and
    read (printing is slow; render() parses all its markup itself, so a slip fails there)."""
    for index in range(50 * block, 50 * block + 50):
        st = new_game(index, boss_level=index % 8 >= 4)
        for step, now in enumerate(positions(st, index, eager=index % 3 == 0)):
            seat = step % now.players if step % 2 else None
            if step % 16 == index % 16 or GAME.actor(now) is None:
                check_screen(now, seat)
            else:
                render(GAME.view(now, seat))
        assert GAME.result(st) is not None


def test_eager_games_on_the_boss_level_draw_to_a_win_and_a_loss() -> None:
    endings: set[str] = set()
    for index in range(60):
        st = new_game(index, boss_level=True, turn_limit=30)
        for now in positions(st, index, eager=True):
            if GAME.actor(now) is None or index % 5 == 0:
                check_screen(now, 0)
        result = GAME.result(st)
        assert result is not None
        endings.add(result.ending)
        text = screen(GAME.view(st, 0))
        assert below(text) == f"Game over: {result.reason}."
        won = result.ending == "boss-slain"
        assert ("(slain;" in flat(text)) is won and ("The heroes win" in below(text)) is won
        if endings >= {"boss-slain", "hero-fell"}:
            break
    assert endings >= {"boss-slain", "hero-fell"}


# -- what a player notices -------------------------------------------------------------


def test_a_monster_shows_its_numbers_its_ability_and_its_stun() -> None:
    st = arena([POCK], [SWORD], [0])
    put(st, "Ogre Bruiser", 1)
    weaver = put(st, "Cave Weaver", 1)
    st.stunned.add(weaver)
    view = GAME.view(st, 0)
    cell = dungeon(view)[2][1]
    ogre, cave = view["locations"][1]["cards"]
    for c in (ogre, cave):
        numbers = f"hp{c['health']} mv{c['move']} rg{c['range']}"
        attack = f"{c['dice']}d {c['hit']}+ dmg{c['damage']}"
        assert f"{c['name']} {numbers} {attack}" in cell
    # In the order they arrived (the order they activate); the stun is the Weaver's.
    assert cell.endswith("Cave Weaver " + cell.split("Cave Weaver ")[1])
    assert cell.index("Ogre Bruiser") < cell.index("Cave Weaver")
    assert cell.endswith("stun on hit STUNNED")
    assert cell.count("STUNNED") == 1


def test_the_dungeon_legend_gives_the_wording_of_each_ability_on_the_row_once() -> None:
    st = arena([POCK], [SWORD], [0])
    put(st, "Cult Acolyte", 1)  # rallying
    put(st, "Mire Leech", 2)  # grasping
    put(st, "Gutter Imp", 2)  # grasping too
    put(st, "Cellar Rat", 0)  # no ability
    view = GAME.view(st, 0)
    acolyte, leech = view["locations"][1]["cards"][0], view["locations"][2]["cards"][0]
    words = flat(screen(view))
    assert f"rallying: {flat(acolyte['ability_text'])}" in words
    assert f"grasping: {flat(leech['ability_text'])}" in words
    assert words.count(flat(leech["ability_text"])) == 1


def test_a_loot_that_finds_nothing_is_a_failure_in_the_log() -> None:
    st = arena([POCK], [SWORD], [0])
    dice(st, 1)
    (miss,) = [e for e in play(st, "loot") if e.kind == "loot"]
    assert event_line(miss) == f"  [red]{miss.text}[/]"
    st = arena([POCK], [SWORD], [0])
    dice(st, 6)
    (found,) = [e for e in play(st, "loot") if e.kind == "loot"]
    assert event_line(found) == f"  [green]{found.text}[/]"


def test_face_down_locations_say_so_and_revealed_ones_show_their_effect() -> None:
    st = GAME.setup(GAME.make_config({"players": 2, "heroes": "random"}), 3)
    headers, effects, _, standing = dungeon(GAME.view(st, 0))
    assert headers == [f"{i + 1} · face down" for i in range(len(st.row))]
    assert set(effects) == {"face down: revealed when a hero enters"}
    assert set(standing) == {"no hero"}
    play(st, "enter:2")
    view = GAME.view(st, 0)
    headers, effects, _, standing = dungeon(view)
    shown = view["locations"][1]
    assert headers[1] == f"2 · {shown['name']}" and effects[1] == shown["text"]
    assert headers[0] == "1 · face down"
    hero = view["heroes"][view["locations"][1]["heroes"][0]]
    assert standing[1].startswith(hero["hero"])


def test_a_damsel_sinks_toward_the_skull() -> None:
    st = arena([POCK], [SWORD], [0], pack=special_pack())
    damsel = put(st, "a Damsel", 2)
    skull = GAME.view(st, 0)["damsel_depth"]
    st.depth[damsel] = skull - 1
    sunk = "▰" * (skull - 1) + "▱"
    assert (
        dungeon(GAME.view(st, 0))[2][2] == f"♀ Damsel {sunk}☠ depth {skull - 1}/{skull} 1 turn left"
    )
    st.depth[damsel] = 0
    fresh = f"♀ Damsel {'▱' * skull}☠ depth 0/{skull} {skull} turns left"
    assert dungeon(GAME.view(st, 0))[2][2] == fresh
    assert depth_gauge(1, 3).startswith("[yellow]▰▱▱☠ depth 1/3")


def test_runes_the_portal_and_loot_lie_over_their_location() -> None:
    st = arena([POCK], [SWORD], [0], pack=special_pack())
    put(st, "Firepot", 0)
    put(st, "a Dark Rune", 0)
    put(st, "Cinder Squall", 0)
    put(st, "the Dungeon Key", 0)
    put(st, "Galewing Greatbow", 2)
    put(st, "the Dark Portal", 2)
    view = GAME.view(st, 0)
    cards = dungeon(view)[2]
    here = {c["kind"]: c for loc in view["locations"] for c in loc["cards"]}
    bow, rune, portal = here["weapon"], here["rune"], here["portal"]
    numbers = f"{bow['hands']}h rg{bow['range']} {bow['dice']}d {bow['hit']}+ dmg{bow['damage']}"
    # Threats first, then what could be picked up.
    rune_says = f"Dark Rune hp{rune['health']} Monsters roll better"
    assert cards[0].startswith(f"{rune_says} to pick up: Dungeon Key")
    assert "Firepot item" in cards[0]
    assert f"Cinder Squall spell {here['spell']['roll']}+" in cards[0]
    portal_says = f"Dark Portal hp{portal['health']} spawns Monsters"
    assert cards[2] == f"{portal_says} to pick up: Galewing Greatbow {numbers}"
    assert cards[1] == "-"


def test_each_hero_shows_health_hands_pack_spells_and_overburdened() -> None:
    st = arena([HILDE, POCK], [STAFF, BOW], [0, 1])
    st.health[0] = 1
    hilde, pock = heroes(GAME.view(st, 1))[1:]
    assert hilde[0].startswith("▶ Hilde Stonewall Player 1 · Leader · at Location 1 ")
    assert pock[0].startswith("Pock Quickfingers Player 2 (you) · at Location 2 ")
    assert hilde[1] == "♥♡♡♡ 1/4" and pock[1] == "♥♥♥♥ 4/4"
    staff = GAME.view(st, 1)["heroes"][0]["weapons"][0]
    assert hilde[2] == f"Iron-shod Staff 2h rg{staff['range']} {staff['dice']}d " + (
        f"{staff['hit']}+ dmg{staff['damage']}"
    )
    limit = GAME.view(st, 1)["heroes"][1]["item_limit"]
    assert pock[3] == f"0/{limit}"
    # Three items, a spare weapon and a spell: over the item limit.
    for name in ("Firepot", "Flask of Red Tonic", "Smoke Pellets"):
        st.items[1].append(card(st, name))
        st.loot_deck.remove(st.items[1][-1])
    spare = card(st, "Galewing Greatbow")
    st.loot_deck.remove(spare)
    st.weapons[1].append(spare)
    st.spells[1].append(card(st, "Frostbind"))
    st.loot_deck.remove(st.spells[1][-1])
    view = GAME.view(st, 1)
    assert view["heroes"][1]["overburdened"]
    pock = heroes(view)[2]
    assert pock[1] == "♥♥♥♥ 4/4 OVERBURDENED cannot move"
    assert pock[3].startswith(f"4/{limit} Galewing Greatbow 2h rg")
    assert "Firepot (once)" in pock[3] and "Smoke Pellets" in pock[3]
    assert pock[4].startswith(f"1/{view['heroes'][1]['spell_limit']} Frostbind ")
    assert "OVERBURDENED" not in " ".join(heroes(view)[1])


def test_a_stunned_hero_shows_it() -> None:
    st = arena([POCK, IVO], [SWORD, STAFF], [0, 1])
    st.hero_stun[1] = st.turns + 1
    view = GAME.view(st, 0)
    assert dungeon(view)[3][1] == "Ivo Twice-Lucky ♥♥♥♥ 4/4 STUNNED"
    assert heroes(view)[2][1] == "♥♥♥♥ 4/4 STUNNED"
    assert "STUNNED" not in " ".join(heroes(view)[1])


def test_the_header_says_level_turn_leader_whose_turn_and_decks() -> None:
    st = arena([POCK, IVO], [SWORD, STAFF], [0, 1], turn_limit=12)
    view = GAME.view(st, 0)
    words = flat(screen(view))
    assert "Side Quest · The Cellar Below the Inn · Level 1 of 3 · turn 1 of 12" in words
    assert "Leader: Pock Quickfingers (you)" in words
    assert "▶ Pock Quickfingers (you) is acting: 3 actions left · may still Loot" in words
    decks = (
        f"Dungeon deck {view['dungeon_deck']} · Monster deck {view['monster_deck']} "
        f"(discard 0) · Loot deck {view['loot_deck']}"
    )
    assert decks in words
    dice(st, 1)
    play(st, "loot")
    if st.stack[-1].kind == "boost":  # Mighty Boost cannot lift a 1 to a 5: never asked
        play(st, "keep")
    words = flat(screen(GAME.view(st, 0)))
    assert "2 actions left · has looted this turn" in words
    assert "▶ Pock Quickfingers (you) to act: 2 actions left" in words


def test_a_game_lost_to_the_turn_limit_ends_on_its_last_turn() -> None:
    st = arena([POCK], [SWORD], [0], turn_limit=1)
    play(st, "end")
    view = GAME.view(st, 0)
    assert view["ending"] == "turn-limit"
    text = screen(view)
    assert "Level 1 of 3 · turn 1 of 1" in flat(text)
    assert below(text) == "Game over: The heroes lose: the turn limit ran out."


def test_the_boss_and_its_hearts_show_on_level_three() -> None:
    st = new_game(2, boss_level=True)
    view = GAME.view(st, None)
    assert view["level"] == 3 and view["boss"] is not None
    boss, hearts = view["boss"], view["hearts"]
    words = flat(screen(view))
    assert f"☠ Boss: {boss['name']} (at the bottom of the Dungeon deck;" in words
    assert f"{hearts} of {boss['health']} Dungeon Hearts stand: it cannot be hurt" in words
    # The Boss dealt onto the row, with a Heart beside it.
    st.dungeon_deck.remove(boss["id"])
    st.here[1].append(boss["id"])
    heart = next(c for c in st.dungeon_deck if st.card_kind[c] == "heart")
    st.dungeon_deck.remove(heart)
    st.here[1].append(heart)
    view = GAME.view(st, None)
    cell = dungeon(view)[2][1]
    assert cell.startswith(f"☠ {boss['name']} BOSS hp{boss['health']} mv{boss['move']}")
    assert f"guarded by {hearts} Heart" in cell
    assert cell.endswith(f"Dungeon Heart hp{view['locations'][1]['cards'][1]['health']}")
    assert f"☠ Boss: {boss['name']} (at Location 2;" in flat(screen(view))
    # Every Heart destroyed: now the Boss can be slain.
    for c in range(len(st.card_kind)):
        if st.card_kind[c] == "heart" and c not in st.removed:
            for zone in st.zones():
                if c in zone:
                    zone.remove(c)
            st.removed.append(c)
    view = GAME.view(st, None)
    words = flat(screen(view))
    assert f"every Dungeon Heart is destroyed: {boss['health']} damage slays it" in words
    assert "guarded by" not in dungeon(view)[2][1]


# -- the pending decision ----------------------------------------------------------------


def test_a_roll_open_to_mighty_boost_shows_its_dice() -> None:
    st = arena([POCK], [SWORD], [0])
    dice(st, 3)
    play(st, "loot")
    words = flat(screen(GAME.view(st, 0)))
    assert "▶ Pock Quickfingers (you) decides on the loot roll" in words
    assert "3 (needs 5+) ✗" in words


def test_hits_to_give_out_and_wounds_to_take_are_counted() -> None:
    st = arena([POCK], [STAFF], [0])
    put(st, "Cellar Rat", 0)
    put(st, "Glowcap Sprout", 0)
    dice(st, 4, 6)
    play(st, "attack:1")
    view = GAME.view(st, 0)
    hits = view["decision"]["hits"]
    said = f"{len(hits)} hits ({' + '.join(map(str, hits))} = {sum(hits)} damage)"
    assert f"▶ Pock Quickfingers (you) gives out the attack's {said}" in flat(screen(view))

    st = arena([POCK, IVO], [SWORD, "Chipped Stiletto"], [0, 0])
    put(st, "Ogre Bruiser", 0)
    play(st, "end")
    dice(st, 6, 6)
    play(st, "end")
    view = GAME.view(st, 1)
    hits = view["decision"]["hits"]
    said = f"{len(hits)} hits ({' + '.join(map(str, hits))} = {sum(hits)} damage)"
    assert f"▶ Pock Quickfingers chooses which hero here takes each of {said}" in flat(screen(view))


def test_choosing_heroes_and_locations_is_said() -> None:
    st = GAME.setup(GAME.make_config({"players": 2}), 1)
    words = flat(screen(GAME.view(st, 0)))
    assert "▶ Player 1 (you) chooses a hero" in words
    play(st, "hero:0")
    words = flat(screen(GAME.view(st, 0)))
    assert "▶ Hilde Stonewall (you) chooses a Basic weapon" in words
    assert "empty hands" in words


def test_a_location_effect_is_shown_by_name() -> None:
    st = arena([POCK], [SWORD], [0])
    location(st, 2, "Moonlit Shrine")
    headers, effects, _, _ = dungeon(GAME.view(st, 0))
    assert headers[2] == "3 · Moonlit Shrine"
    assert effects[2] == "End phase: every hero here regains 1 health."


# -- at the command -------------------------------------------------------------------


def test_the_terminal_finds_this_renderer() -> None:
    assert renderer_for(GAME) is render


def test_bots_play_side_quest_to_the_end_at_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    record = tmp_path / "game.json"
    seats = ["--seat", "bot:random"] * 4
    args = ["play", "side-quest", *seats, "--seed", "4", "--delay", "0"]
    code = main([*args, "--option", "heroes=random", "--record", str(record)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Traceback" not in out + err
    data = json.loads(record.read_text())
    reason = data["result"]["reason"]
    assert f"Game over: {reason}." in flat(out)
    assert "The dungeon, left to right" in out and "Heroes" in out


def test_a_person_plays_side_quest_at_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 3000))
    record = tmp_path / "game.json"
    seats = ["--seat", "human", "--seat", "bot:random"]
    args = ["play", "side-quest", *seats, "--seed", "2", "--delay", "0"]
    code = main([*args, "--option", "turn_limit=3", "--record", str(record)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Traceback" not in out + err
    assert "Player 1 (you), your choice:" in out
    assert "chooses a hero" in out and "The dungeon, left to right" in out
    data = json.loads(record.read_text())
    assert data["result"] is not None
    assert f"Game over: {data['result']['reason']}." in flat(out)
