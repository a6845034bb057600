"""What every ``take6`` command shares: the one-line error and exit status 2, the one integer
syntax of every option, reading and writing files as :class:`~take6.errors.FileError`."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from typing import Any, NoReturn

from take6.errors import FileError, UsageError
from take6.io.rulesfile import RulesFile, read_rules_file
from take6.rules import Variant
from take6.text import excerpt, parse_float, parse_int

EXIT_USAGE = 2

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


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    """The ``--rules FILE`` option of every command that plays under a rule set."""
    parser.add_argument(
        "--rules",
        metavar="FILE",
        default=None,
        help="play under the rule set of this TOML rules file (docs/rules-file.md) instead of "
        "--variant and the rules options",
    )


def rules_option(args: argparse.Namespace, conflicts: dict[str, object]) -> RulesFile | None:
    """The rules file ``args.rules`` names (``None``: no ``--rules``); ``conflicts`` maps each
    rules option of the command to its value, and any one given (not ``None``/``False``)
    alongside ``--rules`` is refused: the file is the one place the rule set is written."""
    path = getattr(args, "rules", None)
    if path is None:
        return None
    for option, value in conflicts.items():
        if value is not None and value is not False:
            raise CliError(
                f"{option} and --rules exclude each other: the rules file sets the rule set "
                f"(put the setting in {excerpt(path)})"
            )
    return read_rules_file(path)


def _variant_names() -> list[str]:
    return [v.value for v in Variant]
