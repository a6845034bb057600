"""take6's solver against OpenSpiel's value iteration on small 2-player Logik deals (not a test).

For each hand size k, random deals (the same as ``bench/solve.py``: shuffle 1..2k+4 with a fixed
seed, hands of k, 4 single-card rows) are solved twice:

* OpenSpiel: ``value_iteration`` on ``python_take6`` with the position, ``known_hands=True`` and
  ``returns=diff`` (a 2-player zero-sum game of perfect information with simultaneous moves; at
  each simultaneous node value iteration solves the stage matrix game by LP);
* take6: ``solver.solve(position, "diff")``.

Both values are player 1's: heads of player 2 minus heads of player 1 under optimal play. They
must agree within ``--tol``; the script prints both values, both times and their ratio, and exits
1 on any disagreement. The target is take6 at least 100x faster at k = 4 and k = 5.

OpenSpiel's LP solver (cvxpy with ECOS) stops at ECOS's 1e-7 tolerances by default, which leaves
errors of a few 1e-8 in the values; the script tightens them to 1e-12 (``--ecos-defaults`` keeps
them). Needs the ``openspiel`` extra plus ``cvxpy`` and ``ecos``.

    python bench/vs_openspiel.py                  # k = 2..5, 3 deals (1 deal for k >= 5)
    python bench/vs_openspiel.py --k 4 --seeds 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from open_spiel.python.algorithms import lp_solver, value_iteration

from solver.api import fraction_text, solve
from solver.study.run import benchmark_deal as deal
from take6.integrations import openspiel as take6_openspiel
from take6.notation import format_position
from take6.position import Position

TARGET = 100.0
TARGET_KS = (4, 5)


def openspiel_value(pos: Position) -> tuple[float, float, int]:
    """(value for player 1, seconds, states) by OpenSpiel's value iteration."""
    started = time.perf_counter()
    game = take6_openspiel.load_game(pos, known_hands=True, returns="diff")
    values = value_iteration.value_iteration(game, depth_limit=-1, threshold=1e-12)
    value = values[str(game.new_initial_state())]
    return float(value), time.perf_counter() - started, len(values)


def take6_value(pos: Position) -> tuple[Fraction, float]:
    """(exact value for player 1, seconds) by take6's solver."""
    started = time.perf_counter()
    result, _ = solve(pos, "diff", line=False)
    seconds = time.perf_counter() - started
    if result.value is None:
        raise RuntimeError(f"take6's solver did not finish {format_position(pos)!r}")
    return result.value, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, nargs="+", default=[2, 3, 4, 5], help="hand sizes")
    parser.add_argument("--seeds", type=int, default=3, help="deals per k for k <= 4")
    parser.add_argument("--seeds-large", type=int, default=1, help="deals per k for k >= 5")
    parser.add_argument("--tol", type=float, default=1e-9, help="largest allowed difference")
    parser.add_argument(
        "--ecos-defaults", action="store_true", help="keep OpenSpiel's LP tolerances (1e-7)"
    )
    args = parser.parse_args(argv)
    if not args.ecos_defaults:
        for key in ("abstol", "reltol", "feastol"):
            lp_solver.DEFAULT_ECOS_SOLVER_KWARGS[key] = 1e-12

    print(
        f"{'k':>2} {'seed':>4} {'OpenSpiel value':>18} {'take6 value':>11} {'|diff|':>8} "
        f"{'OpenSpiel s':>11} {'take6 s':>9} {'ratio':>9} {'states':>7}  position"
    )
    disagreements = 0
    ratios: dict[int, list[float]] = {}
    for k in args.k:
        for seed in range(args.seeds if k <= 4 else args.seeds_large):
            pos = deal(k, seed)
            os_value, os_seconds, states = openspiel_value(pos)
            value, seconds = take6_value(pos)
            diff = abs(os_value - float(value))
            ratio = os_seconds / seconds
            ratios.setdefault(k, []).append(ratio)
            flag = "" if diff <= args.tol else "  DISAGREE"
            disagreements += bool(flag)
            print(
                f"{k:>2} {seed:>4} {os_value:>18.12f} {fraction_text(value):>11} {diff:>8.1e} "
                f"{os_seconds:>11.3f} {seconds:>9.4f} {ratio:>8.0f}x {states:>7}  "
                f"{format_position(pos)}{flag}",
                flush=True,
            )
    print()
    for k, rs in ratios.items():
        verdict = ""
        if k in TARGET_KS:
            verdict = "  target met" if min(rs) >= TARGET else f"  BELOW the {TARGET:.0f}x target"
        print(
            f"k={k}: take6 is {statistics.median(rs):.0f}x faster (median, min {min(rs):.0f}x)"
            f"{verdict}"
        )
    if disagreements:
        print(f"{disagreements} position(s) disagree beyond {args.tol:g}")
        return 1
    print(f"all values agree within {args.tol:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
