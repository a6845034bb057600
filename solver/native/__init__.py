"""The compiled search core, behind the same interface as :class:`solver.search.Search`.

``solver/native/_core.cpp`` restates the Python search (same algorithm, same canonical key, exact
rational arithmetic) for speed; it is built by ``pip install`` where a C++ compiler is present and
is optional: :data:`AVAILABLE` says whether it was built, :func:`unavailable_reason` why not.
:class:`NativeSearch` wraps it for the rest of the solver (results, principal line, certificates,
graphs), so everything built on the search works with either core. Values are equal, not close:
``tests/solver/test_native.py`` compares the two cores on random positions of every kind.

The transposition table lives in one block sized from a memory budget (``memory`` bytes); the
default is :func:`default_memory`. Limits (time, nodes), a progress callback and Ctrl-C stop the
search with proven bounds.
"""

from __future__ import annotations

import importlib.util
import math
import os
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from types import ModuleType
from typing import Any, NamedTuple

from solver.errors import SolverError
from solver.kernel import Hands, Table
from solver.matrix import Num
from solver.problem import CHECKPOINT_EVERY, Problem
from solver.search import INF, Entry, JointAction, Solution
from solver.search.alphabeta import check_seat
from take6.rules import ProfiTie, Rules

_core: ModuleType | None
try:
    from solver.native import _core  # type: ignore[attr-defined, unused-ignore]
except ImportError as exc:  # no compiler at install time, or a broken build
    _core = None
    if importlib.util.find_spec("solver.native._core") is None:
        _REASON = (
            "the compiled core was not built (install with g++ and GMP's headers present, "
            "e.g. apt-get install g++ libgmp-dev, then pip install again)"
        )
    else:
        _REASON = f"the compiled core does not load: {exc}"
else:
    _REASON = ""

AVAILABLE = _core is not None
"""Whether the compiled core is importable."""

_TIE = {ProfiTie.OWNER_CHOOSES: 0, ProfiTie.PREFER_RIGHT: 1, ProfiTie.PREFER_LEFT: 2}
MAX_NATIVE_CARD = 127
"""The highest card the compiled core represents (its hands are 128-bit sets, ``MAXCARD``)."""
MIN_MEMORY = 1 << 16
"""The smallest table budget accepted (64 KiB)."""
BUCKET_BYTES = 129
"""Bytes per bucket of four table entries (4 x 32 bytes and a lock byte)."""


def unavailable_reason() -> str:
    """Why the compiled core cannot be used ('' when it can)."""
    return _REASON


