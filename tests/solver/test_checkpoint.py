"""Checkpoints of the compiled core: a solve stopped (a node limit, a killed process) and resumed
from its checkpoint gives the value a fresh solve gives, with the work of the first run kept; a
file that is not a checkpoint of the same rules, objective and player, or is damaged, is refused
in one line and the table is left untouched."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver import native
from solver.api import solve
from solver.errors import SolverError
from solver.problem import make_problem
from solver.search.alphabeta import position_table
from solver.study.run import benchmark_deal
from take6.notation import format_position
from take6.position import Position

pytestmark = pytest.mark.skipif(
    not native.AVAILABLE, reason=f"compiled core not built: {native.unavailable_reason()}"
)

MEMORY = 1 << 26
deal = benchmark_deal


@pytest.mark.parametrize("seed", [1, 3])
def test_stopped_and_resumed_equals_fresh(tmp_path: Path, seed: int) -> None:
    pos = deal(7, seed)
    fresh, _ = solve(pos, line=False, core="native", memory=MEMORY)
    assert fresh.solved
    path = tmp_path / "k7.ck"
    half = fresh.nodes // 2
    first, _ = solve(
        pos, line=False, core="native", memory=MEMORY, node_limit=half, checkpoint=str(path)
    )
    assert not first.solved and first.checkpoint_read is None
    assert first.checkpoint_saved is not None and first.checkpoint_saved[0] > 0
    assert path.exists() and not Path(str(path) + ".tmp").exists()
    second, _ = solve(pos, line=False, core="native", memory=MEMORY, checkpoint=str(path))
    assert second.solved and second.value == fresh.value
    assert second.checkpoint_read == first.checkpoint_saved
    # The first run's work is kept: the two runs together cost about what one fresh solve does.
    assert second.nodes < fresh.nodes
    assert first.nodes + second.nodes < fresh.nodes * 1.25
    third, _ = solve(pos, line=False, core="native", memory=MEMORY, checkpoint=str(path))
    assert third.value == fresh.value and third.nodes < fresh.nodes // 100


def test_deep_checkpoint_keeps_only_deep_entries_and_their_long_values(tmp_path: Path) -> None:
    # checkpoint_depth d writes the entries of d+ cards a hand and the long exact values of
    # those entries only. Read back and written again at d, nothing more is dropped (every
    # entry read is that deep, every long value read belongs to one of them); at a larger
    # depth, fewer entries go; resumed, the value is a fresh solve's.
    pos = deal(7, 1)
    fresh, _ = solve(pos, line=False, core="native", memory=MEMORY)
    problem = make_problem(pos)
    table, hands = position_table(problem)
    full = native.NativeSearch(problem, memory=MEMORY)
    assert full.value(table, hands).exact
    counts = {}
    for d in (2, 4, 6):
        full.core.configure(checkpoint_depth=d)
        counts[d] = full.core.save(os.fsencode(tmp_path / f"d{d}.ck"))
    assert counts[2][0] > counts[4][0] > counts[6][0] > 0
    # (this deal's one long exact value is a position of 5 cards a hand)
    assert counts[2][1] == counts[4][1] == 1 and counts[6][1] == 0
    sizes = [(tmp_path / f"d{d}.ck").stat().st_size for d in (2, 4, 6)]
    assert sizes[0] > 5 * sizes[1] and sizes[1] > 5 * sizes[2]
    for d in (4, 6):
        again = native.NativeSearch(problem, memory=MEMORY, checkpoint_depth=d)
        assert again.resume(tmp_path / f"d{d}.ck") == counts[d]
        # (read into a table of another size, a bucket may overflow: a few entries can go)
        kept = again.save(tmp_path / f"again{d}.ck")
        assert kept[0] >= counts[d][0] * 0.99 and kept[1] == counts[d][1]
        again.core.configure(checkpoint_depth=2)
        assert again.save(tmp_path / f"all{d}.ck") == kept
        resumed, _ = solve(
            pos,
            line=False,
            core="native",
            memory=MEMORY,
            checkpoint=str(tmp_path / f"d{d}.ck"),
            checkpoint_depth=d,
        )
        assert resumed.checkpoint_read == counts[d]
        assert resumed.solved and resumed.value == fresh.value
        assert resumed.nodes < fresh.nodes
    with pytest.raises(SolverError, match="at least 2"):
        native.NativeSearch(problem, memory=MEMORY, checkpoint_depth=1)
    with pytest.raises(SolverError, match="got 0"):  # (refused, not read as the default)
        solve(
            pos, core="native", memory=MEMORY, checkpoint=str(tmp_path / "z.ck"), checkpoint_depth=0
        )


def test_checkpoint_of_one_position_serves_another_of_the_same_rules(tmp_path: Path) -> None:
    # Entries are keyed by position: a checkpoint written while solving one deal is valid
    # (and read) for any position under the same rules, objective and player.
    path = tmp_path / "shared.ck"
    a = deal(6, 1)
    solve(a, line=False, core="native", memory=MEMORY, checkpoint=str(path))
    b = deal(6, 2)
    fresh, _ = solve(b, line=False, core="native", memory=MEMORY)
    resumed, _ = solve(b, line=False, core="native", memory=MEMORY, checkpoint=str(path))
    assert resumed.value == fresh.value and resumed.checkpoint_read is not None


def test_periodic_checkpoints(tmp_path: Path) -> None:
    pos = deal(8, 1)
    problem = make_problem(pos, "diff", 0)
    path = tmp_path / "p.ck"
    search = native.NativeSearch(
        problem, memory=MEMORY, node_limit=3_000_000, checkpoint=path, checkpoint_every=0.05
    )
    from solver.search import position_table

    table, hands = position_table(problem)
    search.value(table, hands)
    assert search.checkpoints >= 1 and path.exists()
    entries, _ = native.NativeSearch(problem, memory=MEMORY).resume(path)
    assert entries > 0


def checkpoint_of(tmp_path: Path, pos: Position, name: str = "c.ck") -> Path:
    path = tmp_path / name
    solve(pos, line=False, core="native", memory=MEMORY, node_limit=20_000, checkpoint=str(path))
    return path


def test_refuses_another_objective_or_player(tmp_path: Path) -> None:
    pos = deal(6, 1)
    path = checkpoint_of(tmp_path, pos)
    for objective, player in (("paranoid", 0), ("diff", 1)):
        search = native.NativeSearch(make_problem(pos, objective, player), memory=MEMORY)
        with pytest.raises(SolverError, match="other rules, another objective or another player"):
            search.resume(path)
        assert search.stats.filled == 0
    profi = Position.create("profi", [[c] for c in (3, 30, 60, 90)], [[5, 40, 70], [10, 50, 80]])
    search = native.NativeSearch(make_problem(profi, "diff", 0), memory=MEMORY)
    with pytest.raises(SolverError, match="other rules"):
        search.resume(path)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda b: b[:40], "truncated"),
        (lambda b: b[: len(b) - 9], "truncated"),
        (lambda b: b[:200] + bytes([b[200] ^ 1]) + b[201:], "damaged"),
        (lambda b: b + b"x", "bytes after the end"),
        (lambda b: b"not a checkpoint at all, but long enough" * 4, "not a take6 checkpoint"),
        (lambda b: b[:8] + b"\x09" + b[9:], "another format"),
        (lambda b: b[:16] + bytes([b[16] ^ 1]) + b[17:], "other rules"),
        (lambda b: b[:32] + bytes([b[32] ^ 1]) + b[33:], "another position key"),
        (lambda b: b[:56] + bytes([b[56] ^ 4]) + b[57:], "truncated|damaged"),
    ],
)
def test_damaged_files_are_refused_and_the_table_untouched(
    tmp_path: Path, damage: object, message: str
) -> None:
    pos = deal(6, 1)
    path = checkpoint_of(tmp_path, pos)
    bad = tmp_path / "bad.ck"
    bad.write_bytes(damage(path.read_bytes()))  # type: ignore[operator]
    search = native.NativeSearch(make_problem(pos, "diff", 0), memory=MEMORY)
    with pytest.raises(SolverError, match=message):
        search.resume(bad)
    assert search.stats.filled == 0


def test_python_search_keeps_no_checkpoint(tmp_path: Path) -> None:
    with pytest.raises(SolverError, match="compiled core only"):
        solve(deal(3, 1), core="python", checkpoint=str(tmp_path / "x.ck"))


def take6(*args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "take6", *args], capture_output=True, text=True, check=check
    )


def test_cli_resumes_and_reports(tmp_path: Path) -> None:
    pos = "logik:16 2/9/13/5 1,4,7,10,11,14|3,6,8,12,15,16"
    path = tmp_path / "cli.ck"
    first = take6("solve", pos, "--node-limit", "2000", "--checkpoint", str(path), "--json")
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert not data["solved"] and data["checkpoint"]["read"] is None
    assert data["checkpoint"]["saved"]["entries"] > 0
    assert data["checkpoint"]["bytes"] == path.stat().st_size
    second = take6("solve", pos, "--checkpoint", str(path), "--progress")
    assert second.returncode == 0, second.stderr
    assert f"checkpoint {path}: resumed from" in second.stdout and "saved" in second.stdout
    assert second.stderr.startswith(f"take6: resuming from checkpoint {path} (")
    fresh = json.loads(take6("solve", pos, "--json", check=True).stdout)
    again = json.loads(take6("solve", pos, "--checkpoint", str(path), "--json", check=True).stdout)
    assert again["value"] == fresh["value"] and again["nodes"] < fresh["nodes"]


def test_cli_checkpoint_depth(tmp_path: Path) -> None:
    pos = format_position(deal(7, 1))
    runs = {}
    for depth in ("2", "5"):
        path = tmp_path / f"d{depth}.ck"
        r = take6("solve", pos, "--checkpoint", str(path), "--checkpoint-depth", depth, "--json")
        assert r.returncode == 0, r.stderr
        runs[depth] = json.loads(r.stdout)
        assert runs[depth]["checkpoint"]["bytes"] == path.stat().st_size
    assert runs["2"]["value"] == runs["5"]["value"]
    full, deep = runs["2"]["checkpoint"]["saved"], runs["5"]["checkpoint"]["saved"]
    assert 0 < deep["entries"] < full["entries"] // 20
    again = take6("solve", pos, "--checkpoint", str(tmp_path / "d5.ck"), "--json", check=True)
    data = json.loads(again.stdout)
    assert data["value"] == runs["5"]["value"]
    assert data["checkpoint"]["read"]["entries"] == deep["entries"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--checkpoint", "/no/such/folder/x.ck"], "no folder /no/such/folder"),
        (["--checkpoint", ""], "--checkpoint needs a file name"),
        (["--checkpoint-every", "5"], "--checkpoint-every goes with --checkpoint"),
        (["--checkpoint-depth", "6"], "--checkpoint-depth goes with --checkpoint"),
        (["--checkpoint", "{tmp}/x.ck", "--checkpoint-depth", "1"], "at least 2 cards"),
        (["--checkpoint", "{tmp}/x.ck", "--checkpoint-depth", "six"], "invalid int value"),
        (["--checkpoint", "{tmp}/x.ck", "--checkpoint-every", "0"], "positive number"),
        (["--checkpoint", "{tmp}"], "a folder, not a file"),
        (["--checkpoint", "{tmp}/x.ck", "--core", "python"], "compiled core only"),
        (["--checkpoint", "{bad}"], "not a take6 checkpoint"),
    ],
)
def test_cli_errors(tmp_path: Path, args: list[str], message: str) -> None:
    bad = tmp_path / "bad.ck"
    bad.write_text("hello\n")
    args = [a.format(tmp=tmp_path, bad=bad) for a in args]
    r = take6("solve", "logik:12 1/2/3/4 5,7,9,11|6,8,10,12", *args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in r.stderr


def test_killed_run_leaves_a_whole_checkpoint(tmp_path: Path) -> None:
    # kill -9 during a long solve: the last periodic checkpoint is whole (written to a
    # temporary file and renamed), and a second run resumes from it to the fresh value.
    pos = deal(8, 1)
    text = format_position(pos)
    path = tmp_path / "kill.ck"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "take6",
            "solve",
            text,
            "--threads",
            "1",
            "--checkpoint",
            str(path),
            "--checkpoint-every",
            "0.2",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not path.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        time.sleep(0.3)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert path.exists()
    fresh, _ = solve(pos, line=False, core="native", memory=MEMORY)
    resumed, _ = solve(pos, line=False, core="native", memory=MEMORY, checkpoint=str(path))
    assert resumed.checkpoint_read is not None and resumed.value == fresh.value
