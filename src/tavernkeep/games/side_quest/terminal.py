"""How Side Quest looks in a terminal: the dungeon row, the heroes, the decision pending.

Drawn from `view()` alone. The game is co-operative and every seat's view holds the same
things, so every screen is the same but for "(you)": the row of Locations left to right,
one column each (its effect, the cards lying over it, the heroes standing under it), then
each hero's health and equipment, and what must be decided now.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tavernkeep.games.side_quest.content import HERO_HEALTH, MONSTER_ABILITIES, load

Json = dict[str, Any]

NL = "\n"

LEVELS = 3
"""Levels of a scenario (the pack's loader requires three; the view does not carry it)."""

LEGEND = (
    "hp health · mv move · rg range · 2d 4+: two dice, each 4 or more hits · "
    "dmg damage a hit · 1h/2h hands · ▶ whose turn"
)

ORDER = {
    "boss": 0,
    "monster": 1,
    "rune": 2,
    "portal": 3,
    "heart": 4,
    "damsel": 5,
    "key": 6,
    "weapon": 7,
    "item": 8,
    "spell": 9,
}
"""The cards over a Location, threats first; within a kind, the order they arrived (which is
the order Monsters activate)."""

HEROES_LEGEND = (
    "carried: items and spare weapons (those not in hand), held / the item limit · "
    "spells: held / the spell limit"
)

PICKUP = frozenset({"key", "weapon", "item", "spell"})
"""The cards a hero may pick up from a Location."""

DECISIONS = {
    "hero": "{who} chooses a hero",
    "weapon": "{who} chooses a Basic weapon",
    "enter": "{who} chooses the Location to enter",
    "equip": "{who} chooses the weapons to hold",
    "trade": "{who} is trading: give equipment, or finish",
    "target": "{who} chooses a target",
    "push": "{who} chooses where to push the Monster",
    "walk": "{who} may move on (a free move), or stop",
}


TARGETS = {"location": "a Location", "hero": "a hero", "monster": "a Monster"}
"""What a card's effect asks to choose (the view's `chooses`)."""


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _hero(view: Json, seat: int) -> Json:
    hero: Json = view["heroes"][seat]  # typed: the view is Any all the way down
    return hero


def _name(view: Json, seat: int) -> str:
    """The hero's name, or its player's while no hero is chosen yet."""
    name = _hero(view, seat)["hero"]
    return escape(name) if name else f"Player {seat + 1}"


def _you(view: Json, seat: int) -> str:
    return " (you)" if seat == view["seat"] else ""


def _who(view: Json, seat: int) -> str:
    return f"{_name(view, seat)}{_you(view, seat)}"


# -- numbers of cards ---------------------------------------------------------------------


def _attack(card: Json) -> str:
    return f"{card['dice']}d {card['hit']}+ dmg{card['damage']}"


def fighter_numbers(card: Json, sep: str = " ") -> str:
    """'hp3 mv1 rg0 2d 4+ dmg2': a Monster's or the Boss's numbers, as the legend reads;
    `sep` "\n" splits them in two, to fit a narrow column unbroken."""
    return f"hp{card['health']} mv{card['move']} rg{card['range']}{sep}{_attack(card)}"


def weapon_numbers(card: Json, sep: str = " ") -> str:
    """'1h rg0 2d 4+ dmg1': a weapon's hands, range, dice, hit number and damage."""
    return f"{card['hands']}h rg{card['range']}{sep}{_attack(card)}"


def _ability(card: Json) -> str:
    ability = card.get("ability")
    return f"\n[italic yellow]{escape(ability.replace('_', ' '))}[/]" if ability else ""


def abilities_legend(view: Json) -> list[str]:
    """'rallying: +1 on each attack die ...': the wording of each ability a Monster on the
    row or the Boss has, once each, in the order they are met (Rich markup)."""
    fighters = [c for loc in view["locations"] for c in loc["cards"]]
    if view.get("boss"):
        fighters.append(view["boss"])
    seen: dict[str, str] = {}
    for card in fighters:
        if card.get("ability") and card.get("ability_text"):
            seen.setdefault(card["ability"], card["ability_text"])
    return [
        f"[italic yellow]{escape(name.replace('_', ' '))}[/]: {escape(text)}"
        for name, text in seen.items()
    ]


def depth_gauge(depth: int, skull: int) -> str:
    """'▰▱▱☠ depth 1/3': how far a Damsel has sunk toward the skull (Rich markup)."""
    left = skull - depth
    colour = "green" if depth == 0 else "red" if left <= 1 else "yellow"
    gauge = "▰" * depth + "▱" * max(0, left)
    warning = f"{_plural(left, 'turn')} left" if left > 0 else "lost"
    return f"[{colour}]{gauge}☠ depth {depth}/{skull}[/]\n[{colour}]{warning}[/]"


def card_text(card: Json, view: Json) -> str:
    """One card lying over a Location, with what a player reads on it (Rich markup)."""
    kind = card["kind"]
    name = escape(card["name"])
    if kind in ("monster", "boss"):
        title = f"[bold red]{name}[/]"
        if kind == "boss":
            title = f"[bold magenta]☠ {name}[/] [magenta]BOSS[/]"
        text = f"{title}\n{fighter_numbers(card, NL)}{_ability(card)}"
        if kind == "boss" and view.get("hearts"):
            text += f"\n[magenta]guarded by {_plural(view['hearts'], 'Heart')}[/]"
    elif kind == "rune":
        text = f"[bold red]Dark Rune[/] hp{card['health']}\n[dim]Monsters roll better[/]"
    elif kind == "portal":
        text = f"[bold red]Dark Portal[/] hp{card['health']}\n[dim]spawns Monsters[/]"
    elif kind == "heart":
        text = f"[bold magenta]Dungeon Heart[/] hp{card['health']}"
    elif kind == "damsel":
        depth = int(card.get("depth", 0))
        text = f"[bold magenta]♀ Damsel[/]\n{depth_gauge(depth, view['damsel_depth'])}"
    elif kind == "key":
        text = "[bold yellow]Dungeon Key[/]"
    elif kind == "weapon":
        text = f"[blue]{name}[/]\n[dim]{weapon_numbers(card, NL)}[/]"
    elif kind == "spell":
        text = f"[magenta]{name}[/] [dim]spell {card['roll']}+[/]"
    elif kind == "item":
        text = f"[cyan]{name}[/] [dim]item[/]"
    else:
        text = name
    if card.get("stunned"):
        text += "\n[bold reverse] STUNNED [/]"
    return text


# -- the parts of the screen ----------------------------------------------------------------


def _cells(markup: list[str]) -> list[Text]:
    # Parsed here, not when printed: a slip in the markup fails in render(), which the
    # tests call on every position of many games (printing each would take minutes).
    return [Text.from_markup(m) for m in markup]


def _status(view: Json) -> str:
    level = f"Level {view['level']} of {LEVELS}"
    # The turn under way; the view never counts past the limit (a lost game ends on it).
    turn = f"turn {view['turn']} of {view['turn_limit']}"
    leader = f"Leader: {_who(view, view['leader'])}"
    lines = [f"[bold]Side Quest · {escape(view['scenario'])}[/] · {level} · {turn} · {leader}"]
    current = view["current"]
    if current is not None and view["result"] is None:
        looted = "has looted this turn" if view["looted"] else "may still Loot"
        actions = _plural(view["actions"], "action")
        lines.append(f"[bold]▶ {_who(view, current)} is acting[/]: {actions} left · {looted}")
    decks = (
        f"Dungeon deck {view['dungeon_deck']} · Monster deck {view['monster_deck']} "
        f"(discard {len(view['monster_discard'])}) · Loot deck {view['loot_deck']}"
    )
    lines.append(f"[dim]{decks}[/]")
    return "\n".join(lines)


def _boss(view: Json) -> str | None:
    """On the Boss level: the Boss, where it is, and the Hearts that still guard it."""
    boss = view.get("boss")
    if boss is None:
        return None
    where = next(
        (
            f"at Location {loc['index'] + 1}"
            for loc in view["locations"]
            if any(c["id"] == boss["id"] for c in loc["cards"])
        ),
        "slain" if view["ending"] == "boss-slain" else "at the bottom of the Dungeon deck",
    )
    hearts = view["hearts"] or 0
    if view["ending"] == "boss-slain":
        guard = "the heroes have won"
    elif hearts:
        guard = (
            f"{hearts} of {boss['health']} Dungeon Hearts stand: it cannot be hurt, "
            f"{boss['health']} damage stuns it"
        )
    else:
        guard = f"every Dungeon Heart is destroyed: {boss['health']} damage slays it"
    return (
        f"[bold magenta]☠ Boss: {escape(boss['name'])}[/] ({where}; {fighter_numbers(boss)}"
        f"{', ' + escape(boss['ability'].replace('_', ' ')) if boss.get('ability') else ''})"
        f" · {guard}"
    )


def health_gauge(health: int) -> str:
    """'♥♥♡♡ 2/4' in a colour that says how close the hero is to falling."""
    colour = "green" if health > HERO_HEALTH // 2 else "red" if health <= 1 else "yellow"
    full = max(0, min(health, HERO_HEALTH))
    return f"[{colour}]{'♥' * full}{'♡' * (HERO_HEALTH - full)} {health}/{HERO_HEALTH}[/]"


def _standing(view: Json, seat: int) -> str:
    hero = _hero(view, seat)
    turn = seat == view["current"] and view["result"] is None
    name = f"[bold]▶ {_name(view, seat)}[/]" if turn else _name(view, seat)
    line = f"{name}{_you(view, seat)}\n{health_gauge(hero['health'])}"
    if hero["stunned"]:
        line += " [bold reverse] STUNNED [/]"
    return line


def _over(loc: Json, view: Json) -> str:
    """The cards over a Location: the threats, then what a hero could pick up there."""
    cards = sorted(loc["cards"], key=lambda c: ORDER.get(c["kind"], len(ORDER)))
    threats = [card_text(c, view) for c in cards if c["kind"] not in PICKUP]
    loose = [card_text(c, view) for c in cards if c["kind"] in PICKUP]
    if loose:
        threats += ["[dim]to pick up:[/]", *loose]
    return "\n".join(threats) or "[dim]-[/]"


def _row(view: Json) -> Table:
    table = Table(
        title="The dungeon, left to right",
        title_justify="left",
        caption="\n".join([LEGEND, *abilities_legend(view)]),
        caption_justify="left",
        show_lines=True,
        expand=True,
        box=box.ROUNDED,
    )
    for loc in view["locations"]:
        if loc["revealed"]:
            header = f"{loc['index'] + 1} · {escape(loc['name'])}"
        else:
            header = f"{loc['index'] + 1} · [dim]face down[/]"
        table.add_column(Text.from_markup(header), ratio=1, vertical="top")
    effects = [
        f"[dim]{escape(loc['text'])}[/]"
        if loc["revealed"]
        else "[dim italic]face down: revealed when a hero enters[/]"
        for loc in view["locations"]
    ]
    cards = [_over(loc, view) for loc in view["locations"]]
    heroes = [
        "\n".join(_standing(view, s) for s in loc["heroes"]) or "[dim]no hero[/]"
        for loc in view["locations"]
    ]
    for row in (effects, cards, heroes):
        table.add_row(*_cells(row))
    return table


def _weapon_line(card: Json) -> str:
    return f"[blue]{escape(card['name'])}[/]\n[dim]{weapon_numbers(card, NL)}[/]"


def _equipment(hero: Json) -> tuple[str, str, str]:
    """The hero's hands, its pack (items and spare weapons) against its item limit, and its
    spells against its spell limit (Rich markup)."""
    held = set(hero["equipped"])
    hands = [_weapon_line(w) for w in hero["weapons"] if w["id"] in held]
    spare = [_weapon_line(w) for w in hero["weapons"] if w["id"] not in held]
    items = [
        "[bold yellow]Dungeon Key[/]"
        if i["kind"] == "key"
        else f"[cyan]{escape(i['name'])}[/]"
        + (" [dim](once)[/]" if i.get("consumed") else "")
        + (f"\n[dim]{escape(i['text'])}[/]" if i.get("text") else "")
        for i in hero["items"]
    ]
    spells = [
        f"[magenta]{escape(s['name'])}[/] [dim]{s['roll']}+[/]"
        + (f"\n[dim]{escape(s['text'])}[/]" if s.get("text") else "")
        for s in hero["spells"]
    ]
    pack = spare + items
    if hero["item_limit"] is None:  # no hero chosen yet: no limits to count against
        return "[dim]empty hands[/]", "-", "-"
    carried = "\n".join([f"{len(pack)}/{hero['item_limit']}", *pack])
    magic = "\n".join([f"{len(spells)}/{hero['spell_limit']}", *spells])
    return "\n".join(hands) or "[dim]empty hands[/]", carried, magic


def _heroes(view: Json) -> Table:
    table = Table(
        title="Heroes",
        title_justify="left",
        caption=HEROES_LEGEND,
        caption_justify="left",
        expand=True,
        show_lines=True,
        box=box.ROUNDED,
    )
    table.add_column("hero", ratio=4)
    table.add_column("health", no_wrap=True)
    table.add_column("in hand", ratio=3)
    table.add_column("carried", ratio=3)
    table.add_column("spells", ratio=3)
    for hero in view["heroes"]:
        seat = hero["seat"]
        turn = seat == view["current"] and view["result"] is None
        chosen = _name(view, seat) if hero["hero"] else "[dim]no hero yet[/]"
        name = f"[bold]{'▶ ' if turn else ''}{chosen}[/]"
        marks = [f"Player {seat + 1}{_you(view, seat)}"]
        if seat == view["leader"]:
            marks.append("Leader")
        if hero["location"] is not None:
            marks.append(f"at Location {hero['location'] + 1}")
        cell = f"{name}\n{' · '.join(marks)}"
        if hero["text"]:
            cell += f"\n[dim]{escape(hero['text'])}[/]"
        health = health_gauge(hero["health"])
        if hero["stunned"]:
            health += "\n[bold reverse] STUNNED [/]"
        if hero["overburdened"]:
            health += "\n[bold red reverse] OVERBURDENED [/]\n[red]cannot move[/]"
        table.add_row(*_cells([cell, health, *_equipment(hero)]))
    return table


def _die(die: list[int]) -> str:
    value, need = die[0], die[1]
    mark = "[green]✓[/]" if value >= need else "[red]✗[/]"
    return f"{value} (needs {need}+) {mark}"


def _hits(hits: list[int]) -> str:
    total = sum(hits)
    return f"{_plural(len(hits), 'hit')} ({' + '.join(map(str, hits))} = {total} damage)"


def decision_text(view: Json) -> str:
    """Who must decide now, and what (Rich markup)."""
    decision: Json = view["decision"]
    kind: str = decision["kind"]
    who = _who(view, decision["seat"])
    if kind == "turn":
        return f"{who} to act: {_plural(view['actions'], 'action')} left"
    if kind == "boost":
        dice = ", ".join(_die(d) for d in decision.get("dice", []))
        roll = escape(str(decision.get("roll", "")))
        return f"{who} decides on the {roll} roll (Mighty Boost, re-roll or keep): {dice}"
    if kind == "hit":
        return f"{who} gives out the attack's {_hits(decision.get('hits', []))}"
    if kind == "wound":
        return f"{who} chooses which hero here takes each of {_hits(decision.get('hits', []))}"
    if kind == "target" and decision.get("chooses") in TARGETS:
        return f"{who} chooses {TARGETS[decision['chooses']]} for the card"
    return DECISIONS.get(kind, "{who} to decide (" + escape(kind) + ")").format(who=who)


def render(view: Json) -> RenderableType:
    parts: list[RenderableType] = [Text.from_markup(_status(view))]
    boss = _boss(view)
    if boss is not None:
        parts.append(Text.from_markup(boss))
    parts += [_row(view), _heroes(view)]
    result, decision = view["result"], view["decision"]
    if result is not None:
        style = "bold green" if result.get("won") else "bold red"
        parts.append(Text(f"Game over: {result['reason']}.", style=style))
    elif decision:
        parts.append(Text.from_markup(f"[bold cyan]▶ {decision_text(view)}[/]"))
    return Group(*parts)


# -- pictures for the How to play (numbered as their notes in HOW_TO_PLAY.md) ---------------
# Cards of the standard pack, read from it; the moment they are in (Hilde Stonewall hurt
# once at the Moonlit Shrine, a Cellar Rat and a Damsel one step down) is made up.


def _pack_card(kind: str, name: str) -> Json:
    """A card of the standard pack by its name, as the view shows one of its kind."""
    content = load().content
    found = next(c for c in getattr(content, kind) if c.name == name)
    return {"kind": kind, **found.model_dump()}


def _picture(rows: list[tuple[str, str]], title: str) -> RenderableType:
    """A card or panel drawn for a picture: each row its note's number, "(1)", then what
    the row shows (Rich markup), wrapped under itself."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column()
    for mark, markup in rows:
        grid.add_row(mark, Text.from_markup(markup))
    return Panel(grid, title=title, title_align="left", width=60, border_style="yellow")


def _monster_card_picture() -> RenderableType:
    card = _pack_card("monster", "Cave Weaver")
    ability = card["ability"]
    return _picture(
        [
            (
                "(1)",
                f"hp{card['health']}   [bold](2)[/] mv{card['move']} rg{card['range']}"
                f"   [bold](3)[/] {_attack(card)}",
            ),
            (
                "(4)",
                f"[italic yellow]{ability.replace('_', ' ')}[/]: "
                f"{escape(MONSTER_ABILITIES[ability])}",
            ),
        ],
        f"[bold red]Monster: {escape(card['name'])}[/]",
    )


def _hero_sheet_picture() -> RenderableType:
    hero = _pack_card("hero", "Hilde Stonewall")
    sword = _pack_card("weapon", "Notched Shortsword")
    tonic = _pack_card("item", "Flask of Red Tonic")
    return _picture(
        [
            ("(1)", health_gauge(HERO_HEALTH - 1)),
            ("(2)", f"[dim]{escape(hero['text'])}[/]"),
            ("(3)", f"items 1/{hero['item_limit']} · spells 0/{hero['spell_limit']}"),
            ("(4)", f"in hand: [blue]{escape(sword['name'])}[/] [dim]{weapon_numbers(sword)}[/]"),
            ("", f"carried: [cyan]{escape(tonic['name'])}[/] [dim](once)[/]"),
        ],
        f"[bold]{escape(hero['name'])}[/] · Player 1",
    )


def _location_picture() -> RenderableType:
    shrine = _pack_card("location", "Moonlit Shrine")
    rat = _pack_card("monster", "Cellar Rat")
    gauge = depth_gauge(1, 3).replace("\n", " · ")
    return _picture(
        [
            ("(1)", f"[dim]{escape(shrine['text'])}[/]"),
            ("(2)", f"[bold red]{escape(rat['name'])}[/] {fighter_numbers(rat)}"),
            ("(3)", f"[bold magenta]♀ Damsel[/] {gauge}"),
            ("(4)", f"Hilde Stonewall {health_gauge(HERO_HEALTH - 1)}"),
        ],
        f"2 · {escape(shrine['name'])}",
    )


PICTURES = {
    "monster-card": _monster_card_picture,
    "hero-sheet": _hero_sheet_picture,
    "location": _location_picture,
}
"""The How to play's pictures, by name, as `tavernkeep rules side-quest` draws them."""
