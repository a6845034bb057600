"""The solver's entry point: :func:`solve` a position, get a :class:`Result`."""

from __future__ import annotations

import fcntl
import gc
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import IO, TYPE_CHECKING, Any

from solver.errors import SolverError
from solver.kernel import to_table
from solver.matrix import Num
from solver.problem import CHECKPOINT_EVERY, CORES, Objective, Problem, make_problem
from solver.search import (
    JointAction,
    Search,
    SearchLike,
    Solution,
    Strategy,
    position_table,
)
from solver.walk import Node, seat_cards, settle
from take6.notation import format_position
from take6.position import Position

if TYPE_CHECKING:
    from solver.native import Progress
from take6.turn import Turn as CoreTurn


@dataclass
class Turn:
    """One turn of the principal line: the cards played (by seat), the row choices made
    (``(player, 0-based row)``) and the heads each player took."""

    cards: tuple[int, ...]
    choices: tuple[tuple[int, int], ...]
    heads: tuple[int, ...]


@dataclass
class Result:
    """What :func:`solve` found.

    ``value`` is the exact value (see :mod:`solver.search` for its meaning) when ``solved``;
    otherwise None, and ``lower <= true value <= upper`` are proven bounds. ``strategies`` maps
    each player (0-based) to an optimal mixed strategy at the root (card -> probability); for a
    paranoid coalition these are the marginals of the coalition's joint strategy ``joint``.
    """

    problem: Problem
    solved: bool
    value: Fraction | None
    lower: Fraction
    upper: Fraction
    strategies: dict[int, dict[int, Fraction]] = field(default_factory=dict)
    joint: Strategy = ()
    line: list[Turn] = field(default_factory=list)
    nodes: int = 0
    lps: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    table_size: int = 0
    core: str = "python"
    """Which search ran: ``"native"`` (the compiled core) or ``"python"``."""
    core_note: str = ""
    """Why the Python search ran when the compiled core was asked for or preferred."""
    interrupted: bool = False
    checkpoint_read: tuple[int, int] | None = None
    """Entries and long exact values read from the checkpoint, when one was resumed."""
    checkpoint_saved: tuple[int, int] | None = None
    """Entries and long exact values written to the checkpoint at the end."""
    """True when Ctrl-C stopped the search (``lower``/``upper`` are still proven)."""
    peak_rss: int = 0
    """The process's peak resident memory in bytes when the search ended (0 if unknown)."""

    def to_json(self) -> dict[str, Any]:
        """The JSON form printed by ``take6 solve --json`` (players and rows from 0, as in the
        Python API)."""
        pr = self.problem
        d: dict[str, Any] = {
            "position": format_position(pr.position),
            "objective": pr.objective.value,
            "player": pr.player,
            "solved": self.solved,
            "value": None if self.value is None else fraction_text(self.value),
            "value_float": None if self.value is None else float(self.value),
            "lower": fraction_text(self.lower),
            "upper": fraction_text(self.upper),
            "strategies": {
                str(p): {str(c): fraction_text(q) for c, q in sorted(s.items())}
                for p, s in sorted(self.strategies.items())
            },
            "line": [
                {
                    "cards": list(t.cards),
                    "choices": [{"player": p, "row": r} for p, r in t.choices],
                    "heads": list(t.heads),
                }
                for t in self.line
            ],
            "nodes": self.nodes,
            "lps": self.lps,
            "seconds": round(self.seconds, 6),
            "cpu_seconds": round(self.cpu_seconds, 6),
            "table_size": self.table_size,
            "core": self.core,
            "interrupted": self.interrupted,
            "peak_rss": self.peak_rss,
        }
        if pr.objective is Objective.PARANOID:
            d["coalition"] = list(pr.max_side)
            d["joint"] = [[list(a), fraction_text(q)] for a, q in self.joint]
        return d


