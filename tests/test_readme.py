"""The README's examples work as printed: its Python block runs, and the `take6 turn` session
it shows is what the command prints."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest

from take6.cli import main as cli

README = (Path(__file__).parent.parent / "README.md").read_text()


def test_python_example_runs() -> None:
    """The README's Python session is a doctest: every printed result must be what it shows."""
    blocks = re.findall(r"```pycon\n(.*?)```", README, flags=re.S)
    assert blocks, "README has no Python example"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README.md block {i + 1}", "README.md", 0)
        assert test.examples, f"README block {i + 1} has no examples"
        result = runner.run(test, out=lambda text: None)
        assert result.failed == 0, f"README block {i + 1}: {result.failed} example(s) differ"


def _console_session(title: str) -> list[tuple[str, str]]:
    """(command, expected output) pairs of the console block under the heading ``title``."""
    section = README.split(title, 1)[1]
    block = re.search(r"```console\n(.*?)```", section, flags=re.S)
    assert block is not None
    pairs: list[tuple[str, str]] = []
    for chunk in block.group(1).split("$ ")[1:]:
        command, _, output = chunk.partition("\n")
        pairs.append((command, output))
    return pairs


def test_turn_session_matches(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "_plugins", lambda only=None: [])
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")
    pairs = _console_session("### `take6 turn`")
    assert len(pairs) == 3
    for command, expected in pairs:
        argv = shlex.split(command)
        assert argv[0] == "take6"
        code = cli.main(argv[1:])
        out, err = capsys.readouterr()
        if expected.startswith("take6: error:"):
            assert code == 2 and err.strip() == expected.strip()
        elif "[...]" in expected:  # an abbreviated JSON line
            assert code == 0 and out.startswith(expected.split("[...]")[0])
        else:
            assert code == 0 and out.strip() == expected.strip()
