"""What each choice of Rage shows a person: its words (`label`) and the chances of the
dice it sets off (`odds`), as both front-ends print them beside it.

Positions are set up on small maps (a radius-4 disc, the gap at (4,0), the gate at
(-4,0), as test_rules.py's), with the dice scripted. Every chance is also found the long
way: by playing the choice with every face of the dice it rolls and counting. Random
games on the standard village then hold the forecast to the rules: the first dice a
choice really rolls are the ones its odds are about, the skeletons a hex is named in the
sight of are the ones that spot a player stopping there, and no word or chance depends
on the dice to come.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from tavernkeep.engine.actions import Action
from tavernkeep.engine.events import Event
from tavernkeep.engine.rng import Rng, ScriptedRng
from tavernkeep.games.rage import GAME, RageState, forecast
from tavernkeep.games.rage.content import load
from tavernkeep.games.rage.hexes import Hex
from tavernkeep.games.rage.state import CHECK, FIGHT_RUSHED

Skel = tuple[str, Sequence[Hex]]

STOP = Action("stop")
ESCAPE = Action("escape")
FIGHT = Action("fight")
DISENGAGE = Action("disengage")
BACKSTAB = Action("backstab")
SPARE = Action("spare")
COORDINATES = re.compile(r"\(-?\d+, ?-?\d+\)")

D6 = range(1, 7)


def step(d: int) -> Action:
    return Action("step", d)


def build(
    tmp_path: Path,
    skeletons: Sequence[Skel],
    food: Sequence[tuple[int, int, int]] = ((0, -4, 25),),
    houses: Sequence[tuple[str, Sequence[Hex], Sequence[str]]] = (),
) -> RageState:
    """A game on a small map, a skeleton parked out of the way, no dice scripted."""
    hexes = lambda hs: "[" + ", ".join(f"[{q}, {r}]" for q, r in hs) + "]"  # noqa: E731
    lines = [
        'name = "Test"',
        "radius = 4",
        "start = [4, 0]",
        "gate = [-4, 0]",
        "food = [" + ", ".join(f"[{q}, {r}, {n}]" for q, r, n in food) + "]",
    ]
    for name, cells, doors in houses:
        lines += ["[[house]]", f'name = "{name}"', f"hexes = {hexes(cells)}"]
        lines.append("doors = [" + ", ".join(f'"{d}"' for d in doors) + "]")
    for name, patrol in [*skeletons, ("Parked", ((-4, 4), (-3, 4)))]:
        lines += ["[[skeleton]]", f'name = "{name}"', f"patrol = {hexes(patrol)}"]
    path = tmp_path / "test.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    st = GAME.setup(GAME.make_config({"turn_limit": 150}), 0, load(path))
    st.rng = ScriptedRng([])
    return st


def put_player(st: RageState, h: Hex, facing: int) -> None:
    st.pos = st.map.index[h]
    st.facing = facing


def put_skeleton(st: RageState, k: int, h: Hex, facing: int) -> None:
    c = st.map.index[h]
    st.sk_cell[k] = c
    st.sk_facing[k] = facing
    loop = st.map.patrols[k]
    if c in loop:
        st.sk_at[k] = loop.index(c)


def play(st: RageState, action: Action, dice: Sequence[int] = ()) -> list[Event]:
    st.rng = ScriptedRng(dice)
    return GAME.apply(st, action)


def one_round() -> Fraction:
    """The player's chance to win a round, counted over every face of the three d6."""
    won = sum(1 for a, b, s in itertools.product(D6, D6, D6) if max(a, b) > s)
    return Fraction(won, 216)


def one_round_raging() -> Fraction:
    won = sum(1 for m, s in itertools.product(range(1, 11), D6) if m > s)
    return Fraction(won, 60)


# -- the words ---------------------------------------------------------------------------


