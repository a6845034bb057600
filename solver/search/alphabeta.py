"""The fast exact solver: memoised search over compact positions with exact stage games.

What a value means: for a :class:`~solver.problem.Problem`, the value of a position is the payoff
``sum_p weight[p] * heads_p`` over the heads taken from that position until the hands are empty,
when the max side and the min side both play optimally (mixed strategies over the cards of each
turn; row choices made by the card's owner for their side, knowing the cards revealed that turn).
It is exact (a :class:`fractions.Fraction` or ``int``) when the search completes; when a limit
stops it, the search returns proven bounds ``lower <= value <= upper`` instead.

Pieces: the position (:mod:`solver.kernel`: compact sorted rows and hands, canonical key), the
stage games (:mod:`solver.matrix`: pure saddle check, dominance, float simplex, exact check), the
transposition table (:mod:`solver.search.table`, capped), the move ordering
(:mod:`solver.search.ordering`) and the search itself (:class:`Search`).

The search is alpha-beta for simultaneous moves with serialised bounds (after Saffidine,
Finnsson and Buro, "Alpha-Beta Pruning for Games with Simultaneous Moves", AAAI 2012).
:meth:`Search.value` takes a window ``(alpha, beta)`` and returns an interval ``[lo, hi]`` that
holds the value and is exact, or lies at or below alpha, or at or above beta. At a position:

1. every cell of the stage game starts with static bounds (nobody takes more heads than lie on
   the table and in the hands);
2. **max side first** (a lower bound): ``max_i min_j`` over pure actions, alpha-beta inside
   (a row is dropped as soon as one cell shows it cannot beat the best row so far); fail high
   as soon as it reaches beta;
3. **min side first** (an upper bound): ``min_j max_i``, symmetrically, starting with the column
   where the best row had its minimum; fail low as soon as it reaches alpha;
4. if the two bounds meet, that pure pair is a saddle point: exact, no LP;
5. otherwise the cell bounds form two matrices and, as a game's value is monotone in its
   entries, ``val(lower) <= value <= val(upper)``: the cells in the supports of their optimal
   strategies are refined (first within the open window, then exactly) until the two values
   meet (then the lower game's x and the upper game's y are optimal) or leave the window.

Row choices inside a turn are max or min nodes with ordinary alpha-beta. The last turn is played
out directly (cached by its raw table). Move ordering: cards in ascending order, a position's
best pure pair from an earlier search first, and the column that refuted the previous row first.
"""

from __future__ import annotations

import time
from collections.abc import Sequence, Sized
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Protocol

from solver.errors import SolverError
from solver.kernel import Hands, Kernel, Table, to_table
from solver.matrix import Num, solve_game
from solver.problem import Problem
from solver.search.ordering import first_order, promote, rows_for_column, saddle_column_order
from solver.search.safety import Safety, Stopped
from solver.search.table import Entry, IndexStrategy, TranspositionTable

JointAction = tuple[int, ...]
"""The cards chosen by the players of one side, in seat order."""
Strategy = tuple[tuple[JointAction, Fraction], ...]
"""A mixed strategy as its support: (joint action, probability) pairs."""


@dataclass(frozen=True)
class Solution:
    """The exact value of a position and optimal strategies of both sides over its cards."""

    value: Num
    x: Strategy
    y: Strategy


INF = 10**9
"""A bound beyond any value (values are at most the heads in play, a few hundred)."""


_ZERO = Entry(0, 0)
_PURE: IndexStrategy = ((0, Fraction(1)),)


@dataclass
class Stats:
    nodes: int = 0
    lps: int = 0
    saddles: int = 0
    hits: int = 0
    started: float = field(default_factory=time.perf_counter)


