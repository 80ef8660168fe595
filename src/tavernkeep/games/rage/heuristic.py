"""The planning bot for Rage (`bot:heuristic`): it searches its whole move, with dice sampled.

At the start of each move it lists every way to sneak (each sequence of up to three
steps, ending in a stop or an escape, kept once for each place, facing and set of houses
entered), plays each out on a determinized copy of the game to its next move (the
backstabs, fights, rage checks and skeletons' patrol that follow, with a simple policy
for the choices inside them) and scores where it lands. A move that rolls no dice (no
rage check, no fight) is played once; one that rolls is played SAMPLES times, each
with fresh dice, and scored on average. It then walks the best plan step by step. The
choices inside a turn (backstab or spare, fight on or disengage) are scored the same way.

The score counts food (the goal), hit points and rage (the danger: every point of rage
is a twentieth more chance of a forced rush, and 20 ends any hope of winning), the way to
the nearest food (or to the nearest exit once the bag holds 25, unless the night is long
enough to walk over every cube left), the moves the way out would run past dawn, and the
skeletons that would spot the player in their next phase (the rules' own `will_spot`, so
the bot reads RULES 12 as the game plays it).

The tutor's line of why for a choice (reasons.py) says where its best plan lands, from
the same samples and scores.
"""

from __future__ import annotations

from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet
from tavernkeep.engine.rng import Rng
from tavernkeep.games.rage.state import MOVE, NONE, RageState
from tavernkeep.games.rage.turn import (
    SNEAK,
    WIN_FOOD,
    backstab,
    dawn,
    disengage,
    end_move,
    escape,
    fight_on,
    spare,
    step,
    will_spot,
)

SAMPLES = 6
FOOD = 300.0
"""A cube in the bag, up to the 25 that win."""
SPARE_FOOD = 20.0
HP = 150.0
RAGE = 40.0
RAGE_LATE = 120.0
"""Each point of rage past RAGE_EDGE costs this much more: the edge of losing control."""
RAGE_EDGE = 14
WALK = 60.0
"""Each hex still to walk to the next food (or to an exit once the bag is full)."""
WATCHED = 400.0
"""A skeleton would spot the player in its next phase, before or after its step."""
ENDING = {
    "won": 20_000.0,
    "knighted": 30_000.0,
    "survived": -500.0,
    "wanders": -2_000.0,
    "dawn": -2_500.0,
    "died": -3_000.0,
}
LATE = 1_000.0
"""Each move the way out would run past dawn (with DAWN_MARGIN to spare)."""
DAWN_MARGIN = 4
KNIGHT_MARGIN = 6
"""Moves to spare, beyond a walk over every cube left, before the bot goes for them all."""
BORED = 25.0
"""Each turn already begun on a hex: enough, after a few, to walk on."""
RAGING = -4_000.0
"""Rage has control: the game cannot be won any more."""

STOP = Action("stop")
ESCAPE = Action("escape")


class PlannerBot:
    name = "heuristic"

    def __init__(self) -> None:
        self.plan: list[Action] = []
        self.stays: dict[int, int] = {}
        """Turns the player has begun on each cell this game: a planner that looks one
        move ahead can pace between two safe hexes until dawn, so it tires of a place."""
        self.game_turn = 0
        self.plan_at: tuple[int, int] = (-1, -1)
        """The turn and hex the plan was made for; a plan never outlives its move."""

    def choose(self, info: InfoSet) -> Action:
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        st: RageState = info.determinize(info.rng)
        top = st.stack[-1].kind
        if top == "move":
            if st.steps == 0 or self.plan_at != (st.turn, st.pos) or not self.plan:
                if st.turn < self.game_turn:
                    self.stays = {}  # a new game
                self.game_turn = st.turn
                self.stays[st.pos] = self.stays.get(st.pos, 0) + 1
                self.plan = best_plan(st, info.rng, self.stays)
            action = self.plan.pop(0)
            self.plan_at = (
                (st.turn, st.map.step[st.pos][int(action.args[0])])
                if (action.kind == "step")
                else (-1, -1)
            )
            if action in actions:
                return action
            self.plan = []
            return STOP
        return max(actions, key=lambda a: choice_value(st, a, info.rng))