def physical_memory() -> int:
    """The machine's physical memory in bytes (0 if unknown)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0


def default_memory() -> int:
    """The default table budget: a quarter of physical memory, at most 4 GiB (pages are only
    committed as the table fills, so a small search costs little whatever the budget)."""
    phys = physical_memory()
    return min(4 << 30, phys // 4) if phys else 1 << 30


def parse_memory(text: str) -> int:
    """A memory budget such as ``512M``, ``12G``, ``1.5GiB`` or a byte count; raises
    :class:`SolverError` naming the text."""
    t = text.strip().upper().removesuffix("B").removesuffix("I")
    scale = 1
    for suffix, mult in (("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30), ("T", 1 << 40)):
        if t.endswith(suffix):
            t, scale = t[: -len(suffix)], mult
            break
    try:
        value = float(t)
    except ValueError:
        raise SolverError(f"bad memory budget {text[:40]!r} (e.g. 512M, 12G)") from None
    if not value > 0 or value != value or value == float("inf"):
        raise SolverError(f"bad memory budget {text[:40]!r}: must be a positive size")
    return int(value * scale)


def check_memory(memory: int) -> None:
    """Refuse a budget that cannot work here, with a one-line :class:`SolverError`."""
    phys = physical_memory()
    if memory < MIN_MEMORY:
        raise SolverError(f"memory budget {memory} bytes is below the minimum of 64 KiB")
    if phys and memory > phys:
        raise SolverError(
            f"memory budget {memory / 2**30:.1f} GiB exceeds this machine's "
            f"{phys / 2**30:.1f} GiB of physical memory"
        )


@dataclass
class NativeStats:
    """The counters of :class:`solver.search.Stats`, read from the core."""

    nodes: int = 0
    lps: int = 0
    saddles: int = 0
    hits: int = 0
    filled: int = 0
    capacity: int = 0
    max_capacity: int = 0
    table_bytes: int = 0


class Finished(NamedTuple):
    """A search started by :meth:`NativeSearch.start` that has finished."""

    id: int
    entry: Entry
    """Its bounds, with the window semantics of :meth:`NativeSearch.value` (looser when a
    limit, Ctrl-C or :meth:`NativeSearch.cancel` stopped it)."""
    nodes: int
    seconds: float
    """Wall-clock seconds from its start to its end."""


@dataclass
class _TableView:
    """``len(search.table)``: the number of filled table slots, as for the Python search."""

    core: Any = field(repr=False)

    def __len__(self) -> int:
        return int(self.core.stats()["filled"])


PROGRESS_EVERY = 0.5
"""Seconds between two calls of a search's ``progress`` callback, unless the search is given
its own ``progress_every``."""

Progress = Callable[[int, int, int, float, Fraction, Fraction], None]
"""``progress(nodes, filled, capacity, seconds, root_lower, root_upper)``. A callback that also
has a ``where(text)`` method is told, before each call, where the root's stage game is
(:func:`root_text`), so that an hours-long search whose bounds do not move still shows how far
it got."""

_ROOT_PHASES = {1: "rows", 2: "columns", 3: "mixed game, cells"}


def root_text(phase: int, done: int, total: int) -> str | None:
    """Where the root's stage game is, from the core's ``(phase, done, total)``: the max
    side's pure phase (``root rows 3/10``: 3 of its 10 rows finished), the min side's
    (``root columns``), or the refinement of a mixed game (cells refined this round); None
    before the root was expanded."""
    name = _ROOT_PHASES.get(phase)
    return None if name is None else f"root {name} {done}/{total}"


_FIT = 1 << 62
"""The core reads a window end as a fraction of two 64-bit integers below this."""
_GRID = 1 << 32
"""A window end that does not fit is rounded outward to a multiple of 1/_GRID."""


MAX_NATIVE_CAPACITY = 250
"""The compiled core keeps a row's length in 8 bits."""
CHECKPOINT_DEPTH = 2
"""By default a checkpoint keeps the entries of positions of at least this many cards a hand:
every entry. Measured on a 2 x 8 deal stopped halfway (15 M of its 34 M nodes): resumed from every
entry it needs the 19 M nodes left; from those of 3+ cards (a third of the file) 28 M, from 4+
29 M. A larger ``checkpoint_depth`` writes a far smaller file (the deep entries only, and the long
exact values they refer to), to carry a long solve to another machine: on a 2 x 9 deal stopped at
60 M of its 118 M nodes, the whole file (307 MB) left 47 M nodes to do, 4+ cards (22 MB) 92 M, 6+
(265 kB) 95 M."""


