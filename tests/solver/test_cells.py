"""A solve by cells (:mod:`solver.cells`): the double oracle over the first turn's cells against
the ordinary solve (equal values; strategies optimal in the whole root game), its file (resumed
from, whole after kill -9, refused when it belongs elsewhere or contradicts itself) and
``take6 solve --cells``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from solver_helpers import any_position

from solver import native
from solver.api import solve
from solver.cells import (
    CellFile,
    CellsSolve,
    leaves,
    leaves_of,
    node_key,
    read_cells,
    roles_text,
    solve_by_cells,
)
from solver.errors import SolverError
from solver.matrix import solve_game
from solver.problem import make_problem
from solver.study.run import benchmark_deal
from take6.cli.main import main
from take6.notation import format_position, parse_position
from take6.position import Position

CORES = ["python", "native"] if native.AVAILABLE else ["python"]
MEMORY = 1 << 22


def deal(k: int, seed: int) -> Position:
    return benchmark_deal(k, seed)


def check_optimal(run: CellsSolve) -> None:
    """The strategies the run found are optimal in the whole root game: every cell made exact,
    no row does better than the value against the columns' strategy, no column worse against
    the rows'."""
    assert run.solution is not None
    v, x, y = run.solution
    keys = {leaf.key for row in run.trees for tree in row for leaf in leaves(tree)}
    run.file = CellFile(run.file.path, run.problem, keys)  # (the run closed it)
    try:
        m = [[run.exact(i, j) for j in range(len(run.cols))] for i in range(len(run.rows))]
    finally:
        run.file.close()
    assert sum(x.values()) == 1 and sum(y.values()) == 1
    assert all(p > 0 for p in (*x.values(), *y.values()))
    for i in range(len(run.rows)):
        assert sum(q * m[i][j] for j, q in y.items()) <= v
    for j in range(len(run.cols)):
        assert sum(p * m[i][j] for i, p in x.items()) >= v


@st.composite
def cases(draw: st.DrawFn) -> tuple[Position, str, int, str]:
    pos = draw(any_position())
    players = pos.rules.players
    objective = "diff" if players == 2 and draw(st.booleans()) else "paranoid"
    return pos, objective, draw(st.integers(0, players - 1)), draw(st.sampled_from(CORES))


@settings(max_examples=60, deadline=None)
@given(cases())
@example(  # two optimal pure columns: the read-back may pick the other one
    (parse_position("logik 1,41/8/2,3,4,5,13/6,40 9,12,15,42|7,10,14,43"), "diff", 0, "python")
)
def test_equals_the_ordinary_solve(case: tuple[Position, str, int, str]) -> None:
    pos, objective, player, core = case
    if all(not h for h in pos.hands):
        return
    ref, _ = solve(pos, objective, player, line=False, core="python")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.jsonl"
        got, run = solve_by_cells(pos, path, objective, player, core=core, memory=MEMORY)
        assert got.solved and got.value == ref.value == got.lower == got.upper, str(pos)
        check_optimal(run)
        # Read back, the file alone settles the root: no search, the same value, optimal
        # strategies (where several are optimal, the bounds the proofs left in the file may
        # lead the read-back to another one).
        again, rerun = solve_by_cells(pos, path, objective, player, core=core, memory=MEMORY)
        assert again.value == got.value
        assert rerun.stats.searches == 0 and rerun.file.written == 0
        check_optimal(rerun)


@st.composite
def interval_games(draw: st.DrawFn) -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    """A matrix of cells known within bounds ``lo <= hi``, and one matrix within them."""
    m, n = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    cells = [[draw(st.integers(-6, 6)) for _ in range(n)] for _ in range(m)]
    lo = [[c - draw(st.sampled_from([0, 0, 1, 3])) for c in row] for row in cells]
    hi = [[c + draw(st.sampled_from([0, 0, 1, 3])) for c in row] for row in cells]
    return lo, hi, cells


