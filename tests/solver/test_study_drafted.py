"""Deal studies drawn by a draft of bots (``--draft``), deal studies solved by cells (``--cells``,
resumable within an item), and items stopped by Ctrl-C, which are never stored."""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from solver_helpers import ctrl_c_default

from solver import api, native
from solver.cells import solve_by_cells
from solver.draft.solve import solve_draft
from solver.study import run as run_module
from solver.study.run import (
    cells_path,
    drafted_position,
    leaf_progress,
    prepare,
    run_study,
    run_task,
    study_position,
)
from solver.study.spec import DealStudy, DraftStudy, StudyError
from solver.study.store import Store
from take6.cards import HEADS
from take6.cli.main import main
from take6.notation import format_position

ROOT = Path(__file__).resolve().parents[2]


def rows(store: Path, study: str | None = None) -> list[dict[str, Any]]:
    with Store(store, create=False) as db:
        out = db.rows(study)
    for r in out:
        del r["seconds"]
    return out


# -- drafted deals --------------------------------------------------------------------------
def naive_safe_draft(players: int, k: int, first: int) -> tuple[list[list[int]], list[int]]:
    """The draft of ``safe`` bots written out from its rule: the card with fewest heads, then
    nearest the middle of the deck, then the lowest; seats in turn from ``first``."""
    deck = list(range(1, players * k + 5))
    mid = (deck[0] + deck[-1]) / 2
    hands: list[list[int]] = [[] for _ in range(players)]
    seat = first
    for _ in range(players * k):
        card = min(deck, key=lambda c: (HEADS[c], abs(c - mid), c))
        deck.remove(card)
        hands[seat].append(card)
        seat = (seat + 1) % players
    return [sorted(h) for h in hands], sorted(deck)


@pytest.mark.parametrize(("players", "k", "first"), [(2, 3, 0), (2, 10, 0), (2, 10, 1), (3, 4, 2)])
def test_a_safe_draft_is_the_safe_rule_written_out(players: int, k: int, first: int) -> None:
    pos, chance = drafted_position(k, 0, 0, players, ("safe",) * players, first)
    hands, rest = naive_safe_draft(players, k, first)
    assert chance == 0
    assert [sorted(h) for h in pos.hands] == hands
    assert sorted(r[0] for r in pos.rows) == rest and all(len(r) == 1 for r in pos.rows)
    assert pos.rules.deck_size == players * k + 4


def test_the_first_picker_swaps_a_safe_drafts_hands() -> None:
    a, _ = drafted_position(10, 0, 0, 2, ("safe", "safe"), 0)
    b, _ = drafted_position(10, 0, 0, 2, ("safe", "safe"), 1)
    assert a.hands == b.hands[::-1] and a.rows == b.rows


def test_random_picks_come_from_the_items_seed() -> None:
    bots = ("safe", "random")
    a, chance = drafted_position(5, 3, 7, 2, bots)
    assert chance == 5  # each of the random seat's picks had a choice
    assert drafted_position(5, 3, 7, 2, bots)[0] == a
    others = {drafted_position(5, i, 7, 2, bots)[0] for i in range(8)}
    assert len(others) > 4
    assert drafted_position(5, 3, 8, 2, bots)[0] != a


