"""Drafts studied one first pick an item (``take6 study drafts --by-first-pick``): the best of
the picks' rows is the whole draft's value with the same optimal first picks, for 2-player
``diff`` and 3-player ``paranoid`` drafts from every first picker; a run killed with ``kill -9``
resumes pick by pick to the same rows; the status shows bounds while picks are missing."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from solver.draft.solve import DraftError, DraftSearch, solve_draft
from solver.study.export import export_jsonl
from solver.study.run import run_study
from solver.study.spec import DraftStudy, StudyError
from solver.study.store import Store
from solver.study.summary import draft_summaries, first_picker_maximises
from take6.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def summaries(store: Path, name: str = "drafts") -> list[Any]:
    with Store(store, create=False) as db:
        info = next(i for i in db.studies() if i.study == name)
        return draft_summaries(db.rows(name), info.params)


@pytest.mark.parametrize(
    ("players", "objective", "player", "sizes"),
    [
        (2, "diff", 0, (1, 2, 3, 4)),
        (2, "diff", 1, (2, 3)),
        (3, "paranoid", 0, (1, 2)),
        (3, "paranoid", 2, (1,)),
    ],
)
def test_best_pick_is_the_draft_value(
    tmp_path: Path, players: int, objective: str, player: int, sizes: tuple[int, ...]
) -> None:
    study = DraftStudy(
        hand_sizes=sizes, players=players, objective=objective, player=player, by_first_pick=True
    )
    store = tmp_path / "picks.sqlite"
    report = run_study(store, study)
    assert report.solved == study.items() == sum(k * players + 4 for k in sizes) * players
    got = summaries(store)
    assert len(got) == len(sizes) * players
    for s in got:
        whole = solve_draft(players, s.hand_size, s.first_picker, objective, player, play=False)
        assert s.picks_done == s.picks
        assert s.value == whole.value and s.lower == s.upper == whole.value
        assert list(s.best) == whole.to_json()["best_picks"]


@pytest.mark.parametrize(
    ("players", "objective", "sizes"), [(2, "diff", (3, 4)), (3, "paranoid", (2,))]
)
def test_pick_values_bounds_by_first_pick(
    tmp_path: Path, players: int, objective: str, sizes: tuple[int, ...]
) -> None:
    # Each pick tested against 0 alone: the batch still knows the draft's value and its optimal
    # first picks, and every losing pick's row holds bounds that contain its exact value.
    study = DraftStudy(
        hand_sizes=sizes,
        first_pickers=(0,),
        players=players,
        objective=objective,
        by_first_pick=True,
        pick_values="bounds",
    )
    assert study.params()["pick_values"] == "bounds"
    store = tmp_path / "bounds.sqlite"
    run_study(store, study)
    for s in summaries(store):
        whole = solve_draft(players, s.hand_size, 0, objective, 0, play=False)
        assert s.picks_done == s.picks and s.value == whole.value
        assert list(s.best) == whole.to_json()["best_picks"]
    with Store(store, create=False) as db:
        rows = {
            (r["hand_size"], json.loads(r["summary"])["picks"][0]["card"]): r
            for r in db.rows("drafts")
        }
    bounded = 0
    for k in sizes:
        whole = solve_draft(players, k, 0, objective, 0, play=False)
        for p in whole.picks:
            row = rows[k, p.card]
            assert p.value is not None
            assert Fraction(row["lower"]) <= p.value <= Fraction(row["upper"])
            bounded += row["value"] is None
    assert bounded > 0  # the losing picks were bounded, not valued
    with pytest.raises(StudyError, match="pick values must be exact or bounds, got 'some'"):
        DraftStudy(hand_sizes=(2,), pick_values="some")


def test_side_of_the_first_picker() -> None:
    assert first_picker_maximises("diff", 0, 0) and not first_picker_maximises("diff", 1, 0)
    assert not first_picker_maximises("paranoid", 0, 0)
    assert first_picker_maximises("paranoid", 1, 0)


def test_one_pick_alone_and_bad_picks() -> None:
    whole = solve_draft(2, 3, 0, play=False)
    for p in whole.picks:
        one = solve_draft(2, 3, 0, only_pick=p.card)
        assert [q.card for q in one.picks] == [p.card]
        assert one.value == p.value and one.line == [] and one.position is None
    for bad, message in ((0, "not a card of the deck 1..10"), (11, "1..10"), (True, "card")):
        with pytest.raises(DraftError, match=message):
            solve_draft(2, 3, 0, only_pick=bad)


@pytest.mark.parametrize("core", ["python", "native"])
def test_a_reused_draft_search_gives_each_pick_its_own_value(core: str) -> None:
    # One search valuing one first pick after another (what a batch worker does): the same
    # values as fresh searches, and counters of each call alone.
    whole = solve_draft(2, 3, 0, play=False, core=core)
    warm = DraftSearch(2, 3, 0, core=core)
    for p in reversed(whole.picks):
        one = solve_draft(2, 3, 0, only_pick=p.card, search=warm)
        assert one.value == p.value
        assert one.nodes == warm.stats.nodes and one.picks[0].card == p.card
    asks: list[tuple[tuple[int, int, int, str, int], float | None, str]] = [
        ((2, 4, 0, "diff", 0), None, "hand size 3, first picker 1, diff for player 1, not"),
        ((2, 3, 1, "diff", 0), None, "not for the settings asked"),
        ((2, 3, 0, "diff", 1), None, "not for the settings asked"),
        ((2, 3, 0, "nonsense", 0), None, "not for the settings asked"),
        ((2, 3, 0, "diff", 0), 5.0, "takes no time limit"),
    ]
    for (players, k, first, objective, player), limit, message in asks:
        with pytest.raises(DraftError, match=message):
            solve_draft(
                players, k, first, objective, player, time_limit=limit, only_pick=3, search=warm
            )


def test_bounds_while_picks_are_missing(tmp_path: Path) -> None:
    study = DraftStudy(hand_sizes=(3,), first_pickers=(0, 1), by_first_pick=True)
    store = tmp_path / "part.sqlite"
    run_study(store, study)
    with Store(store, create=False) as db:
        rows = db.rows("drafts")
        params = db.studies()[0].params
    # Drop the rows of the optimal picks but one of seat 1's, and all but the first of seat 0's.
    part = [r for r in rows if r["first_picker"] == 1 and not r["item"].endswith("pick=1")]
    part += [r for r in rows if r["first_picker"] == 0][:1]
    s0, s1 = draft_summaries(part, params)
    assert (s0.picks_done, s0.value, s0.upper) == (1, None, None)
    assert s0.lower is not None  # the first picker gets at least its best pick so far
    assert s1.value is None and s1.lower is None and s1.upper == 0
    assert "9/10 first picks" in s1.text() and "value <= 0" in s1.text()


def test_cli_status_and_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "cli.sqlite"
    args = ["study", "drafts", "--hand-size", "2", "--by-first-pick", "--store", str(store)]
    assert main([*args, "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["study", "status", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "16/16 done" in out and "by_first_pick=True" in out
    assert "k=2 first picker 1: 8/8 first picks, draft value 0" in out
    assert main(["study", "status", "--store", str(store), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0]["drafts"][0]["value"] == "0" and data[0]["drafts"][0]["picks"] == 8
    out_file = tmp_path / "picks.jsonl"
    export_jsonl(store, out_file)
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert len(rows) == 16
    for r in rows:
        assert r["pick_cards"] == [int(r["item"].rsplit("pick=", 1)[1])]
        assert r["pick_values"] == [r["value"]]
    # A whole-draft study and a study by first pick are different studies.
    code = main(["study", "drafts", "--hand-size", "2", "--store", str(store), "--no-progress"])
    assert code == 2
    assert "other parameters" in capsys.readouterr().err


def _count(store: Path) -> int:
    try:
        with sqlite3.connect(store, timeout=10) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def test_kill_9_and_resume_pick_by_pick(tmp_path: Path) -> None:
    # 2 x 6: 16 first picks of about a second each on the compiled core. (2 x 5, whose picks
    # take some tens of milliseconds, once finished in CI on a loaded machine before the poll
    # below saw its second result.)
    study = DraftStudy(hand_sizes=(6,), first_pickers=(0,), by_first_pick=True)
    whole = tmp_path / "whole.sqlite"
    run_study(whole, study)
    store = tmp_path / "killed.sqlite"
    cmd = [sys.executable, "-m", "take6.cli.main", "study", "drafts", "--hand-size", "6"]
    cmd += ["--first-picker", "1", "--by-first-pick", "--store", str(store), "--no-progress"]
    proc = subprocess.Popen(
        [*cmd, "--workers", "1"],
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while _count(store) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    done = _count(store)
    assert 2 <= done < 16
    report = run_study(store, study)
    assert report.skipped == done and report.skipped + report.solved == 16
    assert summaries(store) == summaries(whole)
    assert summaries(store)[0].value == solve_draft(2, 6, 0, play=False).value == 0


def test_memory_is_a_setting_of_the_run_not_of_the_study(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "mem.sqlite"
    base = ["study", "drafts", "--hand-size", "2", "--by-first-pick", "--store", str(store)]
    assert main([*base, "--memory", "64M", "--no-progress", "--workers", "1"]) == 0
    capsys.readouterr()
    # The same study with another budget resumes it (nothing left to do), not a new study.
    assert main([*base, "--memory", "128M", "--no-progress", "--workers", "1"]) == 0
    assert "16 already done, 0 solved now" in capsys.readouterr().out
    assert main([*base, "--memory", "lots", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "lots" in err[0]
    with Store(store, create=False) as db:
        assert "memory" not in db.studies()[0].params


def test_a_first_pick_in_this_process_says_how_far_it_got(tmp_path: Path) -> None:
    """Each first-pick item run in this process reports its draft's progress (a pick at k = 8
    takes hours): the item, the phase, the counters, in order, safety before the values. The
    line names the first picker from 1, as all human output does; the store's item keys count
    seats from 0 like the rest of its data."""
    heard: list[str] = []
    study = DraftStudy(hand_sizes=(3,), first_pickers=(0,), by_first_pick=True)
    run_study(tmp_path / "s.sqlite", study, item_status=heard.append)
    items = {f"k=3 first picker 1 pick={c}" for c in range(1, 11)}
    assert {t.split(":")[0] for t in heard} == items
    with Store(tmp_path / "s.sqlite", create=False) as db:
        assert {str(r["item"]) for r in db.rows("drafts")} == {
            f"k=3 first=0 pick={c}" for c in range(1, 11)
        }
    for item in items:
        mine = [t.split(": ", 1)[1] for t in heard if t.startswith(item + ":")]
        assert mine[0].startswith("first picks bounded by safety ")
        # (then the pick's proven bounds, or its value once exact)
        assert re.match(
            r"first picks valued 1/1  (\S+ <= )?value (<= )?\S+  draft nodes ", mine[-1]
        )
        assert all("leaves " in t and "play nodes " in t for t in mine)