@settings(max_examples=300, deadline=None)
@given(interval_games())
@example(([[0, 0]], [[3, 0]], [[3, 0]]))  # ties: which column the bound games pick matters
@example(([[0, 0]], [[0, 3]], [[0, 3]]))
@example(([[0], [0]], [[0], [-3]], [[0], [-3]]))  # and which row
@example(([[0], [-3]], [[0], [0]], [[0], [-3]]))
@example(([[-3], [0]], [[0], [0]], [[-3], [0]]))
def test_bound_games_of_one_value_fix_the_value_whatever_the_cells(
    case: tuple[list[list[int]], list[list[int]], list[list[int]]],
) -> None:
    """:meth:`CellsSolve.guaranteed`: when the game at the lower bounds and the game at the
    upper bounds have one value, its strategies guarantee that value in every game within
    the bounds; otherwise it gives nothing."""
    lo, hi, a = case
    R, S = list(range(len(a))), list(range(len(a[0])))
    lower, upper = solve_game(lo), solve_game(hi)
    got = CellsSolve.guaranteed(R, S, lower, upper)
    if lower.value != upper.value:
        assert got is None
        return
    assert got is not None
    v, x, y = got
    assert sum(x.values()) == 1 and sum(y.values()) == 1
    for j in S:  # the rows' strategy against each column, its cells at their worst and as drawn
        assert sum(p * lo[i][j] for i, p in x.items()) >= v
        assert sum(p * a[i][j] for i, p in x.items()) >= v
    for i in R:
        assert sum(q * hi[i][j] for j, q in y.items()) <= v
        assert sum(q * a[i][j] for j, q in y.items()) <= v
    assert solve_game(a).value == v


def test_the_restricted_game_keeps_cells_it_does_not_need_as_bounds(tmp_path: Path) -> None:
    """Deal 6-1: the final restricted game is 3 x 3, and its value is proven with a cell that
    its supports never meet left unsearched to the end (the bounds were enough); the value
    and strategies are still those of the whole game."""
    _, run = solve_by_cells(deal(6, 1), tmp_path / "d.jsonl", core=CORES[-1], memory=MEMORY)
    R, S = run.restricted
    assert (len(R), len(S)) == (3, 3)
    assert any(run.cell(i, j)[0] != run.cell(i, j)[1] for i in R for j in S)
    check_optimal(run)


@pytest.mark.parametrize(("k", "seed"), [(6, 1), (7, 2)])
def test_time_by_role_parts_every_cell_and_every_second(tmp_path: Path, k: int, seed: int) -> None:
    """Each cell has one role; the support's cells are those of both strategies' supports (all
    exact), the restricted game's the rest of ``R`` x ``S``, the deviations' the rows and
    columns outside it met against the other side's cells, the untouched never searched; the
    seconds add up to the file's and read back the same from the file (kept to the ms)."""
    path = tmp_path / "d.jsonl"
    _, run = solve_by_cells(deal(k, seed), path, core=CORES[-1], memory=MEMORY)
    assert run.solution is not None
    _, x, y = run.solution
    R, S = run.restricted
    roles = run.time_by_role()
    assert list(roles) == ["support", "restricted", "deviations", "untouched"]
    assert sum(r.cells for r in roles.values()) == len(run.rows) * len(run.cols)
    assert roles["support"].cells == roles["support"].exact == len(x) * len(y)
    assert roles["restricted"].cells == len(R) * len(S) - len(x) * len(y)
    assert roles["deviations"].cells == len(R) * len(run.cols) + len(S) * len(run.rows) - 2 * len(
        R
    ) * len(S)
    assert roles["untouched"].seconds == 0 and roles["untouched"].exact == 0
    assert roles["restricted"].seconds > 0 and roles["deviations"].seconds > 0
    total = sum(r.seconds for r in roles.values())
    assert total == pytest.approx(run.file.seconds)
    problem = run.problem
    keys = {leaf.key for leaf in leaves_of(run.trees)}
    run.file = CellFile(path, problem, keys, readonly=True)
    again = run.time_by_role()
    for name, r in roles.items():
        assert (again[name].cells, again[name].exact) == (r.cells, r.exact)
        assert again[name].seconds == pytest.approx(r.seconds, abs=1e-3 * r.cells + 1e-9)
    text = roles_text(again)
    assert text.startswith(f"support {len(x) * len(y)} cells") and "untouched" in text