def best_plan(st: RageState, rng: Rng, stays: dict[int, int] | None = None) -> list[Action]:
    """The best sequence of steps (then a stop or an escape) from here."""
    scorer = Scorer(st, stays)
    best: list[Action] = [STOP]
    best_value = float("-inf")
    for plan in plans(st):
        value = scorer.average(st, plan, rng)
        if value > best_value:
            best, best_value = plan, value
    return best


def plans(st: RageState) -> list[list[Action]]:
    """Every way to sneak this move, each place-facing-houses reached once."""
    m = st.map
    out: list[list[Action]] = []
    seen: set[tuple[int, int, tuple[int, ...]]] = set()
    skeletons = st.sk_cell
    exits = m.exits

    def grow(cell: int, facing: int, taken: list[Action], houses: tuple[int, ...]) -> None:
        key = (cell, facing, houses)
        if key in seen:
            return
        seen.add(key)
        if cell in exits:
            out.append([*taken, ESCAPE])
        if len(taken) == 3 - st.steps and cell not in exits:
            out.append(taken)  # the third step ends the move by itself
            return
        out.append([*taken, STOP])
        if len(taken) == 3 - st.steps:
            return
        for d, nxt in enumerate(m.step[cell]):
            if nxt != NONE and nxt not in skeletons:
                house = m.house_of[nxt]
                entered = houses
                if house != NONE and not st.visited[house] and house not in houses:
                    entered = tuple(sorted((*houses, house)))
                grow(nxt, d, [*taken, Action("step", d)], entered)

    grow(st.pos, st.facing, [], ())
    return out