def check_checkpoint_depth(depth: int) -> None:
    """Refuse a checkpoint depth below 2 (positions of 1 card a hand are never stored)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 2:
        raise SolverError(f"checkpoint depth must be at least 2 cards a hand, got {depth!r}")


def _check_rules(rules: Rules, players: int) -> None:
    """Refuse, with a one-line :class:`SolverError`, rules beyond the compiled core."""
    if rules.rows > 16:
        raise SolverError(f"the compiled core handles at most 16 rows, not {rules.rows}")
    if rules.row_capacity > MAX_NATIVE_CAPACITY:
        raise SolverError(
            f"the compiled core handles rows of at most {MAX_NATIVE_CAPACITY} cards, not "
            f"{rules.row_capacity}"
        )
    if players > 10:
        raise SolverError(f"the compiled core handles at most 10 players, not {players}")
    if rules.max_card > MAX_NATIVE_CARD:
        raise SolverError(
            f"the compiled core handles cards 1..{MAX_NATIVE_CARD}, but the deck goes up to "
            f"{rules.max_card} (use --core python)"
        )


def _heads(rules: Rules) -> list[int]:
    """The rules' bull heads by card (not a table of the core's own)."""
    table = rules.heads
    return [table[c] if 0 < c < len(table) else 0 for c in range(MAX_NATIVE_CARD + 1)]


class NativeSearch:
    """Exact search for one problem on the compiled core (the interface of
    :class:`solver.search.Search`: :meth:`value`, :meth:`solved`, :meth:`actions`)."""

    core_name = "native"

    def __init__(
        self,
        problem: Problem,
        time_limit: float | None = None,
        node_limit: int | None = None,
        memory: int | None = None,
        threads: int = 1,
        progress: Progress | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        checkpoint_every: float = CHECKPOINT_EVERY,
        progress_every: float | None = None,
        checkpoint_depth: int = CHECKPOINT_DEPTH,
        killers: bool = True,
    ) -> None:
        """``progress`` is called about every ``progress_every`` seconds (from the main
        thread, between nodes). A checkpoint keeps the entries of positions of at least
        ``checkpoint_depth`` cards a hand (see :data:`CHECKPOINT_DEPTH`). ``killers``: where
        the table has no hint, try first each side's best card at the last position of as many
        cards a hand, carried from search to search (a solve by cells, whose leaves share one
        root). The draft turns them off for its 2-player leaves (unrelated deals, searched with
        windows at 0), where they were measured to cost nodes. Only the order of the search
        changes, never a value."""
        if _core is None:
            raise SolverError(_REASON)
        if checkpoint_every <= 0:
            raise SolverError(f"checkpoint interval must be positive, got {checkpoint_every:g} s")
        check_checkpoint_depth(checkpoint_depth)
        self.checkpoint_depth = checkpoint_depth
        rules = problem.rules
        _check_rules(rules, problem.players)
        memory = default_memory() if memory is None else memory
        check_memory(memory)
        self.problem = problem
        self.memory = memory
        self.threads = max(1, threads)
        self.killers = killers
        heads = _heads(rules)
        try:
            self.core = _core.Search(
                heads,
                rules.row_capacity,
                int(rules.profi_left),
                _TIE[rules.profi_tie],
                list(problem.weights),
                list(problem.max_side),
                list(problem.min_side),
                memory,
            )
        except MemoryError:
            raise SolverError(
                f"cannot allocate a {memory / 2**20:.0f} MiB transposition table"
            ) from None
        self.table = _TableView(self.core)
        self._progress = progress
        self.checkpoint = None if checkpoint is None else os.fspath(checkpoint)
        self.checkpoint_every = checkpoint_every
        self.progress_every = PROGRESS_EVERY if progress_every is None else progress_every
        self._limits(time_limit, node_limit)

    def _limits(self, time_limit: float | None, node_limit: int | None) -> None:
        cb = None
        if self._progress is not None:
            user = self._progress

            where = getattr(user, "where", None)
            # The core holds this callback, so the callback holds the search only weakly: a
            # cycle (core -> callback -> search -> core) would keep the whole table until the
            # cyclic collector runs; this way it goes as soon as the search is dropped.
            me = weakref.ref(self)

            def cb(
                nodes: int,
                filled: int,
                cap: int,
                secs: float,
                lo: tuple[int, int],
                hi: tuple[int, int],
            ) -> None:
                search = me()
                if callable(where) and search is not None:
                    where(root_text(*search.core.stats()["root"]))
                user(nodes, filled, cap, secs, Fraction(*lo), Fraction(*hi))

        self.core.configure(
            time_limit=time_limit or 0.0,
            node_limit=node_limit or 0,
            progress=cb,
            every=self.progress_every,
            threads=self.threads,
            checkpoint=None if self.checkpoint is None else os.fsencode(self.checkpoint),
            checkpoint_every=self.checkpoint_every,
            checkpoint_depth=self.checkpoint_depth,
            killers=self.killers,
        )

    def resume(self, path: str | os.PathLike[str]) -> tuple[int, int]:
        """Read a checkpoint written by :meth:`save` (for the same rules, objective and
        player) into the table: the number of entries and of long exact values read. Raises
        :class:`SolverError` for a file that is not such a checkpoint, is damaged, or cannot be
        read; the table is then unchanged."""
        try:
            entries, longs = self.core.load(os.fsencode(path))
        except (ValueError, OSError) as e:
            raise SolverError(f"checkpoint {e}") from None
        return int(entries), int(longs)

    def save(self, path: str | os.PathLike[str]) -> tuple[int, int]:
        """Write the table's entries (every one, see CHECKPOINT_DEPTH) and its long exact values
        to ``path`` (through a temporary file renamed at the end, so a run killed
        meanwhile leaves the previous checkpoint whole): the numbers written."""
        try:
            entries, longs = self.core.save(os.fsencode(path))
        except OSError as e:
            raise SolverError(f"checkpoint not saved: {e}") from None
        return int(entries), int(longs)

    @property
    def checkpoints(self) -> int:
        """Checkpoints written during searches (every ``checkpoint_every`` seconds)."""
        return int(self.core.checkpoints())

    @property
    def stats(self) -> NativeStats:
        skip = ("stopped", "root", "running", "nested_loops", "helped_tasks")
        return NativeStats(**{k: v for k, v in self.core.stats().items() if k not in skip})

    @property
    def stopped(self) -> bool:
        return bool(self.core.stats()["stopped"])

    @property
    def interrupted(self) -> bool:
        """True when Ctrl-C stopped the last search (its bounds are still proven)."""
        return bool(self.core.interrupted())

    def release_limits(self) -> None:
        """Lift the time and node limits (to read strategies out of a solved search)."""
        self._limits(None, None)

    @staticmethod
    def _q(v: Num, up: bool = False) -> tuple[int, int]:
        """``v`` as the core's 64-bit fraction. A window end that does not fit (an exact value
        of thousands of digits, passed back in as a bound by a caller such as the draft) is
        rounded outward, down for alpha and ``up`` for beta, to a multiple of 2^-32 (past INF to
        INF): a wider window gives the same answer for the original one."""
        if type(v) is int and -_FIT < v < _FIT:
            return v, 1  # (the common case: a whole number of heads)
        f = v if type(v) is Fraction else Fraction(v)
        if abs(f.numerator) < _FIT and f.denominator < _FIT:
            return f.numerator, f.denominator
        if abs(f) >= INF:
            return (INF if f > 0 else -INF), 1
        scaled = f * _GRID
        n = math.ceil(scaled) if up else math.floor(scaled)
        out = Fraction(n, _GRID)
        return out.numerator, out.denominator

    def value(self, table: Table, hands: Hands, alpha: Num = -INF, beta: Num = INF) -> Entry:
        """Bounds on a position's value with the window semantics of
        :meth:`solver.search.Search.value` (no strategies in the entry)."""
        if not hands[0]:
            return Entry(0, 0)
        lo, hi = self.core.value(table, hands, self._q(alpha), self._q(beta, up=True))
        return Entry(_num(lo), _num(hi))

    def start(self, table: Table, hands: Hands, alpha: Num = -INF, beta: Num = INF) -> int:
        """Start :meth:`value` of a position on a thread of its own, sharing the table with
        the other searches started and not yet collected: an id for :meth:`wait`. Until
        :meth:`wait` has returned them all, :meth:`value` and :meth:`solved` are refused."""
        if not hands[0]:
            raise SolverError("nothing to search: the hands are empty")
        return int(self.core.start(table, hands, self._q(alpha), self._q(beta, up=True)))

    def wait(self) -> list[Finished]:
        """Block until a started search finishes (progress, table growth and Ctrl-C are
        served meanwhile; Ctrl-C or a limit stops every one with the bounds it has), then
        return every finished one; ``[]`` when none is running."""
        return [
            Finished(int(i), Entry(_num(lo), _num(hi)), int(n), float(s))
            for i, lo, hi, n, s in self.core.wait()
        ]

    def cancel(self, search_id: int) -> bool:
        """Stop a started search early (:meth:`wait` returns it with the bounds it has)."""
        return bool(self.core.cancel(search_id))

    @property
    def running(self) -> int:
        """Started searches not yet collected by :meth:`wait`."""
        return int(self.core.stats()["running"])

    def solved(self, table: Table, hands: Hands) -> Solution:
        """The exact value of a position with optimal strategies (searching if needed)."""
        got = self.core.solved(table, hands)
        if got is None:
            raise SolverError("the search was stopped before the position was solved")
        v, xs, ys = got
        rows, cols = self.actions(hands)
        x = tuple((rows[i], Fraction(*q)) for i, q in xs)
        y = tuple((cols[j], Fraction(*q)) for j, q in ys)
        return Solution(_num(v), x, y)

    def safe(self, table: Table, hands: Hands, player: int) -> bool | None:
        """Whether seat ``player`` (0-based) can make sure of taking no head from this position
        (:mod:`solver.search.safety`); None when a limit stopped the search first. Answers
        share the table (keyed apart from values)."""
        check_seat(player, len(hands))
        got = self.core.safe(table, hands, player)
        return None if got is None else bool(got)

    def actions(self, hands: Hands) -> tuple[list[JointAction], list[JointAction]]:
        """The joint actions of the max side (matrix rows) and the min side (columns), in the
        order the core indexes them."""
        rows = list(product(*(hands[p] for p in self.problem.max_side)))
        cols = list(product(*(hands[p] for p in self.problem.min_side)))
        return rows, cols

    def key(self, table: Table, hands: Hands) -> tuple[int, int]:
        """The core's 128-bit canonical key of a position."""
        a, b = self.core.key(table, hands)
        return int(a), int(b)

    def place(self, table: Table, card: int) -> tuple[bool, list[tuple[Table, int]]]:
        """The core's placement (for differential tests against :mod:`solver.kernel`)."""
        choice, opts = self.core.place(table, card)
        return bool(choice), [(tuple(t), int(taken)) for t, taken in opts]

    def place_forced(self, table: Table, card: int) -> tuple[int, Table]:
        """The core's in-place placement of a card whose owner has no choice (what its search
        uses): ``(heads taken, table)``, or ``(-1, table unchanged)`` when the owner chooses."""
        taken, t = self.core.place_forced(table, card)
        return int(taken), tuple(t)