@pytest.mark.parametrize(("k", "seed"), [(5, 1), (6, 0), (6, 1)])
def test_deals_equal_the_ordinary_solve(tmp_path: Path, k: int, seed: int) -> None:
    pos = deal(k, seed)
    ref, _ = solve(pos, line=False, core=CORES[-1], memory=MEMORY)
    got, run = solve_by_cells(pos, tmp_path / "d.jsonl", core=CORES[-1], memory=MEMORY)
    assert got.value == ref.value and got.core == ref.core
    assert got.strategies[0] and got.strategies[1] and got.nodes > 0
    check_optimal(run)


def test_stopped_run_proves_bounds_and_the_next_goes_on(tmp_path: Path) -> None:
    pos = deal(6, 1)
    ref, _ = solve(pos, line=False, core=CORES[-1], memory=MEMORY)
    assert ref.value is not None
    path = tmp_path / "s.jsonl"
    fresh, fresh_run = solve_by_cells(pos, tmp_path / "fresh.jsonl", core=CORES[-1])
    searches = 0
    runs = 0
    while runs < 60:  # each run stopped after a fraction of a whole run's nodes
        runs += 1
        got, run = solve_by_cells(pos, path, core=CORES[-1], memory=MEMORY, node_limit=30_000)
        searches += run.stats.searches
        assert got.lower <= ref.value <= got.upper
        if got.solved:
            break
        assert got.value is None and not got.interrupted and not got.strategies
    assert got.solved and got.value == ref.value and runs > 1
    # nothing proven was searched again: the stopped runs together searched about as often as
    # one run through (a stopped search is searched again, once, in the next run)
    assert searches <= 2 * fresh_run.stats.searches
    assert fresh.value == ref.value


def test_kill_9_loses_at_most_the_search_under_way(tmp_path: Path) -> None:
    pos = deal(6, 2)  # the Python search: seconds, so the kill lands mid-run
    path = tmp_path / "k.jsonl"
    text = format_position(pos)
    cmd = [sys.executable, "-m", "take6", "solve", text, "--core", "python", "--cells", str(path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline:
            if path.exists() and path.read_text().count("\n") >= 4:
                break
            time.sleep(0.02)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    lines = path.read_text().splitlines()
    assert len(lines) >= 4
    with path.open("a") as f:  # as if killed while writing a line
        f.write('{"leaf": "1,2')
    ref, _ = solve(pos, line=False, core="python")
    got, run = solve_by_cells(pos, path, core="python")
    assert got.value == ref.value
    assert run.file.read_lines == len(lines) - 1
    assert all(json.loads(line) for line in path.read_text().splitlines())  # made whole


@pytest.mark.skipif(not native.AVAILABLE, reason="needs both cores: the compiled one not built")
def test_python_and_native_files_are_one_format(tmp_path: Path) -> None:
    pos = deal(5, 2)
    path = tmp_path / "both.jsonl"
    a, _ = solve_by_cells(pos, path, core="native", memory=MEMORY)
    b, run = solve_by_cells(pos, path, core="python")
    assert a.value == b.value and run.stats.searches == 0


def cells_file(tmp_path: Path, pos: Position) -> Path:
    path = tmp_path / "f.jsonl"
    solve_by_cells(pos, path, core=CORES[-1], memory=MEMORY)
    return path


def test_refuses_another_position_objective_or_rules(tmp_path: Path) -> None:
    pos = deal(4, 0)
    path = cells_file(tmp_path, pos)
    with pytest.raises(SolverError, match="cells of another position"):
        solve_by_cells(deal(4, 1), path)
    with pytest.raises(SolverError, match="cells of another objective"):
        solve_by_cells(pos, path, "paranoid")
    with pytest.raises(SolverError, match=r"cells of player 1's view, not player 2's$"):
        solve_by_cells(pos, path, "diff", 1)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"leaf": "nowhere|1|2", "lo": "0", "hi": "1"}', "is not a position after the first"),
        ('{"leaf": "{leaf}", "lo": "5", "hi": "3"}', "contradict each other"),
        ('{"leaf": "{leaf}", "lo": "1/0", "hi": "3"}', "is not a proof"),
        ('{"leaf": "{leaf}", "lo": "x", "hi": "3"}', "is not a proof"),
        ("[1, 2]", "is not a proof"),
        ('{"add": "row", "action": [99]}', r"row \[99\] is not an action of this position"),
        ('{"add": "diagonal", "action": [1]}', "is not a proof"),
    ],
)
def test_refuses_bad_lines(tmp_path: Path, line: str, message: str) -> None:
    pos = deal(4, 0)
    path = cells_file(tmp_path, pos)
    leaf = json.loads(path.read_text().splitlines()[1])["leaf"]
    with path.open("a") as f:
        f.write(line.replace("{leaf}", leaf) + "\n")
    with pytest.raises(SolverError, match=message) as got:
        solve_by_cells(pos, path)
    assert str(path) in str(got.value) and "\n" not in str(got.value)


