"""Rage's tutor's line of why (agents/advice.py): what the planner weighs in a choice, in
words: the first dice it sets off (a rage check's chance to keep your head, a fight's to
destroy the skeleton, from `info.odds`), then where the best plan through it lands,
sampled as the planner samples it (heuristic.py): the food, the rage and wounds, the
skeletons' sight, and how far the food (or the way out) is from there. It marks the choice
the planner would make. Rage hides nothing but the dice to come: it plays on a copy whose
dice come from a fixed stream (`determinize`), so the line never depends on the true ones.
"""

from __future__ import annotations

from collections import Counter

from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng
from tavernkeep.games.rage.forecast import KEEP_YOUR_HEAD
from tavernkeep.games.rage.heuristic import (
    ESCAPE,
    STOP,
    Scorer,
    choice_outcomes,
    outcomes,
    plans,
    watchers,
)
from tavernkeep.games.rage.hexes import DIRECTION_NAMES
from tavernkeep.games.rage.state import RageState
from tavernkeep.games.rage.turn import (
    SNEAK,
)

REASON_DICE = 1
"""The stream the tutor's reasons sample their dice from: fixed, so that a choice's line
is the same however often it is asked (and each choice's plans are weighed alike)."""
ENDING_WORDS = {
    "won": "a win",
    "knighted": "a win and the knighthood",
    "survived": "out alive, too little food to win",
    "wanders": "out, but rage has you",
    "dawn": "caught by dawn",
    "died": "death",
}
"""What each ending means for the player, said short (turn.ENDINGS says it in full)."""
LINE = 110
"""The longest line the tutor's reasons aim for: what a plan leads to is said in order of
weight (food, the ending, rage, wounds, sight, the way on) for as long as it fits."""


def reason(info: InfoSet, action: Action) -> str:
    """What the planner weighs in a choice, as the tutor's line (agents/advice.py):
    the first dice it sets off (a rage check's chance to keep your head, a fight's to
    destroy the skeleton, from `info.odds`), then where the best plan through it
    lands, sampled as `choose` samples it: the food, the rage and wounds, the
    skeletons' sight, and how far the food (or the way out) is from there. It
    marks the choice the planner would make.

    Rage hides nothing but the dice to come: it plays on a copy whose dice come from
    a fixed stream (`determinize`), so the line never depends on the true ones."""
    st: RageState = info.determinize(Rng(REASON_DICE))
    if not st.stack:
        return ""
    dice = dice_words(info.odds(action))
    lead = f"{dice}; " if dice else ""
    if st.stack[-1].kind == "move":
        return move_words(st, action, Rng(REASON_DICE), lead)
    return choice_words(st, action, info.legal_actions(), Rng(REASON_DICE), lead)


def dice_words(odds: dict[str, float]) -> str:
    """The first dice of a choice, from its odds (forecast.chances): '83% to keep your
    head', 'you rush the Reeve' (rage in control), '44% to destroy the Reeve first'."""
    if KEEP_YOUR_HEAD in odds:
        return f"{odds[KEEP_YOUR_HEAD]:.0%} to keep your head"
    for name, p in odds.items():
        if name.startswith("destroy "):
            return f"{p:.0%} to {name} first"
        if name.startswith("rush "):
            return f"you {name}"  # every check lost: rage has control
    return ""


def number(x: float) -> str:
    """'2' or '1.5': an average over samples, as a person reads it."""
    return str(round(x)) if abs(x - round(x)) < 0.05 else f"{x:.1f}"


def fit(lead: str, parts: list[str]) -> str:
    """`lead`, then as many of `parts` (the weightiest first) as the line has room for:
    always the first."""
    line = lead + (parts[0] if parts else "nothing changes")
    for part in parts[1:]:
        if len(line) + 2 + len(part) > LINE:
            break
        line += f", {part}"
    return line