def fraction_text(v: Num) -> str:
    """``"p/q"``, or an integer string when the denominator is 1 (any length: the values of real
    deals can pass Python's 4300-digit limit for ``str(int)``)."""
    f = Fraction(v)
    num = int_text(f.numerator)
    return num if f.denominator == 1 else f"{num}/{int_text(f.denominator)}"


def int_text(n: int) -> str:
    """``str(n)`` for an integer of any length (split in halves by powers of ten below the
    interpreter's limit on one conversion)."""
    if n < 0:
        return "-" + int_text(-n)
    if n.bit_length() < 9000:  # under 2,710 digits
        return str(n)
    half = n.bit_length() * 30103 // 200000
    hi, lo = divmod(n, 10**half)
    return int_text(hi) + int_text(lo).zfill(half)


def open_proofs_file(path: str, where: str, *, readonly: bool = False) -> IO[str]:
    """A JSON-lines file of proofs (a solve's cells, a draft's proofs) opened to be read, or
    (not ``readonly``) to be appended to and locked, so that two runs cannot write it at once.
    ``where`` names it in a :class:`SolverError` (``--cells FILE``)."""
    try:
        f = open(path, "r" if readonly else "a+", encoding="utf-8")  # noqa: SIM115
    except OSError as e:
        raise SolverError(f"{where}: {e.strerror or e}") from None
    if not readonly:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise SolverError(f"{where}: the file is in use by another run (locked)") from None
    return f


def whole_lines_text(f: IO[str], *, truncate: bool) -> str:
    """The text of an open JSON-lines file up to its last newline: a last line cut short (the
    process killed while writing it) is dropped, and with ``truncate`` cut from the file too."""
    f.seek(0)
    text = f.read()
    whole = text.rfind("\n") + 1
    if whole < len(text):
        if truncate:
            f.truncate(whole)
        text = text[:whole]
    return text


def text_fraction(text: object) -> Fraction:
    """The exact value written by :func:`fraction_text` (``'p/q'`` or an integer, any number of
    digits) as a Fraction; ValueError for anything else."""
    if not isinstance(text, str):
        raise ValueError(text)
    num, slash, den = text.partition("/")
    q = _digits(den) if slash else 1
    if q <= 0:
        raise ValueError(text)
    return Fraction(_digits(num, signed=True), q)


def _digits(text: str, signed: bool = False) -> int:
    """An integer of any length from its ASCII digits (converted 4,000 digits at a time: the
    interpreter converts at most 4,300 at once)."""
    sign, body = (-1, text[1:]) if signed and text.startswith("-") else (1, text)
    if not body or not body.isascii() or not body.isdigit():
        raise ValueError(text)
    n = 0
    for i in range(0, len(body), 4000):
        part = body[i : i + 4000]
        n = n * 10 ** len(part) + int(part)
    return sign * n


def make_search(
    problem: Problem,
    core: str = "auto",
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    table_cap: int = 2_000_000,
    memory: int | None = None,
    threads: int = 1,
    progress: Progress | None = None,
    checkpoint: str | None = None,
    checkpoint_every: float | None = None,
    checkpoint_depth: int | None = None,
    killers: bool = True,
) -> tuple[SearchLike, str]:
    """The search for ``problem`` on the chosen core, and a note saying why the Python search
    runs when the compiled core was wanted ('' otherwise). Raises :class:`SolverError` when
    ``core="native"`` cannot run (not built, or the position is beyond it). ``killers`` is
    the compiled core's move-ordering switch (:class:`solver.native.NativeSearch`; the Python
    search has none)."""
    from solver import native

    if core not in CORES:
        raise SolverError(f"unknown core {core!r} (auto, native or python)")
    note = ""
    depth = native.CHECKPOINT_DEPTH if checkpoint_depth is None else checkpoint_depth
    if core != "python":
        if native.AVAILABLE:
            try:
                return (
                    native.NativeSearch(
                        problem,
                        time_limit=time_limit,
                        node_limit=node_limit,
                        memory=memory,
                        threads=threads,
                        progress=progress,
                        checkpoint=checkpoint,
                        checkpoint_every=checkpoint_every or CHECKPOINT_EVERY,
                        checkpoint_depth=depth,
                        killers=killers,
                    ),
                    "",
                )
            except SolverError as exc:
                if core == "native" or memory is not None or checkpoint is not None:
                    raise
                note = str(exc)
        else:
            if core == "native":
                raise SolverError(native.unavailable_reason())
            note = native.unavailable_reason()
    if checkpoint is not None:
        why = f" ({note})" if note else ""
        raise SolverError(
            f"a checkpoint is kept by the compiled core only, not the Python search{why}"
        )
    search = Search(problem, time_limit=time_limit, node_limit=node_limit, table_cap=table_cap)
    return search, note


