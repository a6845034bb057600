"""Stage games: exact values of known matrix games and agreement of the fast path with the
rational simplex on random games."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.matrix import (
    float_game,
    pure_saddle,
    reduce_dominated,
    solve_exact_simplex,
    solve_game,
    verify,
)


def test_matching_pennies() -> None:
    # Matching pennies (von Neumann & Morgenstern 1944): value 0, both sides mix 1/2-1/2.
    sol = solve_game([[1, -1], [-1, 1]])
    assert sol.value == 0
    assert sol.x == (Fraction(1, 2), Fraction(1, 2))
    assert sol.y == (Fraction(1, 2), Fraction(1, 2))
    assert sol.lp


def test_hand_solved_2x2() -> None:
    # [[3, 0], [1, 2]]: no saddle (row mins 0, 1; column maxes 3, 2). Equalising: x*3 + (1-x)*1
    # = x*0 + (1-x)*2  =>  x = 1/4, value 3/2; y*3 = y + 2(1-y)  =>  y = 1/2.
    sol = solve_game([[3, 0], [1, 2]])
    assert sol.value == Fraction(3, 2)
    assert sol.x == (Fraction(1, 4), Fraction(3, 4))
    assert sol.y == (Fraction(1, 2), Fraction(1, 2))


def test_rock_paper_scissors_with_fractions() -> None:
    a = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    sol = solve_game([[Fraction(v, 3) for v in r] for r in a])
    assert sol.value == 0
    assert sol.x == (Fraction(1, 3),) * 3


def test_saddle_needs_no_lp() -> None:
    a = [[1, 5], [2, 3]]
    assert pure_saddle(a) == (1, 0)
    sol = solve_game(a)
    assert sol.value == 2 and not sol.lp


def test_dominance_keeps_one_of_equal_rows() -> None:
    rows, cols = reduce_dominated([[1, 0], [1, 0], [0, 1]])
    assert rows == [0, 2] and cols == [0, 1]


def test_float_game_approximates() -> None:
    got = float_game([[1.0, -1.0], [-1.0, 1.0]])
    assert got is not None
    x, y = got
    assert abs(x[0] - 0.5) < 1e-9 and abs(y[1] - 0.5) < 1e-9


matrices = st.integers(1, 5).flatmap(
    lambda m: st.integers(1, 5).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(-6, 6), min_size=n, max_size=n), min_size=m, max_size=m
        )
    )
)


@settings(max_examples=150)
@given(matrices)
def test_fast_path_matches_rational_simplex(a: list[list[int]]) -> None:
    sol = solve_game(a)
    value, x, y = solve_exact_simplex(a)
    assert sol.value == value
    assert verify(a, sol.value, sol.x, sol.y)
    assert verify(a, value, x, y)
