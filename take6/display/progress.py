"""The progress line every long command shows on stderr (``solve``, ``draft``, ``study``,
``verify``, ``conform``): one helper, one behaviour.

* On a terminal: a rich live line, rewritten in place (a bar when the work is counted) and
  removed when the work ends, so the terminal keeps only the command's result.
* Into a pipe or a file: nothing, unless asked with ``--progress``; then a plain line at most
  every :data:`PLAIN_EVERY` seconds (a log stays short).

``--progress`` / ``--no-progress`` (:func:`add_progress_option`) override the default, which
is "when stderr is a terminal" (:func:`wanted`). The result of a command never goes to
stderr, so ``--json`` output on stdout stays the JSON alone."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # rich is imported when a line is made: registering a command stays cheap
    from rich.console import Console, RenderableType
    from rich.live import Live

PLAIN_EVERY = 10.0
"""Seconds between two plain progress lines (stderr not a terminal, ``--progress`` given)."""

TTY_EVERY = 0.1
"""Seconds between two updates of the live line (it is redrawn 4 times a second)."""


def add_progress_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--progress`` / ``--no-progress`` (``args.progress``: True, False or None for the
    default); ``what`` says what the line shows."""
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"a progress line on stderr ({what}); default: when stderr is a terminal",
    )


def wanted(flag: bool | None) -> bool:
    """Whether to show progress: ``flag`` when given, else whether stderr is a terminal."""
    return flag if flag is not None else sys.stderr.isatty()


def count(n: int) -> str:
    """A count, short: ``950``, ``12.0k``, ``3.4M``, ``1.2G``."""
    for unit, size in (("G", 10**9), ("M", 10**6), ("k", 10**3)):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return str(n)


def clock(secs: float) -> str:
    """Seconds as ``h:mm:ss``."""
    m, sec = divmod(int(secs), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{sec:02d}"


class ProgressLine:
    """The progress line on stderr (see the module docstring). Call :meth:`show` with free
    text or :meth:`count_up` for counted work, as often as convenient (a terminal is redrawn
    4 times a second, a pipe gets a line every :data:`PLAIN_EVERY` seconds), and
    :meth:`close` at the end (in a ``finally``: the live line must not outlive the work).

    ``console`` (default: rich's console on stderr) decides whether this is a terminal, so a
    test can pass ``Console(file=..., force_terminal=True)``."""

    def __init__(self, console: Console | None = None) -> None:
        from rich.console import Console

        self.console = console if console is not None else Console(stderr=True)
        self.tty = self.console.is_terminal
        self.last = 0.0
        self.shown = False
        self._live: Live | None = None
        self._first: tuple[str, int, float] | None = None

    def show(self, secs: float, text: str) -> None:
        """Show ``text`` (``secs``: seconds since the work began)."""
        from rich.text import Text

        if self._due(secs, final=False):
            self._emit(Text(text), text)

    def count_up(self, label: str, done: int, total: int, secs: float, text: str = "") -> None:
        """Counted work: ``done`` of ``total`` after ``secs`` seconds, a bar on a terminal, with
        ``text`` and the time elapsed and (from the rate so far) left."""
        from rich.progress_bar import ProgressBar
        from rich.table import Table
        from rich.text import Text

        if self._first is None or self._first[0] != label or done < self._first[1]:
            self._first = (label, done, secs)  # the rate counts from here
        _, d0, s0 = self._first
        if not self._due(secs, final=done >= total):
            return
        left = ""
        if done > d0 and secs > s0 and total >= done:
            left = f"  left {clock((total - done) * (secs - s0) / (done - d0))}"
        tail = f"{'  ' + text if text else ''}  {clock(secs)}{left}"
        plain = f"{label} {done}/{total}{tail}"
        if not self.tty:
            self._emit(Text(plain), plain)
            return
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column(width=20)
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True, overflow="ellipsis")
        grid.add_row(
            Text(label, style="bold"),
            ProgressBar(total=max(total, 1), completed=done, width=20),
            Text(f"{done}/{total}"),
            Text(tail.strip(), style="cyan"),
        )
        self._emit(grid, plain)

    def _due(self, secs: float, final: bool) -> bool:
        """Whether to draw now: on a terminal at most every :data:`TTY_EVERY` seconds (the
        first and the last state always), in a pipe every :data:`PLAIN_EVERY` seconds and at
        the end of counted work that printed before; a caller may call as often as it likes."""
        if self.tty:
            due = self._live is None or final or secs - self.last >= TTY_EVERY
        else:
            due = secs - self.last >= PLAIN_EVERY or (final and self.shown)
        if due:
            self.last = secs
        return due

    def _emit(self, shown: RenderableType, plain: str) -> None:
        if not self.tty:
            self.console.file.write(plain + "\n")
            self.console.file.flush()
            self.shown = True
            return
        if self._live is None:
            from rich.live import Live

            # stdout is not redirected: a command's result (maybe piped) stays on stdout
            self._live = Live(
                shown,
                console=self.console,
                transient=True,
                redirect_stdout=False,
                redirect_stderr=False,
                refresh_per_second=4,
            )
            self._live.start(refresh=True)
        else:
            self._live.update(shown)
        self.shown = True

    def close(self) -> None:
        """Remove the live line (a terminal); nothing to do for plain lines."""
        if self._live is not None:
            self._live.stop()
            self._live = None

    def __enter__(self) -> ProgressLine:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def progress_line(flag: bool | None) -> ProgressLine | None:
    """A :class:`ProgressLine` when progress is :func:`wanted`, else None."""
    return ProgressLine() if wanted(flag) else None
