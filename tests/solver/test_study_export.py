"""Exports of a study store (solver/study/export.py, solver/study/dataset.py): Parquet's
file-level metadata (studies, versions, git commit, time, schema), typed columns in place of
the summary JSON (checked against the solver), the same columns in CSV and JSON lines, and the
dataset directory with its data card."""

from __future__ import annotations

import csv
import datetime as dt
import json
import subprocess
import sys
from fractions import Fraction
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from solver.api import solve
from solver.study.dataset import FILES, datacard, write_dataset
from solver.study.export import (
    EXPORT_SCHEMA_VERSION,
    export_columns,
    export_csv,
    export_jsonl,
    export_parquet,
    fraction,
    git_commit,
)
from solver.study.run import code_version, deal_position, run_study
from solver.study.spec import DealStudy, DraftStudy, StudyError
from take6.cli.main import main
from take6.notation import parse_position

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pd = pytest.importorskip("pandas")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """2-player deals (k = 3, with mixed roots), 2-player drafts and a 3-player draft study."""
    path = tmp_path_factory.mktemp("export") / "s.sqlite"
    run_study(path, DealStudy(hand_sizes=(3,), deals=8, seed=5))
    run_study(path, DraftStudy(hand_sizes=(1, 2)))
    run_study(path, DraftStudy(hand_sizes=(1,), players=3), name="drafts-3p")
    return path


