"""``take6 verify``: run every proof obligation and report (exit 0 when all give their expected
result, 1 otherwise); ``--code`` adds the proofs about the code (``proofs/code.py``). Registered
with the ``take6`` dispatcher through the ``take6.commands`` entry point. Registering the
subcommand imports neither z3 nor the obligations."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from take6.display.progress import add_progress_option, progress_line
from take6.display.terminal import console
from take6.errors import Take6Error
from take6.text import excerpt


class VerifyUsageError(Take6Error):
    """Bad arguments to ``take6 verify`` (e.g. an unknown obligation name)."""


def register(subparsers: Any) -> None:
    """Add the ``verify`` subcommand to the dispatcher's ``subparsers``."""
    parser = subparsers.add_parser(
        "verify",
        help="prove the rules with z3 and report the findings in the sources",
        description=(
            "Run every proof obligation (deck facts, placement determinism, invariants, "
            "termination, and the sources' wording) and print a report. Exit status 0 when every "
            "obligation gives its expected result, 1 otherwise."
        ),
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--code",
        action="store_true",
        help=(
            "also prove every restatement of the placement rule in the code (fastsim, the "
            "solver's kernel, the compiled core) equal to the reference on every case of a "
            "bounded domain (obligations code.*; about half a minute)"
        ),
    )
    parser.add_argument(
        "--rules",
        metavar="FILE",
        help=(
            "re-prove the obligations that are parametric in the rules (deck, players, "
            "placement, invariants, the largest take, termination) for the rule set of this "
            "TOML rules file, and report its findings with witnesses replayed through the engine"
        ),
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="NAME",
        help="run only this obligation (repeatable; a prefix such as 'deck.' selects a group)",
    )
    add_progress_option(parser, "obligations proved of obligations, the one running, elapsed")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the obligations ``args`` select; print the report; return the exit status."""
    # z3 and the restatements are imported here, when the command runs
    from proofs import code as code_proofs
    from proofs import registry, report

    rules_path: str | None = getattr(args, "rules", None)
    subject = None
    if rules_path is not None:
        from proofs import ruleset
        from take6.io.rulesfile import load_rules

        if getattr(args, "code", False):
            raise VerifyUsageError("--code and --rules exclude each other (run them apart)")
        every = ruleset.obligations(load_rules(rules_path))
        subject = f"rules file {rules_path}"
    else:
        every = registry.obligations()
    found = code_proofs.restatements() if getattr(args, "code", False) else []
    names = [ob.name for ob in every] + [f"code.{r.name}" for r in found]
    only: list[str] | None = getattr(args, "only", None)

    def wanted(name: str) -> bool:
        return not only or any(name.startswith(p) for p in only)

    if only:
        unmatched = [p for p in only if not any(n.startswith(p) for n in names)]
        if unmatched:
            known = ", ".join(names)
            raise VerifyUsageError(f"no obligation named {excerpt(unmatched[0])} (known: {known})")
    line = progress_line(getattr(args, "progress", None))
    started = time.monotonic()

    def progress(label: str) -> Callable[[int, int, str], None] | None:
        if line is None:
            return None
        return lambda done, total, name: line.count_up(
            label, done, total, time.monotonic() - started, name
        )

    try:
        outcomes = registry.run_all([ob for ob in every if wanted(ob.name)], progress("verify"))
        chosen = [r for r in found if wanted(f"code.{r.name}")]
        if chosen:
            outcomes += code_proofs.outcomes(found=chosen, progress=progress("verify --code"))
    finally:
        if line is not None:
            line.close()
    if getattr(args, "json", False):
        print(report.dumps(outcomes))
    else:
        report.render(outcomes, console(highlight=True), subject)
    return 0 if report.all_ok(outcomes) else 1
