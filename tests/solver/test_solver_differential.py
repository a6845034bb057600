"""The fast solver against the baseline (memoised backward induction over the reference engine)
on random positions; symmetry, relabelling, limits and certificates."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_helpers import position_strategy, random_position, relabel

from solver.api import solve
from solver.baseline import baseline_value
from solver.problem import make_problem
from solver.verify.certificate import build_certificate
from solver.verify.check import check_certificate
from take6.position import Position


def _fast(pos: Position, objective: str = "diff", player: int = 0) -> Fraction:
    """The fast solver's value, its certificate checked by the independent checker."""
    result, search = solve(pos, objective, player, line=False)
    assert result.solved and result.value is not None
    assert check_certificate(build_certificate(search)).value == result.value
    return result.value


CASES = [
    # (variant, players, cards per hand, objective, examples)
    ("logik", 2, 2, "diff", 60),
    ("profi", 2, 2, "diff", 60),
    ("logik", 2, 3, "diff", 40),
    ("profi", 2, 3, "diff", 40),
    ("logik", 3, 2, "paranoid", 25),
    ("profi", 3, 2, "paranoid", 25),
    ("logik", 3, 3, "paranoid", 6),
    ("profi", 3, 3, "paranoid", 4),
]


@pytest.mark.parametrize(("variant", "players", "k", "objective", "examples"), CASES)
def test_fast_matches_baseline(
    variant: str, players: int, k: int, objective: str, examples: int
) -> None:
    @settings(max_examples=examples)
    @given(position_strategy(variant, players, k, top=12 * k + 20), st.integers(0, players - 1))
    def check(pos: Position, player: int) -> None:
        fast = _fast(pos, objective, player)
        assert fast == baseline_value(make_problem(pos, objective, player)), str(pos)

    check()


@pytest.mark.parametrize("variant", ["logik", "profi"])
def test_fast_matches_baseline_four_cards(variant: str) -> None:
    @settings(max_examples=3)
    @given(position_strategy(variant, 2, 4, top=60, long_rows=True))
    def check(pos: Position) -> None:
        assert _fast(pos) == baseline_value(make_problem(pos, "diff", 0)), str(pos)

    check()


@settings(max_examples=40)
@given(st.sampled_from(["logik", "profi"]).flatmap(lambda v: position_strategy(v, 2, 3, top=50)))
def test_swapping_players_negates_diff(pos: Position) -> None:
    variant = pos.variant.value
    swapped = Position.create(variant, pos.rows, pos.hands[::-1])
    assert _fast(swapped) == -_fast(pos)
    assert _fast(pos, "diff", 1) == -_fast(pos)


@settings(max_examples=40)
@given(st.integers(0, 10**9))
def test_relabelling_keeps_the_value(seed: int) -> None:
    # Standard placement compares cards only, so a renaming that keeps order and heads keeps
    # the value (not in Profi, where the distances of left and right options matter).
    rng = random.Random(seed)
    pos = random_position(rng, "logik", 2, 3, top=50)
    other = relabel(pos, rng)
    if other is not None:
        assert _fast(other) == _fast(pos)


@settings(max_examples=25)
@given(
    st.tuples(st.sampled_from(["logik", "profi"]), st.sampled_from([2, 3])).flatmap(
        lambda vp: position_strategy(vp[0], vp[1], 3 if vp[1] == 2 else 2, top=45)
    )
)
def test_certificates_check(pos: Position) -> None:
    objective = "diff" if pos.players == 2 else "paranoid"
    result, search = solve(pos, objective, 0, line=False)
    cert = build_certificate(search)
    assert check_certificate(cert).value == result.value


@pytest.mark.parametrize("seed", range(4))
def test_limits_give_proven_bounds(seed: int) -> None:
    pos = random_position(random.Random(seed), "logik", 2, 5, top=40)
    exact, _ = solve(pos, line=False)
    assert exact.value is not None
    for limit in (1, 10, 100):
        partial, _ = solve(pos, node_limit=limit, line=False)
        assert partial.lower <= exact.value <= partial.upper
        if not partial.solved:
            assert partial.value is None and partial.lower < partial.upper
