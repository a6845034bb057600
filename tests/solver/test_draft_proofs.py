"""A draft's proofs kept in a file (:mod:`solver.draft.proofs`, ``take6 draft --proofs``, ``take6
study drafts --proofs``): a run resumed from the file finds the same values as a fresh one with
far fewer leaf searches, on either core and after ``kill -9``; a file of other settings, not a
proofs file, or contradicting itself is refused with one line."""

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
from solver.draft import proofs as proofs_module
from solver.draft.solve import DraftResult, DraftSearch, draft_rules, solve_draft
from solver.errors import SolverError
from solver.study import run as study_run
from solver.study.run import run_study
from solver.study.spec import DealStudy, DraftStudy, Row, StudyError
from solver.study.store import Store
from take6.cli.main import main
from take6.io.record import rules_to_json

ROOT = Path(__file__).resolve().parents[2]
CORES = ["python", "native"] if native.AVAILABLE else ["python"]
MEMORY = 64 << 20


def picks(r: DraftResult) -> list[tuple[int, object, object, object]]:
    return [(p.card, p.value, p.lower, p.upper) for p in r.picks]


@pytest.fixture
def every_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every proof written, however short its search (the file then holds the whole run)."""
    monkeypatch.setattr(proofs_module, "MIN_SECONDS", 0.0)
    monkeypatch.setattr("solver.draft.solve.MIN_SECONDS", 0.0)


@pytest.mark.usefixtures("every_proof")
@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    ("players", "k", "first", "objective", "player", "exact"),
    [
        (2, 3, 0, "diff", 0, True),
        (2, 4, 1, "diff", 1, False),
        (3, 2, 0, "paranoid", 1, True),
    ],
)
def test_a_resumed_draft_finds_what_a_fresh_one_does(
    tmp_path: Path,
    core: str,
    players: int,
    k: int,
    first: int,
    objective: str,
    player: int,
    exact: bool,
) -> None:
    settings = (players, k, first, objective, player)
    ref = solve_draft(*settings, core=core, memory=MEMORY, exact_picks=exact)
    path = tmp_path / "d.jsonl"
    a = solve_draft(*settings, core=core, memory=MEMORY, exact_picks=exact, proofs=path)
    assert a.proofs_read == 0 and a.proofs_written > 0
    assert (a.value, picks(a), a.line) == (ref.value, picks(ref), ref.line)
    b = solve_draft(*settings, core=core, memory=MEMORY, exact_picks=exact, proofs=path)
    assert b.proofs_read == a.proofs_written
    assert (b.value, picks(b), b.line, b.play) == (ref.value, picks(ref), ref.line, ref.play)
    assert b.leaves < a.leaves / 4, (a.leaves, b.leaves)


@pytest.mark.usefixtures("every_proof")
def test_a_run_stopped_by_its_time_limit_goes_on_from_the_file(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    ref = solve_draft(2, 4, core="python", exact_picks=False)
    stopped = solve_draft(2, 4, core="python", exact_picks=False, time_limit=0.3, proofs=path)
    assert ref.value is not None
    assert stopped.lower <= ref.value <= stopped.upper
    done = solve_draft(2, 4, core="python", exact_picks=False, proofs=path)
    assert done.proofs_read == stopped.proofs_written > 0
    assert (done.value, picks(done)) == (ref.value, picks(ref))


@pytest.mark.usefixtures("every_proof")
def test_a_line_cut_short_is_dropped_and_the_file_made_whole(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    solve_draft(2, 3, core="python", play=False, proofs=path)
    lines = path.read_text().splitlines()
    with path.open("a") as f:  # as if killed while writing a line
        f.write('{"l": [3, 4')
    again = solve_draft(2, 3, core="python", play=False, proofs=path)
    assert again.proofs_read == len(lines) - 1 and again.value == 0
    assert all(json.loads(line) for line in path.read_text().splitlines())


def test_files_of_other_drafts_or_broken_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "d.jsonl"
    solve_draft(2, 3, core="python", play=False, proofs=path)
    for settings, what in (
        ((2, 3, 1, "diff", 0), "first picker 1, not 2"),
        ((2, 3, 0, "diff", 1), "player 1, not 2"),
        ((2, 2, 0, "diff", 0), "hand size 3, not 2"),
        ((3, 1, 0, "paranoid", 0), "number of players 2, not 3"),
    ):
        with pytest.raises(SolverError, match=f"another draft .{what}"):
            solve_draft(*settings, core="python", play=False, proofs=path)
    header = path.read_text().splitlines()[0]
    cases = {
        "not a take6 draft proofs file": "garbage\n",
        "version 9, this take6 reads 1": header.replace('"version":1', '"version":9') + "\n",
        "line 2 is not a proof": header + '\n{"l": [1, 2], "lo": "x", "hi": "1"}\n',
        "line 2 is not a proof ": header + '\n{"n": [1], "lo": "0", "hi": "1", "b": 3}\n',
        "line 3 contradicts an earlier line": header
        + '\n{"l": [1, 2], "lo": "0", "hi": "1"}\n{"l": [1, 2], "lo": "2", "hi": "3"}\n',
        "line 3 contradicts an earlier line ": header
        + '\n{"s": [1, 2], "seat": 0, "safe": true}\n{"s": [1, 2], "seat": 0, "safe": false}\n',
    }
    for message, text in cases.items():
        bad = tmp_path / "bad.jsonl"
        bad.write_text(text)
        with pytest.raises(SolverError, match=message.strip()):
            solve_draft(2, 3, core="python", play=False, proofs=bad)
    # the command line: one line, exit 2
    assert main(["draft", "--hand-size", "3", "--first-picker", "2", "--proofs", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "another draft (first picker 1, not 2)" in err
    assert main(["draft", "--hand-size", "3", "--safety", "--proofs", str(path)]) == 2
    assert "does not apply to --safety" in capsys.readouterr().err
    assert main(["draft", "--hand-size", "3", "--proofs", str(tmp_path / "no" / "f")]) == 2
    assert "No such file or directory" in capsys.readouterr().err


def test_a_file_in_use_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    want = proofs_module.header(2, 3, 0, "diff", 0, {})
    first = proofs_module.DraftProofs(path, want, 2)
    try:
        with pytest.raises(SolverError, match="in use by another run"):
            proofs_module.DraftProofs(path, want, 2)
    finally:
        first.close()


def test_kill_9_then_resume(tmp_path: Path) -> None:
    # The Python search of 2 x 5 takes about half a minute: the kill lands mid-run, after the
    # first flushes of proofs (every 2 s).
    path = tmp_path / "k.jsonl"
    cmd = [sys.executable, "-m", "take6.cli.main", "draft", "--hand-size", "5", "--core"]
    cmd += ["python", "--pick-values", "bounds", "--proofs", str(path), "--no-progress"]
    proc = subprocess.Popen(
        cmd,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline:
            if path.exists() and path.read_text().count("\n") >= 20:
                break
            time.sleep(0.02)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    kept = path.read_text().count("\n") - 1
    assert kept >= 19
    core = CORES[-1]  # the file is the same on both cores: the fast one finishes the draft
    fresh = solve_draft(2, 5, core=core, memory=MEMORY, exact_picks=False)
    resumed = solve_draft(2, 5, core=core, memory=MEMORY, exact_picks=False, proofs=path)
    assert resumed.proofs_read == kept
    assert (resumed.value, picks(resumed), resumed.line) == (fresh.value, picks(fresh), fresh.line)
    assert resumed.value == 0


@pytest.mark.usefixtures("every_proof")
def test_study_drafts_keep_each_items_proofs(tmp_path: Path) -> None:
    study = DraftStudy(hand_sizes=(4,), first_pickers=(0,), by_first_pick=True)
    folder = tmp_path / "proofs"
    a = run_study(tmp_path / "a.sqlite", study, proofs=folder)
    study_run._WARM.clear()  # (a worker's search kept for its next item: not this test's point)
    files = sorted(p.name for p in (folder / "drafts").iterdir())
    assert len(files) == 12 and "k4-first0-pick12.proofs.jsonl" in files
    # another store over the same proofs: the same rows, the leaves read back
    b = run_study(tmp_path / "b.sqlite", study, proofs=folder)
    assert a.solved == b.solved == 12

    keys = ("item", "value", "lower", "upper")
    got = [[tuple(r[k] for k in keys) for r in rows_of(tmp_path, n)] for n in "ab"]
    assert got[0] == got[1] and len(got[0]) == 12
    leaves = [json.loads(r["summary"])["leaves"] for n in "ab" for r in rows_of(tmp_path, n)]
    assert sum(leaves[12:]) < sum(leaves[:12]) / 4, leaves
    with pytest.raises(StudyError, match="proofs files are for draft studies"):
        run_study(tmp_path / "c.sqlite", DealStudy(hand_sizes=(2,), deals=1), proofs=folder)
    with pytest.raises(StudyError, match="is a file, not a folder"):
        run_study(tmp_path / "d.sqlite", study, proofs=folder / "drafts" / files[0])


def rows_of(folder: Path, name: str) -> list[Row]:
    with Store(folder / f"{name}.sqlite", create=False) as db:
        return db.rows("drafts")


def test_a_file_that_contradicts_the_search_is_refused(tmp_path: Path) -> None:
    ds = DraftSearch(2, 3, core="python")
    solve_draft(2, 3, search=ds, play=False)
    key, (lo, _) = next((k, v) for k, v in ds.leaves.items() if v[0] == v[1])
    path = tmp_path / "d.jsonl"
    head = proofs_module.header(2, 3, 0, "diff", 0, rules_to_json(draft_rules(2, 3, 0)))
    line = {"l": list(key), "lo": str(lo + 1), "hi": str(lo + 2)}
    path.write_text(json.dumps(head) + "\n" + json.dumps(line) + "\n")
    with pytest.raises(SolverError, match="contradicts what this search has proven"):
        solve_draft(2, 3, search=ds, play=False, proofs=path)
    assert ds.proofs is None  # (released)


@pytest.mark.usefixtures("every_proof")
def test_a_batchs_items_share_their_proofs(tmp_path: Path) -> None:
    # one first pick of 2 x 4 solved with its file; another pick then reads that file too
    f12, f11 = tmp_path / "pick12.proofs.jsonl", tmp_path / "pick11.proofs.jsonl"
    other = tmp_path / "other.proofs.jsonl"  # another draft's file: passed over
    solve_draft(2, 4, 1, core="python", only_pick=12, exact_picks=False, proofs=other)
    solve_draft(2, 4, core="python", only_pick=12, exact_picks=False, proofs=f12)
    alone = solve_draft(2, 4, core="python", only_pick=11, exact_picks=False)
    shared = solve_draft(
        2,
        4,
        core="python",
        only_pick=11,
        exact_picks=False,
        proofs=f11,
        shared_proofs=[f12, other, f11],
    )
    assert picks(shared) == picks(alone)
    assert shared.leaves < alone.leaves, (shared.leaves, alone.leaves)
    assert f12.read_text().count("\n") >= 2 and shared.proofs_read == 0  # (its own file: new)
    broken = tmp_path / "broken.proofs.jsonl"
    broken.write_text(f12.read_text().splitlines()[0] + "\nnot a proof\n")
    with pytest.raises(SolverError, match="line 2 is not a proof"):
        solve_draft(2, 4, core="python", only_pick=11, proofs=f11, shared_proofs=[broken])


@pytest.mark.parametrize(
    ("path", "players", "k", "objective", "heads", "first"),
    [
        ("draft8/draft8.proofs.jsonl", 2, 8, "diff", 30, 0),
        ("draft3k4/draft3k4.proofs.jsonl", 3, 4, "paranoid", 24, 0),
        ("draft3k4/draft3k4-picker3.proofs.jsonl", 3, 4, "paranoid", 24, 2),
        ("draft3k4/draft3k4-picker2.proofs.jsonl", 3, 4, "paranoid", 24, 1),
    ],
)
def test_the_carried_draft_proofs_are_of_their_drafts(
    path: str, players: int, k: int, objective: str, heads: int, first: int
) -> None:
    # data/draft8/ and data/draft3k4/: the 2-player k = 8 and 3-player k = 4 drafts' proofs,
    # carried from session to session (their READMEs); they must read back under the current
    # rules and header, bounds in order.
    want = proofs_module.header(
        players, k, first, objective, 0, rules_to_json(draft_rules(players, k, first))
    )
    got = proofs_module.DraftProofs(ROOT / "data" / path, want, players, readonly=True)
    assert got.read_lines > 10_000 and got.written == 0
    assert got.leaves and got.nodes and got.safe
    full = (1 << (players * k + 4)) - 1
    for masks in [*got.nodes, *got.leaves, *(m for m, _ in got.safe)]:
        assert sum(m.bit_count() for m in masks) == sum(masks).bit_count()  # disjoint
        assert sum(masks) & ~full == 0
    low = -heads if objective == "diff" else 0  # (the deck's heads; paranoid: one seat's)
    for lo, hi in [*(v[:2] for v in got.nodes.values()), *got.leaves.values()]:
        assert low <= lo <= hi <= heads


@pytest.mark.skipif(not native.AVAILABLE, reason="the compiled core is not built")
def test_the_carried_3_player_k4_proofs_prove_its_value(tmp_path: Path) -> None:
    """data/draft3k4/ is the 3-player k = 4 draft solved (session 44): read back on a copy (a
    run appends), it proves the value 3 with first pick 16 alone optimal, and what the file says
    of the other picks, in seconds (about 2 hours of search went into it)."""
    from fractions import Fraction

    copy = tmp_path / "d.proofs.jsonl"
    copy.write_bytes((ROOT / "data" / "draft3k4" / "draft3k4.proofs.jsonl").read_bytes())
    got = solve_draft(3, 4, objective="paranoid", exact_picks=False, proofs=copy, memory=1 << 30)
    assert got.solved and got.value == 3 and got.best_picks() == [16]
    by_card = {p.card: p for p in got.picks}
    assert by_card[3].value == Fraction(88, 23) and by_card[12].value == Fraction(53, 14)
    assert all(p.lower > 3 for p in got.picks if p.card != 16)
    assert got.proofs_read > 300_000 and got.nodes < 100_000
