"""How Crits & Tricks looks in a terminal: the trick on the table, everyone's dice, your hand.

Drawn from `view()` alone, so a seat sees what its view holds: its own hand and quests;
of the others their dice (rolled in the open), how many cards and quests they hold, and
the quests they have scored. The trick on the table says who would take it now, and
under it each suit in play tells how it takes a trick and what its crit does, with the
tie-breakers: the facts the browser shows beside its cards. The choices themselves, with
who would take the trick after each and the dice's chances, are the game's labels and
odds, listed by the terminal's prompt.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tavernkeep.games.crits_and_tricks.content import SUITS
from tavernkeep.games.crits_and_tricks.rules import CRITS_A_TURN

Json = dict[str, Any]

TRICKS = 6
"""Tricks in a round (the view does not carry the `tricks` option)."""

SUIT_STYLE = {
    "Barbarian": "red",
    "Rogue": "bright_black",
    "Wizard": "blue",
    "Druid": "green",
    "Paladin": "yellow",
    "Bard": "magenta",
}


SUIT_RULES: dict[str, tuple[str, str]] = {
    "Barbarian": ("highest value takes it", "+/− 1 to 3 on your die"),
    "Rogue": ("lowest value takes it", "go last in turn order"),
    "Wizard": ("closest to 5 takes it", "swap to a die you used"),
    "Druid": ("second-highest value takes it", "an opponent re-rolls"),
    "Paladin": ("highest on the lead die's size takes it", "win a tie"),
    "Bard": ("wild: stands for the led suit", "re-roll up to twice"),
}
"""Each suit's rule for taking a trick and its crit, in the words of the browser's
renderer (web/renderer.js, SUITS), so both front-ends tell the same facts."""
TIES = (
    "Ties: a Paladin crit wins (the last one used), then the larger die, "
    "then the later card (a Rogue crit goes last). Only cards that followed can win."
)
"""The tie-breakers, as the browser's legend gives them."""


def _player(seat: int) -> str:
    return f"Player {seat + 1}"


def _suit(suit: str | None) -> str:
    return f"[{SUIT_STYLE.get(suit or '', 'white')}]{suit}[/]" if suit else "-"


def _you(view: Json, seat: int) -> str:
    return " (you)" if seat == view["seat"] else ""


def dice_row(dice: list[Json]) -> str:
    """'d4:3 d6:5 ...': a used die struck through, dimmed and marked ✗ (for plain text)."""
    cells = []
    for d in dice:
        cell = f"d{d['die']}:{d['value']}"
        cells.append(f"[dim strike]{cell}✗[/]" if d["used"] else f"[bold]{cell}[/]")
    return " ".join(cells)


def hand_text(cards: list[Json]) -> str:
    """'Barbarian ×3, Bard ×2': the hand grouped by suit, in the game's suit order."""
    counts: dict[str, int] = {}
    for c in cards:
        counts[c["suit"]] = counts.get(c["suit"], 0) + 1
    order = sorted(counts, key=lambda s: SUITS.index(s) if s in SUITS else len(SUITS))
    return ", ".join(f"{_suit(s)} ×{counts[s]}" for s in order)


def _status(view: Json) -> str:
    rnd, rounds = view["round"], view["rounds"]
    now = f"[bold]Round {rnd} of {rounds}[/]" if rnd <= rounds else f"[bold]Round {rnd}[/] (extra)"
    suits = ", ".join(_suit(s) for s in view["suits"][:-1]) + f" + {_suit('Bard')}"
    if view["result"] is not None:
        return f"{now} · the game is over · suits {suits}"
    led = f"led {_suit(view['led'])}" if view["led"] else "not led yet"
    leads = f"{_player(view['leader'])}{_you(view, view['leader'])} leads"
    return f"{now} · trick {view['trick']} of {TRICKS} · suits {suits} · {leads} · {led}"


def _marks(view: Json, i: int, lay: Json) -> str:
    marks = []
    if i == 0 and lay["card"]["suit"] == "Bard" and view["led"]:
        marks.append(f"led as {_suit(view['led'])}")
    if not lay["followed"]:
        marks.append("[dim]off suit: cannot win[/]")
    if lay["rerolled"]:
        marks.append("re-rolled")
    if lay["crits"]:
        marks.append("crits " + ", ".join(_suit(c) for c in lay["crits"]))
    if lay["paladin"]:
        marks.append("[yellow]⛨ wins a tie[/]")
    if lay["last"]:
        marks.append("[bright_black]⏷ last (Rogue)[/]")
    return " · ".join(marks)