def solve(
    position: Position,
    objective: Objective | str = Objective.DIFF,
    player: int = 0,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    table_cap: int = 2_000_000,
    line: bool = True,
    core: str = "auto",
    memory: int | None = None,
    threads: int = 1,
    progress: Progress | None = None,
    checkpoint: str | None = None,
    checkpoint_every: float | None = None,
    checkpoint_depth: int | None = None,
) -> tuple[Result, SearchLike]:
    """Solve ``position`` for ``objective`` from ``player``'s view (0-based).

    ``core`` picks the search: ``"auto"`` (the compiled core when it was built, else the Python
    search), ``"native"`` or ``"python"``; both give equal values. ``memory`` is the compiled
    core's table budget in bytes (default :func:`solver.native.default_memory`), ``table_cap``
    the Python search's table size in positions; ``threads`` searches with that many threads on
    the compiled core. ``checkpoint`` (compiled core only) names a file the search's table is
    saved to every ``checkpoint_every`` seconds (default
    ``solver.problem.CHECKPOINT_EVERY``) and at the end (however it ends),
    and resumed from when it exists: a long solve stopped (a limit, Ctrl-C, a killed process)
    goes on from there in the next run. ``checkpoint_depth`` (default every entry) writes only
    the entries of positions of at least that many cards a hand: a far smaller file that keeps
    part of the work (see :data:`solver.native.CHECKPOINT_DEPTH`). ``progress(nodes, filled,
    capacity, seconds, lower, upper)`` is called about twice a second by the compiled core.
    Ctrl-C (KeyboardInterrupt) during the search, like the limits, ends it with proven bounds
    (``result.interrupted``).

    Returns the result and the search (whose table the certificate writer reuses). Raises
    :class:`solver.errors.SolverError` for positions the solver does not support.
    """
    problem = make_problem(position, objective, player)
    search, note = make_search(
        problem,
        core,
        time_limit=time_limit,
        node_limit=node_limit,
        table_cap=table_cap,
        memory=memory,
        threads=threads,
        progress=progress,
        checkpoint=checkpoint,
        checkpoint_every=checkpoint_every,
        checkpoint_depth=checkpoint_depth,
    )
    from solver.native import NativeSearch

    read: tuple[int, int] | None = None
    saved: tuple[int, int] | None = None
    if checkpoint is not None and os.path.exists(checkpoint):
        assert isinstance(search, NativeSearch)
        read = search.resume(checkpoint)
    started = time.perf_counter()
    cpu = time.process_time()
    table, hands = position_table(problem)
    interrupted = False
    # The search allocates millions of small acyclic tuples; the cyclic garbage collector would
    # rescan the growing table over and over (about 15% of the time), so it pauses meanwhile.
    collecting = gc.isenabled()
    gc.disable()
    try:
        try:
            entry = search.value(table, hands)
        except KeyboardInterrupt:
            # The Python search: every bound in its table is proven; one stopped pass over the
            # root's cells turns them into the root's bounds.
            assert isinstance(search, Search)
            interrupted = True
            search.stopped = True
            entry = search.value(table, hands)
        interrupted = interrupted or bool(getattr(search, "interrupted", False))
        solution = None
        if entry.exact and not interrupted:
            # Solved: the limits bound the search, not reading strategies out of it afterwards.
            search.release_limits()
            solution = search.solved(table, hands)
    finally:
        if collecting:
            gc.enable()
        if checkpoint is not None:  # (however the search ended: what it proved is kept)
            assert isinstance(search, NativeSearch)
            saved = search.save(checkpoint)
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu
    result = Result(
        problem=problem,
        solved=entry.exact and solution is not None,
        value=Fraction(entry.lo) if entry.exact and solution is not None else None,
        lower=Fraction(entry.lo),
        upper=Fraction(entry.hi),
        nodes=search.stats.nodes,
        lps=search.stats.lps,
        seconds=seconds,
        cpu_seconds=cpu_seconds,
        table_size=len(search.table),
        core="python" if isinstance(search, Search) else "native",
        core_note=note,
        interrupted=interrupted,
        peak_rss=peak_rss(),
        checkpoint_read=read,
        checkpoint_saved=saved,
    )
    if solution is not None:
        result.joint = solution.x
        result.strategies = marginals(problem, solution)
        if line:
            result.line = principal_line(search)
    return result, search