REPLY_BOTS = {"random": 0, "cheapest": 1, "safe": 2}
"""The bots whose policies the compiled best reply restates (``_core.cpp``, ``BotReply``), by
the names of :data:`take6.play.bots.BOTS`, with the core's numbers."""

ReplyProgress = Callable[[int, int, float], None]
"""``progress(positions, nodes, seconds)``: positions in the reply's table, turns played out."""


class NativeReply:
    """The best reply of seat ``player`` to a bot in the other seat, on the compiled core: the
    expectimax of :func:`solver.botgap.against_bot` restated (``_core.cpp``, ``BotReply``; the
    Python one is the reference, ``tests/solver/test_botgap.py`` compares them). One table of
    exact values serves every call, so valuing each first card in turn shares the work."""

    core_name = "native"

    def __init__(
        self,
        rules: Rules,
        bot: str,
        player: int,
        *,
        memory: int | None = None,
        time_limit: float | None = None,
        progress: ReplyProgress | None = None,
        progress_every: float = 0.5,
    ) -> None:
        """Raises :class:`SolverError` when the core is not built or cannot take these rules,
        bot or budget. ``time_limit`` counts from here, over all the calls."""
        if _core is None:
            raise SolverError(_REASON)
        if bot not in REPLY_BOTS:
            raise SolverError(
                f"the compiled core restates the bots {', '.join(REPLY_BOTS)}, not {bot!r}"
            )
        if rules.pile_play:
            raise SolverError(
                "the compiled core does not play from a pile (Kids): the bots' "
                "card is a pile's top card there"
            )
        _check_rules(rules, 2)
        if player not in (0, 1):
            raise SolverError(f"player must be seat 0 or 1, got {player!r}")
        memory = default_memory() if memory is None else memory
        check_memory(memory)
        self.memory = memory
        self._table = rules.heads
        try:
            self.core = _core.Reply(
                _heads(rules),
                rules.row_capacity,
                int(rules.profi_left),
                _TIE[rules.profi_tie],
                int(rules.lowest_wins),
                player,
                REPLY_BOTS[bot],
                memory,
            )
        except MemoryError:
            raise SolverError(f"cannot allocate the reply's table in {memory} bytes") from None
        self.core.configure(time_limit=time_limit or 0.0, progress=progress, every=progress_every)
        self._last: dict[str, Any] = {}
        self._was_interrupted = False

    def close(self) -> None:
        """Free the table now; the counts (:attr:`positions`, ...) stay readable, a new call is
        an error. Without it the table goes when this object is collected, which a progress
        callback referring back to it defers to Python's cycle collector: a second large
        table could be allocated while the first is still held (``against_bot`` closes its
        own)."""
        if self.core is not None:
            self._last = self.core.stats()
            self._was_interrupted = bool(self.core.interrupted())
            self.core = None

    def _live(self) -> Any:
        if self.core is None:
            raise SolverError("this reply was closed: its table is gone")
        return self.core

    def _stats(self) -> dict[str, Any]:
        return self._last if self.core is None else self.core.stats()

    def card(
        self, rows: Sequence[Sequence[int]], hands: Sequence[Sequence[int]], card: int
    ) -> Fraction | None:
        """The exact expected diff when the reply plays ``card`` now and best afterwards; None
        when the time limit or Ctrl-C stopped it (:attr:`interrupted` tells which). ``rows``
        are the reference's rows in their order (the bots' tie-breaks read row numbers)."""
        table = self._table
        compact = [(r[-1], r[0], len(r), sum(table[c] for c in r)) for r in rows]
        got = self._live().card(compact, [list(h) for h in hands], card)
        return None if got is None else Fraction(*got)

    def cards(
        self,
        rows: Sequence[Sequence[int]],
        hands: Sequence[Sequence[int]],
        cards: Sequence[int],
        threads: int = 2,
    ) -> dict[int, Fraction | None]:
        """:meth:`card` for each of ``cards``, valued by ``threads`` threads sharing the table
        (each takes the next card not yet begun; this one polls for all: progress, the time
        limit, Ctrl-C); None for a card a stop left unvalued."""
        table = self._table
        compact = [(r[-1], r[0], len(r), sum(table[c] for c in r)) for r in rows]
        got = self._live().cards(compact, [list(h) for h in hands], list(cards), threads)
        return {c: None if v is None else Fraction(*v) for c, v in zip(cards, got, strict=True)}

    @property
    def positions(self) -> int:
        return int(self._stats()["positions"])

    @property
    def nodes(self) -> int:
        return int(self._stats()["nodes"])

    @property
    def cards_done(self) -> int:
        """First cards valued so far by the threads of the running :meth:`cards` call."""
        return int(self._stats()["cards_done"])

    @property
    def replaced(self) -> int:
        """How many stored positions new ones replaced once the memory budget was reached (each
        time the one of fewest cards a hand among a few slots, never one of more cards than the
        new one); a position not stored, or replaced, is searched again when met."""
        return int(self._stats()["replaced"])

    @property
    def full(self) -> bool:
        """True when the memory budget was reached: the table no longer grows, new positions
        replace stored ones. The values stay exact: positions not found are searched again."""
        return bool(self._stats()["full"])

    @property
    def interrupted(self) -> bool:
        return self._was_interrupted if self.core is None else bool(self.core.interrupted())


def _num(q: tuple[int, int]) -> Num:
    n, d = q
    return int(n) if d == 1 else Fraction(n, d)


__all__ = [
    "AVAILABLE",
    "REPLY_BOTS",
    "Finished",
    "NativeReply",
    "NativeSearch",
    "check_memory",
    "default_memory",
    "parse_memory",
    "unavailable_reason",
]
