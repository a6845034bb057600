"""``take6 analyse``: a position with known hands solved exactly and studied turn by turn
(registered through the ``take6.commands`` entry point; the dispatcher in :mod:`take6.cli.main`
turns a ``Take6Error`` into a one-line error and exit status 2). The study itself is
:mod:`solver.analysis`; this module reads the options and prints."""

from __future__ import annotations

import argparse
import json
import signal
import textwrap
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich.console import Console, JustifyMethod
from rich.table import Table

from solver.cli.solve import (
    add_core_options,
    cell_text,
    core_settings,
    read_position,
    stop_on_terminate,
    value_text,
)
from solver.errors import SolverError
from solver.problem import Objective, default_objective
from take6.display.terminal import console as make_console
from take6.play.bots import BOTS
from take6.text import plural

if TYPE_CHECKING:
    from solver.analysis import PlayerTurn, TurnStudy
    from solver.api import Result

EXAMPLES = """\
examples:
  take6 analyse "logik:12 3/7/10/12 1,5,9,11|2,4,6,8"
  take6 analyse "logik:12 3/7/10/12 1,5,9,11|2,4,6,8" --line 5,2 --bot random --seed 3
  take6 analyse "logik:13 1/5/9/13 2,6,10|3,7,11|4,8,12" --max-turns 1 --json
"""