def peak_rss() -> int:
    """The process's peak resident set size in bytes (0 where unknown)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return 0
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024


def marginals(problem: Problem, entry: Solution) -> dict[int, dict[int, Fraction]]:
    """Each player's probability of each card under the root strategies (for a paranoid
    coalition, the marginals of its joint strategy)."""
    return strategy_marginals(problem, entry.x, entry.y)


def strategy_marginals(
    problem: Problem, x: Strategy, y: Strategy
) -> dict[int, dict[int, Fraction]]:
    """Each player's probability of each card under the max side's ``x`` and the min side's
    ``y``."""
    out: dict[int, dict[int, Fraction]] = {}
    for side, strategy in ((problem.max_side, x), (problem.min_side, y)):
        for k, p in enumerate(side):
            dist: dict[int, Fraction] = {}
            for action, q in strategy:
                dist[action[k]] = dist.get(action[k], Fraction(0)) + q
            out[p] = dist
    return out


def exact_entry(search: SearchLike, node: Node) -> Solution:
    """The exact entry of a node (searching if needed)."""
    return search.solved(to_table(node.rows, search.problem.rules.heads), node.hands)


def exact_value(search: SearchLike) -> Callable[[Node], Num]:
    """A node's exact value by ``search`` (the leaf values of :func:`solver.walk.settle`)."""
    return lambda node: exact_entry(search, node).value


def _most_likely(strategy: Strategy) -> JointAction:
    return max(strategy, key=lambda aq: aq[1])[0]


def principal_line(search: SearchLike) -> list[Turn]:
    """A line of optimal play from the root: each side plays its most probable joint action,
    each row choice is the owner's best (:func:`solver.walk.settle`)."""
    pr = search.problem
    node = Node.of(pr.position)
    turns: list[Turn] = []
    while not node.done:
        entry = exact_entry(search, node)
        cards = seat_cards(pr, _most_likely(entry.x), _most_likely(entry.y))
        node, turn = play_turn(search, node, cards)
        turns.append(Turn(cards, turn.choices, turn.heads(pr.players)))
    return turns


def play_turn(search: SearchLike, node: Node, cards: tuple[int, ...]) -> tuple[Node, CoreTurn]:
    """Play one turn from ``node``: ``cards`` by seat, each row choice made optimally by its
    owner. Returns the node after the turn and the turn (its row choices, heads, placements)."""
    _, turn = settle(search.problem, node, cards, exact_value(search))
    return node.after(turn, cards), turn


def solve_position(
    position: Position, objective: Objective | str = Objective.DIFF, player: int = 0, **kw: Any
) -> Result:
    """Like :func:`solve`, returning only the result."""
    return solve(position, objective, player, **kw)[0]


__all__ = ["Result", "Turn", "fraction_text", "solve", "solve_position", "text_fraction"]
