"""Speed benchmark of the exact solver (not a test).

2-player Logik deals with k cards per hand from the deck 1..2k+4: shuffle the deck with a fixed
seed, hands of k, 4 single-card rows. For each k, print the median wall-clock and CPU seconds,
nodes and LPs of the fast solver over several seeds, and the baseline's median CPU seconds where
it runs (CPU seconds are the fair measure on a shared machine; on an idle one they equal the
wall-clock). The baseline's value is asserted equal to the fast solver's.

    python bench/solve.py                       # k = 4..8, 5 seeds, baseline up to k = 5
    python bench/solve.py --k 10 --seeds 1 --time-limit 3000
    python bench/solve.py --lp                  # stage-game LP: lean simplex vs scipy HiGHS
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.api import fraction_text, solve
from solver.baseline import Baseline
from solver.problem import make_problem
from take6.notation import Position


def deal(k: int, seed: int) -> Position:
    """A random 2-player Logik deal with k cards per hand (deck 1..2k+4)."""
    rng = random.Random(seed)
    cards = list(range(1, 2 * k + 5))
    rng.shuffle(cards)
    rows = [[c] for c in cards[2 * k :]]
    return Position.create("logik", rows, [cards[:k], cards[k : 2 * k]], deck=2 * k + 4)


def bench_solver(ks: list[int], seeds: int, baseline_max: int, time_limit: float | None) -> None:
    print(
        f"{'k':>3} {'median s':>9} {'cpu s':>7} {'nodes':>9} {'LPs':>7} {'base cpu s':>11}  values"
    )
    for k in ks:
        secs, cpus, nodes, lps, base, values = [], [], [], [], [], []
        for seed in range(seeds):
            pos = deal(k, seed)
            result, _ = solve(pos, time_limit=time_limit, line=False)
            secs.append(result.seconds)
            cpus.append(result.cpu_seconds)
            nodes.append(result.nodes)
            lps.append(result.lps)
            if result.value is not None:
                values.append(fraction_text(result.value))
            else:
                values.append(f"[{fraction_text(result.lower)},{fraction_text(result.upper)}]")
            if k <= baseline_max:
                t = time.process_time()
                bv = Baseline(make_problem(pos)).solve()
                base.append(time.process_time() - t)
                assert result.value is None or bv == result.value, (str(pos), bv, result.value)
            print(
                f"    k={k} seed={seed}: {result.seconds:.2f} s ({result.cpu_seconds:.2f} s cpu), "
                f"{result.nodes} nodes, {result.lps} LPs, value {values[-1]}  ({pos})",
                flush=True,
            )
        b = f"{statistics.median(base):.2f}" if base else "-"
        print(
            f"{k:>3} {statistics.median(secs):>9.2f} {statistics.median(cpus):>7.2f} "
            f"{int(statistics.median(nodes)):>9} "
            f"{int(statistics.median(lps)):>7} {b:>11}  {' '.join(values)}",
            flush=True,
        )


def bench_lp(games: int) -> None:
    """Time the float step of a stage game: the lean tableau simplex against scipy's HiGHS."""
    import numpy as np
    from scipy.optimize import linprog

    from solver.matrix import float_game

    rng = random.Random(0)
    for size in (2, 4, 6, 10):
        mats = [
            [[float(rng.randint(-10, 10)) for _ in range(size)] for _ in range(size)]
            for _ in range(games)
        ]
        t = time.perf_counter()
        for a in mats:
            float_game(a)
        lean = (time.perf_counter() - t) / games
        t = time.perf_counter()
        for a in mats:
            b = np.array(a) - min(min(r) for r in a) + 1.0
            linprog(-np.ones(size), A_ub=b, b_ub=np.ones(size), method="highs")
        highs = (time.perf_counter() - t) / games
        print(f"{size}x{size}: lean simplex {lean * 1e3:.3f} ms, scipy HiGHS {highs * 1e3:.3f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--k", type=int, nargs="+", default=[4, 5, 6, 7, 8])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--baseline-max", type=int, default=5, help="run the baseline up to this k")
    ap.add_argument("--time-limit", type=float, default=None)
    ap.add_argument("--lp", action="store_true", help="benchmark the stage-game LP instead")
    args = ap.parse_args()
    if args.lp:
        bench_lp(300)
    else:
        bench_solver(args.k, args.seeds, args.baseline_max, args.time_limit)


if __name__ == "__main__":
    main()
