"""``notebooks/endgame.ipynb`` runs end to end in the venv's kernel (through nbclient), and the
saved copy in the repository holds the outputs of a real run."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "endgame.ipynb"
PROBE = "import sys\nprint('KERNEL-PREFIX', sys.prefix)"


def _text(cells: list[Any]) -> str:
    """The printed output of the code cells (saved notebooks may hold text as a list of lines)."""
    return "".join(
        "".join(o.get("text", ""))
        for c in cells
        if c["cell_type"] == "code"
        for o in c["outputs"]
        if o["output_type"] == "stream"
    )


def test_endgame_notebook_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("matplotlib")
    pytest.importorskip("pandas")
    kernel_manager = pytest.importorskip("jupyter_client.manager")
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    # IPC sockets in the temporary directory: the kernel needs no network at all.
    km = kernel_manager.KernelManager(
        kernel_name="python3", transport="ipc", ip=str(tmp_path / "kernel")
    )
    client = nbclient.NotebookClient(
        nb, km=km, timeout=300, resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = _text(nb.cells)
    # The kernel is the test's own Python environment (the venv), not some other python3.
    assert f"KERNEL-PREFIX {sys.prefix}\n" in text
    assert "value (heads of player 2 minus heads of player 1): " in text
    assert "read back: same" in text
    assert sum("image/png" in o.get("data", {}) for o in outputs) >= 1
    assert sum("image/svg+xml" in o.get("data", {}) for o in outputs) >= 1
    # The run reproduces the saved outputs (the game is seeded, the solver exact).
    saved = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    value_line = [t for t in text.splitlines() if t.startswith("value (heads")]
    assert value_line == [t for t in _text(saved["cells"]).splitlines() if t.startswith("value (")]


def test_endgame_value_matches_the_solver() -> None:
    from solver.api import fraction_text, solve
    from take6.play.bots import make_bot
    from take6.play.game import play_game
    from take6.rules import Rules
    from take6.state import Phase

    saved = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    params = "".join(saved["cells"][1]["source"])
    assert "SEED = 1" in params and 'BOTS = ("safe", "cheapest")' in params
    record = play_game(
        Rules.for_variant("logik", players=2), [make_bot("safe"), make_bot("cheapest")], 1
    )
    state = next(
        s
        for s in record.states
        if s.round == 1
        and s.phase is Phase.CHOOSE
        and all(c is None for c in s.chosen)
        and len(s.hands[0]) == 4
    )
    result, _ = solve(state.position(), "diff", 0)
    assert result.value is not None
    text = _text(saved["cells"])
    assert f"{state.position()}\n" in text
    assert f"player 1): {fraction_text(result.value)}\n" in text


def test_saved_endgame_notebook_has_real_outputs() -> None:
    size = NOTEBOOK.stat().st_size
    assert size < 1_000_000, f"{NOTEBOOK.name} is {size} bytes"
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(c["execution_count"] is not None for c in code), "the notebook was not run"
    assert [c["execution_count"] for c in code] == list(range(1, len(code) + 1))
    outputs = [o for c in code for o in c["outputs"]]
    assert not [o for o in outputs if o["output_type"] == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs)