@pytest.fixture(scope="module")
def parquet(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pq") / "r.parquet"
    assert export_parquet(store, out) == 8 + 4 + 3
    return out


def test_metadata_carries_the_studies_versions_commit_time_and_schema(
    parquet: Path, store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = pq.read_metadata(parquet).metadata
    meta = {k.decode(): v.decode() for k, v in raw.items() if k.startswith(b"take6.")}
    assert set(meta) == {
        "take6.export_schema",
        "take6.store_schema",
        "take6.version",
        "take6.code_version",
        "take6.git_commit",
        "take6.created",
        "take6.rows",
        "take6.studies",
    }
    assert meta["take6.export_schema"] == str(EXPORT_SCHEMA_VERSION) == "1"
    assert meta["take6.store_schema"] == "1"
    assert meta["take6.version"] == metadata.version("take6")
    assert meta["take6.code_version"] == code_version()
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert meta["take6.git_commit"] in (head, f"{head}-dirty")
    assert git_commit() == meta["take6.git_commit"]
    created = dt.datetime.fromisoformat(meta["take6.created"])
    assert created.tzinfo is not None
    assert abs((dt.datetime.now(dt.UTC) - created).total_seconds()) < 600
    assert meta["take6.rows"] == "15"
    # the studies as `take6 study status --json` lists them (parameters with seats from 0)
    assert main(["study", "status", "--store", str(store), "--json"]) == 0
    assert json.loads(meta["take6.studies"]) == json.loads(capsys.readouterr().out)
    studies = {s["study"]: s for s in json.loads(meta["take6.studies"])}
    assert studies["deals"]["params"]["seed"] == 5 and studies["deals"]["params"]["player"] == 0
    assert studies["drafts-3p"]["params"]["first_pickers"] == [0, 1, 2]


def test_one_study_exports_only_its_rows_and_its_parameters(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "d.parquet"
    assert export_parquet(store, out, study="drafts") == 4
    meta = pq.read_metadata(out).metadata
    assert [s["study"] for s in json.loads(meta[b"take6.studies"])] == ["drafts"]
    table = pq.read_table(out)
    assert set(table.column("study").to_pylist()) == {"drafts"}
    assert "seat2_cards" not in table.column_names  # 2-player rows only: seats 0 and 1


def test_columns_are_typed_and_described(parquet: Path) -> None:
    schema = pq.read_schema(parquet)
    assert schema.names == [c.name for c in export_columns(3)]
    assert "summary" not in schema.names
    want = {
        "value": pa.string(),
        "value_float": pa.float64(),
        "lower_float": pa.float64(),
        "solved": pa.bool_(),
        "deal": pa.int64(),
        "seat0_support": pa.int64(),
        "seat0_mixed": pa.bool_(),
        "seat1_cards": pa.list_(pa.int64()),
        "seat1_probs": pa.list_(pa.string()),
        "seat1_probs_float": pa.list_(pa.float64()),
        "seat2_cards": pa.list_(pa.int64()),
        "line_cards": pa.list_(pa.list_(pa.int64())),
        "line_choices": pa.list_(pa.list_(pa.list_(pa.int64()))),
        "pick_values": pa.list_(pa.string()),
        "pick_values_float": pa.list_(pa.float64()),
        "best_picks": pa.list_(pa.int64()),
        "draft_seats": pa.list_(pa.int64()),
        "leaves": pa.int64(),
    }
    for name, kind in want.items():
        assert schema.field(name).type == kind, name
    for field in schema:
        assert field.metadata[b"description"], field.name


def test_strategy_columns_are_the_solvers_strategies(parquet: Path) -> None:
    df = pd.read_parquet(parquet)
    deals = df[df.kind == "deals"]
    assert len(deals) == 8 and deals.seat0_mixed.any()  # seed 5 has mixed roots
    for _, r in deals.iterrows():
        pos = parse_position(r.position)
        assert pos == deal_position(int(r.hand_size), int(r.deal), int(r.seed))
        result, _ = solve(pos, r.objective, int(r.player))
        assert fraction(r.value) == result.value and r.value_float == float(result.value)
        for p in (0, 1):
            strategy = {c: q for c, q in result.strategies[p].items() if q}
            cards = list(r[f"seat{p}_cards"])
            assert cards == sorted(strategy)
            assert [Fraction(q) for q in r[f"seat{p}_probs"]] == [strategy[c] for c in cards]
            assert list(r[f"seat{p}_probs_float"]) == [float(strategy[c]) for c in cards]
            assert r[f"seat{p}_support"] == len(cards) and r[f"seat{p}_mixed"] == (len(cards) > 1)
            assert sum(Fraction(q) for q in r[f"seat{p}_probs"]) == 1
        assert r.seat2_cards is None and pd.isna(r.seat2_support)  # 2 players: no seat 2
        assert [list(t) for t in r.line_cards] == [list(t.cards) for t in result.line]
        assert [list(t) for t in r.line_heads] == [list(t.heads) for t in result.line]
        # the row choices of each turn, as [seat, row] pairs
        for turn, t in zip(r.line_choices, result.line, strict=True):
            assert [list(c) for c in turn] == [list(c) for c in t.choices]
        assert r.pick_cards is None and pd.isna(r.draft_nodes)


def test_draft_columns_are_the_draft_solvers(parquet: Path) -> None:
    from solver.draft.solve import solve_draft

    df = pd.read_parquet(parquet)
    drafts = df[df.kind == "drafts"]
    assert sorted(drafts.study.unique()) == ["drafts", "drafts-3p"]
    for _, r in drafts.iterrows():
        got = solve_draft(
            int(r.players), int(r.hand_size), int(r.first_picker), r.objective, int(r.player)
        )
        assert fraction(r.value) == got.value
        assert list(r.pick_cards) == [p.card for p in got.picks]
        assert [fraction(v) for v in r.pick_values] == [p.value for p in got.picks]
        assert list(r.pick_values_float) == [float(p.value or 0) for p in got.picks]
        assert list(r.best_picks) == got.best_picks()
        assert list(r.draft_seats) == [d.seat for d in got.line]
        assert list(r.draft_cards) == [d.card for d in got.line]
        assert [list(t) for t in r.line_cards] == [list(t.cards) for t in got.play]
        assert r.draft_nodes == got.nodes and r.nodes == got.nodes + got.play_nodes
        assert r.seat0_cards is None and pd.isna(r.lps)


def _from_csv(field: str, kind: str) -> Any:
    if field == "":
        return None
    if kind.startswith("list"):
        return json.loads(field)
    if kind == "bool":
        return {"true": True, "false": False}[field]
    return {"int": int, "float": float, "text": str}[kind](field)


def test_csv_and_json_lines_have_the_same_columns_and_values(
    store: Path, parquet: Path, tmp_path: Path
) -> None:
    rows = pq.read_table(parquet).to_pylist()
    columns = export_columns(3)
    out = tmp_path / "r.csv"
    assert export_csv(store, out) == len(rows)
    with open(out, newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        header = next(reader)
        back = [
            {c.name: _from_csv(v, c.type) for c, v in zip(columns, line, strict=True)}
            for line in reader
        ]
    assert header == [c.name for c in columns]
    assert back == rows
    jl = tmp_path / "r.jsonl"
    assert export_jsonl(store, jl) == len(rows)
    assert [json.loads(line) for line in jl.read_text().splitlines()] == rows
    # pandas reads the CSV with the same header; lists are JSON arrays
    df = pd.read_csv(out)
    assert list(df.columns) == header and json.loads(df.seat0_cards.dropna().iloc[0])


def test_export_command_writes_every_format(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outs = [tmp_path / n for n in ("a.parquet", "a.csv", "a.jsonl")]
    argv = ["study", "export", "--store", str(store), "--study", "deals"]
    argv += ["--parquet", str(outs[0]), "--csv", str(outs[1]), "--jsonl", str(outs[2])]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert all(f"8 rows written to {o}" in err for o in outs)
    assert oct(outs[0].stat().st_mode & 0o777) != oct(0o600)  # not mkstemp's private mode


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "give --parquet OUT, --csv OUT, --jsonl OUT and/or --dataset DIR"),
        (["--dataset", "D", "--csv", "x.csv"], "--dataset writes its own files"),
        (["--dataset", " "], "--dataset needs a directory name"),
        (["--jsonl", ""], "--jsonl needs a file name"),
        (["--csv", "same", "--jsonl", "same"], "--csv and --jsonl name the same file"),
    ],
)
def test_export_usage_errors_are_one_line(
    store: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["study", "export", "--store", str(store), *extra]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if "warning" not in line]
    assert len(err) == 1 and message in err[0], err
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing written


def test_dataset_directory_and_its_data_card(store: Path, tmp_path: Path) -> None:
    target = tmp_path / "ds"
    argv = ["study", "export", "--store", str(store), "--dataset", str(target)]
    assert main(argv) == 0
    assert sorted(p.name for p in target.iterdir()) == sorted(FILES)
    df = pd.read_parquet(target / "positions.parquet")
    assert len(df) == 15
    card = (target / "README.md").read_text()
    assert f'pd.read_parquet("{target}/positions.parquet")' in card
    for c in export_columns(3):
        assert f"| `{c.name}` | {c.type} |" in card
    for phrase in ("## Rules", "## How to reproduce", "## Licence", "MIT", "seed=5"):
        assert phrase in card
    assert "take6 study deals --hand-size 3 --deals 8 --seed 5" in card
    assert "take6 study drafts --hand-size 1 --first-picker 1 2 3 --players 3" in card
    meta = json.loads((target / "metadata.json").read_text())
    assert [c["name"] for c in meta["columns"]] == list(df.columns)
    assert meta["take6.rows"] == "15" and meta["take6.studies"][0]["study"] == "deals"
    # the card is a function of the Parquet file alone
    raw = pq.read_metadata(target / "positions.parquet").metadata
    file_meta = {k.decode(): v.decode() for k, v in raw.items() if k.startswith(b"take6.")}
    rows = pq.read_table(target / "positions.parquet").to_pylist()
    assert datacard(file_meta, export_columns(3), rows, str(target)) == card
    # again: only with --force
    assert main(argv) == 2
    assert main([*argv, "--force"]) == 0


def test_dataset_refuses_a_file_an_empty_study_and_the_store(store: Path, tmp_path: Path) -> None:
    afile = tmp_path / "f"
    afile.write_text("x")
    with pytest.raises(StudyError, match="it is a file"):
        write_dataset(store, afile)
    empty = tmp_path / "e.sqlite"
    from solver.study.run import prepare

    prepare(empty, DealStudy(hand_sizes=(2,), deals=1))
    with pytest.raises(StudyError, match="no solved items"):
        write_dataset(empty, tmp_path / "ds")
    assert not (tmp_path / "ds").exists()


def test_force_never_replaces_files_of_something_else(store: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "README.md").write_text("my project\n")
    with pytest.raises(StudyError, match=r"holds README.md but is not a take6 dataset"):
        write_dataset(store, project, force=True)
    assert (project / "README.md").read_text() == "my project\n"
    assert sorted(p.name for p in project.iterdir()) == ["README.md"]
    (project / "README.md").unlink()
    write_dataset(store, project)  # an empty directory: fine, and then it is a dataset
    write_dataset(store, project, force=True)


def test_dataset_without_pyarrow(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(StudyError, match=r"needs pyarrow.parquet \(pip install 'take6\[study\]'\)"):
        write_dataset(store, tmp_path / "ds")
    assert not (tmp_path / "ds").exists()


def test_fraction_reads_values_of_any_length() -> None:
    big = "7" * 5000
    assert fraction(f"-{big}/3") == Fraction(-int(big[:4000]) * 10**1000 - int(big[4000:]), 3)
    assert fraction("5") == 5 and fraction("-2/3") == Fraction(-2, 3)
