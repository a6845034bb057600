"""``take6 completion``: the generated shell script, run by bash as a user's shell would."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from take6.cli.main import main


def test_bash_completion_completes_commands_options_and_choices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The script `take6 completion bash` prints, run by bash as a user's shell would."""
    assert main(["completion", "bash"]) == 0
    script = tmp_path / "take6.bash"
    script.write_text(capsys.readouterr().out)

    def complete(*words: str) -> list[str]:
        line = " ".join(f"'{w}'" for w in words)
        cmd = (
            f"source {script}; COMP_WORDS=(take6 {line}); COMP_CWORD={len(words)}; _take6; "
            'printf "%s\\n" "${COMPREPLY[@]}"'
        )
        proc = subprocess.run(
            ["bash", "-c", cmd], capture_output=True, text=True, check=True, cwd=tmp_path
        )
        return [w for w in proc.stdout.split("\n") if w]

    assert complete("so") == ["solve"]
    assert "conform" in complete("") and "verify" in complete("")
    assert complete("solve", "--co") == ["--core"]
    assert complete("solve", "--core", "") == ["auto", "native", "python"]
    assert complete("play", "--variant", "pro") == ["profi"]
    assert complete("ana") == ["analyse"]
    assert complete("analyse", "--bo") == ["--bot"]
    assert complete("analyse", "--bot", "") == ["random", "cheapest", "safe"]
    assert complete("analyse", "--core", "n") == ["native"]
    assert "--record" in complete("play", "--re")
    (tmp_path / "game.json").write_text("{}")
    assert complete("replay", "ga") == ["game.json"]
    assert main(["completion", "fish"]) == 2