def register(subparsers: Any) -> None:
    """Add the ``analyse`` subcommand."""
    p = subparsers.add_parser(
        "analyse",
        help="solve a position exactly and study it turn by turn (strategies, card values, a bot)",
        description=textwrap.fill(
            "Solve a position with known hands exactly, then walk a line of play turn by turn: "
            "at each turn every player's optimal mixed strategy, the value of each of their "
            "cards (against the other side's optimal strategy, and if the others knew the "
            "card), what a bot would play there and what it costs, the row choices of the turn "
            "with the value of each row. The line follows the most probable optimal cards, or "
            "--line for its first turns; row choices are their owners' best. Values are in the "
            "objective's frame, as in 'take6 solve'; a loss is in heads, for the player who "
            "plays. POSITION is the compact notation, a JSON string, or a JSON file.",
            width=78,
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("position", nargs="+", metavar="POSITION")
    p.add_argument(
        "--objective",
        choices=[o.value for o in Objective],
        default=None,
        help="diff (2 players, the default) or paranoid (the default for more players), as in "
        "'take6 solve'",
    )
    p.add_argument("--player", type=int, default=1, help="the player whose view (1-based)")
    p.add_argument(
        "--bot",
        choices=list(BOTS),
        default="safe",
        help="the bot whose choices are compared with optimal play (default safe)",
    )
    p.add_argument("--seed", type=int, default=1, help="the random bot's seed (default 1)")
    p.add_argument(
        "--line",
        metavar="TURNS",
        help="the cards played in the first turns instead of the most probable ones: turns "
        "separated by '/', each turn's cards by player separated by ',' (e.g. 5,4/9,8)",
    )
    p.add_argument(
        "--max-turns", type=int, metavar="N", help="study at most N turns (default: all)"
    )
    p.add_argument("--json", action="store_true", help="print JSON (players and rows from 0)")
    add_core_options(p)
    p.set_defaults(func=run_analyse)


def run_analyse(args: argparse.Namespace) -> int:
    from solver.analysis import analyse, parse_line

    position = read_position(args.position)
    if args.max_turns is not None and args.max_turns < 1:
        raise SolverError(f"--max-turns must be at least 1, got {args.max_turns}")
    line = parse_line(args.line, position.players) if args.line is not None else []
    objective = Objective(args.objective) if args.objective else default_objective(position.players)
    settings = core_settings(args, position)
    progress = settings["progress"]
    out = make_console(highlight=False)
    turns: list[TurnStudy] = []
    stopped = False
    try:
        with stop_on_terminate() as terminated:
            result, studies = analyse(
                position,
                objective,
                args.player - 1,
                bot=args.bot,
                line=line,
                max_turns=args.max_turns,
                seed=args.seed,
                **settings,
            )
            if result.solved and not args.json:
                if progress is not None:
                    progress.close()
                _print_header(out, result, args.bot)
            try:
                for study in studies:
                    if progress is not None:
                        progress.close()
                    turns.append(study)
                    if not args.json:
                        _print_turn(out, result, study, args.bot, position.rules.heads)
            except KeyboardInterrupt:  # Ctrl-C or SIGTERM while the line is studied
                stopped = True
    finally:
        if progress is not None:
            progress.close()
    if args.json:
        print(json.dumps(_to_json(result, turns, args.bot, stopped)))
    elif not result.solved:
        why = "interrupted" if result.interrupted else "within the limits"
        out.print(f"[bold]position[/] {result.problem.position}")
        out.print(
            f"[bold yellow]not solved[/] ({why}): "
            f"{value_text(result.lower)} <= value <= {value_text(result.upper)}"
        )
    else:
        out.print(_footer(result, len(turns)), style="dim")
        if stopped:
            out.print(f"interrupted after {plural(len(turns), 'turn')}", style="yellow")
    if result.interrupted or stopped:
        return 128 + signal.SIGTERM if terminated else 130
    return 0


def _meaning(result: Result) -> str:
    pr = result.problem
    if pr.objective is Objective.DIFF:
        return (
            f"heads of player {pr.min_side[0] + 1} minus heads of player {pr.player + 1} "
            f"(player {pr.player + 1} maximises it, player {pr.min_side[0] + 1} minimises it)"
        )
    others = ", ".join(str(p + 1) for p in pr.max_side)
    return (
        f"heads of player {pr.player + 1} (who minimises them) against the coalition of "
        f"{others} (who maximise them)"
    )


def _print_header(out: Console, result: Result, bot: str) -> None:
    assert result.value is not None
    out.print(f"[bold]position[/] {result.problem.position}")
    out.print(f"[bold]objective[/] {result.problem.objective.value}: {_meaning(result)}")
    out.print(f"[bold]value[/] {value_text(result.value)}  (≈ {float(result.value):.6f})")
    out.print(
        "vs optimal: the value if the player plays the card and the other side its optimal "
        "strategy; if known: if the others knew the card; loss: the heads the player loses by "
        f"it; bot: {bot}'s card"
    )


def _print_turn(out: Console, result: Result, t: TurnStudy, bot: str, heads: Sequence[int]) -> None:
    out.print()
    out.rule(f"turn {t.index + 1}")
    out.print(f"[bold]position[/] {t.position}")
    out.print(f"[bold]value[/] {value_text(t.value)}  (≈ {float(t.value):.6f})")
    table = Table(show_edge=False, pad_edge=False)
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("player", "right"),
        ("card", "right"),
        ("heads", "right"),
        ("probability", "right"),
        ("vs optimal", "right"),
        ("loss", "right"),
        ("if known", "right"),
        ("loss", "right"),
        ("bot", "left"),
    )
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for pt in t.players:
        for i, cv in enumerate(pt.cards):
            table.add_row(
                _player_label(pt) if i == 0 else "",
                str(cv.card),
                str(heads[cv.card]),
                cell_text(cv.probability) if cv.probability else "-",
                cell_text(cv.against_optimal),
                cell_text(_loss(pt, t.value, cv.against_optimal)),
                cell_text(cv.if_known),
                cell_text(_loss(pt, t.value, cv.if_known)),
                f"← {bot}" if cv.card == pt.bot_card else "",
                end_section=i == len(pt.cards) - 1,
            )
    out.print(table)
    for pt in t.players:
        out.print(
            f"{bot} would play {pt.bot_card} for player {pt.player + 1}: loses "
            f"{cell_text(pt.bot_loss)} against optimal play, "
            f"{cell_text(pt.bot_loss_if_known)} if the card were known"
        )
    how = "given by --line" if t.given else "the most probable optimal cards"
    cards = ", ".join(f"player {p + 1} {c}" for p, c in enumerate(t.cards))
    out.print(f"[bold]played[/] ({how}): {cards}")
    for ch in t.choices:
        options = ", ".join(f"row {r + 1}: {cell_text(v)}" for r, v in ch.options)
        out.print(
            f"  player {ch.player + 1}'s card {ch.card} needs a row: {options}; "
            f"takes row {ch.chosen + 1} (best); {bot} would take row {ch.bot_row + 1}"
            + (f", losing {cell_text(ch.bot_loss)}" if ch.bot_loss else "")
        )
    out.print("heads taken: " + ", ".join(f"player {p + 1} {h}" for p, h in enumerate(t.heads)))


def _player_label(pt: PlayerTurn) -> str:
    return f"{pt.player + 1} ({'max' if pt.maximises else 'min'})"


def _loss(pt: PlayerTurn, value: Fraction, got: Fraction) -> Fraction:
    return value - got if pt.maximises else got - value


def _footer(r: Result, turns: int) -> str:
    text = (
        f"{plural(turns, 'turn')} studied; core {r.core}, {plural(r.nodes, 'node')} to solve, "
        f"{r.seconds:.3f} s, peak memory {r.peak_rss / 2**20:.0f} MiB"
    )
    if r.core_note:
        text += f" (the Python search ran, slower: {r.core_note})"
    return text


def _to_json(r: Result, turns: list[TurnStudy], bot: str, stopped: bool) -> dict[str, Any]:
    from solver.api import fraction_text

    data = r.to_json()
    data.pop("line", None)
    data["bot"] = bot
    data["stopped"] = stopped
    data["turns"] = [
        {
            "index": t.index,
            "position": str(t.position),
            "value": fraction_text(t.value),
            "value_float": float(t.value),
            "players": [
                {
                    "player": pt.player,
                    "side": "max" if pt.maximises else "min",
                    "cards": [
                        {
                            "card": cv.card,
                            "probability": fraction_text(cv.probability),
                            "against_optimal": fraction_text(cv.against_optimal),
                            "if_known": fraction_text(cv.if_known),
                        }
                        for cv in pt.cards
                    ],
                    "bot": {
                        "card": pt.bot_card,
                        "loss": fraction_text(pt.bot_loss),
                        "loss_if_known": fraction_text(pt.bot_loss_if_known),
                    },
                }
                for pt in t.players
            ],
            "cards": list(t.cards),
            "given": t.given,
            "choices": [
                {
                    "player": ch.player,
                    "card": ch.card,
                    "options": [{"row": row, "value": fraction_text(v)} for row, v in ch.options],
                    "row": ch.chosen,
                    "bot_row": ch.bot_row,
                    "bot_loss": fraction_text(ch.bot_loss),
                }
                for ch in t.choices
            ],
            "heads": list(t.heads),
        }
        for t in turns
    ]
    return data
