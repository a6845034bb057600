"""Speed of ``python_take6`` state clones and of OpenSpiel's CFR+ on it (not a test).

Prints the median time of ``state.clone()`` (what every OpenSpiel tree algorithm calls at each
node) on a mid-game state of the standard game with 4 players, and the seconds of CFR+
iterations on a small hidden-hands position (2 players, 3 cards each) in its turn-based form.

    python bench/openspiel_clone.py
    python bench/openspiel_clone.py --clones 5000 --iterations 20
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyspiel
from open_spiel.python.algorithms import cfr

from take6.integrations import openspiel as os6

CFR_POSITION = "standard 12/37/43/58 14,61,80|15,44,90"


def mid_game_state(seed: int) -> Any:
    """A state of the standard game (4 players) after the deal and three turns."""
    game = os6.load_game(variant="standard", players=4)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    for _ in range(3):
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(4)])
        while not (state.is_simultaneous_node() or state.is_terminal()):
            state.apply_action(state.legal_actions()[0])
    return state


def clone_ms(clones: int, repeats: int) -> float:
    state = mid_game_state(0)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(clones):
            state.clone()
        times.append((time.perf_counter() - start) / clones * 1000)
    return statistics.median(times)


def cfr_seconds(iterations: int) -> float:
    game = pyspiel.convert_to_turn_based(os6.load_game(CFR_POSITION))
    solver = cfr.CFRPlusSolver(game)
    start = time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clones", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=10)
    args = parser.parse_args()
    print(f"clone: {clone_ms(args.clones, args.repeats):.3f} ms (median of {args.repeats})")
    seconds = cfr_seconds(args.iterations)
    print(f"CFR+ on {CFR_POSITION!r}: {args.iterations} iterations in {seconds:.2f} s")


if __name__ == "__main__":
    main()
