"""The notebooks run end to end (small parameters, through nbclient) and the saved copies in
the repository hold the outputs of a real run."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "logik_draft.ipynb"
SMALL = {
    "TAKE6_NB_DEAL_K": "2,3",
    "TAKE6_NB_DEALS": "12",
    "TAKE6_NB_SEED": "5",
    "TAKE6_NB_DRAFT_K": "1,2",
    "TAKE6_NB_DRAFT3_K": "1",
    "TAKE6_NB_WORKERS": "1",
    "TAKE6_NB_BOTGAP_K": "2,3",
    "TAKE6_NB_SAFE_K": "4",
    "TAKE6_NB_RANDOM_K": "4",
    "TAKE6_NB_CHEAPEST_K": "",  # (cheapest is in BOTGAP_K already)
    "TAKE6_NB_BOTGAP_SEEDS": "2",
    "TAKE6_NB_SAFETY_K": "1,2,3",
    "TAKE6_NB_SAFETY3_K": "1,2",
}


def test_logik_draft_notebook_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("matplotlib")
    pytest.importorskip("pandas")
    kernel_manager = pytest.importorskip("jupyter_client.manager")
    for key, value in SMALL.items():
        monkeypatch.setenv(key, value)
    store = tmp_path / "small.sqlite"
    monkeypatch.setenv("TAKE6_NB_STORE", str(store))
    gaps = tmp_path / "botgap.jsonl"
    monkeypatch.setenv("TAKE6_NB_BOTGAP", str(gaps))
    monkeypatch.setenv("TAKE6_NB_LARGE", str(ROOT / "notebooks" / "drafts_large.jsonl"))
    monkeypatch.setenv("TAKE6_NB_K10", str(ROOT / "data" / "k10"))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # IPC sockets in the temporary directory: the kernel needs no network at all.
    km = kernel_manager.KernelManager(
        kernel_name="python3", transport="ipc", ip=str(tmp_path / "kernel")
    )
    # (a cell may take minutes: the 2 x 10 study's reads every solved deal back and finds the
    # best reply to safe in both seats of each, about a minute for 8 deals on a shared machine)
    client = nbclient.NotebookClient(
        nb, km=km, timeout=300, resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "deals: 24 items, 0 already in the store, 24 solved now" in text
    assert "drafts-2p: 4 items" in text and "drafts-3p: 3 items" in text
    assert "bot gaps: 16 items, 16 computed now" in text
    assert "safe at k=4 gives up" in text and "random at k=4 gives up" in text
    assert "long drafts: 2 read from" in text
    assert "safety: 5 drafts searched in " in text
    assert "2 x 10 deals: 1 cells files read from" in text and ", 1 solved" in text
    assert "2 x 10 deal 2: value -1.594669 (exact, 21746 digits)" in text
    m = re.search(
        r"2 x 10 study: (\d+) cells files in .*, deals 0\.\.(\d+) solved: (\d+) read", text
    )
    assert m is not None and int(m.group(3)) == int(m.group(2)) + 1 >= 4 <= int(m.group(1))
    assert re.search(r"2 x 10 study \(seed 0\): \d+ deals solved, mean value ", text)
    # The deal two safe bots draft: its file read as it stands (solved: its value and what
    # picking first is worth; not yet: its bounds so far).
    assert "safe draft, player 1 picks first: logik:24 10/11/20/22 " in text
    assert re.search(r"picking first is worth [-+]\d|not solved yet: \S+ <= value <= ", text)
    assert re.search(r"safe \(picking first\) against random drafting: \d+ deals solved", text)
    assert len(gaps.read_text(encoding="utf-8").splitlines()) == 16
    assert sum("image/png" in o.get("data", {}) for o in outputs) >= 6
    assert store.is_file()


def test_saved_notebook_has_real_outputs() -> None:
    size = NOTEBOOK.stat().st_size
    assert size < 1_000_000, f"{NOTEBOOK.name} is {size} bytes"
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert "parameters" in code[0]["metadata"].get("tags", [])
    assert all(c["execution_count"] is not None for c in code), "the notebook was not run"
    outputs = [o for c in code for o in c["outputs"]]
    assert not [o for o in outputs if o["output_type"] == "error"]
    assert sum("image/png" in o.get("data", {}) for o in outputs) >= 5
