"""``take6 solve`` and ``take6 check-certificate`` (registered through the ``take6.commands``
entry point; the dispatcher in :mod:`take6.cli.main` turns a ``Take6Error`` into a one-line error
and
exit status 2)."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.table import Table

from solver.cli.botgap import add_against_option, run_against
from solver.errors import SolverError
from solver.problem import CHECKPOINT_EVERY, CORES, Objective, default_objective
from take6.cli.common import add_rules_option, file_errors, read_file
from take6.display.progress import ProgressLine as StatusLine
from take6.display.progress import add_progress_option, wanted
from take6.display.progress import clock as _clock
from take6.display.progress import count as _count
from take6.display.terminal import console as make_console
from take6.io.rulesfile import read_rules_file
from take6.notation import load_position
from take6.position import Position
from take6.text import plural

if TYPE_CHECKING:
    from solver.api import Result, Turn
    from solver.search import SearchLike


def register(subparsers: Any) -> None:
    """Add the ``solve`` and ``check-certificate`` subcommands."""
    p = subparsers.add_parser(
        "solve",
        help="solve a position with known hands exactly",
        description=(
            "Solve a position with known hands exactly (exact rational value, optimal mixed "
            "strategies). POSITION is the compact notation (e.g. 'logik 3/17,20/58/96 4,90|2,93'),"
            " a JSON string, or a JSON file."
        ),
    )
    p.add_argument("position", nargs="+", metavar="POSITION")
    p.add_argument(
        "--objective",
        choices=[o.value for o in Objective],
        default=None,
        help="diff (2 players): heads of the other minus own heads; paranoid: own heads "
        "against a coalition of all the others (default: diff for 2 players, paranoid for more, "
        "as in draft and study)",
    )
    add_rules_option(p)
    p.add_argument("--player", type=int, default=1, help="the player whose view (1-based)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--certificate", metavar="FILE", help="write a certificate to FILE")
    p.add_argument(
        "--graphml",
        metavar="FILE",
        help="write the solved position graph (optimal supports, values and strategies) to "
        "FILE as GraphML (schema: docs/graph.md)",
    )
    p.add_argument(
        "--graph-all",
        action="store_true",
        help="with --graphml: follow every joint card choice, not only the optimal supports",
    )
    p.add_argument(
        "--graph-max-nodes",
        type=int,
        default=20_000,
        metavar="N",
        help="with --graphml: refuse a graph of more than N positions (default 20000)",
    )
    p.add_argument(
        "--time-limit", type=float, metavar="S", help="stop after S seconds (report bounds)"
    )
    p.add_argument("--node-limit", type=int, metavar="N", help="stop after N nodes (report bounds)")
    p.add_argument(
        "--table-cap",
        type=int,
        default=2_000_000,
        help="the Python search's table capacity in positions (default 2000000, roughly 1 GB)",
    )
    p.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="the compiled core's table saved to FILE every --checkpoint-every seconds and when "
        "the search ends or stops (a limit, Ctrl-C, SIGTERM), and read back first when FILE "
        "exists: a long solve goes on where the last run stopped",
    )
    p.add_argument(
        "--checkpoint-every",
        type=float,
        metavar="S",
        default=CHECKPOINT_EVERY,
        help=f"seconds between checkpoints during the search (default {CHECKPOINT_EVERY:.0f})",
    )
    p.add_argument(
        "--checkpoint-depth",
        type=int,
        metavar="N",
        default=None,
        help="write only the entries of positions of at least N cards a hand (default: every "
        "entry): a far smaller file that keeps part of the work, to carry a long solve to "
        "another machine",
    )
    p.add_argument(
        "--cells",
        metavar="FILE",
        help="solve the root cell by cell of its first turn (a double oracle), every bound a "
        "leaf search proves appended to FILE at once and read back first when FILE exists: a "
        "solve of hours stopped by a limit, Ctrl-C, kill or a lost machine loses only the leaf "
        "search under way (a few kB a leaf; docs/solver.md); with --against, the game value's",
    )
    add_core_options(p)
    add_against_option(p)
    p.set_defaults(func=run_solve)
    c = subparsers.add_parser(
        "check-certificate",
        help="re-verify a solver certificate independently",
        description="Check a certificate written by 'take6 solve --certificate' with "
        "independent code and exact arithmetic. Exit 0 if it proves its value, 1 if not.",
    )
    c.add_argument("file", metavar="FILE")
    c.add_argument("--json", action="store_true", help="print JSON")
    add_progress_option(c, "nodes of the file proven, elapsed")
    c.set_defaults(func=run_check)


def add_core_options(p: argparse.ArgumentParser) -> None:
    """``--core``, ``--memory``, ``--threads`` and ``--progress`` (shared by the solving
    commands)."""
    p.add_argument(
        "--core",
        choices=list(CORES),
        default="auto",
        help="the search: the compiled core when it was built (auto, the default), native, or "
        "python (the readable reference, slower); both give equal values (with --against, the "
        "best reply's search too)",
    )
    p.add_argument(
        "--memory",
        metavar="SIZE",
        help="the compiled core's transposition table budget, e.g. 512M or 12G (default: a "
        "quarter of the machine's memory, at most 4G; pages are used only as it fills)",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=None,
        metavar="N",
        help="threads of the compiled core, sharing one table (default: every core for hands "
        f"of {AUTO_THREADS_FROM}+ cards, else 1; 2 threads solve a 2 x 8 deal 1.6-1.9 times "
        "faster, see bench/solve.py --threads)",
    )
    add_progress_option(p, "nodes, nodes/s, table fill, proven root bounds, elapsed")


AUTO_THREADS_FROM = 7
"""Hands of at least this many cards are searched with every core by default (smaller ones
finish in a fraction of a second, where starting threads costs more than it saves)."""


def auto_threads(position: Position) -> int:
    """The default number of search threads for a position."""
    if not position.hands or len(position.hands[0]) < AUTO_THREADS_FROM:
        return 1
    return max(1, min(os.cpu_count() or 1, 64))


def core_settings(args: argparse.Namespace, position: Position) -> dict[str, Any]:
    """The keyword arguments of :func:`solver.api.solve` from the core options, checked."""
    from solver.native import check_memory, parse_memory

    memory = None
    if args.memory is not None:
        memory = parse_memory(args.memory)
        check_memory(memory)
    if args.threads is not None and not 1 <= args.threads <= 64:
        raise SolverError(f"--threads must be 1..64, got {args.threads}")
    show = wanted(args.progress)
    return {
        "core": args.core,
        "memory": memory,
        "threads": args.threads or auto_threads(position),
        "progress": ProgressLine() if show else None,
    }


class ProgressLine(StatusLine):
    """The search's progress line (:class:`take6.display.progress.ProgressLine`: rewritten in
    place on a terminal, a line every 10 s with ``--progress`` into a file or pipe)."""

    _where: str | None = None

    def where(self, text: str | None) -> None:
        """Where the root's stage game is (the compiled core tells it: ``root rows 3/10``)."""
        self._where = text

    def __call__(
        self, nodes: int, filled: int, cap: int, secs: float, lo: Fraction, hi: Fraction
    ) -> None:
        rate = nodes / secs if secs > 0 else 0.0
        fill = f"{100 * filled / cap:.0f}% of {_count(cap)}" if cap else "-"
        where = f"  {self._where}" if self._where else ""
        self.show(
            secs,
            f"nodes {_count(nodes)}  {_count(int(rate))}/s  table {fill}  "
            f"value in [{_short(lo)}, {_short(hi)}]{where}  {_clock(secs)}",
        )


