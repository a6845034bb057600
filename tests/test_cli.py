"""CLI tests: golden outputs, error messages and exit codes of ``take6 turn`` and ``take6 play``.

Golden files live in tests/golden/; regenerate them with TAKE6_UPDATE_GOLDEN=1 after a deliberate
change, and review the diff.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from take6.cli import main as cli
from take6.cli.main import main

GOLDEN = Path(__file__).parent / "golden"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("TAKE6_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"missing golden file {path}; run with TAKE6_UPDATE_GOLDEN=1"
    assert text == path.read_text()


@pytest.fixture(autouse=True)
def _fixed_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    # The core commands' output must not depend on which plugin packages are installed.
    monkeypatch.setattr(cli, "_plugins", lambda only=None: [])
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)


GOLDEN_CASES = {
    "turn_basic.txt": ["turn", "--rows", "12/37/43/58", "--plays", "14,15,44,61"],
    "turn_basic.json": ["turn", "--rows", "12/37/43/58", "--plays", "14,15,44,61", "--json"],
    "turn_too_low.txt": ["turn", "--rows", "12/37/43/58", "--plays", "5,15,44,61", "--choose", "2"],
    "turn_full_row.json": [
        "turn",
        "--rows",
        "1,2,3,4,5/37/43/58",
        "--plays",
        "6,59",
        "--json",
    ],
    "turn_seed002.json": ["turn", "--rows", "3/20/58/96", "--plays", "4,17,90,93", "--json"],
    "turn_profi_tie.txt": [
        "turn",
        "--variant",
        "profi",
        "--rows",
        "18/22,30/50/60",
        "--plays",
        "20,70",
        "--choose",
        "2",
    ],
    "play_summary.txt": ["play", "--players", "4", "--seed", "1", "--summary"],
    "play_logik.txt": [
        "play",
        "--variant",
        "logik",
        "--players",
        "2",
        "--seed",
        "3",
        "--bots",
        "safe,random",
    ],
    "play_kids.txt": ["play", "--variant", "kids", "--players", "3", "--seed", "2"],
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_output(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out, err = run(capsys, *GOLDEN_CASES[name])
    assert code == 0, err
    assert err == ""
    check_golden(name, out)


def test_turn_json_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "turn",
        "--rows",
        "12/37/43/58",
        "--plays",
        "5,15,44,61",
        "--choose",
        "2",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["rows"] == [[12, 15], [5], [43, 44], [58, 61]]
    assert data["taken"] == [[37], [], [], []]
    assert data["heads"] == [1, 0, 0, 0]


def test_turn_full_row_take(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "turn", "--rows", "1,2,3,4,5/37/43/58", "--plays", "6,59", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["rows"][0] == [6]
    assert data["taken"] == [[1, 2, 3, 4, 5], []]
    assert data["heads"] == [6, 0]


def test_profi_left(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "turn", "--variant", "profi", "--rows", "11/37/43/58", "--plays", "10,90", "--json"
    )
    assert code == 0
    assert json.loads(out)["rows"][0] == [10, 11]


ERRORS = [
    (
        ["turn", "--rows", "12/37/43/58", "--plays", "5,15,44,61"],
        "card 5 (player 1) is too low for every row: give the row it takes with --choose "
        "(one of rows 1, 2, 3, 4)",
    ),
    (["turn", "--rows", "12/37/43", "--plays", "5,15"], "3 rows, but standard has 4"),
    (["turn", "--rows", "12/37/43/58", "--plays", "12,15"], "card 12 appears twice"),
    (["turn", "--rows", "12/37/43/58", "--plays", "14,x"], "'x' is not a card number"),
    (["turn", "--rows", "12/37/43/58", "--plays", "14,105"], "outside the deck 1..104"),
    (["turn", "--rows", "12,11/37/43/58", "--plays", "14,15"], "not strictly ascending"),
    (["turn", "--rows", "1,2,3,4,5,6/37/43/58", "--plays", "14,15"], "has 6 cards"),
    (
        ["turn", "--rows", "12/37/43/58", "--plays", "14,15", "--choose", "1"],
        "--choose gave 1 row choice(s) but this turn needed 0",
    ),
    (
        ["turn", "--rows", "12/37/43/58", "--plays", "5,15", "--choose", "7"],
        "--choose 7 is not allowed for card 5",
    ),
    (["turn", "--rows", "12/37/43/58", "--plays", "1,2,3,4,5,6,7,8,9,10,11"], "needs 2..10 hands"),
    (["turn", "--rows", "12/37/43/58", "--plays", "37"], "card 37 appears twice"),
    (["turn", "--rows", "12/37/43/58", "--plays", "5"], "card 5 (player 1) is too low"),
    (
        ["turn", "--variant", "kids", "--rows", "12/37/43/58", "--plays", "14,15"],
        "4 rows, but kids has 5",
    ),
    (
        ["turn", "--variant", "chess", "--rows", "12/37/43/58", "--plays", "14,15"],
        "invalid choice: 'chess'",
    ),
    (["play", "--variant", "kids", "--players", "7"], "need 110 cards, but the deck has 104"),
    (["play", "--players", "11"], "players must be 2..10"),
    (["play", "--bots", "foo"], "unknown bot 'foo'"),
    (["play", "--bots", "safe,random"], "--bots names 2 bots for 4 players"),
    (["play", "--target", "0"], "target total must be at least 1"),
    (["play", "--seed", "x"], "invalid int value: 'x'"),
    (["nonsense"], "invalid choice: 'nonsense'"),
]


@pytest.mark.parametrize(("argv", "message"), ERRORS)
def test_errors_are_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = [ln for ln in err.splitlines() if not ln.startswith("take6: warning:")]
    assert len(lines) == 1, err
    assert message in lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize("cmd", [[], ["turn"], ["play"]])
def test_help(capsys: pytest.CaptureFixture[str], cmd: list[str]) -> None:
    code, out, _ = run(capsys, *cmd, "--help")
    assert code == 0
    assert "usage: take6" in out


def test_play_json_record(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--players", "3", "--seed", "5", "--json")
    assert code == 0
    rec = json.loads(out)
    assert rec["finished"] is True
    assert max(rec["scores"]) >= 66
    assert rec["scores"] == [sum(r[p] for r in rec["rounds"]) for p in range(3)]
    assert rec["actions"][0]["type"] == "deal"
    assert sorted(rec["actions"][0]["order"]) == list(range(1, 105))
    # Same seed, same game.
    code2, out2, _ = run(capsys, "play", "--players", "3", "--seed", "5", "--json")
    assert out2 == out and code2 == 0


def test_play_end_conditions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--rounds", "2", "--target", "500", "--json")
    assert code == 0 and len(json.loads(out)["rounds"]) == 2
    code, out, _ = run(capsys, "play", "--target", "20", "--above", "--json")
    rec = json.loads(out)
    assert code == 0 and max(rec["scores"]) > 20
    # Strictly above 20 ends the game: before the last round no total was above it.
    before_last = [sum(r[p] for r in rec["rounds"][:-1]) for p in range(4)]
    assert max(before_last) <= 20


def test_console_script_runs() -> None:
    """The installed ``take6`` command (the console script next to this interpreter) is wired
    to main."""
    command = Path(sys.executable).parent / "take6"
    assert command.is_file(), f"no installed take6 command at {command}"
    proc = subprocess.run(
        [
            str(command),
            "turn",
            "--rows",
            "12/37/43/58",
            "--plays",
            "5,15",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1].startswith("take6: error: card 5 (player 1)")


def test_builtin_commands_load_no_plugin() -> None:
    """``take6 turn``/``play``/``replay`` start without z3, the proofs or the solver."""
    code = (
        "import sys; from take6.cli.main import main; "
        "main(['turn', '--rows', '12/37/43/58', '--plays', '14,15,44,61']); "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('solver', 'proofs', 'z3')); "
        "assert not bad, bad"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_plugins_register_without_their_implementation() -> None:
    """``take6 --help`` lists every command but loads neither z3 nor a search."""
    code = (
        "import sys; from take6.cli.main import build_parser; p = build_parser(['--help']); "
        "names = set(p._subparsers._group_actions[0].choices); "
        "assert {'verify', 'solve', 'check-certificate', 'draft', 'study'} <= names, names; "
        "heavy = ('z3', 'proofs.registry', 'solver.api', 'solver.search', 'solver.native', "
        "'solver.study.run', 'solver.draft.solve', 'solver.verify.check'); "
        "bad = sorted(m for m in sys.modules if m.startswith(heavy)); assert not bad, bad"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_turn_with_a_single_card(capsys: pytest.CaptureFixture[str]) -> None:
    """One card needs no opponent (issue 11): forced, and too low with the owner's row."""
    assert main(["turn", "--rows", "12/37/43/58", "--plays", "74", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rows"] == [[12], [37], [43], [58, 74]]
    assert data["taken"] == [[]] and data["heads"] == [0]
    assert main(["turn", "--rows", "12/37/43/58,60,61,62,63", "--plays", "64", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rows"][3] == [64] and data["heads"] == [7]
    assert main(["turn", "--rows", "12/37/43/58", "--plays", "5", "--choose", "3"]) == 0
    out = capsys.readouterr().out
    assert "player 1: 5 takes row 3 (43: 1 head)" in out
    assert main(["turn", "--variant", "profi", "--rows", "12/37/43/58", "--plays", "41"]) == 0
    assert "41 goes to the start of row 3" in capsys.readouterr().out


def test_version_and_python_m(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib import metadata

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"take6 {metadata.version('take6')}\n"
    proc = subprocess.run(
        [sys.executable, "-m", "take6", "turn", "--rows", "12/37/43/58", "--plays", "74"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("player 1: 74 goes to the end of row 4")
