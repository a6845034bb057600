"""Batch studies (solver.study.run): the store survives ``kill -9`` and resumes to exactly the
results of an uninterrupted run; the process pool and a Dask LocalCluster give the same rows
as the in-process run; bad settings are one-line ValueErrors (exit 2 from the CLI); exports
round-trip."""

from __future__ import annotations

import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from solver.api import solve
from solver.draft.solve import solve_draft
from solver.study.export import export_csv, export_parquet
from solver.study.run import deal_position, make_executor, run_study
from solver.study.spec import DealStudy, DraftStudy, StudyError
from solver.study.store import Store
from take6.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
SMALL = DealStudy(hand_sizes=(2, 3), deals=12, seed=7)


def results(store: Path) -> list[dict[str, Any]]:
    """The store's rows without the one column that is not reproducible (seconds)."""
    with Store(store, create=False) as db:
        rows = db.rows()
    for r in rows:
        del r["seconds"]
    return rows


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """SMALL solved in this process."""
    store = tmp_path_factory.mktemp("ref") / "ref.sqlite"
    report = run_study(store, SMALL)
    assert (report.items, report.skipped, report.solved) == (24, 0, 24)
    return results(store)


def test_deal_is_fixed_by_its_key() -> None:
    a = deal_position(4, 17, seed=3)
    assert a == deal_position(4, 17, seed=3)
    assert a != deal_position(4, 18, seed=3)
    assert a != deal_position(4, 17, seed=4)
    assert a.rules.deck_size == 12 and a.cards() == frozenset(range(1, 13))
    assert [len(h) for h in a.hands] == [4, 4] and all(len(r) == 1 for r in a.rows)
    assert [r[0] for r in a.rows] == sorted(r[0] for r in a.rows)


def test_rows_hold_exact_values(reference: list[dict[str, Any]]) -> None:
    assert len({(r["study"], r["item"]) for r in reference}) == len(reference) == 24
    for r in reference[:5]:
        pos = deal_position(r["hand_size"], r["deal"], r["seed"])
        assert r["position"] == str(pos)
        value = solve(pos, "diff", 0)[0].value
        assert r["solved"] == 1 and Fraction(r["value"]) == value
        assert r["value_float"] == float(value) and r["lower"] == r["upper"] == r["value"]


def test_rerun_skips_everything(tmp_path: Path, reference: list[dict[str, Any]]) -> None:
    store = tmp_path / "s.sqlite"
    run_study(store, SMALL)
    again = run_study(store, SMALL)
    assert (again.skipped, again.solved) == (24, 0)
    assert results(store) == reference


def test_process_pool_gives_the_same_rows(tmp_path: Path, reference: list[dict[str, Any]]) -> None:
    store = tmp_path / "pool.sqlite"
    with make_executor("process", workers=2) as (executor, window):
        run_study(store, SMALL, executor=executor, window=window)
    assert results(store) == reference


@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[Any]:
    distributed = pytest.importorskip("distributed")
    # One worker of two threads in this process, TCP bound to loopback (so the scheduler has
    # an address a client can dial, as on a real cluster), no dashboard: no other network.
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        yield cluster


def test_dask_executor_gives_the_same_rows(
    tmp_path: Path, reference: list[dict[str, Any]], dask_cluster: Any
) -> None:
    store = tmp_path / "dask.sqlite"
    with make_executor("dask", scheduler=dask_cluster.scheduler_address) as (executor, window):
        report = run_study(store, SMALL, executor=executor, window=window)
    assert report.solved == 24
    assert results(store) == reference


def test_dask_from_the_cli(tmp_path: Path, dask_cluster: Any) -> None:
    store = tmp_path / "cli.sqlite"
    args = ["study", "deals", "--hand-size", "2", "--deals", "5", "--store", str(store)]
    args += ["--executor", "dask", "--scheduler", dask_cluster.scheduler_address, "--no-progress"]
    assert main(args) == 0
    assert len(results(store)) == 5


def _count(store: Path) -> int:
    try:
        with sqlite3.connect(store, timeout=10) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0


def test_kill_9_and_resume_gives_the_uninterrupted_results(tmp_path: Path) -> None:
    # Deals large enough that the run cannot finish before it is killed: the compiled core
    # solves a 2 x 4 deal in about a millisecond, a 2 x 6 deal in about 20.
    from solver import native

    k = 6 if native.AVAILABLE else 4
    study = DealStudy(hand_sizes=(k,), deals=150, seed=11)
    whole = tmp_path / "whole.sqlite"
    run_study(whole, study)
    store = tmp_path / "killed.sqlite"
    cmd = [sys.executable, "-m", "take6.cli.main", "study", "deals", "--hand-size", str(k)]
    cmd += ["--deals", "150", "--seed", "11", "--store", str(store), "--no-progress"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for workers, kill_at in (("1", 15), ("2", 60)):
        proc = subprocess.Popen(
            [*cmd, "--workers", workers],
            env=env,
            start_new_session=True,  # its own process group: kill -9 the pool workers too
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while _count(store) < kill_at and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL, "the run ended before it could be killed"
        assert kill_at <= _count(store) < 150
    done = _count(store)
    report = run_study(store, study)
    assert (report.skipped, report.solved) == (done, 150 - done)
    with sqlite3.connect(store) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert results(store) == results(whole)


def test_draft_study_rows(tmp_path: Path) -> None:
    store = tmp_path / "d.sqlite"
    run_study(store, DraftStudy(hand_sizes=(1, 2)))
    rows = results(store)
    assert [(r["hand_size"], r["first_picker"]) for r in rows] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    for r in rows:
        direct = solve_draft(2, r["hand_size"], r["first_picker"])
        assert r["solved"] == 1 and Fraction(r["value"]) == direct.value
        assert r["position"] == str(direct.position) and r["deal"] is None


# -- bad settings ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: DealStudy(hand_sizes=(0,), deals=5), "hand size must be at least 1, got 0"),
        (lambda: DealStudy(hand_sizes=(3,), deals=0), "deals must be at least 1, got 0"),
        (lambda: DealStudy(hand_sizes=(11,), deals=1, players=10), "need 114 cards"),
        (lambda: DealStudy(hand_sizes=(3,), deals=1, players=11), "players must be 2..10"),
        (lambda: DealStudy(hand_sizes=(3,), deals=1, players=3, objective="diff"), "exactly 2"),
        (
            lambda: DraftStudy(hand_sizes=(2,), first_pickers=(2,)),
            "first picker must be a seat 0..1",
        ),
    ],
)
def test_bad_settings_are_value_errors(make: Any, message: str) -> None:
    with pytest.raises(StudyError, match=message) as info:
        make()
    assert isinstance(info.value, ValueError) and "\n" not in str(info.value)


