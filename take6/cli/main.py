"""The ``take6`` command: a front end over the packages.

The dispatcher. ``take6 turn`` (rules calculator, :mod:`take6.cli.turn`), ``take6 play`` (bot
games, and games against them: :mod:`take6.cli.play`, :mod:`take6.cli.human`) and ``take6
replay`` (check a game record, :mod:`take6.cli.replay`) are the engine's own commands; other
packages add subcommands through the ``take6.commands`` entry-point group (``verify`` from
``proofs``, ``solve``/``check-certificate``/``analyse``/``draft``/``study`` from ``solver``), so
the rules core imports none of them.

Every error a user can cause (:class:`~take6.errors.Take6Error`) is one line on stderr and exit
status 2; anything else is a bug and shows its traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from take6.cli.common import EXIT_USAGE, _one_line, _Parser
from take6.cli.completion import _add_completion
from take6.cli.play import _add_play
from take6.cli.replay import _add_replay
from take6.cli.turn import _add_turn
from take6.errors import Take6Error

# -- dispatcher -----------------------------------------------------------------------------


BUILTIN_COMMANDS = ("turn", "play", "replay", "completion")
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


def version() -> str:
    """The installed distribution's version ("unknown" when run from a source tree that was
    never installed)."""
    from importlib import metadata

    try:
        return metadata.version("take6")
    except metadata.PackageNotFoundError:
        return "unknown"


class _Version(argparse.Action):
    """``--version``, looked up only when asked (the metadata import costs every command)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(f"take6 {version()}")
        parser.exit()


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The ``take6`` parser. With ``argv``, only what that command needs is registered: a
    built-in command loads no plugin, a plugin's command (named as its entry point) loads only
    that plugin; anything else (``--help``, ``check-certificate``, a typo) loads them all."""
    parser = _Parser(
        prog="take6",
        description="6 nimmt! rules engine, rules verifier and exact solver.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    _add_turn(sub)
    _add_play(sub)
    _add_replay(sub)
    _add_completion(sub)
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
    except BrokenPipeError:  # the reader went away (``take6 ... | head``): nothing to say
        # (stdout pointed at /dev/null, so the interpreter's last flush at exit is quiet too)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + 13  # as a process killed by SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
