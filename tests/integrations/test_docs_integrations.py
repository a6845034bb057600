"""The examples of docs/integrations.md run (with smaller numbers) and do what they say."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "integrations.md"
SMALLER = {"GAMES = 100": "GAMES = 2", "EPISODES = 20": "EPISODES = 2"}


def example_blocks() -> list[str]:
    """The python blocks that follow a line saying "Tested:"."""
    text = DOC.read_text(encoding="utf-8")
    return re.findall(r"Tested:\n\n```python\n(.*?)```", text, flags=re.DOTALL)


def test_the_doc_has_its_three_tested_examples() -> None:
    blocks = example_blocks()
    assert len(blocks) == 3
    assert all(any(k in b for k in SMALLER) for b in blocks[1:])


@pytest.mark.parametrize("index", [0, 1, 2])
def test_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    code = example_blocks()[index]
    for big, small in SMALLER.items():
        code = code.replace(big, small)
    namespace: dict[str, object] = {"__name__": "docs_example"}
    exec(compile(code, f"{DOC.name} example {index + 1}", "exec"), namespace)
    out = capsys.readouterr().out
    if index == 0:
        assert "-100.0" in out and "is not a legal action of player_" in out
    elif index == 1:
        rewards = namespace["time_step"].rewards  # type: ignore[attr-defined]
        assert all(r <= 0 for r in rewards) and any(r < 0 for r in rewards)
    else:
        assert out.startswith("heads per game: MCTS ")
        totals = namespace["totals"]
        assert float(totals.sum()) < 0  # type: ignore[attr-defined]
