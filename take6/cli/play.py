"""``take6 play``: a whole game between bots, its log or its JSON record."""

from __future__ import annotations

import argparse
import json
import random
import textwrap
from collections.abc import Sequence
from typing import Any

from rich.console import Console

from take6.cli.common import CliError, _variant_names, add_rules_option, file_errors, rules_option
from take6.display.terminal import cards_text, console, rows_table, scores_table
from take6.play.bots import BOTS, make_bot
from take6.play.game import play_game, record_to_json
from take6.rules import Comparison, EndCondition, ProfiTie, Rules
from take6.state import Action, ChooseRow, State
from take6.text import excerpt, parse_int
from take6.turn import (
    Event,
    Placed,
    Revealed,
    RoundScored,
    RoundStarted,
    TurnEnded,
)

HUMAN = "human"
"""The ``--bots`` name that seats a person at the terminal (:mod:`take6.cli.human`)."""

MAX_PLAY_ROUNDS = 1000
"""The longest game ``take6 play`` plays (in rounds, about 20 s with 10 players): a target or a
number of rounds that allows a longer game is refused up front."""


# -- take6 play -----------------------------------------------------------------------------


def _add_play(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a whole game between bots, or against them (--bots human,...)",
        description=textwrap.fill(
            "Play a game between bots and print its log, or its JSON game record. With 'human' "
            "in --bots, a person plays that seat at this terminal: cards and rows are asked at "
            "a prompt (an illegal answer is refused with the reason and asked again); end of "
            "input (Ctrl-D) or 'quit' abandons the game (exit 0), Ctrl-C too (exit 130); "
            "--record FILE keeps the record, of an abandoned game too.",
            width=78,
        ),
        epilog="examples: take6 play --variant standard --players 4 --seed 1 --bots safe,random\n"
        "          take6 play --players 3 --bots human,safe,random --seed 7 --record game.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--variant", default=None, choices=_variant_names(), help="the preset (default standard)"
    )
    add_rules_option(p)
    p.add_argument("--players", type=int, default=None, help="number of players (2..10; 4)")
    p.add_argument("--seed", type=int, default=1, help="seed of the shuffles and the bots")
    p.add_argument(
        "--bots",
        default="safe",
        help=f"one bot for everyone or one per player, by ',' (known: {', '.join(BOTS)}); "
        "'human' seats a person at this terminal (e.g. human,safe,safe,random)",
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
        default=None,
        choices=[t.value for t in ProfiTie],
        help="Profi: who settles a left/right tie (default: the owner chooses)",
    )
    p.add_argument("--json", action="store_true", help="print the JSON game record")
    p.add_argument("--record", metavar="FILE", help="write the JSON game record to FILE")
    p.add_argument("--summary", action="store_true", help="print only the scores")
    p.set_defaults(func=_run_play)


def _build_rules(args: argparse.Namespace) -> Rules:
    options = ("variant", "players", "hand_size", "target", "above", "rounds", "first_picker")
    given = {f"--{o.replace('_', '-')}": getattr(args, o) for o in (*options, "profi_tie")}
    found = rules_option(args, given)
    if found is not None:
        return _playable(found.rules)
    args.variant = args.variant or "standard"
    args.players = 4 if args.players is None else args.players
    base = Rules.for_variant(args.variant, players=args.players)  # checks the players first
    overrides: dict[str, Any] = {"profi_tie": ProfiTie(args.profi_tie or "owner")}
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
    return _playable(Rules.for_variant(args.variant, players=args.players, **overrides))


def _playable(rules: Rules) -> Rules:
    """``rules``, unless a game under them might never end or last too long to play."""
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
    if args.record is not None and not args.record.strip():
        raise CliError("--record needs a file name, got an empty one")
    if HUMAN in names:
        from take6.cli.human import play_with_humans  # the prompts: only for a human's game

        return play_with_humans(rules, names, args)
    bots = [make_bot(name) for name in names]
    record = play_game(rules, bots, args.seed, keep_states=False)
    if args.record:
        write_record(args.record, record_to_json(record))
    if args.json:
        print(json.dumps(record_to_json(record)))
        return 0
    out = console()
    players = [f"P{p + 1} ({names[p]})" for p in range(rules.players)]
    if not args.summary:
        _print_log(out, rules, record.actions, record.events, players)
    print_final(out, rules, record.final, players, args.seed)
    return 0


def write_record(path: str, record: dict[str, Any]) -> None:
    """Write the JSON game ``record`` to ``path`` (``--record FILE``), one line; a file that
    cannot be written is a :class:`~take6.errors.FileError` naming it."""
    with file_errors("the game record", path), open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")


def print_final(
    out: Console, rules: Rules, final: State, players: Sequence[str], seed: int
) -> None:
    """The final scores table and the winners of a finished game."""
    out.rule(f"Final scores ({rules.variant.value}, {rules.players} players, seed {seed})")
    out.print(scores_table(players, final.round_scores, final.totals, final.winners()))
    won = ", ".join(f"P{p + 1}" for p in final.winners())
    best = "most" if not rules.lowest_wins else "fewest"
    out.print(f"Winner{'s' if len(final.winners()) > 1 else ''}: {won} ({best} heads)")


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
                        out.print(f"{players[p]} drafted ", cards_text(hand, rules.heads), sep="")
                out.print(rows_table(e.rows, table=rules.heads))
            elif isinstance(e, Revealed):
                plays.extend(f"P{p + 1} {c}" for p, c in e.plays)
            elif isinstance(e, Placed) and e.taken:
                takes.append(
                    f"P{e.player + 1} takes row {e.row + 1} "
                    f"({', '.join(map(str, e.taken))}: {e.heads})"
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
