"""The Hack & Slash heuristic bot: expected value with exact odds.

It values a quest at its chance of success (counting the rescue it would attempt) times
the reward, minus the adventurers it expects to lose. An adventurer is worth something
while there are turns ahead to send it on, and almost nothing in the last round, where
only the tie-break counts. On a failure it compares quitting with the best rescue, die
by die, using the exact chance of each re-roll. It reads only its seat's view (as
`observe` gives it, the parts it reads).
"""

from __future__ import annotations

from typing import Any

from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.odds import best_rescue, meet_chance, meet_chance_with_rescue

ADVENTURER_VALUE = 0.6
"""Points an adventurer at home is worth to a small guild while the game goes on."""
COMFORTABLE_GUILD = 5
"""Beyond this many at home, each further adventurer is worth less and less: a big guild
cannot send them all, and hoarding them (bragging forever) wins nothing."""
LAST_ROUND_VALUE = 0.01
"""In the last round an adventurer only breaks ties."""


def adventurer_value(view: dict[str, Any], party: int) -> float:
    if view["ending"]:
        return LAST_ROUND_VALUE
    if party <= COMFORTABLE_GUILD:
        return ADVENTURER_VALUE
    return ADVENTURER_VALUE * COMFORTABLE_GUILD / party


def quest_value(card: dict[str, Any], party: int, worth: float) -> float:
    """Expected points of sending `party`'s adventurers on `card`, net of losses."""
    sent: int = card["challenge"]
    can_rescue = party > sent
    if can_rescue:
        chance = meet_chance_with_rescue(sent, card["goal"], card["exact"])
        # A failed first roll always commits the rescuer, so a loss costs one more.
        lost = sent + 1
    else:
        chance = meet_chance(sent, card["goal"], card["exact"])
        lost = sent
    gain = float(card["reward"]) + (worth if card["adventurer"] else 0.0)
    return chance * gain - (1.0 - chance) * lost * worth


class HeuristicBot:
    name = "bot:heuristic"


    def choose(self, info: InfoSet) -> Action:
        view = info.observe()
        actions = info.legal_actions()
        party = view["parties"][info.seat]
        worth = adventurer_value(view, party)
        if view["decision"]["kind"] == "rescue":
            return self._rescue_or_quit(view, actions, worth)
        best, best_value = actions[0], float("-inf")
        for action in actions:
            # `quest:N` is the Nth quest shown, view["quests"][N - 1].
            quests = view["quests"]
            card = view["brag"] if action.kind == "brag" else quests[int(action.args[0]) - 1]
            value = quest_value(card, party, worth)
            if value > best_value:
                best, best_value = action, value
        return best

    @staticmethod
    def _rescue_or_quit(
        view: dict[str, Any], actions: list[Action], worth: float
    ) -> Action:
        attempt = view["attempt"]
        card = attempt["quest"]
        value, chance = best_rescue(tuple(attempt["dice"]), card["goal"], card["exact"])
        # Against quitting: a success brings the quest and every adventurer home;
        # a failure costs the rescuer too.
        gain = card["reward"] + (worth if card["adventurer"] else 0.0)
        gain += attempt["adventurers"] * worth
        if chance * gain - (1.0 - chance) * worth > 0:
            for action in actions:
                if action.kind == "rescue" and action.args[0] == value:
                    return action
        return next(a for a in actions if a.kind == "quit")
