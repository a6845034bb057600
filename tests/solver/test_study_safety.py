"""Issue 13, ``take6 study``: pool workers die with their parent (``kill -9``) and stop on
Ctrl-C; tasks are generated lazily and ``--workers`` is bounded; an export never overwrites the
store (nor an existing file without ``--force``); read-only commands create and modify nothing.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from solver_helpers import ctrl_c_default

from solver.study.export import export_csv
from solver.study.run import (
    InlineExecutor,
    check_executor,
    make_executor,
    max_workers,
    prepare,
    run_study,
)
from solver.study.spec import DealStudy, StudyError
from solver.study.store import Store
from take6.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _session(sid: int) -> list[int]:
    """Live (not zombie) processes of session ``sid``."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            out.append(int(entry))
    return out


def _start_pool_run(store: Path) -> subprocess.Popen[bytes]:
    """A study whose items take seconds each, on 2 workers, in its own session; returns once
    the workers are up (3 processes in the session)."""
    cmd = [sys.executable, "-m", "take6.cli.main", "study", "deals", "--hand-size", "6"]
    cmd += ["--deals", "20", "--store", str(store), "--workers", "2", "--no-progress"]
    proc = subprocess.Popen(
        cmd,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        start_new_session=True,
        preexec_fn=ctrl_c_default,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while len(_session(proc.pid)) < 3 and time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        time.sleep(0.05)
    assert len(_session(proc.pid)) >= 3, "the workers did not start"
    time.sleep(0.3)  # let them pick up work
    return proc


def _wait_gone(sid: int, seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while _session(sid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return _session(sid)


@linux_only
def test_workers_die_with_their_parent(tmp_path: Path) -> None:
    proc = _start_pool_run(tmp_path / "s.sqlite")
    try:
        os.kill(proc.pid, signal.SIGKILL)  # the parent only, not its process group
        proc.wait(10)
        assert _wait_gone(proc.pid, 5) == [], "pool workers outlived their parent"
    finally:
        for pid in _session(proc.pid):
            os.kill(pid, signal.SIGKILL)


@linux_only
def test_ctrl_c_stops_everything_cleanly(tmp_path: Path) -> None:
    proc = _start_pool_run(tmp_path / "s.sqlite")
    try:
        started = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        _, err = proc.communicate(timeout=15)
        assert time.monotonic() - started < 10
        assert proc.returncode == 130
        assert err.decode().strip() == "take6: interrupted"
        assert _wait_gone(proc.pid, 5) == []
    finally:
        for pid in _session(proc.pid):
            os.kill(pid, signal.SIGKILL)


def test_tasks_are_generated_lazily(tmp_path: Path) -> None:
    huge = DealStudy(hand_sizes=(2, 3), deals=10**9)
    assert huge.items() == 2 * 10**9
    tasks = huge.tasks()
    assert next(tasks).item == "k=2 deal=0" and next(tasks).item == "k=2 deal=1"
    store = tmp_path / "s.sqlite"
    started = time.perf_counter()
    prepare(store, huge)

    class Enough(Exception):
        pass

    def progress(done: int, total: int) -> None:
        assert total == 2 * 10**9
        if done >= 5:
            raise Enough

    with pytest.raises(Enough):
        run_study(store, huge, progress=progress)
    assert time.perf_counter() - started < 10
    with Store(store, create=False) as db:
        (info,) = db.studies()
    assert (info.items, info.done) == (2 * 10**9, 5)


def test_workers_are_bounded() -> None:
    with pytest.raises(StudyError, match=f"workers must be at most {max_workers()}"):
        check_executor("process", workers=max_workers() + 1)
    with make_executor("process", workers=2, items=1) as (executor, window):
        assert isinstance(executor, InlineExecutor) and window == 1


def test_cli_refuses_too_many_workers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "s.sqlite"
    args = ["study", "deals", "--hand-size", "2", "--deals", "3", "--store", str(store)]
    assert main([*args, "--workers", "100000", "--no-progress"]) == 2
    assert "workers must be at most" in capsys.readouterr().err


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "s.sqlite"
    run_study(path, DealStudy(hand_sizes=(2,), deals=3))
    return path


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", "-journal"])
def test_export_never_writes_over_the_store(
    store: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    before = _digest(store)
    target = f"{store}{suffix}"
    for fmt in ("--csv", "--parquet"):
        args = ["study", "export", "--store", str(store), fmt, target, "--force"]
        assert main(args) == 2
        err = capsys.readouterr().err
        assert "it is the study store" in err and len(err.splitlines()) == 1
    assert _digest(store) == before
    # also through another spelling of the same path
    other = store.parent / "." / store.name
    assert main(["study", "export", "--store", str(store), "--csv", str(other), "--force"]) == 2
    assert _digest(store) == before


def test_export_needs_force_to_overwrite(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.csv"
    out.write_text("keep me\n")
    assert main(["study", "export", "--store", str(store), "--csv", str(out)]) == 2
    assert "exists; give --force to overwrite it" in capsys.readouterr().err
    assert out.read_text() == "keep me\n"
    with pytest.raises(StudyError, match="exists"):
        export_csv(store, out)
    assert main(["study", "export", "--store", str(store), "--csv", str(out), "--force"]) == 0
    assert out.read_text().startswith("study,item,")
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def test_status_on_an_empty_file_creates_and_modifies_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    for argv in (["status"], ["export", "--csv", str(tmp_path / "x.csv")]):
        assert main(["study", *argv, "--store", str(empty)]) == 2
        assert "is not a take6 study store" in capsys.readouterr().err
        assert empty.stat().st_size == 0
        assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.sqlite"]


def test_read_only_commands_leave_a_store_as_it_was(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = sorted(p.name for p in store.parent.iterdir())
    before = _digest(store)
    assert main(["study", "status", "--store", str(store)]) == 0
    out = store.parent / "out.csv"
    assert main(["study", "export", "--store", str(store), "--csv", str(out)]) == 0
    capsys.readouterr()
    assert _digest(store) == before
    assert sorted(p.name for p in store.parent.iterdir()) == sorted([*files, "out.csv"])
    with Store(store, create=False) as db, pytest.raises(StudyError, match="read-only"):
        db.insert("deals", {})