def test_a_step_is_named_by_what_lies_there_never_by_coordinates(tmp_path: Path) -> None:
    st = build(
        tmp_path,
        [("The Watchman", ((3, -1), (4, -1)))],
        food=[(0, -4, 25), (1, -1, 2)],
    )
    put_skeleton(st, 0, (3, -1), 3)  # facing W: it sees (1,-1), two hexes ahead
    put_player(st, (0, 0), 0)
    assert GAME.label(st, step(1)) == "Sneak NE: 2 food, in the Watchman's sight"
    assert GAME.label(st, step(5)) == "Sneak SE"
    # The same hex as the move's last step, and as the stop once there.
    st.steps = 2
    assert GAME.label(st, step(1)) == "Sneak NE, ending the move: 2 food, in the Watchman's sight"
    st.steps = 0
    play(st, step(1))
    assert GAME.label(st, STOP) == "End the move here: collect 2 food, in the Watchman's sight"
    for action in GAME.legal_actions(st):
        assert not COORDINATES.search(GAME.label(st, action))
    # And the Watchman does spot a player who stops there: it rushes in and fights.
    events = play(st, STOP, [1, 1, 6, 1, 1, 6])
    assert [e.data["skeleton"] for e in events if e.kind == "spotted"] == [0]


def test_on_the_last_turn_ending_the_move_says_dawn_follows(tmp_path: Path) -> None:
    st = build(tmp_path, [("Bones", ((2, 0), (3, 0)))])
    put_player(st, (0, 0), 3)
    st.turn = 150  # the night's last (turn_limit 150)
    assert GAME.label(st, STOP) == "End the move here: dawn follows, a loss"
    assert GAME.label(st, step(3)) == "Sneak W"
    st.steps = 2
    assert GAME.label(st, step(3)) == "Sneak W, ending the move: dawn follows, a loss"
    st.steps = 0
    play(st, STOP)
    assert st.ending == "dawn"


def test_a_step_names_a_house_first_entered_and_an_exit(tmp_path: Path) -> None:
    st = build(
        tmp_path,
        [("Bones", ((-2, 0), (-2, 1)))],
        houses=[("The Hut", [(0, 2), (1, 2)], ["0,2 NW"])],
    )
    put_player(st, (0, 1), 0)
    assert GAME.label(st, step(5)) == "Sneak SE: into the Hut (+2 rage, to 7)"
    st.rage = 18
    assert GAME.label(st, step(5)) == (
        "Sneak SE: into the Hut (+2 rage, to 20: rage takes control)"
    )
    put_player(st, (3, 0), 0)
    st.steps = 2
    # An exit never ends the move: there you may still escape.
    assert GAME.label(st, step(0)) == "Sneak E: the gap, an exit"
    play(st, step(0))
    assert GAME.label(st, ESCAPE) == (
        "Escape through the gap with 0 food: you escaped with your rage in check, "
        "but with too little food to win"
    )
    assert GAME.odds(st, ESCAPE) == {}


def test_a_skeleton_beside_the_hex_and_one_in_view_are_named(tmp_path: Path) -> None:
    st = build(tmp_path, [("Bones", ((1, 0), (2, 0))), ("Grin", ((0, -1), (1, -1)))])
    put_skeleton(st, 0, (1, 0), 0)  # facing E: its back to (0,0)
    put_skeleton(st, 1, (0, -1), 0)  # facing E: beside (0,0), not its back to it
    put_player(st, (-1, 0), 0)
    st.steps = 2
    assert GAME.label(st, step(0)) == (
        "Sneak E, ending the move: behind Bones (a backstab), beside Grin (a fight), "
        "Bones in view (a rage check)"
    )
    # A backstab to decide comes first: the choice sets off no dice of its own.
    assert GAME.odds(st, step(0)) == {}


def test_a_skeleton_that_will_see_the_hex_once_it_walks_is_named(tmp_path: Path) -> None:
    st = build(tmp_path, [("Bones", ((3, 0), (2, 0)))])
    put_skeleton(st, 0, (3, 0), 0)  # facing E; its next hex (2,0) turns it west
    put_player(st, (0, 0), 3)
    label = GAME.label(st, STOP)
    assert label == "End the move here: in Bones's sight after its step"
    p = one_round() ** 2
    assert GAME.odds(st, STOP) == {"destroy Bones": float(p), "a wound": float(1 - p)}
    events = play(st, STOP, [6, 6, 1, 6, 6, 1])
    assert [e.kind for e in events if e.kind in ("spotted", "combat")] == [
        "spotted",
        "combat",
        "combat",
    ]


