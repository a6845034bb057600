"""Results of proof obligations, and the one way this package asks z3 a question.

An obligation is a function that builds its own z3 query and returns a :class:`Result`:

* ``PROVED`` — the negated claim is unsatisfiable (or the optimum was reached and its bound
  proved);
* ``REFUTED`` — z3 found a counterexample to a claim about the rules, in ``witness``;
* ``FINDING`` — z3 found a witness that a source text is contradictory or silent.

``unknown`` from z3 is never read as an answer: :func:`is_sat` raises :class:`SolverUnknownError`.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import z3

TIMEOUT_MS = 20_000
"""Per-query z3 timeout; a query that times out answers ``unknown``, which is an error."""

SEED_000 = "000_aca8a98c2fa77eab.txt"
"""Encyclopedia entry (all variants)."""
SEED_001 = "001_53c2e1d95801b1f8.txt"
"""Rules guide (bull heads worded as "cards that contain the digit 5")."""
SEED_002 = "002_a12c042f070fb957.txt"
"""Rules guide with worked examples and "Toma 5 avanzada" (Logik)."""

Witness = dict[str, object]
"""A JSON-ready description of a counterexample or finding (ints, strings, lists, dicts)."""


class Status(enum.Enum):
    """What an obligation established."""

    PROVED = "proved"
    REFUTED = "refuted"
    FINDING = "finding"
    ERROR = "error"
    """z3 answered ``unknown`` (or the check raised): never a pass."""
    SKIPPED = "skipped"
    """The check cannot run here (e.g. the compiled core is not built): no proof, and no
    failure; the summary says why."""

    def __repr__(self) -> str:
        return f"Status.{self.name}"


class SolverUnknownError(RuntimeError):
    """z3 answered ``unknown``: the obligation is neither proved nor refuted."""


@dataclass(frozen=True)
class Result:
    """The answer of one obligation: ``summary`` is one line for the report."""

    status: Status
    summary: str
    witness: Witness | None = None

    @classmethod
    def proved(cls, summary: str, witness: Witness | None = None) -> Result:
        return cls(Status.PROVED, summary, witness)

    @classmethod
    def refuted(cls, summary: str, witness: Witness) -> Result:
        return cls(Status.REFUTED, summary, witness)

    @classmethod
    def finding(cls, summary: str, witness: Witness) -> Result:
        return cls(Status.FINDING, summary, witness)


@dataclass(frozen=True)
class Obligation:
    """A named claim with the result it is expected to give.

    ``check`` builds the z3 query when called (never at import time). ``seeds`` names the source
    files a finding concerns. ``also`` lists further statuses that count as the expected result
    (a rule set's obligation may prove a fact or find, with a witness, that it fails).
    """

    name: str
    description: str
    expected: Status
    check: Callable[[], Result]
    seeds: tuple[str, ...] = ()
    also: tuple[Status, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """An obligation, what it gave, and how long it took."""

    obligation: Obligation
    result: Result
    seconds: float
    error: str | None = field(default=None)

    @property
    def ok(self) -> bool:
        """The expected result, or a skip (reported with its reason, not as a failure)."""
        ob = self.obligation
        return self.result.status in (ob.expected, Status.SKIPPED, *ob.also)


def run(obligation: Obligation) -> Outcome:
    """Run one obligation, timing it; an ``unknown`` answer becomes an ``ERROR`` result."""
    start = time.perf_counter()
    try:
        result = obligation.check()
        error = None
    except SolverUnknownError as exc:
        result = Result(Status.ERROR, str(exc))
        error = str(exc)
    return Outcome(obligation, result, time.perf_counter() - start, error)


def new_solver() -> z3.Solver:
    """A fresh solver with the package timeout."""
    solver = z3.Solver()
    solver.set("timeout", TIMEOUT_MS)
    return solver


def new_optimizer() -> z3.Optimize:
    """A fresh optimizer with the package timeout."""
    opt = z3.Optimize()
    opt.set("timeout", TIMEOUT_MS)
    return opt


def is_sat(solver: z3.Solver | z3.Optimize, what: str, *assumptions: z3.BoolRef) -> bool:
    """``True`` for sat, ``False`` for unsat; raise :class:`SolverUnknownError` otherwise."""
    answer = solver.check(*assumptions)
    if answer == z3.sat:
        return True
    if answer == z3.unsat:
        return False
    raise SolverUnknownError(f"z3 answered unknown for {what}: {solver.reason_unknown()}")


def as_int(model: z3.ModelRef, term: z3.ArithRef) -> int:
    """The value of an integer ``term`` in ``model`` (completing the model where needed)."""
    value = model.eval(term, model_completion=True)
    return int(value.as_long())


def as_bool(model: z3.ModelRef, term: z3.BoolRef) -> bool:
    """The value of a Boolean ``term`` in ``model``."""
    return bool(z3.is_true(model.eval(term, model_completion=True)))
