"""Benchmark of a solve by cells (``take6 solve --cells``) against the ordinary solve (not a test).

The same 2-player Logik deals as ``bench/solve.py`` (``--deal K SEED``), each solved twice in one
process, one after the other: by the ordinary search (one table for the whole tree) and by
:func:`solver.cells.solve_by_cells` (the double oracle over the root's cells, each leaf a search
of its own on one shared table, every bound written to a cells file). Prints per deal the CPU
seconds and nodes of both, the leaf searches, the restricted game reached and the file's size,
then per k the medians and the ratio of CPU seconds (cells / ordinary). The values are asserted
equal.

    python bench/cells.py                      # k = 6, 7, 8; 5 seeds; one thread
    python bench/cells.py --k 9 --seeds 3 --memory 8G --threads 2
    python bench/cells.py --k 9 --seeds 5 --memory 8G --threads 2 --side-by-side
    python bench/cells.py --k 8 --time-by-role   # where the leaf searches' seconds went

``--time-by-role`` adds a line per deal: the seconds of the leaf searches by the part their cells
play in the solution (the optimal strategies' supports, the rest of the restricted game, the
rows and columns proven to gain nothing), from :meth:`solver.cells.CellsSolve.time_by_role`.

With ``--side-by-side`` each deal is solved by cells twice, one after the other on the same
threads: with the proofs that a row or column gains nothing one at a time (each leaf search
using every thread) and with ``--threads`` of them side by side (each leaf search on a thread
of its own, one table). Prints wall-clock seconds (what a second thread is for), CPU seconds
and nodes of both, and per k the median of the wall-time ratio.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.api import solve
from solver.cells import roles_text, solve_by_cells
from solver.native import AVAILABLE, parse_memory, unavailable_reason
from solver.study.run import benchmark_deal as deal


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, nargs="+", default=[6, 7, 8])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--memory", default="2G", help="table budget of each solve (default 2G)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument(
        "--side-by-side",
        action="store_true",
        help="compare the proofs one at a time against --threads of them side by side",
    )
    ap.add_argument(
        "--time-by-role",
        action="store_true",
        help="also print, per deal, where the cells solve's leaf searches' seconds went",
    )
    args = ap.parse_args()
    if args.side_by_side and args.threads < 2:
        print("--side-by-side needs --threads 2 or more", file=sys.stderr)
        return 2
    if not AVAILABLE:
        print(f"the compiled core is not built ({unavailable_reason()})", file=sys.stderr)
        return 2
    memory = parse_memory(args.memory)
    if args.side_by_side:
        return compare_side_by_side(args, memory)
    print("k seed | ordinary: CPU s, nodes | cells: CPU s, nodes, leaf searches, game, file")
    for k in args.k:
        ratios, plain_cpu, cells_cpu = [], [], []
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            pos = deal(k, seed)
            kw = {"core": "native", "memory": memory, "threads": args.threads}
            c0 = time.process_time()
            ref, _ = solve(pos, line=False, **kw)
            c1 = time.process_time()
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "cells.jsonl"
                got, run = solve_by_cells(pos, path, **kw)
                c2 = time.process_time()
                size = path.stat().st_size
            assert got.value == ref.value, (k, seed)
            a, b = c1 - c0, c2 - c1
            plain_cpu.append(a)
            cells_cpu.append(b)
            ratios.append(b / a if a > 0 else float("nan"))
            rows, cols = run.restricted
            print(
                f"{k} {seed} | {a:8.2f} {ref.nodes:>13,} | {b:8.2f} {got.nodes:>13,} "
                f"{run.stats.searches:5d} {len(rows)}x{len(cols)} {size / 1024:7.1f} kB",
                flush=True,
            )
            if args.time_by_role:
                print(f"    {roles_text(run.time_by_role())}", flush=True)
        print(
            f"k = {k}: median CPU s ordinary {statistics.median(plain_cpu):.2f}, cells "
            f"{statistics.median(cells_cpu):.2f}; ratio cells / ordinary median "
            f"{statistics.median(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f})",
            flush=True,
        )
    return 0


def compare_side_by_side(args: argparse.Namespace, memory: int) -> int:
    print(
        "k seed | one at a time: wall s, CPU s, nodes, searches | side by side: wall s, CPU s, "
        "nodes, searches (on threads of their own) | wall ratio"
    )
    for k in args.k:
        ratios, one_wall, side_wall = [], [], []
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            pos = deal(k, seed)
            got = []
            roles: list[str] = []
            for width in (1, args.threads):
                with tempfile.TemporaryDirectory() as tmp:
                    t0, c0 = time.perf_counter(), time.process_time()
                    res, run = solve_by_cells(
                        pos,
                        Path(tmp) / "cells.jsonl",
                        core="native",
                        memory=memory,
                        threads=args.threads,
                        side_by_side=width,
                    )
                    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                    stats = run.stats
                    roles.append(roles_text(run.time_by_role()))
                    del run  # (its search holds the table: freed before the next solve)
                    gc.collect()
                    got.append((res, stats, wall, cpu))
            (a, ra, wa, ca), (b, rb, wb, cb) = got
            assert a.value == b.value, (k, seed)
            one_wall.append(wa)
            side_wall.append(wb)
            ratios.append(wb / wa)
            print(
                f"{k} {seed} | {wa:8.2f} {ca:8.2f} {a.nodes:>13,} {ra.searches:4d} | "
                f"{wb:8.2f} {cb:8.2f} {b.nodes:>13,} {rb.searches:4d} "
                f"({rb.side_by_side}) | {wb / wa:.2f}",
                flush=True,
            )
            if args.time_by_role:
                print(f"    one at a time: {roles[0]}\n    side by side: {roles[1]}", flush=True)
        print(
            f"k = {k}: median wall s one at a time {statistics.median(one_wall):.2f}, side by "
            f"side {statistics.median(side_wall):.2f}; ratio side by side / one at a time "
            f"median {statistics.median(ratios):.2f} (min {min(ratios):.2f}, max "
            f"{max(ratios):.2f}), in all {sum(side_wall) / sum(one_wall):.2f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
