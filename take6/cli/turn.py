"""``take6 turn``: the rules calculator (one turn on a given table)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from take6.cli.common import CliError, _cards_arg, _variant_names, add_rules_option, rules_option
from take6.display.terminal import cards_text, console, rows_table
from take6.io.rulesfile import RulesFile
from take6.notation import parse_rows
from take6.placement import Rows
from take6.position import Position, check_table
from take6.rules import ProfiTie, Rules, Variant
from take6.text import excerpt, plural
from take6.turn import (
    Turn,
    resolve_turn,
)

# -- take6 turn -----------------------------------------------------------------------------


def _add_turn(sub: Any) -> None:
    p = sub.add_parser(
        "turn",
        help="rules calculator: resolve one turn on a given table",
        description=(
            "Resolve one turn: player i plays the i-th card of --plays on the rows --rows. "
            "Cards are placed lowest first; a too-low card (or, in Profi, a tie or a card "
            "that fits nowhere) needs its owner's row, given in order by --choose."
        ),
        epilog='example: take6 turn --rows "12/37/43/58" --plays 14,15,44,61',
    )
    p.add_argument("--rows", required=True, help='rows separated by "/", cards by ","')
    p.add_argument(
        "--plays",
        required=True,
        help="the cards played, one per player, by ',' (a single card is placed on its own)",
    )
    p.add_argument(
        "--choose",
        default="",
        help="row numbers (1-based), in order, for each card whose owner must choose",
    )
    p.add_argument(
        "--variant", default=None, choices=_variant_names(), help="the preset (default standard)"
    )
    add_rules_option(p)
    p.add_argument(
        "--profi-tie",
        default=None,
        choices=[t.value for t in ProfiTie],
        help="Profi: who settles a left/right tie (default: the owner chooses)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_run_turn)


def _turn_of(
    rows: Sequence[Sequence[int]],
    plays: Sequence[int],
    choices: Sequence[int],
    variant: str = "standard",
    profi_tie: ProfiTie = ProfiTie.OWNER_CHOOSES,
    found: RulesFile | None = None,
) -> tuple[Turn, Rules]:
    """Play one turn with :func:`take6.turn.resolve_turn`; ``choices`` are 1-based rows for the
    pending decisions, in order (the command line's numbering). Under the rules file ``found``
    when given (its players are those who play). Returns the turn and its rules."""
    if found is not None:
        file_rules = found.rules
        if len(plays) == 1:
            rules = file_rules.with_(players=2, hand_size=1)
            where = f"the turn (rows {excerpt(rows)}, card {plays[0]})"
            check_table(rows, [("the card played", plays)], rules, where)
            table: Rows = tuple(tuple(r) for r in rows)
        else:
            found.check_players(len(plays), "the turn")
            pos = Position.create(file_rules.variant, rows, [[c] for c in plays], rules=file_rules)
            rules, table = pos.rules, pos.rows
        return _resolve(table, plays, choices, rules), rules
    deck = None
    if variant in (Variant.TAKTIK.value, Variant.LOGIK.value) and 2 <= len(plays) <= 10:
        # The Taktik and Logik decks are 1..10n+4, as in a real game of n players.
        deck = Rules.for_variant(variant, players=len(plays)).deck_size
    if len(plays) == 1:
        # One card needs no opponent: the table and the card are checked as a position's would
        # be (any deck card: with one player known, no Taktik/Logik deck size is implied).
        base = Rules.for_variant(variant, players=2, hand_size=1)
        where = f"the turn (variant {variant}, rows {excerpt(rows)}, card {plays[0]})"
        rules = base.with_(profi_tie=profi_tie)
        check_table(rows, [("the card played", plays)], rules, where)
        table = tuple(tuple(r) for r in rows)
    else:
        pos = Position.create(variant, rows, [[c] for c in plays], deck=deck)  # validates it
        rules = pos.rules.with_(profi_tie=profi_tie)
        table = pos.rows
    return _resolve(table, plays, choices, rules), rules


def _resolve(table: Rows, plays: Sequence[int], choices: Sequence[int], rules: Rules) -> Turn:
    """The turn, asking for each pending row choice in ``choices`` (1-based) in order."""
    remaining = list(choices)
    used: list[int] = []
    while True:
        turn = resolve_turn(table, plays, rules, used)
        pend = turn.pending
        if pend is None:
            break
        allowed = [m.row + 1 for m in pend.placement.options]
        names = ", ".join(map(str, allowed))
        why = {
            "too-low": "is too low for every row",
            "no-fit": "fits no row",
            "tie": "is as close to a row's start as to another row's end",
        }[pend.placement.reason.value]
        if not remaining:
            raise CliError(
                f"card {pend.card} (player {pend.player + 1}) {why}: give the row it "
                f"takes with --choose (one of rows {names})"
            )
        row = remaining.pop(0)
        if row not in allowed:
            raise CliError(
                f"--choose {row} is not allowed for card {pend.card} (player "
                f"{pend.player + 1}), which {why}: choose one of rows {names}"
            )
        used.append(row - 1)
    if remaining:
        raise CliError(
            f"--choose gave {len(choices)} row choice(s) but this turn needed {len(used)}"
        )
    return turn


def _run_turn(args: argparse.Namespace) -> int:
    rows = parse_rows(args.rows)
    plays = _cards_arg(args.plays, "--plays")
    choices = _cards_arg(args.choose, "--choose") if args.choose else []
    found = rules_option(args, {"--variant": args.variant, "--profi-tie": args.profi_tie})
    variant = args.variant or "standard"
    tie = ProfiTie(args.profi_tie or ProfiTie.OWNER_CHOOSES.value)
    turn, rules = _turn_of(rows, plays, choices, variant, tie, found)
    n = len(plays)
    taken = [list(t) for t in turn.taken(n)]
    heads = list(turn.heads(n))
    placed = turn.placed
    if args.json:
        data = {
            "variant": rules.variant.value,
            "rows": [list(r) for r in turn.rows],
            "plays": plays,
            "choices": [row for _, row in turn.choices],
            "taken": taken,
            "heads": heads,
            "placements": [
                {
                    "player": e.player,
                    "card": e.card,
                    "row": e.row,
                    "side": e.side.value,
                    "taken": list(e.taken),
                }
                for e in placed
            ],
        }
        print(json.dumps(data))
        return 0
    out = console()
    for e in placed:
        how = {
            "right": "goes to the end of",
            "left": "goes to the start of",
            "take": "takes",
        }[e.side.value]
        line = f"player {e.player + 1}: {e.card} {how} row {e.row + 1}"
        if e.taken:
            heads_taken = plural(e.heads, "head")
            line += f" ({', '.join(map(str, e.taken))}: {heads_taken})"
        out.print(line)
    out.print()
    out.print("Rows after the turn:")
    out.print(rows_table(turn.rows, table=rules.heads))
    out.print()
    for p in range(n):
        out.print(
            f"player {p + 1}: played {plays[p]}, took ",
            cards_text(taken[p], rules.heads),
            f" = {plural(heads[p], 'head')}",
            sep="",
        )
    return 0
