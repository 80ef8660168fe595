"""The tutor's line for each choice of Rage (reasons.py, agents/advice.py): the
first dice the choice sets off, then where the planner's best plan through it lands.

Random and planned games hold every line to its form (a short single line, never an
error, never silent, the same whatever the dice to come); positions set up by hand hold
the words to the game's own numbers: a rage check and a fight state the chance their
odds give, the plan marked is the one the planner makes, an escape says what it ends in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from tavernkeep.agents import make_bot
from tavernkeep.engine.actions import Action
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng, ScriptedRng
from tavernkeep.games.rage import GAME, RageState
from tavernkeep.games.rage.content import load
from tavernkeep.games.rage.heuristic import best_plan
from tavernkeep.games.rage.reasons import REASON_DICE
from tavernkeep.games.rage.reasons import reason as reason_line

LONGEST = 120
"""A line beside a choice: the reasons aim for 110 characters; none may run far past."""
STOP, ESCAPE = Action("stop"), Action("escape")
FIGHT, DISENGAGE = Action("fight"), Action("disengage")
PICK = ("the planner's plan", "the planner's pick")


def reason(st: RageState, action: Action) -> str:
    return reason_line(InfoSet(GAME, st, 0, Rng(1)), action)


def positions() -> Iterator[RageState]:
    """Decisions of random games (which meet every kind of choice) and of the planner's."""
    for bot, seeds, every in (("bot:random", range(4), 3), ("bot:heuristic", range(1), 6)):
        for seed in seeds:
            match = Match.start(GAME, [make_bot(bot, GAME)], seed=seed, record_events=False)
            while GAME.actor(match.state) is not None:
                if match.actions % every == 0:
                    yield match.state
                match.step()


def test_every_choice_gets_a_short_line_the_same_whatever_the_dice_to_come() -> None:
    said: Counter[str] = Counter()
    for st in positions():
        info = InfoSet(GAME, st, 0, Rng(1))
        other = InfoSet(GAME, GAME.determinize(st, 0, Rng(99)), 0, Rng(1))  # other dice
        lines = {a: reason_line(info, a) for a in info.legal_actions()}
        for action, line in lines.items():
            assert isinstance(line, str) and "\n" not in line, (action.text, line)
            assert 0 < len(line) <= LONGEST, (action.text, line)
            assert line == reason_line(other, action), action.text
            said[action.kind] += 1
        # The planner makes one choice, and one line says so.
        assert sum(any(p in line for p in PICK) for line in lines.values()) == 1, lines
    assert {"step", "stop", "escape", "fight", "disengage", "backstab", "spare"} <= set(said)


# -- positions set up by hand --------------------------------------------------------------


def small_map(tmp_path: Path, skeleton: tuple[tuple[int, int], ...]) -> RageState:
    """A radius-4 disc (the gap at (4,0), the gate at (-4,0), 25 food at (0,-4)) with one
    skeleton patrolling `skeleton` and one parked out of the way, as test_choices.py's."""
    patrols = [("Bones", skeleton), ("Parked", ((-4, 4), (-3, 4)))]
    lines = ['name = "Test"', "radius = 4", "start = [4, 0]", "gate = [-4, 0]"]
    lines.append("food = [[0, -4, 25]]")
    for name, patrol in patrols:
        hexes = ", ".join(f"[{q}, {r}]" for q, r in patrol)
        lines += ["[[skeleton]]", f'name = "{name}"', f"patrol = [{hexes}]"]
    path = tmp_path / "test.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return GAME.setup(GAME.make_config({"turn_limit": 150}), 0, load(path))


def place(st: RageState, player: tuple[int, int], bones: tuple[int, int], facing: int) -> None:
    """The player on `player` facing E; Bones on `bones` facing `facing`."""
    st.pos, st.facing = st.map.index[player], 0
    st.sk_cell[0], st.sk_facing[0] = st.map.index[bones], facing


def test_a_rage_check_and_a_fight_state_the_chance_their_odds_give(tmp_path: Path) -> None:
    # Bones two hexes east, facing away: in the player's view, a rage check at rage 10.
    st = small_map(tmp_path, ((2, 0), (3, 0)))
    place(st, (0, 0), (2, 0), 0)
    st.rage = 10
    kept = GAME.odds(st, STOP)["keep your head"]
    assert f"{kept:.0%}" == "50%"
    assert reason(st, STOP).startswith(f"{kept:.0%} to keep your head; ")
    # Bones beside the player and facing them: stopping fights it; its first round won.
    st = small_map(tmp_path, ((1, 0), (2, 0)))
    place(st, (0, 0), (1, 0), 3)
    st.rng = ScriptedRng([1, 1, 6])
    GAME.apply(st, STOP)
    assert GAME.legal_actions(st) == [FIGHT, DISENGAGE]
    destroy = GAME.odds(st, FIGHT)["destroy Bones"]
    fight, disengage = reason(st, FIGHT), reason(st, DISENGAGE)
    assert fight.startswith(f"{destroy:.0%} to destroy Bones first; ")
    # Disengaging calms 3 rage at once; one of the two is the planner's pick.
    assert f"rage {st.rage} → {st.rage - 3}" in disengage
    assert (PICK[1] in fight) != (PICK[1] in disengage)


def test_the_planners_own_plan_is_marked_and_says_where_it_lands() -> None:
    st = GAME.setup(GAME.make_config({}), 3)
    lines = {a: reason(st, a) for a in GAME.legal_actions(st)}
    marked = [a for a, line in lines.items() if PICK[0] in line]
    assert marked == best_plan(GAME.clone(st), Rng(REASON_DICE))[:1]
    assert lines[marked[0]] == "the planner's plan: E, E, stop: unseen, 2 hexes to food"
    assert lines[Action("step", 1)] == "at best: NE, stop: unseen, 3 hexes to food"
    assert lines[STOP] == "at best: stop here: unseen, 4 hexes to food"


def test_an_escape_says_what_the_night_ends_in_and_whether_the_planner_would_go() -> None:
    st = GAME.setup(GAME.make_config({}), 3)  # in through the gap: an exit
    assert reason(st, ESCAPE) == (
        "escape with 0 food: out alive, too little food to win; the planner would stay on"
    )
    taken = 0
    for cell, cubes in enumerate(st.food):
        gone = min(cubes, 25 - taken)
        st.food[cell] -= gone
        taken += gone
    st.bag = st.eaten = 25
    assert reason(st, ESCAPE) == "escape with 25 food: a win; the planner's pick"
