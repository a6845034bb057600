"""The ``take6`` command: a front end over the packages.

``take6 turn`` (rules calculator), ``take6 play`` (bot games) and ``take6 replay`` (check a game
record) live here; other packages add subcommands through the ``take6.commands`` entry-point
group (``verify`` from ``proofs``, ``solve``/``check-certificate`` from ``solver``), so the rules
core imports none of them.

Every error is one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn

from rich.console import Console

from take6.cards import HEADS
from take6.display.terminal import cards_text, console, rows_table, scores_table
from take6.errors import FileError, Take6Error, UsageError
from take6.io.record import load_record
from take6.io.replay import replay
from take6.notation import parse_rows
from take6.play.bots import BOTS, make_bot
from take6.play.game import play_game, record_to_json
from take6.position import Position
from take6.rules import Comparison, EndCondition, ProfiTie, Rules, Variant
from take6.state import Action, ChooseRow
from take6.text import excerpt, parse_float, parse_int, plural
from take6.turn import (
    Event,
    Placed,
    Revealed,
    RoundScored,
    RoundStarted,
    Turn,
    TurnEnded,
    resolve_turn,
)

EXIT_USAGE = 2

MAX_PLAY_ROUNDS = 1000
"""The longest game ``take6 play`` plays (in rounds, about 20 s with 10 players): a target or a
number of rounds that allows a longer game is refused up front."""

MAX_MESSAGE = 500
"""An error line is cut to this many characters (messages already cut long inputs)."""


class CliError(UsageError):
    """A wrong command-line argument."""


def read_file(path: str, what: str) -> bytes:
    """The bytes of the file ``path`` (``-``: standard input); an unreadable file is a
    :class:`~take6.errors.FileError` naming ``what``, the file and the reason."""
    if path == "-":
        stdin = getattr(sys.stdin, "buffer", None)  # bytes, unless stdin is replaced by text
        data = stdin.read() if stdin is not None else sys.stdin.read()
        return data if isinstance(data, bytes) else data.encode("utf-8")
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise FileError(f"cannot read {what} {excerpt(path)}: {exc.strerror or exc}") from None


@contextlib.contextmanager
def file_errors(what: str, path: object) -> Iterator[None]:
    """Turn an ``OSError`` inside the block (writing ``what`` to ``path``) into a
    :class:`~take6.errors.FileError`."""
    try:
        yield
    except OSError as exc:
        raise FileError(
            f"cannot write {what} {excerpt(str(path))}: {exc.strerror or exc}"
        ) from None


def int_arg(text: str) -> int:
    """The one integer syntax of every option (``type=int`` in any ``take6`` parser, plugins
    included): :func:`take6.text.parse_int` -- ASCII digits with an optional sign, no Unicode
    digits or underscores, at most 40 digits."""
    try:
        return parse_int(text, "value")
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid int value: {excerpt(text)} (an integer in ASCII digits)"
        ) from None


def float_arg(text: str) -> float:
    """The one number syntax of every ``type=float`` option: :func:`take6.text.parse_float`
    (ASCII digits, a decimal point, a short exponent; no Unicode digits, ``nan`` or ``inf``)."""
    try:
        return parse_float(text, "value")
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid number: {excerpt(text)} (a number in ASCII digits)"
        ) from None


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line (and exit 2), not usage + error, and
    reads every ``type=int`` option with :func:`int_arg` and ``type=float`` with
    :func:`float_arg`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("type", int, int_arg)
        self.register("type", float, float_arg)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {_one_line(message)}\n")


def _one_line(message: str) -> str:
    text = " ".join(message.split())
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def _cards_arg(text: str, what: str) -> list[int]:
    out = []
    for tok in text.split(","):
        try:
            out.append(parse_int(tok, what))
        except ValueError:
            raise CliError(
                f"{what}: {excerpt(tok.strip())} is not a card number in {excerpt(text)}"
            ) from None
    return out


def _variant_names() -> list[str]:
    return [v.value for v in Variant]


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
    p.add_argument("--plays", required=True, help="the cards played, one per player, by ','")
    p.add_argument(
        "--choose",
        default="",
        help="row numbers (1-based), in order, for each card whose owner must choose",
    )
    p.add_argument("--variant", default="standard", choices=_variant_names())
    p.add_argument(
        "--profi-tie",
        default=ProfiTie.OWNER_CHOOSES.value,
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
) -> Turn:
    """Play one turn with :func:`take6.turn.resolve_turn`; ``choices`` are 1-based rows for the
    pending decisions, in order (the command line's numbering)."""
    deck = None
    if variant in (Variant.TAKTIK.value, Variant.LOGIK.value) and 2 <= len(plays) <= 10:
        # The Taktik and Logik decks are 1..10n+4, as in a real game of n players.
        deck = Rules.for_variant(variant, players=len(plays)).deck_size
    pos = Position.create(variant, rows, [[c] for c in plays], deck=deck)  # validates the table
    rules = pos.rules.with_(profi_tie=profi_tie)
    remaining = list(choices)
    used: list[int] = []
    while True:
        turn = resolve_turn(pos.rows, plays, rules, used)
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
    turn = _turn_of(rows, plays, choices, args.variant, ProfiTie(args.profi_tie))
    n = len(plays)
    taken = [list(t) for t in turn.taken(n)]
    heads = list(turn.heads(n))
    placed = turn.placed
    if args.json:
        data = {
            "variant": args.variant,
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
            heads_taken = plural(sum(HEADS[c] for c in e.taken), "head")
            line += f" ({', '.join(map(str, e.taken))}: {heads_taken})"
        out.print(line)
    out.print()
    out.print("Rows after the turn:")
    out.print(rows_table(turn.rows))
    out.print()
    for p in range(n):
        out.print(
            f"player {p + 1}: played {plays[p]}, took ",
            cards_text(taken[p]),
            f" = {plural(heads[p], 'head')}",
            sep="",
        )
    return 0


# -- take6 play -----------------------------------------------------------------------------


def _add_play(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a whole game between bots",
        description="Play a game between bots and print its log, or its JSON game record.",
        epilog="example: take6 play --variant standard --players 4 --seed 1 --bots safe,random",
    )
    p.add_argument("--variant", default="standard", choices=_variant_names())
    p.add_argument("--players", type=int, default=4, help="number of players (2..10)")
    p.add_argument("--seed", type=int, default=1, help="seed of the shuffles and the bots")
    p.add_argument(
        "--bots",
        default="safe",
        help=f"one bot for everyone or one per player, by ',' (known: {', '.join(BOTS)})",
    )
    p.add_argument("--target", type=int, default=None, help="end target total (default 66)")
    p.add_argument(
        "--above",
        action="store_true",
        help="end only when a total is strictly above the target (Category 5 style)",
    )
    p.add_argument("--rounds", type=int, default=None, help="end after this many rounds")
    p.add_argument("--hand-size", type=int, default=None, help="cards per hand (studies)")
    p.add_argument(
        "--first-picker",
        default=None,
        help="Logik: seat (1-based) that picks first (default 1), or 'random' (drawn from the "
        "seed)",
    )
    p.add_argument(
        "--profi-tie",
        default=ProfiTie.OWNER_CHOOSES.value,
        choices=[t.value for t in ProfiTie],
    )
    p.add_argument("--json", action="store_true", help="print the JSON game record")
    p.add_argument("--summary", action="store_true", help="print only the scores")
    p.set_defaults(func=_run_play)


def _build_rules(args: argparse.Namespace) -> Rules:
    base = Rules.for_variant(args.variant, players=args.players)  # checks the players first
    overrides: dict[str, Any] = {"profi_tie": ProfiTie(args.profi_tie)}
    if args.hand_size is not None:
        overrides["hand_size"] = args.hand_size
    if args.target is not None or args.rounds is not None or args.above:
        # --rounds N alone is a game of exactly N rounds: no target ends it earlier.
        target = args.target
        if target is None and args.rounds is None:
            target = base.end.target
        overrides["end"] = EndCondition(
            target=target,
            comparison=Comparison.ABOVE if args.above else Comparison.AT_LEAST,
            rounds=args.rounds if args.rounds is not None else base.end.rounds,
        )
    if args.first_picker is not None:
        if not base.draft:
            raise CliError(
                f"--first-picker is for Logik's draft; {args.variant} has no draft (no picks)"
            )
        if args.first_picker == "random":
            seat = random.Random(f"first-picker:{args.seed}").randrange(args.players)
        else:
            try:
                seat = parse_int(args.first_picker, "--first-picker") - 1
            except ValueError as exc:
                raise CliError(f"{exc}; give a seat 1..{args.players} or 'random'") from None
            if not 0 <= seat < args.players:
                raise CliError(
                    f"--first-picker must be a seat 1..{args.players} or 'random', got "
                    f"{excerpt(args.first_picker)}"
                )
        overrides["first_picker"] = seat
    rules = Rules.for_variant(args.variant, players=args.players, **overrides)
    rules.check_always_ends()
    longest = rules.max_rounds
    assert longest is not None  # check_always_ends
    if longest > MAX_PLAY_ROUNDS:
        if rules.end.rounds is not None and rules.end.rounds > MAX_PLAY_ROUNDS:
            why = f"--rounds {rules.end.rounds}:"
        else:
            why = (
                f"a game to {rules.end.target} with {rules.players} players can last "
                f"{longest} rounds:"
            )
        raise CliError(
            f"{why} take6 play plays at most {MAX_PLAY_ROUNDS} rounds (lower the target or "
            "give --rounds)"
        )
    return rules


def _run_play(args: argparse.Namespace) -> int:
    rules = _build_rules(args)
    names = [b.strip() for b in args.bots.split(",")]
    if len(names) == 1:
        names *= rules.players
    if len(names) != rules.players:
        raise CliError(f"--bots names {len(names)} bots for {rules.players} players")
    bots = [make_bot(name) for name in names]
    record = play_game(rules, bots, args.seed, keep_states=False)
    final = record.final
    if args.json:
        print(json.dumps(record_to_json(record)))
        return 0
    out = console()
    players = [f"P{p + 1} ({names[p]})" for p in range(rules.players)]
    if not args.summary:
        _print_log(out, rules, record.actions, record.events, players)
    out.rule(f"Final scores ({rules.variant.value}, {rules.players} players, seed {args.seed})")
    out.print(scores_table(players, final.round_scores, final.totals, final.winners()))
    won = ", ".join(f"P{p + 1}" for p in final.winners())
    best = "most" if not rules.lowest_wins else "fewest"
    out.print(f"Winner{'s' if len(final.winners()) > 1 else ''}: {won} ({best} heads)")
    return 0


def _print_log(
    out: Console,
    rules: Rules,
    actions: Sequence[Action],
    events: Sequence[Sequence[Event]],
    players: Sequence[str],
) -> None:
    """The game log, read from the events of each action (:mod:`take6.turn`)."""
    plays: list[str] = []
    for action, evs in zip(actions, events, strict=True):
        if isinstance(action, ChooseRow):
            plays.append(f"(P{action.player + 1} chooses row {action.row + 1})")
        takes: list[str] = []
        for e in evs:
            if isinstance(e, RoundStarted):
                out.rule(f"Round {e.round}")
                if rules.draft:
                    for p, hand in enumerate(e.hands):
                        out.print(f"{players[p]} drafted ", cards_text(hand), sep="")
                out.print(rows_table(e.rows))
            elif isinstance(e, Revealed):
                plays.extend(f"P{p + 1} {c}" for p, c in e.plays)
            elif isinstance(e, Placed) and e.taken:
                takes.append(
                    f"P{e.player + 1} takes row {e.row + 1} "
                    f"({', '.join(map(str, e.taken))}: {sum(HEADS[c] for c in e.taken)})"
                )
            elif isinstance(e, TurnEnded):
                if takes:
                    plays.append("→ " + "; ".join(takes))
                    takes = []
                out.print(f"turn {e.turn}: " + "  ".join(plays))
                plays = []
            elif isinstance(e, RoundScored):
                out.print(
                    "round "
                    f"{e.round} heads: "
                    + ", ".join(f"P{p + 1} {h}" for p, h in enumerate(e.heads))
                    + " | totals: "
                    + ", ".join(f"P{p + 1} {t}" for p, t in enumerate(e.totals))
                )
        if takes:
            plays.append("→ " + "; ".join(takes))


# -- take6 replay ---------------------------------------------------------------------------


def _add_replay(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="check a JSON game record by replaying it through the rules engine",
        description=(
            "Replay a JSON game record (docs/records.md) through the reference engine. Exit 0 "
            "when every action is legal and the recorded rounds, scores and winners match the "
            "replay; 1 when they do not (naming the step and the action); 2 on malformed input."
        ),
        epilog="example: take6 play --json > game.json && take6 replay game.json",
    )
    p.add_argument("file", metavar="FILE", help="the JSON game record ('-' reads stdin)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_run_replay)


def _run_replay(args: argparse.Namespace) -> int:
    result = replay(load_record(read_file(args.file, "the game record")))
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.message())
    return 0 if result.ok else 1


# -- dispatcher -----------------------------------------------------------------------------


BUILTIN_COMMANDS = ("turn", "play", "replay")
"""The commands of the engine itself: running one loads no plugin (no z3, no solver)."""


def _plugins(only: str | None = None) -> list[Callable[[Any], None]]:
    """The ``register`` functions of the ``take6.commands`` plugins (only the one named
    ``only`` when given). Loading a plugin imports its command module, so this runs only when
    a plugin's command (or the full command list) is asked for."""
    from importlib import metadata  # not needed (and not imported) by the built-in commands

    out = []
    for ep in sorted(metadata.entry_points(group="take6.commands"), key=lambda e: e.name):
        if only is not None and ep.name != only:
            continue
        try:
            out.append(ep.load())
        except ModuleNotFoundError as exc:  # an optional package not installed
            print(f"take6: warning: command {ep.name!r} unavailable ({exc})", file=sys.stderr)
    return out


def _command_of(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line (the first word not an option), if any."""
    return next((a for a in argv if not a.startswith("-")), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The ``take6`` parser. With ``argv``, only what that command needs is registered: a
    built-in command loads no plugin, a plugin's command (named as its entry point) loads only
    that plugin; anything else (``--help``, ``check-certificate``, a typo) loads them all."""
    parser = _Parser(
        prog="take6",
        description="6 nimmt! rules engine, rules verifier and exact solver.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    _add_turn(sub)
    _add_play(sub)
    _add_replay(sub)
    command = None if argv is None else _command_of(argv)
    if command in BUILTIN_COMMANDS:
        return parser
    registers = _plugins(command) if command is not None else []
    if not registers:
        registers = _plugins()
    for register in registers:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return its exit status (0 ok, 1 a check failed, 2 bad input)."""
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    try:
        args = parser.parse_args(argv)
        code = args.func(args)
        return int(code)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2, already printed)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    except Take6Error as exc:  # every error a user can cause; anything else is a bug
        print(f"take6: error: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("take6: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
