"""CrossHair on the placement rule: is a symbolic check of fastsim against the reference practical?

    pip install crosshair-tool
    python bench/crosshair_placement.py --budget 120

Runs ``crosshair diffbehavior`` (CrossHair drives z3 over the Python code) on three pairs, each
with ``--budget`` seconds of CPU: the reference (``take6.placement.place`` + ``apply_move``)
against fastsim's ``placement_options`` + ``apply_placement``, and against two deliberately
wrong versions of fastsim (the capacity ignored; Profi ties always settled to the right). The
domain is small on purpose: three rows of one or two cards, cards 1..10, capacities 1..3, every
tie rule. For each pair it prints CrossHair's verdict and the wall-clock time. (Measured figures
are in README.md, under ``take6 verify --code``.)

The functions below take plain ints (CrossHair makes them symbolic) and return the canonical
outcome (whether the owner chooses; each option's rows as ``(last, first, length, heads)`` and
the heads taken), or None for inputs outside the domain, so both sides agree there.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

from take6.cards import HEADS
from take6.placement import apply_move, place
from take6.play.fastsim import TIE_CODES, apply_placement, placement_options
from take6.rules import ProfiTie, Rules

Outcome = tuple[bool, list[tuple[tuple[tuple[int, int, int, int], ...], int]]] | None
TIES = list(ProfiTie)
RULES = {
    (profi, tie, cap): Rules.for_variant(
        "profi" if profi else "standard",
        2,
        hand_size=1,
        rows=3,
        row_capacity=cap,
        deck_size=12,
        profi_tie=TIES[tie],
    )
    for profi in (False, True)
    for tie in range(3)
    for cap in (1, 2, 3)
}


def _rows(
    a: int, b: int, c: int, d: int, e: int, f: int, card: int, tie: int, cap: int
) -> tuple[tuple[int, ...], ...] | None:
    """Three rows ``(a[, b])``, ``(c[, d])``, ``(e[, f])`` (0: a row of one card), or None."""
    if not (0 <= tie <= 2 and 1 <= cap <= 3):
        return None
    rows = tuple((x,) if y == 0 else (x, y) for x, y in ((a, b), (c, d), (e, f)))
    cards = [v for r in rows for v in r] + [card]
    if any(not 1 <= v <= 10 for v in cards) or len(set(cards)) != len(cards):
        return None
    if any(len(r) > cap or (len(r) == 2 and r[0] >= r[1]) for r in rows):
        return None
    return rows


def reference(
    a: int, b: int, c: int, d: int, e: int, f: int, card: int, profi: bool, tie: int, cap: int
) -> Outcome:
    rows = _rows(a, b, c, d, e, f, card, tie, cap)
    if rows is None:
        return None
    p = place(rows, card, RULES[(profi, tie, cap)])
    out = []
    for move in p.options:
        new, taken = apply_move(rows, card, move, cap)
        table = tuple((r[-1], r[0], len(r), sum(HEADS[x] for x in r)) for r in new)
        out.append((table, sum(HEADS[x] for x in taken)))
    return not p.forced, out


def _fastsim(
    rows: tuple[tuple[int, ...], ...], card: int, profi: bool, tie: int, cap: int
) -> Outcome:
    first = [r[0] for r in rows]
    last = [r[-1] for r in rows]
    chooses, moves = placement_options(first, last, card, profi, TIE_CODES[TIES[tie]])
    out = []
    for row, side in moves:
        fi, la = first[:], last[:]
        co = [len(r) for r in rows]
        he = [sum(HEADS[x] for x in r) for r in rows]
        _, got, _ = apply_placement(fi, la, co, he, HEADS, cap, card, row, side)
        out.append((tuple(zip(la, fi, co, he, strict=True)), got))
    return chooses, out


def fastsim(
    a: int, b: int, c: int, d: int, e: int, f: int, card: int, profi: bool, tie: int, cap: int
) -> Outcome:
    rows = _rows(a, b, c, d, e, f, card, tie, cap)
    return None if rows is None else _fastsim(rows, card, profi, tie, cap)


def fastsim_no_capacity(
    a: int, b: int, c: int, d: int, e: int, f: int, card: int, profi: bool, tie: int, cap: int
) -> Outcome:
    """A planted bug: rows never fill."""
    rows = _rows(a, b, c, d, e, f, card, tie, cap)
    return None if rows is None else _fastsim(rows, card, profi, tie, 99)


def fastsim_ties_right(
    a: int, b: int, c: int, d: int, e: int, f: int, card: int, profi: bool, tie: int, cap: int
) -> Outcome:
    """A planted bug: every Profi tie settled to the right."""
    rows = _rows(a, b, c, d, e, f, card, tie, cap)
    right = TIES.index(ProfiTie.PREFER_RIGHT)
    return None if rows is None else _fastsim(rows, card, profi, right, cap)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budget", type=float, default=120.0, help="CPU seconds per pair")
    args = parser.parse_args(argv)
    exe = shutil.which("crosshair") or str(Path(sys.executable).parent / "crosshair")
    if not Path(exe).exists():
        print("crosshair is not installed (pip install crosshair-tool)", file=sys.stderr)
        return 2
    here = Path(__file__).resolve().parent
    for other in ("fastsim", "fastsim_no_capacity", "fastsim_ties_right"):
        start = time.perf_counter()
        cmd = [exe, "diffbehavior", "--per_condition_timeout", str(args.budget)]
        cmd += ["crosshair_placement.reference", f"crosshair_placement.{other}"]
        done = subprocess.run(cmd, cwd=here, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
        verdict = (done.stdout.strip() or done.stderr.strip()).splitlines()
        print(f"reference vs {other}: exit {done.returncode}, {wall:.0f} s wall clock")
        for line in verdict[:4]:
            print(f"    {line[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
