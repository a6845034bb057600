"""Safety (can a seat make sure of taking no head?): the Python reference against an exact fact
and against the compiled core, and its use by the draft.

The fact: a seat's heads are never negative, so under ``paranoid`` for that seat (its own heads,
the others against it) the exact value is 0 exactly when the seat is safe. That ties the boolean
search to the value search, which shares no code with it but the kernel's placement."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_helpers import any_position

from solver import native
from solver.api import make_search, solve
from solver.draft.solve import DraftSearch, safety_bounds, solve_draft
from solver.errors import SolverError
from solver.problem import make_problem
from solver.search import Search, position_table
from take6.notation import parse_position
from take6.position import Position

MEMORY = 1 << 22


@st.composite
def positions(draw: st.DrawFn) -> tuple[Position, int]:
    """A random position and a seat: 2 players with up to 4 cards, 3 with up to 3, 4 with up
    to 2; every variant, Profi with each tie rule; long rows, so takes and choices happen."""
    pos = draw(any_position())
    return pos, draw(st.integers(0, pos.rules.players - 1))


def python_safe(pos: Position, seat: int) -> bool | None:
    problem = make_problem(pos, "paranoid", seat)
    table, hands = position_table(problem)
    return Search(problem).safe(table, hands, seat)


@settings(max_examples=150, deadline=None)
@given(positions())
def test_safe_exactly_when_the_paranoid_value_is_zero(case: tuple[Position, int]) -> None:
    pos, seat = case
    result, _ = solve(pos, "paranoid", seat, line=False, core="python")
    assert result.value is not None
    assert python_safe(pos, seat) == (result.value == 0), str(pos)


needs_native = pytest.mark.skipif(
    not native.AVAILABLE, reason=f"compiled core not built: {native.unavailable_reason()}"
)


@needs_native
@settings(max_examples=200, deadline=None)
@given(positions(), st.sampled_from(["diff", "paranoid"]))
def test_native_safe_equals_python(case: tuple[Position, int], objective: str) -> None:
    pos, seat = case
    if objective == "diff" and pos.rules.players != 2:
        objective = "paranoid"
    problem = make_problem(pos, objective, 0)
    table, hands = position_table(problem)
    fast, _ = make_search(problem, "native", memory=MEMORY)
    got = fast.safe(table, hands, seat)
    assert got == python_safe(pos, seat), str(pos)
    # Asked again, the answer comes from the table, and values are unaffected by it.
    assert fast.safe(table, hands, seat) == got
    assert fast.value(table, hands).lo == Search(problem).value(table, hands).lo


@pytest.mark.parametrize("core", ["python", pytest.param("native", marks=needs_native)])
def test_safe_refuses_a_seat_that_is_not_one(core: str) -> None:
    pos = parse_position("logik:12 1/2/3/4 5,6|7,8")
    problem = make_problem(pos, "diff", 0)
    table, hands = position_table(problem)
    search, _ = make_search(problem, core, memory=MEMORY)
    for bad in (2, -1, True):
        with pytest.raises(SolverError, match=r"is not a seat 0\.\.1"):
            search.safe(table, hands, bad)


@pytest.mark.parametrize("core", ["python", pytest.param("native", marks=needs_native)])
def test_a_stopped_safety_search_answers_none(core: str) -> None:
    pos = parse_position("logik:20 1/2/3/4 5,7,9,11,13,15,17,19|6,8,10,12,14,16,18,20")
    problem = make_problem(pos, "diff", 0)
    table, hands = position_table(problem)
    search, _ = make_search(problem, core, memory=MEMORY, node_limit=3)
    assert search.safe(table, hands, 0) is None
    assert search.stopped


def test_safety_bounds_of_each_objective() -> None:
    pos2 = parse_position("logik:12 1/2/3/4 5,6|7,8")
    pos3 = parse_position("logik:10 1/2/3/4 5,6|7,8|9,10")
    # diff for seat 1: value = heads(0) - heads(1); seat 1 safe proves >= 0, seat 0 <= 0.
    assert sorted(safety_bounds(make_problem(pos2, "diff", 1))) == [(0, -1), (1, 1)]
    # paranoid for seat 2: its own heads; its safety proves <= 0 (so 0); the coalition nothing.
    assert safety_bounds(make_problem(pos3, "paranoid", 2)) == [(2, -1)]


@pytest.mark.parametrize("core", ["python", pytest.param("native", marks=needs_native)])
@pytest.mark.parametrize("players,k", [(2, 1), (2, 2), (2, 3), (3, 1), (3, 2)])
def test_draft_safety_agrees_with_the_draft_values(core: str, players: int, k: int) -> None:
    # Every first pick: where the safety searches prove bounds, the exact value (found by the
    # draft's value search with safety switched off) lies within them.
    objective = "diff" if players == 2 else "paranoid"
    plain = DraftSearch(players, k, 0, objective, 0, core=core, memory=MEMORY)
    plain.safety_seats = []  # the value search alone
    proved = DraftSearch(players, k, 0, objective, 0, core=core, memory=MEMORY)
    for c in plain.pool(plain.root()):
        child = plain.child(plain.root(), c)
        v = plain.exact(child)
        lo, hi = proved.prove_by_safety(child)
        assert v is not None and lo <= v <= hi, (c, v, lo, hi)
        if (lo, hi) == (0, 0):
            assert v == 0


def test_draft_values_with_and_without_safety_are_equal() -> None:
    with_safety = solve_draft(2, 4, core="python")
    assert with_safety.solved and with_safety.value == 0
    # Picks proven 0 by safety and the others by the value search, as one table of values.
    values = {p.card: p.value for p in with_safety.picks}
    assert values[1] == Fraction(-1) and all(values[c] == 0 for c in range(2, 13))
