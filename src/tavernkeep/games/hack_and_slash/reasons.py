"""Hack & Slash's tutor's line of why (agents/advice.py): what the heuristic bot weighs in
a choice, in words ("re-roll the 4: 50% to save the quest, for 4 points and the 3
adventurers on it back"), from the seat's view and the exact odds alone."""

from __future__ import annotations

from typing import Any

from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.odds import best_rescue, meet_chance, meet_chance_with_rescue


def reason(info: InfoSet, action: Action) -> str:
    """What the heuristic weighs in a choice: the chance, the prize and the adventurers
    at stake, as its `choose` counts them; "" for a choice it has no words for."""
    view = info.view()
    party = view["parties"][info.seat]
    if action.kind in ("quest", "brag"):
        quests = view["quests"]
        card = view["brag"] if action.kind == "brag" else quests[int(action.args[0]) - 1]
        sent: int = card["challenge"]
        if party > sent:
            chance = meet_chance_with_rescue(sent, card["goal"], card["exact"])
            how, risked = " with a rescue", sent + 1
        else:
            chance = meet_chance(sent, card["goal"], card["exact"])
            how, risked = "", sent
        return (
            f"{chance:.0%} to complete it{how}, for {_prize(card)}; "
            f"{_plural(risked, 'adventurer')} at stake"
        )
    attempt = view.get("attempt")
    if attempt is None:
        return ""
    card, on_card = attempt["quest"], attempt["adventurers"]
    if action.kind == "rescue":
        rest = sum(attempt["dice"]) - int(action.args[0])
        saves = sum(1 for face in range(1, 7) if _meets(rest + face, card))
        return (
            f"re-roll the {action.args[0]}: {saves / 6:.0%} to save the quest, for "
            f"{_prize(card)} and the {_plural(on_card, 'adventurer')} on it back"
        )
    if action.kind == "quit":
        _, chance = best_rescue(tuple(attempt["dice"]), card["goal"], card["exact"])
        return (
            f"{_plural(on_card, 'adventurer')} go to the Tavern; the best rescue "
            f"would save the quest {chance:.0%} of the time"
        )
    return ""


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"

def _prize(card: dict[str, Any]) -> str:
    if card["reward"] == 0:
        return "an adventurer, never points" if card["adventurer"] else "nothing"
    prize = _plural(card["reward"], "point")
    return f"{prize} and an adventurer" if card["adventurer"] else prize

def _meets(total: int, card: dict[str, Any]) -> bool:
    goal: int = card["goal"]
    return total == goal if card["exact"] else total >= goal