def _table(view: Json, notes: dict[int, str] | None = None) -> RenderableType:
    """The trick on the table; `notes` puts a picture's marks ("(2)") on seats' rows."""
    if not view["table"]:
        return Text("Nothing on the table yet.", style="dim")
    title = f"On the table: trick {view['trick']}, led {view['led']}"
    winning = view["winning"]
    caption = None
    if winning is not None:
        taker = "You" if winning == view["seat"] else _player(winning)
        caption = f"[bold]{taker} would take it now.[/]"
    table = Table(
        "player",
        "card",
        "die",
        "value",
        "",
        title=title,
        title_justify="left",
        caption=caption,
        caption_justify="left",
    )
    for i, lay in enumerate(view["table"]):
        who = f"{_player(lay['seat'])}{_you(view, lay['seat'])}"
        value = f"[bold]{lay['value']}[/]"
        marks = _marks(view, i, lay)
        if lay["seat"] == winning:
            marks = "[bold green]taking it[/]" + (f" · {marks}" if marks else "")
        if notes and lay["seat"] in notes:
            marks = f"[bold]{notes[lay['seat']]}[/] {marks}"
        table.add_row(who, _suit(lay["card"]["suit"]), f"d{lay['die']}", value, marks)
    return table


def suit_rules(view: Json) -> Table:
    """Each suit in play: how it takes a trick and its crit, the led one marked; the
    tie-breakers under them."""
    table = Table(
        "suit",
        "takes a trick",
        "crit",
        title="Suits in play",
        title_justify="left",
        caption=TIES,
        caption_justify="left",
    )
    for suit in view["suits"]:
        takes, crit = SUIT_RULES.get(suit, ("", ""))
        led = " [bold]◀ led[/]" if suit == view["led"] else ""
        table.add_row(f"{_suit(suit)}{led}", takes, crit)
    return table


def _seats(view: Json) -> Table:
    caption = "✗ a used die · loot: total (from Bards/quests/the Barkeep) · tricks won this round"
    table = Table(title="Players", title_justify="left", caption=caption, caption_justify="left")
    for column in ("player", "dice", "hand", "tricks", "loot", "quests"):
        table.add_column(column, no_wrap=True)
    decider = view["decision"]["seat"] if view["decision"] else None
    for s in view["seats"]:
        seat = s["seat"]
        name = f"{'▶ ' if seat == decider else '  '}{_player(seat)}{_you(view, seat)}"
        split = s["loot_from"]
        loot = f"[bold]{s['loot']}[/] ({split['bards']}/{split['quests']}/{split['barkeep']})"
        quests = [f"{s['quests_held']} held"] if view["players"] > 2 else []
        if s["scored"]:
            quests.append(f"{len(s['scored'])} scored")
        table.add_row(
            name,
            dice_row(s["dice"]),
            str(s["hand_size"]),
            str(s["tricks_won"]),
            loot,
            ", ".join(quests) or "[dim]-[/]",
        )
    return table


def _scored(view: Json) -> RenderableType | None:
    lines = [
        f"  {_player(s['seat'])}{_you(view, s['seat'])}: "
        + ", ".join(escape(q["name"]) for q in s["scored"])
        for s in view["seats"]
        if s["scored"]
    ]
    return Text.from_markup("\n".join(["[bold]Quests scored[/]", *lines])) if lines else None


def _quests(quests: list[Json], title: str) -> RenderableType:
    if not quests:
        return Text(f"{title}: none.", style="dim")
    table = Table("quest", "to do", "loot", title=title, title_justify="left")
    for q in quests:
        table.add_row(f"[bold]{escape(q['name'])}[/]", escape(q["text"]), str(q["loot"]))
    return table


def _tricks(view: Json) -> RenderableType:
    title = f"Tricks of round {view['round']}"
    table = Table("#", "led", "plays", "taken by", title=title, title_justify="left")
    for t in view["tricks"]:
        plays = ", ".join(
            f"P{p['seat'] + 1} {p['suit']} d{p['die']}:{p['value']}"
            + ("" if p["followed"] else " (off)")
            for p in t["plays"]
        )
        winner = f"{_player(t['winner'])}{_you(view, t['winner'])}"
        table.add_row(str(t["number"]), _suit(t["led"]), plays, f"[bold]{winner}[/]")
    return table


def decision_text(view: Json) -> str:
    """Who must decide now, and what: Rich markup."""
    decision: Json = view["decision"]
    kind = decision["kind"]
    who = _player(decision["seat"]) + _you(view, decision["seat"])
    mine = view["table"][-1] if view["table"] else None
    if kind == "play" and mine is None:
        text = f"{who} leads trick {view['trick']}"
    elif kind == "play":
        text = f"{who} plays to the trick: {_suit(view['led'])} led, follow it (or a Bard) if able"
    elif kind in ("reroll", "bard") and mine is not None:
        again = " once more (Bard crit)" if kind == "bard" else ""
        text = f"{who} may re-roll{again}: the d{mine['die']} shows {mine['value']}"
    elif kind == "crit" and mine is not None:
        text = f"{who} may use crits ({CRITS_A_TURN - len(mine['crits'])} left)"
    elif kind == "give_up":
        text = f"{who} chooses a quest to give up"
    elif kind == "barkeep":
        text = f"{who} chooses the Barkeep's Challenge"
    else:
        text = f"{who} to decide ({kind})"
    return text


