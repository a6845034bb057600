"""solver: exact solution of 6 nimmt! positions with known hands (Logik, open Taktik, studies).

Each turn all players choose a card at once: a matrix game whose entries are the turn's heads
plus the value of the position after it. Inside a turn, the owner of a too-low card (in Profi
also of a tie or a card that fits nowhere) chooses a row knowing every card revealed: a
sequential max/min. Objectives (:mod:`solver.problem`): ``diff`` (2 players, zero-sum: heads of
the other minus own heads, for the chosen player) and ``paranoid`` (one player's own heads
against the coalition of all the others).

Modules and folders, each with one job (ARCHITECTURE.md has the layers):

* :mod:`solver.problem` — preconditions, the objective as a max side, a min side and weights.
* :mod:`solver.kernel` — compact sorted rows, the placement rule restated for speed (tested
  against :func:`take6.placement.place`), the canonical transposition key and its derivation.
* :mod:`solver.matrix` — exact stage games: saddle check, dominance, float simplex, exact check.
* :mod:`solver.search` — the Python search (alpha-beta with serialised bounds, its
  transposition table and move ordering); :mod:`solver.native` — the compiled core.
* :mod:`solver.walk` — the one tree walker (a joint action, the row choices by their owners).
* :mod:`solver.baseline` — plain memoised backward induction over the reference rules, for
  differential tests only.
* :mod:`solver.api` — :func:`solve` and :class:`Result` (value, strategies, principal line).
* :mod:`solver.verify` — writing certificates and checking them with independent code (the
  checker imports only :mod:`take6`).
* :mod:`solver.draft`, :mod:`solver.study`, :mod:`solver.graph` — the Logik draft, batch
  studies, the solved position graph.
* :mod:`solver.restatements` — the kernel's and the compiled core's placement, offered to
  ``take6 verify --code`` (entry point ``take6.restatements``), which proves them equal to
  :func:`take6.placement.place` on a bounded domain.
* :mod:`solver.cli` — ``take6 solve``, ``check-certificate``, ``draft``, ``study`` (entry point
  ``take6.commands``).

Imports: solver may import take6; take6 never imports solver. The names below are loaded when
first used, so ``import solver`` (which every ``take6`` plugin command does) loads no search.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.api import Result, Turn, fraction_text, solve, solve_position
    from solver.errors import SolverError
    from solver.problem import Objective, Problem, make_problem
    from solver.verify.check import CertificateError, check_certificate

_WHERE = {
    "Result": "solver.api",
    "Turn": "solver.api",
    "fraction_text": "solver.api",
    "solve": "solver.api",
    "solve_position": "solver.api",
    "SolverError": "solver.errors",
    "Objective": "solver.problem",
    "Problem": "solver.problem",
    "make_problem": "solver.problem",
    "CertificateError": "solver.verify.check",
    "check_certificate": "solver.verify.check",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'solver' has no attribute {name!r}")


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
