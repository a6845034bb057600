"""The conformance kit: the shipped cases, the runner against right, wrong and broken engines, user
case files, and perft counts that the engine and the solver's kernel agree on."""

from __future__ import annotations

import json
import sys
from collections import Counter
from itertools import product
from pathlib import Path

import pytest

from solver.kernel import Kernel, to_table
from solver.kernel import Table as KTable
from take6.cards import HEADS
from take6.cli.main import main
from take6.conform import runner
from take6.conform.cases import (
    Case,
    CaseError,
    dumps_cases,
    perft,
    perft_positions,
    perft_question,
    read_cases,
)
from take6.conform.kit import RULES, build_kit
from take6.conform.main import kit_cases
from take6.conform.runner import EngineError, run_cases
from take6.placement import Rows
from take6.rules import Rules

NAIVE = Path(__file__).with_name("naive_engine.py")
SERVE = [
    sys.executable,
    "-c",
    "import sys; from take6.conform.serve import serve; serve(sys.stdin, sys.stdout)",
]


def naive(*flags: str) -> list[str]:
    return [sys.executable, str(NAIVE), *flags]


@pytest.fixture(scope="module")
def kit() -> list[Case]:
    return kit_cases()


def statuses(outcomes: list[runner.Outcome]) -> Counter[str]:
    return Counter(o.status for o in outcomes)


def by_rule(outcomes: list[runner.Outcome], status: str) -> Counter[str]:
    return Counter(o.case.rule for o in outcomes if o.status == status)


def test_shipped_kit_is_the_generated_one(kit: list[Case]) -> None:
    # The file in the package is exactly what the generator draws (it cannot drift from the
    # engine: every case's expect is also re-derived when the kit is read).
    shipped = Path(__file__).parents[2] / "take6" / "conform" / "kit.jsonl"
    assert shipped.read_text(encoding="utf-8") == dumps_cases(build_kit())
    assert len(kit) >= 500
    assert set(RULES) == {c.rule for c in kit}
    assert len({c.id for c in kit}) == len(kit)


def test_reference_engine_agrees_on_every_case(kit: list[Case]) -> None:
    outcomes = run_cases(SERVE, kit, timeout=30)
    assert statuses(outcomes) == Counter({runner.AGREE: len(kit)})
    assert runner.ok(outcomes)


def test_independent_naive_engine_conforms(kit: list[Case]) -> None:
    # Written apart from take6: it agrees wherever it answers, and declares Profi and perft
    # unsupported (which is not a failure).
    outcomes = run_cases(naive(), kit, timeout=30)
    count = statuses(outcomes)
    assert count[runner.DISAGREE] == count[runner.FAILED] == 0
    assert count[runner.AGREE] > 400
    unsupported = by_rule(outcomes, runner.UNSUPPORTED)
    assert set(unsupported) == {r for r in RULES if r.startswith("profi.")} | {"perft"}
    assert runner.ok(outcomes)


@pytest.mark.parametrize(
    ("flags", "caught"),
    [
        (["--heads55", "5"], {"heads.55"}),
        (["--digit-five"], {"heads.table"}),
        (["--too-low-auto"], {"too-low.choice"}),
        (["--seat-order"], {"order.lowest-first"}),
        (["--no-sixth"], {"take.full-row", "capacity.house"}),
    ],
)
def test_wrong_engines_are_caught(kit: list[Case], flags: list[str], caught: set[str]) -> None:
    outcomes = run_cases(naive(*flags), kit, timeout=30)
    assert not runner.ok(outcomes)
    wrong = by_rule(outcomes, runner.DISAGREE)
    total = Counter(c.rule for c in kit)
    for rule in caught:
        if rule == "heads.table":
            assert wrong[rule] == 9  # 50 (3 heads) and 51-54, 56-59 (1 head) read as 2
        else:
            # every case of the rule was drawn so that this misreading answers it differently
            assert wrong[rule] == total[rule], rule
    assert statuses(outcomes)[runner.FAILED] == 0


def test_disagreement_names_the_difference(kit: list[Case]) -> None:
    case = next(c for c in kit if c.id == "heads-055")
    (outcome,) = run_cases(naive("--heads55", "5"), [case])
    assert outcome.status == runner.DISAGREE
    assert outcome.details == ["heads: expected 7, got 5"]


@pytest.mark.parametrize(
    ("flag", "why"),
    [
        ("--crash-at", "the engine exited (status 3): engine: cannot cope"),
        ("--hang-at", "no answer within 0.5 s (the engine was stopped)"),
        ("--garbage-at", "the answer is not JSON: Traceback (most recent call last): oops"),
        ("--wrong-id-at", "the answer is for id 'other', not 'heads-003'"),
    ],
)
def test_broken_engine_fails_one_case_and_the_run_goes_on(
    kit: list[Case], flag: str, why: str
) -> None:
    cases = kit[:6]
    outcomes = run_cases(naive(flag, "heads-003"), cases, timeout=0.5)
    assert [o.status for o in outcomes] == [runner.AGREE] * 2 + [runner.FAILED] + [runner.AGREE] * 3
    assert outcomes[2].details == [why]


def test_an_engine_that_always_dies_is_given_up_after_max_failures(kit: list[Case]) -> None:
    outcomes = run_cases(
        [sys.executable, "-c", "import sys; sys.exit(1)"], kit[:20], timeout=5, max_failures=3
    )
    assert [o.status for o in outcomes[:3]] == [runner.FAILED] * 3
    assert {o.status for o in outcomes[3:]} == {runner.NOT_RUN}
    assert outcomes[0].details == ["the engine exited (status 1)"]