def move_words(st: RageState, action: Action, rng: Rng, lead: str) -> str:
    """A step, a stop or an escape: the best plan this move that begins with it, and
    where it lands; every plan is weighed (as `best_plan` does) to mark the planner's."""
    scorer = Scorer(st)
    tried = [(plan, outcomes(st, plan, rng)) for plan in plans(st)]
    values = [scorer.mean(ends) for _, ends in tried]
    mine = [i for i, (plan, _) in enumerate(tried) if plan[:1] == [action]]
    if mine:
        chosen = max(mine, key=lambda i: values[i])
        plan, ends = tried[chosen]
        pick = chosen == max(range(len(tried)), key=lambda i: values[i])
    else:
        # A first step to a place and facing the plans reached another way first: the
        # step, then the move ends.
        plan = [action] if st.steps + 1 >= SNEAK else [action, STOP]
        ends, pick = outcomes(st, plan, rng), False
    if action == ESCAPE:
        stay = "the planner's pick" if pick else "the planner would stay on"
        return f"{lead}escape with {st.bag} food: {ENDING_WORDS[ends[0].ending]}; {stay}"
    head = "the planner's plan" if pick else "at best"
    return fit(f"{lead}{head}: {path_words(plan)}: ", outcome_words(st, ends, scorer))


def path_words(plan: list[Action]) -> str:
    """'NE, E, stop': a plan's steps by direction, then how the move ends."""
    if plan == [STOP]:
        return "stop here"
    return ", ".join(DIRECTION_NAMES[int(a.args[0])] if a.kind == "step" else a.kind for a in plan)


def choice_words(st: RageState, action: Action, actions: list[Action], rng: Rng, lead: str) -> str:
    """A choice inside the turn (backstab or spare, fight on or disengage): where it
    lands by the next move, against the other choice, as `choice_value` weighs them."""
    scorer = Scorer(st)
    # Each choice sampled in the decision's own order, whichever is asked about, so
    # that every line weighs the same samples.
    tried = {a: choice_outcomes(st, a, rng) for a in actions}
    values = {a: scorer.mean(ends) for a, ends in tried.items()}
    pick = "the planner's pick: " if max(actions, key=lambda a: values[a]) == action else ""
    return fit(f"{lead}{pick}then ", outcome_words(st, tried[action], scorer))


def outcome_words(st: RageState, ends: list[RageState], scorer: Scorer) -> list[str]:
    """Where sampled play from `st` lands, in what `Scorer.score` counts, the weightiest
    first: food, the ending, rage, wounds, the skeletons' sight, the way on. Of several
    samples, in how many ('wounded in 2/6')."""
    n = len(ends)
    parts: list[str] = []

    def count(words: str, k: int) -> None:
        if k:
            parts.append(words if n == 1 else f"{words} in {k}/{n}")

    food = sum(t.bag for t in ends) / n - st.bag
    if food > 0:
        parts.append(f"+{number(food)} food")
    for ending, k in Counter(t.ending for t in ends if t.ending).items():
        count(ENDING_WORDS[ending], k)
    rage = sum(t.rage for t in ends) / n
    if number(rage) != str(st.rage):
        parts.append(f"rage {st.rage} → {number(rage)}")
    count("wounded", sum(1 for t in ends if t.wounds > st.wounds))
    if not st.raging:
        count("rage takes control", sum(1 for t in ends if t.raging))
    alive = [t for t in ends if not t.ending]
    if alive:
        seen = sum(1 for t in alive if watchers(t))
        if seen:
            count("spotted", seen)
        else:
            parts.append("unseen")
        parts += way_words(alive, scorer)
    return parts


def way_words(alive: list[RageState], scorer: Scorer) -> list[str]:
    """Where the bot is headed from where the samples stand, when they agree: '3 hexes
    to food', '4 hexes to an exit'; and a way out that would run past dawn."""
    out: list[str] = []
    ways = {scorer.way(t) for t in alive}
    if len(ways) == 1:
        ((to_exit, far),) = ways
        goal = "an exit" if to_exit else "food"
        out.append(f"at {goal}" if far == 0 else f"{far} hex{'es' if far > 1 else ''} to {goal}")
    if any(scorer.lateness(t) > 0 for t in alive):
        out.append("late for dawn")
    return out