# -- the rage checks --------------------------------------------------------------------


def rushes(st: RageState, action: Action) -> dict[str, Fraction]:
    """Play `action` with every face of every d20 the rage checks roll, one check at a
    time (a lost check ends them), counting whom the player rushed."""
    counted: dict[str, Fraction] = {}

    def walk(faces: list[int], weight: Fraction) -> None:
        twin = st.clone()
        try:
            play(twin, action, faces)
            outcome = "keep your head"
        except AssertionError:  # the script ran out: the game wants another die
            if twin.stage == CHECK:
                for face in range(1, 21):
                    walk([*faces, face], weight / 20)
                return
            rushed = twin.stage == FIGHT_RUSHED
            outcome = f"rush {st.map.skeleton[twin.foe].name}" if rushed else "keep your head"
        counted[outcome] = counted.get(outcome, Fraction(0)) + weight

    walk([], Fraction(1))
    return counted


@pytest.mark.parametrize("rage", [0, 5, 7, 19])
def test_the_end_of_a_move_shows_the_chance_of_each_rush(tmp_path: Path, rage: int) -> None:
    st = build(tmp_path, [("Bones", ((2, 0), (3, 0))), ("Grin", ((2, -1), (3, -2)))])
    put_skeleton(st, 0, (2, 0), 0)
    put_skeleton(st, 1, (2, -1), 1)
    put_player(st, (0, 0), 0)  # both in view, Bones the nearer; neither sees the player
    st.rage = rage
    assert GAME.label(st, STOP) == "End the move here: Bones and Grin in view (rage checks)"
    counted = rushes(st, STOP)
    shown = GAME.odds(st, STOP)
    assert shown == {name: float(p) for name, p in counted.items() if p}
    assert list(shown) == [n for n in ("rush Bones", "rush Grin", "keep your head") if n in shown]
    lose = Fraction(rage, 20)
    assert shown.get("rush Bones", 0.0) == float(lose)
    # The step that ends the move on a hex shows the same as stopping there.
    put_player(st, (-1, 0), 0)
    st.steps = 2
    assert GAME.odds(st, step(0)) == shown
    # A step that does not end the move rolls nothing.
    st.steps = 1
    assert GAME.odds(st, step(0)) == {}


def test_food_collected_cools_the_rage_the_checks_are_rolled_against(tmp_path: Path) -> None:
    st = build(tmp_path, [("Bones", ((2, 0), (3, 0)))], food=[(0, -4, 25), (0, 0, 3)])
    put_skeleton(st, 0, (2, 0), 0)
    put_player(st, (0, 0), 0)
    st.rage = 10
    assert GAME.odds(st, STOP) == {"rush Bones": 7 / 20, "keep your head": 13 / 20}
    assert rushes(st, STOP)["rush Bones"] == Fraction(7, 20)


def test_once_rage_has_control_every_check_is_lost(tmp_path: Path) -> None:
    st = build(tmp_path, [("Bones", ((2, 0), (3, 0))), ("Grin", ((2, -1), (3, -2)))])
    put_skeleton(st, 0, (2, 0), 0)
    put_skeleton(st, 1, (2, -1), 1)
    put_player(st, (0, 0), 0)
    st.raging, st.rage, st.hp = True, 21, 2
    assert GAME.odds(st, STOP) == {"rush Bones": 1.0}


# -- fights -------------------------------------------------------------------------------


def wounded(tmp_path: Path, rage: int = 5) -> RageState:
    """Bones beside the player, facing them and in their view; its first round won."""
    st = build(tmp_path, [("Bones", ((1, 0), (2, 0)))])
    put_skeleton(st, 0, (1, 0), 3)
    put_player(st, (0, 0), 0)
    st.rage = rage
    play(st, STOP, [1, 1, 6])
    assert GAME.legal_actions(st) == [FIGHT, DISENGAGE]
    return st


