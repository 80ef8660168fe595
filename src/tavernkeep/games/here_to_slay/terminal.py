"""How Here to Slay looks in a terminal: the Monsters, each Party, your hand, pending rolls.

Drawn from `view()` alone, so a seat sees what its view holds: its own hand, and of the
others only how many cards they hold.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tavernkeep.terminal.render import DIE_FACES

Json = dict[str, Any]

KIND_STYLE = {
    "hero": "green",
    "item": "blue",
    "cursed_item": "red",
    "magic": "magenta",
    "modifier": "yellow",
    "challenge": "cyan",
}

DECISIONS = {
    "turn": "{who} to act",
    "modifier": "Modifier window: {who} to answer (play a Modifier or pass)",
    "challenge": "{who} may CHALLENGE {card}",
    "pick": "{who} to choose what to {verb}",
    "aim": "{who} to aim: the card to {verb}, chosen before the roll",
    "free_roll": "{who} may roll at once, free, for {card}",
    "may": "{who} may use a skill{offer}",
    "may_step": "{who} may choose to{offer}",
    "target": "{who} to choose a player",
    "play_now": "{who} may play {card} at once",
    "leader": "{who} to choose a Party Leader",
}


def _player(seat: int) -> str:
    return f"Player {seat + 1}"


def _plural(count: int, word: str, many: str = "s") -> str:
    return f"{count} {word}{'' if count == 1 else many}"


def _card(card: Json) -> str:
    return f"[{KIND_STYLE.get(card['kind'], 'white')}]{escape(card['name'])}[/]"


def _needs(monster: Json) -> str:
    heroes = monster["heroes"]
    return " + ".join([*monster["classes"], *([_plural(heroes, "Hero", "es")] if heroes else [])])


def roll_text(roll: Json) -> str:
    """'3+4 +1 (modifiers -2) = 6': the dice, passive bonus, Modifiers played, total."""
    d1, d2 = roll["dice"]
    bonus = f" {roll['bonus']:+d}" if roll["bonus"] else ""
    modifiers = f" (modifiers {roll['modifiers']:+d})" if roll["modifiers"] else ""
    return f"{d1}+{d2}{bonus}{modifiers} = {roll['total']}"


def _hero_line(hero: Json) -> str:
    cls = escape(hero["class"])
    if hero.get("printed_class") and hero["printed_class"] != hero["class"]:
        cls += f" [dim](a {escape(hero['printed_class'])} in a mask)[/]"
    bonus = f" {hero['bonus']:+d}" if hero.get("bonus") else ""
    line = f"• {_card(hero)} ({cls}, {hero['roll']}+{bonus})"
    if hero["item"]:
        line += f" + {_card(hero['item'])}"
    marks = [m for m in ("warded", "rolled") if hero[m]]
    if marks:
        line += f" · [italic]{', '.join(marks)}[/]"
    return f"{line}\n[dim]{escape(hero['text'])}[/]"


def _monsters(view: Json) -> Table:
    title = f"Monsters ({view['monster_deck']} more in the Monster deck)"
    table = Table(
        "monster",
        "needs",
        "slay",
        "punished",
        "skill once slain",
        title=title,
        title_justify="left",
    )
    for m in view["monsters"]:
        name = f"[bold]{escape(m['name'])}[/]"
        punished = m["punishment"] + (f": {escape(m['punishes'])}" if m.get("punishes") else "")
        table.add_row(name, escape(_needs(m)), m["slay"], punished, escape(m["skill"]))
    return table


def _skills(seat: Json) -> str:
    """The Party Leader, then each slain Monster: a seat's skills, each under its name."""
    leader = seat["leader"]
    lines = ["[dim](Party Leader not chosen yet)[/]"]
    if leader is not None:
        lines = [f"{escape(leader['name'])} ({escape(leader['class'])})"]
        lines.append(f"[dim]{escape(leader['skill'])}[/]")
    for m in seat["slain"]:
        lines += [f"☠ [bold]{escape(m['name'])}[/]", f"[dim]{escape(m['skill'])}[/]"]
    return "\n".join(lines)


