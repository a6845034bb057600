"""A large position solved cell by cell of its first turn, every proof kept in a file at once.

The root's stage game has a cell for each joint action (the max side's cards against the min
side's). A cell's value is the heads of that turn plus the value of the position after it, the
row choices of the turn settled by their owners; so a cell is a small tree whose leaves are
positions one card a hand smaller (:func:`cell_tree`). :func:`solve_by_cells` values the root by
a **double oracle** over those cells, searching each leaf with the ordinary search (the compiled
core, or the Python search) and writing every bound it proves to a JSON-lines file the moment it
is proven (:class:`CellFile`):

1. the restricted game (rows ``R`` against columns ``S``, at first the lowest card of each
   side) is solved exactly: value ``v``, strategies ``x`` and ``y``, with only the cells made
   exact that its value needs (:meth:`CellsSolve.restricted_game`: until its two bound games,
   every cell at its lower and at its upper bound, have one value);
2. every other row is proven to gain nothing against ``y`` (``sum_j y_j c_ij <= v``) and every
   other column against ``x`` (``sum_i x_i c_ij >= v``): first by null-window searches at ``v``,
   then, where those do not decide, with the cells above ``v`` made exact and the others tested
   again against what is left, then exactly;
3. a row or column that gains is added and the loop goes on; when none does, ``v`` is the
   root's value and ``x``, ``y`` are optimal in the whole game (exact ties included: a row that
   does exactly as well gains nothing).

Why: a solve of many hours (a 2 x 10 deal) stopped by a limit, Ctrl-C or a lost machine loses
only the leaf search under way; every finished one is in the file (a few kB a leaf), which is
read back on the next run (``take6 solve POS --cells FILE``). Stopped, the run reports the bounds
the file proves: the values of the two bound games (every cell at its lower bounds, then at its
upper bounds), which the root's value lies between since a matrix game's value is monotone in
its entries.

The file is trusted input, as a checkpoint is: it is refused for another position, objective,
player or rule set, and when its bounds contradict each other, but what it claims is not
re-proven (the certificate checker is the independent check).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import IO, Any, TypeVar

from solver.api import (
    Result,
    fraction_text,
    make_search,
    marginals,
    open_proofs_file,
    peak_rss,
    text_fraction,
    whole_lines_text,
)
from solver.errors import SolverError
from solver.kernel import Hands, Table, to_table
from solver.matrix import GameSolution, Num, solve_game
from solver.problem import Objective, Problem, make_problem
from solver.search import Search
from solver.search.alphabeta import SearchLike, Solution
from solver.walk import Node, payoff, seat_cards
from take6.io.record import rules_to_json
from take6.notation import format_position
from take6.position import Position
from take6.text import excerpt
from take6.turn import resolve_turn

FORMAT = "take6-cells"
VERSION = 1


# -- the cells of the root ----------------------------------------------------------------------
@dataclass(frozen=True)
class Leaf:
    """A position after the first turn: ``pay`` is the turn's payoff, ``key`` its text."""

    node: Node
    pay: int
    key: str


@dataclass(frozen=True)
class Choice:
    """A row choice within the turn, made by a max-side (``maximise``) or min-side owner."""

    maximise: bool
    options: tuple[Tree, ...]


Tree = Leaf | Choice


def node_key(node: Node) -> str:
    """A position between turns as text: its rows, then its hands (``rows|hand|hand``)."""
    rows = "/".join(",".join(map(str, row)) for row in node.rows)
    return rows + "|" + "|".join(",".join(map(str, h)) for h in node.hands)


def cell_tree(
    problem: Problem, node: Node, cards: Sequence[int], choices: tuple[int, ...] = ()
) -> Tree:
    """The cell of ``node`` in which seat ``p`` plays ``cards[p]``: the tree of its row
    choices, as :func:`solver.walk.settle` walks them, down to the positions after the turn."""
    turn = resolve_turn(node.rows, cards, problem.rules, choices)
    pending = turn.pending
    if pending is None:
        child = node.after(turn, cards)
        return Leaf(child, payoff(problem, turn), node_key(child))
    return Choice(
        pending.player in problem.max_side,
        tuple(
            cell_tree(problem, node, cards, (*choices, m.row)) for m in pending.placement.options
        ),
    )


def leaves(tree: Tree) -> Iterator[Leaf]:
    if isinstance(tree, Leaf):
        yield tree
    else:
        for option in tree.options:
            yield from leaves(option)


def static_bounds(problem: Problem, node: Node) -> tuple[int, int]:
    """Bounds on any position's value: nobody takes more heads than are on the table and in
    the hands together."""
    rules = problem.rules
    total = sum(rules.heads_of(row) for row in node.rows) + sum(
        rules.heads_of(h) for h in node.hands
    )
    return problem.value_bounds(total)


