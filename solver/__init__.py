"""solver: exact solution of 6 nimmt! positions with known hands (Logik, open Taktik, studies).

Each turn all players choose a card at once: a matrix game whose entries are the turn's heads
plus the value of the position after it. Inside a turn, the owner of a too-low card (in Profi
also of a tie or a card that fits nowhere) chooses a row knowing every card revealed: a
sequential max/min. Objectives (:mod:`solver.problem`): ``diff`` (2 players, zero-sum: heads of
the other minus own heads, for the chosen player) and ``paranoid`` (one player's own heads
against the coalition of all the others).

Modules, each with one job:

* :mod:`solver.problem` — preconditions, the objective as a max side, a min side and weights.
* :mod:`solver.kernel` — compact sorted rows, the placement rule restated for speed (tested
  against :func:`take6.placement.place`), the canonical transposition key and its derivation.
* :mod:`solver.matrix` — exact stage games: saddle check, dominance, float simplex, exact check.
* :mod:`solver.search` — the fast search (transposition table, serialised alpha-beta bounds,
  bound-matrix refinement, limits).
* :mod:`solver.baseline` — plain memoised backward induction over the reference engine, for
  differential tests only.
* :mod:`solver.api` — :func:`solve` and :class:`Result` (value, strategies, principal line).
* :mod:`solver.verify.certificate` / :mod:`solver.verify.check` — writing certificates and
  checking them with
  independent code (the checker imports only :mod:`take6`).
* :mod:`solver.cli.solve` — ``take6 solve`` and ``take6 check-certificate`` (entry point
  ``take6.commands``).

Imports: solver may import take6; take6 never imports solver.
"""

from solver.api import Result, Turn, fraction_text, solve, solve_position
from solver.errors import SolverError
from solver.problem import Objective, Problem, make_problem
from solver.verify.check import CertificateError, check_certificate

__all__ = [
    "CertificateError",
    "Objective",
    "Problem",
    "Result",
    "SolverError",
    "Turn",
    "check_certificate",
    "fraction_text",
    "make_problem",
    "solve",
    "solve_position",
]
