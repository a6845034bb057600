"""The ``take6 conform`` command (see :mod:`take6.conform.cli` for its options)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from importlib import resources

from rich.table import Table

from take6.cli.common import file_errors, read_file
from take6.conform import runner
from take6.conform.cases import Case, CaseError, dumps_cases, read_cases
from take6.conform.kit import RULES
from take6.conform.serve import serve
from take6.display.progress import progress_line
from take6.display.terminal import console
from take6.errors import InputError, UsageError
from take6.text import excerpt, plural

KIT = "kit.jsonl"


def kit_cases() -> list[Case]:
    """The shipped kit (``take6/conform/kit.jsonl``), read and checked against the engine."""
    text = resources.files("take6.conform").joinpath(KIT).read_text(encoding="utf-8")
    return read_cases(text, "the built-in kit")


def _decode(data: bytes, path: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"case file {excerpt(path)} is not UTF-8 text") from None


def select(cases: list[Case], prefixes: list[str] | None) -> list[Case]:
    """The cases whose rule starts with one of ``prefixes`` (all when none)."""
    if not prefixes:
        return cases
    chosen = [c for c in cases if any(c.rule.startswith(p) for p in prefixes)]
    if not chosen:
        known = ", ".join(sorted({c.rule for c in cases}))
        raise UsageError(f"no case concerns a rule {excerpt(prefixes[0])} (rules: {known})")
    return chosen


def run(args: argparse.Namespace) -> int:
    if args.serve:
        if args.engine or args.export or args.cases:
            raise UsageError("--serve takes no other option")
        serve(sys.stdin, sys.stdout)
        return 0
    if args.timeout <= 0 or args.timeout > 3600:
        raise UsageError(f"--timeout must be 0 < S <= 3600, got {args.timeout:g}")
    if args.max_failures < 1:
        raise UsageError(f"--max-failures must be at least 1, got {args.max_failures}")
    if args.cases:
        cases: list[Case] = []
        seen: set[str] = set()
        for path in args.cases:
            for case in read_cases(_decode(read_file(path, "case file"), path), path):
                if case.id in seen:
                    raise CaseError(f"case id {excerpt(case.id, 60)} is used twice ({path})")
                seen.add(case.id)
                cases.append(case)
    else:
        cases = kit_cases()
    cases = select(cases, args.rule)
    if args.export:
        text = dumps_cases(cases)
        if args.export == "-":
            sys.stdout.write(text)
        else:
            with file_errors("the cases", args.export), open(args.export, "w") as f:
                f.write(text)
        if not args.engine:
            return 0
    if not args.engine:
        raise UsageError("give the engine to check: --engine CMD (or --serve, --export FILE)")
    out = console(highlight=False)
    line = progress_line(args.progress)
    started = time.monotonic()
    try:
        outcomes = runner.run_cases(
            args.engine,
            cases,
            timeout=args.timeout,
            max_failures=args.max_failures,
            progress=None
            if line is None
            else lambda done, total: line.count_up(
                "conform", done, total, time.monotonic() - started, "cases"
            ),
        )
    finally:
        if line is not None:
            line.close()
    if args.json:
        counts = Counter(o.status for o in outcomes)
        print(
            json.dumps(
                {
                    "engine": args.engine,
                    "cases": len(outcomes),
                    "counts": {s: counts.get(s, 0) for s in runner.STATUSES},
                    "ok": runner.ok(outcomes),
                    "outcomes": [o.to_json() for o in outcomes if o.status != runner.AGREE],
                },
                indent=2,
            )
        )
    else:
        report(outcomes, out)
    return 0 if runner.ok(outcomes) else 1


def report(outcomes: list[runner.Outcome], out: object) -> None:
    """Each case that did not agree (with its request, to reproduce it), then a table by rule."""
    from rich.console import Console

    assert isinstance(out, Console)
    for o in outcomes:
        if o.status in (runner.AGREE, runner.NOT_RUN):
            continue
        about = RULES.get(o.case.rule, o.case.about)
        out.print(f"[bold]{o.status.upper()}[/] {o.case.id}  ({o.case.rule}: {about})")
        for d in o.details:
            out.print(f"    {d}", markup=False)
        if o.status != runner.UNSUPPORTED:
            request = json.dumps(o.case.request, separators=(",", ":"))
            out.print(f"    request: {request}", markup=False, soft_wrap=True)
    not_run = [o for o in outcomes if o.status == runner.NOT_RUN]
    if not_run:
        out.print(f"{plural(len(not_run), 'case')} not run: {not_run[0].details[0][9:]}")
    by_rule: dict[str, Counter[str]] = {}
    for o in outcomes:
        by_rule.setdefault(o.case.rule, Counter())[o.status] += 1
    table = Table(title="conformance by rule")
    table.add_column("rule")
    for s in runner.STATUSES:
        table.add_column(s, justify="right")
    for rule in sorted(by_rule):
        c = by_rule[rule]
        table.add_row(rule, *(str(c.get(s, 0)) or "" for s in runner.STATUSES))
    out.print(table)
    total = Counter(o.status for o in outcomes)
    verdict = "conforms" if runner.ok(outcomes) else "does not conform"
    parts = ", ".join(f"{total[s]} {s}" for s in runner.STATUSES if total.get(s))
    out.print(f"{plural(len(outcomes), 'case')}: {parts}. The engine {verdict}.")
