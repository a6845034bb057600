"""Speed benchmark of the exact Logik draft solver (not a test).

2 players, first picker seat 1, objective diff: for each hand size k (deck 1..2k+4), print the
median seconds (wall clock and CPU) over several runs, the draft nodes, the leaves solved by the
play solver, the leaf cache hits, the play solver's nodes, the exact value and the best first
picks. k = 5 (and above) runs once, with a time limit of --max-seconds; if it is not solved in
time, its proven bounds are printed instead (and larger k are skipped).

    python bench/draft.py                      # k = 1..4, and 5 within 300 s
    python bench/draft.py --max-seconds 60 --repeats 5
    python bench/draft.py --k 6 --max-seconds 3000
    python bench/draft.py --k 7 --pick-values bounds --max-seconds 1800   # 13-21 min, value 0
    python bench/draft.py --k 6 --pick-values bounds --threads 2
    python bench/draft.py --k 6 --pick-values bounds --resume-after 8

``--entry-bytes S`` measures what an entry of the draft's own tables costs in memory (the
figure behind ``solver.draft.solve.ENTRY_BYTES``): the 3-player k = 4 draft for S seconds with a
16 MiB play table, the growth of the resident size over the entries held.

    python bench/draft.py --entry-bytes 90

``--resume-after S`` measures the proofs file (``take6 draft --proofs``): for each k, one run
through, then a run stopped after S seconds and a second run that goes on from its file, and
the time of the two against the one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.api import fraction_text
from solver.draft.solve import ENTRY_BYTES, DraftResult, DraftSearch, _solve_draft, solve_draft


def bench(
    ks: list[int], repeats: int, max_seconds: float, exact_picks: bool = True, threads: int = 1
) -> None:
    print(
        f"{'k':>2} {'deck':>4} {'runs':>4} {'median s':>9} {'cpu s':>8} {'nodes':>7} "
        f"{'leaves':>7} {'hits':>7} {'play nodes':>10}  value  best first picks"
    )
    for k in ks:
        runs = repeats if k <= 4 else 1
        results: list[DraftResult] = []
        for _ in range(runs):
            results.append(
                solve_draft(2, k, time_limit=max_seconds, exact_picks=exact_picks, threads=threads)
            )
            if not results[-1].solved:
                break
        r = results[-1]
        secs = statistics.median(x.seconds for x in results)
        cpus = statistics.median(x.cpu_seconds for x in results)
        if r.solved and r.value is not None:
            value = fraction_text(r.value)
            best = ",".join(str(c) for c in r.best_picks())
        else:
            value = f"[{fraction_text(r.lower)},{fraction_text(r.upper)}]"
            best = f"not solved within {max_seconds:g} s"
        print(
            f"{k:>2} {2 * k + 4:>4} {len(results):>4} {secs:>9.3f} {cpus:>8.3f} {r.nodes:>7} "
            f"{r.leaves:>7} {r.leaf_hits:>7} {r.play_nodes:>10}  {value:>5}  {best}",
            flush=True,
        )
        if not r.solved:
            break


def resume(ks: list[int], after: float, exact_picks: bool, threads: int) -> None:
    """One run through against a run stopped after ``after`` seconds and resumed from its
    proofs file, for each k."""
    print(f"{'k':>2} {'one run s':>10} {'stopped s':>10} {'resumed s':>10} {'ratio':>6}  proofs")
    for k in ks:
        whole = solve_draft(2, k, exact_picks=exact_picks, threads=threads, play=False)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "proofs.jsonl"
            first = solve_draft(
                2,
                k,
                time_limit=after,
                exact_picks=exact_picks,
                threads=threads,
                play=False,
                proofs=path,
            )
            second = solve_draft(
                2, k, exact_picks=exact_picks, threads=threads, play=False, proofs=path
            )
        if second.value != whole.value:  # pragma: no cover - would be a bug
            raise SystemExit(f"k = {k}: resumed {second.value}, one run {whole.value}")
        both = first.seconds + second.seconds
        print(
            f"{k:>2} {whole.seconds:>10.2f} {first.seconds:>10.2f} {second.seconds:>10.2f} "
            f"{both / whole.seconds:>6.2f}  {first.proofs_written} written, "
            f"{second.proofs_read} read",
            flush=True,
        )


def entry_bytes(seconds: float) -> None:
    """The resident size the draft's tables add per entry (3 players, k = 4, ``seconds``)."""

    def resident() -> int:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    ds = DraftSearch(3, 4, 0, "paranoid", 0, time_limit=seconds, memory=16 << 20)
    before = resident()
    ds.capacity = 1 << 40  # (no budget: every entry kept)
    # (the solve's own steps, so that the search keeps its time limit: a search passed to
    # solve_draft takes none)
    r = _solve_draft(ds, 0, False, None, False, ds.play.stats.nodes, time.process_time())
    held = ds.held()
    grown = resident() - before
    print(
        f"3 players, k = 4, {r.seconds:.0f} s: {held} entries, resident size +{grown / 2**20:.0f}"
        f" MiB (play table 16 MiB at most): {(grown - (16 << 20)) / held:.0f} to "
        f"{grown / held:.0f} bytes an entry (the budget counts {ENTRY_BYTES})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--k", type=int, nargs="*", help="hand sizes (default 1..5)")
    ap.add_argument("--repeats", type=int, default=3, help="runs per k <= 4 (median)")
    ap.add_argument(
        "--max-seconds", type=float, default=300.0, help="time limit of each run (k = 5 budget)"
    )
    ap.add_argument(
        "--pick-values",
        choices=["exact", "bounds"],
        default="exact",
        help="as take6 draft: every first pick exact, or the value and its optimal picks only",
    )
    ap.add_argument(
        "--threads", type=int, default=1, help="threads of the compiled core for each leaf"
    )
    ap.add_argument(
        "--resume-after",
        type=float,
        metavar="S",
        help="measure a run stopped after S seconds and resumed from its proofs file instead",
    )
    ap.add_argument(
        "--entry-bytes",
        type=float,
        metavar="S",
        help="measure what an entry of the draft's tables costs in memory, over S seconds",
    )
    args = ap.parse_args()
    exact = args.pick_values == "exact"
    if args.entry_bytes is not None:
        entry_bytes(args.entry_bytes)
        return
    if args.resume_after is not None:
        resume(args.k or [5], args.resume_after, exact, args.threads)
        return
    bench(args.k or [1, 2, 3, 4, 5], args.repeats, args.max_seconds, exact, args.threads)


if __name__ == "__main__":
    main()
