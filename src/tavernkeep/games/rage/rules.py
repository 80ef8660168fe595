"""Rage: the solo stealth game in the fallen village, as the Game protocol.

Setup, the protocol and the words for people (labels, odds, the view) are here, with
what a choice leads to worked out in `forecast.py`; how a turn moves is `turn.py`, the
map and its tables `content.py`, hex geometry `hexes.py`.
The readings the rulebook leaves open are in RULES.md, not here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Derived, Pack
from tavernkeep.engine.errors import IllegalAction
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Game, Result
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import new_tally, tally_facts
from tavernkeep.games.rage import evaluation, forecast
from tavernkeep.games.rage.config import RageConfig
from tavernkeep.games.rage.content import RageMap, load
from tavernkeep.games.rage.heuristic import PlannerBot
from tavernkeep.games.rage.hexes import DIRECTION_NAMES, behind, distance, neighbour
from tavernkeep.games.rage.state import (
    HOLDING,
    MOVE,
    NONE,
    PATROLLING,
    RETURNING,
    RageState,
)
from tavernkeep.games.rage.turn import (
    BLUE_HP,
    ENDINGS,
    KILL_RAGE,
    LOSE_CONTROL,
    RED_HP,
    RETREAT_CALM,
    SKELETON_HP,
    SNEAK,
    START_RAGE,
    WIN_FOOD,
    WINS,
    alive_ending,
    backstab,
    dawn,
    disengage,
    end_move,
    escape,
    fight_on,
    occupied,
    spare,
    start_turn,
    step,
)
from tavernkeep.games.rage.village import Village, village_of

STEPS = tuple(Action("step", d) for d in range(6))
STOP = Action("stop")
ESCAPE = Action("escape")
BACKSTAB = Action("backstab")
SPARE = Action("spare")
FIGHT = Action("fight")
DISENGAGE = Action("disengage")

MODES = {PATROLLING: "patrolling", RETURNING: "returning", HOLDING: "holding"}

DAWN_NOTE = "dawn follows, a loss"
"""A move that ends on the night's last turn, anywhere but out: the game is lost."""


def static_map_view(m: Village) -> dict[str, Any]:
    """The parts of a map's view that never change: walls, rubble and houses."""
    return {
        "name": m.name,
        "radius": m.radius,
        "cells": [list(h) for h in m.cells],
        "rubble": [list(h) for h in sorted(m.rubble)],
        "walls": [[h[0], h[1], d] for h, d in sorted(m.walls)],
        "houses": [
            (house.name, [c for c, h in enumerate(m.house_of) if h == i])
            for i, house in enumerate(m.house)
        ],
        "start": m.start_cell,
        "gate": m.gate_cell,
    }


MAP_VIEWS: Derived[Village, dict[str, Any]] = Derived(static_map_view)


def map_view(m: Village, visited: list[bool]) -> dict[str, Any]:
    """The map's part of a view. Walls, rubble and houses never move, and building them
    anew cost more than the rest of the view (an RL step reads a view every action), so
    they are built once a village; each view gets its own outer lists (the coordinate
    pairs inside are shared, read-only)."""
    static = MAP_VIEWS(m)
    return {
        **static,
        "cells": list(static["cells"]),
        "rubble": list(static["rubble"]),
        "walls": list(static["walls"]),
        "houses": [
            {"name": name, "cells": list(cells), "visited": visited[i]}
            for i, (name, cells) in enumerate(static["houses"])
        ],
    }


