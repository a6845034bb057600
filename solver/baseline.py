"""A deliberately simple reference solver, kept for differential tests.

Plain memoised backward induction over the reference engine (:mod:`take6.state`): every joint
choice of cards is applied with :func:`take6.state.apply`, every row choice is tried through
:func:`take6.state.legal_actions`, and every stage game is solved by the exact rational simplex
(:func:`solver.matrix.solve_exact_simplex`). No compact representation, no canonical key beyond
the engine's own rows and hands, no pruning, no floats.

The value has the meaning of :mod:`solver.search`: the payoff ``sum_p weight[p] * heads_p`` of the
heads taken from here on, for the max side against the min side.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from solver.matrix import Num, solve_exact_simplex
from solver.problem import Problem
from take6.placement import Rows
from take6.state import ChooseRow, Hand, Phase, Play, State, apply, from_position, legal_actions


class Baseline:
    """Memoised backward induction for one problem."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.memo: dict[tuple[Rows, tuple[Hand, ...]], Num] = {}
        self.nodes = 0
        self.lps = 0

    def solve(self) -> Num:
        """The exact value of the problem's position."""
        return self.value(from_position(self.problem.position))

    def _payoff(self, before: State, after: State) -> int:
        return sum(
            w * (after.score(p) - before.score(p)) for p, w in enumerate(self.problem.weights)
        )

    def value(self, state: State) -> Num:
        """Value of a state in the choose phase (0 once the hands are played out)."""
        if state.phase is not Phase.CHOOSE:
            return 0
        # The value depends only on the rows and the hands (the heads still to be taken).
        key = (state.rows, state.hands)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        pr = self.problem
        rows = list(product(*(state.hands[p] for p in pr.max_side)))
        cols = list(product(*(state.hands[p] for p in pr.min_side)))
        matrix: list[list[Num]] = []
        for a in rows:
            line: list[Num] = []
            for b in cols:
                s = state
                for p, c in zip(pr.max_side + pr.min_side, a + b, strict=True):
                    s = apply(s, Play(p, c))
                line.append(self._settle(state, s))
            matrix.append(line)
        if len(rows) == 1 or len(cols) == 1:
            v: Num = max(min(r) for r in matrix)
        else:
            self.lps += 1
            v = solve_exact_simplex(matrix)[0]
        self.memo[key] = v
        return v

    def _settle(self, start: State, s: State) -> Num:
        """Value of a state inside a turn: row choices by their owners, then the next turn."""
        if s.phase is Phase.ROW_CHOICE:
            assert s.pending is not None
            owner = s.pending.player
            options = [
                self._settle(start, apply(s, a))
                for a in legal_actions(s)
                if isinstance(a, ChooseRow)
            ]
            return max(options) if owner in self.problem.max_side else min(options)
        return self._payoff(start, s) + self.value(s)


def baseline_value(problem: Problem) -> Fraction:
    """The exact value by the baseline solver, as a Fraction."""
    return Fraction(Baseline(problem).solve())