def _parties(view: Json) -> Table:
    table = Table(title="Parties", title_justify="left", expand=True, show_lines=True)
    table.add_column("player", no_wrap=True)
    table.add_column("Party Leader, ☠ slain Monsters", ratio=2)
    table.add_column("Heroes (class, roll needed) + Item", ratio=3)
    playing = view["result"] is None and view["turn"] > 0
    for s in view["table"]:
        seat = s["seat"]
        turn = seat == view["current"] and playing
        name = f"{'▶ ' if turn else '  '}{_player(seat)}"
        name = f"[bold]{name}[/]" if turn else name
        you = " (you)" if seat == view["seat"] else ""
        held = f"  {_plural(s['hand_size'], 'card')} in hand"
        heroes = "\n".join(_hero_line(h) for h in s["party"]) or "[dim]no Heroes[/]"
        table.add_row(f"{name}{you}\n{held}", _skills(s), heroes)
    return table


def _kind(card: Json) -> str:
    """'hero · Bard · roll 6+': a card's kind, and for a Hero its class and the roll its
    effect needs."""
    kind = f"[{KIND_STYLE.get(card['kind'], 'white')}]{card['kind'].replace('_', ' ')}[/]"
    if card.get("class"):
        kind += f" · {escape(card['class'])}"
    if card.get("roll"):
        kind += f" · roll {card['roll']}+"
    return kind


def _hand(cards: list[Json], title: str, challenge_bonus: int = 0) -> Table:
    """A hand: each card's kind (a Hero's class and roll), its text, and how a card of
    its kind is played where the text does not say (a Modifier, a Challenge)."""
    table = Table("card", "kind", "text", title=title, title_justify="left")
    for c in cards:
        text = escape(c["text"])
        note = c.get("note", "")
        if c["kind"] == "challenge" and challenge_bonus:
            note += f" Your CHALLENGE rolls: {challenge_bonus:+d}."
        if note:
            text += f"\n[dim]{escape(note.strip())}[/]"
        table.add_row(_card(c), _kind(c), text)
    return table


def _name_of(view: Json, card: int, need: bool = False) -> str:
    """A card in play by id: a Hero (with its roll if `need`), an Item, or a Monster."""
    for s in view["table"]:
        for h in s["party"]:
            if h["id"] == card:
                return escape(h["name"]) + (f" ({h['roll']}+)" if need else "")
            if h["item"] and h["item"]["id"] == card:
                return escape(h["item"]["name"])
    return next((escape(m["name"]) for m in view["monsters"] if m["id"] == card), "a card gone")


def _purpose(roll: Json) -> str:
    """What a roll is for, when the view says (its "for")."""
    what, card = roll.get("for"), roll.get("card")
    if what == "attack":
        m = roll["monster"]
        name = escape(m["name"])
        return f" to ATTACK {name} ({m['slay']} slays, {m['punishment']} punishes)"
    if what == "hero" and card:
        return f" for {_card(card)} ({roll['need']}+)"
    if what in ("challenge", "defence") and card:
        return f" {'to CHALLENGE' if what == 'challenge' else 'to defend'} {_card(card)}"
    return ""


def _in_range(text: str, total: int) -> bool:
    """'8+' -> total >= 8; '5-' -> total <= 5 (a Monster's ranges as the view gives them)."""
    number, sign = int(text[:-1]), text[-1]
    return total >= number if sign == "+" else total <= number


