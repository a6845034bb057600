"""The solver under a rule set of its own (a rules file): the Python search, the compiled core and
the baseline agree on a 3-row, capacity-4 game with a custom bull-head table; certificates carry
the rule set and their checker uses it; the compiled core refuses cards it cannot hold."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from solver import native
from solver.api import make_search, solve
from solver.baseline import Baseline
from solver.errors import SolverError
from solver.kernel import Kernel
from solver.problem import make_problem
from solver.verify.certificate import build_bound_certificate, build_certificate
from solver.verify.check import CertificateError, check_certificate
from take6.cli.main import main
from take6.io.rulesfile import rules_from_toml
from take6.notation import parse_position

RULES = """
players = 2
rows = 3
row_capacity = 4
hand_size = 4
deck = "1..40"
[heads]
default = 1
multiples = [{ of = 7, heads = 9 }, { of = 4, heads = 0 }]
"""
POSITION = "standard 5,9/20/30 2,11,25,33|3,14,28,35"

needs_native = pytest.mark.skipif(not native.AVAILABLE, reason="the compiled core is not built")


def test_python_search_and_baseline_agree_under_custom_heads() -> None:
    pos = parse_position(POSITION, rules_from_toml(RULES))
    assert pos.rules.rows == 3 and pos.rules.heads[14] == 9 and pos.rules.heads[20] == 0
    result, _ = solve(pos, "diff", 0, core="python")
    assert result.solved
    assert result.value == Baseline(make_problem(pos, "diff", 0)).solve()
    # the rules' heads count: under a table with no heads at all nothing is ever lost
    flat = RULES.replace("default = 1", "default = 0").replace("heads = 9", "heads = 0")
    zero = parse_position(POSITION, rules_from_toml(flat))
    assert solve(zero, "diff", 0, core="python")[0].value == 0 != result.value


@needs_native
def test_compiled_core_gives_the_python_value() -> None:
    pos = parse_position(POSITION, rules_from_toml(RULES))
    py, _ = solve(pos, "diff", 0, core="python")
    nat, search = solve(pos, "diff", 0, core="native")
    assert isinstance(search, native.NativeSearch)
    assert nat.value is not None and nat.value == py.value
    paranoid_py, _ = solve(pos, "paranoid", 1, core="python")
    paranoid_nat, _ = solve(pos, "paranoid", 1, core="native")
    assert paranoid_py.value == paranoid_nat.value


@needs_native
def test_compiled_core_refuses_cards_above_127() -> None:
    rules = rules_from_toml(
        'players = 2\nhand_size = 2\ndeck = "1..200"\n[heads]\ndefault = 1\n'
        "multiples = [{ of = 50, heads = 4 }]\n"
    )
    pos = parse_position("standard 1/60/120/180 150,2|151,3", rules)
    with pytest.raises(SolverError, match=r"cards 1\.\.127"):
        make_search(make_problem(pos, "diff", 0), "native")
    _search, note = make_search(make_problem(pos, "diff", 0), "auto")
    assert "cards 1..127" in note
    result, _ = solve(pos, "diff", 0)
    assert result.solved and result.value == Baseline(make_problem(pos, "diff", 0)).solve()


def test_the_key_keeps_owner_and_heads_apart() -> None:
    # card 5 with 8 heads held by player 1 against card 6 with 8 heads held by player 1 after
    # 5 moved: a packing of owner*8 + heads would confuse (owner 0, 8 heads) with (owner 1, 0)
    rules = rules_from_toml(
        'players = 2\nhand_size = 1\ndeck = "1..10"\n[heads]\ndefault = 1\n'
        "cards = { 5 = 8, 6 = 0 }\n"
    )
    swapped = rules_from_toml(
        'players = 2\nhand_size = 1\ndeck = "1..10"\n[heads]\ndefault = 1\n'
        "cards = { 5 = 0, 6 = 8 }\n"
    )
    table = ((1, 1, 1, 1), (2, 2, 1, 1), (3, 3, 1, 1), (4, 4, 1, 1))
    a = Kernel(rules).key(table, ((5,), (6,)))
    b = Kernel(swapped).key(table, ((6,), (5,)))
    assert a != b


@pytest.mark.parametrize("bounds", [True, False])
def test_certificates_carry_the_rule_set(bounds: bool) -> None:
    pos = parse_position(POSITION, rules_from_toml(RULES))
    result, search = solve(pos, "diff", 0, core="python")
    cert = build_bound_certificate(search) if bounds else build_certificate(search)
    assert cert["rules"]["rows"] == 3 and cert["rules"]["heads"][13] == 9  # card 14
    report = check_certificate(json.loads(json.dumps(cert)))
    assert report.value == result.value
    # the same certificate under other heads does not prove its value
    wrong = json.loads(json.dumps(cert))
    wrong["rules"]["heads"] = [1] * 40
    with pytest.raises(CertificateError):
        check_certificate(wrong)


def test_solve_cli_with_a_rules_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.toml"
    path.write_text(RULES)
    pos = parse_position(POSITION, rules_from_toml(RULES))
    expected = solve(pos, "diff", 0, core="python")[0].value
    assert main(["solve", "--rules", str(path), POSITION, "--json", "--core", "python"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert expected is not None and Fraction(data["value"]) == expected
    cert = tmp_path / "c.json"
    assert main(["solve", "--rules", str(path), POSITION, "--certificate", str(cert)]) == 0
    capsys.readouterr()
    assert main(["check-certificate", str(cert)]) == 0
    capsys.readouterr()
    # the position text must fit the file: 4 rows are not this rule set's 3
    assert main(["solve", "--rules", str(path), "standard 5/9/20/30 2|3"]) == 2
    assert "3" in capsys.readouterr().err
    path.write_text(RULES.replace("players = 2", "players = 3"))
    assert main(["solve", "--rules", str(path), POSITION]) == 2
    assert "says players = 3" in capsys.readouterr().err


def test_rows_longer_than_the_compiled_core_holds_fall_back_to_python() -> None:
    from solver import native
    from solver.api import solve
    from solver.errors import SolverError
    from take6.io.rulesfile import rules_from_toml
    from take6.notation import parse_position

    rules = rules_from_toml(
        'base = "standard"\nplayers = 2\nhand_size = 2\nrows = 2\nrow_capacity = 300\n'
        'deck = "1..8"\n'
    )
    pos = parse_position("standard 1/5 2,3|6,7", rules)
    result, _ = solve(pos)
    assert result.solved and result.core == "python"
    if native.AVAILABLE:
        assert "rows of at most 250 cards, not 300" in result.core_note
        with pytest.raises(SolverError, match="rows of at most 250 cards"):
            solve(pos, core="native")
