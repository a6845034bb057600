"""``take6 conform``: check another engine against the conformance kit (or a user's case file),
serve the reference engine over the protocol, or write the kit out. Registered through the
``take6.commands`` entry point; the implementation is imported when the command runs."""

from __future__ import annotations

import argparse
from typing import Any

from take6.display.progress import add_progress_option


def register(subparsers: Any) -> None:
    """Add the ``conform`` subcommand to the dispatcher's ``subparsers``."""
    parser = subparsers.add_parser(
        "conform",
        help="check another 6 nimmt! engine against the rules (conformance kit)",
        description=(
            "Drive an engine over the JSON-lines protocol of docs/conformance.md and print each "
            "case it gets wrong with the rule it concerns. Exit status 0 when every case agrees "
            "(or is declared unsupported), 1 when any disagrees or fails, 2 for bad input."
        ),
    )
    parser.add_argument(
        "--engine",
        metavar="CMD",
        help="the engine's command line (run without a shell; quote it as one argument)",
    )
    parser.add_argument(
        "--cases",
        action="append",
        metavar="FILE",
        help="a JSON-lines case file to run instead of the built-in kit (repeatable; a case "
        "without 'expect' gets the reference engine's answer)",
    )
    parser.add_argument(
        "--rule",
        action="append",
        metavar="PREFIX",
        help="run only cases whose rule starts with PREFIX (repeatable), e.g. too-low or profi.",
    )
    parser.add_argument(
        "--timeout", type=float, default=10.0, metavar="S", help="seconds per case (default 10)"
    )
    parser.add_argument(
        "--max-failures",
        type=int,
        default=10,
        metavar="N",
        help="stop after N cases in a row where the engine crashed, hung or answered garbage "
        "(default 10)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--serve",
        action="store_true",
        help="be the reference engine: answer requests on stdin with take6's rules",
    )
    parser.add_argument(
        "--export", metavar="FILE", help="write the kit's cases (JSON lines) to FILE ('-': stdout)"
    )
    add_progress_option(parser, "cases run of cases, elapsed")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from take6.conform import main

    return main.run(args)
