"""The README's table of the k = 10 study, from its cells files (not a test).

For each deal of the study ``take6 study deals --hand-size 10 --deals N --seed S --study NAME
--cells DIR`` whose file is in ``DIR/NAME`` (by default the files carried in
``data/k10/study/k10``): the deal's rows and hands, what its file proves (the exact value and the
optimal first cards with their probabilities, read back by :func:`solver.cells.solve_by_cells`
on a copy with no search; or the bounds so far), the leaf searches the file holds (their
seconds and nodes over every run), and how many heads ``safe`` gives up against a perfect
player (:func:`solver.botgap.against_bot`) in seat 2 and in seat 1. Prints the markdown rows
of the README's table, then one line in plain words:

    python bench/k10_study.py                       # the carried files, safe's gaps too
    python bench/k10_study.py --no-bots             # without the best replies (seconds)
    python bench/k10_study.py --cells /tmp/k10-cells --deals 10 --study k10
    python bench/k10_study.py --study k10-safe --draft safe --deals 1 --first-picker 1
    python bench/k10_study.py --no-bots --time-by-role   # where each deal's search time went

With ``--draft`` (and ``--first-picker``) the study is one of drafted deals, as ``take6 study
deals --draft ... --first-picker ...`` draws them.

The files are read, never written (each is copied to a temporary folder first), so this runs
beside a study that is writing them.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.api import int_text
from solver.botgap import against_bot
from solver.cells import RoleTime, read_cells, roles_text, solve_by_cells
from solver.native import parse_memory
from solver.study.run import cells_path, study_position
from solver.study.spec import DealStudy
from take6.errors import Take6Error
from take6.notation import format_position

ROOT = Path(__file__).resolve().parents[1]


def first_cards(support: dict[int, Fraction], actions: list[tuple[int, ...]]) -> str:
    """``11 (63%), 3 (26%), 1 (10%)`` (most likely first), or ``6`` for a pure first card."""
    if len(support) == 1:
        return str(actions[next(iter(support))][0])
    ranked = sorted(support.items(), key=lambda item: (-item[1], actions[item[0]][0]))
    return ", ".join(f"{actions[i][0]} ({100 * float(p):.0f}%)" for i, p in ranked)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cells", type=Path, default=ROOT / "data" / "k10" / "study")
    ap.add_argument("--study", default="k10", help="the study's name (its folder under --cells)")
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--draft", default="", metavar="BOT[,BOT]", help="the study's drafting bots")
    ap.add_argument(
        "--first-picker", type=int, default=1, metavar="SEAT", help="with --draft (1-based)"
    )
    ap.add_argument("--no-bots", action="store_true", help="leave out safe's gaps")
    ap.add_argument("--memory", default="4G", help="the best reply's table budget")
    ap.add_argument(
        "--time-by-role",
        action="store_true",
        help="also print, per solved deal, where its leaf searches' seconds went",
    )
    args = ap.parse_args()
    if args.deals < 1:
        ap.error(f"--deals must be at least 1, got {args.deals}")
    try:
        memory = parse_memory(args.memory)
    except Take6Error as e:
        ap.error(str(e))
    draft = tuple(args.draft.split(",")) if args.draft else ()
    if not 1 <= args.first_picker <= 2:
        ap.error(f"--first-picker must be seat 1 or 2, got {args.first_picker}")
    try:
        study = DealStudy(
            hand_sizes=(10,),
            deals=args.deals,
            seed=args.seed,
            draft=draft,
            first_picker=args.first_picker - 1,
        )
    except Take6Error as e:
        ap.error(str(e))
    values: list[Fraction] = []
    mixed = 0
    gaps: list[Fraction] = []
    open_deals: list[str] = []
    rows: list[str] = []
    roles: list[str] = []
    totals: dict[str, RoleTime] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for deal in range(args.deals):
            task = study.task(10, deal)
            path = cells_path(args.cells / args.study, task)
            if not path.exists():
                continue
            pos = study_position(task)
            shown = format_position(pos).split(" ", 1)[1].replace("|", " \\| ")
            report = read_cells(pos, path)
            work = f"{report.seconds:,.0f} s, {report.nodes:.2g}"
            if report.value is None:
                open_deals.append(
                    f"deal {deal}: {float(report.lower):.6f} <= value <= "
                    f"{float(report.upper):.6f}, {report.cells_exact}/{report.cells} cells "
                    f"exact, {work} nodes"
                )
                continue
            copy = Path(tmp) / path.name
            shutil.copyfile(path, copy)
            got, run = solve_by_cells(pos, copy, node_limit=1, memory=1 << 24, threads=1)
            assert got.value is not None and run.solution is not None and run.stats.searches == 0
            v, x, y = run.solution
            value = Fraction(v)
            assert value == got.value
            values.append(value)
            mixed += len(x) > 1 or len(y) > 1
            if args.time_by_role:
                by_role = run.time_by_role()
                roles.append(f"deal {deal}: {roles_text(by_role)}")
                for name, r in by_role.items():
                    totals.setdefault(name, RoleTime()).add(r)
            digits = len(int_text(value.denominator))
            cells = [
                str(deal),
                f"`{shown}`",
                f"{float(value):+.6f} ({digits:,} digits)",
                first_cards(x, run.rows),
                first_cards(y, run.cols),
                work,
            ]
            if not args.no_bots:
                seat: list[str] = []
                for player, own in ((0, value), (1, -value)):  # safe in seat 2, then in seat 1
                    t0 = time.perf_counter()
                    reply = against_bot(pos, "safe", player, memory=memory)
                    assert reply.value is not None
                    gap = reply.value - own
                    gaps.append(gap)
                    seat.append(f"{float(gap):.2f}")
                    print(
                        f"deal {deal}: safe as {2 - player}: gap {float(gap):.6f} "
                        f"({time.perf_counter() - t0:.1f} s)",
                        file=sys.stderr,
                    )
                cells.append(" / ".join(seat))
            rows.append("| " + " | ".join(cells) + " |")
    if not rows and not open_deals:
        folder = args.cells / args.study
        print(f"no cells file of study {args.study!r} in {folder}", file=sys.stderr)
        return 1
    head = "| deal | rows, hands (player 1 \\| player 2) | value | player 1's first card"
    head += " | player 2's first card | search |"
    head += "" if args.no_bots else " `safe`'s gap as 2 / as 1 |"
    print(head)
    print("|---" * (7 if args.no_bots else 8) + "|")
    print("\n".join(rows))
    print()
    for line in open_deals:
        print(line)
    if roles:
        print("where the leaf searches' seconds went (the cells' roles in the solution):")
        print("\n".join(roles))
        print(f"all {len(roles)}: {roles_text(totals)}")
    if values:
        words = (
            f"{len(values)} of {args.deals} deals exact: values from {float(min(values)):+.2f} "
            f"to {float(max(values)):+.2f} (mean {float(statistics.mean(values)):+.2f}), "
            f"{sum(v > 0 for v in values)} in player 1's favour, mixed at the root in {mixed}"
        )
        if gaps:
            words += f"; safe's gap {float(min(gaps)):.1f} to {float(max(gaps)):.1f} heads"
        print(words)
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except Take6Error as e:  # (a file that is not its deal's, a damaged file: one line)
        print(f"k10_study: {e}", file=sys.stderr)
        raise SystemExit(1) from None
