"""The verification report: a rich table, the findings in the sources, and a JSON form."""

from __future__ import annotations

import json
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from proofs.core import Outcome, Status

STYLE = {
    Status.PROVED: "green",
    Status.FINDING: "yellow",
    Status.REFUTED: "red",
    Status.ERROR: "bold red",
    Status.SKIPPED: "yellow",
}


def all_ok(outcomes: Sequence[Outcome]) -> bool:
    """Every obligation gave its expected result."""
    return all(o.ok for o in outcomes)


def to_json(outcomes: Sequence[Outcome]) -> dict[str, object]:
    """The report as a JSON-ready dict: every obligation with name, status, expected status,
    seconds, witness, description and the seed files it concerns."""
    items: list[dict[str, object]] = []
    for o in outcomes:
        ob = o.obligation
        item: dict[str, object] = {
            "name": ob.name,
            "status": o.result.status.value,
            "expected": ob.expected.value,
            "ok": o.ok,
            "seconds": round(o.seconds, 4),
            "description": ob.description,
            "summary": o.result.summary,
            "witness": o.result.witness,
        }
        if ob.seeds:
            item["seeds"] = list(ob.seeds)
        items.append(item)
    return {
        "ok": all_ok(outcomes),
        "seconds": round(sum(o.seconds for o in outcomes), 4),
        "obligations": items,
    }


def dumps(outcomes: Sequence[Outcome]) -> str:
    return json.dumps(to_json(outcomes), indent=2, ensure_ascii=False)


def _result_text(o: Outcome) -> Text:
    status = o.result.status
    text = Text(status.value, style=STYLE[status])
    if not o.ok:
        text.append(f" (expected {o.obligation.expected.value})", style="bold red")
    return text


def render(outcomes: Sequence[Outcome], console: Console, subject: str | None = None) -> None:
    """Print the obligations table, then the findings in the sources (or, for a rule set, the
    findings for ``subject``), then the verdict."""
    title = "take6 verify: proof obligations" + (f" for {subject}" if subject else "")
    table = Table(title=title, show_lines=False)
    table.add_column("obligation", style="bold", no_wrap=True)
    table.add_column("result", no_wrap=True)
    table.add_column("time", justify="right", no_wrap=True)
    table.add_column("witness / summary")
    for o in outcomes:
        table.add_row(o.obligation.name, _result_text(o), f"{o.seconds:.2f}s", o.result.summary)
    console.print(table)

    findings = [o for o in outcomes if o.result.status is Status.FINDING]
    console.print()
    console.rule(f"Findings for {subject}" if subject else "Findings in the sources")
    if not findings:
        console.print("none")
    for o in findings:
        seeds = ", ".join(o.obligation.seeds) or ("the rule set" if subject else "(no seed)")
        console.print(
            Text.assemble(("• ", ""), (seeds, "cyan"), (f" — {o.obligation.name}", "bold"))
        )
        console.print(f"  {o.obligation.description}: {o.result.summary}", highlight=False)
        if o.result.witness:
            console.print(
                "  witness: " + json.dumps(o.result.witness, ensure_ascii=False), highlight=False
            )
    console.print()
    bad = [o for o in outcomes if not o.ok]
    total = sum(o.seconds for o in outcomes)
    if bad:
        names = ", ".join(o.obligation.name for o in bad)
        console.print(
            f"[bold red]FAILED[/]: {len(bad)} of {len(outcomes)} obligations did not give their "
            f"expected result ({names}); {total:.2f}s"
        )
    else:
        skips = sum(o.result.status is Status.SKIPPED for o in outcomes)
        skipped = f", {skips} skipped" if skips else ""
        console.print(
            f"[bold green]OK[/]: all {len(outcomes)} obligations gave their expected result "
            f"({sum(o.result.status is Status.PROVED for o in outcomes)} proved, "
            f"{len(findings)} findings{skipped}); {total:.2f}s"
        )
