"""A deliberately simple reference solver, kept for differential tests.

Plain memoised backward induction over the reference rules: every joint choice of cards is
played by the rules core's :func:`take6.turn.resolve_turn` through the solver's one walker
(:mod:`solver.walk`, which tries every row choice the placement rule leaves open), and every
stage game is solved by the exact rational simplex (:func:`solver.matrix.solve_exact_simplex`).
No compact representation, no canonical key beyond the rows and hands themselves, no pruning,
no floats.

The value has the meaning of :mod:`solver.search`: the payoff ``sum_p weight[p] * heads_p`` of the
heads taken from here on, for the max side against the min side.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from solver.matrix import Num, solve_exact_simplex
from solver.problem import Problem
from solver.walk import Node, seat_cards, settle


class Baseline:
    """Memoised backward induction for one problem."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.memo: dict[Node, Num] = {}
        self.nodes = 0
        self.lps = 0

    def solve(self) -> Num:
        """The exact value of the problem's position."""
        return self.value(Node.of(self.problem.position))

    def value(self, node: Node) -> Num:
        """Value of a position between turns (0 once the hands are played out)."""
        if node.done:
            return 0
        if node in self.memo:
            return self.memo[node]
        self.nodes += 1
        pr = self.problem
        rows = list(product(*(node.hands[p] for p in pr.max_side)))
        cols = list(product(*(node.hands[p] for p in pr.min_side)))
        matrix = [
            [settle(pr, node, seat_cards(pr, a, b), self.value)[0] for b in cols] for a in rows
        ]
        if len(rows) == 1 or len(cols) == 1:
            v: Num = max(min(r) for r in matrix)
        else:
            self.lps += 1
            v = solve_exact_simplex(matrix)[0]
        self.memo[node] = v
        return v


def baseline_value(problem: Problem) -> Fraction:
    """The exact value by the baseline solver, as a Fraction."""
    return Fraction(Baseline(problem).solve())