def test_a_drafted_study_stores_the_drafted_deals(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    study = DealStudy(hand_sizes=(3, 4), deals=4, seed=2, draft=("cheapest", "safe"))
    assert study.draft == ("cheapest", "safe")
    assert study.params()["draft"] == ["cheapest", "safe"]
    run_study(store, study)
    got = rows(store)
    assert len(got) == 8
    for r, task in zip(got, study.tasks(), strict=True):
        pos = study_position(task)
        assert r["position"] == format_position(pos)
        assert r["first_picker"] == 0 and r["solved"] == 1
        value, _ = api.solve(pos)
        assert Fraction(r["value"]) == value.value
    # the shuffled study's parameters are unchanged by the new settings
    assert "draft" not in DealStudy(hand_sizes=(3,), deals=1).params()


def test_one_bot_drafts_for_every_seat() -> None:
    assert (
        DealStudy(hand_sizes=(2,), deals=1, players=3, draft=("random",)).draft == ("random",) * 3
    )


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"draft": ("nobody",)}, "unknown drafting bot 'nobody' (known: random, cheapest, safe)"),
        (
            {"draft": ("safe", "safe", "safe")},
            "give one drafting bot, or one for each of the 2 seats, got 3 (safe,safe,safe)",
        ),
        ({"first_picker": 1}, "a first picker needs a draft"),
        ({"draft": ("safe",), "first_picker": 2}, "first picker must be a seat 0..1, got 2"),
    ],
)
def test_bad_draft_settings_are_one_line_errors(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(StudyError, match=re.escape(message)):
        DealStudy(hand_sizes=(3,), deals=1, **settings)


def test_a_draft_that_draws_nothing_is_one_deal(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    with pytest.raises(StudyError, match="all 3 deals would be the same one"):
        prepare(store, DealStudy(hand_sizes=(3,), deals=3, draft=("safe",)))
    prepare(store, DealStudy(hand_sizes=(3,), deals=1, draft=("safe",)))


def test_the_cli_draws_drafted_deals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "s.sqlite")
    args = ["study", "deals", "--hand-size", "3", "--deals", "1", "--store", store]
    assert main([*args, "--draft", "safe", "--first-picker", "2", "--no-progress"]) == 0
    (r,) = rows(Path(store))
    pos, _ = drafted_position(3, 0, 0, 2, ("safe", "safe"), 1)
    assert r["position"] == format_position(pos) and r["first_picker"] == 1
    capsys.readouterr()
    assert main([*args, "--study", "b", "--first-picker", "2"]) == 2
    assert "--first-picker needs --draft" in capsys.readouterr().err
    assert main([*args, "--study", "c", "--draft", "safe", "--first-picker", "3"]) == 2
    assert "--first-picker must be a seat 1..2, got 3" in capsys.readouterr().err
    assert main([*args, "--study", "d", "--draft", "safe,bogus"]) == 2
    assert "unknown drafting bot 'bogus'" in capsys.readouterr().err


# -- by cells -------------------------------------------------------------------------------
def test_a_study_by_cells_stores_the_same_rows(tmp_path: Path) -> None:
    for study in (
        DealStudy(hand_sizes=(3, 4), deals=4, seed=1),
        DealStudy(hand_sizes=(2, 3), deals=3, seed=4, players=3),
    ):
        plain, cells = tmp_path / f"p{study.players}.sqlite", tmp_path / f"c{study.players}.sqlite"
        run_study(plain, study)
        run_study(cells, study, cells=tmp_path / "cells", name=f"deals{study.players}")
        a, b = rows(plain), rows(cells)
        for x, y in zip(a, b, strict=True):
            for col in ("position", "value", "lower", "upper", "solved"):
                assert x[col] == y[col], (x["item"], col)
        folder = tmp_path / "cells" / f"deals{study.players}"
        assert sorted(p.name for p in folder.iterdir()) == sorted(
            f"k{t.hand_size}-deal{t.deal}.cells.jsonl" for t in study.tasks()
        )


def test_an_item_stopped_part_way_goes_on_from_its_cells_file(tmp_path: Path) -> None:
    study = DealStudy(hand_sizes=(6,), deals=1, seed=3)
    (task,) = study.tasks()
    folder = tmp_path / "cells" / "deals"
    folder.mkdir(parents=True)
    path = cells_path(folder, task)
    pos = study_position(task)
    part, _ = solve_by_cells(pos, path, node_limit=300, core="python")  # a first, cut-off run
    assert not part.solved
    lines = path.read_text().count("\n")
    store = tmp_path / "s.sqlite"
    run_study(store, study, cells=tmp_path / "cells")
    (r,) = rows(store)
    whole, _ = api.solve(pos)
    assert r["solved"] == 1 and Fraction(r["value"]) == whole.value
    assert path.read_text().count("\n") > lines  # the same file, carried on
    assert Fraction(part.lower) <= whole.value <= Fraction(part.upper)
    # the row's nodes are this run's; its summary has the work of both runs, from the file
    work = json.loads(r["summary"])["cells"]
    assert work["nodes"] > r["nodes"] >= 1 and work["seconds"] >= 0
    assert work["nodes"] == sum(
        json.loads(line).get("nodes", 0) for line in path.read_text().splitlines()[1:]
    )


def test_cells_settings_are_refused_in_one_line(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    with pytest.raises(StudyError, match="give no node limit"):
        run_study(store, DealStudy(hand_sizes=(2,), deals=1, node_limit=10), cells=tmp_path)
    with pytest.raises(StudyError, match="cells files are for deal studies"):
        run_study(store, DraftStudy(hand_sizes=(1,)), cells=tmp_path)
    afile = tmp_path / "file"
    afile.write_text("")
    with pytest.raises(StudyError, match="is a file, not a folder"):
        run_study(store, DealStudy(hand_sizes=(2,), deals=1), name="x", cells=afile)
    with pytest.raises(StudyError, match="threads must be at least 1"):
        run_study(store, DealStudy(hand_sizes=(2,), deals=1), name="y", threads=0)


# -- Ctrl-C ---------------------------------------------------------------------------------
def test_an_interrupted_deal_is_not_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = api.solve

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        result, search = real(*args, **kwargs)
        return replace(result, solved=False, interrupted=True), search

    monkeypatch.setattr("solver.study.run.solve", interrupted)
    store = tmp_path / "s.sqlite"
    with pytest.raises(KeyboardInterrupt):
        run_study(store, DealStudy(hand_sizes=(3,), deals=2))
    assert rows(store) == []
    monkeypatch.setattr("solver.study.run.solve", real)
    run_study(store, DealStudy(hand_sizes=(3,), deals=2))
    assert [r["solved"] for r in rows(store)] == [1, 1]


def test_an_interrupted_draft_is_not_stored(monkeypatch: pytest.MonkeyPatch) -> None:
    real = solve_draft

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        result.solved, result.interrupted = False, True
        return result

    monkeypatch.setattr("solver.study.run.solve_draft", interrupted)
    (task,) = DraftStudy(hand_sizes=(2,), first_pickers=(0,)).tasks()
    with pytest.raises(KeyboardInterrupt):
        run_task(task)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals as on Linux")
def test_ctrl_c_in_one_process_stores_no_cut_off_item(tmp_path: Path) -> None:
    """The run in this process (``--workers 1``): Ctrl-C during a search ends the run with
    exit 130 and stores nothing for the item under way (it used to be stored unsolved, with
    bounds, for good)."""
    store = tmp_path / "s.sqlite"
    cmd = [sys.executable, "-m", "take6.cli.main", "study", "deals", "--hand-size", "8"]
    cmd += ["--deals", "1", "--workers", "1", "--memory", "256M", "--store", str(store)]
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=ctrl_c_default,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # until the study is registered: the search is on
        if store.exists() and prepare_done(store):
            break
        time.sleep(0.05)
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    assert err.decode().strip().splitlines()[-1] == "take6: interrupted"
    assert rows(store) == []


def prepare_done(store: Path) -> bool:
    try:
        with Store(store, create=False) as db:
            return bool(db.studies())
    except StudyError:
        return False


def test_a_drafted_studys_data_card_says_how_its_deals_were_drawn(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    from solver.study.dataset import write_dataset

    store = tmp_path / "s.sqlite"
    run_study(store, DealStudy(hand_sizes=(3,), deals=2, draft=("safe", "random")), name="sr")
    write_dataset(store, tmp_path / "data")
    card = (tmp_path / "data" / "README.md").read_text()
    assert "take6-study-draft seed=0 players=2" in card
    assert "seat 0: `safe`, seat 1: `random`" in card
    assert "--draft safe,random --first-picker 1" in card


def test_status_shows_the_deals_in_progress_by_cells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store, cells = tmp_path / "s.sqlite", tmp_path / "cells"
    study = DealStudy(hand_sizes=(6,), deals=2, seed=3)
    run_study(store, DealStudy(hand_sizes=(6,), deals=2, seed=3), cells=cells)
    with Store(store) as db:  # deal 1 as if a run had stopped part-way: no row, a cut-off file
        db.conn.execute("DELETE FROM results WHERE item = 'k=6 deal=1'")
    task = study.task(6, 1)
    path = cells_path(cells / "deals", task)
    path.unlink()
    part, _ = solve_by_cells(study_position(task), path, node_limit=300, core="python")
    assert not part.solved
    assert main(["study", "status", "--store", str(store), "--cells", str(cells)]) == 0
    out = capsys.readouterr().out
    assert "deals (deals): 1/2 done" in out
    assert "  k=6 deal=1, in progress by cells: " in out and "k=6 deal=0," not in out
    assert main(["study", "status", "--store", str(store), "--cells", str(cells), "--json"]) == 0
    (info,) = json.loads(capsys.readouterr().out)
    (going,) = info["in_progress"]
    assert going["item"] == "k=6 deal=1" and going["solved"] is False
    assert Fraction(going["lower"]) == part.lower and Fraction(going["upper"]) == part.upper
    assert main(["study", "status", "--store", str(store), "--cells", str(tmp_path / "no")]) == 2
    assert "no such folder" in capsys.readouterr().err
    # the next run takes the item up again from its file
    run_study(store, study, cells=cells)
    assert [r["solved"] for r in rows(store)] == [1, 1]


def test_a_deal_by_cells_in_this_process_says_where_it_is(tmp_path: Path) -> None:
    heard: list[str] = []
    study = DealStudy(hand_sizes=(5,), deals=2, seed=1)
    run_study(tmp_path / "s.sqlite", study, cells=tmp_path / "c", item_status=heard.append)
    assert heard and all(t.startswith(("k=5 deal=0: cells ", "k=5 deal=1: cells ")) for t in heard)
    assert any("restricted game" in t for t in heard)
    assert {t.split(":")[0] for t in heard} == {"k=5 deal=0", "k=5 deal=1"}


class _SlowPool(cf.ThreadPoolExecutor):
    """A pool whose items wait before and after they run: what a heartbeat sees of items on
    workers (their cells file not yet begun, then proving the value)."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        def slow() -> Any:
            time.sleep(0.3)
            out = fn(*args, **kwargs)
            time.sleep(0.3)
            return out

        return super().submit(slow)


def test_items_on_workers_say_where_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_module, "HEARTBEAT", 0.02)
    monkeypatch.setattr(run_module, "CELLS_EVERY", 0.0)
    heard: list[str] = []
    counts: list[tuple[int, int]] = []
    study = DealStudy(hand_sizes=(5,), deals=2, seed=1)
    with _SlowPool(max_workers=2) as pool:
        run_study(
            tmp_path / "s.sqlite",
            study,
            executor=pool,
            window=2,
            cells=tmp_path / "c",
            item_status=heard.append,
            progress=lambda done, total: counts.append((done, total)),
        )
    assert heard[0] == "2 not begun", heard[:3]
    assert any("value" in t for t in heard), heard
    values = {r["item"]: Fraction(r["value"]) for r in rows(tmp_path / "s.sqlite")}
    seen = set()
    for t in heard:  # what each file proves as it stands: the stored value, or bounds of it
        for part in t.split("; "):
            if part.endswith(" not begun"):
                seen.add("not begun")
                continue
            item, what = part.split(": ", 1)
            assert "not readable" not in what, what
            if what.startswith("value "):
                assert Fraction(what.removeprefix("value ")) == values[item]
            else:
                m = re.fullmatch(r"(\S+)\.\.(\S+), (\d+)/25 cells exact", what)
                assert m is not None, what
                assert Fraction(m.group(1)) <= values[item] <= Fraction(m.group(2))
            seen.add(what.split(" ")[0])
    assert {"not begun", "value"} <= seen
    assert counts[0] == (0, 2) and counts[-1] == (2, 2)


def test_items_on_workers_without_cells_keep_the_clock_going(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_module, "HEARTBEAT", 0.02)
    heard: list[str] = []
    counts: list[tuple[int, int]] = []
    with _SlowPool(max_workers=1) as pool:
        run_study(
            tmp_path / "s.sqlite",
            DealStudy(hand_sizes=(3,), deals=1, seed=1),
            executor=pool,
            item_status=heard.append,
            progress=lambda done, total: counts.append((done, total)),
        )
    assert not heard  # nothing to tell of an item without a cells file
    assert counts.count((0, 1)) > 5 and counts[-1] == (1, 1)


@pytest.mark.skipif(not native.AVAILABLE, reason="the compiled core is not built")
def test_one_worker_shows_the_leaf_search_under_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In this process a deal by cells tells its double oracle's steps and, between them, the
    # leaf search under way (its nodes, clock and bounds), so the line moves during a long leaf.
    monkeypatch.setattr(native, "PROGRESS_EVERY", 0.0)
    heard: list[str] = []
    run_study(
        tmp_path / "s.sqlite",
        DealStudy(hand_sizes=(6,), deals=1, seed=3),
        cells=tmp_path / "c",
        item_status=heard.append,
    )
    leaf = [t for t in heard if "  |  nodes " in t]
    assert leaf, heard[:5]
    for t in leaf:
        where, search = t.split("  |  ")
        assert where.startswith("k=6 deal=0: "), t
        m = re.fullmatch(r"nodes \S+  leaf \d+:\d\d:\d\d  in \[(\S+), (\S+)\]", search)
        assert m is not None, t
        assert float(m.group(1)) <= float(m.group(2)), t
    assert len(heard) > len(leaf)  # the double oracle's own words too
    assert rows(tmp_path / "s.sqlite")[0]["solved"] == 1


def test_leaf_progress_reads_short() -> None:
    text = leaf_progress(1_234_567_890, 3725.4, Fraction(-3), Fraction(5, 2))
    assert text == "nodes 1.2G  leaf 1:02:05  in [-3, 2.5000]"


def _section(readme: str, head: str) -> str:
    """The README's paragraphs from the one that starts with ``head`` to the next in bold."""
    start = readme.index(head)
    end = readme.find("\n\n**", start + len(head))
    return readme[start : end if end >= 0 else len(readme)]


def _rows_shown(table: str) -> list[str]:
    """The README table's rows of deals, without their last column (safe's gaps)."""
    return re.findall(r"^(\| \d+ \| `.*) \| [^|]* / [^|]* \|$", table, flags=re.MULTILINE)


def _rows_printed(out: str) -> list[str]:
    """The rows of deals that ``bench/k10_study.py --no-bots`` prints."""
    return re.findall(r"^(\| \d+ \| `.*) \|$", out, flags=re.MULTILINE)


def test_the_readmes_k10_study_table_is_what_the_carried_files_prove(tmp_path: Path) -> None:
    # Each solved row of the README's table of the k = 10 study: the study's deal, its value and
    # first cards as the carried cells file proves them (read back, no search), the optimality
    # argument re-done from the file's bounds in the whole 10 x 10 root game.
    readme = (ROOT / "README.md").read_text()
    table = _section(readme, "**Random real-size deals: a study.**")
    found = re.findall(
        r"^\| (\d+) \| `([^`]*)` \| ([-+]\d+\.\d+) \([^|]*\| ([^|]*) \| ([^|]*) \|",
        table,
        flags=re.MULTILINE,
    )
    assert len(found) >= 5
    study = DealStudy(hand_sizes=(10,), deals=10, seed=0)
    folder = ROOT / "data" / "k10" / "study" / "k10"
    for deal, shown, value, first1, first2 in found:
        task = study.task(10, int(deal))
        pos = study_position(task)
        assert shown.replace(" \\| ", "|") == format_position(pos).split(" ", 1)[1]
        path = tmp_path / f"{deal}.jsonl"
        path.write_bytes((folder / f"k10-deal{deal}.cells.jsonl").read_bytes())
        got, run = solve_by_cells(pos, path, node_limit=1, memory=1 << 24, threads=1)
        assert got.solved and run.stats.searches == 0 and got.value is not None, deal
        assert f"{float(got.value):+.6f}" == value, deal
        assert run.solution is not None
        v, x, y = run.solution
        for shown_cards, support, actions in ((first1, x, run.rows), (first2, y, run.cols)):
            cards = {int(c) for c in re.findall(r"(?:^|, )(\d+)", shown_cards)}
            assert cards == {actions[i][0] for i in support}, (deal, shown_cards)
        for i in range(len(run.rows)):
            assert sum((p * run.cell(i, j)[1] for j, p in y.items()), Fraction(0)) <= v
        for j in range(len(run.cols)):
            assert sum((p * run.cell(i, j)[0] for i, p in x.items()), Fraction(0)) >= v


def test_the_bench_script_prints_the_readmes_k10_study_table() -> None:
    # bench/k10_study.py (the README's command for the table) reads the carried files and prints
    # the README's rows; without the bots' best replies, all but the last column.
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "k10_study.py"), "--no-bots"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    readme = (ROOT / "README.md").read_text()
    table = _section(readme, "**Random real-size deals: a study.**")
    shown, printed = _rows_shown(table), _rows_printed(out)
    assert len(shown) >= 5 and printed[: len(shown)] == shown
    exact = re.search(r"^(\d+) of 10 deals exact: values from (\S+) to (\S+) ", out, re.MULTILINE)
    assert exact is not None and int(exact.group(1)) == len(printed), out


def test_the_safe_drafted_k10_deal_and_its_mirror_are_worth_exact_opposites(tmp_path: Path) -> None:
    # The README's deal drafted by two safe bots: the carried files of the two first pickers are
    # the solves of one deal with the hands swapped (the draft has no chance in it), read back
    # with no search, and their values are exact opposites, the README's fraction.
    readme = (ROOT / "README.md").read_text()
    text = _section(readme, "**A real-size deal drafted by `safe`.**")
    m = re.search(r"\*\*(\d+)/(\d+) ≈ \+(\d+\.\d+)\*\*", text)
    assert m is not None
    stated = Fraction(int(m.group(1)), int(m.group(2)))
    values = []
    for first, name in ((0, "k10-safe"), (1, "k10-safe-2")):
        study = DealStudy(hand_sizes=(10,), deals=1, seed=0, draft=("safe",), first_picker=first)
        task = study.task(10, 0)
        assert task.draft == ("safe", "safe") and task.first_picker == first
        pos = study_position(task)
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(
            (ROOT / "data" / "k10" / "study" / name / "k10-deal0.cells.jsonl").read_bytes()
        )
        got, run = solve_by_cells(pos, path, node_limit=1, memory=1 << 24, threads=1)
        assert got.solved and run.stats.searches == 0 and got.value is not None, name
        values.append((pos, got.value))
    (pos1, v1), (pos2, v2) = values
    assert pos2.rows == pos1.rows and pos2.hands == pos1.hands[::-1]
    assert v1 == stated == -v2 and f"{float(v1):.6f}" == m.group(3)
    shown = re.search(r"With player 1 picking first, `([^`]*)`", text)
    assert shown is not None
    assert shown.group(1).replace(" | ", "|") == format_position(pos1).split(" ", 1)[1]


def test_the_readmes_safe_random_k10_table_is_what_the_bench_script_prints() -> None:
    # The README's table of the k = 10 deals drafted by safe against random: the rows that
    # bench/k10_study.py prints from the carried files (without safe's gaps, all but the last
    # column), the deals' positions those of the study's drafts.
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "k10_study.py"),
            "--no-bots",
            "--study",
            "k10-safe-random",
            "--draft",
            "safe,random",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    table = _section((ROOT / "README.md").read_text(), "**Drafted by `safe` against `random`.**")
    shown, printed = _rows_shown(table), _rows_printed(out)
    assert len(shown) >= 4 and printed == shown
    study = DealStudy(hand_sizes=(10,), deals=10, seed=0, draft=("safe", "random"))
    for line in shown:
        deal, position = re.match(r"\| (\d+) \| `([^`]*)`", line).groups()  # type: ignore[union-attr]
        pos = study_position(study.task(10, int(deal)))
        assert position.replace(" \\| ", "|") == format_position(pos).split(" ", 1)[1]