def test_contradiction_with_an_earlier_line_is_refused(tmp_path: Path) -> None:
    pos = deal(4, 0)
    path = cells_file(tmp_path, pos)
    first = json.loads(path.read_text().splitlines()[1])
    lo, hi = Fraction(first["lo"]), Fraction(first["hi"])
    with path.open("a") as f:
        f.write(json.dumps({"leaf": first["leaf"], "lo": str(hi + 1), "hi": str(hi + 2)}) + "\n")
    with pytest.raises(SolverError, match=r"line \d+: the bounds of .* contradict"):
        solve_by_cells(pos, path)
    assert lo <= hi


def test_not_a_cells_file_and_other_versions(tmp_path: Path) -> None:
    pos = deal(3, 0)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n")
    with pytest.raises(SolverError, match="not a take6 cells file"):
        solve_by_cells(pos, bad)
    path = cells_file(tmp_path, pos)
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    head["version"] = 99
    path.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    with pytest.raises(SolverError, match="version 99, this take6 reads 1"):
        solve_by_cells(pos, path)


def test_one_run_at_a_time(tmp_path: Path) -> None:
    pos = deal(3, 0)
    path = tmp_path / "lock.jsonl"
    problem = make_problem(pos)
    held = CellFile(path, problem, set())
    try:
        with pytest.raises(SolverError, match="in use by another run"):
            solve_by_cells(pos, path)
    finally:
        held.close()
    got, _ = solve_by_cells(pos, path)
    assert got.solved


def test_big_fractions_round_trip(tmp_path: Path) -> None:
    # Values of real deals have denominators of thousands of digits (beyond int()'s default
    # 4300-digit limit): the file writes and reads them whole.
    pos = deal(3, 0)
    problem = make_problem(pos)
    path = tmp_path / "big.jsonl"
    key = "1/2/3/4|5|6"
    big = Fraction(10**5000 + 1, 3**9000)
    f = CellFile(path, problem, {key})
    f.record(key, -big, big, 1, 0.0)
    f.close()
    g = CellFile(path, problem, {key})
    assert g.bounds[key] == (-big, big)
    g.close()


def test_node_key_names_rows_and_hands() -> None:
    from solver.walk import Node

    node = Node.of(deal(3, 0))
    key = node_key(node)
    rows, *hands = key.split("|")
    assert len(rows.split("/")) == 4 and len(hands) == 2
    assert [list(map(int, h.split(","))) for h in hands] == [list(h) for h in node.hands]


# -- the command line ---------------------------------------------------------------------------
def take6(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "take6", *args], capture_output=True, text=True)


