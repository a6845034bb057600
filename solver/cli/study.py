"""``take6 study``: batch studies into a SQLite store (``deals``, ``drafts``), ``status`` and
``export`` (registered through the ``take6.commands`` entry point; the dispatcher in
:mod:`take6.cli.main` turns a ``ValueError`` into a one-line error and exit status 2)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.problem import Objective
from solver.study.spec import EXECUTORS
from take6.cli.common import file_errors
from take6.display.progress import add_progress_option, progress_line
from take6.text import excerpt, plural

_DEALS_EXAMPLES = """examples:
  take6 study deals --hand-size 4 --deals 500 --seed 1 --store study.sqlite
  take6 study deals --hand-size 3 4 5 --deals 200 --store study.sqlite --study by-k --workers 4
  take6 study deals --hand-size 5 --deals 1000 --store big.sqlite \\
      --executor dask --scheduler tcp://10.0.0.5:8786
  take6 study deals --hand-size 6 --deals 50 --draft safe,random --store study.sqlite \\
      --study safe-vs-random
  take6 study deals --hand-size 10 --deals 10 --store k10.sqlite --cells k10-cells \\
      --workers 1 --threads 2 --memory 12G
A run that is stopped (Ctrl-C, kill -9, a crash) continues where it stopped when started
again with the same settings."""

_DRAFTS_EXAMPLES = """examples:
  take6 study drafts --hand-size 1 2 3 --store study.sqlite
  take6 study drafts --hand-size 2 3 --players 3 --first-picker 1 --store study.sqlite \\
      --study drafts-3p
  take6 study drafts --hand-size 8 --by-first-pick --pick-values bounds --threads 2 \\
      --store draft8.sqlite --proofs draft8-proofs"""

_EXPORT_EXAMPLES = """examples:
  take6 study export --store study.sqlite --csv results.csv
  take6 study export --store study.sqlite --study deals --parquet deals.parquet
  take6 study export --store study.sqlite --dataset logik-solved"""

if TYPE_CHECKING:
    from solver.cells import CellsReport
    from solver.study.run import RunReport
    from solver.study.spec import Study
    from solver.study.summary import DraftSummary


def register(subparsers: Any) -> None:
    """Add the ``study`` subcommand with ``deals``, ``drafts``, ``status`` and ``export``."""
    p = subparsers.add_parser(
        "study",
        help="batch studies of Logik deals and drafts into a SQLite store",
        description=(
            "Solve many Logik deals or drafts exactly and keep one row per item in a SQLite "
            "store (resumable: a stopped run continues where it stopped). See docs/studies.md."
        ),
    )
    sub = p.add_subparsers(dest="study_command", metavar="STUDY_COMMAND")
    sub.required = True

    d = sub.add_parser(
        "deals",
        help="solve the play of random Logik deals",
        description=(
            "Solve the play phase of random Logik deals: for each hand size K, deals 0..N-1, "
            "each the deck 1..players*K+4 shuffled by a generator seeded from (seed, players, "
            "K, deal index), hands of K, 4 single-card rows."
        ),
        epilog=_DEALS_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    d.add_argument(
        "--hand-size", type=int, nargs="+", required=True, metavar="K", help="hand sizes"
    )
    d.add_argument("--deals", type=int, required=True, metavar="N", help="deals per hand size")
    d.add_argument("--seed", type=int, default=0, help="the study's seed (default 0)")
    d.add_argument("--node-limit", type=int, metavar="N", help="stop a search after N nodes")
    d.add_argument(
        "--draft",
        metavar="BOT[,BOT...]",
        help="draw each deal by a draft of bots (random, cheapest or safe; one for every seat, "
        "or one a seat in seat order) from the face-up deck instead of a shuffle",
    )
    d.add_argument(
        "--first-picker",
        type=int,
        metavar="SEAT",
        help="with --draft: the seat that picks first (1-based, default 1)",
    )
    d.add_argument(
        "--cells",
        metavar="DIR",
        help="solve each deal by cells, its proofs kept in DIR/<study>/k<K>-deal<I>.cells.jsonl "
        "as they are found: a deal stopped part-way (Ctrl-C, kill, a lost machine) goes on "
        "from its file in the next run (for deals of hours, such as k = 10)",
    )
    d.add_argument(
        "--threads",
        type=int,
        default=1,
        metavar="N",
        help="search threads of each item on the compiled core (default 1)",
    )
    _common(d)
    d.set_defaults(func=run_deals)

    r = sub.add_parser(
        "drafts",
        help="solve Logik drafts (draft and play) exactly",
        description=(
            "Solve the Logik draft followed by the play exactly, for each hand size and each "
            "first picker (default: every seat)."
        ),
        epilog=_DRAFTS_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    r.add_argument(
        "--hand-size", type=int, nargs="+", required=True, metavar="K", help="hand sizes"
    )
    r.add_argument(
        "--first-picker", type=int, nargs="+", default=[], metavar="SEAT", help="1-based seats"
    )
    r.add_argument(
        "--by-first-pick",
        action="store_true",
        help="one item per first pick (its exact value) rather than per draft: a large draft is "
        "then shared among the workers and resumes pick by pick; 'study status' shows the "
        "draft's value (the best pick) once every pick is in",
    )
    r.add_argument(
        "--pick-values",
        choices=["exact", "bounds"],
        default="exact",
        help="as take6 draft: every first pick exact (default), or the draft's value and its "
        "optimal first picks exactly and the other picks bounded (by first pick: each tested "
        "against 0)",
    )
    r.add_argument(
        "--proofs",
        metavar="DIR",
        help="keep each item's draft proofs in DIR/<study>/k<K>-first<F>[-pick<C>].proofs.jsonl "
        "as they are found: an item stopped part-way (Ctrl-C, kill, a lost machine) goes on "
        "from its file in the next run (for drafts of hours, such as k = 8)",
    )
    r.add_argument(
        "--threads",
        type=int,
        default=1,
        metavar="N",
        help="search threads of each item's drafted deals on the compiled core (default 1)",
    )
    _common(r)
    r.set_defaults(func=run_drafts)

    s = sub.add_parser(
        "status",
        help="list the studies in a store and their progress",
        description="List the studies in a store: kind, parameters, items done of items.",
        epilog="example:\n  take6 study status --store study.sqlite",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("--store", required=True, metavar="FILE")
    s.add_argument(
        "--cells",
        metavar="DIR",
        help="also the deals being solved by cells in DIR (as given to 'study deals --cells'): "
        "the bounds each one's file proves so far, read as it stands (a run may be writing it)",
    )
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=run_status)

    e = sub.add_parser(
        "export",
        help="export a store's results to Parquet, CSV, JSON lines or a dataset",
        description=(
            "Write the results (one row per item; the same typed columns in every format, "
            "see docs/studies.md) to Parquet, CSV and/or JSON lines, or a dataset directory "
            "with its data card (Parquet and datasets need pyarrow: pip install "
            "'take6[study]')."
        ),
        epilog=_EXPORT_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    e.add_argument("--store", required=True, metavar="FILE")
    e.add_argument("--study", metavar="NAME", help="only this study (default: all)")
    e.add_argument(
        "--parquet", metavar="OUT", help="write Parquet to OUT (typed; provenance in metadata)"
    )
    e.add_argument("--csv", metavar="OUT", help="write CSV to OUT (lists as JSON arrays)")
    e.add_argument("--jsonl", metavar="OUT", help="write JSON lines to OUT (one row a line)")
    e.add_argument(
        "--dataset",
        metavar="DIR",
        help="write a dataset to DIR: positions.parquet, positions.csv, metadata.json and "
        "its data card README.md",
    )
    e.add_argument(
        "--force",
        action="store_true",
        help="overwrite OUT if it exists (never the store itself)",
    )
    e.set_defaults(func=run_export)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", required=True, metavar="FILE", help="the SQLite store")
    p.add_argument("--study", metavar="NAME", help="the study's name in the store (default: kind)")
    p.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    p.add_argument(
        "--objective",
        choices=[o.value for o in Objective],
        help="default: diff for 2 players, paranoid for more",
    )
    p.add_argument("--player", type=int, default=1, help="whose view (1-based, default 1)")
    p.add_argument(
        "--executor",
        default="process",
        help=f"where to run: {' or '.join(EXECUTORS)} (default process)",
    )
    p.add_argument(
        "--workers", type=int, metavar="N", help="process executor: N processes (default: CPUs)"
    )
    p.add_argument("--scheduler", metavar="ADDRESS", help="dask executor: the scheduler address")
    p.add_argument(
        "--memory",
        metavar="SIZE",
        help="each worker's table budget on the compiled core, e.g. 2G (default: a quarter of "
        "the machine's memory, at most 4G; a worker holds one table at a time), and as much "
        "again for a draft item's own tables",
    )
    add_progress_option(
        p,
        "items done of items, items/s, time elapsed and left; with --cells, what each deal "
        "under way has proven so far",
    )
    p.add_argument("--json", action="store_true", help="print the run's report as JSON")


def run_deals(args: argparse.Namespace) -> int:
    from solver.study.spec import DealStudy

    study = DealStudy(
        hand_sizes=tuple(args.hand_size),
        deals=args.deals,
        seed=args.seed,
        players=args.players,
        objective=args.objective,
        player=args.player - 1,  # the command line counts from 1, the store from 0
        node_limit=args.node_limit,
        draft=tuple(args.draft.split(",")) if args.draft is not None else (),
        first_picker=_first_picker(args),
    )
    return _run(args, study, threads=args.threads, cells=args.cells)


def _first_picker(args: argparse.Namespace) -> int:
    from solver.study.spec import StudyError

    if args.first_picker is None:
        return 0
    if args.draft is None:
        raise StudyError("--first-picker needs --draft (the shuffled deals have no picks)")
    if not 1 <= args.first_picker <= args.players:
        raise StudyError(
            f"--first-picker must be a seat 1..{args.players}, got {args.first_picker}"
        )
    return int(args.first_picker) - 1


def run_drafts(args: argparse.Namespace) -> int:
    from solver.study.spec import DraftStudy

    study = DraftStudy(
        hand_sizes=tuple(args.hand_size),
        first_pickers=tuple(f - 1 for f in args.first_picker),
        players=args.players,
        objective=args.objective,
        player=args.player - 1,
        by_first_pick=args.by_first_pick,
        pick_values=args.pick_values,
    )
    return _run(args, study, threads=args.threads, proofs=args.proofs)


def _run(
    args: argparse.Namespace,
    study: Study,
    *,
    threads: int = 1,
    cells: str | None = None,
    proofs: str | None = None,
) -> int:
    from solver.study.run import (
        cells_folder,
        check_executor,
        make_executor,
        prepare,
        proofs_folder,
        run_study,
    )
    from solver.study.spec import StudyError
    from solver.study.store import Store

    check_executor(args.executor, args.workers, args.scheduler)
    if threads < 1:
        raise StudyError(f"--threads must be at least 1, got {threads}")
    if cells is not None and not cells.strip():
        raise StudyError("--cells needs a folder name, got an empty one")
    if proofs is not None and not proofs.strip():
        raise StudyError("--proofs needs a folder name, got an empty one")
    memory = None
    if args.memory is not None:
        from solver.native import check_memory, parse_memory

        memory = parse_memory(args.memory)
        check_memory(memory)
    name = prepare(args.store, study, args.study)
    if cells is not None:
        cells_folder(cells, study, name)  # refused before any work
    if proofs is not None:
        proofs_folder(proofs, study, name)
    with Store(args.store, create=False) as db:
        left = study.items() - len(db.done_items(name))
    line = progress_line(args.progress)
    label = f"{study.kind} {name}"
    started = time.monotonic()
    first: list[int] = []
    counts = [0, study.items()]
    where = [""]

    def progress(done: int, total: int) -> None:
        assert line is not None
        if done != counts[0]:
            where[0] = ""  # (an item is done: the status it told of is out of date)
        counts[:] = [done, total]
        secs = time.monotonic() - started
        if not first:  # the items already done when the run started
            first.append(done)
        now = done - first[0]
        rate = f"{now / secs:.2f} items/s" if secs > 0 and now else "-- items/s"
        line.count_up(label, done, total, secs, rate + where[0])

    def item_status(text: str) -> None:  # (items in this process: where the one under way is)
        where[0] = f"  {text}"
        assert line is not None
        line.count_up(label, counts[0], counts[1], time.monotonic() - started, where[0].strip())

    try:
        with make_executor(args.executor, args.workers, args.scheduler, items=left) as (
            executor,
            window,
        ):
            report = run_study(
                args.store,
                study,
                name=name,
                executor=executor,
                window=window,
                progress=progress if line is not None else None,
                memory=memory,
                threads=threads,
                cells=cells,
                item_status=item_status if line is not None else None,
                proofs=proofs,
            )
    finally:
        if line is not None:
            line.close()
    _print_report(args, report)
    return 0


def _print_report(args: argparse.Namespace, r: RunReport) -> None:
    if args.json:
        print(
            json.dumps(
                {
                    "store": args.store,
                    "study": r.study,
                    "items": r.items,
                    "skipped": r.skipped,
                    "solved": r.solved,
                    "seconds": round(r.seconds, 3),
                    "items_per_second": round(r.rate, 3),
                }
            )
        )
        return
    print(
        f"study {r.study!r} in {args.store}: {plural(r.items, 'item')}, {r.skipped} already "
        f"done, {r.solved} solved now in {r.seconds:.2f} s ({r.rate:.2f} items/s)"
    )


def run_status(args: argparse.Namespace) -> int:
    from solver.study.store import Store
    from solver.study.summary import draft_summaries

    with Store(args.store, create=False) as db:
        infos = db.studies()
        drafts: dict[str, list[DraftSummary]] = {
            i.study: draft_summaries(db.rows(i.study), i.params)
            for i in infos
            if i.kind == "drafts" and i.params.get("by_first_pick")
        }
    going: dict[str, list[tuple[str, CellsReport]]] = {}
    if args.cells is not None:
        from solver.study.run import cells_in_progress

        for study, item, report in cells_in_progress(args.store, args.cells):
            going.setdefault(study, []).append((item, report))
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "study": i.study,
                        "kind": i.kind,
                        "params": i.params,
                        "items": i.items,
                        "done": i.done,
                        "created": i.created,
                    }
                    | (
                        {"drafts": [_summary_json(d) for d in drafts[i.study]]}
                        if i.study in drafts
                        else {}
                    )
                    | (
                        {"in_progress": [_cells_json(item, r) for item, r in going[i.study]]}
                        if i.study in going
                        else {}
                    )
                    for i in infos
                ]
            )
        )
        return 0
    if not infos:
        print(f"{args.store}: no studies")
    for i in infos:
        params = " ".join(f"{k}={v}" for k, v in sorted(i.params.items()))
        print(f"{i.study} ({i.kind}): {i.done}/{i.items} done; {params}")
        for d in drafts.get(i.study, []):
            print(f"  {d.text()}")
        for item, r in going.get(i.study, []):
            print(f"  {item}, in progress by cells: {r.text()}")
    return 0


def _cells_json(item: str, r: CellsReport) -> dict[str, Any]:
    from solver.api import fraction_text

    return {
        "item": item,
        "file": r.path,
        "solved": r.solved,
        "value": None if r.value is None else fraction_text(r.value),
        "lower": fraction_text(r.lower),
        "upper": fraction_text(r.upper),
        "lower_float": float(r.lower),
        "upper_float": float(r.upper),
        "cells_exact": r.cells_exact,
        "cells": r.cells,
        "leaves_proven": r.leaves_proven,
        "leaves": r.leaves,
        "restricted_game": list(r.restricted),
        "lines": r.lines,
    }


def _summary_json(d: DraftSummary) -> dict[str, Any]:
    def q(v: Fraction | None) -> str | None:
        return None if v is None else str(v)

    return {
        "hand_size": d.hand_size,
        "first_picker": d.first_picker,
        "picks_done": d.picks_done,
        "picks": d.picks,
        "lower": q(d.lower),
        "upper": q(d.upper),
        "value": q(d.value),
        "best_picks": list(d.best),
    }


def run_export(args: argparse.Namespace) -> int:
    from solver.study.export import (
        check_export_target,
        export_csv,
        export_jsonl,
        export_parquet,
    )
    from solver.study.spec import StudyError

    outs = {"--parquet": args.parquet, "--csv": args.csv, "--jsonl": args.jsonl}
    given = {flag: out for flag, out in outs.items() if out is not None}
    if args.dataset is not None:
        if given:
            raise StudyError(f"--dataset writes its own files; give it without {', '.join(given)}")
        return _export_dataset(args)
    if not given:
        raise StudyError("give --parquet OUT, --csv OUT, --jsonl OUT and/or --dataset DIR")
    for flag, out in given.items():  # every target checked before anything is written
        if not out.strip():
            raise StudyError(f"{flag} needs a file name, got an empty one")
        check_export_target(args.store, out, force=args.force)
    seen: dict[Path, str] = {}
    for flag, out in given.items():
        other = seen.setdefault(Path(out).resolve(), flag)
        if other != flag:
            raise StudyError(f"{other} and {flag} name the same file {excerpt(out)}")
    writers = {"--parquet": export_parquet, "--csv": export_csv, "--jsonl": export_jsonl}
    for flag, out in given.items():
        with file_errors("the export", out):
            n = writers[flag](args.store, out, args.study, force=args.force)
        print(f"{plural(n, 'row')} written to {out}", file=sys.stderr)
    return 0


def _export_dataset(args: argparse.Namespace) -> int:
    from solver.study.dataset import write_dataset
    from solver.study.spec import StudyError

    if not args.dataset.strip():
        raise StudyError("--dataset needs a directory name, got an empty one")
    with file_errors("the dataset", args.dataset):
        report = write_dataset(args.store, args.dataset, args.study, force=args.force)
    names = ", ".join(p.name for p in report.files)
    print(f"{plural(report.rows, 'row')} written to {args.dataset} ({names})", file=sys.stderr)
    return 0
