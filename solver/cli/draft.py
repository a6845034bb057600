"""``take6 draft``: solve the Logik draft exactly (registered through the ``take6.commands``
entry point; the dispatcher in :mod:`take6.cli.main` turns a ``Take6Error`` into a one-line error
and
exit status 2)."""

from __future__ import annotations

import argparse
import json
import signal
import textwrap
from typing import TYPE_CHECKING, Any

from rich.table import Table

from solver.cli.solve import ProgressLine, line_table, stop_on_terminate
from solver.problem import CORES, Objective, default_objective
from take6.cards import HEADS
from take6.display.progress import add_progress_option, clock, wanted
from take6.display.terminal import console as make_console

EXAMPLES = """\
examples:
  take6 draft --players 2 --hand-size 3
  take6 draft --players 2 --hand-size 4 --first-picker 2 --json
  take6 draft --players 3 --hand-size 2 --objective paranoid --player 3
  take6 draft --players 2 --hand-size 5 --time-limit 60
  take6 draft --players 2 --hand-size 8 --safety
  take6 draft --players 2 --hand-size 7 --pick-values bounds --proofs d7.jsonl --time-limit 600
"""

if TYPE_CHECKING:
    from solver.draft.solve import DraftResult, DraftSafety, DraftTick


def register(subparsers: Any) -> None:
    """Add the ``draft`` subcommand."""
    p = subparsers.add_parser(
        "draft",
        help="solve the Logik draft exactly (small hand sizes)",
        description=textwrap.fill(
            "Solve the Logik draft with hand size K exactly: the deck 1..K*players+4 lies face "
            "up, the players pick one card at a time in seat order from the first picker until "
            "each holds K, the 4 cards left start the rows, and the round is played with every "
            "hand known. The value is the exact minimax value of drafting and then playing "
            "optimally: for 2 players (objective diff) the heads of the other player minus the "
            "heads of --player; with --objective paranoid the heads of --player against a "
            "coalition of all the others. Prints the value, every first pick with its value, "
            "the principal draft line and the play that follows.",
            width=78,
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    p.add_argument("--hand-size", type=int, required=True, metavar="K", help="cards per hand")
    p.add_argument(
        "--first-picker", type=int, default=1, metavar="N", help="seat that picks first (1-based)"
    )
    p.add_argument(
        "--objective",
        choices=[o.value for o in Objective],
        default=None,
        help="diff (2 players, the default) or paranoid (the default for more players)",
    )
    p.add_argument(
        "--player", type=int, default=None, help="the player whose view (1-based; default 1)"
    )
    p.add_argument(
        "--time-limit",
        type=float,
        metavar="S",
        help="stop after S seconds and report proven bounds (not solved)",
    )
    p.add_argument(
        "--core",
        choices=list(CORES),
        default="auto",
        help="the play solver of the drafted deals: the compiled core when it was built (auto, "
        "the default), native, or python (slower); both give equal values",
    )
    p.add_argument(
        "--memory",
        metavar="SIZE",
        help="the compiled core's transposition table budget, e.g. 512M or 4G (default: a "
        "quarter of the machine's memory, at most 4G), and as much again for the draft's own "
        "tables (past it, the entries nearest the drafted deals are dropped)",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=1,
        metavar="N",
        help="search threads of the compiled core for each drafted deal, sharing its table "
        "(default 1; from k = 8, where a deal's search takes seconds, 2 threads value them "
        "about 1.5 times faster)",
    )
    add_progress_option(
        p, "first picks bounded by safety, then valued; draft nodes, leaves, play nodes, elapsed"
    )
    p.add_argument(
        "--pick-values",
        choices=["exact", "bounds"],
        default="exact",
        help="exact (default): every first pick's exact value; bounds: the draft's value and "
        "its optimal first picks exactly, every other pick only bounded below the value (much "
        "faster where losing picks have mixed values, from k = 7)",
    )
    p.add_argument(
        "--safety",
        action="store_true",
        help="only whether each player can make sure of taking no head at all, after each first "
        "pick: a yes-or-no search, much faster than the values (k = 8 in minutes)",
    )
    p.add_argument(
        "--proofs",
        metavar="FILE",
        help="keep what the search proves in FILE (JSON lines, written as it goes) and read it "
        "back first when FILE exists: a draft of hours stopped by a limit, Ctrl-C, SIGTERM or a "
        "kill goes on where it was when run again with the same FILE",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Solve the draft the arguments describe and print it; the exit status (0, or 130 when
    Ctrl-C stopped it and 143 for SIGTERM: the proven bounds are printed first)."""
    from solver.draft.solve import DraftError, DraftSafety, draft_safety, solve_draft

    if args.time_limit is not None and not args.time_limit > 0:
        raise DraftError(f"--time-limit must be positive, got {args.time_limit}")
    if args.safety:
        for flag, given in (
            ("--objective", args.objective is not None),
            ("--player", args.player is not None),
            ("--pick-values", args.pick_values != "exact"),
        ):
            if given:
                raise DraftError(f"--safety answers for every player: {flag} does not apply")
        if args.proofs is not None:
            raise DraftError("--proofs keeps the values' proofs: it does not apply to --safety")
        if args.threads != 1:
            raise DraftError("--threads is for the values' searches: it does not apply to --safety")
    if not 1 <= args.threads <= 64:
        raise DraftError(f"--threads must be 1..64, got {args.threads}")
    memory = None
    if args.memory is not None:
        from solver.native import check_memory, parse_memory

        memory = parse_memory(args.memory)
        check_memory(memory)
    line = DraftProgressLine() if wanted(args.progress) else None
    result: DraftResult | DraftSafety
    try:
        with stop_on_terminate() as terminated:
            if args.safety:  # whether each player can keep to no head, after each first pick
                result = draft_safety(
                    args.players,
                    args.hand_size,
                    args.first_picker - 1,
                    time_limit=args.time_limit,
                    core=args.core,
                    memory=memory,
                    progress=line,
                )
            else:
                objective = (
                    Objective(args.objective)
                    if args.objective is not None
                    else default_objective(args.players)
                )
                result = solve_draft(
                    args.players,
                    args.hand_size,
                    args.first_picker - 1,
                    objective,
                    (args.player or 1) - 1,
                    time_limit=args.time_limit,
                    core=args.core,
                    memory=memory,
                    progress=line,
                    exact_picks=args.pick_values == "exact",
                    proofs=args.proofs,
                    threads=args.threads,
                )
    finally:
        if line is not None:
            line.close()
    if args.json:
        print(json.dumps(result.to_json()))
    elif isinstance(result, DraftSafety):
        print_safety(result)
    else:
        print_result(result, args.proofs)
    # 0, or after Ctrl-C 130 and after SIGTERM 143, what was found so far printed first
    if not result.interrupted:
        return 0
    return 128 + signal.SIGTERM if terminated else 130


def print_safety(r: DraftSafety) -> None:
    """The text report of ``--safety``: per first pick and player, then from the start."""
    console = make_console()
    deck = r.hand_size * r.players + 4
    console.print(
        f"[bold]Logik draft safety[/] {r.players} players, hand size {r.hand_size}, deck "
        f"1..{deck}, player {r.first_picker + 1} picks first: can a player make sure of taking "
        "no head at all, whatever the others draft and play together?"
    )
    if not r.decided:
        why = "interrupted" if r.interrupted else "not all decided within the time limit"
        console.print(f"[bold yellow]{why}[/]: ? marks what was not decided")
    word = {True: "yes", False: "no", None: "?"}
    for seat in range(r.players):
        safe = r.safe_from_the_start(seat)
        answers = [a[seat] for a in r.picks.values()]
        if seat == r.first_picker:
            cards = [c for c, a in sorted(r.picks.items()) if a[seat]]
            how = f" (first picks {ranges(cards)})" if cards else ""
        else:
            how = f" (after {answers.count(True)} of {len(answers)} first picks)"
        console.print(f"[bold]player {seat + 1}[/] keeps to no head: {word[safe]}{how}")
    picks = Table(title=f"first picks (player {r.first_picker + 1})", title_justify="left")
    picks.add_column("card", justify="right")
    for seat in range(r.players):
        picks.add_column(f"player {seat + 1} safe", justify="center")
    for c, a in sorted(r.picks.items()):
        picks.add_row(str(c), *(word[x] for x in a))
    console.print(picks)
    core = "the compiled core" if r.core == "native" else "the Python search"
    note = f" ({r.core_note})" if r.core_note else ""
    console.print(
        f"draft nodes {r.nodes}, leaves {r.leaves}, play nodes {r.play_nodes}, "
        f"{r.seconds:.3f} s; leaves searched by {core}{note}",
        style="dim",
    )


def ranges(cards: list[int]) -> str:
    """Sorted cards as runs: ``[2, 3, 4, 7]`` -> ``2-4, 7``."""
    runs: list[list[int]] = []
    for c in cards:
        if runs and c == runs[-1][-1] + 1:
            runs[-1].append(c)
        else:
            runs.append([c])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


class DraftProgressLine(ProgressLine):
    """The draft's progress line on stderr (see :class:`solver.cli.solve.ProgressLine`)."""

    def __call__(self, t: DraftTick) -> None:  # type: ignore[override]
        self.show(t.seconds, f"{t.text()}  {clock(t.seconds)}")


def meaning(r: DraftResult) -> str:
    """What the value counts, in words (seats 1-based)."""
    pr = r.problem
    if pr.objective is Objective.DIFF:
        return (
            f"heads of player {pr.min_side[0] + 1} minus heads of player {pr.player + 1}, "
            "both drafting and then playing optimally"
        )
    others = ", ".join(str(p + 1) for p in pr.max_side)
    return (
        f"heads of player {pr.player + 1}, who drafts and plays against the coalition of "
        f"players {others}"
    )


def print_result(r: DraftResult, proofs: str | None = None) -> None:
    """The text report: value, first picks, principal draft line, the play that follows
    (``proofs``: the file the proofs were kept in, if any)."""
    from solver.api import fraction_text

    console = make_console()
    deck = r.hand_size * r.players + 4
    console.print(
        f"[bold]Logik draft[/] {r.players} players, hand size {r.hand_size}, deck 1..{deck}, "
        f"player {r.first_picker + 1} picks first"
    )
    console.print(f"[bold]objective[/] {r.objective.value}: {meaning(r)}")
    if r.solved and r.value is not None:
        console.print(f"[bold]value[/] {fraction_text(r.value)}  (≈ {float(r.value):.6f})")
    else:
        console.print(
            f"[bold yellow]not solved[/] "
            f"{'(interrupted)' if r.interrupted else 'within the time limit'}: "
            f"{fraction_text(r.lower)} <= value <= {fraction_text(r.upper)}"
        )
        if proofs is not None:
            console.print(f"what it proved is kept in {proofs}: the same command goes on from it")
    best = set(r.best_picks())
    picks = Table(title=f"first picks (player {r.first_picker + 1})", title_justify="left")
    picks.add_column("card", justify="right")
    picks.add_column("heads", justify="right")
    picks.add_column("value", justify="right")
    picks.add_column("≈", justify="right")
    picks.add_column("optimal")
    for p in r.picks:
        if p.value is not None:
            exact, approx = fraction_text(p.value), f"{float(p.value):.6f}"
        else:
            exact = f"[{float(p.lower):.6g}, {float(p.upper):.6g}]"
            approx = "bounds only"
        picks.add_row(
            str(p.card), str(HEADS[p.card]), exact, approx, "yes" if p.card in best else ""
        )
    console.print(picks)
    if r.line:
        line = Table(title="principal draft line", title_justify="left")
        line.add_column("pick", justify="right")
        line.add_column("player", justify="right")
        line.add_column("card", justify="right")
        for i, dp in enumerate(r.line):
            line.add_row(str(i + 1), str(dp.seat + 1), str(dp.card))
        console.print(line)
    if r.position is not None:
        console.print(f"[bold]deal[/] {r.position}")
    if r.play:
        console.print(
            line_table(r.play, "the play that follows (principal line)", "heads taken (by player)")
        )
    core = "the compiled core" if r.core == "native" else "the Python search"
    note = f" ({r.core_note})" if r.core_note else ""
    console.print(
        f"draft nodes {r.nodes}, leaves solved {r.leaves}, leaf cache hits {r.leaf_hits}, "
        f"play nodes {r.play_nodes}, {r.seconds:.3f} s; leaves solved by {core}{note}",
        style="dim",
    )
    if r.dropped:
        console.print(
            f"{r.dropped} table entries dropped to keep within the memory budget (--memory)",
            style="dim",
        )
    if r.proofs_read or r.proofs_written:
        console.print(
            f"proofs file: {r.proofs_read} proofs read, {r.proofs_written} written", style="dim"
        )
