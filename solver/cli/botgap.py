"""``take6 solve POSITION --against BOT``: the game value, the value of the best reply to a bot
and what the bot gives up (:mod:`solver.botgap`). ``take6 solve`` registers the option and
hands the whole run to :func:`run_against`."""

from __future__ import annotations

import argparse
import json
import signal
import time
from fractions import Fraction

from solver.errors import SolverError
from take6.display.progress import ProgressLine, clock, count, wanted
from take6.display.terminal import console as make_console
from take6.text import plural


def add_against_option(p: argparse.ArgumentParser) -> None:
    """Add ``--against BOT`` to ``take6 solve``."""
    from take6.play.bots import BOTS

    p.add_argument(
        "--against",
        metavar="BOT",
        help=f"also value the best reply of --player to the bot BOT ({', '.join(BOTS)}) in the "
        "other seat: the exact expected diff against it, and the gap to the game value (the "
        "heads per round the bot gives up against a perfect opponent); 2 players",
    )


def run_against(args: argparse.Namespace) -> int:
    """Run ``take6 solve ... --against BOT``: exit 0, or 130/143 when interrupted."""
    from solver.api import solve
    from solver.botgap import BotGap, Reply, against_bot, heads_left
    from solver.cells import solve_by_cells
    from solver.cli.solve import (
        CellsProgress,
        check_cells_file,
        check_limits,
        core_settings,
        read_position,
        stop_on_terminate,
        value_text,
    )
    from solver.problem import Objective
    from take6.play.bots import make_bot

    make_bot(args.against)  # an unknown bot is a one-line error naming the known ones
    for flag, given in (
        ("--certificate", args.certificate),
        ("--graphml", args.graphml),
        ("--graph-all", args.graph_all),
        ("--node-limit", args.node_limit),
        ("--checkpoint", args.checkpoint),
    ):
        if given:
            raise SolverError(f"{flag} does not go with --against {args.against}")
    if args.objective not in (None, "diff"):
        raise SolverError(f"--against values the diff objective, not --objective {args.objective}")
    position = read_position(args.position, args.rules)
    if position.players != 2:
        raise SolverError(f"--against needs 2 players, got {position.players} ({position})")
    if args.player not in (1, 2):
        raise SolverError(f"--player must be 1 or 2, got {args.player}")
    check_limits(args)
    if args.cells is not None:
        check_cells_file(args.cells)
    settings = core_settings(args, position)
    progress = settings.pop("progress")
    if args.cells is not None and progress is not None:
        progress.close()
        progress = CellsProgress()
    line: ProgressLine | None = None

    def reply_progress(done: int, cards: int, positions: int, secs: float) -> None:
        assert line is not None
        line.show(
            secs,
            f"best reply to {args.against}: first cards valued {done}/{cards}  "
            f"positions {count(positions)}  {clock(secs)}",
        )

    with stop_on_terminate() as terminated:
        # The game value first, then the best reply, each with its own progress line (one
        # live line at a time on a terminal).
        t0 = time.perf_counter()
        try:
            if args.cells is not None:  # the game value by cells, every proof kept in the file
                result, _ = solve_by_cells(
                    position,
                    args.cells,
                    Objective.DIFF,
                    args.player - 1,
                    time_limit=args.time_limit,
                    table_cap=args.table_cap,
                    status=progress.status if isinstance(progress, CellsProgress) else None,
                    progress=progress,
                    **settings,
                )
            else:
                result, _ = solve(
                    position,
                    Objective.DIFF,
                    args.player - 1,
                    time_limit=args.time_limit,
                    table_cap=args.table_cap,
                    line=False,
                    progress=progress,
                    **settings,
                )
        finally:
            if progress is not None:
                progress.close()
        value_seconds = time.perf_counter() - t0
        if result.interrupted:
            reply = Reply(
                position,
                args.against,
                args.player - 1,
                False,
                None,
                Fraction(-heads_left(position)),
                interrupted=True,
            )
        else:
            line = ProgressLine() if wanted(args.progress) else None
            try:
                reply = against_bot(
                    position,
                    args.against,
                    args.player - 1,
                    time_limit=args.time_limit,
                    progress=reply_progress if line is not None else None,
                    core=settings["core"],
                    memory=settings["memory"],
                    threads=settings["threads"] if settings["core"] != "python" else 1,
                )
            finally:
                if line is not None:
                    line.close()
    gap = BotGap(reply, result.value, result.lower, result.upper, value_seconds)
    r = gap.reply
    if args.json:
        print(json.dumps(gap.to_json()))
    else:
        console = make_console(highlight=False)
        me, bot = args.player, 3 - args.player
        console.print(f"[bold]position[/] {position}")
        console.print(
            f"[bold]objective[/] diff: heads of player {bot} minus heads of player {me}; "
            f"player {bot} is the bot {args.against}"
        )
        if gap.value is not None:
            v = gap.value
            console.print(f"[bold]game value[/] {value_text(v)}  (≈ {float(v):.6f})")
        else:
            console.print(
                f"[bold]game value[/] not solved: {value_text(gap.value_lower)} <= value <= "
                f"{value_text(gap.value_upper)}"
            )
        if r.value is not None:
            console.print(
                f"[bold]against {args.against}[/] {value_text(r.value)}  (≈ {float(r.value):.6f})"
                f", the best reply of player {me} (first cards {_cards(r.best)})"
            )
        else:
            why = "interrupted" if r.interrupted else "not solved within the limits"
            console.print(
                f"[bold]against {args.against}[/] {why}: value >= {value_text(r.lower)}"
                f"  (≈ {float(r.lower):.6f})"
            )
        if gap.gap is not None:
            console.print(
                f"[bold]gap[/] {value_text(gap.gap)}  (≈ {float(gap.gap):.6f}): the heads per "
                f"round {args.against} gives up against a perfect opponent"
            )
        where = "Python search"
        if r.core == "native":
            where = "compiled core" + (f", {r.threads} threads" if r.threads > 1 else "")
        note = f"; not the compiled core: {r.core_note}" if r.core_note else ""
        console.print(
            f"best reply ({where}): {plural(r.positions, 'position')} in the table, "
            f"{plural(r.nodes, 'node')}, {r.seconds:.3f} s; game value {gap.value_seconds:.3f} s"
            f"{note}",
            style="dim",
        )
    if not r.interrupted:
        return 0
    return 128 + signal.SIGTERM if terminated else 130


def _cards(cards: list[int]) -> str:
    return ", ".join(str(c) for c in cards) or "-"


__all__ = ["add_against_option", "run_against"]