def outcome(rolls: list[Json], index: int) -> str:
    """What a roll on the table does at its total as things stand: 'meets 8+', 'slays',
    'the challenge fails' ('' when the view does not say what it is for)."""
    roll = rolls[index]
    total = roll["total"]
    what = roll.get("for")
    if what == "hero":
        need = roll["need"]
        return f"meets {need}+" if total >= need else f"misses {need}+"
    if what == "attack":
        m = roll["monster"]
        if _in_range(m["slay"], total):
            return "slays"
        return "punished" if _in_range(m["punishment"], total) else "nothing happens"
    # The challenge roll comes first and its defence right after; ties to the challenger.
    if what == "challenge" and index + 1 < len(rolls):
        wins = total >= rolls[index + 1]["total"]
        return "the challenge succeeds" if wins else "the challenge fails"
    if what == "defence" and index >= 1:
        wins = rolls[index - 1]["total"] >= total
        return "the challenge succeeds" if wins else "the challenge fails"
    return ""


def _rolls(view: Json) -> list[RenderableType]:
    lines: list[RenderableType] = []
    for n, roll in enumerate(view["rolls"], start=1):
        faces = " ".join(DIE_FACES.get(d, "") for d in roll["dice"])
        who = f"{_player(roll['seat'])} rolls{_purpose(roll)}"
        now = outcome(view["rolls"], n - 1)
        now = f" [italic]({now})[/]" if now else ""
        lines.append(
            Text.from_markup(f"[bold]Roll {n}[/]: {who}: {faces}  {roll_text(roll)}{now}")
        )
    named = any(roll.get("for") for roll in view["rolls"])
    for h in view["hero_rolls"]:
        text = f"{_player(h['seat'])} rolls for {_name_of(view, h['hero'], need=True)}"
        if h["target"] is not None:
            text += f": effect on {_player(h['target'])}"
        if h["aims"]:
            text += ", aimed at " + " and ".join(_name_of(view, c) for c in h["aims"])
        if not named or h["target"] is not None or h["aims"]:
            lines.append(Text.from_markup(text))
    return lines


def decision_text(view: Json) -> str:
    """Who must answer now, and what: Rich markup."""
    decision: Json = view["decision"]
    kind: str = decision["kind"]
    playing, card = view["playing"], decision.get("card")
    if kind == "challenge" and decision.get("player") is not None and card:
        onto = decision.get("onto")
        subject = f"{_player(decision['player'])}'s {_card(card)}"
        subject += f" (onto {_card(onto)})" if onto else ""
    elif card:
        subject = _card(card)
    elif kind == "free_roll":
        subject = "the Hero just played"
    elif kind == "play_now":
        subject = "the card just drawn"  # its name is its player's alone (RULES 38)
    else:
        subject = _card(playing[-1]) + ", being played" if playing else ""
    template = DECISIONS.get(kind, "{who} to decide (" + kind + ")")
    if kind == "pick" and decision.get("verb") == "encore":
        template = "{who} to choose a Hero to roll for at once (encore)"
    text = template.format(
        who=_player(decision["seat"]),
        card=subject,
        verb=escape(str(decision.get("verb", ""))),
        offer=f": {escape(decision['offer'])}" if decision.get("offer") else "",
    )
    if kind == "target" and decision.get("about"):
        # Which card's or skill's effect the player is chosen for, and what it does.
        about = decision["about"]
        text += f" for [bold]{escape(about['name'])}[/]: {escape(about['text'])}"
    if kind == "turn":
        text += f" ({_plural(view['action_points'], 'action point')} left)"
    return text + (" [bold](you)[/]" if decision["seat"] == view["seat"] else "")


