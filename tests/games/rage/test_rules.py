"""Rage's rules, one test per rule (RULES.md), each on a small purpose-built map.

Every map is a radius-4 disc, the gap in the walls at (4,0) and the gate at (-4,0), with
a stash of food out of the way at (0,-4) and, unless a test needs its skeletons to be the
only ones, a "Parked" skeleton pacing in the south-west corner where nobody meets it.
Positions are arranged by setting the state's fields; the dice are always scripted
(`ScriptedRng`), so a die the test did not expect fails it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from tavernkeep.engine.actions import Action
from tavernkeep.engine.errors import IllegalAction
from tavernkeep.engine.events import Event
from tavernkeep.engine.rng import ScriptedRng
from tavernkeep.games.rage import GAME, RageState
from tavernkeep.games.rage.content import load
from tavernkeep.games.rage.hexes import Hex, distance
from tavernkeep.games.rage.state import HOLDING, NONE

Skel = tuple[str, Sequence[Hex]]
Food = tuple[int, int, int]

STASH: Food = (0, -4, 25)
PARKED: Skel = ("Parked", ((-4, 4), (-3, 4)))
BONES: Skel = ("Bones", ((2, 0), (3, 0)))

STOP = Action("stop")
ESCAPE = Action("escape")
FIGHT = Action("fight")
DISENGAGE = Action("disengage")
BACKSTAB = Action("backstab")
SPARE = Action("spare")


def step(d: int) -> Action:
    return Action("step", d)


def _hexes(hexes: Sequence[Hex]) -> str:
    return "[" + ", ".join(f"[{q}, {r}]" for q, r in hexes) + "]"


def build(
    tmp_path: Path,
    *,
    skeletons: Sequence[Skel] = (BONES,),
    park: bool = True,
    food: Sequence[Food] = (STASH,),
    houses: Sequence[tuple[str, Sequence[Hex], Sequence[str]]] = (),
    walls: Sequence[str] = (),
    rubble: Sequence[Hex] = (),
    turn_limit: int | None = 150,
    dawn: int | None = None,
    patrol_then_look: bool = False,
) -> RageState:
    """A game on a small map written to tmp_path, with an empty script of dice."""
    lines = [
        'name = "Test"',
        "radius = 4",
        "start = [4, 0]",
        "gate = [-4, 0]",
        "food = [" + ", ".join(f"[{q}, {r}, {n}]" for q, r, n in food) + "]",
        "walls = [" + ", ".join(f'"{w}"' for w in walls) + "]",
        f"rubble = {_hexes(rubble)}",
        *([f"dawn = {dawn}"] if dawn is not None else []),
    ]
    for name, hexes, doors in houses:
        lines += [
            "[[house]]",
            f'name = "{name}"',
            f"hexes = {_hexes(hexes)}",
            "doors = [" + ", ".join(f'"{d}"' for d in doors) + "]",
        ]
    for name, patrol in [*skeletons, *([PARKED] if park else [])]:
        lines += ["[[skeleton]]", f'name = "{name}"', f"patrol = {_hexes(patrol)}"]
    path = tmp_path / "test.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = GAME.make_config({"turn_limit": turn_limit, "patrol_then_look": patrol_then_look})
    st = GAME.setup(config, 0, load(path))
    st.rng = ScriptedRng([])
    return st


def cell(st: RageState, h: Hex) -> int:
    return st.map.index[h]


def where(st: RageState, c: int) -> Hex:
    return st.map.cells[c]


def put_player(st: RageState, h: Hex, facing: int) -> None:
    st.pos = cell(st, h)
    st.facing = facing


def put_skeleton(st: RageState, k: int, h: Hex, facing: int) -> None:
    c = cell(st, h)
    st.sk_cell[k] = c
    st.sk_facing[k] = facing
    loop = st.map.patrols[k]
    if c in loop:
        st.sk_at[k] = loop.index(c)


def dice(st: RageState, *values: int) -> ScriptedRng:
    rng = ScriptedRng(values)
    st.rng = rng
    return rng


def play(st: RageState, *actions: Action) -> list[Event]:
    events: list[Event] = []
    for action in actions:
        events += GAME.apply(st, action)
    return events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def combat_dice(events: list[Event]) -> list[list[int]]:
    return [e.data["dice"] for e in events if e.kind == "combat"]


# -- moving (RULES 7, 3) -------------------------------------------------------------


def test_a_step_moves_one_hex_and_faces_the_way_it_went(tmp_path: Path) -> None:
    st = build(tmp_path)
    put_player(st, (0, 0), 3)
    play(st, step(1))
    view = GAME.view(st, 0)["player"]
    assert view["hex"] == [1, -1]
    assert view["facing"] == 1
    assert view["steps_left"] == 2
    assert st.turn == 1


def test_the_third_step_ends_the_move(tmp_path: Path) -> None:
    st = build(tmp_path, food=[STASH, (0, -2, 2)])
    put_player(st, (0, 1), 2)
    play(st, step(2), step(2), step(2))
    assert where(st, st.pos) == (0, -2)
    # The move ended there: its food collected, and the next turn began.
    assert st.bag == 2
    assert st.turn == 2
    assert GAME.view(st, 0)["player"]["steps_left"] == 3


def test_a_third_step_onto_an_exit_leaves_the_escape_open(tmp_path: Path) -> None:
    st = build(tmp_path, skeletons=())
    put_player(st, (1, 0), 0)
    play(st, step(0), step(0), step(0))
    assert where(st, st.pos) == (4, 0)
    assert st.turn == 1
    assert GAME.legal_actions(st) == [STOP, ESCAPE]
    with pytest.raises(IllegalAction, match="sneaked 3 hexes"):
        GAME.apply(st, step(3))


def test_stop_at_once_stays_put_and_ends_the_move(tmp_path: Path) -> None:
    st = build(tmp_path)
    put_player(st, (0, 0), 3)
    play(st, STOP)
    assert where(st, st.pos) == (0, 0)
    assert st.facing == 3
    assert st.turn == 2


@pytest.mark.parametrize(
    ("blocker", "start", "d", "word"),
    [
        ("wall", (0, 0), 0, "wall"),
        ("edge", (4, 0), 0, "edge"),
        ("skeleton", (0, 0), 0, "skeleton"),
        ("rubble", (0, 0), 0, "rubble"),
    ],
)
def test_a_blocked_step_is_refused_naming_why(
    tmp_path: Path, blocker: str, start: Hex, d: int, word: str
) -> None:
    st = build(
        tmp_path,
        skeletons=[("Bones", ((1, 0), (2, 0)))] if blocker == "skeleton" else [BONES],
        walls=["0,0 E"] if blocker == "wall" else [],
        rubble=[(1, 0)] if blocker == "rubble" else [],
    )
    put_player(st, start, 3)
    assert step(d) not in GAME.legal_actions(st)
    before = st.clone()
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(st, step(d))
    message = str(refused.value)
    assert "\n" not in message
    assert "step:0" in message
    assert word in message
    assert st == before


@pytest.mark.parametrize("exit_hex", [(4, 0), (-4, 0)])
def test_escape_is_offered_only_on_an_exit(tmp_path: Path, exit_hex: Hex) -> None:
    st = build(tmp_path)
    put_player(st, (0, 0), 3)
    assert ESCAPE not in GAME.legal_actions(st)
    before = st.clone()
    with pytest.raises(IllegalAction, match="not legal"):
        GAME.apply(st, ESCAPE)
    assert st == before
    put_player(st, exit_hex, 3)
    assert ESCAPE in GAME.legal_actions(st)


def test_skeletons_judge_where_the_move_ends_not_the_hexes_passed(tmp_path: Path) -> None:
    # Bones at (0,0) faces east: (2,0) is in its sight, (3,1) is not.
    st = build(tmp_path, skeletons=[("Bones", ((0, 0), (-1, 0)))])
    put_skeleton(st, 0, (0, 0), 0)
    put_player(st, (3, -1), 3)
    events = play(st, step(4), step(5), step(0))
    assert where(st, st.pos) == (3, 1)
    assert "spotted" not in kinds(events)
    assert st.turn == 2
    assert st.hp == 5


# -- rage (RULES 2, 15, 16, 17) ------------------------------------------------------


def test_a_house_angers_once_the_first_time_entered_even_passing_through(
    tmp_path: Path,
) -> None:
    st = build(
        tmp_path,
        houses=[("Hut", [(1, 0)], ["1,0 W", "1,0 E"]), ("Barn", [(2, 1)], ["2,1 NW"])],
        skeletons=[("Bones", ((-2, -2), (-1, -2)))],
    )
    put_player(st, (0, 0), 0)
    play(st, step(0), step(0), STOP)  # through the Hut to (2,0)
    assert st.rage == 7
    assert st.houses == 1
    play(st, step(3), step(0), step(5))  # back into the Hut, out, and into the Barn
    assert st.rage == 9
    assert st.houses == 2
    assert [h["visited"] for h in GAME.view(st, 0)["map"]["houses"]] == [True, True]


def test_food_calms_one_rage_a_cube(tmp_path: Path) -> None:
    st = build(tmp_path, food=[STASH, (0, -1, 3)])
    put_player(st, (0, 0), 3)
    play(st, step(2), STOP)
    assert st.bag == 3
    assert st.rage == 2
    assert st.floor == 0


def test_rage_cannot_fall_below_zero(tmp_path: Path) -> None:
    st = build(tmp_path, food=[STASH, (0, -1, 3)])
    put_player(st, (0, 0), 3)
    st.rage = 1
    play(st, step(2), STOP)
    assert st.bag == 3
    assert st.rage == 0
    assert st.floor == 2


def test_food_is_collected_only_where_the_move_ends_every_cube(tmp_path: Path) -> None:
    st = build(tmp_path, food=[STASH, (0, -1, 2), (0, -2, 3)])
    put_player(st, (0, 0), 3)
    play(st, step(2), step(2), STOP)
    assert st.food[cell(st, (0, -1))] == 2  # only passed through
    assert st.food[cell(st, (0, -2))] == 0
    assert st.bag == 3
    assert st.rage == 2


def test_a_wound_angers_by_2_and_a_kill_by_3(tmp_path: Path) -> None:
    st = build(tmp_path, skeletons=[("Bones", ((0, 0), (1, 0)))])
    put_player(st, (1, 0), 0)
    rng = dice(st, 6, 6, 1, 1, 1, 6)
    play(st, STOP)
    assert (st.rage, st.hp, st.wounds) == (7, 4, 1)
    rng.script = [6, 6, 1]
    play(st, FIGHT)
    assert (st.rage, st.kills) == (10, 1)
    assert rng.script == []


def test_disengaging_calms_by_3(tmp_path: Path) -> None:
    st = build(tmp_path, skeletons=[("Bones", ((0, 0), (1, 0)))])
    put_player(st, (1, 0), 0)
    dice(st, 1, 1, 6)
    play(st, STOP)
    assert st.rage == 7
    play(st, DISENGAGE)
    assert st.rage == 4
    assert st.retreats == 1


def test_rage_at_20_takes_control_two_red_hit_points_and_a_d10(tmp_path: Path) -> None:
    st = build(tmp_path, skeletons=[("Bones", ((0, 0), (1, 0)))])
    put_player(st, (1, 0), 0)
    st.rage = 18
    rng = dice(st, 1, 1, 6)
    events = play(st, STOP)
    assert "lost-control" in kinds(events)
    player = GAME.view(st, 0)["player"]
    assert (player["rage"], player["raging"], player["hp"], player["max_hp"]) == (20, True, 2, 2)
    # One die for the player now, and a 7 or a 9 only a d10 can roll (a d6 would refuse).
    rng.script = [7, 6, 9, 1]
    events = play(st, FIGHT)
    assert combat_dice(events) == [[7, 6], [9, 1]]
    assert st.sk_cell[0] == NONE
    assert st.rage == 23
    assert st.raging
    assert rng.script == []


# -- backstab and combat by contact (RULES 6, 9, 10) ---------------------------------


@pytest.mark.parametrize("rear", [(0, -1), (-1, 0), (-1, 1)])
def test_a_skeleton_with_its_back_turned_can_be_backstabbed(tmp_path: Path, rear: Hex) -> None:
    st = build(tmp_path, skeletons=[("Bones", ((0, 0), (1, 0)))])
    put_skeleton(st, 0, (0, 0), 0)  # facing east
    put_player(st, rear, 3)
    play(st, STOP)
    assert GAME.legal_actions(st) == [BACKSTAB, SPARE]
    assert "Backstab Bones" in GAME.label(st, BACKSTAB)
    assert GAME.view(st, 0)["skeletons"][0]["back_to_you"]
    play(st, BACKSTAB)
    assert st.sk_cell[0] == NONE
    assert GAME.view(st, 0)["skeletons"][0]["mode"] == "destroyed"
    assert (st.rage, st.kills) == (8, 1)


@pytest.mark.parametrize(("front", "away"), [((1, 0), 0), ((1, -1), 1), ((0, 1), 5)])
def test_a_skeleton_facing_the_player_fights_instead(tmp_path: Path, front: Hex, away: int) -> None:
    st = build(tmp_path, skeletons=[("Bones", ((0, 0), (1, 0)))])
    put_skeleton(st, 0, (0, 0), 0)
    put_player(st, front, away)
    rng = dice(st, 6, 6, 1, 6, 6, 1)
    events = play(st, STOP)
    assert "backstab" not in kinds(events)
    assert combat_dice(events) == [[6, 1], [6, 1]]
    assert st.sk_cell[0] == NONE
    assert (st.rage, st.kills) == (8, 1)
    assert rng.script == []


@pytest.mark.parametrize(("wall", "player", "away"), [("0,0 W", (-1, 0), 3), ("0,0 E", (1, 0), 0)])
def test_no_backstab_or_fight_through_a_wall(
    tmp_path: Path, wall: str, player: Hex, away: int
) -> None:
    st = build(tmp_path, skeletons=[("Bones", ((0, 0), (0, -1)))], walls=[wall])
    put_skeleton(st, 0, (0, 0), 0)
    put_player(st, player, away)
    events = play(st, STOP)  # no dice scripted: none may be rolled
    assert "backstab" not in kinds(events)
    assert "combat" not in kinds(events)
    assert st.turn == 2
    assert st.sk_hp[0] == 2
    assert st.sk_cell[0] != NONE


def test_sparing_a_skeleton_lets_it_walk_on(tmp_path: Path) -> None:
    st = build(tmp_path, skeletons=[("Bones", ((0, 0), (1, 0)))])
    put_skeleton(st, 0, (0, 0), 0)
    put_player(st, (-1, 0), 3)
    play(st, STOP, SPARE)
    assert where(st, st.sk_cell[0]) == (1, 0)
    assert st.turn == 2
    assert st.rage == 5


# -- combat (RULES 13) ---------------------------------------------------------------


def contact(tmp_path: Path) -> RageState:
    """Bones at (0,0) faces east at the player on (1,0), who looks away."""
    st = build(tmp_path, skeletons=[("Bones", ((0, 0), (1, 0)))])
    put_skeleton(st, 0, (0, 0), 0)
    put_player(st, (1, 0), 0)
    return st


def test_the_skeleton_wins_ties(tmp_path: Path) -> None:
    st = contact(tmp_path)
    dice(st, 2, 3, 3)
    play(st, STOP)
    assert st.dice == [3, 3]
    assert st.hp == 4
    assert st.sk_hp[0] == 2
    assert GAME.legal_actions(st) == [FIGHT, DISENGAGE]


def test_the_player_keeps_the_higher_of_two_d6(tmp_path: Path) -> None:
    st = contact(tmp_path)
    rng = dice(st, 1, 5, 4, 6, 2, 5)
    events = play(st, STOP)
    assert combat_dice(events) == [[5, 4], [6, 5]]
    assert st.hp == 5
    assert st.sk_cell[0] == NONE
    assert rng.script == []


def test_a_skeleton_falls_after_losing_two_rounds(tmp_path: Path) -> None:
    st = contact(tmp_path)
    rng = dice(st, 6, 6, 1, 1, 1, 6)
    play(st, STOP)
    # One round won, one lost: the skeleton stands on one hit point, the player chooses.
    assert st.sk_cell[0] == cell(st, (0, 0))
    assert GAME.view(st, 0)["skeletons"][0]["hp"] == 1
    assert GAME.legal_actions(st) == [FIGHT, DISENGAGE]
    rng.script = [6, 6, 1]
    play(st, FIGHT)
    assert st.sk_cell[0] == NONE
    assert st.kills == 1
    assert st.turn == 2


def test_the_player_dies_at_0_hit_points(tmp_path: Path) -> None:
    st = contact(tmp_path)
    st.hp = 1
    dice(st, 1, 1, 6)
    play(st, STOP)
    result = GAME.result(st)
    assert result is not None
    assert result.ending == "died"
    assert result.won is False
    assert "fell to the skeletons" in result.reason
    assert st.rage == 7  # the last wound still angers (RULES 15)
    assert GAME.legal_actions(st) == []


# -- the rage check (RULES 11) -------------------------------------------------------


@pytest.mark.parametrize(
    ("rage", "script"),
    [(5, [5, 6, 6, 1, 6, 6, 1]), (20, [20, 7, 1, 7, 1])],
    ids=["d20-at-rage", "raging-every-check-lost"],
)
def test_a_lost_rage_check_forces_a_rush_and_a_fight(
    tmp_path: Path, rage: int, script: list[int]
) -> None:
    # Bones at (2,0) faces east, its back to the player; the rush ends on food.
    st = build(tmp_path, food=[STASH, (1, 0, 2)])
    put_player(st, (0, 0), 0)
    st.rage = rage
    if rage >= 20:
        st.raging, st.hp = True, 2
    rng = dice(st, *script)
    events = play(st, STOP)
    assert "rage-check" in kinds(events)
    assert "backstab" not in kinds(events)
    assert where(st, st.pos) == (1, 0)
    assert st.facing == 0
    assert st.sk_cell[0] == NONE
    assert st.rage == rage + 3
    assert st.food[cell(st, (1, 0))] == 2  # no food where a rush ends
    assert st.bag == 0
    assert rng.script == []


def test_a_rush_into_a_house_angers(tmp_path: Path) -> None:
    st = build(tmp_path, houses=[("Hut", [(1, 0)], ["1,0 W", "1,0 E"])])
    put_player(st, (0, 0), 0)
    rng = dice(st, 5, 6, 6, 1, 6, 6, 1)
    play(st, STOP)
    assert where(st, st.pos) == (1, 0)
    assert st.houses == 1
    assert st.rage == 5 + 2 + 3
    assert rng.script == []


def test_rage_in_control_loses_every_check_even_calmed_below_20(tmp_path: Path) -> None:
    st = build(tmp_path, food=[STASH, (0, 0, 5)])
    put_player(st, (0, 0), 0)
    st.raging, st.hp, st.rage = True, 2, 20
    rng = dice(st, 16, 7, 1, 7, 1)
    play(st, STOP)  # 5 food: rage 15, still raging; Bones on (2,0) in sight
    assert st.raging
    assert where(st, st.pos) == (1, 0)
    assert st.sk_cell[0] == NONE
    assert rng.script == []


def test_a_won_rage_check_keeps_the_players_head(tmp_path: Path) -> None:
    st = build(tmp_path)
    put_player(st, (0, 0), 0)
    rng = dice(st, 6)
    events = play(st, STOP)
    assert [e.data["lost"] for e in events if e.kind == "rage-check"] == [False]
    assert where(st, st.pos) == (0, 0)
    assert where(st, st.sk_cell[0]) == (3, 0)  # walked on
    assert st.sk_hp[0] == 2
    assert rng.script == []


# -- the skeletons' phase (RULES 12) -------------------------------------------------


def test_a_skeleton_walks_its_loop_one_hex_a_turn_facing_its_step(tmp_path: Path) -> None:
    st = build(tmp_path, skeletons=[("Bones", ((2, 0), (2, 1)))])
    put_player(st, (0, -3), 2)
    seen = []
    for _ in range(3):
        play(st, STOP)
        bones = GAME.view(st, 0)["skeletons"][0]
        seen.append((tuple(bones["hex"]), bones["facing"]))
    assert seen == [((2, 1), 5), ((2, 0), 2), ((2, 1), 5)]


def test_a_skeleton_blocked_by_the_player_turns_to_face_them(tmp_path: Path) -> None:
    st = build(tmp_path, skeletons=[("Bones", ((0, 0), (1, 0)))])
    put_skeleton(st, 0, (1, 0), 0)  # next on its loop: (0,0), behind it
    put_player(st, (0, 0), 3)
    dice(st, 6, 6, 1, 6, 6, 1)  # the fight that follows: the player wins both rounds
    events = play(st, STOP, SPARE)
    # It does not walk through the player: it turns to its next hex, sees them, fights.
    assert "spotted" in kinds(events)
    assert st.sk_cell[0] == NONE
    assert st.turn == 2


def test_skeletons_wait_when_each_blocks_the_others_next_hex(tmp_path: Path) -> None:
    st = build(tmp_path, skeletons=[("A", ((0, 0), (1, 0))), ("B", ((1, 0), (0, 0)))])
    put_player(st, (0, -3), 2)
    play(st, STOP)
    assert [where(st, c) for c in st.sk_cell[:2]] == [(0, 0), (1, 0)]
    assert st.sk_facing[:2] == [0, 3]


def test_a_skeleton_that_sees_the_player_as_its_phase_begins_rushes_without_walking(
    tmp_path: Path,
) -> None:
    """'They patrol 1 hex normally unless you are spotted': Bones, on (2,0) facing west,
    has the player on (0,0) in its sight. Its next hex, (3,0), is behind it; had it
    walked there first it would have turned its back on them."""
    st = build(tmp_path)
    put_skeleton(st, 0, (2, 0), 3)
    put_player(st, (0, 0), 3)  # facing away: no rage check
    rng = dice(st, 1, 1, 6)  # the fight: the player loses the first round
    events = play(st, STOP)
    assert "spotted" in kinds(events)
    bones = GAME.view(st, 0)["skeletons"][0]
    assert (bones["hex"], bones["facing"]) == ([1, 0], 3)
    assert st.hp == 4
    assert GAME.legal_actions(st) == [FIGHT, DISENGAGE]
    assert rng.script == []


def test_as_a_variant_a_skeleton_walks_its_hex_before_it_looks(tmp_path: Path) -> None:
    """The `patrol_then_look` variant (RULES 12): the same Bones walks to (3,0) first,
    its back to the player, and does not see them."""
    st = build(tmp_path, patrol_then_look=True)
    put_skeleton(st, 0, (2, 0), 3)
    put_player(st, (0, 0), 3)
    dice(st)  # no die: nobody fights
    events = play(st, STOP)
    assert "spotted" not in kinds(events)
    bones = GAME.view(st, 0)["skeletons"][0]
    assert (bones["hex"], bones["facing"]) == ([3, 0], 0)
    assert st.turn == 2 and st.hp == 5


def spotted(tmp_path: Path) -> RageState:
    """Bones patrols from (3,0) west to (2,0), sees the player on (0,0), rushes to (1,0)
    and wounds them: the player must choose to fight on or disengage."""
    st = build(tmp_path, skeletons=[("Bones", ((3, 0), (2, 0)))])
    put_player(st, (0, 0), 3)
    dice(st, 1, 1, 6)
    events = play(st, STOP)
    assert "spotted" in kinds(events)
    return st


def test_a_skeleton_that_sees_the_player_rushes_faces_them_and_fights(tmp_path: Path) -> None:
    st = spotted(tmp_path)
    bones = GAME.view(st, 0)["skeletons"][0]
    assert bones["hex"] == [1, 0]
    assert bones["facing"] == 3
    assert bones["sees_you"]
    assert st.hp == 4
    assert GAME.legal_actions(st) == [FIGHT, DISENGAGE]


# -- disengaging (RULES 14) ----------------------------------------------------------


def test_a_disengaged_skeleton_holds_through_the_skeleton_phase(tmp_path: Path) -> None:
    st = contact(tmp_path)
    dice(st, 1, 1, 6)
    play(st, STOP, DISENGAGE)  # no more dice: the skeleton phase must not fight
    assert st.turn == 2
    bones = GAME.view(st, 0)["skeletons"][0]
    assert (bones["hex"], bones["facing"], bones["mode"], bones["hp"]) == (
        [0, 0],
        0,
        "holding",
        2,
    )
    assert st.hp == 4


def test_a_disengaged_skeleton_that_still_sees_the_player_rushes_again(tmp_path: Path) -> None:
    st = spotted(tmp_path)
    play(st, DISENGAGE)
    assert st.turn == 2
    assert GAME.view(st, 0)["skeletons"][0]["mode"] == "holding"
    # One hex west: still in Bones' sight from (1,0), not beside it.
    rng = dice(st, 1, 1, 6)
    events = play(st, step(3), STOP)
    assert "spotted" in kinds(events)
    bones = GAME.view(st, 0)["skeletons"][0]
    assert (bones["hex"], bones["facing"]) == ([0, 0], 3)
    assert st.hp == 3
    assert rng.script == []


def test_a_skeleton_that_lost_the_player_heals_and_patrols_on(tmp_path: Path) -> None:
    st = contact(tmp_path)
    dice(st, 6, 6, 1, 1, 1, 6)
    play(st, STOP, DISENGAGE)
    assert st.sk_hp[0] == 1
    play(st, step(0), step(0), STOP)  # to (3,0), out of its sight
    bones = GAME.view(st, 0)["skeletons"][0]
    assert (bones["hp"], bones["mode"], bones["hex"]) == (2, "patrolling", [0, 0])


def test_a_confused_skeleton_walks_back_to_its_loop_a_hex_a_turn(tmp_path: Path) -> None:
    loop = ((1, -3), (2, -3))
    st = build(tmp_path, skeletons=[("Bones", loop)])
    # Disengaged from at (1,0), three hexes from its loop; it acts this turn.
    put_skeleton(st, 0, (1, 0), 3)
    st.sk_mode[0], st.sk_hp[0], st.sk_hold[0] = HOLDING, 1, st.turn
    put_player(st, (3, 1), 5)

    def home() -> int:
        return min(distance(where(st, st.sk_cell[0]), h) for h in loop)

    walk = []
    for _ in range(3):
        play(st, STOP)
        bones = GAME.view(st, 0)["skeletons"][0]
        walk.append((home(), bones["mode"], bones["hp"]))
    assert walk == [(2, "returning", 2), (1, "returning", 2), (0, "patrolling", 2)]
    on = where(st, st.sk_cell[0])
    play(st, STOP)
    assert where(st, st.sk_cell[0]) in loop
    assert where(st, st.sk_cell[0]) != on


# -- endings (RULES 18, 19, 20) ------------------------------------------------------


def ending(st: RageState) -> tuple[str, bool | None, str]:
    result = GAME.result(st)
    assert result is not None
    assert GAME.legal_actions(st) == []
    return result.ending, result.won, result.reason


def test_escaping_at_once_is_survived(tmp_path: Path) -> None:
    st = build(tmp_path, skeletons=())
    play(st, ESCAPE)
    name, won, reason = ending(st)
    assert (name, won) == ("survived", False)
    assert reason.startswith("You do not win")
    assert "too little food" in reason


def test_escaping_with_25_food_wins(tmp_path: Path) -> None:
    st = build(tmp_path, food=[(3, 0, 25), (0, -4, 5)], skeletons=())
    play(st, step(3), STOP, step(0), ESCAPE)
    assert st.bag == 25
    name, won, reason = ending(st)
    assert (name, won) == ("won", True)
    assert reason.startswith("You win")
    assert "25 food" in reason


def test_escaping_with_every_cube_is_knighted(tmp_path: Path) -> None:
    st = build(tmp_path, food=[(3, 0, 25), (3, -1, 5)], skeletons=())
    play(st, step(3), STOP, step(2), STOP, step(0), step(5), ESCAPE)
    assert st.bag == 30
    name, won, reason = ending(st)
    assert (name, won) == ("knighted", True)
    assert "knights you" in reason


def test_escaping_raging_wanders(tmp_path: Path) -> None:
    st = build(tmp_path, houses=[("Hut", [(3, 0)], ["3,0 E"])], skeletons=())
    st.rage = 18
    play(st, step(3))  # the Hut: rage 20
    assert st.raging
    play(st, step(0), ESCAPE)
    name, won, reason = ending(st)
    assert (name, won) == ("wanders", False)
    assert "wander the lands" in reason


def test_raging_and_every_skeleton_destroyed_wanders(tmp_path: Path) -> None:
    st = build(tmp_path, skeletons=[("Bones", ((0, 0), (1, 0)))], park=False)
    put_player(st, (-1, 0), 3)
    st.rage = 17
    play(st, STOP, BACKSTAB)
    name, won, _reason = ending(st)
    assert (name, won) == ("wanders", False)


@pytest.mark.parametrize(
    ("food", "expected"),
    [([STASH], ("survived", False, 0)), ([(-1, 0, 25), (0, -4, 5)], ("won", True, 25))],
)
def test_the_last_skeleton_falling_in_check_counts_as_an_escape(
    tmp_path: Path, food: list[Food], expected: tuple[str, bool, int]
) -> None:
    st = build(tmp_path, skeletons=[("Bones", ((0, 0), (1, 0)))], park=False, food=food)
    put_player(st, (-2, 0), 3)
    play(st, step(0), STOP, BACKSTAB)
    assert not st.raging
    name, won, reason = ending(st)
    assert (name, won, st.bag) == expected
    assert f"{st.bag} food" in reason


def test_dawn_ends_the_game_at_the_turn_limit(tmp_path: Path) -> None:
    st = build(tmp_path, turn_limit=2)
    put_player(st, (0, -3), 2)
    play(st, STOP)
    assert GAME.result(st) is None
    play(st, STOP)
    name, won, reason = ending(st)
    assert (name, won) == ("dawn", False)
    assert "dawn" in reason
    result = GAME.result(st)
    assert result is not None
    assert result.turns == 2


@pytest.mark.parametrize(("turn_limit", "last_turn"), [(None, 3), (5, 5)])
def test_dawn_comes_when_the_map_says_unless_the_game_says_otherwise(
    tmp_path: Path, turn_limit: int | None, last_turn: int
) -> None:
    st = build(tmp_path, turn_limit=turn_limit, dawn=3)
    put_player(st, (0, -3), 2)
    assert GAME.view(st, 0)["turn_limit"] == last_turn
    while GAME.result(st) is None:
        play(st, STOP)
    assert (st.ending, st.turn) == ("dawn", last_turn)


# -- the view (RULES 4, 13) ----------------------------------------------------------


def test_the_view_shows_sight_food_and_hit_points(tmp_path: Path) -> None:
    st = build(tmp_path, food=[STASH, (1, 1, 2)])
    put_player(st, (0, 0), 0)
    view = GAME.view(st, 0)
    me = view["player"]
    assert sorted(where(st, c) for c in me["sight"]) == sorted(
        [(0, 0), (1, 0), (2, 0), (2, -1), (1, 1)]
    )
    bones = view["skeletons"][0]
    assert bones["hex"] == [2, 0]
    assert sorted(where(st, c) for c in bones["sight"]) == sorted(
        [(2, 0), (3, 0), (4, 0), (4, -1), (3, 1)]
    )
    assert not bones["sees_you"]
    assert (bones["hp"], bones["max_hp"]) == (2, 2)
    assert sorted(view["food"]) == sorted([[cell(st, (0, -4)), 25], [cell(st, (1, 1)), 2]])
    assert (me["hp"], me["max_hp"], me["raging"]) == (5, 5, False)
    st.raging, st.hp, st.rage = True, 2, 20
    me = GAME.view(st, 0)["player"]
    assert (me["hp"], me["max_hp"], me["raging"]) == (2, 2, True)
    # The chances beside a choice are test_choices.py's.


@pytest.mark.parametrize("blocker", ["wall", "rubble"])
def test_walls_and_rubble_cut_the_sight_shown(tmp_path: Path, blocker: str) -> None:
    st = build(
        tmp_path,
        walls=["0,0 E"] if blocker == "wall" else [],
        rubble=[(1, 0)] if blocker == "rubble" else [],
    )
    put_player(st, (0, 0), 0)
    sight = {where(st, c) for c in GAME.view(st, 0)["player"]["sight"]}
    assert (0, 0) in sight
    assert (1, 0) not in sight
    assert (2, 0) not in sight


def test_the_log_never_names_a_hex_the_map_does_not_show() -> None:
    """'You sneak NW', not 'You sneak NW to (7,0)': the browser's map shows no coordinates
    (issue 39, item 6), so a log line names none."""
    import random
    import re

    from tavernkeep.engine.rng import Rng

    first = random.SystemRandom().randrange(2**63 - 10)
    steps = 0
    # Five nights: a random walk may slip out through the gap at its first move.
    for seed in range(first, first + 5):
        st = GAME.setup(GAME.make_config({"players": 1}), seed, GAME.load_pack())
        rng = Rng(seed)
        while GAME.actor(st) is not None:
            actions = GAME.legal_actions(st)
            for event in GAME.apply(st, actions[rng.below(len(actions))]) or []:
                assert not re.search(r"\(-?\d+, ?-?\d+\)", event.text), (seed, event.text)
                steps += event.kind == "step"
    assert steps, f"seeds {first}-{first + 4}: no step taken"
