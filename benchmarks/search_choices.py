"""Where the search and the heuristic bot choose differently, which of them was right?

Plays games of heuristic bots, and at every third decision with a choice asks the search
bot (`--spec`, default `bot:mcts:1000`) what it would play. Each time it disagrees with
the heuristic, both moves are judged by `--judge` paired rollouts: from the same
re-dealt state (the deciding seat's information set, determinized as the search does)
each move is played, then every seat plays the heuristic to the end; the deciding seat's
win share (1/k of a victory shared by k) is averaged. A move is counted better or worse
when its judged win chance differs by more than a point.

This is the measurement behind the incumbent in `tavernkeep/agents/ismcts.py`: it shows
whether a search's disagreements with the heuristic gain or lose, which a win-rate
benchmark needs hundreds of games to see.

    python benchmarks/search_choices.py [--game NAME] [--players P] [--games N]
        [--spec SPEC] [--depth D] [--judge N] [--workers W] [--seed S]

`--depth` overrides the tree's depth the spec implies (0: no limit), to compare a full
tree with heuristic rollouts against the one level `:heuristic` searches.
"""

from __future__ import annotations

import argparse
import os
from multiprocessing import Pool
from typing import Any

from tavernkeep.agents import make_bot
from tavernkeep.agents.ismcts import ISMCTSBot, play_out
from tavernkeep.engine.actions import Action
from tavernkeep.engine.game import Game
from tavernkeep.engine.match import InfoSet, Match
from tavernkeep.engine.rng import Rng, derive_seed
from tavernkeep.games import get_game

SEED = 9
MARGIN = 0.01
"""A judged difference of a point of win chance or less counts as neither."""

Choice = tuple[str, str, float, float] | None
"""(heuristic's move, search's move, their judged win chances), or None: they agreed."""


def judged(game: Game[Any, Any], state: Any, seat: int, action: Action, judge: int) -> float:
    """The seat's mean win share over `judge` heuristic playouts after `action`, each from
    a fresh determinization (the same ones, seed for seed, for every move judged)."""
    total = 0.0
    for k in range(judge):
        rng = Rng(derive_seed(SEED, "judge", k))
        sample = game.determinize(state, seat, rng)
        game.apply(sample, action, False)
        bot = game.heuristic_agent()
        assert bot is not None
        play_out(game, sample, bot, rng)
        result = game.result(sample)
        assert result is not None
        if seat in result.winners:
            total += 1 / len(result.winners)
    return total / judge


def one_game(job: tuple[str, int, int, str, int | None, int, int]) -> list[Choice]:
    name, players, index, spec, depth, judge, seed = job
    game = get_game(name)
    heuristic = make_bot("bot:heuristic", game)
    match = Match.start(game, [heuristic] * players, seed=derive_seed(seed, index))
    out: list[Choice] = []
    decision = 0
    while (seat := game.actor(match.state)) is not None:
        if len(game.legal_actions(match.state)) > 1:
            if decision % 3 == 0:
                state = match.state
                proposal = heuristic.choose(InfoSet(game, state, seat, Rng(decision)))
                search = make_bot(spec, game)
                if depth is not None:
                    assert isinstance(search, ISMCTSBot)
                    search.depth = depth or None
                chosen = search.choose(InfoSet(game, state, seat, Rng(decision)))
                if chosen == proposal:
                    out.append(None)
                else:
                    out.append(
                        (
                            proposal.text,
                            chosen.text,
                            judged(game, state, seat, proposal, judge),
                            judged(game, state, seat, chosen, judge),
                        )
                    )
            decision += 1
        match.step()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hack-and-slash")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=6, help="heuristic games (6)")
    parser.add_argument("--spec", default="bot:mcts:1000", help="the search (bot:mcts:1000)")
    parser.add_argument("--depth", type=int, help="the tree's depth (0: no limit)")
    parser.add_argument("--judge", type=int, default=2000, help="rollouts a move (2000)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    jobs = [
        (args.game, args.players, i, args.spec, args.depth, args.judge, args.seed)
        for i in range(args.games)
    ]
    with Pool(args.workers) as pool:
        choices = [c for game in pool.map(one_game, jobs) for c in game]
    differ = [c for c in choices if c is not None]
    better = sum(1 for c in differ if c[3] > c[2] + MARGIN)
    worse = sum(1 for c in differ if c[3] < c[2] - MARGIN)
    gain = sum(c[3] - c[2] for c in differ)
    print(
        f"{args.spec}"
        + (f" (depth {args.depth})" if args.depth is not None else "")
        + f" against bot:heuristic, {args.game}, {args.players} players, "
        f"{args.games} games, seed {args.seed}, {args.judge:,} judging rollouts a move"
    )
    print("| decisions | disagreed | search better | search worse | win chance gained |")
    print("|---|---|---|---|---|")
    print(
        f"| {len(choices)} | {len(differ)} | {better} | {worse} | "
        f"{gain:+.2f} in all, {gain / max(1, len(differ)):+.3f} a disagreement |"
    )


if __name__ == "__main__":
    main()