def destroyed(st: RageState, action: Action, rounds: int) -> Fraction:
    """Play `action` with every face of `rounds` rounds of combat (the higher of two d6
    against a d6), counting the games in which the foe fell without another wound."""
    count = Fraction(0)
    for faces in itertools.product(D6, repeat=3 * rounds):
        twin = st.clone()
        foe = twin.foe
        events = play(twin, action, [*faces, 20, 20])
        if twin.sk_cell[foe] == -1 and not any(
            e.kind == "combat" and not e.data["won"] for e in events
        ):
            count += Fraction(1, 6 ** (3 * rounds))
    return count


def test_fight_on_shows_the_chance_to_destroy_the_foe_before_its_next_wound(
    tmp_path: Path,
) -> None:
    st = wounded(tmp_path)
    assert GAME.label(st, FIGHT) == "Fight on against Bones (it has 2 of 2 hp)"
    p = one_round()
    assert p == Fraction(125, 216)
    assert GAME.odds(st, FIGHT) == {"destroy Bones": float(p**2), "a wound": float(1 - p**2)}
    st.sk_hp[0] = 1
    assert GAME.label(st, FIGHT) == "Fight on against Bones (it has 1 of 2 hp)"
    assert destroyed(st, FIGHT, 1) == p
    assert GAME.odds(st, FIGHT) == {"destroy Bones": float(p), "a wound": float(1 - p)}
    # The wound that follows is named for what it does.
    st.hp = 1
    assert GAME.odds(st, FIGHT) == {"destroy Bones": float(p), "you die": float(1 - p)}
    st.hp, st.rage = 3, 18
    assert GAME.odds(st, FIGHT) == {"destroy Bones": float(p), "rage takes control": float(1 - p)}
    st.raging, st.rage, st.hp = True, 20, 2
    q = one_round_raging()
    assert q == Fraction(39, 60)
    assert GAME.odds(st, FIGHT) == {"destroy Bones": float(q), "a wound": float(1 - q)}


def test_ending_a_move_beside_a_skeleton_facing_you_shows_the_fight(tmp_path: Path) -> None:
    st = build(tmp_path, [("Bones", ((1, 0), (2, 0)))])
    put_skeleton(st, 0, (1, 0), 3)
    put_player(st, (0, 0), 0)
    assert GAME.label(st, STOP) == (
        "End the move here: beside Bones (a fight), Bones in view (a rage check), in Bones's sight"
    )
    p = one_round() ** 2
    assert GAME.odds(st, STOP) == {"destroy Bones": float(p), "a wound": float(1 - p)}


def test_disengage_names_its_cost_and_the_rage_check_that_follows(tmp_path: Path) -> None:
    st = wounded(tmp_path)  # rage 5, +2 for the wound
    assert st.rage == 7
    assert GAME.label(st, DISENGAGE) == (
        "Disengage from Bones (-3 rage, to 4): it holds where it stands until your next "
        "move is over"
    )
    # Bones stays in view: its rage check is rolled at the rage left, 4.
    assert GAME.odds(st, DISENGAGE) == {"rush Bones": 4 / 20, "keep your head": 16 / 20}
    assert rushes(st, DISENGAGE)["rush Bones"] == Fraction(4, 20)


# -- backstabs ----------------------------------------------------------------------------


