"""``take6 solve`` and ``take6 check-certificate`` (registered through the ``take6.commands``
entry point; the dispatcher in :mod:`take6.cli` turns a ``ValueError`` into a one-line error and
exit status 2)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from solver.api import Result, Turn, fraction_text, solve
from solver.certificate import write_certificate
from solver.check import CertificateError, check_certificate
from solver.errors import SolverError
from take6.notation import Position, load_position


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
        choices=["diff", "paranoid"],
        default="diff",
        help="diff (2 players): heads of the other minus own heads; paranoid: own heads "
        "against a coalition of all the others (default diff)",
    )
    p.add_argument("--player", type=int, default=1, help="the player whose view (1-based)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--certificate", metavar="FILE", help="write a certificate to FILE")
    p.add_argument(
        "--graphml",
        metavar="FILE",
        help="write the solved position graph (optimal supports, values and strategies) to "
        "FILE as GraphML",
    )
    p.add_argument(
        "--time-limit", type=float, metavar="S", help="stop after S seconds (report bounds)"
    )
    p.add_argument("--node-limit", type=int, metavar="N", help="stop after N nodes (report bounds)")
    p.add_argument(
        "--table-cap",
        type=int,
        default=2_000_000,
        help="transposition table capacity in positions (default 2000000, roughly 1 GB)",
    )
    p.set_defaults(func=run_solve)
    c = subparsers.add_parser(
        "check-certificate",
        help="re-verify a solver certificate independently",
        description="Check a certificate written by 'take6 solve --certificate' with "
        "independent code and exact arithmetic. Exit 0 if it proves its value, 1 if not.",
    )
    c.add_argument("file", metavar="FILE")
    c.add_argument("--json", action="store_true", help="print JSON")
    c.set_defaults(func=run_check)


def read_position(words: list[str]) -> Position:
    """A position from the command line: compact notation, JSON text or a JSON file."""
    text = " ".join(words)
    path = Path(text)
    if not text.lstrip().startswith("{") and len(words) == 1:
        if path.is_file():
            text = path.read_text(encoding="utf-8")
        elif text.endswith(".json"):
            raise SolverError(f"no such position file: {text!r}")
    try:
        return load_position(text)
    except ValueError as exc:
        raise SolverError(str(exc)) from None


def run_solve(args: argparse.Namespace) -> int:
    position = read_position(args.position)
    if args.time_limit is not None and args.time_limit <= 0:
        raise SolverError(f"--time-limit must be positive, got {args.time_limit}")
    if args.node_limit is not None and args.node_limit < 1:
        raise SolverError(f"--node-limit must be at least 1, got {args.node_limit}")
    result, search = solve(
        position,
        args.objective,
        args.player - 1,
        time_limit=args.time_limit,
        node_limit=args.node_limit,
        table_cap=args.table_cap,
    )
    cert_nodes = None
    if args.certificate:
        if not result.solved:
            raise SolverError(
                f"no certificate: the position was not solved within the limits ({position})"
            )
        cert_nodes = write_certificate(search, args.certificate)
    graph_size = None
    if args.graphml:
        if not result.solved:
            raise SolverError(
                f"no graph: the position was not solved within the limits ({position})"
            )
        from solver.graph import graph_from_search, write_graphml  # networkx only when asked

        graph = graph_from_search(search)
        write_graphml(graph, args.graphml)
        graph_size = (graph.number_of_nodes(), graph.number_of_edges())
    if args.json:
        data = result.to_json()
        if cert_nodes is not None:
            data["certificate"] = {"file": args.certificate, "nodes": cert_nodes}
        if graph_size is not None:
            data["graphml"] = {"file": args.graphml, "nodes": graph_size[0], "edges": graph_size[1]}
        print(json.dumps(data))
    else:
        _print_result(result, args.certificate, cert_nodes)
        if graph_size is not None:
            Console(highlight=False).print(
                f"graph written to {args.graphml} ({graph_size[0]} nodes, {graph_size[1]} edges)"
            )
    return 0


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
    console = Console(highlight=False)
    pr = r.problem
    console.print(f"[bold]position[/] {pr.position}")
    if pr.objective.value == "diff":
        meaning = f"heads of player {pr.min_side[0] + 1} minus heads of player {pr.player + 1}"
    else:
        others = ", ".join(str(p + 1) for p in pr.max_side)
        meaning = f"heads of player {pr.player + 1} against the coalition of {others}"
    console.print(f"[bold]objective[/] {pr.objective.value}: {meaning}")
    if r.solved and r.value is not None:
        console.print(f"[bold]value[/] {fraction_text(r.value)}  (≈ {float(r.value):.6f})")
        table = Table(title="optimal strategies at the root", title_justify="left")
        table.add_column("player", justify="right")
        table.add_column("card: probability")
        for p, dist in sorted(r.strategies.items()):
            table.add_row(
                str(p + 1),
                "  ".join(f"{c}: {fraction_text(q)}" for c, q in sorted(dist.items()) if q),
            )
        console.print(table)
        if r.line:
            console.print(line_table(r.line, "principal line", "heads taken"))
    else:
        console.print(
            f"[bold yellow]not solved[/] within the limits: "
            f"{fraction_text(r.lower)} <= value <= {fraction_text(r.upper)}"
        )
    console.print(
        f"nodes {r.nodes}, LPs {r.lps}, table {r.table_size}, {r.seconds:.3f} s", style="dim"
    )
    if cert is not None:
        console.print(f"certificate written to {cert} ({cert_nodes} nodes)")


def run_check(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if not path.is_file():
        raise SolverError(f"no certificate file {args.file!r}")
    try:
        report = check_certificate(path)
    except CertificateError as exc:
        if args.json:
            print(json.dumps({"ok": False, "error": str(exc)}))
        print(f"take6: certificate check failed: {exc}", file=sys.stderr)
        return 1
    except SolverError:
        raise
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
        Console(highlight=False).print(
            f"certificate OK: value {fraction_text(report.value)} proven "
            f"({report.nodes} nodes, {report.cells} cells checked)"
        )
    return 0
