"""Version-3 certificates (solver.verify): the checker values the smallest positions itself (one
card a hand; two with one player a side), so the file leaves them out. Its own valuation is
checked against the baseline (memoised backward induction over the reference engine), the
certificates against the independent checker, tampering still refused, and version 2 still
read."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_helpers import position_strategy

from solver.api import solve
from solver.baseline import baseline_value
from solver.problem import make_problem
from solver.study.run import benchmark_deal
from solver.verify.certificate import build_bound_certificate
from solver.verify.check import SMALL_VERSION, CertificateError, Checker, check_certificate
from take6.position import Position
from take6.rules import ProfiTie
from take6.state import from_position


def _cards(key: str) -> int:
    """Cards a hand of a node key (``"rows hand|hand"``)."""
    first = key.split(" ")[1].split("|")[0]
    return 0 if first == "-" else len(first.split(","))


@st.composite
def small_positions(draw: st.DrawFn) -> tuple[Position, str]:
    players = draw(st.sampled_from([2, 2, 3]))
    k = draw(st.integers(1, 2 if players == 2 else 1))
    variant = draw(st.sampled_from(["logik", "standard", "profi"]))
    pos = draw(position_strategy(variant, players, k, 12 * k + 20))
    if variant == "profi":
        pos = pos.with_rules(pos.rules.with_(profi_tie=draw(st.sampled_from(list(ProfiTie)))))
    return pos, "diff" if players == 2 and draw(st.booleans()) else "paranoid"


@settings(max_examples=150, deadline=None)
@given(small_positions(), st.integers(0, 2))
def test_the_checkers_own_value_of_a_small_position_is_exact(
    case: tuple[Position, str], seat: int
) -> None:
    pos, objective = case
    seat %= pos.players
    cert = {
        "format": "take6-certificate",
        "version": SMALL_VERSION,
        "position": str(pos),
        "objective": objective,
        "seat": seat,
        "value": "0",
        "nodes": {},
    }
    checker = Checker(cert)
    checker.position = pos  # (the position's rules as they are, Profi's tie rule included)
    got = checker.small(from_position(pos))
    assert got == baseline_value(make_problem(pos, objective, seat)), str(pos)


@pytest.mark.parametrize(("k", "seed"), [(4, 0), (5, 1), (5, 2)])
def test_version_3_leaves_the_small_positions_out(k: int, seed: int) -> None:
    pos = benchmark_deal(k, seed)
    result, search = solve(pos, line=False)
    v3 = build_bound_certificate(search)
    v2 = build_bound_certificate(search, small=False)
    assert (v3["version"], v2["version"]) == (3, 2)
    assert check_certificate(v3).value == check_certificate(v2).value == result.value
    assert all(_cards(key) >= 3 for key in v3["nodes"])
    assert any(_cards(key) <= 2 for key in v2["nodes"])
    assert set(v3["nodes"]) < set(v2["nodes"])


def test_version_3_for_three_players_leaves_one_card_positions_out() -> None:
    pos = Position.create("logik", [[1], [9], [17], [25]], [[3, 11, 20], [5, 13, 22], [7, 15, 30]])
    result, search = solve(pos, "paranoid", 1, line=False)
    cert = build_bound_certificate(search)
    assert check_certificate(cert).value == result.value
    assert cert["nodes"] and all(_cards(key) >= 2 for key in cert["nodes"])


def test_a_small_root_keeps_its_node_and_strategies() -> None:
    pos = Position.create("logik", [[5], [1], [12], [7]], [[2, 6], [3, 4]], deck=12)
    result, search = solve(pos, line=False)
    cert = build_bound_certificate(search)
    assert list(cert["nodes"]) == ["1/5/7/12 2,6|3,4"]
    assert check_certificate(cert).value == result.value


def test_a_false_claim_above_the_small_positions_is_still_refused() -> None:
    pos = benchmark_deal(5, 1)
    result, search = solve(pos, line=False)
    assert result.value is not None
    cert = build_bound_certificate(search)
    three = next(key for key, node in cert["nodes"].items() if _cards(key) == 3 and "lower" in node)
    node = cert["nodes"][three]
    node["lower"] = str(Fraction(node["lower"]) + 50)  # beyond every cell below it
    with pytest.raises(CertificateError, match="guarantees only"):
        check_certificate(cert)
    # A small position's claim is checked too, where the file makes one: take a reached one
    # from the version-2 file of the same search and make it false.
    v2 = build_bound_certificate(search, small=False)
    two = next(key for key, node in v2["nodes"].items() if _cards(key) == 2 and "lower" in node)
    cert = build_bound_certificate(search)
    assert two not in cert["nodes"]
    cert["nodes"][two] = dict(v2["nodes"][two], lower="1000")
    with pytest.raises(CertificateError, match="guarantees only"):
        check_certificate(cert)