class Rage(Game[RageState, RageConfig]):
    name = "rage"
    title = "Rage"
    min_players = 1
    max_players = 1
    kind = "solo"
    # One seat: whatever is secret is secret from it alone.
    secrets_shared = True
    config_model = RageConfig
    content_dir: ClassVar[Path] = Path(__file__).parent / "content"
    summary = "solo hex stealth in the fallen village"
    report_grid = ("bot",)
    ending_headlines: ClassVar[dict[str, str]] = {
        "survived": "You survived, without enough food",
        "knighted": "Victory! Knighted",
        "wanders": "Your rage took you",
    }
    tally_kinds: ClassVar[dict[str, str]] = {
        "house entered": "Houses entered",
        "spotted by": "Spotted by",
        "rage check lost": "Rage checks lost (rushed)",
        "skeleton backstabbed": "Skeletons backstabbed",
        "skeleton destroyed in combat": "Skeletons destroyed in combat",
        "wounded by": "Wounded by",
        "escaped through": "Escaped through",
    }

    def tally_names(self, content: Any) -> dict[str, list[str]]:
        skeletons = [s.name for s in content.skeleton]
        return {
            "house entered": [h.name for h in content.house],
            "spotted by": skeletons,
            "rage check lost": skeletons,
            "skeleton backstabbed": skeletons,
            "skeleton destroyed in combat": skeletons,
            "wounded by": skeletons,
            "escaped through": ["front gate", "gap in the walls"],
        }

    def heuristic_agent(self) -> PlannerBot:
        return PlannerBot()

    def evaluator(self) -> Callable[[RageState], list[float]]:
        return evaluation.chances

    def load_pack(self, source: str | Path | None = None) -> Pack[RageMap]:
        return load(source)

    def content(self, state: RageState) -> Village:
        return state.map

    # -- setup ---------------------------------------------------------------------

    def setup(self, config: RageConfig, seed: int, pack: Pack[Any] | None = None) -> RageState:
        m = village_of((pack or self.load_pack()).content)
        loops = m.patrols
        start = m.start_cell
        state = RageState(
            map=m,
            config=config,
            rng=Rng(seed),
            turn=0,
            stage=MOVE,
            pos=start,
            facing=_inward(m, start),
            steps=0,
            hp=BLUE_HP,
            raging=False,
            rage=START_RAGE,
            bag=0,
            food=list(m.food),
            visited=[False] * len(m.house),
            sk_cell=[loop[0] for loop in loops],
            sk_facing=[m.step[loop[0]].index(loop[1]) for loop in loops],
            sk_hp=[SKELETON_HP] * len(loops),
            sk_mode=[PATROLLING] * len(loops),
            sk_at=[0] * len(loops),
            sk_hold=[0] * len(loops),
            pending=[],
            foe=NONE,
            dice=[],
            ending="",
            houses=0,
            wounds=0,
            kills=0,
            eaten=0,
            retreats=0,
            floor=0,
            stack=[],
            tally=new_tally(),
        )
        start_turn(state, None)
        return state

    def opening(self, state: RageState) -> list[Event]:
        m = state.map
        return [
            Event(
                "start",
                f"Mistfall over {m.name}: you slip in through the gap in the walls. "
                "Gather 25 food and get out, rage in check.",
                {"cell": state.pos},
            )
        ]

    # -- the protocol --------------------------------------------------------------

    def actor(self, state: RageState) -> int | None:
        return 0 if state.stack else None

    def legal_actions(self, state: RageState) -> list[Action]:
        stack = state.stack
        if not stack:
            return []
        kind = stack[-1].kind
        if kind == "move":
            m = state.map
            actions = []
            if state.steps < SNEAK:
                sk = state.sk_cell
                for d, cell in enumerate(m.step[state.pos]):
                    if cell != NONE and cell not in sk:
                        actions.append(STEPS[d])
            actions.append(STOP)
            if state.pos in m.exits:
                actions.append(ESCAPE)
            return actions
        if kind == "backstab":
            return [BACKSTAB, SPARE]
        return [FIGHT, DISENGAGE]

    def apply(self, state: RageState, action: Action, record: bool = True) -> list[Event]:
        stack = state.stack
        if not stack:
            raise IllegalAction(f"'{action.text}' is not legal: the game is over")
        ev: list[Event] | None = [] if record else None
        kind = stack[-1].kind
        if kind == "move":
            if action.kind == "step" and len(action.args) == 1:
                d = action.args[0]
                if type(d) is not int or not 0 <= d < 6:
                    raise IllegalAction(
                        f"'{action.text}' is not legal: a step is step:0-5 (a direction)"
                    )
                self._check_step(state, d, action)
                step(state, d, ev)
            elif action == STOP:
                end_move(state, ev)
            elif action == ESCAPE and state.pos in state.map.exits:
                escape(state, ev)
            else:
                raise IllegalAction(
                    f"'{action.text}' is not legal now: step:0-5, stop"
                    + (", escape" if state.pos in state.map.exits else "")
                )
        elif kind == "backstab":
            if action == BACKSTAB:
                backstab(state, ev)
            elif action == SPARE:
                spare(state, ev)
            else:
                raise IllegalAction(f"'{action.text}' is not legal now: backstab or spare")
        elif action == FIGHT:
            fight_on(state, ev)
        elif action == DISENGAGE:
            disengage(state, ev)
        else:
            raise IllegalAction(f"'{action.text}' is not legal now: fight or disengage")
        return ev if ev is not None else []

    def _check_step(self, state: RageState, d: int, action: Action) -> None:
        m = state.map
        if state.steps >= SNEAK:
            raise IllegalAction(
                f"'{action.text}' is not legal: you have sneaked {SNEAK} hexes this turn"
            )
        cell = m.step[state.pos][d]
        where = DIRECTION_NAMES[d]
        if cell == NONE:
            there = neighbour(m.cells[state.pos], d)
            if there in m.rubble:
                why = "rubble"
            elif distance(there, (0, 0)) > m.radius:
                why = "the village's edge"
            else:
                why = "a wall"
            raise IllegalAction(f"'{action.text}' is not legal: {why} is {where}")
        if occupied(state, cell):
            raise IllegalAction(f"'{action.text}' is not legal: a skeleton stands {where}")

    def view(self, state: RageState, seat: int | None) -> dict[str, Any]:
        m = state.map
        top = state.stack[-1] if state.stack else None
        pos = state.pos
        me = m.cells[pos]
        food = state.food
        skeletons = []
        for k, cell in enumerate(state.sk_cell):
            alive = cell != NONE
            facing = state.sk_facing[k]
            skeletons.append(
                {
                    "name": m.skeleton[k].name,
                    "cell": cell if alive else None,
                    "hex": list(m.cells[cell]) if alive else None,
                    "facing": facing,
                    "hp": state.sk_hp[k],
                    "max_hp": SKELETON_HP,
                    "mode": MODES[state.sk_mode[k]] if alive else "destroyed",
                    "patrol": list(m.patrols[k]),
                    "sight": list(m.sight[cell][facing]) if alive else [],
                    "sees_you": alive and pos in m.sight[cell][facing],
                    # Beside the player with no wall between, as a backstab needs.
                    "back_to_you": alive
                    and pos in m.step[cell]
                    and behind(m.cells[cell], facing, me),
                }
            )
        result = self.result(state)
        return {
            "game": self.name,
            "seat": seat,
            "turn": state.turn,
            "turn_limit": dawn(state),
            "decision": top.to_json() if top else None,
            "map": map_view(m, state.visited),
            "player": {
                "cell": pos,
                "hex": list(me),
                "facing": state.facing,
                "hp": state.hp,
                "max_hp": RED_HP if state.raging else BLUE_HP,
                "raging": state.raging,
                "rage": state.rage,
                "bag": state.bag,
                "steps_left": SNEAK - state.steps if top and top.kind == "move" else 0,
                "sight": list(m.sight[pos][state.facing]),
            },
            "food": [[c, food[c]] for c in m.food_cells if food[c]],
            "food_left": sum(state.food),
            "food_total": sum(m.food),
            "skeletons": skeletons,
            "foe": state.foe if state.foe != NONE else None,
            # The skeleton a backstab decision is about.
            "offer": state.pending[0] if top and top.kind == "backstab" else None,
            "rage_limit": LOSE_CONTROL,
            "win_food": WIN_FOOD,
            "dice": list(state.dice),
            "ending": state.ending or None,
            "over": not state.stack,
            "result": result.to_json() if result else None,
        }

    decision_kinds = ("move", "combat", "backstab")

    def decision(self, state: RageState) -> str | None:
        return state.stack[-1].kind if state.stack else None

    def reveals(self, state: RageState, action: Action, after: RageState) -> bool:
        # Nothing is hidden on the map, only the dice to come: a decision that rolled
        # none showed nothing, and whether it rolls depends on nothing hidden.
        return after.rng != state.rng

    def determinize(self, state: RageState, seat: int, rng: Rng) -> RageState:
        # Nothing is hidden on the map: only the dice to come.
        twin = state.clone()
        twin.rng = Rng(rng.next64())
        return twin

    def result(self, state: RageState) -> Result | None:
        if not state.ending:
            return None
        won = state.ending in WINS
        return Result(
            scores=(float(state.bag),),
            ranks=(1,),
            winners=(0,) if won else (),
            ending=state.ending,
            reason=f"You {'win' if won else 'do not win'}: {ENDINGS[state.ending]} "
            f"({state.bag} food, rage {state.rage})",
            won=won,
            turns=state.turn,
            facts={
                "food": state.bag,
                "rage": state.rage,
                "kills": state.kills,
                "houses": state.houses,
                "wounds": state.wounds,
                "retreats": state.retreats,
                "raging": state.raging,
                "tally": tally_facts(state.tally, 1, self.tally_kinds),
            },
        )

    def clone(self, state: RageState) -> RageState:
        return state.clone()

    def label(self, state: RageState, action: Action) -> str:
        """What a choice does, in the words of the map (forecast.py): a step by its
        direction and what lies there, never by coordinates, which the map does not show."""
        m = state.map
        kind = action.kind
        if kind == "step":
            d = int(action.args[0])
            cell = m.step[state.pos][d]
            if cell == NONE:
                return action.text
            ends = state.steps + 1 >= SNEAK and cell not in m.exits
            notes = forecast.hex_notes(state, cell, d, entering=True)
            if ends and state.turn >= dawn(state):
                notes.append(DAWN_NOTE)
            verb = f"Sneak {DIRECTION_NAMES[d]}" + (", ending the move" if ends else "")
            return verb + (f": {', '.join(notes)}" if notes else "")
        if kind == "stop":
            notes = forecast.hex_notes(state, state.pos, state.facing, entering=False)
            if state.turn >= dawn(state):
                notes.append(DAWN_NOTE)
            return "End the move here" + (f": {', '.join(notes)}" if notes else "")
        if kind == "escape":
            ending = alive_ending(state)
            way = "the front gate" if state.pos == m.gate_cell else "the gap"
            return f"Escape through {way} with {state.bag} food: {ENDINGS[ending]}"
        if kind in ("backstab", "spare"):
            k = state.pending[0]
            name = forecast.the(m.skeleton[k].name)
            if kind == "backstab":
                last = sum(c != NONE for c in state.sk_cell) == 1
                return f"Backstab {name} ({forecast.rage_to(state, KILL_RAGE)})" + (
                    ": the last skeleton falls" if last else ""
                )
            notes = []
            if state.sk_cell[k] in m.sight[state.pos][state.facing]:
                notes.append("it stays in view (a rage check)")
            for j, first in forecast.spotters(state, state.pos, state.facing):
                if j == k:
                    notes.append("it sees you" if first else "it spots you after its step")
            return f"Let {name} walk on" + (f": {', '.join(notes)}" if notes else "")
        if kind == "fight":
            k = state.foe
            name = forecast.the(m.skeleton[k].name)
            return f"Fight on against {name} (it has {state.sk_hp[k]} of {SKELETON_HP} hp)"
        if kind == "disengage":
            name = forecast.the(m.skeleton[state.foe].name)
            return (
                f"Disengage from {name} ({forecast.rage_to(state, -RETREAT_CALM)}): "
                "it holds where it stands until your next move is over"
            )
        return action.text

    def odds(self, state: RageState, action: Action) -> dict[str, float]:
        """The exact chance of the first dice a choice sets off (forecast.py): the rage
        checks (the chance of rushing each skeleton in view), or a fight (the chance of
        destroying the skeleton before it wounds you, and of that wound); {} for a choice
        that leads to the next decision without a die."""
        try:
            kind, twin = forecast.ahead(state, action, self._apply_quietly)
        except IllegalAction:
            return {}
        return forecast.chances(kind, twin)

    def _apply_quietly(self, state: RageState, action: Action) -> None:
        self.apply(state, action, record=False)


def _inward(m: Village, cell: int) -> int:
    """The player enters facing the open direction that leads furthest inside."""
    best, facing = -1, 0
    for d, nxt in enumerate(m.step[cell]):
        if nxt != NONE:
            inside = m.radius - distance(m.cells[nxt], (0, 0))
            if inside > best:
                best, facing = inside, d
    return facing