def render(view: Json) -> RenderableType:
    discard = view["discard"]
    if view["result"] is not None:
        now = f"[bold]Turn {view['turn']}[/], the last"
    elif view["turn"]:
        points = _plural(view["action_points"], "action point")
        now = f"[bold]Turn {view['turn']}[/] · {_player(view['current'])}'s turn · {points} left"
    else:
        now = "[bold]Before the first turn[/]"
    top = f" (top: {_card(discard[-1])})" if discard else ""
    status = f"{now} · main deck {view['deck']} · discard {len(discard)}{top}"
    parts: list[RenderableType] = [Text.from_markup(status), _monsters(view), _parties(view)]
    if view["seat"] is not None:
        me = view["table"][view["seat"]]
        mine = me["hand"] or []
        bonus = int(me.get("challenge_bonus") or 0)
        parts.append(_hand(mine, "Your hand", bonus) if mine else Text("Your hand is empty."))
    if view["playing"]:
        cards = ", ".join(f"{_card(c)} ({_player(c['by'])})" for c in view["playing"])
        parts.append(Text.from_markup(f"Being played: {cards}"))
    parts.extend(_rolls(view))
    decision = view["decision"]
    if decision and decision.get("looking_at") is not None:
        parts.append(_hand(decision["looking_at"], "Their hand (you look at it to take a card)"))
    if view["result"] is not None:
        parts.append(Text(f"Game over: {view['result']['reason']}.", style="bold green"))
    elif decision:
        parts.append(Text.from_markup(f"[bold cyan]▶ {decision_text(view)}[/]"))
    return Group(*parts)


# -- pictures for the How to play (numbered as their notes in HOW_TO_PLAY.md) ---------------
# Cards of our pack, as a view shows them (rules.py card_face, monster_face).

_SABLE: Json = {
    "name": "Sable Warbrand",
    "kind": "hero",
    "class": "Fighter",
    "roll": 7,
    "text": "DESTROY a Hero card.",
}
_OGRE: Json = {
    "name": "Grimtooth Ogre",
    "heroes": 2,
    "classes": [],
    "slay": "8+",
    "punishment": "5-",
    "punishes": "SACRIFICE a Hero",
    "skill": "+1 each time an opponent plays a Modifier on your roll.",
}
_BAND: Json = {
    "name": "Band of Fortune",
    "kind": "item",
    "text": "+2 to the equipped Hero's rolls.",
}


def _picture(title: str, rows: list[tuple[str, str]], width: int, style: str = "") -> Panel:
    """A card or a Party as a panel: each row's text beside its note's mark ("(2)"), or
    beside nothing, wrapped under itself."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column()
    for mark, text in rows:
        grid.add_row(f"[bold]{mark}[/]", text)
    return Panel(grid, title=title, width=width, border_style=style)


def _hero_card_picture() -> RenderableType:
    kind = f"[{KIND_STYLE['hero']}]hero[/]"
    head = f"{kind}  [bold](2)[/] {_SABLE['class']}  [bold](3)[/] roll [bold]{_SABLE['roll']}+[/]"
    rows = [("(1)", head), ("(4)", escape(_SABLE["text"]))]
    return _picture(_card(_SABLE), rows, 44, KIND_STYLE["hero"])


def _monster_card_picture() -> RenderableType:
    m = _OGRE
    rows = [
        ("(1)", f"needs {escape(_needs(m))}"),
        ("(2)", f"[green]{m['slay']} slays[/]"),
        ("(3)", f"[red]{m['punishment']}: {escape(m['punishes'])}[/]"),
        ("(4)", f"once slain: {escape(m['skill'])}"),
    ]
    return _picture(f"[bold]{escape(m['name'])}[/]", rows, 56)


def _party_picture() -> RenderableType:
    rows = [
        ("(1)", "The Silver Songbird (Bard), Party Leader\n[dim]+1 to your Hero effect rolls.[/]"),
        ("", f"• {_card(_SABLE)} (Fighter, 7+)  [bold](3)[/] +4 on its rolls"),
        ("(2)", f"+ {_card(_BAND)}: [dim]{escape(_BAND['text'])}[/]"),
        ("(4)", "☠ [bold]Siren of the Black Lake[/]\n[dim]+1 to your Hero effect rolls.[/]"),
        ("(5)", "Classes 2/6: Bard, Fighter · Slain 1/3"),
    ]
    return _picture("Player 1's Party", rows, 60)


PICTURES = {
    "hero-card": _hero_card_picture,
    "monster-card": _monster_card_picture,
    "party": _party_picture,
}
"""The How to play's pictures, by name, as `tavernkeep rules` draws them."""
