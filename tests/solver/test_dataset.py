"""The shipped dataset ``data/logik-solved`` (made by ``take6 study export --dataset``, see its
data card): it loads with pandas in the card's one line, its data card is the one the code
writes for its rows and metadata, its deals are the study's deals, and its values re-verify
against the solver."""

from __future__ import annotations

import csv
import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from solver.analysis import stage_matrix
from solver.api import solve
from solver.draft.solve import solve_draft
from solver.matrix import verify
from solver.study.dataset import CARD, CSV, FILES, METADATA, PARQUET, datacard
from solver.study.export import EXPORT_SCHEMA_VERSION, export_columns, fraction
from solver.study.run import deal_position
from solver.walk import Node
from take6.notation import parse_position

pd = pytest.importorskip("pandas")
pq = pytest.importorskip("pyarrow.parquet")

ROOT = Path(__file__).resolve().parents[2]
WHERE = "data/logik-solved"
DATA = ROOT / WHERE


@pytest.fixture(scope="module")
def df(monkeypatch_module: pytest.MonkeyPatch) -> Any:
    """The data frame, loaded by the data card's own line (run from the repository root)."""
    card = (DATA / CARD).read_text()
    lines = re.findall(r"^df = pd\.read_parquet\(.*\)$", card, flags=re.MULTILINE)
    assert lines == [f'df = pd.read_parquet("{WHERE}/{PARQUET}")']
    monkeypatch_module.chdir(ROOT)
    scope: dict[str, Any] = {"pd": pd}
    exec(lines[0], scope)  # the card's line, verbatim
    return scope["df"]


@pytest.fixture(scope="module")
def monkeypatch_module() -> Any:
    with pytest.MonkeyPatch.context() as mp:
        yield mp


def _meta() -> dict[str, str]:
    raw = pq.read_metadata(DATA / PARQUET).metadata
    return {k.decode(): v.decode() for k, v in raw.items() if k.startswith(b"take6.")}


def test_the_dataset_is_small_and_complete() -> None:
    assert sorted(p.name for p in DATA.iterdir()) == sorted(FILES)
    assert sum(p.stat().st_size for p in DATA.iterdir()) < 1_000_000


def test_it_loads_with_pandas_in_one_line(df: Any) -> None:
    assert len(df) == 1012
    assert list(df.columns) == [c.name for c in export_columns(2)]
    assert set(df.kind) == {"deals", "drafts"}
    assert df.solved.all() and df.value_float.notna().all()
    assert str(df.dtypes["value_float"]) == "float64" and str(df.dtypes["nodes"]) == "int64"
    assert str(df.seat0_cards.iloc[0].dtype) == "int64"  # a list column: arrays of ints


def test_metadata_and_card_describe_these_rows() -> None:
    meta = _meta()
    assert meta["take6.export_schema"] == str(EXPORT_SCHEMA_VERSION)
    assert re.fullmatch(r"[0-9a-f]{40}", meta["take6.git_commit"]), "made from a clean commit"
    assert meta["take6.rows"] == "1012"
    studies = {s["study"]: s for s in json.loads(meta["take6.studies"])}
    assert studies["deals"]["params"]["seed"] == 2026
    assert studies["deals"]["done"] == studies["deals"]["items"] == 1000
    rows = pq.read_table(DATA / PARQUET).to_pylist()
    card = (DATA / CARD).read_text()
    assert card == datacard(meta, export_columns(2), rows, WHERE)
    side = json.loads((DATA / METADATA).read_text())
    assert side["take6.studies"] == json.loads(meta["take6.studies"])
    assert [c["name"] for c in side["columns"]] == [c.name for c in export_columns(2)]
    with open(DATA / CSV, newline="", encoding="utf-8") as fh:
        back = list(csv.DictReader(fh))
    assert [r["value"] for r in back] == [r["value"] for r in rows]
    assert [json.loads(r["seat0_probs"] or "null") for r in back] == [
        r["seat0_probs"] for r in rows
    ]


def test_every_deal_is_the_studys_deal_and_every_strategy_a_distribution(df: Any) -> None:
    deals = df[df.kind == "deals"]
    for r in deals.itertuples():
        pos = deal_position(r.hand_size, int(r.deal), int(r.seed), r.players)
        assert parse_position(r.position) == pos
        assert float(fraction(r.value)) == r.value_float
        for p in (0, 1):
            probs = [Fraction(q) for q in getattr(r, f"seat{p}_probs")]
            assert sum(probs) == 1 and all(q > 0 for q in probs)


def _sample(deals: Any) -> Any:
    """Per hand size: deals 0 and 1 and the first two with a mixed root."""
    picked = []
    for _, group in deals.groupby("hand_size"):
        picked += [group.iloc[0], group.iloc[1]]
        mixed = group[group.seat0_mixed.astype(bool)]
        picked += [mixed.iloc[0], mixed.iloc[1]]
    return picked


def test_values_and_strategies_re_verify_against_the_solver(df: Any) -> None:
    # The value must be the solver's; each stored strategy must be optimal in the exact root
    # game (an optimal strategy need not be unique, so the one the solver finds today may be
    # another: the check is that the stored pair guarantees the value from both sides).
    rows = _sample(df[df.kind == "deals"])
    assert len(rows) == 16 and sum(bool(r.seat0_mixed) for r in rows) >= 8
    for r in rows:
        result, search = solve(parse_position(r.position), r.objective, int(r.player))
        assert result.solved and fraction(r.value) == result.value, r.item
        problem = search.problem
        assert len(problem.max_side) == len(problem.min_side) == 1
        stored = {
            p: dict(zip(r[f"seat{p}_cards"], map(Fraction, r[f"seat{p}_probs"]), strict=True))
            for p in (0, 1)
        }
        root = Node.of(problem.position)
        actions = search.actions(root.hands)
        x, y = (
            [stored[side[0]].get(a[0], Fraction(0)) for a in acts]
            for side, acts in zip((problem.max_side, problem.min_side), actions, strict=True)
        )
        assert verify(stage_matrix(search, root), result.value, x, y), r.item


def test_draft_values_re_verify_against_the_draft_solver(df: Any) -> None:
    drafts = df[(df.kind == "drafts") & (df.hand_size <= 4)]
    assert len(drafts) == 8
    for _, r in drafts.iterrows():
        got = solve_draft(
            int(r.players), int(r.hand_size), int(r.first_picker), r.objective, int(r.player)
        )
        assert fraction(r.value) == got.value, r.item
        assert [fraction(v) for v in r.pick_values] == [p.value for p in got.picks]
        assert list(r.best_picks) == got.best_picks()
