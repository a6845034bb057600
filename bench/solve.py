"""Speed benchmark of the exact solver (not a test).

2-player Logik deals with k cards per hand from the deck 1..2k+4: shuffle the deck with a fixed
seed, hands of k, 4 single-card rows (the same deals as ``take6 solve "$(python bench/solve.py
--deal K SEED)"``). For each k, the compiled core and the Python search run the same deals side
by side in one process; the script prints each deal's wall-clock and CPU seconds, nodes, table
fill and the process's peak memory, then per k the medians, nodes/s and the speed-up of the
compiled core over the Python search (CPU seconds: the fair measure on a shared machine). The
two cores' values are asserted equal where both finish, and the baseline's where it runs.

    python bench/solve.py                              # k = 4..8, 5 seeds, Python up to k = 7
    python bench/solve.py --k 9 --seeds 5 --python-max 0
    python bench/solve.py --k 10 --seeds 1 --first-seed 3 --memory 10G --time-limit 3600
    python bench/solve.py --deal 10 3                  # print the deal (compact notation)
    python bench/solve.py --threads 2 --k 8            # the compiled core with a second thread
    python bench/solve.py --lp                         # stage-game LP: lean simplex vs HiGHS
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.api import Result, fraction_text, int_text, solve
from solver.baseline import Baseline
from solver.native import AVAILABLE, parse_memory, unavailable_reason
from solver.problem import make_problem
from solver.study.run import benchmark_deal as deal
from take6.notation import Position


def value_text(r: Result) -> str:
    """The value (its float and the size of its fraction), or the proven bounds."""
    if r.value is not None:
        v = r.value
        num, den = int_text(abs(v.numerator)), int_text(v.denominator)
        digits = f"{len(num)}/{len(den)} digits"
        exact = fraction_text(v) if len(num) + len(den) <= 23 else digits
        return f"{float(v):+.6f} ({exact})"
    return f"[{float(r.lower):+.4f}, {float(r.upper):+.4f}] not solved"


def run(pos: Position, core: str, args: argparse.Namespace) -> Result:
    result, _ = solve(
        pos,
        time_limit=args.time_limit,
        line=False,
        core=core,
        memory=args.memory,
        threads=args.threads,
    )
    return result


def bench_solver(args: argparse.Namespace) -> None:
    if not AVAILABLE:
        print(f"note: {unavailable_reason()}; only the Python search runs")
    print(
        f"{'k':>3} {'core':>6} {'median s':>9} {'cpu s':>8} {'nodes':>11} {'nodes/s':>9} "
        f"{'table':>10} {'speed-up':>8}"
    )
    for k in args.k:
        rows: dict[str, list[Result]] = {"native": [], "python": []}
        base: list[float] = []
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            pos = deal(k, seed)
            values: dict[str, Fraction | None] = {}
            cores = ["native"] if AVAILABLE else []
            if k <= args.python_max:
                cores.append("python")
            for core in cores:
                r = run(pos, core, args)
                rows[core].append(r)
                values[core] = r.value
                print(
                    f"    k={k} seed={seed} {core}: {r.seconds:.2f} s ({r.cpu_seconds:.2f} s cpu), "
                    f"{r.nodes} nodes, table {r.table_size}, peak {r.peak_rss / 2**30:.2f} GiB, "
                    f"value {value_text(r)}  [{pos}]",
                    flush=True,
                )
            got = [v for v in values.values() if v is not None]
            assert all(v == got[0] for v in got), (str(pos), values)
            if k <= args.baseline_max:
                t = time.process_time()
                bv = Baseline(make_problem(pos)).solve()
                base.append(time.process_time() - t)
                assert not got or bv == got[0], (str(pos), bv, got)
        med: dict[str, float] = {}
        for core, rs in rows.items():
            if not rs:
                continue
            cpu = statistics.median(r.cpu_seconds for r in rs)
            med[core] = cpu
            nodes = statistics.median(r.nodes for r in rs)
            rate = statistics.median(r.nodes / r.cpu_seconds for r in rs if r.cpu_seconds > 0)
            speed = (
                f"{med['python'] / med['native']:.1f}x"
                if core == "python" and "native" in med and med["native"] > 0
                else ""
            )
            print(
                f"{k:>3} {core:>6} {statistics.median(r.seconds for r in rs):>9.2f} {cpu:>8.2f} "
                f"{int(nodes):>11} {rate:>9.0f} "
                f"{int(statistics.median(r.table_size for r in rs)):>10} {speed:>8}",
                flush=True,
            )
        if base:
            print(f"{k:>3} baseline median cpu {statistics.median(base):.2f} s", flush=True)


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
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--k", type=int, nargs="+", default=[4, 5, 6, 7, 8])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--python-max", type=int, default=7, help="run the Python search up to k")
    ap.add_argument("--baseline-max", type=int, default=5, help="run the baseline up to this k")
    ap.add_argument("--time-limit", type=float, default=None)
    ap.add_argument("--memory", type=parse_memory, default=None, help="table budget, e.g. 10G")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--deal", type=int, nargs=2, metavar=("K", "SEED"), help="print a deal")
    ap.add_argument("--lp", action="store_true", help="benchmark the stage-game LP instead")
    args = ap.parse_args()
    if args.deal:
        print(deal(*args.deal))
    elif args.lp:
        bench_lp(300)
    else:
        bench_solver(args)


if __name__ == "__main__":
    main()