def render(view: Json) -> RenderableType:
    parts: list[RenderableType] = [Text.from_markup(_status(view))]
    barkeep = view["barkeep"]
    if barkeep is not None:
        line = f"{escape(barkeep['name'])}: {escape(barkeep['text'])} ({barkeep['loot']} loot)"
        parts.append(Text.from_markup(f"Barkeep's Challenge: [bold]{line}[/]"))
    elif view["result"] is None:
        parts.append(Text("Barkeep's Challenge: not chosen yet.", style="dim"))
    parts.append(_table(view))
    if view["result"] is None:
        parts.append(suit_rules(view))
    parts.append(_seats(view))
    seat = view["seat"]
    if seat is not None:
        mine = view["seats"][seat]
        hand = mine["hand"] or []
        held = hand_text(hand) if hand else "[dim]empty[/]"
        parts.append(Text.from_markup(f"[bold]Your hand[/] ({len(hand)}): {held}"))
        if mine["quests"] is not None and view["result"] is None:
            parts.append(_quests(mine["quests"], "Your quests (secret)"))
    if view["public_quests"] is not None and view["result"] is None:
        parts.append(_quests(view["public_quests"], "Quests laid out for both"))
    scored = _scored(view)
    if scored is not None:
        parts.append(scored)
    decision = view["decision"]
    if decision and decision.get("offered"):
        parts.append(_quests(decision["offered"], "Quests dealt to you: give up one"))
    if view["tricks"]:
        parts.append(_tricks(view))
    if view["result"] is not None:
        parts.append(Text(f"Game over: {view['result']['reason']}.", style="bold green"))
    elif decision:
        parts.append(Text.from_markup(f"[bold cyan]▶ {decision_text(view)}[/]"))
    return Group(*parts)


# -- pictures for the How to play (numbered as their notes in HOW_TO_PLAY.md) ---------------
# The same made-up moments the browser's renderer draws (web/renderer.js, `pictures`).


def _lay(seat: int, suit: str, die: int, value: int, followed: bool = True) -> Json:
    return {
        "seat": seat,
        "card": {"id": seat, "suit": suit},
        "followed": followed,
        "die": die,
        "value": value,
        "rerolled": False,
        "crits": [],
        "paladin": False,
        "last": False,
    }


_PICTURE_TRICK: Json = {
    "seat": None,
    "trick": 3,
    "leader": 0,
    "led": "Druid",
    "winning": 1,
    "suits": ["Barbarian", "Druid", "Paladin", "Bard"],
    "table": [
        _lay(0, "Druid", 10, 9),
        _lay(1, "Druid", 12, 7),
        _lay(2, "Barbarian", 20, 8, followed=False),
        _lay(3, "Bard", 6, 4),
    ],
}
"""A Druid trick, four players, everyone has played: Player 2's 7 is second-highest."""

_PICTURE_DICE = [
    (4, 3, False),
    (6, 2, True),
    (8, 5, False),
    (10, 7, False),
    (12, 11, True),
    (20, 14, False),
]
"""Your six dice at that moment: the d6 and the d12 played in earlier tricks."""


def _hand_picture() -> RenderableType:
    takes, crit = SUIT_RULES["Wizard"]
    cells = []
    for size, value, used in _PICTURE_DICE:
        mark = "[bold](4)[/] " if size == 8 else "[bold](5)[/] " if size == 6 else ""
        cells.append(mark + dice_row([{"die": size, "value": value, "used": used}]))
    lines = [
        f"Your hand: [bold](1)[/] {hand_text([{'suit': 'Wizard'}])}",
        f"  [bold](2)[/] in a Wizard trick, {takes}",
        f"  [bold](3)[/] crit: {crit}",
        f"Your dice: {' '.join(cells)}",
    ]
    return Panel("\n".join(lines), title="Your hand and dice", width=60, border_style="blue")


def _trick_picture() -> RenderableType:
    view = _PICTURE_TRICK
    table = _table(view, notes={3: "(2) followed as Druid", 2: "(3)", 1: "(4)"})
    assert isinstance(table, Table)
    table.title = f"(1) Trick 3, led Druid: {SUIT_RULES['Druid'][0]}"
    rules = suit_rules(view)
    rules.title = "(5) Suits in play"
    return Group(table, rules)


def _quest_card_picture() -> RenderableType:
    # Seedling as content/standard.toml has it, its parts marked in the cells.
    quest = {
        "name": "(1) Seedling",
        "text": "(2) Take a Druid trick with your d6.",
        "loot": "(3) 3",
    }
    return _quests([quest], "A quest of our standard pack")


PICTURES = {"hand": _hand_picture, "trick": _trick_picture, "quest-card": _quest_card_picture}
"""The How to play's pictures, by name, as `tavernkeep rules` draws them."""