def test_cli_solves_and_resumes(tmp_path: Path) -> None:
    pos = format_position(deal(6, 0))
    path = tmp_path / "cli.jsonl"
    first = take6("solve", pos, "--cells", str(path), "--node-limit", "2000", "--json")
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert not data["solved"] and data["cells"]["lines_written"] > 0
    assert Fraction(data["lower"]) <= Fraction(data["upper"])
    second = take6("solve", pos, "--cells", str(path))
    assert second.returncode == 0, second.stderr
    ref = take6("solve", pos, "--json")
    value = json.loads(ref.stdout)["value"]
    assert f"value {value}" in second.stdout
    assert f"cells {path}: " in second.stdout and "cells exact" in second.stdout
    third = json.loads(take6("solve", pos, "--cells", str(path), "--json").stdout)
    assert third["value"] == value and third["cells"]["leaf_searches"] == 0
    assert third["cells"]["lines_read"] > 0 and third["cells"]["lines_written"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cells", ""], "--cells needs a file name"),
        (["--cells", "{tmp}"], "a folder, not a file"),
        (["--cells", "/no/such/folder/c.jsonl"], "no folder /no/such/folder"),
        (["--cells", "{tmp}/c.jsonl", "--certificate", "{tmp}/x"], "--cells and --certificate"),
        (["--cells", "{tmp}/c.jsonl", "--graphml", "{tmp}/x"], "--cells and --graphml"),
        (["--cells", "{tmp}/c.jsonl", "--checkpoint", "{tmp}/x"], "--cells and --checkpoint"),
        (["--cells", "{tmp}/no/c.jsonl", "--against", "random"], "no folder"),
        (["--cells", "{bad}"], "not a take6 cells file"),
    ],
)
def test_cli_errors(tmp_path: Path, args: list[str], message: str) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n")
    args = [a.format(tmp=tmp_path, bad=bad) for a in args]
    r = take6("solve", "logik:12 1/2/3/4 5,7,9,11|6,8,10,12", *args)
    assert r.returncode == 2, r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in r.stderr


def test_cli_sigterm_keeps_the_file(tmp_path: Path) -> None:
    pos = format_position(deal(6, 2))
    path = tmp_path / "term.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "take6", "solve", pos, "--core", "python", "--cells", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if path.exists() and path.read_text().count("\n") >= 3:
            break
        time.sleep(0.02)
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    if proc.returncode == 0:  # finished before the signal landed (a loaded machine)
        assert "value" in out
        return
    assert proc.returncode == 143, err
    assert "not solved (interrupted)" in out and f"cells {path}" in out
    assert "Traceback" not in err


def test_cli_progress_line_runs_on_the_runs_clock() -> None:
    # Each leaf search's own seconds restart at 0: the line is due by the run's clock, and it
    # names where the double oracle is and the leaf search's figures.
    import io

    from rich.console import Console

    from solver.cli.solve import CellsProgress

    buf = io.StringIO()
    line = CellsProgress(console=Console(file=buf, force_terminal=False, width=300))
    line._t0 = time.perf_counter() - 100
    line.status(0.0, "cells 1/4 exact  row (5,) against v = 1/2 (1 x 1)")
    line._t0 -= 20
    line(2_000_000, 10, 100, 0.5, Fraction(1), Fraction(5, 2))
    first, second = buf.getvalue().splitlines()
    assert first.startswith("cells 1/4 exact  row (5,) against v = 1/2") and "0:01:40" in first
    assert second.startswith("cells 1/4 exact") and "table 10% of 100" in second
    assert "leaf value in [1, 2.5000]" in second and "0:02:00" in second
    assert "16.7k/s" in second or "16.6k/s" in second  # 2 M nodes in the run's 120 s


