"""``take6 solve`` and ``take6 check-certificate`` through the dispatcher."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from solver.search import SearchLike
from take6.cli.main import main

MIXED = "standard 1,13,15,25,30/21/32/3,5,8,20,39 2,12|10,27"


def test_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", MIXED, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solved"] is True
    assert data["value"] == "-2/3"
    assert abs(data["value_float"] + 2 / 3) < 1e-12
    assert data["strategies"] == {"0": {"2": "2/3", "12": "1/3"}, "1": {"10": "2/3", "27": "1/3"}}
    assert data["nodes"] >= 1 and "seconds" in data and data["line"]


def test_solve_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", MIXED]) == 0
    out = capsys.readouterr().out
    assert "value -2/3" in out and "principal line" in out


def test_solve_json_file_and_paranoid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "pos.json"
    f.write_text(
        json.dumps(
            {
                "variant": "standard",
                "rows": [[10], [20], [30, 31, 32, 33, 34], [40]],
                "hands": [[5], [45], [35]],
            }
        )
    )
    assert main(["solve", str(f), "--objective", "paranoid", "--player", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["value"] == "11" and data["coalition"] == [0, 1]


def test_certificate_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert = tmp_path / "cert.json"
    assert main(["solve", MIXED, "--certificate", str(cert)]) == 0
    capsys.readouterr()
    assert main(["check-certificate", str(cert), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and data["value"] == "-2/3" and data["nodes"] >= 1


def test_tampered_certificate_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert = tmp_path / "cert.json"
    assert main(["solve", MIXED, "--certificate", str(cert)]) == 0
    data = json.loads(cert.read_text())
    assert data["version"] == 3  # bound certificates by default, small positions left out
    data["value"] = "-1"
    root_key = next(k for k in data["nodes"] if k.endswith("2,12|10,27"))
    data["nodes"][root_key]["lower"] = "-1"  # true: the value -2/3 is at least -1
    data["nodes"][root_key]["upper"] = "-1"  # false: the min strategy concedes -2/3
    cert.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["check-certificate", str(cert)]) == 1
    assert "concedes" in capsys.readouterr().err
    data["nodes"][root_key]["lower"] = data["nodes"][root_key]["upper"] = "-2/3"
    data["nodes"][root_key]["max"] = [[[2], "1"]]
    data["value"] = "-2/3"
    cert.write_text(json.dumps(data))
    assert main(["check-certificate", str(cert)]) == 1
    assert "guarantees only" in capsys.readouterr().err  # pure 2 is not optimal


@pytest.mark.parametrize(
    ("position", "words"),
    [
        ("logik 3/17,20/58/96 4,90|2", "unequal"),
        ("logik 3/17,20/58/96 4,90|4,93", "twice"),
        ("logik 3/17,20/58/96 -|-", "empty"),
        ("kids 1/2/3/4/5 6|7", "kids"),
    ],
)
def test_invalid_positions_are_one_line_errors(
    position: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", position]) == 2
    # (other plugins may warn on stderr when they are not installed; the error is one line)
    lines = capsys.readouterr().err.strip().splitlines()
    errors = [x for x in lines if not x.startswith("take6: warning:")]
    assert len(errors) == 1 and errors[0].startswith("take6: error:")
    err = errors[0]
    assert words in err


def test_diff_needs_two_players_and_three_default_to_paranoid(
    capsys: pytest.CaptureFixture[str],
) -> None:
    three = "logik 3/17,20/58/96 4|5|6"
    assert main(["solve", three, "--objective", "diff"]) == 2
    assert "exactly 2 players" in capsys.readouterr().err
    assert main(["solve", three, "--json"]) == 0  # paranoid, as draft and study default to
    data = json.loads(capsys.readouterr().out)
    assert data["objective"] == "paranoid" and data["solved"]


def test_limits_report_not_solved(capsys: pytest.CaptureFixture[str]) -> None:
    text = "logik:14 1/13/7/14 2,6,10,11,12|3,4,5,8,9"
    assert main(["solve", text, "--node-limit", "20", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solved"] is False and data["value"] is None
    assert Fraction(data["lower"]) <= Fraction(4, 261) <= Fraction(data["upper"])
    assert main(["solve", text, "--time-limit", "0.001", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert Fraction(data["lower"]) <= Fraction(4, 261) <= Fraction(data["upper"])


def test_missing_position_file_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["solve", "no-such-position.json"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip() == "take6: error: no such position file: 'no-such-position.json'"


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "٣", "1_0", "1e999999", "x"])
def test_bad_time_limits_are_one_line_errors(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", MIXED, "--time-limit", value]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and ("time-limit" in err[0] or "number" in err[0])


@pytest.mark.parametrize("flag", ["--certificate", "--graphml"])
def test_empty_output_file_names_are_errors(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", MIXED, flag, ""]) == 2
    assert "needs a file name" in capsys.readouterr().err


def test_progress_lines_go_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    # --progress into a pipe prints a line every 10 s; this search is shorter, so none, and
    # stdout stays the JSON result alone.
    assert main(["solve", MIXED, "--progress", "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["value"] == "-2/3"
    assert "Traceback" not in out.err


def test_progress_line_reports_nodes_fill_bounds_and_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from fractions import Fraction

    from solver.cli.solve import ProgressLine

    line = ProgressLine()  # stderr is not a terminal here: one line every 10 s
    line(1_500_000, 25, 100, 3.0, Fraction(-38), Fraction(38))  # too early: nothing
    line(12_000_000, 50, 100, 12.5, Fraction(-3, 2), Fraction(7))
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "nodes 12.0M" in err and "960.0k/s" in err and "50% of 100" in err
    assert "[-1.5000, 7]" in err and "0:00:12" in err


@pytest.mark.parametrize("core", ["python", "native"])
def test_sigterm_ends_the_search_with_its_bounds(core: str) -> None:
    """``kill`` (SIGTERM) stops a long solve as Ctrl-C does: proven bounds on stdout, exit 143.
    (A background job ignores SIGINT; SIGTERM is what a batch system sends.)"""
    import signal
    import subprocess
    import sys
    import time

    from solver.native import AVAILABLE

    if core == "native":
        assert AVAILABLE, "the compiled core is built in every test environment"
    # 2 x 9 and 2 x 10 Logik deals: neither core finishes them in a few seconds.
    deal = (
        "logik:22 9/2/14/13 1,3,4,7,11,12,19,20,21|5,6,8,10,15,16,17,18,22"
        if core == "python"
        else "logik:24 9/3/19/5 6,7,10,11,12,14,18,21,22,24|1,2,4,8,13,15,16,17,20,23"
    )
    command = Path(sys.executable).parent / "take6"
    args = [str(command), "solve", deal, "--core", core, "--json", "--memory", "256M"]
    if core == "python":
        args = args[:-2]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, err
    data = json.loads(out)
    assert data["interrupted"] is True and data["solved"] is False
    lower, upper = Fraction(data["lower"]), Fraction(data["upper"])
    assert lower <= upper


def test_graph_all_and_max_nodes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import networkx as nx

    pos = "logik:10 1/2/3/4 5,8,9|6,7,10"
    supports, every = tmp_path / "s.graphml", tmp_path / "a.graphml"
    assert main(["solve", pos, "--graphml", str(supports)]) == 0
    assert main(["solve", pos, "--graphml", str(every), "--graph-all"]) == 0
    capsys.readouterr()
    small, big = nx.read_graphml(supports), nx.read_graphml(every)
    assert set(small.nodes) < set(big.nodes)
    assert big.graph["support_only"] is False and small.graph["support_only"] is True
    # Too large a graph: the value is printed all the same, and the exit status says no graph.
    assert (
        main(["solve", pos, "--graphml", str(every), "--graph-all", "--graph-max-nodes", "5"]) == 2
    )
    out, err = capsys.readouterr()
    assert "value 0" in out and "no graph" in err and "more than 5 nodes" in err
    assert main(["solve", pos, "--graph-all"]) == 2
    assert "go with --graphml" in capsys.readouterr().err


def _solved_k6() -> tuple[SearchLike, str]:
    import subprocess
    import sys

    from solver.api import solve
    from take6.notation import parse_position

    root = Path(__file__).resolve().parents[2]
    text = subprocess.check_output(
        [sys.executable, str(root / "bench" / "solve.py"), "--deal", "6", "0"], text=True
    ).strip()
    _, search = solve(parse_position(text), line=False)
    return search, text


def test_a_certificate_stopped_by_the_time_limit_is_not_written(tmp_path: Path) -> None:
    import time

    from solver.cli.solve import _write_certificate

    search, _ = _solved_k6()
    path = tmp_path / "c.json"
    why = _write_certificate(search, str(path), time.monotonic() - 1, False, time.monotonic())
    assert isinstance(why, str) and "the time limit ran out while it was built" in why
    assert not path.exists()
    nodes = _write_certificate(search, str(path), None, False, time.monotonic())
    assert isinstance(nodes, int) and nodes > 1000 and path.exists()


def test_ctrl_c_while_the_certificate_is_built_keeps_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from solver.verify import certificate

    _, text = _solved_k6()

    def interrupted(*args: object, **kwargs: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(certificate, "write_certificate", interrupted)
    path = tmp_path / "c.json"
    assert main(["solve", text, "--certificate", str(path), "--json"]) == 130
    out, err = capsys.readouterr()
    assert json.loads(out)["solved"] is True  # the value is printed all the same
    assert "no certificate: interrupted while it was built" in err and not path.exists()