class Search:
    """Exact search for one problem. Use :meth:`value` on compact positions."""

    def __init__(
        self,
        problem: Problem,
        time_limit: float | None = None,
        node_limit: int | None = None,
        table_cap: int = 2_000_000,
    ) -> None:
        self.problem = problem
        self.kernel = Kernel(problem.rules)
        self.weights = problem.weights
        self.max_side = problem.max_side
        self.min_side = problem.min_side
        self.maximiser = tuple(p in problem.max_side for p in range(problem.players))
        self.table = TranspositionTable(table_cap)
        self.leaves: dict[tuple[Table, Hands], Num] = {}
        self.leaf_cap = max(1, table_cap // 4)
        self.stats = Stats()
        self.deadline = None if time_limit is None else self.stats.started + time_limit
        self.node_limit = node_limit
        self.stopped = False
        self._probes = 0
        self._wneg, self._wpos = problem.value_bounds(1)
        self._safety: Safety | None = None

    def release_limits(self) -> None:
        """Lift the time and node limits (to read strategies out of a solved search)."""
        self.deadline = None
        self.node_limit = None
        self.stopped = False

    # -- bounds ---------------------------------------------------------------------------------
    def static_bounds(self, table: Table, hands: Hands) -> tuple[int, int]:
        """Bounds on any position's value: nobody takes more heads than are on the table and in
        the hands together."""
        total = sum(r[3] for r in table) + sum(self.kernel.heads[c] for h in hands for c in h)
        return self._wneg * total, self._wpos * total

    def _tick(self) -> None:
        st = self.stats
        st.nodes += 1
        if self.node_limit is not None and st.nodes > self.node_limit:
            self.stopped = True
        if self.deadline is not None and st.nodes & 63 == 0 and time.perf_counter() > self.deadline:
            self.stopped = True

    def _check_deadline(self) -> bool:
        """True once a limit has stopped the search. Checked before every cell, not only every
        64 nodes: a 4-player stage game has thousands of cells, each a subtree."""
        if not self.stopped and self.deadline is not None:
            self._probes += 1
            if self._probes & 15 == 0 and time.perf_counter() > self.deadline:
                self.stopped = True
        return self.stopped

    # -- search ---------------------------------------------------------------------------------
    def value(self, table: Table, hands: Hands, alpha: Num = -INF, beta: Num = INF) -> Entry:
        """Bounds on a position's value, tight enough for the window ``(alpha, beta)``.

        The returned entry satisfies ``lo <= value <= hi`` and, unless a limit stopped the
        search, one of: ``lo == hi`` (exact), ``hi <= alpha`` (fails low) or ``lo >= beta``
        (fails high). With the full window the result is exact.
        """
        if not hands[0]:
            return _ZERO
        depth = len(hands[0])
        if depth == 1:
            # The last turn is forced but for row choices: cheaper to play out than to store.
            self.stats.nodes += 1
            a = tuple(hands[p][0] for p in self.max_side)
            b = tuple(hands[p][0] for p in self.min_side)
            v = self.cell(table, hands, a, b)[0]
            return Entry(v, v, _PURE, _PURE)
        key = self.kernel.key(table, hands)
        found = self.table.get(depth, key)
        if found is not None:
            if found.lo == found.hi or found.hi <= alpha or found.lo >= beta or self.stopped:
                self.stats.hits += 1
                return found
        elif self.stopped:
            slo, shi = self.static_bounds(table, hands)
            return Entry(slo, shi)
        entry = self._expand(table, hands, alpha, beta, found)
        if found is not None:
            lo, hi = max(found.lo, entry.lo), min(found.hi, entry.hi)
            if (lo, hi) != (entry.lo, entry.hi):
                entry = Entry(lo, hi, entry.x, entry.y, entry.hint or found.hint)
        self.table.put(depth, key, entry)
        return entry

    def solved(self, table: Table, hands: Hands) -> Solution:
        """The exact value of a position with optimal strategies (searching if needed)."""
        entry = self.value(table, hands)
        if entry.lo != entry.hi:
            raise RuntimeError("the search was stopped before the position was solved")
        if hands[0] and not entry.x:
            # Exact by merging a fail-low and a fail-high bound: expand once more for strategies.
            entry = self._expand(table, hands, -INF, INF, entry)
            self.table.put(len(hands[0]), self.kernel.key(table, hands), entry)
        rows, cols = self.actions(hands)
        x = tuple((rows[i], p) for i, p in entry.x)
        y = tuple((cols[j], p) for j, p in entry.y)
        return Solution(entry.lo, x, y)

    def safe(self, table: Table, hands: Hands, player: int) -> bool | None:
        """Whether seat ``player`` (0-based) can make sure of taking no head from this position,
        whatever the others do (:mod:`solver.search.safety`); None when a limit stopped the
        search first. Answers are kept between calls."""
        check_seat(player, len(hands))
        if self._safety is None:

            def tick() -> bool:
                self._tick()
                return self.stopped

            self._safety = Safety(self.kernel, tick)
        if self.stopped:
            return None
        try:
            return self._safety.safe(table, hands, player)
        except Stopped:
            return None

    def actions(self, hands: Hands) -> tuple[list[JointAction], list[JointAction]]:
        """The joint actions of the max side (matrix rows) and the min side (columns)."""
        rows = list(product(*(hands[p] for p in self.max_side)))
        cols = list(product(*(hands[p] for p in self.min_side)))
        return rows, cols

    def cell(
        self,
        table: Table,
        hands: Hands,
        a: JointAction,
        b: JointAction,
        alpha: Num = -INF,
        beta: Num = INF,
    ) -> tuple[Num, Num]:
        """Bounds on the value of the turn where the max side plays ``a`` and the min side
        ``b`` (the heads taken this turn plus the value of the position after it), with the
        window semantics of :meth:`value`."""
        n = len(hands)
        cards = [0] * n
        for p, c in zip(self.max_side, a, strict=True):
            cards[p] = c
        for p, c in zip(self.min_side, b, strict=True):
            cards[p] = c
        after = tuple(tuple(x for x in hands[p] if x != cards[p]) for p in range(n))
        plays = sorted(zip(cards, range(n), strict=True))
        return self._turn(table, plays, 0, after, alpha, beta)

    def _turn(
        self,
        table: Table,
        plays: Sequence[tuple[int, int]],
        idx: int,
        after: Hands,
        alpha: Num,
        beta: Num,
    ) -> tuple[Num, Num]:
        # The window is on the value of the rest of the turn; heads taken shift it.
        imm = 0
        place = self.kernel.place
        w = self.weights
        while idx < len(plays):
            card, p = plays[idx]
            choice, opts = place(table, card)
            if not choice:
                table, taken = opts[0]
                if taken:  # (skipping zero shifts saves Fraction arithmetic on the window)
                    d = w[p] * taken
                    imm += d
                    alpha -= d
                    beta -= d
                idx += 1
                continue
            # The owner's row choice: a max or min node inside the turn, alpha-beta in the
            # owner's view (negamax, as Pons' solver: the min side's values and window are
            # negated, so one loop serves both sides).
            last = len(opts) - 1
            maxi = self.maximiser[p]
            a, b = (alpha, beta) if maxi else (-beta, -alpha)
            bl: Num = -INF
            bh: Num = -INF
            for k, (t2, taken) in enumerate(opts):
                d = w[p] * taken
                ca = a if a > bl else bl
                wlo, whi = (ca, b) if maxi else (-b, -ca)
                if d:
                    lo, hi = self._turn(t2, plays, idx + 1, after, wlo - d, whi - d)
                    lo, hi = lo + d, hi + d
                else:
                    lo, hi = self._turn(t2, plays, idx + 1, after, wlo, whi)
                if not maxi:
                    lo, hi = -hi, -lo
                if lo > bl:
                    bl = lo
                if hi > bh:
                    bh = hi
                if bl >= b:
                    if k < last:
                        bh = INF  # options not searched may be better still for the owner
                    break
            if not maxi:
                bl, bh = -bh, -bl
            return (imm + bl, imm + bh) if imm else (bl, bh)
        if not after[0]:
            return imm, imm
        if len(after[0]) == 1:
            # The last turn: forced but for row choices, played out and cached by its raw table.
            leaf = self.leaves.get((table, after))
            if leaf is None:
                self.stats.nodes += 1
                n = len(after)
                final = sorted(zip((h[0] for h in after), range(n), strict=True))
                leaf = self._turn(table, final, 0, ((),) * n, -INF, INF)[0]
                if len(self.leaves) >= self.leaf_cap:
                    self.leaves.clear()
                self.leaves[table, after] = leaf
            return imm + leaf, imm + leaf
        e = self.value(table, after, alpha, beta)
        return (imm + e.lo, imm + e.hi) if imm else (e.lo, e.hi)

    def _expand(
        self, table: Table, hands: Hands, alpha: Num, beta: Num, prev: Entry | None
    ) -> Entry:
        """Search the stage game of a position (see the module docstring)."""
        self._tick()
        # Static bounds hold for every cell (any play from here stays within them); bounds
        # from earlier searches of this position hold for its value only, not for its cells.
        clo, chi = self.static_bounds(table, hands)
        slo: Num = clo
        shi: Num = chi
        if prev is not None:
            slo, shi = max(slo, prev.lo), min(shi, prev.hi)
        rows, cols = self.actions(hands)
        m, n = len(rows), len(cols)
        order_r, order_c = first_order(m, n, None if prev is None else prev.hint)
        lo_m: list[list[Num]] = [[clo] * n for _ in range(m)]
        hi_m: list[list[Num]] = [[chi] * n for _ in range(m)]

        def probe(i: int, j: int, a: Num, b: Num) -> tuple[Num, Num]:
            lo, hi = lo_m[i][j], hi_m[i][j]
            if lo < hi and hi > a and lo < b and not self._check_deadline():
                got = self.cell(table, hands, rows[i], cols[j], a, b)
                lo, hi = max(lo, got[0]), min(hi, got[1])
                lo_m[i][j], hi_m[i][j] = lo, hi
            return lo, hi

        # Serialised bounds: the max side committing first gives a lower bound (pure maxmin),
        # the min side committing first an upper bound (pure minmax); alpha-beta on each.
        best: Num = -INF
        best_i = order_r[0]
        for i in order_r:
            row_min: Num = INF
            for j in order_c:
                # Alpha-beta inside the row: a cell matters only below the row's minimum so far.
                bar = max(alpha, best)
                lo, hi = probe(i, j, bar, min(beta, row_min))
                if hi <= bar:
                    row_min = -INF
                    promote(order_c, j)  # killer: the column that refuted this row goes first
                    break
                row_min = min(row_min, lo)
            if row_min > best:
                best, best_i = row_min, i
            if best >= beta:
                return Entry(max(best, slo), shi, hint=(best_i, order_c[0]))
        # A pure saddle, if any, lies in the column where the best row has its minimum; try
        # that column first, and in each column the rows most likely to exceed the bound.
        saddle_column_order(order_c, lo_m, best_i)
        worst: Num = INF
        best_j = order_c[0]
        for j in order_c:
            col_max: Num = -INF
            for i in rows_for_column(order_r, lo_m, j):
                bar = min(beta, worst)
                lo, hi = probe(i, j, max(alpha, col_max), bar)
                if lo >= bar:
                    col_max = INF
                    break
                col_max = max(col_max, hi)
            if col_max < worst:
                worst, best_j = col_max, j
            if worst <= alpha:
                return Entry(max(best, slo), min(worst, shi), hint=(best_i, best_j))
            if worst <= best:  # the bounds met: (best_i, best_j) is a saddle point
                break
        hint = (best_i, best_j)
        if best == worst:
            self.stats.saddles += 1
            one = Fraction(1)
            return Entry(best, best, ((best_i, one),), ((best_j, one),), hint)
        # No pure saddle: refine the cells that matter to the bound games. The value of a matrix
        # game is monotone in its entries, so val(lower matrix) <= value <= val(upper matrix);
        # an optimal x of the lower game guarantees val(lower) in the true game and an optimal y
        # of the upper game concedes at most val(upper). When the two meet, they are optimal.
        while True:
            sol_lo = solve_game(lo_m)
            sol_hi = solve_game(hi_m)
            self.stats.lps += 1
            lo_v = max(best, slo, sol_lo.value)
            hi_v = min(worst, shi, sol_hi.value)
            if lo_v >= beta or hi_v <= alpha or self.stopped:
                return Entry(lo_v, hi_v, hint=hint)
            if sol_lo.value == sol_hi.value:
                v = sol_lo.value
                x = tuple((i, p) for i, p in enumerate(sol_lo.x) if p)
                y = tuple((j, p) for j, p in enumerate(sol_hi.y) if p)
                return Entry(v, v, x, y, hint)
            sr = {i for i in range(m) if sol_lo.x[i] or sol_hi.x[i]}
            sc = {j for j in range(n) if sol_lo.y[j] or sol_hi.y[j]}
            todo = [(i, j) for i in sr for j in sc if lo_m[i][j] != hi_m[i][j]] or [
                (i, j) for i in range(m) for j in range(n) if lo_m[i][j] != hi_m[i][j]
            ]
            # First within the window the bounds leave open (cheaper); if that teaches nothing
            # new, with the full window (each cell then becomes exact: progress is certain).
            changed = False
            for i, j in todo:
                before = (lo_m[i][j], hi_m[i][j])
                if probe(i, j, lo_v, hi_v) != before:
                    changed = True
            if not changed:
                for i, j in todo:
                    probe(i, j, -INF, INF)


def check_seat(player: object, players: int) -> None:
    """Refuse a seat that is not one of ``players`` (0-based) with one line."""
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < players:
        raise SolverError(f"player {player!r} is not a seat 0..{players - 1}")


class Counters(Protocol):
    """What a search counts (:class:`Stats`, or the compiled core's counters)."""

    nodes: int
    lps: int


class SearchLike(Protocol):
    """The interface the rest of the solver uses, served by :class:`Search` and by the compiled
    core's :class:`solver.native.NativeSearch`."""

    problem: Problem

    @property
    def table(self) -> Sized: ...

    @property
    def stats(self) -> Counters: ...

    def value(self, table: Table, hands: Hands, alpha: Num = ..., beta: Num = ...) -> Entry: ...

    def solved(self, table: Table, hands: Hands) -> Solution: ...

    def actions(self, hands: Hands) -> tuple[list[JointAction], list[JointAction]]: ...

    def safe(self, table: Table, hands: Hands, player: int) -> bool | None: ...

    def release_limits(self) -> None: ...

    @property
    def stopped(self) -> bool: ...


def position_table(problem: Problem) -> tuple[Table, Hands]:
    """The compact root position of a problem."""
    pos = problem.position
    return to_table(pos.rows, pos.rules.heads), tuple(tuple(sorted(h)) for h in pos.hands)