def test_carried_cells_file_of_deal_10_2_proves_its_value(tmp_path: Path) -> None:
    # data/k10/deal10-2.cells.jsonl is the exact solve of a 2 x 10 deal: this build must read it
    # (a build whose position text, rules or leaf keys differ would refuse it) and find the
    # value without a search.
    carried = Path(__file__).resolve().parents[2] / "data" / "k10" / "deal10-2.cells.jsonl"
    path = tmp_path / "copy.jsonl"
    path.write_bytes(carried.read_bytes())
    got, run = solve_by_cells(deal(10, 2), path, node_limit=1, memory=1 << 24, threads=1)
    assert got.solved and run.stats.searches == 0 and got.value is not None
    assert run.solution is not None
    v, x, y = run.solution
    assert sum(x.values()) == 1 == sum(y.values()) and min(*x.values(), *y.values()) > 0
    # The optimality argument again, from the file's bounds: in the whole 10 x 10 root game,
    # no row at its upper bounds gains against y, no column at its lower bounds against x.
    rows, cols = range(len(run.rows)), range(len(run.cols))
    assert len(rows) == len(cols) == 10
    for i in rows:
        assert sum((p * run.cell(i, j)[1] for j, p in y.items()), Fraction(0)) <= v
    for j in cols:
        assert sum((p * run.cell(i, j)[0] for i, p in x.items()), Fraction(0)) >= v
    # An earlier series of runs (one whole search, its checkpoint since lost) proved
    # -1.59467 <= value <= -1.59407: the two must agree.
    assert Fraction(-159467, 100000) <= got.value <= Fraction(-159407, 100000)
    assert sorted(run.rows[i] for i in x) == [(1,), (4,), (13,)]
    assert sorted(run.cols[j] for j in y) == [(9,), (10,), (19,)]


