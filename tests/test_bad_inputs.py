"""Regression tests for issue 13: every bad input is one line naming it (a ``Take6Error`` from
the API, exit status 2 from the command line), cut when long; documented options do what the
README says; output to a pipe is not wrapped."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from rich.table import Table

from take6.cli import common as cli_common
from take6.cli import main as cli
from take6.cli.main import main
from take6.display.terminal import PlainConsole
from take6.errors import Take6Error
from take6.io.record import RecordError, load_record
from take6.notation import load_position, parse_position, position_from_json
from take6.position import Position
from take6.rules import Comparison, EndCondition, Rules
from take6.text import excerpt, parse_int, plural

BOM = "\ufeff"
JSON_POSITION = {"variant": "standard", "rows": [[1], [2], [3], [4]], "hands": [[5], [6]]}


@pytest.fixture(autouse=True)
def _plain_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "_plugins", lambda only=None: [])
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("COLUMNS", raising=False)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if not ln.startswith("take6: warning:")]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def record_json() -> dict[str, Any]:
    from take6.play.bots import make_bot
    from take6.play.game import play_game, record_to_json

    rules = Rules.for_variant("standard", players=2, end=EndCondition(target=None, rounds=1))
    return record_to_json(play_game(rules, [make_bot("safe")] * 2, seed=1))


# -- the API: every bad input is a Take6Error --------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [None, 5, 1.5, [], ["standard"], object(), b"\xff\xfe", {1: 2, "x": 3}, {"variant": 1}],
)
def test_load_position_odd_inputs_are_take6_errors(value: Any) -> None:
    with pytest.raises(Take6Error) as info:
        load_position(value)
    assert "\n" not in str(info.value)


def test_load_position_bytes_and_bom() -> None:
    expected = parse_position("standard 1/2/3/4 5|6")
    assert load_position(b"standard 1/2/3/4 5|6") == expected
    assert load_position(BOM + json.dumps(JSON_POSITION)) == expected
    assert load_position((BOM + json.dumps(JSON_POSITION)).encode()) == expected
    assert load_position(BOM + "standard 1/2/3/4 5|6") == expected
    assert position_from_json(json.dumps(JSON_POSITION).encode()) == expected


@pytest.mark.parametrize(
    "data",
    [
        {1: 2, "x": 3},
        {"variant": "standard", "rows": 5, "hands": [[5], [6]]},
        {"variant": "standard", "rows": [[1], [2], [3], [4]], "hands": [[5], [6]], "totals": 7},
        {"variant": "standard", "rows": [[1], [2], [3], [4]], "hands": [[5], [10**5000]]},
        {"variant": "standard", "rows": [[1], [2], [3], [4]], "hands": [[5], [6]], "deck": True},
    ],
)
def test_position_from_json_odd_dicts(data: dict[Any, Any]) -> None:
    with pytest.raises(Take6Error) as info:
        position_from_json(data)
    assert "\n" not in str(info.value) and len(str(info.value)) < 600


@pytest.mark.parametrize(
    "args",
    [
        ("standard", None, [[1], [2]]),
        ("standard", [[1], [2], [3], [4]], 7),
        (5, [[1], [2], [3], [4]], [[5], [6]]),
        ("standard", [[1], [2], [3], [4]], [[5], [6]], None, "x"),
        ("standard", [[1], [2], [3], [4]], [[5], [6]], None, None, 10**100),
    ],
)
def test_position_create_odd_arguments(args: tuple[Any, ...]) -> None:
    with pytest.raises(Take6Error):
        Position.create(*args)


@pytest.mark.parametrize("kind", [["play"], {"play": 1}, 5, None])
def test_record_action_type_of_any_json_type(kind: object) -> None:
    data = record_json()
    data["actions"][1]["type"] = kind
    with pytest.raises(RecordError, match=r"actions\[1\] \(step 2\) has type"):
        load_record(data)
    with pytest.raises(RecordError):
        load_record(json.dumps(data))


def test_record_bytes_bom_and_numbers() -> None:
    text = json.dumps(record_json())
    assert load_record((BOM + text).encode()) == load_record(text) == load_record(BOM + text)
    with pytest.raises(RecordError, match="not UTF-8"):
        load_record(b"\xff" + text.encode())
    data = record_json()
    data["seed"] = 10**100
    with pytest.raises(RecordError, match="at most 40 digits"):
        load_record(data)


def test_replay_file_with_bom_and_list_type(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "game.json"
    f.write_bytes((BOM + json.dumps(record_json())).encode())
    code, out, _ = run(capsys, "replay", str(f))
    assert code == 0 and out.startswith("legal and consistent:")
    data = record_json()
    data["actions"][0]["type"] = ["deal"]
    f.write_text(json.dumps(data))
    code, out, err = run(capsys, "replay", str(f))
    assert code == 2 and out == "" and "has type ['deal']" in one_error_line(err)


# -- messages -----------------------------------------------------------------------------------


def test_long_inputs_are_cut(capsys: pytest.CaptureFixture[str]) -> None:
    rows = ",".join(["x"] * 50_000)
    code, _, err = run(capsys, "turn", "--rows", rows, "--plays", "1,2")
    line = one_error_line(err)
    assert code == 2 and len(line) < 300 and "(99999 characters)" in line
    code, _, err = run(capsys, "turn", "--rows", "1/2/3/4", "--plays", "5," + "7" * 100_000)
    assert code == 2 and len(one_error_line(err)) < 300
    with pytest.raises(Take6Error) as info:
        parse_position("standard " + "1," * 40_000 + "2/3/4/5 6|7")
    assert len(str(info.value)) < 600


def test_excerpt_and_plural() -> None:
    assert excerpt("abc") == "'abc'"
    assert len(excerpt("x" * 10**6)) < 120 and "(1000000 characters)" in excerpt("x" * 10**6)
    assert excerpt(10**10000).startswith("<integer of about 1000")
    nested: list[Any] = []
    inner = nested
    for _ in range(10_000):
        inner.append([])
        inner = inner[0]
    assert len(excerpt(nested)) < 200
    assert [plural(n, "head") for n in (0, 1, 2)] == ["0 heads", "1 head", "2 heads"]


def test_turn_wording(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "turn", "--rows", "12/37/43/58", "--plays", "5,15", "--choose", "2")
    assert code == 0
    assert "(37: 1 head)" in out and "took 37 = 1 head\n" in out and "1 heads" not in out
    assert "took - = 0 heads" in out


def test_replay_wording(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "game.json"
    f.write_text(json.dumps(record_json()))
    code, out, _ = run(capsys, "replay", str(f))
    assert code == 0 and ", 1 round, " in out and "1 rounds" not in out


# -- one integer syntax -------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["٣", "1_0", "３", "1e3", "0x10", "", "9" * 41, "²"])
def test_parse_int_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_int(text, "x")


@pytest.mark.parametrize("text", ["٣", "1_0"])
@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--players"],
        ["play", "--seed"],
        ["play", "--target"],
        ["play", "--rounds"],
        ["play", "--hand-size"],
        ["turn", "--rows", "12/37/43/58", "--plays"],
        ["turn", "--rows", "12/37/43/58", "--plays", "5,15", "--choose"],
        ["play", "--variant", "logik", "--first-picker"],
    ],
)
def test_integer_options_reject_unicode_digits_and_underscores(
    capsys: pytest.CaptureFixture[str], argv: list[str], text: str
) -> None:
    code, out, err = run(capsys, *argv, text)
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert repr(text) in line


def test_plugin_integer_options_share_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    parser = cli_common._Parser(prog="x")
    parser.add_argument("--n", type=int)
    assert parser.parse_args(["--n", "12"]).n == 12
    with pytest.raises(SystemExit):
        parser.parse_args(["--n", "١٢"])
    assert "invalid int value: '١٢'" in capsys.readouterr().err


# -- take6 play: documented options, bounded games ---------------------------------------------


def test_rounds_is_a_fixed_number_of_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--rounds", "20", "--json")
    rec = json.loads(out)
    assert code == 0 and len(rec["rounds"]) == 20 and max(rec["scores"]) > 66
    assert rec["rules"]["end"] == {"target": None, "comparison": ">=", "rounds": 20}


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--target", "1000000"], "can last 166667 rounds"),
        (["--target", "9" * 40, "--players", "10"], "take6 play plays at most 1000 rounds"),
        (["--rounds", "5000"], "--rounds 5000: take6 play plays at most 1000 rounds"),
        (["--rounds", "9" * 40], "--rounds 9999"),
    ],
)
def test_long_games_are_refused_up_front(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    started = time.perf_counter()
    code, _, err = run(capsys, "play", *argv)
    assert code == 2 and words in one_error_line(err)
    assert time.perf_counter() - started < 2


def test_max_rounds_is_the_termination_bound() -> None:
    bounds = [Rules.for_variant("standard", players=n).max_rounds for n in range(2, 11)]
    assert bounds == [33, 15, 11, 10, 9, 9, 9, 9, 8]
    above = Rules.for_variant(
        "standard", players=2, end=EndCondition(target=74, comparison=Comparison.ABOVE)
    )
    assert above.max_rounds == 38
    assert Rules.for_variant("kids", players=3).max_rounds == 1


def test_first_picker(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "--players", "2", "--first-picker", "2")
    assert code == 2 and "--first-picker is for Logik's draft; standard has no draft" in err
    code, _, err = run(
        capsys, "play", "--variant", "logik", "--players", "2", "--first-picker", "3"
    )
    assert code == 2 and "--first-picker must be a seat 1..2 or 'random', got '3'" in err
    code, _, err = run(
        capsys, "play", "--variant", "logik", "--players", "2", "--first-picker", "0"
    )
    assert code == 2 and "seat 1..2" in err
    code, out, _ = run(
        capsys, "play", "--variant", "logik", "--players", "2", "--first-picker", "2", "--json"
    )
    assert code == 0 and json.loads(out)["rules"]["first_picker"] == 1
    code, out, _ = run(capsys, "play", "--players", "2", "--json")  # no option: no error
    assert code == 0 and json.loads(out)["rules"]["first_picker"] == 0


@pytest.mark.parametrize("variant", ["taktik", "logik"])
def test_turn_uses_the_variant_deck(capsys: pytest.CaptureFixture[str], variant: str) -> None:
    code, _, err = run(capsys, "turn", "--variant", variant, "--rows", "1/2/3/4", "--plays", "5,25")
    assert code == 2 and "card 25 in hand 2 is outside the deck 1..24" in one_error_line(err)
    code, _, _ = run(capsys, "turn", "--variant", variant, "--rows", "1/2/3/4", "--plays", "5,24")
    assert code == 0
    code, _, _ = run(capsys, "turn", "--rows", "1/2/3/4", "--plays", "5,104")
    assert code == 0


# -- output to a pipe is not wrapped ------------------------------------------------------------


def test_log_lines_are_not_wrapped_on_a_pipe(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--players", "6", "--seed", "2")
    assert code == 0
    lines = out.splitlines()
    assert any(len(line) > 80 for line in lines)
    for line in lines:  # a split line would start with a card or a heads count
        assert line[:1] in "─━┃│┏┡└PRWt " or line.startswith(("row", "turn", "round", "player")), (
            line
        )
        assert line.count("(") == line.count(")"), line


def test_wide_tables_keep_their_width_on_a_pipe(capsys: pytest.CaptureFixture[str]) -> None:
    console = PlainConsole()
    assert not console.is_terminal
    table = Table("a", "b")
    table.add_row("x" * 70, "y" * 70)
    console.print(table)
    console.print("word " * 40)
    out = capsys.readouterr().out
    assert "x" * 70 in out and "y" * 70 in out and "…" not in out
    assert ("word " * 40).rstrip() in out


# -- the error root -----------------------------------------------------------------------------


def test_every_error_type_derives_from_take6_error() -> None:
    from proofs.cli import VerifyUsageError
    from solver.draft.solve import DraftError
    from solver.errors import SolverError
    from solver.study.spec import StudyError
    from solver.verify.check import CertificateError
    from take6.io.record import RecordError

    for error in (
        SolverError,
        CertificateError,
        DraftError,
        StudyError,
        RecordError,
        VerifyUsageError,
        cli_common.CliError,
    ):
        assert issubclass(error, Take6Error), error


def test_default_objective_is_one_rule() -> None:
    from solver.problem import Objective, default_objective
    from solver.study.spec import DealStudy

    assert default_objective(2) is Objective.DIFF
    assert all(default_objective(n) is Objective.PARANOID for n in range(3, 11))
    assert DealStudy(hand_sizes=(1,), deals=1, players=3).objective is Objective.PARANOID
