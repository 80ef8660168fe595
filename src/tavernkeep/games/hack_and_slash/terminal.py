"""How Hack & Slash looks in a terminal: quests, guilds, the Tavern, score piles."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tavernkeep.engine.odds import meet_chance

MEEPLE = "♟"


def _quest_row(slot: str, card: dict[str, Any] | None) -> list[str]:
    if card is None:
        return [slot, "[dim](empty: the draw pile ran out)[/]", "", "", "", ""]
    reward = "never scored" if card["reward"] == 0 and slot == "Brag" else str(card["reward"])
    bonus = "+1 adventurer" if card["adventurer"] else ""
    chance = meet_chance(card["challenge"], card["goal"], card["exact"])
    return [
        slot,
        card["name"],
        MEEPLE * card["challenge"],
        card["goal_text"],
        f"{reward} {bonus}".strip(),
        f"{chance:.0%}",
    ]


def render(view: dict[str, Any]) -> RenderableType:
    quests = Table(
        "slot", "quest", "challenge", "goal", "reward", "odds", title="Quests", title_justify="left"
    )
    for slot, card in enumerate(view["quests"]):
        quests.add_row(*_quest_row(str(slot + 1), card))
    quests.add_row(*_quest_row("Brag", view["brag"]))

    guilds = Table("player", "party", "score", "score pile", title="Guilds", title_justify="left")
    for seat, party in enumerate(view["parties"]):
        marker = "▶ " if seat == view["current"] and not view["over"] else "  "
        name = f"{marker}Player {seat + 1}" + (" (you)" if seat == view["seat"] else "")
        guilds.add_row(
            name,
            f"{MEEPLE * party} {party}" if party else "[red]none[/]",
            str(view["scores"][seat]),
            ", ".join(view["score_piles"][seat]) or "[dim]-[/]",
        )

    status = Text(
        f"Round {view['round']} · Tavern {view['tavern']}"
        + (f" (+{view['stand_ins']} stand-ins)" if view["stand_ins"] else "")
        + f" · draw pile {view['draw_pile']}"
    )
    parts: list[RenderableType] = [quests, guilds, status]
    if view["ending"] and not view["over"]:
        parts.append(Text("The end is near: this is the last round.", style="bold yellow"))
    attempt = view["attempt"]
    if attempt:
        dice = " ".join(str(d) for d in attempt["dice"])
        if len(attempt["dice"]) > 1:
            dice += f" = {attempt['total']}"
        parts.append(
            Text(
                f"On {attempt['quest']['name']}: {attempt['adventurers']} adventurers, "
                f"dice {dice} against {attempt['quest']['goal_text']}",
                style="bold red",
            )
        )
    return Group(*parts)


# -- pictures for the How to play (numbered as their notes in HOW_TO_PLAY.md) ---------------

_FACES = "⚀⚁⚂⚃⚄⚅"


def _picture_card(lines: list[str]) -> RenderableType:
    return Panel(
        "\n".join(lines), title="Bandits at the Ford", width=38, border_style="yellow"
    )


def _quest_card_picture() -> RenderableType:
    return _picture_card(
        [
            f"[bold](1)[/] {MEEPLE * 3}  send 3, roll 3 dice",
            "[bold](2)[/] goal [bold]12+[/]",
            "[bold](3)[/] reward [bold]4 points[/]",
            "[bold](4)[/] +1 adventurer",
        ]
    )


def _rescue_picture() -> RenderableType:
    dice = "  ".join(f"{_FACES[d - 1]} {d}" for d in (2, 5, 3))
    return _picture_card(
        [
            f"[bold](1)[/] {MEEPLE * 3}  on the card",
            f"[bold](2)[/] {dice}  = 10",
            "[bold](3)[/] goal [bold]12+[/]",
        ]
    )


PICTURES = {"quest-card": _quest_card_picture, "rescue": _rescue_picture}
"""The How to play's pictures, by name, as `tavernkeep rules` draws them."""