def _short(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{float(v):.4f}"


def check_limits(args: argparse.Namespace) -> None:
    """``--time-limit`` finite and positive, ``--node-limit`` at least 1."""
    if args.time_limit is not None and not (math.isfinite(args.time_limit) and args.time_limit > 0):
        raise SolverError(
            f"--time-limit must be a positive number of seconds, got {args.time_limit}"
        )
    if args.node_limit is not None and args.node_limit < 1:
        raise SolverError(f"--node-limit must be at least 1, got {args.node_limit}")


def read_position(words: list[str], rules_file: str | None = None) -> Position:
    """A position from the command line: compact notation, JSON text or a JSON file; under the
    rules of the TOML rules file ``rules_file`` when given (its deck, heads, rows, ...; the
    players and hand size are the position's)."""
    found = read_rules_file(rules_file) if rules_file is not None else None
    text = " ".join(words)
    path = Path(text)
    data: str | bytes = text
    if not text.lstrip().startswith("{") and len(words) == 1:
        if path.is_file():
            data = read_file(text, "the position file")
        elif text.endswith(".json"):
            raise SolverError(f"no such position file: {text!r}")
    try:
        position = load_position(data, found.rules if found is not None else None)
    except ValueError as exc:
        raise SolverError(str(exc)) from None
    if found is not None:
        found.check_players(position.players, "the position")
    return position


@contextlib.contextmanager
def stop_on_terminate() -> Iterator[list[int]]:
    """While the block runs, SIGTERM (``kill``, a batch system stopping a job) ends the search as
    Ctrl-C does: the proven bounds are kept and printed. (A job started in the background by a
    shell ignores Ctrl-C's SIGINT; SIGTERM still reaches it.) Yields the signals received."""
    got: list[int] = []

    def handler(signum: int, frame: object) -> None:
        got.append(signum)
        raise KeyboardInterrupt

    try:
        old = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave the signal alone
        yield got
        return
    try:
        yield got
    finally:
        signal.signal(signal.SIGTERM, old)


def run_solve(args: argparse.Namespace) -> int:
    from solver.api import solve

    if args.against is not None:
        return run_against(args)
    position = read_position(args.position, args.rules)
    check_limits(args)
    if (args.graph_all or args.graph_max_nodes != 20_000) and not args.graphml:
        raise SolverError("--graph-all and --graph-max-nodes go with --graphml FILE")
    if args.graph_max_nodes < 1:
        raise SolverError(f"--graph-max-nodes must be at least 1, got {args.graph_max_nodes}")
    for flag, name in (
        ("--certificate", args.certificate),
        ("--graphml", args.graphml),
        ("--checkpoint", args.checkpoint),
        ("--cells", args.cells),
    ):
        if name is not None and not name.strip():
            raise SolverError(f"{flag} needs a file name, got an empty one")
    if args.checkpoint is not None:
        check_checkpoint(args.checkpoint, args.checkpoint_every)
    elif args.checkpoint_every != CHECKPOINT_EVERY:
        raise SolverError("--checkpoint-every goes with --checkpoint FILE")
    if args.checkpoint_depth is not None:
        if args.checkpoint is None:
            raise SolverError("--checkpoint-depth goes with --checkpoint FILE")
        if args.checkpoint_depth < 2:
            raise SolverError(
                f"--checkpoint-depth must be at least 2 cards a hand, got {args.checkpoint_depth}"
            )
    objective = Objective(args.objective) if args.objective else default_objective(position.players)
    if args.cells is not None:
        return run_cells(args, position, objective)
    settings = core_settings(args, position)
    progress = settings["progress"]
    if progress is not None and args.checkpoint is not None and os.path.isfile(args.checkpoint):
        size = os.path.getsize(args.checkpoint) / 2**20
        # (a checkpoint of gigabytes takes seconds to check and read: the progress line says
        # what is going on meanwhile)
        print(
            f"take6: resuming from checkpoint {args.checkpoint} ({size:.1f} MiB)", file=sys.stderr
        )
    started = time.monotonic()
    try:
        with stop_on_terminate() as terminated:
            result, search = solve(
                position,
                objective,
                args.player - 1,
                time_limit=args.time_limit,
                node_limit=args.node_limit,
                table_cap=args.table_cap,
                checkpoint=args.checkpoint,
                checkpoint_every=args.checkpoint_every,
                checkpoint_depth=args.checkpoint_depth,
                **settings,
            )
    finally:
        if progress is not None:
            progress.close()
    cert_nodes = None
    graph_size = None
    refused: list[str] = []
    stopped_certificate = False  # Ctrl-C or SIGTERM while the certificate was built
    if not result.solved:
        why = "interrupted" if result.interrupted else "not solved within the limits"
        for flag, what in ((args.certificate, "certificate"), (args.graphml, "graph")):
            if flag:
                refused.append(f"no {what}: the position was {why} ({position})")
    else:
        if args.certificate:
            deadline = None if args.time_limit is None else started + args.time_limit
            why_not = _write_certificate(
                search, args.certificate, deadline, wanted(args.progress), started
            )
            if isinstance(why_not, int):
                cert_nodes = why_not
            else:
                refused.append(why_not)
                stopped_certificate = "interrupted" in why_not
        if args.graphml:
            from solver.graph import graph_from_search, write_graphml  # networkx when asked

            try:
                graph = graph_from_search(
                    search, support_only=not args.graph_all, max_nodes=args.graph_max_nodes
                )
            except SolverError as exc:  # too large: the value is printed all the same
                refused.append(f"no graph: {exc} (--graph-max-nodes)")
            else:
                with file_errors("the graph", args.graphml):
                    write_graphml(graph, args.graphml)
                graph_size = (graph.number_of_nodes(), graph.number_of_edges())
    # The result (the bounds, when not solved) is printed in every case: work is never lost.
    if args.json:
        data = result.to_json()
        if cert_nodes is not None:
            data["certificate"] = {"file": args.certificate, "nodes": cert_nodes}
        if graph_size is not None:
            data["graphml"] = {"file": args.graphml, "nodes": graph_size[0], "edges": graph_size[1]}
        if args.checkpoint is not None:
            data["checkpoint"] = checkpoint_json(args.checkpoint, result)
        print(json.dumps(data))
    else:
        _print_result(result, args.certificate if cert_nodes is not None else None, cert_nodes)
        if args.checkpoint is not None:
            make_console(highlight=False).print(checkpoint_text(args.checkpoint, result))
        if graph_size is not None:
            make_console(highlight=False).print(
                f"graph written to {args.graphml} ({graph_size[0]} nodes, {graph_size[1]} edges)"
            )
    if refused:
        print(f"take6: error: {'; '.join(refused)}", file=sys.stderr)
        return 130 if stopped_certificate else 2
    if not result.interrupted:
        return 0
    return 128 + signal.SIGTERM if terminated else 130


class _OutOfTime(Exception):
    """The time limit ran out while a certificate was being built."""


def _write_certificate(
    search: SearchLike, path: str, deadline: float | None, show: bool, started: float
) -> int | str:
    """Write the certificate of a solved search: its number of nodes, or why there is none (the
    time limit ran out while it was built, or Ctrl-C or SIGTERM came: the solve's result is
    printed all the same). A progress line counts the nodes claimed so far."""
    from solver.verify.certificate import write_certificate

    line = StatusLine() if show else None
    claimed = [0]

    def tick(n: int) -> None:
        claimed[0] = n
        now = time.monotonic()
        if deadline is not None and now > deadline:
            raise _OutOfTime
        if line is not None:
            line.show(now - started, f"writing the certificate: {_count(n)} nodes so far")

    try:
        with stop_on_terminate(), file_errors("the certificate", path):
            return write_certificate(search, path, tick=tick)
    except _OutOfTime:
        return (
            f"no certificate: the time limit ran out while it was built ({_count(claimed[0])} "
            f"nodes so far; {path} not written)"
        )
    except KeyboardInterrupt:
        return f"no certificate: interrupted while it was built ({path} not written)"
    finally:
        if line is not None:
            line.close()


def check_cells_file(path: str) -> None:
    """A ``--cells FILE`` that can be made or read: not a folder, in a folder that exists."""
    if not path.strip():
        raise SolverError("--cells needs a file name, got an empty one")
    if os.path.isdir(path):
        raise SolverError(f"--cells {path}: a folder, not a file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise SolverError(f"--cells {path}: no folder {folder}")


def run_cells(args: argparse.Namespace, position: Position, objective: Objective) -> int:
    """``take6 solve POS --cells FILE``: the double oracle of :mod:`solver.cells`."""
    from solver.cells import solve_by_cells

    for flag, given in (
        ("--certificate", args.certificate),
        ("--graphml", args.graphml),
        ("--checkpoint", args.checkpoint),
    ):
        if given is not None:
            raise SolverError(
                f"--cells and {flag} do not go together (the cells file is the run's checkpoint;"
                " a solve by cells keeps no tree to certify or draw)"
            )
    check_cells_file(args.cells)
    settings = core_settings(args, position)
    progress = CellsProgress() if settings["progress"] is not None else None
    settings["progress"] = progress
    try:
        with stop_on_terminate() as terminated:
            result, run = solve_by_cells(
                position,
                args.cells,
                objective,
                args.player - 1,
                time_limit=args.time_limit,
                node_limit=args.node_limit,
                table_cap=args.table_cap,
                status=progress.status if progress is not None else None,
                **settings,
            )
    finally:
        if progress is not None:
            progress.close()
    exact, total = run.counts()
    cells = {
        "file": args.cells,
        "leaves": run.stats.leaves,
        "leaves_proven": len(run.file.bounds),
        "lines_read": run.file.read_lines,
        "lines_written": run.file.written,
        "cells": total,
        "cells_exact": exact,
        "leaf_searches": run.stats.searches,
        "restricted_game": [len(run.restricted[0]), len(run.restricted[1])],
    }
    if args.json:
        data = result.to_json()
        data["cells"] = cells
        print(json.dumps(data))
    else:
        _print_result(result, None, None)
        make_console(highlight=False).print(
            f"cells {args.cells}: {exact}/{total} cells exact, "
            f"{cells['leaves_proven']}/{cells['leaves']} leaves with proven bounds, "
            f"{plural(cells['lines_read'], 'line')} read, {cells['lines_written']} written, "
            f"{plural(cells['leaf_searches'], 'leaf search', 'leaf searches')}, restricted game "
            f"{cells['restricted_game'][0]} x {cells['restricted_game'][1]}"
        )
    if not result.interrupted:
        return 0
    return 128 + signal.SIGTERM if terminated else 130


class CellsProgress(ProgressLine):
    """The progress line of a solve by cells: where the double oracle is, then the leaf search
    under way (its nodes, rate, table and bounds in the leaf's own terms). The clock is the
    run's: each leaf search counts its seconds from its own start."""

    _cells = ""
    _t0: float | None = None

    def _secs(self) -> float:
        if self._t0 is None:
            self._t0 = time.perf_counter()
        return time.perf_counter() - self._t0

    def status(self, secs: float, text: str) -> None:
        self._cells = text
        self.show(self._secs(), f"{text}  {_clock(self._secs())}")

    def __call__(
        self, nodes: int, filled: int, cap: int, secs: float, lo: Fraction, hi: Fraction
    ) -> None:
        now = self._secs()
        rate = nodes / now if now > 0 else 0.0  # (the core counts the run's nodes)
        fill = f"{100 * filled / cap:.0f}% of {_count(cap)}" if cap else "-"
        self.show(
            now,
            f"{self._cells}  |  nodes {_count(nodes)}  {_count(int(rate))}/s  table {fill}"
            f"  leaf value in [{_short(lo)}, {_short(hi)}]  {_clock(now)}",
        )


def check_checkpoint(path: str, every: float) -> None:
    """Refuse, before a long search, a checkpoint that could not be written at its end."""
    if not every > 0:
        raise SolverError(f"--checkpoint-every must be a positive number of seconds, got {every}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise SolverError(f"--checkpoint {path}: no folder {folder}")
    if os.path.isdir(path):
        raise SolverError(f"--checkpoint {path}: a folder, not a file")
    if not os.access(folder, os.W_OK):
        raise SolverError(f"--checkpoint {path}: the folder {folder} is not writable")


def checkpoint_json(path: str, r: Result) -> dict[str, Any]:
    """The checkpoint's file and what was read from it and written to it (JSON)."""
    read, saved = r.checkpoint_read, r.checkpoint_saved
    return {
        "file": path,
        "read": None if read is None else {"entries": read[0], "long_values": read[1]},
        "saved": None if saved is None else {"entries": saved[0], "long_values": saved[1]},
        "bytes": os.path.getsize(path) if os.path.exists(path) else 0,
    }


def checkpoint_text(path: str, r: Result) -> str:
    """One line: the checkpoint read (if any) and written."""
    read, saved = r.checkpoint_read, r.checkpoint_saved
    parts = []
    if read is not None:
        parts.append(f"resumed from {plural(read[0], 'entry', 'entries')}")
    if saved is not None:
        size = os.path.getsize(path) / 2**20 if os.path.exists(path) else 0.0
        parts.append(f"saved {plural(saved[0], 'entry', 'entries')} ({size:.1f} MiB)")
    return f"checkpoint {path}: " + ", ".join(parts)


def line_table(turns: Sequence[Turn], title: str, heads_header: str) -> Table:
    """A line of play as a table: turn, cards by player, row choices, heads taken."""
    table = Table(title=title, title_justify="left")
    table.add_column("turn", justify="right")
    table.add_column("cards (by player)")
    table.add_column("row choices")
    table.add_column(heads_header)
    for i, t in enumerate(turns):
        table.add_row(
            str(i + 1),
            " ".join(str(c) for c in t.cards),
            ", ".join(f"player {p + 1}: row {row + 1}" for p, row in t.choices) or "-",
            " ".join(str(h) for h in t.heads),
        )
    return table


def _print_result(r: Result, cert: str | None, cert_nodes: int | None) -> None:
    console = make_console(highlight=False)
    pr = r.problem
    console.print(f"[bold]position[/] {pr.position}")
    if pr.objective.value == "diff":
        meaning = f"heads of player {pr.min_side[0] + 1} minus heads of player {pr.player + 1}"
    else:
        others = ", ".join(str(p + 1) for p in pr.max_side)
        meaning = f"heads of player {pr.player + 1} against the coalition of {others}"
    console.print(f"[bold]objective[/] {pr.objective.value}: {meaning}")
    if r.solved and r.value is not None:
        console.print(f"[bold]value[/] {value_text(r.value)}  (≈ {float(r.value):.6f})")
        table = Table(title="optimal strategies at the root", title_justify="left")
        table.add_column("player", justify="right")
        table.add_column("card: probability")
        for p, dist in sorted(r.strategies.items()):
            table.add_row(
                str(p + 1),
                "  ".join(f"{c}: {cell_text(q)}" for c, q in sorted(dist.items()) if q),
            )
        console.print(table)
        if r.line:
            console.print(line_table(r.line, "principal line", "heads taken"))
    else:
        why = "interrupted" if r.interrupted else "within the limits"
        console.print(
            f"[bold yellow]not solved[/] ({why}): "
            f"{value_text(r.lower)} <= value <= {value_text(r.upper)}"
            f"  (≈ {float(r.lower):.6f} .. {float(r.upper):.6f})"
        )
    console.print(
        f"core {r.core}, {plural(r.nodes, 'node')}, {plural(r.lps, 'LP')}, "
        f"table {plural(r.table_size, 'entry', 'entries')}, "
        f"{r.seconds:.3f} s, peak memory {r.peak_rss / 2**20:.0f} MiB",
        style="dim",
    )
    if r.core_note:
        console.print(f"(the Python search ran, slower: {r.core_note})", style="dim")
    if cert is not None:
        console.print(f"certificate written to {cert} ({plural(cert_nodes or 0, 'node')})")


MAX_VALUE_TEXT = 120
"""A value's exact fraction longer than this is shown by its size in human output (``--json``
always carries it whole): exact values of real-size deals have denominators of thousands of
digits."""


def value_text(v: Fraction) -> str:
    """The exact fraction, or for a very long one its leading digits and its size."""
    from solver.api import fraction_text, int_text

    text = fraction_text(v)
    if len(text) <= MAX_VALUE_TEXT:
        return text
    num, den = int_text(abs(v.numerator)), int_text(v.denominator)
    sign = "-" if v < 0 else ""
    return (
        f"{sign}{num[:12]}…/{den[:12]}… (an exact fraction of {len(num)}/{len(den)} digits; "
        "--json prints it whole)"
    )


def cell_text(v: Fraction) -> str:
    """A probability in a table cell: exact when short, else its decimal value."""
    from solver.api import fraction_text

    text = fraction_text(v)
    return text if len(text) <= 24 else f"≈{float(v):.6f}"


def run_check(args: argparse.Namespace) -> int:
    from solver.api import fraction_text
    from solver.verify.check import CertificateError, check_certificate

    path = Path(args.file)
    if not path.is_file():
        raise SolverError(f"no certificate file {args.file!r}")
    line = StatusLine() if wanted(args.progress) else None
    started = time.monotonic()

    def progress(proven: int, nodes: int) -> None:
        assert line is not None
        line.count_up("check-certificate", proven, nodes, time.monotonic() - started, "nodes")

    try:
        report = check_certificate(path, progress if line is not None else None)
    except CertificateError as exc:
        if args.json:
            print(json.dumps({"ok": False, "error": str(exc)}))
        print(f"take6: certificate check failed: {exc}", file=sys.stderr)
        return 1
    except SolverError:
        raise
    finally:
        if line is not None:
            line.close()
    if args.json:
        print(
            json.dumps(
                {
                    "ok": True,
                    "value": fraction_text(report.value),
                    "nodes": report.nodes,
                    "cells": report.cells,
                }
            )
        )
    else:
        make_console(highlight=False).print(
            f"certificate OK: value {fraction_text(report.value)} proven "
            f"({report.nodes} nodes, {report.cells} cells checked)"
        )
    return 0