class Scorer:
    """Scores positions; what one decision reads many times is computed once."""

    def __init__(self, st: RageState, stays: dict[int, int] | None = None) -> None:
        m = st.map
        self.map = m
        self.stays = stays or {}
        # Dawn draws near: the later the turn, the less a skeleton's eye is feared.
        self.caution = max(0.25, 1 - st.turn / dawn(st))
        food = st.food
        self.to_food = m.distances_to(tuple([c for c in m.food_cells if food[c]]))
        self.to_exit = m.distances_to(m.exit_cells)
        # Past the 25 that win, a cube is worth little, unless the night is long enough
        # to walk over every cube left: then the King's knighthood is in reach.
        self.all_in = (
            st.bag + sum(st.food) == sum(m.food)
            and st.bag >= WIN_FOOD - SNEAK
            and tour_moves(st, self.to_exit) + KNIGHT_MARGIN <= dawn(st) - st.turn + 1
        )
        self.spare = FOOD if self.all_in else SPARE_FOOD

    def average(self, st: RageState, plan: list[Action], rng: Rng) -> float:
        return self.mean(outcomes(st, plan, rng))

    def mean(self, ends: list[RageState]) -> float:
        """The average score of a choice's sampled ends."""
        total = 0.0
        for twin in ends:
            total += self.score(twin)
        return total / len(ends)

    def score(self, st: RageState) -> float:
        if st.ending:
            return ENDING[st.ending] + SPARE_FOOD * st.bag
        value = FOOD * min(st.bag, WIN_FOOD) + self.spare * max(0, st.bag - WIN_FOOD)
        if st.raging:
            return value + RAGING
        value += HP * st.hp - RAGE * st.rage - RAGE_LATE * max(0, st.rage - RAGE_EDGE)
        value -= WALK * self.way(st)[1]
        late = self.lateness(st)
        if late > 0:
            value -= LATE * late
        value -= BORED * self.stays.get(st.pos, 0)
        return value - WATCHED * self.caution * watchers(st)

    def way(self, st: RageState) -> tuple[bool, int]:
        """Where the bot is headed and how far: (True, hexes to the nearest exit) once the
        bag holds enough, or can never hold enough; else (False, hexes to food)."""
        left = sum(st.food)
        enough = (st.bag >= WIN_FOOD and not (self.all_in and left)) or st.bag + left < WIN_FOOD
        return (True, self.to_exit[st.pos]) if enough else (False, self.food_distance(st))

    def lateness(self, st: RageState) -> int:
        """The moves the way out would run past dawn, DAWN_MARGIN counted (none: 0 or
        less): it takes a move for every three hexes, and a move or two more for the
        skeletons in the way."""
        moves_left = dawn(st) - st.turn + 1
        return -(-self.to_exit[st.pos] // SNEAK) + DAWN_MARGIN - moves_left

    def food_distance(self, st: RageState) -> int:
        d = self.to_food[st.pos]
        if d == 0 and st.food[st.pos] == 0:
            # The food the table counted here is in the bag now: the next nearest.
            return min((self.to_food[c] + 1 for c in self.map.step[st.pos] if c != NONE), default=d)
        return d


def tour_moves(st: RageState, to_exit: tuple[int, ...]) -> int:
    """Moves for a walk from here that stops on every hex of food left, nearest first,
    then leaves: skeletons aside, the least time going for knighthood takes."""
    m = st.map
    left = {c for c, n in enumerate(st.food) if n}
    here, moves = st.pos, 0
    while left:
        # Walls stop both ways, so the distance from a food hex is the distance to it.
        nearest = min(left, key=lambda c: (m.distances_to((c,))[here], c))
        moves += -(-m.distances_to((nearest,))[here] // SNEAK)
        left.remove(nearest)
        here = nearest
    return moves + -(-to_exit[here] // SNEAK)


def watchers(st: RageState) -> int:
    """Skeletons that would spot the player where they stand at the skeletons' next phase,
    by the rules' own reading of who looks before walking (RULES 12)."""
    return sum(1 for k, cell in enumerate(st.sk_cell) if cell != NONE and will_spot(st, k))


def outcomes(st: RageState, plan: list[Action], rng: Rng) -> list[RageState]:
    """Where a plan lands, played on copies with fresh dice: SAMPLES of them, or one
    when the first rolls no die (every sample would end the same)."""
    ends: list[RageState] = []
    for sample in range(SAMPLES):
        twin = st.clone()
        twin.rng = Rng(rng.next64())
        before = twin.rng.clone()
        play_out(twin, plan)
        ends.append(twin)
        if sample == 0 and twin.rng == before:
            break
    return ends


def play_out(st: RageState, plan: list[Action]) -> None:
    """Apply a plan, then play the turn to the player's next move with a simple policy."""
    for action in plan:
        if action.kind == "step":
            step(st, int(action.args[0]), None)
        elif action.kind == "escape":
            escape(st, None)
        else:
            end_move(st, None)
        if st.ending or st.stage != MOVE:
            break
    rest(st)


def rest(st: RageState) -> None:
    """Play the turn on until the next move begins, or the game ends."""
    while st.stack and not (st.stage == MOVE and st.steps == 0):
        kind = st.stack[-1].kind
        if kind == "move":
            end_move(st, None)
        elif kind == "backstab":
            if st.rage <= RAGE_EDGE - 3:
                backstab(st, None)
            else:
                spare(st, None)
        elif st.hp >= 3 or st.raging:
            fight_on(st, None)
        else:
            disengage(st, None)


def choice_value(st: RageState, action: Action, rng: Rng) -> float:
    """A backstab-or-spare or fight-or-disengage choice, scored by sampled play."""
    return Scorer(st).mean(choice_outcomes(st, action, rng))


def choice_outcomes(st: RageState, action: Action, rng: Rng) -> list[RageState]:
    """Where a choice inside the turn lands by the player's next move, played on
    SAMPLES * 2 copies with fresh dice."""
    ends: list[RageState] = []
    for _ in range(SAMPLES * 2):
        twin = st.clone()
        twin.rng = Rng(rng.next64())
        if action.kind == "backstab":
            backstab(twin, None)
        elif action.kind == "spare":
            spare(twin, None)
        elif action.kind == "fight":
            fight_on(twin, None)
        else:
            disengage(twin, None)
        rest(twin)
        ends.append(twin)
    return ends