def test_against_a_bot_takes_the_game_value_from_a_cells_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # take6 solve POS --against BOT --cells FILE: the game value by cells (read back when the
    # file has it), then the best reply to the bot, and the gap between them.
    pos = deal(5, 1)
    text = format_position(pos)
    path = tmp_path / "c.jsonl"
    assert main(["solve", text, "--against", "safe", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["solve", text, "--against", "safe", "--cells", str(path), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    lines = path.read_text().count("\n")
    assert lines > 1
    assert main(["solve", text, "--against", "safe", "--cells", str(path), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert path.read_text().count("\n") == lines  # solved from the file: nothing new
    for got in (first, again):
        assert (got["value"], got["against_bot"], got["gap"]) == (
            plain["value"],
            plain["against_bot"],
            plain["gap"],
        )
    assert main(["solve", text, "--against", "safe", "--cells", str(tmp_path)]) == 2
    assert "a folder, not a file" in capsys.readouterr().err


def test_read_cells_reports_a_file_as_it_stands_without_changing_it(tmp_path: Path) -> None:
    pos = deal(6, 2)
    path = tmp_path / "c.jsonl"
    part, _ = solve_by_cells(pos, path, node_limit=20_000, core=CORES[-1], memory=MEMORY)
    assert not part.solved
    before = path.read_bytes()
    with path.open("a") as f:
        f.write('{"leaf": "cut short')  # a line being written by a run under way
    got = read_cells(pos, path)
    assert path.read_bytes() == before + b'{"leaf": "cut short'  # neither truncated nor locked
    assert not got.solved and (got.lower, got.upper) == (part.lower, part.upper)
    path.write_bytes(before)
    whole, run = solve_by_cells(pos, path, core=CORES[-1], memory=MEMORY)
    held = CellFile(path, run.problem, {leaf.key for leaf in leaves_of(run.trees)})
    try:  # (a run has the file, locked)
        done = read_cells(pos, path)
    finally:
        held.close()
    assert done.solved and done.value == whole.value == solve(pos)[0].value
    assert done.lower == done.upper == done.value
    assert done.cells == 36 and done.restricted == tuple(map(len, run.restricted))
    assert "value " in done.text() and "cells exact" in done.text()
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    work = [(d["nodes"], d["seconds"]) for d in lines if "leaf" in d]
    assert done.nodes == sum(n for n, _ in work) >= whole.nodes > 0  # (every run's searches)
    assert done.seconds == pytest.approx(sum(s for _, s in work))
    assert f"{done.nodes:.3g} nodes" in done.text()
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(SolverError, match="the file is empty"):
        read_cells(pos, empty)
    with pytest.raises(SolverError, match="cells of another position"):
        read_cells(deal(6, 3), path)


def test_a_first_line_cut_short_is_a_new_file(tmp_path: Path) -> None:
    pos = deal(4, 1)
    path = tmp_path / "c.jsonl"
    path.write_text('{"format": "take6-ce')  # killed while the first line was written
    with pytest.raises(SolverError, match="the file is empty"):
        read_cells(pos, path)  # (read as it stands: nothing proven yet)
    got, _ = solve_by_cells(pos, path, core=CORES[-1], memory=MEMORY)
    assert got.value == solve(pos)[0].value
    assert read_cells(pos, path).value == got.value


@pytest.mark.skipif(not native.AVAILABLE, reason="side by side needs the compiled core")
@pytest.mark.parametrize(("k", "seed"), [(6, 0), (6, 1), (7, 1), (7, 2)])
def test_proofs_side_by_side_equal_one_at_a_time(tmp_path: Path, k: int, seed: int) -> None:
    # The rows' and columns' proofs run two at a time, each leaf search on a thread of its own:
    # the same value as the ordinary solve, optimal strategies, and a file that alone settles
    # the root when read back one proof at a time.
    pos = deal(k, seed)
    ref, _ = solve(pos, line=False, core="native", memory=MEMORY)
    path = tmp_path / "side.jsonl"
    got, run = solve_by_cells(pos, path, core="native", memory=MEMORY, threads=2)
    assert run.side_by_side == 2 and run.stats.side_by_side > 0
    assert got.solved and got.value == ref.value
    check_optimal(run)
    again, rerun = solve_by_cells(pos, path, core="native", memory=MEMORY, side_by_side=1)
    assert again.value == got.value and rerun.stats.searches == 0


@pytest.mark.skipif(not native.AVAILABLE, reason="side by side needs the compiled core")
@settings(max_examples=40, deadline=None)
@given(any_position())
def test_side_by_side_equals_the_python_search_on_random_positions(pos: Position) -> None:
    if all(not h for h in pos.hands):
        return
    objective = "diff" if pos.rules.players == 2 else "paranoid"
    ref, _ = solve(pos, objective, line=False, core="python")
    with tempfile.TemporaryDirectory() as tmp:
        got, run = solve_by_cells(
            pos, Path(tmp) / "c.jsonl", objective, core="native", memory=MEMORY, threads=2
        )
        assert got.value == ref.value, str(pos)
        check_optimal(run)


@pytest.mark.skipif(not native.AVAILABLE, reason="side by side needs the compiled core")
def test_side_by_side_stopped_runs_prove_bounds_and_go_on(tmp_path: Path) -> None:
    # Each run stopped by a node limit while proofs run side by side: what every search under
    # way had proven is kept, and the runs together solve the deal.
    pos = deal(6, 1)
    ref, _ = solve(pos, line=False, core="native", memory=MEMORY)
    assert ref.value is not None
    path = tmp_path / "s.jsonl"
    runs = side = 0
    while runs < 60:
        runs += 1
        got, run = solve_by_cells(
            pos, path, core="native", memory=MEMORY, threads=2, node_limit=30_000
        )
        side += run.stats.side_by_side
        assert got.lower <= ref.value <= got.upper
        if got.solved:
            break
        assert got.value is None and not got.interrupted
    assert got.solved and got.value == ref.value and runs > 1 and side > 0


def test_side_by_side_setting_is_checked(tmp_path: Path) -> None:
    with pytest.raises(SolverError, match="at least 1"):
        solve_by_cells(deal(4, 0), tmp_path / "a.jsonl", core=CORES[-1], side_by_side=0)
    with pytest.raises(SolverError, match="need the compiled core"):
        solve_by_cells(deal(4, 0), tmp_path / "b.jsonl", core="python", side_by_side=2)