# -- the file -----------------------------------------------------------------------------------
def header(problem: Problem) -> dict[str, Any]:
    """The file's first line: what it is the cells of."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "position": format_position(problem.position),
        "objective": problem.objective.value,
        "player": problem.player,
        "rules": rules_to_json(problem.rules),
    }


class CellFile:
    """The proven bounds of the root's leaves, read from and appended to a JSON-lines file.

    Line 1 is :func:`header`; every other line is one proof, ``{"leaf": key, "lo": "p/q", "hi":
    "p/q", "nodes": n, "seconds": s}``, the bounds on the value of the position ``key`` (without
    the first turn's heads), or a step of the double oracle, ``{"add": "row" | "column",
    "action": [cards]}``. A leaf's bounds are the intersection of its lines. A last line cut
    short (the process killed while writing it) is dropped; the file is locked while open, so
    two runs cannot write it at once."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        problem: Problem,
        keys: set[str],
        *,
        readonly: bool = False,
    ) -> None:
        """Open (creating it when missing) and lock the file, and read it. ``readonly``: only
        read it, as it stands (a run may be writing it: it is neither locked nor changed, and a
        last line being written is left out)."""
        self.path = os.fspath(path)
        self.bounds: dict[str, tuple[Fraction, Fraction]] = {}
        self.added: list[tuple[str, tuple[int, ...]]] = []
        self.read_lines = 0
        self.written = 0
        self.nodes = 0
        """Search nodes of the leaf bounds in the file, read and written (every run's)."""
        self.seconds = 0.0
        """Wall-clock seconds of the leaf searches whose bounds are in the file (every run's)."""
        self.leaf_seconds: dict[str, float] = {}
        """Those seconds by leaf (the key of the position after the first turn)."""
        self.readonly = readonly
        want = header(problem)
        self._file: IO[str] = open_proofs_file(self.path, f"--cells {self.path}", readonly=readonly)
        if readonly:
            try:
                self._read(want, keys)
            finally:
                self.close()
            return
        try:
            self._read(want, keys)
        except BaseException:
            self.close()
            raise

    def _read(self, want: dict[str, Any], keys: set[str]) -> None:
        text = whole_lines_text(self._file, truncate=not self.readonly)
        if not text:  # (new, or its first line cut short)
            if self.readonly:
                raise SolverError(f"--cells {self.path}: the file is empty")
            self._append(want)
            return
        lines = text.splitlines()
        where = f"--cells {self.path}"
        try:
            first = json.loads(lines[0]) if lines else None
        except json.JSONDecodeError:
            first = None
        if not isinstance(first, dict) or first.get("format") != FORMAT:
            raise SolverError(f"{where}: not a take6 cells file (line 1: {excerpt(lines[0])})")
        if first.get("version") != VERSION:
            raise SolverError(
                f"{where}: version {excerpt(first.get('version'))}, this take6 reads {VERSION}"
            )
        for name in ("position", "objective", "player", "rules"):
            got = first.get(name)
            if got != want[name]:
                if name == "player":  # (a seat from 0 in the file, from 1 in a message)
                    seat = got + 1 if isinstance(got, int) else got
                    raise SolverError(
                        f"{where}: the file holds the cells of player {excerpt(seat)}'s view, "
                        f"not player {want[name] + 1}'s"
                    )
                raise SolverError(
                    f"{where}: the file holds the cells of another {name} "
                    f"({excerpt(got)}, not {excerpt(want[name])})"
                )
        for number, line in enumerate(lines[1:], start=2):
            try:
                got = json.loads(line)
                if "add" in got:
                    side, action = got["add"], got["action"]
                    if side not in ("row", "column") or not isinstance(action, list):
                        raise ValueError(line)
                    self.added.append((side, tuple(int(c) for c in action)))
                    self.read_lines += 1
                    continue
                key = got["leaf"]
                lo, hi = text_fraction(got["lo"]), text_fraction(got["hi"])
                nodes, seconds = int(got.get("nodes", 0)), float(got.get("seconds", 0.0))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                raise SolverError(
                    f"{where}: line {number} is not a proof ({excerpt(line)})"
                ) from None
            if key not in keys:
                raise SolverError(
                    f"{where}: line {number}: {excerpt(key)} is not a position after the first "
                    "turn of this position"
                )
            self._merge(key, lo, hi, f"{where}: line {number}")
            self.read_lines += 1
            self._count(key, nodes, seconds)

    def _merge(self, key: str, lo: Fraction, hi: Fraction, where: str) -> bool:
        old = self.bounds.get(key)
        if old is not None:
            lo, hi = max(lo, old[0]), min(hi, old[1])
        if lo > hi:
            raise SolverError(f"{where}: the bounds of {excerpt(key)} contradict each other")
        if old == (lo, hi):
            return False
        self.bounds[key] = (lo, hi)
        return True

    def _append(self, data: dict[str, Any]) -> None:
        self._file.seek(0, os.SEEK_END)
        self._file.write(json.dumps(data, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def record(self, key: str, lo: Num, hi: Num, nodes: int, seconds: float) -> bool:
        """Keep new bounds of a leaf (written at once when they tighten what is known)."""
        lo, hi = Fraction(lo), Fraction(hi)
        if not self._merge(key, lo, hi, f"--cells {self.path}"):
            return False
        self._append(
            {
                "leaf": key,
                "lo": fraction_text(lo),
                "hi": fraction_text(hi),
                "nodes": nodes,
                "seconds": round(seconds, 3),
            }
        )
        self.written += 1
        self._count(key, nodes, seconds)
        return True

    def _count(self, key: str, nodes: int, seconds: float) -> None:
        """Add a proof line's search to the totals (read or written)."""
        self.nodes += nodes
        self.seconds += seconds
        self.leaf_seconds[key] = self.leaf_seconds.get(key, 0.0) + seconds

    def add(self, side: str, action: Sequence[int]) -> None:
        """Note that the double oracle added a row or column to its restricted game (read back,
        these let a resumed run go on from the game it had reached)."""
        self.added.append((side, tuple(action)))
        self._append({"add": side, "action": list(action)})
        self.written += 1

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()


# -- the double oracle --------------------------------------------------------------------------
@dataclass(frozen=True)
class Job:
    """A leaf search a proof needs: the window in the leaf position's own terms."""

    leaf: Leaf
    alpha: Num
    beta: Num


T = TypeVar("T")
Line = list[tuple[Tree, Fraction]]
"""A deviation's cells, each with the probability the other side's strategy gives it."""
Proof = Generator[Job, None, T]
"""A proof that yields the leaf searches it needs, one at a time, and reads their bounds back
from the file when it resumes; its result is the generator's return value."""


class Stopped(Exception):
    """A limit or Ctrl-C stopped a leaf's search (its bounds are kept)."""


Status = Callable[[float, str], None]
"""``status(seconds, text)``: what the run is doing, whenever that changes and as the search
under way reports (the command line's progress line)."""


@dataclass
class CellStats:
    leaves: int = 0
    exact: int = 0
    searches: int = 0
    side_by_side: int = 0
    """Leaf searches run on a thread of their own beside others
    (:attr:`CellsSolve.side_by_side`)."""
    nodes: int = 0
    phase: str = ""


@dataclass
class RoleTime:
    """Cells of one role in the double oracle (:meth:`CellsSolve.time_by_role`), how many of
    them are exact, and the seconds of their leaf searches."""

    cells: int = 0
    exact: int = 0
    seconds: float = 0.0

    def add(self, other: RoleTime) -> None:
        """Add another's counts to these (totals over several files)."""
        self.cells += other.cells
        self.exact += other.exact
        self.seconds += other.seconds


def roles_text(roles: dict[str, RoleTime]) -> str:
    """One line: each role's cells (exact among them), seconds and share of the seconds."""
    total = sum(r.seconds for r in roles.values())
    parts = []
    for name, r in roles.items():
        if not r.cells:
            continue
        share = f" ({r.seconds / total:.0%})" if total > 0 else ""
        secs = f"{r.seconds:,.1f}" if r.seconds >= 1 else f"{r.seconds:.3f}"
        parts.append(f"{name} {r.cells} cells ({r.exact} exact) {secs} s{share}")
    return ", ".join(parts)


@dataclass
class CellsSolve:
    """The double oracle of one root (see the module's docstring)."""

    problem: Problem
    search: SearchLike
    file: CellFile
    rows: list[Any]
    cols: list[Any]
    trees: list[list[Tree]]
    status: Status | None = None
    started: float = field(default_factory=time.perf_counter)
    stats: CellStats = field(default_factory=CellStats)
    solution: tuple[Num, dict[int, Fraction], dict[int, Fraction]] | None = None
    """The root's value and optimal strategies once :meth:`run` has found them."""
    restricted: tuple[list[int], list[int]] = field(default_factory=lambda: ([0], [0]))
    """The rows and columns of the restricted game (indices into ``rows`` and ``cols``)."""
    side_by_side: int = 1
    """How many proofs that a row or column gains nothing run at once, each leaf search on a
    thread of its own (the compiled core's ``start``); 1: one at a time, each leaf search
    with all the search's threads."""
    _static: dict[str, tuple[int, int]] = field(default_factory=dict)
    _windowed: set[tuple[int, int]] = field(default_factory=set)
    """The cells :meth:`restricted_game` has searched once with its window (the next time:
    exactly)."""

    # bounds ---------------------------------------------------------------------------------
    def leaf_bounds(self, leaf: Leaf) -> tuple[Num, Num]:
        if leaf.node.done:
            return leaf.pay, leaf.pay
        got: tuple[Num, Num] | None = self.file.bounds.get(leaf.key)
        if got is None:
            got = self._static.get(leaf.key)
            if got is None:
                got = self._static[leaf.key] = static_bounds(self.problem, leaf.node)
        return got[0] + leaf.pay, got[1] + leaf.pay

    def bounds(self, tree: Tree) -> tuple[Num, Num]:
        if isinstance(tree, Leaf):
            return self.leaf_bounds(tree)
        got = [self.bounds(o) for o in tree.options]
        pick = max if tree.maximise else min
        return pick(g[0] for g in got), pick(g[1] for g in got)

    def cell(self, i: int, j: int) -> tuple[Num, Num]:
        return self.bounds(self.trees[i][j])

    # searches -------------------------------------------------------------------------------
    # The proofs are written as generators that yield the leaf searches they need (a Job) and
    # read the bounds back from the file once each is done: `_drive` runs one generator's
    # searches one after the other (each search using every thread the search has), and
    # `_first_gaining` runs the proofs of several rows or columns side by side, one leaf
    # search a thread (`NativeSearch.start`), on one shared table.
    def _job(self, leaf: Leaf, alpha: Num | None, beta: Num | None) -> Job | None:
        """The search that brings a leaf's bounds to the window ``(alpha, beta)`` in cell
        terms (None: open), or None when its bounds already do."""
        lo, hi = self.leaf_bounds(leaf)
        if lo == hi:
            return None
        if (alpha is not None and hi <= alpha) or (beta is not None and lo >= beta):
            return None
        a = lo - 1 if alpha is None else alpha
        b = hi + 1 if beta is None else beta
        return Job(leaf, a - leaf.pay, b - leaf.pay)

    def _position(self, job: Job) -> tuple[Table, Hands]:
        """The leaf's position as the search takes it."""
        node = job.leaf.node
        return to_table(node.rows, self.problem.rules.heads), node.hands

    def _record(self, job: Job, lo: Num, hi: Num, nodes: int, seconds: float) -> None:
        self.stats.nodes += nodes
        self.stats.searches += 1
        if self.file.record(job.leaf.key, lo, hi, nodes, seconds):
            self.show()

    def _run(self, job: Job) -> None:
        """Search one job on the calling thread (the search's own threads share its cells)."""
        search = self.search
        nodes0 = search.stats.nodes
        t0 = time.perf_counter()
        entry = search.value(*self._position(job), job.alpha, job.beta)
        self._record(job, entry.lo, entry.hi, search.stats.nodes - nodes0, time.perf_counter() - t0)
        if search.stopped or getattr(search, "interrupted", False):
            raise Stopped

    def _drive(self, proof: Proof[T]) -> T:
        """Run a proof's searches one after the other; its result."""
        try:
            job = next(proof)
            while True:
                self._run(job)
                job = next(proof)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]

    def _search(self, leaf: Leaf, alpha: Num | None, beta: Num | None) -> Proof[None]:
        """Search a leaf with the window ``(alpha, beta)`` in cell terms (None: open)."""
        job = self._job(leaf, alpha, beta)
        if job is not None:
            yield job

    def _settle(self, tree: Tree, alpha: Num | None, beta: Num | None) -> Proof[None]:
        if isinstance(tree, Leaf):
            yield from self._search(tree, alpha, beta)
            return
        options = sorted(tree.options, key=lambda o: self.bounds(o)[1 if tree.maximise else 0])
        if tree.maximise:
            options.reverse()  # the most promising option first
        for option in options:
            yield from self._settle(option, alpha, beta)
            lo, hi = self.bounds(option)
            if tree.maximise:
                if beta is not None and lo >= beta:
                    return  # one option reaches beta: the choice does
                if lo == hi and (alpha is None or lo > alpha):
                    alpha = lo  # the others only matter if they beat this one
            else:
                if alpha is not None and hi <= alpha:
                    return
                if lo == hi and (beta is None or hi < beta):
                    beta = hi

    def settle(self, tree: Tree, alpha: Num | None, beta: Num | None) -> None:
        """Bring the tree's bounds to its exact value, ``hi <= alpha`` or ``lo >= beta`` (the
        window semantics of :meth:`solver.search.Search.value`; None: open)."""
        self._drive(self._settle(tree, alpha, beta))

    def exact(self, i: int, j: int) -> Num:
        tree = self.trees[i][j]
        self.settle(tree, None, None)
        lo, hi = self.bounds(tree)
        assert lo == hi, "an open window leaves the cell exact"
        return lo

    def _proves(self, line: list[tuple[Tree, Fraction]], v: Num, at_most: bool) -> bool | None:
        if at_most:
            hi = sum((p * self.bounds(t)[1] for t, p in line), Fraction(0))
            lo = sum((p * self.bounds(t)[0] for t, p in line), Fraction(0))
            return True if hi <= v else False if lo > v else None
        lo = sum((p * self.bounds(t)[0] for t, p in line), Fraction(0))
        hi = sum((p * self.bounds(t)[1] for t, p in line), Fraction(0))
        return True if lo >= v else False if hi < v else None

    def _wrong_side(self, tree: Tree, v: Num, at_most: bool) -> bool:
        lo, hi = self.bounds(tree)
        return lo >= v if at_most else hi <= v

    def no_gain(self, line: list[tuple[Tree, Fraction]], v: Num, at_most: bool) -> bool:
        """Whether a deviation gains nothing: ``sum p * cell <= v`` (``at_most``, a row against
        the min side's strategy) or ``>= v`` (a column against the max side's)."""
        return self._drive(self._no_gain(line, v, at_most))

    def _no_gain(self, line: list[tuple[Tree, Fraction]], v: Num, at_most: bool) -> Proof[bool]:
        got = self._proves(line, v, at_most)
        if got is not None:
            return got
        order = sorted(line, key=lambda tp: -tp[1])
        # 1. each cell against v itself (enough when every cell is on the right side of v)
        for tree, _ in order:
            yield from self._settle(tree, v, v)
            got = self._proves(line, v, at_most)
            if got is not None:
                return got
        # 2. the cells on the wrong side of v made exact, the others tested against what is left
        wrong = [k for k, (t, _) in enumerate(order) if self._wrong_side(t, v, at_most)]
        for k in wrong:
            yield from self._settle(order[k][0], None, None)
            got = self._proves(line, v, at_most)
            if got is not None:
                return got
        rest = [order[k] for k in range(len(order)) if k not in wrong]
        share = sum((p for _, p in rest), Fraction(0))
        if share:
            fixed = sum((order[k][1] * self.bounds(order[k][0])[0] for k in wrong), Fraction(0))
            threshold = (v - fixed) / share
            for tree, _ in rest:
                yield from self._settle(tree, threshold, threshold)
                got = self._proves(line, v, at_most)
                if got is not None:
                    return got
        # 3. exactly
        for tree, _ in sorted(order, key=lambda tp: -tp[1] * _width(self.bounds(tp[0]))):
            yield from self._settle(tree, None, None)
            got = self._proves(line, v, at_most)
            if got is not None:
                return got
        raise AssertionError("exact cells decide a deviation")  # pragma: no cover

    def _first_gaining(
        self,
        groups: Sequence[Sequence[Callable[[], Proof[bool]]]],
        describe: Callable[[list[tuple[int, int]]], None],
    ) -> list[int | None]:
        """For each group of proofs, the index of its first proof (in the group's order) that
        returns False, or None when every one returns True: what running them in order, one
        group after the other, would find. With :attr:`side_by_side` > 1 that many proofs are
        under way at once (taken in that order, across the groups), each with one leaf search
        at a time on a thread of its own. Once a proof fails, the later ones of its group that
        are under way are cancelled (the bounds they reach are kept). A proof left alone runs
        as :meth:`_drive` does, its searches with every thread. ``describe`` is told the
        (group, index) of the proofs under way whenever a new one starts."""
        width = self.side_by_side
        firsts: list[int | None] = [None] * len(groups)
        if width < 2:
            for g, proofs in enumerate(groups):
                for k, make in enumerate(proofs):
                    describe([(g, k)])
                    if not self._drive(make()):
                        firsts[g] = k
                        break
            return firsts
        search: Any = self.search
        flat = [(g, k) for g, proofs in enumerate(groups) for k in range(len(proofs))]
        gens: dict[tuple[int, int], Proof[bool]] = {}  # the proofs under way
        running: dict[int, tuple[tuple[int, int], Job]] = {}  # search id -> (proof, its job)
        passed: set[tuple[int, int]] = set()
        launched = 0  # proofs of `flat` taken so far
        stop = False

        def needed(p: tuple[int, int]) -> bool:
            """Whether the proof still matters (none before it in its group has failed)."""
            first = firsts[p[0]]
            return first is None or p[1] < first

        def more() -> bool:
            """Whether a needed proof is left to start."""
            return any(needed(p) for p in flat[launched:])

        def advance(p: tuple[int, int]) -> None:
            """Step proof p to its next search (started, or run here when it is alone) or to
            its end."""
            while True:
                try:
                    job = next(gens[p])
                except StopIteration as done:
                    del gens[p]
                    if done.value:
                        passed.add(p)
                    elif needed(p):
                        firsts[p[0]] = p[1]
                        for sid, (q, _) in running.items():
                            if q[0] == p[0] and q[1] > p[1]:
                                search.cancel(sid)
                    return
                if not running and len(gens) == 1 and (stop or not more()):
                    self._run(job)  # alone: its search takes every thread
                    continue
                running[search.start(*self._position(job), job.alpha, job.beta)] = (p, job)
                self.stats.side_by_side += 1
                return

        try:
            while True:
                while not stop and launched < len(flat) and len(gens) < width:
                    p = flat[launched]
                    launched += 1
                    if not needed(p):
                        continue
                    gens[p] = groups[p[0]][p[1]]()
                    describe(sorted(gens))
                    advance(p)
                if not running:
                    if stop:
                        raise Stopped
                    if all(p in passed for p in flat if needed(p)):
                        return firsts
                    assert more(), "every proof under way has a search running"
                    continue
                for sid, entry, nodes, seconds in search.wait():
                    p, job = running.pop(sid)
                    self._record(job, entry.lo, entry.hi, nodes, seconds)
                    if search.stopped or search.interrupted:
                        stop = True
                    if stop or not needed(p):
                        gens.pop(p, None)  # (stopped, or no longer needed)
                    else:
                        advance(p)
        finally:
            if running:  # an exception on the way: stop them, keep what they proved
                for sid in running:
                    search.cancel(sid)
                while running:
                    for sid, entry, nodes, seconds in search.wait():
                        _, job = running.pop(sid)
                        self._record(job, entry.lo, entry.hi, nodes, seconds)

    # the loop -------------------------------------------------------------------------------
    def run(self) -> tuple[Num, dict[int, Fraction], dict[int, Fraction]]:
        """The root's exact value and optimal strategies (row and column index -> probability).
        Raises :class:`Stopped` when a limit or Ctrl-C stops a search."""
        R, S = self.restricted = self.restored()
        while True:
            v, x, y = self.restricted_game(R, S)
            if not self._add_gaining(R, S, v, x, y):
                self.solution = v, x, y
                return self.solution

    def bound_games(self, R: list[int], S: list[int]) -> tuple[GameSolution, GameSolution]:
        """The restricted game ``R`` x ``S`` with every cell at its lower bound, and at its
        upper bound."""
        cells = [[self.cell(i, j) for j in S] for i in R]
        lower = solve_game([[lo for lo, _ in row] for row in cells])
        upper = solve_game([[hi for _, hi in row] for row in cells])
        return lower, upper

    @staticmethod
    def guaranteed(
        R: list[int], S: list[int], lower: GameSolution, upper: GameSolution
    ) -> tuple[Num, dict[int, Fraction], dict[int, Fraction]] | None:
        """When the two bound games have one value ``v``: ``v`` and the strategies that
        guarantee it in the restricted game whatever its cells within their bounds — the
        lower game's max strategy (at least ``v`` against every column, each cell at least its
        lower bound) and the upper game's min strategy (at most ``v`` against every row)."""
        if lower.value != upper.value:
            return None
        x = {i: p for i, p in zip(R, lower.x, strict=True) if p}
        y = {j: p for j, p in zip(S, upper.y, strict=True) if p}
        return lower.value, x, y

    def restricted_game(
        self, R: list[int], S: list[int]
    ) -> tuple[Num, dict[int, Fraction], dict[int, Fraction]]:
        """The restricted game's exact value and strategies that guarantee it, with only the
        cells made exact that its value needs. While the bound games' values differ, the cell
        where the upper game's max strategy meets the lower game's min strategy that weighs
        most (probabilities times the width of its bounds) is searched: the first time with
        the window between the two games' values (exact if the cell lies inside it, else a
        cheaper bound on the side it lies; 4-6% fewer nodes at k = 9), the next time exactly,
        so each pick narrows the cell and the loop ends. Such a cell always exists: were every
        one exact, the lower game's value would be at least ``x_hi A y_lo`` (``y_lo`` optimal
        there) and the upper game's at most the same (``x_hi`` optimal there), so the two would
        be equal. Cells that the supports never meet keep their bounds; the old rule made
        every cell of ``R`` x ``S`` exact."""
        while True:
            self.stats.phase = f"restricted game {len(R)} x {len(S)}"
            self.show()
            lower, upper = self.bound_games(R, S)
            got = self.guaranteed(R, S, lower, upper)
            if got is not None:
                return got
            weight, i, j = max(
                (upper.x[a] * lower.y[b] * _width(self.cell(i, j)), i, j)
                for a, i in enumerate(R)
                for b, j in enumerate(S)
                if upper.x[a] and lower.y[b]
            )
            assert weight > 0, "the bound games differ only where a cell is not exact"
            lo, hi = self.cell(i, j)
            low, high = lower.value, upper.value
            if (i, j) not in self._windowed and low < hi and lo < high:
                # First with the window (low, high): exact if the cell lies inside it, else a
                # cheaper one-sided bound; the second time the cell is chosen, exactly.
                self._windowed.add((i, j))
                self.settle(self.trees[i][j], low, high)
            else:
                self.exact(i, j)

    def _add_gaining(
        self,
        R: list[int],
        S: list[int],
        v: Num,
        x: dict[int, Fraction],
        y: dict[int, Fraction],
    ) -> bool:
        """Add to ``R`` the first row (a max-side action) that gains against ``y``, and to
        ``S`` the first column that gains against ``x``; False when none does. The likeliest to
        gain are tried first (rows by their upper bounds, columns by their lower bounds); the
        proofs of both sides share the threads (:meth:`_first_gaining`)."""
        game = f"({len(R)} x {len(S)})"
        sides = [("row", R, y, True), ("column", S, x, False)]
        orders: list[list[int]] = []
        groups: list[list[Callable[[], Proof[bool]]]] = []
        for _, chosen, other, is_row in sides:
            actions = self.rows if is_row else self.cols

            def line(k: int, other: dict[int, Fraction] = other, is_row: bool = is_row) -> Line:
                return [
                    (self.trees[k][o] if is_row else self.trees[o][k], p) for o, p in other.items()
                ]

            def promise(k: int, line: Callable[[int], Line] = line, is_row: bool = is_row) -> Num:
                bound = 1 if is_row else 0
                total = sum((p * self.bounds(t)[bound] for t, p in line(k)), Fraction(0))
                return -total if is_row else total

            order = sorted((k for k in range(len(actions)) if k not in chosen), key=promise)
            orders.append(order)
            groups.append([partial(self._no_gain, line(k), v, is_row) for k in order])

        def describe(under_way: list[tuple[int, int]]) -> None:
            parts = []
            for g, (side, _, _, is_row) in enumerate(sides):
                actions = self.rows if is_row else self.cols
                names = [_action_text(actions[orders[g][k]]) for h, k in under_way if h == g]
                if names:
                    parts.append(f"{side}{'s' if len(names) > 1 else ''} {', '.join(names)}")
            self.stats.phase = f"{' and '.join(parts)} against v = {_short(v)} {game}"
            self.show()

        added = False
        for (side, chosen, _, is_row), order, first in zip(
            sides, orders, self._first_gaining(groups, describe), strict=True
        ):
            if first is not None:
                k = order[first]
                chosen.append(k)
                self.file.add(side, (self.rows if is_row else self.cols)[k])
                added = True
        return added

    def restored(self) -> tuple[list[int], list[int]]:
        """The restricted game the file's run had reached (at first, the first row and column:
        each side's lowest cards)."""
        R, S = [0], [0]
        where = f"--cells {self.file.path}"
        for side, action in self.file.added:
            actions, chosen = (self.rows, R) if side == "row" else (self.cols, S)
            try:
                index = [tuple(a) for a in actions].index(action)
            except ValueError:
                raise SolverError(
                    f"{where}: {side} {list(action)} is not an action of this position"
                ) from None
            if index in chosen:
                raise SolverError(f"{where}: {side} {list(action)} is added twice")
            chosen.append(index)
        return R, S

    def proven(self) -> tuple[Num, dict[int, Fraction], dict[int, Fraction]] | None:
        """The root's value and optimal strategies if the bounds known already prove them (the
        restricted game's two bound games of one value, and no row or column gaining by the
        bounds alone), with no search; None otherwise."""
        R, S = self.restricted
        got = self.guaranteed(R, S, *self.bound_games(R, S))
        if got is None:
            return None
        v, x, y = got
        for i in range(len(self.rows)):
            if self._proves([(self.trees[i][j], p) for j, p in y.items()], v, True) is not True:
                return None
        for j in range(len(self.cols)):
            if self._proves([(self.trees[i][j], p) for i, p in x.items()], v, False) is not True:
                return None
        return v, x, y

    def root_bounds(self) -> tuple[Num, Num]:
        """The values of the two bound games: proven bounds on the root's value."""
        m, n = len(self.rows), len(self.cols)
        cells = [[self.cell(i, j) for j in range(n)] for i in range(m)]
        lower = solve_game([[c[0] for c in row] for row in cells]).value
        upper = solve_game([[c[1] for c in row] for row in cells]).value
        return lower, upper

    def counts(self) -> tuple[int, int]:
        """Cells exact, cells in all."""
        exact = 0
        for row in self.trees:
            for tree in row:
                lo, hi = self.bounds(tree)
                exact += lo == hi
        return exact, len(self.rows) * len(self.cols)

    def time_by_role(self) -> dict[str, RoleTime]:
        """Where the leaf searches' seconds (every run's, as the file holds them) went, by the
        part each cell plays in the double oracle's outcome: ``support`` (a cell of both optimal
        strategies' supports), ``restricted`` (a cell of the restricted game reached, off the
        supports: valued while an earlier restricted game's strategies used it),
        ``deviations`` (a row or column outside the restricted game, against the other side's
        strategy: the proofs that it gains nothing) and ``untouched``. Before the root is
        solved, every cell of the restricted game counts as ``restricted``."""
        solution = self.solution or self.proven()
        x, y = (solution[1], solution[2]) if solution else ({}, {})
        R, S = self.restricted
        roles = {name: RoleTime() for name in ("support", "restricted", "deviations", "untouched")}
        seconds = self.file.leaf_seconds
        for i, row in enumerate(self.trees):
            for j, tree in enumerate(row):
                if i in x and j in y:
                    name = "support"
                elif i in R and j in S:
                    name = "restricted"
                elif i in R or j in S:
                    name = "deviations"
                else:
                    name = "untouched"
                lo, hi = self.bounds(tree)
                role = roles[name]
                role.cells += 1
                role.exact += lo == hi
                role.seconds += sum(seconds.get(leaf.key, 0.0) for leaf in leaves(tree))
        return roles

    def show(self, extra: str = "") -> None:
        if self.status is None:
            return
        exact, total = self.counts()
        self.status(
            time.perf_counter() - self.started,
            f"cells {exact}/{total} exact  leaf searches {self.stats.searches}  "
            f"{self.stats.phase}{extra}",
        )


def _action_text(action: Sequence[int]) -> str:
    return ",".join(str(c) for c in action) if len(action) > 1 else str(action[0])


def _width(b: tuple[Num, Num]) -> Num:
    return b[1] - b[0]


def _short(v: Num) -> str:
    f = Fraction(v)
    if f.denominator < 10**6 and abs(f.numerator) < 10**9:
        return str(f)
    return f"{float(f):.6f}"


# -- entry points -------------------------------------------------------------------------------
@dataclass(frozen=True)
class CellsReport:
    """What a cells file proves as it stands (:func:`read_cells`)."""

    path: str
    value: Fraction | None
    """The root's exact value when the file proves it (else None)."""
    lower: Fraction
    upper: Fraction
    cells_exact: int
    cells: int
    leaves_proven: int
    leaves: int
    restricted: tuple[int, int]
    lines: int
    nodes: int = 0
    """Search nodes of the leaf bounds in the file (every run that wrote it)."""
    seconds: float = 0.0
    """Wall-clock seconds of the leaf searches whose bounds are in the file."""

    @property
    def solved(self) -> bool:
        return self.value is not None

    def text(self) -> str:
        """One line: the value or the bounds, and how far the double oracle got."""
        if self.value is not None:
            what = f"value {_short(self.value)}"
        else:
            what = f"{_short(self.lower)} <= value <= {_short(self.upper)}"
        return (
            f"{what}; {self.cells_exact}/{self.cells} cells exact, {self.leaves_proven}/"
            f"{self.leaves} leaves proven, restricted game {self.restricted[0]} x "
            f"{self.restricted[1]}, {self.lines} lines, {self.nodes:.3g} nodes and "
            f"{self.seconds:.0f} s of leaf searches"
        )

    def brief(self) -> str:
        """Shorter, for a progress line: the value or the bounds, and the cells exact."""
        if self.value is not None:
            return f"value {_short(self.value)}"
        return (
            f"{_short(self.lower)}..{_short(self.upper)}, "
            f"{self.cells_exact}/{self.cells} cells exact"
        )


def _cells_of(
    problem: Problem, root: Node, search: SearchLike
) -> tuple[list[Any], list[Any], list[list[Tree]]]:
    """The root's joint actions (in the search's order) and the tree of each cell."""
    rows, cols = search.actions(root.hands)
    trees = [[cell_tree(problem, root, seat_cards(problem, a, b)) for b in cols] for a in rows]
    return rows, cols, trees


def read_cells(
    position: Position,
    path: str | os.PathLike[str],
    objective: Objective | str = Objective.DIFF,
    player: int = 0,
) -> CellsReport:
    """What the cells file ``path`` proves about ``position``, read as it stands and without a
    search: it may belong to a run under way (it is not locked, nor changed). Raises
    :class:`SolverError` for a file that is not this position's cells file."""
    problem = make_problem(position, objective, player)
    root = Node.of(position)
    if root.done:
        raise SolverError(f"nothing to solve: the hands are empty ({format_position(position)})")
    search = Search(problem, table_cap=16)  # (its joint actions only: nothing is searched)
    rows, cols, trees = _cells_of(problem, root, search)
    keys = {leaf.key for leaf in leaves_of(trees)}
    cells = CellFile(path, problem, keys, readonly=True)
    run = CellsSolve(problem, search, cells, rows, cols, trees)
    run.restricted = run.restored()
    solution = run.proven()
    lower, upper = (solution[0], solution[0]) if solution else run.root_bounds()
    exact, total = run.counts()
    return CellsReport(
        path=os.fspath(path),
        value=Fraction(solution[0]) if solution else None,
        lower=Fraction(lower),
        upper=Fraction(upper),
        cells_exact=exact,
        cells=total,
        leaves_proven=len(cells.bounds),
        leaves=len({leaf.key for leaf in leaves_of(trees) if not leaf.node.done}),
        restricted=(len(run.restricted[0]), len(run.restricted[1])),
        lines=cells.read_lines,
        nodes=cells.nodes,
        seconds=cells.seconds,
    )


def leaves_of(trees: list[list[Tree]]) -> Iterator[Leaf]:
    for row in trees:
        for tree in row:
            yield from leaves(tree)


def solve_by_cells(
    position: Position,
    path: str | os.PathLike[str],
    objective: Objective | str = Objective.DIFF,
    player: int = 0,
    *,
    core: str = "auto",
    time_limit: float | None = None,
    node_limit: int | None = None,
    memory: int | None = None,
    threads: int = 1,
    table_cap: int = 2_000_000,
    status: Status | None = None,
    progress: Any = None,
    side_by_side: int | None = None,
) -> tuple[Result, CellsSolve]:
    """Solve ``position`` by the double oracle over its first turn's cells, every proof kept in
    the cells file ``path`` (read back first when it exists). The limits and Ctrl-C stop it
    with the bounds the file proves (``result.interrupted`` for Ctrl-C).

    ``side_by_side``: how many proofs that a row or column gains nothing run at once on the
    compiled core, each leaf search on one thread of its own, all on one table (default: the
    ``threads``; 1 runs them one after the other, each leaf search with all ``threads``). The
    Python search runs them one at a time."""
    problem = make_problem(position, objective, player)
    root = Node.of(position)
    if root.done:
        raise SolverError(f"nothing to solve: the hands are empty ({format_position(position)})")
    search, note = make_search(
        problem,
        core,
        time_limit=time_limit,
        node_limit=node_limit,
        table_cap=table_cap,
        memory=memory,
        threads=threads,
        progress=progress,
    )
    native = hasattr(search, "start")
    if side_by_side is None:
        side_by_side = max(1, threads) if native else 1
    elif side_by_side < 1:
        raise SolverError(f"side by side: need at least 1 proof at a time, got {side_by_side}")
    elif side_by_side > 1 and not native:
        raise SolverError(
            f"side by side: {side_by_side} proofs at a time need the compiled core; "
            "the Python search runs one at a time"
        )
    rows, cols, trees = _cells_of(problem, root, search)
    keys = {leaf.key for leaf in leaves_of(trees)}
    cells = CellFile(path, problem, keys)
    run = CellsSolve(
        problem, search, cells, rows, cols, trees, status=status, side_by_side=side_by_side
    )
    # (leaves that end the game are valued by their heads: only the others need a proof)
    run.stats.leaves = len({leaf.key for leaf in leaves_of(trees) if not leaf.node.done})
    started = time.perf_counter()
    cpu = time.process_time()
    interrupted = False
    solution: tuple[Num, dict[int, Fraction], dict[int, Fraction]] | None = None
    try:
        try:
            solution = run.run()
        except Stopped:
            interrupted = bool(getattr(search, "interrupted", False))
        except KeyboardInterrupt:  # between two searches
            interrupted = True
        lower, upper = (solution[0], solution[0]) if solution else run.root_bounds()
    finally:
        cells.close()
    result = Result(
        problem=problem,
        solved=solution is not None,
        value=Fraction(solution[0]) if solution else None,
        lower=Fraction(lower),
        upper=Fraction(upper),
        nodes=run.stats.nodes,
        lps=search.stats.lps,
        seconds=time.perf_counter() - started,
        cpu_seconds=time.process_time() - cpu,
        table_size=len(search.table),
        core="python" if isinstance(search, Search) else "native",
        core_note=note,
        interrupted=interrupted,
        peak_rss=peak_rss(),
    )
    if solution is not None:
        _, x, y = solution
        sol = Solution(
            solution[0],
            tuple((rows[i], p) for i, p in x.items()),
            tuple((cols[j], p) for j, p in y.items()),
        )
        result.joint = sol.x
        result.strategies = marginals(problem, sol)
    return result, run


__all__ = [
    "CellFile",
    "CellsReport",
    "CellsSolve",
    "RoleTime",
    "cell_tree",
    "read_cells",
    "roles_text",
    "solve_by_cells",
]
