"""Every obligation gives its expected result; unknown is an error; nothing runs at import."""

from __future__ import annotations

import subprocess
import sys

import pytest
import z3

from proofs import core, registry
from proofs.core import Obligation, Result, SolverUnknownError, Status

OBLIGATIONS = registry.obligations()


@pytest.fixture(scope="module")
def outcomes() -> dict[str, core.Outcome]:
    return {o.obligation.name: o for o in registry.run_all()}


@pytest.mark.parametrize("name", [ob.name for ob in OBLIGATIONS])
def test_obligation_gives_expected_result(name: str, outcomes: dict[str, core.Outcome]) -> None:
    outcome = outcomes[name]
    assert outcome.result.status is outcome.obligation.expected, outcome.result.summary
    assert outcome.ok


def test_names_unique_and_findings_name_a_seed() -> None:
    names = [ob.name for ob in OBLIGATIONS]
    assert len(names) == len(set(names))
    for ob in OBLIGATIONS:
        if ob.expected is Status.FINDING:
            assert ob.seeds, ob.name
            assert all(s.endswith(".txt") for s in ob.seeds)


def test_every_finding_and_refutation_has_a_witness(outcomes: dict[str, core.Outcome]) -> None:
    for o in outcomes.values():
        if o.result.status in (Status.FINDING, Status.REFUTED):
            assert o.result.witness, o.obligation.name


def test_required_obligations_present() -> None:
    names = {ob.name for ob in OBLIGATIONS}
    for required in (
        "deck.cards",
        "deck.total-heads",
        "deck.distribution",
        "deck.taktik",
        "deck.kids-players",
        "source.000-heads",
        "source.001-heads-literal",
        "source.002-heads",
        "placement.standard-deterministic",
        "placement.profi-unique",
        "placement.profi-tie",
        "invariant.standard-step",
        "invariant.profi-step",
        "turn.too-low-lowest",
        "turn.one-row",
        "turn.max-take-heads",
        "game.termination",
        "source.logik-players",
        "source.logik-first-picker",
        "source.kids-player-limit",
        "source.kids-row-choice",
        "source.kids-turn-order",
    ):
        assert required in names


class _UnknownSolver:
    def check(self, *args: object) -> z3.CheckSatResult:
        return z3.unknown

    def reason_unknown(self) -> str:
        return "timeout"


def test_unknown_is_an_error_never_a_pass() -> None:
    with pytest.raises(SolverUnknownError, match="timeout"):
        core.is_sat(_UnknownSolver(), "a question")

    def check() -> Result:
        core.is_sat(_UnknownSolver(), "a question")
        return Result.proved("never")

    outcome = core.run(Obligation("x", "x", Status.PROVED, check))
    assert outcome.result.status is Status.ERROR
    assert not outcome.ok


def test_real_timeout_is_unknown() -> None:
    # A real z3 query stopped by a limit answers unknown, which must raise. The limit is z3's
    # resource count (deterministic), not a clock: a time limit passes or fails by machine.
    s = z3.Solver()
    s.set("rlimit", 1)
    x, y = z3.Ints("x y")
    s.add(x * x * x + y * y * y == 7 * x * y + 1, x > 1000)
    with pytest.raises(SolverUnknownError, match="z3 answered unknown for cubes"):
        core.is_sat(s, "cubes")


def test_import_runs_nothing() -> None:
    code = (
        "import z3, time\n"
        "calls = []\n"
        "orig = z3.Solver.check\n"
        "z3.Solver.check = lambda self, *a: calls.append(1) or orig(self, *a)\n"
        "import proofs, proofs.cli, proofs.registry, proofs.report, proofs.sources\n"
        "import proofs.placement, proofs.deck, proofs.game, proofs.model\n"
        "assert calls == [], calls\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_proofs_not_imported_by_take6() -> None:
    code = "import sys, take6, take6.state, take6.play.game; assert 'proofs' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