def test_backstab_or_spare_show_their_rage_and_the_checks_after(tmp_path: Path) -> None:
    st = build(tmp_path, [("Bones", ((1, 0), (2, 0))), ("Grin", ((2, -1), (3, -2)))])
    put_skeleton(st, 0, (1, 0), 0)  # its back to the player, and in their view
    put_skeleton(st, 1, (2, -1), 1)  # in view, looking away
    put_player(st, (0, 0), 0)
    st.rage = 6
    play(st, STOP)
    assert GAME.legal_actions(st) == [BACKSTAB, SPARE]
    assert GAME.label(st, BACKSTAB) == "Backstab Bones (+3 rage, to 9)"
    assert GAME.label(st, SPARE) == "Let Bones walk on: it stays in view (a rage check)"
    # A backstab: Bones gone, Grin's check at rage 9. Spared: Bones's check first, at 6.
    assert GAME.odds(st, BACKSTAB) == {"rush Grin": 9 / 20, "keep your head": 11 / 20}
    assert rushes(st, BACKSTAB) == {
        "rush Grin": Fraction(9, 20),
        "keep your head": Fraction(11, 20),
    }
    assert rushes(st, SPARE) == {
        "rush Bones": Fraction(6, 20),
        "rush Grin": Fraction(14, 20) * Fraction(6, 20),
        "keep your head": Fraction(14, 20) ** 2,
    }
    assert GAME.odds(st, SPARE) == {
        "rush Bones": 6 / 20,
        "rush Grin": float(Fraction(14, 20) * Fraction(6, 20)),
        "keep your head": float(Fraction(14, 20) ** 2),
    }


def test_the_last_backstab_says_the_game_ends(tmp_path: Path) -> None:
    st = build(tmp_path, [("Bones", ((1, 0), (2, 0)))])
    put_skeleton(st, 0, (1, 0), 0)
    st.sk_cell[1] = -1  # the parked one is gone
    put_player(st, (0, 0), 0)
    play(st, STOP)
    assert GAME.label(st, BACKSTAB) == "Backstab Bones (+3 rage, to 8): the last skeleton falls"
    assert GAME.odds(st, BACKSTAB) == {}


# -- the forecast against the rules, on the standard village ------------------------------


def dice_events(events: list[Event]) -> list[Event]:
    return [e for e in events if e.kind in ("rage-check", "combat")]


def test_odds_are_about_the_dice_each_choice_really_rolls_and_never_the_dice_to_come() -> None:
    pack = GAME.load_pack()
    checked = {"rage check": 0, "fight": 0, "none": 0, "spotted": 0}
    for seed in range(6):
        st = GAME.setup(GAME.config_model(), seed, pack)
        picker = Rng(seed)
        while actions := GAME.legal_actions(st):
            before = repr(st), st.rng.state
            shown = {a: (GAME.label(st, a), GAME.odds(st, a)) for a in actions}
            assert (repr(st), st.rng.state) == before, "asking changes nothing"
            for action, (label, odds) in shown.items():
                assert not COORDINATES.search(label), label
                assert sum(odds.values()) == pytest.approx(1.0) or not odds
                # The same words and chances whatever the dice to come.
                other = st.clone()
                other.rng = Rng(seed * 7919 + 1)
                assert (GAME.label(other, action), GAME.odds(other, action)) == (label, odds)
                # The first dice the choice rolls are the ones its odds are about.
                twin = st.clone()
                twin.rng = Rng(picker.next64())
                rolled = dice_events(GAME.apply(twin, action))
                names = {f"rush {forecast.the(s.name)}" for s in st.map.skeleton}
                if not odds:
                    assert not rolled, (label, rolled)
                    checked["none"] += 1
                elif set(odds) <= names | {forecast.KEEP_YOUR_HEAD}:
                    assert rolled[0].kind == "rage-check", label
                    checked["rage check"] += 1
                else:
                    foe = st.map.skeleton[rolled[0].data["skeleton"]].name
                    assert rolled[0].kind == "combat" and f"destroy {forecast.the(foe)}" in odds
                    checked["fight"] += 1
            # Stopping with nothing beside or in view: the skeletons the hex is in the
            # sight of are exactly those that spot the player.
            words = shown[STOP][0] if STOP in actions else "beside"
            if not forecast.in_sight(st) and "beside" not in words and "behind" not in words:
                twin = st.clone()
                twin.rng = Rng(picker.next64())
                events = GAME.apply(twin, STOP)
                spotted = {e.data["skeleton"] for e in events if e.kind == "spotted"}
                assert spotted == {k for k, _ in forecast.spotters(st, st.pos, st.facing)}
                checked["spotted"] += bool(spotted)
            GAME.apply(st, actions[picker.below(len(actions))])
    assert all(checked.values()), checked
