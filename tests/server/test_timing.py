"""Timing tells nobody who holds a card: the server passes for a person with nothing to
play after a pause drawn like that person's own passes, never after a fixed delay."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tavernkeep.server.app import create_app
from tavernkeep.server.timing import SAMPLES_NEEDED, PassPrior, PassTiming


def ks_statistic(a: list[float], b: list[float]) -> float:
    """The two-sample Kolmogorov-Smirnov statistic: the largest gap between the two
    samples' distribution functions (0: alike, 1: apart)."""
    a, b = sorted(a), sorted(b)
    i = j = 0
    gap = 0.0
    while i < len(a) and j < len(b):
        x = min(a[i], b[j])
        while i < len(a) and a[i] <= x:
            i += 1
        while j < len(b) and b[j] <= x:
            j += 1
        gap = max(gap, abs(i / len(a) - j / len(b)))
    return gap


def windows(
    answer_for_nothing: Any, seed: int, count: int = 600
) -> tuple[list[float], list[float]]:
    """What a spectator times over `count` reaction windows at one seat: how long the seat
    took when it held a card and passed of its own choice (a person thinking it over), and
    how long it took when it held nothing (whatever `answer_for_nothing(timing)` waits)."""
    person = random.Random(seed)
    timing = PassTiming(PassPrior(), random.Random(seed + 1))
    holding: list[float] = []
    nothing: list[float] = []
    for _ in range(count):
        if person.random() < 0.4:
            # A person with a card weighs it: about four seconds, give or take.
            took = 4.0 * math.exp(person.gauss(0.0, 0.45))
            timing.observe(0, took)
            holding.append(took)
        else:
            nothing.append(answer_for_nothing(timing))
    return holding, nothing


# Two samples of about 240 and 360 drawn alike differ by more than this once in a
# thousand (the KS critical value at alpha = 0.001 is 1.95 * sqrt((n + m) / (n m))).
ALIKE = 1.95 * math.sqrt((240 + 360) / (240 * 360))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_spectator_cannot_tell_a_seat_with_nothing_by_its_timing(seed: int) -> None:
    holding, nothing = windows(lambda timing: timing.delay(0), seed)
    # The first few windows use the prior, before the seat has passed of its own choice.
    assert ks_statistic(holding, nothing[SAMPLES_NEEDED * 2 :]) < ALIKE


def test_the_fixed_delay_it_replaces_told_everything() -> None:
    # The server used to pass after the bots' fixed delay: the same spectator statistic
    # tells the two apart completely, so the test above can fail.
    holding, nothing = windows(lambda timing: 0.8, seed=1)
    assert ks_statistic(holding, nothing) > 0.95


def test_before_any_pass_of_its_own_the_delay_is_a_persons_not_a_constant() -> None:
    timing = PassTiming(PassPrior(), random.Random(5))
    delays = [timing.delay(3) for _ in range(500)]
    prior = PassPrior()
    assert all(prior.low <= d <= prior.high for d in delays)
    assert len({round(d, 3) for d in delays}) > 400
    assert 1.5 < sorted(delays)[250] < 2.5


def test_nonsense_times_are_not_learned() -> None:
    timing = PassTiming(PassPrior(), random.Random(5))
    for bad in (-1.0, math.inf, math.nan):
        timing.observe(0, bad)
    assert 0 not in timing.times


def challenge_window_table(client: Any, tk: Any) -> tuple[str, dict[int, str]]:
    """Here to Slay, seed 5: Player 1 holds a Hero; Player 2, a person, holds no
    Challenge card, so when Player 1 plays the Hero the server passes for Player 2."""
    data = tk.create(
        client,
        game="here-to-slay",
        seats=["human", "human", "bot:random"],
        options={"leaders": "random"},
        seed=5,
    )
    return data["id"], tk.tokens(data)


def play_a_hero(zero: Any) -> dict[str, Any]:
    """Player 1 plays a Hero from hand: the Challenge window opens. The state before."""
    st: dict[str, Any] = zero.until_state(lambda s: s["actor"] == 0 and bool(s["legal"]))
    hero = next(c for c in st["view"]["table"][0]["hand"] if c["kind"] == "hero")
    zero.act(f"play:{hero['id']}", st["version"])
    return st


def test_the_server_waits_the_drawn_pause_and_learns_from_voluntary_passes(
    sqlite_url: str, tk: Any, helpers: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[int] = []
    learned: list[int] = []
    draw, learn = PassTiming.delay, PassTiming.observe

    def delay(self: PassTiming, seat: int) -> float:
        asked.append(seat)
        return min(draw(self, seat), 0.05)

    def observe(self: PassTiming, seat: int, seconds: float) -> None:
        learned.append(seat)
        learn(self, seat, seconds)

    monkeypatch.setattr(PassTiming, "delay", delay)
    monkeypatch.setattr(PassTiming, "observe", observe)
    with TestClient(create_app(sqlite_url, bot_delay=0.0, pass_delay=0.05)) as client:
        tid, tokens = challenge_window_table(client, tk)
        with tk.join(client, tid, 0, tokens[0]) as zero:
            st = play_a_hero(zero)
            # Player 2, not even connected, is passed for.
            zero.until_state(lambda s: s["version"] >= st["version"] + 2)
            assert 1 in asked, "the pass for Player 2 was not drawn like a person's"
            # A pass Player 1 makes of its own choice, where it could play, is learned.
            while True:
                mine = zero.until_state(lambda s: s["actor"] == 0 or s["result"] is not None)
                if mine["result"] is not None:
                    break
                choices = [c["action"] for c in mine["legal"]]
                if "pass" in choices and len(choices) > 1:
                    zero.act("pass", mine["version"])
                    zero.until_state(lambda s, v=mine["version"]: s["version"] > v)
                    break
                zero.act(choices[0], mine["version"])
                zero.until_state(lambda s, v=mine["version"]: s["version"] > v)
            assert 0 in learned


def test_only_the_seat_itself_is_told_it_is_being_passed_for(sqlite_url: str, tk: Any) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0, pass_delay=3.0)) as client:
        tid, tokens = challenge_window_table(client, tk)
        with (
            tk.join(client, tid, 0, tokens[0]) as zero,
            tk.join(client, tid, 1, tokens[1]) as one,
            tk.join(client, tid) as watcher,
        ):
            play_a_hero(zero)
            window = one.until_state(lambda s: s["actor"] == 1)
            assert window.get("passing") is True and window["legal"] == []
            for other in (zero, watcher):
                seen = other.until_state(lambda s, v=window["version"]: s["version"] == v)
                assert "passing" not in seen