def test_unknown_executor() -> None:
    with (
        pytest.raises(StudyError, match="unknown executor 'spark'"),
        make_executor("spark"),
    ):
        pass


def test_store_with_other_parameters(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    run_study(store, DealStudy(hand_sizes=(2,), deals=3, seed=1))
    with pytest.raises(StudyError, match=r"seed 1 in the store, 2 now"):
        run_study(store, DealStudy(hand_sizes=(2,), deals=3, seed=2))
    run_study(store, DealStudy(hand_sizes=(2,), deals=3, seed=2), name="other")
    with Store(store) as db:
        assert [(s.study, s.done) for s in db.studies()] == [("deals", 3), ("other", 3)]


def test_not_a_store(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello, this is not SQLite\n" * 100)
    with pytest.raises(StudyError, match="not a usable study store"):
        run_study(text, SMALL)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(StudyError, match="not a take6 study store"):
        run_study(other, SMALL)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["deals", "--hand-size", "0", "--deals", "3"], "hand size must be at least 1"),
        (["deals", "--hand-size", "2", "--deals", "0"], "deals must be at least 1"),
        (["deals", "--hand-size", "30", "--deals", "1", "--players", "4"], "need 124 cards"),
        (["drafts", "--hand-size", "2", "--players", "11"], "players must be 2..10"),
        (["deals", "--hand-size", "2", "--deals", "1", "--executor", "mpi"], "unknown executor"),
        (["deals", "--hand-size", "2", "--deals", "1", "--executor", "dask"], "scheduler"),
        (["deals", "--hand-size", "2", "--deals", "2", "--seed", "9"], "seed 1 in the store, 9"),
    ],
)
def test_cli_errors_are_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    store = tmp_path / "s.sqlite"
    base = ["study", "deals", "--hand-size", "2", "--deals", "2", "--seed", "1"]
    assert main([*base, "--store", str(store), "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["study", *args, "--store", str(store), "--no-progress"]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if "warning" not in line]
    assert len(err) == 1 and err[0].startswith("take6: error: ") and message in err[0]


# -- export ---------------------------------------------------------------------------------


def test_csv_and_parquet_round_trip(tmp_path: Path) -> None:
    """Every format has the same rows: CSV (lists as JSON arrays) and Parquet read back to
    the same values (the full column checks are in test_study_export.py)."""
    from solver.study.export import export_rows

    store = tmp_path / "s.sqlite"
    run_study(store, DealStudy(hand_sizes=(2,), deals=4))
    run_study(store, DraftStudy(hand_sizes=(1,)))
    with Store(store) as db:
        columns, rows = export_rows(db.rows())
    assert len(rows) == 6
    out = tmp_path / "r.csv"
    assert main(["study", "export", "--store", str(store), "--csv", str(out)]) == 0
    with open(out, newline="", encoding="utf-8") as fh:
        back = list(csv.DictReader(fh))
    assert list(back[0]) == [c.name for c in columns]
    assert [r["value"] for r in back] == [r["value"] for r in rows]
    assert export_csv(store, out, study="drafts", force=True) == 2
    pq = pytest.importorskip("pyarrow.parquet")
    pout = tmp_path / "r.parquet"
    assert export_parquet(store, pout) == 6
    table = pq.read_table(pout)
    assert table.column_names == [c.name for c in columns]
    assert table.to_pylist() == rows


def test_parquet_without_pyarrow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "s.sqlite"
    run_study(store, DealStudy(hand_sizes=(2,), deals=1))
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now fails
    out = str(tmp_path / "r.parquet")
    assert main(["study", "export", "--store", str(store), "--parquet", out]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if "warning" not in line]
    assert err == ["take6: error: Parquet export needs pyarrow (pip install 'take6[study]')"]


def test_export_unknown_study_and_missing_store(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    run_study(store, DealStudy(hand_sizes=(2,), deals=1))
    with pytest.raises(StudyError, match="no study 'nope'"):
        export_csv(store, tmp_path / "x.csv", study="nope")
    with pytest.raises(StudyError, match="no study store"):
        export_csv(tmp_path / "missing.sqlite", tmp_path / "x.csv")


def test_status_and_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "s.sqlite"
    seen: list[tuple[int, int]] = []
    run_study(store, DealStudy(hand_sizes=(2,), deals=3), progress=lambda d, t: seen.append((d, t)))
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]
    run_study(store, DealStudy(hand_sizes=(2,), deals=3), progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (3, 3)
    assert main(["study", "status", "--store", str(store), "--json"]) == 0
    (info,) = json.loads(capsys.readouterr().out)
    assert (info["study"], info["kind"], info["items"], info["done"]) == ("deals", "deals", 3, 3)
    assert info["params"]["hand_sizes"] == [2] and info["params"]["objective"] == "diff"