def test_engine_that_cannot_start_is_one_error() -> None:
    with pytest.raises(EngineError, match="cannot start the engine '/no/such/engine'"):
        run_cases(["/no/such/engine"], [], timeout=1)
    with pytest.raises(EngineError, match="empty"):
        run_cases("   ", [], timeout=1)


def test_cli_conforming_and_not(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = " ".join(naive())
    assert main(["conform", "--engine", engine, "--rule", "too-low"]) == 0
    assert "80 cases: 80 agree. The engine conforms." in capsys.readouterr().out
    assert main(["conform", "--engine", engine + " --too-low-auto", "--rule", "too-low"]) == 1
    out = capsys.readouterr().out
    assert "DISAGREE too-low.choice-001" in out and "request: {" in out
    assert main(["conform", "--engine", engine + " --no-sixth", "--rule", "take", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["counts"]["disagree"] == 60 and report["ok"] is False


def test_cli_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform"]) == 2
    assert "give the engine to check" in capsys.readouterr().err
    assert main(["conform", "--engine", "/no/such/engine", "--rule", "heads.55"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot start the engine" in err
    assert main(["conform", "--engine", "x", "--rule", "nosuchrule"]) == 2
    assert "no case concerns a rule" in capsys.readouterr().err
    assert main(["conform", "--engine", "x", "--timeout", "0"]) == 2
    capsys.readouterr()


def test_user_case_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A user's own scenario without an expected answer: the reference engine supplies it.
    case = {
        "id": "my-too-low",
        "kind": "turn",
        "rules": {
            "variant": "standard",
            "players": 2,
            "rows": 4,
            "row_capacity": 5,
            "deck_size": 104,
            "profi_left": False,
            "profi_tie": "owner",
            "simultaneous": True,
        },
        "rows": [[10], [20, 30], [55], [60, 61, 62, 63, 64]],
        "plays": [{"player": 0, "card": 2}, {"player": 1, "card": 65}],
        "choices": [{"player": 0, "row": 2}],
    }
    path = tmp_path / "mine.jsonl"
    path.write_text("# my scenarios\n" + json.dumps(case) + "\n")
    (c,) = read_cases(path.read_text(), "mine.jsonl")
    assert c.expect == {
        "rows": [[10], [20, 30], [2], [65]],
        "taken": [[55], [60, 61, 62, 63, 64]],
        "heads": [7, 7],
    }
    assert c.rule == "heads.55, take.full-row, too-low.choice"
    assert main(["conform", "--engine", " ".join(naive()), "--cases", str(path)]) == 0
    assert (
        main(["conform", "--engine", " ".join(naive("--heads55", "5")), "--cases", str(path)]) == 1
    )
    capsys.readouterr()
    # A wrong expectation, a malformed line, a bad field: one line naming the problem.
    bad = dict(case, expect={"rows": [], "taken": [], "heads": [0, 0]})
    path.write_text(json.dumps(bad) + "\n")
    assert main(["conform", "--engine", "x", "--cases", str(path)]) == 2
    assert "is not what the rules give" in capsys.readouterr().err
    for text, words in [
        ("{not json\n", "not JSON"),
        (json.dumps(dict(case, choices=[])) + "\n", "needs a row choice"),
        (json.dumps(dict(case, rows=[[3, 2], [20], [55], [60]])) + "\n", "not strictly ascending"),
        (json.dumps(dict(case, plays=[{"player": 0, "card": 20}])) + "\n", "appears twice"),
        (json.dumps(dict(case, extra=1)) + "\n", "unknown field"),
        ("", "holds no case"),
    ]:
        path.write_text(text)
        assert main(["conform", "--engine", "x", "--cases", str(path)]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1, err
    with pytest.raises(CaseError, match="used twice"):
        read_cases(json.dumps(case) + "\n" + json.dumps(case), "twice")


def test_export_round_trips(tmp_path: Path, kit: list[Case]) -> None:
    path = tmp_path / "kit.jsonl"
    assert main(["conform", "--export", str(path), "--rule", "profi."]) == 0
    cases = read_cases(path.read_text(), "exported")
    assert [c.id for c in cases] == [c.id for c in kit if c.rule.startswith("profi.")]


def _kernel_perft(
    rules: Rules, rows: Rows, hands: tuple[tuple[int, ...], ...], turns: int
) -> tuple[int, set[KTable]]:
    """Perft by the solver's kernel (compact tables, its own placement rule)."""
    kernel = Kernel(rules)
    level = {(to_table(rows, HEADS), hands): 1}
    for _ in range(turns):
        nxt: dict[tuple[KTable, tuple[tuple[int, ...], ...]], int] = {}
        for (table, hs), w in level.items():
            for cards in product(*hs):
                after = tuple(tuple(c for c in h if c != x) for h, x in zip(hs, cards, strict=True))
                outs = [table]
                for card in sorted(cards):
                    outs = [t for o in outs for t, _ in kernel.place(o, card)[1]]
                for t in outs:
                    nxt[(t, after)] = nxt.get((t, after), 0) + w
        level = nxt
    return sum(level.values()), {t for t, _ in level}


def test_perft_engine_and_kernel_agree(kit: list[Case]) -> None:
    for case in (c for c in kit if c.kind == "perft"):
        q = perft_question(case.request, case.id)
        level = perft_positions(q)
        assert perft(q) == (case.expect["paths"], case.expect["tables"])
        paths, tables = _kernel_perft(q.rules, q.rows, q.hands, q.turns)
        assert paths == case.expect["paths"], case.id
        # The kernel keeps only (last, first, length, heads) of a row: its tables are the
        # engine's, projected.
        assert tables == {to_table(rows, HEADS) for rows, _ in level}, case.id
